"""End-game score (the spec): Villain points plus the best of the player's 3 Inspector
objectives, counted over every Evidence card the player owns, used or not.

Objective counting (``objective_value``), ``P`` its points:

- ``type`` T / ``colour`` C: P per card of that type / colour;
- ``icon`` I: P per card showing I;
- ``story-pair``: P per two cards of one story, floor(n / 2) pairs per story;
- ``type-set`` / ``colour-set``: P per set of one card of each type (3) / colour (5): the
  fewest cards of any one type / colour.

The Gregson example of the rulebook: 5 locations, 5 black cards and 2 cards of 3GAR give
5, 10 and 5.

``score_json`` is the spec's JSON: one entry per player in seating order; ``objectives``
(in the inspector card's order), ``best`` (the 0-based index of a largest one: the first
when tied) and ``total`` only for ``me`` (the others' Inspectors are hidden: null); solo
Holmes has no Inspector: ``total`` is his Villain points.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from deduce.models.irregulars.cards import COLOURS, TYPES, Evidence, Objective
from deduce.models.irregulars.position import HOLMES, Position


def objective_value(objective: Objective, cards: Iterable[Evidence]) -> int:
    """The points ``objective`` scores for the Evidence ``cards`` (see the module)."""
    cards = list(cards)
    kind, value, points = objective.each, objective.value, objective.points
    if kind == "type":
        n = sum(c.type == value for c in cards)
    elif kind == "colour":
        n = sum(c.colour == value for c in cards)
    elif kind == "icon":
        n = sum(value in c.icons for c in cards)
    elif kind == "story-pair":
        n = sum(k // 2 for k in Counter(c.story for c in cards).values())
    elif kind == "type-set":
        have = Counter(c.type for c in cards)
        n = min(have[t] for t in TYPES)
    elif kind == "colour-set":
        have = Counter(c.colour for c in cards)
        n = min(have[c] for c in COLOURS)
    else:  # parse_cards admits no other kind
        raise ValueError(f"unknown objective kind {kind!r}")
    return n * points


def objective_values(position: Position, player: str | None = None) -> list[int]:
    """The values of ``position.me``'s Inspector objectives for ``player``'s Evidence
    (default: ``me``), in the card's order."""
    inspector = position.cards.inspector_by_id[position.inspector]
    owned = position.owned(position.me if player is None else player)
    return [objective_value(o, owned) for o in inspector.objectives]


def score_json(position: Position) -> dict:
    """The spec's ``score`` JSON (see the module docstring)."""
    players = []
    for name in position.players:
        points = position.villain_points(name)
        if name == position.me:
            values = objective_values(position)
            best = values.index(max(values))
            players.append({"name": name, "villain_points": points, "objectives": values,
                            "best": best, "total": points + values[best]})
        else:
            total = points if position.solo and name == HOLMES else None
            players.append({"name": name, "villain_points": points, "objectives": None,
                            "best": None, "total": total})
    return {"players": players}
