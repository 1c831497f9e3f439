"""Deductions grid patterns: the 96 placements, exact and propped, against a naive scan."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.deductions.cards import ALLY_SUIT, SUITS
from deduce.models.deductions.patterns import (
    ALL_PLACEMENTS,
    Placement,
    boards,
    mind_palace_forced,
    naive_placements,
    placement_json,
    placements,
    suit_placements,
    take_cells,
)

W, K, S, A, P = "Writings", "Knowledge", "Statements", "Artifacts", "Prints & Tracks"

#: The spec's example position grid.
SPEC_GRID = [
    [W, W, W, W],
    [P, "Irene Adler", A, K],
    [W, S, S, K],
    [K, W, S, K],
]

ROW0 = ((0, 0), (0, 1), (0, 2), (0, 3))
ROW1 = ((1, 0), (1, 1), (1, 2), (1, 3))

#: A dealt grid where no placement has three cards of one suit.
NO_PATTERN = [
    ["Mycroft Holmes", K, A, P],
    [P, "Irene Adler", S, S],
    [S, A, W, K],
    [S, W, P, K],
]


def cells_of(kind):
    return {frozenset(s.cells) for s in ALL_PLACEMENTS if s.kind == kind}


def tetromino_kind(cells):
    """'l', 't' or None for 4 cells, from geometry alone: inside a 3x2 box (turned upright),
    one column holds a line of 3 and the other 1 card; at an end row that is an L, at the
    middle row a T."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    r0, c0 = min(rows), min(cols)
    box = (max(rows) - r0 + 1, max(cols) - c0 + 1)
    if box == (2, 3):
        cells = [(c, r) for r, c in cells]
        r0, c0 = c0, r0
    elif box != (3, 2):
        return None
    by_col = Counter(c - c0 for _, c in cells)
    if sorted(by_col.values()) != [1, 3]:
        return None
    lone = next(r - r0 for r, c in cells if by_col[c - c0] == 1)
    return "t" if lone == 1 else "l"


def test_counts_per_kind():
    assert Counter(s.kind for s in ALL_PLACEMENTS) == {
        "row": 4,
        "column": 4,
        "diagonal": 2,
        "square": 9,
        "corners": 1,
        "diamond": 4,
        "l": 48,
        "t": 24,
    }
    assert len(ALL_PLACEMENTS) == 96
    assert len({frozenset(s.cells) for s in ALL_PLACEMENTS}) == 96


def test_masks_match_cells():
    for kind, cells, mask in ALL_PLACEMENTS:
        assert len(set(cells)) == 4
        assert all(0 <= r < 4 and 0 <= c < 4 for r, c in cells)
        assert mask == sum(1 << (4 * r + c) for r, c in cells)


def test_l_and_t_are_every_such_tetromino_on_the_grid():
    grid = [(r, c) for r in range(4) for c in range(4)]
    found = {"l": set(), "t": set()}
    for four in combinations(grid, 4):
        kind = tetromino_kind(four)
        if kind:
            found[kind].add(frozenset(four))
    assert cells_of("l") == found["l"] and len(found["l"]) == 48
    assert cells_of("t") == found["t"] and len(found["t"]) == 24


def test_fixed_shapes():
    assert cells_of("diamond") == {
        frozenset({(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)})
        for r in (1, 2)
        for c in (1, 2)
    }
    assert cells_of("corners") == {frozenset({(0, 0), (0, 3), (3, 0), (3, 3)})}
    assert cells_of("diagonal") == {
        frozenset({(0, 0), (1, 1), (2, 2), (3, 3)}),
        frozenset({(0, 3), (1, 2), (2, 1), (3, 0)}),
    }
    assert cells_of("square") == {
        frozenset({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)})
        for r in range(3)
        for c in range(3)
    }
    assert cells_of("row") == {frozenset((r, c) for c in range(4)) for r in range(4)}
    assert cells_of("column") == {frozenset((r, c) for r in range(4)) for c in range(4)}


def test_spec_example_grid():
    found = placements(SPEC_GRID)
    entries = [placement_json(p) for p in found]
    assert {
        "kind": "row",
        "cells": [[0, 0], [0, 1], [0, 2], [0, 3]],
        "suit": "Writings",
        "prop": None,
        "take": [[0, 0], [0, 1], [0, 2], [0, 3]],
    } in entries
    assert {
        "kind": "l",
        "cells": [[1, 3], [2, 3], [3, 3], [3, 2]],
        "suit": "Knowledge",
        "prop": [3, 2],
        "take": [[1, 3], [2, 3], [3, 3]],
    } in entries
    assert [p for p in found if p.prop is None] == [
        Placement("row", ROW0, W, None, ROW0)
    ]
    assert len(found) == 17
    assert Counter(p.suit for p in found) == {W: 8, K: 5, S: 4}
    assert not mind_palace_forced(SPEC_GRID)


def test_propped_takes_the_three_and_keeps_the_prop():
    grid = [[S, S, A, S], [P] * 4, [W, K] * 2, [K, W] * 2]
    rows = [p for p in placements(grid) if p.kind == "row"]
    assert rows == [
        Placement("row", ROW0, S, (0, 2), ((0, 0), (0, 1), (0, 3))),
        Placement("row", ROW1, P, None, ROW1),
    ]
    assert placement_json(rows[0]) == {
        "kind": "row",
        "cells": [[0, 0], [0, 1], [0, 2], [0, 3]],
        "suit": S,
        "prop": [0, 2],
        "take": [[0, 0], [0, 1], [0, 3]],
    }


def test_two_two_is_no_pattern():
    grid = [[S, S, A, A], [W, K, W, K], [K, W, K, W], [P, W, P, K]]
    assert [p for p in placements(grid) if p.kind == "row"] == []


def test_allies_count_in_their_suit():
    grid = [["Sherlock Holmes", S, S, S], ["Irene Adler", K, K, K]] + [[W, A, P, None]] * 2
    rows = {p.cells[0][0]: p for p in placements(grid) if p.kind == "row"}
    assert rows[0].suit == S and rows[0].prop is None
    assert rows[1].suit == K and rows[1].prop is None
    for ally, suit in ALLY_SUIT.items():
        cells = [ally, suit, suit, suit]
        assert boards([cells] + [[None] * 4] * 3)[SUITS.index(suit)] == 0b1111
    other = [["Irene Adler", S, S, S]] + [[None] * 4] * 3
    (row,) = [p for p in placements(other) if p.kind == "row"]
    assert (row.suit, row.prop) == (S, (0, 0))


def test_empty_cells():
    empty = [[None] * 4 for _ in range(4)]
    assert placements(empty) == []
    assert mind_palace_forced(empty)
    one_gap = [[W, W, None, W]] + [[None] * 4] * 3
    assert placements(one_gap) == [
        Placement("row", ROW0, W, (0, 2), ((0, 0), (0, 1), (0, 3)))
    ]
    two_gaps = [[W, W, None, None]] + [[None] * 4] * 3
    assert placements(two_gaps) == []
    assert mind_palace_forced(two_gaps)


def test_mind_palace_forced():
    assert placements(NO_PATTERN) == naive_placements(NO_PATTERN) == []
    assert mind_palace_forced(NO_PATTERN)
    grid = [row[:] for row in NO_PATTERN]
    grid[1][1] = S  # (1, 1), (1, 2), (1, 3): a propped row of Statements
    assert not mind_palace_forced(grid)
    assert any(p.kind == "row" and p.prop == (1, 0) for p in placements(grid))


@pytest.mark.parametrize(
    "grid, message",
    [
        ([[W] * 4] * 3, "grid: must be 4 rows of 4 cells"),
        ([[W] * 4] * 3 + [[W] * 5], "grid: must be 4 rows of 4 cells"),
        ("grid", "grid: must be 4 rows of 4 cells"),
        (
            [[W] * 4] * 3 + [[W, "Wrtings", W, W]],
            "grid[3][1]: unknown card 'Wrtings'; did you mean Writings, Artifacts?",
        ),
        ([[W, W, 7, W]] + [[W] * 4] * 3, "grid[0][2]: expected a card name, got 7"),
        ([[W, ["x"], W, W]] + [[W] * 4] * 3, "grid[0][1]: expected a card name, got ['x']"),
        (
            [["sherlock"] * 4] * 4,
            "grid[0][0]: expected the full name 'Sherlock Holmes', got 'sherlock'",
        ),
    ],
)
def test_bad_grids(grid, message):
    for scan in (placements, naive_placements, mind_palace_forced):
        with pytest.raises(InputError) as error:
            scan(grid)
        assert str(error.value) == message
        assert error.value.field == "grid"


CELL = st.sampled_from([*SUITS, *ALLY_SUIT, None])


def grids(cell):
    return st.lists(st.lists(cell, min_size=4, max_size=4), min_size=4, max_size=4)


#: Grids of few suits, so that exact placements are frequent.
FEW = st.lists(st.sampled_from([*SUITS, *ALLY_SUIT]), min_size=1, max_size=2).flatmap(
    lambda names: grids(st.sampled_from(names + [None] if len(names) == 1 else names))
)


@settings(max_examples=300)
@given(st.one_of(grids(CELL), FEW))
def test_same_as_naive_scan(grid):
    fast = placements(grid)
    assert fast == naive_placements(grid)
    assert len(set(fast)) == len(fast)
    assert mind_palace_forced(grid) == (fast == [])
    for p in fast:
        assert len(p.take) == (4 if p.prop is None else 3)
        assert set(p.take) | ({p.prop} if p.prop else set()) == set(p.cells)


def test_each_suit_scanned_from_its_board_and_remembered():
    from deduce.models.deductions import patterns

    by_suit = [suit_placements(s, b) for s, b in enumerate(boards(SPEC_GRID))]
    assert [p for found in by_suit for p in found] == placements(SPEC_GRID)
    assert all(p.suit == SUITS[s] for s, found in enumerate(by_suit) for p in found)
    writings = SUITS.index(W)
    board = boards(SPEC_GRID)[writings]
    assert suit_placements(writings, board) is suit_placements(writings, board)
    patterns._SUIT_FOUND.clear()  # a board never seen is scanned anew, alike
    assert suit_placements(writings, board) == by_suit[writings]
    assert suit_placements(writings, 0b11) == ()  # fewer than 3 cards: no placement


@settings(max_examples=200)
@given(st.integers(0, 0xFFFF), st.sampled_from(range(len(SUITS))))
def test_take_cells_are_the_suit_placements_take_cells(board, s):
    exact, propped = {}, {}
    for p in suit_placements(s, board):
        for cell in p.take:
            (exact if p.prop is None else propped)[cell if p.prop is None else (cell, p.prop)] = 0
    assert take_cells(board) == (tuple(exact), tuple(propped))
