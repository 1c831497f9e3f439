"""``deduce story`` through click, as a user runs it: JSON contracts and exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from tests.envelopes import played


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_list_json_contract():
    res = run("story", "list", "--json")
    assert res.exit_code == 0
    assert json.loads(res.output) == [{"id": "a001", "name": "The Lamplighter's Ledger"},
                                      {"id": "a002", "name": "The Saltmarsh Inheritance"}]
    assert "a001" in run("story", "list").output


def test_new_writes_a_fresh_case(tmp_path):
    path = tmp_path / "case.json"
    res = run("story", "new", "--adventure", "a002", "--seed", 5, path)
    assert res.exit_code == 0, res.output
    rec = json.loads(path.read_text())
    assert (rec["turn"], rec["adventure"], rec["sm"], rec["luck"], rec["seed"]) == (1, "a002", 0, 4, 5)
    assert rec["phase"] == "action" and rec["villain"] is None
    again = run("story", "new", "--adventure", "a002", "--seed", 5, path)
    assert again.exit_code == 2 and "--force" in again.output
    forced = run("story", "new", "--adventure", "saltmarsh", "--seed", 5, "--force", "--json", path)
    assert json.loads(forced.output)["equipment"] == rec["equipment"]  # same seed, same dice
    bad = run("story", "new", "--adventure", "a009", tmp_path / "x.json")
    assert bad.exit_code == 2 and "a009" in bad.output
    bad = run("story", "new", "--traits", "Aware,Medicine,Tracking", tmp_path / "y.json")
    assert bad.exit_code == 2 and "--traits" in bad.output


@pytest.fixture
def mid_record(tmp_path, tiny_dir):
    path = tmp_path / "mid.json"
    assert run("story", "new", "--data", tiny_dir, "--adventure", "a001", "--seed", 2, path).exit_code == 0
    rec = json.loads(path.read_text())
    rec.update(turn=10, villain="c201", sm=1, luck=2, clue_found=True)
    path.write_text(json.dumps(rec))
    return path


def test_state_json_and_table(mid_record):
    res = run("story", "state", mid_record, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["turn"] == 10 and doc["villain"][0]["id"] == "c201"
    assert {a["action"] for a in doc["actions"] if a["legal"]} == {
        "Seek Information", "Rest", "Wait", "Investigate"}
    inv = next(o for o in doc["odds"] if o["action"] == "Investigate")
    assert sum(r["p"] for r in inv["rows"]) == pytest.approx(1.0)
    human = run("story", "state", mid_record).output
    assert "Actions" in human and "R007" in human and "Encounter Matrix" in human


def test_advise_json_contract_and_reroll(mid_record):
    res = run("story", "advise", mid_record, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert set(doc) == {"best", "actions"}
    assert doc["best"] == doc["actions"][0]["action"]
    assert all(set(a) == {"action", "p_arrest"} for a in doc["actions"])
    res = run("story", "advise", mid_record, "--json", "--roll", "investigate=3")
    rr = json.loads(res.output)["reroll"]
    assert rr["roll"] == "Investigate" and rr["dice"] == 3 and rr["outcome"] == "villain"
    assert isinstance(rr["spend_luck"], bool)
    assert "Investigate" in run("story", "advise", mid_record, "--roll", "inv=9").output
    for bad in ("investigate", "investigate=13", "research=7", "fly=7"):
        res = run("story", "advise", mid_record, "--roll", bad)
        assert res.exit_code == 2 and "--roll" in res.output, (bad, res.output)


def test_selfplay_json_contract_and_determinism(mid_record):
    args = ("story", "selfplay", "--policy", "random", "--cases", 300, "--seed", 4,
            "--from", mid_record, "--json")
    one, two = run(*args), run(*args)
    assert one.exit_code == 0, one.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert played(a) == played(b)
    assert {"policy", "cases", "seed", "arrest_rate", "ci95", "mean_turns", "deaths",
            "luck_spent"} <= set(a)
    assert (a["policy"], a["cases"], a["seed"]) == ("random", 300, 4)
    assert a["ci95"][0] <= a["arrest_rate"] <= a["ci95"][1]
    other = json.loads(run(*args[:7], 5, *args[8:]).output)
    assert played(other) != played(a)
    human = run("story", "selfplay", "--policy", "greedy", "--cases", 50, "--seed", 1,
                "--adventure", "a002")
    assert human.exit_code == 0 and "arrest rate" in human.output


def test_bad_records_exit_2_naming_the_field(tmp_path, mid_record):
    rec = json.loads(mid_record.read_text())
    for field, value, expect in [("sm", -1, "'sm'"), ("villain", "c299", "villain"),
                                 ("turn", 13, "'turn'"), ("motive", 7, "'motive'"),
                                 ("allies", [{"id": "m999"}], "allies[0].id"),
                                 ("smm", 1, "did you mean 'sm'")]:
        bad = dict(rec, **{field: value})
        path = tmp_path / f"bad-{field}.json"
        path.write_text(json.dumps(bad))
        res = run("story", "state", path)
        assert res.exit_code == 2, (field, res.output)
        assert str(path) in res.output and expect in res.output, (field, res.output)
    missing = run("story", "advise", tmp_path / "nope.json", "--json")
    assert missing.exit_code == 2 and json.loads(missing.stdout)["error"] == "bad-input"
