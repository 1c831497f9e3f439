"""Baker Street Irregulars' cards: a card set (the shipped one or a user's TOML file) of 100
Evidence cards in 5 decks, 40 Villains, 10 Inspectors, 12 Plot Twists and the solo Holmes
Track, in the format of the spec (../shared/specs/irregulars.md)::

    title = "The Fog Over Baker Street"

    [[evidence]]
    id = "E001"
    name = "A torn telegram"
    deck = 1                 # 1-5 for I-V
    type = "artifact"        # artifact, location, witness
    colour = "red"           # red, blue, gold, silver, black
    cost = 2                 # BSI tokens
    story = "3GAR"           # 4 letters or digits
    icons = ["scroll", "coins"]

    [[villain]]
    id = "V01"
    name = "Col. Sebastian Moran"
    icons = ["heart", "disguise", "gang", "blood"]
    points = 8

    [[inspector]]
    id = "gregson"
    name = "Inspector Gregson"
    objectives = [{ each = "type", type = "location", points = 1 },
                  { each = "colour", colour = "black", points = 2 },
                  { each = "story-pair", points = 5 }]

    [[plot_twist]]
    id = "SIXN"
    name = "The Six Napoleons"
    effect = "no-tailing"

    [solo]
    holmes_track = [0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0, 5, 0, 0, 3, 0]

Every set is checked on load (``parse_cards``); each problem is an ``InputError`` (exit 2)
naming the file, the card (its table and id) and the field. Decisions where the spec is
silent:

- the counts are the game's: exactly 100 Evidence (20 in each deck), 40 Villains, 10
  Inspectors, 12 Plot Twists; ids unique across the whole set (ignoring case, spaces and
  punctuation), 1 to ``MAX_NAME`` characters, as are names;
- ``type``, ``colour`` and the icons are read with the aliases of ``core.names.resolve``
  (``gold``/``yellow``, ``silver``/``white``, the rulebook's icon meanings: ``revenge``,
  ``love`` for ``heart``, ``greed`` for ``coins``, ...); written canonically;
- an Evidence card's ``cost`` is 0 to ``MAX_COST`` tokens; ``story`` is 4 letters or
  digits (stored upper-case); ``icons`` 1 or 2 different icons;
- a Villain has 2 to 9 different icons and is worth 1 to ``MAX_POINTS`` points;
- an Inspector has exactly 3 objectives in the spec's vocabulary (``OBJECTIVE_KINDS``),
  each worth 1 to ``MAX_POINTS`` points;
- a Plot Twist's ``effect`` is one of ``EFFECTS`` (an unknown name is an error naming the
  card);
- ``holmes_track`` has 19 spaces, each 0 (none) or a deck 1-5.

>>> resolve_icon("revenge"), resolve_icon("Prints"), resolve_colour("yellow")
('heart', 'print', 'gold')
>>> icon_mask(["heart", "blood"]) == (1 << 0) | (1 << 8)
True
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deduce.core import cardsets
from deduce.core.errors import InputError
from deduce.core.names import normalise, resolve
from deduce.core.records import check_fields, json_kind, parse_toml_text

# ----------------------------------------------------------------------------- facts
ICONS = ("heart", "skull", "coins", "scroll", "disguise", "song", "gang", "print", "blood")
#: the bit of each icon in an icon mask
ICON_BIT = {icon: 1 << i for i, icon in enumerate(ICONS)}
ALL_ICONS = (1 << len(ICONS)) - 1
ICON_ALIASES = {"revenge": "heart", "love": "heart", "death": "skull", "greed": "coins",
                "theft": "coins", "money": "coins", "codes": "scroll", "paper": "scroll",
                "secret": "song", "groups": "gang", "forensic": "print", "prints": "print",
                "wound": "blood"}
TYPES = ("artifact", "location", "witness")
COLOURS = ("red", "blue", "gold", "silver", "black")
COLOUR_ALIASES = {"yellow": "gold", "white": "silver", "color": "colour"}
DECKS = (1, 2, 3, 4, 5)
DECK_NUMERALS = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}

EVIDENCE_PER_DECK = 20
EVIDENCE_CARDS = EVIDENCE_PER_DECK * len(DECKS)
VILLAIN_CARDS = 40
INSPECTOR_CARDS = 10
PLOT_TWIST_CARDS = 12
OBJECTIVES_PER_INSPECTOR = 3
HOLMES_TRACK_SPACES = 19
VILLAIN_ICONS = (2, len(ICONS))
EVIDENCE_ICONS = (1, 2)
MAX_COST = 13
MAX_POINTS = 50
#: the longest id or name read from a file (characters)
MAX_NAME = 100
STORY = re.compile(r"[0-9A-Z]{4}")

#: objective kinds (``each``) and the field each one names (None: no field)
OBJECTIVE_KINDS = {"type": "type", "colour": "colour", "icon": "icon", "story-pair": None,
                   "type-set": None, "colour-set": None}

#: the Plot Twist effects, each in one plain sentence (the first four are the spec's)
EFFECTS = {
    "no-bsi-bonus": "No BSI Bonus this round: the unchosen cards are discarded, no boards "
                    "are taken and boards held are lost.",
    "no-tailing": "No tailing this round (tokens already tailing stay).",
    "bonus-in-arresting-order": "The BSI Bonus goes in arresting order, not by tokens left.",
    "fewest-points-to-top": "At the round's start the players with the fewest Villain "
                            "points move to the top of the arresting order, keeping their "
                            "order.",
    "most-points-to-bottom": "At the round's start the players with the most Villain points "
                             "move to the bottom of the arresting order, keeping their "
                             "order.",
    "reverse-passing": "Hands pass the other way this round.",
}
NO_BSI_BONUS, NO_TAILING, BONUS_IN_ARRESTING_ORDER, FEWEST_POINTS_TO_TOP, \
    MOST_POINTS_TO_BOTTOM, REVERSE_PASSING = EFFECTS

SHIPPED = cardsets.SHIPPED
EVIDENCE_KEYS = ("id", "name", "deck", "type", "colour", "cost", "story", "icons")
VILLAIN_KEYS = ("id", "name", "icons", "points")
INSPECTOR_KEYS = ("id", "name", "objectives")
PLOT_TWIST_KEYS = ("id", "name", "effect")
TOP_KEYS = ("title", "evidence", "villain", "inspector", "plot_twist", "solo")


def resolve_icon(text: Any, where: str | None = None) -> str:
    """The plot icon ``text`` names (canonical or an alias of the rulebook's meanings)."""
    return resolve(text, ICONS, "plot icon", where=where, aliases=ICON_ALIASES)


def resolve_colour(text: Any, where: str | None = None) -> str:
    return resolve(text, COLOURS, "colour", where=where, aliases=COLOUR_ALIASES)


def resolve_type(text: Any, where: str | None = None) -> str:
    return resolve(text, TYPES, "type", where=where)


def icon_mask(icons) -> int:
    """The bitmask of an iterable of canonical icon names."""
    mask = 0
    for icon in icons:
        mask |= ICON_BIT[icon]
    return mask


def mask_icons(mask: int) -> list[str]:
    """The icon names of a mask, in ``ICONS`` order."""
    return [icon for icon in ICONS if mask & ICON_BIT[icon]]


# ----------------------------------------------------------------------------- cards
@dataclass(frozen=True)
class Evidence:
    """One Evidence card; ``icons`` in ``ICONS`` order, ``mask`` their bitmask."""

    id: str
    name: str
    deck: int
    type: str
    colour: str
    cost: int
    story: str
    icons: tuple[str, ...]

    @functools.cached_property
    def mask(self) -> int:
        return icon_mask(self.icons)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "deck": self.deck, "type": self.type,
                "colour": self.colour, "cost": self.cost, "story": self.story,
                "icons": list(self.icons)}


@dataclass(frozen=True)
class Villain:
    """One Villain; ``icons`` in ``ICONS`` order, ``mask`` their bitmask."""

    id: str
    name: str
    icons: tuple[str, ...]
    points: int

    @functools.cached_property
    def mask(self) -> int:
        return icon_mask(self.icons)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "icons": list(self.icons),
                "points": self.points}


@dataclass(frozen=True)
class Objective:
    """One Inspector objective: ``points`` per ``each`` (``type``, ``colour`` or ``icon``
    with its ``value``; ``story-pair``, ``type-set``, ``colour-set`` with none)."""

    each: str
    value: str | None
    points: int

    def to_json(self) -> dict:
        out: dict[str, Any] = {"each": self.each}
        if self.value is not None:
            out[OBJECTIVE_KINDS[self.each]] = self.value
        out["points"] = self.points
        return out

    def words(self) -> str:
        """The objective in words, e.g. "2 per black card"."""
        if self.each == "story-pair":
            return f"{self.points} per pair of cards of one story"
        if self.each == "type-set":
            return f"{self.points} per set of one {', one '.join(TYPES)}"
        if self.each == "colour-set":
            return f"{self.points} per set of one card of each colour"
        if self.each == "icon":
            return f"{self.points} per card showing {self.value}"
        return f"{self.points} per {self.value} card"


@dataclass(frozen=True)
class Inspector:
    id: str
    name: str
    objectives: tuple[Objective, ...]

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name,
                "objectives": [o.to_json() for o in self.objectives]}


@dataclass(frozen=True)
class PlotTwist:
    id: str
    name: str
    effect: str

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "effect": self.effect}


@dataclass(frozen=True)
class CardSet:
    """A checked card set (``parse_cards``); ``source`` is where it came from (``shipped``
    or the file as given)."""

    title: str
    evidence: tuple[Evidence, ...]
    villains: tuple[Villain, ...]
    inspectors: tuple[Inspector, ...]
    plot_twists: tuple[PlotTwist, ...]
    holmes_track: tuple[int, ...]
    source: str = SHIPPED

    @functools.cached_property
    def by_id(self) -> dict[str, Evidence | Villain | Inspector | PlotTwist]:
        """Every card of the set by its id (ids are unique across the set)."""
        out: dict[str, Any] = {}
        for group in (self.evidence, self.villains, self.inspectors, self.plot_twists):
            out.update({c.id: c for c in group})
        return out

    @functools.cached_property
    def evidence_by_id(self) -> dict[str, Evidence]:
        return {c.id: c for c in self.evidence}

    @functools.cached_property
    def villain_by_id(self) -> dict[str, Villain]:
        return {c.id: c for c in self.villains}

    @functools.cached_property
    def inspector_by_id(self) -> dict[str, Inspector]:
        return {c.id: c for c in self.inspectors}

    @functools.cached_property
    def plot_twist_by_id(self) -> dict[str, PlotTwist]:
        return {c.id: c for c in self.plot_twists}

    def deck(self, number: int) -> list[Evidence]:
        """The Evidence of one deck (1-5), in the set's order."""
        return [c for c in self.evidence if c.deck == number]

    def to_json(self) -> dict:
        return {"title": self.title,
                "evidence": [c.to_json() for c in self.evidence],
                "villain": [c.to_json() for c in self.villains],
                "inspector": [c.to_json() for c in self.inspectors],
                "plot_twist": [c.to_json() for c in self.plot_twists],
                "solo": {"holmes_track": list(self.holmes_track)}}


# ----------------------------------------------------------------------------- loading
def shipped_path() -> Path:
    return cardsets.shipped_path("irregulars")


@functools.lru_cache(maxsize=1)
def shipped_cards() -> CardSet:
    """The shipped set (read once)."""
    return cardsets.read_shipped("irregulars", parse_cards)


def load_cards(arg: str | Path | None = None, base: str | Path | None = None) -> CardSet:
    """The set ``arg`` names: ``shipped`` (or None) for the shipped set, else a TOML file
    (relative to the folder ``base`` when given)."""
    return cardsets.read_card_set(arg, base, shipped_cards, parse_cards)


def parse_cards(text: str, where: str = "<cards>", source: str | None = None) -> CardSet:
    """Check the TOML ``text`` of a card set (``where`` names it in messages); see the
    module docstring for the rules."""
    data = parse_toml_text(text, where)
    check_fields(data, (), TOP_KEYS, fail=lambda message, key: InputError(
        message.replace("field", "top-level key"), where=f"{where}: {key!r}"))
    title = data.get("title", Path(where).stem)
    if not isinstance(title, str) or not 1 <= len(title) <= MAX_NAME:
        raise InputError(f"expected a string of 1 to {MAX_NAME} characters, got "
                         f"{json_kind(title, 'a table')}", where=f"{where}: field 'title'")
    evidence = _rows(data, "evidence", EVIDENCE_CARDS, where, _evidence)
    villains = _rows(data, "villain", VILLAIN_CARDS, where, _villain)
    inspectors = _rows(data, "inspector", INSPECTOR_CARDS, where, _inspector)
    twists = _rows(data, "plot_twist", PLOT_TWIST_CARDS, where, _plot_twist)
    _check_ids([("evidence", evidence), ("villain", villains), ("inspector", inspectors),
                ("plot_twist", twists)], where)
    _check_decks(evidence, where)
    track = _holmes_track(data.get("solo"), f"{where}: [solo]")
    return CardSet(title, tuple(evidence), tuple(villains), tuple(inspectors), tuple(twists),
                   track, source if source is not None else where)


def _rows(data: dict, key: str, count: int, where: str, read) -> list:
    rows = data.get(key, [])
    if not isinstance(rows, list):
        raise InputError(f"expected [[{key}]] tables", where=f"{where}: field {key!r}")
    if len(rows) != count:
        raise InputError(f"a card set has exactly {count} [[{key}]] tables, this one has "
                         f"{len(rows)}", where=where)
    out = []
    for i, row in enumerate(rows):
        place = f"{where}: [[{key}]] {i + 1}"
        if not isinstance(row, dict):
            raise InputError(f"expected a table, got {json_kind(row, 'a table')}", where=place)
        ident = row.get("id")
        if isinstance(ident, str) and 1 <= len(ident) <= MAX_NAME:
            place = f"{place} ({ident!r})"
        out.append(read(row, place))
    return out


def _field(where: str, key: str) -> str:
    return f"{where}, field {key!r}"


def _fields(row: dict, keys: tuple[str, ...], where: str) -> None:
    check_fields(row, keys, fail=lambda message, key: InputError(message,
                                                                  where=_field(where, key)))
    for key in ("id", "name"):
        _string(row[key], _field(where, key))


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise InputError(f"expected a string of 1 to {MAX_NAME} characters, got "
                         f"{json_kind(value, 'a table')}", where=where)
    return value


def _whole(value: Any, lo: int, hi: int, what: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(f"{what} is a whole number from {lo} to {hi}, got "
                         f"{json_kind(value, 'a table')}", where=where)
    return value


def _icons(value: Any, lo: int, hi: int, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InputError(f"expected a list of {lo} to {hi} plot icons, got "
                         f"{json_kind(value, 'a table')}", where=where)
    icons = [resolve_icon(v, where=f"{where}: item {i + 1}") for i, v in enumerate(value)]
    if len(set(icons)) != len(icons):
        twice = next(i for i in icons if icons.count(i) > 1)
        raise InputError(f"the icon {twice!r} is given twice", where=where)
    if not lo <= len(icons) <= hi:
        raise InputError(f"expected {lo} to {hi} different plot icons, got {len(icons)}",
                         where=where)
    return tuple(i for i in ICONS if i in icons)


def _evidence(row: dict, where: str) -> Evidence:
    _fields(row, EVIDENCE_KEYS, where)
    at = functools.partial(_field, where)
    deck = _whole(row["deck"], 1, len(DECKS), "a deck", at("deck"))
    kind = resolve_type(_text(row["type"], at("type")), where=at("type"))
    colour = resolve_colour(_text(row["colour"], at("colour")), where=at("colour"))
    cost = _whole(row["cost"], 0, MAX_COST, "a cost", at("cost"))
    story = _text(row["story"], at("story")).strip().upper()
    if not STORY.fullmatch(story):
        raise InputError(f"a story is 4 letters or digits (e.g. '3GAR'), got {row['story']!r}",
                         where=at("story"))
    icons = _icons(row["icons"], *EVIDENCE_ICONS, at("icons"))
    return Evidence(row["id"], row["name"], deck, kind, colour, cost, story, icons)


def _villain(row: dict, where: str) -> Villain:
    _fields(row, VILLAIN_KEYS, where)
    icons = _icons(row["icons"], *VILLAIN_ICONS, _field(where, "icons"))
    points = _whole(row["points"], 1, MAX_POINTS, "a Villain's points",
                    _field(where, "points"))
    return Villain(row["id"], row["name"], icons, points)


def _inspector(row: dict, where: str) -> Inspector:
    _fields(row, INSPECTOR_KEYS, where)
    at = _field(where, "objectives")
    value = row["objectives"]
    if not isinstance(value, list) or len(value) != OBJECTIVES_PER_INSPECTOR:
        raise InputError(f"an Inspector has a list of exactly {OBJECTIVES_PER_INSPECTOR} "
                         f"objectives, got {json_kind(value, 'a table')}"
                         + (f" of {len(value)}" if isinstance(value, list) else ""), where=at)
    return Inspector(row["id"], row["name"],
                     tuple(_objective(o, f"{at}: objective {i + 1}")
                           for i, o in enumerate(value)))


def _objective(value: Any, where: str) -> Objective:
    if not isinstance(value, dict):
        raise InputError(f"expected a table, got {json_kind(value, 'a table')}", where=where)
    each = value.get("each")
    kind = resolve(_text(each, f"{where}, field 'each'"), OBJECTIVE_KINDS, "objective",
                   where=f"{where}, field 'each'")
    named = OBJECTIVE_KINDS[kind]
    check_fields(value, ("each",) + ((named,) if named else ()) + ("points",),
                 fail=lambda message, key: InputError(message, where=f"{where}, field {key!r}"))
    points = _whole(value["points"], 1, MAX_POINTS, "an objective's points",
                    f"{where}, field 'points'")
    what = None
    if named:
        read = {"type": resolve_type, "colour": resolve_colour, "icon": resolve_icon}[named]
        place = f"{where}, field {named!r}"
        what = read(_text(value[named], place), where=place)
    return Objective(kind, what, points)


def _plot_twist(row: dict, where: str) -> PlotTwist:
    _fields(row, PLOT_TWIST_KEYS, where)
    effect = row["effect"]
    if not isinstance(effect, str) or effect not in EFFECTS:
        raise InputError(f"unknown effect {effect!r}; known: {', '.join(EFFECTS)}",
                         where=_field(where, "effect"))
    return PlotTwist(row["id"], row["name"], effect)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"expected a string, got {json_kind(value, 'a table')}", where=where)
    return value


def _check_ids(groups: list[tuple[str, list]], where: str) -> None:
    seen: dict[str, str] = {}
    for key, cards in groups:
        for i, card in enumerate(cards):
            norm = normalise(card.id)
            place = f"[[{key}]] {i + 1}"
            if norm in seen:
                raise InputError(f"the id is already that of {seen[norm]} (ids are unique in "
                                 "a set, ignoring case, spaces and punctuation)",
                                 where=f"{where}: {place} ({card.id!r}), field 'id'")
            seen[norm] = place


def _check_decks(evidence: list[Evidence], where: str) -> None:
    count = {d: 0 for d in DECKS}
    for i, card in enumerate(evidence):
        count[card.deck] += 1
        if count[card.deck] > EVIDENCE_PER_DECK:
            raise InputError(f"deck {DECK_NUMERALS[card.deck]} already has "
                             f"{EVIDENCE_PER_DECK} cards (each of the 5 decks has "
                             f"{EVIDENCE_PER_DECK})",
                             where=f"{where}: [[evidence]] {i + 1} ({card.id!r}), field 'deck'")


def _holmes_track(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise InputError(f"expected a [solo] table with holmes_track, got "
                         f"{json_kind(value, 'a table')}", where=where)
    check_fields(value, ("holmes_track",),
                 fail=lambda message, key: InputError(message, where=f"{where}, field {key!r}"))
    track = value["holmes_track"]
    at = f"{where}, field 'holmes_track'"
    if not isinstance(track, list) or len(track) != HOLMES_TRACK_SPACES:
        raise InputError(f"expected a list of {HOLMES_TRACK_SPACES} spaces (0, or the deck "
                         f"1-5 the space shows), got {json_kind(track, 'a table')}"
                         + (f" of {len(track)}" if isinstance(track, list) else ""), where=at)
    return tuple(_whole(v, 0, len(DECKS), "a space", f"{at}: space {i + 1}")
                 for i, v in enumerate(track))
