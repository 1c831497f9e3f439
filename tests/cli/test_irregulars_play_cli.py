"""``deduce irregulars selfplay`` through click: the JSON envelope (multi and solo), the
rendered table, and bad line-ups refused with exit 2."""

from __future__ import annotations

import json

from click.testing import CliRunner

from deduce.cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_selfplay_json_is_the_one_envelope():
    result = run("irregulars", "selfplay", "--players", "3", "--games", "3", "--seed", "2",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["game"], data["players"], data["variant"], data["games"], data["seed"]) == \
        ("irregulars", 3, "multi", 3, 2)
    assert [b["name"] for b in data["bots"]] == ["random"] * 3
    assert abs(sum(b["win_share"] for b in data["bots"]) - 1) < 1e-5


def test_solo_selfplay_gives_the_win_share_against_holmes_and_his_points():
    result = run("irregulars", "selfplay", "--mode", "solo", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["variant"] == "solo" and data["players"] == 1 and len(data["bots"]) == 1
    assert set(data["bots"][0]) >= {"win_share", "ci95", "mean_points"}
    assert data["holmes"]["mean_points"] > 0


def test_selfplay_for_a_person_is_a_table():
    result = run("irregulars", "selfplay", "--mode", "solo", "--games", "2")
    assert result.exit_code == 0 and "Holmes's mean points" in result.output
    assert "Win share" in result.output


def test_selfplay_refuses_a_bad_line_up():
    result = run("irregulars", "selfplay", "--players", "2", "--bots", "random,clever")
    assert result.exit_code == 2 and "--bots" in result.output and "clever" in result.output
    result = run("irregulars", "selfplay", "--players", "3", "--bots", "random", "--json")
    assert result.exit_code == 2 and "1 bots given for 3 players" in result.output
