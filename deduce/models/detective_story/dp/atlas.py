"""The reachable-only sweep's layout, made once for every turn of a sweep (``sweep``).

Turns differ in few things: the Encounter band (``tables.band_for``), the Action odds
(``phases.turn_class``), each mode's flag labels (``Recursion.flag_labels``: a +1 row's
bonus grows with the turn) and how many carried bonuses an Action's values need. The
phases themselves (compiled once per mode, ``phases.Phases``) do not. So the layout is
one set of tables shared by every turn, each turn reaching and valuing a part of them:

- ``chart`` (the *forward pass over modes*, cheap): per turn from the roots, which start
  rows (one per start mode: ``StartRows``), Actions (with the carried bonuses they need)
  and Encounter rows (mode key, flags an Action leaves) the turn has, and each Encounter
  mode's labels;
- ``Atlas``: the union of every turn's, laid out once: the start table ``V`` (rows: start
  modes, each named by a (key, flags) of it), the best-other rows ``O``, the Action
  values' table ``Q`` (rows (key, Action, carried bonus), Rest's after the tables'), one
  Action batch (its rows read the Encounter table ``W``: rows (key, flags) and each key's
  row after Wait), and per Encounter band the batches of the Encounter phases (one
  instance per (key, labels), reading ``V``), each compiled into arrays once
  (``compact.CompactBatch``);
- per turn, what only that turn has: its Action odds (``Atlas.q_layout``) and which
  Encounter rows are its labels' (``Atlas.links``: the Encounter batch rows they are) or
  flags no Action of the turn leaves (valued by the plain recursion).

After turn 12 the Encounter phases read the start table at zero (the case is lost), so
the last turn's batches are valued against a table of zeros.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.batch import Batch, Shared
from deduce.models.detective_story.dp.compact import INDEX, CompactBatch
from deduce.models.detective_story.dp.layout import (BATCH_ROWS, AfterAction, NextTurn,
                                                     RowIndex, lump_targets)
from deduce.models.detective_story.dp.modes import NO_FLAGS, Flags
from deduce.models.detective_story.dp.phases import turn_class
from deduce.models.detective_story.dp.rolls import outcomes_of
from deduce.models.detective_story.dp.trace import Ref

#: the flags of a key's Encounter row after Wait (no ``Flags`` is None)
WAITED = None


def first_seen(*parts) -> np.ndarray:
    """The ids of ``parts`` (int sequences or arrays, in order) each once, in the order
    first seen (as ``dict.fromkeys`` of them all would give), int32. (A turn's start rows
    and what each Encounter phase reads were dicts of ints: about 10 MB of a fresh a001
    chart.)"""
    ids = np.concatenate([np.asarray(p, dtype=np.int32) for p in parts] or
                         [np.zeros(0, dtype=np.int32)])
    _, first = np.unique(ids, return_index=True)
    return ids[np.sort(first)]


class TurnChart:
    """What one turn has (``Chart.run``), as ids of the ``Chart``'s indices: ``starts`` its
    start rows (V ids), ``need`` per Action (``acts`` id) the carried bonus values its
    start rows need, ``n_bonus`` and ``grown`` per Action with a +1 row (the bonus values
    valued, those at which the +1 row can come up), ``wrows`` the Encounter rows its
    Actions lead to (W ids), ``labels`` per Encounter key (``keys`` id) its flag labels.
    ``starts`` and ``wrows`` are int32 arrays, each id once, in the order first reached
    (``first_seen``)."""

    def release(self, kept: bool) -> None:
        """Drop what only the reach pass reads (``wrows``, ``labels``, ``grown``) and, unless
        the turn's values are ``kept`` for the memo, what only writing them reads."""
        self.wrows = self.labels = self.grown = None
        if not kept:
            self.starts = self.need = self.n_bonus = None

    def __init__(self, t: int, starts: np.ndarray):
        self.t = t
        self.starts = starts
        self.need: dict = {}
        self.n_bonus: dict = {}
        self.grown: dict = {}
        self.wrows: np.ndarray | None = None  # made once its Actions are charted
        self.labels: dict = {}


class StartRows(RowIndex):
    """The start table's rows: one per *start mode* (``Recursion.turn_start``), however
    many (key, flags) lead to it (flags that cannot matter at the start of a turn, say
    Investigate allowed when it is anyway): ``row((key, flags))`` is its start mode's row,
    named by the first (key, flags) seen; ``ids`` holds every (key, flags) asked. A start
    mode's value is one (its best legal Action), so its rows would be the same values on
    SM intervals of their own (a fresh a001 case: 52 thousand such rows of 137 thousand)."""

    def __init__(self, recursion):
        super().__init__()
        self.recursion = recursion
        self._by_mode: dict = {}  # start mode -> its row

    def row(self, name) -> int:
        """The row of (key, flags) ``name``: its start mode's (made on first use)."""
        i = self.ids.get(name)
        if i is None:
            vk = self.recursion.turn_start(*name)[0]
            i = self._by_mode.get(vk)
            if i is None:
                i = self._by_mode[vk] = len(self.names)
                self.names.append(name)
            self.ids[name] = i
        return i

    def __len__(self) -> int:
        return len(self.names)


class Chart:
    """The forward pass over modes (no values, no SM): from the roots, turn by turn, the
    start rows, Actions, Encounter rows and Encounter keys each turn has, with the ids of
    the tables every turn shares: ``V`` start rows (``StartRows``), ``W`` (key, flags or
    ``WAITED``) Encounter rows (``wkey``: each one's key id), ``acts`` (key, Action),
    ``keys`` Encounter mode keys. What a start row, an Action or an Encounter phase leads
    to is worked out once and kept, so that a turn is a few dictionary updates."""

    def __init__(self, recursion):
        self.recursion = recursion
        self.V, self.W = StartRows(recursion), RowIndex()
        self.acts, self.keys = RowIndex(), RowIndex()
        self.wkey: list = []
        self.vinfo: dict = {}  # V id -> (bonus need or None, Action ids, W id or -1, vk, others)
        self._act_rows: dict = {}  # acts id -> the W ids its rows lead to (array)
        self._bonus: dict = {}  # acts id -> (table, with SM, carried bound), None: no +1 row
        self._grown: dict = {}  # (acts id, mod, n) -> (grown, their W ids: an array)
        self._label_rows: dict = {}  # (key id, labels) -> W ids of the labels, then after Wait
        self._next: dict = {}  # (key id, band, labels) -> the V ids read next turn (array)
        self._seen: dict = {}  # ``layout.lump_targets``
        self._by_band: dict = {}  # (key, band) -> ``_targets``
        # ``_reads``' table of V ids: (target id, label id) -> V id, -1 if not asked yet
        self._targets_seen, self._labels_seen = RowIndex(), RowIndex()
        self._lcache: dict = {}  # labels -> their ids
        self._vtab = np.full((0, 0), -1, dtype=np.int32)

    def release(self) -> None:
        """Drop what only charting and laying out read (the kept results of a start row,
        an Action, an Encounter phase), once every turn is reached; ``acts`` stays."""
        self._act_rows = self._bonus = self._grown = self._label_rows = None
        self._next = self._seen = self._by_band = self.vinfo = self.wkey = None
        self._targets_seen = self._labels_seen = self._lcache = None
        self._vtab = None
        self.V = self.W = self.keys = None

    def w(self, key, flags) -> int:
        """The W id of ``key``'s Encounter row after an Action that left ``flags``."""
        i = self.W.ids.get((key, flags))
        if i is None:
            i = self.W.row((key, flags))
            self.wkey.append(self.keys.row(key))
        return i

    def label_rows(self, kid: int, every: tuple) -> tuple:
        """W ids of key ``kid``'s rows for ``every`` label, then its row after Wait."""
        k = (kid, every)
        out = self._label_rows.get(k)
        if out is None:
            key = self.keys.names[kid]
            out = self._label_rows[k] = tuple(self.w(key, f) for f in every + (WAITED,))
        return out

    def run(self, roots_v, roots_w, t0: int, report=None) -> tuple:
        """Turns ``t0``..12 from start rows ``roots_v`` ((key, flags) at turn ``t0``) and
        Encounter phases ``roots_w`` (keys): ``(TurnChart per turn, the V ids turn 12's
        Encounter phases read)`` (valued at zero: the case is lost)."""
        report = report or (lambda message: None)
        charts = []
        starts = first_seen([self.V.row(kf) for kf in roots_v])
        for t in range(t0, T.TURNS + 1):
            report(f"laying out turn {t} of {T.TURNS}")
            c = TurnChart(t, starts)
            roots = [self.w(key, NO_FLAGS) for key in roots_w] if t == t0 else []
            c.wrows = first_seen(roots, self._start_rows(c), *self._actions(c))
            starts = self._encounters(c)
            charts.append(c)
        return charts, starts

    def _start_info(self, v: int) -> tuple:
        info = self.vinfo.get(v)
        if info is None:
            key, f = self.V.names[v]
            vk, legal, bonus = self.recursion.turn_start(key, f)
            need = (self.acts.row((key, bonus)), vk.bonus + 1) if bonus is not None else None
            others = [a for a in legal if a != bonus]
            plain = tuple(self.acts.row((key, a)) for a in others
                          if a not in (T.ESCAPE_TRAP, T.WAIT))
            w = self.w(key, NO_FLAGS) if len(plain) < len(others) else -1
            info = self.vinfo[v] = (need, plain, w, vk, (key, legal, bonus))
        return info

    def _start_rows(self, c: TurnChart) -> list:
        """Fill ``c.need`` with the Actions of ``c``'s start rows; return the Encounter rows
        Escape and Wait read."""
        need, wrows = c.need, []
        for v in c.starts.tolist():
            bonus, plain, w, _, _ = self._start_info(v)
            if bonus is not None:
                a, n = bonus
                need[a] = max(need.get(a, 1), n)
            for a in plain:
                need.setdefault(a, 1)
            if w >= 0:
                wrows.append(w)
        return wrows

    def _actions(self, c: TurnChart) -> list:
        """Fill ``c.n_bonus`` and ``c.grown`` (the carried bonus values of ``c``'s
        Actions); return the Encounter rows they lead to (int32 arrays, in order)."""
        t, recursion, wrows = c.t, self.recursion, []
        for aid, need in c.need.items():
            rows = self._act_rows.get(aid)
            if rows is None:
                rows = self._act_rows[aid] = self._action(aid, t)
            wrows.append(rows)
            bonus = self._bonus[aid]
            if bonus is None:
                continue
            table, with_sm, bound = bonus
            n = c.n_bonus[aid] = max(need, min(t, bound))
            key, a = self.acts.names[aid]
            mod = recursion.phases.action_parts(t, key, a)[1]
            hit = self._grown.get((aid, mod, n))
            if hit is None:
                grown = recursion.odds.bonus_grows(table, mod, with_sm, n)
                hit = self._grown[(aid, mod, n)] = (grown, first_seen(
                    [self.w(key, Flags(a, g + 1, False, False)) for g in grown]))
            c.grown[aid] = hit[0]
            wrows.append(hit[1])
        return wrows

    def _action(self, aid: int, t: int) -> np.ndarray:
        """The W ids Action ``aid``'s rows lead to (the same at every turn; ``first_seen``);
        notes whether its table has a +1 row (``_bonus``)."""
        recursion = self.recursion
        phases = recursion.phases
        key, a = self.acts.names[aid]
        self._bonus[aid] = None
        if a not in T.ACTION_TABLES:  # Rest
            lumps = (phases.rest(key, a),)
        else:
            _, _, with_sm, table, _ = phases.action_parts(t, key, a)
            outcomes = outcomes_of(table)
            lumps = phases.action_rows(t, key, a).values()
            if "bonus" in outcomes:
                self._bonus[aid] = (table, with_sm, recursion.carried_bound(key, a))
        return first_seen([self.w(tg.key, tg.flags) for lump in lumps
                           for tg in lump_targets(lump, self._seen)])

    def _encounters(self, c: TurnChart) -> np.ndarray:
        """``c``'s Encounter keys and their labels; the start rows they read next turn
        (``first_seen``)."""
        t, recursion = c.t, self.recursion
        band = T.band_for(t)
        starts = []
        for kid in dict.fromkeys(self.wkey[w] for w in c.wrows.tolist()):
            key = self.keys.names[kid]
            every = c.labels[kid] = recursion.flag_labels(t, key)
            self.label_rows(kid, every)
            nxt = self._next.get((kid, band, every))
            if nxt is None:
                nxt = self._next[(kid, band, every)] = self._reads(key, t, every)
            starts.append(nxt)
        return first_seen(*starts)

    def _reads(self, key, t: int, every: tuple) -> np.ndarray:
        """The V ids the Encounter phase of turn ``t`` from ``key`` reads next turn, for
        labels ``every`` (an event that allowed Investigate: the labels with it), in the
        order (target, label), each once (``first_seen``): read off ``_vtab`` (a (target,
        label) table of V ids), the start rows not seen yet made in that order."""
        found = self._targets(key, t)
        tids, unlock = found >> 1, (found & 1).astype(bool)
        both = self._lids(every)
        k = len(every)
        cols = np.where(unlock[:, None], both[None, k:], both[None, :k])
        rows = self._vtab[tids[:, None], cols].ravel()
        missing = np.flatnonzero(rows < 0)
        if len(missing):  # a (target, label) asked for the first time: its start row
            for j in missing.tolist():
                tid, lid = int(tids[j // k]), int(cols[j // k, j % k])
                rows[j] = self._vtab[tid, lid] = self.V.row(
                    (self._targets_seen.names[tid], self._labels_seen.names[lid]))
        return first_seen(rows)

    def _lids(self, labels: tuple) -> np.ndarray:
        """The ``_vtab`` columns of ``labels``, then of each with Investigate allowed (new
        ones added). (One array per labels, and one per target list in ``_targets``: the
        chart's many small arrays are freed before the backward pass, but the holes they
        leave in the interpreter's memory stay.)"""
        out = self._lcache.get(labels)
        if out is None:
            seen = self._labels_seen
            out = self._lcache[labels] = np.array(
                [seen.row(f) for f in labels + tuple(f._replace(unlock=True) for f in labels)],
                dtype=np.int32)
            self._grow_vtab()
        return out

    def _grow_vtab(self) -> None:
        """``_vtab`` widened to every target and label id given so far (-1: not asked),
        each axis doubled when it has to grow (a fresh a002 case: 1,480 targets, 62
        labels)."""
        (n, k), (n0, k0) = (len(self._targets_seen), len(self._labels_seen)), self._vtab.shape
        if n > n0 or k > k0:
            grown = np.full((max(n, 2 * n0) if n > n0 else n0, max(k, 2 * k0) if k > k0
                             else k0), -1, dtype=np.int32)
            grown[:n0, :k0] = self._vtab
            self._vtab = grown

    def _targets(self, key, t: int) -> np.ndarray:
        """The targets of the Encounter phase of turn ``t``'s band from ``key`` (after Wait
        or not, its event lines included), each once, as ``2 * target id + 1`` if its event
        allowed Investigate else ``2 * target id`` (kept per (key, band): a key's labels
        differ from turn to turn, its phase's targets do not)."""
        k = (key, T.band_for(t))
        out = self._by_band.get(k)
        if out is None:
            phases = self.recursion.phases
            lumps = [phases.encounter(key, t, False), phases.encounter(key, t, True)]
            lumps += [phases.line(key, n.line) for lump in lumps for _, n in lump.nodes
                      if type(n) is Ref]
            found = dict.fromkeys((tg.key, tg.flags.unlock) for lump in lumps
                                  for tg in lump_targets(lump, self._seen))
            out = self._by_band[k] = np.array(
                [2 * self._targets_seen.row(target) + unlock for target, unlock in found],
                dtype=np.int32)
            self._grow_vtab()
        return out


class Atlas:
    """Every turn's tables laid out once (see the module docstring), from ``chart``'s
    indices: ``nv``/``no``/``nq``/``nw`` the rows of V, O, Q (table rows, then Rest's) and
    W, ``cact`` the Action batch, ``cencs[band]`` the Encounter batches of a band."""

    def __init__(self, chart: Chart, charts: list, shared: Shared):
        self.recursion = chart.recursion
        self.chart = chart
        self.charts = charts
        self.V, self.W = chart.V, chart.W
        self.shared = shared
        self.nw = len(self.W)
        self._start_table(charts)
        self._encounter_batches(charts)  # they add the start rows of labels a turn lacks
        self.nv = len(self.V)
        self._action_table(charts)
        self._blocks: dict = {}  # ``q_layout``'s rows per (Action, turn class, bonus values)

    def release(self) -> None:
        """Drop what only the reach pass reads (``Atlas.links``, ``q_layout``, the tables'
        names), once every turn is reached."""
        self.inst = self._blocks = self.others = self.spec = self.V = self.W = None
        self.shared.lumps = self.shared.gid = self.shared.targets = None  # compiled now
        self.chart.release()

    # -- the start table and the best other Action
    def _start_table(self, charts) -> None:
        """Per start row of any turn its start mode, others row and bonus Action."""
        self.others = others = RowIndex()
        self.vspec: dict = {}  # V id -> (start mode, others row, bonus acts id or -1)
        for c in charts:
            for v in c.starts.tolist():
                if v not in self.vspec:
                    bonus, _, _, vk, okey = self.chart.vinfo[v]
                    self.vspec[v] = (vk, others.row(okey), bonus[0] if bonus else -1)
        self.no = len(others)

    # -- the Action values' table and the Action batch
    def _action_table(self, charts) -> None:
        """Q rows per Action: as many as its most carried bonus values of any turn
        (Rest's rows after the tables'); the Action batch of every turn's Actions."""
        phases, acts = self.recursion.phases, self.chart.acts
        act = Batch(self.shared)
        after = AfterAction()
        after.wrow = lambda key, flags: self.W.ids[(key, flags)]
        self.spec: dict = {}  # acts id -> (outcomes, {outcome: A row}), or A row (Rest)
        width: dict = {}  # acts id -> Q rows
        for c in charts:
            for aid in c.need:
                width[aid] = max(width.get(aid, 1), c.n_bonus.get(aid, 1))
                if aid in self.spec:
                    continue
                key, a = acts.names[aid]
                if a not in T.ACTION_TABLES:
                    self.spec[aid] = act.add(phases.rest(key, a), after)
                    continue
                _, _, _, table, _ = phases.action_parts(c.t, key, a)
                outcomes = outcomes_of(table)
                lumps = phases.action_rows(c.t, key, a)
                self.spec[aid] = (outcomes, {o: act.add(lump, after) for o, lump in lumps.items()})
        self.qrow: dict = {}  # acts id -> its first Q row
        n = 0
        for aid, spec in self.spec.items():
            if type(spec) is not int:
                self.qrow[aid], n = n, n + width[aid]
        self.nq = n
        rests = [(aid, spec) for aid, spec in self.spec.items() if type(spec) is int]
        for i, (aid, _) in enumerate(rests):
            self.qrow[aid] = n + i
        self.rest_off = np.array([spec for _, spec in rests], dtype=INDEX)
        self.cact = CompactBatch(act)
        act.clear()
        # per start row its others row and its carried bonus's Q row (-1: none)
        self.orow = np.zeros(self.nv, dtype=INDEX)
        self.bq = np.full(self.nv, -1, dtype=INDEX)
        for v, (vk, orow, bonus) in self.vspec.items():
            self.orow[v] = orow
            if bonus >= 0:
                self.bq[v] = self.qrow[bonus] + vk.bonus
        self._candidates()

    def _candidates(self) -> None:
        """Each others row's candidates (``which`` 0: W, 1: Q), padded with its first;
        ``empty`` the rows with none."""
        acts, cands = self.chart.acts, []
        for key, legal, bonus in self.others.names:
            cands.append([(0, self.W.ids[(key, WAITED if a == T.WAIT else NO_FLAGS)])
                          if a in (T.ESCAPE_TRAP, T.WAIT) else (1, self.qrow[acts.ids[(key, a)]])
                          for a in legal if a != bonus])
        width = max(map(len, cands), default=1)
        self.which = np.zeros((len(cands), width), dtype=np.int8)
        self.crows = np.zeros((len(cands), width), dtype=INDEX)
        for row, cs in enumerate(cands):
            for k in range(width if cs else 0):
                self.which[row, k], self.crows[row, k] = cs[k] if k < len(cs) else cs[0]
        self.empty = np.array([not cs for cs in cands], dtype=bool)

    # -- the Encounter batches
    def _encounter_batches(self, charts) -> None:
        """Per band, one instance per key of its turns, for the union of the key's labels
        over them (a label a turn does not have is a row that turn leaves unreached):
        ``inst[(band, key id)] = (batch, first label row, row after Wait, {label: its
        index})``."""
        phases, keys = self.recursion.phases, self.chart.keys
        union: dict = {}  # (band, key id) -> {label: None}, in order
        for c in charts:
            band = T.band_for(c.t)
            for kid, every in c.labels.items():
                union.setdefault((band, kid), {}).update(dict.fromkeys(every))
        readers: dict = {}
        batches: dict = {}  # band -> [Batch]
        self.inst: dict = {}
        for (band, kid), labels in union.items():
            every = tuple(labels)
            encs = batches.setdefault(band, [Batch(self.shared)])
            key = keys.names[kid]
            for ls in (every, (NO_FLAGS,)):
                if ls not in readers:
                    readers[ls] = NextTurn(ls, self.V)
            refs = lambda line, key=key: phases.line(key, line)  # noqa: E731
            if encs[-1].n >= BATCH_ROWS:
                encs.append(Batch(self.shared))
            enc = encs[-1]
            t = next(c.t for c in charts if T.band_for(c.t) == band)
            off = enc.add(phases.encounter(key, t, False), readers[every], refs)
            wait = enc.add(phases.encounter(key, t, True), readers[(NO_FLAGS,)], refs,
                           ref_reader=readers[every])
            self.inst[(band, kid)] = (len(encs) - 1, off, wait,
                                      {f: i for i, f in enumerate(every)})
        self.cencs: dict = {}
        for band, encs in batches.items():
            self.cencs[band] = []
            for enc in encs:
                self.cencs[band].append(CompactBatch(enc))
                enc.clear()

    # -- what one turn has
    def q_layout(self, c: TurnChart) -> tuple:
        """Turn ``c.t``'s Action odds over the Q table rows: ``(pids, kind, src)``, per row
        and outcome the probability row (``Shared.prob_rows``) and where its value is (kind
        1: the Action batch row, 2: the W row of the bonus the +1 row grows to, 0: none,
        as for the rows the turn does not have)."""
        blocks = [self._block(aid, c) for aid in c.need if type(self.spec[aid]) is not int]
        width = max((b[1].shape[1] for b in blocks), default=1)
        pids = np.zeros((self.nq, width), dtype=INDEX)
        kind = np.zeros((self.nq, width), dtype=np.int8)
        src = np.zeros((self.nq, width), dtype=INDEX)
        for w in {b[1].shape[1] for b in blocks}:
            same = [b for b in blocks if b[1].shape[1] == w]
            q = np.concatenate([b[0] for b in same])
            for out, j in ((pids, 1), (kind, 2), (src, 3)):
                out[q, :w] = np.concatenate([b[j] for b in same])
        return pids, kind, src

    def _block(self, aid: int, c: TurnChart) -> tuple:
        """Action ``aid``'s Q rows at turn ``c.t``: ``(rows, pids, kind, src)`` (kept per
        turn class, ``phases.turn_class``, and bonus values: turns of a class roll alike,
        and which bonus values a +1 row can grow from depends on those two only)."""
        n = c.n_bonus.get(aid, 1)
        k = (aid, turn_class(c.t), n)  # the modifier and the +1 rows of the turn's class
        out = self._blocks.get(k)
        if out is None:
            key, a = self.chart.acts.names[aid]
            _, mod, with_sm, table, _ = self.recursion.phases.action_parts(c.t, key, a)
            outcomes, at_rows = self.spec[aid]
            probs = self.recursion.odds.bonus_probs(table, mod, with_sm, n)
            grown = set(c.grown.get(aid, ()))
            at = [at_rows.get(o, 0) for o in outcomes]
            plain = [1 if o != "bonus" else 0 for o in outcomes]
            pid, kind, src = [], [], []
            for b in range(n):
                kb, rb = plain, at
                if b in grown:  # the +1 row reads this turn's Encounter row of the bonus
                    j = outcomes.index("bonus")
                    kb, rb = plain.copy(), at.copy()
                    kb[j], rb[j] = 2, self.W.ids[(key, Flags(a, b + 1, False, False))]
                pid.append(self.shared.prob_rows(probs, b, len(outcomes), with_sm))
                kind.append(kb)
                src.append(rb)
            q0 = self.qrow[aid]
            out = self._blocks[k] = (np.arange(q0, q0 + n), np.array(pid, dtype=INDEX),
                                     np.array(kind, dtype=np.int8), np.array(src, dtype=INDEX))
        return out

    def links(self, c: TurnChart, with_keys: bool) -> tuple:
        """Turn ``c.t``'s Encounter rows: ``(links, keys, extra)``: per Encounter batch of
        its band (W rows, the batch rows they are); per Encounter key (key, batch, its
        label rows then its row after Wait in the batch, its W rows), only ``with_keys``
        (what the memo keeps of the turn: else empty); the (W row, key, flags) of flags no
        Action of the turn leaves (valued by the plain recursion)."""
        band = T.band_for(c.t)
        dst = [[] for _ in self.cencs[band]]
        src = [[] for _ in self.cencs[band]]
        keys, labelled = [], set()
        for kid, every in c.labels.items():
            b, off, wait, at = self.inst[(band, kid)]
            w = self.chart.label_rows(kid, every)
            rows = [off + at[f] for f in every] + [wait]
            labelled.update(w)
            dst[b].append(w)
            src[b].append(rows)
            if with_keys:
                keys.append((self.chart.keys.names[kid], b, rows, list(w)))
        cat = lambda parts: np.fromiter((x for p in parts for x in p), dtype=INDEX)  # noqa: E731
        links = [(cat(d), cat(s)) for d, s in zip(dst, src)]
        extra = [(w, *self.W.names[w]) for w in c.wrows.tolist() if w not in labelled]
        return links, keys, extra
