"""Solo Holmes's arrest (the spec's solo rules): Holmes arrests first, as if tailing every
Villain (all icons but one: Moriarty 8 of 9), at most one per cycle, no board: the visible
Villain worth the most points he can arrest, ties by the fewest cards, then (a decision of
ours, the rulebook says nothing) the first in the row; with a smallest set of his unused
Evidence (``arrest.arrests``, exact). ``holmes_json`` is the spec's ``{"arrest", "cards"}``
(``arrest`` null when he can arrest nothing, ``cards`` then empty).
"""

from __future__ import annotations

from deduce.core.errors import InputError
from deduce.models.irregulars.arrest import Arrest, arrests, best_arrest
from deduce.models.irregulars.position import HOLMES, Position


def holmes_options(position: Position) -> list[Arrest]:
    """What Holmes can do about each visible Villain (in the row's order), tailing all."""
    by_id = position.cards.villain_by_id
    return arrests(position.unused(HOLMES), [by_id[v] for v in position.villains], None,
                   False, tail_all=True)


def holmes_arrest(position: Position) -> Arrest | None:
    """Holmes's choice (``best_arrest``: most points, fewest cards, first in the row)."""
    return best_arrest(holmes_options(position))


def holmes_json(position: Position, where: str = "<position>") -> dict:
    """The spec's JSON; an ``InputError`` at ``where``'s field ``mode`` for a multi
    position (Holmes plays only in solo)."""
    if not position.solo:
        raise InputError("Holmes arrests only in a solo position (this one is multi: "
                         "deduce irregulars arrest answers for a player)",
                         where=f"{where}: field 'mode'", field="mode")
    choice = holmes_arrest(position)
    if choice is None:
        return {"arrest": None, "cards": []}
    return {"arrest": choice.villain.id, "cards": [c.id for c in choice.cards]}
