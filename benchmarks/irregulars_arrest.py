"""Baker Street Irregulars: the whole ``arrest`` answer for a full row, exact cover against
brute force.

Draws ``--tableaux`` random cases from the shipped set: a tableau of 20 unused Evidence
cards (of the 100), a full row of 5 Villains with Moriarty (all 9 icons) in it and 4 others,
the player tailing one of the row (at random) and holding the Holmes board (so each
Villain is asked with and without the board's ignore: the hardest case). It prints the
median microseconds (wall clock, and this process's CPU time per answer) over ``--runs``
passes over all the tableaux of the whole answer: ``arrest.arrests_json`` (the spec's JSON
as the CLI prints it, every Villain's smallest set, ``uses``, ``missing``
and ``best``). Then the same for the brute force of ``arrest.naive_arrest`` (every subset of
the cards, smallest first: the spec read literally) in the same process over the first
``--naive`` tableaux (it takes tens of milliseconds each), the ratio of the medians, and
a check that both answers agree on every Villain (arrestable, how many cards, uses,
missing, best). Targets (issue 13): at most 100 µs, at least 20x brute force.

    python benchmarks/irregulars_arrest.py [--tableaux 500] [--runs 5] [--naive 30] [--seed 13]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.irregulars.arrest import (  # noqa: E402
    arrests_json,
    best_arrest,
    naive_arrest,
)
from deduce.models.irregulars.cards import ALL_ICONS, shipped_cards  # noqa: E402

TARGET_US = 100.0
TARGET_RATIO = 20.0
TABLEAU = 20


def cases(n: int, seed: int) -> list[tuple[list, list, str]]:
    """``n`` (cards, row, tailed id): 20 random Evidence, Moriarty and 4 random Villains in
    a random order, a random one of them tailed."""
    cs = shipped_cards()
    moriarty = next(v for v in cs.villains if v.mask == ALL_ICONS)
    others = [v for v in cs.villains if v is not moriarty]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        row = [moriarty] + rng.sample(others, 4)
        rng.shuffle(row)
        out.append((rng.sample(cs.evidence, TABLEAU), row, rng.choice(row).id))
    return out


def fast(case) -> dict:
    cards, row, tailed = case
    return arrests_json("Ann", cards, row, tailed, True)


def naive(case) -> dict:
    cards, row, tailed = case
    options = [naive_arrest(cards, v, v.id == tailed, True) for v in row]
    best = best_arrest(options)
    return {"player": "Ann", "villains": [a.to_json() for a in options],
            "best": None if best is None else best.villain.id}


def timed(fn, items, runs: int) -> tuple[float, float, list]:
    """Median wall µs of one ``fn(item)`` over ``runs`` passes, the mean CPU µs, the last
    pass's results."""
    walls, cpu, results = [], 0.0, []
    for _ in range(runs):
        results = []
        c0 = time.process_time()
        for item in items:
            t = time.perf_counter()
            results.append(fn(item))
            walls.append(time.perf_counter() - t)
        cpu += time.process_time() - c0
    return 1e6 * statistics.median(walls), 1e6 * cpu / (runs * len(items)), results


def shape(answer: dict) -> list:
    return [answer["best"]] + [(a["villain"], a["arrestable"], len(a["cards"]), a["uses"],
                                a["missing"]) for a in answer["villains"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tableaux", type=int, default=500)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--naive", type=int, default=30)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    items = cases(args.tableaux, args.seed)
    wall, cpu, got = timed(fast, items, args.runs)
    few = items[:args.naive]
    n_wall, n_cpu, want = timed(naive, few, 1)
    agree = all(shape(a) == shape(b) for a, b in zip(got, want))
    ratio = n_wall / wall
    print(f"arrest answer, row of 5 with Moriarty, {TABLEAU} cards, tail + Holmes board "
          f"({args.tableaux} tableaux x {args.runs} passes, seed {args.seed})")
    print(f"  exact cover:  median {wall:8.1f} µs (CPU {cpu:.1f} µs per answer)   "
          f"target <= {TARGET_US:.0f} µs: {'met' if wall <= TARGET_US else 'NOT met'}")
    print(f"  brute force:  median {n_wall:8.1f} µs (CPU {n_cpu:.1f} µs) over the first "
          f"{len(few)} tableaux")
    print(f"  ratio {ratio:.0f}x   target >= {TARGET_RATIO:.0f}x: "
          f"{'met' if ratio >= TARGET_RATIO else 'NOT met'}   answers agree: {agree}")
    if not agree:
        sys.exit(1)


if __name__ == "__main__":
    main()
