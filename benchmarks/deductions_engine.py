"""Deductions: the rules engine's speed in random play (legal actions + apply).

Plays ``--games`` random 3-player games (a random legal action at every step, seeds from
``--seed``) and prints the median over ``--runs`` passes of: microseconds per turn (every
step of the turn: ``legal_actions`` and ``apply``), games per second on one core, the
turns and steps per game; the engine's CPU time (steadier on a loaded machine);
``clone()`` microseconds; and the same playout with the naive baseline in the same
process, and their ratio. The baseline is the engine with each step's lists made the
plain way: the Takes from ``patterns.naive_placements`` (no per-suit memory), a Solve
listed when an uncached ``payment.pay`` finds a payment (not ``affordable_dues``), every
payment found anew. Targets (issue 12): one turn <= 25 µs, >= 500 games per second per
core.

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


def uncached_pay(due, pool):
    """``payment.pay`` of a due vector, found anew every time."""
    return pay(due_dict(due), pool)


class NaiveState(rules.State):
    """The engine with its step lists made the plain way (the baseline)."""

    def _takes(self):
        propped_ok = bool(self.pools[self.to_play])
        keys = {}
        for placement in naive_placements(self.grid):
            if placement.prop is None or propped_ok:
                for cell in placement.take:
                    keys[(cell, placement.prop)] = None
        return [rules._TAKES[key] for key in keys]  # the engine's one Take per key

    def _solves(self):
        p = self.to_play
        pool = self.pools[p]
        self._affordable = {}
        out = []
        for case in self._targets(p):
            due = self._due(p, case)
            if uncached_pay(due, pool) is not None:
                self._affordable[case] = due
                out.append(rules.Solve(case))
        return out


def naive(fn):
    """``fn`` run with the naive baseline (``NaiveState``, uncached payments)."""
    saved = rules.State, rules._pay
    rules.State, rules._pay = NaiveState, uncached_pay
    try:
        return fn()
    finally:
        rules.State, rules._pay = saved


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
