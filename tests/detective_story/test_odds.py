"""Exact odds of each Action's rows against 2d6 sums counted by hand (ways out of 36)."""

from __future__ import annotations

import pytest

from deduce.models.detective_story import tables as T
from deduce.models.detective_story.knowledge import villain_candidates
from deduce.models.detective_story.odds import action_odds, encounter_odds, row_odds, state_report

from .conftest import fresh

# ways to roll each natural sum with 2d6: 2:1 3:2 4:3 5:4 6:5 7:6 8:5 9:4 10:3 11:2 12:1


def rows(cf, action) -> dict[str, float]:
    return {r["rows"]: r["p"] for r in action_odds(cf.ctx, cf.case, action)["rows"]}


def test_explore_with_tracking_1(shipped):
    cf = fresh(shipped)  # default Traits: Aware, Charisma, Tracking -> +1
    odds = rows(cf, T.EXPLORE)
    expected = {"2": 0, "3-4": 1 + 2, "5": 3, "6-7": 4 + 5, "8": 6, "9-10": 5 + 4, "11": 3,
                "12+": 2 + 1}
    assert odds == pytest.approx({k: v / 36 for k, v in expected.items()})


def test_investigate_outside_london_adds_history(shipped):
    holmes = {"brains": 9, "brawn": 5, "bravery": 7,
              "traits": {"Aware": 1, "History": 1, "Charisma": 1}, "wounded": False}
    cf = fresh(shipped, adventure="a002", villain="c203", holmes=holmes, equipment=["m415"])
    # Aware 1 + lens (Aware +1) = 2, History 1 outside London: +3
    assert action_odds(cf.ctx, cf.case, T.INVESTIGATE)["modifier"] == 3
    odds = rows(cf, T.INVESTIGATE)
    # natural 2 -> 5, 3 -> 6, 4 -> 7, 5 -> 8, 6-7 -> 9-10, 8 -> 11, 9-12 -> 12+
    expected = {"2-3": 0, "4-5": 1, "6": 2, "7": 3, "8": 4, "9-10": 5 + 6, "11": 5,
                "12+": 4 + 3 + 2 + 1}
    assert odds == pytest.approx({k: v / 36 for k, v in expected.items()})
    london = fresh(shipped, adventure="a001", villain="c201", holmes=holmes, equipment=["m415"])
    assert action_odds(london.ctx, london.case, T.INVESTIGATE)["modifier"] == 2


def test_seek_information_channel_and_bonus(shipped):
    cf = fresh(shipped, villain="c201", bonus={"action": "Seek Information", "value": 2})
    assert action_odds(cf.ctx, cf.case, T.SEEK)["modifier"] == 3  # Charisma +1, bonus +2
    odds = rows(cf, T.SEEK)
    # natural 2-3 -> 5-6, 4 -> 7, 5-7 -> 8-10, 8 -> 11, 9-12 -> 12+
    expected = {"2": 0, "3": 0, "4": 0, "5-6": 1 + 2, "7": 3, "8-10": 4 + 5 + 6, "11": 5,
                "12+": 4 + 3 + 2 + 1}
    assert odds == pytest.approx({k: v / 36 for k, v in expected.items()})


@pytest.mark.parametrize("turn,sm,mod", [(1, 2, 1), (6, 2, 2), (10, 2, 3)])
def test_research_sm_and_turn(shipped, turn, sm, mod):
    cf = fresh(shipped, villain="c201", motive=1, sm=sm, turn=turn)
    assert action_odds(cf.ctx, cf.case, T.RESEARCH)["modifier"] == mod
    odds = rows(cf, T.RESEARCH)
    ways = {s: 6 - abs(s - 7) for s in range(2, 13)}
    for label, p in odds.items():
        row = next(r for r in T.RESEARCH_TABLE if r.outcome == next(
            x["outcome"] for x in action_odds(cf.ctx, cf.case, T.RESEARCH)["rows"] if x["rows"] == label))
        hits = sum(w for s, w in ways.items()
                   if T.row_for(T.RESEARCH_TABLE, s + mod) == row)
        assert p == pytest.approx(hits / 36)


def test_attempt_arrest_turn_9(shipped):
    cf = fresh(shipped, villain="c201", motive=1, sm=5, turn=9)  # 2d6 + 5 + 1
    odds = rows(cf, T.ATTEMPT_ARREST)
    assert odds["13+"] == pytest.approx(21 / 36)  # natural 7 or more
    assert odds["12"] == pytest.approx(5 / 36)  # natural 6
    assert odds["2-3"] == 0 and odds["4"] == 0 and odds["5"] == 0
    early = fresh(shipped, villain="c201", motive=1, sm=0, turn=1)  # 2d6 - 1
    odds = rows(early, T.ATTEMPT_ARREST)
    assert odds["2-3"] == pytest.approx((1 + 2 + 3) / 36)  # natural 2, 3, 4 (total 1-3)
    assert odds["13+"] == 0


def test_encounter_odds(shipped):
    cf = fresh(shipped, turn=5)
    e = encounter_odds(cf.ctx, cf.case)
    assert e["event_on"] == 6 and e["p_event"] == pytest.approx(26 / 36)
    assert encounter_odds(cf.ctx, cf.case, waited=True)["p_event"] == pytest.approx(30 / 36)
    assert encounter_odds(cf.ctx, fresh(shipped, turn=1).case)["p_event"] == pytest.approx(21 / 36)
    late = fresh(shipped, turn=10)
    assert {c["column"]: c["p"] for c in encounter_odds(late.ctx, late.case)["columns"]} == \
        pytest.approx({"villain": 0.5, "holmes": 1 / 6, "watson": 1 / 6, "none": 1 / 6})


def test_rest_odds(shipped):
    holmes = {"brains": 9, "brawn": 5, "bravery": 7,
              "traits": {"Aware": 1, "Charisma": 1, "Tracking": 1}, "wounded": True, "addiction": 1}
    cf = fresh(shipped, holmes=holmes)
    heals = action_odds(cf.ctx, cf.case, T.REST)["heals"]
    assert [(h["condition"], h["target"]) for h in heals] == [("Wounded", 8), ("Addiction 1", 9)]
    assert heals[0]["p"] == pytest.approx(26 / 36)  # 2d6 + 2 >= 8: natural 6+
    assert heals[1]["p"] == pytest.approx(21 / 36)  # natural 7+


def test_row_odds_sum_to_one():
    for table in T.ACTION_TABLES.values():
        for mod in range(-2, 15):
            assert sum(p for _, p in row_odds(table, mod)) == pytest.approx(1.0)


def test_villain_candidates_and_report(shipped):
    cf = fresh(shipped)
    cands = {c["id"]: c["p"] for c in villain_candidates(cf.ctx, cf.case)}
    assert cands == pytest.approx({"c201": 1 / 3, "c202": 1 / 6, "c204": 1 / 6, "c205": 1 / 3})
    known = fresh(shipped, villain="c204")
    (only,) = villain_candidates(known.ctx, known.case)
    assert [m["p"] for m in only["motives"]] == pytest.approx([3 / 6, 2 / 6, 1 / 6])
    report = state_report(cf.ctx, cf.case)
    assert {a["action"] for a in report["actions"] if a["legal"]} == {T.EXPLORE, T.REST, T.WAIT}
    assert [o["action"] for o in report["odds"]] == [T.EXPLORE, T.REST, T.WAIT]
