"""Rules engine behaviour: legality (with the rule cited), rows, the Villain, wounds,
Rest, combat, the end of a case, and the campaign between cases (R007, R010)."""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.advice import Tracer
from deduce.models.detective_story.bots import make_policy
from deduce.models.detective_story.campaign import (
    end_case,
    new_record,
    next_record,
    spend_equipment,
    spend_friend,
    spend_quality,
    spend_trait,
)
from deduce.models.detective_story.state import case_to_record
from deduce.models.detective_story.rules import play_case
from deduce.models.detective_story.worlds import Sampler

from .conftest import fresh, load_case


def outcomes(f, case) -> dict:
    """Exact distribution of the cases ``f(w, case, k)`` ends in (no decisions inside)."""
    dist: dict = defaultdict(float)
    for w, end in Tracer().run(f, case):
        dist[end] += w
    return dict(dist)


def FIN(w, c):
    return w.finish(None, c)


def one(f, case):
    """The single case ``f(w, case, k)`` surely ends in."""
    (end, p), = outcomes(f, case).items()
    assert p == pytest.approx(1.0)
    return end


def legal(cf):
    return E.legal_actions(cf.ctx, cf.case)


def test_fresh_case_legality_cites_rules(shipped):
    cf = fresh(shipped)
    assert legal(cf) == [T.EXPLORE, T.REST, T.WAIT]
    why = {a: w for a, ok, w in E.action_status(cf.ctx, cf.case)}
    assert why[T.ATTEMPT_ARREST].startswith("R007a")
    assert why[T.SEEK].startswith("R007d") and why[T.RESEARCH].startswith("R007e")
    assert why[T.INVESTIGATE].startswith("R007c")
    with pytest.raises(InputError) as exc:
        E.check_action(cf.ctx, cf.case, T.RESEARCH)
    assert exc.value.field == "action"


def test_legality_by_stage(shipped):
    cf = fresh(shipped, villain="c201", clue_found=False)
    assert set(legal(cf)) == {T.SEEK, T.REST, T.WAIT, T.INVESTIGATE}
    cf = fresh(shipped, villain="c201", motive=1)
    assert set(legal(cf)) == {T.ATTEMPT_ARREST, T.RESEARCH, T.REST, T.WAIT}
    cf = fresh(shipped, clue_found=True, investigate_next=True)
    assert set(legal(cf)) == {T.EXPLORE, T.SEEK, T.REST, T.WAIT, T.INVESTIGATE}
    cf = fresh(shipped, trapped=True)
    assert legal(cf) == [T.ESCAPE_TRAP]
    cf = fresh(shipped, watson=None, watson_here=False)
    assert T.REST not in legal(cf)


def test_bonus_is_cumulative_for_the_same_action_only(shipped):
    cf = fresh(shipped, villain="c201", bonus={"action": "Investigate", "value": 1})
    mod, parts = E.action_modifier(cf.ctx, cf.case, T.INVESTIGATE)
    assert ("bonus from last turn", 1) in parts
    start, _, _, _, k_row = E.action_roll(cf.ctx, cf.case, T.INVESTIGATE, FIN)
    (end, p), = outcomes(lambda w, c, k: k_row(w, c, "bonus"), start).items()
    assert (end.bonus_action, end.bonus, p) == (T.INVESTIGATE, 2, 1.0)
    assert E.action_modifier(cf.ctx, cf.case, T.SEEK)[1] == [("Charisma (channel)", 1)]


def test_trap_costs_the_next_turn(shipped):
    cf = fresh(shipped, villain="c201")
    start, _, _, _, k_row = E.action_roll(cf.ctx, cf.case, T.INVESTIGATE, FIN)
    (end, _), = outcomes(lambda w, c, k: k_row(w, c, "trap"), start).items()
    assert end.trapped and E.legal_actions(cf.ctx, end) == [T.ESCAPE_TRAP]
    after = one(lambda w, c, k: E.take_action(w, cf.ctx, c, T.ESCAPE_TRAP, k), end)
    assert not after.trapped and T.INVESTIGATE in E.legal_actions(cf.ctx, after)


def test_seek_closes_the_channel_used(shipped):
    cf = fresh(shipped, villain="c201")
    assert E.seek_channel(cf.ctx, cf.case) == "Charisma"
    start, _, _, _, k_row = E.action_roll(cf.ctx, cf.case, T.SEEK, FIN)
    (end, _), = outcomes(lambda w, c, k: k_row(w, c, "channel_blocked"), start).items()
    assert end.blocked == {"Charisma"}
    assert E.seek_channel(cf.ctx, end) is None
    assert E.action_modifier(cf.ctx, end, T.SEEK)[0] == 0
    assert T.SEEK in E.legal_actions(cf.ctx, end)  # still possible, without the +1


def test_reveal_follows_the_villain_line_and_first_case_rule(shipped):
    cf = fresh(shipped)  # a001, first case: +1 SM on the reveal (special rule)
    dist = outcomes(lambda w, c, k: E.villain_event(w, cf.ctx, c, k), cf.case)
    by_villain = defaultdict(float)
    for end, p in dist.items():
        by_villain[end.villain] += p
        sm_mod = shipped.villains[end.villain].sm_modifier
        assert end.sm == max(0, 0 + sm_mod) + 1 and end.meetings == 0 and end.motive == -1
    assert by_villain == pytest.approx({"c201": 2 / 6, "c202": 1 / 6, "c204": 1 / 6, "c205": 2 / 6})
    ruled = fresh(shipped, ruled_out=["c201"])
    assert dict((v, p) for p, v in ruled.ctx.villain_dist) == pytest.approx(
        {"c202": 0.25, "c204": 0.25, "c205": 0.5})


def test_second_meeting_reveals_the_motive(shipped):
    cf = fresh(shipped, villain="c204", villain_meetings=1, sm=3)
    dist = outcomes(lambda w, c, k: E.villain_event(w, cf.ctx, c, k), cf.case)
    by_motive = defaultdict(float)
    for end, p in dist.items():
        by_motive[end.motive] += p
    assert by_motive == pytest.approx({0: 3 / 6, 1: 2 / 6, 2: 1 / 6})  # faces 1-3, 4-5, 6
    first = fresh(shipped, villain="c204", villain_meetings=0, sm=3)
    ends = outcomes(lambda w, c, k: E.villain_event(w, first.ctx, c, k), first.case)
    assert all(e.motive == -1 and e.meetings == 1 for e in ends)  # option 2


def test_option3_deduction_probability(shipped):
    cf = fresh(shipped, villain="c201", motive=1, sm=4)  # Brains 9 + 4 > 2d6 + 9
    assert E.deduction_probability(cf.ctx, cf.case) == pytest.approx(3 / 36)
    cf = fresh(shipped, villain="c202", motive=1, sm=5)  # 9 + 5 > 2d6 + 10: 2d6 <= 3
    assert E.deduction_probability(cf.ctx, cf.case) == pytest.approx(3 / 36)


def test_wounds_serious_and_death(shipped):
    cf = fresh(shipped, luck=5)
    c = one(lambda w, c, k: E.hurt(w, cf.ctx, c, "holmes", "wounded", k), cf.case)
    assert c.holmes[0] == 1 and c.outcome is None
    c = one(lambda w, c, k: E.hurt(w, cf.ctx, c, "holmes", "wounded", k), c)
    assert c.outcome == "holmes_wounded"  # a second Wound is Serious: the case is lost
    c = one(lambda w, c, k: E.hurt(w, cf.ctx, c, "watson", "serious", k), cf.case)
    assert c.watson is None and c.luck == 3 and "watson" not in c.dead
    cf = fresh(shipped, luck=5, allies=[{"id": "m404"}])
    dist = outcomes(lambda w, c, k: E.hurt(w, cf.ctx, c, "m404", "killed", k), cf.case)
    assert {e.luck: p for e, p in dist.items()} == pytest.approx({4: 1 / 3, 3: 1 / 3, 2: 1 / 3})
    assert all(e.allies == () and "m404" in e.gone and "m404" in e.dead for e in dist)


def test_rest_heals_with_watson_medicine(shipped):
    cf = fresh(shipped, holmes={"brains": 9, "brawn": 5, "bravery": 7,
                                "traits": {"Aware": 1, "Charisma": 1, "Tracking": 1},
                                "wounded": True})
    dist = outcomes(lambda w, c, k: E.rest(w, cf.ctx, c, k), cf.case)
    healed = sum(p for e, p in dist.items() if e.holmes[0] == 0)
    assert healed == pytest.approx(26 / 36)  # 2d6 + Medicine 2 >= 8


def test_encounter_vertical_die_and_time_limit(shipped):
    cf = fresh(shipped, villain="c201", motive=1, sm=4, turn=9)  # can arrest: -2
    cols = dict((c, p) for p, c in E.encounter_columns(cf.ctx, cf.case))
    assert cols == pytest.approx({"villain": 5 / 6, "holmes": 1 / 6})
    last = fresh(shipped, turn=12)
    assert E.end_turn(last.case).outcome == "time_up"
    assert E.end_turn(fresh(shipped, turn=3).case).turn == 4


def test_combat_solution_matches_simulation():
    setup = C.Setup((C.Fighter("holmes", 6, True), C.Fighter("watson", 8, True)), 9, 7)
    for (s, r, p) in C.round_distribution(6, 9, True, False, False):
        assert 0 < p <= 1
    assert sum(p for _, _, p in C.round_distribution(6, 9, True, False, False)) == pytest.approx(1)
    values = {t: (1.0 if t[0] == C.WON else 0.3 if t[0] == C.ESCAPED else 0.0)
              for t in C.terminals(setup)}
    v, plan = C.solve(setup, values)
    rng = random.Random(5)
    n = 20000
    got = sum(values[C.simulate(setup, plan.__getitem__, rng)] for _ in range(n)) / n
    assert abs(got - v) < 4 * (0.25 / n) ** 0.5
    assert plan[C.START][0] == "watson"  # the stronger striker


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 11), st.integers(3, 11), st.booleans(), st.integers(2, 13),
       st.integers(3, 13), st.randoms(use_true_random=False))
def test_combat_on_arrays_equals_combat_on_each_number(h, w, two, opp, escape_at, rnd):
    """Solving a fight for many situations at once (arrays, as the advisor does) gives each
    situation the value of solving it alone, ties included (certain escape: every plan
    is worth the same after a round, the value on entry decides)."""
    fighters = (C.Fighter("holmes", h, True),) + ((C.Fighter("watson", w, True),) if two else ())
    setup = C.Setup(fighters, opp, escape_at)
    values = {t: np.array([rnd.random() for _ in range(5)] + [0.5]) for t in C.terminals(setup)}
    values[C.terminals(setup)[0]] = 1.0
    together = C.solve(setup, values)[0]
    for j in range(6):
        alone = C.solve(setup, {t: v if isinstance(v, float) else float(v[j])
                                for t, v in values.items()})[0]
        assert together[j] == pytest.approx(alone, abs=1e-12)


def test_random_play_whole_cases(shipped):
    for seed in range(30):
        cf = fresh(shipped, adventure="a001" if seed % 2 else "a002", seed=seed)
        played = play_case(cf.ctx, cf.case, make_policy("random"), random.Random(seed), log=True)
        assert played.case.over and played.log[-1].startswith("the case ends")
        assert played.turns <= 12


# ----------------------------------------------------------------------------- campaign
def test_campaign_between_cases(shipped):
    rec = new_record(shipped, "a001", seed=3)
    cf = load_case(shipped, rec)
    won = cf.case._replace(sm=8, luck=2, villain="c205", outcome="arrested")
    after = end_case(cf, won, random.Random(1))
    assert after["luck"] == 10 and after["sm"] == 8 and after["ruled_out"] == ["c205"]
    after = spend_trait(after, "holmes", "Science")  # a new Trait: 3 SM
    after = spend_quality(after, "holmes", "Brains")  # 9 -> 10: ceil(9 / 2) = 5 SM
    assert after["sm"] == 0
    with pytest.raises(InputError):
        spend_trait(after, "holmes", "Medicine")
    with pytest.raises(InputError):
        spend_equipment(after, shipped, random.Random(1))  # costs 5
    nxt = next_record(dict(after, sm=3), shipped, "a002", seed=4)
    assert nxt["turn"] == 1 and nxt["sm"] == 1 and nxt["first_case"] is False  # R001
    assert nxt["holmes"]["brains"] == 10 and nxt["holmes"]["traits"]["Science"] == 1
    load_case(shipped, nxt)


def test_losing_a_case(shipped):
    cf = load_case(shipped, new_record(shipped, "a001", seed=3))
    lost = cf.case._replace(sm=3, luck=5, outcome="time_up")
    after = end_case(cf, lost, random.Random(1))
    assert after["sm"] == 0 and after["luck"] == 2  # half of 5, rounded up, is lost
    broke = cf.case._replace(sm=0, luck=0, outcome="time_up")
    results = set()
    for seed in range(40):
        r = end_case(cf, broke, random.Random(seed))
        results.add((r["outcome"], r["watson"] is None, r["inspector"]["status"]))
    assert ("holmes_killed", False, "lestrade") in results
    assert ("time_up", True, "lestrade") in results
    assert ("time_up", False, "replacement") in results


def test_friends_and_record_round_trip(shipped):
    cf = load_case(shipped, new_record(shipped, "a001", seed=3))
    won = cf.case._replace(sm=9, allies=(("m404", (0, 0, 0)),), villain="c201", outcome="arrested")
    rec = end_case(cf, won, random.Random(1))
    rec = spend_friend(rec, shipped, "m404", (1, 2, 1))
    assert rec["sm"] == 3 and rec["friends"][0]["brawn"] == 8
    assert rec["friends"][0]["traits"]["Aware"] == 1
    nxt = next_record(rec, shipped, "a001", seed=2)
    cf2 = load_case(shipped, nxt)
    assert cf2.case.allies == (("m404", (0, 0, 0)),) and cf2.ctx.sheets["m404"].brawn == 8
    again = load_case(shipped, case_to_record(cf2, cf2.case))
    assert again.case == cf2.case


def test_a_friend_who_is_the_new_inspector_keeps_the_friends_sheet(shipped):
    """The new Inspector (after Lestrade's death) made a Friend: the Friend's raised
    Qualities count, under the new Inspector's name."""
    rec = new_record(shipped, "a001", seed=3)
    inspector = shipped.campaign.inspector
    rec["inspector"] = {"status": "replacement", "barred_cases": 0}
    rec["friends"] = [{"id": inspector, "brains": 5, "brawn": 9, "bravery": 5,
                       "traits": {"Aware": 1, "British Law": 1, "Running": 1}}]
    sheet = load_case(shipped, rec).ctx.sheets[inspector]
    assert (sheet.brains, sheet.brawn, sheet.name) == (5, 9, "the new Inspector")
    rec["friends"] = []
    assert load_case(shipped, rec).ctx.sheets[inspector].brawn == T.NEW_INSPECTOR["Brawn"]


def test_generic_combat_effect(tmp_path):
    """A ``combat`` effect: won -> its win effects (+1 SM); lost -> our fighter is Wounded
    and the lose effects apply (-1 Luck); played with seeded dice and the greedy fighter."""
    from deduce.models.detective_story.data import load_campaign

    from .conftest import TINY, write_campaign

    files = dict(TINY)
    files["memoirs.toml"] = files["memoirs.toml"].replace(
        'title = "Notes"\neffects = [{ sm = 1 }]',
        'title = "Notes"\neffects = [{ combat = { name = "Knuckle-man", brawn = 7 }, '
        'win = [{ sm = 1 }], lose = [{ luck = -1 }] }]')
    data = load_campaign(write_campaign(tmp_path / "fight", files))
    cf = fresh(data, sm=0, luck=3)
    seen = defaultdict(int)
    for seed in range(300):
        w = Sampler(random.Random(seed), make_policy("greedy"), cf.ctx, log=True)
        end = E.read(w, cf.ctx, cf.case, "m450", lambda w, c: c)
        assert any(line == "combat with Knuckle-man" for line in w.log)
        if end.sm == 1:
            seen["won"] += 1
            assert end.luck == 3
        else:
            seen["lost"] += 1
            assert end.luck == 2 and (end.watson[0] or end.holmes[0])
    assert seen["won"] > 100 and seen["lost"] > 20
