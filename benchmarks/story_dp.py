"""Detective Story advisor: the exact DP for one case state (target: under 1 s).

For case states of the shipped campaign (a001, seeded fresh record, Villain revealed with
SM 1 from turn 8 on; the fresh turn-1 record with --fresh), prints the median time of
``advice.advise`` with a new ``Solver`` (no cache kept between runs) and the memo size, and
two baselines run in the same process:

- naive: the same rules engine evaluated by plain recursion without any memo (exponential;
  only on the last turns), with its value checked equal to the DP's;
- Monte Carlo: the time self-play of the optimal policy needs to estimate the same value to
  +-0.01 (95%), from the measured cases per second.

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
from deduce.models.detective_story import combat as C  # noqa: E402
from deduce.models.detective_story import engine as E  # noqa: E402
from deduce.models.detective_story import tables as T  # noqa: E402
from deduce.models.detective_story.bots import make_policy  # noqa: E402
from deduce.models.detective_story.campaign import new_record  # noqa: E402
from deduce.models.detective_story.data import load_campaign  # noqa: E402
from deduce.models.detective_story.state import parse_record  # noqa: E402
from deduce.models.detective_story.worlds import play_case  # noqa: E402


class Plain:
    """The engine's world by plain recursion: no memo, no symbolic SM/Luck."""

    def __init__(self, ctx):
        self.ctx = ctx

    def note(self, text):
        pass

    def chance(self, case, dist, k):
        return sum(p * k(self, case, x) for p, x in dist)

    def choose(self, case, kind, options, k):
        return max(k(self, case, o) for o in options)

    def luck_roll(self, case, tag, mod, with_sm, table, k):
        mod += case.sm if with_sm else 0
        rows = A.row_probabilities(table, mod)
        keep = [(p, k(self, case, o)) for o, p in rows]
        if case.luck <= 0:
            return sum(p * v for p, v in keep)
        spent = case._replace(luck=case.luck - 1)
        again = sum(p * k(self, spent, o) for o, p in rows)
        return sum(p * max(v, again) for p, v in keep)

    def plain_roll(self, case, mod, table, k):
        return sum(p * k(self, case, o) for o, p in A.row_probabilities(table, mod))

    def sm_at_least(self, case, value, k_yes, k_no):
        return k_yes(self, case) if case.sm >= value else k_no(self, case)

    def roll_at_most_sm(self, case, offset, k):
        p = E.p_2d6_at_most(case.sm + offset)
        return p * k(self, case, True) + (1 - p) * k(self, case, False)

    def combat(self, case, setup, k):
        return C.solve(setup, {t: k(self, case, t) for t in C.terminals(setup)})[0]

    def tail(self, key, case, k, f):
        return f(self, case, k)

    def finish(self, phase, case):
        if case.over:
            return 1.0 if case.won else 0.0
        if phase is E.AFTER_TURN:
            if case.turn >= T.TURNS:
                return 0.0
            return self.value(case._replace(turn=case.turn + 1))
        return E.encounter(self, self.ctx, case, phase.key[1], E.AFTER_TURN)

    def value(self, case):
        return max(E.take_action(self, self.ctx, case, a, E.AFTER_ACTION[a == T.WAIT])
                   for a in E.legal_actions(self.ctx, case))


def state(data, turn: int):
    rec = new_record(data, "a001", seed=5)
    if turn > 1:
        rec.update(turn=turn, villain="c201", sm=1, clue_found=True)
    return parse_record(rec, "bench", data)


def solve(cf):
    A._MODES.clear()
    solver = A.Solver(cf.ctx)
    return A.advise(cf.ctx, cf.case, solver=solver), solver


def median_time(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--fresh", action="store_true", help="also time the turn-1 record (slow)")
    args = ap.parse_args()
    data = load_campaign()
    turns = [12, 11, 10, 9, 8] + ([1] if args.fresh else [])
    print(f"{'state':<12} {'DP median':>10} {'modes':>8} {'P(arrest)':>10} {'naive':>10} "
          f"{'ratio':>8} {'MC +-0.01':>10} {'ratio':>8}")
    for turn in turns:
        cf = state(data, turn)
        runs = args.runs if turn >= 8 else 1
        t_dp, (adv, solver) = median_time(lambda: solve(cf), runs)
        naive = ratio = "-"
        if turn >= 11:
            t_naive, v = median_time(lambda: Plain(cf.ctx).value(cf.case), max(1, runs // 2))
            assert abs(v - adv.p_win) < 1e-9, (v, adv.p_win)
            naive, ratio = f"{t_naive:.3f}s", f"{t_naive / t_dp:.0f}x"
        policy = make_policy("optimal")
        policy._solvers[id(cf.ctx)] = (cf.ctx, solver)
        n = 300
        t0 = time.perf_counter()
        for i in range(n):
            play_case(cf.ctx, cf.case, policy, random.Random(i))
        per_case = (time.perf_counter() - t0) / n
        p = min(max(adv.p_win, 0.01), 0.99)
        need = (1.959964 / 0.01) ** 2 * p * (1 - p)
        t_mc = need * per_case
        print(f"a001 turn {turn:<2} {t_dp:>9.3f}s {solver.states:>8} {adv.p_win:>10.4f} {naive:>10} "
              f"{ratio:>8} {t_mc:>9.1f}s {t_mc / t_dp:>7.1f}x")
    print("target: DP under 1 s for one case state")


if __name__ == "__main__":
    main()
