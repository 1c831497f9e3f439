"""The rulebook's own tables as exact data: Actions (R007a-f), the Encounter Matrix (R008),
combat (R009), spending Solve Modifier points (R010), losing a case (R007), the starting
characters (R003) and the start of a campaign (A000).

Each Action table is a tuple of ``Row(lo, hi, outcome)``: a modified 2d6 total ``t`` falls in
the row with ``lo <= t <= hi`` (``hi`` is ``None`` for an open row such as "12+"). Totals below
the lowest row read as the lowest row (decision: the rulebook prints no row below 2, and a
total of 1 can only arise from its own -1 modifiers). ``outcome`` is a short code the engine
acts on; ``OUTCOME_TEXT`` says in a few words what it means (our words, not the book's).

>>> row_for(ARREST, 13).outcome
'option3'
>>> row_for(EXPLORE_TABLE, 1).outcome
'villain'
"""

from __future__ import annotations

import math
from typing import NamedTuple

# ----------------------------------------------------------------------------- actions
ATTEMPT_ARREST = "Attempt Arrest"
EXPLORE = "Explore"
SEEK = "Seek Information"
RESEARCH = "Research"
REST = "Rest"
WAIT = "Wait"
INVESTIGATE = "Investigate"
#: the seven Actions of R007 in the rulebook's order
ACTIONS = (ATTEMPT_ARREST, EXPLORE, SEEK, RESEARCH, REST, WAIT, INVESTIGATE)
#: not an Action: the turn after an enemy trap is spent escaping (R007a 5, R007c 2-3, R007d 2)
ESCAPE_TRAP = "Escape the trap"
#: how an Action may be typed besides its name (any unambiguous spelling also works)
ACTION_ALIASES = {"arrest": ATTEMPT_ARREST, "seek": SEEK}
#: the Traits that can be the channel of Seek Information, one at a time (R007d)
SEEK_CHANNELS = ("Charisma", "Disguise", "Thief", "History")

QUALITIES = ("Brains", "Brawn", "Bravery")
#: R003: the Traits Holmes may choose at the start
STARTING_TRAITS = ("Aware", "Charisma", "British Law", "Disguise", "Running", "Thief",
                   "Tracking", "Science", "Sensational Literature", "Weaponry", "History")
#: R003: Traits that can only be gained later
LATER_TRAITS = ("Medicine", "Victim", "Addiction", "Aristocracy", "Madness")
TRAITS = STARTING_TRAITS + LATER_TRAITS
MAX_TRAIT = 3


class Row(NamedTuple):
    lo: int
    hi: int | None
    outcome: str


def row_for(table: tuple[Row, ...], total: int) -> Row:
    """The row of ``table`` a modified 2d6 ``total`` falls in (below the first row: the first)."""
    for row in table:  # rows are contiguous and in order; the last one is open
        if row.hi is None or total <= row.hi:
            return row
    return table[-1]


#: R007a Attempt Arrest: 2d6 + SM, -1 in turns 1-2, +1 from turn 9, + the "opportunity" bonus
ARREST = (
    Row(2, 3, "holmes_killed"),
    Row(4, 4, "ally_killed"),
    Row(5, 5, "trap"),
    Row(6, 7, "lose_luck"),
    Row(8, 8, "outwitted"),
    Row(9, 11, "confrontation"),
    Row(12, 12, "bonus"),
    Row(13, None, "option3"),
)

#: R007b Explore: 2d6 + Tracking levels (at most 3); only while no Villain is revealed
EXPLORE_TABLE = (
    Row(2, 2, "villain"),
    Row(3, 4, "lost"),
    Row(5, 5, "ally_leaves"),
    Row(6, 7, "nothing"),
    Row(8, 8, "character"),
    Row(9, 10, "unlock_investigate"),
    Row(11, 11, "clue"),
    Row(12, None, "holmes_or_watson"),
)

#: R007c Investigate: 2d6 + Aware (max 3) + History (max 3, outside London) + bonus
INVESTIGATE_TABLE = (
    Row(2, 3, "trap"),
    Row(4, 5, "villain"),
    Row(6, 6, "nothing"),
    Row(7, 7, "bonus"),
    Row(8, 8, "location"),
    Row(9, 10, "clue"),
    Row(11, 11, "sm"),
    Row(12, None, "holmes_or_watson"),
)

#: R007d Seek Information: 2d6 + 1 if the group has the chosen channel's Trait + bonus
SEEK_TABLE = (
    Row(2, 2, "trap"),
    Row(3, 3, "villain"),
    Row(4, 4, "channel_blocked"),
    Row(5, 6, "nothing"),
    Row(7, 7, "bonus"),
    Row(8, 10, "witness"),
    Row(11, 11, "motive"),
    Row(12, None, "holmes_or_watson"),
)

#: R007e Research: 2d6 + SM, -1 in turns 1-4, +1 in turns 9-12, + bonus
RESEARCH_TABLE = (
    Row(2, 2, "breakthrough"),
    Row(3, 3, "allies_may_leave"),
    Row(4, 4, "lose_luck"),
    Row(5, 7, "nothing"),
    Row(8, 9, "bonus"),
    Row(10, 11, "sm"),
    Row(12, 12, "sm2"),
    Row(13, None, "holmes_or_watson"),
)

#: the roll table of each Action that has one
ACTION_TABLES = {
    ATTEMPT_ARREST: ARREST,
    EXPLORE: EXPLORE_TABLE,
    INVESTIGATE: INVESTIGATE_TABLE,
    SEEK: SEEK_TABLE,
    RESEARCH: RESEARCH_TABLE,
}

#: what each outcome code means, per table (our words)
OUTCOME_TEXT = {
    ATTEMPT_ARREST: {
        "holmes_killed": "Holmes is killed; the game is over",
        "ally_killed": "a random Ally is killed (Watson only if no Ally); lose 2 Luck",
        "trap": "enemy trap: next turn is spent escaping",
        "lose_luck": "a disaster: lose 1 Luck",
        "outwitted": "outwitted: -1 SM, then Villain option 2",
        "confrontation": "confrontation: +1 SM, then Villain option 2",
        "bonus": "an opening: +1 to Attempt Arrest next turn",
        "option3": "the Villain is where expected: Villain option 3",
    },
    EXPLORE: {
        "villain": "the Villain: roll for a Villain event",
        "lost": "lost: back to 221B Baker Street",
        "ally_leaves": "a random Ally leaves",
        "nothing": "nothing unusual",
        "character": "someone met: Character event",
        "unlock_investigate": "something to investigate: Investigate allowed next turn",
        "clue": "something important: Clue event",
        "holmes_or_watson": "talking it over: 1d6 1-3 Holmes event, 4-6 Watson event",
    },
    INVESTIGATE: {
        "trap": "enemy trap: next turn is spent escaping",
        "villain": "the Villain: Villain event (reveal one if none yet)",
        "nothing": "no further light",
        "bonus": "marks found: +1 to Investigate next turn (cumulative)",
        "location": "a Location that could matter: Location event",
        "clue": "important information: Clue event",
        "sm": "vital information: +1 SM",
        "holmes_or_watson": "talking it over: 1d6 1-3 Holmes event, 4-6 Watson event",
    },
    SEEK: {
        "trap": "enemy trap: next turn is spent escaping",
        "villain": "the Villain: Villain event",
        "channel_blocked": "discovered: this channel is closed for the case",
        "nothing": "nothing this turn",
        "bonus": "a lead: +1 to Seek Information next turn (cumulative)",
        "witness": "a witness: 1d6 1-2 Location, 3-4 Character, 5-6 Clue event",
        "motive": "the Motive is revealed, +1 Luck (no effect before the reveal)",
        "holmes_or_watson": "talking it over: 1d6 1-3 Holmes event, 4-6 Watson event",
    },
    RESEARCH: {
        "breakthrough": "lucky breakthrough: +1 Luck and +1 SM",
        "allies_may_leave": "Allies holding a random Trait leave on 1d6 1-2",
        "lose_luck": "a setback: lose 1 Luck",
        "nothing": "an impasse",
        "bonus": "slow progress: +1 to Research next turn (cumulative)",
        "sm": "getting somewhere: +1 SM",
        "sm2": "closer to the truth: +2 SM",
        "holmes_or_watson": "talking it over: 1d6 1-3 Holmes event, 4-6 Watson event",
    },
}

#: trait modifiers of an Action: (trait, cap) pairs added as min(level, cap) (R007b, R007c)
EXPLORE_TRAITS = (("Tracking", 3),)
INVESTIGATE_TRAITS = (("Aware", 3),)
INVESTIGATE_OUTSIDE_LONDON = (("History", 3),)
#: R007d: +1 for the chosen channel Trait, at most +1 in all
SEEK_CHANNEL_BONUS = 1


def arrest_turn_modifier(turn: int) -> int:
    """R007a: -1 in turns 1-2, +1 from turn 9."""
    return -1 if turn <= 2 else (1 if turn >= 9 else 0)


def research_turn_modifier(turn: int) -> int:
    """R007e: -1 in turns 1-4, +1 in turns 9-12."""
    return -1 if turn <= 4 else (1 if turn >= 9 else 0)


#: R007f Rest: Medicine roll targets (2d6 + the healer's Medicine level >= target)
HEAL_WOUND = 8
HEAL_ADDICTION = 9
HEAL_MADNESS = 11

# ----------------------------------------------------------------------------- R008
TURNS = 12
VILLAIN, HOLMES, WATSON, CHARACTER, LOCATION, CLUE = (
    "villain", "holmes", "watson", "character", "location", "clue")
#: the six lines of an Adventure (R006)
LINES = (VILLAIN, CHARACTER, HOLMES, WATSON, CLUE, LOCATION)
#: a line (an Encounter Matrix column) in words
LINE_WORDS = {VILLAIN: "a Villain event", CHARACTER: "a Character event",
              HOLMES: "a Holmes event", WATSON: "a Watson event", CLUE: "a Clue event",
              LOCATION: "a Location event"}


class Band(NamedTuple):
    first: int
    last: int
    event_on: int  # 2d6 at least this: an encounter
    columns: tuple[str | None, ...]  # the vertical 1d6 faces 1..6; None: no encounter


ENCOUNTER_MATRIX = (
    Band(1, 4, 7, (VILLAIN, HOLMES, WATSON, CHARACTER, CHARACTER, LOCATION)),
    Band(5, 8, 6, (VILLAIN, VILLAIN, HOLMES, WATSON, CHARACTER, CHARACTER)),
    Band(9, 12, 5, (VILLAIN, VILLAIN, VILLAIN, HOLMES, WATSON, None)),
)
#: R007 Wait: +1 to the Encounter Matrix 2d6
WAIT_ENCOUNTER_BONUS = 1
#: R008: the vertical die once the Motive is revealed / once you can Attempt Arrest
MOTIVE_VERTICAL = -1
CAN_ARREST_VERTICAL = -2


def band_for(turn: int) -> Band:
    for band in ENCOUNTER_MATRIX:
        if band.first <= turn <= band.last:
            return band
    raise ValueError(f"turn {turn} is outside 1-{TURNS}")


def encounter_column(turn: int, die: int, vertical_modifier: int) -> str | None:
    """The encounter type for vertical ``die`` (1-6) after the modifier; faces below 1 read as 1."""
    return band_for(turn).columns[max(1, die + vertical_modifier) - 1]


# ----------------------------------------------------------------------------- R009
#: R009a result by difference 1..8+ for Holmes or Watson, and for every other target
HOLMES_WATSON_RESULT = ("unhurt", "stunned", "stunned", "stunned", "wounded", "wounded",
                        "wounded", "serious")
OTHER_RESULT = ("stunned", "stunned", "wounded", "wounded", "wounded", "serious", "serious",
                "death")


def combat_result(difference: int, holmes_or_watson: bool) -> str | None:
    """R009a: what the loser of a strike suffers for a positive ``difference`` (None for 0)."""
    if difference <= 0:
        return None
    row = HOLMES_WATSON_RESULT if holmes_or_watson else OTHER_RESULT
    return row[min(difference, 8) - 1]


def strike_modifier(brawn: int, weaponry: int = 0, stunned: bool = False, wounded: bool = False,
                    addiction: int = 0, madness: int = 0) -> int:
    """R009a: what is added to Brawn + 1d6 in a strike."""
    band = 2 if brawn >= 9 else (1 if 4 <= brawn <= 8 else 0)
    return band + weaponry - (1 if stunned else 0) - (2 if wounded else 0) - addiction - madness


#: R009b: Luck lost when Watson / an Ally is Seriously Wounded; 1d3 for a friendly death
WATSON_SERIOUS_LUCK = 2
ALLY_SERIOUS_LUCK = 1
ENEMY_KILLED_LUCK = 1
#: R007a 4: Luck lost when an Ally is killed in an arrest attempt
ARREST_ALLY_KILLED_LUCK = 2

# ----------------------------------------------------------------------------- R003
HOLMES_START = {"Brains": 9, "Brawn": 5, "Bravery": 7}
START_TRAIT_COUNT = 3
START_LUCK = 4
WATSON_START = {"Brains": 6, "Brawn": 6, "Bravery": 7}
WATSON_TRAITS = {"Charisma": 1, "Weaponry": 1, "Medicine": 2}
#: R007 5: the Inspector who replaces a killed Lestrade
NEW_INSPECTOR = {"Brains": 4, "Brawn": 5, "Bravery": 5}
NEW_INSPECTOR_TRAITS = {"British Law": 1, "Running": 1}
INSPECTOR_KILLED_LUCK = 3
INSPECTOR_BAR_CASES = 3  # this case and the next two
#: R001: SM at the start of a case is at most this
START_SM_CAP = 1

# ----------------------------------------------------------------------------- R007 loss
#: R007: losing a case with no SM and no Luck: 1d6
LOSS_TABLE = {1: "holmes_killed", 2: "holmes_killed", 3: "watson_killed", 4: "watson_killed",
              5: "lestrade_killed", 6: "nothing"}
#: the loss table's results in words
LOSS_WORDS = {"holmes_killed": "Holmes is killed", "watson_killed": "Watson is killed",
              "lestrade_killed": "the Inspector is killed", "nothing": "no further effect"}
#: a Health level of R009b in words (a fight's end, a wound)
LEVEL_WORDS = {"wounded": "Wounded", "serious": "Seriously Wounded", "death": "killed",
               "killed": "killed"}


def luck_lost_on_defeat(luck: int) -> int:
    """R007: half the remaining Luck, rounded up."""
    return math.ceil(luck / 2)


# ----------------------------------------------------------------------------- R010
QUALITY_RAISE_CAP = 4  # at most +4 to any Quality across a campaign
TRAIT_COST = {0: 3, 1: 4, 2: 6}  # from level n to n + 1
EQUIPMENT_COST = 5
FRIEND_COST = 6
FRIEND_QUALITY_POINTS = 4
MAX_FRIENDS = 3


def quality_cost(current: int) -> int:
    """R010: raising a Quality by 1 costs half its current value, rounded up."""
    return math.ceil(current / 2)


# ----------------------------------------------------------------------------- A000
#: starting (and bought) equipment: 1d6 face -> Memoirs paragraph
EQUIPMENT_ROLL = ("m413", "m413", "m415", "m415", "m416", "m418")
#: the first case: 1d6 face -> Adventure
FIRST_CASE_ROLL = ("a001", "a001", "a001", "a002", "a002", "a002")
