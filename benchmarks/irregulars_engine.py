"""Baker Street Irregulars: the rules engine's speed in random play (legal actions +
apply), 4-player and solo.

Plays ``--runs`` passes of ``--games`` random games (a random legal action at every step;
each pass its own seeds from ``--seed`` on, so what the engine remembers helps only as it
would in fresh games) and prints the medians over the passes of: games per second on one
core (wall clock, and this process's CPU time, steadier on a loaded machine), steps per
game; for 4 players and for solo; then the same with the naive baseline in the same
process (its own passes) and the ratio. The baseline is the engine with the arrests listed
the plain way: every subset of the player's unused cards, smallest first
(``covers.naive_arrest_covers``, the same list), no memory. Both engines play the first
seeds alike (checked). Target (issue 13): >= 300 random 4-player games per second per
core.

    python benchmarks/irregulars_engine.py [--games 100] [--runs 5] [--seed 1000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.irregulars import covers, rules  # noqa: E402

TARGET_GAMES = 300.0


def play(seeds: list[int], solo: bool) -> tuple[int, list]:
    """Random games from ``seeds``: (steps in all, each game's final scores)."""
    steps, scores = 0, []
    for seed in seeds:
        state = rules.new_solo(seed) if solo else rules.new_game(seed, players=4)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        scores.append(state.scores())
    return steps, scores


def passes(first: int, games: int, runs: int, solo: bool) -> list[tuple[float, float, int]]:
    """``runs`` passes of ``games`` games, pass k from seed ``first + k * games``: per pass
    (wall seconds, CPU seconds, steps)."""
    out = []
    for k in range(runs):
        seeds = list(range(first + k * games, first + (k + 1) * games))
        wall, cpu = time.perf_counter(), time.process_time()
        steps, _ = play(seeds, solo)
        out.append((time.perf_counter() - wall, time.process_time() - cpu, steps))
    return out


def medians(found: list[tuple[float, float, int]], games: int) -> tuple[float, float, float]:
    """(games per second wall, games per second CPU, steps per game), medians."""
    return (statistics.median(games / w for w, _, _ in found),
            statistics.median(games / c for _, c, _ in found),
            statistics.median(s / games for _, _, s in found))


class naive_listing:
    """The engine with the arrests listed by brute force (a context manager)."""

    def __enter__(self):
        self.saved = rules.arrest_covers
        rules.arrest_covers = covers.naive_arrest_covers

    def __exit__(self, *exc):
        rules.arrest_covers = self.saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    check = list(range(args.seed, args.seed + 10))
    for solo in (False, True):
        fast = play(check, solo)
        with naive_listing():
            assert play(check, solo) == fast, "the baseline plays other games"
    print(f"random games, {args.runs} passes of {args.games} games (medians; one core)")
    figures = {}
    for solo in (False, True):
        label = "solo" if solo else "4 players"
        play(check, solo)  # warm
        fast = medians(passes(args.seed, args.games, args.runs, solo), args.games)
        with naive_listing():
            slow = medians(passes(args.seed, args.games, args.runs, solo), args.games)
        figures[label] = (fast, slow)
        print(f"  {label:9}  engine:   {fast[0]:7.1f} games/s wall, {fast[1]:7.1f} games/s "
              f"CPU, {fast[2]:.0f} steps/game")
        print(f"  {'':9}  baseline: {slow[0]:7.1f} games/s wall, {slow[1]:7.1f} games/s "
              f"CPU; ratio {fast[1] / slow[1]:.1f}x (CPU)")
    four = figures["4 players"][0][1]
    print(f"target: >= {TARGET_GAMES:.0f} 4-player games per second per core: "
          f"{'met' if four >= TARGET_GAMES else 'NOT met'} ({four:.0f} CPU)")


if __name__ == "__main__":
    main()
