"""Policies that play a case through the engine, and pure self-play ``play_one(spec)``.

- ``optimal``: the advisor's DP (``advice.Solver``): the Action with the highest P(win),
  a Luck re-roll when re-rolling is worth more, option 3's best start, the optimal fight
  plan (``combat.solve``). Its self-play arrest rate estimates the DP's value.
- ``greedy``: one step ahead: the Action whose table promises the most this turn
  (``ROW_SCORE`` weighted by the exact row probabilities), a re-roll when the row rolled
  scores below zero, Deduction first, the strongest fighter, never flees.
- ``random``: a uniformly random legal Action (and random option 3 start and champion),
  never re-rolls, never flees.

``play_one(spec)`` is pure and picklable: a ``CaseSpec`` (start record, data folder,
policy name, seed) gives the same ``CaseResult`` wherever it runs.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from deduce.core.errors import InputError
from deduce.models.detective_story import advice as A
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.rules import play_case
from deduce.models.detective_story.state import Case, Context, outcome_text, parse_record
from deduce.models.detective_story.worlds import PlainDecisions

POLICIES = ("optimal", "greedy", "random")

#: how much the greedy policy likes each outcome row of an Action table
ROW_SCORE = {
    "option3": 6.0, "motive": 3.0, "sm2": 2.0, "breakthrough": 1.5, "villain": 1.5,
    "confrontation": 1.0, "sm": 1.0, "clue": 1.0, "witness": 0.7, "character": 0.5,
    "location": 0.5, "holmes_or_watson": 0.5, "bonus": 0.3, "unlock_investigate": 0.3,
    "nothing": 0.0, "lost": -0.3, "ally_leaves": -0.3, "allies_may_leave": -0.3,
    "channel_blocked": -0.2, "lose_luck": -0.5, "outwitted": -0.5, "trap": -1.0,
    "ally_killed": -2.0, "holmes_killed": -20.0,
}


def _first_best(items, key):
    best, best_v = None, None
    for it in items:
        v = key(it)
        if best_v is None or v > best_v + 1e-12:
            best, best_v = it, v
    return best


class OptimalPolicy:
    """Decisions from the exact DP (one ``Solver`` per case context, reused)."""

    name = "optimal"

    def __init__(self):
        self._solvers: dict[int, tuple[Context, A.Solver]] = {}

    def solver(self, ctx: Context) -> A.Solver:
        hit = self._solvers.get(id(ctx))
        if hit is None or hit[0] is not ctx:
            hit = (ctx, A.solver_for(ctx))
            self._solvers[id(ctx)] = hit
        return hit[1]

    def action(self, w, case: Case, legal: list[str]) -> str:
        q = self.solver(w.ctx).q_values(case)
        return _first_best(legal, lambda a: q[a])

    def reroll(self, w, case: Case, tag, roll: int, mod: int, table, k_row) -> bool:
        ex = self.solver(w.ctx).world
        keep = k_row(ex, case, T.row_for(table, roll + mod).outcome)
        return ex.reroll_value(case, mod, table, k_row) > keep + 1e-12

    def choose(self, w, case: Case, kind: str, options, k):
        ex = self.solver(w.ctx).world
        return _first_best(options, lambda o: k(ex, case, o))

    def combat_plan(self, w, case: Case, setup: C.Setup, k):
        ex = self.solver(w.ctx).world
        _, plan = C.solve(setup, {t: k(ex, case, t) for t in C.terminals(setup)})
        return plan.__getitem__


class GreedyPolicy(PlainDecisions):
    """One step ahead with fixed scores (no look-ahead); option 3 and fights the plain way
    (``worlds.PlainDecisions``: Deduction first, the strongest fighter, never flees)."""

    name = "greedy"

    def score(self, ctx: Context, case: Case, action: str) -> float:
        b = E.base_action(action)
        if b == T.REST:
            hurt = any(h[0] or h[1] or h[2] for _, _, h in ctx.members(case))
            return 1.0 if hurt else -1.0
        if b in (T.WAIT, T.ESCAPE_TRAP):
            return 0.2 if ctx.can_arrest(case) else 0.0
        mod, _ = E.action_modifier(ctx, case, action)
        return sum(p * ROW_SCORE[o] for o, p in A.row_probabilities(T.ACTION_TABLES[b], mod))

    def action(self, w, case: Case, legal: list[str]) -> str:
        return _first_best(legal, lambda a: self.score(w.ctx, case, a))

    def reroll(self, w, case: Case, tag, roll: int, mod: int, table, k_row) -> bool:
        return tag != "encounter" and ROW_SCORE[T.row_for(table, roll + mod).outcome] < 0


class RandomPolicy:
    """Uniformly random legal choices (the sampler's ``rng``)."""

    name = "random"

    def action(self, w, case: Case, legal: list[str]) -> str:
        return legal[w.rng.randrange(len(legal))]

    def reroll(self, w, case: Case, tag, roll, mod, table, k_row) -> bool:
        return False

    def choose(self, w, case: Case, kind: str, options, k):
        return options[w.rng.randrange(len(options))]

    def combat_plan(self, w, case: Case, setup: C.Setup, k):
        keys = [f.key for f in setup.fighters]
        return lambda x: (keys[w.rng.randrange(len(keys))], False)


def make_policy(name: str):
    from deduce.core.names import resolve

    name = resolve(name, POLICIES, "policy", where="--policy")
    return {"optimal": OptimalPolicy, "greedy": GreedyPolicy, "random": RandomPolicy}[name]()


# ----------------------------------------------------------------------------- self-play
class CaseSpec(NamedTuple):
    """One self-play case: a start record (None: a fresh first case), where the data is,
    the policy, the case's seed and (fresh cases) the Adventure (None: A000's 1d6)."""

    record: dict | None
    data_dir: str | None
    policy: str
    seed: int
    adventure: str | None = None


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
    """Play one case (pure: the result depends only on ``spec``)."""
    rng = random.Random(spec.seed)
    cf = _start(spec, rng)
    policy = _POLICY_CACHE.get(spec.policy)
    if policy is None:
        policy = _POLICY_CACHE[spec.policy] = make_policy(spec.policy)
    if cf.case.over:
        raise InputError(f"the case is already over ({outcome_text(cf.case.outcome)})",
                         field="outcome")
    played = play_case(cf.ctx, cf.case, policy, rng, cf.phase, cf.waited)
    c = played.case
    return CaseResult(c.outcome, c.won, played.turns, played.luck_spent,
                      c.outcome == "holmes_killed", len(c.dead - cf.case.dead))
