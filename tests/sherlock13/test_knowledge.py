"""The exact counter against brute force over the rules engine (no shared code with it)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.sherlock13.knowledge import Question, count_worlds, questions_for
from deduce.models.sherlock13.record import parse_record
from deduce.models.sherlock13.rules import State

from .simulate import all_worlds, consistent, random_game


def _record(state: State, seat: int):
    return parse_record(state.record(seat))


@pytest.mark.parametrize(
    "n, variant, expected",
    [(4, "standard", 16800), (4, "expert", 16800 * 6**3), (3, "standard", 630),
     (3, "expert", 630 * 24**2), (2, "standard", 336), (2, "expert", 336 * 120)],
)
def test_world_count_before_any_event(n, variant, expected):
    state = State.deal(n, variant, random.Random(0))
    w = count_worlds(_record(state, 0))
    assert w.total == expected
    unknown = 13 - len(state.hands[0])
    assert np.allclose(w.criminal[w.criminal > 0], expected / unknown)
    assert (w.criminal > 0).sum() == unknown


def _brute(state: State, seat: int):
    rec = state.record(seat)
    total, crim, holders = 0, Counter(), Counter()
    for c, hands, sides in all_worlds(state.n, state.variant, seat, state.start_hands[seat]):
        if consistent(state.variant, hands, c, sides, state.events, seat):
            total += 1
            crim[c] += 1
            now = State.from_deal(state.variant, hands, c, sides)
            from .simulate import action_of
            for ev in state.events:
                now.apply(action_of(ev))
            for s in range(state.n):
                if s != seat:
                    for card in now.hands[s]:
                        holders[s, card] += 1
    return rec, total, crim, holders


@pytest.mark.parametrize("n, variant", [(3, "standard"), (2, "standard")])
@pytest.mark.parametrize("seed", range(6))
def test_counter_equals_brute_force(n, variant, seed):
    state = random_game(n, variant, seed, max_events=8)
    seat = seed % n
    rec, total, crim, holders = _brute(state, seat)
    w = count_worlds(parse_record(rec))
    assert total > 0  # the true world is always there
    assert w.total == total
    assert [int(x) for x in w.criminal] == [crim[c] for c in range(13)]
    for s, counts in w.holders.items():
        assert [int(round(x)) for x in counts] == [holders[s, c] for c in range(13)]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_counter_equals_brute_force_2p_expert(seed):
    state = random_game(2, "expert", 100 + seed, max_events=6)
    rec, total, crim, _ = _brute(state, seed % 2)
    w = count_worlds(parse_record(rec))
    assert w.total == total
    assert [int(x) for x in w.criminal] == [crim[c] for c in range(13)]


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_expert_deal_counts_match_engine(n, seed):
    """Per deal, the orders that fit (counter) equal the orders the engine replays to fit."""
    state = random_game(n, "expert", 200 + seed, max_events=10)
    seat = seed % n
    w = count_worlds(_record(state, seat))
    rng = random.Random(seed)
    truth = (state.criminal, [sorted(h) for h in state.start_hands])
    deals = [truth] + [_random_deal(rng, n, seat, state.start_hands[seat]) for _ in range(5)]
    for crim, hands in deals:
        brute = 0
        others = [s for s in range(n) if s != seat]
        for orders in _product_orders([hands[s] for s in others]):
            full = list(hands)
            full[seat] = list(state.start_hands[seat])
            for s, o in zip(others, orders):
                full[s] = list(o)
            brute += consistent("expert", full, crim, {}, state.events, seat)
        assert w.deal_count(crim, {s: hands[s] for s in others}) == brute
        if (crim, hands) == truth:
            assert brute >= 1


def _product_orders(hands):
    if not hands:
        yield ()
        return
    for o in permutations(hands[0]):
        for rest in _product_orders(hands[1:]):
            yield (o,) + rest


def _random_deal(rng, n, seat, my_hand):
    pool = [c for c in range(13) if c not in my_hand]
    rng.shuffle(pool)
    crim, rest = pool[0], pool[1:]
    h = len(my_hand)
    hands, k = [], 0
    for s in range(n):
        if s == seat:
            hands.append(sorted(my_hand))
        else:
            hands.append(sorted(rest[k:k + h]))
            k += h
    return crim, hands


def _answer_of(state: State, q: Question, me: int):
    """The public answer (as knowledge.joint rows index it) on the true world."""
    if q.action == "count":
        return state.answer_count(q.target, q.icon)
    if q.action == "exchange":
        return state.sides[q.side]
    others = [s for s in range(state.n) if s != me]
    bits = [int(state.answer_count(s, q.icon) > 0) for s in others]
    return int("".join(map(str, bits)), 2)


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([2, 3, 4]), variant=st.sampled_from(["standard", "expert"]),
       seed=st.integers(0, 10**6), length=st.integers(0, 12))
def test_true_world_possible_and_answers_have_weight(n, variant, seed, length):
    """Property: the true criminal is possible, and at my turn the true answer to every
    question I could ask has positive weight jointly with the true criminal."""
    state = random_game(n, variant, seed, max_events=length)
    me = state.current
    w = count_worlds(_record(state, me))
    assert w.total > 0
    assert w.criminal[state.criminal] > 0
    if state.is_over():
        return
    assert w.criminal.sum() == w.total
    rec = _record(state, me)
    if variant == "expert":  # answers at my next turn = now, my hand already rotated
        pass
    for q in questions_for(rec):
        joint = w.joint(q)
        assert joint.sum() == pytest.approx(w.total)
        assert joint[_answer_of(state, q, me), state.criminal] > 0
