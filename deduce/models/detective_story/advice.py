"""Exact advice: P(the case is won by the end of turn 12) for every legal Action, by dynamic
programming over the case state, and whether to spend Luck on a re-roll.

The DP runs the rules engine (``engine``) in the ``Expect`` world: a chance node is the sum
of its outcomes weighted by their exact probabilities, a decision is the max over its
options, the end of a phase is a memoised value. The state is the whole ``state.Case``:
turn, SM, Villain, Motive and meetings (the stage), the +1 bonus, Luck, trap and
Investigate flags, closed Seek channels, the health of Holmes, Watson and each Ally, who
has gone, paragraphs already read. Decisions optimised: the Action, a Luck re-roll of the
Action's 2d6, where option 3 starts, and in a fight which of Holmes and Watson strikes each
round and whether to try to escape (``combat.solve``). The value is exact for that model
(the engine's decisions are documented in ``engine``).

SM and Luck are solved for all values at once: the DP runs a case whose SM and Luck are
symbolic (``Lin``: "max(c, x + a)" of the SM/Luck ``x`` the phase started with) and every
value is a numpy array over (SM 0..``SM_CAP``, Luck 0..``LUCK_CAP``) (values above a cap
count as the cap). A memo entry is a *mode*: the case without SM and Luck (and without what
can no longer matter: the dead, the Clue flag once the Villain is known, meetings and closed
channels once the Motive is known). Memoised: the start of a turn (``Solver.v``; an Action's value
is shared by the flag variants of a mode), each Action's row outcomes (``Solver.R``: bonus
variants share them), the Encounter Matrix phase (``Solver.w``) and events read at the end
of a phase (``Expect.tail``). An event without decisions is compiled once per *core* (the
mode without turn and flags, which events never read) into merged weighted outcomes
(``compile_tail``), reused across turns and flags.

Cost: the number of modes reachable from the asked state. Late in a case or once the
Villain is known it is well under a second; from a fresh case of the shipped campaign
(every Villain, Motive, bonus and party state of 12 turns) it takes about a minute.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache, reduce
from typing import NamedTuple

import numpy as np

from deduce.core.errors import InputError
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.state import Case, Context

#: SM and Luck above these count as the cap: every SM threshold of the rulebook saturates
#: well below 24 (13+ rows need SM 12; Motive values are small), and 16 Luck buys more
#: re-rolls than the 12 Action rolls of a case can use after the usual losses
SM_CAP = 24
LUCK_CAP = 16
S, L = SM_CAP + 1, LUCK_CAP + 1


class Lin(NamedTuple):
    """A symbolic SM or Luck: ``max(c, x + a)`` of the value ``x`` the phase started with."""

    a: int
    c: int

    def plus(self, n: int) -> "Lin":
        return Lin(self.a + n, max(0, self.c + n))


IDENT = Lin(0, 0)


@lru_cache(maxsize=None)
def actual(v: Lin, size: int) -> np.ndarray:
    """The actual values of ``v`` for every start value 0..size-1 (clipped to the cap)."""
    out = np.minimum(np.maximum(v.c, np.arange(size) + v.a), size - 1)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=None)
def _flat(sm: Lin, luck: Lin) -> np.ndarray:
    """Flat indices into an (S, L) array for every start (SM, Luck)."""
    out = (actual(sm, S)[:, None] * L + actual(luck, L)[None, :])
    out.flags.writeable = False
    return out


def gather(arr, sm, luck):
    """The value of ``arr`` (over actual SM, Luck: the last two axes) at ``sm``/``luck``
    (ints or ``Lin``); leading axes (flag labels) are kept."""
    if not isinstance(arr, np.ndarray):
        return arr
    if type(sm) is int:
        out = arr[..., min(sm, S - 1), min(luck, L - 1)]
        return float(out) if arr.ndim == 2 else out
    if sm == IDENT and luck == IDENT:
        return arr
    if arr.ndim == 2:
        return arr.ravel().take(_flat(sm, luck))
    return arr.reshape(arr.shape[:-2] + (S * L,)).take(_flat(sm, luck), axis=-1)


def full(x, lead: tuple = ()) -> np.ndarray | float:
    """Store a value as a full ``lead + (S, L)`` array (or a plain float when constant and
    without leading axes)."""
    if not isinstance(x, np.ndarray):
        if not lead:
            return float(x)
        return np.full(lead + (S, L), float(x))
    shape = lead + (S, L)
    if x.shape == shape:
        return x
    return np.ascontiguousarray(np.broadcast_to(x, shape))


_ROWS: dict = {}


def row_probabilities(table, mod: int) -> tuple[tuple[str, float], ...]:
    """``((outcome, p), ...)`` of ``table`` for 2d6 + ``mod`` (rows in table order)."""
    key = (table, mod)
    if key not in _ROWS:
        acc: dict[str, float] = {}
        for s, p in E.TWO_D6:
            o = T.row_for(table, s + mod).outcome
            acc[o] = acc.get(o, 0.0) + p
        _ROWS[key] = tuple((r.outcome, acc[r.outcome]) for r in table if r.outcome in acc)
    return _ROWS[key]


@lru_cache(maxsize=None)
def row_matrix(table, mod: int) -> tuple[tuple[str, ...], np.ndarray]:
    """Outcomes of ``table`` and their probabilities for 2d6 + ``mod`` + SM, SM = 0..S-1."""
    outcomes = tuple(dict.fromkeys(r.outcome for r in table))
    m = np.zeros((S, len(outcomes)))
    for sm in range(S):
        for o, p in row_probabilities(table, mod + sm):
            m[sm, outcomes.index(o)] += p
    m.flags.writeable = False
    return outcomes, m


@lru_cache(maxsize=None)
def p_at_most_by_sm(offset: int) -> np.ndarray:
    """P(2d6 <= SM + offset) for SM = 0..S-1, as a column (S, 1)."""
    v = np.array([E.p_2d6_at_most(sm + offset) for sm in range(S)])[:, None]
    v.flags.writeable = False
    return v


_MODES: dict = {}


def mode_of(case: Case) -> Case:
    """The memo key of a case: without SM, Luck and what can no longer change anything."""
    c = _MODES.get(case)
    if c is None:
        if len(_MODES) > 500_000:
            _MODES.clear()
        c = _MODES[case] = _mode_of(case)
    return c


def _mode_of(case: Case) -> Case:
    c = case._replace(sm=0, luck=0, dead=frozenset())
    if c.villain is not None and not c.clue:
        c = c._replace(clue=True)
    if c.motive >= 0 and (c.meetings != 2 or c.blocked):
        c = c._replace(meetings=2, blocked=frozenset())
    return c


def root(mode: Case) -> Case:
    return mode._replace(sm=IDENT, luck=IDENT)


def _shift_luck(x):
    """The value one Luck lower along the last axis (Luck 0 stays 0: masked by the caller)."""
    if not isinstance(x, np.ndarray):
        return x
    x = np.broadcast_to(x, x.shape[:-1] + (L,))
    return np.concatenate([x[..., :1], x[..., :-1]], axis=-1)


class NonLinear(Exception):
    """A tail holds a decision or an SM-dependent branch: it is walked, not compiled."""


class _Mark:
    """The probe continuation of ``Compile``: records where the tail ends."""

    key = ("mark",)

    def __call__(self, w, case):
        return w.finish(self, case)


#: fields a paragraph or line event never reads (engine): a compiled tail ignores them
_FREE = ("turn", "bonus_action", "bonus", "trapped", "unlock", "blocked", "clue")
_FIELDS = Case._fields
_SM_I, _LUCK_I = _FIELDS.index("sm"), _FIELDS.index("luck")


def _core(mode: Case) -> Case:
    return mode._replace(turn=1, bonus_action=None, bonus=0, trapped=False, unlock=False,
                         blocked=frozenset(), clue=False)


class Compile:
    """A world that turns a tail without decisions into weighted end cases ("leaves")."""

    def __init__(self):
        self.leaves: list[tuple[float, Case]] = []

    def note(self, text: str) -> None:
        pass

    def chance(self, case, dist, k):
        for p, x in dist:
            self._w.append(self._w[-1] * p)
            try:
                k(self, case, x)
            finally:
                self._w.pop()

    def run(self, f, probe: Case):
        self._w = [1.0]
        f(self, probe, _Mark())
        return self.leaves

    def finish(self, phase, case):
        self.leaves.append((self._w[-1], case))

    def tail(self, key, case, k, f):
        return f(self, case, k)

    def choose(self, *a):
        raise NonLinear

    luck_roll = plain_roll = sm_at_least = roll_at_most_sm = combat = choose


def _compose(v, leaf: Lin):
    """``leaf`` applied after ``v`` (an int or a ``Lin``)."""
    if type(v) is int:
        return max(leaf.c, v + leaf.a)
    return Lin(v.a + leaf.a, max(leaf.c, v.c + leaf.a))


def compile_tail(f, core: Case):
    """Merged leaves ``((weight, overrides, sm, luck), ...)`` of tail ``f`` from ``core``,
    or None if it holds a decision. ``overrides``: (field index, value) changed."""
    probe = root(core)
    try:
        leaves = Compile().run(f, probe)
    except NonLinear:
        return None
    merged: dict = {}
    for wgt, end in leaves:
        over = tuple((i, end[i]) for i in range(len(_FIELDS))
                     if i not in (_SM_I, _LUCK_I) and end[i] != probe[i])
        key = (over, end.sm, end.luck)
        merged[key] = merged.get(key, 0.0) + wgt
    return tuple((wgt, over, sm, luck) for (over, sm, luck), wgt in merged.items())


class Expect:
    """The world of exact expectations (see ``engine``); values are floats or arrays."""

    def __init__(self, solver: "Solver"):
        self.solver = solver
        self.memo: dict = {}
        self.compiled: dict = {}

    def note(self, text: str) -> None:
        pass

    def chance(self, case: Case, dist, k):
        if len(dist) == 1:
            return k(self, case, dist[0][1])
        return sum(p * k(self, case, x) for p, x in dist)

    def choose(self, case: Case, kind: str, options, k):
        return reduce(np.maximum, [k(self, case, o) for o in options])

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        if type(case.sm) is int:
            return k_yes(self, case) if case.sm >= value else k_no(self, case)
        mask = actual(case.sm, S) >= value
        if mask.all():
            return k_yes(self, case)
        if not mask.any():
            return k_no(self, case)
        return np.where(mask[:, None], k_yes(self, case), k_no(self, case))

    def roll_at_most_sm(self, case: Case, offset: int, k):
        if type(case.sm) is int:
            p = E.p_2d6_at_most(case.sm + offset)
        else:
            p = p_at_most_by_sm(offset)[actual(case.sm, S)]
            if (p >= 1).all():
                p = 1.0
            elif (p <= 0).all():
                p = 0.0
        if isinstance(p, float) and p in (0.0, 1.0):
            return k(self, case, p == 1.0)
        return p * k(self, case, True) + (1 - p) * k(self, case, False)

    def luck_roll(self, case: Case, tag: str, mod: int, with_sm: bool, table, k):
        if with_sm:
            outcomes, m = row_matrix(table, mod)
            if type(case.sm) is int:
                probs = m[min(case.sm, S - 1)]
            else:
                probs = m[actual(case.sm, S)]
                nz = probs.any(axis=0)
                outcomes = tuple(o for o, z in zip(outcomes, nz) if z)
                probs = probs[:, nz]
            weights = [probs[..., i][..., None] if probs.ndim == 2 else probs[i]
                       for i in range(len(outcomes))]
            pairs = [(o, wgt) for o, wgt in zip(outcomes, weights)
                     if probs.ndim == 2 or wgt > 0]
        else:
            pairs = [(o, p) for o, p in row_probabilities(table, mod)]
        values = [(wgt, k(self, case, o)) for o, wgt in pairs]
        keep = sum(wgt * v for wgt, v in values)
        luck = case.luck
        if type(luck) is int:
            if luck <= 0:
                return keep
            spent = case._replace(luck=luck - 1)
            again = sum(wgt * k(self, spent, o) for o, wgt in pairs)
            return sum(wgt * np.maximum(v, again) for wgt, v in values)
        if luck == IDENT:
            again = sum(wgt * _shift_luck(v) for wgt, v in values)
        else:
            spent = case._replace(luck=luck.plus(-1))
            again = sum(wgt * k(self, spent, o) for o, wgt in pairs)
        best = sum(wgt * np.maximum(v, again) for wgt, v in values)
        can = (actual(luck, L) >= 1)[None, :]
        return np.where(can, best, keep)

    def plain_roll(self, case: Case, mod: int, table, k):
        return sum(p * k(self, case, o) for o, p in row_probabilities(table, mod))

    def reroll_value(self, case: Case, mod: int, table, k) -> float:
        """P(win) after spending 1 Luck on a roll (a concrete case; ``mod`` includes SM)."""
        spent = case._replace(luck=case.luck - 1)
        return sum(p * k(self, spent, o) for o, p in row_probabilities(table, mod))

    def combat(self, case: Case, setup: C.Setup, k):
        return C.solve(setup, {t: k(self, case, t) for t in C.terminals(setup)})[0]

    def tail(self, key, case: Case, k, f):
        if not isinstance(k, E.Phase):
            return f(self, case, k)
        mode = mode_of(case)
        core = _core(mode)
        ck = (key, core)
        leaves = self.compiled.get(ck, 0)
        if leaves == 0:
            leaves = self.compiled[ck] = compile_tail(f, core)
        if leaves is not None:
            total = 0.0
            for wgt, over, sm, luck in leaves:
                end = case
                if over:
                    vals = list(case)
                    for i, v in over:
                        vals[i] = v
                    end = Case._make(vals)
                end = end._replace(sm=_compose(case.sm, sm), luck=_compose(case.luck, luck))
                total = total + wgt * k(self, end)
            return total
        mk = (key, mode, k.key)
        v = self.memo.get(mk)
        if v is None:
            v = self.memo[mk] = full(f(self, root(mode), k), lead_of(k))
        return gather(v, case.sm, case.luck)

    def finish(self, phase: E.Phase, case: Case):
        if case.outcome is not None:
            return Solver.terminal(case)
        solver = self.solver
        if phase.key[0] == "turn":
            if case.turn >= T.TURNS:
                return 0.0
            m = flagless(mode_of(case._replace(turn=case.turn + 1)))
            if len(phase.key) == 1:  # a concrete walk: the case's own flags
                return gather(solver.v1(m, flags_of(case)), case.sm, case.luck)
            labels = phase.key[1]
            if case.unlock:  # an event allowed Investigate next turn
                labels = tuple(f[:3] + (True,) for f in labels)
            return gather(solver.v(m, labels), case.sm, case.luck)
        f, waited = flags_of(case), phase.key[1]
        labels = (f,)
        w = solver.w(flagless(mode_of(case)), waited, labels)
        return gather(w[labels.index(f)], case.sm, case.luck)


# ----------------------------------------------------------------------------- flags
#: the flags a turn leaves for the next: (bonus Action, bonus, trapped, Investigate allowed)
NO_FLAGS = (None, 0, False, False)
UNLOCKED = (None, 0, False, True)
TRAPPED = (None, 0, True, False)
BASIC = (NO_FLAGS, UNLOCKED, TRAPPED)

_TURN_PHASES: dict = {}


def turn_phase(labels: tuple) -> E.Phase:
    """The end of the Encounter phase, valued for every flag in ``labels`` at once."""
    p = _TURN_PHASES.get(labels)
    if p is None:
        p = _TURN_PHASES[labels] = E.Phase(("turn", labels))
    return p


def lead_of(k) -> tuple:
    """The leading axes of the values a continuation returns (flag labels)."""
    key = getattr(k, "key", None)
    return (len(key[1]),) if key and key[0] == "turn" and len(key) == 2 else ()


def flags_of(case: Case) -> tuple:
    return (case.bonus_action, case.bonus, case.trapped, case.unlock)


def with_flags(case: Case, f: tuple) -> Case:
    return case._replace(bonus_action=f[0], bonus=f[1], trapped=f[2], unlock=f[3])


def flagless(mode: Case) -> Case:
    return mode._replace(bonus_action=None, bonus=0, trapped=False, unlock=False)


class Solver:
    """The DP over one case (its ``Context``); values are memoised across calls.

    A *mode* here is flagless (``flagless(mode_of(case))``): last turn's flags (bonus,
    trap, Investigate allowed) are a leading array axis instead of part of the memo key.
    The Encounter phase of a mode is walked once for a tuple of flag *labels*
    (``w``: shape ``(labels, S, L)``), since its events never read the flags; the value at
    the start of a turn for one flag (``v1``) is a max over the Action values (``qa``);
    an Action with a cumulative +1 row is solved for every carried bonus at once (``q_all``:
    shape ``(bonus, S, L)``).
    """

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.world = Expect(self)
        self.V: dict[Case, object] = {}  # (mode with reduced flags) -> (S, L)
        self.Q: dict[tuple, object] = {}  # (mode, action) -> (S, L) or (bonus, S, L)
        self.W: dict[tuple, np.ndarray] = {}  # (mode, waited, labels) -> (labels, S, L)
        self.R: dict[tuple, object] = {}  # (mode, action, row outcome) -> (S, L)
        self.O: dict[tuple, object] = {}  # (mode with flags, action) -> best other Action
        self._legal: dict[Case, list[str]] = {}
        if sys.getrecursionlimit() < 20000:
            sys.setrecursionlimit(20000)  # a turn nests a few dozen frames; 12 turns deep

    @staticmethod
    def terminal(case: Case) -> float:
        return 1.0 if case.won else 0.0

    def legal(self, case: Case) -> list[str]:
        out = self._legal.get(case)
        if out is None:
            out = self._legal[case] = E.legal_actions(self.ctx, case)
        return out

    def _v_key(self, mode: Case) -> Case:
        """At the start of a turn, drop flags that cannot matter this turn."""
        if mode.trapped:
            return mode._replace(bonus_action=None, bonus=0, unlock=False)
        if mode.unlock and mode.villain is not None and mode.motive < 0:
            mode = mode._replace(unlock=False)  # Investigate is allowed anyway
        if mode.bonus_action and mode.bonus_action not in self.legal(mode):
            mode = mode._replace(bonus_action=None, bonus=0)
        return mode

    # -- memoised phases, over every (SM, Luck)
    def v(self, m: Case, labels: tuple) -> np.ndarray:
        """Start of a turn at flagless ``m``, for each flag in ``labels``. A run of bonus
        values of one Action (what an Encounter phase after that Action's +1 row carries)
        is one array operation: max(the Action with each bonus, the best other Action)."""
        a, _, trapped, unlock = labels[0]
        if a is not None and len(labels) > 1 and all(f[0] == a and f[3] == unlock for f in labels):
            base = with_flags(m, (None, 0, False, unlock))
            if a in self.legal(base):
                cs = [f[1] for f in labels]
                q = self.q_all(m, a, max(cs) + 1)
                return np.maximum(q[cs], self.others(m, a, base))
        return np.stack([np.broadcast_to(self.v1(m, f), (S, L)) for f in labels])

    def others(self, m: Case, action: str, base: Case):
        """The best legal Action other than ``action`` at ``base`` (no bonus)."""
        key = (base, action)
        out = self.O.get(key)
        if out is None:
            values = [self.qa(m, b, base) for b in self.legal(base) if b != action]
            out = self.O[key] = reduce(np.maximum, values) if values else 0.0
        return out

    def v1(self, m: Case, f: tuple):
        """Start of a turn at flagless ``m`` with flags ``f``: the best Action."""
        key = self._v_key(with_flags(m, f))
        out = self.V.get(key)
        if out is None:
            values = [self.qa(m, a, key) for a in self.legal(key)]
            out = self.V[key] = full(reduce(np.maximum, values))
        return out

    def qa(self, m: Case, action: str, case: Case):
        """P(win) of ``action`` at flagless ``m`` with the flags of ``case``."""
        if action == T.ESCAPE_TRAP:
            return self.w(m, False, (NO_FLAGS,))[0]
        carried = case.bonus if case.bonus_action == action else 0
        q = self.q_all(m, action, carried + 1)
        return q[carried] if q.ndim == 3 else q

    def q_all(self, m: Case, action: str, need: int = 1):
        """``action`` from flagless ``m``: (S, L), or (bonus, S, L) for an Action with a
        cumulative +1 row (at least ``need`` bonus values: a turn-t case carries < t)."""
        key = (m, action)
        out = self.Q.get(key)
        if out is None or (out.ndim == 3 and out.shape[0] < need):
            out = self._q(m, action, max(need, m.turn))
            if not isinstance(out, np.ndarray) or out.ndim < 3:
                out = np.broadcast_to(out, (S, L))
            self.Q[key] = out
        return out

    def _q(self, m: Case, action: str, n_bonus: int):
        start = root(m)
        after = E.AFTER_ACTION[action == T.WAIT]
        if action not in T.ACTION_TABLES:
            return full(E.take_action(self.world, self.ctx, start, action, after))
        cleared, mod, with_sm, table, k_row = E.action_roll(self.ctx, start, action, after)
        outcomes = tuple(dict.fromkeys(r.outcome for r in table))

        def row_value(o):
            key = (m, action, o)
            r = self.R.get(key)
            if r is None:
                r = self.R[key] = full(k_row(self.world, cleared, o))
            return r

        if "bonus" not in outcomes:
            return full(self.world.luck_roll(cleared, action, mod, with_sm, table,
                                             lambda w, c, o: row_value(o)))
        # every carried bonus c = 0..n_bonus-1 at once: P(row | 2d6 + mod + c (+ SM))
        if with_sm:
            probs = np.stack([row_matrix(table, mod + c)[1] for c in range(n_bonus)])
        else:
            probs = np.stack([[dict(row_probabilities(table, mod + c)).get(o, 0.0)
                               for o in outcomes] for c in range(n_bonus)])[:, None, :]
        b = outcomes.index("bonus")
        grows = [c for c in range(n_bonus) if probs[c, :, b].any()]
        pairs = []
        for j, o in enumerate(outcomes):
            p = probs[:, :, j][..., None]  # (bonus, S or 1, 1)
            if not p.any():
                continue
            if o == "bonus":  # the same mode, with next turn's bonus c + 1
                labels = tuple((action, c + 1, False, False) for c in grows)
                vals = np.zeros((n_bonus, S, L))
                vals[grows] = self.w(m, False, labels)
                pairs.append((p, vals))
            else:
                pairs.append((p, row_value(o)))
        keep = sum(p * v for p, v in pairs)
        again = sum(p * _shift_luck(v) for p, v in pairs)
        best = sum(p * np.maximum(v, again) for p, v in pairs)
        return full(np.where((np.arange(L) >= 1)[None, None, :], best, keep), (n_bonus,))

    def w(self, m: Case, waited: bool, labels: tuple) -> np.ndarray:
        """The Encounter phase at flagless ``m`` (after Wait if ``waited``), for each flag
        in ``labels`` (the flags the Action left for next turn)."""
        key = (m, waited, labels)
        out = self.W.get(key)
        if out is None:
            out = self.W[key] = full(E.encounter(self.world, self.ctx, root(m), waited,
                                                 turn_phase(labels)), (len(labels),))
        return out

    # -- answers for a concrete case
    def value(self, case: Case) -> float:
        if case.over:
            return self.terminal(case)
        mode = mode_of(case)
        return float(gather(self.v1(flagless(mode), flags_of(mode)), case.sm, case.luck))

    def q_values(self, case: Case) -> dict[str, float]:
        """P(win) of each legal Action at the start of a turn (legal order)."""
        mode = mode_of(case)
        m = flagless(mode)
        return {a: float(gather(self.qa(m, a, mode), case.sm, case.luck))
                for a in E.legal_actions(self.ctx, case)}

    def after_action(self, case: Case, waited: bool) -> float:
        if case.over:
            return self.terminal(case)
        return float(self.world.finish(E.AFTER_ACTION[waited], case))

    def at(self, case: Case, phase: str = "action", waited: bool = False) -> float:
        """P(win) from a record's position."""
        return self.value(case) if phase == "action" else self.after_action(case, waited)

    @property
    def states(self) -> int:
        """Memoised phases (each holds every SM and Luck, and W every flag label)."""
        return len(self.V) + len(self.W) + len(self.world.memo)


_SOLVERS: dict = {}


def context_key(ctx: Context) -> tuple:
    """What makes two contexts the same case for the DP (same data, sheets and rules)."""
    return (ctx.data.source, ctx.adventure.id, ctx.holmes, ctx.watson,
            tuple(sorted(ctx.sheets.items())), ctx.first_case, ctx.ruled_out, ctx.barred,
            ctx.inspector_replaced)


def solver_for(ctx: Context) -> Solver:
    """A shared ``Solver`` for this context (the last few are kept: a DP is reused by
    ``advise`` and ``selfplay`` in one process)."""
    key = context_key(ctx)
    solver = _SOLVERS.pop(key, None) or Solver(ctx)
    _SOLVERS[key] = solver
    while len(_SOLVERS) > 4:
        _SOLVERS.pop(next(iter(_SOLVERS)))
    return solver


# ----------------------------------------------------------------------------- answers
@dataclass
class Advice:
    best: str | None
    actions: list[tuple[str, float]]  # legal Actions, best first
    p_win: float
    states: int

    def to_json(self) -> dict:
        return {"best": self.best,
                "actions": [{"action": a, "p_arrest": p} for a, p in self.actions]}


def advise(ctx: Context, case: Case, phase: str = "action", waited: bool = False,
           solver: Solver | None = None) -> Advice:
    """The best Action and P(win) of every legal Action (at phase "encounter": no Action)."""
    if type(case.sm) is not int or case.sm > SM_CAP or case.luck > LUCK_CAP:
        raise InputError(f"the advisor handles SM up to {SM_CAP} and Luck up to {LUCK_CAP}",
                         field="sm" if case.sm > SM_CAP else "luck")
    solver = solver or Solver(ctx)
    if case.over:
        return Advice(None, [], Solver.terminal(case), 0)
    if phase == "encounter":
        return Advice(None, [], solver.after_action(case, waited), solver.states)
    q = solver.q_values(case)
    order = {a: i for i, a in enumerate(E.ALL_ACTIONS)}
    ranked = sorted(q.items(), key=lambda kv: (-round(kv[1], 12), order[kv[0]]))
    return Advice(ranked[0][0], ranked, solver.value(case), solver.states)


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
        return self.p_reroll is not None and self.p_reroll > self.p_keep + 1e-12

    def to_json(self) -> dict:
        return {"roll": self.what, "dice": self.roll, "total": self.total,
                "outcome": self.outcome, "p_keep": self.p_keep, "p_reroll": self.p_reroll,
                "spend_luck": self.spend}


def reroll_advice(ctx: Context, case: Case, action: str, roll: int,
                  solver: Solver | None = None) -> Reroll:
    """Given the natural 2d6 ``roll`` (2-12) just made for ``action`` at the start of the
    record's turn: P(win) keeping it, and spending 1 Luck to roll again (R003)."""
    if not 2 <= roll <= 12:
        raise InputError(f"a 2d6 roll is 2-12, got {roll}", field="roll")
    E.check_action(ctx, case, action)
    if action not in T.ACTION_TABLES:
        raise InputError(f"{action} has no 2d6 table roll to re-roll", field="roll")
    solver = solver or Solver(ctx)
    w = solver.world
    start, mod, with_sm, table, k_row = E.action_roll(ctx, case, action, E.AFTER_ACTION[False])
    mod += case.sm if with_sm else 0
    outcome = T.row_for(table, roll + mod).outcome
    keep = float(k_row(w, start, outcome))
    again = float(w.reroll_value(start, mod, table, k_row)) if start.luck > 0 else None
    return Reroll(action, roll, roll + mod, outcome, keep, again)
