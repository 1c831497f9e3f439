"""A record of another game is named as such by every game's commands."""

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core.errors import InputError
from deduce.core.games import identify, refuse_other_game
from deduce.puzzles import puzzle_path

S13 = {"game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben"], "me": "Ann",
       "hand": [], "events": []}
STORY = {"game": "detective-story", "adventure": "a001", "turn": 3, "sm": 1, "luck": 2}


@pytest.mark.parametrize("data,game", [
    (S13, "sherlock13"), (STORY, "detective-story"),
    ({k: v for k, v in S13.items() if k != "game"}, "sherlock13"),
    ({k: v for k, v in STORY.items() if k != "game"}, "detective-story"),
    ({"game": "chess"}, None), ({"players": [], "turn": 1}, None), ([], None), ({}, None),
])
def test_identify(data, game):
    assert identify(data) == game


def test_refusals_name_both_games():
    with pytest.raises(InputError) as info:
        refuse_other_game(STORY, "sherlock13", "x.json")
    assert str(info.value) == ("x.json: this is a Detective Story case record, not a "
                               "Sherlock 13 record (use deduce story ...)")
    with pytest.raises(InputError) as info:
        refuse_other_game({"game": "chess"}, "detective-story", "x.json")
    assert str(info.value) == ("x.json: field 'game': this is a record of the game 'chess', "
                               'not a Detective Story case record (expected "game": '
                               '"detective-story")')
    refuse_other_game(S13, "sherlock13", "x.json")  # its own game: nothing to say


def test_story_commands_name_a_sherlock13_record(tmp_path):
    demo = str(puzzle_path("sherlock13", "demo-4p.json"))
    for command in (["state"], ["advise"], ["turn"], ["table"], ["end"]):
        res = CliRunner().invoke(cli, ["story", *command, demo])
        assert res.exit_code == 2, command
        assert res.output == (f"error: {demo}: this is a Sherlock 13 record, not a Detective "
                              "Story case record (use deduce s13 ...)\n")


def test_s13_commands_name_a_story_record(tmp_path):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(STORY), encoding="utf-8")
    for command in (["analyze"], ["why", "moriarty"]):
        res = CliRunner().invoke(cli, ["s13", command[0], str(path), *command[1:]])
        assert res.exit_code == 2
        assert "this is a Detective Story case record, not a Sherlock 13 record" in res.output


def test_a_case_notes_table_record_is_named_by_the_other_games(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"game": "case-notes", "case": "zebra", "read": [1]}))
    assert identify({"case": "zebra", "read": [1]}) == "case-notes"
    for command in (["s13", "analyze"], ["story", "state"]):
        res = CliRunner().invoke(cli, [*command, str(path)])
        assert res.exit_code == 2
        assert "this is a case notes table record" in res.output
        assert "(use deduce case table ...)" in res.output
