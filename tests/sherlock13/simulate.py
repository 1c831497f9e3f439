"""Test helpers: random legal games from the rules engine, and brute-force world checks.

The brute force knows nothing of the knowledge model: a candidate world is consistent iff
replaying the same actions on it with the rules engine gives the same events as the record.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

from deduce.core.errors import InputError
from deduce.models.sherlock13.cards import HAND_SIZE, N_CARDS
from deduce.models.sherlock13.rules import action_of
from deduce.models.sherlock13.rules import Accuse, ExchangeEvent, State


def random_game(n: int, variant: str, seed: int, max_events: int = 12,
                accuse_rate: float = 0.08) -> State:
    """A game of random legal questions, with an occasional random accusation."""
    rng = random.Random(seed)
    st = State.deal(n, variant, rng)
    while not st.is_over() and len(st.events) < max_events:
        acts = st.legal_actions()
        accusations = [a for a in acts if isinstance(a, Accuse)]
        others = [a for a in acts if not isinstance(a, Accuse)]
        if rng.random() < accuse_rate or not others:
            st.apply(rng.choice(accusations))
        else:
            st.apply(rng.choice(others))
    return st


def _seen(event, viewer):
    if isinstance(event, ExchangeEvent) and event.actor != viewer:
        return ExchangeEvent(event.actor, event.side, event.revealed, None)
    return event


def consistent(variant, hands, criminal, sides, events, viewer) -> bool:
    """Does replaying ``events``' actions on this deal give the events ``viewer`` saw?"""
    st = State.from_deal(variant, hands, criminal, sides)
    for ev in events:
        try:
            got = st.apply(action_of(ev))
        except InputError:
            return False
        if _seen(got, viewer) != _seen(ev, viewer):
            return False
    return True


def all_worlds(n, variant, my_seat, my_hand):
    """Every world (criminal, hands in starting order, sides) with my hand fixed."""
    h = HAND_SIZE[n]
    unknown = [c for c in range(N_CARDS) if c not in my_hand]
    others = [s for s in range(n) if s != my_seat]

    def orders(cards):
        return permutations(cards) if variant == "expert" else [tuple(cards)]

    def deal_hands(pool, seats):
        if not seats:
            yield {}, pool
            return
        for combo in combinations(pool, h):
            rest = [c for c in pool if c not in combo]
            for tail, left in deal_hands(rest, seats[1:]):
                for order in orders(combo):
                    yield {seats[0]: list(order), **tail}, left

    if n == 2:
        for left, crim, right in permutations(unknown, 3):
            pool = [c for c in unknown if c not in (left, crim, right)]
            for hands, _ in deal_hands(pool, others):
                hands[my_seat] = list(my_hand)
                yield crim, [hands[s] for s in range(n)], {"left": left, "right": right}
    else:
        for crim in unknown:
            pool = [c for c in unknown if c != crim]
            for hands, _ in deal_hands(pool, others):
                hands[my_seat] = list(my_hand)
                yield crim, [hands[s] for s in range(n)], {}
