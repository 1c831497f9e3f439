"""Deductions' rules engine: a ``State`` with ``legal_actions``, ``apply``, ``observation``.

(Interface commit: the actions, ``Outcome`` and the ``State`` signatures; the engine
follows on branch ``w12-rules``.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Union

from deduce.core.errors import InputError
from deduce.models.deductions.cards import MILESTONES, CardSet, json_kind, resolve_clue, resolve_suit
from deduce.models.deductions.position import Position

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
    any payment that covers the due)."""

    case: str
    uses: tuple[Use, ...] = field(default=(), compare=False, repr=False)

    def to_json(self) -> dict:
        return {"action": "solve", "case": self.case,
                "uses": [{"cards": list(cards), "as": suit} for cards, suit in self.uses]}


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


# ---------------------------------------------------------------------------------- state
class State:
    """One game of Deductions (2-4 players). See the module docstring."""

    def __init__(self) -> None:
        raise NotImplementedError("the engine follows in the next commit")

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to play, in a fixed order (empty when over)."""
        raise NotImplementedError

    def apply(self, action: Action, outcome: Outcome | None = None) -> None:
        """Play ``action`` (``InputError`` with the reason, state unchanged, when it is
        not legal); ``outcome`` fixes its chance results (the live table)."""
        raise NotImplementedError

    def last_outcome(self) -> Outcome:
        """The chance results of the last applied action."""
        raise NotImplementedError

    def observation(self, player: int) -> dict:
        """The spec's position JSON as ``player`` sees it (``me``), with ``turn``."""
        raise NotImplementedError

    def position(self, player: int) -> Position:
        """``observation(player)`` as a ``Position``."""
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def winner(self) -> list[int] | None:
        """None while the game goes on; else the winners' seats (ties all listed)."""
        raise NotImplementedError

    def points(self, player: int) -> int:
        """Solved cards' points plus 3 per claimed milestone."""
        raise NotImplementedError

    def clone(self) -> "State":
        raise NotImplementedError

    def num_players(self) -> int:
        raise NotImplementedError

    def current_player(self) -> int | None:
        """The seat to play (None when the game is over)."""
        raise NotImplementedError


def new_game(seed: int, players: int = 3, cards: CardSet | None = None,
             names: list[str] | None = None) -> State:
    """A new game: the clue deck and both case piles shuffled with ``random.Random(seed)``
    (which then serves the state's later chance), 16 clues dealt to the grid, 3 cards of
    each pile beside its face-up top; seat 0 plays first. ``cards``: the shipped set by
    default; ``names``: the players' names (default Ann, Ben, Cat, Dan)."""
    raise NotImplementedError


def from_position(position: Position, rng: random.Random) -> State:
    """A state agreeing with everything ``position`` shows, its hidden parts (the deck's
    order, the piles' orders below their tops) drawn uniformly with ``rng``."""
    raise NotImplementedError
