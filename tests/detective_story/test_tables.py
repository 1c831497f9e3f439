"""The rulebook's tables, row by row (R003, R007, R007a-f, R008, R009, R010, A000).

Each expected row is written out here from the rulebook, independently of ``tables``.
"""

from __future__ import annotations

import pytest

from deduce.models.detective_story import tables as T

# (table, lowest total, highest total (None: and above), outcome)
ROWS = [
    (T.ARREST, 2, 3, "holmes_killed"), (T.ARREST, 4, 4, "ally_killed"), (T.ARREST, 5, 5, "trap"),
    (T.ARREST, 6, 7, "lose_luck"), (T.ARREST, 8, 8, "outwitted"),
    (T.ARREST, 9, 11, "confrontation"), (T.ARREST, 12, 12, "bonus"),
    (T.ARREST, 13, None, "option3"),
    (T.EXPLORE_TABLE, 2, 2, "villain"), (T.EXPLORE_TABLE, 3, 4, "lost"),
    (T.EXPLORE_TABLE, 5, 5, "ally_leaves"), (T.EXPLORE_TABLE, 6, 7, "nothing"),
    (T.EXPLORE_TABLE, 8, 8, "character"), (T.EXPLORE_TABLE, 9, 10, "unlock_investigate"),
    (T.EXPLORE_TABLE, 11, 11, "clue"), (T.EXPLORE_TABLE, 12, None, "holmes_or_watson"),
    (T.INVESTIGATE_TABLE, 2, 3, "trap"), (T.INVESTIGATE_TABLE, 4, 5, "villain"),
    (T.INVESTIGATE_TABLE, 6, 6, "nothing"), (T.INVESTIGATE_TABLE, 7, 7, "bonus"),
    (T.INVESTIGATE_TABLE, 8, 8, "location"), (T.INVESTIGATE_TABLE, 9, 10, "clue"),
    (T.INVESTIGATE_TABLE, 11, 11, "sm"), (T.INVESTIGATE_TABLE, 12, None, "holmes_or_watson"),
    (T.SEEK_TABLE, 2, 2, "trap"), (T.SEEK_TABLE, 3, 3, "villain"),
    (T.SEEK_TABLE, 4, 4, "channel_blocked"), (T.SEEK_TABLE, 5, 6, "nothing"),
    (T.SEEK_TABLE, 7, 7, "bonus"), (T.SEEK_TABLE, 8, 10, "witness"),
    (T.SEEK_TABLE, 11, 11, "motive"), (T.SEEK_TABLE, 12, None, "holmes_or_watson"),
    (T.RESEARCH_TABLE, 2, 2, "breakthrough"), (T.RESEARCH_TABLE, 3, 3, "allies_may_leave"),
    (T.RESEARCH_TABLE, 4, 4, "lose_luck"), (T.RESEARCH_TABLE, 5, 7, "nothing"),
    (T.RESEARCH_TABLE, 8, 9, "bonus"), (T.RESEARCH_TABLE, 10, 11, "sm"),
    (T.RESEARCH_TABLE, 12, 12, "sm2"), (T.RESEARCH_TABLE, 13, None, "holmes_or_watson"),
]


@pytest.mark.parametrize("table,lo,hi,outcome", ROWS,
                         ids=[f"{o}@{lo}" for _, lo, _, o in ROWS])
def test_action_table_row(table, lo, hi, outcome):
    assert T.Row(lo, hi, outcome) in table
    for total in range(lo, (hi if hi is not None else lo + 5) + 1):
        assert T.row_for(table, total).outcome == outcome


@pytest.mark.parametrize("table", [T.ARREST, T.EXPLORE_TABLE, T.INVESTIGATE_TABLE,
                                   T.SEEK_TABLE, T.RESEARCH_TABLE])
def test_tables_are_contiguous_and_complete(table):
    assert table[0].lo == 2 and table[-1].hi is None
    for a, b in zip(table, table[1:]):
        assert b.lo == a.hi + 1
    assert len(table) == sum(1 for r in ROWS if r[0] is table)
    assert T.row_for(table, 1).outcome == table[0].outcome  # below the lowest row
    assert T.row_for(table, 30).outcome == table[-1].outcome


def test_every_outcome_has_a_text():
    for action, table in T.ACTION_TABLES.items():
        assert set(T.OUTCOME_TEXT[action]) == {r.outcome for r in table}


@pytest.mark.parametrize("turn,arrest,research", [
    (1, -1, -1), (2, -1, -1), (3, 0, -1), (4, 0, -1), (5, 0, 0), (8, 0, 0), (9, 1, 1), (12, 1, 1)])
def test_turn_modifiers(turn, arrest, research):
    assert T.arrest_turn_modifier(turn) == arrest  # R007a: -1 turns 1-2, +1 from 9
    assert T.research_turn_modifier(turn) == research  # R007e: -1 turns 1-4, +1 turns 9-12


def test_action_trait_caps_and_heal_targets():
    assert T.EXPLORE_TRAITS == (("Tracking", 3),)
    assert T.INVESTIGATE_TRAITS == (("Aware", 3),)
    assert T.INVESTIGATE_OUTSIDE_LONDON == (("History", 3),)
    assert T.SEEK_CHANNELS == ("Charisma", "Disguise", "Thief", "History")
    assert T.SEEK_CHANNEL_BONUS == 1
    assert (T.HEAL_WOUND, T.HEAL_ADDICTION, T.HEAL_MADNESS) == (8, 9, 11)


# ----------------------------------------------------------------------------- R008
MATRIX = [
    (1, 4, 7, ["villain", "holmes", "watson", "character", "character", "location"]),
    (5, 8, 6, ["villain", "villain", "holmes", "watson", "character", "character"]),
    (9, 12, 5, ["villain", "villain", "villain", "holmes", "watson", None]),
]


@pytest.mark.parametrize("first,last,event_on,columns", MATRIX)
def test_encounter_matrix_row(first, last, event_on, columns):
    for turn in range(first, last + 1):
        band = T.band_for(turn)
        assert band.event_on == event_on
        assert [T.encounter_column(turn, die, 0) for die in range(1, 7)] == columns


def test_vertical_modifiers():
    assert (T.MOTIVE_VERTICAL, T.CAN_ARREST_VERTICAL, T.WAIT_ENCOUNTER_BONUS) == (-1, -2, 1)
    assert T.encounter_column(10, 6, -2) == "holmes"  # 6 - 2 = 4
    assert T.encounter_column(3, 1, -2) == "villain"  # below 1 reads as 1
    with pytest.raises(ValueError):
        T.band_for(13)


# ----------------------------------------------------------------------------- R009
COMBAT = [  # difference, Holmes or Watson, every other target
    (1, "unhurt", "stunned"), (2, "stunned", "stunned"), (3, "stunned", "wounded"),
    (4, "stunned", "wounded"), (5, "wounded", "wounded"), (6, "wounded", "serious"),
    (7, "wounded", "serious"), (8, "serious", "death"), (11, "serious", "death"),
]


@pytest.mark.parametrize("diff,hw,other", COMBAT)
def test_combat_result_row(diff, hw, other):
    assert T.combat_result(diff, True) == hw
    assert T.combat_result(diff, False) == other


def test_combat_tie_and_strike_modifiers():
    assert T.combat_result(0, True) is None
    assert T.strike_modifier(3) == 0
    assert T.strike_modifier(4) == 1 and T.strike_modifier(8) == 1
    assert T.strike_modifier(9) == 2
    assert T.strike_modifier(6, weaponry=2) == 3
    assert T.strike_modifier(6, stunned=True) == 0
    assert T.strike_modifier(6, wounded=True) == -1
    assert T.strike_modifier(6, addiction=1, madness=2) == -2
    assert (T.WATSON_SERIOUS_LUCK, T.ALLY_SERIOUS_LUCK, T.ENEMY_KILLED_LUCK) == (2, 1, 1)


# ----------------------------------------------------------------------------- R003, R007, R010, A000
def test_starting_characters():
    assert T.HOLMES_START == {"Brains": 9, "Brawn": 5, "Bravery": 7}
    assert T.START_TRAIT_COUNT == 3 and T.START_LUCK == 4
    assert T.STARTING_TRAITS == ("Aware", "Charisma", "British Law", "Disguise", "Running",
                                 "Thief", "Tracking", "Science", "Sensational Literature",
                                 "Weaponry", "History")
    assert T.LATER_TRAITS == ("Medicine", "Victim", "Addiction", "Aristocracy", "Madness")
    assert T.WATSON_START == {"Brains": 6, "Brawn": 6, "Bravery": 7}
    assert T.WATSON_TRAITS == {"Charisma": 1, "Weaponry": 1, "Medicine": 2}
    assert T.NEW_INSPECTOR == {"Brains": 4, "Brawn": 5, "Bravery": 5}
    assert T.NEW_INSPECTOR_TRAITS == {"British Law": 1, "Running": 1}
    assert (T.INSPECTOR_KILLED_LUCK, T.START_SM_CAP, T.TURNS) == (3, 1, 12)


@pytest.mark.parametrize("face,result", [(1, "holmes_killed"), (2, "holmes_killed"),
                                         (3, "watson_killed"), (4, "watson_killed"),
                                         (5, "lestrade_killed"), (6, "nothing")])
def test_loss_table_row(face, result):
    assert T.LOSS_TABLE[face] == result


@pytest.mark.parametrize("luck,lost", [(0, 0), (1, 1), (2, 1), (3, 2), (7, 4)])
def test_defeat_loses_half_the_luck_rounded_up(luck, lost):
    assert T.luck_lost_on_defeat(luck) == lost


@pytest.mark.parametrize("current,cost", [(8, 4), (9, 5), (5, 3), (6, 3)])
def test_quality_cost(current, cost):
    assert T.quality_cost(current) == cost  # "4 SM points will increase a Brains of 8 to a 9"


def test_spending_costs():
    assert T.TRAIT_COST == {0: 3, 1: 4, 2: 6}
    assert (T.EQUIPMENT_COST, T.FRIEND_COST, T.FRIEND_QUALITY_POINTS, T.MAX_FRIENDS) == (5, 6, 4, 3)
    assert (T.QUALITY_RAISE_CAP, T.MAX_TRAIT) == (4, 3)


@pytest.mark.parametrize("face,equipment,first_case", [
    (1, "m413", "a001"), (2, "m413", "a001"), (3, "m415", "a001"),
    (4, "m415", "a002"), (5, "m416", "a002"), (6, "m418", "a002")])
def test_start_of_campaign_rolls(face, equipment, first_case):
    assert T.EQUIPMENT_ROLL[face - 1] == equipment
    assert T.FIRST_CASE_ROLL[face - 1] == first_case
