"""The DP a whole turn at a time on the *reachable* cells only: of every laid-out row, the
SM values a case can reach it at from the roots (``cells.Band``, every Luck of each),
each turn's values a compact (slots, L) array.

``Sweep.run(recursion, roots_v, roots_w, t0, keep, report, cells)`` fills the memo of
``recursion`` (``memo.Memo``: ``start``, ``action``, ``encounter_all`` as ``memo.Rows``,
each row's reached SM interval only, views of the turn's compact arrays) for everything
reachable from the roots at their ``cells``, with the values the recursion computes (the
tests compare the two, and with the dense sweep, ``dense``). Three passes:

- **layout** (``layout.lay_out``), turn ``t0`` to 12, as the dense sweep;
- **reach**, interleaved with it: from the roots' SM, the SM values each table of a turn
  needs: a start row's want every legal Action's (at the carried bonus for the bonus's
  Action), an Action's value its rows' (every Luck: the re-roll reads one Luck less), the
  Action rows and the Encounter phases their sources' (``compact.CompactBatch.reach``),
  and so to next turn's start rows. Each batch is compiled into arrays once
  (``CompactBatch``, int32 indices) and its layout dropped, and of a turn not kept for
  the memo what only writing its values reads (``layout.Turn.release``);
- **backward**, turn 12 to ``t0``: the Encounter batches from next turn's compact start
  values, the Action rows from the Encounter table, the Luck re-roll choice, the best
  Action, each on its reachable slots (``compact.CompactBatch.run``); working arrays live
  for one turn at most (each freed once read, a solved turn's plan dropped). Flags no
  Action leaves (a hand-edited record) are valued by the plain recursion
  (``Recursion.fallback``).
"""

from __future__ import annotations

import gc
from typing import NamedTuple

import numpy as np

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.batch import Buffers, Shared
from deduce.models.detective_story.dp.cells import Band
from deduce.models.detective_story.dp.compact import INDEX, CompactBatch, zero_table
from deduce.models.detective_story.dp.grid import CAN_SPEND, L, S
from deduce.models.detective_story.dp.layout import Turn, first_turn, lay_out
from deduce.models.detective_story.dp.memo import Rows, merged
from deduce.models.detective_story.dp.modes import NO_FLAGS


#: Action value slots (SM values of a row) valued at once
Q_SLOTS = 1 << 12


class _Plan(NamedTuple):
    """One turn laid out and reached: its tables' shapes, bands and compiled batches."""

    turn: Turn
    n: int  # Encounter table rows of every key (the extra rows follow)
    place: dict
    q: tuple  # ``_q_layout``
    cand: tuple  # ``_candidates``
    links: list  # per Encounter batch: (Encounter table rows, batch rows)
    bands: dict  # table name -> ``Band.state``
    batches: tuple  # (Action batch, [Encounter batches]) as ``CompactBatch``


class Sweep:
    """The reachable-only DP a turn at a time (see the module docstring)."""

    #: memo entries hold NaN at the cells not reached (``recursion.Recursion.partial``)
    partial = True

    def run(self, recursion, roots_v, roots_w, t0: int, keep=None, report=None,
            cells=None) -> None:
        """Fill ``recursion``'s memo for start-of-turn rows ``roots_v`` ((mode key, flags)
        at turn ``t0``) and Encounter phases ``roots_w`` (mode keys), at the flat (SM,
        Luck) indices ``cells`` (one per root, ``roots_v`` then ``roots_w``; None: every
        cell), for the turns in ``keep`` (None: every turn). ``report(message)`` is told
        each turn laid out and solved."""
        collecting = gc.isenabled()
        gc.disable()  # millions of small objects laid out: the cyclic collector's passes
        try:  # over them cost a third of the time, and they hold no cycle to free
            self._run(recursion, roots_v, roots_w, t0, keep, report, cells)
        finally:
            if collecting:
                gc.enable()

    def _run(self, recursion, roots_v, roots_w, t0, keep, report, cells) -> None:
        report = report or (lambda message: None)
        shared = Shared(Buffers(), recursion.compiler.moves)
        cur = first_turn(recursion, roots_v, roots_w, t0, shared)
        sms = ([(lo, lo) for lo in (np.asarray(cells) // L).tolist()] if cells is not None
               else [(0, S - 1)] * (len(roots_v) + len(roots_w)))
        vband = Band(len(cur.vrows))
        for (key, f), (lo, hi) in zip(roots_v, sms):
            vband.grow(np.array([cur.vrows.ids[(key, f)]]), np.array([lo]), np.array([hi]))
        wroots = [(key, lo, hi) for key, (lo, hi) in zip(roots_w, sms[len(roots_v):])]
        seen: dict = {}
        plans = []
        for t in range(t0, T.TURNS + 1):
            report(f"laying out turn {t} of {T.TURNS}")
            nxt = Turn(t + 1, shared) if t < T.TURNS else None
            lay_out(recursion, cur, nxt, seen)
            plan, vband = _reach(recursion, cur, nxt, vband, wroots if t == t0 else (),
                                 keep is None or t in keep)
            plans.append(plan)
            cur = nxt
        nxt_v = None
        while plans:  # a turn's plan dropped once solved
            plan = plans.pop()
            report(f"solving turn {plan.turn.t} (from turn {T.TURNS} back to turn {t0})")
            held, nxt_v = [nxt_v], None  # dropped by ``_backward`` once read
            nxt_v = _backward(recursion, plan, held, keep is None or plan.turn.t in keep)


def _q_layout(recursion, turn: Turn, w_index) -> tuple:
    """The Action values' table: one row per (mode, Action with a table, carried bonus),
    then Rest's rows; sets ``turn.qrow``. ``(nq, pids, kind, src, rests)``: per table row
    and outcome the probability row (``Shared.prob_row``) and where its value is (kind 1:
    the Action batch, 2: the Encounter table, 0: nowhere), Rest's batch rows."""
    shared = turn.shared
    pid, kind, src, rests = [], [], [], []
    for (key, a), spec in turn.acts.items():
        if type(spec) is int:  # Rest: no table
            rests.append(((key, a), spec))
            continue
        turn.qrow[(key, a)] = len(pid)
        probs = recursion.odds.bonus_probs(spec.table, spec.mod, spec.with_sm, spec.n_bonus)
        grown = dict(spec.grown)
        plain = [1 if o != "bonus" else 0 for o in spec.outcomes]
        at = [spec.rows.get(o, 0) for o in spec.outcomes]
        bonus = spec.outcomes.index("bonus") if grown else None
        for c in range(spec.n_bonus):
            pid.append(shared.prob_rows(probs, c, len(spec.outcomes), spec.with_sm))
            if c in grown:  # the +1 row reads next turn's Encounter phase of the bonus
                k, r = plain.copy(), at.copy()
                k[bonus], r[bonus] = 2, w_index(grown[c])
                kind.append(k)
                src.append(r)
            else:
                kind.append(plain)
                src.append(at)
    nq = len(pid)
    for i, (ka, _) in enumerate(rests):
        turn.qrow[ka] = nq + i
    width = max(map(len, pid), default=1)
    pad = lambda rows: [r if len(r) == width else list(r) + [0] * (width - len(r))  # noqa: E731
                        for r in rows]
    arrays = [np.array(pad(rows), dtype=d).reshape(nq, width)
              for rows, d in ((pid, INDEX), (kind, np.int8), (src, INDEX))]
    return (nq,) + tuple(arrays) + (np.array([off for _, off in rests], dtype=INDEX),)


def _candidates(turn: Turn, place: dict) -> tuple:
    """Each others row's candidates (``which`` 0: Encounter table, 1: Action values),
    padded with its first; ``empty`` the rows with none; per start row its others row and
    the Action value row of its carried bonus (-1: none)."""
    n = len(turn.ocands)
    width = max(map(len, turn.ocands), default=1)
    which = np.zeros((n, width), dtype=np.int8)
    rows = np.zeros((n, width), dtype=INDEX)
    for row, cands in enumerate(turn.ocands):
        for k, c in enumerate(cands):
            if c[0] == "w":
                every = turn.wkeys[c[1]][0]
                rows[row, k] = place[c[1]] + (len(every) if c[2] else 0)
            else:
                which[row, k], rows[row, k] = 1, turn.qrow[(c[1], c[2])]
        if cands:
            which[row, len(cands):], rows[row, len(cands):] = which[row, 0], rows[row, 0]
    empty = np.array([not c for c in turn.ocands], dtype=bool)
    m = len(turn.vrows)
    orow = np.zeros(m, dtype=INDEX)
    bq = np.full(m, -1, dtype=INDEX)
    at, o, b, q = [], [], [], []  # rows and their others rows; rows with a bonus, its value row
    for row, (vk, others, bonus, key) in turn.vspec.items():
        at.append(row)
        o.append(others)
        if bonus is not None:
            b.append(row)
            q.append(turn.qrow[(key, bonus)] + vk.bonus)
    orow[at], bq[b] = o, q
    return which, rows, empty, orow, bq


def _links(turn: Turn, place: dict) -> list:
    """Per Encounter batch: (Encounter table rows, the batch rows they are)."""
    out = []
    for b in range(len(turn.encs)):
        dst, src = [], []
        for key, (every, kb, off, wait) in turn.wkeys.items():
            if kb == b:
                dst.append(np.arange(place[key], place[key] + len(every) + 1))
                src.append(np.r_[off:off + len(every), wait])
        cat = (lambda a: np.concatenate(a).astype(INDEX)) if dst else (
            lambda a: np.zeros(0, dtype=INDEX))
        out.append((cat(dst), cat(src)))
    return out


def _reach(recursion, turn: Turn, nxt: Turn | None, vband: Band, wroots,
           kept: bool = True) -> tuple:
    """Turn ``turn``'s reachable SM bands from its start rows' (``vband``) and the
    Encounter roots ``wroots`` ((key, lowest SM, highest SM), ...): ``(plan, next turn's
    start band)``; ``kept``: whether the turn's values go to the memo (else what only
    writing them reads is dropped, ``Turn.release``)."""
    place, n, w_index = turn.encounter_places(recursion)
    q = _q_layout(recursion, turn, w_index)
    nq, _, kind, src, rest_off = q
    cand = which, rows, _, orow, bq = _candidates(turn, place)
    W = Band(n + len(turn.extra))
    for key, lo, hi in wroots:  # after any Action's flags, and after Wait
        first = w_index(turn.w_row(recursion, key, NO_FLAGS))
        r = np.arange(first, first + len(turn.wkeys[key][0]) + 1)
        W.grow(r, np.full(len(r), lo), np.full(len(r), hi))
    Q = Band(nq + len(rest_off))
    O = Band(len(turn.ocands))
    m = np.arange(len(turn.vrows))
    O.grow_from(orow, vband, m)
    has = bq >= 0
    Q.grow_from(bq[has], vband, m[has])
    for w, band in ((0, W), (1, Q)):
        o, k = np.nonzero(which == w)
        band.grow_from(rows[o, k], O, o)
    # an Action's value: its rows' values at its SM values (every Luck: the re-roll too)
    A = Band(turn.act.n)
    for k, band in ((1, A), (2, W)):
        qq, j = np.nonzero(kind == k)
        band.grow_from(src[qq, j], Q, qq)
    A.grow_from(rest_off, Q, nq + np.arange(len(rest_off)))
    cact = CompactBatch(turn.act)
    turn.act.clear()  # the arrays are all the backward pass reads
    cact.reach(A, W)
    links = _links(turn, place)
    N = Band(len(nxt.vrows) if nxt else 1)
    bands = {"v": vband.state(), "o": O.state(), "q": Q.state(), "act": A.state(),
             "w": W.state()}
    cencs = []
    for b, batch in enumerate(turn.encs):
        E = Band(batch.n)
        dst, srows = links[b]
        E.grow_from(srows, W, dst)
        cenc = CompactBatch(batch)
        batch.clear()
        cenc.reach(E, N)
        bands[f"enc{b}"] = E.state()
        cencs.append(cenc)
    turn.release(kept)
    return _Plan(turn, n, place, q, cand, links, bands, (cact, cencs)), N


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
    values, then the Encounter table's, then a row of zeros (``kind`` 1, 2, 0)."""
    k, s = kind[i], src[i] * S + sm[:, None]
    at = np.where(k == 1, apos[np.where(k == 1, s, 0)],
                  np.where(k == 2, n_act + wpos[np.where(k == 2, s, 0)], len(both) - 1))
    V = both[at]  # (slots, outcomes, L)
    P = ptab[pids[i], sm[:, None]][:, :, None]
    keep = (P * V).sum(axis=1)
    again = np.zeros_like(keep)
    again[:, 1:] = keep[:, :-1]  # Luck l re-rolls at Luck l - 1 (P does not read Luck)
    best = (P * np.maximum(V, again[:, None, :])).sum(axis=1)
    return np.where(CAN_SPEND[:L], best, keep)


def _backward(recursion, plan: _Plan, held: list, keep: bool):
    """Turn ``plan.turn``'s values from next turn's (``held``: ``[(Band, values)]`` of its
    start table, ``[None]`` after turn 12; emptied, so that they are freed once the
    Encounter table is made); returns this turn's. Fills the memo if ``keep``."""
    turn, t, memo = plan.turn, plan.turn.t, recursion.memo
    nband, nvals = held.pop() or zero_table()
    npos = nband.pos()
    cact, cencs = plan.batches
    # the Encounter table, inside one array with the Action rows' values and a row of zeros
    # after it (the outcomes' values an Action's table reads: kind 1, 2, 0 of ``_q_values``)
    W, A = _band(plan, "w"), _band(plan, "act")
    both = np.zeros((A.n + W.n + 1, L))
    wvals = both[A.n:A.n + W.n]
    for b, cenc in enumerate(cencs):
        E = _band(plan, f"enc{b}")
        dst, srows = plan.links[b]
        i, p = W.expand(dst)
        wvals[p] = cenc.run(E, nvals, npos)[E.pos()[srows[i] * S + W.sm[p]]]
    del nvals
    for (key, flags), j in turn.extra.ids.items():
        a, b = W.start[plan.n + j], W.start[plan.n + j + 1]
        if b > a:
            v = recursion.fallback.encounter(t, key, False, (flags,))[0]
            wvals[a:b] = v.reshape(S, L)[W.sm[a:b]]
    if keep:
        some, tab = W.lo <= W.hi, _Table.of(W, wvals)
        for key, (every, _, _, _) in turn.wkeys.items():
            p, x = plan.place[key], len(every)
            value = (tab.rows(p, p + x), tab.rows(p + x, p + x + 1))
            _put(memo.encounter_all, (t, key), value, some[p:p + x + 1].any())
    wpos = W.pos()
    # the Action rows, then every Action's value with the Luck re-roll choice
    av = cact.run(A, wvals, wpos, out=both[:A.n])
    apos = A.pos()
    nq, pids, kind, src, rest_off = plan.q
    Q = _band(plan, "q")
    qvals = np.zeros((Q.n, L))
    ptab = turn.shared.prob_table()[:, ::L]
    i, p = Q.expand(np.arange(nq))
    for a in range(0, len(p), Q_SLOTS):
        qv = _q_values(i[a:a + Q_SLOTS], Q.sm[p[a:a + Q_SLOTS]], ptab, pids, kind, src, both,
                       apos, wpos, len(av))
        qvals[p[a:a + Q_SLOTS]] = qv
    i, p = Q.expand(np.arange(nq, nq + len(rest_off)))
    qvals[p] = av[apos[rest_off[i] * S + Q.sm[p]]]
    if keep:
        tab = _Table.of(Q, qvals)
        for (key, a), q0 in turn.qrow.items():
            spec = turn.acts[(key, a)]
            n = 1 if type(spec) is int or "bonus" not in spec.outcomes else spec.n_bonus
            _put(memo.action, (t, key, a), tab.rows(q0, q0 + n, 1 if n == 1 else 2),
                 (Q.lo[q0:q0 + n] <= Q.hi[q0:q0 + n]).any())
    qpos = Q.pos()
    # the best legal Action: the best other than the bonus's, then the bonus's Action
    which, rows, empty, orow, bq = plan.cand
    O = _band(plan, "o")
    i, p = O.expand(np.arange(len(turn.ocands)))
    sm = O.sm[p]
    ov = np.full((O.n, L), -np.inf)
    for k in range(which.shape[1]):
        at_w, r = which[i, k] == 0, rows[i, k] * S + sm
        v = np.empty((len(p), L))
        v[at_w] = wvals[wpos[r[at_w]]]
        v[~at_w] = qvals[qpos[r[~at_w]]]
        np.maximum(ov, v, out=ov)
    ov[empty[i]] = 0.0
    del both, av, wvals  # the Action rows' and the Encounter table's values are read
    opos = O.pos()
    V = _band(plan, "v")
    i, p = V.expand(np.arange(len(turn.vrows)))
    sm = V.sm[p]
    vv = ov[opos[orow[i] * S + sm]]
    b = np.flatnonzero(bq[i] >= 0)
    for a in range(0, len(b), Q_SLOTS):  # a few slots at a time: no (slots, L) temporaries
        r = b[a:a + Q_SLOTS]
        vv[r] = np.maximum(vv[r], qvals[qpos[bq[i[r]] * S + sm[r]]])
    if keep:
        tab = _Table.of(V, vv)
        for row, (vk, _, _, _) in turn.vspec.items():
            _put(memo.start, (t, vk), tab.rows(row, row + 1, 1), V.lo[row] <= V.hi[row])
    return V, vv
