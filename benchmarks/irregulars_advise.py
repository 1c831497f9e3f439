"""Baker Street Irregulars advice time.

Prints
- end to end: ``deduce irregulars advise FILE --json`` in a new process (the interpreter's
  start, the imports, the rollouts, the JSON), the median wall time of ``--runs`` runs,
  on the shipped sample (a bare position: no log) and the shipped sample observation;
- in this process: ``advice.advise`` on the sample, the median time, against a naive
  baseline run here too: the same rollouts with the greedy reading each seat's
  observation (``state.observation`` then ``greedy.view_of``, what the bot interface
  gives) instead of the engine's state (``greedy.state_view``), and the ratio.

    python benchmarks/irregulars_advise.py [--runs 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.irregulars import greedy  # noqa: E402
from deduce.models.irregulars.advice import ROLLOUTS, advise, load_view  # noqa: E402
from timing import median_time  # noqa: E402


def deduce_argv() -> list[str]:
    script = Path(sys.executable).with_name("deduce")
    return [str(script)] if script.exists() else [sys.executable, "-m", "deduce.cli.main"]


def end_to_end(name: str, runs: int) -> None:
    argv = deduce_argv() + ["irregulars", "advise", name, "--json"]
    wall, out = median_time(lambda: subprocess.run(argv, capture_output=True, text=True,
                                                   check=True), runs)
    import json

    doc = json.loads(out.stdout)
    print(f"  deduce irregulars advise {name} --json: median {wall:.2f} s wall "
          f"({len(doc['actions'])} choices x {doc['actions'][0]['rollouts']} rollouts)")


def naive_decide_state(self, state, legal=None):
    """The baseline: the greedy's decision read from the seat's observation."""
    legal = state.legal_actions() if legal is None else legal
    if len(legal) == 1:
        return legal[0]
    return self.decide(state.observation(state.current_player()), legal, None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"end to end, a new process each run ({args.runs} runs, {ROLLOUTS} rollouts asked "
          "per choice):")
    for name in ("sample", "sample-observation"):
        end_to_end(name, args.runs)
    view = load_view("sample")
    fast, _ = median_time(lambda: advise(view, ROLLOUTS, 0), args.runs)
    real = greedy.GreedyBot.decide_state
    greedy.GreedyBot.decide_state = naive_decide_state
    try:
        slow, _ = median_time(lambda: advise(view, ROLLOUTS, 0), args.runs)
    finally:
        greedy.GreedyBot.decide_state = real
    print(f"in this process, advice on the sample: median {fast:.2f} s; naive (the greedy "
          f"reading observations) {slow:.2f} s; ratio {slow / fast:.1f}x")


if __name__ == "__main__":
    main()
