"""``deduce case selfplay``: the figures equal a tally of the same games played one by one
(each with its own oracle), seats rotate, the results do not depend on the workers, guesses
do not depend on what an oracle was asked before, and bad input exits 2."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.cli.main import cli
from deduce.core.selfplay import game_seed, wilson_ci
from deduce.models.casenotes.knowledge import CaseOracle
from deduce.models.casenotes.format import load_case
from deduce.models.casenotes.rules import play_game
from deduce.models.casenotes.selfplay import game_specs, play_one, positions_of, summarise
from tests.casenotes.test_play import sourced_case

#: the motive is never fixed: bots that visit everything must guess
GUESSING = {"Location 1": ["thief == Bob"], "Location 2": ["Ann == pos[1]"]}


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def tally(case, mode, strategies, bots, games, seed, tokens=None):
    """The figures counted by hand from ``play_game`` reports, one fresh oracle per game,
    the seats laid out here: position i sits at seat (i + g) % bots in game g."""
    positions = [strategies[i % len(strategies)] for i in range(bots)]
    wins = [0] * bots
    elim = [0] * bots
    spent = [0] * bots
    solved = perfect = 0
    for g in range(games):
        seats = [None] * bots
        for i, name in enumerate(positions):
            seats[(i + g) % bots] = name
        r = play_game(case, bots, game_seed(seed, g), mode, seats, tokens).to_json()
        for i in range(bots):
            b = r["bots"][(i + g) % bots]
            wins[i] += b["status"] == "won"
            elim[i] += b["status"] == "eliminated"
            spent[i] += b["spent"]
        if mode == "cooperative" and r["cooperative"]["score"] is not None:
            solved += 1
            perfect += r["cooperative"]["score"] == r["cooperative"]["best_score"]
    return wins, elim, spent, solved, perfect


def test_competitive_figures_equal_a_tally_of_the_games():
    case = load_case("half-moon-mews")
    strategies, bots, games = ["informed", "fair"], 3, 9
    specs = game_specs(case, "competitive", strategies, bots, games, seed=4)
    s = summarise("competitive", positions_of(strategies, bots), [play_one(x) for x in specs])
    wins, elim, spent, _, _ = tally(case, "competitive", strategies, bots, games, seed=4)
    assert [b["strategy"] for b in s["bots"]] == ["informed", "fair", "informed"]
    assert [b["wins"] for b in s["bots"]] == wins
    assert [b["eliminated"] for b in s["bots"]] == elim
    assert [b["mean_tokens_spent"] for b in s["bots"]] == [round(x / games, 6) for x in spent]
    for b, w in zip(s["bots"], wins):
        assert b["ci95"] == [round(x, 6) for x in wilson_ci(w, games)]
    assert s["games"] == games and sum(s["ends"].values()) == games


def test_guessing_games_eliminate_and_match_the_tally():
    case = sourced_case(GUESSING)
    specs = game_specs(case, "competitive", ["fair"], 3, 12, seed=1)
    s = summarise("competitive", ["fair"] * 3, [play_one(x) for x in specs])
    wins, elim, _, _, _ = tally(case, "competitive", ["fair"], 3, 12, seed=1)
    assert [b["wins"] for b in s["bots"]] == wins
    assert [b["eliminated"] for b in s["bots"]] == elim
    assert sum(elim) > 0  # wrong guesses happen


def test_cooperative_figures_equal_a_tally():
    case = load_case("kew-orchid")
    specs = game_specs(case, "cooperative", ["informed", "fair"], 2, 6, seed=2)
    s = summarise("cooperative", ["informed", "fair"], [play_one(x) for x in specs])
    _, _, _, solved, perfect = tally(case, "cooperative", ["informed", "fair"], 2, 6, seed=2)
    assert s["team"]["solved"] == solved and s["team"]["perfect"] == perfect
    assert s["team"]["solved_share"] == round(solved / 6, 6)
    assert "bots" not in s


def test_a_guess_depends_only_on_the_notes_and_the_generator():
    case = sourced_case(GUESSING)
    known = frozenset(n.index for n in case.notes)
    fresh = CaseOracle(case)
    used = CaseOracle(case)
    for k in range(len(case.notes)):  # a different history of solver calls
        used.possible(frozenset([k]))
        used.fixed_facts(frozenset([k]))
    for seed in range(8):
        assert fresh.guess(known, random.Random(seed)) == used.guess(known, random.Random(seed))
    guesses = {fresh.guess(known, random.Random(seed)) for seed in range(8)}
    assert len(guesses) > 1  # the generator decides between the open answers
    fresh.close()
    used.close()


def test_cli_json_is_the_same_whatever_the_workers():
    args = ["case", "selfplay", "half-moon-mews", "--bots", "3", "--games", "8", "--seed", "5",
            "--json"]
    one = run(*args)
    two = run(*args, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.output), json.loads(two.output)
    for d in (a, b):
        d.pop("elapsed_s")
        d.pop("workers")
    assert a == b
    assert a["players"] == 3 and a["strategies"] == ["informed", "fair", "informed"]
    assert sum(x["wins"] for x in a["bots"]) >= a["games"] - a["no_winner"]


def test_cli_table_and_cooperative_output():
    r = run("case", "selfplay", "kew-orchid", "--mode", "cooperative", "--bots", "2", "--games", "4")
    assert r.exit_code == 0, r.output
    assert "solved" in r.output and "perfect games" in r.output and "4 cooperative games" in r.output
    r = run("case", "selfplay", "half-moon-mews", "--games", "3")
    assert r.exit_code == 0 and "informed" in r.output and "Mean rounds" in r.output


def test_cli_bad_input_exits_2_naming_the_option():
    r = run("case", "selfplay", "half-moon-mews", "--games", "0")
    assert r.exit_code == 2 and "--games" in r.output
    r = run("case", "selfplay", "half-moon-mews", "--strategy", "psychic")
    assert r.exit_code == 2 and "--strategy" in r.output
    r = run("case", "selfplay", "no-such-case")
    assert r.exit_code == 2
    r = run("case", "selfplay", "half-moon-mews", "--workers", "0")
    assert r.exit_code == 2 and "--workers" in r.output


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bots=st.integers(1, 4), games=st.integers(1, 5), seed=st.integers(0, 2**31),
       mode=st.sampled_from(["competitive", "cooperative"]),
       strategies=st.lists(st.sampled_from(["informed", "fair"]), min_size=1, max_size=3),
       tokens=st.none() | st.integers(0, 4))
def test_random_matches_give_consistent_figures(bots, games, seed, mode, strategies, tokens):
    case = sourced_case(GUESSING)
    specs = game_specs(case, mode, strategies, bots, games, seed, tokens)
    s = summarise(mode, positions_of(strategies, bots), [play_one(x) for x in specs])
    assert sum(s["ends"].values()) == games
    if mode == "cooperative":
        assert 0 <= s["team"]["solved"] <= games
        lo, hi = s["team"]["ci95"]
        assert lo <= s["team"]["solved_share"] <= hi
    else:
        for b in s["bots"]:
            assert b["wins"] + b["eliminated"] <= games
            assert b["ci95"][0] <= b["win_share"] <= b["ci95"][1]
        assert s["no_winner"] <= games
