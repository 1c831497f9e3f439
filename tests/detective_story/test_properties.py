"""Property tests: random legal play never raises and keeps the case state sane."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.bots import make_policy
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.state import parse_record
from deduce.models.detective_story.worlds import Sampler

DATA = load_campaign()


def check(ctx, case):
    assert case.sm >= 0 and case.luck >= 0 and 1 <= case.turn <= T.TURNS
    assert len({c for c, _ in case.allies}) == len(case.allies)
    assert not {c for c, _ in case.allies} & case.gone
    if case.motive >= 0:
        assert case.villain is not None
    assert all(a in E.ALL_ACTIONS for a in E.legal_actions(ctx, case))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), adventure=st.sampled_from(["a001", "a002"]),
       traits=st.lists(st.sampled_from(T.STARTING_TRAITS), min_size=3, max_size=3, unique=True),
       policy=st.sampled_from(["random", "greedy"]))
def test_random_legal_play_never_raises(seed, adventure, traits, policy):
    rec = new_record(DATA, adventure, seed=seed, traits=traits)
    cf = parse_record(rec, "prop", DATA)
    ctx, case = cf.ctx, cf.case
    rng = random.Random(seed)
    w = Sampler(rng, make_policy(policy), ctx)
    while not case.over:
        check(ctx, case)
        legal = E.legal_actions(ctx, case)
        assert legal, "Wait is always possible"
        action = rng.choice(legal)
        E.check_action(ctx, case, action)
        case = E.take_action(w, ctx, case, action, E.AFTER_ACTION[action == T.WAIT])
        case = E.encounter(w, ctx, case, action == T.WAIT, E.AFTER_TURN)
        case = E.end_turn(case)
    assert case.outcome in ("arrested", "villain_killed", "time_up", "holmes_wounded",
                            "holmes_killed", "lost")
