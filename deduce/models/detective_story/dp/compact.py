"""A laid-out ``batch.Batch`` on reachable cells only: which cells of its rows and of its
source table a set of wanted cells needs (``reach``), and their values (``run``) as a
compact vector (``cells.Cells``), with the same arithmetic as ``Batch.run``.

Rows are (instance or decision node, flag label); a decision node's cells are those its
parents want, its options' or fight terminals' cells the node's; a leaf *term* (out row,
source row, move, weight) at cell x reads the source row at the cell the move leads to,
and is skipped where its weight over SM is 0. Leaves are summed with ``np.bincount``,
fights solved (``combat.solve_columns``) for the reachable cells of their rows only.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story import combat as C
from deduce.models.detective_story.dp.batch import Batch
from deduce.models.detective_story.dp.cells import Cells, or_rows
from deduce.models.detective_story.dp.grid import SL

#: expanded leaf terms (term, cell) handled at once
TERMS = 1 << 21
#: fight columns (situations) per ``combat.solve_columns`` call
FIGHT_COLUMNS = 1 << 15


def _rows(off: int, x: int) -> np.ndarray:
    return np.arange(off, off + x, dtype=np.intp)


class CompactBatch:
    """``batch`` (fully laid out) as arrays over its rows; ``n`` its rows."""

    def __init__(self, batch: Batch):
        shared = batch.shared
        self.n = batch.n
        self.moves = shared.moves.table
        self.terms = batch.leaf_terms()
        self.wtab = shared.weight_table()  # after the terms: they register their weights
        # constants: scalar (rows, values), and flat arrays (rows, ids into ``ctab``)
        srow, sval, vrow, vid, ctab, seen = [], [], [], [], [], {}
        for off, x, lump, _ in batch.insts:
            c = lump.const
            if isinstance(c, np.ndarray):
                i = seen.get(id(c))
                if i is None:
                    i = seen[id(c)] = len(ctab)
                    ctab.append(c)
                vrow.append(_rows(off, x))
                vid.append(np.full(x, i, dtype=np.intp))
            elif c:
                srow.append(_rows(off, x))
                sval.append(np.full(x, float(c)))
        cat = lambda a, dt=np.intp: np.concatenate(a) if a else np.zeros(0, dtype=dt)  # noqa: E731
        self.const_s = (cat(srow), cat(sval, float))
        self.const_v = (cat(vrow), cat(vid), np.array(ctab) if ctab else np.zeros((0, SL)))
        # decision nodes level by level
        self.top = max(batch.levels.values(), default=0)
        nw = [np.ones(SL)]  # node weights over (SM, Luck); row 0: a scalar weight
        self.node_edges: dict = {}  # level -> (parent rows, child rows, scalar, weight row)
        for level, parents in batch.parents.items():
            pr, cr, ws, wv = [], [], [], []
            for off in parents:
                for x, src, w in batch.nodes[off]:
                    pr.append(_rows(off, x))
                    cr.append(_rows(src, x))
                    if isinstance(w, np.ndarray):
                        ws.append(np.ones(x))
                        wv.append(np.full(x, len(nw), dtype=np.intp))
                        nw.append(w)
                    else:
                        ws.append(np.full(x, float(w)))
                        wv.append(np.zeros(x, dtype=np.intp))
            self.node_edges[level] = (cat(pr), cat(cr), cat(ws, float), cat(wv))
        self.nw = np.array(nw)
        self.max_edges: dict = {}  # level -> [(node rows, k-th option rows), ...]
        for level, items in batch.maxes.items():
            width = max(len(subs) for _, _, subs in items)
            per_k = []
            for k in range(width):
                nr = [_rows(off, x) for off, x, subs in items if k < len(subs)]
                orr = [_rows(subs[k], x) for off, x, subs in items if k < len(subs)]
                per_k.append((cat(nr), cat(orr)))
            self.max_edges[level] = per_k
        self.fight_edges: dict = {}  # level -> [(setup, terminals, node rows, [sub rows])]
        for (level, setup), items in batch.fights.items():
            terms = list(items[0][2])
            nr = cat([_rows(off, x) for off, x, _ in items])
            subs = [cat([_rows(s[t], x) for _, x, s in items]) for t in terms]
            self.fight_edges.setdefault(level, []).append((setup, terms, nr, subs))

    # -- which cells
    def reach(self, mask: np.ndarray, src_mask: np.ndarray) -> None:
        """Complete ``mask`` (boolean (n, SL): the cells wanted of each row) with the cells
        its decision nodes and their options need, and mark in ``src_mask`` (boolean
        (source rows, SL)) the source cells the leaves read."""
        for level in range(self.top, -1, -1):
            for _, _, nr, subs in self.fight_edges.get(level, ()):
                for s in subs:
                    or_rows(mask, s, mask[nr])
            for nr, orr in self.max_edges.get(level, ()):
                or_rows(mask, orr, mask[nr])
            if level and level in self.node_edges:
                pr, cr, _, wv = self.node_edges[level]
                or_rows(mask, cr, mask[pr] & (self.nw[wv] != 0))
        cells = Cells.of(mask)
        flat = src_mask.reshape(-1)
        for p, src, _ in self._leaves(cells):
            flat[src] = True

    def _leaves(self, cells: Cells):
        """``(p, source flat index, weight)`` of every nonzero (term, cell), a chunk at a
        time (``p``: the cell's place in ``cells``)."""
        rows, srcs, moves, wts, vec = self.terms
        if not len(rows):
            return
        csum = np.cumsum(cells.count(rows))
        cuts = np.searchsorted(csum, np.arange(TERMS, csum[-1], TERMS), side="right")
        bounds = np.unique(np.r_[0, cuts, len(rows)])
        for a, b in zip(bounds[:-1], bounds[1:]):
            i, p = cells.expand(rows[a:b])
            i += a
            x = cells.cell[p]
            w = wts[i]
            v = vec[i]
            m = v > 0
            if m.any():
                w[m] *= self.wtab[v[m], x[m]]
                keep = w != 0
                if not keep.all():
                    i, p, x, w = i[keep], p[keep], x[keep], w[keep]
            yield p, srcs[i] * SL + self.moves[moves[i], x], w

    # -- their values
    def run(self, cells: Cells, src: np.ndarray, src_pos: np.ndarray) -> np.ndarray:
        """The values of ``cells`` (this batch's reachable cells, ``reach``), from the
        source table's compact values ``src`` (``src_pos``: ``Cells.pos`` of the source)."""
        out = np.zeros(cells.n)
        for p, s, w in self._leaves(cells):
            out += np.bincount(p, w * src[src_pos[s]], minlength=cells.n)
        pos = cells.pos()
        srow, sval = self.const_s
        if len(srow):
            i, p = cells.expand(srow)
            out[p] += sval[i]
        vrow, vid, ctab = self.const_v
        if len(vrow):
            i, p = cells.expand(vrow)
            out[p] += ctab[vid[i], cells.cell[p]]
        for level in range(self.top + 1):
            if level and level in self.node_edges:
                pr, cr, ws, wv = self.node_edges[level]
                i, p = cells.expand(pr)
                x = cells.cell[p]
                w = ws[i] * self.nw[wv[i], x]
                nz = w != 0
                i, p, x, w = i[nz], p[nz], x[nz], w[nz]
                out += np.bincount(p, w * out[pos[cr[i] * SL + x]], minlength=cells.n)
            for k, (nr, orr) in enumerate(self.max_edges.get(level, ())):
                i, p = cells.expand(nr)
                v = out[pos[orr[i] * SL + cells.cell[p]]]
                out[p] = v if k == 0 else np.maximum(out[p], v)
            for setup, terms, nr, subs in self.fight_edges.get(level, ()):
                i, p = cells.expand(nr)
                x = cells.cell[p]
                for a in range(0, len(p), FIGHT_COLUMNS):
                    sl = slice(a, a + FIGHT_COLUMNS)
                    vt = np.stack([out[pos[s[i[sl]] * SL + x[sl]]] for s in subs])
                    out[p[sl]] = C.solve_columns(setup, terms, vt, np)
        return out
