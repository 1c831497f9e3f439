"""The 96 pattern placements of the 4x4 clue grid, found with bitboards.

A *placement* is one set of four grid cells of one of the eight pattern kinds (the spec's
counts): ``row`` 4, ``column`` 4, ``diagonal`` 2, ``square`` (2x2) 9, ``corners`` 1,
``diamond`` 4 (the four cells orthogonally around one of the four inner cells, the centre
not included), ``l`` 48, ``t`` 24.

The L and T placements are generated, not listed: the tetromino (L: a line of three and a
foot at one end; T: a line of three and a stem on the middle card) in every orientation,
translated to every position where it fits. The plain reading gives the spec's numbers:
the L has no symmetry, so its 4 rotations times 2 mirror images are 8 distinct shapes; the
T is its own mirror image, so only its 4 rotations are distinct. Each shape spans a 3x2 or
a 2x3 box, which fits in 2 x 3 = 6 positions on a 4x4 grid: 8 x 6 = 48 L and 4 x 6 = 24 T
placements, all distinct cell sets (``tests/deductions/test_patterns.py`` checks it against
every 4-cell subset of the grid). An L or T lists its line first, then the extra card.

For a grid, a placement is *exact* for suit S when its four cards are of suit S (take any
one of the four), and *propped* when exactly three are of suit S and the fourth is not
(the fourth is the prop cell, which stays on the grid; take one of the three). An Ally
counts as a card of its suit; an empty cell (``None``, only in hand-entered positions) is a
mismatch for every suit, so it may be the prop cell of a propped placement. Only one suit
can have three or four cards of a placement, so each placement is found at most once.

How: one 16-bit board per suit (bit ``4*r + c``), one 16-bit mask per placement; the
placement is exact when ``mask & ~board == 0`` and propped when that has one bit. The scan
computes ``popcount(mask & board)`` for all 96 placements at once: an int holds 96 3-bit
fields, one per placement, and two 256-entry tables (the low and the high byte of the
board) give the fields of each byte; their sum holds every count (0-4, no carry between
fields), and two shifts pick the fields at 4 (exact) and at 3 (propped). The results are
placements built once at import, so a scan allocates no new ``Placement``; each suit's
result is remembered by its board (``suit_placements``), so a game's next grid rescans
only the suits whose cards changed.
``naive_placements`` is the reference: a coordinate walk of each placement's cells.
``benchmarks/deductions_patterns.py`` times both (and a numpy and a per-placement loop
version that were slower).

>>> grid = [["Writings"] * 4, ["Knowledge"] * 4, [None] * 4, ["Statements"] * 3 + [None]]
>>> [(p.kind, p.suit, p.prop) for p in placements(grid) if p.kind == "row"]
[('row', 'Statements', (3, 3)), ('row', 'Writings', None), ('row', 'Knowledge', None)]
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.models.deductions.cards import ALLY_SUIT, CLUES, SUITS

#: The grid's side.
SIZE = 4
#: The pattern kinds, in the order of ``ALL_PLACEMENTS``.
KINDS = ("row", "column", "diagonal", "square", "corners", "diamond", "l", "t")

Cell = tuple[int, int]


class Shape(NamedTuple):
    """One of the 96 placements of the empty grid: its kind, its 4 cells, their mask."""

    kind: str
    cells: tuple[Cell, Cell, Cell, Cell]
    mask: int


class Placement(NamedTuple):
    """A placement available on a grid: exact (``prop`` None) or propped.

    ``take`` lists the cells whose card may be taken: all four cells of an exact
    placement, the three of ``suit`` for a propped one (``prop`` is the fourth).
    """

    kind: str
    cells: tuple[Cell, Cell, Cell, Cell]
    suit: str
    prop: Cell | None
    take: tuple[Cell, ...]


def _bit(cell: Cell) -> int:
    """The board bit of a cell: ``1 << (4*r + c)``."""
    return 1 << (SIZE * cell[0] + cell[1])


def _shape(kind: str, cells) -> Shape:
    cells = tuple(cells)
    mask = 0
    for cell in cells:
        mask |= _bit(cell)
    return Shape(kind, cells, mask)


def _orientations(base: tuple[Cell, ...], mirrors: bool) -> list[tuple[Cell, ...]]:
    """The distinct rotations (and mirror images) of a shape, each moved to row 0, col 0.

    The cell order of ``base`` is kept (line first, then the extra card).
    """
    found, seen = [], set()
    shapes = [base] + ([tuple((r, -c) for r, c in base)] if mirrors else [])
    for shape in shapes:
        for _ in range(4):
            shape = tuple((c, -r) for r, c in shape)
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            moved = tuple((r - r0, c - c0) for r, c in shape)
            if frozenset(moved) not in seen:
                seen.add(frozenset(moved))
                found.append(moved)
    return found


def _translations(kind: str, base: tuple[Cell, ...], mirrors: bool) -> list[Shape]:
    """Every orientation of ``base`` at every position where it fits on the grid."""
    out = []
    for shape in _orientations(base, mirrors):
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        for dr in range(SIZE - height + 1):
            for dc in range(SIZE - width + 1):
                out.append(_shape(kind, ((r + dr, c + dc) for r, c in shape)))
    return out


def _all_placements() -> tuple[Shape, ...]:
    n = range(SIZE)
    inner = range(1, SIZE - 1)
    shapes = [_shape("row", ((r, c) for c in n)) for r in n]
    shapes += [_shape("column", ((r, c) for r in n)) for c in n]
    shapes += [
        _shape("diagonal", ((i, i) for i in n)),
        _shape("diagonal", ((i, SIZE - 1 - i) for i in n)),
    ]
    shapes += [
        _shape("square", ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)))
        for r in range(SIZE - 1)
        for c in range(SIZE - 1)
    ]
    last = SIZE - 1
    shapes.append(_shape("corners", ((0, 0), (0, last), (last, 0), (last, last))))
    shapes += [
        _shape("diamond", ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)))
        for r in inner
        for c in inner
    ]
    shapes += _translations("l", ((0, 0), (1, 0), (2, 0), (2, 1)), mirrors=True)
    shapes += _translations("t", ((0, 0), (0, 1), (0, 2), (1, 1)), mirrors=False)
    return tuple(shapes)


#: The 96 placements of the grid as ``(kind, cells, mask)``, in ``KINDS`` order.
ALL_PLACEMENTS: tuple[Shape, ...] = _all_placements()

#: The suit index of every name a grid cell may hold (a suit or an Ally).
_SUIT_INDEX = {name: i for i, name in enumerate(SUITS)}
_SUIT_INDEX.update((ally, SUITS.index(suit)) for ally, suit in ALLY_SUIT.items())
#: the suit index of each card name a grid cell may hold (read-only for callers)
CELL_SUIT = _SUIT_INDEX


def _placement(shape: Shape, suit: str, prop: Cell | None) -> Placement:
    """The placement of ``shape`` for ``suit``, propped at ``prop`` (None: exact)."""
    take = tuple(cell for cell in shape.cells if cell != prop)
    return Placement(shape.kind, shape.cells, suit, prop, take)


def placement_json(p: Placement) -> dict:
    """The spec's JSON of one placement: ``{"kind", "cells", "suit", "prop", "take"}``."""
    return {
        "kind": p.kind,
        "cells": [list(cell) for cell in p.cells],
        "suit": p.suit,
        "prop": None if p.prop is None else list(p.prop),
        "take": [list(cell) for cell in p.take],
    }


def _check_shape(grid) -> None:
    """``InputError`` unless ``grid`` is 4 rows of 4 cells."""
    if not isinstance(grid, (list, tuple)) or len(grid) != SIZE or not all(
        isinstance(row, (list, tuple)) and len(row) == SIZE for row in grid
    ):
        raise InputError(f"must be {SIZE} rows of {SIZE} cells", where="grid", field="grid")


def _cell_error(grid) -> InputError:
    """The error naming the first cell that is neither a suit, an Ally nor None: the
    names rule's message (closest names) for an unknown name, the full name for an alias
    (a grid holds full names; aliases are resolved where a position is read)."""
    for r, row in enumerate(grid):
        for c, name in enumerate(row):
            if name is None or isinstance(name, str) and name in _SUIT_INDEX:
                continue
            where = f"grid[{r}][{c}]"
            try:
                full = resolve(name, CLUES, "card", where=where)
            except InputError as error:
                error.field = "grid"
                return error
            message = f"expected the full name {full!r}, got {name!r}"
            return InputError(message, where=where, field="grid")
    raise AssertionError("no bad cell")  # pragma: no cover


#: The board bit of each cell, row by row.
_CELL_BITS = tuple(1 << k for k in range(SIZE * SIZE))


def boards(grid) -> list[int]:
    """One 16-bit board per suit (``SUITS`` order): bit ``4*r + c`` set where the cell's
    card is of that suit, an Ally counted in its suit; ``InputError`` for a grid that is
    not 4x4 or a cell that is neither a suit, an Ally nor None."""
    _check_shape(grid)
    out = [0] * len(SUITS)
    index = _SUIT_INDEX
    try:
        for name, bit in zip((*grid[0], *grid[1], *grid[2], *grid[3]), _CELL_BITS):
            if name is not None:
                out[index[name]] |= bit
    except (KeyError, TypeError):
        raise _cell_error(grid) from None
    return out


# --- the vectorised count: 96 fields of 3 bits, one per placement ---------------------

_FIELD = 3
#: Bit 0 of every field.
_ONES = sum(1 << (_FIELD * i) for i in range(len(ALL_PLACEMENTS)))


def _cell_vectors() -> list[int]:
    """Per cell, a 1 in the field of every placement that holds the cell."""
    vec = [0] * (SIZE * SIZE)
    for i, shape in enumerate(ALL_PLACEMENTS):
        for r, c in shape.cells:
            vec[SIZE * r + c] += 1 << (_FIELD * i)
    return vec


def _byte_table(cell_vectors: list[int]) -> list[int]:
    """Per byte value x, the fields ``popcount(mask_i & x)`` for the 8 cells of the byte."""
    table = [0] * 256
    for x in range(1, 256):
        low = (x & -x).bit_length() - 1
        table[x] = table[x & (x - 1)] + cell_vectors[low]
    return table


_CELL_VECTORS = _cell_vectors()
_LOW = _byte_table(_CELL_VECTORS[:8])
_HIGH = _byte_table(_CELL_VECTORS[8:])
_MASKS = [shape.mask for shape in ALL_PLACEMENTS]
#: ``_EXACT[s][i]``: placement i, exact for suit s.
_EXACT = [[_placement(shape, suit, None) for shape in ALL_PLACEMENTS] for suit in SUITS]
#: ``_PROPPED[s][i][three]``: placement i propped for suit s, ``three`` the mask of its
#: three cells of suit s (the fourth is the prop).
_PROPPED = [
    [
        {shape.mask & ~_bit(cell): _placement(shape, suit, cell) for cell in shape.cells}
        for shape in ALL_PLACEMENTS
    ]
    for suit in SUITS
]


def _counts(board: int) -> int:
    """The 96 fields ``popcount(mask_i & board)``, one int."""
    return _LOW[board & 0xFF] + _HIGH[board >> 8]


#: the suit placements already scanned, by ``board << 3 | suit``; cleared when it holds
#: this many (a game changes one or two suits' boards per step, so the others repeat)
SUIT_CACHE = 1 << 16
_SUIT_FOUND: dict[int, tuple[Placement, ...]] = {}


def _scan(s: int, board: int) -> tuple[Placement, ...]:
    """The exact, then the propped placements of suit index ``s`` on its ``board``."""
    found = []
    v = _counts(board)
    exact = (v >> 2) & _ONES  # the fields at 4
    if exact:
        table = _EXACT[s]
        while exact:
            low = exact & -exact  # the bit 3i of field i: bit_length 3i + 1
            found.append(table[low.bit_length() // _FIELD])
            exact ^= low
    propped = v & (v >> 1) & _ONES  # the fields at 3
    if propped:
        table = _PROPPED[s]
        while propped:
            low = propped & -propped
            i = low.bit_length() // _FIELD
            found.append(table[i][_MASKS[i] & board])
            propped ^= low
    return tuple(found)


def suit_placements(s: int, board: int) -> tuple[Placement, ...]:
    """The placements of suit ``SUITS[s]`` on a grid whose cards of that suit are
    ``board`` (``boards``' bits): its exact ones, then its propped ones, each group in
    ``ALL_PLACEMENTS`` order; the same tuple for the same board (remembered)."""
    key = board << 3 | s
    found = _SUIT_FOUND.get(key)
    if found is None:
        if len(_SUIT_FOUND) >= SUIT_CACHE:
            _SUIT_FOUND.clear()
        found = _SUIT_FOUND[key] = _scan(s, board) if board.bit_count() >= 3 else ()
    return found


#: per placement index: its cells' keys (``4*r + c``); per index and mask of three of its
#: cells, the (cell, prop) keys (``16 * cell key + prop key``) of the three with the
#: fourth as the prop
_TAKE_KEYS = [tuple(SIZE * r + c for r, c in shape.cells) for shape in ALL_PLACEMENTS]
_PROP_KEYS = [
    {shape.mask & ~_bit(prop): tuple(SIZE * SIZE * (SIZE * r + c) + SIZE * prop[0] + prop[1]
                                     for r, c in shape.cells if (r, c) != prop)
     for prop in shape.cells}
    for shape in ALL_PLACEMENTS
]
#: a cell key back to its cell
_KEY_CELL = tuple((k // SIZE, k % SIZE) for k in range(SIZE * SIZE))


def take_keys(board: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``take_cells(board)`` with each cell as its key ``4*r + c`` and each ``(cell,
    prop)`` as ``16 * cell key + prop key`` (ints: quick to tell apart)."""
    if board.bit_count() < 3:
        return (), ()
    v = _counts(board)
    exact = (v >> 2) & _ONES
    cells: list[int] = []
    while exact:
        low = exact & -exact
        cells += _TAKE_KEYS[low.bit_length() // _FIELD]
        exact ^= low
    propped = v & (v >> 1) & _ONES
    pairs: list[int] = []
    while propped:
        low = propped & -propped
        i = low.bit_length() // _FIELD
        pairs += _PROP_KEYS[i][_MASKS[i] & board]
        propped ^= low
    return tuple(dict.fromkeys(cells)), tuple(dict.fromkeys(pairs))


def take_cells(board: int) -> tuple[tuple[Cell, ...], tuple[tuple[Cell, Cell], ...]]:
    """What the placements of one suit whose cards are ``board`` let a player take, for
    any suit (the cells do not depend on it): the distinct cells of its exact placements,
    then the distinct ``(cell, prop)`` of its propped ones, each in the order of
    ``suit_placements``' placements and their ``take`` cells (first appearance kept)."""
    cells, pairs = take_keys(board)
    n = SIZE * SIZE
    return (tuple(_KEY_CELL[k] for k in cells),
            tuple((_KEY_CELL[k // n], _KEY_CELL[k % n]) for k in pairs))


def placements(grid) -> list[Placement]:
    """Every exact and every propped placement of ``grid``, each once.

    ``grid`` is 4 rows of 4 cells, each a suit, an Ally or None (empty: a mismatch for
    every suit); ``InputError`` otherwise. Order: by suit (``SUITS`` order), the exact
    placements of a suit before its propped ones, each group in ``ALL_PLACEMENTS`` order
    (``suit_placements`` of each suit's board).
    """
    found: list[Placement] = []
    for s, board in enumerate(boards(grid)):
        found += suit_placements(s, board)
    return found


def mind_palace_forced(grid) -> bool:
    """True when ``grid`` has no exact and no propped placement (Mind Palace is forced)."""
    for board in boards(grid):
        if board.bit_count() >= 3:
            v = _counts(board)
            if (v >> 2 | v & (v >> 1)) & _ONES:
                return False
    return True


def _order(p: Placement, index: int) -> tuple:
    """The sort key of ``placements``' order: suit, exact first, placement index."""
    return (SUITS.index(p.suit), p.prop is not None, index)


def naive_placements(grid) -> list[Placement]:
    """The reference scan (and the benchmark's baseline): for each placement, walk its
    cells, count their suits, and keep it when one suit has 4 (exact) or 3 (propped at
    the other cell). Same contract and order as ``placements``."""
    _check_shape(grid)
    found = []
    for index, shape in enumerate(ALL_PLACEMENTS):
        suits = []
        for r, c in shape.cells:
            name = grid[r][c]
            if name is None:
                suits.append(None)
            elif isinstance(name, str) and name in SUITS:
                suits.append(name)
            elif isinstance(name, str) and name in ALLY_SUIT:
                suits.append(ALLY_SUIT[name])
            else:
                raise _cell_error(grid)
        counts = Counter(suit for suit in suits if suit is not None)
        for suit, n in counts.items():
            if n == 4:
                p = _placement(shape, suit, None)
            elif n == 3:
                prop = next(cell for cell, x in zip(shape.cells, suits) if x != suit)
                p = _placement(shape, suit, prop)
            else:
                continue
            found.append((_order(p, index), p))
    found.sort()
    return [p for _, p in found]
