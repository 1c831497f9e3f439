"""Deductions: the rules engine's speed in random play (legal actions + apply).

Plays ``--runs`` passes of ``--games`` random 3-player games (a random legal action at
every step; each pass its own seeds from ``--seed`` on, so what the engine remembers
helps only as it would in fresh games) and prints the medians over the passes of:
microseconds per turn (every step of the turn: ``legal_actions`` and ``apply``; wall
clock and this process's CPU time, steadier on a loaded machine), games per second on one
core, the turns and steps per game; ``clone()`` microseconds; and the same with the
naive baseline in the same process (its own passes), and the ratio per turn. Both
engines play the first seeds alike (checked). The baseline is the engine with each step's lists made the
plain way: the Takes from ``patterns.naive_placements`` (no per-suit memory), a Solve
listed when an uncached ``payment.pay`` finds a payment (not the packed test), every
payment found anew. Targets (issue 12): one turn <= 25 µs, >= 500 games per second per
core. ``--sections`` adds a wall-clock split of a turn by step and action (per call and
per turn; ``perf_counter`` around each ``legal_actions`` and ``apply``: cProfile distorts
small functions).

    python benchmarks/deductions_engine.py [--games 200] [--runs 5] [--seed 12] [--sections]
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


def passes(first: int, games: int, runs: int) -> list[tuple[float, float, int, int]]:
    """``runs`` passes of ``games`` games, pass k from seed ``first + k * games``: per
    pass (wall seconds, CPU seconds, turns, steps)."""
    out = []
    for k in range(runs):
        seeds = list(range(first + k * games, first + (k + 1) * games))
        wall, cpu = time.perf_counter(), time.process_time()
        turns, steps = play(seeds)
        out.append((time.perf_counter() - wall, time.process_time() - cpu, turns, steps))
    return out


def medians(found: list[tuple[float, float, int, int]]) -> tuple[float, float, float, float]:
    """(µs per turn wall, µs per turn CPU, games per second wall, turns per game) as
    medians over the passes (``games`` is the passes' game count)."""
    return (statistics.median(w / t * 1e6 for w, _, t, _ in found),
            statistics.median(c / t * 1e6 for _, c, t, _ in found),
            statistics.median(1 / w for w, _, _, _ in found),
            statistics.median(t for _, _, t, _ in found))


def sections(seeds: list[int]) -> tuple[dict[str, float], dict[str, int], int]:
    """Random games from ``seeds`` timed per part of a step: ``legal <step>``, ``apply
    <action>``, ``choice`` (the bot's pick): (seconds, calls, turns)."""
    seconds: dict[str, float] = {}
    calls: dict[str, int] = {}
    clock = time.perf_counter
    turns = 0

    def count(key: str, spent: float) -> None:
        seconds[key] = seconds.get(key, 0.0) + spent
        calls[key] = calls.get(key, 0) + 1

    for seed in seeds:
        state = rules.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over():
            step = state.step
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            action = rng.choice(legal)
            t2 = clock()
            state.apply(action)
            t3 = clock()
            count(f"legal {step}", t1 - t0)
            count("choice", t2 - t1)
            count(f"apply {type(action).__name__}", t3 - t2)
        turns += state.turns
    return seconds, calls, turns


def print_sections(first: int, games: int) -> None:
    """``sections`` of ``games`` games from seed ``first`` (after as many to warm the
    caches), largest share first."""
    sections(list(range(first + games, first + 2 * games)))
    seconds, calls, turns = sections(list(range(first, first + games)))
    print(f"{'part of a turn (wall clock)':<28}{'calls/turn':>11}{'µs/call':>9}{'µs/turn':>9}")
    for key in sorted(seconds, key=seconds.get, reverse=True):
        print(f"{key:<28}{calls[key] / turns:>11.2f}{seconds[key] / calls[key] * 1e6:>9.1f}"
              f"{seconds[key] / turns * 1e6:>9.1f}")


def uncached_pay(due, pool):
    """``payment.pay`` of a due vector, found anew every time, in the shape the engine
    keeps (``rules._pay``: uses and pool left, or None)."""
    found = pay(due_dict(due), pool)
    return None if found is None else (tuple(found.uses), tuple(found.pool_after))


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
        out = [rules.DRAW]  # the start step's actions: Draw, the Solves
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
    ap.add_argument("--sections", action="store_true",
                    help="also split a turn's wall clock by step and action")
    args = ap.parse_args()
    check = list(range(args.seed, args.seed + min(20, args.games)))
    assert naive(lambda: play(check)) == play(check), "the baseline plays other games"
    fast = passes(args.seed, args.games, args.runs)
    base_runs = max(1, args.runs // 2)
    base = naive(lambda: passes(args.seed + args.runs * args.games, args.games, base_runs))
    turn_us, cpu_us, per_second, turns = medians(fast)
    base_us, base_cpu, base_second, _ = medians(base)
    games = per_second * args.games
    steps = statistics.median(s for *_, s in fast)
    print(f"{args.runs} x {args.games} random 3-player games: {turns / args.games:.1f} turns, "
          f"{steps / args.games:.1f} steps per game (medians)")
    print(f"{'engine':<44}{'µs/turn':>9}{'CPU µs':>9}{'games/s':>9}{'vs naive':>10}")
    print(f"{'rules (memoised scans, packed affordability)':<44}{turn_us:>9.1f}{cpu_us:>9.1f}"
          f"{games:>9.0f}{base_us / turn_us:>9.1f}x")
    print(f"{'plain lists, uncached payments (baseline)':<44}{base_us:>9.1f}{base_cpu:>9.1f}"
          f"{base_second * args.games:>9.0f}{1:>9.1f}x")
    print(f"CPU time of the engine (this process): {cpu_us:.1f} µs/turn, "
          f"{1e6 / (cpu_us * turns / args.games):.0f} games/s")
    print(f"clone(): {clone_us(args.seed):.1f} µs")
    print(f"target <= {TARGET_TURN_US:.0f} µs/turn: "
          f"{'met' if turn_us <= TARGET_TURN_US else 'NOT met'} ({turn_us:.1f}; CPU "
          f"{cpu_us:.1f}); target >= {TARGET_GAMES:.0f} games/s: "
          f"{'met' if games >= TARGET_GAMES else 'NOT met'} ({games:.0f})")
    if args.sections:
        print_sections(args.seed, args.games)


if __name__ == "__main__":
    main()
