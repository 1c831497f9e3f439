"""The ``search`` Baker Street Irregulars bot: determinized rollouts.

For a decision that matters (a pick, an arrest with a choice of Villains, a bonus choice;
every other decision is the greedy's), the candidates are the greedy's ``TOP_K`` best
distinct actions (``candidates``: an arrest is its Villain and board, whatever cover; the
greedy's cover is played). Each of ``samples`` hidden states is drawn from the
observation alone (``worlds.Worlds``: ``knowledge.sample_hidden`` with the engine's log,
every hand seen while passing kept), rebuilt with ``rules.State.from_parts``; every
candidate is applied to a copy of the same state, with the same later chance (common
random numbers), and every seat then plays greedy to the end of the game. A candidate's
value is its mean win (1 or 0: solo, more points than Holmes), ties broken by the mean
margin (my points less the best other's, weighted ``MARGIN_WEIGHT``); the greedy's order
breaks what is left. ``values`` gives the rollouts' outcomes; the advice reuses it.

The budget is ``samples`` rollouts per candidate (``SAMPLES`` by default; selfplay uses the
default, sized for the CPU budget: ``benchmarks/irregulars_strength.py``).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from deduce.models.irregulars.cards import CardSet
from deduce.models.irregulars.greedy import GreedyBot, Scorer, rank, state_view, view_of
from deduce.models.irregulars.rules import Arrest, Pick, TakeBoard, TakeCard

#: candidates per searched decision (the greedy's best), rollouts per candidate
TOP_K = 3
SAMPLES = 10
#: weight of the final points margin beside the win (a tiebreak between equal win rates)
MARGIN_WEIGHT = 0.1
#: the rollouts' horizon: solo, cycles past the decision (multi: the end of the round)
SOLO_HORIZON = 4
#: weight of a seat's potential (``greedy.Scorer.potential``) in a leaf's score
LEAF_POTENTIAL = 1.0
#: the most actions a rollout plays (a safety net: a game has about 140)
ROLLOUT_CAP = 2_000


def key_of(action: Any) -> Any:
    """What makes two actions the same choice: an arrest is its Villain and board."""
    if isinstance(action, Arrest):
        return ("arrest", action.villain, action.holmes)
    return action


def distinct(ranked: Sequence[Any]) -> list[Any]:
    """``ranked`` with one action per ``key_of`` (the first kept)."""
    seen, out = set(), []
    for a in ranked:
        k = key_of(a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def searched(legal: Sequence[Any]) -> bool:
    """Whether a decision is searched: picks and bonus choices with two options or more,
    arrest turns with two Villains (or boards) to choose from."""
    kind = type(legal[0])
    if kind in (Pick, TakeCard, TakeBoard):
        return len(legal) > 1
    arrests = {key_of(a) for a in legal if isinstance(a, Arrest)}
    return len(arrests) > 1


def rollout(state, me: int, greedy: GreedyBot, horizon: bool = True) -> tuple[float, float]:
    """Play greedy for every seat to the horizon (``horizon``: the end of the current round,
    solo ``SOLO_HORIZON`` cycles on; else the end of the game) and score it for ``me``:
    ``(win, margin)``, at the game's end the win (1 or 0) and my points less the best
    other's; before it, whether I lead and by how much on ``leaf_scores``."""
    if horizon:
        if state.solo:
            stop = (state.round, state.cycle + SOLO_HORIZON)
        else:
            stop = (state.round + 1, 1)
    for _ in range(ROLLOUT_CAP):
        if state.is_over() or (horizon and (state.round, state.cycle) >= stop):
            break
        state.apply(greedy.decide_state(state))
    if state.is_over():
        scores = state.scores()
        winner = state.winner()
        win = 1.0 if winner is not None and me in winner else 0.0
        best_other = max(p for s, p in enumerate(scores) if s != me)
        return win, float(scores[me] - best_other)
    scores = leaf_scores(state)
    best_other = max(p for s, p in enumerate(scores) if s != me)
    return (1.0 if scores[me] > best_other else 0.0), scores[me] - best_other


def leaf_scores(state) -> list[float]:
    """Each seat's points now plus ``LEAF_POTENTIAL`` times the greedy's potential of its
    unused Evidence (``greedy.Scorer``; solo Holmes: his points)."""
    out = []
    for s in range(state.n):
        if state.solo and s == 1:
            out.append(float(state.points(s)))
            continue
        view = state_view(state, s)
        scorer = Scorer(view)
        out.append(state.points(s) + LEAF_POTENTIAL * scorer.potential(
            scorer.shown, view.acquisitions(False)))
    return out


def values(worlds, me: int, actions: Sequence[Any], rng: random.Random, samples: int,
           greedy: GreedyBot | None = None, progress=None, horizon: bool = True
           ) -> list[list[tuple[float, float]]]:
    """Per action, the ``(win, margin)`` of each of ``samples`` rollouts: a state drawn by
    ``worlds.sample`` (seeded from ``rng``; the same states for every action), the action
    applied, greedy to the horizon (``rollout``). ``progress(k)`` is told of each sample
    done."""
    greedy = greedy or GreedyBot()
    out: list[list[tuple[float, float]]] = [[] for _ in actions]
    for _ in range(samples):
        root = worlds.sample(random.Random(rng.getrandbits(64)))
        for j, action in enumerate(actions):
            state = root.clone()
            state.apply(action)
            out[j].append(rollout(state, me, greedy, horizon))
        if progress is not None:
            progress(1)
    return out


def worth(outcomes: Sequence[tuple[float, float]]) -> float:
    """A candidate's value: its mean win plus ``MARGIN_WEIGHT`` times its mean margin."""
    n = len(outcomes)
    return (sum(w for w, _ in outcomes) + MARGIN_WEIGHT * sum(m for _, m in outcomes)) / n


class SearchBot:
    """Determinized rollouts (module docstring); ``top_k`` and ``samples`` default to
    ``TOP_K`` and ``SAMPLES``."""

    name = "search"

    def __init__(self, cards: CardSet | None = None, top_k: int | None = None,
                 samples: int | None = None):
        self.cards = cards
        self.greedy = GreedyBot(cards)
        self.top_k = TOP_K if top_k is None else top_k
        self.samples = SAMPLES if samples is None else samples

    def candidates(self, observation: dict, legal: Sequence[Any]) -> list[Any]:
        """The greedy's ``top_k`` best distinct actions, best first."""
        ranked = [a for _, a in rank(view_of(observation, self.cards), legal)]
        return distinct(ranked)[:self.top_k]

    def decide(self, observation: dict, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        if not searched(legal):
            return self.greedy.decide(observation, legal, rng)
        cands = self.candidates(observation, legal)
        if len(cands) == 1:
            return cands[0]
        from deduce.models.irregulars.log import parse_log
        from deduce.models.irregulars.position import parse_position
        from deduce.models.irregulars.worlds import Worlds

        position = parse_position(observation["position"], "observation")
        log = parse_log(observation["log"], position.cards, position.players)
        me = position.players.index(position.me)
        found = values(Worlds(position, log), me, cands, rng, self.samples, self.greedy)
        scores = [worth(v) for v in found]
        best = max(range(len(cands)), key=lambda j: (scores[j], -j))
        return cands[best]
