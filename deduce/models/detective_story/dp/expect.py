"""The world of exact expectations on a *concrete* case (ints for SM and Luck): chance
nodes are summed with their probabilities, decisions maximised, and the end of a phase
reads the DP (``recursion.Recursion``). The optimal bot decides with it, the re-roll
advice values a roll with it, and ``naive.Naive`` recurses through it instead of reading
the DP.
"""

from __future__ import annotations

from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.modes import ModeKeys, flags_of
from deduce.models.detective_story.dp.recursion import terminal
from deduce.models.detective_story.dp.rolls import row_probabilities, yes_no
from deduce.models.detective_story.state import Case


class Expect:
    """P(win) of a concrete case through the engine (its world interface); the end of a
    phase reads ``recursion`` (``modes``: its mode keys)."""

    def __init__(self, recursion, modes: ModeKeys | None = None):
        self.recursion = recursion
        self.modes = modes or ModeKeys()

    def note(self, text: str) -> None:
        """Nothing: no log."""

    def chance(self, case: Case, dist, k, what=None):
        """The sum over ``dist`` ((p, x), ...)."""
        if len(dist) == 1:
            return k(self, case, dist[0][1])
        return sum(p * k(self, case, x) for p, x in dist)

    def choose(self, case: Case, kind: str, options, k):
        """The best option."""
        return max(k(self, case, o) for o in options)

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        """The branch the case's SM takes."""
        return k_yes(self, case) if case.sm >= value else k_no(self, case)

    def roll_at_most_sm(self, case: Case, offset: int, k):
        """Both outcomes of 2d6 <= SM + offset, weighted."""
        return self.chance(case, yes_no(E.p_2d6_at_most(case.sm + offset)), k)

    def luck_roll(self, case: Case, tag: str, mod: int, with_sm: bool, table, k):
        """An Action's 2d6 with the best Luck re-roll choice for each roll (R003)."""
        mod += case.sm if with_sm else 0
        pairs = row_probabilities(table, mod)
        values = [(p, k(self, case, o)) for o, p in pairs]
        if case.luck <= 0:
            return sum(p * v for p, v in values)
        again = self.reroll_value(case, mod, table, k)
        return sum(p * max(v, again) for p, v in values)

    def plain_roll(self, case: Case, mod: int, table, k):
        """The sum over ``table``'s rows for 2d6 + ``mod``."""
        return sum(p * k(self, case, o) for o, p in row_probabilities(table, mod))

    def reroll_value(self, case: Case, mod: int, table, k) -> float:
        """P(win) after spending 1 Luck on a roll (``mod`` includes SM)."""
        spent = case._replace(luck=case.luck - 1)
        return sum(p * k(self, spent, o) for o, p in row_probabilities(table, mod))

    def combat(self, case: Case, setup: C.Setup, k):
        """The fight's value under its best plan (``combat.solve``)."""
        return C.solve(setup, {t: k(self, case, t) for t in C.terminals(setup)})[0]

    def tail(self, key, case: Case, k, f):
        """``f(self, case, k)``: a concrete walk has nothing to share."""
        return f(self, case, k)

    def finish(self, phase: E.Phase, case: Case):
        """The DP's value where the phase ends (the next turn's start, or the Encounter
        phase after the Action)."""
        if case.outcome is not None:
            return terminal(case)
        r = self.recursion
        if phase.key[0] == "turn":
            if case.turn >= T.TURNS:
                return 0.0
            return r.start_value(case.turn + 1, self.modes.key(case), flags_of(case), case.sm,
                                 case.luck)
        return r.encounter_value(case.turn, self.modes.key(case), phase.key[1], flags_of(case),
                                 case.sm, case.luck)
