"""A laid-out ``batch.Batch`` on its reachable SM bands only (``cells.Band``): which SM
values of its rows and of its source table the wanted ones need (``reach``), and their
values (``run``) as compact (slots, L) arrays, with the arithmetic of ``Batch.run``. A
``CompactBatch`` is not changed by either: every turn of a sweep reaches and values its
own bands of the same batch (``atlas``); a row without slots costs nothing but its share
of a few whole-array operations.

Rows are (instance or decision node, flag label); a decision node's SM values are those
its parents want (where the parent's weight on it is not 0), its options' or fight
terminals' those of the node; a leaf *term* (out row, source row, move, weight) at SM x
reads the source row at the SM its move leads to (every Luck at once, through the move's
Luck map), and adds nothing where its weight over SM is 0. A row's leaves (and a node's
weighted edges) are summed in order, rows grouped by how many they have, each group's
slots a few at a time (``_by_count``: most rows have 1 to 5, so a group is a handful of
gathers and adds, no scatter-add); fights are solved (``combat.solve_columns``) on the
reachable slots only.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story import combat as C
from deduce.models.detective_story.dp.batch import Batch
from deduce.models.detective_story.dp.cells import Band, nonzero_bounds, sm_of_moves
from deduce.models.detective_story.dp.grid import L, S

#: (term, slot) pairs handled at once
PAIRS = 1 << 14
#: fight slots per ``combat.solve_columns`` call
FIGHT_SLOTS = 1 << 11


#: row and id arrays kept from the forward pass to the backward one (a table has far
#: fewer than 2**31 rows; half the memory of ``np.intp``)
INDEX = np.int32


def _spans(offs: list, xs: list) -> np.ndarray:
    """``offs[i] .. offs[i] + xs[i] - 1`` for every i, concatenated (``INDEX``)."""
    offs, xs = np.asarray(offs, dtype=INDEX), np.asarray(xs, dtype=INDEX)
    starts = np.cumsum(xs, dtype=INDEX) - xs
    return np.arange(int(xs.sum()), dtype=INDEX) + np.repeat(offs - starts, xs)


def luck_saturation(move_luck: np.ndarray, b: int) -> int:
    """The Luck from which values read through the moves ``move_luck`` ((moves, L): each
    move's Luck per start Luck) are equal, when the values they read are equal from Luck
    ``b`` on: the lowest start Luck every move takes to ``b`` or above (moves are monotone
    in Luck; ``L - 1`` if a move never does)."""
    if not len(move_luck) or b <= 0:
        return 0
    ok = move_luck >= b
    return int(np.where(ok.any(axis=1), ok.argmax(axis=1), L - 1).max())


def _chunks(band: Band, rows: np.ndarray):
    """``band.expand(rows)`` a few rows at a time (about ``PAIRS`` slots each), the row
    indices counted from the start of ``rows``."""
    csum = np.cumsum(band.count(rows))
    if not len(csum) or not csum[-1]:
        return
    cuts = np.searchsorted(csum, np.arange(PAIRS, csum[-1], PAIRS), side="right")
    bounds = np.unique(np.r_[0, cuts, len(rows)])
    for a, b in zip(bounds[:-1], bounds[1:]):
        i, p = band.expand(rows[a:b])
        yield i + a, p


def _by_count(rows: np.ndarray, n: int) -> list:
    """The rows 0..n-1 grouped by how many entries each has in ``rows`` (sorted, so that a
    row's entries are consecutive): ``[(m, the rows with m entries, each one's first entry
    index), ...]`` (``INDEX`` arrays), m ascending, rows without entries left out."""
    cnt = np.bincount(rows, minlength=n)
    first = np.cumsum(cnt) - cnt
    out = []
    for m in np.unique(cnt[cnt > 0]).tolist():
        r = np.flatnonzero(cnt == m)
        out.append((m, r.astype(INDEX), first[r].astype(INDEX)))
    return out


class CompactBatch:
    """``batch`` (fully laid out) as arrays over its rows; ``n`` its rows."""

    def __init__(self, batch: Batch):
        shared = batch.shared
        self.n = batch.n
        self.move_sm, self.move_luck = sm_of_moves(shared.moves.table)
        self.luck_kept = (self.move_luck == np.arange(L)).all(axis=1)  # per move id
        self._maps: dict = {}  # ``_luck_map``
        rows, srcs, moves, wts, vec = batch.leaf_terms()
        order = np.argsort(rows, kind="stable")  # by out row: a row's leaves consecutive
        self.terms = (rows[order].astype(INDEX), srcs[order].astype(INDEX),
                      moves[order].astype(INDEX), wts[order], vec[order].astype(INDEX))
        self.luck_moves = self.move_luck[np.unique(moves)]  # ``saturation``
        self.leaf_rows = _by_count(self.terms[0], self.n)  # ``run``: rows by leaf count
        del rows, srcs, moves, wts, vec, order
        wv = shared.weight_sm_table()  # after the terms: they register their weights
        self.wv = wv
        self.wnext, self.wprev = nonzero_bounds(wv)
        # constants: scalar (rows, values), and arrays over (SM, Luck) (rows, ids)
        so, sx, sv, vo, vx, vi, ctab, seen = [], [], [], [], [], [], [], {}
        for off, x, lump, _ in batch.insts:
            c = lump.const
            if isinstance(c, np.ndarray):
                i = seen.get(id(c))
                if i is None:
                    i = seen[id(c)] = len(ctab)
                    ctab.append(c.reshape(S, L))
                vo.append(off), vx.append(x), vi.append(i)
            elif c:
                so.append(off), sx.append(x), sv.append(float(c))
        self.const_s = (_spans(so, sx), np.repeat(np.array(sv, dtype=float), sx))
        self.const_v = (_spans(vo, vx), np.repeat(np.array(vi, dtype=INDEX), vx),
                        np.array(ctab) if ctab else np.zeros((0, S, L)))
        # decision nodes level by level
        self.top = max(batch.levels.values(), default=0)
        nw = [np.ones(S)]  # node weights over SM, one row per weight; row 0: a scalar weight
        nw_row: dict = {}  # id(weight) -> its row (``Compiler`` keeps equal weights one array)
        self.node_edges: dict = {}  # level -> (parent rows, child rows, scalar, weight row)
        self.node_rows: dict = {}  # level -> parent rows by edge count (``_by_count``)
        for level, parents in batch.parents.items():
            po, co, xs, ws, wr = [], [], [], [], []
            for off in parents:
                for x, src, w in batch.nodes[off]:
                    po.append(off), co.append(src), xs.append(x)
                    if isinstance(w, np.ndarray):
                        r = nw_row.get(id(w))
                        if r is None:
                            r = nw_row[id(w)] = len(nw)
                            nw.append(w[::L])
                        ws.append(1.0), wr.append(r)
                    else:
                        ws.append(float(w)), wr.append(0)
            pr, cr = _spans(po, xs), _spans(co, xs)
            ws = np.repeat(np.array(ws, dtype=float), xs)
            wr = np.repeat(np.array(wr, dtype=INDEX), xs)
            order = np.argsort(pr, kind="stable")  # a parent row's edges consecutive
            pr, cr, ws, wr = pr[order], cr[order], ws[order], wr[order]
            self.node_edges[level] = (pr, cr, ws, wr)
            self.node_rows[level] = _by_count(pr, self.n)
        self.nw = np.array(nw)
        self.nnext, self.nprev = nonzero_bounds(self.nw)
        self.max_edges: dict = {}  # level -> [(node rows, k-th option rows), ...]
        for level, items in batch.maxes.items():
            width = max(len(subs) for _, _, subs in items)
            per_k = []
            for k in range(width):
                sel = [(off, x, subs[k]) for off, x, subs in items if k < len(subs)]
                xs = [x for _, x, _ in sel]
                per_k.append((_spans([o for o, _, _ in sel], xs),
                              _spans([s for _, _, s in sel], xs)))
            self.max_edges[level] = per_k
        self.fight_edges: dict = {}  # level -> [(setup, terminals, node rows, [sub rows])]
        for (level, setup), items in batch.fights.items():
            terms = list(items[0][2])
            xs = [x for _, x, _ in items]
            nr = _spans([off for off, _, _ in items], xs)
            subs = [_spans([s[t] for _, _, s in items], xs) for t in terms]
            self.fight_edges.setdefault(level, []).append((setup, terms, nr, subs))

    # -- which SM values
    def reach(self, band: Band, src: Band) -> None:
        """Widen ``band`` (this batch's rows: the SM wanted of each) with what its decision
        nodes and their options need, then ``src`` (the source table's rows) with what the
        leaves read."""
        for level in range(self.top, -1, -1):
            for _, _, nr, subs in self.fight_edges.get(level, ()):
                for s in subs:
                    band.grow_from(s, band, nr)
            for nr, orr in self.max_edges.get(level, ()):
                band.grow_from(orr, band, nr)
            if level and level in self.node_edges:
                pr, cr, ws, wr = self.node_edges[level]
                self._grow_weighted(band, cr, band.lo[pr], band.hi[pr], ws, wr, self.nnext,
                                    self.nprev)
        rows, srcs, moves, wts, vec = self.terms
        lo, hi = band.lo[rows], band.hi[rows]
        ok = (lo <= hi) & (wts != 0)
        lo, hi, vec, moves, srcs = lo[ok], hi[ok], vec[ok], moves[ok], srcs[ok]
        lo, hi = self.wnext[vec, lo], self.wprev[vec, np.maximum(hi, 0)]
        ok = lo <= hi
        src.grow(srcs[ok], self.move_sm[moves[ok], lo[ok]], self.move_sm[moves[ok], hi[ok]])

    @staticmethod
    def _grow_weighted(band, rows, lo, hi, ws, wr, nxt, prv) -> None:
        ok = (lo <= hi) & (ws != 0)
        rows, lo, hi, wr = rows[ok], lo[ok], hi[ok], wr[ok]
        band.grow(rows, nxt[wr, lo], prv[wr, hi])

    # -- their values
    def saturation(self, b: int) -> int:
        """The Luck from which this batch's values are equal when its source's are from Luck
        ``b`` on (``luck_saturation`` of its leaves' moves: decision nodes, fights and
        constants do not read Luck)."""
        return luck_saturation(self.luck_moves, b)

    def _luck_map(self, width: int) -> np.ndarray:
        """Per move id the Luck column each of Luck 0..``width - 1`` reads, on ``width``
        columns (the Luck above them reads the last one)."""
        out = self._maps.get(width)
        if out is None:
            out = self._maps[width] = np.minimum(self.move_luck[:, :width], width - 1)
        return out

    def _leaves(self, t: np.ndarray, sm: np.ndarray, src, src_pos, lmap) -> np.ndarray:
        """Leaf terms ``t`` at SM ``sm`` (one slot each): weight times the source's values
        where the move leads ((slots, width); a weight of 0 reads any source row: the
        leaf's is not reached there, and its values are finite)."""
        _, srcs, moves, wts, vec = self.terms
        w = wts[t] * self.wv[vec[t], sm]
        m = moves[t]
        at = src_pos[srcs[t] * S + self.move_sm[m, sm]]
        vals = src.take(at, axis=0)
        moved = np.flatnonzero(~self.luck_kept[m])
        if len(moved):  # the Luck a move changes: each slot's Luck map
            vals[moved] = src.reshape(-1)[at[moved, None] * src.shape[1] + lmap[m[moved]]]
        vals *= w[:, None]
        return vals

    def _edges(self, e: np.ndarray, sm: np.ndarray, cr, ws, wr, out, pos) -> np.ndarray:
        """Decision-node edges ``e`` at SM ``sm``: weight times the child's values (as
        ``_leaves``: a weight of 0 reads any row)."""
        w = ws[e] * self.nw[wr[e], sm]
        return w[:, None] * out.take(pos[cr[e] * S + sm], axis=0)

    def run(self, band: Band, src: np.ndarray, src_pos: np.ndarray, out=None) -> np.ndarray:
        """The values (slots, width) of ``band`` (this batch's laid-out band, ``reach``)
        from the source table's compact values ``src`` (``src_pos``: ``Band.pos`` of the
        source), on the source's Luck columns (Luck 0..width - 1, the values equal from the
        last one on: see ``sweep``), in ``out`` if given (a (slots, width) array,
        overwritten)."""
        width = src.shape[1]
        if out is None:
            out = np.zeros((band.n, width))
        else:
            out[:] = 0.0
        lmap = self._luck_map(width)
        if src.any():  # else every leaf adds 0 (none is reached, or all it reads is 0:
            # turn 12's Encounter phases, read against the zeros after the last turn)
            for m, rows, first in self.leaf_rows:  # a row's m leaves summed in order
                for i, p in _chunks(band, rows):
                    sm, t = band.sm[p], first[i]
                    acc = self._leaves(t, sm, src, src_pos, lmap)
                    for j in range(1, m):
                        acc += self._leaves(t + j, sm, src, src_pos, lmap)
                    out[p] = acc
        srow, sval = self.const_s
        if len(srow):
            i, p = band.expand(srow)
            out[p] += sval[i][:, None]
        vrow, vid, ctab = self.const_v
        if len(vrow):
            i, p = band.expand(vrow)
            out[p] += ctab[vid[i], band.sm[p], :width]
        pos = band.pos()
        for level in range(self.top + 1):
            if level and level in self.node_edges:  # the nodes are of lower levels
                _, cr, ws, wr = self.node_edges[level]
                for m, parents, first in self.node_rows[level]:
                    for i, p in _chunks(band, parents):
                        sm, e = band.sm[p], first[i]
                        acc = self._edges(e, sm, cr, ws, wr, out, pos)
                        for j in range(1, m):
                            acc += self._edges(e + j, sm, cr, ws, wr, out, pos)
                        out[p] += acc
            for k, (nr, orr) in enumerate(self.max_edges.get(level, ())):
                i, p = band.expand(nr)
                v = out.take(pos[orr[i] * S + band.sm[p]], axis=0)
                out[p] = v if k == 0 else np.maximum(out[p], v)
            for setup, terms, nr, subs in self.fight_edges.get(level, ()):
                i, p = band.expand(nr)
                sm = band.sm[p]
                for a in range(0, len(p), FIGHT_SLOTS):
                    sl = slice(a, a + FIGHT_SLOTS)
                    vt = np.stack([out.take(pos[s[i[sl]] * S + sm[sl]], axis=0) for s in subs])
                    k = vt.shape[1]
                    out[p[sl]] = C.solve_columns(setup, terms,
                                                 vt.reshape(len(subs), k * width),
                                                 np).reshape(k, width)
        return out

