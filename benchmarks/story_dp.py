"""Detective Story advisor: the exact DP for one case state, the production solver (the
reachable-only sweep, ``dp.sweep``) beside today's dense one (``dp.dense``) in the same run.

For case states of the shipped campaign (a001 with the Villain revealed, SM 1, from turn
12 back to turn 8; a002 likewise with Captain Holt; with --fresh also the fresh turn-1
records of a001 and a002, seed 5), each solver runs ``advice.advise`` with a new
``Solver`` in a fresh subprocess per run: its CPU seconds (``time.process_time``), wall
seconds and peak RSS (the child's ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` at its
end: what ``RUSAGE_CHILDREN`` gives the parent for that one child), medians over
``--runs``. The two solvers' P(arrest) and every Action's value must agree to 1e-12, and
on turns 11-12 equal the plain recursion without memo (``naive.Naive``).

With --whole also the whole case kept (``Solver.prepare(case, whole=True)``: what ``story
table`` and optimal self-play solve once) from each fresh record.

With --cached the solved-case cache end to end, as a user runs it: per adventure a fresh
record (``deduce story new --seed 5``) in a new, empty cache folder, the first ``deduce
story advise`` (the whole case solved and written), then ``--runs`` later ones at the
fresh state and, after three Waits (``deduce story turn FILE wait -a 2``), at turn 4;
each a new process (wall seconds, its CPU seconds and peak RSS from ``RUSAGE_CHILDREN``),
beside ``--no-cache`` at the same state. The program's bytecode is written once to a
scratch folder (``PYTHONPYCACHEPREFIX``), as an installed package has it.

    python benchmarks/story_dp.py [--runs 3] [--fresh] [--whole] [--cached]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VILLAIN = {"a001": "c201", "a002": "c203"}


def state(data, turn: int, adventure: str = "a001"):
    """The benchmark's record: fresh (seed 5), from turn 8 on with the Villain known, SM 1."""
    from deduce.models.detective_story.campaign import new_record
    from deduce.models.detective_story.state import parse_record

    rec = new_record(data, adventure, seed=5)
    if turn > 1:
        rec.update(turn=turn, villain=VILLAIN[adventure], sm=1, clue_found=True)
    return parse_record(rec, "bench", data)


def make_solver(ctx, which: str):
    """``reach``: the production ``advice.Solver``; ``dense``: today's dense sweep."""
    from deduce.models.detective_story import advice as A
    from deduce.models.detective_story.dp.dense import DenseSweep
    from deduce.models.detective_story.dp.solver import Solver

    return A.Solver(ctx) if which == "reach" else Solver(ctx, sweep=DenseSweep())


def child(adventure: str, turn: int, which: str, whole: bool) -> None:
    """One measurement in this (fresh) process, printed as JSON."""
    from deduce.models.detective_story import advice as A
    from deduce.models.detective_story.data import load_campaign

    cf = state(load_campaign(), turn, adventure)
    solver = make_solver(cf.ctx, which)
    c0, w0 = time.process_time(), time.perf_counter()
    if whole:
        solver.prepare(cf.case, whole=True)
        p, actions = solver.value(cf.case), solver.q_values(cf.case)
        actions = sorted(actions.items(), key=lambda kv: -kv[1])
    else:
        adv = A.advise(cf.ctx, cf.case, solver=solver)
        p, actions = adv.p_win, adv.actions
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    print(json.dumps({"cpu": cpu, "wall": wall, "rss": rss, "p": p, "actions": actions}))


def measure(adventure: str, turn: int, which: str, runs: int, whole: bool = False) -> dict:
    """Medians of ``runs`` fresh subprocesses (``child``); the last run's values."""
    out = []
    for _ in range(runs):
        res = subprocess.run([sys.executable, __file__, "--child", adventure, str(turn), which]
                             + (["--whole"] if whole else []),
                             capture_output=True, text=True, check=True, cwd=ROOT)
        out.append(json.loads(res.stdout.strip().splitlines()[-1]))
    med = {k: statistics.median(r[k] for r in out) for k in ("cpu", "wall", "rss")}
    return {**med, "p": out[-1]["p"], "actions": out[-1]["actions"]}


def _cli(args: list, env: dict) -> dict:
    """``deduce ARGS`` in a new process: its wall and CPU seconds, peak RSS (``os.wait4``:
    that child's own) and output."""
    script = Path(sys.executable).with_name("deduce")  # what a user runs, if installed
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "deduce.cli.main"]
    with tempfile.TemporaryFile("w+") as out:
        w0 = time.perf_counter()
        proc = subprocess.Popen(cmd + list(args), env=env, stdout=out,
                                stderr=subprocess.DEVNULL, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - w0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"deduce {' '.join(args)} exited {proc.returncode}")
        out.seek(0)
        text = out.read()
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss": usage.ru_maxrss / 1024, "out": text}


def cached(runs: int) -> None:
    """The solved-case cache end to end (see the module docstring)."""
    print(f"{'cached state':<20} | {'first wall':>10} {'CPU':>7} {'RSS':>7} | "
          f"{'later wall':>10} {'CPU':>7} {'RSS':>6} | {'--no-cache wall':>15} | same")
    for adventure in ("a001", "a002"):
        with tempfile.TemporaryDirectory() as tmp:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env.update(DEDUCE_CACHE_DIR=str(Path(tmp) / "cache"),
                       PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"))
            rec = str(Path(tmp) / "case.json")
            _cli(["story", "new", "--adventure", adventure, "--seed", "5", rec], env)
            first = _cli(["story", "advise", rec], env)
            for label in ("fresh", "turn 4"):
                if label == "turn 4":
                    for _ in range(3):
                        _cli(["story", "turn", rec, "wait", "-a", "2"], env)
                later = [_cli(["story", "advise", rec], env) for _ in range(runs)]
                med = {k: statistics.median(r[k] for r in later) for k in ("wall", "cpu", "rss")}
                plain = _cli(["story", "advise", "--no-cache", rec], env)
                same = all(r["out"] == plain["out"] for r in later)
                head = (f"{first['wall']:>9.2f}s {first['cpu']:>6.2f}s {first['rss']:>5.0f}MB"
                        if label == "fresh" else f"{'':>10} {'':>7} {'':>7}")
                print(f"{adventure + ' ' + label:<20} | {head} | {med['wall']:>9.3f}s "
                      f"{med['cpu']:>6.3f}s {med['rss']:>4.0f}MB | {plain['wall']:>14.2f}s | "
                      f"{'yes' if same else 'NO'}", flush=True)
    print("target (issue 14): any state of an already solved case <= 0.3 s end to end")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--fresh", action="store_true", help="also the turn-1 records (slow)")
    ap.add_argument("--whole", action="store_true", help="also the whole fresh case (slower)")
    ap.add_argument("--cached", action="store_true",
                    help="also the solved-case cache through the CLI (slow: solves both cases)")
    ap.add_argument("--child", nargs=3, metavar=("ADVENTURE", "TURN", "SOLVER"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        adventure, turn, which = args.child
        return child(adventure, int(turn), which, args.whole)
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.naive import Naive

    data = load_campaign()
    cases = [(adv, t, False) for adv in ("a001", "a002") for t in (12, 11, 10, 9, 8)]
    if args.fresh:
        cases += [("a001", 1, False), ("a002", 1, False)]
    if args.whole:
        cases += [("a001", 1, True), ("a002", 1, True)]
    print(f"{'state':<20} {'P(arrest)':>19} | {'reachable CPU':>13} {'wall':>7} {'RSS':>7} | "
          f"{'dense CPU':>9} {'wall':>7} {'RSS':>7} | {'CPU ratio':>9}")
    for adventure, turn, whole in cases:
        runs = args.runs if turn >= 8 else max(1, min(args.runs, 3 if adventure == "a001" else 2))
        new = measure(adventure, turn, "reach", runs, whole)
        old = measure(adventure, turn, "dense", 1 if whole else runs, whole)
        assert abs(new["p"] - old["p"]) < 1e-12, (new["p"], old["p"])
        assert [a for a, _ in new["actions"]] == [a for a, _ in old["actions"]]
        assert all(abs(x - y) < 1e-12 for (_, x), (_, y) in zip(new["actions"], old["actions"]))
        if turn >= 11:
            v = Naive(state(data, turn, adventure).ctx).value(state(data, turn, adventure).case)
            assert abs(v - new["p"]) < 1e-9, (v, new["p"])
        name = f"{adventure} {'whole case' if whole else 'fresh' if turn == 1 else f'turn {turn}'}"
        print(f"{name:<20} {new['p']:>19.16f} | {new['cpu']:>12.3f}s {new['wall']:>6.2f}s "
              f"{new['rss']:>5.0f}MB | {old['cpu']:>8.3f}s {old['wall']:>6.2f}s {old['rss']:>5.0f}MB"
              f" | {old['cpu'] / new['cpu']:>8.1f}x", flush=True)
    print("targets (issue 14, CPU and peak RSS): fresh a001 <= 1.5 s and 250 MB, fresh a002 "
          "<= 5 s and 600 MB, from turn 8 <= 0.1 s")
    if args.cached:
        cached(args.runs)


if __name__ == "__main__":
    main()
