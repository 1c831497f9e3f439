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

Cards are the names of ``SUITS`` (regular cards) and of ``ALLY_SUIT`` (Allies), exactly;
any other name is a ``ValueError`` (the callers hand over parsed, canonical names).
"""

from __future__ import annotations

from dataclasses import dataclass
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


def _due_vector(due: dict[str, int]) -> tuple[int, ...]:
    """``due`` as counts in ``SUITS`` order (missing suits 0); ValueError for an unknown
    suit or a count that is not a whole number >= 0."""
    vec = [0] * len(SUITS)
    for suit, n in due.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"due: {suit!r} owes {n!r}, not a whole number >= 0")
        vec[_suit(suit, "due")] += n
    return tuple(vec)


class _Pool(NamedTuple):
    """A pool counted: regular cards and own-suit Allies per suit, Sherlocks, Lestrades."""

    size: int
    regular: tuple[int, ...]
    own_ally: tuple[int, ...]
    sherlocks: int
    lestrades: int


def _count(pool: list[str]) -> _Pool:
    """``pool`` counted; ValueError for a name that is neither a suit nor an Ally."""
    regular = [0] * len(SUITS)
    own = [0] * len(SUITS)
    sherlocks = lestrades = 0
    for card in pool:
        if card in _INDEX:
            regular[_INDEX[card]] += 1
        elif card == SHERLOCK:
            sherlocks += 1
        elif card == LESTRADE:
            lestrades += 1
        elif card in ALLY_SUIT:
            own[_INDEX[ALLY_SUIT[card]]] += 1
        else:
            raise ValueError(f"pool: {card!r} is neither a suit nor an Ally")
    return _Pool(len(pool), tuple(regular), tuple(own), sherlocks, lestrades)


def _placements(due: tuple[int, ...], sherlocks: int):
    """Every placement of the Sherlocks (each on an owing suit, or kept) as per-suit
    counts, keeping more of them first, then earlier suits first."""
    owing = [i for i, d in enumerate(due) if d > 0]
    for choice in combinations_with_replacement([None, *owing], sherlocks):
        counts = [0] * len(SUITS)
        for i in choice:
            if i is not None:
                counts[i] += 1
        yield tuple(counts)


def _shape(due: tuple[int, ...], pool: _Pool, sherlock: tuple[int, ...]):
    """``(plan or None, extra cards needed)`` for the Sherlocks placed as ``sherlock``:
    the cheapest payment of that shape (None when it cannot be paid) and the fewest extra
    regular cards that would make it payable (0 when it is)."""
    need = [max(0, d - SHERLOCK_PAYS * y) for d, y in zip(due, sherlock)]
    regular = [min(r, n) for r, n in zip(pool.regular, need)]
    own = [min(a, n - r) for a, n, r in zip(pool.own_ally, need, regular)]
    owed = tuple(n - r - a for n, r, a in zip(need, regular, own))
    lestrades = min(pool.lestrades, sum(owed))
    crosses = sum(owed) - lestrades
    direct = sum(sherlock) + sum(regular) + sum(own) + lestrades
    left = pool.size - direct
    gap = CROSS_REFERENCE * crosses - left
    if gap > 0:
        return None, -(-gap // CROSS_REFERENCE)
    regular_left = sum(pool.regular) - sum(regular)
    cross_allies = max(0, CROSS_REFERENCE * crosses - regular_left)
    allies = sum(sherlock) + sum(own) + lestrades + cross_allies
    plan = _Plan(direct + CROSS_REFERENCE * crosses, allies, sherlock, tuple(regular),
                 tuple(own), owed, lestrades, crosses)
    return plan, 0


def _best(due: tuple[int, ...], pool: _Pool) -> tuple[_Plan | None, int]:
    """The cheapest plan (fewest cards, then Allies; the first such placement) or None,
    and the fewest extra regular cards that make the due payable."""
    best, short = None, None
    for sherlock in _placements(due, pool.sherlocks):
        plan, extra = _shape(due, pool, sherlock)
        if plan is not None and (best is None or plan[:2] < best[:2]):
            best = plan
        short = extra if short is None else min(short, extra)
    return best, short


def _cross_cards(plan: _Plan, pool: list[str], taken: dict[str, int]) -> list[str]:
    """The cards of the cross-references, in the order they are grouped: regular cards
    from the suit with the most copies left (ties: the next copy first in the pool), then
    Allies in ``ALLY_SPEND_ORDER``. ``taken`` counts the copies already spent and is
    updated."""
    wanted = CROSS_REFERENCE * plan.crosses
    positions: dict[str, list[int]] = {}
    for i, card in enumerate(pool):
        positions.setdefault(card, []).append(i)
    picked = []
    while len(picked) < wanted:
        left = [(len(positions.get(s, ())) - taken.get(s, 0), s) for s in SUITS]
        left = [(n, s) for n, s in left if n > 0]
        if not left:
            break
        top = max(n for n, _ in left)
        suit = min((s for n, s in left if n == top),
                   key=lambda s: positions[s][taken.get(s, 0)])
        taken[suit] = taken.get(suit, 0) + 1
        picked.append(suit)
    for ally in ALLY_SPEND_ORDER:
        while len(picked) < wanted and len(positions.get(ally, ())) > taken.get(ally, 0):
            taken[ally] = taken.get(ally, 0) + 1
            picked.append(ally)
    return picked


def _uses(plan: _Plan, pool: list[str]) -> tuple[list[tuple[tuple[str, ...], str]], dict]:
    """The uses of ``plan`` (Sherlock, Lestrade, the direct cards by suit, the
    cross-references) and the count of each card name they spend."""
    uses: list[tuple[tuple[str, ...], str]] = []
    for i, suit in enumerate(SUITS):
        uses += [((SHERLOCK,), suit)] * plan.sherlock[i]
    owed = [suit for i, suit in enumerate(SUITS) for _ in range(plan.owed[i])]
    uses += [((LESTRADE,), suit) for suit in owed[:plan.lestrades]]
    for i, suit in enumerate(SUITS):
        uses += [((suit,), suit)] * plan.regular[i]
        if plan.own_ally[i]:
            uses += [((OWN_SUIT_ALLIES[suit],), suit)] * plan.own_ally[i]
    taken: dict[str, int] = {}
    for (cards, _suit_paid) in uses:
        for card in cards:
            taken[card] = taken.get(card, 0) + 1
    cross = _cross_cards(plan, pool, taken)
    for k, suit in enumerate(owed[plan.lestrades:]):
        group = cross[CROSS_REFERENCE * k:CROSS_REFERENCE * (k + 1)]
        uses.append((tuple(sorted(group, key=pool.index)), suit))
    return uses, taken


def _split(pool: list[str], taken: dict[str, int]) -> tuple[list[str], list[str]]:
    """``(spent, kept)``: the earliest ``taken[name]`` copies of each name and the rest,
    both in pool order."""
    spent, kept, seen = [], [], {}
    for card in pool:
        seen[card] = seen.get(card, 0) + 1
        (spent if seen[card] <= taken.get(card, 0) else kept).append(card)
    return spent, kept


def discounted_due(cost: dict[str, int], discounts: list[str]) -> dict[str, int]:
    """What is still owed of ``cost`` (suit -> count) once each solved card's discount
    suit in ``discounts`` lowers its suit by 1, not below 0; suits at 0 left out, the
    rest in ``SUITS`` order. ValueError for a name that is not a suit."""
    due = list(_due_vector(cost))
    for suit in discounts:
        i = _suit(suit, "discounts")
        due[i] = max(0, due[i] - 1)
    return {s: n for s, n in zip(SUITS, due) if n}


def _solve(due: dict[str, int], pool: list[str]) -> tuple[Payment | None, int]:
    """``(pay(due, pool), short_by(due, pool))`` from one search."""
    plan, short = _best(_due_vector(due), _count(pool))
    if plan is None:
        return None, short
    uses, taken = _uses(plan, pool)
    spent, kept = _split(pool, taken)
    return Payment(uses, spent, kept, plan.cards, plan.allies), short


def pay(due: dict[str, int], pool: list[str]) -> Payment | None:
    """The cheapest payment of ``due`` (suit -> count still owed) from ``pool`` (card
    names, duplicates allowed): the fewest cards spent, then the fewest Allies, further
    ties fixed as the module says. None when the pool cannot pay it."""
    return _solve(due, pool)[0]


def short_by(due: dict[str, int], pool: list[str]) -> int:
    """The fewest extra regular clue cards (each of any suit) that, added to ``pool``,
    make ``due`` affordable; 0 when it is already."""
    return _best(_due_vector(due), _count(pool))[1]


def payment_json(case_id: str, due: dict[str, int], pool: list[str]) -> dict:
    """The spec's ``pay`` object for paying ``due`` from ``pool`` for case ``case_id``:
    ``case``, ``due`` (suits at 0 left out, ``SUITS`` order), ``affordable``,
    ``cards_spent``, ``payment`` (``cards``, ``as`` per use), ``pool_after``, ``short_by``.
    Not affordable: ``payment`` empty, ``cards_spent`` 0, ``pool_after`` the pool."""
    result, short = _solve(due, pool)
    return {
        "case": case_id,
        "due": {s: n for s, n in zip(SUITS, _due_vector(due)) if n},
        "affordable": result is not None,
        "cards_spent": result.cards_spent if result else 0,
        "payment": [{"cards": list(cards), "as": suit} for cards, suit in result.uses]
        if result else [],
        "pool_after": result.pool_after if result else list(pool),
        "short_by": short,
    }


def use_words(cards, suit: str) -> str:
    """One use of a payment (``Payment.uses``, a ``pay`` object's ``payment`` entry) in
    words: ``Sherlock Holmes as 2 Statements``, ``Knowledge as 1 Knowledge``, ``3 cards as
    1 Knowledge (cross-reference: Writings, Writings, Artifacts)``."""
    if len(cards) == CROSS_REFERENCE:
        return f"{CROSS_REFERENCE} cards as 1 {suit} (cross-reference: {', '.join(cards)})"
    (card,) = cards
    return f"{card} as {SHERLOCK_PAYS if card == SHERLOCK else 1} {suit}"
