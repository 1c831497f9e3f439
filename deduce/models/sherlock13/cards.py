"""The 13 suspect cards and their 8 icons (facts from the rulebook), as numpy tables.

Cards are indices 0..12 in ``SUSPECTS`` order; icons are indices 0..7 in ``ICONS`` order.
``ICON_MATRIX[card, icon]`` is 1 when the card shows the icon.
"""

from __future__ import annotations

import numpy as np

from deduce.core.names import resolve

SUSPECT_ICONS: dict[str, tuple[str, ...]] = {
    "Sherlock Holmes": ("pipe", "light bulb", "fist"),
    "John H. Watson": ("pipe", "eye", "fist"),
    "James Moriarty": ("skull", "light bulb"),
    "Irene Adler": ("skull", "light bulb", "necklace"),
    "Mycroft Holmes": ("pipe", "light bulb", "book"),
    "Mrs. Hudson": ("pipe", "necklace"),
    "Mary Morstan": ("book", "necklace"),
    "Sebastian Moran": ("skull", "fist"),
    "Inspector G. Lestrade": ("badge", "eye", "book"),
    "Inspector Gregson": ("badge", "fist", "book"),
    "Inspector Baynes": ("badge", "light bulb"),
    "Inspector Bradstreet": ("badge", "fist"),
    "Inspector Hopkins": ("badge", "pipe", "eye"),
}

SUSPECTS: tuple[str, ...] = tuple(SUSPECT_ICONS)
ICONS: tuple[str, ...] = ("pipe", "light bulb", "fist", "badge", "book", "necklace", "eye", "skull")
N_CARDS = len(SUSPECTS)
N_ICONS = len(ICONS)

ICON_MATRIX = np.zeros((N_CARDS, N_ICONS), dtype=np.int8)
for _c, _name in enumerate(SUSPECTS):
    for _icon in SUSPECT_ICONS[_name]:
        ICON_MATRIX[_c, ICONS.index(_icon)] = 1
ICON_MATRIX.setflags(write=False)

#: Deck totals per icon: 5 pipes, 5 light bulbs, 5 fists, 5 badges, 4 books, 3 of the rest.
ICON_TOTALS: tuple[int, ...] = tuple(int(x) for x in ICON_MATRIX.sum(axis=0))

#: Cards in each hand at the deal, by number of players.
HAND_SIZE = {2: 5, 3: 4, 4: 3}

_ICON_ALIASES = {"lightbulb": "light bulb", "bulb": "light bulb"}


def suspect_index(text: str, *, where: str | None = None) -> int:
    """Card index of a suspect name or alias (``"moriarty"`` -> 2); ``InputError`` otherwise."""
    return SUSPECTS.index(resolve(text, SUSPECTS, "suspect", where=where))


def icon_index(text: str, *, where: str | None = None) -> int:
    """Icon index of an icon name or alias (``"Light-Bulb"`` -> 1); ``InputError`` otherwise."""
    return ICONS.index(resolve(text, ICONS, "icon", where=where, aliases=_ICON_ALIASES))


def icon_count(cards, icon: int) -> int:
    """How many of ``cards`` (indices) show ``icon``."""
    return int(sum(ICON_MATRIX[c, icon] for c in cards))
