"""Baker Street Irregulars bot strength, with the one self-play runner (``core.selfplay``).

Matches (fixed seeds, seats rotating in the multiplayer ones):

- ``search`` against three ``greedy`` bots, 4 players (a fair share is 25%);
- ``greedy`` against three ``random`` bots, 4 players;
- solo against Holmes: ``greedy``, then ``search`` (the same seeds, so the same deals and
  the same Villain rows at the start), and a two-proportion z-test of their win shares.

Per match: the first bot's win share with its Wilson 95% interval, its mean points, the
wall time and the CPU time of the workers (``RUSAGE_CHILDREN``) with the budget: the
search bot's ``TOP_K`` candidates and ``SAMPLES`` rollouts each, its horizon.

    python benchmarks/irregulars_strength.py [--games 1000] [--workers 2]
        [--only search4,greedy4,solo]
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.core.selfplay import Match, run  # noqa: E402
from deduce.models.irregulars import search  # noqa: E402
from deduce.models.irregulars.selfplay import GAME  # noqa: E402

MATCHES = {  # name: (label, line-up, players, mode, seed)
    "search4": [("search vs 3 greedy", ("search", "greedy", "greedy", "greedy"), 4, "multi",
                 13001)],
    "greedy4": [("greedy vs 3 random", ("greedy", "random", "random", "random"), 4, "multi",
                 13002)],
    "solo": [("greedy vs Holmes", ("greedy",), 1, "solo", 13003),
             ("search vs Holmes", ("search",), 1, "solo", 13003)],
}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play(label, bots, players, mode, seed, games, workers):
    cpu, wall = children_cpu() + time.process_time(), time.perf_counter()
    report = run(GAME, Match(games, seed, bots, players, variant=mode, workers=workers))
    cpu = children_cpu() + time.process_time() - cpu
    row = report.rows[0]
    extra = ""
    if mode == "solo":
        extra = f"  Holmes {report.summary.figures['holmes']['mean_points']:.2f} points"
    print(f"  {label:20s} {games} games: win {100 * row.win_share:5.1f}%  95% "
          f"[{100 * row.ci95[0]:.1f}%, {100 * row.ci95[1]:.1f}%]  mean points "
          f"{row.figures['mean_points']:.2f}{extra}  wall {time.perf_counter() - wall:.0f} s"
          f"  CPU {cpu:.0f} s ({1000 * cpu / games:.0f} ms a game)", flush=True)
    return row


def two_proportions(a, b, n: int) -> tuple[float, float]:
    """The z statistic of ``b.win_share - a.win_share`` (pooled) and its one-sided p."""
    p = (a.win_share + b.win_share) / 2
    se = math.sqrt(2 * p * (1 - p) / n) or 1.0
    z = (b.win_share - a.win_share) / se
    return z, 0.5 * math.erfc(z / math.sqrt(2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default=",".join(MATCHES))
    args = ap.parse_args()
    print(f"search budget: top {search.TOP_K} candidates x {search.SAMPLES} rollouts, "
          f"horizon the round's end (solo {search.SOLO_HORIZON} cycles), "
          f"{args.workers} workers", flush=True)
    for name in args.only.split(","):
        rows = [play(*m, args.games, args.workers) for m in MATCHES[name]]
        if name == "solo":
            z, p = two_proportions(rows[0], rows[1], args.games)
            print(f"  search - greedy: {100 * (rows[1].win_share - rows[0].win_share):+.1f} "
                  f"points of win share, z = {z:.2f}, one-sided p = {p:.4f}", flush=True)


if __name__ == "__main__":
    main()
