"""The reference value of a case: the rules engine evaluated by plain recursion, with no
memo and no symbolic SM or Luck (exponential in the turns left).

Tests and ``benchmarks/story_dp.py`` check the advisor's DP (``advice``) against it on the
last turns of a case; it is the ``dp.expect.Expect`` world (the same model: the Luck re-roll
of an Action's 2d6 and every decision optimised) whose end of a phase recurses into the
next phase instead of reading the DP's memo.
"""

from __future__ import annotations

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.expect import Expect
from deduce.models.detective_story.state import Case, Context


class Naive(Expect):
    """P(win) by plain recursion: ``value(case)``, ``q(case, action)``."""

    def __init__(self, ctx: Context):
        super().__init__(None)
        self.ctx = ctx

    def finish(self, phase, case: Case):
        """The value where the phase ends, by recursing into the next phase."""
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
        """P(win) at the start of the case's turn: the best legal Action."""
        if case.over:
            return 1.0 if case.won else 0.0
        return max(self.q(case, a) for a in E.legal_actions(self.ctx, case))
