"""Exact advice: P(the case is won by the end of turn 12) for every legal Action, and
whether to spend Luck on a re-roll.

The value is exact for the engine's model (its decisions are documented in ``engine``):
chance nodes are summed with their exact probabilities and every decision is optimised:
the Action, a Luck re-roll of the Action's 2d6, where option 3 starts, and in a fight who
strikes each round and whether to try to escape (``combat.solve``).

What a person asks is here: ``advise`` (the best Action and every legal Action's value),
``reroll_advice`` (keep a roll or spend 1 Luck), ``solver_for`` (the solver shared in one
process) and ``Solver``. The dynamic programming behind them is the ``dp`` package: the
(SM, Luck) grid and symbolic values (``dp.grid``: ``Lin``), tracing a phase
(``dp.trace``: ``Tracer``), compiling it (``dp.compile``), the memo (``dp.memo``), the
recursion (``dp.recursion``), the sweep a turn at a time (``dp.sweep``), concrete walks
(``dp.expect``: ``Expect``) and the solver that owns them (``dp.solver``). ``naive.Naive``
is the reference the tests compare with.

Figures (README): a third of a second from turn 8 with the Villain known; 7 s (a001) and
25 s (a002) from a fresh case of the shipped campaign.
"""

from __future__ import annotations

from dataclasses import dataclass

from deduce.core.errors import InputError
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp import solver as dp_solver
from deduce.models.detective_story.dp.expect import Expect
from deduce.models.detective_story.dp.grid import LUCK_CAP, SM_CAP, Lin
from deduce.models.detective_story.dp.rolls import row_probabilities
from deduce.models.detective_story.dp.trace import Tracer
from deduce.models.detective_story.state import Case, Context

__all__ = ["Advice", "Expect", "LUCK_CAP", "Lin", "Reroll", "SM_CAP", "SOLVERS", "Solver",
           "SolverPool", "Tracer", "advise", "context_key", "reroll_advice",
           "row_probabilities", "solver_for"]


class LazySweep:
    """A ``dp.sweep.Sweep`` imported when it first runs: a command that reads a solved case
    from the cache never sweeps, and never imports the sweep's modules."""

    #: as ``dp.sweep.Sweep.partial`` (a test checks they agree)
    partial = True

    def __init__(self):
        self._sweep = None

    def run(self, *args, **kwargs) -> None:
        """``dp.sweep.Sweep.run``."""
        if self._sweep is None:
            from deduce.models.detective_story.dp.sweep import Sweep

            self._sweep = Sweep()
        return self._sweep.run(*args, **kwargs)


class Solver(dp_solver.Solver):
    """The DP over one case (its ``Context``), values memoised across calls
    (``dp.solver.Solver``); ``batched``: evaluate a whole turn at a time from a new case
    (a ``dp.sweep.Sweep`` of its own, ``LazySweep``), else one (turn, mode) at a time by
    recursion."""

    def __init__(self, ctx: Context, batched: bool = True):
        super().__init__(ctx, sweep=LazySweep() if batched else None)


def context_key(ctx: Context) -> tuple:
    """What makes two contexts the same case for the DP (same data, sheets and rules): the
    campaign's content hash (``Data.digest``), the Adventure, the sheets, the rules' flags."""
    return (ctx.data.digest, ctx.adventure.id, ctx.holmes, ctx.watson,
            tuple(sorted(ctx.sheets.items())), ctx.first_case, ctx.ruled_out, ctx.barred,
            ctx.inspector_replaced)


class SolverPool:
    """The last ``size`` solvers by context (``context_key``), the most recently used
    last: a DP is reused by ``advise`` and ``selfplay`` in one process, and forked
    self-play workers inherit the one solved before they start."""

    def __init__(self, size: int = 4):
        self.size = size
        self.solvers: dict = {}

    def get(self, ctx: Context) -> Solver:
        """The solver of ``ctx``'s case, made on first use (the oldest dropped past
        ``size``)."""
        solver = self.solvers.get(context_key(ctx)) or Solver(ctx)
        self.put(ctx, solver)
        return solver

    def put(self, ctx: Context, solver: Solver) -> None:
        """Share ``solver`` for ``ctx``'s case from now on (``get`` returns it)."""
        self.solvers.pop(context_key(ctx), None)
        self.solvers[context_key(ctx)] = solver
        while len(self.solvers) > self.size:
            self.solvers.pop(next(iter(self.solvers)))

    def values(self) -> list[Solver]:
        """The solvers kept, oldest first."""
        return list(self.solvers.values())

    def clear(self) -> None:
        """Forget every solver."""
        self.solvers.clear()


#: the solvers ``solver_for`` shares in this process
SOLVERS = SolverPool()


def solver_for(ctx: Context) -> Solver:
    """A shared ``Solver`` for this context (``SOLVERS``: the last few are kept)."""
    return SOLVERS.get(ctx)


# ----------------------------------------------------------------------------- answers
@dataclass
class Advice:
    """The advice at a record's position: the best Action (None after the Action or once
    the case is over), every legal Action with its P(win), best first, P(win) with the
    best play, and the memo entries the solver holds."""

    best: str | None
    actions: list[tuple[str, float]]  # legal Actions, best first
    p_win: float
    states: int

    def to_json(self) -> dict:
        """``{"best", "actions": [{"action", "p_arrest"}, ...]}``."""
        return {"best": self.best,
                "actions": [{"action": a, "p_arrest": p} for a, p in self.actions]}


def advise(ctx: Context, case: Case, phase: str = "action", waited: bool = False,
           solver: Solver | None = None) -> Advice:
    """The best Action and P(win) of every legal Action (at phase "encounter": no Action,
    P(win) after it); ``solver``: default a new one. SM above ``SM_CAP`` or Luck above
    ``LUCK_CAP`` is refused (``InputError`` naming the field)."""
    if type(case.sm) is not int or case.sm > SM_CAP or case.luck > LUCK_CAP:
        raise InputError(f"the advisor handles SM up to {SM_CAP} and Luck up to {LUCK_CAP}",
                         field="sm" if case.sm > SM_CAP else "luck")
    solver = solver or Solver(ctx)
    if case.over:
        return Advice(None, [], Solver.terminal(case), 0)
    if phase == "encounter":
        return Advice(None, [], solver.after_action(case, waited, whole=False), solver.states)
    q = solver.q_values(case, whole=False)
    order = {a: i for i, a in enumerate(E.ALL_ACTIONS)}
    ranked = sorted(q.items(), key=lambda kv: (-round(kv[1], 12), order[kv[0]]))
    return Advice(ranked[0][0], ranked, solver.value(case, whole=False), solver.states)


@dataclass
class Reroll:
    """Given a natural 2d6 ``roll`` just made: P(win) keeping it, and spending 1 Luck."""

    what: str
    roll: int
    total: int
    outcome: str
    p_keep: float
    p_reroll: float | None  # None: no Luck left

    @property
    def spend(self) -> bool:
        """Whether re-rolling is worth more than keeping the roll."""
        return self.p_reroll is not None and self.p_reroll > self.p_keep + 1e-12

    def to_json(self) -> dict:
        """``{"roll", "dice", "total", "outcome", "p_keep", "p_reroll", "spend_luck"}``."""
        return {"roll": self.what, "dice": self.roll, "total": self.total,
                "outcome": self.outcome, "p_keep": self.p_keep, "p_reroll": self.p_reroll,
                "spend_luck": self.spend}


def reroll_advice(ctx: Context, case: Case, action: str, roll: int,
                  solver: Solver | None = None) -> Reroll:
    """Given the natural 2d6 ``roll`` (2-12) just made for ``action`` at the start of the
    record's turn: P(win) keeping it, and spending 1 Luck to roll again (R003). A roll
    outside 2-12, an illegal Action or one without a 2d6 table is an ``InputError``."""
    if not 2 <= roll <= 12:
        raise InputError(f"a 2d6 roll is 2-12, got {roll}", field="roll")
    E.check_action(ctx, case, action)
    if action not in T.ACTION_TABLES:
        raise InputError(f"{action} has no 2d6 table roll to re-roll", field="roll")
    solver = solver or Solver(ctx)
    solver.prepare(case, whole=False)
    w = solver.world
    start, mod, with_sm, table, k_row = E.action_roll(ctx, case, action, E.AFTER_ACTION[False])
    mod += case.sm if with_sm else 0
    outcome = T.row_for(table, roll + mod).outcome
    keep = float(k_row(w, start, outcome))
    again = float(w.reroll_value(start, mod, table, k_row)) if start.luck > 0 else None
    return Reroll(action, roll, roll + mod, outcome, keep, again)
