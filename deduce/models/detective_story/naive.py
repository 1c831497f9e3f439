"""The reference value of a case: the rules engine evaluated by plain recursion, with no
memo and no symbolic SM or Luck (exponential in the turns left).

Tests and ``benchmarks/story_dp.py`` check the advisor's DP (``advice``) against it on the
last turns of a case; it follows the same model (``engine``), including the Luck re-roll
of an Action's 2d6 and every decision.
"""

from __future__ import annotations

from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.state import Case, Context


class Naive:
    """The world of ``engine`` by plain recursion; ``value(case)`` is P(win)."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def note(self, text: str) -> None:
        pass

    def chance(self, case, dist, k):
        return sum(p * k(self, case, x) for p, x in dist)

    def choose(self, case, kind, options, k):
        return max(k(self, case, o) for o in options)

    def luck_roll(self, case, tag, mod, with_sm, table, k):
        mod += case.sm if with_sm else 0
        rows = _rows(table, mod)
        keep = [(p, k(self, case, o)) for o, p in rows]
        if case.luck <= 0:
            return sum(p * v for p, v in keep)
        spent = case._replace(luck=case.luck - 1)
        again = sum(p * k(self, spent, o) for o, p in rows)
        return sum(p * max(v, again) for p, v in keep)

    def plain_roll(self, case, mod, table, k):
        return sum(p * k(self, case, o) for o, p in _rows(table, mod))

    def sm_at_least(self, case, value, k_yes, k_no):
        return k_yes(self, case) if case.sm >= value else k_no(self, case)

    def roll_at_most_sm(self, case, offset, k):
        p = E.p_2d6_at_most(case.sm + offset)
        return p * k(self, case, True) + (1 - p) * k(self, case, False)

    def combat(self, case, setup, k):
        return C.solve(setup, {t: k(self, case, t) for t in C.terminals(setup)})[0]

    def tail(self, key, case, k, f):
        return f(self, case, k)

    def finish(self, phase, case: Case):
        if case.over:
            return 1.0 if case.won else 0.0
        if phase.key[0] == "turn":
            if case.turn >= T.TURNS:
                return 0.0
            return self.value(case._replace(turn=case.turn + 1))
        return E.encounter(self, self.ctx, case, phase.key[1], E.AFTER_TURN)

    def q(self, case: Case, action: str) -> float:
        """P(win) of ``action`` at the start of the case's turn."""
        return E.take_action(self, self.ctx, case, action, E.AFTER_ACTION[action == T.WAIT])

    def value(self, case: Case) -> float:
        if case.over:
            return 1.0 if case.won else 0.0
        return max(self.q(case, a) for a in E.legal_actions(self.ctx, case))


def _rows(table, mod: int):
    acc: dict[str, float] = {}
    for s, p in E.TWO_D6:
        o = T.row_for(table, s + mod).outcome
        acc[o] = acc.get(o, 0.0) + p
    return tuple(acc.items())
