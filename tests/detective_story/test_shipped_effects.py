"""The shipped campaign plays the format's whole paragraph vocabulary: each Adventure's lines
lead to a fight, a wound and a paragraph's own d6 (issue 14); seeded self-play reaches each
of them, and the DP equals the plain recursion on late states where they can be read."""

from __future__ import annotations

import random

import pytest

from deduce.models.detective_story import effects as fx
from deduce.models.detective_story.advice import Solver
from deduce.models.detective_story.bots import make_policy
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.naive import Naive
from deduce.models.detective_story.rules import play_case
from deduce.models.detective_story.selfplay import CaseSpec, case_seed, play_one

from .conftest import load_case


def kinds_in(data, effects: fx.Effects, seen: set[str]) -> set[type]:
    """The effect types ``effects`` can apply, through every branch and ``goto``."""
    out: set[type] = set()
    for e in effects:
        out.add(type(e))
        if isinstance(e, (fx.Test, fx.Require)):
            out |= kinds_in(data, e.passed, seen) | kinds_in(data, e.failed, seen)
        elif isinstance(e, fx.D6):
            for face in e.faces:
                out |= kinds_in(data, face, seen)
        elif isinstance(e, fx.Combat):
            out |= kinds_in(data, e.won, seen) | kinds_in(data, e.lost, seen)
        elif isinstance(e, fx.Goto) and e.target not in seen:
            seen.add(e.target)
            out |= kinds_in(data, data.paragraphs[e.target].effects, seen)
    return out


@pytest.mark.parametrize("adventure, combat, wound, d6", [
    ("a001", {"m435"}, {"m444"}, {"m430", "m435"}),
    ("a002", {"m436"}, {"m454"}, {"m454"}),
])
def test_each_adventure_reads_a_fight_a_wound_and_a_d6(shipped, adventure, combat, wound, d6):
    """Exactly these line paragraphs of the Adventure hold each effect (directly or through
    a ``goto``); the campaign loads with no warning."""
    assert shipped.warnings == []
    lines = {pid for line, ids in shipped.adventures[adventure].lines if line != "villain"
             for pid in ids}
    holding = {kind: set() for kind in (fx.Combat, fx.Wound, fx.D6)}
    for pid in lines:
        found = kinds_in(shipped, shipped.paragraphs[pid].effects, {pid})
        for kind in holding:
            if kind in found:
                holding[kind].add(pid)
    assert holding == {fx.Combat: combat, fx.Wound: wound, fx.D6: d6}


def selfplay_log(adventure: str, index: int) -> list[str]:
    """The log of case ``index`` of ``story selfplay --policy greedy --seed 1 --adventure
    ADVENTURE`` (``selfplay.play_one``'s dice, the case played again with a log), checked
    to end as ``play_one`` ends it."""
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.state import parse_record

    seed = case_seed(1, index)
    data = load_campaign()
    rng = random.Random(seed)
    cf = parse_record(new_record(data, adventure, seed=rng.getrandbits(32)), "test", data)
    played = play_case(cf.ctx, cf.case, make_policy("greedy"), rng, log=True)
    result = play_one(CaseSpec(None, None, "greedy", seed, adventure))
    assert (result.outcome, result.turns) == (played.case.outcome, played.turns)
    return played.log


def after_reading(log: list[str], pid: str) -> list[str]:
    """The log line right after each reading of ``pid``."""
    return [log[i + 1] for i, line in enumerate(log[:-1]) if line.startswith(f"read {pid} ")]


@pytest.mark.parametrize("adventure, index, pid, then", [
    ("a001", 1, "m435", ["combat with The new lamp-man"]),  # d6 1-3: the fight
    ("a001", 3, "m435", ["encounter: 2d6 11+0 = 11"]),  # d6 4-6: +1 SM, no fight
    ("a001", 1, "m444", ["Holmes is Wounded"]),  # Science 8 failed
    ("a002", 3, "m436", ["combat with The boathouse marshman"]),
    ("a002", 2, "m454", ["Watson is Wounded", "turn 8: Attempt Arrest"]),  # d6 1-2, then 3-6
])
def test_seeded_selfplay_reaches_each_new_effect(adventure, index, pid, then):
    assert after_reading(selfplay_log(adventure, index), pid) == then


def late(data, adventure: str, turn: int, holmes_wounded: bool = False,
         watson_wounded: bool = False, **changes):
    """A parsed record of ``adventure`` at ``turn`` (the Villain known, SM 1, a Clue found;
    ``changes`` to the record's fields on top)."""
    rec = new_record(data, adventure, seed=5)
    rec.update({"turn": turn, "villain": "c201" if adventure == "a001" else "c203", "sm": 1,
                "clue_found": True, **changes})
    rec["holmes"]["wounded"] = holmes_wounded
    rec["watson"]["wounded"] = watson_wounded
    return load_case(data, rec)


#: late states (turns 10-12) and a seed of greedy play from each that reads the new
#: paragraph named: the DP's values there include those paragraphs
LATE = [
    ("a001", 11, {"motive": 1, "sm": 1, "phase": "encounter", "waited": True}, 103, "m435"),
    ("a001", 11, {"holmes_wounded": True}, 5, "m444"),
    ("a001", 10, {"watson_wounded": True, "luck": 2}, 37, "m435"),
    ("a002", 11, {"motive": 1, "sm": 2, "phase": "encounter", "waited": True}, 36, "m454"),
    ("a002", 11, {"watson_wounded": True}, 42, "m436"),
    ("a002", 10, {"motive": 1, "sm": 3}, 34, "m454"),
]


@pytest.mark.parametrize("adventure, turn, extra, seed, pid", LATE)
def test_dp_equals_plain_recursion_where_new_paragraphs_are_read(shipped, adventure, turn,
                                                                 extra, seed, pid):
    """The DP a turn at a time (``Solver``) gives every Action, and the state, the value of
    the recursion one (turn, mode) at a time (``Solver(batched=False)``), on states from
    which greedy play with ``seed`` reads the new paragraph ``pid``."""
    cf = late(shipped, adventure, turn, **extra)
    played = play_case(cf.ctx, cf.case, make_policy("greedy"), random.Random(seed), cf.phase,
                       cf.waited, log=True)
    assert any(line.startswith(f"read {pid} ") for line in played.log)
    dp, rec = Solver(cf.ctx), Solver(cf.ctx, batched=False)
    if cf.phase == "encounter":
        value = dp.after_action(cf.case, cf.waited)
        assert value == pytest.approx(rec.after_action(cf.case, cf.waited), abs=1e-12)
        assert 0 < value < 1
        return
    q, q_rec = dp.q_values(cf.case), rec.q_values(cf.case)
    assert set(q) == set(q_rec)
    for action, p in q.items():
        assert p == pytest.approx(q_rec[action], abs=1e-12), action
    assert dp.value(cf.case) == pytest.approx(rec.value(cf.case), abs=1e-12)
    assert 0 < dp.value(cf.case) < 1


@pytest.mark.parametrize("adventure, extra", [
    ("a001", {"holmes_wounded": True, "motive": 1, "sm": 3}),
    ("a002", {"watson_wounded": True, "motive": 1, "sm": 2, "luck": 1}),
])
def test_dp_at_turn_12_equals_the_engine_without_memo(shipped, adventure, extra):
    """At turn 12 the engine's plain recursion with no memo (``naive``) is cheap: it gives
    every Action the DP's value, with a wound carried and the new paragraphs in the lines."""
    cf = late(shipped, adventure, 12, **extra)
    q = Solver(cf.ctx).q_values(cf.case)
    naive = Naive(cf.ctx)
    for action, p in q.items():
        assert p == pytest.approx(naive.q(cf.case, action), abs=1e-12), action
    assert 0 < max(q.values()) < 1  # a case still open either way
