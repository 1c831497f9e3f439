"""Policies that play a case through the engine (self-play of many cases: ``selfplay.py``).

- ``optimal``: the advisor's DP (``advice.Solver``): the Action with the highest P(win),
  a Luck re-roll when re-rolling is worth more, option 3's best start, the optimal fight
  plan (``combat.solve``). Its self-play arrest rate estimates the DP's value.
- ``greedy``: one step ahead: the Action whose table promises the most this turn
  (``ROW_SCORE`` weighted by the exact row probabilities), a re-roll when the row rolled
  scores below zero, Deduction first, the strongest fighter, never flees.
- ``random``: a uniformly random legal Action (and random option 3 start and champion),
  never re-rolls, never flees.
"""

from __future__ import annotations


from deduce.models.detective_story import advice as A
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.state import Case, Context
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
