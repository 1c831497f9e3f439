"""Deductions: the rules engine's speed in random play (legal actions + apply).

Plays ``--games`` random 3-player games (a random legal action at every step, seeds from
``--seed``) and prints the median over ``--runs`` passes of: microseconds per turn (every
step of the turn: ``legal_actions`` and ``apply``), games per second on one core, the
turns and steps per game; the engine's CPU time (steadier on a loaded machine);
``clone()`` microseconds; and the same playout with the naive
baseline in the same process (``patterns.naive_placements`` for the grid scan and an
uncached ``payment.pay``), and their ratio. Targets (issue 12): one turn <= 25 µs, >= 500
games per second per core.

    python benchmarks/deductions_engine.py [--games 200] [--runs 5] [--seed 12]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_time  # noqa: E402

from deduce.models.deductions import rules  # noqa: E402
from deduce.models.deductions.patterns import naive_placements  # noqa: E402
from deduce.models.deductions.payment import due_dict, pay  # noqa: E402

TARGET_TURN_US = 25.0
TARGET_GAMES = 500.0


def play(seeds: list[int]) -> tuple[int, int]:
    """Random games from ``seeds``: (turns, steps) in all."""
    turns = steps = 0
    for seed in seeds:
        state = rules.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        turns += state.turns
    return turns, steps


def cpu_seconds(fn, runs: int) -> float:
    """The median CPU time of ``runs`` calls of ``fn()`` (this process only: steadier than
    the wall clock on a shared machine)."""
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def naive(fn):
    """``fn`` run with the naive grid scan and no payment cache."""
    saved = rules.placements, rules._pay
    rules.placements, rules._pay = naive_placements, lambda due, pool: pay(due_dict(due), pool)
    try:
        return fn()
    finally:
        rules.placements, rules._pay = saved


def clone_us(seed: int, n: int = 2000) -> float:
    state = rules.new_game(seed)
    rng = random.Random(seed)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    seconds, _ = median_time(lambda: [state.clone() for _ in range(n)], 5)
    return seconds / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    seeds = list(range(args.seed, args.seed + args.games))
    seconds, (turns, steps) = median_time(lambda: play(seeds), args.runs)
    base, _ = naive(lambda: median_time(lambda: play(seeds), max(1, args.runs // 2)))
    cpu = cpu_seconds(lambda: play(seeds), args.runs)
    turn_us = seconds / turns * 1e6
    games = args.games / seconds
    print(f"{args.games} random 3-player games: {turns / args.games:.1f} turns, "
          f"{steps / args.games:.1f} steps per game")
    print(f"{'engine':<44}{'µs/turn':>10}{'games/s':>10}{'vs naive':>10}")
    print(f"{'rules (bitboard scan, payment cache)':<44}{turn_us:>10.1f}{games:>10.0f}"
          f"{base / seconds:>9.1f}x")
    print(f"{'naive scan, uncached payments (baseline)':<44}{base / turns * 1e6:>10.1f}"
          f"{args.games / base:>10.0f}{1:>9.1f}x")
    print(f"CPU time of the engine (this process): {cpu / turns * 1e6:.1f} µs/turn, "
          f"{args.games / cpu:.0f} games/s")
    print(f"clone(): {clone_us(args.seed):.1f} µs")
    print(f"target <= {TARGET_TURN_US:.0f} µs/turn: "
          f"{'met' if turn_us <= TARGET_TURN_US else 'NOT met'} ({turn_us:.1f}); "
          f"target >= {TARGET_GAMES:.0f} games/s: "
          f"{'met' if games >= TARGET_GAMES else 'NOT met'} ({games:.0f})")


if __name__ == "__main__":
    main()
