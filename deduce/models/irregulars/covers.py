"""Every smallest arrest, listed: the minimum covers of a Villain's icons by a player's
unused Evidence, in lexicographic order of the cards' indices, capped; and the arrests
``rules.State.legal_actions`` lists (``arrest_covers``).

``arrest_covers`` lists one cover per choice of *groups*: the cards that show the same
icons of the Villain are alike for the arrest, so of each group only its representative
serves (the card with the fewest icons in all, keeping the others' extra icons for later
arrests; then the earliest). The covers come in lexicographic order of the groups' icon
masks, at most ``cap``: the list depends on which icons the cards show, not on their
order, so it is remembered by the groups alone. Any other covering set stays playable
(``rules.State.apply`` takes any); this is the finite, sensible list. ``naive_arrest_covers`` is the same list
found the plain way (every subset of the cards), the benchmark's baseline.

A cover of ``villain`` (an icon mask) with ``allowed`` icons left out is a set of cards
whose icons together show at least ``|villain| - allowed`` of its icons. In a smallest
cover every card shows an icon no other card of the set shows (else it could be left
out), so a card that adds no new icon to the cards before it never extends a partial
smallest cover: the search below only adds cards that do, and stops a branch when even
two new icons per remaining card cannot reach the need. The size is found first: ``t``
icons take ``t - j`` cards, ``j`` the cards that bring two of them, at most a largest
matching of the two-icon cards and at most ``t // 2`` (``arrest.py``'s argument); then the
covers of that size are listed, the first ``cap`` in lexicographic order
(the same ones ``itertools.combinations`` would find first: ``naive_covers``, the
benchmark's baseline and the tests' referee).

>>> from deduce.models.irregulars.cards import ICON_BIT as B
>>> moran = B["heart"] | B["disguise"] | B["gang"] | B["blood"]
>>> masks = [B["heart"] | B["gang"], B["disguise"], B["blood"] | B["heart"], B["blood"]]
>>> min_covers(masks, moran, 0, 8)
(3, [(0, 1, 2), (0, 1, 3)])
>>> min_covers(masks, moran, 1, 8)
(2, [(0, 1), (0, 2), (0, 3), (1, 2)])
>>> min_covers(masks, B["skull"] | B["coins"], 1, 8) is None
True
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence


#: the number of icons of every 9-icon mask
POP = [bin(m).count("1") for m in range(1 << 9)]


def _matching(edges: list[int], target: int) -> int:
    """The size of a largest set of disjoint ``edges`` (2-icon masks), or ``target`` if
    that is smaller (the search stops there)."""
    best = 0

    def grow(start: int, used: int, count: int) -> None:
        nonlocal best
        if count > best:
            best = count
        for j in range(start, len(edges)):
            if best >= target:
                return
            e = edges[j]
            if not e & used:
                grow(j + 1, used | e, count + 1)

    grow(0, 0, 0)
    return min(best, target)


def min_covers(masks: Sequence[int], villain: int, allowed: int, cap: int
               ) -> tuple[int, list[tuple[int, ...]]] | None:
    """The size of a smallest cover of ``villain`` by ``masks`` (card icon masks) with
    ``allowed`` icons left out, and the first ``cap`` covers of that size (index tuples,
    ascending, in lexicographic order); None when no set of the cards covers it."""
    useful = [(i, m & villain) for i, m in enumerate(masks) if m & villain]
    shown = 0
    for _, m in useful:
        shown |= m
    need = POP[villain] - allowed
    if POP[shown] < need:
        return None
    if need <= 0:
        return 0, [()]
    # t icons take t - j cards, j the pairs used: at most a largest matching, at most t // 2
    pairs = sorted({m for _, m in useful if POP[m] == 2})
    size = need - _matching(pairs, need // 2)
    found: list[tuple[int, ...]] = []
    idx = [i for i, _ in useful]
    ms = [m for _, m in useful]
    n = len(ms)
    suffix = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        suffix[j] = suffix[j + 1] | ms[j]
    chosen: list[int] = []

    def walk(start: int, covered: int) -> None:
        left = size - len(chosen)
        have = POP[covered]
        if left == 0:
            if have >= need:
                found.append(tuple(chosen))
            return
        if have + 2 * left < need or POP[covered | suffix[start]] < need:
            return
        for j in range(start, n - left + 1):
            m = ms[j]
            if m & ~covered:
                chosen.append(idx[j])
                walk(j + 1, covered | m)
                chosen.pop()
                if len(found) >= cap:
                    return

    walk(0, 0)
    return size, found


def representatives(masks: Sequence[int], villain: int) -> dict[int, int]:
    """The cards that serve an arrest of ``villain``, by the icons of it they show: of
    each group of cards showing the same icons of it, the one with the fewest icons in
    all (then the first)."""
    best: dict[int, int] = {}
    for i, m in enumerate(masks):
        useful = m & villain
        if useful:
            j = best.get(useful)
            if j is None or POP[m] < POP[masks[j]]:
                best[useful] = i
    return best


#: ``arrest_covers`` answers by (the groups' icons squeezed, the Villain's icon count,
#: allowed, cap); emptied when it holds ``MEMO_CAP``
_MEMO: dict[tuple, tuple[int, list[tuple[int, ...]]] | None] = {}
MEMO_CAP = 1 << 16
#: per Villain mask: every mask's icons of it squeezed to the lowest bits, in order
_SQUEEZE: dict[int, list[int]] = {}


def squeezed(villain: int) -> list[int]:
    """The table mapping a mask to its icons of ``villain`` renumbered 0, 1, ... in
    order (an order-keeping map: the groups sort alike, so covers list alike, and every
    Villain of k icons shares the memo's answers).

    >>> squeezed(0b1010)[0b1000], squeezed(0b1010)[0b1111]
    (2, 3)
    """
    table = _SQUEEZE.get(villain)
    if table is None:
        # bit by bit: the masks below 1 << (b + 1) are those below 1 << b, then the same
        # with bit b, which adds the next squeezed bit when the Villain shows icon b
        table, nxt = [0], 1
        for b in range(9):
            add = 0
            if villain >> b & 1:
                add, nxt = nxt, nxt << 1
            table += [t | add for t in table]
        _SQUEEZE[villain] = table
    return table


def arrest_covers(masks: Sequence[int], villain: int, allowed: int, cap: int
                  ) -> tuple[int, list[tuple[int, ...]]] | None:
    """The smallest covers of ``villain`` made of ``representatives`` and their size;
    None when no set of the cards covers it. A cover is a tuple of indices into
    ``masks``, ascending; the covers come in lexicographic order of their groups' icon
    masks (each cover's masks ascending), at most ``cap``. Answers are remembered by the
    groups' icons alone, squeezed (``_MEMO``, ``squeezed``), so the same groups in
    another hand, or the same pattern of another Villain of as many icons, cost
    nothing."""
    # ``representatives`` inlined (the engine's hot spot), grouped by the squeezed icons
    # (the squeeze keeps the order: the groups sort as their icon masks would)
    table = _SQUEEZE.get(villain) or squeezed(villain)
    reps: dict[int, int] = {}
    shown = 0
    for i, m in enumerate(masks):
        g = table[m]
        if g:
            shown |= g
            j = reps.get(g)
            if j is None or POP[m] < POP[masks[j]]:
                reps[g] = i
    count = POP[villain]
    if POP[shown] < count - allowed:
        return None
    small = tuple(sorted(reps))
    key = (small, count, allowed, cap)
    found = _MEMO.get(key, _MEMO)
    if found is _MEMO:
        if len(_MEMO) >= MEMO_CAP:
            _MEMO.clear()
        found = _MEMO[key] = min_covers(small, (1 << count) - 1, allowed, cap)
    if found is None:  # pragma: no cover - the groups show every icon the cards show
        return None
    get = [reps[g] for g in small].__getitem__
    return found[0], [tuple(sorted(map(get, cover))) for cover in found[1]]


def naive_arrest_covers(masks: Sequence[int], villain: int, allowed: int, cap: int
                        ) -> tuple[int, list[tuple[int, ...]]] | None:
    """``arrest_covers`` the plain way: every subset of all the cards, smallest first,
    keeping the covers of the first size that has one made of representatives, sorted
    by their groups' icon masks."""
    reps = set(representatives(masks, villain).values())
    need = POP[villain] - allowed
    for k in range(len(masks) + 1):
        found, any_cover = [], False
        for combo in combinations(range(len(masks)), k):
            shown = 0
            for i in combo:
                shown |= masks[i]
            if POP[shown & villain] >= need:
                any_cover = True
                if all(i in reps for i in combo):
                    found.append(combo)
        if any_cover:
            found.sort(key=lambda c: sorted(masks[i] & villain for i in c))
            return k, found[:cap]
    return None


def naive_covers(masks: Sequence[int], villain: int, allowed: int, cap: int
                 ) -> tuple[int, list[tuple[int, ...]]] | None:
    """``min_covers`` the plain way: every subset of the cards, smallest first
    (``itertools.combinations``), keeping the covers of the first size that has one."""
    need = POP[villain] - allowed
    for k in range(len(masks) + 1):
        found = []
        for combo in combinations(range(len(masks)), k):
            shown = 0
            for i in combo:
                shown |= masks[i]
            if POP[shown & villain] >= need:
                found.append(combo)
                if len(found) >= cap:
                    break
        if found:
            return k, found
    return None
