"""Arrests as exact minimum covers over the 9 plot icons (bitmasks).

To arrest a Villain a player uses unused Evidence cards whose icons together show every
icon of the Villain but at most ``allowed`` of them: 1 while tailing that Villain (so 3 of
4, or 8 of 9 for Moriarty), 1 more with the Holmes board's "ignore one icon"
(``allowance``). A card with two needed icons covers both; each card is used once.

Every Evidence card shows 1 or 2 icons (the card-set rule), so covering a set ``U`` of
icons takes ``|U| - m(U)`` cards, ``m(U)`` the largest matching of the graph whose
vertices are the icons of ``U`` and whose edges are the pairs of ``U`` shown together on
one card (a matched pair is one card, every other icon one card of its own).

The icons no card shows must be left out (they use up the allowance, ``gaps``); the rest of
the allowance, ``d``, drops icons from the ``n`` icons shown (``need``). Decision (why one
matching suffices): with ``M`` the largest matching on all of ``need``, the best ``d``
icons to drop are first the ``n - 2M`` unmatched ones, then both ends of matched pairs,
which leaves a matching of ``min(M, (n - d) // 2)`` on the ``n - d`` icons kept; no ``U``
of ``n - d`` icons has more (a matching of ``U`` is one of ``need``, and has at most
``|U| // 2`` pairs). So the fewest cards are ``n - d - min(M, (n - d) // 2)``: one matching
per Villain, shared by the answers with and without the Holmes board.

The matching (``max_matching``; the card pairs of a tableau are an edge set, an int with a
bit per pair of icons): a greedy one (lowest edge first), kept when it matches every icon
but at most one; with 4 or 5 icons (most Villains) the largest has at most 2 pairs, so a
greedy single pair is replaced by any two disjoint pairs shown (``two_pairs``); else (6
icons or more: Moriarty) the greedy matching grows by augmenting paths searched
exhaustively. All exact; ``tests`` hold ``fewest_cards`` equal to ``naive_fewest_cards``
(every subset of cards by size) and ``arrest`` to ``naive_arrest`` (the spec read
literally) on random tableaux. Speed (``benchmarks/irregulars_arrest.py``): the whole
answer for a row of 5 with Moriarty and 20 cards in about 90 µs, some 150x brute force.

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

import functools
from functools import reduce
from itertools import combinations
from operator import or_
from typing import NamedTuple, Sequence

from deduce.models.irregulars.cards import ALL_ICONS, ICON_BIT, ICONS, Evidence, Villain

TAIL, HOLMES_BOARD = "tail", "holmes"
_N = len(ICONS)
#: the bits of every icon mask, lowest first
BITS = tuple(tuple(1 << i for i in range(_N) if m >> i & 1) for m in range(1 << _N))
#: the 36 pairs of icons (2-bit masks); an edge set is an int, bit k for ``PAIRS[k]``
PAIRS = tuple(a | b for a, b in combinations(BITS[ALL_ICONS], 2))
#: the edge bit of each icon mask (0 unless it has exactly 2 icons)
EDGE_BIT = [0] * (1 << _N)
for _k, _pair in enumerate(PAIRS):
    EDGE_BIT[_pair] = 1 << _k
#: per icon mask, the edges with both ends in it
INSIDE = [0] * (1 << _N)
for _m in range(1, 1 << _N):
    _low = _m & -_m
    INSIDE[_m] = INSIDE[_m ^ _low] | reduce(or_, (EDGE_BIT[_low | _b] for _b in BITS[_m ^ _low]),
                                            0)
#: per icon, the edges at it
STAR = {b: reduce(or_, (EDGE_BIT[b | c] for c in BITS[ALL_ICONS] if c != b), 0)
        for b in BITS[ALL_ICONS]}
#: the icon names of every icon mask, in ``ICONS`` order
MASK_ICONS = tuple(tuple(ICONS[i] for i in range(_N) if m >> i & 1) for m in range(1 << _N))
#: per edge index, the edges it leaves out of a matching (those sharing an icon with it)
CLASH = tuple(STAR[p & -p] | STAR[p ^ (p & -p)] for p in PAIRS)
del _k, _pair, _m, _low


@functools.cache
def two_pairs(icons: int) -> tuple[int, ...]:
    """Every edge set of two disjoint pairs inside ``icons`` (used for 4 or 5 icons, where a
    largest matching has at most 2 pairs)."""
    pairs = [p for p in PAIRS if p & icons == p]
    return tuple(EDGE_BIT[p] | EDGE_BIT[q] for p, q in combinations(pairs, 2) if not p & q)


def allowance(tailing: bool, ignore: bool) -> int:
    """How many of a Villain's icons may be missing: one for a tail on it, one for the
    Holmes board's ignore."""
    return int(tailing) + int(ignore)


def edge_bits(edges: int) -> list[int]:
    """The pairs (2-bit icon masks) of an edge set."""
    out = []
    while edges:
        low = edges & -edges
        out.append(PAIRS[low.bit_length() - 1])
        edges ^= low
    return out


def adjacency(edges: int) -> dict[int, int]:
    """Each icon's neighbours (an icon mask) in the edge set ``edges``, by the icon's bit."""
    adjacent: dict[int, int] = {}
    for pair in edge_bits(edges):
        a = pair & -pair
        adjacent[a] = adjacent.get(a, 0) | (pair ^ a)
        adjacent[pair ^ a] = adjacent.get(pair ^ a, 0) | a
    return adjacent


def ends(edges: int) -> int:
    """The icons of the edge set ``edges`` (the union of its pairs)."""
    icons = 0
    while edges:
        low = edges & -edges
        icons |= PAIRS[low.bit_length() - 1]
        edges ^= low
    return icons


def _greedy(edges: int, highest: bool = False) -> list[int]:
    """A maximal matching of ``edges``: the lowest (or highest) edge first, then again."""
    out = []
    while edges:
        k = edges.bit_length() - 1 if highest else (edges & -edges).bit_length() - 1
        out.append(PAIRS[k])
        edges &= ~CLASH[k]
    return out


def max_matching(edges: int, icons: int = ALL_ICONS, adjacent: dict[int, int] | None = None
                 ) -> list[int]:
    """A largest set of disjoint pairs (2-bit icon masks) of the edge set ``edges``, all
    inside the icon set ``icons`` (``adjacent``: ``adjacency`` of a superset of ``edges``
    whose pairs inside ``icons`` are ``edges``, when known).

    First the greedy matching (lowest edge first). It is kept when it matches all the icons
    of ``icons`` but at most one, or when it is empty (no edge). A greedy matching is
    maximal, so at least half the largest: when it has one pair ``ab``, the largest has 2
    exactly when ``a`` and ``b`` have other neighbours ``u != v`` (``au``, ``bv``: every
    edge meets ``ab``). Else (6 icons or more) the greedy matching from the highest edge is
    tried against the bound (half the icons on some edge), then the first one is grown by
    augmenting paths (Berge: a matching is largest when no path alternating between edges
    out of it and in it joins two unmatched icons); the paths are searched exhaustively
    (every simple alternating path from every unmatched icon, at most 9 icons), so odd
    cycles need no special care."""
    greedy = _greedy(edges)
    if not greedy or len(greedy) == icons.bit_count() // 2:
        return greedy
    if len(greedy) == 1:
        pair = greedy[0]
        a = pair & -pair
        b = pair ^ a
        near_a = ends(edges & STAR[a]) & ~pair
        near_b = ends(edges & STAR[b]) & ~pair
        if not near_a or not near_b or (near_a | near_b).bit_count() < 2:
            return greedy
        u = near_a & -near_a
        if near_b == u:  # then ``a`` has another neighbour
            u = (near_a ^ u) & -(near_a ^ u)
        v = near_b & ~u
        return [a | u, b | (v & -v)]
    if adjacent is None:
        adjacent = adjacency(edges)
    on_edge = 0
    for b in BITS[icons]:
        if adjacent.get(b, 0) & icons:
            on_edge |= b
    most = on_edge.bit_count() // 2
    if len(greedy) == most:
        return greedy
    other = _greedy(edges, highest=True)
    if len(other) == most:
        return other
    mate: dict[int, int] = {}
    for pair in greedy:
        a = pair & -pair
        mate[a], mate[pair ^ a] = pair ^ a, a
    while len(mate) < 2 * most:
        path = _augmenting(on_edge & ~sum(mate), mate, adjacent, on_edge)
        if path is None:
            break
        for i in range(0, len(path), 2):  # u x1 y1 x2 ... v: u-x1, y1-x2, ..., yk-v matched
            mate[path[i]], mate[path[i + 1]] = path[i + 1], path[i]
    return sorted(a | b for a, b in mate.items() if a < b)


def _augmenting(unmatched: int, mate: dict[int, int], adjacent: dict[int, int], icons: int
                ) -> list[int] | None:
    """A path ``u x1 y1 ... xk yk v`` from an unmatched icon ``u`` to another one ``v``,
    each ``xi yi`` a matched pair and the other steps edges (inside ``icons``), or None."""

    def walk(at: int, seen: int, path: list[int]) -> list[int] | None:
        near = adjacent[at] & icons & ~seen
        while near:
            x = near & -near
            near ^= x
            if x & unmatched:
                return path + [x]
            y = mate[x]
            if not y & seen:
                found = walk(y, seen | x | y, path + [x, y])
                if found:
                    return found
        return None

    left = unmatched
    while left:
        u = left & -left
        left ^= u
        found = walk(u, u, [u])
        if found:
            return found
    return None


class Tableau:
    """What the covers of one set of cards (icon masks of 1 or 2 icons, the card-set rule)
    need, computed once for every Villain: the icons shown and the edge set of the pairs
    shown together on one card; each icon's neighbours (``adjacency``) when first asked."""

    __slots__ = ("masks", "shown", "edges", "_adjacent", "_single")

    def __init__(self, masks: Sequence[int]):
        self.masks = masks
        self.shown = reduce(or_, masks, 0)
        self.edges = reduce(or_, map(EDGE_BIT.__getitem__, masks), 0)
        self._adjacent: dict[int, int] | None = None
        self._single: dict[int, int] = {}  # the first card showing an icon, once asked

    @property
    def adjacent(self) -> dict[int, int]:
        if self._adjacent is None:
            self._adjacent = adjacency(self.edges)
        return self._adjacent

    def matching(self, need: int) -> list[int]:
        """A largest matching of the pairs shown inside the icons ``need``."""
        edges = self.edges & INSIDE[need]
        if not edges:
            return []
        return max_matching(edges, need, self.adjacent)

    def fewest(self, villain: int, allowed: int) -> tuple[int, int, list[int]] | None:
        """``(gaps, need, matching)`` for ``villain`` (None when more than ``allowed`` of
        its icons are on no card): ``gaps`` its icons on no card, ``need`` those shown,
        ``matching`` a largest matching of the pairs shown inside ``need``."""
        gaps = (villain & ~self.shown).bit_count()
        if gaps > allowed:
            return None
        need = villain & self.shown
        return gaps, need, self.matching(need)

    @staticmethod
    def count(need: int, pairs: int, drop: int) -> int:
        """The fewest cards covering all of ``need`` but ``drop`` icons, ``pairs`` the size
        of a largest matching on ``need`` (the module docstring's formula)."""
        kept = max(0, need.bit_count() - drop)
        return kept - min(pairs, kept // 2)

    def cover(self, need: int, pairs: list[int], drop: int) -> list[int]:
        """Indices of a smallest set of cards covering ``need`` but ``drop`` icons, from a
        largest matching ``pairs`` on ``need``: the unmatched icons are dropped first (in
        ``ICONS`` order), then whole pairs from the last, then one end of one more. A
        pair is its first card; a single icon the first card showing it (never one chosen
        for another icon: two unmatched icons on one card would make the matching larger).
        """
        singles = BITS[need & ~sum(pairs)]  # the pairs are disjoint: their sum is their union
        keep = len(pairs)
        if drop <= len(singles):
            if drop:
                singles = singles[drop:]
        else:
            left = drop - len(singles)
            singles = ()
            keep = max(0, keep - left // 2)
            if left % 2 and keep:
                keep -= 1
                singles = BITS[pairs[keep]][:1]  # one end stays, as a single
        masks, single = self.masks, self._single
        index = masks.index
        chosen = list(map(index, pairs if keep == len(pairs) else pairs[:keep]))
        for b in singles:
            i = single.get(b)
            if i is None:
                i = single[b] = index(next(filter(b.__and__, masks)))
            chosen.append(i)
        chosen.sort()
        return chosen


def fewest_cards(masks: Sequence[int], villain: int, allowed: int
                 ) -> tuple[int, list[int]] | None:
    """The fewest cards among ``masks`` (icon masks, 1 or 2 icons each: ``ValueError``
    otherwise) that show all of ``villain``'s icons but at most ``allowed``, and the
    indices of one such set; None when no set does."""
    masks = list(masks)
    if any(not 1 <= m.bit_count() <= 2 for m in masks):
        raise ValueError("every card shows 1 or 2 icons")
    tableau = Tableau(masks)
    found = tableau.fewest(villain, allowed)
    if found is None:
        return None
    gaps, need, pairs = found
    cover = tableau.cover(need, pairs, allowed - gaps)
    return len(cover), cover


def naive_fewest_cards(masks: Sequence[int], villain: int, allowed: int
                       ) -> tuple[int, list[int]] | None:
    """The reference (and the benchmark's baseline): every subset of the cards, smallest
    first, until one shows all of ``villain``'s icons but at most ``allowed``; None when the
    whole set does not. Same contract as ``fewest_cards`` (possibly another set)."""
    shown = 0
    for m in masks:
        shown |= m
    if bin(villain & ~shown).count("1") > allowed:
        return None
    for size in range(len(masks) + 1):
        for subset in combinations(range(len(masks)), size):
            got = 0
            for i in subset:
                got |= masks[i]
            if bin(villain & ~got).count("1") <= allowed:
                return size, list(subset)
    raise AssertionError("unreachable: the whole set covers")  # pragma: no cover


def shortfall(masks: Sequence[int], villain: int, allowed: int) -> list[str]:
    """A smallest set of icons that, added to ``masks``, makes ``villain`` arrestable (with
    ``allowed`` icons missing): the first ones, in ``ICONS`` order, of those no card shows."""
    shown = 0
    for m in masks:
        shown |= m
    absent = [i for i in ICONS if villain & ~shown & ICON_BIT[i]]
    return absent[:max(0, len(absent) - allowed)]


class Arrest(NamedTuple):
    """What one player can do about one Villain (the spec's ``arrest`` entry); a named
    tuple, made fast (one for each visible Villain at every query)."""

    villain: Villain
    arrestable: bool
    cards: tuple[Evidence, ...]
    uses: tuple[str, ...]
    missing: tuple[str, ...]

    def to_json(self) -> dict:
        return {"villain": self.villain.id, "points": self.villain.points,
                "arrestable": self.arrestable, "cards": [c.id for c in self.cards],
                "uses": list(self.uses), "missing": list(self.missing)}


def arrest(cards: Sequence[Evidence], villain: Villain, tailing: bool, board: bool,
           tableau: Tableau | None = None) -> Arrest:
    """The spec's answer for ``villain`` from the unused Evidence ``cards``: a smallest set
    that arrests it counting the tail (``tailing``) and an unused Holmes board's ignore
    (``board``); ``uses`` has ``tail`` whenever ``tailing``, ``holmes`` only when no set of
    that size works without the board; ``missing`` a smallest set of icons to add (the
    first ones, in ``ICONS`` order, of those no card shows: ``shortfall``).
    ``tableau``: ``Tableau`` of the cards' masks, when already made."""
    return arrests(cards, [villain], villain.id if tailing else None, board, tableau)[0]


def solve_row(tableau: Tableau, villains: Sequence[Villain], tailed: str | None,
              board: bool, tail_all: bool = False
              ) -> list[tuple[list[int] | None, tuple[str, ...], tuple[str, ...]]]:
    """The core of ``arrests`` and ``arrests_json``: for each of ``villains`` (in their
    order) ``(cards, uses, missing)``, ``cards`` the indices of a smallest set in
    ``tableau`` (None: not arrestable), the player tailing the Villain of id ``tailed``
    (None: none; ``tail_all``: as if tailing every one, solo Holmes) and holding an unused
    Holmes board when ``board``. One loop for the whole row (the arrest query's time: the greedy step of ``max_matching`` and the board's
    choice are inlined)."""
    shown, all_edges, cover = tableau.shown, tableau.edges, tableau.cover
    out = []
    for villain in villains:
        wanted = villain.mask
        tailing = tail_all or villain.id == tailed
        allowed = tailing + board
        uses = (TAIL,) if tailing else ()
        gaps = (wanted & ~shown).bit_count()
        if gaps > allowed:
            out.append((None, uses, MASK_ICONS[wanted & ~shown][:gaps - allowed]))
            continue
        need = wanted & shown
        edges = all_edges & INSIDE[need]
        pairs = []
        left = edges
        while left:
            k = (left & -left).bit_length() - 1
            pairs.append(PAIRS[k])
            left &= ~CLASH[k]
        n = need.bit_count()
        if pairs and len(pairs) != n // 2:
            if n <= 5:  # the greedy 1 pair, the largest at most 2: any two disjoint pairs?
                for two in two_pairs(need):
                    if edges & two == two:
                        pairs = edge_bits(two)
                        break
            else:
                pairs = max_matching(edges, need, tableau.adjacent)
        drop = allowed - gaps
        if board:
            # the fewest cards keeping ``kept`` icons are kept - min(M, kept // 2); without
            # the board one icon more is kept, or the Villain is out of reach (drop 0)
            kept = max(0, n - drop)
            m = len(pairs)
            if drop and kept + 1 - min(m, (kept + 1) // 2) == kept - min(m, kept // 2):
                drop -= 1
            else:
                uses += (HOLMES_BOARD,)
        out.append((cover(need, pairs, drop), uses, ()))
    return out


def arrests(cards: Sequence[Evidence], villains: Sequence[Villain], tailed: str | None,
            board: bool, tableau: Tableau | None = None, tail_all: bool = False
            ) -> list[Arrest]:
    """``arrest`` for each of ``villains`` (in their order) from the same unused Evidence
    ``cards``, the player tailing the Villain of id ``tailed`` (None: none; ``tail_all``:
    every one, as solo Holmes does)."""
    if tableau is None:
        tableau = Tableau([c.mask for c in cards])
    rows = solve_row(tableau, villains, tailed, board, tail_all)
    return [Arrest(v, chosen is not None, () if chosen is None else
                   tuple([cards[i] for i in chosen]), uses, missing)
            for v, (chosen, uses, missing) in zip(villains, rows)]


def arrests_json(player: str, cards: Sequence[Evidence], villains: Sequence[Villain],
                 tailed: str | None, board: bool) -> dict:
    """The spec's JSON of ``deduce irregulars arrest`` straight from ``solve_row`` (the
    query as the CLI answers it; equal to ``answer_json(player, arrests(...))``)."""
    rows = []
    best, key = None, None
    for v, (chosen, uses, missing) in zip(villains, solve_row(
            Tableau([c.mask for c in cards]), villains, tailed, board)):
        if chosen is None:
            rows.append({"villain": v.id, "points": v.points, "arrestable": False,
                         "cards": [], "uses": list(uses), "missing": list(missing)})
            continue
        rows.append({"villain": v.id, "points": v.points, "arrestable": True,
                     "cards": [cards[i].id for i in chosen], "uses": list(uses),
                     "missing": []})
        if best is None or (v.points, -len(chosen)) > key:
            best, key = v.id, (v.points, -len(chosen))
    return {"player": player, "villains": rows, "best": best}


def naive_arrest(cards: Sequence[Evidence], villain: Villain, tailing: bool, board: bool
                 ) -> Arrest:
    """The reference of ``arrest`` (and the benchmark's baseline), the spec's rules read
    literally with ``naive_fewest_cards``: the smallest set with the tail, then with the
    board as well, the board in ``uses`` only when it makes the set smaller."""
    masks = [c.mask for c in cards]
    plain = naive_fewest_cards(masks, villain.mask, allowance(tailing, False))
    found = plain
    uses = [TAIL] if tailing else []
    if board:
        helped = naive_fewest_cards(masks, villain.mask, allowance(tailing, True))
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


def answer_json(player: str, options: Sequence[Arrest]) -> dict:
    """The spec's JSON of ``deduce irregulars arrest``: one entry per visible Villain (in
    the row's order) and ``best`` (``best_arrest``; null if none)."""
    best = best_arrest(options)
    return {"player": player, "villains": [a.to_json() for a in options],
            "best": None if best is None else best.villain.id}


def position_json(position, player: str) -> dict:
    """``arrests_json`` for ``player`` of a ``position.Position`` (as ``position_arrests``)."""
    from deduce.models.irregulars.position import BOARDS

    by_id = position.cards.villain_by_id
    return arrests_json(player, position.unused(player),
                        [by_id[v] for v in position.villains], position.tailing[player],
                        BOARDS[0] in position.boards[player])


def position_arrests(position, player: str) -> list[Arrest]:
    """``arrests`` for ``player`` of a ``position.Position``: the visible Villains, the
    player's unused Evidence, tail and Holmes board (held: unused; the position does not
    record a board's use, which returns it)."""
    from deduce.models.irregulars.position import BOARDS

    by_id = position.cards.villain_by_id
    return arrests(position.unused(player), [by_id[v] for v in position.villains],
                   position.tailing[player], BOARDS[0] in position.boards[player])


def covers(cards: Sequence[Evidence], villain: Villain, allowed: int) -> bool:
    """Whether ``cards`` together show all of ``villain``'s icons but at most ``allowed``."""
    shown = 0
    for c in cards:
        shown |= c.mask
    return bin(villain.mask & ~shown & ALL_ICONS).count("1") <= allowed
