"""The DP evaluated a whole turn at a time: every reachable mode's values in a few large
numpy operations instead of one small evaluation per (turn, mode).

``sweep(solver, roots_v, roots_w, t0, keep)`` fills the solver's memo (``V``, ``Q``, ``W``)
for every (turn, mode) reachable from the roots, with the same values the recursion of
``advice.Solver`` computes (the tests compare the two); anything it does not cover (a flag
no Action leaves, a hand-edited record) is still computed by that recursion on demand.

Two passes:

- **forward** (turn ``t0`` to 12): which start-of-turn rows (mode, flags), Actions and
  Encounter phases each turn needs, laid out as rows of per-turn tables; each compiled
  ``Lump`` (``advice.compile_expr``) becomes an *instance* of a ``Batch``: its rows, the
  rows its targets read in the table it reads from, and its decision nodes;
- **backward** (turn 12 to ``t0``): per turn, the Encounter ``Batch`` from next turn's start
  table, the Action rows' ``Batch`` from the Encounter table, the Luck re-roll choice of
  every Action and carried bonus at once, and the start table as the best legal Action.

A ``Batch`` is evaluated in one pass over all its instances' leaves (``_linear``), then
level by level (a decision node after the instances it decides between): each parent's
weighted node values added to its rows, option 3's choices (elementwise max), fights (one
``combat.solve_columns`` per setup and level over every instance's rows).

Large arrays are reused between turns and sweeps (``BUFFERS``) and only the turns a
caller asks to keep go to the memo: on the virtual machines this was measured on, a
first touch of new memory costs 10-30 ns per value, as much as the arithmetic.
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
_FIGHT_COLUMNS = 1 << 15  # situations per combat.solve_columns call
_BATCH_ROWS = 1 << 14  # an Encounter batch takes modes until it has this many rows


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
        self.key = id(self)  # one object per label tuple and turn: hashing it is cheap
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

    def __init__(self):
        self.wrow = None  # set once the Encounter table is laid out (``_backward``)
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


def gather(dst: np.ndarray, dst_rows: np.ndarray, src: np.ndarray, src_rows: np.ndarray) -> None:
    """``dst[dst_rows] = src[src_rows]`` through a reused buffer (no large temporary)."""
    step = max(1, _CHUNK // SL)
    for a in range(0, len(dst_rows), step):
        buf = BUFFERS.get("gather", min(step, len(dst_rows) - a))
        src.take(src_rows[a:a + step], axis=0, out=buf)
        dst[dst_rows[a:a + step]] = buf


class Shared:
    """Per-lump arrays shared by every ``Batch`` of a sweep (lumps live as long as it)."""

    def __init__(self):
        self.lumps: dict = {}  # id(lump) -> (target ids, moves, scalar weights, vector rows)
        self.gid: dict = {}  # Target -> id
        self.targets: list = []  # id -> Target
        self.wlist: list = [np.ones(SL)]  # vector weights (row 0 unused)
        self.probs: dict = {}  # (id(probabilities), bonus, outcome) -> row of ``plist``
        self.plist: list = [np.zeros(SL)]  # outcome probabilities over (SM, Luck)
        self._ptab = self._wtab = None

    def static(self, lump) -> tuple:
        """Per lump: target ids, moves, scalar weights, vector weight rows (0: none)."""
        hit = self.lumps.get(id(lump))
        if hit is None:
            n = len(lump.targets)
            g = np.array([self.gid.setdefault(t, len(self.gid)) for t in lump.targets],
                         dtype=np.intp)
            if len(self.targets) < len(self.gid):
                self.targets.extend(list(self.gid)[len(self.targets):])
            if lump.wts.shape[1] == 1:
                w, v = lump.wts[:, 0], np.zeros(n, dtype=np.intp)
            else:
                w, v = np.ones(n), np.arange(len(self.wlist), len(self.wlist) + n)
                self.wlist.extend(lump.wts)
            hit = self.lumps[id(lump)] = (g, lump.moves, w, v)
        return hit

    def weight_table(self) -> np.ndarray:
        if self._wtab is None or len(self._wtab) < len(self.wlist):
            self._wtab = np.array(self.wlist)
        return self._wtab

    def prob_row(self, probs: np.ndarray, c: int, j: int, with_sm: bool) -> int:
        """Row of P(outcome ``j`` | carried bonus ``c``) (``advice._bonus_probs``, kept
        alive by its cache); row 0 is all zeros."""
        k = (id(probs), c, j)
        i = self.probs.get(k)
        if i is None:
            p = probs[c, :, j]
            if not p.any():
                i = 0
            else:
                i = len(self.plist)
                self.plist.append(np.repeat(p, L) if with_sm else np.full(SL, p[0]))
            self.probs[k] = i
        return i

    def prob_table(self) -> np.ndarray:
        if self._ptab is None or len(self._ptab) < len(self.plist):
            self._ptab = np.array(self.plist)
        return self._ptab


class Batch:
    """Many ``Lump`` instances evaluated together against one source table.

    ``add(lump, ctx, refs)`` lays out ``ctx.X`` rows for the lump read through ``ctx``
    (equal (lump, ctx) pairs share rows) and returns the first row; ``refs(line)`` gives
    the lump of a ``Ref`` node. ``run(src)`` returns every row's values."""

    def __init__(self, shared: "Shared"):
        self.shared = shared
        self.index: dict = {}  # (id(lump or node), ctx key) -> first row
        self.n = 0  # rows laid out
        self.insts: list = []  # (first row, X, lump, ctx)
        self.levels: dict = {}  # first row of an instance or node -> its level
        self.maxes: dict = {}  # level -> [(first row, X, options' first rows)]
        self.fights: dict = {}  # (level, setup) -> [(first row, X, {terminal: first row})]
        self.parents: dict = {}  # level -> first rows of the instances with nodes
        self.nodes: dict = {}  # instance's first row -> [(X, node's first row, weight)]

    def _alloc(self, x: int) -> int:
        off = self.n
        self.n += x
        return off

    def add(self, lump, ctx, refs=None, ref_ctx=None) -> int:
        """Lay out ``lump`` read through ``ctx``; its ``Ref`` lines are read through
        ``ref_ctx`` (default ``ctx``), whose first label must be ``ctx``'s only one (the
        phase after Wait reads the lines valued for every label, at no flag)."""
        k = (id(lump), ctx.key)
        hit = self.index.get(k)
        if hit is not None:
            return hit
        off = self.index[k] = self._alloc(ctx.X)
        self.insts.append((off, ctx.X, lump, ctx))
        level = 0
        for w, node in lump.nodes:
            if type(node) is A.Ref:
                src = self.add(refs(node.line), ref_ctx or ctx, refs)
            else:
                src = self._node(node, ctx, refs)
            level = max(level, self.levels[src] + 1)
            self.nodes.setdefault(off, []).append((ctx.X, src, w))
        self.levels[off] = level
        if lump.nodes:
            self.parents.setdefault(level, []).append(off)
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
                self._add_nodes(out, self.parents.get(level, ()))
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
        wtab = self.shared.weight_table()
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
            g, m, w, v = self.shared.static(lump)
            gids.append(g)
            offs.append(np.full(len(g), off, dtype=np.intp))
            moves.append(m)
            wts.append(w)
            vec.append(v)
            rank.append(np.arange(len(g)))
        gids = np.concatenate(gids)
        used, inv = np.unique(gids, return_inverse=True)
        targets = self.shared.targets
        table = np.array([ctx.rows(targets[g]) for g in used], dtype=np.intp)  # (u, X)
        x = ctx.X
        rows = (np.concatenate(offs)[:, None] + np.arange(x)).ravel()
        srcs = table[inv].ravel()
        rep = lambda a: np.repeat(np.concatenate(a), x)  # noqa: E731
        return rows, srcs, rep(moves), rep(wts), rep(vec), rep(rank)


    def _add_nodes(self, out: np.ndarray, parents) -> None:
        """Each parent's decision nodes and ``Ref`` lines, weighted, added to its rows."""
        for off in parents:
            for x, src, w in self.nodes[off]:
                out[off:off + x] += w * out[src:src + x]

    @staticmethod
    def _max(out: np.ndarray, items) -> None:
        """Option 3's choices: the elementwise best of the options' rows."""
        for off, x, subs in items:
            v = out[subs[0]:subs[0] + x]
            for s in subs[1:]:
                v = np.maximum(v, out[s:s + x])
            out[off:off + x] = v

    @staticmethod
    def _fight(out: np.ndarray, setup, items) -> None:
        """Every instance of a fight with ``setup``, a few thousand situations (columns) at
        a time (``combat.solve_columns``): large temporaries would cost more to touch."""
        terms = list(items[0][2])
        dst = np.concatenate([np.arange(off, off + x) for off, x, _ in items])
        srcs = [np.concatenate([np.arange(subs[t], subs[t] + x) for _, x, subs in items])
                for t in terms]
        step = max(1, _FIGHT_COLUMNS // SL)
        for a in range(0, len(dst), step):
            b = min(len(dst), a + step)
            vt = BUFFERS.get("fight", len(terms) * (b - a)).reshape(len(terms), (b - a) * SL)
            for i, src in enumerate(srcs):
                out.take(src[a:b], axis=0, out=vt[i].reshape(b - a, SL))
            out[dst[a:b]] = C.solve_columns(setup, terms, vt, np).reshape(b - a, SL)


class _Action(NamedTuple):
    """An Action with a 2d6 table at one (turn, mode), as ``advice.Solver._q`` values it."""

    mod: int
    with_sm: bool
    table: tuple
    outcomes: tuple
    rows: dict  # outcome -> offset of its instance in the Action batch (not the +1 row)
    n_bonus: int
    grown: tuple  # ((carried bonus, ``_Turn.w_row`` of next turn's bonus), ...): the +1 row


class _Turn:
    """What one turn needs (the forward pass), laid out as table rows."""

    def __init__(self, t: int, shared: Shared):
        self.t = t
        self.vrows = RowIndex()  # (key, flags) -> row of the start-of-turn table
        self.vspec: dict = {}  # start row -> (v key, others row, bonus Action or None, key)
        self.others = RowIndex()  # (key, legal Actions, Action left out) -> row
        self.ocands: list = []  # others row -> [candidate, ...]
        self.need: dict = {}  # (key, action) -> bonus values needed
        self.wkeys: dict = {}  # key -> (every label, batch, offset of their rows, wait row)
        self.extra = RowIndex()  # (key, flags) no Action leaves: by the recursion
        self.shared = shared
        self.encs = [Batch(shared)]  # Encounter phases, read next turn's start table
        self.act = Batch(shared)  # Action rows, read this turn's Encounter table
        self.after = AfterAction()  # how they read it (its rows known after the forward pass)
        self.acts: dict = {}  # (key, action) -> _Action, or offset (Rest)
        self.qrow: dict = {}  # (key, action) -> first row in the Action values' table
        self.keep = True  # whether this turn's values go to the solver's memo

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


def sweep(solver, roots_v, roots_w, t0: int, keep=None) -> None:
    """Fill ``solver``'s memo for everything reachable from start-of-turn rows ``roots_v``
    ((mode key, flags) at turn ``t0``) and Encounter phases ``roots_w`` (mode keys), for
    the turns in ``keep`` (None: every turn). Turns not kept are computed in reused
    buffers: the memo of a whole case is hundreds of MB, and new memory is slow to touch
    on some virtual machines."""
    turns: list[_Turn] = []
    shared = Shared()
    cur = _Turn(t0, shared)
    for key, f in roots_v:
        cur.vrows.row((key, f))
    for key in roots_w:
        cur.w_row(solver, key, A.NO_FLAGS)
    seen: dict = {}
    report = solver.progress or (lambda message: None)
    for t in range(t0, T.TURNS + 1):
        report(f"laying out turn {t} of {T.TURNS}")
        turns.append(cur)
        nxt = _Turn(t + 1, shared) if t < T.TURNS else None
        _forward(solver, cur, nxt, seen)
        cur = nxt
    nxt_v = np.zeros((1, SL))
    for turn in reversed(turns):
        report(f"solving turn {turn.t} (from turn {T.TURNS} back to turn {t0})")
        turn.keep = keep is None or turn.t in keep
        nxt_v = _backward(solver, turn, nxt_v)


def _forward(solver, turn: _Turn, nxt: _Turn | None, seen: dict) -> None:
    """Lay out turn ``turn.t``: its start rows' Actions, the Actions' rows (they register
    the Encounter phases they lead to) and the Encounter phases (they register the next
    turn's start rows in ``nxt``)."""
    t = turn.t
    # start-of-turn rows: the best of the carried bonus's Action and the best of the
    # other legal Actions (``others``: shared by every bonus value and flag alike)
    for (key, f), row in turn.vrows.ids.items():
        vk, legal, bonus = _start(solver, key, f)
        if bonus is not None:
            turn.need[(key, bonus)] = max(turn.need.get((key, bonus), 1), vk.bonus + 1)
        turn.vspec[row] = (vk, turn.others.row((key, legal, bonus)), bonus, key)
    for (key, legal, bonus), row in turn.others.ids.items():
        cands = []
        for a in legal:
            if a == bonus:
                continue
            if a in (T.ESCAPE_TRAP, T.WAIT):
                turn.w_row(solver, key, A.NO_FLAGS)
                cands.append(("w", key, a == T.WAIT))
            else:
                turn.need.setdefault((key, a), 1)
                cands.append(("q", key, a))
        turn.ocands.append(cands)
    # Actions: their rows read this turn's Encounter phases
    after = turn.after
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
        n_bonus, grown = 1, ()
        if "bonus" in outcomes:
            n_bonus = max(need, min(t, solver._carried_bound(t, key, a)))
            grown = tuple((c, turn.w_row(solver, key, (a, c + 1, False, False)))
                          for c in A._bonus_grows(table, mod, with_sm, n_bonus))
        rows = {}
        for o, lump in lumps.items():
            rows[o] = turn.act.add(lump, after)
            for tg in _targets(lump, seen):
                turn.w_row(solver, tg.key, tg.flags)
        turn.acts[(key, a)] = _Action(mod, with_sm, table, outcomes, rows, n_bonus, grown)
    # Encounter phases: they read next turn's start rows
    ctxs: dict = {}
    for key in list(turn.wkeys):
        every = solver.flag_labels(t, key)
        for labels in (every, (A.NO_FLAGS,)):
            if labels not in ctxs:
                ctxs[labels] = NextTurn(labels, nxt.vrows if nxt else None)
        refs = lambda line, key=key: solver.line_lump(key, line)  # noqa: E731
        lumps = [solver.enc_lump(key, t, False), solver.enc_lump(key, t, True)]
        if turn.encs[-1].n >= _BATCH_ROWS:
            turn.encs.append(Batch(turn.shared))
        enc = turn.encs[-1]
        off = enc.add(lumps[0], ctxs[every], refs)
        wait = enc.add(lumps[1], ctxs[(A.NO_FLAGS,)], refs, ref_ctx=ctxs[every])
        turn.wkeys[key] = (every, len(turn.encs) - 1, off, wait)
        for lump in lumps + [refs(n.line) for _, n in lumps[0].nodes + lumps[1].nodes
                             if type(n) is A.Ref]:
            for tg in _targets(lump, seen):
                ctxs[every].rows(tg)  # next turn's start rows (those after Wait among them)


def _backward(solver, turn: _Turn, next_v: np.ndarray) -> np.ndarray:
    """Turn ``turn.t``'s tables from next turn's start table; returns this turn's."""
    t = turn.t
    # the Encounter table: each key's flag labels then its row after Wait, then the rows
    # of flags no Action leaves (by the recursion); a batch of modes at a time
    place: dict = {}
    n = 0
    for key, (every, _, _, _) in turn.wkeys.items():
        place[key] = n
        n += len(every) + 1
    wtab = _table(turn, "wtab", n + len(turn.extra))
    for b, batch in enumerate(turn.encs):
        enc = batch.run(next_v, "enc")
        dst, src = [], []
        for key, (every, kb, off, wait) in turn.wkeys.items():
            if kb == b:
                dst.append(np.arange(place[key], place[key] + len(every) + 1))
                src.append(np.r_[off:off + len(every), wait])
        if dst:
            gather(wtab, np.concatenate(dst), enc, np.concatenate(src))
    if turn.keep:
        for key, (every, _, _, _) in turn.wkeys.items():
            p, x = place[key], len(every)
            solver.W[(t, key, "both")] = (wtab[p:p + x], wtab[p + x:p + x + 1])
    for (key, flags), j in turn.extra.ids.items():
        wtab[n + j] = solver.w(t, key, False, (flags,))[0]

    def w_index(ref) -> int:
        if ref[0] == "w":
            return place[ref[1]] + ref[2]
        return n + ref[1]

    turn.after.wrow = lambda key, flags: w_index(turn.w_row(solver, key, flags))
    act = turn.act.run(wtab, "act")
    qtab = _q_values(solver, turn, wtab, act, w_index)
    wait_row = {key: place[key] + len(every) for key, (every, *_) in turn.wkeys.items()}
    return _v_table(solver, turn, wtab, qtab, place, wait_row)


def _table(turn: _Turn, name: str, rows: int) -> np.ndarray:
    """A new (rows, SL) array for a turn whose memo is kept, else a reused buffer (start
    tables alternate between two: one turn's is read while the one before is made)."""
    if turn.keep:
        return np.empty((rows, SL))
    return BUFFERS.get(name + str(turn.t % 2) if name == "v" else name, rows)


def _q_values(solver, turn: _Turn, wtab: np.ndarray, act: np.ndarray, w_index) -> np.ndarray:
    """Every Action's value for each carried bonus, with the Luck re-roll choice (as
    ``advice.Solver._q``): one row per (mode, Action, carried bonus), in ``turn.qrow``
    order, then Rest's rows. Fills the solver's ``Q``."""
    t = turn.t
    shared = turn.shared
    pid, from_act, from_w = [], [], []  # per row: probability rows; value sources
    rests = []
    for (key, a), spec in turn.acts.items():
        if type(spec) is int:  # Rest: no table
            rests.append(((key, a), spec))
            continue
        q0 = turn.qrow[(key, a)] = len(pid)
        probs = A._bonus_probs(spec.table, spec.mod, spec.with_sm, spec.n_bonus)
        for c in range(spec.n_bonus):
            pid.append([shared.prob_row(probs, c, j, spec.with_sm)
                        for j in range(len(spec.outcomes))])
        for j, o in enumerate(spec.outcomes):
            if o != "bonus":
                from_act += [(q0 + c, j, spec.rows[o]) for c in range(spec.n_bonus)]
        if "bonus" in spec.outcomes:
            j = spec.outcomes.index("bonus")
            from_w += [(q0 + c, j, w_index(ref)) for c, ref in spec.grown]
    nq = len(pid)
    out = _table(turn, "qtab", nq + len(rests))
    if nq:
        width = max(map(len, pid))
        pids = np.zeros((nq, width), dtype=np.intp)
        for q, row in enumerate(pid):
            pids[q, :len(row)] = row
        _reroll_choice(shared.prob_table(), pids, _sources(from_act, nq), act,
                       _sources(from_w, nq), wtab, out[:nq])
    for i, (_, off) in enumerate(rests):
        out[nq + i] = act[off]
    for i, ((key, a), _) in enumerate(rests):
        turn.qrow[(key, a)] = nq + i
    if turn.keep:
        Q = solver.Q
        for (key, a), q0 in turn.qrow.items():
            spec = turn.acts[(key, a)]
            Q[(t, key, a)] = (out[q0] if type(spec) is int or "bonus" not in spec.outcomes
                              else out[q0:q0 + spec.n_bonus])
    return out


def _sources(items: list, nq: int) -> tuple:
    """``[(row, outcome, source row), ...]`` as sorted arrays and each row's first item."""
    arr = np.array(sorted(items), dtype=np.intp).reshape(-1, 3)
    return arr, np.searchsorted(arr[:, 0], np.arange(nq + 1))


def _reroll_choice(ptab, pids, acts, act, ws, wtab, out) -> None:
    """For each row q: with p_o the probability of outcome o (``ptab[pids[q, o]]``) and
    v_o its value (from ``act`` or ``wtab``): keeping the roll is sum p_o v_o; with Luck
    (1 or more), the best of keeping each outcome or re-rolling (sum p_o v_o at one Luck
    less)."""
    n_out = pids.shape[1]
    step = max(1, _CHUNK // (n_out * SL))
    (a_items, a_first), (w_items, w_first) = acts, ws
    for a in range(0, len(pids), step):
        b = min(len(pids), a + step)
        P = ptab.take(pids[a:b], axis=0)  # (n, outcomes, SL)
        V = np.zeros_like(P)
        for items, first, src in ((a_items, a_first, act), (w_items, w_first, wtab)):
            sel = items[first[a]:first[b]]
            if len(sel):
                V[sel[:, 0] - a, sel[:, 1]] = src.take(sel[:, 2], axis=0)
        keep = np.einsum("nos,nos->ns", P, V)
        P4 = P.reshape(b - a, n_out, S, L)
        V4 = V.reshape(b - a, n_out, S, L)
        again = np.zeros((b - a, S, L))
        again[..., 1:] = np.einsum("nosl,nosl->nsl", P4[..., 1:], V4[..., :-1])
        np.maximum(V, again.reshape(b - a, 1, SL), out=V)
        best = np.einsum("nos,nos->ns", P, V)
        out[a:b] = np.where(A._CAN_SPEND, best, keep)


def _start(solver, key, f) -> tuple:
    """``(v key, legal Actions, the Action carrying a bonus or None)`` of a turn's start
    from ``key`` with flags ``f`` (as ``advice.Solver.v1``), kept on the solver."""
    hit = solver._starts.get((key, f))
    if hit is None:
        vk = solver._v_key(A.with_flags(key, f))
        legal = tuple(solver.legal(vk))
        bonus = vk.bonus_action if vk.bonus and vk.bonus_action in legal else None
        hit = solver._starts[(key, f)] = (vk, legal, bonus)
    return hit


def _v_table(solver, turn: _Turn, wtab: np.ndarray, qtab: np.ndarray, place: dict,
             wait_row: dict) -> np.ndarray:
    """The start of the turn: the best legal Action of each row. Fills the solver's ``V``."""
    t = turn.t
    n = len(turn.ocands)
    width = max(map(len, turn.ocands), default=1)
    # each others row's candidates (table 0: Encounter, 1: Actions), padded with its first
    which = np.zeros((n, width), dtype=np.intp)
    rows = np.zeros((n, width), dtype=np.intp)
    for row, cands in enumerate(turn.ocands):
        for k, c in enumerate(cands):
            if c[0] == "w":
                rows[row, k] = wait_row[c[1]] if c[2] else place[c[1]]
            else:
                which[row, k], rows[row, k] = 1, turn.qrow[(c[1], c[2])]
        which[row, len(cands):], rows[row, len(cands):] = which[row, 0], rows[row, 0]
    cand = BUFFERS.get("cand", n * width)
    which, rows = which.ravel(), rows.ravel()
    for w, src in ((0, wtab), (1, qtab)):
        sel = np.flatnonzero(which == w)
        gather(cand, sel, src, rows[sel])
    others = cand.reshape(n, width, SL).max(axis=1)
    others[[row for row, cands in enumerate(turn.ocands) if not cands]] = 0.0  # none: 0
    m = len(turn.vrows)
    orow = np.empty(m, dtype=np.intp)
    brow, bq = [], []
    for row, (vk, o, bonus, key) in turn.vspec.items():
        orow[row] = o
        if bonus is not None:
            brow.append(row)
            bq.append(turn.qrow[(key, bonus)] + vk.bonus)
    V = _table(turn, "v", m)
    others.take(orow, axis=0, out=V)
    brow, bq = np.array(brow, dtype=np.intp), np.array(bq, dtype=np.intp)
    step = max(1, _CHUNK // SL)
    for a in range(0, len(brow), step):  # the bonus's Action, a chunk at a time
        q = BUFFERS.get("bonus_q", len(brow[a:a + step]))
        v = BUFFERS.get("bonus_v", len(q))
        qtab.take(bq[a:a + step], axis=0, out=q)
        V.take(brow[a:a + step], axis=0, out=v)
        V[brow[a:a + step]] = np.maximum(q, v, out=q)
    if turn.keep:
        for row, (vk, _, _, _) in turn.vspec.items():
            solver.V[(t, vk)] = V[row]
    return V
