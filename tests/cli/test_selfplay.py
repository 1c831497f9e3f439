"""Every game's ``selfplay`` command: the one JSON envelope, the same options (the old
spellings give the same games as the new ones), and the same games on 1 and 2 workers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core.selfplay import REGISTRY, ROW_KEYS, registered
from tests.envelopes import played

ENVELOPE = ["game", "players", "games", "seed", "workers", "scheduler", "elapsed_s", "bots"]
CASE_FIGURES = ["case", "mode", "strategies", "mean_rounds", "ends"]
CASE_ROW = ["position", "strategy", "wins", "shared_wins", "eliminated", "mean_answer_round",
            "mean_tokens_spent", "mean_locations"]
STORY_FIGURES = ["policy", "cases", "arrest_rate", "ci95", "wins", "mean_turns", "deaths",
                 "party_deaths", "luck_spent", "mean_luck_spent", "outcomes", "adventure", "from"]

#: (command, top-level keys, keys of a "bots" row), small matches
MATCHES = {
    "s13": (["s13", "selfplay", "--players", "3", "--bots", "infogain,tracker,random",
             "--games", "4", "--seed", "5"],
            ENVELOPE[:2] + ["variant"] + ENVELOPE[2:], ["wrong_accusations"]),
    "case": (["case", "selfplay", "half-moon-mews", "--bots", "informed,fair", "--games", "4",
              "--seed", "3"], ENVELOPE + CASE_FIGURES + ["no_winner"], CASE_ROW),
    "case-cooperative": (["case", "selfplay", "half-moon-mews", "--mode", "cooperative",
                          "--bots", "informed,fair", "--games", "3", "--seed", "2"],
                         ENVELOPE + CASE_FIGURES + ["team"], ["position", "strategy"]),
    "story": (["story", "selfplay", "--bots", "random", "--games", "40", "--seed", "7"],
              ENVELOPE + STORY_FIGURES, []),
}


def run(*args) -> dict:
    res = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def fails(*args) -> str:
    res = CliRunner().invoke(cli, [str(a) for a in args])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    return res.output


@pytest.fixture(scope="module")
def envelopes() -> dict[str, dict]:
    """Each match of ``MATCHES`` played once (in this process), as JSON."""
    return {name: run(*args, "--json") for name, (args, _, _) in MATCHES.items()}


@pytest.mark.parametrize("name", list(MATCHES))
def test_every_game_prints_the_one_envelope(envelopes, name):
    args, keys, row_keys = MATCHES[name]
    doc = envelopes[name]
    assert list(doc) == keys
    assert doc["game"] in REGISTRY and registered(doc["game"]).name == doc["game"]
    assert (doc["games"], doc["seed"]) == (int(args[args.index("--games") + 1]),
                                          int(args[args.index("--seed") + 1]))
    assert (doc["workers"], doc["scheduler"]) == (1, None) and doc["elapsed_s"] >= 0
    names = args[args.index("--bots") + 1].split(",")
    assert [b["name"] for b in doc["bots"]] == names
    for b in doc["bots"]:
        assert list(b) == list(ROW_KEYS) + row_keys
        assert b["ci95"][0] <= b["win_share"] <= b["ci95"][1]


def test_the_envelope_rows_agree_with_each_game_s_own_figures(envelopes):
    s13 = envelopes["s13"]
    assert s13["players"] == 3 and s13["variant"] == "standard"
    assert sum(b["win_share"] for b in s13["bots"]) == pytest.approx(1.0)
    case = envelopes["case"]
    assert case["players"] == 2 and case["strategies"] == ["informed", "fair"]
    for b in case["bots"]:
        assert b["name"] == b["strategy"] and b["win_share"] == round(b["wins"] / 4, 6)
        assert b["mean_turns"] <= case["mean_rounds"]  # rounds until its answer, at most all
    coop = envelopes["case-cooperative"]
    for b in coop["bots"]:  # the team's result is every position's
        assert (b["win_share"], b["ci95"]) == (coop["team"]["solved_share"], coop["team"]["ci95"])
        assert b["mean_turns"] == coop["mean_rounds"]
    story = envelopes["story"]
    (bot,) = story["bots"]
    assert (story["players"], story["policy"], story["cases"]) == (1, "random", 40)
    assert bot["win_share"] == round(story["arrest_rate"], 6)
    assert bot["ci95"] == [round(x, 6) for x in story["ci95"]]
    assert bot["mean_turns"] == round(story["mean_turns"], 6)
    assert (story["adventure"], story["from"]) == (None, None)


@pytest.mark.parametrize("name", ["s13", "case", "story"])
def test_the_same_games_on_one_and_two_workers(envelopes, name):
    args = MATCHES[name][0]
    two = run(*args, "--workers", 2, "--json")
    assert two["workers"] == 2
    assert played(two) == played(envelopes[name])


@pytest.mark.parametrize("old, new", [
    (["--policy", "random", "--cases", "40"], ["--bots", "random", "--games", "40"]),
    (["--policy", "random", "--games", "40"], ["--bots", "rand", "--cases", "40"]),
])
def test_story_old_spellings_play_the_same_cases(envelopes, old, new):
    a = run("story", "selfplay", *old, "--seed", 7, "--json")
    b = run("story", "selfplay", *new, "--seed", 7, "--json")
    assert played(a) == played(b) == played(envelopes["story"])
    table = CliRunner().invoke(cli, ["story", "selfplay", *old, "--seed", "7"]).output
    assert table == CliRunner().invoke(cli, ["story", "selfplay", *new, "--seed", "7"]).output
    assert "arrest rate" in table


@pytest.mark.parametrize("old, new", [
    (["--bots", "2"], ["--bots", "informed,fair"]),
    (["--bots", "2", "--strategy", "informed,fair"], ["--bots", "inf,fair"]),
    (["--strategy", "fair", "--bots", "٢"], ["--bots", "fair,fair"]),
])
def test_case_old_spellings_play_the_same_games(envelopes, old, new):
    common = ["case", "selfplay", "half-moon-mews", "--games", 4, "--seed", 3, "--json"]
    a, b = run(*common, *old), run(*common, *new)
    assert played(a) == played(b)
    if new[1] == "informed,fair":
        assert played(a) == played(envelopes["case"])


def test_case_default_line_up_is_three_bots_cycling_informed_and_fair():
    doc = run("case", "selfplay", "half-moon-mews", "--games", 1, "--json")
    assert doc["strategies"] == ["informed", "fair", "informed"] and doc["players"] == 3


@pytest.mark.parametrize("args, message", [
    (["story", "selfplay", "--games", 2], "Missing option '--bots' (or its old spelling '--policy')"),
    (["story", "selfplay", "--bots", "random", "--policy", "greedy"],
     "give --bots or its old spelling --policy, not both"),
    (["story", "selfplay", "--bots", "random", "--games", 3, "--cases", 4],
     "give --games or its old spelling --cases, not both"),
    (["story", "selfplay", "--bots", "random,greedy"], "--bots: the game is solo: give one policy, not 2"),
    (["story", "selfplay", "--bots", "psychic"], "--bots: unknown bot 'psychic'"),
    (["case", "selfplay", "zebra", "--bots", "informed,fair", "--strategy", "fair"],
     "give the strategies once: --bots NAME,... or the old spelling --bots N --strategy NAME,..."),
    (["case", "selfplay", "zebra", "--bots", ",".join(["fair"] * 8)],
     "--bots: the game takes 1 to 7 bots, not 8"),
    (["case", "selfplay", "zebra", "--bots", "informed,,fair"], "--bots: empty bot name in the list"),
    (["s13", "selfplay", "--bots", ",".join(["random"] * 40)],
     "--bots: more than the cap of 16 bots in the line-up"),
])
def test_bad_line_ups_exit_2_naming_the_option(args, message):
    assert message in fails(*args)


@pytest.mark.parametrize("command, words", [
    (["s13", "selfplay"], ["--games", "--seed", "--workers", "--scheduler", "--bots", "--json"]),
    (["case", "selfplay"], ["--bots NAME,...|N", "Old spelling: --bots N", "--strategy",
                            "Old spelling: the strategies"]),
    (["story", "selfplay"], ["--bots NAME,...", "--policy", "Old spelling of --bots POLICY",
                             "--cases", "Old spelling of --games"]),
])
def test_help_documents_the_options_and_the_old_spellings(command, words):
    text = CliRunner().invoke(cli, [*command, "--help"]).output
    for word in words:
        assert word in text, (word, text)
