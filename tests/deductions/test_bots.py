"""Deductions bots: the greedy's choices on hand-made positions (solve the most points,
the take that most lowers the cheapest cost, discard, claim, Irene and Mycroft), the
search's candidates, and that every bot decides from its observation alone."""

from __future__ import annotations

import copy
import random


from deduce.models.deductions import rules
from deduce.models.deductions.bots import (
    BOTS,
    Greedy,
    Scorer,
    Search,
    make_bot,
    rank_actions,
    shortfall,
    view_of,
)
from deduce.models.deductions.payment import pay, short_by
from deduce.models.deductions.position import parse_position
from deduce.models.deductions.rules import Claim, Discard, Draw, MindPalace, Reserve, Rotate, Solve, Take

#: a mid-game position: Ann to play at the start of her turn; 0 points to Cat's 3
MID = {
    "game": "deductions",
    "players": ["Ann", "Ben", "Cat"],
    "me": "Ann",
    "to_play": "Ann",
    "grid": [["Writings", "Writings", "Writings", "Statements"],
             ["Prints & Tracks", "Irene Adler", "Artifacts", "Knowledge"],
             ["Writings", "Statements", "Statements", "Knowledge"],
             ["Knowledge", "Artifacts", "Statements", "Knowledge"]],
    "display": {"solutions": ["hound-suspect", "sign-location", "speckled-motive", "hound-means"],
                "red_herrings": ["sign-suspect-2", "hound-motive-1", "speckled-means-2",
                                 "sign-opportunity-1"]},
    "pools": {"Ann": ["Statements", "Writings", "Writings", "Knowledge", "Sherlock Holmes"],
              "Ben": ["Artifacts", "Artifacts", "Prints & Tracks"], "Cat": ["Knowledge"]},
    "solved": {"Ann": [{"case": "hound-suspect-1", "discount": "Statements"},
                       {"case": "sign-location-1", "discount": "Prints & Tracks"}],
               "Ben": [{"case": "speckled-means-1", "discount": "Artifacts"}],
               "Cat": [{"case": "hound-opportunity-1", "discount": "Knowledge"},
                       {"case": "speckled-suspect", "discount": "Statements"}]},
    "milestones": {"Ann": {}, "Ben": {}, "Cat": {}},
    "reserved": {"Ann": None, "Ben": None, "Cat": None},
    "discard": ["Writings", "Prints & Tracks", "Artifacts"],
    "final_round": False,
    "turn": {"number": 12, "step": "start", "used_allies": []},
}


def position(step: str = "start", **changes) -> dict:
    """``MID`` at ``step`` with ``changes`` (field -> value; ``pools_Ann`` sets Ann's pool)."""
    doc = copy.deepcopy(MID)
    doc["turn"]["step"] = step
    for key, value in changes.items():
        if key.startswith("pools_"):
            doc["pools"][key[6:]] = value
        elif key.startswith("solved_"):
            doc["solved"][key[7:]] = value
        else:
            doc[key] = value
    parse_position(doc)  # every test position is a valid one
    return doc


def solve(doc: dict, case: str) -> Solve:
    """The cheapest payment of ``case`` from Ann's pool, as the engine lists it."""
    view = view_of(doc)
    due = Scorer(view).due[case]
    return Solve(case, tuple(pay(due, list(view.pool)).uses))


def best(doc: dict, legal: list) -> object:
    return Greedy().decide(doc, legal, random.Random(0))


def test_the_bots_by_name():
    assert BOTS == ("random", "greedy", "search")
    assert [make_bot(n).name for n in ("rand", "greedy", "sea")] == list(BOTS)


def test_shortfall_is_short_by_remembered():
    due = {"Statements": 2, "Knowledge": 3}
    pool = ["Knowledge", "Statements", "Sherlock Holmes"]
    assert shortfall(due, pool) == short_by(due, pool) == 1
    assert shortfall(due, list(reversed(pool))) == 1  # the pool's order does not matter


def test_a_case_s_worth_is_its_points_a_milestone_and_its_asset():
    scorer = Scorer(view_of(position()))
    assert scorer.value["hound-means"] == 4.75 and scorer.value["hound-motive-1"] == 0.75
    # Ann holds a Suspect and a Location: no milestone is within one card of her
    assert {c: scorer.short(c, view_of(MID).pool) for c in ("hound-suspect", "speckled-motive",
                                                             "hound-means")} \
        == {"hound-suspect": 1, "speckled-motive": 0, "hound-means": 4}


def test_greedy_solves_the_affordable_case_worth_the_most():
    doc = position()
    legal = [Draw(), solve(doc, "sign-suspect-2"), solve(doc, "speckled-motive"),
             solve(doc, "hound-motive-1")]
    assert best(doc, legal) == Solve("speckled-motive")
    assert best(doc, [Draw()]) == Draw()


def test_greedy_counts_a_milestone_the_solve_brings_within_reach():
    solved = [{"case": c, "discount": d} for c, d in (
        ("hound-suspect-1", "Statements"), ("sign-location-1", "Prints & Tracks"),
        ("sign-means-1", "Artifacts"), ("hound-opportunity-2", "Knowledge"))]
    doc = position(solved_Ann=solved)
    # hound-motive-1 (0 points, a Motive) completes Diversity: +3 beats sign-suspect-2's 1
    legal = [Draw(), solve(doc, "sign-suspect-2"), solve(doc, "hound-motive-1")]
    assert Scorer(view_of(doc)).value["hound-motive-1"] == 3.75
    assert best(doc, legal) == Solve("hound-motive-1")


def test_greedy_takes_the_card_that_most_lowers_the_cheapest_cost():
    doc = position("investigate")
    legal = [Take((0, 0)), Take((1, 3)), Take((0, 3)), MindPalace(("row", 1))]
    # a Statements makes hound-suspect (3 points, 1 short) affordable
    assert best(doc, legal) == Take((0, 3))
    ranked = rank_actions(view_of(doc), legal)
    assert [a for _, a in ranked][0] == Take((0, 3))
    assert [s for s, _ in ranked] == sorted((s for s, _ in ranked), reverse=True)


def test_greedy_discards_the_card_its_cases_need_least():
    pool = ["Statements", "Writings", "Writings", "Knowledge", "Sherlock Holmes", "Artifacts",
            "Artifacts", "Artifacts", "Prints & Tracks", "Statements", "Statements"]
    doc = position("discard", pools_Ann=pool, pools_Ben=[])
    legal = [Discard(c) for c in dict.fromkeys(pool)]
    choice = best(doc, legal)
    assert choice != Discard("Sherlock Holmes")
    kept = list(pool)
    kept.remove(choice.card)
    view = view_of(doc)
    scorer = Scorer(view)
    assert all(scorer.potential(kept) >= scorer.potential([c for c in pool if c != d.card]
                                                           + [d.card] * (pool.count(d.card) - 1))
               for d in legal)


def test_greedy_claims_the_cards_claimable_picks():
    solved = [{"case": c, "discount": d} for c, d in (
        ("hound-suspect-1", "Statements"), ("sign-location-1", "Prints & Tracks"),
        ("sign-means-1", "Artifacts"), ("hound-opportunity-2", "Knowledge"),
        ("speckled-motive-1", "Writings"), ("sign-motive-1", "Writings"))]
    doc = position("claim", solved_Ann=solved)
    one = Claim("diversity", ("hound-suspect-1", "sign-location-1", "sign-means-1",
                              "hound-opportunity-2", "speckled-motive-1"))
    other = Claim("diversity", ("hound-suspect-1", "sign-location-1", "sign-means-1",
                                "hound-opportunity-2", "sign-motive-1"))
    from deduce.models.deductions.milestones import claimable

    pick = claimable(list(view_of(doc).solved), {})["diversity"]
    assert best(doc, [one, other]).cards == tuple(sorted(pick, key=[s["case"] for s in solved].index))


def test_greedy_turns_a_discount_with_irene_when_it_makes_a_better_case_affordable():
    pool = ["Statements", "Writings", "Writings", "Knowledge", "Sherlock Holmes", "Irene Adler"]
    grid = copy.deepcopy(MID["grid"])
    grid[1][1] = "Knowledge"
    doc = position(pools_Ann=pool, grid=grid)
    # sign-location-1's discount on Statements: hound-suspect (3 points) gets affordable
    legal = [Draw(), solve(doc, "speckled-motive"), Rotate("sign-location-1", "Statements"),
             Rotate("sign-location-1", "Artifacts")]
    assert best(doc, legal) == Rotate("sign-location-1", "Statements")
    # a turn that makes nothing better affordable: solve what is affordable now
    assert best(doc, legal[:2] + legal[3:]) == Solve("speckled-motive")


def test_greedy_reserves_a_solution_it_cannot_afford_yet_with_mycroft():
    pool = ["Statements", "Writings", "Mycroft Holmes"]  # nothing affordable
    doc = position(pools_Ann=pool, pools_Ben=["Artifacts", "Prints & Tracks"],
                   discard=["Writings", "Prints & Tracks", "Artifacts", "Artifacts", "Writings"])
    legal = [Draw(), Reserve("hound-suspect"), Reserve("speckled-motive"),
             Reserve("hound-motive-1")]
    # speckled-motive is 3 clues short, hound-suspect 5 (too far), hound-motive-1 no Solution
    assert best(doc, legal) == Reserve("speckled-motive")
    assert best(doc, [Draw(), Reserve("hound-suspect")]) == Draw()
    reserved = position(pools_Ann=pool, pools_Ben=["Artifacts", "Prints & Tracks"],
                        discard=["Writings", "Prints & Tracks", "Artifacts", "Artifacts",
                                 "Writings"],
                        reserved={"Ann": "speckled-opportunity", "Ben": None, "Cat": None})
    assert best(reserved, legal) == Draw()  # one reserved slot


def test_search_candidates_are_the_greedy_s_best_with_distinct_cards_and_draw():
    doc = position("investigate")
    legal = [Take((0, 0)), Take((0, 1)), Take((0, 3)), Take((1, 3)), MindPalace(("row", 1))]
    cands = Search(top_k=3).candidates(view_of(doc), legal)
    assert cands[0] == Take((0, 3)) and len(cands) == 3
    assert len({view_of(doc).grid[a.cell[0]][a.cell[1]] for a in cands if isinstance(a, Take)}) \
        == sum(isinstance(a, Take) for a in cands)
    start = position()
    legal = [solve(start, "sign-suspect-2"), solve(start, "speckled-motive"), Draw()]
    assert Search(top_k=1).candidates(view_of(start), legal) == [Solve("speckled-motive"), Draw()]


# ----------------------------------------------------------------------------- with the engine
def _two_hidden_states(seed: int = 11):
    """Two states that show the same to seat 0 (a greedy game's mid-game position, its
    hidden deck order and piles drawn twice with different seeds)."""
    state = rules.new_game(seed, players=3)
    greedy, rng = Greedy(), random.Random(0)
    while state.turns < 9:
        seat = state.current_player()
        state.apply(greedy.decide(state.observation(seat), state.legal_actions(), rng))
    seen = state.position(state.current_player())
    return (rules.from_position(seen, random.Random(1)),
            rules.from_position(seen, random.Random(2)))


def _hidden_differs(a, b, actions: int = 12) -> bool:
    """Whether the same random actions, played on clones of ``a`` and ``b``, show
    different chance results (the hidden deck orders differ)."""
    a, b, rng = a.clone(), b.clone(), random.Random(5)
    for _ in range(actions):
        if a.is_over() or a.legal_actions() != b.legal_actions():
            return True
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        if a.observation(0) != b.observation(0):
            return True
    return False


def test_every_bot_decides_from_its_observation_alone():
    a, b = _two_hidden_states()
    seat = a.current_player()
    assert a.observation(seat) == b.observation(seat)
    assert a.legal_actions() == b.legal_actions()
    assert _hidden_differs(a, b)
    for name in BOTS:
        bot = make_bot(name)
        picks = [bot.decide(s.observation(seat), s.legal_actions(), random.Random(7))
                 for s in (a, b)]
        assert picks[0] == picks[1], name


def test_search_plays_a_legal_action_and_its_rollouts_are_seeded():
    a, _ = _two_hidden_states(12)
    seat, legal = a.current_player(), a.legal_actions()
    bot = Search(samples=2, depth=2)
    obs = a.observation(seat)
    one = bot.decide(obs, legal, random.Random(3))
    assert one in legal and bot.decide(obs, legal, random.Random(3)) == one
    values = bot.values(a.position(seat), legal[:2], random.Random(4), 2, 2)
    assert values == bot.values(a.position(seat), legal[:2], random.Random(4), 2, 2)
    assert all(len(v) == 2 and all(0.0 <= x <= 1.0 for x in v) for v in values)
