"""Sherlock 13 rules engine: actions, events, the public turn order and the full game state.

Facts of the game (rulebook, with what ../shared/specs/sherlock13.md fixes):

- 13 cards; one is the criminal. 3-4 players: the other 12 are dealt evenly. 2 players:
  three face-down cards in a row (the middle one is the criminal), 5 cards each.
- A turn is one action: ``Raise`` (3-4 players: every other player holding the icon raises
  a hand), ``Count`` (a target tells how many of an icon they hold), ``Accuse`` (wrong: the
  accuser is eliminated, skips turns, still answers; right: wins) or ``Exchange`` (2 players,
  replaces Raise: take the face-down card beside the criminal on one side, put a card from
  hand face up there; each side opens once).
- Expert: a player answers without the last card of their hand order, and at the start of
  each of their turns (skipped ones included) moves their first card to the last place; a
  card taken in an exchange takes the place of the card given.
- The game ends at a right accusation, or when all players but one are eliminated.

``State`` is the referee: it holds the hidden deal, applies actions (raising ``InputError``
for illegal ones) and writes each player's record (``State.record``; one event's JSON is
``event_to_json``). ``Turns`` is the public
part (whose turn, rotations, eliminations, open sides) that record replay shares with it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Union

from deduce.core.errors import InputError
from deduce.models.sherlock13.cards import (
    HAND_SIZE,
    ICON_MATRIX,
    ICONS,
    N_CARDS,
    N_ICONS,
    SUSPECTS,
)

VARIANTS = ("standard", "expert")
SIDES = ("left", "right")


# ----------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Raise:
    """Investigation 1 (3-4 players): who holds ``icon``?"""

    icon: int


@dataclass(frozen=True)
class Count:
    """Investigation 2: how many ``icon`` does ``target`` hold?"""

    target: int
    icon: int


@dataclass(frozen=True)
class Accuse:
    suspect: int


@dataclass(frozen=True)
class Exchange:
    """2 players: take the face-down card at ``side``, put ``reveal`` (from hand) face up there."""

    side: str
    reveal: int


Action = Union[Raise, Count, Accuse, Exchange]


# ----------------------------------------------------------------------------- events
@dataclass(frozen=True)
class RaiseEvent:
    actor: int
    icon: int
    raised: frozenset[int]


@dataclass(frozen=True)
class CountEvent:
    actor: int
    target: int
    icon: int
    count: int


@dataclass(frozen=True)
class AccuseEvent:
    actor: int
    suspect: int
    correct: bool


@dataclass(frozen=True)
class ExchangeEvent:
    actor: int
    side: str
    revealed: int
    took: int | None = None  # only known to the actor


Event = Union[RaiseEvent, CountEvent, AccuseEvent, ExchangeEvent]


def describe_action(action: Action, names: list[str]) -> str:
    """A short human text of an action, e.g. ``count Ben skull``."""
    if isinstance(action, Raise):
        return f"raise {ICONS[action.icon]}"
    if isinstance(action, Count):
        return f"count {names[action.target]} {ICONS[action.icon]}"
    if isinstance(action, Accuse):
        return f"accuse {SUSPECTS[action.suspect]}"
    return f"exchange {action.side} revealing {SUSPECTS[action.reveal]}"


def action_of(event: Event) -> Action:
    """The action that produced ``event`` (the question without its answer)."""
    if isinstance(event, RaiseEvent):
        return Raise(event.icon)
    if isinstance(event, CountEvent):
        return Count(event.target, event.icon)
    if isinstance(event, AccuseEvent):
        return Accuse(event.suspect)
    return Exchange(event.side, event.revealed)


def event_to_json(event: Event, names: list[str], viewer: int | None = None) -> dict:
    """The spec JSON of one event; ``took`` only when ``viewer`` is the actor."""
    actor = names[event.actor]
    if isinstance(event, RaiseEvent):
        return {"actor": actor, "action": "raise", "icon": ICONS[event.icon],
                "raised": [names[s] for s in sorted(event.raised)]}
    if isinstance(event, CountEvent):
        return {"actor": actor, "action": "count", "target": names[event.target],
                "icon": ICONS[event.icon], "count": event.count}
    if isinstance(event, AccuseEvent):
        return {"actor": actor, "action": "accuse", "suspect": SUSPECTS[event.suspect],
                "correct": event.correct}
    out = {"actor": actor, "action": "exchange", "side": event.side,
           "revealed": SUSPECTS[event.revealed]}
    if viewer == event.actor and event.took is not None:
        out["took"] = SUSPECTS[event.took]
    return out


# ----------------------------------------------------------------------------- turns
@dataclass
class Turns:
    """The public course of play: whose turn, turn starts per seat, eliminations, open sides.

    ``rotations[s]`` counts the turns seat ``s`` has started (skipped ones included); in the
    expert variant that is how often their first card went to the back.
    ``exchanges[s]`` counts the exchanges seat ``s`` has made (2 players).
    """

    n: int
    current: int = 0
    rotations: list[int] = field(default_factory=list)
    exchanges: list[int] = field(default_factory=list)
    eliminated: set[int] = field(default_factory=set)
    open_sides: set[str] = field(default_factory=set)
    over: bool = False
    winner: int | None = None

    def __post_init__(self):
        if not self.rotations:
            self.rotations = [0] * self.n
            self.rotations[0] = 1  # the first player's turn has started
        if not self.exchanges:
            self.exchanges = [0] * self.n

    def copy(self) -> "Turns":
        return Turns(
            self.n, self.current, list(self.rotations), list(self.exchanges),
            set(self.eliminated), set(self.open_sides), self.over, self.winner,
        )

    def legal_kinds(self) -> list[str]:
        """Action kinds open to the current player."""
        if self.over:
            return []
        kinds = ["count", "accuse"]
        if self.n >= 3:
            kinds.insert(0, "raise")
        elif len(self.open_sides) < 2:
            kinds.insert(0, "exchange")
        return kinds

    def record(self, event: Event) -> None:
        """Account for ``event`` (already checked legal) and pass the turn."""
        if isinstance(event, AccuseEvent):
            if event.correct:
                self.over, self.winner = True, event.actor
                return
            self.eliminated.add(event.actor)
            active = [s for s in range(self.n) if s not in self.eliminated]
            if len(active) == 1:
                self.over, self.winner = True, active[0]
                return
        elif isinstance(event, ExchangeEvent):
            self.open_sides.add(event.side)
            self.exchanges[event.actor] += 1
        self._advance()

    def _advance(self) -> None:
        seat = self.current
        while True:
            seat = (seat + 1) % self.n
            self.rotations[seat] += 1
            if seat not in self.eliminated:
                self.current = seat
                return

    def next_turn_of(self, seat: int) -> dict[int, int] | None:
        """Rotations of every seat when ``seat`` next starts a turn, or None if it never will.

        If ``seat`` is the current player, that is now (a question asked this turn).
        """
        if self.over or seat in self.eliminated:
            return None
        rot = list(self.rotations)
        s = self.current
        while s != seat:
            s = (s + 1) % self.n
            rot[s] += 1
        return dict(enumerate(rot))


# ----------------------------------------------------------------------------- helpers
def answering_cards(hand: list[int], variant: str) -> list[int]:
    """The cards a player answers with: all, or all but the last in the expert variant."""
    return hand[:-1] if variant == "expert" else list(hand)


def check_action_shape(action: Action, n: int, actor: int, turns: Turns) -> None:
    """Raise ``InputError`` if ``action`` is not legal for ``actor`` by the public rules.

    The error's ``field`` attribute names the record field at fault (``action``, ``actor``,
    ``icon``, ``target``, ``suspect`` or ``side``) so a record can point at it.
    """
    if turns.over:
        raise _illegal("the game is over", "action")
    if actor != turns.current:
        raise _illegal(f"not seat {actor}'s turn (seat {turns.current} is to play)", "actor")
    if isinstance(action, Raise):
        if n == 2:
            raise _illegal("raise is not played with 2 players (exchange replaces it)", "action")
        _check_icon(action.icon)
    elif isinstance(action, Count):
        _check_icon(action.icon)
        if not 0 <= action.target < n or action.target == actor:
            raise _illegal("a count question targets another player", "target")
    elif isinstance(action, Accuse):
        if not 0 <= action.suspect < N_CARDS:
            raise _illegal(f"no suspect {action.suspect}", "suspect")
    elif isinstance(action, Exchange):
        if n != 2:
            raise _illegal("exchange is only played with 2 players", "action")
        if action.side not in SIDES:
            raise _illegal(f"side must be left or right, not {action.side!r}", "side")
        if action.side in turns.open_sides:
            raise _illegal(f"the {action.side} card is already face up", "side")
    else:
        raise _illegal(f"unknown action {action!r}", "action")


def _illegal(message: str, field_name: str) -> InputError:
    return InputError(message, field=field_name)


def _check_icon(icon: int) -> None:
    if not 0 <= icon < N_ICONS:
        raise _illegal(f"no icon {icon}", "icon")


# ----------------------------------------------------------------------------- state
@dataclass
class State:
    """A whole game with every hidden card known: the referee.

    ``hands[s]`` is seat ``s``'s hand in its current order (first card first).
    ``sides`` maps each closed side to its face-down card (2 players); ``face_up`` each open
    side to the card put there.
    """

    variant: str
    hands: list[list[int]]
    criminal: int
    sides: dict[str, int]
    start_hands: list[list[int]]
    turns: Turns
    face_up: dict[str, int] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)

    # -- construction
    @classmethod
    def deal(cls, n_players: int, variant: str, rng: random.Random) -> "State":
        """Shuffle and deal with ``rng`` (the only source of chance)."""
        if n_players not in HAND_SIZE:
            raise InputError(f"Sherlock 13 is played by 2, 3 or 4 players, not {n_players}")
        if variant not in VARIANTS:
            raise InputError(f"variant must be standard or expert, not {variant!r}")
        deck = list(range(N_CARDS))
        rng.shuffle(deck)
        h = HAND_SIZE[n_players]
        if n_players == 2:
            left, criminal, right = deck[:3]
            sides = {"left": left, "right": right}
            rest = deck[3:]
        else:
            criminal, sides, rest = deck[0], {}, deck[1:]
        hands = [rest[i * h:(i + 1) * h] for i in range(n_players)]
        return cls.from_deal(variant, hands, criminal, sides)

    @classmethod
    def from_deal(cls, variant: str, hands: list[list[int]], criminal: int,
                  sides: dict[str, int] | None = None) -> "State":
        """A game at its first turn from a given deal (hands in starting order)."""
        n = len(hands)
        st = cls(variant, [list(h) for h in hands], criminal, dict(sides or {}),
                 [list(h) for h in hands], Turns(n))
        if variant == "expert":
            st._rotate(0)
        return st

    # -- queries
    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def current(self) -> int:
        return self.turns.current

    def is_over(self) -> bool:
        return self.turns.over

    def winner(self) -> int | None:
        return self.turns.winner

    def answer_count(self, seat: int, icon: int) -> int:
        return int(sum(ICON_MATRIX[c, icon] for c in answering_cards(self.hands[seat], self.variant)))

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player (empty when the game is over)."""
        acts: list[Action] = []
        me = self.current
        for kind in self.turns.legal_kinds():
            if kind == "raise":
                acts += [Raise(i) for i in range(N_ICONS)]
            elif kind == "count":
                acts += [Count(t, i) for t in range(self.n) if t != me for i in range(N_ICONS)]
            elif kind == "exchange":
                acts += [Exchange(s, c) for s in SIDES if s not in self.turns.open_sides
                         for c in self.hands[me]]
            elif kind == "accuse":
                acts += [Accuse(c) for c in range(N_CARDS)]
        return acts

    # -- play
    def apply(self, action: Action) -> Event:
        """Play ``action`` for the current player; returns the event with its public answer."""
        actor = self.current
        check_action_shape(action, self.n, actor, self.turns)
        if isinstance(action, Raise):
            raised = frozenset(s for s in range(self.n)
                               if s != actor and self.answer_count(s, action.icon) > 0)
            event: Event = RaiseEvent(actor, action.icon, raised)
        elif isinstance(action, Count):
            event = CountEvent(actor, action.target, action.icon,
                               self.answer_count(action.target, action.icon))
        elif isinstance(action, Accuse):
            event = AccuseEvent(actor, action.suspect, action.suspect == self.criminal)
        else:
            hand = self.hands[actor]
            if action.reveal not in hand:
                raise InputError(f"{SUSPECTS[action.reveal]} is not in the actor's hand")
            took = self.sides.pop(action.side)
            hand[hand.index(action.reveal)] = took
            self.face_up[action.side] = action.reveal
            event = ExchangeEvent(actor, action.side, action.reveal, took)
        self.events.append(event)
        before = self.turns.rotations.copy()
        self.turns.record(event)
        if self.variant == "expert":
            for s in range(self.n):
                for _ in range(self.turns.rotations[s] - before[s]):
                    self._rotate(s)
        return event

    def _rotate(self, seat: int) -> None:
        hand = self.hands[seat]
        hand.append(hand.pop(0))

    # -- observations
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int | None:
        """The seat to move (None once the game is over)."""
        return None if self.is_over() else self.current

    def clone(self) -> "State":
        """An independent copy of the whole game."""
        import copy

        return copy.deepcopy(self)

    def observation(self, player: int) -> dict:
        """What ``player`` sees: their game record (spec JSON, ``record``)."""
        if not isinstance(player, int) or not 0 <= player < self.n:
            raise InputError(f"no player {player!r}: seats 0 to {self.n - 1}", field="player")
        return self.record(player)

    def record(self, seat: int, names: list[str] | None = None) -> dict:
        """The game record (spec JSON) as seen by ``seat``: public events plus own hand/took."""
        names = names or default_names(self.n)
        return {
            "game": "sherlock13",
            "variant": self.variant,
            "players": list(names),
            "me": names[seat],
            "hand": [SUSPECTS[c] for c in self.start_hands[seat]],
            "events": [event_to_json(e, names, viewer=seat) for e in self.events],
        }


def new_game(seed: int, players: int = 4, variant: str = "standard") -> State:
    """A game dealt from ``random.Random(seed)``, its only chance."""
    return State.deal(players, variant, random.Random(seed))


def default_names(n: int) -> list[str]:
    """Seat names used when none are given: Ann, Ben, Cat, Dan."""
    return ["Ann", "Ben", "Cat", "Dan"][:n]
