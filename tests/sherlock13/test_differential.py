"""Differential testing: the exact counter and the pysat CNF agree on what is possible.

On random simulated games of every variant, from a random seat: the same possible
criminals, the same possible holders of every card now, the same face-down cards; and the
engine's true world is always among the possible ones.
"""

from __future__ import annotations

import random

import pytest

from deduce.models.sherlock13.cnf import RecordCNF
from deduce.models.sherlock13.knowledge import count_worlds
from deduce.models.sherlock13.record import parse_record

from .simulate import random_game

VARIANTS = [(n, v) for n in (2, 3, 4) for v in ("standard", "expert")]


def _check(n, variant, seed):
    rng = random.Random(seed)
    state = random_game(n, variant, seed, max_events=rng.randint(0, 14))
    seat = rng.randrange(n)
    record = parse_record(state.record(seat))
    worlds = count_worlds(record)
    with RecordCNF(record) as cnf:
        assert cnf.possible_criminals() == {c for c in range(13) if worlds.criminal[c] > 0}
        holders = cnf.possible_holders()
        assert set(holders) == set(worlds.holders)
        for s, counts in worlds.holders.items():
            assert holders[s] == {c for c in range(13) if counts[c] > 0}
            assert set(state.hands[s]) <= holders[s]
        face_down = cnf.possible_face_down()
        assert set(face_down) == set(worlds.face_down)
        for side, counts in worlds.face_down.items():
            assert face_down[side] == {c for c in range(13) if counts[c] > 0}
            assert state.sides[side] in face_down[side]
    assert worlds.criminal[state.criminal] > 0


@pytest.mark.parametrize("n, variant", VARIANTS)
def test_counter_and_cnf_agree(n, variant):
    for seed in range(100):  # 100 games per variant, 600 in all
        _check(n, variant, 1000 * n + seed)


@pytest.mark.slow
@pytest.mark.parametrize("n, variant", VARIANTS)
def test_counter_and_cnf_agree_more(n, variant):
    for seed in range(100, 300):  # 300 games per variant, 1,800 in all
        _check(n, variant, 1000 * n + seed)
