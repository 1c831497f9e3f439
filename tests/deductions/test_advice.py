"""Deductions advice: every legal action ranked by the rollouts' estimate, seeded, with
the rollout cap, and the words that say why the best one is best."""

from __future__ import annotations

import json
import random

import pytest

from deduce.core.errors import InputError
from deduce.models.deductions.advice import (
    MAX_ROLLOUTS,
    MIN_ROLLOUTS,
    TOTAL_ROLLOUTS,
    Estimate,
    advise,
    describe,
    explain,
    per_action,
)
from deduce.models.deductions.bots import view_of
from deduce.models.deductions.position import parse_position
from deduce.models.deductions.rules import Discard, Draw, MindPalace, Reserve, Rotate, Take
from tests.deductions.test_bots import position, solve


def test_the_rollouts_per_action_are_capped_in_all():
    assert per_action(24, 5) == 24
    assert per_action(24, 30) == TOTAL_ROLLOUTS // 30
    assert per_action(24, 1000) == MIN_ROLLOUTS
    with pytest.raises(InputError, match=f"expected from 1 to {MAX_ROLLOUTS} rollouts, not 0"):
        per_action(0, 3)


def test_the_words_say_what_an_action_does_now():
    start = view_of(position())
    assert describe(start, solve(position(), "speckled-motive")) == (
        "Solve A Mother's Will and Its Income (speckled-motive): +2 points now (0 to 2); its "
        "discount (Writings) lowers 3 other visible cases by 1")
    assert describe(start, Draw()) == "Obtain clues: the clues are worth more than solving now"
    assert describe(start, Rotate("sign-location-1", "Statements")) == (
        "Turn The Third Pillar of the Lyceum (sign-location-1) to Statements with Irene: The "
        "Naturalist of Merripit House (hound-suspect, 3 points) becomes affordable then (1 clue "
        "short now)")
    assert describe(start, Reserve("hound-suspect")) == (
        "Reserve The Naturalist of Merripit House (hound-suspect) with Mycroft: only you may "
        "solve it; 1 clue short")
    mid = view_of(position("investigate"))
    assert describe(mid, Take((0, 3))) == (
        "Take the Statements at d1: The Naturalist of Merripit House "
        "(hound-suspect, 3 points) becomes affordable with it (1 clue short now)")
    assert describe(mid, Take((0, 0))) == ("Take the Writings at a1: no case I may "
                                           "solve gets cheaper")
    assert describe(mid, MindPalace(("row", 1))) == (
        "Mind Palace on row 2: one of Prints & Tracks, Irene Adler, Artifacts, Knowledge at "
        "random, the other three discarded")
    assert describe(mid, Discard("Sherlock Holmes")).startswith(
        "Discard Sherlock Holmes: it sets A Gaunt Hound Kept in the Mire (hound-means, 4 points) "
        "back most: 6 clues short without it (4 now)")


def test_the_words_name_a_milestone_and_the_final_round():
    solved = [{"case": c, "discount": d} for c, d in (
        ("speckled-suspect-2", "Statements"), ("sign-location-2", "Prints & Tracks"),
        ("sign-means-1", "Artifacts"), ("hound-opportunity-2", "Knowledge"),
        ("sign-suspect", "Statements"), ("hound-location", "Prints & Tracks"),
        ("speckled-means", "Artifacts"))]
    doc = position(solved_Ann=solved)
    assert parse_position(doc).points("Ann") == 11
    assert describe(view_of(doc), solve(doc, "speckled-motive")) == (
        "Solve A Mother's Will and Its Income (speckled-motive): +2 points now (11 to 13); it "
        "brings a milestone within reach: +3 at the end of the turn; 16 points: the final round "
        "starts; its discount (Writings) lowers 3 other visible cases by 1")


def test_why_names_the_chance_and_the_next_best():
    mid = view_of(position("investigate"))
    ranked = (Estimate(Take((0, 3)), 0.55, 0.04, 24), Estimate(Take((0, 0)), 0.4, 0.05, 24))
    assert explain(mid, ranked) == (
        "Take the Statements at d1: The Naturalist of Merripit House "
        "(hound-suspect, 3 points) becomes affordable with it (1 clue short now). Estimated "
        "chance to win 55% ± 4 over 24 rollouts; next best, take the Writings at a1: "
        "40%.")


def test_advise_ranks_every_distinct_legal_action_the_same_way_for_a_seed():
    from deduce.models.deductions import rules
    from deduce.models.deductions.bots import distinct

    pos = parse_position(position("investigate"))
    advice = advise(pos, rollouts=3, seed=5)
    legal = distinct(rules.from_position(pos, random.Random(0)).legal_actions())
    assert sorted(map(repr, (e.action for e in advice.estimates))) == sorted(map(repr, legal))
    assert [e.p_win for e in advice.estimates] == sorted((e.p_win for e in advice.estimates),
                                                         reverse=True)
    assert all(e.rollouts == 3 and 0 <= e.p_win <= 1 and e.stderr >= 0 for e in advice.estimates)
    assert advise(pos, rollouts=3, seed=5) == advice
    doc = advice.to_json()
    assert doc["best"]["why"] == advice.why and json.loads(json.dumps(doc)) == doc


def test_advice_is_for_me_on_my_turn_of_a_game_not_over():
    from deduce.models.deductions.bots import make_bot
    from deduce.models.deductions.rules import new_game

    other = position()
    other["to_play"] = "Ben"
    del other["turn"]
    with pytest.raises(InputError, match="it is Ben's turn, not Ann's"):
        advise(parse_position(other), 2)
    state, bot = new_game(3, players=3), make_bot("greedy")
    while not state.is_over():
        state.apply(bot.decide(state.observation(state.current_player()),
                               state.legal_actions(), None))
    seen = state.position(0)
    last = state.position(seen.players.index(seen.to_play))
    with pytest.raises(InputError, match="the game is over: nothing is left to advise"):
        advise(last, 2)
