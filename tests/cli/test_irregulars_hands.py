"""``deduce irregulars hands`` through click's CliRunner: the shipped sample and a
cycle-2 observation derived from it, with values worked out by hand; the error paths.

The sample (3 players, round 1, cycle 3, Ann to pick; hands pass left, Ann -> Ben -> Cat):
Ann's hands were E016 E071 E085 E086 E027 (cycle 1; picks Ann E085, Ben E091, Cat E080),
E052 E051 E047 E023 (cycle 2; picks Ann E023, Ben E016, Cat E010), E006 E037 E064 now.
Ben holds Ann's cycle-2 hand less her pick: E047 E051 E052; Cat holds her first hand less
her pick and Ben's cycle-2 pick: E027 E071 E086.

Cut back to cycle 2 (Ann holding E052 E051 E047 E023): Ben holds Ann's first hand less
E085; Cat holds Ben's first hand less his pick E091: 4 cards never seen. Seen cards of the
draw by deck: I E016; II E027 E023; III E052 E051 E047; IV E071 E080; V E085 E086 E091; so
the draw's unseen cards are 2 of deck I (among 19 unseen), 1 of II (of 18), 1 of IV (of
18): each deck-I card is Cat's with chance 2/19, each II or IV card 1/18; C(19,2) * 18 *
18 = 55,404 worlds.
"""

from __future__ import annotations

import json
from fractions import Fraction

from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.puzzles import puzzle_path

SAMPLE = puzzle_path("irregulars", "sample-observation.json")


def run(*args: str):
    return CliRunner().invoke(cli, ["irregulars", "hands", *args], terminal_width=120)


def ok_json(*args: str) -> dict:
    res = run(*args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def cycle_two() -> dict:
    data = json.loads(SAMPLE.read_text())
    pos, log = data["position"], data["log"]
    pos["cycle"] = 2
    pos["hand"] = list(log["cycles"][1]["hand"])
    cycle2 = log["cycles"][1]["picks"]
    for p, card in cycle2.items():
        pos["evidence"][p] = [r for r in pos["evidence"][p] if r["card"] != card]
    log["cycles"] = log["cycles"][:2]
    log["cycles"][1]["picks"] = {}
    return data


def write(tmp_path, data, name="obs.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_sample_json():
    out = ok_json("sample")
    assert (out["me"], out["mode"], out["deal"], out["cycle"], out["phase"],
            out["direction"]) == ("Ann", "multi", 1, 3, "investigate", "left")
    assert [(h["holder"], h["cards"], h["known"], h["certain"], h["possible"])
            for h in out["holdings"]] == [
        ("Ben", 3, True, ["E047", "E051", "E052"], []),
        ("Cat", 3, True, ["E027", "E071", "E086"], [])]
    assert out["worlds"] == 1
    assert out["decks"] == [{"deck": d, "numeral": n, "unseen": 17, "in_deal": 0,
                             "in_deck": 17}
                            for d, n in zip(range(1, 6), ("I", "II", "III", "IV", "V"))]


def test_sample_human():
    res = run("sample")
    assert res.exit_code == 0, res.output
    assert "What the others hold: Ann's view, round 1, cycle 3, investigate" in res.output
    assert "E047 The docks at Rotherhithe" in res.output
    assert "E086 A curious telegram" in res.output
    assert "Every hand of the deal is known" in res.output


def test_cycle_two_exact_chances(tmp_path):
    out = ok_json(write(tmp_path, cycle_two()))
    ben, cat = out["holdings"]
    assert ben["certain"] == ["E016", "E027", "E071", "E086"] and ben["known"]
    assert cat["cards"] == 4 and cat["certain"] == [] and not cat["known"]
    chances = {r["card"]: Fraction(r["exact"]) for r in cat["possible"]}
    decks = {r["deck"]: r for r in cat["by_deck"]}
    assert sorted(decks) == [1, 2, 4]
    assert decks[1]["cards"] == 19 and decks[1]["p_each"] == float(Fraction(2, 19))
    assert decks[2]["cards"] == 18 and decks[2]["p_each"] == float(Fraction(1, 18))
    assert decks[4]["cards"] == 18 and decks[4]["p_each"] == float(Fraction(1, 18))
    assert len(chances) == 55 and sum(chances.values()) == 4
    assert chances["E001"] == Fraction(2, 19) and chances["E037"] == Fraction(1, 18)
    assert "E016" not in chances and "E052" not in chances
    assert out["worlds"] == 55404
    assert [d["in_deal"] for d in out["decks"]] == [2, 1, 0, 1, 0]


def test_cycle_two_human(tmp_path):
    res = run(write(tmp_path, cycle_two()))
    assert res.exit_code == 0, res.output
    assert "deck I: 19 cards, 10.5% each" in res.output
    assert "deck II: 18 cards, 5.6% each" in res.output
    assert "55,404 equally likely completions" in res.output


def test_names_shown_literally(tmp_path):
    data = cycle_two()
    text = json.dumps(data).replace('"Cat"', '"[bold]Cat"')
    res = run(write(tmp_path, text))
    assert res.exit_code == 0, res.output
    assert "[bold]Cat" in res.output


def test_not_an_object(tmp_path):
    res = run(write(tmp_path, "[1, 2]"), "--json")
    assert res.exit_code == 2
    assert "an observation is a JSON object" in res.stderr


def test_missing_log(tmp_path):
    data = cycle_two()
    del data["log"]
    res = run(write(tmp_path, data))
    assert res.exit_code == 2
    assert "obs.json: field 'log': missing field" in res.stderr


def test_bad_position_field(tmp_path):
    data = cycle_two()
    data["position"]["me"] = "Zed"
    res = run(write(tmp_path, data))
    assert res.exit_code == 2
    assert "obs.json: position: field 'me'" in res.stderr


def test_bad_log_field(tmp_path):
    data = cycle_two()
    data["log"]["cycles"][0]["picks"]["Ann"] = "E052"
    res = run(write(tmp_path, data), "--json")
    assert res.exit_code == 2
    assert "field 'log.cycles[0].picks.Ann'" in res.stderr
    assert json.loads(res.stdout)["error"] == "bad-input"


def test_contradiction_exit_3(tmp_path):
    data = cycle_two()
    data["log"]["gone"] = ["E016"]  # in Ann's first hand
    res = run(write(tmp_path, data), "--json")
    assert res.exit_code == 3
    out = json.loads(res.stdout)
    assert out["error"] == "contradiction"
    assert out["fields"] == ["log.cycles[0].hand", "log.gone[0]"]
    assert "E016 is in this deal and seen outside it" in out["message"]


def test_missing_file(tmp_path):
    res = run(str(tmp_path / "nope.json"))
    assert res.exit_code == 2
    assert "nope.json" in res.stderr


def test_group_help_lists_hands():
    res = CliRunner().invoke(cli, ["irregulars", "--help"])
    assert res.exit_code == 0 and "hands" in res.output
