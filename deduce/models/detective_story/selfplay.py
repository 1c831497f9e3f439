"""Detective Story self-play (``deduce story selfplay``): many cases played by one policy,
and their summary; ``GAME`` is its part of the one runner (``core.selfplay``).

The game is solo: the line-up is one "bot", the policy (``bots.POLICIES``). Case ``i`` of
a run seeded ``S`` uses ``case_seed(S, i)`` (this game's own seeds, older than the
runner's ``game_seed``: kept so that every published figure still holds), and every case
starts from the same record (``StorySetup.record``; None: fresh first cases).

Summary (``summarise``): the arrest rate with its Wilson 95% interval, wins, mean turns,
deaths (Holmes killed; party members dead), Luck spent, the outcomes; in the envelope they
follow the runner's keys as ``"policy", "cases", "arrest_rate", "ci95", "wins",
"mean_turns", "deaths", "party_deaths", "luck_spent", "mean_luck_spent", "outcomes",
"adventure", "from"``.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import random

from deduce.core.errors import InputError
from deduce.core.selfplay import Match, SelfPlayGame, Standing, Summary, schedule, wilson_ci
from deduce.models.detective_story.bots import POLICIES, make_policy
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.rules import play_case
from deduce.models.detective_story.state import outcome_text, parse_record


# ----------------------------------------------------------------------------- one case
class CaseSpec(NamedTuple):
    """One self-play case: a start record (None: a fresh first case), where the data is,
    the policy, the case's seed, (fresh cases) the Adventure (None: A000's 1d6) and
    whether a worker without the solved case reads it from the cache folder (``store``)."""

    record: dict | None
    data_dir: str | None
    policy: str
    seed: int
    adventure: str | None = None
    cache: bool = False


class CaseResult(NamedTuple):
    outcome: str
    won: bool
    turns: int
    luck_spent: int
    holmes_killed: bool
    party_deaths: int


def case_seed(master: int, index: int) -> int:
    """The seed of case ``index`` of a run seeded ``master`` (independent of workers)."""
    return random.Random(f"deduce-story:{master}:{index}").getrandbits(63)


_POLICY_CACHE: dict[str, object] = {}
_START_CACHE: dict = {}


def _start(spec: CaseSpec, rng: random.Random):
    data = load_campaign(spec.data_dir)
    if spec.record is not None:
        key = (id(spec.record), spec.data_dir)
        hit = _START_CACHE.get(key)
        if hit is None or hit[0] is not spec.record:
            hit = (spec.record, parse_record(spec.record, "--from", data))
            _START_CACHE.clear()
            _START_CACHE[key] = hit
        return hit[1]
    rec = new_record(data, spec.adventure, seed=rng.getrandbits(32))
    key = ("fresh", spec.data_dir, rec["adventure"], tuple(rec["equipment"]))
    hit = _START_CACHE.get(key)
    if hit is None:  # fresh cases differ only by Adventure and equipment: share contexts
        hit = (rec, parse_record(rec, "new case", data))
        _START_CACHE[key] = hit
    return hit[1]


def play_one(spec: CaseSpec) -> CaseResult:
    """Play one case (pure and picklable: the result depends only on ``spec``, wherever it
    runs)."""
    rng = random.Random(spec.seed)
    cf = _start(spec, rng)
    policy = _POLICY_CACHE.get(spec.policy)
    if policy is None:
        policy = _POLICY_CACHE[spec.policy] = make_policy(spec.policy)
    if cf.case.over:
        raise InputError(f"the case is already over ({outcome_text(cf.case.outcome)})",
                         field="outcome")
    if spec.cache and spec.record is not None and spec.policy == "optimal":
        from deduce.models.detective_story.store import attach

        attach(cf.ctx)  # a worker started by spawn: what the parent solved and wrote
    played = play_case(cf.ctx, cf.case, policy, rng, cf.phase, cf.waited)
    c = played.case
    return CaseResult(c.outcome, c.won, played.turns, played.luck_spent,
                      c.outcome == "holmes_killed", len(c.dead - cf.case.dead))


class StorySetup(NamedTuple):
    """A match's own settings (``Match.setup``): the start record (None: fresh first cases)
    and its file (``source``, echoed as ``"from"``), the campaign folder (None: the shipped
    one), for fresh cases the Adventure id (None: A000's 1d6 per case), and whether the
    optimal policy's solved case is read from and written to the cache folder."""

    record: dict | None = None
    data_dir: str | None = None
    adventure: str | None = None
    source: str | None = None
    cache: bool = False


def story_setup(record: dict | None = None, data_dir: str | None = None,
                adventure: str | None = None, source: str | None = None,
                cache: bool = False) -> StorySetup:
    """The setup of a match, with a fresh case's ``adventure`` (any id or name the campaign
    knows) made its id; ``InputError`` for an unknown one."""
    if record is None and adventure is not None:
        from deduce.models.detective_story.data import load_campaign

        adventure = load_campaign(data_dir).adventure(adventure).id
    return StorySetup(record, data_dir, adventure, source, cache)


def match_specs(match: Match) -> list[CaseSpec]:
    """One ``CaseSpec`` per case: the match's policy from its setup's start, seeded by
    ``case_seed``."""
    (policy,) = match.bots
    s = match.setup
    return [CaseSpec(s.record, s.data_dir, policy, seed, s.adventure, s.cache)
            for _, seed in schedule(match.bots, match.games, match.seed, case_seed)]


def presolve(record: dict, data_dir: str | None, cache: bool = False) -> str:
    """Solve the DP of ``record``'s whole case in this process before the worker pool
    starts (``store.prepare``: read from the cache folder, or solved and written there,
    when ``cache``): forked workers inherit it (``advice.solver_for``), workers started by
    spawn read the entry written, instead of each solving it again. Returns where it came
    from (``store.MEMORY``, ``CACHED`` or ``SOLVED``)."""
    from deduce.models.detective_story import store
    from deduce.models.detective_story.advice import solver_for
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.state import parse_record

    cf = parse_record(record, "--from", load_campaign(data_dir))
    return store.prepare(solver_for(cf.ctx), cf.case, cf.phase, cf.waited, use_cache=cache,
                         whole=True)


def prepare(match: Match) -> None:
    """The optimal policy from a record, played here or on local workers: its DP solved
    (or read from the cache) once, here, for the whole case."""
    s = match.setup
    if match.bots == ("optimal",) and s.record is not None and not match.scheduler \
            and (match.workers > 1 or s.cache):
        presolve(s.record, s.data_dir, s.cache)


def summarise(policy: str, results: list[CaseResult]) -> dict:
    """The figures: arrest rate with its Wilson 95% interval, turns, deaths, Luck."""
    n = len(results)
    wins = sum(r.won for r in results)
    lo, hi = wilson_ci(wins, n)
    outcomes = Counter(r.outcome for r in results)
    luck = sum(r.luck_spent for r in results)
    return {
        "policy": policy, "cases": n,
        "arrest_rate": wins / n if n else 0.0, "ci95": [lo, hi], "wins": wins,
        "mean_turns": sum(r.turns for r in results) / n if n else 0.0,
        "deaths": sum(r.holmes_killed for r in results),
        "party_deaths": sum(r.party_deaths for r in results),
        "luck_spent": luck, "mean_luck_spent": luck / n if n else 0.0,
        "outcomes": dict(sorted(outcomes.items())),
    }


def match_summary(match: Match, results: list[CaseResult]) -> Summary:
    """The policy's row (an arrest is a win; turns: the case's turns) and the figures."""
    (policy,) = match.bots
    s = match.setup
    figures = summarise(policy, results)
    figures["adventure"] = s.record["adventure"] if s.record else s.adventure
    figures["from"] = s.source
    standing = Standing(policy, figures["wins"], sum(r.turns for r in results))
    return Summary((standing,), figures)


GAME = SelfPlayGame("detective-story", POLICIES, match_specs, play_one, match_summary,
                    prepare=prepare, label="cases")
