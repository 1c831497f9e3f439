"""The shape of a case: categories (the grid), attributes and unknowns, and item names.

A ``Schema`` is what the rule language needs to know about a case file. The first category
is the grid's key: its items name the rows. A category whose items are all integers is
ordered (arithmetic and ``<`` are allowed on it).

Naming an item (spec, "Rules"): an exact name (case, spaces and punctuation ignored); else a
word that is a prefix of exactly one item's name or of one of its words (``Basil`` for
``Basil Crane``, ``Hale`` for ``Dr. Hale``). ``Schema.ref`` gives back the shortest text
that names an item in a rule: ``Library``, ``"Ada Finch"`` or ``hour[9]``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from deduce.core.names import normalise

Value = str | int

#: Words with a meaning of their own in rules; no category, attribute or unknown may use them.
RESERVED = frozenset({
    "abs", "all", "any", "sum", "one_of", "pairs", "distinct", "implies", "xor",
    "and", "or", "not", "in", "for", "if", "True", "False", "None",
})

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class Category:
    """One dimension of the grid; ``ordered`` when every item is an integer."""

    name: str
    items: tuple[Value, ...]

    @property
    def ordered(self) -> bool:
        return all(isinstance(v, int) for v in self.items)

    def index(self, item: Value) -> int:
        return self.items.index(item)


@dataclass(frozen=True)
class Attribute:
    """A many-to-one fact about each item of category ``of``: one of ``values``."""

    name: str
    of: str
    values: tuple[Value, ...]


@dataclass(frozen=True)
class Unknown:
    """A single answer: an item of ``category`` (a row), or one of the free ``values``."""

    name: str
    category: str | None = None
    values: tuple[Value, ...] | None = None


@dataclass
class Schema:
    """Categories (first = key), attributes and unknowns, with name look-ups for rules."""

    categories: dict[str, Category]
    attributes: dict[str, Attribute] = field(default_factory=dict)
    unknowns: dict[str, Unknown] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.cat_names: list[str] = list(self.categories)
        self._by_norm: dict[str, list[tuple[str, int]]] = {}
        for c in self.categories.values():
            for i, item in enumerate(c.items):
                if isinstance(item, str):
                    self._by_norm.setdefault(normalise(item), []).append((c.name, i))

    # ----------------------------------------------------------------- structure
    @property
    def key(self) -> Category:
        """The first category: its items are the rows."""
        return self.categories[self.cat_names[0]]

    @property
    def size(self) -> int:
        return len(self.key.items)

    def cat_index(self, name: str) -> int:
        return self.cat_names.index(name)

    # ----------------------------------------------------------------- naming items
    def find_items(self, text: str, category: str | None = None) -> list[tuple[str, int]]:
        """Items ``text`` names (spec rule: exact, else unique prefix of the name or a word).

        Returns every match of the first rule that matches anything: several means ambiguous,
        none means unknown. ``category`` restricts the search to one category.
        """
        cats = [self.categories[category]] if category else list(self.categories.values())
        key = normalise(text)
        if not key:
            return []
        exact, prefix = [], []
        for c in cats:
            for i, item in enumerate(c.items):
                if isinstance(item, int):
                    if text.strip().lstrip("+") == str(item) or text.strip() == str(item):
                        exact.append((c.name, i))
                    continue
                norm = normalise(item)
                if norm == key:
                    exact.append((c.name, i))
                elif norm.startswith(key) or any(
                    normalise(w).startswith(key) for w in _WORD.findall(item)
                ):
                    prefix.append((c.name, i))
        return exact or prefix

    def close_items(self, text: str, category: str | None = None, extra: list[str] = ()) -> list[str]:
        """Up to three names close to ``text`` (for "did you mean"), items first."""
        cats = [self.categories[category]] if category else list(self.categories.values())
        names = [str(v) for c in cats for v in c.items] + list(extra)
        exact = {}
        for n in names:
            exact.setdefault(normalise(n), n)
        close = difflib.get_close_matches(normalise(text), list(exact), n=3, cutoff=0.5)
        return [exact[c] for c in close]

    def ref(self, cat: str, index: int) -> str:
        """The shortest rule text that names item ``index`` of ``cat``.

        >>> s = Schema({"hour": Category("hour", (7, 8)), "room": Category("room", ("Attic", "Tea Room"))})
        >>> s.ref("hour", 1), s.ref("room", 0), s.ref("room", 1)
        ('hour[8]', 'Attic', '"Tea Room"')
        """
        item = self.categories[cat].items[index]
        if isinstance(item, int):
            return f"{cat}[{item}]"
        unique = self.find_items(item) == [(cat, index)]
        taken = item in self.categories or item in self.attributes or item in self.unknowns
        if unique and item.isidentifier() and item not in RESERVED and not taken:
            return item
        quoted = '"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return quoted if unique else f"{cat}[{quoted}]"

    def item_text(self, cat: str, index: int) -> Value:
        """The item itself (a name or an integer), as the case file spells it."""
        return self.categories[cat].items[index]
