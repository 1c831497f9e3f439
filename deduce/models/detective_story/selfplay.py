"""Self-play of many cases and their summary (``deduce story selfplay``).

Case ``i`` of a run seeded ``S`` uses ``bots.case_seed(S, i)``; the cases go through
``deduce.core.selfplay.run_games`` (in order, on any executor), so the summary depends only
on (policy, cases, seed, start), never on the number of workers.
"""

from __future__ import annotations

from collections import Counter

from deduce.core.selfplay import open_executor, run_games, wilson_ci
from deduce.models.detective_story.bots import CaseSpec, case_seed, play_one


def summarise(policy: str, seed: int, results) -> dict:
    """The JSON summary: arrest rate with its Wilson 95% interval, turns, deaths, Luck."""
    results = list(results)
    n = len(results)
    wins = sum(r.won for r in results)
    lo, hi = wilson_ci(wins, n)
    outcomes = Counter(r.outcome for r in results)
    luck = sum(r.luck_spent for r in results)
    return {
        "policy": policy, "cases": n, "seed": seed,
        "arrest_rate": wins / n if n else 0.0, "ci95": [lo, hi], "wins": wins,
        "mean_turns": sum(r.turns for r in results) / n if n else 0.0,
        "deaths": sum(r.holmes_killed for r in results),
        "party_deaths": sum(r.party_deaths for r in results),
        "luck_spent": luck, "mean_luck_spent": luck / n if n else 0.0,
        "outcomes": dict(sorted(outcomes.items())),
    }


def presolve(record: dict, data_dir: str | None) -> None:
    """Solve the DP of ``record``'s case in this process before the worker pool starts:
    forked workers inherit it (``advice.solver_for``) instead of each solving it again."""
    from deduce.models.detective_story.advice import solver_for
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.state import parse_record

    cf = parse_record(record, "--from", load_campaign(data_dir))
    if not cf.case.over:
        solver_for(cf.ctx).at(cf.case, cf.phase, cf.waited)


def run_selfplay(policy: str, cases: int, seed: int, record: dict | None = None,
                 data_dir: str | None = None, adventure: str | None = None, workers: int = 1,
                 progress=None, scheduler: str | None = None) -> dict:
    """Play ``cases`` cases with ``policy`` from ``record`` (None: fresh first cases on
    ``adventure``, or A000's roll) and summarise, in this process, on ``workers`` local
    processes or on the Dask ``scheduler``. ``progress(total)`` is a context manager
    yielding ``tick(k)`` (e.g. a progress bar)."""
    import contextlib

    if record is None and adventure is not None:
        from deduce.models.detective_story.data import load_campaign

        adventure = load_campaign(data_dir).adventure(adventure).id
    if policy == "optimal" and record is not None and workers > 1 and not scheduler:
        presolve(record, data_dir)
    specs = [CaseSpec(record, data_dir, policy, case_seed(seed, i), adventure)
             for i in range(cases)]
    bar = progress(cases) if progress else contextlib.nullcontext(None)
    with open_executor(workers, scheduler) as executor, bar as tick:
        results = run_games(play_one, specs, executor, progress=tick)
    out = summarise(policy, seed, results)
    out["adventure"] = record["adventure"] if record else adventure
    return out
