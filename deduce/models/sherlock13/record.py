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

Checking, field by field (every message names the field; a value of the wrong JSON type,
``true`` for a number included, is refused naming the type it has):

- ``game`` must be ``"sherlock13"``; a Detective Story case record, a record of another
  game, a record without ``game`` and a JSON value that is not an object are each named
  as what they are.
- Player names (decision): a name is any string of at most ``MAX_NAME`` characters that
  has a letter or a digit and no line break; names must differ once case, spaces and
  punctuation are ignored (the alias rule would make them ambiguous). Everything else is
  kept as written (console markup such as ``[bold]``, control characters such as
  ``\x1b[2J``) and every human output shows it literally, control characters as escapes.
- A ``count`` is a whole number from 0 to ``MAX_COUNT`` (no hand ever holds more cards);
  one that no deal allows (3 skulls in a 3-card hand without them) is a contradiction.

The setup checks (``check_variant``, ``check_players``, ``check_me``, ``check_hand``) are
also what live table mode asks with, one answer at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from deduce.core.errors import InputError
from deduce.core.games import refuse_other_game
from deduce.core.names import normalise, resolve
from deduce.core.records import json_kind, read_json, write_json_atomic
from deduce.models.sherlock13.cards import HAND_SIZE, ICONS, SUSPECTS, icon_index, suspect_index
from deduce.models.sherlock13.rules import (
    SIDES,
    VARIANTS,
    AccuseEvent,
    CountEvent,
    Event,
    ExchangeEvent,
    RaiseEvent,
    Turns,
    action_of,
    check_action_shape,
    event_to_json,
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


# ----------------------------------------------------------------------------- JSON
_EVENT_FIELDS = {
    "raise": {"actor", "action", "icon", "raised"},
    "count": {"actor", "action", "target", "icon", "count"},
    "accuse": {"actor", "action", "suspect", "correct"},
    "exchange": {"actor", "action", "side", "revealed", "took"},
}
_OPTIONAL = {"took"}
_TOP_FIELDS = ("game", "variant", "players", "me", "hand", "events")

#: the longest player name, in characters
MAX_NAME = 64
#: the largest count an event may give: no hand ever holds more than 5 cards
MAX_COUNT = max(HAND_SIZE.values())
_LINE_BREAKS = ("\n", "\u2028", "\u2029")


def _at(where: str, key: str) -> str:
    return f"{where}, field {key!r}"


def _string(value: Any, what: str, where: str) -> str:
    """``value`` if it is a string; ``InputError`` at ``where`` naming its type otherwise."""
    if not isinstance(value, str):
        raise InputError(f"expected {what} (a string), got {json_kind(value)}", where=where)
    return value


def _list(value: Any, what: str, where: str) -> list:
    if not isinstance(value, list):
        raise InputError(f"expected a list of {what}, got {json_kind(value)}", where=where)
    return value


def event_from_json(data: Any, names: list[str], where: str) -> Event:
    """A typed event from its spec JSON; ``InputError`` naming the field otherwise."""
    if not isinstance(data, dict):
        raise InputError(f"an event is a JSON object, got {json_kind(data)}", where=where)
    if "action" not in data:
        raise InputError("missing field (raise, count, accuse or exchange)",
                         where=_at(where, "action"))
    action = _string(data["action"], "an action: raise, count, accuse or exchange",
                     _at(where, "action"))
    action = resolve(action, list(_EVENT_FIELDS), "action", where=_at(where, "action"))
    allowed = _EVENT_FIELDS[action]
    for key in data:
        if key not in allowed:
            raise InputError(f"unknown field for a {action} event (allowed: {', '.join(sorted(allowed))})",
                             where=_at(where, key))
    for key in sorted(allowed - _OPTIONAL):
        if key not in data:
            raise InputError(f"missing field for a {action} event", where=_at(where, key))

    def player(value, key: str) -> int:
        text = _string(value, "a player name", _at(where, key))
        return names.index(resolve(text, names, "player", where=_at(where, key)))

    def card(key: str) -> int:
        return suspect_index(_string(data[key], "a suspect name", _at(where, key)),
                             where=_at(where, key))

    def icon() -> int:
        return icon_index(_string(data["icon"], "an icon name", _at(where, "icon")),
                          where=_at(where, "icon"))

    actor = player(data["actor"], "actor")
    if action == "raise":
        raised = _list(data["raised"], "player names", _at(where, "raised"))
        seats = [player(r, "raised") for r in raised]
        if len(set(seats)) != len(seats):
            raise InputError("a player is listed twice", where=_at(where, "raised"))
        return RaiseEvent(actor, icon(), frozenset(seats))
    if action == "count":
        n = data["count"]
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_COUNT:
            raise InputError(f"expected a whole number from 0 to {MAX_COUNT} (no hand holds "
                             f"more cards), got {json_kind(n)}", where=_at(where, "count"))
        return CountEvent(actor, player(data["target"], "target"), icon(), n)
    if action == "accuse":
        correct = data["correct"]
        if not isinstance(correct, bool):
            raise InputError(f"expected true or false, got {json_kind(correct)}",
                             where=_at(where, "correct"))
        return AccuseEvent(actor, card("suspect"), correct)
    side = resolve(_string(data["side"], "a side: left or right", _at(where, "side")), SIDES,
                   "side", where=_at(where, "side"))
    return ExchangeEvent(actor, side, card("revealed"),
                         None if data.get("took") is None else card("took"))


# ----------------------------------------------------------------------------- setup
def check_variant(value: Any, where: str = "record") -> str:
    """The canonical variant (``standard`` or ``expert``, aliases allowed)."""
    text = _string(value, "standard or expert", _at(where, "variant"))
    return resolve(text, VARIANTS, "variant", where=_at(where, "variant"))


def check_player_name(value: Any, where: str) -> str:
    """``value`` if it is a player name by the rule of this module's docstring."""
    name = _string(value, "a player name", where)
    if not normalise(name):
        raise InputError(f"a player name needs a letter or a digit, got {name!r}", where=where)
    if len(name) > MAX_NAME:
        raise InputError(f"a player name has at most {MAX_NAME} characters (the cap), "
                         f"got {len(name):,}", where=where)
    if any(b in name for b in _LINE_BREAKS):
        raise InputError(f"a player name is one line, got {name!r}", where=where)
    return name


def check_players(value: Any, where: str = "record") -> list[str]:
    """2, 3 or 4 distinct player names in seating order."""
    place = _at(where, "players")
    names = [check_player_name(p, place) for p in _list(value, "player names", place)]
    if len(names) not in HAND_SIZE:
        raise InputError(f"Sherlock 13 is played by 2, 3 or 4 players, not {len(names)}",
                         where=place)
    seen: dict[str, str] = {}
    for name in names:
        if normalise(name) in seen:
            raise InputError(f"player names must differ: {seen[normalise(name)]!r} and "
                             f"{name!r} are the same name to the alias rule", where=place)
        seen[normalise(name)] = name
    return names


def check_me(value: Any, names: list[str], where: str = "record") -> int:
    """My seat: ``value`` names one of ``names`` (aliases allowed)."""
    text = _string(value, "a player name", _at(where, "me"))
    return names.index(resolve(text, names, "player", where=_at(where, "me")))


def check_hand(value: Any, n: int, where: str = "record") -> tuple[int, ...]:
    """My starting hand: ``HAND_SIZE[n]`` distinct suspects (aliases allowed), in order."""
    place = _at(where, "hand")
    cards = tuple(suspect_index(_string(c, "a suspect name", place), where=place)
                  for c in _list(value, "suspect names", place))
    size = HAND_SIZE[n]
    if len(cards) != size:
        raise InputError(f"with {n} players a hand has {size} cards, not {len(cards)}",
                         where=place)
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise InputError(f"a card is listed twice: {SUSPECTS[twice]}", where=place)
    return cards


def new_record(variant: str, names: list[str], me: str, hand: list[str], source: str = "record") -> Record:
    """An empty record after checking the setup (names, hand size, aliases resolved)."""
    variant = check_variant(variant, source)
    names = check_players(names, source)
    seat = check_me(me, names, source)
    return Record(variant, list(names), seat, check_hand(hand, len(names), source), source=source)


def _check_game(data: dict, source: str) -> None:
    """``InputError`` unless ``data`` says it is a Sherlock 13 record; a record of another
    game (a Detective Story case record above all) is named as such."""
    game = data.get("game")
    if game == "sherlock13":
        return
    refuse_other_game(data, "sherlock13", source, _at(source, "game"))
    if "game" not in data:
        strange = [k for k in data if k not in _TOP_FIELDS]
        if strange:
            raise InputError(f"not a Sherlock 13 record: no field 'game' and fields it does not "
                             f"have ({', '.join(map(repr, strange[:5]))})", where=source)
        raise InputError('missing field (a Sherlock 13 record has "game": "sherlock13")',
                         where=_at(source, "game"))
    raise InputError(f'expected "sherlock13", got {json_kind(game)}', where=_at(source, "game"))


def parse_record(data: Any, source: str = "record") -> Record:
    """A validated ``Record`` from the spec JSON (already parsed)."""
    if not isinstance(data, dict):
        raise InputError(f"not a Sherlock 13 record: a record is a JSON object, and this "
                         f"file holds {json_kind(data)}", where=source)
    _check_game(data, source)
    for key in data:
        if key not in _TOP_FIELDS:
            raise InputError(f"unknown field (allowed: {', '.join(sorted(_TOP_FIELDS))})",
                             where=_at(source, key))
    for key in ("variant", "players", "me", "hand"):
        if key not in data:
            raise InputError("missing field", where=_at(source, key))
    rec = new_record(data["variant"], data["players"], data["me"], data["hand"], source=source)
    events = _list(data.get("events", []), "events", _at(source, "events"))
    for i, ev in enumerate(events):
        rec.add(event_from_json(ev, rec.names, where=f"{source}: event {i}"))
    return rec


def read_observation(observation: dict) -> dict:
    """An observation (``rules.State.observation``: a record) read and written back."""
    return parse_record(observation, source="observation").to_json()


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
