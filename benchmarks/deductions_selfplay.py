"""Deductions self-play: speed per core, advice time and bot strength.

Prints
- speed: 3-player games of random against two random bots, and of greedy against two
  greedy bots, played in this one process: games per second (wall clock and CPU), turns
  per game, CPU per turn;
- advice: ``deduce deductions advise FILE --json`` on mid-game positions (from seeded
  greedy games), in a new process: the median wall time end to end and the rollouts;
- strength: ``search`` against two ``greedy`` bots and ``greedy`` against two ``random``
  bots, 3 players, seats rotating, fixed seeds: the first bot's win share with its Wilson
  95% interval (ties count for each tied bot). A fair share is 1/3.

    python benchmarks/deductions_selfplay.py [--games 1000] [--speed-games 100]
        [--workers 2] [--only speed,advice,strength]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.core.selfplay import Match, run  # noqa: E402
from deduce.models.deductions.selfplay import GAME, game_specs, play_one  # noqa: E402
from timing import median_time  # noqa: E402

SPEED_SEED = 20240601
MATCHES = [  # (label, line-up, seed)
    ("search vs 2 greedy", ("search", "greedy", "greedy"), 3001),
    ("greedy vs 2 random", ("greedy", "random", "random"), 3002),
]


def speed(games: int) -> None:
    print(f"speed, 3 players, {games} games each in one process:")
    for bots in (("random",) * 3, ("greedy",) * 3):
        specs = game_specs(3, bots, games, SPEED_SEED)
        play_one(specs[0])  # warm the imports
        wall, cpu = time.perf_counter(), time.process_time()
        results = [play_one(s) for s in specs]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        turns = sum(r.turns for r in results)
        print(f"  {','.join(bots):22s} {games / wall:7.1f} games/s wall  {games / cpu:7.1f} games/s CPU"
              f"  {turns / games:5.1f} turns per game  {1e6 * cpu / turns:7.1f} us CPU per turn")


def mid_game_positions(count: int, turns: int = 18) -> list[dict]:
    """Positions of seeded greedy games after ``turns`` turns, at the first investigate
    step from there (a choice of takes and Mind Palace lines), seen by the player to move."""
    from deduce.models.deductions.bots import make_bot
    from deduce.models.deductions.rules import new_game

    found = []
    for seed in range(count):
        state, bot, rng = new_game(seed, players=3), make_bot("greedy"), random.Random(seed)
        while not state.is_over() and (state.turns < turns or state.observation(
                state.current_player())["turn"]["step"] != "investigate"):
            seat = state.current_player()
            state.apply(bot.decide(state.observation(seat), state.legal_actions(), rng))
        found.append(state.observation(state.current_player()))
    return found


def advice(positions: int) -> None:
    """``deduce deductions advise FILE --json`` in a new process (the installed script):
    the median wall time of 3 runs per position, end to end."""
    import subprocess

    script = Path(sys.executable).with_name("deduce")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "deduce.cli.main"]
    print(f"advice, 3 players, {positions} mid-game positions (after 18 turns, investigating), default "
          "rollouts, end to end in a new process:")
    with tempfile.TemporaryDirectory() as tmp:
        for k, obs in enumerate(mid_game_positions(positions)):
            path = Path(tmp) / f"mid{k}.json"
            path.write_text(json.dumps(obs), encoding="utf-8")
            cmd = argv + ["deductions", "advise", str(path), "--json"]
            t, res = median_time(lambda: subprocess.run(cmd, capture_output=True, text=True,
                                                        check=True), 3)
            doc = json.loads(res.stdout)
            print(f"  position {k}: {len(doc['actions']):3d} actions x "
                  f"{doc['best']['rollouts']:3d} rollouts  median {t:5.2f} s  "
                  f"p_win {doc['best']['p_win']:.3f} ± {doc['best']['stderr']:.3f}")


def strength(games: int, workers: int) -> None:
    print(f"strength, 3 players, {games} games each, seats rotating, {workers} workers:")
    for label, bots, seed in MATCHES:
        report = run(GAME, Match(games, seed, bots, 3, workers=workers))
        first = report.rows[0]
        lo, hi = first.ci95
        others = ", ".join(f"{r.figures['mean_points']:.2f}" for r in report.rows[1:])
        print(f"  {label:22s} {100 * first.win_share:5.1f}%  95% CI [{100 * lo:4.1f}%, {100 * hi:4.1f}%]"
              f"  mean points {first.figures['mean_points']:5.2f} (others {others})"
              f"  seed {seed}  ({report.elapsed_s:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per strength match (default 1000)")
    ap.add_argument("--speed-games", type=int, default=100, help="games per speed figure")
    ap.add_argument("--positions", type=int, default=5, help="mid-game positions for advice")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", default="speed,advice,strength")
    args = ap.parse_args()
    parts = args.only.split(",")
    if "speed" in parts:
        speed(args.speed_games)
    if "advice" in parts:
        advice(args.positions)
    if "strength" in parts:
        strength(args.games, args.workers)


if __name__ == "__main__":
    main()
