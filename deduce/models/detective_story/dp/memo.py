"""The DP's memo: what it has valued, per turn and mode, each in a store named for what it
holds. Every value is a flat (S*L) array over every SM and Luck (``grid``), or a stack of
them over flag labels or carried bonuses.

Keys: ``t`` the turn, ``key`` a mode key (``modes.ModeKeys.key``), ``labels`` a tuple of
``modes.Flags`` (the flags an Action leaves for next turn), a *start mode* the mode key
with the flags that matter at the start of a turn (``Recursion.start_mode``).
"""

from __future__ import annotations

#: ``Memo.start_rows`` keeps the latest this many entries
RECENT_ROWS = 1024


class Memo:
    """The stores of one solver (the recursion fills them on demand, the sweep a turn at a
    time; both put the same values under the same keys)."""

    def __init__(self):
        #: (t, start mode) -> (S*L): the start of the turn, the best legal Action
        self.start: dict = {}
        #: (t, key, labels) -> (labels, S*L): the start of the turn for each label, the
        #: latest ``RECENT_ROWS`` only
        self.start_rows: dict = {}
        #: (t, key, action) -> (S*L), or (bonus, S*L) for each carried bonus of an Action
        #: with a +1 row: the Action's value, Luck re-roll included
        self.action: dict = {}
        #: (t, key, waited, labels) -> (labels, S*L): the Encounter phase after the Action
        #: (after Wait if ``waited``) for each label
        self.encounter: dict = {}
        #: (t, key) -> ((every label, S*L), (1, S*L)): the Encounter phase for every flag
        #: label an Action at ``key`` can leave, and after Wait
        self.encounter_all: dict = {}
        #: (t, start mode without bonus, action) -> (S*L) or 0.0: the best legal Action
        #: other than ``action``
        self.best_other: dict = {}

    def keep_rows(self, k: tuple, value) -> None:
        """``start_rows[k] = value``, the oldest entry dropped past ``RECENT_ROWS``."""
        if len(self.start_rows) >= RECENT_ROWS:
            del self.start_rows[next(iter(self.start_rows))]
        self.start_rows[k] = value

    @property
    def entries(self) -> int:
        """Values kept (each over every SM and Luck; an Encounter entry over its labels):
        start, action and Encounter phase entries."""
        return len(self.start) + len(self.encounter) + len(self.encounter_all) + len(self.action)
