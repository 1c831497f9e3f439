"""What to do now in Baker Street Irregulars: every legal choice for me in the current
phase, ranked by my estimated chance to win (solo: to beat Holmes).

``advise(view, rollouts, seed)`` takes a ``View``: a position and its log (an
observation, as the engine writes it) or a bare position (no log: I have seen only my
hand of this cycle, and the advice says so; ``worlds``' docstring says how the rest is
drawn). The choices (``choices``): each pick, each arrest (one per Villain and Holmes
board, with the greedy's cover: the cards that leave the best potential), declining to
arrest, each board use, each tail, each bonus card or board, a solo resupply choice.
For each, the search bot's rollouts (``search.values``): a hidden state drawn from the
view alone (``worlds.Worlds``, never the real one), the choice applied, then every seat
playing the greedy bot to the end of the game (decision: the advice plays to the end,
unlike the search bot's round horizon, so that ``p_win`` is a chance to win the game,
not to lead at the round's end). The same sampled states serve every choice (common
random numbers), seeded from ``seed`` alone: the same view and seed give the same advice.

``p_win`` is the mean win over ``rollouts`` rollouts, ``stderr`` its standard error;
ties are broken by the mean final margin (my points less the best other's), then the
greedy's order. Rollouts per choice: at most ``MAX_ROLLOUTS``, all choices together at
most ``TOTAL_ROLLOUTS`` (every choice then gets ``TOTAL_ROLLOUTS // choices``, at least
``MIN_ROLLOUTS``), so advice on the sample takes about 2 s
(``benchmarks/irregulars_advise.py``). ``why`` says in words what the best choice does
now (``explain``).

Advice is for ``me`` at a decision of mine: a view where the engine would move on
without me (nothing to decide) or another player is to act is an ``InputError``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from deduce.core.errors import InputError

ROLLOUTS = 32
MAX_ROLLOUTS = 1000
TOTAL_ROLLOUTS = 120
MIN_ROLLOUTS = 4
NO_LOG = ("no log: only my hand of this cycle is known; the other hands are drawn from "
          "every unseen card")


@dataclass(frozen=True)
class Observed:
    """What the advice reads: the position, its log (None: a bare position) and the file
    it came from."""

    position: Any
    log: Any  # log.RoundLog, or None
    where: str


SAMPLE_OBSERVATION = "sample-observation"


def load_view(path: str) -> Observed:
    """A position file, an observation file ``{"position", "log"}``
    (``knowledge.load_observation``), ``sample`` or ``sample-solo`` (the shipped sample
    positions, no log) or ``sample-observation`` (the shipped sample observation: 3
    players, round 1, cycle 3, Ann to pick); errors name the file and the field."""
    from deduce.core.records import json_kind, read_json
    from deduce.models.irregulars.knowledge import load_observation
    from deduce.models.irregulars.position import SAMPLE, SAMPLES, load_position, parse_position

    if not Path(path).exists():
        if str(path) in SAMPLES:
            return Observed(load_position(path), None, str(path))
        if str(path) == SAMPLE_OBSERVATION:
            return Observed(*load_observation(SAMPLE))
    data = read_json(path)
    if isinstance(data, dict) and "position" in data:
        return Observed(*load_observation(path))
    if not isinstance(data, dict):
        raise InputError(f"expected a position or an observation (a JSON object), got "
                         f"{json_kind(data)}", where=str(path))
    return Observed(parse_position(data, str(path), base=Path(path).parent), None, str(path))


@dataclass(frozen=True)
class Estimate:
    """One choice's estimate: mean win, standard error, mean margin, rollouts, words."""

    action: Any
    p_win: float
    stderr: float
    margin: float
    rollouts: int
    words: str

    def to_json(self) -> dict:
        return {"action": self.action.to_json(), "words": self.words,
                "p_win": round(self.p_win, 6), "stderr": round(self.stderr, 6),
                "rollouts": self.rollouts}


@dataclass(frozen=True)
class Advice:
    """The ranked estimates (best first), why the best is best, the seed, the rollouts
    asked for and whether a log was given."""

    estimates: tuple[Estimate, ...]
    why: str
    seed: int
    rollouts: int
    logged: bool

    @property
    def best(self) -> Estimate:
        return self.estimates[0]

    def to_json(self) -> dict:
        """``{"seed", "rollouts", "seen", "best": {action, words, p_win, stderr, rollouts,
        why}, "actions": [...]}``; ``seen``: ``log`` or ``hand`` (no log)."""
        return {"seed": self.seed, "rollouts": self.rollouts,
                "seen": "log" if self.logged else "hand",
                "best": {**self.best.to_json(), "why": self.why},
                "actions": [e.to_json() for e in self.estimates]}


def per_action(rollouts: int, actions: int) -> int:
    """Rollouts each of ``actions`` choices gets when ``rollouts`` are asked for each."""
    if not 1 <= rollouts <= MAX_ROLLOUTS:
        raise InputError(f"expected from 1 to {MAX_ROLLOUTS} rollouts, not {rollouts}",
                         where="--rollouts")
    return min(rollouts, max(MIN_ROLLOUTS, TOTAL_ROLLOUTS // max(1, actions)))


def choices(state) -> list[Any]:
    """Every legal choice of the seat to act, one per arrest Villain and board (the
    greedy's cover), in the greedy's order."""
    from deduce.models.irregulars.greedy import rank, state_view
    from deduce.models.irregulars.search import distinct

    legal = state.legal_actions()
    return distinct([a for _, a in rank(state_view(state, state.current_player()), legal)])


def advise(view: Observed, rollouts: int = ROLLOUTS, seed: int = 0,
           progress=None) -> Advice:
    """Every legal choice for ``me`` now, ranked (module docstring). ``progress(total)``:
    a context manager yielding ``advance(k)``, told of each sampled state."""
    import contextlib

    from deduce.models.irregulars.greedy import GreedyBot
    from deduce.models.irregulars.search import values
    from deduce.models.irregulars.worlds import Worlds

    position = view.position
    worlds = Worlds(position, view.log, view.where)
    me = position.players.index(position.me)
    first = worlds.sample(random.Random(seed))
    if first.is_over():
        raise InputError("the game is over: nothing is left to advise", where=view.where,
                         field="phase")
    from deduce.models.irregulars.rules import PUBLIC_PHASE

    moved = (PUBLIC_PHASE[first.phase], first.round, first.cycle) != \
        (position.phase, position.round, position.cycle)
    if first.current_player() != me or moved:
        nxt = first.names[first.current_player()]
        then = f" in the {PUBLIC_PHASE[first.phase]} phase" if moved else ""
        raise InputError(f"{position.me} has nothing to decide in the {position.phase} "
                         f"phase here (the next to act is {nxt}{then}): advice is for me at "
                         "a decision of mine", where=view.where, field="phase")
    legal = choices(first)
    n = per_action(rollouts, len(legal))
    bar = progress(n) if progress else contextlib.nullcontext(None)
    with bar as advance:
        found = values(worlds, me, legal, random.Random(seed), n, GreedyBot(position.cards),
                       progress=advance, horizon=False)
    from deduce.models.irregulars.explain import action_words, explain

    estimates = [_estimate(a, v, action_words(position, a)) for a, v in zip(legal, found)]
    order = sorted(range(len(legal)), key=lambda i: (-estimates[i].p_win,
                                                     -estimates[i].margin, i))
    ranked = tuple(estimates[i] for i in order)
    why = explain(position, ranked)
    if view.log is None:
        why += f" ({NO_LOG}.)"
    return Advice(ranked, why, seed, rollouts, view.log is not None)


def _estimate(action: Any, outcomes: Sequence[tuple[float, float]], words: str) -> Estimate:
    n = len(outcomes)
    mean = sum(w for w, _ in outcomes) / n
    var = sum((w - mean) ** 2 for w, _ in outcomes) / n
    margin = sum(m for _, m in outcomes) / n
    return Estimate(action, mean, math.sqrt(var / n), margin, n, words)
