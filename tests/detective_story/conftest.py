"""Shared fixtures: the shipped campaign, a tiny campaign for fast exact checks, records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TINY = {
    "campaign.toml": '''
[campaign]
id = "tiny"
name = "A tiny test campaign"
baker_street = "m403"
escape = "m629"
first_case = ["a001", "a001", "a001", "a001", "a001", "a001"]
equipment = ["m413", "m413", "m413", "m413", "m413", "m413"]
''',
    "adventures.toml": '''
[[adventure]]
id = "a001"
name = "The Test Case"
london = false
villain   = ["c201", "c201", "c201", "c202", "c202", "c202"]
character = ["m404", "m410", "m410", "m410", "m404", "m410"]
holmes    = ["m440", "m440", "m440", "m440", "m440", "m440"]
watson    = ["m450", "m450", "m450", "m450", "m450", "m450"]
clue      = ["m420", "m420", "m420", "m421", "m421", "m421"]
location  = ["m430", "m430", "m430", "m430", "m430", "m430"]
''',
    "casebook.toml": '''
[[villain]]
id = "c201"
name = "The Forger"
brains = 8
brawn = 6
bravery = 6
sm_modifier = 1
motives = [{ faces = "1-3", text = "money", value = 2 }, { faces = "4-6", text = "spite", value = 3 }]
option1 = { text = "", effects = [] }
option2 = { text = "", effects = [{ require = "Science", pass = [{ sm = 1 }], fail = [{ luck = -1 }] }] }
[villain.option3]
hide_follow = { test = "Tracking", target = 8 }
fight = true
escape = [{ sm = -1 }]

[[villain]]
id = "c202"
name = "The Medium"
brains = 10
brawn = 4
bravery = 6
sm_modifier = 0
motives = [{ faces = "1-6", text = "grief", value = 2 }]
option1 = { text = "", effects = [{ luck = 1 }] }
option2 = { text = "", effects = [{ test = "Charisma", target = 8, pass = [{ sm = 1 }] }] }
[villain.option3]
hide_follow = { test = "Brains", modifier = -1 }
fight = false
''',
    "memoirs.toml": '''
[[paragraph]]
id = "m403"
kind = "story"
title = "Baker Street"

[[paragraph]]
id = "m629"
kind = "story"
title = "Escaped"

[[paragraph]]
id = "m413"
kind = "equipment"
title = "Revolver"
grants = { Weaponry = 1 }

[[paragraph]]
id = "m404"
kind = "character"
title = "An inspector"
character = { name = "Inspector", brains = 6, brawn = 6, bravery = 7, traits = { Tracking = 1 } }
effects = [{ test = "Charisma", target = 7, pass = [{ join = "self" }] }]

[[paragraph]]
id = "m410"
kind = "character"
title = "A witness"
character = { name = "Witness", brains = 6, brawn = 4, bravery = 4 }
effects = [{ test = "Charisma", target = 8, pass = [{ sm = 1 }] }]

[[paragraph]]
id = "m440"
kind = "event"
title = "Violin"
effects = [{ luck = 1 }]

[[paragraph]]
id = "m450"
kind = "event"
title = "Notes"
effects = [{ sm = 1 }]

[[paragraph]]
id = "m420"
kind = "clue"
title = "A clue"
effects = [{ sm = 1 }]

[[paragraph]]
id = "m421"
kind = "clue"
title = "A letter"
effects = [{ test = "Brains", pass = [{ reveal = "villain" }], fail = [{ reveal = "motive" }] }]

[[paragraph]]
id = "m430"
kind = "location"
title = "The docks"
effects = [{ test = "Bravery", pass = [{ sm = 1 }], fail = [{ luck = -1 }] }]
''',
}


def write_campaign(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def tiny_dir(tmp_path) -> Path:
    return write_campaign(tmp_path / "tiny", TINY)


@pytest.fixture(scope="session")
def tiny_session_dir(tmp_path_factory) -> Path:
    return write_campaign(tmp_path_factory.mktemp("tiny"), TINY)


@pytest.fixture(scope="session")
def shipped():
    from deduce.models.detective_story.data import load_campaign

    return load_campaign()


def load_case(data, record: dict):
    from deduce.models.detective_story.state import parse_record

    return parse_record(json.loads(json.dumps(record)), "test", data)


def fresh(data, adventure: str = "a001", seed: int = 1, **changes):
    """A parsed fresh record with ``changes`` applied to the record's fields."""
    from deduce.models.detective_story.campaign import new_record

    rec = new_record(data, adventure, seed=seed)
    rec.update(changes)
    return load_case(data, rec)
