"""The Sherlock 13 game record (spec JSON): parsing, validation by replay, and facts.

``load_record(path)`` / ``parse_record(data)`` give a ``Record``: the setup, the typed
events, the public ``Turns`` after them, and what each event tells as ``Fact`` objects.
Everything malformed, out of turn or illegal is an ``InputError`` naming the file, the
event index and the field. Whether the facts can all hold is the knowledge model's
question, not this module's.

Facts (the information an event carries, droppable one event at a time for explanations):

- ``IconFact(view, icon, lo, hi)``: the answering cards of a hand at ``view`` hold between
  ``lo`` and ``hi`` of ``icon`` (raise: ``>= 1`` or ``0``; count: exactly ``n``).
- ``CriminalFact(card, is_criminal)``: an accusation's verdict.
- ``HoldsFact(view, card)``: a 2-player exchange revealed ``card`` from that hand.
- ``SideFact(side, card)``: I took ``card`` from the face-down place at ``side``.

Structure (never dropped: the turn is taken whatever it tells) is the turn order, the
rotations, the eliminations and the ``ExchangeStep``s: after a step, the card at ``side``
takes the hand slot of ``revealed`` (an exchange of a card not in the hand changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from deduce.core.errors import InputError
from deduce.core.names import normalise, resolve
from deduce.core.records import read_json, write_json_atomic
from deduce.models.sherlock13.cards import HAND_SIZE, ICONS, SUSPECTS, icon_index, suspect_index
from deduce.models.sherlock13.rules import (
    SIDES,
    VARIANTS,
    Accuse,
    AccuseEvent,
    Count,
    CountEvent,
    Event,
    Exchange,
    ExchangeEvent,
    Raise,
    RaiseEvent,
    Turns,
    check_action_shape,
)


# ----------------------------------------------------------------------------- facts
@dataclass(frozen=True)
class View:
    """A hand as it answers at one moment: seat, turns started so far, exchanges made so far."""

    seat: int
    rotation: int
    epoch: int


@dataclass(frozen=True)
class IconFact:
    view: View
    icon: int
    lo: int
    hi: int


@dataclass(frozen=True)
class CriminalFact:
    card: int
    is_criminal: bool


@dataclass(frozen=True)
class HoldsFact:
    view: View
    card: int


@dataclass(frozen=True)
class SideFact:
    side: str
    card: int


Fact = Union[IconFact, CriminalFact, HoldsFact, SideFact]


@dataclass(frozen=True)
class ExchangeStep:
    """Seat ``seat``'s exchange number ``epoch`` (0 or 1) put ``revealed`` face up at ``side``."""

    seat: int
    epoch: int
    side: str
    revealed: int


# ----------------------------------------------------------------------------- record
@dataclass
class Record:
    """A validated record: setup, events, and the replayed public state and facts."""

    variant: str
    names: list[str]
    me: int
    hand: tuple[int, ...]
    events: list[Event] = field(default_factory=list)
    turns: Turns = None  # type: ignore[assignment]
    facts: list[tuple[int, Fact]] = field(default_factory=list)
    steps: list[ExchangeStep] = field(default_factory=list)
    source: str = "record"

    def __post_init__(self):
        if self.turns is None:
            self.turns = Turns(len(self.names))

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.n]

    def facts_of(self, index: int) -> list[Fact]:
        """The facts event ``index`` tells."""
        return [f for i, f in self.facts if i == index]

    def my_current_hand(self) -> list[int]:
        """My hand now, in slot order (cards taken in exchanges in the slot of those given)."""
        hand = list(self.hand)
        for e in self.events:
            if isinstance(e, ExchangeEvent) and e.actor == self.me:
                hand[hand.index(e.revealed)] = e.took
        return hand

    def view_now(self, seat: int) -> View:
        return View(seat, self.turns.rotations[seat], self.turns.exchanges[seat])

    def next_turn_views(self) -> dict[int, View] | None:
        """Each seat's view when I next start a turn, or None if I never will."""
        rot = self.turns.next_turn_of(self.me)
        if rot is None:
            return None
        return {s: View(s, rot[s], self.turns.exchanges[s]) for s in range(self.n)}

    # -- adding events
    def add(self, event: Event) -> None:
        """Append a typed event after checking it is legal now; ``InputError`` otherwise."""
        index = len(self.events)
        where = f"{self.source}: event {index}"
        turns = self.turns
        try:
            check_action_shape(action_of(event), self.n, event.actor, turns)
        except InputError as exc:
            if event.actor != turns.current and not turns.over:
                raise InputError(
                    f"out of turn: {self.names[event.actor]} acted but it is "
                    f"{self.names[turns.current]}'s turn", where=where + ", field 'actor'"
                ) from None
            place = where + (f", field {exc.field!r}" if exc.field else "")
            raise InputError(str(exc), where=place) from None
        facts: list[Fact] = []
        if isinstance(event, RaiseEvent):
            if event.actor in event.raised:
                raise InputError("the asker does not raise a hand", where=where + ", field 'raised'")
            for s in range(self.n):
                if s != event.actor:
                    up = s in event.raised
                    facts.append(IconFact(self.view_now(s), event.icon, 1 if up else 0, 99 if up else 0))
        elif isinstance(event, CountEvent):
            if event.count < 0:
                raise InputError("a count is a whole number >= 0", where=where + ", field 'count'")
            facts.append(IconFact(self.view_now(event.target), event.icon, event.count, event.count))
        elif isinstance(event, AccuseEvent):
            facts.append(CriminalFact(event.suspect, event.correct))
        elif isinstance(event, ExchangeEvent):
            epoch = turns.exchanges[event.actor]
            if event.actor == self.me:
                if event.took is None:
                    raise InputError("my own exchange needs the card I took", where=where + ", field 'took'")
                mine = self.my_current_hand()
                if event.revealed not in mine:
                    raise InputError(f"{SUSPECTS[event.revealed]} is not in my hand now",
                                     where=where + ", field 'revealed'")
                facts.append(SideFact(event.side, event.took))
            else:
                if event.took is not None:
                    raise InputError("only the actor sees the card taken; leave 'took' out",
                                     where=where + ", field 'took'")
                facts.append(HoldsFact(self.view_now(event.actor), event.revealed))
            self.steps.append(ExchangeStep(event.actor, epoch, event.side, event.revealed))
        self.events.append(event)
        self.facts.extend((index, f) for f in facts)
        turns.record(event)

    def to_json(self) -> dict:
        return {
            "game": "sherlock13",
            "variant": self.variant,
            "players": list(self.names),
            "me": self.names[self.me],
            "hand": [SUSPECTS[c] for c in self.hand],
            "events": [event_to_json(e, self.names, viewer=self.me) for e in self.events],
        }

    def save(self, path: str | Path) -> None:
        write_json_atomic(path, self.to_json())


def action_of(event: Event):
    """The action that produced ``event`` (the question without its answer)."""
    if isinstance(event, RaiseEvent):
        return Raise(event.icon)
    if isinstance(event, CountEvent):
        return Count(event.target, event.icon)
    if isinstance(event, AccuseEvent):
        return Accuse(event.suspect)
    return Exchange(event.side, event.revealed)


# ----------------------------------------------------------------------------- JSON
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


_EVENT_FIELDS = {
    "raise": {"actor", "action", "icon", "raised"},
    "count": {"actor", "action", "target", "icon", "count"},
    "accuse": {"actor", "action", "suspect", "correct"},
    "exchange": {"actor", "action", "side", "revealed", "took"},
}
_OPTIONAL = {"took"}


def event_from_json(data: Any, names: list[str], where: str) -> Event:
    """A typed event from its spec JSON; ``InputError`` naming the field otherwise."""
    if not isinstance(data, dict):
        raise InputError("an event is a JSON object", where=where)
    action = data.get("action")
    if not isinstance(action, str):
        raise InputError("missing 'action' (raise, count, accuse or exchange)", where=where)
    action = resolve(action, list(_EVENT_FIELDS), "action", where=where + ", field 'action'")
    allowed = _EVENT_FIELDS[action]
    for key in data:
        if key not in allowed:
            raise InputError(f"unknown field for a {action} event (allowed: {', '.join(sorted(allowed))})",
                             where=f"{where}, field {key!r}")
    for key in allowed - _OPTIONAL:
        if key not in data:
            raise InputError(f"missing field for a {action} event", where=f"{where}, field {key!r}")

    def player(key: str) -> int:
        return names.index(resolve(_str(data[key], key), names, "player", where=f"{where}, field {key!r}"))

    def _str(value, key):
        if not isinstance(value, str):
            raise InputError("expected a name (string)", where=f"{where}, field {key!r}")
        return value

    actor = player("actor")
    if action == "raise":
        raised = data["raised"]
        if not isinstance(raised, list):
            raise InputError("expected a list of player names", where=f"{where}, field 'raised'")
        seats = [names.index(resolve(_str(r, "raised"), names, "player", where=f"{where}, field 'raised'"))
                 for r in raised]
        if len(set(seats)) != len(seats):
            raise InputError("a player is listed twice", where=f"{where}, field 'raised'")
        return RaiseEvent(actor, icon_index(_str(data["icon"], "icon"), where=f"{where}, field 'icon'"),
                          frozenset(seats))
    if action == "count":
        n = data["count"]
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InputError("expected a whole number >= 0", where=f"{where}, field 'count'")
        return CountEvent(actor, player("target"),
                          icon_index(_str(data["icon"], "icon"), where=f"{where}, field 'icon'"), n)
    if action == "accuse":
        correct = data["correct"]
        if not isinstance(correct, bool):
            raise InputError("expected true or false", where=f"{where}, field 'correct'")
        return AccuseEvent(actor, suspect_index(_str(data["suspect"], "suspect"),
                                                where=f"{where}, field 'suspect'"), correct)
    side = resolve(_str(data["side"], "side"), SIDES, "side", where=f"{where}, field 'side'")
    took = data.get("took")
    return ExchangeEvent(
        actor, side,
        suspect_index(_str(data["revealed"], "revealed"), where=f"{where}, field 'revealed'"),
        None if took is None else suspect_index(_str(took, "took"), where=f"{where}, field 'took'"),
    )


def new_record(variant: str, names: list[str], me: str, hand: list[str], source: str = "record") -> Record:
    """An empty record after checking the setup (names, hand size, aliases resolved)."""
    where = source
    if not isinstance(variant, str):
        raise InputError("expected standard or expert", where=f"{where}, field 'variant'")
    variant = resolve(variant, VARIANTS, "variant", where=f"{where}, field 'variant'")
    if not isinstance(names, list) or not all(isinstance(p, str) and normalise(p) for p in names):
        raise InputError("expected a list of player names (letters or digits)",
                         where=f"{where}, field 'players'")
    if len(names) not in HAND_SIZE:
        raise InputError(f"Sherlock 13 is played by 2, 3 or 4 players, not {len(names)}",
                         where=f"{where}, field 'players'")
    if len({normalise(p) for p in names}) != len(names):
        raise InputError("player names must differ", where=f"{where}, field 'players'")
    if not isinstance(me, str):
        raise InputError("expected a player name", where=f"{where}, field 'me'")
    seat = names.index(resolve(me, names, "player", where=f"{where}, field 'me'"))
    if not isinstance(hand, list):
        raise InputError("expected a list of suspect names", where=f"{where}, field 'hand'")
    cards = tuple(suspect_index(c, where=f"{where}, field 'hand'") if isinstance(c, str)
                  else _bad_card(c, where) for c in hand)
    size = HAND_SIZE[len(names)]
    if len(cards) != size:
        raise InputError(f"with {len(names)} players a hand has {size} cards, not {len(cards)}",
                         where=f"{where}, field 'hand'")
    if len(set(cards)) != len(cards):
        raise InputError("a card is listed twice", where=f"{where}, field 'hand'")
    return Record(variant, list(names), seat, cards, source=source)


def _bad_card(value, where):
    raise InputError(f"expected a suspect name, got {value!r}", where=f"{where}, field 'hand'")


def parse_record(data: Any, source: str = "record") -> Record:
    """A validated ``Record`` from the spec JSON (already parsed)."""
    if not isinstance(data, dict):
        raise InputError("a record is a JSON object", where=source)
    known = {"game", "variant", "players", "me", "hand", "events"}
    for key in data:
        if key not in known:
            raise InputError(f"unknown field (allowed: {', '.join(sorted(known))})", where=f"{source}, field {key!r}")
    if data.get("game") != "sherlock13":
        raise InputError("expected \"sherlock13\"", where=f"{source}, field 'game'")
    for key in ("variant", "players", "me", "hand"):
        if key not in data:
            raise InputError("missing field", where=f"{source}, field {key!r}")
    rec = new_record(data["variant"], data["players"], data["me"], data["hand"], source=source)
    events = data.get("events", [])
    if not isinstance(events, list):
        raise InputError("expected a list of events", where=f"{source}, field 'events'")
    for i, ev in enumerate(events):
        rec.add(event_from_json(ev, rec.names, where=f"{source}: event {i}"))
    return rec


def load_record(path: str | Path) -> Record:
    """Read and validate a record file."""
    return parse_record(read_json(path), source=str(path))


def describe_event(event: Event, names: list[str]) -> str:
    """The event as the player entered it, e.g. ``Ann raise skull (raised: Cat)``."""
    actor = names[event.actor]
    if isinstance(event, RaiseEvent):
        who = ", ".join(names[s] for s in sorted(event.raised)) or "nobody"
        return f"{actor} raise {ICONS[event.icon]} (raised: {who})"
    if isinstance(event, CountEvent):
        return f"{actor} count {names[event.target]} {ICONS[event.icon]}: {event.count}"
    if isinstance(event, AccuseEvent):
        return f"{actor} accuse {SUSPECTS[event.suspect]}: {'right' if event.correct else 'wrong'}"
    text = f"{actor} exchange {event.side}, revealed {SUSPECTS[event.revealed]}"
    return text + (f", took {SUSPECTS[event.took]}" if event.took is not None else "")
