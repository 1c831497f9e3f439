"""The exact DP: against Monte Carlo self-play of the same policy (99% interval), its
re-roll advice, and the symbolic (every SM and Luck at once) against a concrete walk."""

from __future__ import annotations

import random

import pytest

from deduce.core.selfplay import wilson_ci
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.advice import Solver, advise, reroll_advice, solver_for
from deduce.models.detective_story.bots import make_policy
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.naive import Naive
from deduce.models.detective_story.rules import play_case

from .conftest import fresh

Z99 = 2.5758293035489004


@pytest.fixture(scope="module")
def tiny(tiny_session_dir):
    return load_campaign(tiny_session_dir)


def mid_case(tiny):
    return fresh(tiny, turn=9, villain="c201", sm=1, luck=2, clue_found=True)


def test_dp_agrees_with_monte_carlo(tiny):
    cf = mid_case(tiny)
    solver = solver_for(cf.ctx)
    p = advise(cf.ctx, cf.case, solver=solver).p_win
    assert 0.05 < p < 0.95
    policy = make_policy("optimal")
    n = 1500
    wins = sum(play_case(cf.ctx, cf.case, policy, random.Random(1000 + i)).won for i in range(n))
    lo, hi = wilson_ci(wins, n, Z99)
    assert lo <= p <= hi, (p, wins / n, lo, hi)


def test_optimal_beats_random_and_greedy_in_expectation(tiny):
    cf = mid_case(tiny)
    p = advise(cf.ctx, cf.case, solver=solver_for(cf.ctx)).p_win
    for name in ("random", "greedy"):
        n = 600
        wins = sum(play_case(cf.ctx, cf.case, make_policy(name), random.Random(i)).won
                   for i in range(n))
        assert wins / n <= p + Z99 * (p * (1 - p) / n) ** 0.5


def test_every_action_value_and_the_best(tiny):
    cf = mid_case(tiny)
    adv = advise(cf.ctx, cf.case, solver=solver_for(cf.ctx))
    assert adv.best == adv.actions[0][0]
    assert [a for a, _ in adv.actions] and set(a for a, _ in adv.actions) == set(
        E.legal_actions(cf.ctx, cf.case))
    assert adv.p_win == pytest.approx(max(p for _, p in adv.actions))
    assert all(0.0 <= p <= 1.0 for _, p in adv.actions)
    doc = adv.to_json()
    assert set(doc) == {"best", "actions"} and set(doc["actions"][0]) == {"action", "p_arrest"}


def test_reroll_advice_decomposes_the_action_value(tiny):
    cf = mid_case(tiny)
    solver = solver_for(cf.ctx)
    q = solver.q_values(cf.case)
    for action in (T.INVESTIGATE, T.SEEK):
        total = 0.0
        for s, p in E.TWO_D6:
            rr = reroll_advice(cf.ctx, cf.case, action, s, solver=solver)
            total += p * max(rr.p_keep, rr.p_reroll)
            assert rr.spend == (rr.p_reroll > rr.p_keep + 1e-12)
        assert total == pytest.approx(q[action], abs=1e-12)
    broke = fresh(tiny, turn=9, villain="c201", sm=1, luck=0, clue_found=True)
    rr = reroll_advice(broke.ctx, broke.case, T.INVESTIGATE, 2, solver=solver_for(broke.ctx))
    assert rr.p_reroll is None and not rr.spend


def test_symbolic_values_equal_a_concrete_walk(tiny):
    """Every Action's value from the SM/Luck arrays equals the engine walked on the
    concrete case (the world's chance/decision nodes with plain numbers)."""
    for sm, luck in ((0, 0), (1, 2), (3, 1)):
        cf = fresh(tiny, turn=10, villain="c201", motive=1, sm=sm, luck=luck)
        solver = Solver(cf.ctx)
        q = solver.q_values(cf.case)
        for action in E.legal_actions(cf.ctx, cf.case):
            walked = E.take_action(solver.world, cf.ctx, cf.case, action,
                                   E.AFTER_ACTION[action == T.WAIT])
            assert float(walked) == pytest.approx(q[action], abs=1e-12), (action, sm, luck)


def test_value_grows_with_luck_and_sm(tiny):
    solver = None
    values = {}
    for sm in (0, 2):
        for luck in (0, 1, 3):
            cf = fresh(tiny, turn=10, villain="c201", motive=1, sm=sm, luck=luck)
            solver = solver or Solver(cf.ctx)
            values[sm, luck] = solver.value(cf.case)
    assert values[0, 0] <= values[0, 1] <= values[0, 3]
    assert values[0, 0] <= values[2, 0]


def test_terminal_and_encounter_phase(tiny):
    won = fresh(tiny, turn=5, villain="c201", motive=1, outcome="arrested")
    assert advise(won.ctx, won.case).p_win == 1.0
    cf = fresh(tiny, turn=11, villain="c201", motive=1, sm=3, phase="encounter", waited=True)
    adv = advise(cf.ctx, cf.case, cf.phase, cf.waited)
    assert adv.best is None and adv.actions == [] and 0 < adv.p_win < 1


@pytest.mark.parametrize("turn, extra", [
    (11, {}),
    (11, {"bonus": {"action": "Investigate", "value": 2}}),
    (11, {"trapped": True}),
    (11, {"motive": 2, "sm": 3, "luck": 1, "bonus": {"action": "Attempt Arrest", "value": 2}}),
    (12, {"villain": None, "investigate_next": True}),
    (12, {"villain": None, "clue_found": True, "bonus": {"action": "Seek Information", "value": 1}}),
    (12, {"motive": 1, "sm": 1, "bonus": {"action": "Research", "value": 1}}),
])
def test_dp_equals_plain_recursion(tiny, turn, extra):
    """The compiled DP (every SM, Luck and flag at once) gives every Action the value the
    engine gets by plain recursion without any memo (``naive``)."""
    cf = fresh(tiny, turn=turn, **{"villain": "c201", "sm": 1, "luck": 2, "clue_found": True,
                                   **extra})
    q = Solver(cf.ctx).q_values(cf.case)
    naive = Naive(cf.ctx)
    assert set(q) == set(E.legal_actions(cf.ctx, cf.case))
    for action, p in q.items():
        assert p == pytest.approx(naive.q(cf.case, action), abs=1e-12), action


def test_optimal_selfplay_on_workers_uses_one_presolved_dp(tiny, tiny_session_dir):
    """With --workers the parent solves the DP before the pool starts (forked workers
    inherit it); the results are those of one process."""
    from deduce.core.selfplay import Match, run
    from deduce.models.detective_story import advice as A
    from deduce.models.detective_story.selfplay import GAME, story_setup

    cf = mid_case(tiny)
    setup = story_setup(dict(cf.record), str(tiny_session_dir))
    A.SOLVERS.clear()
    one = run(GAME, Match(40, 5, ("optimal",), 1, setup=setup))
    A.SOLVERS.clear()
    two = run(GAME, Match(40, 5, ("optimal",), 1, workers=2, setup=setup))
    assert one.summary == two.summary
    (solver,) = A.SOLVERS.values()  # solved here, before the workers started
    assert solver.states > 0
