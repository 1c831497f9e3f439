"""``deduce case play``: the Lost Diaries rules as bots play them, determinism for a seed,
right answers for every winner, the cooperative score, and the CLI."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.models.casenotes.bots import BID_CAP, Bot
from deduce.models.casenotes.knowledge import CaseOracle
from deduce.models.casenotes.check import check_case
from deduce.models.casenotes.format import load_case, parse_case
from deduce.models.casenotes.rules import (START_TOKENS, best_score, cooperative_budget, outcome,
                                          play_game)
from deduce.models.casenotes.advice import solve_case
from tests.casenotes.helpers import TINY

QUESTIONS = '\n[[question]]\ntext = "Who?"\nanswer = "thief"\n\n[[question]]\ntext = "Why?"\nanswer = "motive"\n'


def sourced_case(rules_by_source: dict[str | None, list[str]], extra: str = QUESTIONS):
    """The TINY grid with questions and notes grouped by source (None: no source)."""
    notes = ""
    for src, rules in rules_by_source.items():
        for r in rules:
            where = f'source = "{src}"\n' if src else ""
            notes += f'\n[[note]]\n{where}text = "{r}"\nrule = """{r}"""\n'
    return parse_case(TINY + extra + notes, "tiny.toml")


def answers_of(case) -> dict:
    return {q.text: a[0] for q, a in zip(case.questions, solve_case(case).answers)}


def check_rules(case, r: dict, start_tokens: int = START_TOKENS) -> None:
    """Invariants of a competitive game's log and end state."""
    sources = case.sources
    for e in r["log"]:
        holders: dict[str, tuple[int, int]] = {}
        for m in e["moves"]:
            if m["action"] != "visit":
                assert m["bid"] == 0 and m["displaces"] is None
                continue
            assert m["location"] in sources and 0 <= m["bid"] <= BID_CAP
            held = holders.get(m["location"])
            assert (held[0] if held else None) == m["displaces"]
            if held:
                assert m["bid"] > held[1]  # outbids the pawn there
            holders[m["location"]] = (m["seat"], m["bid"])
        placed = [m["seat"] for m in e["moves"]]
        displaced = [m["displaces"] for m in e["moves"] if m["displaces"] is not None]
        for seat in set(placed):  # each bot ends the phase with one pawn placed
            assert placed.count(seat) - displaced.count(seat) == 1
    truth = r["truth"]
    for b in r["bots"]:
        assert b["tokens"] >= 0
        assert b["tokens"] == start_tokens - b["spent"] + b["gained"]
        assert len(b["visited"]) == len(set(b["visited"]))
        if b["status"] == "won":
            assert b["answers"] == truth and b["correct"] == len(truth)
        if b["status"] == "eliminated":
            assert b["answers"] != truth and b["correct"] < len(truth)
    assert [b["seat"] for b in r["bots"] if b["status"] == "won"] == r["winners"]


# ---------------------------------------------------------------------------------- games
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_competitive_games_follow_the_rules_and_winners_are_right(seed):
    case = load_case("half-moon-mews")
    r = play_game(case, 3, seed, strategies=["informed", "fair"]).to_json()
    check_rules(case, r)
    assert r["end"] == "solved" and r["winners"]
    assert r["truth"] == answers_of(case)
    assert r["rounds"] == len(r["log"])
    for k in r["winners"]:
        assert r["bots"][k]["answered_round"] == r["rounds"]


def test_same_seed_same_game_other_seed_other_start():
    case = load_case("half-moon-mews")
    a = play_game(case, 4, 11, strategies=["fair"]).to_json()
    assert a == play_game(case, 4, 11, strategies=["fair"]).to_json()
    starts = {play_game(case, 4, s, strategies=["fair"]).to_json()["log"][0]["start_player"]
              for s in range(8)}
    assert len(starts) > 1


def test_informed_bots_go_to_221b_only_when_certain():
    case = load_case("lantern-street")
    r = play_game(case, 2, 3).to_json()
    check_rules(case, r)
    oracle = CaseOracle(case)
    try:
        free = oracle.free_notes
        for b in r["bots"]:
            if b["answered_round"] is not None:
                known = set(free)
                for src in b["visited"]:
                    known |= set(oracle.notes_at[case.sources.index(src)])
                assert oracle.certain(frozenset(known))
    finally:
        oracle.close()


def test_notes_without_source_are_known_from_the_start():
    r = play_game(load_case("zebra"), 3, 0).to_json()
    assert r["rounds"] == 1 and r["winners"] == [0, 1, 2]  # tied tokens: a shared win
    assert all(b["visited"] == [] and b["spent"] == 0 for b in r["bots"])


def test_guessing_bots_can_be_eliminated():
    # the notes never fix the motive: every bot must guess; wrong guesses are eliminated
    case = sourced_case({"Location 1": ["thief == Bob"], "Location 2": ["Ann == pos[1]"]})
    results = [play_game(case, 3, seed, strategies=["fair"]).to_json() for seed in range(6)]
    for r in results:
        check_rules(case, r)
        assert r["end"] in {"solved", "all eliminated", "alone, out of rounds"}
    assert any(b["status"] == "eliminated" for r in results for b in r["bots"])


def test_contested_locations_are_bid_for():
    case = load_case("half-moon-mews")
    r = play_game(case, 3, 0, strategies=["fair"]).to_json()
    bids = [m for e in r["log"] for m in e["moves"] if m["displaces"] is not None]
    assert bids and all(m["bid"] >= 1 for m in bids)
    check_rules(case, r)


def test_carriage_stop_when_everything_is_taken():
    case = sourced_case({"Location 1": ["thief == Bob", "motive == 'debt'"]})
    r = play_game(case, 2, 0, tokens=0).to_json()  # no tokens: nobody can outbid
    first = r["log"][0]["moves"]
    assert [m["action"] for m in first] == ["visit", "stop"]
    check_rules(case, r, start_tokens=0)
    loser = first[1]["seat"]
    assert r["bots"][loser]["gained"] == 3


# ---------------------------------------------------------------------------------- cooperative
def test_cooperative_score_against_the_minimal_sources():
    case = load_case("kew-orchid")
    r = play_game(case, 2, 0, mode="cooperative").to_json()
    co = r["cooperative"]
    needed = len(check_case(case, profile=False).minimal_sources)
    assert co["tokens_needed"] == needed and co["tokens_start"] == cooperative_budget(case) == 8
    trips = sum(1 for e in r["log"] for m in e["moves"] if m["action"] != "221B")
    assert co["tokens_spent"] == trips >= needed
    assert co["best_score"] == best_score(8, needed)
    assert r["end"] == "solved"
    # tokens left (+3 if the Carriage Stop was used) plus its 3 if unclaimed: 8 - spent + 3
    assert co["score"] == 8 - co["tokens_spent"] + 3 == r["bots"][0]["tokens"] + 3 * (not co["carriage_stop_used"])
    assert co["score"] <= co["best_score"] and co["outcome"] == outcome(co["score"])
    assert len({json.dumps(b["answers"]) for b in r["bots"]}) == 1  # one team, one answer
    # the informed team follows a minimal plan: a perfect game; fair bots wander more
    assert co["tokens_spent"] == needed and co["score"] == co["best_score"]
    fair = play_game(case, 2, 0, mode="cooperative", strategies=["fair"]).to_json()
    assert fair["cooperative"]["tokens_spent"] > needed


def test_minimal_sources_from_known_notes():
    from deduce.models.casenotes.check import minimal_sources
    from deduce.models.casenotes.model import CaseModel

    case = load_case("lantern-street")
    with CaseModel(case) as model:
        full, _ = minimal_sources(model)
        first = full[0]
        known = [n.index for n in case.notes if n.source == first]
        rest, _ = minimal_sources(model, known)
        assert len(rest) == len(full) - 1 and first not in rest
        everything, _ = minimal_sources(model, range(len(case.notes)))
        assert everything == []


def test_cooperative_budget_and_best_score():
    assert cooperative_budget(load_case("lantern-street")) == 11 - 3
    assert cooperative_budget(load_case("zebra")) == 0
    assert best_score(8, 8) == 3 and best_score(8, 5) == 6
    assert best_score(5, 7) == 0 and best_score(5, 8) is None  # the Carriage Stop pays 2 net
    assert outcome(0).startswith("Just in time") and outcome(12).startswith("Fascinating")
    assert outcome(None) == "Not solved."


def test_cooperative_team_that_runs_dry_guesses():
    case = load_case("half-moon-mews")  # needs all 8 locations; the budget is 8 - 3 = 5
    r = play_game(case, 1, 0, mode="cooperative").to_json()
    co = r["cooperative"]
    assert co["tokens_start"] == 5 and co["best_score"] is None
    assert co["carriage_stop_used"] and r["bots"][0]["tokens"] == 0
    assert r["end"] in {"solved", "wrong answer"}


# ---------------------------------------------------------------------------------- bots
def test_fair_bot_ranks_without_reading_unvisited_notes():
    a = sourced_case({"Location 1: The Stable": ["thief == Bob"], "Location 2: The Eel Pond": ["Ann == cat"]})
    b = sourced_case({"Location 1: The Stable": ["Cy == pos[3]"], "Location 2: The Eel Pond": ["motive == 'envy'"]})
    ranks = []
    for case in (a, b):
        oracle = CaseOracle(case)
        try:
            ranks.append(Bot("fair", oracle, random.Random(5)).rank(frozenset(), [0, 1]))
        finally:
            oracle.close()
    assert ranks[0] == ranks[1]


def test_fair_bot_prefers_places_the_introduction_names():
    case = load_case("lantern-street")  # the intro names Venn and the Hallam silver
    oracle = CaseOracle(case)
    try:
        ranked = Bot("fair", oracle, random.Random(0)).rank(frozenset(), list(range(len(case.sources))))
        top = {case.sources[src] for score, src in ranked if score == ranked[0][0]}
        assert top == {"Location 2: Venn's Ledger", "Location 8: The Hallam House"}
    finally:
        oracle.close()


# ---------------------------------------------------------------------------------- CLI
def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_cli_json():
    res = run("case", "play", "half-moon-mews", "--bots", "2", "--seed", "4", "--json")
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert list(out) == ["case", "mode", "seed", "strategies", "rounds", "winners", "end", "bots",
                         "truth", "log"]
    assert out["seed"] == 4 and out["strategies"] == ["informed", "informed"]
    assert set(out["bots"][0]) == {"seat", "strategy", "status", "tokens", "spent", "gained",
                                   "visited", "answered_round", "answers", "correct"}
    assert set(out["log"][0]) == {"round", "start_player", "moves", "answers"}
    res = run("case", "play", "half-moon-mews", "--mode", "cooperative", "--json", "--tokens", "9")
    co = json.loads(res.stdout)["cooperative"]
    assert set(co) == {"tokens_start", "tokens_spent", "tokens_needed", "carriage_stop_used",
                       "score", "best_score", "outcome"}
    assert co["tokens_start"] == 9


def test_cli_human_and_errors():
    res = run("case", "play", "half-moon-mews", "--bots", "2", "--strategy", "fair,inf")
    assert res.exit_code == 0
    assert "Round 1" in res.output and "Solved by bot" in res.output and "Bellerophon" in res.output
    res = run("case", "play", "half-moon-mews", "--mode", "cooperative")
    assert res.exit_code == 0 and "perfect game needs 8" in res.output
    assert run("case", "play", "half-moon-mews", "--strategy", "clever").exit_code == 2
    assert run("case", "play", "half-moon-mews", "--bots", "0").exit_code == 2
