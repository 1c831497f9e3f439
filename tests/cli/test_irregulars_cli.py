"""``deduce irregulars`` through click's CliRunner: every command with exact JSON values on
the sample and the hand-built positions (tests/irregulars/positions, worked out by hand in
tests/irregulars/test_*.py), exit 2 on bad files naming the field, --json printing only
JSON, user names shown literally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.models.irregulars.cards import shipped_cards, shipped_path
from tests.irregulars.helpers import GREGSON, SOLO, data
from tests.irregulars.test_arrest import SAMPLE_ANSWER


def run(*args: str):
    return CliRunner().invoke(cli, ["irregulars", *args], catch_exceptions=False,
                              env={"COLUMNS": "120"})


def ok_json(*args: str):
    res = run(*args, "--json")
    assert res.exit_code == 0, res.stderr
    assert res.stderr == ""
    return json.loads(res.stdout)  # nothing but the JSON on stdout


def write(tmp_path: Path, d, name: str = "pos.json") -> str:
    path = tmp_path / name
    path.write_text(d if isinstance(d, str) else json.dumps(d))
    return str(path)


def bad(*args: str, where: str, json_too: bool = True) -> str:
    res = run(*args)
    assert res.exit_code == 2, res.stdout
    assert "Traceback" not in res.stderr and where in res.stderr, res.stderr
    if json_too:
        res = run(*args, "--json")
        assert res.exit_code == 2
        out = json.loads(res.stdout)
        assert out["error"] == "bad-input" and where in out["message"]
    return res.stderr


# ----------------------------------------------------------------------------- cards
def test_cards_json_and_human():
    assert ok_json("cards") == shipped_cards().to_json()
    res = run("cards")
    assert res.exit_code == 0
    for text in ("The Fog Over Baker Street", "Deck I", "Deck V", "Prof. James Moriarty",
                 "Col. Sebastian Moran", "2 per black card", "No tailing this round",
                 "Solo Holmes Track"):
        assert text in res.stdout, text


def test_cards_of_ones_own_and_a_bad_one(tmp_path):
    text = shipped_path().read_text()
    good = write(tmp_path, text.replace("The Fog Over Baker Street", "[bold]Mine"), "m.toml")
    assert ok_json("cards", "--cards", good)["title"] == "[bold]Mine"
    assert "[bold]Mine" in run("cards", "--cards", good).stdout
    broken = write(tmp_path, text.replace("cost = 4", "cost = 40", 1), "b.toml")
    err = bad("cards", "--cards", broken, where=f"{broken}: [[evidence]] 1 ('E001'), field 'cost'")
    assert "from 0 to 13" in err
    bad("cards", "--cards", str(tmp_path / "none.toml"), where="none.toml")


# ----------------------------------------------------------------------------- arrest
def test_arrest_sample_json_is_the_spec():
    assert ok_json("arrest", "sample") == SAMPLE_ANSWER


def test_arrest_for_another_player():
    """Cat: E003 gang, E008 blood, E013 disguise, E018 coins+scroll, E024 heart+print, no
    tail, no board: only Moran (heart disguise gang blood), with four cards."""
    assert ok_json("arrest", "sample", "--player", "cat") == {"player": "Cat", "villains": [
        {"villain": "V07", "points": 6, "arrestable": False, "cards": [], "uses": [],
         "missing": ["song"]},
        {"villain": "V12", "points": 6, "arrestable": False, "cards": [], "uses": [],
         "missing": ["skull", "song"]},
        {"villain": "V02", "points": 8, "arrestable": True,
         "cards": ["E003", "E008", "E013", "E024"], "uses": [], "missing": []},
        {"villain": "V33", "points": 3, "arrestable": False, "cards": [], "uses": [],
         "missing": ["song"]},
        {"villain": "V21", "points": 5, "arrestable": False, "cards": [], "uses": [],
         "missing": ["skull", "song"]}], "best": "V02"}
    bad("arrest", "sample", "--player", "dan", where="--player")


def test_arrest_human():
    res = run("arrest", "sample")
    assert res.exit_code == 0
    assert "What Ann can arrest now (5 unused Evidence cards)" in res.stdout
    assert "Best: arrest V07 Dr. Grimesby Roylott (6 points) with E001, E010 (2 cards) " \
           "using your tail and the Holmes board's ignore." in " ".join(res.stdout.split())
    res = run("arrest", str(SOLO), "--player", "holmes")
    assert res.exit_code == 0 and "What Holmes can arrest now" in res.stdout


def test_arrest_plan():
    assert ok_json("arrest", "sample", "--plan") == {
        "player": "Ann", "phases_left": 11, "points": 11, "cards_used": 5, "arrests": [
            {"villain": "V21", "points": 5, "cards": ["E001", "E027"], "uses": ["holmes"]},
            {"villain": "V07", "points": 6, "cards": ["E006", "E010", "E022"],
             "uses": ["tail"]}]}
    assert ok_json("arrest", "sample", "--plan", "--player", "Cat")["points"] == 8
    res = run("arrest", "sample", "--plan")
    words = " ".join(res.stdout.split())
    assert res.exit_code == 0
    assert "Plan for Ann: 11 points in 2 arrests (5 cards), 11 Arrest Phases left" in words
    assert "refill the row" in words and "not planned" in words


# ----------------------------------------------------------------------------- holmes
def test_holmes():
    assert ok_json("holmes", str(SOLO)) == {"arrest": "V21", "cards": ["E050"]}
    res = run("holmes", str(SOLO))
    assert res.exit_code == 0
    assert "Holmes arrests V21 Abe Slaney (5 points) with E050" in " ".join(res.stdout.split())
    err = bad("holmes", "sample", where="field 'mode'")
    assert "solo" in err


# ----------------------------------------------------------------------------- score
def test_score():
    assert ok_json("score", str(GREGSON))["players"][0] == {
        "name": "Ann", "villain_points": 8, "objectives": [5, 10, 5], "best": 1, "total": 18}
    assert ok_json("score", str(SOLO)) == {"players": [
        {"name": "Ann", "villain_points": 5, "objectives": [2, 0, 0], "best": 0, "total": 7},
        {"name": "Holmes", "villain_points": 12, "objectives": None, "best": None,
         "total": 12}]}
    assert ok_json("score", "sample") == {"players": [
        {"name": "Ann", "villain_points": 0, "objectives": [3, 4, 0], "best": 1, "total": 4},
        {"name": "Ben", "villain_points": 5, "objectives": None, "best": None, "total": None},
        {"name": "Cat", "villain_points": 0, "objectives": None, "best": None,
         "total": None}]}
    res = run("score", str(GREGSON))
    words = " ".join(res.stdout.split())
    for text in ("1 per location card", "2 per black card", "5 per pair of cards of one story",
                 "10 best", "Inspector Gregson"):
        assert text in words, text


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("command", [["arrest"], ["arrest", "--plan"], ["holmes"], ["score"]])
def test_bad_files_name_the_field(tmp_path, command):
    name = command[0]
    missing = str(tmp_path / "none.json")
    bad(name, missing, *command[1:], where="none.json")
    bad(name, write(tmp_path, "{", "broken.json"), *command[1:], where="broken.json")
    d = data(SOLO)
    d["bsi"]["Ann"]["spent"] = 2
    bad(name, write(tmp_path, d), *command[1:], where="pos.json: field 'bsi.Ann'")
    d = data(SOLO, villains=["V20", "V99"])
    bad(name, write(tmp_path, d), *command[1:], where="field 'villains[1]'")


# ----------------------------------------------------------------------------- literal
def renamed(old: str, new: str) -> dict:
    d = data()
    d["players"] = [new if p == old else p for p in d["players"]]
    d["order"] = [new if p == old else p for p in d["order"]]
    d["me"] = new if d["me"] == old else d["me"]
    for key in ("evidence", "bsi", "tailing", "arrested", "boards"):
        d[key] = {new if p == old else p: v for p, v in d[key].items()}
    return d


def test_names_are_shown_literally(tmp_path):
    path = write(tmp_path, renamed("Ann", "[bold]x"))
    for args in (["arrest", path], ["arrest", path, "--plan"], ["score", path]):
        res = run(*args)
        assert res.exit_code == 0, res.stderr
        assert "[bold]x" in res.stdout, args
    assert ok_json("arrest", path)["player"] == "[bold]x"
    esc = write(tmp_path, renamed("Ben", "B\x1b[2Jen"), "esc.json")
    res = run("score", esc)
    assert "\x1b[2J" not in res.stdout and "B\\x1b[2Jen" in res.stdout


def test_help_has_examples():
    res = CliRunner().invoke(cli, ["irregulars", "--help"])
    assert res.exit_code == 0 and "deduce irregulars arrest sample --plan" in res.stdout
    top = CliRunner().invoke(cli, ["--help"])
    assert "deduce irregulars arrest sample" in top.stdout
    for command in ("cards", "arrest", "holmes", "score"):
        res = CliRunner().invoke(cli, ["irregulars", command, "--help"])
        assert res.exit_code == 0 and "Example" in res.stdout
