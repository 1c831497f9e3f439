"""Detective Story advisor: the exact DP for one case state (target: under 1 s).

For case states of the shipped campaign (a001, seeded fresh record, Villain revealed with
SM 1 from turn 8 on; with --fresh also the fresh turn-1 records of a001 and a002), prints
the median time of ``advice.advise`` with a new ``Solver`` (no cache kept between runs;
the DP evaluated a turn at a time, ``sweep``), the memo entries it keeps (two turns), and
three baselines run in the same process:

- recursion: the same DP evaluated one (turn, mode) at a time (``Solver(batched=False)``,
  the evaluation ``sweep`` replaced), its value checked equal;
- naive: the same rules engine evaluated by plain recursion without any memo
  (``naive.Naive``; exponential, only on the last turns), its value checked equal to the
  DP's;
- Monte Carlo: the time self-play of the optimal policy needs to estimate the same value to
  +-0.01 (95%), from the measured cases per second.

With --fresh also the live session of ``deduce story table``: the whole fresh a001 case
solved once (every turn kept), then ``advise`` at the start of every turn of 20 cases the
advice's best Action plays (greedy dice), read from that memo.

    python benchmarks/story_dp.py [--runs 5] [--fresh]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.detective_story import advice as A  # noqa: E402
from deduce.models.detective_story.bots import make_policy  # noqa: E402
from deduce.models.detective_story.campaign import new_record  # noqa: E402
from deduce.models.detective_story.data import load_campaign  # noqa: E402
from deduce.models.detective_story.state import parse_record  # noqa: E402
from deduce.models.detective_story.naive import Naive  # noqa: E402
from deduce.models.detective_story.rules import play_case  # noqa: E402
from timing import median_time  # noqa: E402


def state(data, turn: int, adventure: str = "a001"):
    rec = new_record(data, adventure, seed=5)
    if turn > 1:
        rec.update(turn=turn, villain="c201", sm=1, clue_found=True)
    return parse_record(rec, "bench", data)


def solve(cf, batched: bool = True):
    solver = A.Solver(cf.ctx, batched=batched)  # its own caches: nothing kept between runs
    return A.advise(cf.ctx, cf.case, solver=solver), solver


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--fresh", action="store_true", help="also time the turn-1 record (slow)")
    args = ap.parse_args()
    data = load_campaign()
    cases = [("a001", t) for t in (12, 11, 10, 9, 8)]
    cases += [("a001", 1), ("a002", 1)] if args.fresh else []
    print(f"{'state':<12} {'DP median':>10} {'memo':>6} {'P(arrest)':>10} {'recursion':>10} "
          f"{'ratio':>6} {'naive':>9} {'ratio':>6} {'MC +-0.01':>10} {'ratio':>7}")
    for adventure, turn in cases:
        cf = state(data, turn, adventure)
        runs = args.runs if turn >= 8 else 3 if adventure == "a001" else 2
        t_dp, (adv, solver) = median_time(lambda: solve(cf), runs)
        t_rec, (rec, _) = median_time(lambda: solve(cf, batched=False), max(1, runs // 3))
        assert abs(rec.p_win - adv.p_win) < 1e-9, (rec.p_win, adv.p_win)
        naive = ratio = "-"
        if turn >= 11:
            t_naive, v = median_time(lambda: Naive(cf.ctx).value(cf.case), max(1, runs // 2))
            assert abs(v - adv.p_win) < 1e-9, (v, adv.p_win)
            naive, ratio = f"{t_naive:.3f}s", f"{t_naive / t_dp:.0f}x"
        solver.prepare(cf.case)  # every turn kept for the bot (advise keeps two)
        A.SOLVERS.put(cf.ctx, solver)  # the optimal bot's solver (``solver_for``)
        policy = make_policy("optimal")
        n = 300
        t0 = time.perf_counter()
        for i in range(n):
            play_case(cf.ctx, cf.case, policy, random.Random(i))
        per_case = (time.perf_counter() - t0) / n
        A.SOLVERS.clear()
        p = min(max(adv.p_win, 0.01), 0.99)
        need = (1.959964 / 0.01) ** 2 * p * (1 - p)
        t_mc = need * per_case
        print(f"{adventure} turn {turn:<2} {t_dp:>9.3f}s {adv.states:>6} {adv.p_win:>10.4f} "
              f"{t_rec:>9.3f}s {t_rec / t_dp:>5.1f}x {naive:>9} {ratio:>6} {t_mc:>9.1f}s "
              f"{t_mc / t_dp:>6.1f}x")
    if args.fresh:
        session(data)
    print("target: DP under 1 s for one case state")


def session(data) -> None:
    """The live session's figures (module docstring)."""
    from deduce.models.detective_story import engine as E
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.worlds import Sampler

    cf = state(data, 1)
    solver = A.Solver(cf.ctx)
    t = time.perf_counter()
    solver.prepare(cf.case, whole=True)
    t_solve = time.perf_counter() - t
    times = []
    for seed in range(20):
        case, rng, policy = cf.case, random.Random(seed), make_policy("greedy")
        while not case.over:
            t = time.perf_counter()
            action = A.advise(cf.ctx, case, solver=solver).best
            times.append(time.perf_counter() - t)
            w = Sampler(rng, policy, cf.ctx)
            waited = action == T.WAIT
            case = E.take_action(w, cf.ctx, case, action, E.AFTER_ACTION[waited])
            case = E.end_turn(E.encounter(w, cf.ctx, case, waited, E.AFTER_TURN))
    print(f"live session (story table), a001: whole case solved once in {t_solve:.1f} s; then "
          f"advise per turn {1e3 * statistics.median(times):.3f} ms median, "
          f"{1e3 * max(times):.3f} ms max over {len(times)} turns of 20 cases")


if __name__ == "__main__":
    main()
