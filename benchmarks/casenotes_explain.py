"""Case notes: a whole step-wise explanation (``deduce case explain``) per puzzle, timed.

For the Zebra puzzle and the two 4 x 5 cases prints, for the whole sequence: the median
total time over ``--runs`` runs (model build, targets, every step), the median time to
the first step, the number of steps, the hardest step's cost, and the SAT calls made.

Baseline, in the same process: the same greedy search without incremental solving (a
fresh minisat solver built from the whole CNF for every SAT call, as a tool calling a
solver per question would). It is timed on the first ``--baseline-steps`` steps only
(``--full-baseline``: the whole sequence, once), next to the incremental search on the
same number of steps; the ratio compares those two times, and the baseline's full time
is estimated as the incremental total times that ratio (marked "est."). The two may pick
different (equally cheap) steps, since solver models and cores differ.

Target (issue 3): under 10 s per puzzle; the published OCUS explainer takes 74-1824 s on
puzzles of this size.

    python benchmarks/casenotes_explain.py [--runs 3] [--baseline-steps 10] [--full-baseline]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.casenotes.explain import explain_case  # noqa: E402
from deduce.models.casenotes.format import load_case  # noqa: E402

CASES = ["zebra", "lantern-street", "kew-orchid"]


def timed(fn) -> tuple[float, object]:
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline-steps", type=int, default=10)
    ap.add_argument("--full-baseline", action="store_true")
    args = ap.parse_args()
    k = None if args.full_baseline else args.baseline_steps
    print(f"{'case':<16}{'size':>5}{'total':>9}{'first':>9}{'steps':>7}{'hardest':>9}"
          f"{'SAT calls':>11}{'k':>5}{'incr. k':>10}{'naive k':>10}{'ratio':>8}{'naive total':>15}")
    for name in CASES:
        case = load_case(name)
        s = case.schema
        runs = [explain_case(case) for _ in range(args.runs)]
        assert all(e.complete for e in runs)
        total = statistics.median(e.seconds_total for e in runs)
        first = statistics.median(e.seconds_first for e in runs)
        e = runs[0]
        steps = len(e.steps) if k is None else min(k, len(e.steps))
        inc_k, _ = timed(lambda: explain_case(case, max_steps=steps))
        naive_k, naive = timed(lambda: explain_case(case, incremental=False, max_steps=steps))
        ratio = naive_k / inc_k
        naive_total = f"{naive_k:,.1f} s" if k is None else f"est. {total * ratio:,.0f} s"
        size = f"{len(s.categories)}x{s.size}"
        print(f"{name:<16}{size:>5}{total:>8.2f}s{first:>8.3f}s{len(e.steps):>7}"
              f"{e.profile()['hardest_cost']:>9}{e.sat_calls:>11,}{steps:>5}{inc_k:>9.2f}s"
              f"{naive_k:>9.2f}s{ratio:>7.0f}x{naive_total:>15}")
    print(f"(total, first: median of {args.runs} runs; k: steps both searches ran for the "
          f"ratio; naive = the same greedy with a fresh solver per SAT call)")


if __name__ == "__main__":
    main()
