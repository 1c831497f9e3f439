"""The case-notes play engine (``rules.State``) as the conformance test will use it:
seeded random playouts where every legal action applies and nothing else does, the same
seed replays the same game, observations round-trip through JSON, every game ends; and
bots decide from their own knowledge, never from the hidden truth."""

from __future__ import annotations

import dataclasses
import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.casenotes.bots import Bot
from deduce.models.casenotes.format import load_case
from deduce.models.casenotes.knowledge import CaseOracle
from deduce.models.casenotes.rules import BAKER, MODES, STOP, Action, Setup, State
from tests.casenotes.test_play import sourced_case

GUESSING = {"Location 1": ["thief == Bob"], "Location 2": ["Ann == pos[1]"]}
#: every legal action is applied to a copy at most this often per game (the rest sampled)
STEP_LIMIT = 2_000


@functools.cache
def setup_of(name: str) -> Setup:
    """``guessing``: two locations, the motive never fixed; ``mews``: a shipped case."""
    case = sourced_case(GUESSING) if name == "guessing" else load_case("half-moon-mews")
    with CaseOracle(case) as oracle:
        return Setup.of(oracle)


@pytest.fixture(scope="module")
def setups():
    return {name: setup_of(name) for name in ("guessing", "mews")}


def candidates(state: State) -> list:
    """A superset of the legal actions: every kind, locations and bids around the legal
    range, answers of every question's domain and a few strangers."""
    s = state.setup
    values = {v for d in s.domains for v in d} | {"nobody", True, 1.5}
    out = [STOP, BAKER, Action("stop", 0), Action("221B", bid=1), "visit", None]
    out += [Action("visit", src, bid) for src in (-1, 0, 1, len(s.sources), True)
            for bid in (-1, 0, 1, 2, 11, 15, False)]
    out += [Action("answer", value=v) for v in values] + [Action("visit", 0, 0, value="x")]
    return out


def playout(setup: Setup, players: int, mode: str, seed: int, check: bool = True) -> list[dict]:
    """A random game from ``seed``: the actions and every player's observation after each.
    With ``check``, every legal action must apply to a copy and every other candidate
    must raise ``InputError``."""
    rng = random.Random(seed)
    state = State(setup, players, random.Random(seed), mode)
    trace = []
    for _step in range(STEP_LIMIT):
        obs = [state.observation(k) for k in range(players)]
        for o in obs:
            assert json.loads(json.dumps(o)) == o
        if state.is_over():
            assert state.legal_actions() == [] and state.current_player() is None
            trace.append({"obs": obs})
            return trace
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if check:
            for action in candidates(state):
                if action in legal:
                    continue
                with pytest.raises(InputError):
                    state.clone().apply(action)
            for action in rng.sample(legal, min(len(legal), 8)):
                state.clone().apply(action)
        action = rng.choice(legal)
        assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
        trace.append({"obs": obs, "action": action.to_json()})
        state.apply(action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [1, 3])
def test_random_playouts_follow_the_rules_and_end(setups, mode, players):
    for seed in range(3):
        trace = playout(setups["guessing"], players, mode, seed)
        final = trace[-1]["obs"][0]
        assert final["phase"] == "over" and final["end"] is not None


def test_a_seed_replays_the_same_game_and_seeds_differ(setups):
    games = [playout(setups["mews"], 4, "competitive", seed, check=False) for seed in (5, 5, 6)]
    assert games[0] == games[1]
    assert games[0] != games[2]


def test_shipped_case_playouts_end_in_both_modes(setups):
    for mode in MODES:
        trace = playout(setups["mews"], 2, mode, 1)
        assert trace[-1]["obs"][1]["end"] in {"solved", "all eliminated", "alone, out of rounds",
                                              "wrong answer", "round cap"}


def test_visits_bids_displacements_and_the_carriage_stop(setups):
    s = setups["guessing"]
    state = State(s, 2, random.Random(0))
    first = state.current_player()
    other = 1 - first
    state.apply(Action("visit", 0, 2))
    obs = state.observation(other)
    assert obs["pawns"] == [{"seat": first, "action": "visit", "location": 0, "bid": 2}]
    assert min(a.bid for a in state.legal_actions() if a.source == 0) == 3
    with pytest.raises(InputError, match="a bid must exceed the 2 tokens on the location"):
        state.apply(Action("visit", 0, 2))
    with pytest.raises(InputError, match="a bid of 11 tokens, but seat .* has 10"):
        state.apply(Action("visit", 1, 11))
    state.apply(Action("visit", 0, 3))  # displaces: the first player gets 1 of its 2 back
    assert state.seats[first].tokens == 9 and state.current_player() == first
    state.apply(STOP)
    assert state.round == 2 and state.seats[first].tokens == 12
    assert state.seats[other].known == set(s.notes_at[0]) and state.seats[other].tokens == 7
    assert state.log[0]["moves"][1]["displaces"] == first


def test_answers_at_221b_are_checked_against_the_truth(setups):
    s = setups["guessing"]
    state = State(s, 1, random.Random(0))
    state.apply(BAKER)
    assert state.phase == "answer" and state.observation(0)["answering"] == []
    with pytest.raises(InputError, match="answers the questions now"):
        state.apply(STOP)
    with pytest.raises(InputError, match="'nobody' is not a possible answer to 'Who\\?'"):
        state.apply(Action("answer", value="nobody"))
    state.apply(Action("answer", value=s.truth[0]))
    assert state.observation(0)["answering"] == [s.truth[0]]
    state.apply(Action("answer", value=s.truth[1]))
    assert state.is_over() and state.winners() == [0] and state.winner() == 0
    assert state.end == "solved" and state.log[0]["answers"][0]["correct"] == 2
    with pytest.raises(InputError, match="the game is over"):
        state.apply(BAKER)


def test_cooperative_trips_cost_a_token_and_the_stop_pays_once(setups):
    s = dataclasses.replace(setups["guessing"], budget=1)
    state = State(s, 2, random.Random(0), "cooperative")
    assert state.current_player() == 0
    with pytest.raises(InputError, match="no bid"):
        state.apply(Action("visit", 0, 1))
    state.apply(STOP)
    state.apply(STOP)  # the bonus only the first time
    assert state.team.tokens == 1 + 3 - 2 and state.current_player() == 0
    state.apply(Action("visit", 0))
    state.apply(Action("visit", 1))
    assert state.team.tokens == 0
    assert state.legal_actions() == [BAKER]  # 221B is free; nothing else is
    state.apply(BAKER)
    for v in s.truth:
        state.apply(Action("answer", value=v))
    assert state.end == "solved" and state.winners() == [0, 1] and state.score() == 0


def test_bad_setups_and_observers_are_input_errors(setups):
    for players, mode, tokens in ((0, "competitive", None), (8, "competitive", None),
                                  (2, "team", None), (2, "cooperative", -1)):
        with pytest.raises(InputError):
            State(setups["guessing"], players, random.Random(0), mode, tokens)
    with pytest.raises(InputError, match="no player 2"):
        State(setups["guessing"], 2, random.Random(0)).observation(2)
    with pytest.raises(InputError, match="field 'action'|action"):
        Action.from_json({"action": "fly"})


def test_bots_decide_from_their_notes_never_from_the_truth(setups):
    """Another truth changes who wins, never what a bot does before it learns the verdict."""
    case = load_case("half-moon-mews")
    real = setups["mews"]
    fake = dataclasses.replace(real, truth=tuple(d[-1] if d[-1] != t else d[0]
                                                 for d, t in zip(real.domains, real.truth)))
    moves = []
    with CaseOracle(case) as oracle:
        for setup in (real, fake):
            state = State(setup, 3, random.Random(2))
            bots = [Bot("fair", oracle, random.Random(10 + k)) for k in range(3)]
            chosen = []
            while not state.is_over() and not any(e["answers"] for e in state.log):
                k = state.current_player()
                chosen.append(bots[k].act(state.observation(k), state.legal_actions()))
                state.apply(chosen[-1])
            moves.append(chosen)
    assert moves[0] == moves[1] and len(moves[0]) > 3


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=4)
                     | st.sampled_from(["visit", "stop", "221B", "answer"]),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.sampled_from(["action", "location", "bid", "value"]),
                                       inner, max_size=4), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(_JSON)
def test_any_json_is_an_action_or_an_input_error_and_applies_or_is_refused(data):
    state = State(setup_of("guessing"), 2, random.Random(0))
    try:
        action = Action.from_json(data)
    except InputError:
        return
    assert Action.from_json(action.to_json()) == action
    try:
        state.apply(action)
    except InputError:
        assert action not in state.legal_actions()
