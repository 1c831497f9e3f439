"""The ``deduce s13`` commands and ``deduce demo`` through click, as a user runs them."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.models.sherlock13.cards import SUSPECTS
from deduce.puzzles import puzzle_path

DEMO = str(puzzle_path("sherlock13", "demo-4p.json"))


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def write(tmp_path, data, name="game.json"):
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def base(**kw):
    rec = {"game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"],
           "me": "Ann", "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"], "events": []}
    rec.update(kw)
    return rec


def test_analyze_json_fresh_game(tmp_path):
    res = run("s13", "analyze", write(tmp_path, base()), "--json")
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert out["variant"] == "standard" and out["worlds"] == 16800
    assert list(out["criminal"]) == list(SUSPECTS)
    assert out["criminal"]["Sherlock Holmes"] == 0.0
    assert out["criminal"]["James Moriarty"] == pytest.approx(0.1)
    assert set(out["holders"]) == {"Ben", "Cat", "Dan"}
    assert out["holders"]["Ben"]["James Moriarty"] == pytest.approx(0.3)  # 3 of the 10 unknown
    assert "face_down" not in out
    bits = [s["expected_bits"] for s in out["suggestions"]]
    assert len(bits) == 8 + 3 * 8 and bits == sorted(bits, reverse=True)
    raise_ = [s for s in out["suggestions"] if s["action"] == "raise"]
    assert set(raise_[0]) == {"action", "icon", "expected_bits"}
    count = [s for s in out["suggestions"] if s["action"] == "count"]
    assert set(count[0]) == {"action", "target", "icon", "expected_bits"}


def test_analyze_json_two_players_has_face_down(tmp_path):
    data = base(players=["Ann", "Ben"], hand=["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes",
                                              "Mary Morstan", "Irene Adler"],
                events=[{"actor": "Ann", "action": "exchange", "side": "left",
                         "revealed": "Mary Morstan", "took": "James Moriarty"}])
    out = json.loads(run("s13", "analyze", write(tmp_path, data), "--json").output)
    assert out["worlds"] == 7 * 6  # criminal and right side from the 7 cards left unseen
    assert set(out["face_down"]) == {"right"}
    assert out["face_down"]["right"]["James Moriarty"] == 0.0
    assert out["face_down"]["right"]["Inspector Hopkins"] == pytest.approx(1 / 7)
    # suggestions are for my next turn: count Ben per icon, and the right side still closed
    assert sorted((s["action"], s.get("side")) for s in out["suggestions"])[-1] == ("exchange", "right")
    assert len(out["suggestions"]) == 8 + 1
    assert out["holders"]["Ben"]["Mary Morstan"] == 0.0


def test_analyze_demo_game_over(tmp_path):
    out = json.loads(run("s13", "analyze", DEMO, "--json").output)
    assert out["criminal"]["Inspector Hopkins"] == 1.0
    assert out["suggestions"] == []


def test_bad_input_exit_2_names_event_and_field(tmp_path):
    data = base(events=[{"actor": "Ann", "action": "raise", "icon": "skulls", "raised": []}])
    res = run("s13", "analyze", write(tmp_path, data))
    assert res.exit_code == 2
    assert "event 0" in res.output and "'icon'" in res.output and "skull" in res.output
    res = run("s13", "analyze", str(tmp_path / "missing.json"))
    assert res.exit_code == 2 and "file not found" in res.output


def test_contradiction_exit_3_minimal_set(tmp_path):
    data = base(events=[
        {"actor": "Ann", "action": "raise", "icon": "skull", "raised": ["Cat"]},
        {"actor": "Ben", "action": "count", "target": "Dan", "icon": "book", "count": 1},
        {"actor": "Cat", "action": "count", "target": "Ann", "icon": "pipe", "count": 2},
        {"actor": "Dan", "action": "count", "target": "Cat", "icon": "skull", "count": 0},
    ])
    res = run("s13", "analyze", write(tmp_path, data), "--json")
    assert res.exit_code == 3
    out = json.loads(res.stdout)
    assert out["error"] == "contradiction" and out["conflict"] == [0, 3]
    assert "Dan count Cat skull: 0" in out["message"]


def test_why_ruled_out_and_witness(tmp_path):
    data = base(events=[{"actor": "Ann", "action": "accuse", "suspect": "moriarty", "correct": False}])
    path = write(tmp_path, data)
    res = run("s13", "why", path, "moriarty")
    assert res.exit_code == 0 and "event 0: Ann accuse James Moriarty: wrong" in res.output
    res = run("s13", "why", path, "hudson", "--json")
    out = json.loads(res.output)
    assert out == {"suspect": "Mrs. Hudson", "ruled_out": True, "events": [], "event_texts": [],
                   "hand_facts": ["Mrs. Hudson"], "icon_notes": []}
    out = json.loads(run("s13", "why", path, "adler", "--json").output)
    assert out["ruled_out"] is False and out["world"]["criminal"] == "Irene Adler"
    held = [c for cards in out["world"]["hands"].values() for c in cards]
    assert sorted(held + ["Irene Adler"]) == sorted(SUSPECTS)


def test_table_piped_session(tmp_path):
    path = tmp_path / "live.json"
    lines = "\n".join([
        "raise Ann skull Cat",
        "count Ben Dan light bulb 1",
        "count Ben Dan book 1",          # out of turn: Cat is to play
        "count Cat Dan skull 1",          # contradicts: Ann's raise said Dan holds no skull
        "count Cat Dan book 1",
        "undo",
        "accuse Cat moriarty wrong",
        "show",
        "quit",
    ]) + "\n"
    res = CliRunner().invoke(cli, ["s13", "table", str(path), "--variant", "standard",
                                   "--players", "Ann,Ben,Cat,Dan", "--me", "Ann",
                                   "--hand", "sherlock,hudson,baynes"], input=lines)
    assert res.exit_code == 2  # the first refusal was bad input (out of turn)
    assert "ok: event 0: Ann raise skull (raised: Cat)" in res.stdout
    assert "out of turn" in res.stderr
    assert "event 0: Ann raise skull (raised: Cat)" in res.stderr  # the conflicting event
    saved = json.loads(path.read_text())
    assert [e["action"] for e in saved["events"]] == ["raise", "count", "accuse"]
    assert saved["events"][1] == {"actor": "Ben", "action": "count", "target": "Dan",
                                  "icon": "light bulb", "count": 1}
    assert saved["events"][2]["suspect"] == "James Moriarty"


def test_table_needs_setup_for_new_record(tmp_path):
    res = CliRunner().invoke(cli, ["s13", "table", str(tmp_path / "x.json")], input="quit\n")
    assert res.exit_code == 2 and "--variant" in res.output


def test_demo_runs_to_the_end():
    res = run("demo", "--compact")
    assert res.exit_code == 0
    assert "16,800 worlds" in res.output and "Game over: Dan wins." in res.output


def test_readme_why_example_runs_as_written(tmp_path):
    """The README's ``why`` example (its record: the one below), whole lines through a pipe."""
    data = base(events=[
        {"actor": "Ann", "action": "count", "target": "Ben", "icon": "book", "count": 1},
        {"actor": "Ben", "action": "count", "target": "Dan", "icon": "book", "count": 1},
        {"actor": "Cat", "action": "raise", "icon": "skull", "raised": ["Dan"]},
        {"actor": "Dan", "action": "count", "target": "Cat", "icon": "skull", "count": 2},
    ])
    res = run("s13", "why", write(tmp_path, data), "moriarty")
    assert res.exit_code == 0
    assert res.output == (
        "James Moriarty cannot be the criminal. These facts rule it out (a minimal set: drop "
        "any one and James Moriarty is possible again):\n"
        "  event 2: Cat raise skull (raised: Dan)\n"
        "  event 3: Dan count Cat skull: 2\n"
        "Icon counts:\n"
        "  skull: 3 in the deck (James Moriarty, Irene Adler, Sebastian Moran); cited answers: "
        "Ann 0, Ben 0, Dan >=1, Cat 2; so all 3 are in hands and none is the criminal\n")
