"""The dense sweep, kept as the referee of ``sweep`` (and its baseline in the tests and
``benchmarks/story_dp.py``): the DP a whole turn at a time over *every* (SM, Luck) cell of
every laid-out row, where ``sweep`` computes the reachable cells only.

``DenseSweep.run(recursion, roots_v, roots_w, t0, keep)`` fills the memo of ``recursion``
(``memo.Memo``: ``start``, ``action``, ``encounter_all``) for every (turn, mode) reachable
from the roots, with the same values the recursion computes (the tests compare the two);
anything it does not cover (a flag no Action leaves, a hand-edited record) is still
computed by that recursion on demand. A ``DenseSweep`` is handed to the solver that uses it.

Two passes:

- **forward** (turn ``t0`` to 12): the layout (``layout.lay_out``);
- **backward** (turn 12 to ``t0``): per turn, the Encounter ``Batch`` from next turn's start
  table, the Action rows' ``Batch`` from the Encounter table, the Luck re-roll choice of
  every Action and carried bonus at once, and the start table as the best legal Action.

Large arrays are reused between turns and sweeps (``DenseSweep.buffers``) and only the turns a
caller asks to keep go to the memo: the memo of a whole case is hundreds of MB.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.batch import CHUNK, Buffers, Shared
from deduce.models.detective_story.dp.grid import CAN_SPEND, SL, S, L
from deduce.models.detective_story.dp.layout import Turn, first_turn, lay_out

class DenseSweep:
    """The DP a turn at a time, with its work arrays (``buffers``, reused between turns
    and sweeps)."""

    def __init__(self):
        self.buffers = Buffers()

    #: every cell of a memo entry it writes is valued
    partial = False

    def run(self, recursion, roots_v, roots_w, t0: int, keep=None, report=None,
            cells=None, on_turn=None) -> None:
        """Fill ``recursion``'s memo for everything reachable from start-of-turn rows
        ``roots_v`` ((mode key, flags) at turn ``t0``) and Encounter phases ``roots_w``
        (mode keys), for the turns in ``keep`` (None: every turn), at every cell
        (``cells``, the roots' (SM, Luck), is not read). Turns not kept are computed in
        reused buffers. ``report(message)`` is told each turn laid out and solved;
        ``on_turn(t)`` is called once a kept turn's values are in the memo (as
        ``sweep.Sweep.run``)."""
        turns: list[Turn] = []
        shared = Shared(self.buffers, recursion.compiler.moves)
        cur = first_turn(recursion, roots_v, roots_w, t0, shared)
        seen: dict = {}
        report = report or (lambda message: None)
        for t in range(t0, T.TURNS + 1):
            report(f"laying out turn {t} of {T.TURNS}")
            turns.append(cur)
            nxt = Turn(t + 1, shared) if t < T.TURNS else None
            lay_out(recursion, cur, nxt, seen)
            cur = nxt
        nxt_v = np.zeros((1, SL))
        for turn in reversed(turns):
            report(f"solving turn {turn.t} (from turn {T.TURNS} back to turn {t0})")
            turn.keep = keep is None or turn.t in keep
            nxt_v = _backward(recursion, turn, nxt_v)
            if on_turn is not None and turn.keep:
                on_turn(turn.t)



def _backward(recursion, turn: Turn, next_v: np.ndarray) -> np.ndarray:
    """Turn ``turn.t``'s tables from next turn's start table; returns this turn's."""
    t = turn.t
    buffers = turn.shared.buffers
    # the Encounter table: each key's flag labels then its row after Wait, then the rows
    # of flags no Action leaves (by the recursion); a batch of modes at a time
    place, n, w_index = turn.encounter_places(recursion)
    wtab = _table(turn, "wtab", n + len(turn.extra))
    for b, batch in enumerate(turn.encs):
        enc = batch.run(next_v, "enc")
        dst, src = [], []
        for key, (every, kb, off, wait) in turn.wkeys.items():
            if kb == b:
                dst.append(np.arange(place[key], place[key] + len(every) + 1))
                src.append(np.r_[off:off + len(every), wait])
        if dst:
            buffers.gather(wtab, np.concatenate(dst), enc, np.concatenate(src))
    if turn.keep:
        for key, (every, _, _, _) in turn.wkeys.items():
            p, x = place[key], len(every)
            recursion.memo.encounter_all[(t, key)] = (wtab[p:p + x], wtab[p + x:p + x + 1])
    for (key, flags), j in turn.extra.ids.items():
        wtab[n + j] = recursion.encounter(t, key, False, (flags,))[0]
    act = turn.act.run(wtab, "act")
    qtab = _q_values(recursion, turn, wtab, act, w_index)
    wait_row = {key: place[key] + len(every) for key, (every, *_) in turn.wkeys.items()}
    return _v_table(recursion, turn, wtab, qtab, place, wait_row)


def _table(turn: Turn, name: str, rows: int) -> np.ndarray:
    """A new (rows, SL) array for a turn whose memo is kept, else a reused buffer (start
    tables alternate between two: one turn's is read while the one before is made)."""
    if turn.keep:
        return np.empty((rows, SL))
    return turn.shared.buffers.get(name + str(turn.t % 2) if name == "v" else name, rows)


def _q_values(recursion, turn: Turn, wtab: np.ndarray, act: np.ndarray, w_index) -> np.ndarray:
    """Every Action's value for each carried bonus, with the Luck re-roll choice (as the
    recursion's ``action``): one row per (mode, Action, carried bonus), in ``turn.qrow``
    order, then Rest's rows. Fills the memo's ``action``."""
    t = turn.t
    shared = turn.shared
    pid, from_act, from_w = [], [], []  # per row: probability rows; value sources
    rests = []
    for (key, a), spec in turn.acts.items():
        if type(spec) is int:  # Rest: no table
            rests.append(((key, a), spec))
            continue
        q0 = turn.qrow[(key, a)] = len(pid)
        probs = recursion.odds.bonus_probs(spec.table, spec.mod, spec.with_sm, spec.n_bonus)
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
        memo = recursion.memo.action
        for (key, a), q0 in turn.qrow.items():
            spec = turn.acts[(key, a)]
            memo[(t, key, a)] = (out[q0] if type(spec) is int or "bonus" not in spec.outcomes
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
    step = max(1, CHUNK // (n_out * SL))
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
        out[a:b] = np.where(CAN_SPEND, best, keep)


def _v_table(recursion, turn: Turn, wtab: np.ndarray, qtab: np.ndarray, place: dict,
             wait_row: dict) -> np.ndarray:
    """The start of the turn: the best legal Action of each row. Fills the memo's
    ``start``."""
    t = turn.t
    buffers = turn.shared.buffers
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
    cand = buffers.get("cand", n * width)
    which, rows = which.ravel(), rows.ravel()
    for w, src in ((0, wtab), (1, qtab)):
        sel = np.flatnonzero(which == w)
        buffers.gather(cand, sel, src, rows[sel])
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
    step = max(1, CHUNK // SL)
    for a in range(0, len(brow), step):  # the bonus's Action, a chunk at a time
        q = buffers.get("bonus_q", len(brow[a:a + step]))
        v = buffers.get("bonus_v", len(q))
        qtab.take(bq[a:a + step], axis=0, out=q)
        V.take(brow[a:a + step], axis=0, out=v)
        V[brow[a:a + step]] = np.maximum(q, v, out=q)
    if turn.keep:
        for row, (vk, _, _, _) in turn.vspec.items():
            recursion.memo.start[(t, vk)] = V[row]
    return V
