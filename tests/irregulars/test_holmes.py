"""holmes: solo Holmes's arrest on hand-built positions (tests/irregulars/positions/solo.json).

Holmes's unused Evidence there: E050 skull+coins, E062 coins+song, E094 heart+gang, E082
song+blood (E002 print is used). He tails every Villain (one icon may be missing):
V20 Beppo (5: heart song gang blood) takes 2 cards; V21 Abe Slaney (5: skull coins song)
takes E050 alone (song left out); so V21 (5 points, 1 card) beats V20 (5 points, 2 cards)
although V20 comes first in the row.
"""

from __future__ import annotations

import pytest

from deduce.core.errors import InputError
from deduce.models.irregulars.holmes import holmes_arrest, holmes_json, holmes_options
from tests.irregulars.helpers import SOLO, data, position


def test_fewest_cards_break_the_tie_on_points():
    pos = position(SOLO)
    assert holmes_json(pos) == {"arrest": "V21", "cards": ["E050"]}
    options = {a.villain.id: a for a in holmes_options(pos)}
    # heart-gang and song-blood match all 4; the tail drops blood (the end of the last
    # pair), song then comes from its first card, E062
    assert [c.id for c in options["V20"].cards] == ["E062", "E094"]
    assert all(a.uses == ("tail",) for a in options.values())
    # V06 (skull coins scroll, 3): scroll on no card, the tail covers it: E050
    assert [c.id for c in options["V06"].cards] == ["E050"]
    # V33 (song print blood): the used E002 does not count: print left out, E082
    assert [c.id for c in options["V33"].cards] == ["E082"]


def test_first_in_the_row_breaks_a_tie_on_points_and_cards():
    """V37 Eduardo Lucas (5: heart skull coins song) takes 2 cards, as V20 does."""
    for row, first in ((["V37", "V20"], "V37"), (["V20", "V37"], "V20")):
        pos = position(SOLO, villains=row, tailing={"Ann": None, "Holmes": None},
                       bsi={"Ann": {"available": 7, "spent": 6},
                            "Holmes": {"available": 10, "spent": 3}})
        assert len(holmes_arrest(pos).cards) == 2
        assert holmes_json(pos)["arrest"] == first


def test_most_points_first():
    """V10 Culverton Smith (11: heart skull scroll disguise blood) with E017 heart+scroll
    added: disguise left out, heart+scroll, skull, blood: 3 cards, 11 points beat 5."""
    d = data(SOLO)
    d["evidence"]["Holmes"].append({"card": "E017", "used": False})
    d["villains"] = ["V21", "V10"]
    d["tailing"] = {"Ann": None, "Holmes": None}
    d["bsi"]["Ann"] = {"available": 7, "spent": 6}
    from deduce.models.irregulars.position import parse_position

    pos = parse_position(d, "solo.json")
    assert holmes_json(pos) == {"arrest": "V10", "cards": ["E050", "E082", "E017"]}


def test_nothing_to_arrest():
    d = data(SOLO)
    d["evidence"]["Holmes"] = [{"card": "E002", "used": False}]  # print only
    d["villains"] = ["V20", "V21"]
    d["tailing"] = {"Ann": None, "Holmes": None}
    d["bsi"]["Ann"] = {"available": 7, "spent": 6}
    from deduce.models.irregulars.position import parse_position

    assert holmes_json(parse_position(d, "solo.json")) == {"arrest": None, "cards": []}


def test_a_multi_position_is_refused_naming_mode():
    with pytest.raises(InputError) as e:
        holmes_json(position(), "game.json")
    assert "game.json: field 'mode'" in str(e.value) and e.value.field == "mode"
