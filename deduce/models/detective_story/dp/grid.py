"""The (SM, Luck) grid every value of the DP is laid out on, and symbolic SM and Luck.

A value is a flat numpy array over (SM 0..``SM_CAP``, Luck 0..``LUCK_CAP``), SM-major: index
``sm * L + luck`` (values above a cap count as the cap). A phase is traced on a case whose
SM and Luck are symbolic (``Lin``), so its end says, for every start value at once, where
SM and Luck went: a *move*, kept as flat indices in a ``MoveTable``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

#: SM and Luck above these count as the cap: every SM threshold of the rulebook saturates
#: well below 24 (13+ rows need SM 12; Motive values are small), and 16 Luck buys more
#: re-rolls than the 12 Action rolls of a case can use after the usual losses
SM_CAP = 24
LUCK_CAP = 16
S, L = SM_CAP + 1, LUCK_CAP + 1
SL = S * L

#: per flat index: whether Luck is at least 1 there (a re-roll can be paid)
CAN_SPEND = np.tile(np.arange(L) >= 1, S)
CAN_SPEND.flags.writeable = False


class Lin(NamedTuple):
    """A symbolic SM or Luck: ``max(c, x + a)`` of the value ``x`` the phase started with
    (``c`` is never negative: SM and Luck never go below 0).

    >>> Lin(0, 0).plus(-2)
    Lin(a=-2, c=0)
    >>> Lin(-2, 0).plus(3)
    Lin(a=1, c=3)
    """

    a: int
    c: int

    def plus(self, n: int) -> "Lin":
        """The value ``n`` higher (``max(0, x + n)`` of this value ``x``)."""
        return Lin(self.a + n, max(0, self.c + n))


IDENT = Lin(0, 0)


def _actual_table(size: int) -> np.ndarray:
    """``table[a + size - 1, c, x]``: ``min(max(c, x + a), size - 1)`` for ``a`` in
    -(size-1)..size-1, ``c`` in 0..size-1 and ``x`` in 0..size-1 (any other ``a`` or ``c``
    gives the row of the nearest one)."""
    m = size - 1
    a = np.arange(-m, m + 1)[:, None, None]
    c = np.arange(size)[None, :, None]
    x = np.arange(size)[None, None, :]
    out = np.minimum(np.maximum(c, x + a), m)
    out.flags.writeable = False
    return out


_ACTUAL = {S: _actual_table(S), L: _actual_table(L)}


def actual(v: Lin, size: int) -> np.ndarray:
    """The actual values of ``v`` for every start value 0..size-1, clipped to the cap
    (``size`` is ``S`` or ``L``); a read-only array.

    >>> actual(Lin(-1, 2), L)[:5].tolist()
    [2, 2, 2, 2, 3]
    """
    m = size - 1
    return _ACTUAL[size][min(max(v.a, -m), m) + m, min(v.c, m)]


def compose(v, leaf: Lin):
    """``leaf`` applied after ``v`` (an int or a ``Lin``): an int or a ``Lin``.

    >>> compose(3, Lin(-5, 1)), compose(Lin(2, 0), Lin(-1, 1))
    (1, Lin(a=1, c=1))
    """
    if type(v) is int:
        return max(leaf.c, v + leaf.a)
    if v is IDENT and leaf.c >= leaf.a:  # every traced leaf from a probe: itself (no copy)
        return leaf
    return Lin(v.a + leaf.a, max(leaf.c, v.c + leaf.a))


def at(arr, sm: int, luck: int) -> float:
    """The value of a flat (S*L) array (or a constant) at a concrete SM and Luck (above a
    cap: at the cap)."""
    if not isinstance(arr, np.ndarray):
        return float(arr)
    return float(arr[min(sm, S - 1) * L + min(luck, L - 1)])


def luck_columns(vals: np.ndarray, width: int) -> np.ndarray:
    """Values over (slots, Luck columns), equal from their last column on, on ``width``
    columns: the last one repeated, or the columns above dropped (a new C-ordered array:
    ``vals[:, cols]`` would be Fortran-ordered).

    >>> luck_columns(np.array([[1.0, 2.0]]), 4).tolist()
    [[1.0, 2.0, 2.0, 2.0]]
    """
    return np.take(vals, np.minimum(np.arange(width), vals.shape[1] - 1), axis=1)


def by_sm(p):
    """A weight over SM, shape (S, 1), as a flat (S*L) array; a float stays a float."""
    if not isinstance(p, np.ndarray):
        return p
    return np.repeat(p.reshape(-1), L)


def shift_luck(x):
    """Flat arrays (any leading axes) read one Luck lower: at Luck 0 the Luck 0 value
    (a caller masks it with ``CAN_SPEND``); a float stays a float."""
    if not isinstance(x, np.ndarray):
        return x
    y = x.reshape(x.shape[:-1] + (S, L))
    return np.concatenate([y[..., :1], y[..., :-1]], axis=-1).reshape(x.shape)


class MoveTable:
    """The (SM, Luck) changes seen so far, each an id: row ``id`` of ``table`` holds, for
    every flat start index, the flat index after the change. The identity is id 0
    (``IDENTITY``). One table per solver: ids grow as phases are compiled."""

    IDENTITY = 0

    def __init__(self):
        self.ids: dict = {}
        self.table = np.empty((64, SL), dtype=np.intp)
        self.id(IDENT, IDENT)

    def id(self, sm: Lin, luck: Lin) -> int:
        """The id of the change to ``sm`` and ``luck``, registered on first use."""
        i = self.ids.get((sm, luck))
        if i is None:
            i = self.ids[(sm, luck)] = len(self.ids)
            if i >= len(self.table):
                grown = np.empty((2 * len(self.table), SL), dtype=np.intp)
                grown[:i] = self.table[:i]
                self.table = grown
            self.table[i] = (actual(sm, S)[:, None] * L + actual(luck, L)[None, :]).ravel()
        return i
