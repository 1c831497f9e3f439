"""The rules of a solo case as a game: a ``State`` with legal actions, apply, the player's
observation, the end and the winner, and chance from its own seeded ``random.Random``
(after OpenSpiel's Game/State split).

The rules themselves are ``engine``'s functions (continuation-passing, one per rule); a
turn is two phases, played here in any world (``engine.World``):

- ``play_action(w, case, action)``: the Action phase (R007) of a legal Action, else
  ``InputError``;
- ``play_encounter(w, case, waited)``: the Encounter Matrix (R008) and the end of the turn
  (turn 12 ended without an arrest: time is up).

``State`` plays them with seeded dice (``worlds.Sampler``). One player (0), who wins
when the Villain is arrested or killed. Where the State is:

- at the start of a turn (phase ``action``): ``legal_actions()`` are the Actions legal
  now (``engine.legal_actions``, e.g. ``"Explore"``); ``apply(action)`` plays that Action
  phase, then the Encounter phase;
- at a chance point (phase ``encounter``: a record whose Action is done waits for the
  Encounter Matrix): ``legal_actions()`` are the natural 2d6 totals 2-12
  (``chance_outcomes()`` with their probabilities); ``apply(total)`` plays the Encounter
  phase with that roll;
- over (``is_over()``): no legal action; ``winner()`` is 0 if the case is won, else None.

Every other die of a phase comes from the State's ``rng``; the decisions inside a phase (a
Luck re-roll, option 3's start, a fight's plan) from its ``decisions``
(``worlds.PlainDecisions`` unless given). ``observation()`` is the case record (the JSON
``deduce story`` keeps, ``state.case_to_record``), what the solo player sees; it reads
back with ``state.parse_record``.

>>> st = State.new(seed=3)
>>> st.legal_actions()
['Explore', 'Rest', 'Wait']
>>> st.apply("Wait")
>>> st.observation()["turn"], st.is_over(), st.winner()
(2, False, None)
>>> st.apply("Fly")
Traceback (most recent call last):
    ...
deduce.core.errors.InputError: unknown action 'Fly'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from deduce.core.errors import InputError
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import Data, load_campaign
from deduce.models.detective_story.state import (
    Case,
    CaseFile,
    Context,
    case_to_record,
    outcome_text,
    parse_record,
)
from deduce.models.detective_story.worlds import Decisions, PlainDecisions, Policy, Sampler


class PlayingWorld(E.World, Protocol):
    """A world that knows the case's ``Context`` (``worlds.Sampler``, ``live.Told``)."""

    ctx: Context


#: the one player of the solo game
PLAYER = 0
#: the chance outcomes of the Encounter Matrix: natural 2d6 totals and their probabilities
ENCOUNTER_ROLLS = E.TWO_D6


# ----------------------------------------------------------------------------- a turn
def play_action(w: PlayingWorld, case: Case, action: str) -> tuple[Case, bool]:
    """The Action phase of the turn in world ``w``: ``action`` if legal, else
    ``InputError``; the case after it and whether it was Wait (the Encounter Matrix then
    adds 1)."""
    E.check_action(w.ctx, case, action)
    w.note(f"turn {case.turn}: {action}")
    waited = action == T.WAIT
    return E.take_action(w, w.ctx, case, action, E.AFTER_ACTION[waited]), waited


def play_encounter(w: PlayingWorld, case: Case, waited: bool) -> Case:
    """The Encounter Matrix (``waited``: +1 after Wait) and the end of the turn, in world
    ``w``; the end of the case is noted."""
    case = E.encounter(w, w.ctx, case, waited, E.AFTER_TURN)
    turn = case.turn
    case = E.end_turn(case)
    if case.over:
        w.note(f"the case ends: {outcome_text(case.outcome)} (turn {turn})")
    return case


# ----------------------------------------------------------------------------- the game
class State:
    """A case in play from the record ``cf`` with dice from ``rng`` (see the module
    docstring). ``case``, ``phase`` and ``waited`` are where it is; ``log`` what happened
    since ``cf``; ``luck_spent`` the Luck spent on re-rolls."""

    def __init__(self, cf: CaseFile, rng: random.Random, decisions: Decisions | None = None):
        self.cf = cf
        self.case, self.phase, self.waited = cf.case, cf.phase, cf.waited
        self.rng = rng
        self.world = Sampler(rng, decisions or PlainDecisions(), cf.ctx, log=True)

    @classmethod
    def from_record(cls, raw: Any, where: str, data: Data, seed: int | None = None,
                    decisions: Decisions | None = None) -> "State":
        """The case of the record ``raw`` (checked by ``state.parse_record``, errors naming
        ``where``), its dice seeded by ``seed``."""
        return cls(parse_record(raw, where, data), random.Random(seed), decisions)

    @classmethod
    def new(cls, seed: int | None = None, data: Data | None = None,
            adventure: str | None = None, decisions: Decisions | None = None) -> "State":
        """A fresh first case (``campaign.new_record``: A000's 1d6 unless ``adventure``),
        every die of it, from the start on, drawn from one ``random.Random(seed)``."""
        data = data or load_campaign()
        rng = random.Random(seed)
        rec = new_record(data, adventure, seed=rng.getrandbits(32))
        return cls(parse_record(rec, "new case", data), rng, decisions)

    def clone(self) -> "State":
        """An independent copy, its ``rng`` in the same state (so it plays on the same)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        other = State(self.cf, rng, self.world.policy)
        other.case, other.phase, other.waited = self.case, self.phase, self.waited
        other.world.log = list(self.log)
        other.world.luck_spent = self.luck_spent
        return other

    # -- queries
    @property
    def ctx(self) -> Context:
        return self.cf.ctx

    @property
    def log(self) -> list[str]:
        return self.world.log

    @property
    def luck_spent(self) -> int:
        return self.world.luck_spent

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int | None:
        """The solo player (0) while the case runs, None once it is over."""
        return None if self.is_over() else PLAYER

    def is_over(self) -> bool:
        return self.case.over

    def is_chance_node(self) -> bool:
        """At a chance point: the Encounter Matrix's 2d6 is to be rolled (phase encounter)."""
        return not self.is_over() and self.phase == "encounter"

    def winner(self) -> int | None:
        """0 (the player) once the case is won (the Villain arrested or killed), else None."""
        return PLAYER if self.case.won else None

    def returns(self) -> list[float]:
        """The player's return: 1.0 for a won case, 0.0 otherwise (so far)."""
        return [1.0 if self.case.won else 0.0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance point, ``[(natural 2d6 total, probability), ...]``; else empty."""
        return list(ENCOUNTER_ROLLS) if self.is_chance_node() else []

    def legal_actions(self) -> list:
        """The Actions legal now, or at a chance point the 2d6 totals; empty once over."""
        if self.is_over():
            return []
        if self.is_chance_node():
            return [s for s, _ in ENCOUNTER_ROLLS]
        return E.legal_actions(self.ctx, self.case)

    # -- play
    def apply(self, action) -> None:
        """Play ``action`` (an Action's name; at a chance point, the Encounter Matrix's
        natural 2d6 total) and the rest of the turn; ``InputError`` (nothing changed) if it
        is not legal now."""
        if self.is_over():
            raise InputError(f"the case is over ({outcome_text(self.case.outcome)})",
                             field="action")
        w = self.world
        if self.is_chance_node():
            if type(action) is not int or action not in dict(ENCOUNTER_ROLLS):
                raise InputError(f"the Encounter Matrix's 2d6 is to be rolled: expected a "
                                 f"total 2-12, got {action!r}", field="action")
            w.given.append(action)
            case, waited = self.case, self.waited
        else:
            case, waited = play_action(w, self.case, action)
        self.case = play_encounter(w, case, waited)
        self.phase, self.waited = "action", False

    def sample_chance(self) -> int:
        """A chance outcome drawn from the State's own ``rng`` (a natural 2d6 total)."""
        return self.world.roll_2d6()

    # -- what the player sees
    def observation(self, player: int = PLAYER) -> dict:
        """The case record as the solo player keeps it (JSON-ready; ``log``: the record's
        lines and what happened since)."""
        if player != PLAYER:
            raise InputError(f"the Detective Story Game is played solo: player {PLAYER} only, "
                             f"not {player!r}", field="player")
        return case_to_record(self.cf, self.case, self.phase, self.waited, log=self.log)


def new_game(seed: int) -> State:
    """A fresh first case of the shipped campaign, every die drawn from ``seed``."""
    return State.new(seed)


def read_observation(observation: dict) -> dict:
    """An observation (a case record of the shipped campaign) read and written back."""
    cf = parse_record(observation, "observation", load_campaign())
    return case_to_record(cf, cf.case, cf.phase, cf.waited)


# ----------------------------------------------------------------------------- a whole case
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


def play_case(ctx: Context, case: Case, policy: Policy, rng: random.Random,
              phase: str = "action", waited: bool = False, log: bool = False) -> Played:
    """Play from ``case`` (at ``phase``) to the end of the case with ``policy`` and ``rng``."""
    w = Sampler(rng, policy, ctx, log)
    while not case.over:
        if phase == "action":
            case, waited = play_action(w, case, policy.action(w, case, E.legal_actions(ctx, case)))
        case = play_encounter(w, case, waited)
        phase, waited = "action", False
    return Played(case, case.turn, w.luck_spent, w.log)
