"""The DP's memo: what it has valued, per turn and mode, each in a store named for what it
holds. A value is a flat (S*L) float64 array over every SM and Luck (``grid``), or a stack
of them over flag labels or carried bonuses; or, written by the reachable-only sweep, the
same rows kept compact (``Rows``: per row the SM interval it was reached on, every Luck).

Keys: ``t`` the turn, ``key`` a mode key (``modes.ModeKeys.key``), ``labels`` a tuple of
``modes.Flags`` (the flags an Action leaves for next turn), a *start mode* the mode key
with the flags that matter at the start of a turn (``Recursion.start_mode``).

Contract with the reachable-only sweep (``sweep.Sweep``, the production solver's) and with
what keeps a solved case on disk:

- ``start`` values are one row ((S*L) arrays, or ``Rows`` of one row with ``ndim`` 1),
  ``action`` values one row or (bonus, S*L), ``encounter_all`` values ((labels, S*L),
  (1, S*L)); the plain recursion and the dense sweep write full arrays, the reachable
  sweep ``Rows``. A cell outside a row's interval, or NaN, is "not known": every reader of
  the solver reads a cell through ``cell`` (``Recursion.start_value`` and the like) and
  takes NaN so; such a cell is valued by the plain recursion, and ``Solver.prepare``
  sweeps again from a case whose own cell is not known;
- ``store`` (the solved-case cache) writes ``start``, ``action`` and ``encounter_all`` as
  ``Rows`` and puts them back into the memo of a fresh solver of the same case context
  (before any query; cells already known are kept), after which ``value``, ``q_values``,
  ``after_action`` and ``at`` answer as the solver that swept, without sweeping, for every
  case the sweep reached. Only a solver whose sweep is partial (``advice.Solver``) may be
  filled so: the plain recursion reads whole arrays.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story.dp.grid import SL, L, S, luck_columns


#: ``Memo.start_rows`` keeps the latest this many entries
RECENT_ROWS = 1024


class Memo:
    """The stores of one solver (the recursion fills them on demand, the sweep a turn at a
    time; both put the same values under the same keys)."""

    def __init__(self):
        #: (t, start mode) -> (S*L): the start of the turn, the best legal Action
        self.start: dict = {}
        #: (t, key, labels) -> (labels, S*L): the start of the turn for each label, the
        #: latest ``RECENT_ROWS`` only
        self.start_rows: dict = {}
        #: (t, key, action) -> (S*L), or (bonus, S*L) for each carried bonus of an Action
        #: with a +1 row: the Action's value, Luck re-roll included
        self.action: dict = {}
        #: (t, key, waited, labels) -> (labels, S*L): the Encounter phase after the Action
        #: (after Wait if ``waited``) for each label
        self.encounter: dict = {}
        #: (t, key) -> ((every label, S*L), (1, S*L)): the Encounter phase for every flag
        #: label an Action at ``key`` can leave, and after Wait
        self.encounter_all: dict = {}
        #: (t, start mode without bonus, action) -> (S*L) or 0.0: the best legal Action
        #: other than ``action``
        self.best_other: dict = {}

    def keep_rows(self, k: tuple, value) -> None:
        """``start_rows[k] = value``, the oldest entry dropped past ``RECENT_ROWS``."""
        if len(self.start_rows) >= RECENT_ROWS:
            del self.start_rows[next(iter(self.start_rows))]
        self.start_rows[k] = value

    def drop_turn(self, t: int) -> None:
        """Forget turn ``t``'s ``start``, ``action`` and ``encounter_all`` entries (what a
        sweep writes): a solve that kept them elsewhere (``store``) no longer holds them
        here; a cell asked later is not known (read from there, or solved again)."""
        for store in (self.start, self.action, self.encounter_all):
            for k in [k for k in store if k[0] == t]:
                del store[k]

    @property
    def entries(self) -> int:
        """Values kept (each over every SM and Luck; an Encounter entry over its labels):
        start, action and Encounter phase entries."""
        return len(self.start) + len(self.encounter) + len(self.encounter_all) + len(self.action)



class Rows:
    """Rows over (SM, Luck), each known on an SM interval only (every Luck of each SM): row
    ``r`` holds SM ``lo[r]`` to ``lo[r] + n_r - 1`` (``n_r = start[r + 1] - start[r]``, 0:
    nothing known) as ``block[start[r]:start[r + 1]]`` ((n_r, w) float64, NaN where not
    known either; ``block`` may be a whole table the rows are a part of: ``values()``).
    ``w`` is L, or fewer columns when the values are equal from Luck ``w - 1`` on (the
    sweep's late turns): a Luck above reads column ``w - 1`` (``values()`` gives every
    Luck). ``ndim`` 1: a single row standing for a flat (S*L) value, 2: a stack ((rows,
    S*L) as an array). Read-only by convention: a writer makes a new one."""

    __slots__ = ("lo", "start", "block", "ndim")

    def __init__(self, lo: np.ndarray, start: np.ndarray, block: np.ndarray, ndim: int = 2):
        self.lo, self.start, self.block, self.ndim = lo, start, block, ndim

    def __len__(self) -> int:
        return len(self.lo)

    @property
    def shape(self) -> tuple:
        """The shape of the array it stands for (``dense``)."""
        return (SL,) if self.ndim == 1 else (len(self.lo), SL)

    def at(self, row: int, sm: int, luck: int) -> float:
        """The value of row ``row`` at ``sm`` and ``luck`` (capped as ``grid.at``); NaN if
        not known."""
        sm, luck = min(sm, S - 1), min(luck, self.block.shape[1] - 1)
        a = int(self.start[row])
        i = sm - int(self.lo[row])
        if 0 <= i < int(self.start[row + 1]) - a:
            return float(self.block[a + i, luck])
        return float("nan")

    @property
    def slots(self) -> int:
        """The (SM, every Luck) slots its rows hold."""
        return int(self.start[-1]) - int(self.start[0])

    def columns(self) -> np.ndarray:
        """Its rows' slots, in order, on the block's Luck columns: (slots, w), a view (a
        Luck above the last column reads it)."""
        return self.block[int(self.start[0]):int(self.start[-1])]

    def values(self) -> np.ndarray:
        """Its rows' slots, in order, at every Luck: (slots, L) (a view of the block, or a
        new array when the block has fewer columns)."""
        v = self.columns()
        return v if v.shape[1] == L else luck_columns(v, L)

    def dense(self) -> np.ndarray:
        """The array it stands for: (S*L) or (rows, S*L), NaN at the cells not known."""
        n = np.diff(self.start)
        out = np.full((len(self.lo) * S, L), np.nan)
        row = np.repeat(np.arange(len(self.lo)), n)
        start = self.start - self.start[0]
        sm = np.arange(self.slots) - np.repeat(start[:-1] - self.lo, n)
        out[row * S + sm] = self.values()
        return out.reshape(-1) if self.ndim == 1 else out.reshape(len(self.lo), SL)

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(rows)``: ``dense()`` (a new array)."""
        out = self.dense()
        return out if dtype is None else out.astype(dtype)

    def row(self, r: int) -> "Rows":
        """Row ``r`` alone, as a single row (``ndim`` 1)."""
        return Rows(self.lo[r:r + 1], self.start[r:r + 2], self.block, 1)

    @classmethod
    def of(cls, value) -> "Rows":
        """``value`` as ``Rows``: a ``Rows`` as is; an (S*L) or (rows, S*L) array, each row
        kept on the interval from its first to its last SM with a finite cell."""
        if type(value) is Rows:
            return value
        a = np.asarray(value, dtype=np.float64)
        by = a.reshape(-1, S, L)
        known = np.isfinite(by).any(axis=2)
        some = known.any(axis=1)
        lo = np.where(some, known.argmax(axis=1), 0)
        hi = np.where(some, S - 1 - known[:, ::-1].argmax(axis=1), -1)
        n = np.maximum(hi - lo + 1, 0)
        start = np.r_[0, np.cumsum(n)]
        block = np.concatenate([by[r, lo[r]:lo[r] + n[r]] for r in range(len(by))]) \
            if len(by) else np.zeros((0, L))
        return cls(lo.astype(np.int8), start, block, a.ndim)


def cell(value, row: int, sm: int, luck: int) -> float:
    """The one reader of a memo value: row ``row`` (of a stack; 0 of a single row) at
    ``sm`` and ``luck``, a ``Rows``, an array or a constant; NaN where not known, and for a
    row past the stack's end."""
    if type(value) is Rows:
        if value.ndim == 1:
            row = 0
        return value.at(row, sm, luck) if row < len(value.lo) else float("nan")
    if not isinstance(value, np.ndarray):
        return float(value)
    if value.ndim == 2:
        if row >= len(value):
            return float("nan")
        value = value[row]
    return float(value[min(sm, S - 1) * L + min(luck, L - 1)])


def merged(old, value):
    """``value`` (an array, ``Rows``, or a tuple of them) with the cells it does not know
    (NaN, or outside a row's interval) taken from ``old`` where the shapes agree; two
    ``Rows`` (or one and an array) give ``Rows`` over each row's two intervals."""
    if type(value) is tuple:
        if type(old) is not tuple or len(old) != len(value):
            return value
        return tuple(merged(o, v) for o, v in zip(old, value))
    if type(old) is tuple or old.shape != value.shape:
        return value
    if type(value) is not Rows and type(old) is not Rows:
        return np.where(np.isnan(value), old, value)
    if type(value) is Rows and type(old) is Rows and len(value) == len(old):
        return _merged_rows(old, value)
    return Rows.of(_filled(value, old))


def _same_on_smaller(old: Rows, new: Rows):
    """Of two single rows, the one whose interval holds the other's when the two agree bit
    for bit where both are (then it is their ``merged``); else None."""
    n_o, n_n = old.slots, new.slots
    if not n_o or not n_n:
        return new if n_n else old
    lo_o, lo_n = int(old.lo[0]), int(new.lo[0])
    big, small, lo_b, lo_s, n_b, n_s = (old, new, lo_o, lo_n, n_o, n_n) if n_o >= n_n else \
        (new, old, lo_n, lo_o, n_n, n_o)
    if not lo_b <= lo_s <= lo_s + n_s <= lo_b + n_b:
        return None
    part = big.values()[lo_s - lo_b:lo_s - lo_b + n_s]
    return big if np.array_equal(part, small.values()) else None


def _merged_rows(old: Rows, new: Rows) -> Rows:
    """``merged`` of two ``Rows`` of as many rows, without the full arrays: ``new`` itself
    when its intervals hold ``old``'s and it knows every cell of them (the usual case: a
    row reached from more sources in the same sweep), else over each row's bounding
    interval, ``new``'s known cells, then ``old``'s, NaN in a gap between the two."""
    if len(old) == 1:  # a start value: one row, often reached again on part of it
        same = _same_on_smaller(old, new)
        if same is not None:
            return same
    n_old, n_new = np.diff(old.start), np.diff(new.start)
    lo_o, lo_n = old.lo.astype(np.intp), new.lo.astype(np.intp)
    hi_o, hi_n = lo_o + n_old - 1, lo_n + n_new - 1
    has_o, has_n = n_old > 0, n_new > 0
    nv = new.values()
    if ((~has_o) | (has_n & (lo_n <= lo_o) & (hi_n >= hi_o))).all() \
            and not np.isnan(nv).any():
        return new
    lo = np.where(has_o & has_n, np.minimum(lo_o, lo_n), np.where(has_o, lo_o, lo_n))
    hi = np.where(has_o & has_n, np.maximum(hi_o, hi_n), np.where(has_o, hi_o, hi_n))
    count = np.where(has_o | has_n, hi - lo + 1, 0)
    start = np.r_[0, np.cumsum(count)]
    block = np.full((int(start[-1]), L), np.nan)
    for n, lo_x, vals in ((n_old, lo_o, old.values()), (n_new, lo_n, nv)):
        row = np.repeat(np.arange(len(n)), n)
        first = np.r_[0, np.cumsum(n)][:-1]
        at = start[:-1][row] + (lo_x[row] - lo[row]) + np.arange(len(row)) - first[row]
        if vals is nv:  # new's unknown cells keep old's
            block[at] = np.where(np.isnan(vals), block[at], vals)
        else:
            block[at] = vals
    return Rows(np.where(count > 0, lo, S).astype(np.int8), start.astype(np.int32), block,
                new.ndim)


def _filled(value, old) -> np.ndarray:
    a = value.dense() if type(value) is Rows else np.asarray(value, dtype=np.float64)
    b = old.dense() if type(old) is Rows else np.asarray(old, dtype=np.float64)
    return np.where(np.isnan(a), b, a)
