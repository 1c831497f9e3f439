"""Determinisations (``worlds``): from an engine observation every sample rebuilds a state
whose observation for me is the real one (the same legal actions, my turn); from the bare
position alone (no log) likewise, with the made-up log's hands following from the drawn
ones; the seed fixes the sample; positions no made-up deal fits are refused naming the
field."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.irregulars.greedy import GreedyBot
from deduce.models.irregulars.log import parse_log
from deduce.models.irregulars.position import load_position, parse_position
from deduce.models.irregulars.rules import new_game, new_solo
from deduce.models.irregulars.worlds import NoLog, Worlds, engine_position

GREEDY = GreedyBot()


def decisions(state, every: int = 3):
    """Every ``every``-th decision with a choice of a greedy game (solo: the player's), the
    engine's final phase and solo resupply left out."""
    k = 0
    while not state.is_over():
        seat, legal = state.current_player(), state.legal_actions()
        if len(legal) > 1 and state.phase not in ("final", "reset") and \
                not (state.solo and seat == 1):
            k += 1
            if k % every == 0:
                yield state, seat, legal
        state.apply(GREEDY.decide_state(state, legal))


def same_view(world, seat, state, legal, obs_position):
    assert world.current_player() == seat
    assert world.observation(seat)["position"] == obs_position
    assert sorted(map(repr, world.legal_actions())) == sorted(map(repr, legal))
    assert world.hidden(seat) != state.hidden(seat) or state.solo


@pytest.mark.parametrize("game", [lambda: new_game(7, 4), lambda: new_game(8, 2),
                                  lambda: new_solo(9)], ids=["4 players", "2 players", "solo"])
def test_samples_agree_with_what_i_see(game):
    for state, seat, legal in decisions(game(), every=4):
        obs = state.observation(seat)
        pos = parse_position(obs["position"])
        log = parse_log(obs["log"], pos.cards, pos.players)
        logged = Worlds(pos, log).sample(random.Random(1))
        same_view(logged, seat, state, legal, obs["position"])
        try:
            bare = Worlds(pos, None).sample(random.Random(1))
        except NoLog as exc:  # a player who passed: no deal without passes fits
            assert exc.field.startswith("evidence.") or exc.field == "hand"
            continue
        same_view(bare, seat, state, legal, engine_position(pos).to_json())
        # the made-up log is the engine's own: the rebuilt state writes it back
        assert bare.log(seat).cycles[-1].hand == tuple(sorted(bare.hands[seat])) or \
            not bare.hands[seat]


def test_a_seed_fixes_the_sample_and_the_sample_plays_on():
    pos = load_position("sample")
    worlds = Worlds(pos, None)
    a, b = worlds.sample(random.Random(5)), worlds.sample(random.Random(5))
    assert a.hidden(0) == b.hidden(0) and a.chance_seed == b.chance_seed
    assert worlds.sample(random.Random(6)).hidden(0) != a.hidden(0)
    unseen = {c.id for c in pos.cards.evidence} - set(pos.hand) - {
        o.card.id for p in pos.players for o in pos.evidence[p]}
    for name, hand in a.hidden(0).hands.items():
        assert len(hand) == len(pos.hand) and set(hand) <= unseen
    while not a.is_over():
        a.apply(GREEDY.decide_state(a))
    assert a.winner() is not None


def test_a_bare_position_no_deal_fits_is_refused_naming_the_field():
    from tests.irregulars.helpers import data

    doc = data()
    doc["hand"] = ["E031"]  # one card in cycle 3's arrest phase: 2 to 5 fit
    with pytest.raises(InputError) as exc:
        Worlds(parse_position(doc, "p.json"), None).sample(random.Random(0))
    assert exc.value.field == "hand" and "give the observation with its log" in str(exc.value)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), steps=st.integers(0, 400),
       solo=st.booleans())
def test_random_positions_sample_or_are_refused(seed, players, steps, solo):
    """A random position of a random game: its bare position samples a state that shows
    me exactly that position (or is refused naming the field), never a traceback."""
    state = new_solo(seed) if solo else new_game(seed, players)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    seat = state.current_player()
    if state.is_over() or state.phase in ("final", "reset") or (state.solo and seat == 1):
        return
    pos = parse_position(state.observation(seat)["position"])
    try:
        world = Worlds(pos, None).sample(random.Random(seed))
    except NoLog as exc:
        assert exc.field == "hand" or exc.field.startswith("evidence.")
        return
    assert world.observation(seat)["position"] == engine_position(pos).to_json()
    assert world.current_player() == seat
