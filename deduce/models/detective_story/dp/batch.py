"""Many compiled lumps (``compile.Lump``) evaluated together against one source table,
in a few large numpy operations: the building block of the sweep.

A ``Batch`` lays out rows for each (lump, how it reads its targets) instance and for its
decision nodes, then ``run(src)`` values every row: one pass over all the instances'
leaves (``_linear``), then level by level (a decision node after the instances it decides
between): each parent's weighted node values added to its rows, option 3's choices
(elementwise max), fights (one ``combat.solve_columns`` per setup and level over every
instance's rows).

Large work arrays come from ``Buffers``, kept by their owner between uses: on the virtual
machines this was measured on, a first touch of new memory costs 10-30 ns per value, as
much as the arithmetic.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story import combat as C
from deduce.models.detective_story.dp.grid import SL, L, MoveTable
from deduce.models.detective_story.dp.trace import MaxNode, Ref

#: elements gathered at once (2 MB of float64)
CHUNK = 1 << 18
#: situations per ``combat.solve_columns`` call
FIGHT_COLUMNS = 1 << 15


class Buffers:
    """Work arrays kept between uses (turns and sweeps of one owner): a new large array
    costs a page fault per 4 KB page on first touch, which on some virtual machines costs
    more than the work."""

    def __init__(self):
        self.arrays: dict = {}

    def get(self, name: str, rows: int) -> np.ndarray:
        """A (rows, SL) view of the buffer ``name`` (contents undefined)."""
        a = self.arrays.get(name)
        if a is None or len(a) < rows:
            a = self.arrays[name] = np.empty((max(rows, int(1.5 * len(a) if a is not None
                                                            else rows)), SL))
        return a[:rows]

    def gather(self, dst: np.ndarray, dst_rows: np.ndarray, src: np.ndarray,
               src_rows: np.ndarray) -> None:
        """``dst[dst_rows] = src[src_rows]`` through a reused buffer (no large temporary)."""
        step = max(1, CHUNK // SL)
        for a in range(0, len(dst_rows), step):
            buf = self.get("gather", min(step, len(dst_rows) - a))
            src.take(src_rows[a:a + step], axis=0, out=buf)
            dst[dst_rows[a:a + step]] = buf


class Shared:
    """Per-lump arrays shared by every ``Batch`` of a sweep (lumps live as long as it), and
    what the batches work with: ``buffers`` (work arrays), ``moves`` (the solver's
    ``MoveTable``, which the lumps' move ids index)."""

    def __init__(self, buffers: Buffers, moves: MoveTable):
        self.buffers = buffers
        self.moves = moves
        self.lumps: dict = {}  # id(lump) -> (target ids, moves, scalar weights, vector rows)
        self.gid: dict = {}  # Target -> id
        self.targets: list = []  # id -> Target
        self.wlist: list = [np.ones(SL)]  # vector weights (row 0 unused)
        self.probs: dict = {}  # (id(probabilities), bonus, outcome) -> row of ``plist``
        self.plist: list = [np.zeros(SL)]  # outcome probabilities over (SM, Luck)
        self.prob_runs: dict = {}  # (id(probabilities), bonus, outcomes) -> rows (``prob_rows``)
        self._ptab = self._wtab = self._wsm = None

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
        """Every vector weight seen so far, one row each (row 0 unused)."""
        if self._wtab is None or len(self._wtab) < len(self.wlist):
            self._wtab = np.array(self.wlist)
        return self._wtab

    def weight_sm_table(self) -> np.ndarray:
        """``weight_table`` over SM only, (weights, S): a vector weight is over SM (the
        same at every Luck). Small: each compact batch keeps the one of its time."""
        if self._wsm is None or len(self._wsm) < len(self.wlist):
            self._wsm = np.array([w[::L] for w in self.wlist])
        return self._wsm

    def prob_row(self, probs: np.ndarray, c: int, j: int, with_sm: bool) -> int:
        """Row of P(outcome ``j`` | carried bonus ``c``) of ``probs``
        (``rolls.RollOdds.bonus_probs``, which keeps the same object for the same
        arguments); row 0 is all zeros."""
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

    def prob_rows(self, probs: np.ndarray, c: int, n: int, with_sm: bool) -> tuple:
        """``prob_row`` of outcomes 0..``n - 1`` at carried bonus ``c`` (kept per
        ``probs``: the Action tables of a sweep share a few)."""
        k = (id(probs), c, n)
        out = self.prob_runs.get(k)
        if out is None:
            out = self.prob_runs[k] = tuple(self.prob_row(probs, c, j, with_sm) for j in range(n))
        return out

    def prob_table(self) -> np.ndarray:
        """Every row of ``prob_row`` so far."""
        if self._ptab is None or len(self._ptab) < len(self.plist):
            self._ptab = np.array(self.plist)
        return self._ptab


class Batch:
    """Many ``Lump`` instances evaluated together against one source table.

    ``add(lump, reader, refs)`` lays out ``reader.X`` rows for the lump whose targets are
    read through ``reader`` (``reader.rows(target)``: the target's source rows, one per
    row of the instance; ``reader.key`` names it), equal (lump, reader) pairs sharing
    rows, and returns the first row; ``refs(line)`` gives the lump of a ``Ref`` node.
    ``run(src)`` returns every row's values."""

    def __init__(self, shared: "Shared"):
        self.shared = shared
        self.index: dict = {}  # (id(lump or node), reader key) -> first row
        self.n = 0  # rows laid out
        self.insts: list = []  # (first row, X, lump, reader)
        self.levels: dict = {}  # first row of an instance or node -> its level
        self.maxes: dict = {}  # level -> [(first row, X, options' first rows)]
        self.fights: dict = {}  # (level, setup) -> [(first row, X, {terminal: first row})]
        self.parents: dict = {}  # level -> first rows of the instances with nodes
        self.nodes: dict = {}  # instance's first row -> [(X, node's first row, weight)]

    def _alloc(self, x: int) -> int:
        off = self.n
        self.n += x
        return off

    def add(self, lump, reader, refs=None, ref_reader=None) -> int:
        """Lay out ``lump`` read through ``reader``; its ``Ref`` lines are read through
        ``ref_reader`` (default ``reader``), whose first label must be ``reader``'s only
        one (the phase after Wait reads the lines valued for every label, at no flag)."""
        k = (id(lump), reader.key)
        hit = self.index.get(k)
        if hit is not None:
            return hit
        off = self.index[k] = self._alloc(reader.X)
        self.insts.append((off, reader.X, lump, reader))
        level = 0
        for w, node in lump.nodes:
            if type(node) is Ref:
                src = self.add(refs(node.line), ref_reader or reader, refs)
            else:
                src = self._node(node, reader, refs)
            level = max(level, self.levels[src] + 1)
            self.nodes.setdefault(off, []).append((reader.X, src, w))
        self.levels[off] = level
        if lump.nodes:
            self.parents.setdefault(level, []).append(off)
        return off

    def _node(self, node, reader, refs) -> int:
        k = (id(node), reader.key)
        hit = self.index.get(k)
        if hit is not None:
            return hit
        if type(node) is MaxNode:
            subs = [self.add(o, reader, refs) for o in node.options]
            off = self.index[k] = self._alloc(reader.X)
            level = max(self.levels[s] for s in subs)
            self.maxes.setdefault(level, []).append((off, reader.X, subs))
        else:
            subs = {t: self.add(sub, reader, refs) for t, sub in node.terms}
            off = self.index[k] = self._alloc(reader.X)
            level = max(self.levels[s] for s in subs.values())
            self.fights.setdefault((level, node.setup), []).append((off, reader.X, subs))
        self.levels[off] = level
        return off

    # -- evaluation
    def run(self, src: np.ndarray, name: str) -> np.ndarray:
        """Every row's values, in the reused buffer ``name`` (valid until its next use)."""
        out = self.shared.buffers.get(name, self.n)
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
        parts = [self._terms(reader, items) for reader, items in self._by_reader().values()]
        if not parts:
            return
        rows, srcs, moves, wts, vec, rank = (np.concatenate(a) for a in zip(*parts))
        # the source rows each move reads, gathered once per (move, row)
        uniq, tab = np.unique(moves * len(src) + srcs, return_inverse=True)
        umove, urow = np.divmod(uniq, len(src))
        starts = np.flatnonzero(np.r_[True, umove[1:] != umove[:-1]])
        buffers, move_table = self.shared.buffers, self.shared.moves.table
        table = buffers.get("moved", len(uniq))
        for a, b in zip(starts, np.r_[starts[1:], len(uniq)]):
            m = umove[a]
            if m == MoveTable.IDENTITY:
                src.take(urow[a:b], axis=0, out=table[a:b])
            else:
                block = buffers.get("block", b - a)
                src.take(urow[a:b], axis=0, out=block)
                block.take(move_table[m], axis=1, out=table[a:b])
        order = np.lexsort((rows, rank))  # by rank, then by row: the scatter runs forward
        bounds = np.searchsorted(rank[order], np.arange(rank.max() + 2))
        wtab = self.shared.weight_table()
        step = max(1, CHUNK // SL)
        for k in range(len(bounds) - 1):
            for a in range(bounds[k], bounds[k + 1], step):
                sel = order[a:min(a + step, bounds[k + 1])]
                vals = buffers.get("vals", len(sel))
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

    def _by_reader(self) -> dict:
        groups: dict = {}
        for off, x, lump, reader in self.insts:
            if lump.targets:
                groups.setdefault(id(reader), (reader, []))[1].append((off, lump))
        return groups

    def _terms(self, reader, items) -> tuple:
        """The terms of ``items`` ((offset, lump), ...) read through ``reader``."""
        gids, offs, counts, moves, wts, vec = [], [], [], [], [], []
        for off, lump in items:
            g, m, w, v = self.shared.static(lump)
            gids.append(g)
            offs.append(off)
            counts.append(len(g))
            moves.append(m)
            wts.append(w)
            vec.append(v)
        counts = np.array(counts, dtype=np.intp)
        starts = np.cumsum(counts) - counts
        rank = [np.arange(int(counts.sum())) - np.repeat(starts, counts)]
        offs = [np.repeat(np.array(offs, dtype=np.intp), counts)]
        gids = np.concatenate(gids)
        used, inv = np.unique(gids, return_inverse=True)
        targets = self.shared.targets
        table = np.array([reader.rows(targets[g]) for g in used], dtype=np.intp)  # (u, X)
        x = reader.X
        rows = (np.concatenate(offs)[:, None] + np.arange(x)).ravel()
        srcs = table[inv].ravel()
        rep = lambda a: np.repeat(np.concatenate(a), x)  # noqa: E731
        return rows, srcs, rep(moves), rep(wts), rep(vec), rep(rank)

    def clear(self) -> None:
        """Drop the layout (instances, decision nodes) once it has been compiled into
        arrays (``compact.CompactBatch``); ``n`` stays, ``add`` and ``run`` no longer work."""
        self.index = self.levels = self.maxes = self.fights = self.parents = self.nodes = None
        self.insts = None

    def leaf_terms(self) -> tuple:
        """Every instance's leaves, one *term* per (leaf, flag label): ``(rows, srcs, moves,
        wts, vec)``, the out row, the source row, the move id (``MoveTable``), the scalar
        weight, and the row of ``Shared.weight_table`` of a weight over SM (0: none)."""
        parts = [self._terms(reader, items) for reader, items in self._by_reader().values()]
        if not parts:
            empty = np.zeros(0, dtype=np.intp)
            return empty, empty, empty, np.zeros(0), empty
        return tuple(np.concatenate(a) for a in list(zip(*parts))[:5])

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

    def _fight(self, out: np.ndarray, setup, items) -> None:
        """Every instance of a fight with ``setup``, a few thousand situations (columns) at
        a time (``combat.solve_columns``): large temporaries would cost more to touch."""
        terms = list(items[0][2])
        dst = np.concatenate([np.arange(off, off + x) for off, x, _ in items])
        srcs = [np.concatenate([np.arange(subs[t], subs[t] + x) for _, x, subs in items])
                for t in terms]
        step = max(1, FIGHT_COLUMNS // SL)
        for a in range(0, len(dst), step):
            b = min(len(dst), a + step)
            vt = self.shared.buffers.get("fight", len(terms) * (b - a)).reshape(
                len(terms), (b - a) * SL)
            for i, src in enumerate(srcs):
                out.take(src[a:b], axis=0, out=vt[i].reshape(b - a, SL))
            out[dst[a:b]] = C.solve_columns(setup, terms, vt, np).reshape(b - a, SL)
