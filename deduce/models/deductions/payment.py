"""Paying a case in Deductions: the cheapest legal payment of a due from a clue pool.

The rules (spec "Paying a case"): each solved card lowers its discount suit's requirement
by 1, not below 0 (``discounted_due``). The rest, the *due*, is paid from the pool: a
regular card pays 1 of its suit; Sherlock pays 2 of one suit you choose; Lestrade pays 1
of any suit; Watson, Mycroft and Irene pay 1 of their own suit; any 3 pool cards (Allies
included, each as one card) pay 1 of any suit (a cross-reference). Paying more than is due
is allowed; the surplus is lost.

The optimum (``pay``): the fewest pool cards spent; among those, the fewest Allies. It is
exact and fast because the cheapest payment has a simple shape once the Sherlocks are
placed (each on one suit, or kept; every placement is tried):

- each suit's own cards (its regular cards, then Watson/Mycroft/Irene) pay it directly, up
  to what it still owes: a direct card pays a unit for 1 card where a cross-reference pays
  it for 3, and gives up only 1 of the cards a cross-reference could use;
- Lestrade pays what they leave, in any suit, for the same reason;
- whatever is still owed takes 3 cards per unit from the cards left.

Ties between payments that spend as many cards and Allies, fixed as follows (all of them
documented choices, not rules):

- Sherlock is kept rather than placed when that costs nothing; else he pays the first suit
  of ``SUITS`` among the equally good ones;
- the direct cards of a suit are its regular cards before its Ally;
- Lestrade and the cross-references pay the suits still owed in ``SUITS`` order;
- a cross-reference takes regular cards first, always from the suit with the most copies
  left (so the pool keeps its spread), ties to the suit whose next copy comes first in the
  pool; then Allies in ``ALLY_SPEND_ORDER`` (Watson first: he draws a replacement; Sherlock
  last: he is worth 2), each group listed in pool order;
- of identical cards, the earliest in the pool are spent; ``pool_after`` keeps the order.

``short_by`` is exact too: with the Sherlocks placed, each extra regular card of a suit
still owed saves a cross-reference, so ``ceil((3 * units left - cards left) / 3)`` extra
cards are needed; the least over the placements is the answer.

``affordable`` (``affordable_dues`` for several dues at once) answers ``pay(...) is not
None`` from the pool's counts alone (``pool_counts``) in closed form, for the rules
engine's start step; its dues are vectors in ``SUITS`` order (``due_vector``,
``due_dict``, ``discounted``), paid by ``pay_vector``. ``use_pays`` is what one use of a
payment is worth (the rules engine checks a payment it is given with it).

Cards are the names of ``SUITS`` (regular cards) and of ``ALLY_SUIT`` (Allies), exactly;
any other name is a ``ValueError`` (the callers hand over parsed, canonical names).
"""

from __future__ import annotations

from dataclasses import dataclass
from heapq import heapify, heappop, heapreplace
from itertools import combinations_with_replacement
from typing import NamedTuple

from deduce.models.deductions.cards import (
    ALLY_SUIT,
    IRENE,
    LESTRADE,
    MYCROFT,
    SHERLOCK,
    SUITS,
    WATSON,
)

CROSS_REFERENCE = 3  # pool cards per unit of any suit
SHERLOCK_PAYS = 2  # units of the one suit he pays
#: The Allies a cross-reference takes when it must, first first.
ALLY_SPEND_ORDER = (WATSON, MYCROFT, IRENE, LESTRADE, SHERLOCK)
#: The Allies that pay 1 of their own suit (Sherlock and Lestrade have rules of their own).
OWN_SUIT_ALLIES = {ALLY_SUIT[a]: a for a in (WATSON, MYCROFT, IRENE)}

_INDEX = {s: i for i, s in enumerate(SUITS)}
assert len(SUITS) == 5  # affordable_dues and discounted are unrolled for the five suits


@dataclass
class Payment:
    """One payment: ``uses`` lists each use (the pool cards spent together, the suit
    paid; Sherlock's use pays 2 of it, a 3-card use is a cross-reference), ``spent`` the
    cards spent in pool order, ``pool_after`` the pool without them (order kept; not the
    card Watson's draw brings), ``cards_spent`` and ``allies_spent`` their counts."""

    uses: list[tuple[tuple[str, ...], str]]
    spent: list[str]
    pool_after: list[str]
    cards_spent: int
    allies_spent: int


class _Plan(NamedTuple):
    """One shape of payment once the Sherlocks are placed (per-suit counts by suit index)."""

    cards: int
    allies: int
    sherlock: tuple[int, ...]  # Sherlocks paying each suit
    regular: tuple[int, ...]  # regular cards paying their own suit
    own_ally: tuple[int, ...]  # Watson/Mycroft/Irene paying their own suit
    owed: tuple[int, ...]  # units left for Lestrade and the cross-references
    lestrades: int
    crosses: int


def _suit(name: str, what: str) -> int:
    """The index of suit ``name``; ValueError naming ``what`` for anything else."""
    if name not in _INDEX:
        raise ValueError(f"{what}: {name!r} is not a suit (one of {', '.join(SUITS)})")
    return _INDEX[name]


def due_vector(due: dict[str, int]) -> tuple[int, ...]:
    """``due`` as counts in ``SUITS`` order (missing suits 0); ValueError for an unknown
    suit or a count that is not a whole number >= 0."""
    vec = [0] * len(SUITS)
    for suit, n in due.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"due: {suit!r} owes {n!r}, not a whole number >= 0")
        vec[_suit(suit, "due")] += n
    return tuple(vec)


def due_dict(due: tuple[int, ...]) -> dict[str, int]:
    """A due vector (``SUITS`` order) as a due: suits at 0 left out, ``SUITS`` order."""
    return {s: n for s, n in zip(SUITS, due) if n}


def discounted(cost: tuple[int, ...], discounts: tuple[int, ...]) -> tuple[int, ...]:
    """The due vector of ``cost`` (a due vector) once ``discounts[i]`` solved cards
    discount suit i: each lowers its suit by 1, not below 0."""
    c0, c1, c2, c3, c4 = cost  # the five suits, unrolled
    k0, k1, k2, k3, k4 = discounts
    return (c0 - k0 if c0 > k0 else 0, c1 - k1 if c1 > k1 else 0, c2 - k2 if c2 > k2 else 0,
            c3 - k3 if c3 > k3 else 0, c4 - k4 if c4 > k4 else 0)


class _Pool(NamedTuple):
    """A pool counted: regular cards and own-suit Allies per suit, Sherlocks, Lestrades."""

    size: int
    regular: tuple[int, ...]
    own_ally: tuple[int, ...]
    sherlocks: int
    lestrades: int


#: per card name, its slot in ``_count``'s tally: regular cards 0-4 (suit index), own-suit
#: Allies 5-9 (their suit's index + 5), Sherlock 10, Lestrade 11
_TALLY = {**{s: i for i, s in enumerate(SUITS)},
          **{a: len(SUITS) + _INDEX[ALLY_SUIT[a]] for a in OWN_SUIT_ALLIES.values()},
          SHERLOCK: 2 * len(SUITS), LESTRADE: 2 * len(SUITS) + 1}


def _count(pool: list[str]) -> _Pool:
    """``pool`` counted; ValueError for a name that is neither a suit nor an Ally."""
    tally = [0] * (2 * len(SUITS) + 2)
    try:
        for slot in map(_TALLY.__getitem__, pool):
            tally[slot] += 1
    except (KeyError, TypeError):
        card = next(c for c in pool if not isinstance(c, str) or c not in _TALLY)
        raise ValueError(f"pool: {card!r} is neither a suit nor an Ally") from None
    return _Pool(len(pool), tuple(tally[:5]), tuple(tally[5:10]), tally[10], tally[11])


#: the one placement of no Sherlock
_NO_SHERLOCK = ((0,) * len(SUITS),)
#: the Sherlock placements already listed, by (owing suits, Sherlocks); emptied when full
PLACED_CACHE = 1 << 12
_PLACED: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}


def _placements(due: tuple[int, ...], sherlocks: int):
    """Every placement of the Sherlocks (each on an owing suit, or kept) as per-suit
    counts, keeping more of them first, then earlier suits first (remembered by the
    owing suits and the count)."""
    if not sherlocks:
        return _NO_SHERLOCK
    owing = tuple(i for i, d in enumerate(due) if d > 0)
    key = (owing, sherlocks)
    found = _PLACED.get(key)
    if found is None:
        out = []
        for choice in combinations_with_replacement([None, *owing], sherlocks):
            counts = [0] * len(SUITS)
            for i in choice:
                if i is not None:
                    counts[i] += 1
            out.append(tuple(counts))
        if len(_PLACED) >= PLACED_CACHE:
            _PLACED.clear()
        found = _PLACED[key] = tuple(out)
    return found


def _shape(due: tuple[int, ...], pool: _Pool, sherlock: tuple[int, ...]):
    """``(plan or None, extra cards needed)`` for the Sherlocks placed as ``sherlock``:
    the cheapest payment of that shape (None when it cannot be paid) and the fewest extra
    regular cards that would make it payable (0 when it is)."""
    regular, own, owed = [0] * len(SUITS), [0] * len(SUITS), [0] * len(SUITS)
    pool_regular, pool_own = pool.regular, pool.own_ally
    placed = paid_regular = paid_own = total = 0
    for i, d in enumerate(due):
        y = sherlock[i]
        placed += y
        n = d - SHERLOCK_PAYS * y
        if n <= 0:
            continue
        r = pool_regular[i]
        if r >= n:
            regular[i] = n
            paid_regular += n
            continue
        regular[i] = r
        paid_regular += r
        n -= r
        a = pool_own[i]
        if a >= n:
            own[i] = n
            paid_own += n
            continue
        own[i] = a
        paid_own += a
        owed[i] = n - a
        total += n - a
    lestrades = pool.lestrades if pool.lestrades < total else total
    crosses = total - lestrades
    direct = placed + paid_regular + paid_own + lestrades
    gap = CROSS_REFERENCE * crosses - (pool.size - direct)
    if gap > 0:
        return None, -(-gap // CROSS_REFERENCE)
    cross_allies = CROSS_REFERENCE * crosses - (sum(pool_regular) - paid_regular)
    allies = placed + paid_own + lestrades + (cross_allies if cross_allies > 0 else 0)
    plan = _Plan(direct + CROSS_REFERENCE * crosses, allies, sherlock, tuple(regular),
                 tuple(own), tuple(owed), lestrades, crosses)
    return plan, 0


def _best(due: tuple[int, ...], pool: _Pool) -> tuple[_Plan | None, int]:
    """The cheapest plan (fewest cards, then Allies; the first such placement) or None,
    and the fewest extra regular cards that make the due payable."""
    if not pool.sherlocks:
        return _shape(due, pool, _NO_SHERLOCK[0])
    best, short = None, None
    for sherlock in _placements(due, pool.sherlocks):
        plan, extra = _shape(due, pool, sherlock)
        if plan is not None and (best is None or plan[:2] < best[:2]):
            best = plan
        short = extra if short is None else min(short, extra)
    return best, short


def _cross_cards(crosses: int, pool: list[str], taken: dict[str, int]) -> list[str]:
    """The cards of ``crosses`` cross-references, in the order they are grouped: regular
    cards from the suit with the most copies left (ties: the next copy first in the pool),
    then Allies in ``ALLY_SPEND_ORDER``. ``taken`` counts the copies already spent and is
    updated."""
    wanted = CROSS_REFERENCE * crosses
    at: list[list[int]] = [[] for _ in SUITS]  # per suit, the positions of its copies
    index = _INDEX
    for i, card in enumerate(pool):
        k = index.get(card)
        if k is not None:
            at[k].append(i)
    # a heap of (-copies left, position of the next copy, suit index): its least entry
    # is the suit with the most copies left, ties to the next copy first (positions are
    # distinct)
    heap = []
    for k, positions in enumerate(at):
        n = taken.get(SUITS[k], 0)
        if n < len(positions):
            heap.append((n - len(positions), positions[n], k))
    heapify(heap)
    picked: list[str] = []
    while heap and len(picked) < wanted:
        minus_left, _, k = heap[0]
        picked.append(SUITS[k])
        n = taken[SUITS[k]] = taken.get(SUITS[k], 0) + 1
        if minus_left < -1:
            heapreplace(heap, (minus_left + 1, at[k][n], k))
        else:
            heappop(heap)
    for ally in ALLY_SPEND_ORDER:
        while len(picked) < wanted and pool.count(ally) > taken.get(ally, 0):
            taken[ally] = taken.get(ally, 0) + 1
            picked.append(ally)
    return picked


#: the one-card uses, per suit index: a regular card, its Ally, Sherlock on it
_DIRECT_USE = tuple(((suit,), suit) for suit in SUITS)
_ALLY_USE = tuple(((OWN_SUIT_ALLIES[suit],), suit) if suit in OWN_SUIT_ALLIES else None
                  for suit in SUITS)
_SHERLOCK_USE = tuple(((SHERLOCK,), suit) for suit in SUITS)


def _uses(plan: _Plan, pool: list[str]) -> tuple[list[tuple[tuple[str, ...], str]], dict]:
    """The uses of ``plan`` (Sherlock, Lestrade, the direct cards by suit, the
    cross-references) and the count of each card name they spend."""
    uses: list[tuple[tuple[str, ...], str]] = []
    taken: dict[str, int] = {}
    placed = plan.sherlock
    if placed is not _NO_SHERLOCK[0] and any(placed):
        for i, suit in enumerate(SUITS):
            if placed[i]:
                uses += [_SHERLOCK_USE[i]] * placed[i]
        taken[SHERLOCK] = sum(placed)
    owed = [suit for i, suit in enumerate(SUITS) for _ in range(plan.owed[i])] \
        if plan.lestrades or plan.crosses else ()
    if plan.lestrades:
        uses += [((LESTRADE,), suit) for suit in owed[:plan.lestrades]]
        taken[LESTRADE] = plan.lestrades
    regular, own = plan.regular, plan.own_ally
    for i, use in enumerate(_DIRECT_USE):
        n = regular[i]
        if n:
            uses += [use] * n
            taken[use[1]] = n
        n = own[i]
        if n:
            ally_use = _ALLY_USE[i]
            uses += [ally_use] * n
            taken[ally_use[0][0]] = n
    if plan.crosses:
        cross = _cross_cards(plan.crosses, pool, taken)
        for k, suit in enumerate(owed[plan.lestrades:]):
            group = cross[CROSS_REFERENCE * k:CROSS_REFERENCE * (k + 1)]
            uses.append((tuple(sorted(group, key=pool.index)), suit))
    return uses, taken


def _split(pool: list[str], taken: dict[str, int]) -> tuple[list[str], list[str]]:
    """``(spent, kept)``: the earliest ``taken[name]`` copies of each name and the rest,
    both in pool order."""
    if not taken:
        return [], list(pool)
    spent, kept = [], []
    left = dict(taken)
    for card in pool:
        n = left.get(card)
        if n:
            left[card] = n - 1
            spent.append(card)
        else:
            kept.append(card)
    return spent, kept


#: per suit index, the Ally that pays that suit (None for a suit without one)
_ALLY_OF_SUIT = tuple(OWN_SUIT_ALLIES.get(suit) for suit in SUITS)


def spend_vector(due: tuple[int, ...], pool: list[str]) -> tuple[list[str], list[str]] | None:
    """What the rules engine keeps of ``pay_vector(due, pool)``: ``(spent, kept)``, the
    cards its uses spend, use by use (``[c for cards, _ in uses for c in cards]``), and
    its ``pool_after``; None when the pool cannot pay. The same payment, found without
    building its uses or plan (half the work of ``pay_vector``); a pool with Sherlock
    goes through ``pay_vector`` (his placements are tried there)."""
    tally = [0] * (2 * len(SUITS) + 2)
    try:
        for slot in map(_TALLY.__getitem__, pool):
            tally[slot] += 1
    except (KeyError, TypeError):
        _count(pool)  # raises the ValueError naming the card
        raise  # pragma: no cover
    if tally[10]:  # a Sherlock
        payment = pay_vector(due, pool)
        if payment is None:
            return None
        return [card for cards, _ in payment.uses for card in cards], payment.pool_after
    direct: list[str] = []
    taken: dict[str, int] = {}
    owed: list[str] = []
    for i, d in enumerate(due):
        if d <= 0:
            continue
        suit = SUITS[i]
        r = tally[i]
        if r >= d:
            direct += [suit] * d
            taken[suit] = d
            continue
        if r:
            direct += [suit] * r
            taken[suit] = r
        d -= r
        a = tally[5 + i]
        if a:
            a = a if a < d else d
            ally = _ALLY_OF_SUIT[i]
            direct += [ally] * a
            taken[ally] = a
            d -= a
        if d:
            owed += [suit] * d
    if not owed:
        return direct, _split(pool, taken)[1]
    lestrades = tally[11] if tally[11] < len(owed) else len(owed)
    crosses = len(owed) - lestrades
    if CROSS_REFERENCE * crosses > len(pool) - len(direct) - lestrades:
        return None
    spent = [LESTRADE] * lestrades + direct
    if lestrades:
        taken[LESTRADE] = lestrades
    if crosses:
        cross = _cross_cards(crosses, pool, taken)
        at = pool.index
        for k in range(crosses):
            spent += sorted(cross[CROSS_REFERENCE * k:CROSS_REFERENCE * (k + 1)], key=at)
    return spent, _split(pool, taken)[1]


def discounted_due(cost: dict[str, int], discounts: list[str]) -> dict[str, int]:
    """What is still owed of ``cost`` (suit -> count) once each solved card's discount
    suit in ``discounts`` lowers its suit by 1, not below 0 (``discounted``); suits at 0
    left out, the rest in ``SUITS`` order. ValueError for a name that is not a suit."""
    vec = due_vector(cost)
    counts = [0] * len(SUITS)
    for suit in discounts:
        counts[_suit(suit, "discounts")] += 1
    return due_dict(discounted(vec, counts))


#: per card name, its slot in ``pool_counts``: its suit (a regular card or Watson, Mycroft,
#: Irene), then Lestrade, Sherlock
_SLOT = {**_INDEX, **{a: _INDEX[ALLY_SUIT[a]] for a in OWN_SUIT_ALLIES.values()},
         LESTRADE: len(SUITS), SHERLOCK: len(SUITS) + 1}


#: read-only for callers (the rules engine counts a pool inline)
POOL_SLOT = _SLOT


def pool_counts(pool: list[str]) -> tuple[int, ...]:
    """What ``affordable`` needs of ``pool``: per suit (``SUITS`` order) the cards that
    pay it directly (its regular cards, its Ally Watson, Mycroft or Irene), then the
    Lestrades, the Sherlocks and the pool's size; ValueError as ``pay``."""
    counts = [0, 0, 0, 0, 0, 0, 0]  # the five suits, Lestrade, Sherlock
    slot = _SLOT
    try:
        for card in pool:
            counts[slot[card]] += 1
    except (KeyError, TypeError):
        _count(pool)  # raises the ValueError naming the card
        raise  # pragma: no cover
    counts.append(len(pool))
    return tuple(counts)


def affordable(due: tuple[int, ...], counts: tuple[int, ...]) -> bool:
    """Exactly ``pay(due_dict(due), pool) is not None`` for ``counts = pool_counts(pool)``
    (``due`` a due vector), without building a payment (``affordable_dues``)."""
    return affordable_dues((due,), counts)[0]


def affordable_dues(dues, counts: tuple[int, ...]) -> list[bool]:
    """``affordable(due, counts)`` for each due vector of ``dues``, in one pass.

    With ``k`` Sherlocks placed (every placement tried, as ``pay``; none without a
    Sherlock), a suit owing ``n`` (its due less 2 per Sherlock on it) is paid directly
    up to its direct cards; what is left, ``owed`` in all, is paid by the Lestrades and
    then 3 cards per unit of the rest. The cards left for the cross-references are the
    pool less the ``k`` Sherlocks, the ``units - owed`` direct cards and the
    ``min(lestrades, owed)`` Lestrades (``units``: the sum of the ``n``), so the due is
    payable iff ``owed <= lestrades`` or ``size - k - units + owed - lestrades >= 3 *
    (owed - lestrades)``; the second follows from the first, so both are
    ``2 * owed <= size - k - units + 2 * lestrades``."""
    if counts[6] == 1:
        return [_one_sherlock_affordable(due, counts) for due in dues]
    if counts[6]:
        return [_placed_affordable(due, counts) for due in dues]
    c0, c1, c2, c3, c4, lestrades, _, size = counts  # the five suits, unrolled
    room = size + 2 * lestrades
    out = []
    for d0, d1, d2, d3, d4 in dues:
        owed = ((d0 - c0 if d0 > c0 else 0) + (d1 - c1 if d1 > c1 else 0)
                + (d2 - c2 if d2 > c2 else 0) + (d3 - c3 if d3 > c3 else 0)
                + (d4 - c4 if d4 > c4 else 0))
        out.append(2 * owed <= room - d0 - d1 - d2 - d3 - d4)
    return out


def _one_sherlock_affordable(due: tuple[int, ...], counts: tuple[int, ...]) -> bool:
    """``affordable`` with one Sherlock in the pool: kept (the formula with no Sherlock
    placed), or placed on one owing suit ``i``, which changes only suit ``i``'s terms:
    it owes ``d - 2`` and the Sherlock counts as one card spent."""
    room = counts[7] + 2 * counts[5]
    owed = units = 0
    for d, k in zip(due, counts):
        if d > 0:
            units += d
            if d > k:
                owed += d - k
    if 2 * owed <= room - units:
        return True
    for d, k in zip(due, counts):
        if d > 0:
            n = d - SHERLOCK_PAYS
            placed_units = units - d + 1 + (n if n > 0 else 0)
            placed_owed = owed - (d - k if d > k else 0) + (n - k if n > k else 0)
            if 2 * placed_owed <= room - placed_units:
                return True
    return False


def _placed_affordable(due: tuple[int, ...], counts: tuple[int, ...]) -> bool:
    """``affordable`` with Sherlocks in the pool: every placement tried."""
    room = counts[7] + 2 * counts[5]
    for placed in _placements(due, counts[6]):
        owed = units = 0
        for d, k, y in zip(due, counts, placed):
            n = d - SHERLOCK_PAYS * y
            units += y  # the Sherlock itself, counted with the cards spent
            if n > 0:
                units += n
                if n > k:
                    owed += n - k
        if 2 * owed <= room - units:
            return True
    return False


def _solve(due: tuple[int, ...], pool: list[str]) -> tuple[Payment | None, int]:
    """``(pay_vector(due, pool), short_by(due_dict(due), pool))`` from one search."""
    plan, short = _best(due, _count(pool))
    if plan is None:
        return None, short
    uses, taken = _uses(plan, pool)
    spent, kept = _split(pool, taken)
    return Payment(uses, spent, kept, plan.cards, plan.allies), short


def pay(due: dict[str, int], pool: list[str]) -> Payment | None:
    """The cheapest payment of ``due`` (suit -> count still owed) from ``pool`` (card
    names, duplicates allowed): the fewest cards spent, then the fewest Allies, further
    ties fixed as the module says. None when the pool cannot pay it."""
    return _solve(due_vector(due), pool)[0]


def pay_vector(due: tuple[int, ...], pool: list[str]) -> Payment | None:
    """``pay`` of a due vector (``due_vector``; ``SUITS`` order), as the rules engine
    keeps its dues."""
    return _solve(due, pool)[0]


def short_by(due: dict[str, int], pool: list[str]) -> int:
    """The fewest extra regular clue cards (each of any suit) that, added to ``pool``,
    make ``due`` affordable; 0 when it is already."""
    return _best(due_vector(due), _count(pool))[1]


def payment_json(case_id: str, due: dict[str, int], pool: list[str]) -> dict:
    """The spec's ``pay`` object for paying ``due`` from ``pool`` for case ``case_id``:
    ``case``, ``due`` (suits at 0 left out, ``SUITS`` order), ``affordable``,
    ``cards_spent``, ``payment`` (``cards``, ``as`` per use), ``pool_after``, ``short_by``.
    Not affordable: ``payment`` empty, ``cards_spent`` 0, ``pool_after`` the pool."""
    result, short = _solve(due_vector(due), pool)
    return {
        "case": case_id,
        "due": {s: n for s, n in zip(SUITS, due_vector(due)) if n},
        "affordable": result is not None,
        "cards_spent": result.cards_spent if result else 0,
        "payment": [{"cards": list(cards), "as": suit} for cards, suit in result.uses]
        if result else [],
        "pool_after": result.pool_after if result else list(pool),
        "short_by": short,
    }


def use_pays(cards: tuple[str, ...], suit: str) -> int:
    """How many units of ``suit`` one use of a payment pays (the rules above: a regular
    card 1 of its suit, Sherlock 2 of any one suit, Lestrade 1 of any, Watson, Mycroft
    and Irene 1 of their own suit, any 3 cards 1 of any); 0 for a use that is no use (a
    card paying another suit, 2 cards)."""
    if len(cards) == CROSS_REFERENCE:
        return 1
    if len(cards) != 1:
        return 0
    card = cards[0]
    if card == SHERLOCK:
        return SHERLOCK_PAYS
    if card == LESTRADE:
        return 1
    return 1 if ALLY_SUIT.get(card, card) == suit else 0


def use_words(cards, suit: str) -> str:
    """One use of a payment (``Payment.uses``, a ``pay`` object's ``payment`` entry) in
    words: ``Sherlock Holmes as 2 Statements``, ``Knowledge as 1 Knowledge``, ``3 cards as
    1 Knowledge (cross-reference: Writings, Writings, Artifacts)``."""
    if len(cards) == CROSS_REFERENCE:
        return f"{CROSS_REFERENCE} cards as 1 {suit} (cross-reference: {', '.join(cards)})"
    (card,) = cards
    return f"{card} as {SHERLOCK_PAYS if card == SHERLOCK else 1} {suit}"
