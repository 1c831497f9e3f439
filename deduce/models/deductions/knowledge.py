"""What a player's view of a Deductions position allows them to know.

Every card is face up except the clue deck and the case piles below their visible tops,
and every player sees the same cards, so what is known is the same for all of them:

- the clue deck's exact composition (``Position.deck_counts``: the 60 clue cards less those
  on the grid, in the pools and in the discard pile; the order is unknown, so every order
  is equally likely), hence the chance of each suit on the next draw (``odds_json``, the
  spec's ``odds`` JSON);
- what a Mind Palace on each row and column yields (``mind_palace``): one card of the
  line's four at random, an Ally counting as its suit, so a suit's chance is the number of
  the line's cards of that suit over the number of cards on the line. An empty cell (only
  in hand-entered positions) holds no card to draw; a line with no card at all yields
  nothing (every chance 0);
- the case cards below each pile's visible top (``unseen_cases``): the cards of that kind
  that are nowhere in sight.

And what a player can work out from it: the cases within their reach (``open_cases``:
visible or reserved by them; ``find_case`` by name), the payment of each (``pay_json``,
``pay_all_json`` ranked), and their milestones (``milestone_report``).

>>> line_odds(["Writings", "Writings", "Dr. John Watson", "Knowledge"])["Writings"]
0.75
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from deduce.core.errors import InputError
from deduce.core.names import normalise
from deduce.models.deductions.cards import ALLIES, ALLY_SUIT, SUITS, CardSet, CaseCard, suit_of
from deduce.models.deductions.milestones import completes, lacks, milestones_json
from deduce.models.deductions.payment import discounted_due, payment_json
from deduce.models.deductions.position import SIZE, Position, line_name

#: the names of the Mind Palace lines in the JSON, top row and left column first
LINES = tuple(line_name((kind, i)) for kind in ("row", "column") for i in range(SIZE))


def deck_size(position: Position) -> int:
    """How many clue cards the deck holds."""
    return sum(position.deck_counts().values())


def suits_left(position: Position) -> dict[str, int]:
    """Per suit (``SUITS`` order), the deck's cards of that suit, its Ally included."""
    left = dict.fromkeys(SUITS, 0)
    for card, n in position.deck_counts().items():
        left[suit_of(card)] += n
    return left


def allies_left(position: Position) -> list[str]:
    """The Allies still in the deck, in ``ALLIES`` order."""
    deck = position.deck_counts()
    return [a for a in ALLIES if deck[a]]


def odds_json(position: Position) -> dict:
    """The spec's ``odds`` object plus ``mind_palace``::

        {"deck": N, "suits": {suit: {"left": k, "p_next": k / N}, ...},
         "allies": [Allies in the deck], "mind_palace": {"row 1": {suit: p, ...}, ...}}

    ``p_next`` is 0.0 when the deck is empty (the next draw reshuffles the discard pile, or
    is skipped: ``left`` counts only the deck)."""
    n = deck_size(position)
    return {
        "deck": n,
        "suits": {s: {"left": k, "p_next": k / n if n else 0.0}
                  for s, k in suits_left(position).items()},
        "allies": allies_left(position),
        "mind_palace": mind_palace(position),
    }


def lines(position: Position) -> dict[str, list[str | None]]:
    """The grid's rows and columns by their ``LINES`` name, cells in order."""
    grid = position.grid
    rows = {LINES[i]: list(grid[i]) for i in range(SIZE)}
    cols = {LINES[SIZE + j]: [grid[i][j] for i in range(SIZE)] for j in range(SIZE)}
    return {**rows, **cols}


def line_odds(cards: Iterable[str | None]) -> dict[str, float]:
    """Per suit (``SUITS`` order), the chance that one card drawn at random from ``cards``
    (clue names; None is an empty cell, not a card) is of that suit (an Ally is its
    suit's); all 0.0 when no card is there."""
    counts = Counter(suit_of(c) for c in cards if c is not None)
    total = sum(counts.values())
    return {s: counts[s] / total if total else 0.0 for s in SUITS}


def mind_palace(position: Position) -> dict[str, dict[str, float]]:
    """Per line (``LINES`` order: rows 1-4 from the top, then columns a-d from the left),
    the chance of each suit from a Mind Palace on it (``line_odds``)."""
    return {name: line_odds(cells) for name, cells in lines(position).items()}


def line_allies(cells: Iterable[str | None]) -> list[str]:
    """The Allies among a line's cards (a Mind Palace may draw one), in line order."""
    return [c for c in cells if c in ALLY_SUIT]


def unseen_cases(position: Position) -> dict[str, list[str]]:
    """Per display row (``solutions``, ``red_herrings``): the ids of the cards below its
    pile's visible top, in card-set order (their order in the pile is unknown)."""
    return position.piles()


# ----------------------------------------------------------------------------- cases
def open_cases(position: Position, player: str) -> list[CaseCard]:
    """The cases ``player`` may solve: the visible ones (display order, Solutions first)
    and the one ``player`` reserved."""
    ids = [i for row in position.display.values() for i in row if i is not None]
    mine = position.reserved[player]
    if mine is not None:
        ids.append(mine)
    return [position.cards.by_id[i] for i in ids]


def find_case(position: Position, text: str, player: str, where: str = "CASE") -> CaseCard:
    """The case ``text`` names among ``open_cases``: the card whose id or name it is
    exactly (ignoring case, spaces and punctuation), else the one it is an unambiguous
    alias of (``CardSet.resolve``). ``InputError`` at ``where`` otherwise: for a card of the
    set that is out of reach, where it is; for no such card, the closest names in reach."""
    within = open_cases(position, player)
    key = normalise(text)
    exact = [c for c in position.cards.cards if key in (normalise(c.id), normalise(c.name))]
    if len(exact) == 1 and exact[0] not in within:
        raise _out_of_reach(position, exact[0], player, where)
    try:
        return CardSet(position.cards.title, tuple(within)).resolve(text, where=where)
    except InputError as first:
        try:
            card = position.cards.resolve(text, where=where)
        except InputError:
            raise first from None
    raise _out_of_reach(position, card, player, where)


def _out_of_reach(position: Position, card: CaseCard, player: str, where: str) -> InputError:
    return InputError(f"{card.id!r} is not visible nor reserved by {player}: it is "
                      f"{_whereabouts(position, card.id)}", where=where)


def _whereabouts(position: Position, case_id: str) -> str:
    """Where a case card that is not within a player's reach is, in words."""
    for p, solved in position.solved.items():
        if any(s.id == case_id for s in solved):
            return f"solved by {p}"
    for p, reserved in position.reserved.items():
        if reserved == case_id:
            return f"reserved by {p}"
    return "in its pile, unseen"


def due(position: Position, card: CaseCard, player: str) -> dict[str, int]:
    """What ``player`` still owes for ``card`` once their solved cards' discounts apply."""
    return discounted_due(card.cost_dict(), [s.discount for s in position.solved[player]])


def pay_json(position: Position, card: CaseCard, player: str) -> dict:
    """The spec's ``pay`` object for ``player`` paying ``card`` from their pool."""
    return payment_json(card.id, due(position, card, player), list(position.pools[player]))


def pay_all_json(position: Position, player: str) -> dict:
    """``{"cases": [pay objects]}`` for every case in ``open_cases``, ranked: affordable
    first; then the fewest extra cards needed (``short_by``); then the fewest cards spent;
    then the most points; then ``open_cases`` order."""
    cards = open_cases(position, player)
    rows = [(pay_json(position, c, player), c, k) for k, c in enumerate(cards)]
    rows.sort(key=lambda r: (not r[0]["affordable"], r[0]["short_by"], r[0]["cards_spent"],
                             -r[1].points, r[2]))
    return {"cases": [r[0] for r in rows]}


# ----------------------------------------------------------------------------- milestones
def milestone_report(position: Position, player: str) -> dict:
    """The spec's ``milestones`` object of ``player`` (``milestones_json``) and, for the
    human view, ``lacks`` (``milestones.lacks``) and ``completes``: the ids of the cases
    ``player`` may solve (``open_cases``) that would complete an open milestone, each with
    the milestones it completes."""
    solved = list(position.solved[player])
    claimed = {m: list(ids) for m, ids in position.milestones[player].items()}
    report = milestones_json(player, solved, claimed)
    completing = {}
    for card in open_cases(position, player):
        done = completes(solved, claimed, card)
        if done:
            completing[card.id] = done
    return {"json": report, "lacks": lacks(solved, claimed), "completes": completing}
