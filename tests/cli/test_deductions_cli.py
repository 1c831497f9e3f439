"""``deduce deductions`` through the installed console script: each command, human and
JSON, and the error paths. Expected values are worked out by hand from the hand-made
position ``tests/deductions/positions/hand.json`` (its grid, by cell, a1 top left)::

    Wri Wri Wri Kno        Writings: three in row 1 (d1 is Knowledge)
    Kno Art P&T  .         row 3: empty but Irene Adler (Knowledge) at c3
     .   .  Kno*  .        Statements: all of row 4
    Sta Sta Sta Sta

Writings: row 1 propped at d1; the L a1 b1 c1 + a2 and + c2, the T a1 b1 c1 + b2, each
propped at its fourth cell (4). Statements: row 4 exact; the L a4 b4 c4 + a3 or c3 and b4
c4 d4 + b3 or d3; the T a4 b4 c4 + b3 and b4 c4 d4 + c3, propped (6 + 1). No other suit
has three cards in a placement: 11 placements, 1 exact.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli.procs import deduce_argv, quiet_env

HAND = Path(__file__).parents[1] / "deductions" / "positions" / "hand.json"
ME = "[red]Ann"


def run(*args: str, columns: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*deduce_argv(), "deductions", *args], capture_output=True,
                          text=True, env=quiet_env(COLUMNS=str(columns)), timeout=60)


def ok_json(*args: str) -> dict:
    res = run(*args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def write(tmp_path: Path, data, name: str = "pos.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def hand(**changes) -> dict:
    data = json.loads(HAND.read_text())
    data.update(changes)
    return data


# ----------------------------------------------------------------------------- patterns
def cells(entry) -> set:
    return {tuple(c) for c in entry}


def test_patterns_json_counted_by_hand():
    out = ok_json("patterns", str(HAND))
    assert out["mind_palace_forced"] is False
    got = {(p["kind"], p["suit"], frozenset(cells(p["cells"])),
            None if p["prop"] is None else tuple(p["prop"])) for p in out["patterns"]}
    w = [(0, 0), (0, 1), (0, 2)]
    s3, s4 = [(3, 0), (3, 1), (3, 2)], [(3, 1), (3, 2), (3, 3)]
    expected = {("row", "Statements", frozenset(s3 + [(3, 3)]), None),
                ("row", "Writings", frozenset(w + [(0, 3)]), (0, 3)),
                ("l", "Writings", frozenset(w + [(1, 0)]), (1, 0)),
                ("l", "Writings", frozenset(w + [(1, 2)]), (1, 2)),
                ("t", "Writings", frozenset(w + [(1, 1)]), (1, 1)),
                ("l", "Statements", frozenset(s3 + [(2, 0)]), (2, 0)),
                ("l", "Statements", frozenset(s3 + [(2, 2)]), (2, 2)),
                ("l", "Statements", frozenset(s4 + [(2, 1)]), (2, 1)),
                ("l", "Statements", frozenset(s4 + [(2, 3)]), (2, 3)),
                ("t", "Statements", frozenset(s3 + [(2, 1)]), (2, 1)),
                ("t", "Statements", frozenset(s4 + [(2, 2)]), (2, 2))}
    assert len(out["patterns"]) == 11 and got == expected
    for p in out["patterns"]:
        assert set(p) == {"kind", "cells", "suit", "prop", "take"}
        prop = [] if p["prop"] is None else [tuple(p["prop"])]
        assert cells(p["take"]) == cells(p["cells"]) - set(prop)


def test_patterns_human_fits_80_columns_and_shows_the_grid():
    res = run("patterns", str(HAND), columns=80)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "1  Wri   Wri   Wri   Kno" in res.stdout
    assert "3   ·     ·    Kno*   ·" in res.stdout
    assert "Irene Adler at c3" in res.stdout
    assert "11 patterns: 1 exact" in res.stdout
    assert "Mind Palace is not forced" in res.stdout
    at = next(i for i, line in enumerate(lines) if "│ row     │ Writings" in line)
    assert "│ TTTP │ a1 b1 c1    │ d1 (Kno)" in lines[at]
    assert ["····"] * 3 == [line.split("│")[3].strip() for line in lines[at + 1:at + 4]]
    assert "Map: T a card you may take, P the prop cell" in res.stdout


def test_patterns_mind_palace_forced(tmp_path):
    grid = [["Statements", "Writings", "Statements", "Writings"],
            ["Artifacts", "Knowledge", "Artifacts", "Knowledge"],
            ["Prints & Tracks", None, None, None], [None, None, None, None]]
    path = write(tmp_path, hand(grid=grid))
    assert ok_json("patterns", path) == {"patterns": [], "mind_palace_forced": True}
    res = run("patterns", path)
    assert "Mind Palace is forced" in res.stdout


# ----------------------------------------------------------------------------- pay
def test_pay_json_affordable_by_hand():
    # hound-opportunity-1 costs 1 Statements + 2 Knowledge; Ann's Statements discount
    # leaves 2 Knowledge: Sherlock alone pays it (1 card)
    out = ok_json("pay", str(HAND), "hound-opportunity-1")
    assert out == {"case": "hound-opportunity-1", "due": {"Knowledge": 2}, "affordable": True,
                   "cards_spent": 1,
                   "payment": [{"cards": ["Sherlock Holmes"], "as": "Knowledge"}],
                   "pool_after": ["Statements", "Writings", "Dr. John Watson"], "short_by": 0}


def test_pay_json_reserved_by_alias_and_short_by():
    # speckled-suspect (my reserved card): 4 Sta + 1 Art + 2 Kno, less my Statements
    # discount: 3 Sta 1 Art 2 Kno = 6 units; Sherlock 2 Sta, Statements 1 Sta, and
    # Writings + Watson are 2 of a cross-reference: 3 units left need 3 more cards
    out = ok_json("pay", str(HAND), "Stepfather Home")
    assert out == {"case": "speckled-suspect",
                   "due": {"Statements": 3, "Artifacts": 1, "Knowledge": 2},
                   "affordable": False, "cards_spent": 0, "payment": [],
                   "pool_after": ["Statements", "Sherlock Holmes", "Writings", "Dr. John Watson"],
                   "short_by": 3}


def test_pay_human_in_words():
    res = run("pay", str(HAND), "speckled-motive")
    assert res.returncode == 0, res.stderr
    text = res.stdout
    assert "Due after [red]Ann's 2 discounts: 1 Statements, 4 Writings" in text
    assert "Affordable, spending 4 cards:" in text
    for use in ("Sherlock Holmes as 2 Writings", "Statements as 1 Statements",
                "Writings as 1 Writings", "Dr. John Watson as 1 Writings"):
        assert use in text
    assert "Pool after: empty (0)" in text
    assert "Spending Dr. John Watson draws 1 clue" in text
    short = run("pay", str(HAND), "sign-means").stdout
    assert "Not affordable: short by 4 clue cards" in short


def test_pay_all_ranked():
    out = ok_json("pay", str(HAND), "--all")
    order = [(c["case"], c["affordable"], c["cards_spent"], c["short_by"]) for c in out["cases"]]
    assert order == [("hound-opportunity-1", True, 1, 0), ("sign-opportunity-1", True, 1, 0),
                     ("speckled-means-1", True, 1, 0), ("sign-motive-1", True, 3, 0),
                     ("speckled-motive", True, 4, 0), ("hound-suspect", False, 0, 2),
                     ("sign-motive", False, 0, 2), ("speckled-suspect", False, 0, 3),
                     ("sign-means", False, 0, 4)]
    assert out["cases"][0] == ok_json("pay", str(HAND), "hound-opportunity-1")
    res = run("pay", str(HAND), "--all", columns=80)
    assert res.returncode == 0 and max(map(len, res.stdout.splitlines())) <= 80
    lines = res.stdout.splitlines()
    k = next(i for i, line in enumerate(lines) if "speckled-suspect " in line)
    assert "short 3" in lines[k] and "reserved" in lines[k + 1]


@pytest.mark.parametrize("args, message", [
    (("hound-motive",), "CASE: 'hound-motive' is not visible nor reserved by [red]Ann: it is "
                        "in its pile, unseen"),
    (("hound-means-2",), "CASE: 'hound-means-2' is not visible nor reserved by [red]Ann: it "
                         "is solved by Ben"),
    (("zzzz",), "CASE: unknown case card 'zzzz'"),
    (("sign",), "CASE: case card 'sign' is ambiguous"),
])
def test_pay_bad_case(args, message):
    res = run("pay", str(HAND), *args)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith(f"error: {message}")


def test_pay_case_or_all():
    assert run("pay", str(HAND)).returncode == 2
    assert run("pay", str(HAND), "sign-means", "--all").returncode == 2


# ----------------------------------------------------------------------------- milestones
def test_milestones_json_me_and_other():
    assert ok_json("milestones", str(HAND)) == {"player": ME, "claimed": {}, "claimable": {},
                                               "max_bonus": 0}
    ben = ["hound-suspect-1", "hound-location-2", "hound-motive-1", "hound-means-2",
           "hound-opportunity-2"]
    assert ok_json("milestones", str(HAND), "be") == {
        "player": "Ben", "claimed": {}, "claimable": {"diversity": ben, "completion": ben},
        "max_bonus": 3}


def test_milestones_human_lacks_and_completes(tmp_path):
    res = run("milestones", str(HAND))
    assert res.returncode == 0, res.stderr
    assert "Milestones of [red]Ann: 0 claimed" in res.stdout
    assert "Diversity: lacks Motive, Means, Opportunity" in res.stdout
    assert "Case Completion: lacks 3 more of sign, 5 of hound, 5 of speckled" in res.stdout
    assert "No case within [red]Ann's reach completes a milestone." in res.stdout
    # Ben, with a claimed Diversity: Case Completion needs the 5 hound cards, committed
    data = hand()
    data["milestones"]["Ben"] = {"diversity": ["hound-suspect-1", "hound-location-2",
                                               "hound-motive-1", "hound-means-2",
                                               "hound-opportunity-2"]}
    data["display"]["red_herrings"][0] = "hound-suspect-2"
    path = write(tmp_path, data)
    assert ok_json("milestones", path, "Ben")["max_bonus"] == 3
    text = run("milestones", path, "Ben").stdout
    assert "Diversity: claimed with hound-suspect-1" in text
    assert "Case Completion: lacks 5 more of hound" in text


def test_milestones_unknown_player():
    res = run("milestones", str(HAND), "Zed", "--json")
    assert res.returncode == 2
    assert json.loads(res.stdout)["message"] == "PLAYER: unknown player 'Zed'; known: [red]Ann, Ben"


# ----------------------------------------------------------------------------- odds
def test_odds_json_by_hand():
    # seen: 12 grid cards, 4 in Ann's pool, 2 discarded: 42 in the deck. Statements:
    # 12 - 4 (row 4) - 1 (pool) - Sherlock = 6; Writings 12 - 3 - 1 - Watson = 7;
    # Knowledge 12 - 2 - Irene = 9; Artifacts 12 - 1 - 2 = 9; Prints & Tracks 12 - 1 = 11
    out = ok_json("odds", str(HAND))
    left = {"Statements": 6, "Prints & Tracks": 11, "Writings": 7, "Artifacts": 9,
            "Knowledge": 9}
    assert out["deck"] == 42
    assert out["suits"] == {s: {"left": k, "p_next": k / 42} for s, k in left.items()}
    assert out["allies"] == ["Inspector Lestrade", "Mycroft Holmes"]
    mp = out["mind_palace"]
    assert list(mp) == [f"row {i}" for i in range(1, 5)] + [f"column {c}" for c in "abcd"]
    zero = dict.fromkeys(left, 0.0)
    assert mp["row 1"] == {**zero, "Writings": 0.75, "Knowledge": 0.25}
    assert mp["row 2"] == {**zero, "Knowledge": 1 / 3, "Artifacts": 1 / 3,
                           "Prints & Tracks": 1 / 3}
    assert mp["row 3"] == {**zero, "Knowledge": 1.0}
    assert mp["row 4"] == {**zero, "Statements": 1.0}
    assert mp["column c"] == {**zero, "Writings": 0.25, "Prints & Tracks": 0.25,
                              "Knowledge": 0.25, "Statements": 0.25}
    assert mp["column d"] == {**zero, "Knowledge": 0.5, "Statements": 0.5}


def test_odds_human():
    res = run("odds", str(HAND), columns=80)
    assert res.returncode == 0, res.stderr
    assert max(map(len, res.stdout.splitlines())) <= 80
    assert "Clue deck: 42 cards" in res.stdout
    assert "Allies in the deck: Inspector Lestrade, Mycroft Holmes" in res.stdout
    row3 = next(line for line in res.stdout.splitlines() if "row 3" in line)
    assert "100%" in row3 and "Irene Adler" in row3
    assert "(unseen): 10 Solutions, 19 Red Herrings" in res.stdout


# ----------------------------------------------------------------------------- cards
def test_cards_json_is_the_shipped_set():
    out = ok_json("cards")
    assert out["title"] == "Three Cases" and len(out["cards"]) == 45
    assert out["cards"][0] == {"id": "hound-suspect", "name": "The Naturalist of Merripit House",
                               "case": "hound", "category": "Suspect", "kind": "solution",
                               "points": 3,
                               "cost": {"Statements": 3, "Writings": 2, "Knowledge": 3}}


def test_cards_user_file_round_trip(tmp_path):
    from deduce.models.deductions.cards import shipped_path

    text = shipped_path().read_text(encoding="utf-8")
    text = text.replace('title = "Three Cases"', 'title = "[bold]Mine"')
    text = text.replace('case = "hound"', 'case = "Hound"', 1)
    text = text.replace('kind = "red-herring"', 'kind = "red herring"', 1)
    text = text.replace('"Prints & Tracks"=3, Artifacts=3', 'prints=3, artifacts=3', 1)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    out = ok_json("cards", "--cards", str(path))
    shipped = ok_json("cards")
    assert out["title"] == "[bold]Mine" and out["cards"] == shipped["cards"]
    human = run("cards", "--cards", str(path), columns=80)
    assert human.returncode == 0 and human.stdout.startswith("[bold]Mine: 45 case cards")
    assert max(map(len, human.stdout.splitlines())) <= 80


def test_cards_bad_file(tmp_path):
    from deduce.models.deductions.cards import shipped_path

    path = tmp_path / "bad.toml"
    path.write_text(shipped_path().read_text(encoding="utf-8").replace("points = 3", "points = 7", 1))
    res = run("cards", "--cards", str(path))
    assert res.returncode == 2
    assert res.stderr == (f"error: {path}: [[case]] 1 ('hound-suspect'), field 'points': a "
                          "solution is worth 2 to 4 points, got a number (7)\n")


def test_position_with_own_cards_relative_path(tmp_path):
    from deduce.models.deductions.cards import shipped_path

    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "mine.toml").write_text(shipped_path().read_text(encoding="utf-8"))
    path = write(tmp_path, hand(cards="sets/mine.toml"))
    assert ok_json("patterns", path) == ok_json("patterns", str(HAND))
    bad = write(tmp_path, hand(cards="sets/none.toml"), "bad.json")
    res = run("odds", bad)
    assert res.returncode == 2
    assert res.stderr.startswith(f"error: {bad}: field 'cards': the card set cannot be read")


# ----------------------------------------------------------------------------- input errors
@pytest.mark.parametrize("command", [["patterns"], ["pay", "--all"], ["milestones"], ["odds"]])
def test_bad_position_files(tmp_path, command):
    missing = str(tmp_path / "none.json")
    res = run(command[0], missing, *command[1:], "--json")
    assert res.returncode == 2
    assert json.loads(res.stdout) == {"error": "bad-input",
                                      "message": f"{missing}: file not found"}
    cases = {"notjson.json": ("{", "not valid JSON"),
             "s13.json": (json.dumps({"game": "sherlock13"}), "not a Deductions position"),
             "field.json": (json.dumps(hand(me="Zed")), "field 'me'")}
    for name, (text, words) in cases.items():
        path = write(tmp_path, text, name)
        res = run(command[0], path, *command[1:])
        assert res.returncode == 2 and res.stdout == ""
        assert res.stderr.startswith(f"error: {path}") and words in res.stderr
        assert "Traceback" not in res.stderr


def test_sample_position_commands():
    """The shipped sample (the help's examples) has exact and propped patterns, an
    affordable case and a milestone one case away."""
    pats = ok_json("patterns", "sample")["patterns"]
    assert any(p["prop"] is None for p in pats) and any(p["prop"] for p in pats)
    assert ok_json("pay", "sample", "sign-opportunity-1")["affordable"] is True
    assert "Diversity" in run("milestones", "sample").stdout.split("complete a milestone:")[1]
    assert ok_json("odds", "sample")["deck"] == 28


def test_control_characters_in_names_are_escaped(tmp_path):
    data = json.loads(HAND.read_text().replace("[red]Ann", "Ann\\u001b[2J"))
    path = write(tmp_path, data)
    res = run("milestones", path)
    assert res.returncode == 0, res.stderr
    assert "Milestones of Ann\\x1b[2J: 0 claimed" in res.stdout and "\x1b[2J" not in res.stdout
    assert "Ann\\x1b[2J's reach" in run("pay", path, "--all").stdout
    assert ok_json("milestones", path)["player"] == "Ann\x1b[2J"
