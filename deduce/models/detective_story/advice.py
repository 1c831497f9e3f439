"""Exact advice: P(the case is won by the end of turn 12) for every legal Action, by dynamic
programming over the case state, and whether to spend Luck on a re-roll.

The value is exact for the engine's model (its decisions are documented in ``engine``):
chance nodes are summed with their exact probabilities and every decision is optimised:
the Action, a Luck re-roll of the Action's 2d6, where option 3 starts, and in a fight who
strikes each round and whether to try to escape (``combat.solve``).

How it is made fast (figures in the README: a third of a second from turn 8 with the
Villain known; 7 s (a001) and 25 s (a002) from a fresh case of the shipped campaign, the
1 s target not met):

- **SM and Luck for all values at once.** A phase is traced on a case whose SM and Luck
  are symbolic (``Lin``: "max(c, x + a)" of the SM/Luck ``x`` the phase started with), and
  every value is a flat numpy array over (SM 0..``SM_CAP``, Luck 0..``LUCK_CAP``) (values
  above a cap count as the cap).
- **Phases compiled once, evaluated per turn.** Events never read the turn, so each phase
  is traced once per *mode* (the case without turn, SM, Luck and last turn's flags:
  ``mode_key``) by the ``Tracer`` world into an ``Expr``: weighted end-of-phase leaves
  (weights may depend on SM), with decisions kept as ``MaxNode`` (option 3's start) and
  ``CombatNode`` (a fight's plan) over sub-expressions. Events read at the end of a phase
  are traced once per (paragraph, mode) and spliced. ``compile_expr`` turns an ``Expr``
  into a ``Lump``: its end leaves merged, resolved to the memo key they lead to, and laid
  out as index/weight arrays (equal decision nodes are one object, valued once).
- **Last turn's flags are an array axis.** The bonus (+1 rows, cumulative), the trap and
  Investigate allowed only change next turn's Action; the Encounter phase is evaluated
  for a tuple of flag *labels* at once (``Solver.w``: shape ``(labels, S*L)``), and an
  Action with a +1 row for every carried bonus at once (``Solver.q_all``).
- **A whole turn at a time.** From a new case (``Solver.prepare``), ``sweep`` lays out
  every (turn, mode) reachable from it and evaluates each turn's lumps of every mode in a
  few large array operations (one fight solve per setup), filling the memo below; the
  recursion here (``evaluate`` per (turn, mode)) is what it replaces and what computes
  anything the sweep did not cover. ``advise`` keeps two turns of it, a bot all.

Memoised per turn: the start of a turn for one flag (``Solver.v1``), each Action
(``Solver.q_all``), the Encounter phase per label tuple (``Solver.w``). The ``Expect``
world walks a *concrete* case (the optimal bot's decisions, re-roll advice, tests) and
reads the same memo at the end of a phase. ``naive.Naive`` is the reference the tests
compare with.

Where the time goes from a fresh case (a001: about 1,800 (turn, mode) pairs, 15-24 flag
labels each, 450,000 leaf terms of 425 values): tracing and compiling the phases about a
fifth, laying the turns out a fifth, the rest array work (gathers, fights, the Luck
choice), which is bound by memory traffic; a first touch of new memory costs as much as
the arithmetic on the machine measured (``sweep.Buffers``). Measured and not worth it:
bounding the bonus labels by the turns a mode is reachable in a row (a sixth fewer
labels), merging label rows whose sources are equal (a fifth fewer), valuing an Action's
flags only on demand (more re-valued event lines than saved).
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
SL = S * L


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
    """Flat indices into an (S*L) array for every start (SM, Luck), flattened."""
    out = (actual(sm, S)[:, None] * L + actual(luck, L)[None, :]).ravel()
    out.flags.writeable = False
    return out


def at(arr, sm: int, luck: int) -> float:
    """The value of a flat (S*L) array (or a constant) at a concrete SM and Luck."""
    if not isinstance(arr, np.ndarray):
        return float(arr)
    return float(arr[min(sm, S - 1) * L + min(luck, L - 1)])


def _compose(v, leaf: Lin):
    """``leaf`` applied after ``v`` (an int or a ``Lin``)."""
    if type(v) is int:
        return max(leaf.c, v + leaf.a)
    return Lin(v.a + leaf.a, max(leaf.c, v.c + leaf.a))


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


def outcomes_of(table) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r.outcome for r in table))


@lru_cache(maxsize=None)
def row_matrix(table, mod: int) -> np.ndarray:
    """P(outcome) of ``table`` (``outcomes_of`` order) for 2d6 + ``mod`` + SM: (S, outcomes)."""
    outcomes = outcomes_of(table)
    m = np.zeros((S, len(outcomes)))
    for sm in range(S):
        for o, p in row_probabilities(table, mod + sm):
            m[sm, outcomes.index(o)] += p
    m.flags.writeable = False
    return m


@lru_cache(maxsize=None)
def p_at_most_by_sm(offset: int) -> np.ndarray:
    """P(2d6 <= SM + offset) for SM = 0..S-1, as a column (S, 1)."""
    v = np.array([E.p_2d6_at_most(sm + offset) for sm in range(S)])[:, None]
    v.flags.writeable = False
    return v


def _by_sm(p) -> np.ndarray | float:
    """A weight over SM (S, 1) as a flat (S*L) array (floats stay floats)."""
    if not isinstance(p, np.ndarray):
        return p
    return np.repeat(p.reshape(-1), L)


def _shift_luck(x):
    """The value one Luck lower (flat arrays; Luck 0 stays: masked by the caller)."""
    if not isinstance(x, np.ndarray):
        return x
    y = x.reshape(x.shape[:-1] + (S, L))
    return np.concatenate([y[..., :1], y[..., :-1]], axis=-1).reshape(x.shape)


_CAN_SPEND = np.tile(np.arange(L) >= 1, S)

# ----------------------------------------------------------------------------- modes, flags
_MODES: dict = {}
_KEYS: dict = {}


def _memo(store: dict, case: Case, make) -> Case:
    """``make(case)``, kept in ``store`` (emptied when it grows past half a million)."""
    out = store.get(case)
    if out is None:
        if len(store) > 500_000:
            store.clear()
        out = store[case] = make(case)
    return out


def mode_of(case: Case) -> Case:
    """The case without SM, Luck and what can no longer change anything."""
    return _memo(_MODES, case, _mode_of)


def mode_key(case: Case) -> Case:
    """The memo key of a case's mode: no turn, SM, Luck or flags (see ``mode_of``)."""
    return _memo(_KEYS, case, lambda c: with_flags(mode_of(c), NO_FLAGS)._replace(turn=0))


def _mode_of(case: Case) -> Case:
    c = case._replace(sm=0, luck=0, dead=frozenset())
    if c.villain is not None and not c.clue:
        c = c._replace(clue=True)
    if c.motive >= 0 and (c.meetings != 2 or c.blocked):
        c = c._replace(meetings=2, blocked=frozenset())
    return c


#: the flags a turn leaves for the next: (bonus Action, bonus, trapped, Investigate allowed)
NO_FLAGS = (None, 0, False, False)
UNLOCKED = (None, 0, False, True)
TRAPPED = (None, 0, True, False)


def flags_of(case: Case) -> tuple:
    return (case.bonus_action, case.bonus, case.trapped, case.unlock)


def with_flags(case: Case, f: tuple) -> Case:
    return case._replace(bonus_action=f[0], bonus=f[1], trapped=f[2], unlock=f[3])



def probe(key: Case, turn: int) -> Case:
    """The case a phase is traced or valued from: ``key`` at ``turn``, symbolic SM/Luck."""
    return key._replace(turn=turn, sm=IDENT, luck=IDENT)


# ----------------------------------------------------------------------------- compiling
class Leaf(NamedTuple):
    """The end of a phase: fields changed from the trace's probe, SM and Luck (``Lin``)."""

    over: tuple
    sm: object
    luck: object


class MaxNode(NamedTuple):
    """A decision: the best of ``options`` (expressions), elementwise."""

    options: tuple


class CombatNode(NamedTuple):
    """A fight: ``combat.solve`` over ``terms`` ((terminal, expression), ...)."""

    setup: C.Setup
    terms: tuple


class Ref(NamedTuple):
    """An event line read from the start of the Encounter phase, valued once per turn and
    mode and shared by the phase's variants (after Wait or not, every band)."""

    line: str


#: an expression: ``((weight, node), ...)``; a weight is a float or an (S, 1) array over the
#: SM the trace started with; a node is a ``Leaf``, ``MaxNode``, ``CombatNode`` or ``Ref``
Expr = tuple

_PLAIN = tuple(i for i, f in enumerate(Case._fields) if f not in ("sm", "luck"))


def _reindex(w, sm):
    """A weight over a sub-trace's start SM, seen from a case whose SM is ``sm``."""
    if not isinstance(w, np.ndarray) or sm == IDENT:
        return w
    if type(sm) is int:
        return float(w[min(sm, S - 1), 0])
    return w[actual(sm, S)]


class Tracer:
    """The world that turns a phase into an ``Expr`` (see the module docstring).

    ``trace(f, probe)`` runs ``f(tracer, probe)``; every end of phase (``finish``) becomes a
    weighted ``Leaf``; SM-dependent branches become SM-dependent weights; ``choose`` and
    ``combat`` become decision nodes over sub-traces. A paragraph or line event read as
    the last thing of a phase (``tail``) is traced once per mode and spliced in.
    """

    def __init__(self):
        self.cache: dict = {}
        self.refs = False  # see ``trace``
        self._terms: list = []
        self._w = 1.0
        self._probe: Case | None = None

    def trace(self, f, start: Case, refs: bool = False) -> Expr:
        """The expression of ``f(tracer, start)``; ``refs``: an event line read from
        ``start`` itself becomes a ``Ref`` node instead of being traced."""
        saved = (self._terms, self._w, self._probe, self.refs)
        self._terms, self._w, self._probe, self.refs = [], 1.0, start, refs
        try:
            f(self, start)
            return tuple(self._terms)
        finally:
            self._terms, self._w, self._probe, self.refs = saved

    def run(self, f, start: Case) -> list[tuple[float, Case]]:
        """``[(p, end case), ...]`` of ``f(tracer, start, k)`` (no decisions inside)."""
        out = []
        for w, node in self.trace(lambda t, c: f(t, c, E.AFTER_TURN), start):
            if type(node) is not Leaf:
                raise ValueError("the phase holds a decision")
            out.append((w, self.end_case(start, node)))
        return out

    @staticmethod
    def end_case(start: Case, leaf: Leaf) -> Case:
        vals = list(start)
        for i, v in leaf.over:
            vals[i] = v
        if type(leaf.sm) is int:  # a concrete trace: the end values themselves
            return Case._make(vals)._replace(sm=leaf.sm, luck=leaf.luck)
        return Case._make(vals)._replace(sm=_compose(start.sm, leaf.sm),
                                         luck=_compose(start.luck, leaf.luck))

    def _sub(self, run) -> Expr:
        saved = (self._terms, self._w)
        self._terms, self._w = [], 1.0
        try:
            run()
            return tuple(self._terms)
        finally:
            self._terms, self._w = saved

    def note(self, text: str) -> None:
        pass

    def chance(self, case: Case, dist, k, what=None):
        w0 = self._w
        try:
            for p, x in dist:
                self._w = w0 * p
                k(self, case, x)
        finally:
            self._w = w0

    def _split(self, case: Case, p, k_yes, k_no):
        w0 = self._w
        try:
            self._w = w0 * p
            k_yes(self, case)
            self._w = w0 * (1 - p)
            k_no(self, case)
        finally:
            self._w = w0

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        if type(case.sm) is int:
            return k_yes(self, case) if case.sm >= value else k_no(self, case)
        mask = actual(case.sm, S) >= value
        if mask.all():
            return k_yes(self, case)
        if not mask.any():
            return k_no(self, case)
        return self._split(case, mask[:, None].astype(float), k_yes, k_no)

    def roll_at_most_sm(self, case: Case, offset: int, k):
        if type(case.sm) is int:
            p = E.p_2d6_at_most(case.sm + offset)
            return self.chance(case, _yes_no(p), k)
        p = p_at_most_by_sm(offset)[actual(case.sm, S)]
        if (p >= 1).all():
            return k(self, case, True)
        if (p <= 0).all():
            return k(self, case, False)
        return self._split(case, p, lambda w, c: k(w, c, True), lambda w, c: k(w, c, False))

    def plain_roll(self, case: Case, mod: int, table, k):
        return self.chance(case, tuple((p, o) for o, p in row_probabilities(table, mod)), k)

    def luck_roll(self, *args):
        raise TypeError("an Action roll is valued by the Solver, not traced")

    def choose(self, case: Case, kind: str, options, k):
        subs = tuple(self._sub(lambda o=o: k(self, case, o)) for o in options)
        self._terms.append((self._w, MaxNode(subs)))

    def combat(self, case: Case, setup: C.Setup, k):
        terms = tuple((t, self._sub(lambda t=t: k(self, case, t))) for t in C.terminals(setup))
        self._terms.append((self._w, CombatNode(setup, terms)))

    def finish(self, phase, case: Case):
        self._terms.append((self._w, self._leaf(case)))

    def _leaf(self, case: Case) -> Leaf:
        start = self._probe
        return Leaf(tuple((i, case[i]) for i in _PLAIN if case[i] != start[i]), case.sm, case.luck)

    def tail(self, key, case: Case, k, f):
        if not isinstance(k, E.Phase) or type(case.sm) is int:
            return f(self, case, k)
        if self.refs and key[0] == "line" and case == self._probe:
            self._terms.append((self._w, Ref(key[1])))
            return
        sub = probe(with_flags(mode_of(case), flags_of(case))._replace(turn=0), 0)
        ck = (key, sub)
        expr = self.cache.get(ck)
        if expr is None:
            expr = self.cache[ck] = self.trace(lambda t, c: f(t, c, k), sub)
        w0 = self._w
        for w, node in expr:
            self._terms.append((w0 * _reindex(w, case.sm), self._moved(node, case)))

    def _moved(self, node, case: Case):
        """``node`` of a sub-trace (from the mode of ``case``) seen from ``case``."""
        if type(node) is Leaf:
            return self._leaf(self.end_case(case, node))
        if type(node) is MaxNode:
            return MaxNode(tuple(self._moved_expr(sub, case) for sub in node.options))
        return CombatNode(node.setup, tuple((t, self._moved_expr(sub, case))
                                            for t, sub in node.terms))

    def _moved_expr(self, expr: Expr, case: Case) -> Expr:
        return tuple((_reindex(w, case.sm), self._moved(n, case)) for w, n in expr)


def _yes_no(p: float) -> tuple:
    return ((1.0, True),) if p >= 1 else ((1.0, False),) if p <= 0 else ((p, True), (1 - p, False))


class Target(NamedTuple):
    """Where a leaf leads: the mode key and the flags the phase leaves."""

    key: Case
    flags: tuple


class Lump(NamedTuple):
    """A compiled expression: ``const + sum(wts * target values gathered at idx) + nodes``."""

    const: object  # float or flat (S*L) array: the leaves that end the case
    targets: tuple  # (Target, ...)
    moves: np.ndarray  # (leaves,) ids of the (SM, Luck) after the phase (``_MOVES``)
    wts: np.ndarray  # (leaves, S*L), or (leaves, 1) when no weight depends on SM
    nodes: tuple  # ((weight, MaxNode or CombatNode of Lumps), ...)


def compile_expr(expr: Expr, start: Case, interned: dict) -> Lump:
    """Merge ``expr``'s leaves (traced from ``start``) by where they lead (see ``Lump``).
    Equal decision nodes (a fight reached by each of option 3's starts) become one object
    (``interned``), valued once per ``evaluate``."""
    const = 0.0
    merged: dict = {}
    nodes = []
    for w, node in expr:
        if type(node) is Leaf:
            end = Tracer.end_case(start, node)
            if end.outcome is not None:
                const = const + w * (1.0 if end.won else 0.0)
                continue
            key = (Target(mode_key(end), flags_of(end)), end.sm, end.luck)
            merged[key] = merged.get(key, 0.0) + w
        elif type(node) is Ref:
            nodes.append((_by_sm(w), node))
        elif type(node) is MaxNode:
            subs = tuple(compile_expr(o, start, interned) for o in node.options)
            nodes.append((_by_sm(w), _intern(interned, ("max",) + tuple(map(id, subs)),
                                             MaxNode(subs))))
        else:
            terms = tuple((t, compile_expr(sub, start, interned)) for t, sub in node.terms)
            nodes.append((_by_sm(w), _intern(interned, ("fight", node.setup) + tuple(
                (t, id(x)) for t, x in terms), CombatNode(node.setup, terms))))
    targets = tuple(t for t, _, _ in merged)
    n = len(targets)
    moves = np.array([_move_id(sm, luck) for _, sm, luck in merged], dtype=np.intp)
    by_sm = any(isinstance(w, np.ndarray) for w in merged.values())
    wts = np.empty((n, SL if by_sm else 1))
    for i, w in enumerate(merged.values()):
        wts[i] = _by_sm(w) if isinstance(w, np.ndarray) else w
    const = _by_sm(const)
    lump = Lump(const, targets, moves, wts, tuple(nodes))
    key = ("lump", const.tobytes() if isinstance(const, np.ndarray) else const, targets,
           moves.tobytes(), wts.tobytes(), tuple((id(n), _bytes(w)) for w, n in nodes))
    return _intern(interned, key, lump)


_MOVE_IDS: dict = {}
_MOVES = np.empty((0, SL), dtype=np.intp)  # row i: flat indices of move i for every start


def _move_id(sm, luck) -> int:
    """The id of an (SM, Luck) change (``Lin`` pair) in the shared table ``_MOVES``."""
    global _MOVES
    i = _MOVE_IDS.get((sm, luck))
    if i is None:
        i = _MOVE_IDS[(sm, luck)] = len(_MOVE_IDS)
        if i >= len(_MOVES):
            grown = np.empty((max(64, 2 * len(_MOVES)), SL), dtype=np.intp)
            grown[: len(_MOVES)] = _MOVES
            _MOVES = grown
        _MOVES[i] = _flat(sm, luck)
    return i


def _bytes(w):
    return w.tobytes() if isinstance(w, np.ndarray) else w


def _intern(interned: dict, key: tuple, obj):
    return interned.setdefault(key, obj)


def evaluate(lump: Lump, get, memo: dict | None = None, refs=None):
    """The value of ``lump``; ``get(target)`` gives a target's values: flat (S*L) arrays,
    or (labels, S*L) for every flag label at once; ``refs(line)`` the value of a ``Ref``.
    ``memo``: decision nodes already valued in this evaluation (by identity)."""
    if memo is None:
        memo = {}
    out = lump.const
    if lump.targets:
        n = len(lump.targets)
        cols = (_MOVES[lump.moves] + (np.arange(n) * SL)[:, None]).ravel()
        first = get(lump.targets[0])
        if first.ndim == 1:  # (leaves * S*L) -> the leaves' values after their moves
            g = np.concatenate([first] + [get(t) for t in lump.targets[1:]])[cols]
            g = g.reshape(n, SL)
            out = out + (np.einsum("nk,nk->k", g, lump.wts) if lump.wts.shape[1] > 1
                         else lump.wts[:, 0] @ g)
        else:  # (labels, leaves * S*L)
            x = first.shape[0]
            g = np.concatenate([first] + [get(t) for t in lump.targets[1:]], axis=1)[:, cols]
            g = g.reshape(x, n, SL)
            out = out + (np.einsum("xnk,nk->xk", g, lump.wts) if lump.wts.shape[1] > 1
                         else np.einsum("xnk,n->xk", g, lump.wts[:, 0]))
    for w, node in lump.nodes:
        if type(node) is Ref:
            out = out + w * refs(node.line)
            continue
        v = memo.get(id(node))
        if v is None:
            if type(node) is MaxNode:
                v = reduce(np.maximum, [evaluate(o, get, memo) for o in node.options])
            else:
                v = C.solve(node.setup, {t: evaluate(sub, get, memo) for t, sub in node.terms})[0]
            memo[id(node)] = v
        out = out + w * v
    return out


@lru_cache(maxsize=None)
def _bonus_probs(table, mod: int, with_sm: bool, n_bonus: int) -> np.ndarray:
    """P(row | 2d6 + mod + carried bonus c (+ SM)), c = 0..n_bonus-1: (bonus, S or 1, rows)."""
    if with_sm:
        out = np.stack([row_matrix(table, mod + c) for c in range(n_bonus)])
    else:
        outcomes = outcomes_of(table)
        out = np.stack([[dict(row_probabilities(table, mod + c)).get(o, 0.0) for o in outcomes]
                        for c in range(n_bonus)])[:, None, :]
    out.flags.writeable = False
    return out


@lru_cache(maxsize=None)
def _bonus_grows(table, mod: int, with_sm: bool, n_bonus: int) -> tuple[int, ...]:
    """The carried bonuses c (0..n_bonus-1) at which ``table``'s +1 row can still come up
    (for some SM), so that next turn carries c + 1."""
    outcomes = outcomes_of(table)
    if "bonus" not in outcomes:
        return ()
    probs = _bonus_probs(table, mod, with_sm, n_bonus)[:, :, outcomes.index("bonus")]
    return tuple(c for c in range(n_bonus) if probs[c].any())


_PLANS: dict = {}


def _label_plan(labels: tuple) -> tuple:
    """``labels`` grouped for ``Solver.v``: ``(action, unlock, positions, bonuses)`` per run
    of one Action's bonus values, ``(None, _, position, _)`` per other flag."""
    plan = _PLANS.get(labels)
    if plan is None:
        runs: dict = {}
        singles = []
        for i, f in enumerate(labels):
            if f[0] is None or f[2]:
                singles.append((None, f[3], i, None))
            else:
                pos, cs = runs.setdefault((f[0], f[3]), ([], []))
                pos.append(i)
                cs.append(f[1])
        plan = _PLANS[labels] = tuple(singles) + tuple(
            (a, u, pos, cs) for (a, u), (pos, cs) in runs.items())
    return plan


# ----------------------------------------------------------------------------- concrete walks
class Expect:
    """The world of exact expectations on a *concrete* case (ints for SM and Luck): chance
    nodes are summed, decisions maximised, the end of a phase reads the solver's memo."""

    def __init__(self, solver: "Solver"):
        self.solver = solver

    def note(self, text: str) -> None:
        pass

    def chance(self, case: Case, dist, k, what=None):
        if len(dist) == 1:
            return k(self, case, dist[0][1])
        return sum(p * k(self, case, x) for p, x in dist)

    def choose(self, case: Case, kind: str, options, k):
        return max(k(self, case, o) for o in options)

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        return k_yes(self, case) if case.sm >= value else k_no(self, case)

    def roll_at_most_sm(self, case: Case, offset: int, k):
        return self.chance(case, _yes_no(E.p_2d6_at_most(case.sm + offset)), k)

    def luck_roll(self, case: Case, tag: str, mod: int, with_sm: bool, table, k):
        mod += case.sm if with_sm else 0
        pairs = row_probabilities(table, mod)
        values = [(p, k(self, case, o)) for o, p in pairs]
        if case.luck <= 0:
            return sum(p * v for p, v in values)
        again = self.reroll_value(case, mod, table, k)
        return sum(p * max(v, again) for p, v in values)

    def plain_roll(self, case: Case, mod: int, table, k):
        return sum(p * k(self, case, o) for o, p in row_probabilities(table, mod))

    def reroll_value(self, case: Case, mod: int, table, k) -> float:
        """P(win) after spending 1 Luck on a roll (``mod`` includes SM)."""
        spent = case._replace(luck=case.luck - 1)
        return sum(p * k(self, spent, o) for o, p in row_probabilities(table, mod))

    def combat(self, case: Case, setup: C.Setup, k):
        return C.solve(setup, {t: k(self, case, t) for t in C.terminals(setup)})[0]

    def tail(self, key, case: Case, k, f):
        return f(self, case, k)

    def finish(self, phase: E.Phase, case: Case):
        if case.outcome is not None:
            return Solver.terminal(case)
        s = self.solver
        if phase.key[0] == "turn":
            if case.turn >= T.TURNS:
                return 0.0
            return at(s.v1(case.turn + 1, mode_key(case), flags_of(case)), case.sm, case.luck)
        return at(s.w(case.turn, mode_key(case), phase.key[1], (flags_of(case),))[0],
                  case.sm, case.luck)


# ----------------------------------------------------------------------------- the DP
class Solver:
    """The DP over one case (its ``Context``); values are memoised across calls.

    Keys: ``t`` the turn, ``key`` a ``mode_key``, ``f`` last turn's flags. Values are flat
    (S*L) arrays over every SM and Luck.
    """

    def __init__(self, ctx: Context, batched: bool = True):
        self.ctx = ctx
        self.batched = batched  # evaluate a turn at a time (``sweep``) from a new case
        self.progress = None  # called with a short message as a sweep goes (e.g. a spinner)
        self.world = Expect(self)
        self.tracer = Tracer()
        self.V: dict = {}  # (t, key with reduced flags) -> (S*L)
        self.VL: dict = {}  # (t, key, labels) -> (labels, S*L), the latest only
        self.Q: dict = {}  # (t, key, action) -> (S*L) or (bonus, S*L)
        self.W: dict = {}  # (t, key, waited, labels) -> (labels, S*L)
        self.O: dict = {}  # (t, key with flags, action) -> best other Action
        self.rows: dict = {}  # (key, action) -> {row outcome: Lump}
        self.enc: dict = {}  # (key, band, waited) -> Lump (event lines as ``Ref``)
        self.lines: dict = {}  # (key, line) -> Lump
        self.interned: dict = {}  # equal compiled pieces, one object each
        self._legal: dict = {}
        self._labels: dict = {}
        self._starts: dict = {}  # (key, flags) -> start of a turn (``sweep._start``)
        self._partial: list = []  # roots swept keeping two turns only (``prepare``)
        self._encounter_calls = 0  # Encounter phases valued by the recursion (see ``sweep``)
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

    # -- the start of a turn
    def v(self, t: int, key: Case, labels: tuple) -> np.ndarray:
        """Start of turn ``t`` for each flag in ``labels``: (labels, S*L). The bonus values
        of one Action are one array operation: max(the Action with each bonus, the best
        other Action). The last thousand results are kept (``VL``)."""
        vk = (t, key, labels)
        out = self.VL.get(vk)
        if out is not None:
            return out
        if len(self.VL) >= 1024:
            del self.VL[next(iter(self.VL))]
        out = self.VL[vk] = np.empty((len(labels), SL))
        for a, unlock, pos, cs in _label_plan(labels):
            if a is None:
                out[pos] = self.v1(t, key, labels[pos])
                continue
            base = with_flags(key, (None, 0, False, unlock))
            if a in self.legal(base):
                q = self.q_all(t, key, a, max(cs) + 1)
                out[pos] = np.maximum(q[cs], self.others(t, key, a, base))
            else:
                out[pos] = self.v1(t, key, (None, 0, False, unlock))
        return out

    def v1(self, t: int, key: Case, f: tuple):
        """Start of turn ``t`` with flags ``f``: the best legal Action."""
        vk = self._v_key(with_flags(key, f))
        out = self.V.get((t, vk))
        if out is None:
            out = reduce(np.maximum, [self.qa(t, key, a, vk) for a in self.legal(vk)])
            self.V[(t, vk)] = out
        return out

    def others(self, t: int, key: Case, action: str, base: Case):
        """The best legal Action other than ``action`` at ``base`` (no bonus)."""
        ok = (t, base, action)
        out = self.O.get(ok)
        if out is None:
            values = [self.qa(t, key, b, base) for b in self.legal(base) if b != action]
            out = self.O[ok] = reduce(np.maximum, values) if values else 0.0
        return out

    def qa(self, t: int, key: Case, action: str, case: Case):
        """``action`` at turn ``t`` from ``key`` with the flags of ``case``."""
        if action in (T.ESCAPE_TRAP, T.WAIT):
            return self.w(t, key, action == T.WAIT, (NO_FLAGS,))[0]
        carried = case.bonus if case.bonus_action == action else 0
        q = self.q_all(t, key, action, carried + 1)
        return q[carried] if q.ndim == 2 else q

    def q_all(self, t: int, key: Case, action: str, need: int = 1) -> np.ndarray:
        """``action`` at turn ``t``: (S*L), or (bonus, S*L) for an Action with a cumulative
        +1 row (at least ``need`` bonus values; a case at turn t carries less than t)."""
        qk = (t, key, action)
        out = self.Q.get(qk)
        if out is None or (out.ndim == 2 and out.shape[0] < need):
            out = self._q(t, key, action, max(need, min(t, self._carried_bound(t, key, action))))
            if not isinstance(out, np.ndarray):  # a constant (every path ends the case)
                out = np.full(SL, float(out))
            self.Q[qk] = out
        return out

    def _carried_bound(self, t: int, key: Case, action: str) -> int:
        """More than the largest bonus ``action`` can carry into turn ``t``: the +1 row
        stops being reachable once the bonus lifts every 2d6 total past it (with the turn
        modifier of any earlier turn: it only grows with the turn)."""
        if action not in T.ACTION_TABLES:
            return 1
        _, mod, with_sm, table, _ = E.action_roll(self.ctx, probe(key, 1), action, E.AFTER_TURN)
        return 1 + max((c + 1 for c in _bonus_grows(table, mod, with_sm, T.TURNS)), default=0)

    def rest_lump(self, key: Case, action: str) -> Lump:
        """Rest (no table): the healing rolls, up to the Encounter phase."""
        return self._compiled(self.rows, (key, action), key, 0, lambda w, c: E.take_action(
            w, self.ctx, c, action, E.AFTER_ACTION[False]))

    def _compiled(self, memo: dict, k, key: Case, t: int, phase, refs: bool = False) -> Lump:
        """``phase(w, case)`` from ``probe(key, t)``, traced and compiled once per ``k`` in
        ``memo``."""
        lump = memo.get(k)
        if lump is None:
            start = probe(key, t)
            lump = memo[k] = compile_expr(self.tracer.trace(phase, start, refs=refs), start,
                                          self.interned)
        return lump

    def action_parts(self, t: int, key: Case, action: str) -> tuple:
        """``engine.action_roll`` of ``action`` at turn ``t`` from ``key`` (symbolic SM/Luck)."""
        return E.action_roll(self.ctx, probe(key, t), action, E.AFTER_ACTION[False])

    def _row_lumps(self, key: Case, action: str, cleared: Case, k_row, outcomes) -> dict:
        rk = (key, action)
        lumps = self.rows.get(rk)
        if lumps is None:
            lumps = self.rows[rk] = {}
            start = cleared._replace(turn=0)
            for o in outcomes:
                if o != "bonus":
                    expr = self.tracer.trace(lambda w, c, o=o: k_row(w, c, o), start)
                    lumps[o] = compile_expr(expr, start, self.interned)
        return lumps

    def _after_action(self, t: int):
        return lambda target: self.w(t, target.key, False, (target.flags,))[0]

    def _q(self, t: int, key: Case, action: str, n_bonus: int):
        if action not in T.ACTION_TABLES:  # Rest: the healing rolls, then the Encounter phase
            return evaluate(self.rest_lump(key, action), self._after_action(t))
        cleared, mod, with_sm, table, k_row = self.action_parts(t, key, action)
        outcomes = outcomes_of(table)
        lumps = self._row_lumps(key, action, cleared, k_row, outcomes)
        if "bonus" not in outcomes:
            n_bonus = 1
        probs = _bonus_probs(table, mod, with_sm, n_bonus)
        get = self._after_action(t)
        pairs = []
        for j, o in enumerate(outcomes):
            p = probs[:, :, j]
            if not p.any():
                continue
            p = np.repeat(p, L, axis=1) if with_sm else p  # (bonus, S*L or 1)
            if o == "bonus":  # the same mode, with next turn's bonus c + 1
                grows = list(_bonus_grows(table, mod, with_sm, n_bonus))
                vals = np.zeros((n_bonus, SL))
                vals[grows] = self.w(t, key, False, tuple((action, c + 1, False, False)
                                                          for c in grows))
                pairs.append((p, vals))
            else:
                pairs.append((p, evaluate(lumps[o], get)))
        keep = sum(p * v for p, v in pairs)
        again = sum(p * _shift_luck(v) for p, v in pairs)
        best = sum(p * np.maximum(v, again) for p, v in pairs)
        out = np.where(_CAN_SPEND, best, keep)
        out = np.broadcast_to(out, (n_bonus, SL))
        return out if "bonus" in outcomes else out[0]

    # -- the Encounter phase
    def w(self, t: int, key: Case, waited: bool, labels: tuple) -> np.ndarray:
        """The Encounter phase of turn ``t`` (after Wait if ``waited``) for each flag in
        ``labels`` (the flags the Action left for next turn): (labels, S*L). It is valued
        for every flag an Action at ``key`` can leave (``flag_labels``), after Wait and
        not, from one valuation of each event line (``_encounters``), and sliced."""
        wk = (t, key, waited, labels)
        out = self.W.get(wk)
        if out is None:
            every = self.flag_labels(t, key)
            if (waited and labels == (NO_FLAGS,)) or (not waited and labels != every
                                                      and all(f in every for f in labels)):
                at_once = self._encounters(t, key)[waited]
                rows = [every.index(f) for f in labels]
                contiguous = rows == list(range(rows[0], rows[0] + len(rows)))
                out = at_once[rows[0]:rows[0] + len(rows)] if contiguous else at_once[rows]
            elif not waited and labels == every:
                out = self._encounters(t, key)[False]
            else:  # a flag no Action leaves here (a hand-edited record): on its own
                out = self._encounter(t, key, waited, labels, None)
            self.W[wk] = out
        return out

    def _encounters(self, t: int, key: Case) -> tuple:
        """The Encounter phase for every flag of ``flag_labels`` (not after Wait) and, after
        Wait, for no flag: each event line valued once for both."""
        ek = (t, key, "both")
        both = self.W.get(ek)
        if both is None:
            every = self.flag_labels(t, key)
            get = self._next_turn(t, every)
            lines: dict = {}

            def line_value(line):
                v = lines.get(line)
                if v is None:
                    v = lines[line] = self._line(key, line, get)
                return v

            wait = self._encounter(t, key, True, (NO_FLAGS,), lambda ln: line_value(ln)[:1])
            both = self.W[ek] = (self._encounter(t, key, False, every, line_value, get), wait)
        return both

    def _line(self, key: Case, line: str, get):
        """An event ``line`` read at the start of the Encounter phase (``get``: the next
        turn's values, see ``_next_turn``)."""
        return evaluate(self.line_lump(key, line), get)

    def line_lump(self, key: Case, line: str) -> Lump:
        return self._compiled(self.lines, (key, line), key, 0, lambda w, c: E.line_event(
            w, self.ctx, c, line, E.AFTER_TURN))

    def _next_turn(self, t: int, labels: tuple):
        """``get`` for the end of turn ``t``: next turn's start for each flag label (an event
        that allowed Investigate adds it to every label)."""
        if t >= T.TURNS:
            zero = np.zeros((len(labels), SL))
            return lambda target: zero
        unlocked = tuple(f[:3] + (True,) for f in labels)
        return lambda target: self.v(t + 1, target.key,
                                     unlocked if target.flags[3] else labels)

    def flag_labels(self, t: int, key: Case) -> tuple:
        """Every flag an Action at turn ``t`` from ``key`` can leave for next turn: none,
        Investigate allowed, trapped, and each bonus a +1 row can grow to."""
        fk = (t, key)
        out = self._labels.get(fk)
        if out is None:
            out = [NO_FLAGS, UNLOCKED, TRAPPED]
            start = probe(key, t)
            for a in T.ACTION_TABLES:
                if a not in self.legal(key) and a not in self.legal(with_flags(key, UNLOCKED)):
                    continue
                _, mod, with_sm, table, _ = E.action_roll(self.ctx, start, a, E.AFTER_TURN)
                out += [(a, c + 1, False, False) for c in _bonus_grows(table, mod, with_sm, t)]
            out = self._labels[fk] = tuple(out)
        return out

    def _encounter(self, t: int, key: Case, waited: bool, labels: tuple, refs, get=None):
        """The Encounter phase for ``labels``; ``refs(line)``: each event line's values
        (None: valued here for ``labels``); ``get``: see ``_next_turn``."""
        self._encounter_calls += 1
        lump = self.enc_lump(key, t, waited)
        get = get or self._next_turn(t, labels)
        if refs is None:
            refs = lambda line: self._line(key, line, get)  # noqa: E731
        value = evaluate(lump, get, refs=refs)
        return np.ascontiguousarray(np.broadcast_to(value, (len(labels), SL)))

    def enc_lump(self, key: Case, t: int, waited: bool) -> Lump:
        """The Encounter phase of turn ``t``'s band from ``key`` (event lines as ``Ref``)."""
        return self._compiled(self.enc, (key, T.band_for(t), waited), key, t,
                              lambda w, c: E.encounter(w, self.ctx, c, waited, E.AFTER_TURN),
                              refs=True)

    # -- answers for a concrete case
    def prepare(self, case: Case, encounter: bool = False, whole: bool = True) -> None:
        """Make sure the memo has ``case`` (at the start of its turn, or after its Action
        if ``encounter``): else evaluate everything reachable from it a turn at a time
        (``sweep``). ``whole``: keep every later turn's values too (a bot playing the
        case on reads them); else only this turn's and the next (enough for ``advise``
        and ``reroll_advice``); a later ``whole`` request sweeps such a root again."""
        if case.over or not self.batched:
            return
        from deduce.models.detective_story.sweep import sweep

        key = mode_key(case)
        if encounter:
            roots = ([], [key], case.turn)
            hit = (case.turn, key, "both") in self.W
        else:
            roots = ([(key, flags_of(case))], [], case.turn)
            hit = (case.turn, self._v_key(with_flags(key, flags_of(case)))) in self.V
        if whole and self._partial and (roots in self._partial or not hit):
            for partial in self._partial:  # everything reachable from them, kept
                sweep(self, *partial)
            self._partial.clear()
            return self.prepare(case, encounter, whole)
        if not hit:
            sweep(self, *roots, keep=None if whole else range(case.turn, case.turn + 2))
            if not whole:
                self._partial.append(roots)

    def value(self, case: Case, whole: bool = True) -> float:
        """P(win) at the start of ``case``'s turn (``whole``: see ``prepare``)."""
        if case.over:
            return self.terminal(case)
        self.prepare(case, whole=whole)
        return at(self.v1(case.turn, mode_key(case), flags_of(case)), case.sm, case.luck)

    def q_values(self, case: Case, whole: bool = True) -> dict[str, float]:
        """P(win) of each legal Action at the start of a turn (legal order)."""
        self.prepare(case, whole=whole)
        key = mode_key(case)
        mode = with_flags(key, flags_of(case))
        return {a: at(self.qa(case.turn, key, a, mode), case.sm, case.luck)
                for a in E.legal_actions(self.ctx, case)}

    def after_action(self, case: Case, waited: bool, whole: bool = True) -> float:
        if case.over:
            return self.terminal(case)
        self.prepare(case, encounter=True, whole=whole)
        return float(self.world.finish(E.AFTER_ACTION[waited], case))

    def at(self, case: Case, phase: str = "action", waited: bool = False) -> float:
        """P(win) from a record's position."""
        return self.value(case) if phase == "action" else self.after_action(case, waited)

    @property
    def states(self) -> int:
        """Memoised values (each over every SM and Luck; W over every flag label)."""
        return len(self.V) + len(self.W) + len(self.Q)


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
    solver.prepare(case, whole=False)
    w = solver.world
    start, mod, with_sm, table, k_row = E.action_roll(ctx, case, action, E.AFTER_ACTION[False])
    mod += case.sm if with_sm else 0
    outcome = T.row_for(table, roll + mod).outcome
    keep = float(k_row(w, start, outcome))
    again = float(w.reroll_value(start, mod, table, k_row)) if start.luck > 0 else None
    return Reroll(action, roll, roll + mod, outcome, keep, again)
