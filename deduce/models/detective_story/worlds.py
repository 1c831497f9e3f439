"""The sampling world: seeded dice and a policy's decisions; playing a whole case.

``Sampler`` implements the world interface of ``engine`` by drawing every chance node from
one ``random.Random`` and asking a ``Policy`` at every decision. Its continuations return
the case, so ``engine.take_action(sampler, ...)`` returns the case after the Action.

A ``Policy`` answers (see ``bots`` for the three shipped ones)::

    action(world, case, legal) -> action name
    reroll(world, case, tag, roll, modifier, table, k_row) -> bool   # spend 1 Luck?
                                          # (modifier: everything added, SM included)
    choose(world, case, kind, options, k) -> option                  # option 3's start
    combat_plan(world, case, setup, k) -> plan(state) -> (champion key, escape?)

``k``/``k_row`` are the world-independent continuations of the decision, so a policy may
evaluate them exactly in ``advice.Expect`` (the optimal bot does).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.state import Case, Context, outcome_text


class Sampler:
    """Seeded dice (``rng``) and ``policy``'s decisions; counts Luck spent, keeps a log."""

    def __init__(self, rng: random.Random, policy, ctx: Context, log: bool = False):
        self.rng, self.policy, self.ctx = rng, policy, ctx
        self.luck_spent = 0
        self.keep_log = log
        self.log: list[str] = []

    def note(self, text: str) -> None:
        if self.keep_log:
            self.log.append(text)

    def roll_2d6(self) -> int:
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


@dataclass
class Played:
    """One finished case."""

    case: Case
    turns: int
    luck_spent: int
    log: list[str] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.case.won


def play_case(ctx: Context, case: Case, policy, rng: random.Random, phase: str = "action",
              waited: bool = False, log: bool = False) -> Played:
    """Play from ``case`` (at ``phase``) to the end of the case with ``policy`` and ``rng``."""
    w = Sampler(rng, policy, ctx, log)
    while not case.over:
        if phase == "action":
            action = policy.action(w, case, E.legal_actions(ctx, case))
            E.check_action(ctx, case, action)
            w.note(f"turn {case.turn}: {action}")
            waited = action == T.WAIT
            case = E.take_action(w, ctx, case, action, E.AFTER_ACTION[waited])
        case = E.encounter(w, ctx, case, waited, E.AFTER_TURN)
        case = E.end_turn(case)
        phase, waited = "action", False
    w.note(f"the case ends: {outcome_text(case.outcome)} (turn {case.turn})")
    return Played(case, case.turn, w.luck_spent, w.log)
