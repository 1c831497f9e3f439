"""Reachable cells of a table: which (row, SM, Luck) cells of a (rows, S*L) table the
reachable-only sweep computes, and how a compact vector of their values is indexed.

A table's cells are its flat indices ``row * SL + cell`` (``cell = sm * L + luck``, as in
``grid``), sorted: a compact vector holds one value per reachable cell, in that order, so
each row's cells are one contiguous run (``Cells.start``).
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story.dp.grid import SL, L


def or_rows(dst: np.ndarray, rows: np.ndarray, src: np.ndarray) -> None:
    """``dst[rows[i]] |= src[i]`` for every i, repeated rows included (boolean (n, SL)
    arrays)."""
    if not len(rows):
        return
    order = np.argsort(rows, kind="stable")
    r = rows[order]
    first = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
    dst[r[first]] |= np.logical_or.reduceat(src[order], first, axis=0)


def luck_below(mask: np.ndarray) -> np.ndarray:
    """``mask`` with, for every cell at Luck 1 or more, the cell at one Luck less (what a
    Luck re-roll reads): boolean (n, SL)."""
    out = mask.copy()
    m = mask.reshape(len(mask), SL // L, L)
    out.reshape(len(mask), SL // L, L)[:, :, :-1] |= m[:, :, 1:]
    return out


class Cells:
    """The reachable cells of a table of ``rows`` rows (``flat``: sorted flat indices)."""

    def __init__(self, flat: np.ndarray, rows: int):
        self.flat = flat.astype(np.intp, copy=False)
        self.rows = rows
        self.n = len(flat)
        self.cell = self.flat % SL
        self.start = np.searchsorted(self.flat, np.arange(rows + 1) * SL)
        self._pos = None

    @classmethod
    def of(cls, mask: np.ndarray) -> "Cells":
        """The cells of a boolean (rows, SL) mask."""
        return cls(np.flatnonzero(mask), len(mask))

    @classmethod
    def packed(cls, bits: np.ndarray, rows: int) -> "Cells":
        """The cells of a mask kept as ``np.packbits(mask.ravel())``."""
        return cls(np.flatnonzero(np.unpackbits(bits, count=rows * SL)), rows)

    def pos(self) -> np.ndarray:
        """Per flat index of the table: its place in the compact vector, or -1 (int32)."""
        if self._pos is None:
            self._pos = np.full(self.rows * SL, -1, dtype=np.int32)
            self._pos[self.flat] = np.arange(self.n, dtype=np.int32)
        return self._pos

    def count(self, rows: np.ndarray) -> np.ndarray:
        """How many cells each of ``rows`` has."""
        return self.start[rows + 1] - self.start[rows]

    def expand(self, rows: np.ndarray) -> tuple:
        """Every cell of each of ``rows`` (repeats allowed): ``(i, p)``, for each cell the
        index into ``rows`` and the cell's place in the compact vector."""
        cnt = self.count(rows)
        total = int(cnt.sum())
        i = np.repeat(np.arange(len(rows)), cnt)
        shift = np.repeat(self.start[rows] - (np.cumsum(cnt) - cnt), cnt)
        return i, np.arange(total) + shift

    def row_values(self, vals: np.ndarray, row: int) -> np.ndarray:
        """Row ``row`` of the compact ``vals`` as a flat (S*L) array, NaN where not
        reachable."""
        out = np.full(SL, np.nan)
        a, b = self.start[row], self.start[row + 1]
        out[self.cell[a:b]] = vals[a:b]
        return out
