"""Sherlock 13 self-play: speed per core and bot strength.

Prints
- speed: 4-player standard games of infogain against three random bots, played in this
  one process: games per second (wall clock and CPU time) and per decision costs;
- strength: the infogain bot's win share with its Wilson 95% interval against three random
  bots and against three tracker bots (4 players, standard, seats rotating, fixed seeds),
  plus the same with infogain accusing only when certain, for reference. A fair share is 25%.

    python benchmarks/s13_selfplay.py [--games 1000] [--speed-games 200] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.core.selfplay import open_executor, run_games, summarise  # noqa: E402
from deduce.models.sherlock13.bots import InfoGainBot  # noqa: E402
from deduce.models.sherlock13.selfplay import game_specs, play_one  # noqa: E402

SPEED_SEED = 20240501
MATCHES = [  # (label, line-up, seed)
    ("infogain vs 3 random", ["infogain", "random", "random", "random"], 1001),
    ("infogain vs 3 tracker", ["infogain", "tracker", "tracker", "tracker"], 1002),
    ("infogain accusing only when certain vs 3 tracker",
     [InfoGainBot(name="infogain-certain", use_views=False), "tracker", "tracker", "tracker"], 1002),
    ("tracker vs 3 random", ["tracker", "random", "random", "random"], 1001),
]


def speed(games: int) -> None:
    specs = game_specs(4, "standard", ["infogain", "random", "random", "random"], games, SPEED_SEED)
    run_games(play_one, specs[:5])  # warm the caches (deal tables, imports)
    wall, cpu = time.perf_counter(), time.process_time()
    results = run_games(play_one, specs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    turns = sum(r.turns for r in results)
    print(f"speed, 4 players standard, infogain vs 3 random, {games} games in one process:")
    print(f"  {games / wall:6.1f} games/s wall   {games / cpu:6.1f} games/s CPU (per core)"
          f"   {1000 * cpu / turns:5.2f} ms CPU per turn   {turns / games:.1f} turns per game")


def strength(games: int, workers: int) -> None:
    print(f"strength, 4 players standard, {games} games each, seats rotating, {workers} workers:")
    with open_executor(workers) as ex:
        for label, bots, seed in MATCHES:
            specs = game_specs(4, "standard", bots, games, seed)
            start = time.perf_counter()
            rows = summarise([b if isinstance(b, str) else b.name for b in bots],
                             run_games(play_one, specs, executor=ex))
            first = rows[0]
            lo, hi = first.ci95
            print(f"  {label:50s} {100 * first.win_share:5.1f}%  95% CI [{100 * lo:4.1f}%, {100 * hi:4.1f}%]"
                  f"  wrong accusations {first.counters.get('wrong_accusations', 0):4d}"
                  f"  seed {seed}  ({time.perf_counter() - start:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per strength match (default 1000)")
    ap.add_argument("--speed-games", type=int, default=200, help="games for the speed figure")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for strength")
    args = ap.parse_args()
    speed(args.speed_games)
    strength(args.games, args.workers)


if __name__ == "__main__":
    main()
