"""Arrests as exact minimum covers over the 9 plot icons (bitmasks).

To arrest a Villain a player uses unused Evidence cards whose icons together show every
icon of the Villain but at most ``allowed`` of them: 1 while tailing that Villain (so 3 of
4, or 8 of 9 for Moriarty), 1 more with the Holmes board's "ignore one icon"
(``allowance``). A card with two needed icons covers both; each card is used once.

Every Evidence card shows 1 or 2 icons (the card-set rule), so covering a set ``U`` of
icons takes ``|U| - m`` cards, ``m`` the largest matching of the graph whose vertices are
the icons of ``U`` and whose edges are the pairs of ``U`` shown together on one card (a
matched pair is one card, every other icon one card of its own). The icons no card shows
must be left out (they use up the allowance); the rest of the allowance drops the icons
that save most cards (every choice is tried: at most C(9, 2) = 36). This is exact and
takes microseconds; ``tests`` hold it equal to brute force over all subsets of cards.

>>> from deduce.models.irregulars.cards import ICON_BIT as B
>>> masks = [B["heart"] | B["gang"], B["disguise"], B["blood"] | B["heart"]]
>>> fewest_cards(masks, B["heart"] | B["disguise"] | B["gang"] | B["blood"], 0)
(3, [0, 1, 2])
>>> fewest_cards(masks, B["heart"] | B["disguise"] | B["gang"] | B["blood"], 1)
(2, [0, 2])
>>> fewest_cards(masks, B["skull"] | B["coins"], 1) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

from deduce.models.irregulars.cards import ALL_ICONS, ICON_BIT, ICONS, Evidence, Villain

TAIL, HOLMES_BOARD = "tail", "holmes"


def allowance(tailing: bool, ignore: bool) -> int:
    """How many of a Villain's icons may be missing: one for a tail on it, one for the
    Holmes board's ignore."""
    return int(tailing) + int(ignore)


def _bits(mask: int) -> list[int]:
    return [b for b in (1 << i for i in range(len(ICONS))) if mask & b]


def _max_matching(vertices: int, edges: Sequence[int]) -> list[int]:
    """A largest set of disjoint ``edges`` (2-bit masks) inside the icon set ``vertices``
    (exhaustive over the lowest free vertex: at most 9 vertices)."""
    best: list[int] = []

    def grow(free: int, chosen: list[int]) -> None:
        nonlocal best
        if len(chosen) + bin(free).count("1") // 2 <= len(best):
            return
        if free == 0:
            if len(chosen) > len(best):
                best = list(chosen)
            return
        low = free & -free
        for e in edges:
            if e & low and e & free == e:
                chosen.append(e)
                grow(free & ~e, chosen)
                chosen.pop()
        grow(free & ~low, chosen)  # ``low`` unmatched

    grow(vertices, [])
    return best


def _cover_of(target: int, masks: Sequence[int]) -> list[int]:
    """Indices of a smallest set of ``masks`` covering ``target`` (every icon of ``target``
    shown by some mask): one card per matched pair, one per other icon."""
    pairs: dict[int, int] = {}
    single: dict[int, int] = {}
    for i, m in enumerate(masks):
        p = m & target
        if p and p & (p - 1):
            pairs.setdefault(p, i)
        for b in _bits(p):
            single.setdefault(b, i)
    chosen = []
    covered = 0
    for e in _max_matching(target, list(pairs)):
        chosen.append(pairs[e])
        covered |= e
    for b in _bits(target & ~covered):
        chosen.append(single[b])
    return sorted(chosen)


def fewest_cards(masks: Sequence[int], villain: int, allowed: int
                 ) -> tuple[int, list[int]] | None:
    """The fewest cards among ``masks`` (icon masks) that show all of ``villain``'s icons but
    at most ``allowed``, and the indices of one such set; None when no set does."""
    shown = 0
    for m in masks:
        shown |= m
    absent = villain & ~shown
    gaps = bin(absent).count("1")
    if gaps > allowed:
        return None
    need = villain & shown
    drop = min(allowed - gaps, bin(need).count("1"))
    best: list[int] | None = None
    for dropped in combinations(_bits(need), drop):
        target = need & ~sum(dropped)
        cover = _cover_of(target, masks)
        if best is None or len(cover) < len(best):
            best = cover
    return len(best), best


def shortfall(masks: Sequence[int], villain: int, allowed: int) -> list[str]:
    """A smallest set of icons that, added to ``masks``, makes ``villain`` arrestable (with
    ``allowed`` icons missing): the first ones, in ``ICONS`` order, of those no card shows."""
    shown = 0
    for m in masks:
        shown |= m
    absent = [i for i in ICONS if villain & ~shown & ICON_BIT[i]]
    return absent[:max(0, len(absent) - allowed)]


@dataclass(frozen=True)
class Arrest:
    """What one player can do about one Villain (the spec's ``arrest`` entry)."""

    villain: Villain
    arrestable: bool
    cards: tuple[Evidence, ...]
    uses: tuple[str, ...]
    missing: tuple[str, ...]

    def to_json(self) -> dict:
        return {"villain": self.villain.id, "points": self.villain.points,
                "arrestable": self.arrestable, "cards": [c.id for c in self.cards],
                "uses": list(self.uses), "missing": list(self.missing)}


def arrest(cards: Sequence[Evidence], villain: Villain, tailing: bool, board: bool) -> Arrest:
    """The spec's answer for ``villain`` from the unused Evidence ``cards``: a smallest set
    that arrests it counting the tail (``tailing``) and an unused Holmes board's ignore
    (``board``); ``uses`` has ``tail`` whenever ``tailing``, ``holmes`` only when no set of
    that size works without the board; ``missing`` a smallest set of icons to add."""
    masks = [c.mask for c in cards]
    plain = fewest_cards(masks, villain.mask, allowance(tailing, False))
    found = plain
    uses = [TAIL] if tailing else []
    if board:
        helped = fewest_cards(masks, villain.mask, allowance(tailing, True))
        if helped is not None and (plain is None or helped[0] < plain[0]):
            found = helped
            uses.append(HOLMES_BOARD)
    if found is None:
        return Arrest(villain, False, (), tuple(uses),
                      tuple(shortfall(masks, villain.mask, allowance(tailing, board))))
    return Arrest(villain, True, tuple(cards[i] for i in found[1]), tuple(uses), ())


def best_arrest(options: Sequence[Arrest]) -> Arrest | None:
    """The arrestable option with the most points, ties by fewer cards, then the first."""
    best = None
    for a in options:
        if a.arrestable and (best is None or (a.villain.points, -len(a.cards))
                             > (best.villain.points, -len(best.cards))):
            best = a
    return best


def covers(cards: Sequence[Evidence], villain: Villain, allowed: int) -> bool:
    """Whether ``cards`` together show all of ``villain``'s icons but at most ``allowed``."""
    shown = 0
    for c in cards:
        shown |= c.mask
    return bin(villain.mask & ~shown & ALL_ICONS).count("1") <= allowed
