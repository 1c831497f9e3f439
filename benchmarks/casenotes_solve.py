"""Case notes: solve + uniqueness of the shipped puzzles, against a brute force.

For each case prints the median time of ``solve_case`` (CNF build, solution count with the
uniqueness check, every question's possible answers, the grid) from a loaded case, and
of a naive baseline run in the same process: an itertools brute force over every grid
(one permutation per category), then every attribute and unknown value, testing each
note with the evaluator as soon as what it mentions is fixed. On a 4 x 5 case the brute
force visits 120^3 = 1,728,000 grids; by default it runs on the first ``--sample`` grids
and the full time is extrapolated (marked "est."); ``--full`` runs it all once (on the
4 x 5 cases; Zebra's 120^5 grids are always sampled).

    python benchmarks/casenotes_solve.py [--runs 15] [--sample 50000] [--full]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from math import factorial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.casenotes.naive import brute_force  # noqa: E402
from deduce.models.casenotes.format import load_case  # noqa: E402
from deduce.models.casenotes.advice import solve_case  # noqa: E402

CASES = ["lantern-street", "kew-orchid", "half-moon-mews", "zebra"]
#: ``--full`` runs the brute force over every grid only up to this many grids (not Zebra's 24.9e9).
FULL_MAX = 2_000_000


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sample", type=int, default=50_000, help="grids the brute force visits")
    ap.add_argument("--full", action="store_true", help="run the brute force over every grid")
    args = ap.parse_args()
    print(f"{'case':<16}{'size':>6}{'solve+unique':>14}{'brute force':>22}{'ratio':>14}")
    for name in CASES:
        case = load_case(name)
        s = case.schema
        size = f"{len(s.categories)}x{s.size}"
        result = solve_case(case)
        assert result.status == "unique"
        sat_ms = median_ms(lambda: solve_case(case), args.runs)
        total_grids = factorial(s.size) ** (len(s.categories) - 1)
        full = total_grids <= args.sample or args.full and total_grids <= FULL_MAX
        limit = None if full else args.sample
        t = time.perf_counter()
        found, visited = brute_force(case, max_grids=limit)
        naive_s = time.perf_counter() - t
        if visited < total_grids:
            naive_s *= total_grids / visited
            naive = f"est. {naive_s:,.1f} s"
        else:
            assert found == 1, f"brute force found {found} solutions"
            naive = f"{naive_s * 1000:,.1f} ms"
        print(f"{name:<16}{size:>6}{sat_ms:>11.1f} ms{naive:>22}{naive_s * 1000 / sat_ms:>13,.1f}x")
    print(f"(solve: median of {args.runs} runs; brute force: one run; est. = timed on the first "
          f"{args.sample:,} grids and extrapolated to all of them)")


if __name__ == "__main__":
    main()
