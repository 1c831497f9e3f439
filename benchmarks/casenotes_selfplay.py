"""Case notes self-play: games per second of ``deduce case selfplay`` (one oracle per
process, shared by the games) against the baseline of ``deduce case play`` (an oracle made
for each game), on the same games in the same process; the figures are checked equal.

    python benchmarks/casenotes_selfplay.py [--games 30] [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.casenotes import selfplay as SP  # noqa: E402
from deduce.models.casenotes.format import load_case  # noqa: E402
from deduce.models.casenotes.rules import play_game  # noqa: E402
from timing import median_time  # noqa: E402

MATCHES = [("lantern-street", "competitive", ["informed", "fair"], 4),
           ("kew-orchid", "competitive", ["informed", "fair", "fair"], 3),
           ("half-moon-mews", "cooperative", ["informed", "fair"], 2)]


def shared(specs) -> list:
    for oracle in SP._ORACLES.values():
        oracle.close()
    SP._ORACLES.clear()  # every run starts with an empty oracle, as a new process does
    return [SP.play_one(s) for s in specs]


def per_game(specs) -> list:
    out = []
    for s in specs:
        r = play_game(s.case, len(s.seats), s.seed, s.mode, list(s.seats), s.tokens)
        out.append(tuple((b.status, b.spent, len(b.visited), b.answered_round) for b in r.seats))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"{'match':<36} {'games':>5} {'selfplay':>10} {'per-game oracle':>16} {'ratio':>6}")
    for name, mode, strategies, bots in MATCHES:
        case = load_case(name)
        specs = SP.game_specs(case, mode, strategies, bots, args.games, seed=1)
        t_fast, fast = median_time(lambda: shared(specs), args.runs)
        t_slow, slow = median_time(lambda: per_game(specs), max(1, args.runs // 2))
        assert [o.seats for o in fast] == slow  # the same games
        label = f"{name} {mode} {bots} bots"
        print(f"{label:<36} {args.games:>5} {args.games / t_fast:>7.1f}/s {args.games / t_slow:>13.1f}/s "
              f"{t_slow / t_fast:>5.1f}x")


if __name__ == "__main__":
    main()
