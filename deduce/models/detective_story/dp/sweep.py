"""The DP a whole turn at a time on the *reachable* cells only: of every laid-out row, the
SM values a case can reach it at from the roots (``cells.Band``, every Luck of each),
each turn's values a compact (slots, L) array.

``Sweep.run(recursion, roots_v, roots_w, t0, keep, report, cells)`` fills the memo of
``recursion`` (``memo.Memo``: ``start``, ``action``, ``encounter_all`` as ``memo.Rows``,
each row's reached SM interval only, views of the turn's compact arrays) for everything
reachable from the roots at their ``cells``, with the values the recursion computes (the
tests compare the two, and with the dense sweep, ``dense``). Three passes:

- **layout**, once for turns ``t0`` to 12 (``atlas``): the forward pass over modes says
  what each turn has, and the union of every turn's tables is laid out and compiled into
  arrays once (``compact.CompactBatch``, int32 indices), every turn a part of them;
- **reach**, turn ``t0`` to 12: from the roots' SM, the SM values each table of a turn
  needs: a start row's want every legal Action's (at the carried bonus for the bonus's
  Action), an Action's value its rows' (every Luck: the re-roll reads one Luck less), the
  Action rows and the Encounter phases their sources' (``CompactBatch.reach``), and so to
  next turn's start rows; a turn keeps its bands (int8 intervals) only;
- **backward**, turn 12 to ``t0``: the Encounter batches of the turn's band from next
  turn's compact start values (zeros after turn 12), the Action rows from the Encounter
  table, the Luck re-roll choice, the best Action, each on the turn's reachable slots
  (``CompactBatch.run``); working arrays live for one turn at most. Flags no Action of
  the turn leaves (a hand-edited record) are valued by the plain recursion
  (``Recursion.fallback``).

**Late turns need few Luck columns.** Luck is read only through moves (``max(c, x + a)``,
monotone) and the re-roll (Luck 1 or more, one Luck less after it); no weight reads it.
So if next turn's start values are equal from Luck ``b`` on, an Encounter phase's are from
the lowest Luck each of its moves takes to ``b`` or above (``compact.luck_saturation``),
the Action rows' likewise from those, an Action's value from one Luck higher; after turn
12 every value is 0 (equal from Luck 0). A turn's Encounter phases are valued on Luck 0
to their bound only, its other arrays to the turn's (``_widths``: on the shipped data the
Encounter phases of turns 12, 11 and 10 on 1, 5 and 14 columns, the turns on 2, 11 and
17); values are put on the columns of what reads them (``grid.luck_columns``: the last
one repeated, or the columns above dropped), and the memo keeps them so (``memo.Rows``: a
Luck above its last column reads that column; a fresh a001 case's whole memo about 0.1 GB
smaller than at every Luck). The values are the same numbers as on L columns (the same
sums of the same terms).
"""

from __future__ import annotations

import gc
from typing import NamedTuple

import numpy as np

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.atlas import Atlas, Chart, TurnChart
from deduce.models.detective_story.dp.batch import Buffers, Shared
from deduce.models.detective_story.dp.cells import Band
from deduce.models.detective_story.dp.grid import L, S, luck_columns
from deduce.models.detective_story.dp.memo import Rows, merged


#: Action value slots (SM values of a row) valued at once
Q_SLOTS = 1 << 12


class _Plan(NamedTuple):
    """One turn reached: its chart, its Action odds, Encounter links and bands."""

    chart: TurnChart
    q: tuple  # ``Atlas.q_layout``
    links: tuple  # ``Atlas.links`` (its Encounter keys only if ``kept``)
    bands: dict  # table name -> ``Band.state``
    kept: bool  # the turn's values go to the memo


class Sweep:
    """The reachable-only DP a turn at a time (see the module docstring)."""

    #: memo entries hold NaN at the cells not reached (``recursion.Recursion.partial``)
    partial = True

    def run(self, recursion, roots_v, roots_w, t0: int, keep=None, report=None,
            cells=None, on_turn=None) -> None:
        """Fill ``recursion``'s memo for start-of-turn rows ``roots_v`` ((mode key, flags)
        at turn ``t0``) and Encounter phases ``roots_w`` (mode keys), at the flat (SM,
        Luck) indices ``cells`` (one per root, ``roots_v`` then ``roots_w``; None: every
        cell), for the turns in ``keep`` (None: every turn). ``report(message)`` is told
        each turn laid out and solved; ``on_turn(t)`` is called once a kept turn's values
        are in the memo (turn 12 first), before the turn before it is solved (it may take
        them out of the memo: the sweep does not read them again)."""
        collecting = gc.isenabled()
        gc.unfreeze()  # what an earlier sweep froze (below) is the collector's again
        gc.disable()  # millions of small objects laid out: the cyclic collector's passes
        try:  # over them cost a third of the time, and they hold no cycle to free
            self._run(recursion, roots_v, roots_w, t0, keep, report, cells, on_turn)
        finally:
            if collecting:  # what the sweep made and keeps is not scanned until the next
                gc.freeze()  # sweep (the first pass over it took 0.12 s after a fresh
                gc.enable()  # a001 solve; a solver is freed by reference counts alone)

    def _run(self, recursion, roots_v, roots_w, t0, keep, report, cells, on_turn) -> None:
        report = report or (lambda message: None)
        plot = Chart(recursion)
        charts, _ = plot.run(roots_v, roots_w, t0, report)
        recursion.phases.shapes.clear()  # every phase the sweep reads is compiled now
        recursion.compiler.templates.clear()
        atlas = Atlas(plot, charts, Shared(Buffers(), recursion.compiler.moves))
        sms = ([(lo, lo) for lo in (np.asarray(cells) // L).tolist()] if cells is not None
               else [(0, S - 1)] * (len(roots_v) + len(roots_w)))
        vband = Band(atlas.nv)
        for kf, (lo, hi) in zip(roots_v, sms):
            vband.grow(np.array([atlas.V.ids[kf]]), np.array([lo]), np.array([hi]))
        wroots = [(key, lo, hi) for key, (lo, hi) in zip(roots_w, sms[len(roots_v):])]
        plans = []
        for c in charts:
            kept = keep is None or c.t in keep
            plan, vband = _reach(atlas, c, vband, wroots if c.t == t0 else (), kept)
            plans.append(plan)
            c.release(kept)
        atlas.release()
        vband.lay_out()  # after turn 12 every start row is valued 0 (the case is lost)
        nxt_v = (vband, np.zeros((vband.n, 1)))  # at every Luck: one column
        while plans:  # a turn's plan dropped once solved
            plan = plans.pop()
            t = plan.chart.t
            report(f"solving turn {t} (from turn {T.TURNS} back to turn {t0})")
            held, nxt_v = [nxt_v], None  # dropped by ``_backward`` once read
            nxt_v = _backward(atlas, plan, held)
            if on_turn is not None and plan.kept:
                on_turn(t)


def _reach(atlas: Atlas, c: TurnChart, vband: Band, wroots, kept: bool) -> tuple:
    """Turn ``c.t``'s reachable SM bands from its start rows' (``vband``) and the
    Encounter roots ``wroots`` ((key, lowest SM, highest SM), ...): ``(plan, next turn's
    start band)``; ``kept``: the turn's values go to the memo (``_Plan.kept``)."""
    W = Band(atlas.nw)
    for key, lo, hi in wroots:  # after any Action's flags, and after Wait
        kid = atlas.chart.keys.ids[key]
        r = np.array(atlas.chart.label_rows(kid, c.labels[kid]))
        W.grow(r, np.full(len(r), lo), np.full(len(r), hi))
    q = pids, kind, src = atlas.q_layout(c)
    nq, rest_off = atlas.nq, atlas.rest_off
    Q = Band(nq + len(rest_off))
    O = Band(atlas.no)
    m = np.arange(atlas.nv)
    O.grow_from(atlas.orow, vband, m)
    has = atlas.bq >= 0
    Q.grow_from(atlas.bq[has], vband, m[has])
    for w, band in ((0, W), (1, Q)):
        o, k = np.nonzero(atlas.which == w)
        band.grow_from(atlas.crows[o, k], O, o)
    # an Action's value: its rows' values at its SM values (every Luck: the re-roll too)
    A = Band(atlas.cact.n)
    for k, band in ((1, A), (2, W)):
        qq, j = np.nonzero(kind == k)
        band.grow_from(src[qq, j], Q, qq)
    A.grow_from(rest_off, Q, nq + np.arange(len(rest_off)))
    atlas.cact.reach(A, W)
    links = atlas.links(c, kept)
    N = Band(atlas.nv)
    bands = {"v": vband.state(), "o": O.state(), "q": Q.state(), "act": A.state(),
             "w": W.state()}
    for b, cenc in enumerate(atlas.cencs[T.band_for(c.t)]):
        E = Band(cenc.n)
        dst, srows = links[0][b]
        E.grow_from(srows, W, dst)
        cenc.reach(E, N)
        bands[f"enc{b}"] = E.state()
    return _Plan(c, q, links, bands, kept), N


def _band(plan: _Plan, name: str) -> Band:
    return Band.of(plan.bands[name])


class _Table(NamedTuple):
    """A laid-out band's first SMs (int8), slot offsets (int32) and compact values."""

    lo: np.ndarray
    start: np.ndarray
    vals: np.ndarray

    @classmethod
    def of(cls, band: Band, vals: np.ndarray) -> "_Table":
        return cls(band.lo.astype(np.int8), band.start.astype(np.int32), vals)

    def rows(self, r0: int, r1: int, ndim: int = 2) -> Rows:
        """Rows ``r0``..``r1 - 1`` as memo ``Rows``: views (the turn's arrays are kept
        whole; nothing copied per key)."""
        return Rows(self.lo[r0:r1], self.start[r0:r1 + 1], self.vals, ndim)


def _put(store: dict, k, value, known: bool) -> None:
    """``store[k] = value`` (``Rows`` or a tuple of them), keeping the cells of an earlier
    entry that ``value`` lacks; nothing if it knows no cell (``known``)."""
    if not known:
        return
    old = store.get(k)
    store[k] = value if old is None else merged(old, value)


def _q_values(i, sm, ptab, pids, kind, src, both, apos, wpos, n_act) -> np.ndarray:
    """Action value rows ``i`` at SM ``sm`` (one per slot, every Luck) with the Luck re-roll
    choice: keeping the roll is sum p_o v_o; with Luck 1 or more the best of keeping each
    outcome or rolling again (sum p_o v_o at one Luck less). ``both``: the Action rows'
    values, then the Encounter table's, then a row of zeros (``kind`` 1, 2, 0). (One
    position map over ``both`` saved 0.04 s of a fresh a001 solve's 0.44 s here: not
    worth another (rows, S) index table.)"""
    k, s = kind[i], src[i] * S + sm[:, None]
    at = np.where(k == 1, apos[np.where(k == 1, s, 0)],
                  np.where(k == 2, n_act + wpos[np.where(k == 2, s, 0)], len(both) - 1))
    V = both.take(at, axis=0)  # (slots, outcomes, L)
    P = ptab[pids[i], sm[:, None]]  # (slots, outcomes)
    keep = np.einsum("sol,so->sl", V, P)  # no (slots, outcomes, L) product kept
    again = np.zeros_like(keep)
    again[:, 1:] = keep[:, :-1]  # Luck l re-rolls at Luck l - 1 (P does not read Luck)
    best = np.einsum("sol,so->sl", np.maximum(V, again[:, None, :], out=V), P)
    best[:, 0] = keep[:, 0]  # no Luck to pay a re-roll with
    return best


def _widths(atlas: Atlas, cencs: list, next_width: int, fallback: bool) -> tuple:
    """``(Encounter phases', the turn's)``: the Luck columns a turn's values need (see the
    module docstring). Next turn's start values are equal from Luck ``next_width - 1`` on,
    so the Encounter phases' are from their batches' ``saturation`` of it (from 0 if
    ``fallback``: the plain recursion's values are not known to be), the Action rows' from
    theirs of that, and an Action's value, with the re-roll choice reading one Luck less,
    from one Luck higher (the turn's width; the Encounter table is put on it once made)."""
    bw = L - 1 if fallback else max((c.saturation(next_width - 1) for c in cencs), default=0)
    return min(L, bw + 1), min(L, max(bw, atlas.cact.saturation(bw)) + 2)


def _best_other(i, sm, which, rows, wvals, wpos, qvals, qpos) -> np.ndarray:
    """The best of the others rows ``i``'s candidates (``Atlas.which`` 0: an Encounter
    row's value, 1: an Action's) at SM ``sm`` (one per slot, every Luck)."""
    best = np.full((len(i), qvals.shape[1]), -np.inf)
    v = np.empty_like(best)
    for k in range(which.shape[1]):
        at_w, r = which[i, k] == 0, rows[i, k] * S + sm
        v[at_w] = wvals.take(wpos[r[at_w]], axis=0)
        v[~at_w] = qvals.take(qpos[r[~at_w]], axis=0)
        np.maximum(best, v, out=best)
    return best


def _keep_encounters(memo, t: int, keys: list, E: Band, ev: np.ndarray, some) -> None:
    """Put turn ``t``'s Encounter values of ``keys`` (``Atlas.links``' entries of one
    batch) in the memo: per key its label rows then its row after Wait, copied out of the
    batch's values ``ev`` (band ``E``) into one block (the batch's other rows, its
    decision nodes and event lines, are not kept); ``some``: the W rows reached."""
    if not keys:
        return
    rows = np.concatenate([np.asarray(r, dtype=np.intp) for _, _, r, _ in keys])
    _, p = E.expand(rows)
    cnt = E.count(rows)
    tab = _Table(np.where(cnt > 0, E.lo[rows], 0).astype(np.int8),
                 np.r_[0, np.cumsum(cnt)].astype(np.int32), ev[p])
    a = 0
    for key, _, r, wrows in keys:
        x = len(r) - 1
        _put(memo.encounter_all, (t, key), (tab.rows(a, a + x), tab.rows(a + x, a + x + 1)),
             some[wrows].any())
        a += x + 1


def _backward(atlas: Atlas, plan: _Plan, held: list):
    """Turn ``plan.chart.t``'s values from next turn's (``held``: ``[(Band, values)]`` of
    its start table, emptied, so that they are freed once the Encounter table is made);
    returns this turn's. Fills the memo if ``plan.kept``."""
    c, recursion, keep = plan.chart, atlas.recursion, plan.kept
    t, memo = c.t, recursion.memo
    nband, nvals = held.pop()
    npos = nband.pos()
    links, keys, extra = plan.links
    cencs = atlas.cencs[T.band_for(t)]
    ewidth, width = _widths(atlas, cencs, nvals.shape[1], bool(extra))
    if nvals.shape[1] != ewidth:  # read on the Encounter phases' columns
        nvals = luck_columns(nvals, ewidth)
    # the Encounter table, inside one array with the Action rows' values and a row of zeros
    # after it (the outcomes' values an Action's table reads: kind 1, 2, 0 of ``_q_values``)
    W, A = _band(plan, "w"), _band(plan, "act")
    both = np.zeros((A.n + W.n + 1, width))
    wvals = both[A.n:A.n + W.n]
    some = W.lo <= W.hi
    for b, cenc in enumerate(cencs):
        E = _band(plan, f"enc{b}")
        dst, srows = links[b]
        ev = cenc.run(E, nvals, npos)
        i, p = W.expand(dst)
        wvals[p, :ewidth] = ev.take(E.pos()[srows[i] * S + W.sm[p]], axis=0)
        if ewidth < width:  # on the turn's columns: the last one repeated
            wvals[p, ewidth:] = wvals[p, ewidth - 1:ewidth]
        if keep:
            _keep_encounters(memo, t, [k for k in keys if k[1] == b], E, ev, some)
        del ev, E
    del nvals, npos, nband
    for row, key, flags in extra:
        a, b = W.start[row], W.start[row + 1]
        if b > a:
            v = recursion.fallback.encounter(t, key, False, (flags,))[0]
            wvals[a:b] = v.reshape(S, L)[W.sm[a:b]]  # every Luck: ``width`` is L
    wpos = W.pos()
    # the Action rows, then every Action's value with the Luck re-roll choice
    av = atlas.cact.run(A, wvals, wpos, out=both[:A.n])
    apos = A.pos()
    nq, rest_off = atlas.nq, atlas.rest_off
    pids, kind, src = plan.q
    Q = _band(plan, "q")
    qvals = np.zeros((Q.n, width))
    ptab = atlas.shared.prob_table()[:, ::L]
    i, p = Q.expand(np.arange(nq))
    for a in range(0, len(p), Q_SLOTS):
        qv = _q_values(i[a:a + Q_SLOTS], Q.sm[p[a:a + Q_SLOTS]], ptab, pids, kind, src, both,
                       apos, wpos, len(av))
        qvals[p[a:a + Q_SLOTS]] = qv
    i, p = Q.expand(np.arange(nq, nq + len(rest_off)))
    qvals[p] = av.take(apos[rest_off[i] * S + Q.sm[p]], axis=0)
    del apos, A  # the best Action reads the Encounter rows and the Action values only
    if keep:
        tab = _Table.of(Q, qvals)
        names = atlas.chart.acts.names
        for aid in c.need:
            q0 = atlas.qrow[aid]
            n = c.n_bonus.get(aid, 1)
            _put(memo.action, (t, *names[aid]), tab.rows(q0, q0 + n, 1 if n == 1 else 2),
                 (Q.lo[q0:q0 + n] <= Q.hi[q0:q0 + n]).any())
    qpos = Q.pos()
    # the best legal Action: the best other than the bonus's, then the bonus's Action
    which, rows, empty = atlas.which, atlas.crows, atlas.empty
    O = _band(plan, "o")
    i, p = O.expand(np.arange(atlas.no))  # p: every slot in order
    sm = O.sm[p]
    ov = np.empty((O.n, width))
    for a in range(0, len(p), Q_SLOTS):  # a few slots at a time: no (slots, L) temporaries
        s = slice(a, a + Q_SLOTS)
        ov[s] = _best_other(i[s], sm[s], which, rows, wvals, wpos, qvals, qpos)
    ov[empty[i]] = 0.0
    # what the best Action read, freed before the start rows' values are made
    del both, av, wvals, W, wpos
    opos = O.pos()
    V = _band(plan, "v")
    orow, bq = atlas.orow, atlas.bq
    i, p = V.expand(np.arange(atlas.nv))
    sm = V.sm[p]
    vv = ov.take(opos[orow[i] * S + sm], axis=0)
    b = np.flatnonzero(bq[i] >= 0)
    for a in range(0, len(b), Q_SLOTS):  # a few slots at a time: no (slots, L) temporaries
        r = b[a:a + Q_SLOTS]
        vv[r] = np.maximum(vv[r], qvals.take(qpos[bq[i[r]] * S + sm[r]], axis=0))
    if keep:
        tab = _Table.of(V, vv)
        for row in c.starts.tolist():
            _put(memo.start, (t, atlas.vspec[row][0]), tab.rows(row, row + 1, 1),
                 V.lo[row] <= V.hi[row])
    return V, vv
