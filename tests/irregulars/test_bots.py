"""The greedy and search bots: blind to what their seat cannot see (two hidden parts
fitting one observation give one decision), the greedy's two readings (observation and
state) equal, its choices on hand-made turns (arrest the best, tail the nearest, the card
that completes a Villain, a board when no card helps), the search's determinism and its
candidates, and both bots in whole games, multi and solo."""

from __future__ import annotations

import random

import pytest

from deduce.models.irregulars import search
from deduce.models.irregulars.bots import BOTS, make_bot
from deduce.models.irregulars.greedy import GreedyBot, Tally, rank, state_view, view_of
from deduce.models.irregulars.knowledge import sample_hidden
from deduce.models.irregulars.log import parse_log
from deduce.models.irregulars.position import parse_position
from deduce.models.irregulars.rules import (
    Arrest,
    NoTail,
    Pick,
    State,
    Tail,
    TakeBoard,
    TakeCard,
    new_game,
    new_solo,
)
from deduce.models.irregulars.score import objective_value
from deduce.models.irregulars.search import SearchBot
from tests.irregulars.helpers import BLOOD, DISGUISE, GANG, HEART, MORAN, arrest_turn

GREEDY = GreedyBot()
TINY = SearchBot(samples=2)


def play_to(state: State, stop) -> State:
    """Greedy for every seat until ``stop(state)`` holds at a decision with a choice."""
    while not state.is_over():
        legal = state.legal_actions()
        if len(legal) > 1 and stop(state):
            return state
        state.apply(GREEDY.decide_state(state, legal))
    raise AssertionError("the game ended first")


def twins(state: State) -> tuple[State, State]:
    """Two states with the seat to act's observation and different hidden parts
    (``knowledge.sample_hidden`` draws), the picks of the others too."""
    seat = state.current_player()
    obs = state.observation(seat)
    pos = parse_position(obs["position"])
    log = parse_log(obs["log"], pos.cards, pos.players)
    out = []
    for k in (1, 2):
        hidden = sample_hidden(pos, log, random.Random(k))
        out.append(State.from_parts(pos, log, hidden, 1000 + k))
    assert out[0].observation(seat) == out[1].observation(seat) == obs
    assert out[0].hidden(seat) != out[1].hidden(seat)
    return out[0], out[1]


DECISIONS = [
    ("multi pick, round 2", lambda: play_to(new_game(3, 4), lambda s: s.round == 2
                                            and s.phase == "investigate" and s.cycle == 2)),
    ("multi bonus", lambda: play_to(new_game(5, 3), lambda s: s.phase == "bonus")),
    ("solo pick", lambda: play_to(new_solo(2), lambda s: s.cycle == 6
                                  and s.phase == "investigate")),
]


@pytest.mark.parametrize("make", [d[1] for d in DECISIONS], ids=[d[0] for d in DECISIONS])
def test_every_bot_is_blind_to_the_hidden_state(make):
    a, b = twins(make())
    seat = a.current_player()
    assert a.legal_actions() == b.legal_actions()
    for name in BOTS:
        bot = TINY if name == "search" else make_bot(name)
        picks = [bot.decide(s.observation(seat), s.legal_actions(), random.Random(9))
                 for s in (a, b)]
        assert picks[0] == picks[1], name


def test_the_greedy_reads_the_observation_and_the_state_alike():
    for state in (new_game(11, 4), new_solo(11)):
        while not state.is_over():
            seat, legal = state.current_player(), state.legal_actions()
            if not (state.solo and seat == 1):
                assert state_view(state, seat) == view_of(state.observation(seat))
                assert GREEDY.decide(state.observation(seat), legal, None) == \
                    GREEDY.decide_state(state, legal)
            state.apply(GREEDY.decide_state(state, legal))


def test_the_tally_counts_objectives_as_the_score_does():
    rng = random.Random(4)
    cards = new_game(0).cards
    for _ in range(300):
        owned = rng.sample(cards.evidence, rng.randrange(0, 20))
        extra = rng.choice(cards.evidence)
        tally = Tally(owned)
        for inspector in cards.inspectors:
            for o in inspector.objectives:
                assert tally.value(o) == objective_value(o, owned)
                assert tally.value(o, extra) == objective_value(o, owned + [extra])


def test_the_greedy_arrests_the_villain_worth_most():
    # Moran (8 points: heart, disguise, gang, blood) and whatever else the row holds
    state = arrest_turn(owned=[HEART, DISGUISE, GANG, BLOOD])
    legal = state.legal_actions()
    best = GREEDY.decide_state(state, legal)
    arrests = [a for a in legal if isinstance(a, Arrest)]
    top = max(state.cards.villain_by_id[a.villain].points for a in arrests)
    assert isinstance(best, Arrest) and state.cards.villain_by_id[best.villain].points == top
    assert MORAN in {a.villain for a in arrests}


def test_the_greedy_tails_the_nearest_villain():
    state = new_game(2, 3)
    state = play_to(state, lambda s: s.phase == "tail" and s.tailing[s.current_player()]
                    is None)
    seat = state.current_player()
    legal = state.legal_actions()
    assert isinstance(legal[-1], NoTail)
    view = state_view(state, seat)
    shown = 0
    for c in view.unused:
        shown |= state.cards.evidence_by_id[c].mask
    vil = state.cards.villain_by_id
    missing = {a.villain: (vil[a.villain].mask & ~shown).bit_count() for a in legal
               if isinstance(a, Tail)}
    choice = GREEDY.decide_state(state, legal)
    assert isinstance(choice, Tail) and missing[choice.villain] == min(missing.values())


def test_the_greedy_picks_the_card_that_completes_a_villain():
    # three of Moran's icons owned, another Villain tailed: blood makes him arrestable
    state = arrest_turn(owned=[HEART, DISGUISE, GANG])
    state.tailing[0] = next(v for v in state.row if v != MORAN)
    state.available[0] -= 1
    state.phase, state.acted = "investigate", []
    state.hands[0] = sorted([BLOOD, "E004", "E002"])  # blood, skull, print
    state._legal = None
    state._advance()
    legal = state.legal_actions()
    assert {a.card for a in legal if isinstance(a, Pick)} == {BLOOD, "E004", "E002"}
    scores = dict((a, s) for s, a in rank(state_view(state, 0), legal))
    assert GREEDY.decide_state(state, legal) == Pick(BLOOD), scores


def test_the_greedy_takes_a_board_when_no_card_helps():
    state = play_to(new_game(5, 3), lambda s: s.phase == "bonus" and any(
        isinstance(a, TakeBoard) for a in s.legal_actions()))
    seat = state.current_player()
    legal = state.legal_actions()
    ranked = rank(state_view(state, seat), legal)
    best = ranked[0][1]
    cards = [s for s, a in ranked if isinstance(a, TakeCard)]
    if isinstance(best, TakeBoard):
        assert max(cards, default=0.0) < 0.05
    else:
        assert isinstance(best, TakeCard) and ranked[0][0] >= 0.05


def test_the_search_is_seeded_and_weighs_its_candidates():
    state = play_to(new_game(3, 4), lambda s: s.round == 1 and s.cycle == 2
                    and s.phase == "investigate")
    seat = state.current_player()
    obs = state.observation(seat)
    legal = state.legal_actions()
    cands = TINY.candidates(obs, legal)
    assert 2 <= len(cands) <= search.TOP_K and cands[0] == GREEDY.decide(obs, legal, None)
    first = TINY.decide(obs, legal, random.Random(3))
    assert first in cands and TINY.decide(obs, legal, random.Random(3)) == first
    assert search.searched(legal) and not search.searched([legal[0]])


def test_the_search_rollouts_are_common_to_every_candidate():
    from deduce.models.irregulars.worlds import Worlds

    state = play_to(new_solo(4), lambda s: s.cycle == 3 and s.phase == "investigate")
    obs = state.observation(0)
    pos = parse_position(obs["position"])
    log = parse_log(obs["log"], pos.cards, pos.players)
    legal = state.legal_actions()
    worlds = Worlds(pos, log)
    once = search.values(worlds, 0, legal, random.Random(8), 3)
    assert once == search.values(worlds, 0, legal, random.Random(8), 3)
    assert [len(v) for v in once] == [3] * len(legal)
    for outcomes in once:
        for win, margin in outcomes:
            assert win in (0.0, 1.0)


@pytest.mark.parametrize("mode", ["multi", "solo"])
def test_greedy_and_search_play_whole_games(mode, monkeypatch):
    from deduce.models.irregulars.selfplay import GameSpec, play_one

    monkeypatch.setattr(search, "SAMPLES", 1)
    monkeypatch.setattr(search, "TOP_K", 2)
    bots = ("search", "greedy", "random") if mode == "multi" else ("search",)
    result = play_one(GameSpec(bots, 21, mode))
    assert 0 <= result.winner < len(result.points)
    assert result.actions == sum(result.own_actions)
    assert len(result.points) == (3 if mode == "multi" else 2)
