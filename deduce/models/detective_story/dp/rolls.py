"""The 2d6 tables' odds: P(each row) for a modifier, over SM where the roll adds SM.

``row_probabilities`` and ``p_at_most_by_sm`` read tables computed once at import (every
table the engine rolls on, for every modifier that changes anything); ``RollOdds`` keeps,
per solver, the arrays of an Action's rows for every carried +1 bonus.
"""

from __future__ import annotations

import numpy as np

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.grid import S


def yes_no(p: float) -> tuple:
    """``((p, True), (1 - p, False))`` without the impossible branch.

    >>> yes_no(1.0), yes_no(0.25)
    (((1.0, True),), ((0.25, True), (0.75, False)))
    """
    return ((1.0, True),) if p >= 1 else ((1.0, False),) if p <= 0 else ((p, True), (1 - p, False))


def outcomes_of(table) -> tuple[str, ...]:
    """The outcomes of ``table``'s rows, in table order, each once."""
    return tuple(dict.fromkeys(r.outcome for r in table))


def _modifiers(table) -> range:
    """The modifiers of 2d6 + modifier on ``table`` that lead to different rows: below the
    range every total is in the first row, above it in the last."""
    if table[0].hi is None:
        return range(0, 1)
    return range(table[0].hi - 12, table[-1].lo - 2 + 1)


def _row_probabilities(table, mod: int) -> tuple[tuple[str, float], ...]:
    acc: dict[str, float] = {}
    for s, p in E.TWO_D6:
        o = T.row_for(table, s + mod).outcome
        acc[o] = acc.get(o, 0.0) + p
    return tuple((r.outcome, acc[r.outcome]) for r in table if r.outcome in acc)


def _rolled_tables() -> dict:
    """``{table: (first modifier, (row probabilities per modifier, ...))}`` for the Action
    tables and every turn's Encounter Matrix roll."""
    tables = list(T.ACTION_TABLES.values()) + [E.encounter_table(t) for t in range(1, T.TURNS + 1)]
    out = {}
    for table in tables:
        mods = _modifiers(table)
        out[table] = (mods.start, mods.stop - 1,
                      tuple(_row_probabilities(table, m) for m in mods))
    return out


_ROLLED = _rolled_tables()


def row_probabilities(table, mod: int) -> tuple[tuple[str, float], ...]:
    """``((outcome, p), ...)`` of ``table`` for 2d6 + ``mod`` (rows in table order, only
    the outcomes that can come up).

    >>> row_probabilities(T.ARREST, 10)
    (('bonus', 0.027777777777777776), ('option3', 0.9722222222222223))
    """
    hit = _ROLLED.get(table)
    if hit is None:  # a table the engine does not roll on: computed here
        return _row_probabilities(table, mod)
    lo, hi, rows = hit
    return rows[min(max(mod, lo), hi) - lo]


_AT_MOST = np.array([E.p_2d6_at_most(x) for x in range(1, 13)], dtype=float)
_AT_MOST.flags.writeable = False


def p_at_most_by_sm(offset: int) -> np.ndarray:
    """P(2d6 <= SM + offset) for SM = 0..S-1, as a column (S, 1)."""
    return _AT_MOST[np.clip(np.arange(S) + offset, 1, 12) - 1][:, None]


def row_matrix(table, mod: int) -> np.ndarray:
    """P(outcome) of ``table`` (``outcomes_of`` order) for 2d6 + ``mod`` + SM: (S, outcomes)."""
    outcomes = outcomes_of(table)
    m = np.zeros((S, len(outcomes)))
    for sm in range(S):
        for o, p in row_probabilities(table, mod + sm):
            m[sm, outcomes.index(o)] += p
    return m


class RollOdds:
    """An Action table's row probabilities for each carried +1 bonus, kept per solver:
    equal arguments give the same (read-only) array object, which the sweep relies on to
    share its rows."""

    def __init__(self):
        self._probs: dict = {}
        self._grows: dict = {}

    def bonus_probs(self, table, mod: int, with_sm: bool, n_bonus: int) -> np.ndarray:
        """P(row | 2d6 + mod + carried bonus c (+ SM)), c = 0..n_bonus-1:
        (bonus, S or 1, rows in ``outcomes_of`` order)."""
        k = (table, mod, with_sm, n_bonus)
        out = self._probs.get(k)
        if out is None:
            if with_sm:
                out = np.stack([row_matrix(table, mod + c) for c in range(n_bonus)])
            else:
                outcomes = outcomes_of(table)
                out = np.stack([[dict(row_probabilities(table, mod + c)).get(o, 0.0)
                                 for o in outcomes] for c in range(n_bonus)])[:, None, :]
            out.flags.writeable = False
            self._probs[k] = out
        return out

    def bonus_grows(self, table, mod: int, with_sm: bool, n_bonus: int) -> tuple[int, ...]:
        """The carried bonuses c (0..n_bonus-1) at which ``table``'s +1 row can still come
        up (for some SM), so that next turn carries c + 1."""
        k = (table, mod, with_sm, n_bonus)
        out = self._grows.get(k)
        if out is None:
            outcomes = outcomes_of(table)
            if "bonus" not in outcomes:
                out = ()
            else:
                probs = self.bonus_probs(table, mod, with_sm, n_bonus)
                row = probs[:, :, outcomes.index("bonus")]
                out = tuple(c for c in range(n_bonus) if row[c].any())
            self._grows[k] = out
        return out
