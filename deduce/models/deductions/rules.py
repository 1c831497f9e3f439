"""Deductions' rules engine (2-4 players): a ``State`` with ``legal_actions``, ``apply``,
``observation``, seeded chance.

The game (rulebook and spec ``deductions.md``): a turn is Obtain Clues or Solve a Case.
*Obtain Clues*: ``Draw`` (step ``start``: the deck's top card to the pool), then at step
``investigate`` either ``Take`` (a card of an exact placement, or of a propped one, the
mismatched cell staying; the cell refilled from the deck) or ``MindPalace`` (a row or a
column: its cards taken, one at random to the pool, the rest to the discard pile, the line
refilled in order). *Solve a Case* (step ``start``): ``Solve`` a case in the display or
reserved by the player, paid after discounts (``payment.discounted_due``, ``payment.pay``);
the spent cards go to the discard pile; the case leaves the display (refilled: a dealt
slot takes the pile's top, the next card of the pile becomes the top; a gap when the pile
is empty) or the reserved slot, and joins the player's solved cards with its category's
discount suit. The end of every turn: ``Discard`` one card at a time while the pool holds
more than 10 (step ``discard``), then ``Claim`` each milestone the uncommitted solved cards
satisfy (step ``claim``; ``milestones.claimable``), then the 15-point check: a player ending
a turn with 15+ points starts the final round, each other player has one more turn, then
the game ends. Winners: the most points, then the most Solutions, the most solved cards,
the most clues in pool; still tied, all of them. An empty deck takes the discard pile
shuffled (the state's chance); with both empty, draws and refills are skipped
(the cell stays empty).

Decisions where the rules leave it open:

- *Free actions* (``Reserve``: Mycroft Holmes, ``Rotate``: Irene Adler) may be played at the
  steps ``start``, ``investigate`` and ``discard`` of one's own turn (``FREE_STEPS``), any
  number of them, each once while its Ally stays in the pool (``used``: the Allies whose
  holder has used them; an Ally leaving a pool by a payment or a discard is fresh again).
  They are never forced: a step whose only legal actions would be free ones is skipped.
  ``Reserve`` needs an empty reserved slot and takes a card of the display (refilled);
  ``Rotate`` turns a solved card to one of the four other suits.
- *A prop needs a pool card*: in step 2 the drawn card is there, so propped placements
  are listed whenever the pool is not empty (it is empty only when the draw was skipped).
  The same cell may be taken from an exact placement (``Take(cell)``) and from propped
  ones (``Take(cell, prop)``): each distinct (cell, prop) is one legal action.
- *Mind Palace* may be chosen on any row or column that holds a card (every line, but on
  a grid with empty cells); it is forced only when no exact and no usable propped
  placement exists (then no ``Take`` is listed). A grid with no card at all skips step 2.
- *A Solve* lists the cheapest payment (``payment.pay``); ``apply`` takes any payment whose
  uses are legal (``use_pays``), spend cards of the pool and cover the due (surplus lost);
  the spent cards go to the discard pile in the order of the uses. Two Solves are equal
  by their case; ``Solve(case)`` without uses pays the cheapest way. A Solve with Watson
  draws after paying (the spent cards are already in the discard pile, so a reshuffle may
  bring them back), before the display refill.
- *Claims*: at the claim step the player must claim (``legal_actions`` lists
  ``milestones.claimable``'s choice for each claimable milestone first, then the other
  distinct choices, the earliest cards of each case and category, at most
  ``CLAIM_CHOICES``; the ids in solved order); ``apply`` takes any 5 uncommitted solved
  cards, in any order, that satisfy a claimable milestone (committed in solved order).
  After a claim the step goes on while another milestone is claimable with the cards left.
- *The end of a turn*: the discard comes before the claims; the turn passes by itself once
  nothing is left to do. The 15 points count milestones claimed in that turn.
- *ROUND_CAP*: after ``ROUND_CAP`` rounds (``ROUND_CAP x players`` turns) the game ends with
  the scores as they stand (winners as above); a safety bound for random play.
- *Over*: at the step ``over`` ``to_play`` is the player of the last turn;
  ``current_player()`` is None.

Chance goes through the state: ``new_game`` shuffles with ``random.Random(seed)``, which
then seeds the state's own chance stream (``chance_seed``, one integer: a 64-bit linear
congruential generator, ``chance_below``; each reshuffle or Mind Palace pick draws from
it and moves it on, so the same seed and the same actions give the same game, and the
stream does not depend on which actions came before except through the chance events
they made; ``clone`` copies the integer). A bot never reads it: bots see observations,
and ``from_position`` seeds a sampled state's stream from the bot's own ``rng``.
``apply(action, outcome)`` takes the chance results from an ``Outcome`` instead (the live
table): ``draws`` every clue
card dealt from the deck during the action (the drawn card, the refills, Watson's draw) in
order, ``pick`` the Mind Palace card, ``reveals`` the card each display refill reveals
(None, or nothing, when its pile is empty); the hidden order is rearranged to agree.

Observations are the spec's position JSON (``position``) with ``me`` and
``turn: {"number", "step", "used_allies"}``; ``from_position`` is the determinization.

Speed: the legal actions are made once per step; every ``Take``, ``MindPalace``, ``Draw``
and ``Discard`` object is made once at import; the grid's suit boards are kept cell by
cell, and the Takes of each board are remembered by the board alone
(``patterns.take_keys``: they do not depend on the suit); a start step tests every
target at once: for a pool without Sherlock on packed ints (``_solves``: the display's
costs packed once per display, the player's discounts once per discounts vector), else
with ``payment.affordable_dues`` on the pool's counts; a listed Solve finds its payment
(``payment.pay_vector``) only when it is read, and played finds only what the cheapest
payment spends and keeps (``payment.spend_vector``: no uses built; the kept cards become
the pool); payments are remembered by (due, pool) as plain tuples
(untracked by the garbage collector), dues by (card set, discounts), the display's ids
until it changes; ``Reserve``, ``Rotate`` and solved cards are made once per key; a
turn's end checks the milestones on packed counts of the player's uncommitted cards
(``_kinds``: which milestones, not which cards), and ``milestones.claimable`` runs only
at a claim step; Draw, Take and the turn's end are inlined; the deck is a list (top
last); the display, the piles and each player's solved list are replaced, never
changed, so ``clone`` shares them; the state's chance is one integer, so ``clone``
copies no generator, and a chance event costs a multiply per draw (no ``random.Random``
seeded per event: seeding one cost 10 µs, more than the rest of a Mind Palace; a
``random.Random`` carried in the state would cost a ``getstate``/``setstate`` of its 625
words per clone that plays chance). Every cache is emptied when full: ``PAY_CACHE``
payments or dues tables, ``COST_TABLES`` card sets, ``patterns.SUIT_CACHE`` boards.
``benchmarks/deductions_engine.py`` has the figures.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations, product, repeat
from operator import is_
from typing import Any, Union

from deduce.core.errors import InputError
from deduce.core.records import json_kind
from deduce.models.deductions import milestones
from deduce.models.deductions.cards import (
    CASES,
    CATEGORIES,
    CLUES,
    IRENE,
    MILESTONE_BONUS,
    MILESTONE_SIZE,
    MILESTONES,
    MYCROFT,
    SHIPPED,
    SOLUTION,
    SUITS,
    WATSON,
    CardSet,
    SolvedCard,
    clue_deck,
    resolve_clue,
    resolve_suit,
    shipped_cards,
)
from deduce.models.deductions.milestones import COMPLETION, DIVERSITY
from deduce.models.deductions.patterns import CELL_SUIT, SUIT_CACHE, boards, take_keys
from deduce.models.deductions.payment import (
    affordable_dues,
    discounted,
    due_dict,
    due_vector,
    POOL_SLOT,
    pay_vector,
    pool_counts,
    spend_vector,
    use_pays,
)
from deduce.models.deductions.position import (
    DISPLAY,
    FREE_ALLIES,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POOL_LIMIT,
    ROUND_CAP,
    SLOTS,
    WIN_POINTS,
    Position,
    Turn,
    cell_name,
    check_players,
    line_name,
)

START, INVESTIGATE, DISCARD, CLAIM, OVER = "start", "investigate", "discard", "claim", "over"

Cell = tuple[int, int]
Use = tuple[tuple[str, ...], str]
LINES = ("row", "column")
SIZE = 4


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Draw:
    """Obtain Clues, step 1 (step ``start``): the top clue card to the pool."""

    def to_json(self) -> dict:
        return {"action": "draw"}


@dataclass(frozen=True)
class Take:
    """Obtain Clues, step 2A (step ``investigate``): take the card at ``cell`` from an
    exact placement (``prop`` None) or a propped one whose mismatched cell is ``prop``;
    the cell is refilled from the deck."""

    cell: Cell
    prop: Cell | None = None

    def to_json(self) -> dict:
        return {"action": "take", "cell": list(self.cell),
                "prop": None if self.prop is None else list(self.prop)}


@dataclass(frozen=True)
class MindPalace:
    """Obtain Clues, step 2B (step ``investigate``): ``line`` is ``("row", i)`` or
    ``("column", i)``; its cards are taken, one at random goes to the pool, the others
    to the discard pile, the line is refilled."""

    line: tuple[str, int]

    def to_json(self) -> dict:
        return {"action": "mind_palace", "line": list(self.line)}


@dataclass(frozen=True)
class Solve:
    """Solve a Case (step ``start``): ``case`` an id in the display or reserved by the
    player; ``uses`` as ``payment.Payment.uses`` (each use: the pool cards spent together
    and the suit they pay). Two Solves are equal (and print) by their case alone: the
    payment is how, not what (``legal_actions`` lists the cheapest one; ``apply`` takes
    any payment that covers the due, and no uses as the cheapest payment). A listed
    Solve finds its ``uses`` (``payment.pay``) when they are first read."""

    case: str
    uses: tuple[Use, ...] = field(default_factory=tuple, compare=False, repr=False)

    def to_json(self) -> dict:
        return {"action": "solve", "case": self.case,
                "uses": [{"cards": list(cards), "as": suit} for cards, suit in self.uses]}

    def __getattr__(self, name: str) -> Any:
        # only reached for a listed Solve whose uses are not read yet (``_listed_solve``)
        pending = self.__dict__.get("_pending") if name == "uses" else None
        if pending is None:
            raise AttributeError(name)
        uses = _pay(*pending)[0]
        object.__setattr__(self, "uses", uses)
        return uses


def _listed_solve(case: str, due: tuple[int, ...], pool: list[str]) -> Solve:
    """``Solve(case, the cheapest payment of the due vector due from pool)``, the payment
    found when first read (``legal_actions`` lists many Solves, a player plays one)."""
    solve = _new_object(Solve)
    fields = solve.__dict__
    fields["case"] = case
    fields["_pending"] = due, pool
    return solve


_new_object = object.__new__


@dataclass(frozen=True)
class Reserve:
    """Mycroft Holmes's free action: the visible case card ``case`` to the reserved slot."""

    case: str

    def to_json(self) -> dict:
        return {"action": "reserve", "case": self.case}


@dataclass(frozen=True)
class Rotate:
    """Irene Adler's free action: the solved card ``case`` now discounts ``suit``."""

    case: str
    suit: str

    def to_json(self) -> dict:
        return {"action": "rotate", "case": self.case, "suit": self.suit}


@dataclass(frozen=True)
class Discard:
    """End of turn with more than 10 pool cards (step ``discard``): one card discarded."""

    card: str

    def to_json(self) -> dict:
        return {"action": "discard", "card": self.card}


@dataclass(frozen=True)
class Claim:
    """End of turn (step ``claim``): the 5 solved ids ``cards`` committed to
    ``milestone`` (``diversity`` or ``completion``)."""

    milestone: str
    cards: tuple[str, ...]

    def to_json(self) -> dict:
        return {"action": "claim", "milestone": self.milestone, "cards": list(self.cards)}


Action = Union[Draw, Take, MindPalace, Solve, Reserve, Rotate, Discard, Claim]


def action_words(action: Action) -> str:
    """An action as a person types it at the table (cells ``b3``, lines ``row 2``).

    >>> action_words(Take((2, 1), (2, 0))), action_words(MindPalace(("column", 3)))
    ('take b3 prop a3', 'Mind Palace on column d')
    """
    if isinstance(action, Take):
        prop = "" if action.prop is None else f" prop {cell_name(action.prop)}"
        return f"take {cell_name(action.cell)}{prop}"
    if isinstance(action, MindPalace):
        return f"Mind Palace on {line_name(action.line)}"
    if isinstance(action, Rotate):
        return f"rotate {action.case} to {action.suit}"
    if isinstance(action, Claim):
        return f"claim {action.milestone} with {', '.join(action.cards)}"
    detail = getattr(action, "case", None) or getattr(action, "card", None)
    return type(action).__name__.lower() + ("" if detail is None else f" {detail}")
ACTION_NAMES = ("draw", "take", "mind_palace", "solve", "reserve", "rotate", "discard",
                "claim")


@dataclass(frozen=True)
class Outcome:
    """The chance results of one action: ``draws`` the clue cards dealt from the deck, in
    order; ``pick`` the Mind Palace card that went to the pool; ``reveals`` the case cards
    revealed by display refills, in order (None: the pile was empty)."""

    draws: tuple[str, ...] = ()
    pick: str | None = None
    reveals: tuple[str | None, ...] = ()


# ---------------------------------------------------------------------------------- JSON
def _field(data: dict, key: str, where: str) -> Any:
    if key not in data:
        raise InputError("missing field", where=f"{where}: field {key!r}", field=key)
    return data[key]


def _string(value: Any, key: str, where: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"expected a string, got {json_kind(value)}",
                         where=f"{where}: field {key!r}", field=key)
    return value


def _cell(value: Any, key: str, where: str) -> Cell:
    ok = (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE
                  for v in value))
    if not ok:
        raise InputError(f"expected a cell [row, column], each 0 to {SIZE - 1}, got "
                         f"{json_kind(value)}", where=f"{where}: field {key!r}", field=key)
    return (value[0], value[1])


def action_from_json(data: Any, where: str = "action") -> Action:
    """The action of a ``to_json`` object (names by the alias rule, written canonically);
    ``InputError`` naming the field otherwise (whether it is legal is ``State.apply``'s
    question)."""
    if not isinstance(data, dict):
        raise InputError(f"an action is a JSON object, got {json_kind(data)}", where=where)
    kind = _string(_field(data, "action", where), "action", where)
    if kind not in ACTION_NAMES:
        raise InputError(f"unknown action {kind!r} (known: {', '.join(ACTION_NAMES)})",
                         where=f"{where}: field 'action'", field="action")
    known = {"draw": (), "take": ("cell", "prop"), "mind_palace": ("line",),
             "solve": ("case", "uses"), "reserve": ("case",), "rotate": ("case", "suit"),
             "discard": ("card",), "claim": ("milestone", "cards")}[kind]
    for key in data:
        if key != "action" and key not in known:
            raise InputError(f"unknown field for {kind} (known: {', '.join(('action',) + known)})",
                             where=f"{where}: field {key!r}", field=key)
    if kind == "draw":
        return Draw()
    if kind == "take":
        prop = data.get("prop")
        return Take(_cell(_field(data, "cell", where), "cell", where),
                    None if prop is None else _cell(prop, "prop", where))
    if kind == "mind_palace":
        line = _field(data, "line", where)
        if not (isinstance(line, (list, tuple)) and len(line) == 2 and line[0] in LINES
                and isinstance(line[1], int) and not isinstance(line[1], bool)
                and 0 <= line[1] < SIZE):
            raise InputError(f'expected ["row" or "column", 0 to {SIZE - 1}], got '
                             f"{json_kind(line)}", where=f"{where}: field 'line'", field="line")
        return MindPalace((line[0], line[1]))
    if kind == "solve":
        return Solve(_string(_field(data, "case", where), "case", where),
                     _uses(data.get("uses", []), where))
    if kind == "reserve":
        return Reserve(_string(_field(data, "case", where), "case", where))
    if kind == "rotate":
        suit = _string(_field(data, "suit", where), "suit", where)
        return Rotate(_string(_field(data, "case", where), "case", where),
                      resolve_suit(suit, where=f"{where}: field 'suit'"))
    if kind == "discard":
        card = _string(_field(data, "card", where), "card", where)
        return Discard(resolve_clue(card, where=f"{where}: field 'card'"))
    milestone = _string(_field(data, "milestone", where), "milestone", where)
    if milestone not in MILESTONES:
        raise InputError(f"unknown milestone {milestone!r} (known: {', '.join(MILESTONES)})",
                         where=f"{where}: field 'milestone'", field="milestone")
    cards = _field(data, "cards", where)
    if not isinstance(cards, list) or len(cards) > 5:
        raise InputError(f"expected a list of 5 case ids, got {json_kind(cards)}",
                         where=f"{where}: field 'cards'", field="cards")
    return Claim(milestone, tuple(_string(c, f"cards[{i}]", where) for i, c in enumerate(cards)))


#: the most uses a payment can list (every pool card used alone, mid-turn)
MAX_USES = 12


def _uses(value: Any, where: str) -> tuple[Use, ...]:
    if not isinstance(value, list) or len(value) > MAX_USES:
        raise InputError(f"expected a list of at most {MAX_USES} uses, got {json_kind(value)}",
                         where=f"{where}: field 'uses'", field="uses")
    out = []
    for i, use in enumerate(value):
        at = f"uses[{i}]"
        if not isinstance(use, dict) or set(use) != {"cards", "as"}:
            raise InputError('expected {"cards": [...], "as": suit}',
                             where=f"{where}: field {at!r}", field="uses")
        cards = use["cards"]
        if not isinstance(cards, list) or not 1 <= len(cards) <= 3:
            raise InputError(f"expected 1 to 3 clue cards, got {json_kind(cards)}",
                             where=f"{where}: field '{at}.cards'", field="uses")
        names = tuple(resolve_clue(_string(c, f"{at}.cards[{j}]", where),
                                   where=f"{where}: field '{at}.cards[{j}]'")
                      for j, c in enumerate(cards))
        suit = resolve_suit(_string(use["as"], f"{at}.as", where),
                            where=f"{where}: field '{at}.as'")
        out.append((names, suit))
    return tuple(out)


# ---------------------------------------------------------------------------------- tables
CELLS = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
DRAW = Draw()
#: every Take action, made once (``legal_actions`` lists them without allocating)
_TAKES = {(cell, prop): Take(cell, prop) for cell in CELLS for prop in (None, *CELLS)
          if prop != cell}
#: per board (the cells of one suit): the Takes of its exact placements, and those then
#: the Takes of its propped ones (``patterns.take_cells``; the same for every suit), so
#: ``[propped_ok]`` picks what a player may take; cleared when it holds
#: ``patterns.SUIT_CACHE``
_BOARD_TAKES: dict[int, tuple[tuple[Take, ...], tuple[Take, ...]]] = {}


def _board_takes(board: int) -> tuple[tuple[Take, ...], tuple[Take, ...]]:
    """The Takes of ``patterns.take_keys(board)`` (a cell holds one suit, so no two
    suits share a Take): ``(exact, exact + propped)``; remembered."""
    cells, pairs = take_keys(board)
    if len(_BOARD_TAKES) >= SUIT_CACHE:
        _BOARD_TAKES.clear()
    exact = tuple(map(_CELL_TAKES.__getitem__, cells))
    found = _BOARD_TAKES[board] = (exact, exact + tuple(map(_PAIR_TAKES.__getitem__, pairs)))
    return found


#: the Takes by ``patterns.take_keys``' keys: of an exact placement by its cell's key, of
#: a propped one by 16 x the cell's key + the prop's
_CELL_TAKES = {SIZE * r + c: take for ((r, c), prop), take in _TAKES.items() if prop is None}
_PAIR_TAKES = {SIZE * SIZE * (SIZE * r + c) + SIZE * prop[0] + prop[1]: take
               for ((r, c), prop), take in _TAKES.items() if prop is not None}


#: Reserve actions by case id, and the Rotates of a solved card by (case id, its
#: discount), as listed (the same action objects each time); cleared at ``SUIT_CACHE``
_RESERVES: dict[str, Reserve] = {}
_ROTATES: dict[tuple[str, str], tuple[Rotate, ...]] = {}


#: the solved cards by (case id, discount suit) (immutable, so shared)
_SOLVED: dict[tuple[str, str], SolvedCard] = {}


def _solved_card(card: Any, discount: str) -> SolvedCard:
    """``SolvedCard(card, discount)``, made once per card and suit (``card`` a card of
    the state's set: a set's cards are told apart by object, not only by id)."""
    key = (id(card), discount)
    found = _SOLVED.get(key)
    if found is None or found.card is not card:
        found = _made(_SOLVED, key, SolvedCard(card, discount))
    return found


def _made(memo: dict, key: Any, value: Any) -> Any:
    """``value`` remembered in ``memo`` under ``key`` (``memo`` emptied when full)."""
    if len(memo) >= SUIT_CACHE:
        memo.clear()
    memo[key] = value
    return value


#: the cells of each row and column, in order (refilled in that order)
_LINES = {**{("row", i): tuple((i, c) for c in range(SIZE)) for i in range(SIZE)},
          **{("column", i): tuple((r, i) for r in range(SIZE)) for i in range(SIZE)}}
_MINDS = {line: MindPalace(line) for line in _LINES}
_ALL_MINDS = list(_MINDS.values())
_DISCARDS = {card: Discard(card) for card in CLUES}
#: the steps at which Mycroft's and Irene's free actions may be played
FREE_STEPS = ("start", "investigate", "discard")
#: the most Claim choices ``legal_actions`` lists at a claim step
CLAIM_CHOICES = 64
DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan")
#: payments already computed, by (due vector, pool); cleared when it holds this many
PAY_CACHE = 1 << 15
_PAY: dict = {}
#: ``_spend``'s results, by (due vector, pool), as ``_PAY``
_SPENT: dict = {}
#: per card set (by id, the set kept alive): each case's cost as a due vector, and the
#: table of dues by discounts (``_CostTable``); cleared when it holds this many card sets
COST_TABLES = 64
_COSTS: dict[int, "_CostTable"] = {}


class _CostTable:
    """One card set's costs as due vectors (``cost``), and per discounts vector (solved
    cards per suit) the dues of the cases asked so far (``dues``: discounts -> case ->
    due vector; shared by every state of the set, cleared at ``PAY_CACHE`` entries)."""

    __slots__ = ("cards", "cost", "packed", "lane_bytes", "dues")

    def __init__(self, cards: CardSet):
        self.cards = cards
        self.cost = {c.id: due_vector(c.cost_dict()) for c in cards.by_id.values()}
        #: each cost as one int, 8 bits per suit (``SUITS`` order from bit 0): ``_solves``
        self.packed = {i: _pack(v) for i, v in self.cost.items()}
        #: each packed cost as its ``_LANE`` bits in little-endian bytes: the lanes of
        #: several costs are their bytes joined (``_solves``)
        self.lane_bytes = {i: v.to_bytes(_LANE // 8, "little") for i, v in self.packed.items()}
        self.dues: dict[tuple[int, ...], dict[str, tuple[int, ...]]] = {}

    def dues_for(self, discounts: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
        """The table of dues of ``discounts`` (its discounts kept under the key None, and
        packed as ``_pack`` under the key 0)."""
        found = self.dues.get(discounts)
        if found is None:
            if len(self.dues) >= PAY_CACHE:
                self.dues.clear()
            found = self.dues[discounts] = {None: discounts, 0: _pack(discounts)}
        return found


def _pack(vector: tuple[int, ...]) -> int:
    """A vector of small counts (each below 64) as one int, 8 bits each, from bit 0."""
    return sum(n << (_BYTE * i) for i, n in enumerate(vector))


#: ``_solves``' fields: 8 bits per suit, 5 suits (40 bits) per target case
_BYTE = 8
_LANE = _BYTE * len(SUITS)
_LOW5 = (1 << _LANE) - 1
_SIXTY_FOUR = _pack((64,) * len(SUITS))
_SUM5 = _pack((1,) * len(SUITS))
#: per number of targets: one 1 per lane (``_REPEAT``), bit 0 of each field (``_ONES``)
_REPEAT = [sum(1 << (_LANE * j) for j in range(m)) for m in range(len(DISPLAY) * SLOTS + 2)]
_ONES = [r * _SUM5 for r in _REPEAT]
#: per card name, its ``pool_counts`` slot as a field: the five suits' direct payers,
#: Lestrade at field 5, Sherlock at 6
_POOL_BITS = {card: 1 << (_BYTE * k) for card, k in POOL_SLOT.items()}
_LESTRADE_SHIFT = _BYTE * len(SUITS)
_SHERLOCK_BIT = 1 << (_BYTE * (len(SUITS) + 1))
#: the largest pool the packed fields hold (counts below 64, ``127 - room`` >= 0)
_PACKED_POOL = 48


def _pay(due: tuple[int, ...], pool: list[str]) -> tuple[tuple[Use, ...], tuple[str, ...]] | None:
    """``payment.pay`` of the due vector ``due`` from ``pool`` as what the engine keeps of
    the ``Payment``: ``(uses, pool_after)``, both tuples, or None; remembered (shared by
    every state: clones repeat it). Plain tuples of strings, so the garbage collector
    stops tracking the payments remembered (30,000 ``Payment`` objects and their lists
    made each full collection cost 90 ms)."""
    key = (due, tuple(pool))
    found = _PAY.get(key, _PAY)
    if found is _PAY:
        if len(_PAY) >= PAY_CACHE:
            _PAY.clear()
        payment = pay_vector(due, pool)
        found = _PAY[key] = None if payment is None else \
            (tuple(payment.uses), tuple(payment.pool_after))
    return found


def _spend(due: tuple[int, ...], pool: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``payment.spend_vector`` of an affordable due vector ``due`` from ``pool`` as
    tuples ``(spent, kept)``, remembered as ``_pay`` (what ``apply`` of a listed Solve
    needs: no uses built)."""
    key = (due, tuple(pool))
    found = _SPENT.get(key)
    if found is None:
        if len(_SPENT) >= PAY_CACHE:
            _SPENT.clear()
        spent, kept = spend_vector(due, pool)
        found = _SPENT[key] = tuple(spent), tuple(kept)
    return found


def _costs(cards: CardSet) -> _CostTable:
    """The ``_CostTable`` of ``cards`` (made once per card set)."""
    found = _COSTS.get(id(cards))
    if found is None or found.cards is not cards:
        if len(_COSTS) >= COST_TABLES:
            _COSTS.clear()
        found = _COSTS[id(cards)] = _CostTable(cards)
    return found


#: the state's chance stream: a 64-bit linear congruential generator (Knuth's MMIX
#: constants) whose high 32 bits give each draw (``chance_below``, ``chance_shuffle``)
LCG_MULTIPLIER = 6364136223846793005
LCG_INCREMENT = 1442695040888963407
LCG_MASK = (1 << 64) - 1


def chance_below(seed: int, n: int) -> tuple[int, int]:
    """``(next seed, k)``: one step of the stream from ``seed`` and ``k`` in ``range(n)``
    (``n`` from 1 to 2**32) from its high 32 bits scaled by ``n`` (each ``k`` has
    probability ``floor`` or ``ceil`` of ``2**32 / n`` over ``2**32``: off uniform by less
    than ``n / 2**32``)."""
    seed = (seed * LCG_MULTIPLIER + LCG_INCREMENT) & LCG_MASK
    return seed, ((seed >> 32) * n) >> 32


def chance_shuffle(seed: int, cards: list) -> int:
    """Shuffle ``cards`` in place from ``seed`` (Fisher-Yates from the last card down, one
    ``chance_below`` step per swap, inlined); returns the next seed."""
    mul, inc, mask = LCG_MULTIPLIER, LCG_INCREMENT, LCG_MASK
    for i in range(len(cards) - 1, 0, -1):
        seed = (seed * mul + inc) & mask
        j = ((seed >> 32) * (i + 1)) >> 32
        cards[i], cards[j] = cards[j], cards[i]
    return seed


def _shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``, drawn as ``random.Random.shuffle`` draws it (the same
    ``getrandbits`` calls and swaps, so the same order), with the draws inlined."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_EMPTY_ROW = [None] * SIZE
#: ``State._kinds``: one 6-bit field per case (``CASES`` order), then one per category;
#: a field holds at most 15 cards (a case's), so adding 27 sets its bit 5 exactly at 5
#: or more, adding 31 exactly at 1 or more
_FIELD = 6
_KIND_BITS = {(case, category): 1 << (_FIELD * i) | 1 << (_FIELD * (len(CASES) + k))
              for i, case in enumerate(CASES) for k, category in enumerate(CATEGORIES)}
_CASE_FIELDS = (1 << (_FIELD * len(CASES))) - 1
_CATEGORY_SHIFT = _FIELD * len(CASES)
_FIVE = sum(27 << (_FIELD * i) for i in range(len(CASES)))
_ONE = sum(31 << (_FIELD * i) for i in range(len(CATEGORIES)))
_TOPS = sum(32 << (_FIELD * i) for i in range(max(len(CASES), len(CATEGORIES))))
_CATEGORY_TOPS = sum(32 << (_FIELD * i) for i in range(len(CATEGORIES)))
_MILESTONE_COUNT = len(MILESTONES)


def _grid_empty(grid: list[list[str | None]]) -> bool:
    """Whether no cell of ``grid`` holds a card."""
    return all(row == _EMPTY_ROW for row in grid)


def _candidates(milestone: str, cards: list[SolvedCard]):
    """Sets of 5 of ``cards`` that meet ``milestone`` (``milestones.satisfies``) by
    construction: for Case Completion, 5 cards of one case; for Diversity, one card per
    category, the earliest of each case in it."""
    if milestone == COMPLETION:
        of_case: dict[str, list] = {case: [] for case in CASES}
        for s in cards:
            of_case[s.case].append(s)
        for group in of_case.values():
            if len(group) >= MILESTONE_SIZE:
                yield from combinations(group, MILESTONE_SIZE)
        return
    per = [list({s.case: s for s in reversed(cards) if s.category == k}.values())
           for k in CATEGORIES]
    yield from product(*per)


#: a claim's cards as one int, 3 bits per (case, category): at most 5 cards of a kind
_CLAIM_FIELDS = {(case, category): 1 << (3 * (len(CATEGORIES) * i + k))
                 for i, case in enumerate(CASES) for k, category in enumerate(CATEGORIES)}


class _Script:
    """The chance results an ``Outcome`` fixes, consumed as the action deals."""

    def __init__(self, outcome: Outcome):
        if not isinstance(outcome, Outcome):
            raise InputError(f"expected an Outcome, got {type(outcome).__name__}",
                             field="outcome")
        where = "outcome: field"
        self.draws = [resolve_clue(_string(c, f"draws[{i}]", "outcome"),
                                   where=f"{where} 'draws[{i}]'")
                      for i, c in enumerate(outcome.draws)]
        self.pick = None if outcome.pick is None else resolve_clue(
            _string(outcome.pick, "pick", "outcome"), where=f"{where} 'pick'")
        self.reveals = [None if c is None else _string(c, f"reveals[{i}]", "outcome")
                        for i, c in enumerate(outcome.reveals)]
        self.drawn = self.revealed = 0
        self.picked = False

    def draw(self, deck: list[str]) -> str:
        if self.drawn >= len(self.draws):
            raise InputError(f"the action deals more clue cards than the outcome's "
                             f"{len(self.draws)} draws", field="draws")
        card = self.draws[self.drawn]
        self.drawn += 1
        return _to_top(deck, card, f"{card} (draws[{self.drawn - 1}]) is not in the clue "
                                   "deck", "draws")

    def reveal(self, pile: list[str]) -> str | None:
        more = self.revealed < len(self.reveals)
        if not pile:
            if more and self.reveals[self.revealed] is None:
                self.revealed += 1
            return None
        if not more or self.reveals[self.revealed] is None:
            raise InputError("the refill reveals the next case card of the pile: the outcome "
                             "must name it", field="reveals")
        case = self.reveals[self.revealed]
        self.revealed += 1
        return _to_top(pile, case, f"{case!r} (reveals[{self.revealed - 1}]) is not in the "
                                   "pile below its top", "reveals")

    def choose(self, cards: list[str]) -> int:
        if self.pick is None:
            raise InputError("the Mind Palace sends one card to the pool: the outcome must "
                             "name it (pick)", field="pick")
        if self.pick not in cards:
            raise InputError(f"{self.pick} (pick) is not among the line's cards "
                             f"({', '.join(cards)})", field="pick")
        self.picked = True
        return cards.index(self.pick)

    def finish(self) -> None:
        if self.drawn < len(self.draws):
            raise InputError(f"the outcome lists {len(self.draws)} draws, the action deals "
                             f"{self.drawn}", field="draws")
        if self.revealed < len(self.reveals):
            raise InputError(f"the outcome lists {len(self.reveals)} reveals, the action "
                             f"reveals {self.revealed}", field="reveals")
        if self.pick is not None and not self.picked:
            raise InputError("the outcome names a pick, but the action is no Mind Palace",
                             field="pick")


def _to_top(cards: list[str], name: str, message: str, key: str) -> str:
    """Move the last copy of ``name`` in ``cards`` to the end and pop it."""
    for k in range(len(cards) - 1, -1, -1):
        if cards[k] == name:
            cards[k], cards[-1] = cards[-1], cards[k]
            return cards.pop()
    raise InputError(message, field=key)


# ---------------------------------------------------------------------------------- state
class State:
    """One game of Deductions (2-4 players); see the module docstring for the rules and
    the decisions. Seats are 0..n-1; ``players`` their names; ``turns`` the turns played;
    ``step`` where the turn stands (``position.STEPS``)."""

    def __init__(self, cards: CardSet, players: tuple[str, ...], chance_seed: int,
                 cards_field: str | None = SHIPPED):
        n = len(players)
        self.cards = cards
        self._costs = _costs(cards)
        self.players = players
        self.n = n
        self.cards_field = cards_field
        self.chance_seed = chance_seed
        self.grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
        self.deck: list[str] = []  # the top is the last card
        self.discard: list[str] = []
        self.display = {key: [None] * SLOTS for key in DISPLAY}
        self.piles: dict[str, list[str]] = {key: [] for key in DISPLAY}  # top last
        self.pools: list[list[str]] = [[] for _ in range(n)]
        self.solved: list[list[SolvedCard]] = [[] for _ in range(n)]
        self.claimed: list[dict[str, tuple[str, ...]]] = [{} for _ in range(n)]
        self.reserved: list[str | None] = [None] * n
        self.scores = [0] * n
        self.final_round = False
        self.final_by: int | None = None
        self.turns = 0
        self.to_play = 0
        self.step = "start"
        self.used: frozenset[str] = frozenset()
        #: per player: dues by case id (and its sorted discounts under None), until its
        #: discounts change
        #: per player: the dues by case of its discounts (``_CostTable.dues_for``; None
        #: until asked after its discounts changed)
        self._dues: list[dict | None] = [None] * n
        #: per player: its targets and their dues (``_targets_dues``; None when stale)
        self._asked: list[tuple | None] = [None] * n
        self._legal: list | None = None
        #: the display's case ids (``_targets``; None: not known since it changed)
        self._shown: list[str] | None = None
        #: ``_shown`` and its cases' packed costs, one 40-bit lane each (``_solves``)
        self._shown_cost: tuple[list[str], int] | None = None
        #: the grid's suit boards (``_grid_boards``; None: not known yet)
        self._boards: tuple[int, ...] | None = None
        self._affordable: dict[str, dict[str, int]] = {}
        self._claimable: dict[str, list[str]] | None = None
        #: per player, its uncommitted solved cards counted by case and by category in
        #: one int (``_KIND_BITS``; None: to count again)
        self._kinds: list[int | None] = [None] * n
        self._script: _Script | None = None
        self._last = Outcome()
        self._draws: list[str] = []
        self._pick: str | None = None
        self._reveals: list[str | None] = []

    # ------------------------------------------------------------------ queries
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int | None:
        """The seat to play (None when the game is over)."""
        return None if self.step == OVER else self.to_play

    def is_over(self) -> bool:
        return self.step == OVER

    def points(self, player: int) -> int:
        """Solved cards' points plus 3 per claimed milestone."""
        return self.scores[self._seat(player)]

    def winner(self) -> list[int] | None:
        """None while the game goes on; else the winners' seats: the most points, then
        the most Solutions, the most solved cards, the most clues in pool; still tied,
        all of them."""
        if self.step != OVER:
            return None
        keys = [self._rank(p) for p in range(self.n)]
        best = max(keys)
        return [p for p in range(self.n) if keys[p] == best]

    def _rank(self, p: int) -> tuple[int, int, int, int]:
        solutions = sum(1 for s in self.solved[p] if s.card.kind == SOLUTION)
        return (self.scores[p], solutions, len(self.solved[p]), len(self.pools[p]))

    def last_outcome(self) -> Outcome:
        """The chance results of the last applied action (empty before any)."""
        if self._last is None:
            self._last = Outcome(tuple(self._draws), self._pick, tuple(self._reveals))
        return self._last

    def _seat(self, player: Any) -> int:
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.n:
            raise InputError(f"no player {player!r}: seats 0 to {self.n - 1}", field="player")
        return player

    def clone(self) -> "State":
        """An independent copy (its own lists and chance seed). Shared, because they are
        replaced, never changed: the caches of the current step, the display, the piles
        and each player's list of solved cards."""
        c = State.__new__(State)
        c.__dict__.update(self.__dict__)
        c.grid = [row[:] for row in self.grid]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.pools = [p[:] for p in self.pools]
        c.solved = self.solved[:]
        c.claimed = self.claimed[:]
        c.reserved = self.reserved[:]
        c.scores = self.scores[:]
        c._kinds = self._kinds[:]
        c._dues = self._dues[:]
        c._asked = self._asked[:]
        return c

    # ------------------------------------------------------------------ observations
    def observation(self, player: int) -> dict:
        """The spec's position JSON as ``player`` sees it (``me``), with ``turn``:
        ``{"number": turns played before this one, "step", "used_allies"}``."""
        me = self._seat(player)
        names = self.players
        out: dict[str, Any] = {"game": GAME}
        if self.cards_field is not None:
            out["cards"] = self.cards_field
        out.update({
            "players": list(names), "me": names[me], "to_play": names[self.to_play],
            "grid": [list(row) for row in self.grid],
            "display": {k: list(v) for k, v in self.display.items()},
            "pools": {names[i]: list(v) for i, v in enumerate(self.pools)},
            "solved": {names[i]: [{"case": s.id, "discount": s.discount} for s in v]
                       for i, v in enumerate(self.solved)},
            "milestones": {names[i]: {m: list(v[m]) for m in MILESTONES if m in v}
                           for i, v in enumerate(self.claimed)},
            "reserved": {names[i]: r for i, r in enumerate(self.reserved)},
            "discard": list(self.discard), "final_round": self.final_round,
            "turn": {"number": self.turns, "step": self.step,
                     "used_allies": [a for a in FREE_ALLIES if a in self.used]},
        })
        return out

    def position(self, player: int) -> Position:
        """``observation(player)`` as a ``Position`` (built directly, not parsed)."""
        me = self._seat(player)
        names = self.players
        return Position(
            cards=self.cards, players=names, me=names[me], to_play=names[self.to_play],
            grid=tuple(tuple(row) for row in self.grid),
            display={k: tuple(v) for k, v in self.display.items()},
            pools={names[i]: tuple(v) for i, v in enumerate(self.pools)},
            solved={names[i]: tuple(v) for i, v in enumerate(self.solved)},
            milestones={names[i]: {m: v[m] for m in MILESTONES if m in v}
                        for i, v in enumerate(self.claimed)},
            reserved={names[i]: r for i, r in enumerate(self.reserved)},
            discard=tuple(self.discard), final_round=self.final_round,
            turn=Turn(self.turns, self.step, tuple(a for a in FREE_ALLIES if a in self.used)),
            cards_field=self.cards_field)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to play, in a fixed order (empty when over):
        ``start``: Draw, one Solve per affordable case (display order, then the reserved
        card; the cheapest payment), then the free actions; ``investigate``: the Takes
        (``patterns.placements`` order), the Mind Palaces (rows, then columns), the free
        actions; ``discard``: one Discard per distinct pool card (pool order), the free
        actions; ``claim``: the Claim choices."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return legal[:]

    def _list_legal(self) -> list:
        step = self.step
        if step == START:
            out = self._solves()
            pool = self.pools[self.to_play]
            if MYCROFT in pool or IRENE in pool:
                out += self._free()
            return out
        if step == INVESTIGATE:
            out = self._takes()
            out += self._minds()
            pool = self.pools[self.to_play]
            if MYCROFT in pool or IRENE in pool:
                out += self._free()
            return out
        if step == DISCARD:
            pool = self.pools[self.to_play]
            return [*(_DISCARDS[c] for c in dict.fromkeys(pool)), *self._free()]
        if step == CLAIM:
            return self._claims()
        return []

    def _targets(self, p: int) -> list[str]:
        """The case ids ``p`` may solve: the display's (solutions, then red herrings, slot
        order; kept in ``_shown`` until the display changes) and ``p``'s reserved card
        (a list not to be changed)."""
        shown = self._shown
        if shown is None:
            shown = self._shown = [i for row in self.display.values() for i in row
                                   if i is not None]
        reserved = self.reserved[p]
        return shown if reserved is None else [*shown, reserved]

    def _due(self, p: int, case: str) -> tuple[int, ...]:
        """What ``case`` costs ``p`` after its discounts, as a due vector
        (``payment.discounted``; remembered per discounts vector for the card set)."""
        dues = self._dues[p] or self._player_dues(p)
        due = dues.get(case)
        if due is None:
            due = dues[case] = discounted(self._costs.cost[case], dues[None])
        return due

    def _player_dues(self, p: int) -> dict:
        """``p``'s table of dues (``_CostTable.dues_for`` its discounts per suit)."""
        counts = [0] * len(SUITS)
        for s in self.solved[p]:
            counts[_SUIT_INDEX[s.discount]] += 1
        dues = self._dues[p] = self._costs.dues_for(tuple(counts))
        return dues

    def _solves(self) -> list:
        """``Draw``, then one Solve per affordable target, its payment found when first
        read; ``_affordable`` keeps their due vectors for ``apply``.

        Affordable is ``payment.affordable_dues``; for a pool without Sherlock (nearly
        always) its formula ``2 * owed <= room - units`` is worked out for every target
        at once on packed ints, 8 bits per suit and 40 per target (``_pack``): each
        field is a count below 64, so ``x + 64 - y`` has bit 6 set exactly when ``x >=
        y``, and then its low 6 bits are ``x - y``; so the dues (costs less discounts,
        not below 0) and what the pool leaves owing are two masked subtractions, a
        multiplication sums each target's five fields into its top field (sums stay
        below 256: no carry), and bit 7 of ``2 * owed + units + 127 - room`` there is
        set exactly when the target is not affordable."""
        p = self.to_play
        pool = self.pools[p]
        affordable: dict[str, tuple[int, ...]] = {}
        self._affordable = affordable
        out: list = [DRAW]
        try:
            packed = sum(map(_POOL_BITS.__getitem__, pool))
        except (KeyError, TypeError):
            pool_counts(pool)  # raises the ValueError naming the card
            raise  # pragma: no cover
        frozen = None  # the listed Solves' payments are found from this copy of the pool
        if packed >= _SHERLOCK_BIT or len(pool) > _PACKED_POOL:  # the general formula
            counts = list(pool_counts(pool))
            targets, due_list = self._asked[p] or self._targets_dues(p)
            for case, due, ok in zip(targets, due_list, affordable_dues(due_list, counts)):
                if ok:
                    if frozen is None:
                        frozen = pool[:]
                    affordable[case] = due
                    out.append(_listed_solve(case, due, frozen))
            return out
        dues = self._dues[p] or self._player_dues(p)
        shown = self._shown or self._targets(p) and self._shown
        costs = self._costs
        known = self._shown_cost
        if known is None or known[0] is not shown:  # lane j: the cost of shown[j]
            lanes = int.from_bytes(b"".join(map(costs.lane_bytes.__getitem__, shown)), "little")
            known = self._shown_cost = (shown, lanes)
        lanes = known[1]
        reserved = self.reserved[p]
        m = len(shown)
        if reserved is not None:
            lanes |= costs.packed[reserved] << (_LANE * m)
            m += 1
        repeat, ones = _REPEAT[m], _ONES[m]
        x = lanes + repeat * (_SIXTY_FOUR - dues[0])
        due_lanes = x & (((x >> 6) & ones) * 63)
        x = due_lanes + repeat * (_SIXTY_FOUR - (packed & _LOW5))
        owed = (x & (((x >> 6) & ones) * 63)) * _SUM5
        room = len(pool) + 2 * (packed >> _LESTRADE_SHIFT)
        top = repeat << (_LANE - _BYTE)
        bad = 2 * owed + due_lanes * _SUM5 + top * (127 - room)
        fine = ~bad & (top << 7)
        if not fine:
            return out
        frozen = pool[:]
        get = dues.get
        cost = costs.cost
        while fine:
            low = fine & -fine
            fine ^= low
            j = low.bit_length() // _LANE - 1
            case = shown[j] if j < len(shown) else reserved
            due = get(case)
            if due is None:
                due = dues[case] = discounted(cost[case], dues[None])
            affordable[case] = due
            out.append(_listed_solve(case, due, frozen))
        return out

    def _targets_dues(self, p: int) -> tuple[list[str], list[tuple[int, ...]]]:
        """``p``'s targets and their due vectors, kept in ``_asked[p]`` until the
        display, ``p``'s reserved card or ``p``'s discounts change."""
        dues = self._dues[p] or self._player_dues(p)
        targets = self._targets(p)
        get = dues.get
        due_list = []
        for case in targets:
            due = get(case)
            if due is None:  # ``_due``, inlined
                due = dues[case] = discounted(self._costs.cost[case], dues[None])
            due_list.append(due)
        found = self._asked[p] = targets, due_list
        return found

    def _free(self) -> list:
        p = self.to_play
        pool = self.pools[p]
        out: list = []
        if MYCROFT in pool and MYCROFT not in self.used and self.reserved[p] is None:
            out += [_RESERVES.get(i) or _made(_RESERVES, i, Reserve(i)) for i in self._targets(p)]
        if IRENE in pool and IRENE not in self.used:
            for s in self.solved[p]:
                key = (s.id, s.discount)
                out += _ROTATES.get(key) or _made(_ROTATES, key, tuple(
                    Rotate(key[0], suit) for suit in SUITS if suit != key[1]))
        return out

    def _takes(self) -> list[Take]:
        """The Takes of the grid's placements (``patterns.placements`` order, each
        (cell, prop) once; propped ones only with a pool card): per suit, as remembered
        for its board (``_suit_takes``)."""
        propped_ok = 1 if self.pools[self.to_play] else 0
        out: list[Take] = []
        known = _BOARD_TAKES
        for board in self._boards or self._grid_boards():
            out += (known.get(board) or _board_takes(board))[propped_ok]
        return out

    def _grid_boards(self) -> tuple[int, ...]:
        """The grid's suit boards (``patterns.boards``), kept in ``_boards`` and updated
        cell by cell (``_refill``)."""
        self._boards = tuple(boards(self.grid))
        return self._boards

    def _refill(self, cells: tuple[Cell, ...]) -> None:
        """The cards at ``cells`` leave the grid, then each cell in order takes the deck's
        top card (``_deal``); the suit boards follow."""
        grid = self.grid
        b = None if self._boards is None else list(self._boards)
        for r, c in cells:
            old, grid[r][c] = grid[r][c], None
            if b is not None and old is not None:
                b[CELL_SUIT[old]] &= ~(1 << (SIZE * r + c))
        for r, c in cells:
            card = grid[r][c] = self._deal()
            if b is not None and card is not None:
                b[CELL_SUIT[card]] |= 1 << (SIZE * r + c)
        if b is not None:
            self._boards = tuple(b)

    def _minds(self) -> list[MindPalace]:
        grid = self.grid
        if None not in grid[0] and None not in grid[1] and None not in grid[2] \
                and None not in grid[3]:
            return _ALL_MINDS
        return [m for line, m in _MINDS.items()
                if any(grid[r][c] is not None for r, c in _LINES[line])]

    def _uncommitted(self, p: int) -> list[SolvedCard]:
        committed = {i for ids in self.claimed[p].values() for i in ids}
        return [s for s in self.solved[p] if s.id not in committed]

    def _claims(self) -> list[Claim]:
        """``milestones.claimable``'s choice of each claimable milestone first, then the
        other distinct choices (by the cases and categories committed; the earliest
        cards of each), at most ``CLAIM_CHOICES`` in all."""
        p = self.to_play
        ready = self._ready(p)
        cards = self._uncommitted(p)
        out = {Claim(m, tuple(ids)): None for m, ids in ready.items()}
        field = _CLAIM_FIELDS  # a choice's kind: the cases and categories it commits
        mine = {s.id: s for s in cards}
        kinds = {(c.milestone, sum([field[mine[i].case, mine[i].category] for i in c.cards]))
                 for c in out}
        order = None
        for m in ready:
            for chosen in _candidates(m, cards):
                if len(out) >= CLAIM_CHOICES:
                    break
                # a candidate meets its milestone by construction (``_candidates``)
                kind = (m, sum([field[s.case, s.category] for s in chosen]))
                if kind in kinds:
                    continue
                kinds.add(kind)
                if m == DIVERSITY:  # one card per category: put in solved order (a Case
                    # Completion candidate is in it already)
                    if order is None:
                        order = {id(s): i for i, s in enumerate(cards)}
                    chosen = sorted(chosen, key=lambda s: order[id(s)])
                out[Claim(m, tuple(s.id for s in chosen))] = None
        return list(out)

    def _ready(self, p: int) -> dict[str, list[str]]:
        """``milestones.claimable`` for ``p`` (remembered for the step)."""
        if self._claimable is None:
            self._claimable = milestones.claimable(self.solved[p], self.claimed[p])
        return self._claimable

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, outcome: Outcome | None = None) -> None:
        """Play ``action`` for the player to play; an illegal one is an ``InputError``
        with the reason and leaves the state as it was. ``outcome`` fixes the action's
        chance results (each must be possible, else ``InputError`` naming it; the hidden
        order is rearranged to agree); without it they come from the state's
        ``random.Random``."""
        if outcome is None:  # ``_apply``, inlined
            do = _DO.get(type(action))
            if do is None or self.step == OVER:
                self._apply(action)  # raises
            if self._legal is None:
                self._legal = self._list_legal()
            last = self._last, self._draws, self._pick, self._reveals
            self._draws, self._pick, self._reveals = [], None, []
            try:
                do(self, action)
            except InputError:
                self._last, self._draws, self._pick, self._reveals = last
                raise
            self._last = None
            self._legal = None
            return
        before = self.clone()
        self._script = _Script(outcome)
        try:
            self._apply(action)
            self._script.finish()
        except InputError:
            self.__dict__.update(before.__dict__)
            raise
        finally:
            self._script = None

    def _apply(self, action: Action) -> None:
        do = _DO.get(type(action))
        if do is None:
            raise InputError(f"not a Deductions action: {action!r}", field="action")
        if self.step == OVER:
            raise InputError("the game is over", field="action")
        if self._legal is None:
            self._legal = self._list_legal()
        last = self._last, self._draws, self._pick, self._reveals
        self._draws, self._pick, self._reveals = [], None, []
        try:
            do(self, action)
        except InputError:
            self._last, self._draws, self._pick, self._reveals = last
            raise
        self._last = None  # made from _draws, _pick, _reveals when asked
        self._legal = None

    def _refuse(self, action: Action, why: str) -> InputError:
        return InputError(f"{action_words(action)} is not legal: {why} ({self.players[self.to_play]} "
                          f"to play, step {self.step!r})", field="action")

    def _need_step(self, action: Action, steps: tuple[str, ...], what: str) -> None:
        if self.step not in steps:
            raise self._refuse(action, f"{what} is played at step "
                                       f"{' or '.join(repr(s) for s in steps)}")

    # -- chance
    def _below(self, n: int) -> int:
        """A number drawn uniformly from ``range(n)`` (``n >= 1``) from the state's stream
        (``chance_below``), which moves on."""
        seed = self.chance_seed = (self.chance_seed * LCG_MULTIPLIER + LCG_INCREMENT) & LCG_MASK
        return ((seed >> 32) * n) >> 32

    def _deal(self) -> str | None:
        """The top clue card of the deck (the discard pile shuffled into a new deck when
        the deck is empty; None when both are)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.chance_seed = chance_shuffle(self.chance_seed, self.deck)
        card = self._script.draw(self.deck) if self._script else self.deck.pop()
        self._draws.append(card)
        return card

    def _reveal(self, key: str) -> str | None:
        """The next card of pile ``key`` (None when it is empty)."""
        pile = self.piles[key][:]  # the piles are shared with clones: replaced, not changed
        self.piles = {**self.piles, key: pile}
        if self._script:
            case = self._script.reveal(pile)
        else:
            case = pile.pop() if pile else None
        self._reveals.append(case)
        return case

    def _leave_display(self, case: str) -> None:
        """``case`` leaves the display: a dealt slot takes the pile's top, the pile's next
        card becomes the visible top (a gap when the pile is empty)."""
        self._asked = [None] * self.n
        self._shown = None
        for key, row in self.display.items():
            if case in row:
                row = row[:]  # the display is shared with clones: replaced, not changed
                j = row.index(case)
                if j:
                    row[j] = row[0]
                row[0] = self._reveal(key)
                self.display = {**self.display, key: row}
                return
        raise AssertionError(case)  # pragma: no cover

    def _leave_pool(self, p: int, card: str) -> None:
        self.pools[p].remove(card)
        if card in self.used:
            self.used = self.used - {card}

    # -- the actions
    def _do_draw(self, action: Draw) -> None:
        if self.step != START:
            self._need_step(action, (START,), "a draw (Obtain Clues, step 1)")
        deck = self.deck
        if deck and self._script is None:
            card = deck.pop()
            self._draws.append(card)
        else:
            card = self._deal()
        if card is not None:
            self.pools[self.to_play].append(card)
        self.step = INVESTIGATE
        grid = self.grid
        if grid[0][0] is None and _grid_empty(grid):
            self._end_turn()  # nothing to investigate

    def _do_take(self, action: Take) -> None:
        if self.step != INVESTIGATE:
            self._need_step(action, (INVESTIGATE,), "a take (Obtain Clues, step 2A)")
        take = _TAKES.get((action.cell, action.prop))
        if take is None or not any(map(is_, self._legal, repeat(take))):
            how = "exact placement" if action.prop is None else \
                f"placement propped at {cell_name(action.prop)} (with a pool card)"
            raise self._refuse(action, f"no {how} lets you take the card at "
                                       f"{cell_name(action.cell)}")
        r, c = take.cell
        row = self.grid[r]
        old = row[c]
        self.pools[self.to_play].append(old)
        row[c] = None
        deck = self.deck
        if deck and self._script is None:  # ``_refill`` of the one cell, inlined
            card = deck.pop()
            self._draws.append(card)
        else:
            card = self._deal()
        row[c] = card
        boards = self._boards
        if boards is not None:
            b = list(boards)
            bit = 1 << (SIZE * r + c)
            b[CELL_SUIT[old]] &= ~bit
            if card is not None:
                b[CELL_SUIT[card]] |= bit
            self._boards = tuple(b)
        self._end_turn()

    def _do_mind_palace(self, action: MindPalace) -> None:
        if self.step != INVESTIGATE:
            self._need_step(action, (INVESTIGATE,), "the Mind Palace (Obtain Clues, step 2B)")
        cells = _LINES.get(action.line)
        grid = self.grid
        cards = [grid[r][c] for r, c in cells or () if grid[r][c] is not None]
        if not cards:
            raise self._refuse(action, "the line has no card" if cells else "no such line")
        k = self._script.choose(cards) if self._script else self._below(len(cards))
        self._pick = cards.pop(k)
        self.pools[self.to_play].append(self._pick)
        self.discard.extend(cards)
        self._refill(cells)
        self._end_turn()

    def _do_solve(self, action: Solve) -> None:
        self._need_step(action, (START,), "a Solve")
        p = self.to_play
        due = self._affordable.get(action.case)  # an affordable case is a target
        if due is None and action.case not in self._targets(p):
            raise self._refuse(action, f"{action.case!r} is neither in the display nor "
                                       "reserved by the player")
        if due is None:
            raise self._refuse(action, f"the pool cannot pay {action.case!r} (due "
                                       f"{due_dict(self._due(p, action.case))})")
        pool = self.pools[p]
        fields = action.__dict__
        pending = fields.get("_pending")
        if pending is not None and "uses" not in fields and pending[0] == due \
                and pending[1] == pool:  # listed as such: the cheapest payment
            spent, kept = _spend(due, pool)
        else:
            cheapest = _pay(due, pool)
            spent = self._check_payment(action, cheapest)
            kept = None
            if spent is None:  # the cheapest payment
                spent = [card for cards, _ in cheapest[0] for card in cards]
                kept = cheapest[1]
        if kept is not None:  # the cheapest payment's pool_after is the pool left
            self.pools[p] = list(kept)
            if self.used and not self.used.isdisjoint(spent):
                self.used = self.used.difference(spent)
        else:
            for card in spent:
                self._leave_pool(p, card)
        self.discard.extend(spent)
        if WATSON in spent:
            card = self._deal()
            if card is not None:
                self.pools[p].append(card)
        if self.reserved[p] == action.case:
            self.reserved[p] = None
            self._asked = [None] * self.n
        else:
            self._leave_display(action.case)
        card = self.cards.by_id[action.case]
        self.solved[p] = [*self.solved[p], _solved_card(card, card.discount)]  # not changed:
        # each player's solved list is shared with clones
        if self._kinds[p] is not None:
            self._kinds[p] += _KIND_BITS[card.case, card.category]
        self.scores[p] += card.points
        dues = self._dues[p]
        if dues is not None:  # one more discount: ``_player_dues`` without the count
            discounts = list(dues[None])
            discounts[_SUIT_INDEX[card.discount]] += 1
            self._dues[p] = self._costs.dues_for(tuple(discounts))
        self._asked[p] = None
        self._end_turn()

    def _check_payment(self, action: Solve, cheapest: tuple) -> list[str] | None:
        """The cards ``action``'s uses spend, once checked: each use a legal one
        (``use_pays``), the cards in the pool, the due covered; None when the payment is
        ``cheapest`` (no uses, or its uses)."""
        if not action.uses or action.uses == cheapest[0]:
            return None
        due = due_dict(self._due(self.to_play, action.case))
        spent: list[str] = []
        for i, (cards, suit) in enumerate(action.uses):
            units = use_pays(cards, suit)
            if not units:
                raise self._refuse(action, f"use {i + 1} ({' + '.join(cards)} as {suit}) pays "
                                           "nothing")
            if suit in due:
                due[suit] -= units
            spent += cards
        pool = Counter(self.pools[self.to_play])
        pool.subtract(spent)
        short = [c for c, k in pool.items() if k < 0]
        if short:
            raise self._refuse(action, f"the payment spends more {short[0]} than the pool holds")
        owed = {s: n for s, n in due.items() if n > 0}
        if owed:
            raise self._refuse(action, "the payment leaves "
                                       + ", ".join(f"{n} {s}" for s, n in owed.items())
                                       + " unpaid")
        return spent

    def _do_reserve(self, action: Reserve) -> None:
        self._need_step(action, FREE_STEPS, "Mycroft Holmes's free action")
        if action not in self._legal:
            raise self._refuse(action, self._free_why(MYCROFT, "a visible case card"))
        self.reserved[self.to_play] = action.case
        self._asked = [None] * self.n
        self.used = self.used | {MYCROFT}
        self._leave_display(action.case)

    def _do_rotate(self, action: Rotate) -> None:
        self._need_step(action, FREE_STEPS, "Irene Adler's free action")
        if action not in self._legal:
            raise self._refuse(action, self._free_why(IRENE, "one of the player's solved "
                                                             "cards, to another suit"))
        p = self.to_play
        self.solved[p] = [_solved_card(s.card, action.suit) if s.id == action.case else s
                          for s in self.solved[p]]
        self.used = self.used | {IRENE}
        self._dues[p] = None
        self._asked[p] = None

    def _free_why(self, ally: str, what: str) -> str:
        p = self.to_play
        if ally not in self.pools[p]:
            return f"{ally} is not in the pool"
        if ally in self.used:
            return f"{ally}'s free action is used while {ally} stays in the pool"
        if ally == MYCROFT and self.reserved[p] is not None:
            return f"a case card is reserved already ({self.reserved[p]!r})"
        return f"it takes {what}"

    def _do_discard(self, action: Discard) -> None:
        self._need_step(action, (DISCARD,), "a discard (pool over 10 at the end of a turn)")
        p = self.to_play
        if action.card not in self.pools[p]:
            raise self._refuse(action, f"{action.card} is not in the pool")
        self._leave_pool(p, action.card)
        self.discard.append(action.card)
        if len(self.pools[p]) <= POOL_LIMIT:
            self._claim_or_finish()

    def _do_claim(self, action: Claim) -> None:
        self._need_step(action, (CLAIM,), "a milestone claim")
        p = self.to_play
        ready = self._ready(p)
        if action.milestone not in ready:
            raise self._refuse(action, f"{action.milestone} cannot be claimed now")
        mine = {s.id: s for s in self._uncommitted(p)}
        ids = set(action.cards)
        if len(ids) != len(action.cards) or not ids <= set(mine):
            raise self._refuse(action, "it takes distinct uncommitted solved cards of the player")
        chosen = [s for s in self.solved[p] if s.id in ids]
        if not milestones.satisfies(action.milestone, chosen):
            raise self._refuse(action, f"these cards do not satisfy {action.milestone}")
        self.claimed[p] = {**self.claimed[p], action.milestone: tuple(s.id for s in chosen)}
        self.scores[p] += MILESTONE_BONUS
        self._claimable = None
        self._kinds[p] = None
        if not self._met(p):
            self._finish_turn()

    # -- the end of a turn
    def _settle(self) -> None:
        """Move past a step with nothing to do (a hand-entered position's): a claim step
        with nothing claimable, an investigate step with an empty grid."""
        if self.step == CLAIM and not self._ready(self.to_play):
            self._finish_turn()
        elif self.step == INVESTIGATE and _grid_empty(self.grid):
            self._end_turn()

    def _end_turn(self) -> None:
        """After Obtain Clues or a Solve: the discard step, the claim step, the next turn."""
        p = self.to_play
        if len(self.pools[p]) > POOL_LIMIT:
            self.step = DISCARD
            return
        self._claimable = None
        kinds = self._kinds[p]
        if kinds is None or (kinds & _CASE_FIELDS) + _FIVE & _TOPS or \
                ((kinds >> _CATEGORY_SHIFT) + _ONE & _TOPS) == _CATEGORY_TOPS:
            if self._met(p):  # the choices wait for legal_actions
                self.step = CLAIM
                return
        self._finish_turn()

    def _claim_or_finish(self) -> None:
        self._claimable = None
        if self._met(self.to_play):  # the choices wait for legal_actions
            self.step = CLAIM
            return
        self._finish_turn()

    def _met(self, p: int) -> bool:
        """Whether an open milestone is met by ``p``'s uncommitted solved cards (as
        ``milestones.met``, from the counts in ``_kinds``)."""
        kinds = self._kinds[p]
        if kinds is None:
            kinds = 0
            committed = {i for ids in self.claimed[p].values() for i in ids}
            for s in self.solved[p]:
                if s.id not in committed:
                    kinds += _KIND_BITS[s.case, s.category]
            self._kinds[p] = kinds
        claimed = self.claimed[p]
        if COMPLETION not in claimed and (kinds & _CASE_FIELDS) + _FIVE & _TOPS:
            return True
        return DIVERSITY not in claimed and \
            ((kinds >> _CATEGORY_SHIFT) + _ONE & _TOPS) == _CATEGORY_TOPS

    def _finish_turn(self) -> None:
        p = self.to_play
        self.turns += 1
        self._claimable = None
        if not self.final_round and self.scores[p] >= WIN_POINTS:
            self.final_round, self.final_by = True, p
        nxt = (p + 1) % self.n
        if (self.final_round and nxt == self.final_by) or self.turns >= ROUND_CAP * self.n:
            self.step = OVER
            return
        self.to_play, self.step = nxt, START


_DO = {Draw: State._do_draw, Take: State._do_take, MindPalace: State._do_mind_palace,
       Solve: State._do_solve, Reserve: State._do_reserve, Rotate: State._do_rotate,
       Discard: State._do_discard, Claim: State._do_claim}


# ---------------------------------------------------------------------------------- setup
def new_game(seed: int, players: int = 3, cards: CardSet | None = None,
             names: list[str] | None = None) -> State:
    """A new game: the clue deck and both case piles shuffled with ``random.Random(seed)``
    (which then seeds the state's later chance: reshuffles, Mind Palace picks), 16 clues
    dealt to the grid row by row, 3 cards of each pile beside its face-up top; seat 0
    plays first. ``cards``: the shipped set by default; ``names``: the players' names
    (default Ann, Ben, Cat, Dan; as many as ``players``)."""
    if not isinstance(players, int) or isinstance(players, bool) or \
            not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"the game takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not "
                         f"{players!r}", field="players")
    if names is None:
        names = list(DEFAULT_NAMES[:players])
    names = check_players(list(names), "names")
    if len(names) != players:
        raise InputError(f"{len(names)} names for {players} players", field="names")
    cards = shipped_cards() if cards is None else cards
    rng = random.Random(seed)
    state = State(cards, names, 0, cards.source)
    deck = clue_deck()
    _shuffle(rng, deck)
    for r in range(SIZE):
        for c in range(SIZE):
            state.grid[r][c] = deck.pop()
    state.deck = deck
    for key, kind in DISPLAY.items():
        pile = [c.id for c in cards.of_kind(kind)]
        _shuffle(rng, pile)
        row = state.display[key]
        for j in range(1, SLOTS):
            row[j] = pile.pop()
        row[0] = pile.pop()
        state.piles[key] = pile
    state.chance_seed = rng.getrandbits(64)
    return state


def from_position(position: Position, rng: random.Random) -> State:
    """A state agreeing with everything ``position`` shows, its hidden parts (the deck's
    order, the piles' orders below their tops) drawn uniformly with ``rng``; its later
    chance is seeded from ``rng``. Without a ``turn`` field the
    turn is the position's ``step`` with no free action used; turns played 0."""
    players = position.players
    state = State(position.cards, players, rng.getrandbits(64), position.cards_field)
    state.grid = [list(row) for row in position.grid]
    state._boards = None
    deck = list(position.deck_counts().elements())
    rng.shuffle(deck)
    state.deck = deck
    state.discard = list(position.discard)
    state.display = {k: list(v) for k, v in position.display.items()}
    state._shown = None
    for key, hidden in position.piles().items():
        rng.shuffle(hidden)
        state.piles[key] = hidden
    state.pools = [list(position.pools[p]) for p in players]
    state.solved = [list(position.solved[p]) for p in players]
    state.claimed = [dict(position.milestones[p]) for p in players]
    state.reserved = [position.reserved[p] for p in players]
    state.scores = [position.points(p) for p in players]
    state.final_round = position.final_round
    by = position.final_by()
    state.final_by = None if by is None else players.index(by)
    turn = position.turn or Turn(0, position.step, ())
    state.turns, state.step, state.used = turn.number, turn.step, frozenset(turn.used_allies)
    state.to_play = players.index(position.to_play)
    state._settle()
    return state
