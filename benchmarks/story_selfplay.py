"""Detective Story self-play throughput (target: at least 500 cases per second per core
with the random policy).

Prints the median over several runs of fresh first cases played in one process by
``selfplay.play_one`` (the path ``deduce story selfplay`` takes), for the random and greedy
policies, and a naive baseline run in the same process: each case loads the campaign's
TOML and parses its record from scratch (no caches), as a loop over the CLI would.

    python benchmarks/story_selfplay.py [--runs 5] [--cases 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.detective_story import data as D  # noqa: E402
from deduce.models.detective_story.bots import make_policy  # noqa: E402
from deduce.models.detective_story.selfplay import CaseSpec, case_seed, play_one  # noqa: E402
from deduce.models.detective_story.campaign import new_record  # noqa: E402
from deduce.models.detective_story.state import parse_record  # noqa: E402
from deduce.models.detective_story.rules import play_case  # noqa: E402


def cases_per_second(policy: str, cases: int, seed: int) -> float:
    specs = [CaseSpec(None, None, policy, case_seed(seed, i)) for i in range(cases)]
    t = time.perf_counter()
    for s in specs:
        play_one(s)
    return cases / (time.perf_counter() - t)


def naive_cases_per_second(cases: int, seed: int) -> float:
    t = time.perf_counter()
    folder = D.load_campaign().source
    for i in range(cases):
        rng = random.Random(case_seed(seed, i))
        data = D.parse_campaign(D._read_folder(Path(folder)), folder)  # no cache
        cf = parse_record(new_record(data, None, seed=rng.getrandbits(32)), "naive", data)
        play_case(cf.ctx, cf.case, make_policy("random"), rng)
    return cases / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cases", type=int, default=2000)
    args = ap.parse_args()
    cases_per_second("random", 200, 99)  # warm the caches, as a running tool would
    for policy in ("random", "greedy"):
        rates = [cases_per_second(policy, args.cases, run) for run in range(args.runs)]
        print(f"{policy:<7} {statistics.median(rates):8.0f} cases/s per core "
              f"(median of {args.runs} x {args.cases}; min {min(rates):.0f}, max {max(rates):.0f})")
    naive = [naive_cases_per_second(max(20, args.cases // 20), run) for run in range(3)]
    fast = statistics.median(cases_per_second("random", args.cases, r) for r in range(3))
    print(f"naive   {statistics.median(naive):8.0f} cases/s per core (random; data and record "
          f"parsed per case): the runner is {fast / statistics.median(naive):.0f}x faster")
    print("target: at least 500 cases/s per core with the random policy")


if __name__ == "__main__":
    main()
