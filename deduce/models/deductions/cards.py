"""Deductions' cards: the 60 clue cards (fixed by the rules) and a set of 45 case cards
(data: the shipped set or a user's TOML file).

Clue cards: 11 regular cards in each of the 5 suits plus one Ally per suit. On the grid an
Ally is a card of its suit; in a payment it has its own power (``payment``).

Case cards (the spec's TOML format)::

    title = "Three Cases"

    [[case]]
    id = "hound-suspect"
    name = "The Naturalist of Merripit House"
    case = "hound"            # hound, sign or speckled
    category = "Suspect"
    kind = "solution"         # or "red-herring"
    points = 3
    cost = { Statements = 3, Writings = 2, Knowledge = 3 }

Every set is checked on load (``parse_cards``), each problem an ``InputError`` (exit 2)
naming the file, the card and the field:

- exactly 45 cards: in each case 5 Solutions (one per category) and 10 Red Herrings (two
  per category);
- ``id``: unique, 1 to ``MAX_NAME`` characters; ``name``: 1 to ``MAX_NAME`` characters;
- ``case``, ``category``, ``kind`` and the suits of ``cost``: names with the aliases of
  ``core.names.resolve`` (``Hound``, ``red herring``, ``prints``); written canonically;
- ``points``: a Solution 2-4, a Red Herring 0-1;
- ``cost`` (the cost shape): each count a whole number from 1 to 9, no suit twice; a
  Solution costs 6-9 clues in 2-3 suits, a Red Herring 2-4 clues in 1-3 suits.

>>> suit_of("Irene Adler"), resolve_clue("lestrade"), resolve_clue("prints")
('Knowledge', 'Inspector Lestrade', 'Prints & Tracks')
>>> len(clue_deck()), clue_deck().count("Writings")
(60, 11)
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deduce.core import cardsets
from deduce.core.errors import InputError
from deduce.core.names import normalise, resolve
from deduce.core.records import check_fields, json_kind, parse_toml_text

SUITS = ("Statements", "Prints & Tracks", "Writings", "Artifacts", "Knowledge")
ALLIES = ("Sherlock Holmes", "Inspector Lestrade", "Dr. John Watson", "Mycroft Holmes",
          "Irene Adler")
SHERLOCK, LESTRADE, WATSON, MYCROFT, IRENE = ALLIES
ALLY_SUIT = dict(zip(ALLIES, SUITS))
CLUES = SUITS + ALLIES
REGULAR_PER_SUIT = 11
#: copies of a suit in the clue cards, its Ally included
PER_SUIT = REGULAR_PER_SUIT + 1
CLUE_CARDS = len(SUITS) * PER_SUIT

CATEGORIES = ("Suspect", "Location", "Motive", "Means", "Opportunity")
#: the discount suit of a solved card of each category (unless Irene turns it)
CATEGORY_SUIT = dict(zip(CATEGORIES, SUITS))
CASES = ("hound", "sign", "speckled")
CASE_TITLES = {"hound": "The Hound of the Baskervilles", "sign": "The Sign of the Four",
               "speckled": "The Speckled Band"}
SOLUTION, RED_HERRING = "solution", "red-herring"
KINDS = (SOLUTION, RED_HERRING)
#: cards of each kind per case and category
PER_CATEGORY = {SOLUTION: 1, RED_HERRING: 2}
CASE_CARDS = len(CASES) * len(CATEGORIES) * sum(PER_CATEGORY.values())
POINTS = {SOLUTION: (2, 4), RED_HERRING: (0, 1)}
#: the cost shape: (fewest, most) clues in all and (fewest, most) suits
COST_CLUES = {SOLUTION: (6, 9), RED_HERRING: (2, 4)}
COST_SUITS = {SOLUTION: (2, 3), RED_HERRING: (1, 3)}
MAX_PER_SUIT = 9
#: the longest id, card name or player name read from a file (characters)
MAX_NAME = 100

MILESTONES = ("diversity", "completion")
MILESTONE_SIZE = 5
MILESTONE_BONUS = 3

SHIPPED = cardsets.SHIPPED
CARD_KEYS = ("id", "name", "case", "category", "kind", "points", "cost")


def suit_of(card: str) -> str:
    """The suit of a clue card (an Ally's is its own suit)."""
    return ALLY_SUIT.get(card, card)


def clue_deck() -> list[str]:
    """The 60 clue cards in a fixed order (suit by suit, the Allies last)."""
    return [s for s in SUITS for _ in range(REGULAR_PER_SUIT)] + list(ALLIES)


def resolve_clue(text: Any, where: str | None = None) -> str:
    """The clue card (suit or Ally) ``text`` names, by the alias rule of
    ``core.names.resolve``; ``InputError`` at ``where`` otherwise."""
    return resolve(text, CLUES, "clue card (suit or Ally)", where=where)


def resolve_suit(text: Any, where: str | None = None) -> str:
    """The suit ``text`` names (aliases as ``resolve_clue``)."""
    return resolve(text, SUITS, "suit", where=where)


# ----------------------------------------------------------------------------- case cards
@dataclass(frozen=True)
class CaseCard:
    """One case card; ``cost`` maps suits to counts, in ``SUITS`` order."""

    id: str
    name: str
    case: str
    category: str
    kind: str
    points: int
    cost: tuple[tuple[str, int], ...]

    @property
    def discount(self) -> str:
        """The discount suit this card gives once solved (before any Irene turn)."""
        return CATEGORY_SUIT[self.category]

    def cost_dict(self) -> dict[str, int]:
        return dict(self.cost)

    def to_json(self) -> dict:
        """The card as in the TOML file (``cost`` a table)."""
        return {"id": self.id, "name": self.name, "case": self.case,
                "category": self.category, "kind": self.kind, "points": self.points,
                "cost": self.cost_dict()}


@dataclass(frozen=True)
class SolvedCard:
    """A solved case card (its asset side) and its current discount suit; ``id``,
    ``case`` and ``category`` are the card's, copied as plain fields (the milestones
    read them for every card at every claim: a property is a call each time)."""

    card: CaseCard
    discount: str
    id: str = field(init=False, repr=False, compare=False)
    case: str = field(init=False, repr=False, compare=False)
    category: str = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        card = self.card
        object.__setattr__(self, "id", card.id)
        object.__setattr__(self, "case", card.case)
        object.__setattr__(self, "category", card.category)

    def to_json(self) -> dict:
        return {"case": self.card.id, "discount": self.discount}


@dataclass(frozen=True)
class CardSet:
    """A checked set of 45 case cards (``parse_cards``); ``source`` is where it came from
    (``shipped`` or the file as given)."""

    title: str
    cards: tuple[CaseCard, ...]
    source: str = SHIPPED

    @functools.cached_property
    def by_id(self) -> dict[str, CaseCard]:
        return {c.id: c for c in self.cards}

    def of_kind(self, kind: str) -> list[CaseCard]:
        return [c for c in self.cards if c.kind == kind]

    def resolve(self, text: Any, where: str | None = None, kind: str | None = None) -> CaseCard:
        """The card whose id is ``text``, or else whose id or name ``text`` is an
        unambiguous alias of (``core.names.resolve``); ``kind`` narrows the candidates."""
        pool = [c for c in self.cards if kind is None or c.kind == kind]
        if isinstance(text, str) and text in self.by_id and self.by_id[text] in pool:
            return self.by_id[text]
        what = "case card" if kind is None else kind.replace("-", " ")
        ids = {normalise(c.id) for c in pool}
        names = {c.name: c.id for c in pool if normalise(c.name) not in ids}
        found = resolve(text, [c.id for c in pool] + list(names), what, where=where)
        return self.by_id[names.get(found, found)]

    def to_json(self) -> dict:
        return {"title": self.title, "cards": [c.to_json() for c in self.cards]}


# ----------------------------------------------------------------------------- loading
def shipped_path() -> Path:
    return cardsets.shipped_path("deductions")


@functools.lru_cache(maxsize=1)
def shipped_cards() -> CardSet:
    """The shipped set (read once)."""
    return cardsets.read_shipped("deductions", parse_cards)


def load_cards(arg: str | Path | None = None, base: str | Path | None = None) -> CardSet:
    """The set ``arg`` names: ``shipped`` (or None) for the shipped set, else a TOML file
    (relative to the folder ``base`` when given)."""
    return cardsets.read_card_set(arg, base, shipped_cards, parse_cards)


def parse_cards(text: str, where: str = "<cards>", source: str | None = None) -> CardSet:
    """Check the TOML ``text`` of a card set (``where`` names it in messages); see the
    module docstring for the rules."""
    data = parse_toml_text(text, where)
    for key in data:
        if key not in ("title", "case"):
            raise InputError("unknown top-level key (known: title, case)",
                             where=f"{where}: {key!r}")
    title = data.get("title", Path(where).stem)
    if not isinstance(title, str) or not 1 <= len(title) <= MAX_NAME:
        raise InputError(f"expected a string of 1 to {MAX_NAME} characters, got "
                         f"{json_kind(title, 'a table')}", where=f"{where}: field 'title'")
    rows = data.get("case", [])
    if not isinstance(rows, list):
        raise InputError("expected [[case]] tables", where=f"{where}: field 'case'")
    if len(rows) != CASE_CARDS:
        raise InputError(f"a card set has exactly {CASE_CARDS} case cards ([[case]] tables), "
                         f"this one has {len(rows)}", where=where)
    cards = [_card(row, f"{where}: [[case]] {i + 1}") for i, row in enumerate(rows)]
    _check_ids(cards, where)
    _check_counts(cards, where)
    return CardSet(title, tuple(cards), source if source is not None else where)


def _card(row: Any, where: str) -> CaseCard:
    if not isinstance(row, dict):
        raise InputError(f"expected a table, got {json_kind(row, 'a table')}", where=where)
    ident = row.get("id")
    if isinstance(ident, str) and 1 <= len(ident) <= MAX_NAME:
        where = f"{where} ({ident!r})"
    check_fields(row, CARD_KEYS,
                 fail=lambda message, key: InputError(message, where=f"{where}, field {key!r}"))
    for key in ("id", "name"):
        v = row[key]
        if not isinstance(v, str) or not 1 <= len(v.strip()) or len(v) > MAX_NAME:
            raise InputError(f"expected a string of 1 to {MAX_NAME} characters, got "
                             f"{json_kind(v, 'a table')}", where=f"{where}, field {key!r}")
    at = lambda key: f"{where}, field {key!r}"  # noqa: E731
    case = resolve(_text(row["case"], at("case")), CASES, "case", where=at("case"),
                   aliases={t: c for c, t in CASE_TITLES.items()})
    category = resolve(_text(row["category"], at("category")), CATEGORIES, "category",
                       where=at("category"))
    kind = resolve(_text(row["kind"], at("kind")), KINDS, "kind", where=at("kind"))
    points = row["points"]
    lo, hi = POINTS[kind]
    if not _whole(points) or not lo <= points <= hi:
        raise InputError(f"a {kind.replace('-', ' ')} is worth {lo} to {hi} points, got "
                         f"{json_kind(points, 'a table')}", where=at("points"))
    return CaseCard(row["id"], row["name"], case, category, kind, points,
                    _cost(row["cost"], kind, at("cost")))


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"expected a string, got {json_kind(value, 'a table')}", where=where)
    return value


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cost(value: Any, kind: str, where: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, dict):
        raise InputError(f"expected a table of suit = count, got {json_kind(value, 'a table')}",
                         where=where)
    cost: dict[str, int] = {}
    for key, n in value.items():
        suit = resolve_suit(key, where=f"{where}: {key!r}")
        if suit in cost:
            raise InputError(f"{suit} is given twice", where=f"{where}: {key!r}")
        if not _whole(n) or not 1 <= n <= MAX_PER_SUIT:
            raise InputError(f"a count is a whole number from 1 to {MAX_PER_SUIT}, got "
                             f"{json_kind(n, 'a table')}", where=f"{where}: {key!r}")
        cost[suit] = n
    (lo, hi), (slo, shi) = COST_CLUES[kind], COST_SUITS[kind]
    total = sum(cost.values())
    if not lo <= total <= hi or not slo <= len(cost) <= shi:
        raise InputError(f"a {kind.replace('-', ' ')} costs {lo} to {hi} clues in {slo} to "
                         f"{shi} suits, this one {total} in {len(cost)}", where=where)
    return tuple((s, cost[s]) for s in SUITS if s in cost)


def _check_ids(cards: list[CaseCard], where: str) -> None:
    seen: dict[str, int] = {}
    for i, c in enumerate(cards):
        key = normalise(c.id)
        if key in seen:
            raise InputError(f"the id is already that of [[case]] {seen[key] + 1} (ids are "
                             "unique, ignoring case, spaces and punctuation)",
                             where=f"{where}: [[case]] {i + 1} ({c.id!r}), field 'id'")
        seen[key] = i


def _check_counts(cards: list[CaseCard], where: str) -> None:
    """Each case: ``PER_CATEGORY`` cards of each kind in each category (with 45 cards in
    all, a short slot means another is overfilled: the card that overfills it is named)."""
    count: Counter = Counter()
    for i, c in enumerate(cards):
        slot = (c.case, c.category, c.kind)
        count[slot] += 1
        if count[slot] > PER_CATEGORY[c.kind]:
            raise InputError(
                f"one {c.kind.replace('-', ' ')} too many in case {c.case!r}, category "
                f"{c.category} (each case has {_per_case()})",
                where=f"{where}: [[case]] {i + 1} ({c.id!r}), field 'category'")
    # 45 cards and no slot overfilled: every slot is full


def _per_case() -> str:
    return ", ".join(f"{n} {k.replace('-', ' ')}{'s' if n > 1 else ''} per category"
                     for k, n in PER_CATEGORY.items())


def copies(card: str) -> int:
    """How many copies of a clue card exist: 11 of a suit, 1 of an Ally."""
    return 1 if card in ALLY_SUIT else REGULAR_PER_SUIT
