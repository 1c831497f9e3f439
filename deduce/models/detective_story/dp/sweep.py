"""The DP evaluated a whole turn at a time: every reachable mode's values in a few large
numpy operations instead of one small evaluation per (turn, mode).

``Sweep.run(recursion, roots_v, roots_w, t0, keep)`` fills the memo of ``recursion``
(``memo.Memo``: ``start``, ``action``, ``encounter_all``) for every (turn, mode) reachable
from the roots, with the same values the recursion computes (the tests compare the two);
anything it does not cover (a flag no Action leaves, a hand-edited record) is still
computed by that recursion on demand. A ``Sweep`` is handed to the solver that uses it.

Two passes:

- **forward** (turn ``t0`` to 12): which start-of-turn rows (mode, flags), Actions and
  Encounter phases each turn needs, laid out as rows of per-turn tables; each compiled
  ``Lump`` becomes an *instance* of a ``batch.Batch``: its rows, the rows its targets
  read in the table it reads from, and its decision nodes;
- **backward** (turn 12 to ``t0``): per turn, the Encounter ``Batch`` from next turn's start
  table, the Action rows' ``Batch`` from the Encounter table, the Luck re-roll choice of
  every Action and carried bonus at once, and the start table as the best legal Action.

Large arrays are reused between turns and sweeps (``Sweep.buffers``) and only the turns a
caller asks to keep go to the memo: the memo of a whole case is hundreds of MB.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.batch import CHUNK, Batch, Buffers, Shared
from deduce.models.detective_story.dp.grid import CAN_SPEND, SL, S, L
from deduce.models.detective_story.dp.modes import NO_FLAGS, Flags
from deduce.models.detective_story.dp.rolls import outcomes_of
from deduce.models.detective_story.dp.trace import CombatNode, MaxNode, Ref

#: an Encounter batch takes modes until it has this many rows
BATCH_ROWS = 1 << 14


class RowIndex:
    """Row ids of a per-turn table: ``row(name)`` registers a name on first use."""

    def __init__(self):
        self.ids: dict = {}

    def row(self, name) -> int:
        """The row of ``name`` (the next free one on first use)."""
        i = self.ids.get(name)
        if i is None:
            i = self.ids[name] = len(self.ids)
        return i

    def __len__(self) -> int:
        return len(self.ids)


class NextTurn:
    """How an Encounter-phase instance reads its targets: next turn's start row of the
    target mode for each flag label (an event that allowed Investigate adds it to every
    label, as the recursion does)."""

    def __init__(self, labels: tuple, table: RowIndex | None):
        self.key = id(self)  # one object per label tuple and turn: hashing it is cheap
        self.X = len(labels)
        self.labels = labels
        self.unlocked = tuple(f._replace(unlock=True) for f in labels)
        self.table = table  # None after turn 12: every target reads the zero row
        self._rows: dict = {}

    def rows(self, target) -> np.ndarray:
        """The source rows ``target`` reads, one per label."""
        r = self._rows.get(target)
        if r is None:
            if self.table is None:
                r = np.zeros(self.X, dtype=np.intp)
            else:
                labels = self.unlocked if target.flags.unlock else self.labels
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
        """The source row ``target`` reads."""
        r = self._rows.get(target)
        if r is None:
            r = self._rows[target] = np.array([self.wrow(target.key, target.flags)], np.intp)
        return r


class _Action(NamedTuple):
    """An Action with a 2d6 table at one (turn, mode), as the recursion values it."""

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
        self.vspec: dict = {}  # start row -> (start mode, others row, bonus Action or None, key)
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
        self.keep = True  # whether this turn's values go to the memo

    def w_row(self, recursion, key, flags) -> tuple:
        """Where the Encounter phase of ``key`` after an Action that left ``flags`` is:
        ``("w", key, label index)`` or ``("x", extra row)``."""
        if key not in self.wkeys:
            self.wkeys[key] = None
        every = recursion.flag_labels(self.t, key)
        if flags in every:
            return ("w", key, every.index(flags))
        return ("x", self.extra.row((key, flags)))


def _targets(lump, seen: dict) -> tuple:
    """Every target of ``lump`` and of its decision nodes' lumps (not ``Ref`` lines)."""
    out = seen.get(id(lump))
    if out is None:
        acc = list(lump.targets)
        for _, node in lump.nodes:
            if type(node) is MaxNode:
                for o in node.options:
                    acc += _targets(o, seen)
            elif type(node) is CombatNode:
                for _, sub in node.terms:
                    acc += _targets(sub, seen)
        out = seen[id(lump)] = tuple(dict.fromkeys(acc))
    return out


class Sweep:
    """The DP a turn at a time, with its work arrays (``buffers``, reused between turns
    and sweeps)."""

    def __init__(self):
        self.buffers = Buffers()

    def run(self, recursion, roots_v, roots_w, t0: int, keep=None, report=None) -> None:
        """Fill ``recursion``'s memo for everything reachable from start-of-turn rows
        ``roots_v`` ((mode key, flags) at turn ``t0``) and Encounter phases ``roots_w``
        (mode keys), for the turns in ``keep`` (None: every turn). Turns not kept are
        computed in reused buffers. ``report(message)`` is told each turn laid out and
        solved."""
        turns: list[_Turn] = []
        shared = Shared(self.buffers, recursion.compiler.moves)
        cur = _Turn(t0, shared)
        for key, f in roots_v:
            cur.vrows.row((key, f))
        for key in roots_w:
            cur.w_row(recursion, key, NO_FLAGS)
        seen: dict = {}
        report = report or (lambda message: None)
        for t in range(t0, T.TURNS + 1):
            report(f"laying out turn {t} of {T.TURNS}")
            turns.append(cur)
            nxt = _Turn(t + 1, shared) if t < T.TURNS else None
            _forward(recursion, cur, nxt, seen)
            cur = nxt
        nxt_v = np.zeros((1, SL))
        for turn in reversed(turns):
            report(f"solving turn {turn.t} (from turn {T.TURNS} back to turn {t0})")
            turn.keep = keep is None or turn.t in keep
            nxt_v = _backward(recursion, turn, nxt_v)


def _forward(recursion, turn: _Turn, nxt: _Turn | None, seen: dict) -> None:
    """Lay out turn ``turn.t``: its start rows' Actions, the Actions' rows (they register
    the Encounter phases they lead to) and the Encounter phases (they register the next
    turn's start rows in ``nxt``)."""
    t = turn.t
    phases = recursion.phases
    # start-of-turn rows: the best of the carried bonus's Action and the best of the
    # other legal Actions (``others``: shared by every bonus value and flag alike)
    for (key, f), row in turn.vrows.ids.items():
        vk, legal, bonus = recursion.turn_start(key, f)
        if bonus is not None:
            turn.need[(key, bonus)] = max(turn.need.get((key, bonus), 1), vk.bonus + 1)
        turn.vspec[row] = (vk, turn.others.row((key, legal, bonus)), bonus, key)
    for (key, legal, bonus), row in turn.others.ids.items():
        cands = []
        for a in legal:
            if a == bonus:
                continue
            if a in (T.ESCAPE_TRAP, T.WAIT):
                turn.w_row(recursion, key, NO_FLAGS)
                cands.append(("w", key, a == T.WAIT))
            else:
                turn.need.setdefault((key, a), 1)
                cands.append(("q", key, a))
        turn.ocands.append(cands)
    # Actions: their rows read this turn's Encounter phases
    after = turn.after
    for (key, a), need in turn.need.items():
        if a not in T.ACTION_TABLES:  # Rest
            lump = phases.rest(key, a)
            turn.acts[(key, a)] = turn.act.add(lump, after)
            for tg in _targets(lump, seen):
                turn.w_row(recursion, tg.key, tg.flags)
            continue
        cleared, mod, with_sm, table, k_row = phases.action_parts(t, key, a)
        outcomes = outcomes_of(table)
        lumps = phases.action_rows(key, a, cleared, k_row, outcomes)
        n_bonus, grown = 1, ()
        if "bonus" in outcomes:
            n_bonus = max(need, min(t, recursion.carried_bound(key, a)))
            grown = tuple((c, turn.w_row(recursion, key, Flags(a, c + 1, False, False)))
                          for c in recursion.odds.bonus_grows(table, mod, with_sm, n_bonus))
        rows = {}
        for o, lump in lumps.items():
            rows[o] = turn.act.add(lump, after)
            for tg in _targets(lump, seen):
                turn.w_row(recursion, tg.key, tg.flags)
        turn.acts[(key, a)] = _Action(mod, with_sm, table, outcomes, rows, n_bonus, grown)
    # Encounter phases: they read next turn's start rows
    readers: dict = {}
    for key in list(turn.wkeys):
        every = recursion.flag_labels(t, key)
        for labels in (every, (NO_FLAGS,)):
            if labels not in readers:
                readers[labels] = NextTurn(labels, nxt.vrows if nxt else None)
        refs = lambda line, key=key: phases.line(key, line)  # noqa: E731
        lumps = [phases.encounter(key, t, False), phases.encounter(key, t, True)]
        if turn.encs[-1].n >= BATCH_ROWS:
            turn.encs.append(Batch(turn.shared))
        enc = turn.encs[-1]
        off = enc.add(lumps[0], readers[every], refs)
        wait = enc.add(lumps[1], readers[(NO_FLAGS,)], refs, ref_reader=readers[every])
        turn.wkeys[key] = (every, len(turn.encs) - 1, off, wait)
        for lump in lumps + [refs(n.line) for _, n in lumps[0].nodes + lumps[1].nodes
                             if type(n) is Ref]:
            for tg in _targets(lump, seen):
                readers[every].rows(tg)  # next turn's start rows (those after Wait among them)


def _backward(recursion, turn: _Turn, next_v: np.ndarray) -> np.ndarray:
    """Turn ``turn.t``'s tables from next turn's start table; returns this turn's."""
    t = turn.t
    buffers = turn.shared.buffers
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
            buffers.gather(wtab, np.concatenate(dst), enc, np.concatenate(src))
    if turn.keep:
        for key, (every, _, _, _) in turn.wkeys.items():
            p, x = place[key], len(every)
            recursion.memo.encounter_all[(t, key)] = (wtab[p:p + x], wtab[p + x:p + x + 1])
    for (key, flags), j in turn.extra.ids.items():
        wtab[n + j] = recursion.encounter(t, key, False, (flags,))[0]

    def w_index(ref) -> int:
        if ref[0] == "w":
            return place[ref[1]] + ref[2]
        return n + ref[1]

    turn.after.wrow = lambda key, flags: w_index(turn.w_row(recursion, key, flags))
    act = turn.act.run(wtab, "act")
    qtab = _q_values(recursion, turn, wtab, act, w_index)
    wait_row = {key: place[key] + len(every) for key, (every, *_) in turn.wkeys.items()}
    return _v_table(recursion, turn, wtab, qtab, place, wait_row)


def _table(turn: _Turn, name: str, rows: int) -> np.ndarray:
    """A new (rows, SL) array for a turn whose memo is kept, else a reused buffer (start
    tables alternate between two: one turn's is read while the one before is made)."""
    if turn.keep:
        return np.empty((rows, SL))
    return turn.shared.buffers.get(name + str(turn.t % 2) if name == "v" else name, rows)


def _q_values(recursion, turn: _Turn, wtab: np.ndarray, act: np.ndarray, w_index) -> np.ndarray:
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


def _v_table(recursion, turn: _Turn, wtab: np.ndarray, qtab: np.ndarray, place: dict,
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
