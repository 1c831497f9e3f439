"""The DP evaluated a whole turn at a time: every reachable mode's values in a few large
numpy operations instead of one small evaluation per (turn, mode).

``sweep(solver, roots, t0)`` fills the solver's memo (``V``, ``Q``, ``W``) for every (turn,
mode) reachable from the roots, with the same values the recursion of ``advice.Solver``
computes (the tests compare the two); anything it does not cover (a flag no Action leaves,
a hand-edited record) is still computed by that recursion on demand.

Two passes:

- **forward** (turn ``t0`` to 12): which start-of-turn rows (mode, flags), Actions and
  Encounter phases each turn needs, laid out as rows of per-turn tables; each compiled
  ``Lump`` (``advice.compile_expr``) becomes an *instance* of a ``Batch``: its rows, the
  rows its targets read in the table it reads from, and its decision nodes;
- **backward** (turn 12 to ``t0``): per turn, the Encounter ``Batch`` from next turn's start
  table, the Action rows' ``Batch`` from the Encounter table, the Luck re-roll choice of
  every Action and carried bonus at once, and the start table as the best legal Action.

A ``Batch`` is evaluated in one gather over all its instances' leaves (``_linear``), then
level by level: option 3's choices (``np.maximum.reduceat``), fights (one ``combat.solve``
per setup and level, over every instance's rows), and each node's weighted value added to
its parent.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from deduce.models.detective_story import advice as A
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import tables as T

SL, S, L = A.SL, A.S, A.L
_CHUNK = 1 << 18  # elements gathered at once (2 MB of float64)
_IDENTITY = A._move_id(A.IDENT, A.IDENT)


class RowIndex:
    """Row ids of a per-turn table: ``row(name)`` registers a name on first use."""

    def __init__(self):
        self.ids: dict = {}

    def row(self, name) -> int:
        i = self.ids.get(name)
        if i is None:
            i = self.ids[name] = len(self.ids)
        return i

    def __len__(self) -> int:
        return len(self.ids)


class NextTurn:
    """How an Encounter-phase instance reads its targets: next turn's start row of the
    target mode for each flag label (an event that allowed Investigate adds it to every
    label: ``advice.Solver._next_turn``)."""

    def __init__(self, labels: tuple, table: RowIndex | None):
        self.key = labels
        self.X = len(labels)
        self.labels = labels
        self.unlocked = tuple(f[:3] + (True,) for f in labels)
        self.table = table  # None after turn 12: every target reads the zero row
        self._rows: dict = {}

    def rows(self, target) -> np.ndarray:
        r = self._rows.get(target)
        if r is None:
            if self.table is None:
                r = np.zeros(self.X, dtype=np.intp)
            else:
                labels = self.unlocked if target.flags[3] else self.labels
                r = np.array([self.table.row((target.key, f)) for f in labels], dtype=np.intp)
            self._rows[target] = r
        return r


class AfterAction:
    """How an Action row's instance reads its targets: this turn's Encounter phase row of
    the target mode for the flags the Action left (``wrow(key, flags)``)."""

    X = 1
    key = "after"

    def __init__(self, wrow):
        self.wrow = wrow
        self._rows: dict = {}

    def rows(self, target) -> np.ndarray:
        r = self._rows.get(target)
        if r is None:
            r = self._rows[target] = np.array([self.wrow(target.key, target.flags)], np.intp)
        return r


class Buffers:
    """Work arrays kept between turns and sweeps: a new large array costs a page fault per
    4 KB page on first touch, which on some virtual machines costs more than the work."""

    def __init__(self):
        self.arrays: dict = {}

    def get(self, name: str, rows: int) -> np.ndarray:
        """A (rows, SL) view of the buffer ``name`` (contents undefined)."""
        a = self.arrays.get(name)
        if a is None or len(a) < rows:
            a = self.arrays[name] = np.empty((max(rows, int(1.5 * len(a) if a is not None
                                                            else rows)), SL))
        return a[:rows]


BUFFERS = Buffers()


class Shared:
    """Per-lump arrays shared by every ``Batch`` of a sweep (lumps live as long as it)."""

    def __init__(self):
        self.lumps: dict = {}  # id(lump) -> (target ids, moves, scalar weights, vector rows)
        self.gid: dict = {}  # Target -> id
        self.targets: list = []  # id -> Target
        self.wlist: list = [np.ones(SL)]  # vector weights (row 0 unused)


class Batch:
    """Many ``Lump`` instances evaluated together against one source table.

    ``add(lump, ctx, refs)`` lays out ``ctx.X`` rows for the lump read through ``ctx``
    (equal (lump, ctx) pairs share rows) and returns the first row; ``refs(line)`` gives
    the lump of a ``Ref`` node. ``run(src)`` returns every row's values."""

    def __init__(self, shared: "Shared"):
        self._lumps, self._gid, self._targets, self._wlist = (
            shared.lumps, shared.gid, shared.targets, shared.wlist)
        self.index: dict = {}
        self.n = 0
        self.insts: list = []  # (off, X, lump, ctx)
        self.levels: dict = {}  # row offset of an instance or node -> its level
        self.maxes: dict = {}  # level -> [(off, X, option offsets)]
        self.fights: dict = {}  # (level, setup) -> [(off, X, {terminal: offset})]
        self.adds: dict = {}  # parent level -> [(parent off, X, source off, weight)]

    def _alloc(self, x: int) -> int:
        off = self.n
        self.n += x
        return off

    def add(self, lump, ctx, refs=None) -> int:
        k = (id(lump), ctx.key)
        hit = self.index.get(k)
        if hit is not None:
            return hit
        off = self.index[k] = self._alloc(ctx.X)
        self.insts.append((off, ctx.X, lump, ctx))
        level = 0
        for w, node in lump.nodes:
            if type(node) is A.Ref:
                src = self.add(refs(node.line), ctx, refs)
            else:
                src = self._node(node, ctx, refs)
            level = max(level, self.levels[src] + 1)
            self.adds.setdefault(off, []).append((ctx.X, src, w))
        self.levels[off] = level
        if lump.nodes:
            self.adds.setdefault(("level", level), []).append(off)
        return off

    def _node(self, node, ctx, refs) -> int:
        k = (id(node), ctx.key)
        hit = self.index.get(k)
        if hit is not None:
            return hit
        if type(node) is A.MaxNode:
            subs = [self.add(o, ctx, refs) for o in node.options]
            off = self.index[k] = self._alloc(ctx.X)
            level = max(self.levels[s] for s in subs)
            self.maxes.setdefault(level, []).append((off, ctx.X, subs))
        else:
            subs = {t: self.add(sub, ctx, refs) for t, sub in node.terms}
            off = self.index[k] = self._alloc(ctx.X)
            level = max(self.levels[s] for s in subs.values())
            self.fights.setdefault((level, node.setup), []).append((off, ctx.X, subs))
        self.levels[off] = level
        return off

    # -- evaluation
    def run(self, src: np.ndarray, name: str) -> np.ndarray:
        """Every row's values, in the reused buffer ``name`` (valid until its next use)."""
        out = BUFFERS.get(name, self.n)
        out[:] = 0.0
        self._linear(src, out)
        top = max(self.levels.values(), default=0)
        for level in range(top + 1):
            if level:
                self._add_nodes(out, self.adds.get(("level", level), ()))
            if level in self.maxes:
                self._max(out, self.maxes[level])
            for (lv, setup), items in self.fights.items():
                if lv == level:
                    self._fight(out, setup, items)
        return out

    def _linear(self, src: np.ndarray, out: np.ndarray) -> None:
        """Every instance's constant and leaves: ``const + sum(wts * src at the moves)``.

        A leaf is a *term* (out row, source row, move, weight) per flag label. Source rows
        read after a move other than none are gathered once per (move, row) (``moved``);
        then, for k = 0, 1, ..., every instance's k-th leaf is added to its rows in one
        operation (the rows of one such pass are distinct)."""
        self._constants(out)
        parts = [self._terms(ctx, items) for ctx, items in self._by_ctx().values()]
        if not parts:
            return
        rows, srcs, moves, wts, vec, rank = (np.concatenate(a) for a in zip(*parts))
        # the source rows each move reads, gathered once per (move, row)
        uniq, tab = np.unique(moves * len(src) + srcs, return_inverse=True)
        umove, urow = np.divmod(uniq, len(src))
        starts = np.flatnonzero(np.r_[True, umove[1:] != umove[:-1]])
        table = BUFFERS.get("moved", len(uniq))
        for a, b in zip(starts, np.r_[starts[1:], len(uniq)]):
            m = umove[a]
            if m == _IDENTITY:
                src.take(urow[a:b], axis=0, out=table[a:b])
            else:
                block = BUFFERS.get("block", b - a)
                src.take(urow[a:b], axis=0, out=block)
                block.take(A._MOVES[m], axis=1, out=table[a:b])
        order = np.lexsort((rows, rank))  # by rank, then by row: the scatter runs forward
        bounds = np.searchsorted(rank[order], np.arange(rank.max() + 2))
        wtab = self._wvec
        step = max(1, _CHUNK // SL)
        for k in range(len(bounds) - 1):
            for a in range(bounds[k], bounds[k + 1], step):
                sel = order[a:min(a + step, bounds[k + 1])]
                vals = BUFFERS.get("vals", len(sel))
                table.take(tab[sel], axis=0, out=vals)
                vals *= wts[sel, None]
                v = vec[sel]
                if v.any():
                    vals[v > 0] *= wtab[v[v > 0]]
                out[rows[sel]] += vals

    def _constants(self, out: np.ndarray) -> None:
        """Each instance's constant (the leaves that end the case) on its rows."""
        scal_rows, scal, vec_rows, vec = [], [], [], []
        for off, x, lump, _ in self.insts:
            c = lump.const
            if isinstance(c, np.ndarray):
                vec_rows.append(np.arange(off, off + x))
                vec.append(np.broadcast_to(c, (x, SL)))
            elif c:
                scal_rows.append(np.arange(off, off + x))
                scal.append(np.full(x, c))
        if scal:
            out[np.concatenate(scal_rows)] += np.concatenate(scal)[:, None]
        if vec:
            out[np.concatenate(vec_rows)] += np.concatenate(vec)

    def _by_ctx(self) -> dict:
        groups: dict = {}
        for off, x, lump, ctx in self.insts:
            if lump.targets:
                groups.setdefault(id(ctx), (ctx, []))[1].append((off, lump))
        return groups

    def _terms(self, ctx, items) -> tuple:
        """The terms of ``items`` ((offset, lump), ...) read through ``ctx``."""
        gids, offs, moves, wts, vec, rank = [], [], [], [], [], []
        for off, lump in items:
            g, m, w, v = self._static(lump)
            gids.append(g)
            offs.append(np.full(len(g), off, dtype=np.intp))
            moves.append(m)
            wts.append(w)
            vec.append(v)
            rank.append(np.arange(len(g)))
        gids = np.concatenate(gids)
        used, inv = np.unique(gids, return_inverse=True)
        table = np.array([ctx.rows(self._targets[g]) for g in used], dtype=np.intp)  # (u, X)
        x = ctx.X
        rows = (np.concatenate(offs)[:, None] + np.arange(x)).ravel()
        srcs = table[inv].ravel()
        rep = lambda a: np.repeat(np.concatenate(a), x)  # noqa: E731
        return rows, srcs, rep(moves), rep(wts), rep(vec), rep(rank)

    def _static(self, lump) -> tuple:
        """Per lump: target ids, moves, scalar weights, vector weight rows (0: none)."""
        hit = self._lumps.get(id(lump))
        if hit is None:
            n = len(lump.targets)
            g = np.array([self._gid.setdefault(t, len(self._gid)) for t in lump.targets],
                         dtype=np.intp)
            if len(self._targets) < len(self._gid):
                self._targets.extend(list(self._gid)[len(self._targets):])
            if lump.wts.shape[1] == 1:
                w, v = lump.wts[:, 0], np.zeros(n, dtype=np.intp)
            else:
                w, v = np.ones(n), np.arange(len(self._wlist), len(self._wlist) + n)
                self._wlist.extend(lump.wts)
            hit = self._lumps[id(lump)] = (g, lump.moves, w, v)
        return hit

    @property
    def _wvec(self) -> np.ndarray:
        return np.array(self._wlist)

    def _add_nodes(self, out: np.ndarray, parents) -> None:
        """Each parent's decision nodes and ``Ref`` lines, weighted, added to its rows."""
        for off in parents:
            for x, src, w in self.adds[off]:
                out[off:off + x] += w * out[src:src + x]

    @staticmethod
    def _max(out: np.ndarray, items) -> None:
        for off, x, subs in items:
            v = out[subs[0]:subs[0] + x]
            for s in subs[1:]:
                v = np.maximum(v, out[s:s + x])
            out[off:off + x] = v

    @staticmethod
    def _fight(out: np.ndarray, setup, items) -> None:
        """One ``combat.solve`` for every instance of a fight with ``setup``."""
        terms = list(items[0][2])
        value = {t: np.concatenate([out[subs[t]:subs[t] + x] for _, x, subs in items])
                 for t in terms}
        solved = C.solve(setup, value)[0]
        i = 0
        for off, x, _ in items:
            out[off:off + x] = solved[i:i + x]
            i += x


class _Action(NamedTuple):
    """An Action with a 2d6 table at one (turn, mode), as ``advice.Solver._q`` values it."""

    mod: int
    with_sm: bool
    table: tuple
    outcomes: tuple
    rows: dict  # outcome -> offset of its instance in the Action batch (not the +1 row)
    n_bonus: int


class _Turn:
    """What one turn needs (the forward pass), laid out as table rows."""

    def __init__(self, t: int, shared: Shared):
        self.t = t
        self.vrows = RowIndex()  # (key, flags) -> row of the start-of-turn table
        self.vcands: dict = {}  # start row -> (v key, [candidate, ...])
        self.need: dict = {}  # (key, action) -> bonus values needed
        self.wkeys: dict = {}  # key -> (every label, offset of their rows, wait row offset)
        self.extra = RowIndex()  # (key, flags) no Action leaves: by the recursion
        self.enc = Batch(shared)  # Encounter phases, read next turn's start table
        self.act = Batch(shared)  # Action rows, read this turn's Encounter table
        self.acts: dict = {}  # (key, action) -> _Action, or offset (Rest)

    def w_row(self, solver, key, flags) -> tuple:
        """Where the Encounter phase of ``key`` after an Action that left ``flags`` is:
        ``("w", key, label index)`` or ``("x", extra row)``."""
        if key not in self.wkeys:
            self.wkeys[key] = None
        every = solver.flag_labels(self.t, key)
        if flags in every:
            return ("w", key, every.index(flags))
        return ("x", self.extra.row((key, flags)))


def _targets(lump, seen: dict) -> tuple:
    """Every target of ``lump`` and of its decision nodes' lumps (not ``Ref`` lines)."""
    out = seen.get(id(lump))
    if out is None:
        acc = list(lump.targets)
        for _, node in lump.nodes:
            if type(node) is A.MaxNode:
                for o in node.options:
                    acc += _targets(o, seen)
            elif type(node) is A.CombatNode:
                for _, sub in node.terms:
                    acc += _targets(sub, seen)
        out = seen[id(lump)] = tuple(dict.fromkeys(acc))
    return out


def sweep(solver, roots_v, roots_w, t0: int) -> None:
    """Fill ``solver``'s memo for everything reachable from start-of-turn rows ``roots_v``
    ((mode key, flags) at turn ``t0``) and Encounter phases ``roots_w`` (mode keys)."""
    turns: list[_Turn] = []
    shared = Shared()
    cur = _Turn(t0, shared)
    for key, f in roots_v:
        cur.vrows.row((key, f))
    for key in roots_w:
        cur.w_row(solver, key, A.NO_FLAGS)
    seen: dict = {}
    for t in range(t0, T.TURNS + 1):
        turns.append(cur)
        nxt = _Turn(t + 1, shared) if t < T.TURNS else None
        _forward(solver, cur, nxt, seen)
        cur = nxt
    nxt_v = np.zeros((1, SL))
    for turn in reversed(turns):
        nxt_v = _backward(solver, turn, nxt_v)


def _forward(solver, turn: _Turn, nxt: _Turn | None, seen: dict) -> None:
    t = turn.t
    # start-of-turn rows: the legal Actions of each
    for (key, f), row in turn.vrows.ids.items():
        vk = solver._v_key(A.with_flags(key, f))
        cands = []
        for a in solver.legal(vk):
            if a in (T.ESCAPE_TRAP, T.WAIT):
                turn.w_row(solver, key, A.NO_FLAGS)
                cands.append(("w", key, a == T.WAIT))
            else:
                carried = vk.bonus if vk.bonus_action == a else 0
                turn.need[(key, a)] = max(turn.need.get((key, a), 1), carried + 1)
                cands.append(("q", key, a, carried))
        turn.vcands[row] = (vk, cands)
    # Actions: their rows read this turn's Encounter phases
    after = AfterAction(None)
    for (key, a), need in turn.need.items():
        if a not in T.ACTION_TABLES:  # Rest
            lump = solver.rest_lump(key, a)
            turn.acts[(key, a)] = turn.act.add(lump, after)
            for tg in _targets(lump, seen):
                turn.w_row(solver, tg.key, tg.flags)
            continue
        cleared, mod, with_sm, table, k_row = solver.action_parts(t, key, a)
        outcomes = A.outcomes_of(table)
        lumps = solver._row_lumps(key, a, cleared, k_row, outcomes)
        n_bonus = 1
        if "bonus" in outcomes:
            n_bonus = max(need, min(t, solver._carried_bound(t, key, a)))
            for c in A._bonus_grows(table, mod, with_sm, n_bonus):
                turn.w_row(solver, key, (a, c + 1, False, False))
        rows = {}
        for o, lump in lumps.items():
            rows[o] = turn.act.add(lump, after)
            for tg in _targets(lump, seen):
                turn.w_row(solver, tg.key, tg.flags)
        turn.acts[(key, a)] = _Action(mod, with_sm, table, outcomes, rows, n_bonus)
    turn.after = after
    # Encounter phases: they read next turn's start rows
    ctxs: dict = {}
    for key in list(turn.wkeys):
        every = solver.flag_labels(t, key)
        for labels in (every, (A.NO_FLAGS,)):
            if labels not in ctxs:
                ctxs[labels] = NextTurn(labels, nxt.vrows if nxt else None)
        refs = lambda line, key=key: solver.line_lump(key, line)  # noqa: E731
        lumps = [solver.enc_lump(key, t, False), solver.enc_lump(key, t, True)]
        off = turn.enc.add(lumps[0], ctxs[every], refs)
        wait = turn.enc.add(lumps[1], ctxs[(A.NO_FLAGS,)], refs)
        turn.wkeys[key] = (every, off, wait)
        for lump in lumps + [refs(n.line) for _, n in lumps[0].nodes + lumps[1].nodes
                             if type(n) is A.Ref]:
            for tg in _targets(lump, seen):
                for ctx in (ctxs[every], ctxs[(A.NO_FLAGS,)]):
                    ctx.rows(tg)  # registers next turn's start rows


def _backward(solver, turn: _Turn, next_v: np.ndarray) -> np.ndarray:
    """Turn ``turn.t``'s tables from next turn's start table; returns this turn's."""
    t = turn.t
    enc = turn.enc.run(next_v, "enc")
    # the Encounter table: each key's flag labels then its row after Wait, then the rows
    # of flags no Action leaves (by the recursion)
    place, idx = {}, []
    for key, (every, off, wait) in turn.wkeys.items():
        place[key] = len(idx)
        idx += list(range(off, off + len(every))) + [wait]
    wtab = np.empty((len(idx) + len(turn.extra), SL))
    enc.take(idx, axis=0, out=wtab[:len(idx)])
    for key, (every, _, _) in turn.wkeys.items():
        p, x = place[key], len(every)
        solver.W[(t, key, "both")] = (wtab[p:p + x], wtab[p + x:p + x + 1])
    for (key, flags), j in turn.extra.ids.items():
        wtab[len(idx) + j] = solver.w(t, key, False, (flags,))[0]

    def w_index(ref) -> int:
        if ref[0] == "w":
            return place[ref[1]] + ref[2]
        return len(idx) + ref[1]

    turn.after.wrow = lambda key, flags: w_index(turn.w_row(solver, key, flags))
    act = turn.act.run(wtab, "act")
    _q_values(solver, turn, wtab, act, w_index)
    wait_row = {key: place[key] + len(every) for key, (every, _, _) in turn.wkeys.items()}
    return _v_table(solver, turn, wtab, place, wait_row)


def _q_values(solver, turn: _Turn, wtab: np.ndarray, act: np.ndarray, w_index) -> None:
    """Every Action's value for each carried bonus, with the Luck re-roll choice."""
    t = turn.t
    Q = solver.Q
    for (key, a), spec in turn.acts.items():
        if type(spec) is int:  # Rest
            Q[(t, key, a)] = act[spec].copy()
            continue
        probs = A._bonus_probs(spec.table, spec.mod, spec.with_sm, spec.n_bonus)
        pairs = []
        for j, o in enumerate(spec.outcomes):
            p = probs[:, :, j]
            if not p.any():
                continue
            p = np.repeat(p, L, axis=1) if spec.with_sm else p
            if o == "bonus":
                grows = list(A._bonus_grows(spec.table, spec.mod, spec.with_sm, spec.n_bonus))
                vals = np.zeros((spec.n_bonus, SL))
                vals[grows] = wtab[[w_index(turn.w_row(solver, key, (a, c + 1, False, False)))
                                    for c in grows]]
                pairs.append((p, vals))
            else:
                pairs.append((p, act[spec.rows[o]]))
        keep = sum(p * v for p, v in pairs)
        again = sum(p * A._shift_luck(v) for p, v in pairs)
        best = sum(p * np.maximum(v, again) for p, v in pairs)
        out = np.where(A._CAN_SPEND, best, keep)
        out = np.broadcast_to(out, (spec.n_bonus, SL))
        Q[(t, key, a)] = out if "bonus" in spec.outcomes else out[0]


def _v_table(solver, turn: _Turn, wtab: np.ndarray, place: dict, wait_row: dict) -> np.ndarray:
    """The start of the turn: the best legal Action of each row."""
    t = turn.t
    Q = solver.Q
    V = np.empty((len(turn.vrows), SL))
    for row, (vk, cands) in turn.vcands.items():
        best = None
        for c in cands:
            if c[0] == "w":
                v = wtab[wait_row[c[1]] if c[2] else place[c[1]]]
            else:
                q = Q[(t, c[1], c[2])]
                v = q[c[3]] if q.ndim == 2 else q
            best = v if best is None else np.maximum(best, v)
        V[row] = best
        solver.V[(t, vk)] = V[row]
    return V
