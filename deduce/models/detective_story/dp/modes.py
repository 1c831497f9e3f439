"""How the DP keys a case: its *mode* (the case without what it values at once) and the
flags a turn leaves for the next.

A value of the DP is an array over every SM and Luck (``grid``), so SM and Luck are not
part of a key; events never read the turn, so a phase's compiled form is keyed by the
mode without the turn (``ModeKeys.key``); last turn's flags only change next turn's
Action, so they are an axis of the Encounter phase's values (flag *labels*).
"""

from __future__ import annotations

from typing import NamedTuple

from deduce.models.detective_story.dp.grid import IDENT
from deduce.models.detective_story.state import Case

#: a mode store is emptied when it grows past this many cases (a bot's long self-play)
MAX_MODES = 500_000


class Flags(NamedTuple):
    """What a turn leaves for the next: the Action a +1 bonus row applies to (or None) and
    that bonus, whether the group is trapped, whether Investigate is allowed."""

    bonus_action: str | None
    bonus: int
    trapped: bool
    unlock: bool


NO_FLAGS = Flags(None, 0, False, False)
UNLOCKED = Flags(None, 0, False, True)
TRAPPED = Flags(None, 0, True, False)


def flags_of(case: Case) -> Flags:
    """The flags ``case`` carries."""
    return Flags(case.bonus_action, case.bonus, case.trapped, case.unlock)


def with_flags(case: Case, f: Flags) -> Case:
    """``case`` carrying the flags ``f``."""
    return case._replace(bonus_action=f.bonus_action, bonus=f.bonus, trapped=f.trapped,
                         unlock=f.unlock)


def probe(key: Case, turn: int) -> Case:
    """The case a phase is traced or valued from: ``key`` at ``turn``, symbolic SM/Luck."""
    return key._replace(turn=turn, sm=IDENT, luck=IDENT)


def mode_of(case: Case) -> Case:
    """The case without SM, Luck and what can no longer change anything (the dead, the
    Clue once the Villain is known, the meetings and blocked channels once the Motive is)."""
    c = case._replace(sm=0, luck=0, dead=frozenset())
    if c.villain is not None and not c.clue:
        c = c._replace(clue=True)
    if c.motive >= 0 and (c.meetings != 2 or c.blocked):
        c = c._replace(meetings=2, blocked=frozenset())
    return c


class ModeKeys:
    """``mode_of`` and the memo key of a mode, kept per solver (each store emptied past
    ``MAX_MODES``)."""

    def __init__(self):
        self.modes: dict = {}
        self.keys: dict = {}

    def mode(self, case: Case) -> Case:
        """``mode_of(case)``."""
        out = self.modes.get(case)
        if out is None:
            if len(self.modes) > MAX_MODES:
                self.modes.clear()
            out = self.modes[case] = mode_of(case)
        return out

    def key(self, case: Case) -> Case:
        """The memo key of a case's mode: no turn, SM, Luck or flags."""
        out = self.keys.get(case)
        if out is None:
            if len(self.keys) > MAX_MODES:
                self.keys.clear()
            out = self.keys[case] = with_flags(self.mode(case), NO_FLAGS)._replace(turn=0)
        return out
