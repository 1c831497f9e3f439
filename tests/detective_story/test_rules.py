"""``rules.State``, the game face of the engine, in the style of OpenSpiel's random
simulation test: seeded random playouts check that every legal action applies, an illegal
one raises ``InputError`` and changes nothing, the same seed replays the same case, every
observation round-trips through its JSON (``state.parse_record``/``case_to_record``), and
every case ends; a chance point takes its outcomes as actions."""

from __future__ import annotations

import json
import random

import pytest

from deduce.core.errors import InputError
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.advice import Expect, Tracer
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.live import Answers, Told, play_turn
from deduce.models.detective_story.naive import Naive
from deduce.models.detective_story.rules import ENCOUNTER_ROLLS, State
from deduce.models.detective_story.state import case_to_record, parse_record
from deduce.models.detective_story.worlds import PlainDecisions, Sampler

from .conftest import fresh

#: the most Actions a case can take: one a turn
MAX_TURNS = T.TURNS


def round_trips(st: State) -> None:
    """The observation reads back as the same case, and is written back unchanged."""
    obs = st.observation()
    text = json.dumps(obs)
    back = parse_record(json.loads(text), "observation", st.cf.data)
    assert (back.case, back.phase, back.waited) == (st.case, st.phase, st.waited)
    assert case_to_record(back, back.case, back.phase, back.waited) == json.loads(text)


def illegal_ones(st: State) -> list:
    """Actions not legal now, of every kind a caller may send."""
    legal = st.legal_actions()
    if st.is_chance_node():
        return [1, 13, "Wait", True]
    return [a for a in E.ALL_ACTIONS if a not in legal] + ["Fly", 7, None]


def playout(st: State, seed: int) -> list:
    """Play ``st`` to its end with uniformly random legal actions (a player's own ``rng``),
    checking every step; the actions taken."""
    player = random.Random(seed)
    taken = []
    for _ in range(MAX_TURNS + 1):
        round_trips(st)
        if st.is_over():
            assert st.legal_actions() == [] and st.chance_outcomes() == []
            assert st.winner() == (0 if st.case.won else None)
            assert st.returns() == [1.0 if st.case.won else 0.0]
            with pytest.raises(InputError):
                st.apply("Wait")
            return taken
        legal = st.legal_actions()
        assert legal and st.winner() is None
        for action in legal:  # every legal action applies
            other = st.clone()
            other.apply(action)
            assert other.case.turn > st.case.turn or other.is_over()
        before = st.observation()
        for action in illegal_ones(st):  # an illegal one is refused and changes nothing
            with pytest.raises(InputError):
                st.apply(action)
            assert st.observation() == before
        action = legal[player.randrange(len(legal))]
        taken.append(action)
        st.apply(action)
    raise AssertionError(f"the case did not end in {MAX_TURNS} turns")


@pytest.mark.parametrize("seed", range(30))
def test_random_playouts_of_fresh_shipped_cases(seed):
    first = State.new(seed)
    taken = playout(first, seed)
    again = State.new(seed)
    for action in taken:  # the same seed replays the same case
        again.apply(action)
    assert again.observation() == first.observation() and again.is_over()


@pytest.mark.parametrize("seed", range(15))
def test_random_playouts_of_a_tiny_campaign(seed, tiny_session_dir):
    data = load_campaign(tiny_session_dir)
    playout(State.new(seed, data), seed)


def test_a_record_waiting_for_the_encounter_is_a_chance_point(shipped):
    cf = fresh(shipped, turn=11, villain="c201", sm=1, luck=2, clue_found=True,
               phase="encounter", waited=True)
    st = State(cf, random.Random(5))
    assert st.is_chance_node()
    assert st.legal_actions() == list(range(2, 13))
    assert sum(p for _, p in st.chance_outcomes()) == pytest.approx(1.0)
    assert st.chance_outcomes() == list(ENCOUNTER_ROLLS)
    round_trips(st)
    st.apply(2)  # 2 + 1 (after Wait) is quiet on every turn, as told at the table
    told = play_turn(cf.ctx, cf.case, cf.phase, cf.waited, None, Answers(["2"]))
    assert (st.case, st.phase, st.waited) == (told.case, "action", False)
    assert st.log == told.log and not st.is_chance_node()
    playout(st, 5)


def test_a_chance_outcome_drawn_from_the_state_replays(shipped):
    cf = fresh(shipped, turn=10, villain="c201", phase="encounter")
    ends = []
    for _ in range(2):
        st = State(cf, random.Random(9))
        while not st.is_over():
            st.apply(st.sample_chance() if st.is_chance_node()
                     else st.legal_actions()[0])
        ends.append(st.observation())
    assert ends[0] == ends[1]


def test_observation_is_the_solo_players_only(shipped):
    st = State(fresh(shipped), random.Random(1))
    with pytest.raises(InputError, match="solo"):
        st.observation(1)


def test_every_world_implements_the_world_protocol(shipped):
    cf = fresh(shipped)
    worlds = [Sampler(random.Random(1), PlainDecisions(), cf.ctx), Told(cf.ctx, Answers()),
              Tracer(), Expect(None), Naive(cf.ctx)]
    for w in worlds:
        assert isinstance(w, E.World), type(w).__name__
    assert not isinstance(object(), E.World)
