"""What to do now in Deductions: every legal action for me, ranked by my chance to win.

``advise(position, rollouts, seed)`` lists every legal action at the step I stand at (each
take and Mind Palace line, each affordable solve with its cheapest payment, Draw, each
free action, each discard or claim choice; a take once per cell, whatever placement or prop
it uses: ``bots.distinct``) and estimates for each my chance to win by the
search bot's rollouts (``bots.Search.values``): a hidden state (the deck order, the piles
below their tops) drawn from the position alone with ``rules.from_position`` (never the
real one), the action applied, then every seat playing the greedy bot for
``ADVICE_DEPTH`` turns, the leaf scored by ``Search.leaf_value`` (a finished game: 1 for a
win, shared wins split; else ``bots.leaf_chance`` of the points and potentials). The same
sampled states serve every action (common random numbers), seeded from ``seed`` alone, so
the same position and seed give the same advice.

``p_win`` is the mean over ``rollouts`` rollouts, ``stderr`` its standard error (the
leaves' standard deviation over the square root of their count). ``rollouts`` per action
is at most ``MAX_ROLLOUTS``, and all actions together get at most ``TOTAL_ROLLOUTS`` (so
advice on a mid-game position takes about 2 s at most: ``benchmarks/deductions_selfplay.py``
measures it); when the cap cuts them, every action gets ``TOTAL_ROLLOUTS // actions``
(at least ``MIN_ROLLOUTS``). Ties keep the greedy's order. ``Advice.why`` says in words
why the best action is best: the points it brings now, a milestone, the final round, a
discount, a case it makes cheaper (``payment.short_by`` before and after).

Advice is for ``me`` on my turn: a position where another player is to play, or the game is
over, is an ``InputError`` naming the field.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from deduce.core.errors import InputError
from deduce.models.deductions.bots import (
    Scorer,
    Search,
    View,
    distinct,
    line_cards,
    rank_actions,
    view_of,
)
from deduce.models.deductions.cards import MILESTONE_BONUS, SolvedCard
from deduce.models.deductions import MAX_ROLLOUTS, MIN_ROLLOUTS, ROLLOUTS, TOTAL_ROLLOUTS
from deduce.models.deductions.milestones import max_bonus
from deduce.models.deductions.position import WIN_POINTS, Position, cell_name, line_name

#: greedy turns each rollout plays past the action before its leaf is scored
ADVICE_DEPTH = 6
MILESTONE_NAMES = {"diversity": "Diversity", "completion": "Case Completion"}


@dataclass(frozen=True)
class Estimate:
    """One legal action's estimate: its mean leaf value, standard error and rollouts, and
    its name for a person (``action_words``)."""

    action: Any
    p_win: float
    stderr: float
    rollouts: int
    words: str = ""

    def to_json(self) -> dict:
        return {"action": self.action.to_json(), "p_win": round(self.p_win, 6),
                "stderr": round(self.stderr, 6), "rollouts": self.rollouts}


@dataclass(frozen=True)
class Advice:
    """The ranked estimates (best first) and why the best one is best."""

    estimates: tuple[Estimate, ...]
    why: str

    @property
    def best(self) -> Estimate:
        return self.estimates[0]

    def to_json(self) -> dict:
        """``{"best": {action, p_win, stderr, rollouts, why}, "actions": [...]}``."""
        return {"best": {**self.best.to_json(), "why": self.why},
                "actions": [e.to_json() for e in self.estimates]}


def per_action(rollouts: int, actions: int) -> int:
    """Rollouts each of ``actions`` actions gets when ``rollouts`` are asked for each:
    at most ``TOTAL_ROLLOUTS`` in all, at least ``MIN_ROLLOUTS`` each."""
    if not 1 <= rollouts <= MAX_ROLLOUTS:
        raise InputError(f"expected from 1 to {MAX_ROLLOUTS} rollouts, not {rollouts}",
                         where="--rollouts")
    return min(rollouts, max(MIN_ROLLOUTS, TOTAL_ROLLOUTS // max(1, actions)))


def advise(position: Position, rollouts: int = ROLLOUTS, seed: int = 0,
           where: str = "position") -> Advice:
    """Every legal action for ``position.me`` now, ranked by the estimated chance to win
    (see the module docstring); ``InputError`` at ``where`` when it is not my turn."""
    from deduce.models.deductions.rules import from_position

    if position.to_play != position.me:
        raise InputError(f"it is {position.to_play}'s turn, not {position.me}'s: advice is "
                         "for me on my turn", where=where, field="to_play")
    state = from_position(position, random.Random(seed))
    if state.is_over():
        raise InputError("the game is over: nothing is left to advise", where=where,
                         field="turn")
    observation = state.observation(state.current_player())
    view = view_of(observation, position.cards)
    legal = [a for _, a in rank_actions(view, distinct(state.legal_actions()))]
    n = per_action(rollouts, len(legal))
    search = Search(position.cards)
    values = search.values(position, legal, random.Random(seed), n, ADVICE_DEPTH)
    estimates = [_estimate(a, v, action_words(view, a)) for a, v in zip(legal, values)]
    order = sorted(range(len(legal)), key=lambda i: (-estimates[i].p_win, i))
    ranked = tuple(estimates[i] for i in order)
    return Advice(ranked, explain(view, ranked))


def _estimate(action: Any, leaves: list[float], words: str) -> Estimate:
    n = len(leaves)
    mean = sum(leaves) / n
    var = sum((x - mean) ** 2 for x in leaves) / n
    return Estimate(action, mean, math.sqrt(var / n), n, words)


# ----------------------------------------------------------------------------- words
def explain(view: View, ranked: tuple[Estimate, ...]) -> str:
    """Why the best of ``ranked`` is best, in words: what it does for me now (points, a
    milestone, the final round, a discount, a cheaper case) and its margin over the next."""
    best = ranked[0]
    text = (f"{describe(view, best.action)}. Estimated chance to win {100 * best.p_win:.0f}% "
            f"± {100 * best.stderr:.0f} over {best.rollouts} rollouts")
    if len(ranked) > 1:
        nxt = ranked[1]
        text += f"; next best, {action_words(view, nxt.action)}: {100 * nxt.p_win:.0f}%"
    return text + "."


def action_words(view: View, action: Any) -> str:
    """A short name of ``action`` for a person."""
    kind = type(action).__name__
    by_id = {c.id: c for c in view.targets}
    by_id.update({s.id: s.card for s in view.solved})
    if kind == "Draw":
        return "obtain clues"
    if kind == "Take":
        r, c = action.cell
        return f"take the {view.grid[r][c]} at {cell_name(action.cell)}"
    if kind == "MindPalace":
        return f"Mind Palace on {line_name(action.line)}"
    if kind == "Solve":
        return f"solve {_case(by_id, action.case)}"
    if kind == "Reserve":
        return f"reserve {_case(by_id, action.case)} with Mycroft"
    if kind == "Rotate":
        return f"turn {_case(by_id, action.case)} to {action.suit} with Irene"
    if kind == "Discard":
        return f"discard {action.card}"
    if kind == "Claim":
        return f"claim {MILESTONE_NAMES.get(action.milestone, action.milestone)}"
    return repr(action)


def _case(by_id: dict, case: str) -> str:
    card = by_id.get(case)
    return f"{card.name} ({case})" if card is not None else case


def describe(view: View, action: Any) -> str:
    """``action_words`` and what the action does for me now."""
    kind = type(action).__name__
    words = action_words(view, action)
    words = words[0].upper() + words[1:]
    scorer = Scorer(view)
    if kind == "Solve":
        return f"{words}: {_solve_gains(view, scorer, action)}"
    if kind in ("Take", "MindPalace", "Discard"):
        return f"{words}: {_pool_change(view, scorer, action)}"
    if kind == "Draw":
        if scorer.best_solve(view.pool) is None:
            return f"{words}: no case is affordable yet"
        return f"{words}: the clues are worth more than solving now"
    if kind == "Claim":
        return f"{words}: +{MILESTONE_BONUS} points now with these five cards"
    if kind == "Rotate":
        discounts = [action.suit if s.id == action.case else s.discount for s in view.solved]
        return f"{words}: {_change(view, scorer, Scorer(view, discounts), view.pool, 'then')}"
    if kind == "Reserve":
        return f"{words}: only you may solve it; {_short_words(scorer, action.case, view.pool)}"
    return words


def _solve_gains(view: View, scorer: Scorer, action: Any) -> str:
    """Points now, milestones within reach, the final round, the discount's use."""
    card = next(c for c in view.targets if c.id == action.case)
    before = view.points[view.me]
    base = max_bonus(list(view.solved), view.claimed)
    bonus = max_bonus([*view.solved, SolvedCard(card, card.discount)], view.claimed) - base
    after = before + card.points + bonus
    parts = [f"+{card.points} points now ({before} to {before + card.points})"]
    if bonus:
        parts.append(f"it brings a milestone within reach: +{bonus} at the end of the turn")
    if after >= WIN_POINTS > before:
        parts.append(f"{after} points: the final round starts")
    cheaper = [c for c in view.targets if c.id != card.id
               and scorer.due[c.id].get(card.discount, 0) > 0]
    if cheaper:
        parts.append(f"its discount ({card.discount}) lowers {len(cheaper)} other visible "
                     f"case{'s' * (len(cheaper) != 1)} by 1")
    return "; ".join(parts)


def _pool_change(view: View, scorer: Scorer, action: Any) -> str:
    """How the cheapest case I may solve changes with the action's card(s)."""
    kind = type(action).__name__
    if kind == "Take":
        r, c = action.cell
        return _change(view, scorer, scorer, [*view.pool, view.grid[r][c]], "with it")
    if kind == "Discard":
        pool = list(view.pool)
        pool.remove(action.card)
        return _loss(view, scorer, pool)
    cards = line_cards(view.grid, action.line)
    return f"one of {', '.join(cards)} at random, the other three discarded"


def _change(view: View, before: Scorer, after: Scorer, pool, when: str) -> str:
    """The case the change helps most (``before`` with my pool now, ``after`` with
    ``pool``): the most clues saved, then the fewest left short, then the most worth."""
    if not view.targets:
        return "no case is left to solve"

    def gain(card):
        now, then = before.short(card.id, view.pool), after.short(card.id, pool)
        return now - then, -then, after.value[card.id]

    card = max(view.targets, key=gain)
    now, then = before.short(card.id, view.pool), after.short(card.id, pool)
    name = _name(card)
    if now <= then:
        return "no case I may solve gets cheaper"
    if then == 0:
        return f"{name} becomes affordable {when} ({_clues(now)} short now)"
    return f"{name} is {_clues(then)} short {when} ({now} now)"


def _loss(view: View, scorer: Scorer, pool) -> str:
    """What a discard costs: the case it sets back most, if any."""
    def loss(card):
        return scorer.short(card.id, pool) - scorer.short(card.id, view.pool), scorer.value[card.id]

    card = max(view.targets, key=loss, default=None)
    if card is None or loss(card)[0] <= 0:
        return "every case I may solve stays as close"
    now, then = scorer.short(card.id, view.pool), scorer.short(card.id, pool)
    return f"it sets {_name(card)} back most: {_clues(then)} short without it ({now} now)"


def _name(card) -> str:
    return f"{card.name} ({card.id}, {card.points} point{'s' * (card.points != 1)})"


def _clues(n: int) -> str:
    return f"{n} clue{'s' * (n != 1)}"


def _short_words(scorer: Scorer, case: str, pool) -> str:
    return f"{_clues(scorer.short(case, pool))} short"
