"""Deductions: every grid pattern of a full random grid, bitboards against a naive scan.

Deals ``--grids`` grids of 16 cards from the shuffled 60-card clue deck (55 regular cards
and the 5 Allies) and prints the median time per grid (over ``--runs`` passes over all the
grids) of ``patterns.placements`` (the 3-bit-field bitboard scan; first with nothing
remembered, as a new grid is, then with each suit's board remembered, as in a game where a
step changes one or two suits' boards: ``patterns.suit_placements``), of the naive
coordinate scan ``patterns.naive_placements`` run in the same process, and their ratio;
also ``mind_palace_forced``, and two other bitboard versions that were tried and are
slower: a loop over the 96 masks per suit (``mask & ~board`` and a popcount each) and a
numpy one (the 5 x 96 ``mask & ~board`` at once). Targets (issue 12): at most 20 µs per
grid, at least 20x the naive scan.

    python benchmarks/deductions_patterns.py [--grids 2000] [--runs 15] [--seed 12]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_time  # noqa: E402

from deduce.models.deductions import patterns  # noqa: E402
from deduce.models.deductions.cards import ALLY_SUIT, SUITS  # noqa: E402
from deduce.models.deductions.patterns import (  # noqa: E402
    ALL_PLACEMENTS,
    boards,
    mind_palace_forced,
    naive_placements,
    placements,
)

TARGET_US = 20.0
TARGET_RATIO = 20.0
#: The clue deck: 11 regular cards of each suit and the 5 Allies.
DECK = [suit for suit in SUITS for _ in range(11)] + list(ALLY_SUIT)


def deal_grids(n: int, seed: int) -> list[list[list[str]]]:
    """``n`` grids, each 16 cards of a freshly shuffled clue deck."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = DECK[:]
        rng.shuffle(deck)
        out.append([deck[4 * r : 4 * r + 4] for r in range(4)])
    return out


def cold_placements(grid):
    """``placements`` with nothing remembered (``patterns.suit_placements``' memory
    emptied first): the scan of a grid never seen."""
    patterns._SUIT_FOUND.clear()
    return placements(grid)


def loop_placements(grid):
    """Tried: per suit, each of the 96 masks with ``mask & ~board`` and a popcount."""
    found = []
    for s, board in enumerate(boards(grid)):
        if board.bit_count() < 3:
            continue
        miss_all = ~board
        for i, mask in enumerate(patterns._MASKS):
            miss = mask & miss_all
            if not miss:
                found.append(patterns._EXACT[s][i])
            elif not miss & (miss - 1):
                found.append(patterns._PROPPED[s][i][mask & board])
    return found


def numpy_scan():
    """Tried: numpy over all suits and placements at once (the 5 x 96 misses)."""
    import numpy as np

    masks = np.array(patterns._MASKS, dtype=np.uint16)

    def scan(grid):
        b = np.array(boards(grid), dtype=np.uint16)
        present = masks[None, :] & b[:, None]
        count = np.bitwise_count(present)
        found = []
        for s, i in zip(*np.nonzero(count >= 3)):
            s, i = int(s), int(i)
            if count[s, i] == 4:
                found.append(patterns._EXACT[s][i])
            else:
                found.append(patterns._PROPPED[s][i][int(present[s, i])])
        return found

    return scan


def per_grid_us(fn, grids, runs: int) -> float:
    seconds, _ = median_time(lambda: [fn(g) for g in grids], runs)
    return seconds / len(grids) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grids", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    grids = deal_grids(args.grids, args.seed)
    numpy_placements = numpy_scan()
    for g in grids:
        expected = naive_placements(g)
        for fn in (placements, loop_placements, numpy_placements):
            assert sorted(fn(g), key=repr) == sorted(expected, key=repr), fn.__name__
        assert mind_palace_forced(g) == (expected == [])
    found = sum(len(placements(g)) for g in grids) / len(grids)
    forced = sum(map(mind_palace_forced, grids)) / len(grids)
    print(
        f"{len(grids)} dealt grids, {len(ALL_PLACEMENTS)} placements each: "
        f"{found:.1f} exact or propped per grid, Mind Palace forced on {forced:.1%}"
    )
    naive = per_grid_us(naive_placements, grids, max(3, args.runs // 5))
    rows = [
        ("placements (bitboards, 3-bit fields)", per_grid_us(cold_placements, grids, args.runs)),
        ("placements, suit boards remembered", per_grid_us(placements, grids, args.runs)),
        ("mind_palace_forced", per_grid_us(mind_palace_forced, grids, args.runs)),
        ("tried: loop over the 96 masks", per_grid_us(loop_placements, grids, args.runs)),
        ("tried: numpy 5 x 96", per_grid_us(numpy_placements, grids, max(3, args.runs // 3))),
        ("naive coordinate scan (baseline)", naive),
    ]
    print(f"{'scan':<40}{'µs/grid':>10}{'vs naive':>10}")
    for name, us in rows:
        print(f"{name:<40}{us:>10.2f}{naive / us:>9.1f}x")
    fast = rows[0][1]
    ok_time, ok_ratio = fast <= TARGET_US, naive / fast >= TARGET_RATIO
    print(
        f"target <= {TARGET_US:.0f} µs/grid: {'met' if ok_time else 'NOT met'} ({fast:.2f}); "
        f"target >= {TARGET_RATIO:.0f}x naive: {'met' if ok_ratio else 'NOT met'} "
        f"({naive / fast:.1f}x)"
    )


if __name__ == "__main__":
    main()
