"""Baker Street Irregulars' engine in play: random playouts (hypothesis) holding the
invariants (13 tokens each, every card in one place, the score a sum), rebuilding the
state from an observation and its hidden part, actions in JSON and words, and the
random bot blind to what its seat cannot see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.irregulars import rules
from deduce.models.irregulars.bots import BOTS, make_bot
from deduce.models.irregulars.cards import shipped_cards
from deduce.models.irregulars.hidden import Hidden
from deduce.models.irregulars.rules import (
    Arrest,
    NoArrest,
    NoTail,
    PassHand,
    Pick,
    Resupply,
    State,
    Tail,
    TakeBoard,
    TakeCard,
    Watson,
    Wiggins,
    action_from_json,
    action_words,
    new_game,
    new_solo,
    read_observation,
)

CARDS = shipped_cards()
ALL_EVIDENCE = sorted(c.id for c in CARDS.evidence)
ALL_VILLAINS = sorted(v.id for v in CARDS.villains)


def _check_invariants(state: State) -> None:
    for s in range(state.n):
        tail = 0 if state.tailing[s] is None else 1
        assert state.available[s] + state.spent[s] + tail == rules.TOKENS
        assert state.available[s] >= 0 and state.spent[s] >= 0
        objectives = state.objectives(s)
        assert state.points(s) == state.villain_points(s) + (max(objectives) if objectives
                                                              else 0)
    places = [c for h in state.hands for c in h] + \
        [c for c in state.picked.values() if c is not None] + \
        [c for o in state.owned for c in o] + state.middle + \
        [c for d in state.decks.values() for c in d] + state.discard
    assert sorted(places) == ALL_EVIDENCE
    villains = state.row + state.villain_deck + [v for a in state.arrested for v in a]
    assert sorted(villains) == ALL_VILLAINS
    assert len(state.row) <= rules.ROW and all(t is None or t in state.row
                                               for t in state.tailing)


def _playout(state: State, rng: random.Random, observe: float = 0.1) -> State:
    while not state.is_over():
        _check_invariants(state)
        if rng.random() < observe:
            for s in ([0] if state.solo else range(state.n)):
                obs = state.observation(s)
                assert read_observation(json.loads(json.dumps(obs))) == obs
        state.apply(rng.choice(state.legal_actions()))
    _check_invariants(state)
    assert state.legal_actions() == [] and state.winner() is not None
    return state


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_random_multiplayer_playouts_hold_the_invariants(seed, players):
    state = _playout(new_game(seed, players), random.Random(seed))
    assert state.round == 4 and len(state.winner()) == 1


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32))
def test_random_solo_playouts_hold_the_invariants(seed):
    state = _playout(new_solo(seed), random.Random(seed))
    assert state.cycle == rules.SOLO_CYCLES and state.deal == 5


def _same_future(real: State, rebuilt: State, rng: random.Random) -> None:
    a, b = real.clone(), rebuilt
    while True:
        assert [repr(x) for x in a.legal_actions()] == [repr(x) for x in b.legal_actions()]
        for s in ([0] if a.solo else range(a.n)):
            assert a.observation(s) == b.observation(s)
        if a.is_over():
            break
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
    assert a.scores() == b.scores() and a.winner() == b.winner()


@pytest.mark.parametrize("make", [lambda s: new_game(s, 3), lambda s: new_game(s, 5),
                                  new_solo], ids=["3 players", "5 players", "solo"])
def test_from_parts_of_an_observation_and_its_hidden_part_goes_on_exactly(make):
    """From any seat's observation (JSON) and that seat's real hidden part, with the real
    chance seed, the rebuilt state plays on exactly as the real one, every seat's
    observation included (checked at a few points of a few games)."""
    for seed in range(3):
        state = make(seed)
        rng = random.Random(seed)
        points = {rng.randrange(150) for _ in range(3)}
        step = 0
        while not state.is_over():
            if step in points:
                seat = 0 if state.solo else rng.randrange(state.n)
                obs = json.loads(json.dumps(state.observation(seat)))
                rebuilt = State.from_parts(obs["position"], obs["log"], state.hidden(seat),
                                           state.chance_seed)
                _same_future(state, rebuilt, random.Random(step))
            state.apply(rng.choice(state.legal_actions()))
            step += 1


def test_from_parts_refuses_hidden_hands_that_do_not_agree_with_the_log():
    state = new_game(2, 3)
    for _ in range(4):  # into the second cycle
        state.apply(state.legal_actions()[0])
    while state.cycle == 1:
        state.apply(state.legal_actions()[-1])
    obs = state.observation(0)
    hidden = state.hidden(0)
    ben, cat = hidden.hands["Ben"], hidden.hands["Cat"]
    wrong = Hidden({"Ben": cat, "Cat": ben}, hidden.decks, hidden.villain_deck,
                   hidden.inspectors, hidden.plot_twists, hidden.picked, hidden.middle)
    with pytest.raises(InputError, match="do not agree with the log"):
        State.from_parts(obs["position"], obs["log"], wrong)


def test_the_observation_shows_only_what_the_seat_can_see():
    state = new_game(3, 4)
    hidden = state.hidden(0)
    text = json.dumps(state.observation(0))
    for name, hand in hidden.hands.items():
        assert not any(f'"{c}"' in text for c in hand)
    assert set(hidden.hands) == {"Ben", "Cat", "Dan"} and len(hidden.inspectors) == 4
    assert state.observation(0)["position"]["inspector"] == state.inspectors[0]


def test_the_random_bot_is_blind_to_what_its_seat_cannot_see():
    """Two states with the same observation for seat 0 and different hidden parts (the
    other players' hands exchanged before any card passed): the same decision for the
    same seed."""
    state = new_game(4, 3)
    obs = state.observation(0)
    hidden = state.hidden(0)
    other = Hidden({"Ben": hidden.hands["Cat"], "Cat": hidden.hands["Ben"]}, hidden.decks,
                   tuple(reversed(hidden.villain_deck)), hidden.inspectors,
                   hidden.plot_twists)
    twin = State.from_parts(obs["position"], obs["log"], other, 99)
    assert twin.observation(0) == obs and twin.hidden(0) != hidden
    for name in BOTS:
        bot = make_bot(name)
        picks = [bot.decide(s.observation(0), s.legal_actions(), random.Random(5))
                 for s in (state, twin)]
        assert picks[0] == picks[1]


ACTIONS = [Pick("E001"), PassHand(), Resupply(True), Arrest("V02", ("E001", "E009"), True),
           NoArrest(), rules.Jump(), Watson(), Wiggins("V07"), Tail("V07"), NoTail(),
           TakeCard("E031"), TakeBoard("wiggins")]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: type(a).__name__)
def test_actions_round_trip_through_json_and_have_words(action):
    back = action_from_json(json.loads(json.dumps(action.to_json())))
    assert back == action and back.to_json() == action.to_json()
    assert action_words(action) and action_words(action, CARDS)


@pytest.mark.parametrize("data, says", [
    ([], "an action is a JSON object"),
    ({"action": "shoot"}, "expected one of pick"),
    ({"action": "pick"}, "field 'card': missing field"),
    ({"action": "pick", "card": 3}, "field 'card': expected an id"),
    ({"action": "arrest", "villain": "V02", "cards": "E001"}, "field 'cards'"),
    ({"action": "arrest", "villain": "V02", "cards": ["E001"] * 10}, "at most 9"),
    ({"action": "board", "board": "mycroft"}, "expected one of holmes"),
    ({"action": "tail", "villain": "V02", "extra": 1}, "unknown field for tail"),
    ({"action": "resupply", "keep_tail": "yes"}, "expected true or false"),
])
def test_bad_action_json_is_an_input_error_naming_the_field(data, says):
    with pytest.raises(InputError, match=says):
        action_from_json(data)


def test_an_illegal_action_raises_and_changes_nothing():
    state = new_game(5, 3)
    before = [state.observation(p) for p in range(3)]
    for action in (Tail(state.row[0]), NoArrest(), TakeCard("E001"), Resupply(True),
                   Pick("E100"), "pick"):
        with pytest.raises(InputError):
            state.apply(action)
    assert [state.observation(p) for p in range(3)] == before
    over = _playout(new_game(6, 2), random.Random(6), observe=0)
    with pytest.raises(InputError, match="the game is over"):
        over.apply(NoArrest())
