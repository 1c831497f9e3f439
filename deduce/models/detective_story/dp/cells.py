"""Reachable SM bands of a table: which rows of a (rows, S*L) table the reachable-only
sweep computes, and for each row which SM values (an interval), every Luck of each.

A ``Band`` holds per row an SM interval ``[lo, hi]`` (empty when ``lo > hi``); its compact
values are an array (slots, L): one slot per (row, SM) of the row's interval, rows in
order, each slot the values over every Luck. The forward pass grows intervals
(``Band.grow``: the union's bounding interval); an SM move (``grid.MoveTable``) maps an
interval to an interval, as every move is monotone in SM.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story.dp.grid import SL, L, S


def sm_of_moves(table: np.ndarray) -> tuple:
    """``(sm, luck)``: per move id (rows of a ``MoveTable.table``) the SM each start SM
    goes to (moves, S) and the Luck each start Luck goes to (moves, L): moves act on SM and
    Luck apart."""
    return table[:, ::L] // L, table[:, :L] % L


def nonzero_bounds(weights: np.ndarray) -> tuple:
    """For weights over SM ((k, S)): ``(nxt, prv)``, per row and SM the first SM at or
    above it where the weight is not 0 (S if none) and the last at or below (-1), as int8
    (kept from the forward pass to the backward one)."""
    nz = weights != 0
    sm = np.arange(S, dtype=np.int8)
    idx = np.where(nz, sm, np.int8(S))
    nxt = np.ascontiguousarray(np.minimum.accumulate(idx[:, ::-1], axis=1)[:, ::-1])
    idx = np.where(nz, sm, np.int8(-1))
    prv = np.maximum.accumulate(idx, axis=1)
    return nxt, prv


class Band:
    """Per row of a table of ``rows`` rows an SM interval (``lo``, ``hi``)."""

    def __init__(self, rows: int):
        self.lo = np.full(rows, S, dtype=np.intp)
        self.hi = np.full(rows, -1, dtype=np.intp)
        self.rows = rows
        self._laid = False

    def grow(self, rows: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:
        """Widen row ``rows[i]``'s interval to hold ``[lo[i], hi[i]]`` (empty ones skipped)."""
        keep = lo <= hi
        if not keep.all():
            rows, lo, hi = rows[keep], lo[keep], hi[keep]
        np.minimum.at(self.lo, rows, lo)
        np.maximum.at(self.hi, rows, hi)

    def grow_from(self, rows: np.ndarray, src: "Band", src_rows: np.ndarray) -> None:
        """Widen ``rows[i]`` to hold row ``src_rows[i]`` of ``src``."""
        self.grow(rows, src.lo[src_rows], src.hi[src_rows])

    def grow_all(self, rows: np.ndarray) -> None:
        """Widen ``rows`` to every SM."""
        self.grow(rows, np.zeros(len(rows), dtype=np.intp), np.full(len(rows), S - 1))

    def state(self) -> tuple:
        """The intervals, to rebuild the band later (``Band.of``)."""
        return self.lo.astype(np.int8), self.hi.astype(np.int8)

    @classmethod
    def of(cls, state: tuple) -> "Band":
        """The band of ``state`` (``Band.state``), laid out."""
        lo, hi = state
        b = cls(len(lo))
        b.lo, b.hi = lo.astype(np.intp), hi.astype(np.intp)
        b.lay_out()
        return b

    # -- the compact layout
    def lay_out(self) -> None:
        """Fix the intervals and number the slots (``n``, ``start``, ``sm``: each slot's SM,
        int8)."""
        cnt = np.maximum(self.hi - self.lo + 1, 0)
        self.start = np.r_[0, np.cumsum(cnt)]
        self.n = int(self.start[-1])
        self.sm = (np.arange(self.n) - np.repeat(self.start[:-1] - self.lo, cnt)).astype(np.int8)
        self._pos = None
        self._laid = True

    def _flat(self) -> np.ndarray:
        """Per slot its row * S + SM (made when asked: most bands never need it)."""
        return np.repeat(np.arange(self.rows), np.diff(self.start)) * S + self.sm

    def pos(self) -> np.ndarray:
        """Per (row * S + SM): its slot, or -1 (int32)."""
        if self._pos is None:
            self._pos = np.full(self.rows * S, -1, dtype=np.int32)
            self._pos[self._flat()] = np.arange(self.n, dtype=np.int32)
        return self._pos

    def count(self, rows: np.ndarray) -> np.ndarray:
        """How many slots each of ``rows`` has."""
        return self.start[rows + 1] - self.start[rows]

    def expand(self, rows: np.ndarray) -> tuple:
        """Every slot of each of ``rows`` (repeats allowed): ``(i, p)``, for each slot the
        index into ``rows`` and the slot."""
        cnt = self.count(rows)
        i = np.repeat(np.arange(len(rows)), cnt)
        shift = np.repeat(self.start[rows] - (np.cumsum(cnt) - cnt), cnt)
        return i, np.arange(int(cnt.sum())) + shift

    def dense(self, vals: np.ndarray) -> np.ndarray:
        """The compact ``vals`` (slots, L) as a (rows, S*L) table, NaN outside the bands."""
        out = np.full((self.rows * S, L), np.nan)
        out[self._flat()] = vals
        return out.reshape(self.rows, SL)
