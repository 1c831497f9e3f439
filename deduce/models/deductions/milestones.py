"""Milestones in Deductions: which can be claimed now, which cards to commit, the bonus
still within reach.

The rules (spec "Milestones"): *Diversity* takes 5 solved cards, one of each category;
*Case Completion* 5 solved cards of one case. A card committed to a milestone serves no
other; each player claims each milestone once (+3 each). ``claimed`` maps a milestone key
(``diversity``, ``completion``) to the ids committed to it; the other solved cards are
*uncommitted*.

Decisions where the rules leave the choice to the player:

- *The cards to commit* (``claimable``): the set that keeps the other milestone (when it
  is still open) closest: the fewest further solved cards it needs from the cards left
  (0: it can be claimed now as well); for Case Completion, ties go to the set that leaves
  the next-best case closest, and so on (``distance``). Further ties: the cards earliest in
  ``solved``. When every claimable milestone can be met at once, the sets are disjoint
  (claim them all); when they cannot (say 5 cards of one case, one per category), each set
  is the best for claiming that milestone alone, and only one of them can be claimed.
- *Reachable* (``max_bonus``): the most open milestones the uncommitted cards meet together
  now, with disjoint cards; future cards count only in ``distance``.
- ``lacks`` and ``completes`` look at each milestone alone (the no-crossover rule shows in
  ``max_bonus``: the gain of a card is ``max_bonus`` with it minus without it).

The cards are objects with ``id``, ``case`` and ``category`` (``SolvedCard``), ``case`` one of
``CASES``, ``category`` one of ``CATEGORIES``; anything else, a repeated id or a claimed
id that is not among the solved cards is a ``ValueError`` (callers hand over parsed data).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Iterator, Protocol

from deduce.models.deductions.cards import (
    CASES,
    CATEGORIES,
    MILESTONE_BONUS,
    MILESTONE_SIZE,
    MILESTONES,
)

DIVERSITY, COMPLETION = MILESTONES

_CASE = {c: i for i, c in enumerate(CASES)}
_CATEGORY = {c: i for i, c in enumerate(CATEGORIES)}
Counts = tuple[tuple[int, ...], ...]  # counts[case][category]


class SolvedCard(Protocol):
    """A solved case card as milestones see it: its id, case and category (a
    ``cards.CaseCard`` or ``cards.SolvedCard``, or any object with those attributes)."""

    id: str
    case: str
    category: str


#: ``(case index, category index)`` by ``(case, category)``
_KINDS = {(case, category): (i, k) for case, i in _CASE.items()
          for category, k in _CATEGORY.items()}


def _kind(card: SolvedCard) -> tuple[int, int]:
    """``(case index, category index)`` of ``card``; ValueError for an unknown one."""
    found = _KINDS.get((card.case, card.category))
    if found is not None:
        return found
    if card.case not in _CASE:
        raise ValueError(f"solved card {card.id!r}: case {card.case!r} is not one of "
                         f"{', '.join(CASES)}")
    if card.category not in _CATEGORY:
        raise ValueError(f"solved card {card.id!r}: category {card.category!r} is not one "
                         f"of {', '.join(CATEGORIES)}")
    return _CASE[card.case], _CATEGORY[card.category]


#: ``_counts``: each case's row of a flat case x category list
_ROWS = tuple(slice(i * len(CATEGORIES), (i + 1) * len(CATEGORIES)) for i in range(len(CASES)))


def _kinds(cards: list[SolvedCard]) -> list[tuple[int, int]]:
    """``_kind`` of each of ``cards`` (one dictionary lookup a card; ``_kind`` names a card
    that is not one)."""
    get = _KINDS.get
    kinds = [get((card.case, card.category)) for card in cards]
    if None in kinds:
        for card in cards:
            _kind(card)  # raises the ValueError naming the card
    return kinds


def _counts(cards: list[SolvedCard], kinds=None) -> Counts:
    """How many of ``cards`` each case and category has (``kinds``: the cards'
    ``_kind``, when known)."""
    flat = [0] * (len(CASES) * len(CATEGORIES))
    width = len(CATEGORIES)
    for case, category in kinds or _kinds(cards):
        flat[case * width + category] += 1
    return tuple(map(tuple, map(flat.__getitem__, _ROWS)))


def _distance_after(milestone: str, counts: Counts, taken: Counts) -> tuple[int, ...]:
    """``distance(milestone, _minus(counts, taken))``, without building the difference."""
    if milestone == DIVERSITY:
        return (sum(1 for k in range(len(CATEGORIES))
                    if sum(r[k] for r in counts) == sum(t[k] for t in taken)),)
    return tuple(sorted(max(0, MILESTONE_SIZE - sum(r) + sum(t))
                        for r, t in zip(counts, taken)))


def _minus(counts: Counts, taken: Counts) -> Counts:
    """``counts`` without ``taken``."""
    return tuple(tuple(a - b for a, b in zip(r, t)) for r, t in zip(counts, taken))


def _uncommitted(solved: list[SolvedCard], claimed: dict[str, list[str]]) -> list[SolvedCard]:
    """The solved cards committed to no milestone, in ``solved`` order; ValueError for a
    repeated id, an unknown milestone key or a claimed id not among ``solved``."""
    ids = [card.id for card in solved]
    if len(set(ids)) != len(ids):
        raise ValueError(f"solved cards: {next(i for i in ids if ids.count(i) > 1)!r} "
                         "appears twice")
    committed = set()
    for key, cards in claimed.items():
        if key not in MILESTONES:
            raise ValueError(f"claimed: {key!r} is not a milestone ({', '.join(MILESTONES)})")
        unknown = [i for i in cards if i not in ids]
        if unknown:
            raise ValueError(f"claimed {key}: {unknown[0]!r} is not a solved card")
        committed.update(cards)
    return [card for card in solved if card.id not in committed]


def _options(milestone: str, counts: Counts) -> Iterator[Counts]:
    """Every way (as counts per case and category) to commit 5 of ``counts`` to
    ``milestone``."""
    if milestone == DIVERSITY:
        choices = [[c for c in range(len(CASES)) if counts[c][k]] for k in range(len(CATEGORIES))]
        for cases in product(*choices):
            yield tuple(tuple(int(cases[k] == c) for k in range(len(CATEGORIES)))
                        for c in range(len(CASES)))
        return
    for c, row in enumerate(counts):
        if sum(row) < MILESTONE_SIZE:
            continue  # no split of too few cards
        for split in _splits(MILESTONE_SIZE, row):
            yield tuple(split if i == c else (0,) * len(row) for i in range(len(CASES)))


@lru_cache(maxsize=4096)
def _splits(total: int, limits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every tuple of counts, each at most its limit, adding up to ``total``, the first
    count largest first, then the next, and so on (remembered: a case has at most 3
    cards per category, so few ``limits`` occur)."""
    if not limits:
        return ((),) if total == 0 else ()
    if len(limits) == 1:
        return ((total,),) if total <= limits[0] else ()
    return tuple((first, *rest) for first in range(min(total, limits[0]), -1, -1)
                 for rest in _splits(total - first, limits[1:]))


def distance(milestone: str, counts: Counts) -> tuple[int, ...]:
    """How far ``counts`` are from ``milestone``, first the fewest further solved cards
    it needs (0: met now). Diversity: ``(missing categories,)``; Case Completion: each
    case's shortfall, smallest first (so a tie prefers a closer second case)."""
    if milestone == DIVERSITY:
        return (list(map(sum, zip(*counts))).count(0),)
    return tuple(sorted(MILESTONE_SIZE - n if n < MILESTONE_SIZE else 0
                        for n in map(sum, counts)))


def _together(milestones: list[str], counts: Counts) -> int:
    """The most of ``milestones`` that ``counts`` meet at once with disjoint cards."""
    best = 0
    for i, milestone in enumerate(milestones):
        others = milestones[:i] + milestones[i + 1:]
        for taken in _options(milestone, counts):
            best = max(best, 1 + _together(others, _minus(counts, taken)))
            if best == len(milestones):
                return best
    return best


def _pick(cards: list[SolvedCard], taken: Counts, kinds=None) -> list[int]:
    """The indices into ``cards`` of the earliest cards of each case and category, as
    many as ``taken`` says, in order (``kinds``: the cards' ``_kind``, when known)."""
    left = [list(row) for row in taken]
    picked = []
    for i, (case, category) in enumerate(kinds or map(_kind, cards)):
        if left[case][category]:
            left[case][category] -= 1
            picked.append(i)
    return picked


def _open(claimed: dict[str, list[str]]) -> list[str]:
    """The milestones not claimed yet, in ``MILESTONES`` order."""
    return [m for m in MILESTONES if m not in claimed]


def _joint(cards: list[SolvedCard], milestones: list[str],
           free: list[int] | None = None, kinds=None) -> list[list[int]] | None:
    """Disjoint sets of indices into ``cards`` (among ``free``; default all) meeting each
    of ``milestones`` at once, the earliest cards first (the least list of sets), or None
    when there are none (``kinds``: the cards' ``_kind``, when known)."""
    free = list(range(len(cards))) if free is None else free
    if not milestones:
        return []
    kinds = kinds or _kinds(cards)
    among = [cards[i] for i in free]
    among_kinds = [kinds[i] for i in free]
    best = None
    for taken in _options(milestones[0], _counts(among, among_kinds)):
        picked = [free[k] for k in _pick(among, taken, among_kinds)]
        tail = _joint(cards, milestones[1:], [i for i in free if i not in picked], kinds)
        if tail is not None and (best is None or [picked, *tail] < best):
            best = [picked, *tail]
    return best


def _best_alone(cards: list[SolvedCard], milestone: str, others: list[str],
               kinds=None, counts=None) -> list[str]:
    """The set to commit to ``milestone`` alone that leaves ``others`` closest (then the
    earliest cards); ``milestone`` must be met by ``cards`` (``kinds``: their ``_kind``,
    when known).

    Each option is scored by ``(distances, picked indices)`` and the least wins, which is
    the closest distances, then the earliest cards. With only two milestones, ``others``
    is empty or the other one, and each distance comes from the option's counts alone:
    Case Completion's options take ``t`` (per category) from one case, leaving a
    category missing when ``t`` takes all its cards; Diversity's options take one card
    per category from the cases chosen, lowering each case's count by the categories it
    gives. The indices are the earliest cards of each case and category (``at``);
    ``counts``: ``_counts`` of the cards, when known."""
    kinds = kinds or _kinds(cards)
    counts = counts or _counts(cards, kinds)
    at = [[[] for _ in CATEGORIES] for _ in CASES]  # per case and category: indices
    for i, (case, category) in enumerate(kinds):
        at[case][category].append(i)
    scored = bool(others)
    best = None
    if milestone == COMPLETION:
        column = list(map(sum, zip(*counts)))
        for c, row in enumerate(counts):
            if sum(row) < MILESTONE_SIZE:
                continue
            places = at[c]
            for split in _splits(MILESTONE_SIZE, row):
                far = sum(1 for n, t in zip(column, split) if n == t) if scored else 0
                if best is not None and far > best[0]:
                    continue
                picked = sorted(i for k, t in enumerate(split) for i in places[k][:t])
                if best is None or (far, picked) < best:
                    best = (far, picked)
    else:
        sizes = list(map(sum, counts))
        choices = [[c for c in range(len(CASES)) if counts[c][k]]
                   for k in range(len(CATEGORIES))]
        for chosen in product(*choices):
            if scored:
                left = sizes[:]
                for c in chosen:
                    left[c] -= 1
                far = sorted(MILESTONE_SIZE - n if n < MILESTONE_SIZE else 0 for n in left)
                if best is not None and far > best[0]:
                    continue
            else:
                far = 0
            picked = sorted(at[c][k][0] for k, c in enumerate(chosen))
            if best is None or (far, picked) < best:
                best = (far, picked)
    return [cards[i].id for i in best[1]]


def satisfies(milestone: str, cards: list[SolvedCard]) -> bool:
    """Whether ``cards`` (5 distinct ids) meet ``milestone`` exactly as committed."""
    if len(cards) != MILESTONE_SIZE or len({c.id for c in cards}) != MILESTONE_SIZE:
        return False
    return next(_options(milestone, _counts(cards)), None) is not None


def met(solved: list[SolvedCard], claimed: dict[str, list[str]]) -> list[str]:
    """The open milestones that the uncommitted cards meet now, in ``MILESTONES`` order:
    exactly the keys of ``claimable`` (for the cards ``claimable`` accepts), found
    without choosing the cards (the quick question a turn's end asks); ValueError for an
    unknown case or category."""
    if claimed:
        committed = {i for ids in claimed.values() for i in ids}
        solved = [card for card in solved if card.id not in committed]
    kinds = [(card.case, card.category) for card in solved]
    if not _KINDS.keys() >= set(kinds):
        for card in solved:
            _kind(card)  # raises the ValueError naming the card
    out = []
    if DIVERSITY not in claimed and len({k for _, k in kinds}) == len(CATEGORIES):
        out.append(DIVERSITY)
    if COMPLETION not in claimed and len(kinds) >= MILESTONE_SIZE:
        cases = [case for case, _ in kinds]
        if any(cases.count(case) >= MILESTONE_SIZE for case in set(cases)):
            out.append(COMPLETION)
    return out


def claimable(solved: list[SolvedCard], claimed: dict[str, list[str]]) -> dict[str, list[str]]:
    """The open milestones that the uncommitted cards meet now, each with the 5 ids (in
    ``solved`` order) to commit, chosen as the module says; ``MILESTONES`` order."""
    cards = _uncommitted(solved, claimed)
    kinds = _kinds(cards)
    counts = _counts(cards, kinds)
    open_ = _open(claimed)
    ready = [m for m in open_ if distance(m, counts)[0] == 0]
    joint = _joint(cards, ready, kinds=kinds) if len(ready) > 1 else None
    if joint is not None:
        return {m: [cards[i].id for i in ids] for m, ids in zip(ready, joint)}
    return {m: _best_alone(cards, m, [o for o in open_ if o != m], kinds, counts)
            for m in ready}


def max_bonus(solved: list[SolvedCard], claimed: dict[str, list[str]]) -> int:
    """3 x (milestones claimed + the most open ones the uncommitted cards meet together)."""
    cards = _uncommitted(solved, claimed)
    return MILESTONE_BONUS * (len(claimed) + _together(_open(claimed), _counts(cards)))


def lacks(solved: list[SolvedCard], claimed: dict[str, list[str]]) -> dict:
    """What each open milestone still lacks in the uncommitted cards, each alone:
    ``diversity`` the missing categories (``CATEGORIES`` order), ``completion`` per case
    how many more cards of it (0: met). Claimed milestones are left out."""
    counts = _counts(_uncommitted(solved, claimed))
    out: dict = {}
    for milestone in _open(claimed):
        if milestone == DIVERSITY:
            out[milestone] = [k for i, k in enumerate(CATEGORIES)
                              if not any(row[i] for row in counts)]
        else:
            out[milestone] = {c: max(0, MILESTONE_SIZE - sum(row))
                              for c, row in zip(CASES, counts)}
    return out


def completes(solved: list[SolvedCard], claimed: dict[str, list[str]],
              case_card: SolvedCard) -> list[str]:
    """The open milestones that the uncommitted cards do not meet now and would meet with
    ``case_card`` solved too (each alone), in ``MILESTONES`` order."""
    before = _counts(_uncommitted(solved, claimed))
    after = _counts(_uncommitted([*solved, case_card], claimed))
    return [m for m in _open(claimed) if distance(m, before)[0] and not distance(m, after)[0]]


def milestones_json(player: str, solved: list[SolvedCard],
                    claimed: dict[str, list[str]]) -> dict:
    """The spec's ``milestones`` object: ``player``, ``claimed`` (key -> ids),
    ``claimable`` and ``max_bonus``."""
    return {
        "player": player,
        "claimed": {m: list(claimed[m]) for m in MILESTONES if m in claimed},
        "claimable": claimable(solved, claimed),
        "max_bonus": max_bonus(solved, claimed),
    }
