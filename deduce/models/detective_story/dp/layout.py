"""The dense sweep's forward layout, a turn at a time (``dense``, the referee): which
start-of-turn rows (mode, flags), Actions and Encounter phases each turn needs, laid out
as rows of per-turn tables. (The reachable-only sweep lays every turn out at once,
``atlas``, with this module's readers, ``NextTurn`` and ``AfterAction``.)

``first_turn`` makes the turn of the roots; ``lay_out(recursion, turn, nxt, seen)`` lays out
one turn (its start rows' Actions, the Actions' rows, which register the Encounter phases
they lead to, and the Encounter phases, which register the next turn's start rows in
``nxt``): each compiled ``Lump`` becomes an *instance* of a ``batch.Batch``, its rows, the
rows its targets read in the table it reads from, and its decision nodes.
``Turn.encounter_places`` then orders the turn's Encounter table (each key's flag labels,
then its row after Wait, then the rows of flags no Action leaves).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.batch import Batch, Shared
from deduce.models.detective_story.dp.modes import NO_FLAGS, Flags
from deduce.models.detective_story.dp.rolls import outcomes_of
from deduce.models.detective_story.dp.trace import CombatNode, MaxNode, Ref

#: an Encounter batch takes modes until it has this many rows
BATCH_ROWS = 1 << 14


class RowIndex:
    """Row ids of a table (or ids of names): ``row(name)`` registers a name on first use;
    ``names[row]`` the name of a row."""

    def __init__(self):
        self.ids: dict = {}
        self.names: list = []

    def row(self, name) -> int:
        """The row of ``name`` (the next free one on first use)."""
        i = self.ids.get(name)
        if i is None:
            i = self.ids[name] = len(self.names)
            self.names.append(name)
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


class ActionSpec(NamedTuple):
    """An Action with a 2d6 table at one (turn, mode), as the recursion values it."""

    mod: int
    with_sm: bool
    table: tuple
    outcomes: tuple
    rows: dict  # outcome -> offset of its instance in the Action batch (not the +1 row)
    n_bonus: int
    grown: tuple  # ((carried bonus, ``Turn.w_row`` of next turn's bonus), ...): the +1 row


class Turn:
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
        self.acts: dict = {}  # (key, action) -> ActionSpec, or offset (Rest)
        self.qrow: dict = {}  # (key, action) -> first row in the Action values' table
        self._wrows: dict = {}  # (key, flags) -> ``w_row``

    def w_row(self, recursion, key, flags) -> tuple:
        """Where the Encounter phase of ``key`` after an Action that left ``flags`` is:
        ``("w", key, label index)`` or ``("x", extra row)``."""
        hit = self._wrows.get((key, flags))
        if hit is None:
            if key not in self.wkeys:
                self.wkeys[key] = None
            every = recursion.flag_labels(self.t, key)
            hit = (("w", key, every.index(flags)) if flags in every
                   else ("x", self.extra.row((key, flags))))
            self._wrows[(key, flags)] = hit
        return hit

    def encounter_places(self, recursion) -> tuple:
        """The order of this turn's Encounter table: ``(place, n, w_index)``, ``place[key]``
        the row of ``key``'s first flag label (its labels, then its row after Wait),
        ``n`` the rows of every key (the rows of ``extra`` follow), ``w_index(ref)`` the
        row of a ``w_row`` reference; sets ``after.wrow`` (the Action rows' reader)."""
        place: dict = {}
        n = 0
        for key, (every, _, _, _) in self.wkeys.items():
            place[key] = n
            n += len(every) + 1

        def w_index(ref) -> int:
            if ref[0] == "w":
                return place[ref[1]] + ref[2]
            return n + ref[1]

        self.after.wrow = lambda key, flags: w_index(self.w_row(recursion, key, flags))
        return place, n, w_index


def lump_targets(lump, seen: dict) -> tuple:
    """Every target of ``lump`` and of its decision nodes' lumps (not ``Ref`` lines)."""
    out = seen.get(id(lump))
    if out is None:
        acc = list(lump.targets)
        for _, node in lump.nodes:
            if type(node) is MaxNode:
                for o in node.options:
                    acc += lump_targets(o, seen)
            elif type(node) is CombatNode:
                for _, sub in node.terms:
                    acc += lump_targets(sub, seen)
        out = seen[id(lump)] = tuple(dict.fromkeys(acc))
    return out


def lay_out(recursion, turn: Turn, nxt: Turn | None, seen: dict) -> None:
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
            for tg in lump_targets(lump, seen):
                turn.w_row(recursion, tg.key, tg.flags)
            continue
        _, mod, with_sm, table, _ = phases.action_parts(t, key, a)
        outcomes = outcomes_of(table)
        lumps = phases.action_rows(t, key, a)
        n_bonus, grown = 1, ()
        if "bonus" in outcomes:
            n_bonus = max(need, min(t, recursion.carried_bound(key, a)))
            grown = tuple((c, turn.w_row(recursion, key, Flags(a, c + 1, False, False)))
                          for c in recursion.odds.bonus_grows(table, mod, with_sm, n_bonus))
        rows = {}
        for o, lump in lumps.items():
            rows[o] = turn.act.add(lump, after)
            for tg in lump_targets(lump, seen):
                turn.w_row(recursion, tg.key, tg.flags)
        turn.acts[(key, a)] = ActionSpec(mod, with_sm, table, outcomes, rows, n_bonus, grown)
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
            for tg in lump_targets(lump, seen):
                readers[every].rows(tg)  # next turn's start rows (those after Wait among them)




def first_turn(recursion, roots_v, roots_w, t0: int, shared: Shared) -> Turn:
    """Turn ``t0`` with the roots registered: start-of-turn rows ``roots_v`` ((mode key,
    flags), ...) and Encounter phases ``roots_w`` (mode keys, after an Action that left no
    flag)."""
    cur = Turn(t0, shared)
    for key, f in roots_v:
        cur.vrows.row((key, f))
    for key in roots_w:
        cur.w_row(recursion, key, NO_FLAGS)
    return cur
