"""The solver of one case context: it owns every piece of the DP and answers for a
concrete case (the value of its turn's start, of each legal Action, after its Action).

A ``Solver`` owns its caches (the memo, the compiled phases, the mode keys, the moves, the
Action tables' odds), so two solvers share nothing. It is handed a ``sweep`` (a
``sweep.Sweep``, the reachable cells only; a ``dense.DenseSweep``, every cell; or None:
the recursion alone): from a new case ``prepare`` runs it to fill the memo a turn at a
time. A sweep with ``partial`` set keeps the cells it reached only (``memo.Rows``): the
solver then reads the memo a cell at a time (``Recursion.start_value`` and the like,
through ``memo.cell``; ``_known`` too) and a cell
it does not know is valued by the plain recursion (``Recursion.fallback``); else the
recursion computes whatever the sweep did not cover.
"""

from __future__ import annotations

from deduce.models.detective_story import engine as E
from deduce.models.detective_story.dp.compile import Compiler
from deduce.models.detective_story.dp.expect import Expect
from deduce.models.detective_story.dp.grid import MoveTable, L, S
from deduce.models.detective_story.dp.memo import Memo
from deduce.models.detective_story.dp.modes import NO_FLAGS, ModeKeys, flags_of, with_flags
from deduce.models.detective_story.dp.phases import Phases
from deduce.models.detective_story.dp.recursion import Recursion, terminal
from deduce.models.detective_story.dp.rolls import RollOdds
from deduce.models.detective_story.dp.trace import Tracer
from deduce.models.detective_story.state import Case, Context


class Solver:
    """The DP over one case (its ``Context``); values are memoised across calls.

    ``sweep``: what evaluates a whole turn at a time from a new case (``sweep.Sweep``;
    None: the recursion alone, one (turn, mode) at a time). ``progress``: None, or called
    with a short message as a sweep goes (e.g. a spinner). ``world``: the ``Expect`` world
    reading this solver's values (the optimal bot's decisions, re-roll advice).
    """

    terminal = staticmethod(terminal)

    def __init__(self, ctx: Context, sweep=None):
        self.ctx = ctx
        self.sweep = sweep
        self.progress = None
        self.memo = Memo()
        self.modes = ModeKeys()
        self.tracer = Tracer()
        self.compiler = Compiler(self.modes, MoveTable())
        self.phases = Phases(ctx, self.tracer, self.compiler)
        self.recursion = Recursion(ctx, self.memo, self.phases, self.compiler, RollOdds(),
                                   partial=getattr(sweep, "partial", False))
        self.world = Expect(self.recursion, self.modes)
        self._partial: list = []  # roots swept keeping two turns only (``prepare``)

    @property
    def batched(self) -> bool:
        """Whether a sweep evaluates a turn at a time from a new case."""
        return self.sweep is not None

    def prepare(self, case: Case, encounter: bool = False, whole: bool = True,
                waited: bool = False, each_turn=None) -> None:
        """Make sure the memo has ``case`` (at the start of its turn, or after its Action
        if ``encounter``, after Wait if ``waited``): else evaluate everything reachable
        from it a turn at a time (the sweep; without one, nothing: the recursion computes
        on demand). ``whole``: keep every later turn's values too (a bot playing the case
        on reads them); else only this turn's and the next (enough for ``advise`` and
        ``reroll_advice``); a later ``whole`` request sweeps such a root again.
        ``each_turn(t)``, if given, is called as each turn's values are in the memo (turn
        12 first) when a sweep runs: every turn is then swept, and those not kept dropped
        from the memo once it returns (a caller keeps the whole case on disk that way,
        never holding it in memory)."""
        if case.over or self.sweep is None:
            return
        key = self.modes.key(case)
        cell = min(case.sm, S - 1) * L + min(case.luck, L - 1)
        if encounter:
            roots = ([], [key], case.turn, (cell,))
        else:
            roots = ([(key, flags_of(case))], [], case.turn, (cell,))
        hit = self._known(case, key, encounter, waited)
        if whole and self._partial and (roots in self._partial or not hit):
            for partial in self._partial:  # everything reachable from them, kept
                self._sweep(*partial)
            self._partial.clear()
            return self.prepare(case, encounter, whole, waited)
        if not hit:
            kept = None if whole else range(case.turn, case.turn + 2)
            if each_turn is None:
                self._sweep(*roots, keep=kept)
            else:
                def on_turn(t: int) -> None:
                    each_turn(t)
                    if kept is not None and t not in kept:
                        self.memo.drop_turn(t)

                self._sweep(*roots, on_turn=on_turn)
            if not whole:
                self._partial.append(roots)

    def knows(self, case: Case, encounter: bool = False, waited: bool = False) -> bool:
        """Whether the memo already holds the value at ``case`` (at the start of its turn,
        or after its Action if ``encounter``, after Wait if ``waited``), so ``prepare``
        has nothing to solve for it (an over case: always)."""
        return case.over or self._known(case, self.modes.key(case), encounter, waited)

    def _known(self, case: Case, key: Case, encounter: bool, waited: bool) -> bool:
        r = self.recursion
        if not r.partial:
            if encounter:
                return (case.turn, key) in self.memo.encounter_all
            return (case.turn, r.start_mode(with_flags(key, flags_of(case)))) in self.memo.start
        if encounter:
            f = flags_of(case)
            if waited or f not in r.flag_labels(case.turn, key):  # the sweep's root row:
                f = NO_FLAGS  # other flags here are valued by the recursion (``fallback``)
            v = r.encounter_value(case.turn, key, waited, f, case.sm, case.luck,
                                  fallback=False)
        else:
            v = r.start_value(case.turn, key, flags_of(case), case.sm, case.luck, fallback=False)
        return v == v

    def _sweep(self, roots_v, roots_w, t0: int, cells, keep=None, on_turn=None) -> None:
        self.sweep.run(self.recursion, roots_v, roots_w, t0, keep, report=self.progress,
                       cells=cells, on_turn=on_turn)

    def value(self, case: Case, whole: bool = True) -> float:
        """P(win) at the start of ``case``'s turn (``whole``: see ``prepare``)."""
        if case.over:
            return terminal(case)
        self.prepare(case, whole=whole)
        return self.recursion.start_value(case.turn, self.modes.key(case), flags_of(case),
                                          case.sm, case.luck)

    def q_values(self, case: Case, whole: bool = True) -> dict[str, float]:
        """P(win) of each legal Action at the start of a turn (legal order)."""
        self.prepare(case, whole=whole)
        key = self.modes.key(case)
        mode = with_flags(key, flags_of(case))
        return {a: self.recursion.action_value(case.turn, key, a, mode, case.sm, case.luck)
                for a in E.legal_actions(self.ctx, case)}

    def after_action(self, case: Case, waited: bool, whole: bool = True) -> float:
        """P(win) once ``case``'s Action is done (after Wait if ``waited``), before the
        Encounter phase."""
        if case.over:
            return terminal(case)
        self.prepare(case, encounter=True, whole=whole, waited=waited)
        return float(self.world.finish(E.AFTER_ACTION[waited], case))

    def at(self, case: Case, phase: str = "action", waited: bool = False) -> float:
        """P(win) from a record's position (``phase`` "action" or "encounter")."""
        return self.value(case) if phase == "action" else self.after_action(case, waited)

    @property
    def states(self) -> int:
        """Memoised values (each over every SM and Luck; an Encounter entry over every flag
        label): ``memo.Memo.entries``."""
        return self.memo.entries
