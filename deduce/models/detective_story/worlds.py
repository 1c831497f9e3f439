"""The sampling world: seeded dice and a policy's decisions.

``Sampler`` implements the ``engine.World`` interface by drawing every chance node from
one ``random.Random`` and asking its ``Decisions`` at every decision inside a phase. Its
continuations return the case, so ``engine.take_action(sampler, ...)`` returns the case
after the Action. ``rules`` plays whole turns and cases with it.

What a sampler asks (``Decisions``; ``PlainDecisions`` is the default of ``rules.State``;
a ``Policy``, see ``bots`` for the three shipped ones, also picks each turn's Action)::

    action(world, case, legal) -> action name                        # Policy only
    reroll(world, case, tag, roll, modifier, table, k_row) -> bool   # spend 1 Luck?
                                          # (modifier: everything added, SM included)
    choose(world, case, kind, options, k) -> option                  # option 3's start
    combat_plan(world, case, setup, k) -> plan(state) -> (champion key, escape?)

``k``/``k_row`` are the world-independent continuations of the decision, so a policy may
evaluate them exactly in ``advice.Expect`` (the optimal bot does).
"""

from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence

from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.state import Case, Context


class Decisions(Protocol):
    """The decisions inside a phase: a Luck re-roll, option 3's start, a fight's plan."""

    def reroll(self, w: "Sampler", case: Case, tag: str, roll: int, mod: int, table,
               k_row: E.K) -> bool:
        """Spend 1 Luck to roll the Action's 2d6 again (``roll``: the natural total)?"""

    def choose(self, w: "Sampler", case: Case, kind: str, options: Sequence[str],
               k: E.K) -> str:
        """One of ``options`` (option 3's start)."""

    def combat_plan(self, w: "Sampler", case: Case, setup: C.Setup,
                    k: E.K) -> Callable[[tuple], tuple[str, bool]]:
        """The fight's plan: ``plan(fight state) -> (champion key, escape?)``."""


class Policy(Decisions, Protocol):
    """Decisions, and the Action of every turn (the bots)."""

    def action(self, w: "Sampler", case: Case, legal: list[str]) -> str:
        """The Action to take, one of ``legal``."""


class PlainDecisions:
    """The plain way through a phase: keep every roll (no Luck spent), start option 3 with
    its first choice (Deduction), send the strongest fighter and never flee."""

    def reroll(self, w, case: Case, tag, roll: int, mod: int, table, k_row) -> bool:
        return False

    def choose(self, w, case: Case, kind: str, options, k):
        return options[0]

    def combat_plan(self, w, case: Case, setup: C.Setup, k):
        champ = max(setup.fighters, key=lambda f: f.strike).key
        return lambda x: (champ, False)


class Sampler:
    """Seeded dice (``rng``) and ``policy``'s decisions (``Decisions``); counts Luck spent,
    keeps a log if ``log``. ``given``: 2d6 natural totals to use, in order, before rolling
    any (a chance outcome chosen at a chance point, ``rules.State``)."""

    def __init__(self, rng: random.Random, policy: Decisions, ctx: Context, log: bool = False):
        self.rng, self.policy, self.ctx = rng, policy, ctx
        self.luck_spent = 0
        self.keep_log = log
        self.log: list[str] = []
        self.given: list[int] = []

    def note(self, text: str) -> None:
        if self.keep_log:
            self.log.append(text)

    def roll_2d6(self) -> int:
        """The next 2d6 natural total: a given one, else two dice from ``rng``."""
        if self.given:
            return self.given.pop(0)
        return self.rng.randint(1, 6) + self.rng.randint(1, 6)

    def chance(self, case: Case, dist, k, what=None):
        if len(dist) == 1:
            return k(self, case, dist[0][1])
        r = self.rng.random()
        acc = 0.0
        for p, x in dist:
            acc += p
            if r < acc:
                return k(self, case, x)
        return k(self, case, dist[-1][1])

    def choose(self, case: Case, kind: str, options, k):
        choice = self.policy.choose(self, case, kind, tuple(options), k)
        self.note(E.choice_text(kind, choice))
        return k(self, case, choice)

    def luck_roll(self, case: Case, tag: str, mod: int, with_sm: bool, table, k):
        if with_sm:
            mod += case.sm
        roll = self.roll_2d6()
        if case.luck > 0 and self.policy.reroll(self, case, tag, roll, mod, table, k):
            self.luck_spent += 1
            self.note(f"{tag}: rolled {roll}, spends 1 Luck to roll again")
            case = case._replace(luck=case.luck - 1)
            roll = self.roll_2d6()
        self.note(f"{tag}: 2d6 {roll}{mod:+d} = {roll + mod}")
        return k(self, case, T.row_for(table, roll + mod).outcome)

    def plain_roll(self, case: Case, mod: int, table, k):
        roll = self.roll_2d6()
        self.note(f"encounter: 2d6 {roll}{mod:+d} = {roll + mod}")
        return k(self, case, T.row_for(table, roll + mod).outcome)

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        return k_yes(self, case) if case.sm >= value else k_no(self, case)

    def roll_at_most_sm(self, case: Case, offset: int, k):
        roll = self.roll_2d6()
        self.note(f"2d6 {roll} against SM {case.sm} {offset:+d}")
        return k(self, case, roll <= case.sm + offset)

    def combat(self, case: Case, setup: C.Setup, k):
        plan = self.policy.combat_plan(self, case, setup, k)
        return k(self, case, C.simulate(setup, plan, self.rng))

    def tail(self, key, case: Case, k, f):
        return f(self, case, k)

    def finish(self, phase, case: Case) -> Case:
        return case
