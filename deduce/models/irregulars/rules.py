"""Baker Street Irregulars' rules engine, multiplayer (2-5) and solo against Holmes: a
``State`` with ``legal_actions``, ``apply``, ``observation``, ``hidden``, ``from_parts``,
``is_over``, ``winner``, ``scores``, seeded chance (rulebook and spec ``irregulars.md``).

*Multiplayer.* Setup (``new_game``): the 5 Evidence decks, the Villains (5 revealed), the
Plot Twists shuffled; an Inspector dealt to each player; the arresting order drawn. Each
round: the top Plot Twist is revealed (``fewest-points-to-top`` and
``most-points-to-bottom`` move the badges at once), as many cards as players are drawn from
each deck, shuffled and dealt 5 to each; then 4 cycles of Investigate, Arrest and Tail; then
the BSI Bonus and the cleanup (round 4: the bonus without boards, then one final Arrest
Phase, then the end).

- *Investigate*, the simultaneous draft played in turn: each player, in seat order, picks
  one card of their hand they can pay for from their available tokens (``Pick``), or, when
  they can afford none, passes their whole hand (``PassHand``, then their only action).
  The picks stay hidden until everyone has picked; then each is revealed and paid (the
  tokens turn spent), and the hands pass: left (to the next seat) in rounds 1 and 3,
  right in 2 and 4, the other way under ``reverse-passing``. In the 4th cycle what is left
  of every hand goes face down to the middle instead.
- *Arrest*, in arresting order (the order as it stands: a player whose badge moves keeps
  their turn or their having acted), each player once: ``Arrest`` a visible Villain with a
  set of their unused Evidence covering all its icons but the allowance (``arrest.
  allowance``: one for a tail on it, one more for the Holmes board's ignore), or
  ``NoArrest``. An arrest: the cards turn used, the Villain joins the player's, every
  player tailing it gets that token back as available, the player's badge goes last, the
  Villain's slot is refilled from the Villain deck (the row shrinks once it is empty).
- *Tail*, in arresting order: a player with an available token who tails nothing may put
  one on a visible Villain (``Tail``) or not (``NoTail``); nobody tails under
  ``no-tailing`` (tails already placed stay).
- *BSI Bonus*, from the most available tokens to the fewest (ties by arresting order; in
  arresting order under ``bonus-in-arresting-order``): each player takes one of the
  unchosen cards, now face up (``TakeCard``, free), or in rounds 1-3 one of the boards in
  the middle (``TakeBoard``); under ``no-bsi-bonus`` there is no bonus: the unchosen cards
  are discarded and the boards held are lost. *Cleanup*: the cards left in the middle are
  discarded; spent tokens come back (a tailing one stays).
- *Score*: Villain points plus the best of the player's 3 objectives over every Evidence
  card they own (``_objective_points``). Winner: most points, then most available
  tokens, then higher in the arresting order (always one winner).

*Solo* (``new_solo``): seat 0 is the player, seat 1 Holmes (``order`` ``[Holmes, me]``,
no boards, no Plot Twists); 2 cards from each deck dealt 5 and 5; 19 cycles. Each cycle the
player picks (or passes, as above); Holmes takes a random card of his hand and pays its
cost down to no less than 0; then the Holmes Track (the space of the cycle: a card from the
deck it shows, free, to Holmes's Evidence); then the token checks: Holmes at 2 or fewer
available tokens resupplies both players to 13, else the player at 2 or fewer gives Holmes
the top card of deck III and both resupply; a player tailing at a resupply chooses
(``Resupply``) to keep the tail (12 available) or take the token back (13); then the hands
are swapped, and after a deal's 4th cycle (the hands are down to one card each) both
hands' cards are discarded and 5 and 5 are dealt again. Arrest: Holmes first, as if tailing every Villain (``arrest.
best_arrest`` over ``arrest.arrest(..., tailing=True)``: most points, ties fewest cards,
then row order; his smallest set), at most one; then the player. Tail: the player only.
The player wins with strictly more points than Holmes's Villains.

Decisions where the rules leave it open:

- *Boards* are used in their holder's own turn of an Arrest Phase, as free actions before
  arresting or not: ``Jump`` (Holmes: to the front of the order), ``Watson`` (up one
  place), ``Wiggins`` (tail another visible Villain), or the Holmes board's ignore as part
  of an ``Arrest`` (``holmes=True``). A badge moved this way serves the phases after (the
  players still to act this phase keep their turns). A board taken in a round's bonus is
  usable in the next round only: an unused one goes back to the middle at that round's
  bonus (round 3's boards stay through round 4's final Arrest Phase), so every bonus of
  rounds 1-3 offers all three boards. Under ``no-bsi-bonus`` the boards held go back
  unused and none is taken, so nobody holds one in the next round.
- *Uneven hands*: a player who passes keeps a larger hand moving; in the 4th cycle
  everything left in the hands goes to the middle. Hands are kept sorted by card id.
- *Forced turns are skipped*: an arrest turn with nothing to arrest and no board to use, a
  tail turn without a token, a Villain or the right to tail, a bonus turn with nothing to
  take count as having acted (the log's ``acted``); picking always asks (``PassHand`` is
  an action).
- *Solo deals* last 4 cycles (cycles 1-4, ..., 13-16, then 17-19): a hand a pass kept
  larger is discarded with the rest; a short deck deals fewer cards (an empty hand
  passes, Holmes picks nothing).
- *Solo token checks* count 0 tokens as low (the rulebook says "1 or 2", which would leave
  a supply at 0 stuck forever); a deck that is empty gives no card; the game ends after the
  19th cycle's Arrest Phase (a tail then changes nothing).
- *Legal arrests* (``legal_actions``): per visible Villain in row order, the smallest
  covers of ``covers.arrest_covers`` (one card per group of cards showing the same icons of
  it, at most ``ARREST_CHOICES``), first without the board, then, for a holder of the
  Holmes board, the smallest covers with its ignore. ``apply`` takes any covering set of
  the player's unused cards, with or without the board; two ``Arrest`` actions are equal
  (and print) by Villain and board alone: the cards are how, not what.

Chance: ``new_game(seed)`` shuffles the decks, the Villains and the Plot Twists, deals the
Inspectors and draws the arresting order with ``random.Random(seed)``, whose next 64 bits
seed the state's chance (``chance_seed``): each chance event (the shuffle of a round's or a
solo deal's cards, Holmes's random pick) makes ``random.Random(chance_seed)``, moves the
seed on to its first 64 bits and draws from it.

Observations (``observation(seat)``) are ``{"position": the spec's position JSON for that
seat, "log": its ``log.RoundLog`` JSON}`` (``read_observation`` reads the pair back);
``hidden(seat)`` is everything else (``hidden.Hidden``); ``from_parts(position, log,
hidden, chance)`` puts them together again into the state (with ``chance`` the real
state's ``chance_seed`` it goes on exactly as the real one).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence, Union

from deduce.core.errors import InputError
from deduce.core.records import json_kind
from deduce.models.irregulars.arrest import allowance, arrests, best_arrest, covers
from deduce.models.irregulars.cards import (
    BONUS_IN_ARRESTING_ORDER,
    DECKS,
    FEWEST_POINTS_TO_TOP,
    MOST_POINTS_TO_BOTTOM,
    NO_BSI_BONUS,
    NO_TAILING,
    REVERSE_PASSING,
    SHIPPED,
    CardSet,
    Evidence,
    Inspector,
    mask_icons,
    shipped_cards,
)
from deduce.models.irregulars.covers import POP, arrest_covers
from deduce.models.irregulars.hidden import Hidden
from deduce.models.irregulars.log import CycleSeen, RoundLog, parse_log
from deduce.models.irregulars.score import objective_value
from deduce.models.irregulars.position import (
    BOARDS,
    CYCLES,
    GAME,
    HAND_SIZE,
    HOLMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MULTI,
    ROUNDS,
    ROW,
    SOLO,
    SOLO_CYCLES,
    TOKENS,
    Position,
    check_players,
    parse_position,
)

# the engine's phases (``RESET``: a solo resupply while tailing, position phase
# investigate; ``FINAL``: the last Arrest Phase, position phase arrest)
INVESTIGATE, RESET, ARREST, TAIL, BONUS, FINAL, OVER = (
    "investigate", "reset", "arrest", "tail", "bonus", "final", "over")
PUBLIC_PHASE = {INVESTIGATE: "investigate", RESET: "investigate", ARREST: "arrest",
                TAIL: "tail", BONUS: "bonus", FINAL: "arrest", OVER: "arrest"}
HOLMES_BOARD, WATSON_BOARD, WIGGINS_BOARD = BOARDS
#: the most covers listed per Villain and board choice
ARREST_CHOICES = 4
#: solo: Holmes's seat, and the deck a low player's token check draws from
HOLMES_SEAT = 1
TOKEN_CHECK_DECK = 3
LOW_TOKENS = 2
#: solo: cards drawn from each deck for a deal
SOLO_DRAW = 2
DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Pick:
    """Investigate: take ``card`` from the hand (paid when the picks are revealed)."""

    card: str

    def to_json(self) -> dict:
        return {"action": "pick", "card": self.card}


@dataclass(frozen=True)
class PassHand:
    """Investigate, for a player who can afford no card of the hand: take none and pass
    the whole hand on."""

    def to_json(self) -> dict:
        return {"action": "pass"}


@dataclass(frozen=True)
class Resupply:
    """Solo, a resupply while tailing: keep the tail (12 available tokens) or take the
    tailing token back (13)."""

    keep_tail: bool

    def to_json(self) -> dict:
        return {"action": "resupply", "keep_tail": self.keep_tail}


@dataclass(frozen=True)
class Arrest:
    """Arrest ``villain`` (visible) with ``cards`` (unused Evidence of the player) and,
    with ``holmes``, the Holmes board's ignore. Equal (and printed) by villain and board
    alone (``apply`` takes any covering set)."""

    villain: str
    cards: tuple[str, ...] = field(default=(), compare=False, repr=False)
    holmes: bool = False

    def to_json(self) -> dict:
        return {"action": "arrest", "villain": self.villain, "cards": list(self.cards),
                "holmes": self.holmes}


@dataclass(frozen=True)
class NoArrest:
    def to_json(self) -> dict:
        return {"action": "no_arrest"}


@dataclass(frozen=True)
class Jump:
    """The Holmes board, in one's arrest turn: to the front of the arresting order."""

    def to_json(self) -> dict:
        return {"action": "jump"}


@dataclass(frozen=True)
class Watson:
    """The Watson board, in one's arrest turn: up one place in the arresting order."""

    def to_json(self) -> dict:
        return {"action": "watson"}


@dataclass(frozen=True)
class Wiggins:
    """The Wiggins board, in one's arrest turn: the tail moves to ``villain``."""

    villain: str

    def to_json(self) -> dict:
        return {"action": "wiggins", "villain": self.villain}


@dataclass(frozen=True)
class Tail:
    villain: str

    def to_json(self) -> dict:
        return {"action": "tail", "villain": self.villain}


@dataclass(frozen=True)
class NoTail:
    def to_json(self) -> dict:
        return {"action": "no_tail"}


@dataclass(frozen=True)
class TakeCard:
    """BSI Bonus: one of the unchosen cards in the middle, free."""

    card: str

    def to_json(self) -> dict:
        return {"action": "take", "card": self.card}


@dataclass(frozen=True)
class TakeBoard:
    """BSI Bonus (rounds 1-3): one of the boards in the middle."""

    board: str

    def to_json(self) -> dict:
        return {"action": "board", "board": self.board}


Action = Union[Pick, PassHand, Resupply, Arrest, NoArrest, Jump, Watson, Wiggins, Tail,
               NoTail, TakeCard, TakeBoard]
PASS_HAND, NO_ARREST, JUMP, WATSON, NO_TAIL = PassHand(), NoArrest(), Jump(), Watson(), NoTail()
_PICKS: dict[str, Pick] = {}
_TAILS: dict[str, Tail] = {}
_WIGGINS: dict[str, Wiggins] = {}
_TAKES: dict[str, TakeCard] = {}
_BOARD_TAKES = {b: TakeBoard(b) for b in BOARDS}
_RESUPPLY = (Resupply(True), Resupply(False))

#: the fields of each action's JSON
ACTION_FIELDS = {"pick": ("card",), "pass": (), "resupply": ("keep_tail",),
                 "arrest": ("villain", "cards", "holmes"), "no_arrest": (), "jump": (),
                 "watson": (), "wiggins": ("villain",), "tail": ("villain",),
                 "no_tail": (), "take": ("card",), "board": ("board",)}
#: the most cards an arrest's JSON may list (a Villain has at most 9 icons)
MAX_ARREST_CARDS = 9


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


#: per card set (by id, the set kept alive): the ids of each deck, of the Villains, the
#: Plot Twists and the Inspectors, in the set's order
_IDS: dict[int, tuple[CardSet, dict]] = {}


def _ids(cards: CardSet) -> dict:
    found = _IDS.get(id(cards))
    if found is None or found[0] is not cards:
        if len(_IDS) >= 64:
            _IDS.clear()
        found = _IDS[id(cards)] = (cards, {
            "decks": {d: [c.id for c in cards.deck(d)] for d in DECKS},
            "villains": [v.id for v in cards.villains],
            "twists": [t.id for t in cards.plot_twists],
            "inspectors": [i.id for i in cards.inspectors],
            "mask": {c.id: c.mask for c in cards.evidence},
            "cost": {c.id: c.cost for c in cards.evidence},
            "vmask": {v.id: v.mask for v in cards.villains},
            "top_cost": max((c.cost for c in cards.evidence), default=0)})
        for c in cards.evidence:  # every Pick made once: the listing only looks them up
            if c.id not in _PICKS:
                _PICKS[c.id] = Pick(c.id)
    return found[1]


def _made(memo: dict, key: str, make) -> Any:
    found = memo.get(key)
    if found is None:
        found = memo[key] = make(key)
    return found


#: the Arrest actions listed so far, by (villain, cards, board); emptied when full
_ARRESTS: dict[tuple, Arrest] = {}
ARREST_MEMO = 1 << 15


def _arrest_action(villain: str, cards: tuple[str, ...], holmes: bool) -> Arrest:
    key = (villain, cards, holmes)
    found = _ARRESTS.get(key)
    if found is None:
        if len(_ARRESTS) >= ARREST_MEMO:
            _ARRESTS.clear()
        found = _ARRESTS[key] = Arrest(villain, cards, holmes)
    return found


def action_words(action: Action, cards: CardSet | None = None) -> str:
    """An action in words for a person (names from ``cards`` when given).

    >>> action_words(Arrest("V02", ("E001", "E009"), holmes=True))
    'arrest V02 with E001, E009 (the Holmes board ignores one icon)'
    >>> action_words(PassHand()), action_words(Resupply(False))
    ('pass the whole hand (no card affordable)', 'resupply, taking the tailing token back')
    """
    def name(ident: str) -> str:
        if cards is None or ident not in cards.by_id:
            return ident
        return f"{ident} ({cards.by_id[ident].name})"

    if isinstance(action, Pick):
        return f"pick {name(action.card)}"
    if isinstance(action, PassHand):
        return "pass the whole hand (no card affordable)"
    if isinstance(action, Resupply):
        return ("resupply, keeping the tail (12 tokens)" if action.keep_tail
                else "resupply, taking the tailing token back")
    if isinstance(action, Arrest):
        used = ", ".join(action.cards) if action.cards else "no card"
        return (f"arrest {name(action.villain)} with {used}"
                + (" (the Holmes board ignores one icon)" if action.holmes else ""))
    if isinstance(action, NoArrest):
        return "no arrest"
    if isinstance(action, Jump):
        return "the Holmes board: jump to the front of the arresting order"
    if isinstance(action, Watson):
        return "the Watson board: up one place in the arresting order"
    if isinstance(action, Wiggins):
        return f"the Wiggins board: tail {name(action.villain)} instead"
    if isinstance(action, Tail):
        return f"tail {name(action.villain)}"
    if isinstance(action, NoTail):
        return "no tail"
    if isinstance(action, TakeCard):
        return f"take {name(action.card)}"
    return f"take the {action.board.capitalize()} board"


def action_from_json(data: Any, where: str = "action") -> Action:
    """The action of a ``to_json`` object; ``InputError`` naming the field otherwise
    (whether it is legal is ``State.apply``'s question)."""
    if not isinstance(data, dict):
        raise InputError(f"an action is a JSON object, got {json_kind(data)}", where=where)
    kind = data.get("action")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InputError(f"expected one of {', '.join(ACTION_FIELDS)}, got {json_kind(kind)}",
                         where=f"{where}: field 'action'", field="action")
    known = ACTION_FIELDS[kind]
    for key in data:
        if key != "action" and key not in known:
            raise InputError(f"unknown field for {kind} (known: "
                             f"{', '.join(('action',) + known)})",
                             where=f"{where}: field {key!r}", field=key)

    def text(key: str) -> str:
        if key not in data:
            raise InputError("missing field", where=f"{where}: field {key!r}", field=key)
        value = data[key]
        if not isinstance(value, str) or not 1 <= len(value) <= 100:
            raise InputError(f"expected an id (a string of 1 to 100 characters), got "
                             f"{json_kind(value)}", where=f"{where}: field {key!r}", field=key)
        return value

    def flag(key: str, default: bool | None = None) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise InputError(f"expected true or false, got {json_kind(value)}",
                             where=f"{where}: field {key!r}", field=key)
        return value

    if kind == "pick":
        return Pick(text("card"))
    if kind == "resupply":
        return Resupply(flag("keep_tail"))
    if kind == "arrest":
        ids = data.get("cards", [])
        if not isinstance(ids, list) or len(ids) > MAX_ARREST_CARDS:
            raise InputError(f"expected a list of at most {MAX_ARREST_CARDS} Evidence ids, "
                             f"got {json_kind(ids)}", where=f"{where}: field 'cards'",
                             field="cards")
        for i, c in enumerate(ids):
            if not isinstance(c, str):
                raise InputError(f"expected an Evidence id, got {json_kind(c)}",
                                 where=f"{where}: field 'cards[{i}]'", field="cards")
        return Arrest(text("villain"), tuple(ids), flag("holmes", False))
    if kind == "wiggins":
        return Wiggins(text("villain"))
    if kind == "tail":
        return Tail(text("villain"))
    if kind == "take":
        return TakeCard(text("card"))
    if kind == "board":
        board = text("board")
        if board not in BOARDS:
            raise InputError(f"expected one of {', '.join(BOARDS)}, got {board!r}",
                             where=f"{where}: field 'board'", field="board")
        return TakeBoard(board)
    return {"pass": PASS_HAND, "no_arrest": NO_ARREST, "jump": JUMP, "watson": WATSON,
            "no_tail": NO_TAIL}[kind]


# ---------------------------------------------------------------------------------- scoring
def _objective_points(inspector: Inspector, owned: Sequence[Evidence]) -> list[int]:
    """The points of each of ``inspector``'s objectives over the Evidence ``owned`` (used
    or not), in the card's order (``score.objective_value``)."""
    return [objective_value(o, owned) for o in inspector.objectives]


# ---------------------------------------------------------------------------------- state
class State:
    """One game (see the module docstring). Seats are 0..n-1 in seating order (passing
    left goes to the next seat); solo: 0 the player, 1 Holmes."""

    def __init__(self, cards: CardSet, names: Sequence[str], mode: str, chance_seed: int,
                 cards_field: str | None = SHIPPED):
        n = len(names)
        self.cards = cards
        self._ev = cards.evidence_by_id
        self._vil = cards.villain_by_id
        ids = _ids(cards)
        self._mask, self._cost, self._vmask = ids["mask"], ids["cost"], ids["vmask"]
        self._top_cost = ids["top_cost"]
        self.names = tuple(names)
        self.n = n
        self.mode = mode
        self.solo = mode == SOLO
        self.cards_field = cards_field
        self.chance_seed = chance_seed
        self.round = 1
        self.cycle = 1
        self.phase = INVESTIGATE
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.picked: dict[int, str | None] = {}
        self.owned: list[list[str]] = [[] for _ in range(n)]
        self.used: list[set[str]] = [set() for _ in range(n)]
        self.available = [TOKENS] * n
        self.spent = [0] * n
        self.tailing: list[str | None] = [None] * n
        self.row: list[str] = []
        self.villain_deck: list[str] = []  # the top is the last
        self.arrested: list[list[str]] = [[] for _ in range(n)]
        self.order: list[int] = list(range(n))
        self.boards: list[list[str]] = [[] for _ in range(n)]
        self.inspectors: list[str | None] = [None] * n
        self.twists: list[str] = []  # the top is the last
        self.twist: str | None = None
        self.past_twists: list[str] = []  # revealed in the earlier rounds, oldest first
        self.decks: dict[int, list[str]] = {d: [] for d in DECKS}  # the top is the last
        self.middle: list[str] = []
        self.middle_put: tuple[tuple[str, ...], ...] = ()
        self.packets: list[tuple[tuple[str, ...], ...]] = []
        self.revealed: list[tuple[str | None, ...]] = []
        self.gone: list[str] = []
        #: every Evidence card out of play (``gone`` is the part of it seen face up)
        self.discard: list[str] = []
        self.deal = 1
        self.direction = "left"
        self.acted: list[int] = []
        self.bonus_order: list[int] = []
        self.turn: int | None = 0
        self._legal: list | None = None

    # ------------------------------------------------------------------ queries
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int | None:
        """The seat to act (None when the game is over)."""
        return self.turn

    def is_over(self) -> bool:
        return self.phase == OVER

    def villain_points(self, seat: int) -> int:
        return sum(self._vil[v].points for v in self.arrested[self._seat(seat)])

    def objectives(self, seat: int) -> list[int] | None:
        """The points of each of the seat's objectives now (None for Holmes)."""
        ident = self.inspectors[self._seat(seat)]
        if ident is None:
            return None
        return _objective_points(self.cards.inspector_by_id[ident],
                                 [self._ev[c] for c in self.owned[seat]])

    def points(self, seat: int) -> int:
        """Villain points plus the best objective (Holmes: his Villain points)."""
        objectives = self.objectives(seat)
        return self.villain_points(seat) + (max(objectives) if objectives else 0)

    def scores(self) -> list[int]:
        return [self.points(s) for s in range(self.n)]

    def winner(self) -> list[int] | None:
        """None while the game goes on; else ``[the winning seat]``: multiplayer, the most
        points, then the most available tokens, then higher in the arresting order; solo,
        the player with strictly more points than Holmes, else Holmes."""
        if self.phase != OVER:
            return None
        if self.solo:
            return [0] if self.points(0) > self.points(HOLMES_SEAT) else [HOLMES_SEAT]
        rank = {s: i for i, s in enumerate(self.order)}
        return [max(range(self.n),
                    key=lambda s: (self.points(s), self.available[s], -rank[s]))]

    def _seat(self, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise InputError(f"no seat {seat!r}: seats 0 to {self.n - 1}", field="player")
        return seat

    def clone(self) -> "State":
        """An independent copy (the legal actions' cache is shared: it is replaced, never
        changed)."""
        c = State.__new__(State)
        c.__dict__.update(self.__dict__)
        c.hands = [h[:] for h in self.hands]
        c.picked = dict(self.picked)
        c.owned = [o[:] for o in self.owned]
        c.used = [set(u) for u in self.used]
        c.available = self.available[:]
        c.spent = self.spent[:]
        c.tailing = self.tailing[:]
        c.row = self.row[:]
        c.villain_deck = self.villain_deck[:]
        c.arrested = [a[:] for a in self.arrested]
        c.order = self.order[:]
        c.boards = [b[:] for b in self.boards]
        c.inspectors = self.inspectors[:]
        c.twists = self.twists[:]
        c.past_twists = self.past_twists[:]
        c.decks = {d: v[:] for d, v in self.decks.items()}
        c.middle = self.middle[:]
        c.packets = self.packets[:]
        c.revealed = self.revealed[:]
        c.gone = self.gone[:]
        c.discard = self.discard[:]
        c.acted = self.acted[:]
        c.bonus_order = self.bonus_order[:]
        return c

    # ------------------------------------------------------------------ observations
    def observation(self, seat: int) -> dict:
        """``{"position": the spec's position JSON as ``seat`` sees it, "log": its
        ``RoundLog`` JSON}``; solo: seat 0 only (Holmes is no player)."""
        me = self._seat(seat)
        if self.solo and me == HOLMES_SEAT:
            raise InputError("Holmes is played by the rules, not a player: no observation",
                             field="player")
        return {"position": self._position_json(me), "log": self.log(me).to_json()}

    def _position_json(self, me: int) -> dict:
        names = self.names
        out: dict[str, Any] = {"game": GAME}
        if self.cards_field is not None:
            out["cards"] = self.cards_field
        out.update({
            "mode": self.mode, "players": list(names), "me": names[me],
            "round": self.round, "cycle": self.cycle, "phase": PUBLIC_PHASE[self.phase],
            "hand": list(self.middle if self.phase == BONUS else self.hands[me]),
            "evidence": {names[s]: [{"card": c, "used": c in self.used[s]}
                                    for c in self.owned[s]] for s in range(self.n)},
            "bsi": {names[s]: {"available": self.available[s], "spent": self.spent[s]}
                    for s in range(self.n)},
            "tailing": {names[s]: self.tailing[s] for s in range(self.n)},
            "villains": list(self.row),
            "arrested": {names[s]: list(self.arrested[s]) for s in range(self.n)},
            "order": [names[s] for s in self.order],
            "boards": {names[s]: list(self.boards[s]) for s in range(self.n)},
            "inspector": self.inspectors[me],
        })
        if self.twist is not None:
            out["plot_twist"] = self.twist
        return out

    def position(self, seat: int) -> Position:
        """The seat's position (parsed from its JSON)."""
        return parse_position(self._position_json(self._seat(seat)), "observation")

    def log(self, seat: int) -> RoundLog:
        """What ``seat`` has seen of the current deal (``log.RoundLog``): the hands it held,
        the revealed picks (its own pick as soon as made), who has acted this phase."""
        me = self._seat(seat)
        names = self.names
        cycles = []
        for i, packets in enumerate(self.packets):
            if i < len(self.revealed):
                picks = {names[s]: c for s, c in enumerate(self.revealed[i])}
            elif me in self.picked:
                picks = {names[me]: self.picked[me]}
            else:
                picks = {}
            cycles.append(CycleSeen(packets[me], picks))
        if self.phase == INVESTIGATE:
            acted = tuple(names[s] for s in sorted(self.picked))
        elif self.phase in (ARREST, FINAL, TAIL, BONUS, OVER):
            acted = tuple(names[s] for s in self.acted)
        else:
            acted = ()
        final = self.phase == FINAL or (self.phase == OVER and not self.solo)
        return RoundLog(self.deal, self.direction, tuple(self.gone), tuple(cycles), acted,
                        final, tuple(self.past_twists))

    def hidden(self, seat: int) -> Hidden:
        """Everything ``seat`` cannot see (``hidden.Hidden``): the other hands (solo:
        Holmes's), the others' unrevealed picks (a pass is no pick), the middle as put
        face down in the 4th cycle (seat order, each seat's cards sorted; kept to the
        round's end: the other seats' logs are made from it), the decks and the Villain deck top first, every Inspector, the Plot Twists
        to come top first."""
        me = self._seat(seat)
        names = self.names
        middle: tuple[str, ...] = ()
        if self.phase in (ARREST, TAIL, BONUS, FINAL, OVER) and self.middle_put:
            middle = tuple(c for cards in self.middle_put for c in cards)
        return Hidden(
            hands={names[s]: tuple(self.hands[s]) for s in range(self.n) if s != me},
            decks={d: tuple(reversed(v)) for d, v in self.decks.items()},
            villain_deck=tuple(reversed(self.villain_deck)),
            inspectors={names[s]: i for s, i in enumerate(self.inspectors) if i is not None},
            plot_twists=tuple(reversed(self.twists)),
            picked={names[s]: c for s, c in sorted(self.picked.items())
                    if s != me and c is not None},
            middle=middle)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a fixed order (empty when over):
        investigate: a ``Pick`` per affordable card in hand order, or ``PassHand`` alone;
        arrest: the ``Arrest`` choices (module docstring), ``NoArrest``, then ``Jump``,
        ``Watson``, the ``Wiggins`` moves; tail: a ``Tail`` per visible Villain, then
        ``NoTail``; bonus: a ``TakeCard`` per middle card, then the boards in the middle;
        a solo resupply: keep the tail, take it back."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return legal[:]

    def _list_legal(self) -> list:
        p = self.turn
        if p is None:
            return []
        phase = self.phase
        if phase == INVESTIGATE:
            return self._picks(p)
        if phase in (ARREST, FINAL):
            return self._arrest_choices(p)
        if phase == TAIL:
            made = _TAILS.get
            out = [made(v) or _made(_TAILS, v, Tail) for v in self.row]
            out.append(NO_TAIL)
            return out
        if phase == BONUS:
            return self._bonus_choices()
        if phase == RESET:
            return list(_RESUPPLY)
        return []

    def _picks(self, p: int) -> list:
        money, hand = self.available[p], self.hands[p]
        if money >= self._top_cost:  # every card affordable
            picks = list(map(_PICKS.__getitem__, hand))
        else:
            cost = self._cost
            picks = [_PICKS[c] for c in hand if cost[c] <= money]
        return picks or [PASS_HAND]

    def _unused(self, p: int) -> list[str]:
        used = self.used[p]
        return [c for c in self.owned[p] if c not in used] if used else self.owned[p][:]

    def _arrest_choices(self, p: int) -> list:
        """The arrest turn's actions (``[NoArrest]`` alone: nothing to decide). A Villain
        is tried only when the icons no unused card shows fit in the allowance (most
        turns stop at that test: the unused cards' list is made only past it)."""
        used = self.used[p]
        owned = self.owned[p]
        of = self._mask
        shown = 0  # the icons the unused cards show: most turns stop there
        if used:
            for c in owned:
                if c not in used:
                    shown |= of[c]
        else:
            for c in owned:
                shown |= of[c]
        boards = self.boards[p]
        board = HOLMES_BOARD in boards
        most = 2 if board else 1  # the most icons any arrest may leave out
        tail = self.tailing[p]
        vmask = self._vmask
        hidden = ~shown
        out: list = []
        unused = masks = None
        for v in self.row:
            mask = vmask[v]
            gaps = POP[mask & hidden]  # the Villain's icons no card shows
            if gaps > most:
                continue
            allowed = 1 if tail == v else 0
            if gaps > allowed and not board:
                continue
            if masks is None:
                unused = [c for c in owned if c not in used] if used else owned
                masks = [of[c] for c in unused]
            if gaps <= allowed:
                for cover in arrest_covers(masks, mask, allowed, ARREST_CHOICES)[1]:
                    cards = tuple(map(unused.__getitem__, cover))
                    out.append(_ARRESTS.get((v, cards, False))
                               or _arrest_action(v, cards, False))
            if board and gaps <= allowed + 1:
                for cover in arrest_covers(masks, mask, allowed + 1, ARREST_CHOICES)[1]:
                    cards = tuple(map(unused.__getitem__, cover))
                    out.append(_ARRESTS.get((v, cards, True)) or _arrest_action(v, cards, True))
        out.append(NO_ARREST)
        if boards and not self.solo:
            first = self.order[0] == p
            if board and not first:
                out.append(JUMP)
            if WATSON_BOARD in boards and not first:
                out.append(WATSON)
            if WIGGINS_BOARD in boards and tail is not None:
                out.extend(_made(_WIGGINS, v, Wiggins) for v in self.row if v != tail)
        return out

    def _bonus_choices(self) -> list:
        made = _TAKES.get
        out: list = [made(c) or _made(_TAKES, c, TakeCard) for c in dict.fromkeys(self.middle)]
        if self.round < ROUNDS:
            held = {b for bs in self.boards for b in bs}
            out.extend(_BOARD_TAKES[b] for b in BOARDS if b not in held)
        return out

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act; an illegal one raises ``InputError`` with
        the reason and changes nothing."""
        if self.phase == OVER:
            raise InputError("the game is over", field="action")
        do = _DO.get(type(action))
        if do is None:
            raise InputError(f"not an action: {type(action).__name__}", field="action")
        do(self, action)
        self._advance()

    def _refuse(self, action: Action, why: str) -> InputError:
        who = self.names[self.turn] if self.turn is not None else "nobody"
        return InputError(f"{action_words(action)} is not legal for {who} now: {why}",
                          field="action")

    def _need(self, action: Action, phases: tuple[str, ...], what: str) -> None:
        if self.phase not in phases:
            raise self._refuse(action, f"{what} belongs to the "
                                       f"{' or '.join(sorted({PUBLIC_PHASE[p] for p in phases}))}"
                                       f" phase, this is the {PUBLIC_PHASE[self.phase]} phase")

    def _do_pick(self, action: Pick) -> None:
        if self.phase != INVESTIGATE:
            self._need(action, (INVESTIGATE,), "a pick")
        p = self.turn
        card = action.card
        hand = self.hands[p]
        if card not in hand:
            raise self._refuse(action, f"{card!r} is not in the hand")
        cost = self._cost[card]
        if cost > self.available[p]:
            raise self._refuse(action, f"it costs {cost} tokens, {self.available[p]} "
                                       "available")
        hand.remove(card)
        self.picked[p] = card
        if self.solo:
            self._solo_cycle()
        elif len(self.picked) == self.n:
            self._reveal()

    def _do_pass(self, action: PassHand) -> None:
        self._need(action, (INVESTIGATE,), "passing the hand")
        p = self.turn
        affordable = [c for c in self.hands[p] if self._ev[c].cost <= self.available[p]]
        if affordable:
            raise self._refuse(action, f"picking is compulsory and {affordable[0]} is "
                                       "affordable")
        self._picked(p, None)

    def _picked(self, p: int, card: str | None) -> None:
        self.picked[p] = card
        if self.solo:
            self._solo_cycle()
        elif len(self.picked) == self.n:
            self._reveal()

    def _do_resupply(self, action: Resupply) -> None:
        self._need(action, (RESET,), "a resupply")
        if not action.keep_tail:
            self.tailing[0] = None
            self.available[0] = TOKENS
        self._swap()

    def _do_arrest(self, action: Arrest) -> None:
        """An arrest; one of the listed actions, the very object (listed for this turn:
        the list is dropped at every move), is legal and skips the checks."""
        legal = self._legal
        if legal is not None:  # one of the listed actions (the very object) is legal
            for listed in legal:
                if listed is action:
                    p = self.turn
                    if action.holmes:
                        self.boards[p].remove(HOLMES_BOARD)
                    self._arrest(p, action.villain, action.cards)
                    return
        self._need(action, (ARREST, FINAL), "an arrest")
        p = self.turn
        if action.villain not in self.row:
            raise self._refuse(action, f"{action.villain!r} is not a visible Villain")
        ids = action.cards
        if not isinstance(ids, tuple) or len(set(ids)) != len(ids):
            raise self._refuse(action, "the cards are not distinct")
        mine = set(self.owned[p])
        for c in ids:
            if c not in mine:
                raise self._refuse(action, f"{c!r} is not Evidence of the player")
            if c in self.used[p]:
                raise self._refuse(action, f"{c} is used already")
        if action.holmes and HOLMES_BOARD not in self.boards[p]:
            raise self._refuse(action, "the player holds no Holmes board")
        villain = self._vil[action.villain]
        cards = [self._ev[c] for c in ids]
        allowed = allowance(self.tailing[p] == action.villain, action.holmes)
        if not covers(cards, villain, allowed):
            shown = 0
            for c in cards:
                shown |= c.mask
            missing = mask_icons(villain.mask & ~shown)
            raise self._refuse(action, f"the cards miss {', '.join(missing)} ({allowed} may "
                                       "be missing)")
        if action.holmes:
            self.boards[p].remove(HOLMES_BOARD)
        self._arrest(p, action.villain, ids)

    def _arrest(self, p: int, villain: str, ids: Sequence[str]) -> None:
        self.used[p].update(ids)
        self.arrested[p].append(villain)
        k = self.row.index(villain)
        if self.villain_deck:
            self.row[k] = self.villain_deck.pop()
        else:
            del self.row[k]
        for s in range(self.n):
            if self.tailing[s] == villain:
                self.tailing[s] = None
                self.available[s] += 1
        if not self.solo:
            self.order.remove(p)
            self.order.append(p)
        self.acted.append(p)

    def _do_no_arrest(self, action: NoArrest) -> None:
        self._need(action, (ARREST, FINAL), "declining to arrest")
        self.acted.append(self.turn)

    def _board(self, action: Action, board: str) -> int:
        self._need(action, (ARREST, FINAL), f"the {board.capitalize()} board")
        p = self.turn
        if board not in self.boards[p]:
            raise self._refuse(action, f"the player holds no {board.capitalize()} board")
        return p

    def _do_jump(self, action: Jump) -> None:
        p = self._board(action, HOLMES_BOARD)
        if self.order[0] == p:
            raise self._refuse(action, "the player is first already")
        self.boards[p].remove(HOLMES_BOARD)
        self.order.remove(p)
        self.order.insert(0, p)

    def _do_watson(self, action: Watson) -> None:
        p = self._board(action, WATSON_BOARD)
        k = self.order.index(p)
        if k == 0:
            raise self._refuse(action, "the player is first already")
        self.boards[p].remove(WATSON_BOARD)
        self.order[k - 1], self.order[k] = p, self.order[k - 1]

    def _do_wiggins(self, action: Wiggins) -> None:
        p = self._board(action, WIGGINS_BOARD)
        if self.tailing[p] is None:
            raise self._refuse(action, "the player tails no Villain")
        if action.villain not in self.row or action.villain == self.tailing[p]:
            raise self._refuse(action, f"{action.villain!r} is not another visible Villain")
        self.boards[p].remove(WIGGINS_BOARD)
        self.tailing[p] = action.villain

    def _do_tail(self, action: Tail) -> None:
        self._need(action, (TAIL,), "a tail")
        p = self.turn
        if action.villain not in self.row:
            raise self._refuse(action, f"{action.villain!r} is not a visible Villain")
        self.available[p] -= 1
        self.tailing[p] = action.villain
        self.acted.append(p)

    def _do_no_tail(self, action: NoTail) -> None:
        self._need(action, (TAIL,), "declining to tail")
        self.acted.append(self.turn)

    def _do_take_card(self, action: TakeCard) -> None:
        self._need(action, (BONUS,), "taking an unchosen card")
        if action.card not in self.middle:
            raise self._refuse(action, f"{action.card!r} is not in the middle")
        self.middle.remove(action.card)
        self.owned[self.turn].append(action.card)
        self.acted.append(self.turn)

    def _do_take_board(self, action: TakeBoard) -> None:
        self._need(action, (BONUS,), "taking a board")
        if self.round >= ROUNDS:
            raise self._refuse(action, "the 4th round's bonus has no boards")
        if any(action.board in bs for bs in self.boards):
            raise self._refuse(action, f"the {action.board} board is not in the middle")
        self.boards[self.turn].append(action.board)
        self.acted.append(self.turn)

    # ------------------------------------------------------------------ the flow
    def _random(self) -> random.Random:
        """The next chance event's generator (the seed moves on)."""
        rng = random.Random(self.chance_seed)
        self.chance_seed = rng.getrandbits(64)
        return rng

    def _advance(self) -> None:
        """Move to the next seat with a decision, through the phases (skipping forced
        turns, playing Holmes's arrests)."""
        self._legal = None
        while True:
            phase = self.phase
            if phase == INVESTIGATE:
                if self.solo:
                    self.turn = 0
                    return
                picked = self.picked
                for s in range(self.n):
                    if s not in picked:
                        self.turn = s
                        return
                self._reveal()  # pragma: no cover - the last pick reveals
            elif phase == ARREST or phase == FINAL:
                acted = self.acted
                for p in self.order:
                    if p not in acted:
                        break
                else:
                    self._end_arrest()
                    continue
                if self.solo and p == HOLMES_SEAT:
                    self._holmes_arrests()
                    continue
                choices = self._arrest_choices(p)
                if len(choices) > 1:
                    self.turn, self._legal = p, choices
                    return
                acted.append(p)
            elif phase == TAIL:
                acted = self.acted
                for p in self.order:
                    if p not in acted:
                        break
                else:
                    self._end_tail()
                    continue
                if self.tailing[p] is None and self.available[p] > 0 and self.row and \
                        not (self.solo and p == HOLMES_SEAT):
                    self.turn = p
                    return
                acted.append(p)
            elif phase == BONUS:
                p = self._next(self.bonus_order)
                if p is None:
                    self._end_round()
                    continue
                self.turn = p
                choices = self._bonus_choices()
                if choices:
                    self._legal = choices
                    return
                self.acted.append(p)
            elif phase == RESET:
                self.turn = 0
                return
            else:
                self.turn = None
                return

    def _next(self, order: Sequence[int]) -> int | None:
        acted = self.acted
        for s in order:
            if s not in acted:
                return s
        return None

    def _start_phase(self, phase: str) -> None:
        self.phase = phase
        self.acted = []

    def _end_arrest(self) -> None:
        if self.phase == FINAL or (self.solo and self.cycle >= SOLO_CYCLES):
            self._start_phase(OVER)
        elif self.twist is not None and self.cards.plot_twist_by_id[self.twist].effect \
                == NO_TAILING:
            self._end_tail()
        else:
            self._start_phase(TAIL)

    def _end_tail(self) -> None:
        if self.solo or self.cycle < CYCLES:
            self.cycle += 1
            self._start_phase(INVESTIGATE)
            self.picked = {}
        else:
            self._start_bonus()

    def _effect(self) -> str | None:
        return None if self.twist is None else self.cards.plot_twist_by_id[self.twist].effect

    # -- multiplayer rounds
    def _start_round(self, number: int) -> None:
        self.round, self.cycle = number, 1
        if self.twist is not None:
            self.past_twists.append(self.twist)
        self.twist = self.twists.pop() if self.twists else None
        effect = self._effect()
        if effect in (FEWEST_POINTS_TO_TOP, MOST_POINTS_TO_BOTTOM):
            points = [self.villain_points(s) for s in range(self.n)]
            if effect == FEWEST_POINTS_TO_TOP:
                low = min(points)
                moved = [s for s in self.order if points[s] == low]
                self.order = moved + [s for s in self.order if points[s] != low]
            else:
                high = max(points)
                moved = [s for s in self.order if points[s] == high]
                self.order = [s for s in self.order if points[s] != high] + moved
        right = number % 2 == 0
        if effect == REVERSE_PASSING:
            right = not right
        self.direction = "right" if right else "left"
        drawn = []
        for d in DECKS:
            deck = self.decks[d]
            for _ in range(min(self.n, len(deck))):
                drawn.append(deck.pop())
        _shuffle(self._random(), drawn)
        self.hands = [sorted(drawn[HAND_SIZE * s:HAND_SIZE * (s + 1)]) for s in range(self.n)]
        self.deal = number
        self.packets = [tuple(map(tuple, self.hands))]
        self.revealed = []
        self.middle, self.middle_put = [], ()
        self.picked = {}
        self._start_phase(INVESTIGATE)

    def _reveal(self) -> None:
        """Every pick revealed and paid; the hands pass (the 4th cycle: to the middle)."""
        picks = tuple(map(self.picked.get, range(self.n)))
        costs, available, spent, owned = self._cost, self.available, self.spent, self.owned
        for s, c in enumerate(picks):
            if c is not None:
                cost = costs[c]
                available[s] -= cost
                spent[s] += cost
                owned[s].append(c)
        self.revealed.append(picks)
        self.picked = {}
        if self.cycle < CYCLES:
            old = self.hands  # left: seat s's hand goes to s + 1; right: to s - 1
            self.hands = hands = (old[-1:] + old[:-1] if self.direction == "left"
                                  else old[1:] + old[:1])
            self.packets.append(tuple(map(tuple, hands)))
        else:
            self.middle_put = tuple(tuple(h) for h in self.hands)
            self.middle = sorted(c for h in self.hands for c in h)
            self.hands = [[] for _ in range(self.n)]
        self._start_phase(ARREST)

    def _start_bonus(self) -> None:
        effect = self._effect()
        if effect == NO_BSI_BONUS:
            self.discard.extend(self.middle)  # unseen
            self.middle = []
            self.boards = [[] for _ in range(self.n)]
            self._end_round(bonus=False)
            return
        if self.round < ROUNDS:
            self.boards = [[] for _ in range(self.n)]  # unused boards go back
        if effect == BONUS_IN_ARRESTING_ORDER:
            self.bonus_order = self.order[:]
        else:
            rank = {s: i for i, s in enumerate(self.order)}
            self.bonus_order = sorted(self.order, key=lambda s: (-self.available[s], rank[s]))
        self._start_phase(BONUS)

    def _end_round(self, bonus: bool = True) -> None:
        if self.round < ROUNDS:
            if bonus:
                self.gone.extend(self.middle)  # seen face up
            self.discard.extend(self.middle)
            for s in range(self.n):
                self.available[s] += self.spent[s]
                self.spent[s] = 0
            self._start_round(self.round + 1)
        else:
            self.discard.extend(self.middle)
            self.middle = []
            self._start_phase(FINAL)

    # -- solo
    def _solo_deal(self) -> None:
        drawn = []
        for d in DECKS:
            deck = self.decks[d]
            for _ in range(min(SOLO_DRAW, len(deck))):
                drawn.append(deck.pop())
        _shuffle(self._random(), drawn)
        half = len(drawn) // 2 + len(drawn) % 2
        self.hands = [sorted(drawn[:min(half, HAND_SIZE)]), sorted(drawn[half:])]
        self.packets = [tuple(tuple(h) for h in self.hands)]
        self.revealed = []

    def _solo_cycle(self) -> None:
        """After the player's pick: Holmes's random pick, both paid, the Holmes Track, the
        token checks; then the swap (or the resupply choice first)."""
        mine = self.picked[0]
        hand = self.hands[HOLMES_SEAT]
        his = hand.pop(self._random().randrange(len(hand))) if hand else None
        if mine is not None:
            cost = self._ev[mine].cost
            self.available[0] -= cost
            self.spent[0] += cost
            self.owned[0].append(mine)
        if his is not None:
            paid = min(self._ev[his].cost, self.available[HOLMES_SEAT])
            self.available[HOLMES_SEAT] -= paid
            self.spent[HOLMES_SEAT] += paid
            self.owned[HOLMES_SEAT].append(his)
        self.revealed.append((mine, his))
        self.picked = {}
        track = self.cards.holmes_track[self.cycle - 1]
        if track and self.decks[track]:
            self.owned[HOLMES_SEAT].append(self.decks[track].pop())
        resupply = False
        if self.available[HOLMES_SEAT] <= LOW_TOKENS:
            resupply = True
        elif self.available[0] <= LOW_TOKENS:
            if self.decks[TOKEN_CHECK_DECK]:
                self.owned[HOLMES_SEAT].append(self.decks[TOKEN_CHECK_DECK].pop())
            resupply = True
        if resupply:
            self.available[HOLMES_SEAT], self.spent[HOLMES_SEAT] = TOKENS, 0
            self.spent[0] = 0
            if self.tailing[0] is not None:
                self.available[0] = TOKENS - 1
                self.phase = RESET
                return
            self.available[0] = TOKENS
        self._swap()

    def _swap(self) -> None:
        self.hands = [self.hands[1], self.hands[0]]
        if len(self.packets) == CYCLES and self.cycle < SOLO_CYCLES:
            self.gone.extend(sorted(self.hands[0] + self.hands[1]))
            self.discard.extend(sorted(self.hands[0] + self.hands[1]))
            self.deal += 1
            self._solo_deal()
        else:
            self.packets.append(tuple(tuple(h) for h in self.hands))
        self._start_phase(ARREST)

    def _holmes_arrests(self) -> None:
        """Holmes's arrest (solo): as if tailing every Villain, the most points, ties by
        the fewest cards, then the row order, with a smallest set of his unused cards."""
        unused = [self._ev[c] for c in self._unused(HOLMES_SEAT)]
        # ``arrest(unused, villain, True, False)`` for each Villain, the row in one go
        best = best_arrest(arrests(unused, [self._vil[v] for v in self.row], None, False,
                                   tail_all=True))
        if best is None:
            self.acted.append(HOLMES_SEAT)
            return
        self._arrest(HOLMES_SEAT, best.villain.id, [c.id for c in best.cards])

    # ------------------------------------------------------------------ rebuilding
    @classmethod
    def from_parts(cls, position: Position | dict, log: RoundLog | dict, hidden: Hidden,
                   chance: int = 0) -> "State":
        """The whole state ``position`` and ``log`` (a seat's observation, parsed or as
        JSON) and ``hidden`` (what that seat cannot see) fix; its later chance is seeded
        by ``chance`` (the real state's ``chance_seed``: the same game goes on).
        ``InputError`` when ``hidden`` does not agree with the log."""
        pos = position if isinstance(position, Position) else parse_position(position,
                                                                             "position")
        names = pos.players
        lg = log if isinstance(log, RoundLog) else parse_log(log, pos.cards, names)
        n = len(names)
        seat = {name: s for s, name in enumerate(names)}
        me = seat[pos.me]
        state = cls(pos.cards, names, pos.mode, chance, pos.cards_field)
        state.round, state.cycle = pos.round, pos.cycle
        for s, name in enumerate(names):
            state.owned[s] = [o.card.id for o in pos.evidence[name]]
            state.used[s] = {o.card.id for o in pos.evidence[name] if o.used}
            state.available[s] = pos.bsi[name].available
            state.spent[s] = pos.bsi[name].spent
            state.tailing[s] = pos.tailing[name]
            state.arrested[s] = list(pos.arrested[name])
            state.boards[s] = list(pos.boards[name])
            state.inspectors[s] = hidden.inspectors.get(name)
            if s != me:
                state.hands[s] = sorted(hidden.hands.get(name, ()))
        state.inspectors[me] = pos.inspector
        state.row = list(pos.villains)
        state.order = [seat[name] for name in pos.order]
        state.villain_deck = list(reversed(hidden.villain_deck))
        state.decks = {d: list(reversed(hidden.decks.get(d, ()))) for d in DECKS}
        state.twists = list(reversed(hidden.plot_twists))
        state.twist = pos.plot_twist
        state.past_twists = list(lg.twists)
        state.deal, state.direction, state.gone = lg.deal, lg.direction, list(lg.gone)
        acted = [seat[name] for name in lg.acted or ()]
        public = pos.phase
        last = lg.cycles[-1] if lg.cycles else None
        revealed = [c for c in lg.cycles if len(c.picks) == n]
        if public == "investigate":
            if state.solo and last is not None and len(last.picks) == n:
                state.phase = RESET
            else:
                state.phase = INVESTIGATE
                for s in acted:
                    state.picked[s] = (last.picks.get(pos.me) if s == me and last else
                                       hidden.picked.get(names[s]))
        else:
            state.phase = {"arrest": FINAL if lg.final else ARREST, "tail": TAIL,
                           "bonus": BONUS}[public]
            state.acted = acted
        if state.phase == BONUS:
            state.middle = sorted(pos.hand)
            rank = {s: i for i, s in enumerate(state.order)}
            state.bonus_order = (state.order[:] if state._effect() == BONUS_IN_ARRESTING_ORDER
                                 else sorted(state.order,
                                             key=lambda s: (-state.available[s], rank[s])))
        else:
            state.hands[me] = sorted(pos.hand)
            if state.phase in (ARREST, TAIL) and not state.solo and \
                    len(revealed) == CYCLES:
                state.middle = sorted(hidden.middle)
        state.revealed = [tuple(c.picks[name] for name in names) for c in revealed]
        state._rebuild_packets(lg, me, hidden)
        placed = {c for h in state.hands for c in h} | set(state.picked.values()) | \
            {c for o in state.owned for c in o} | set(state.middle) | \
            {c for d in state.decks.values() for c in d}
        state.discard = [c.id for c in state.cards.evidence if c.id not in placed]
        state._advance()
        return state

    def _rebuild_packets(self, lg: RoundLog, me: int, hidden: Hidden) -> None:
        """The hands every seat held this deal, from the current ones backwards through
        the revealed picks; they must agree with the log's hands of ``me``."""
        n = self.n
        cycles = lg.cycles
        if not cycles:
            raise InputError("the log has no cycle: a deal shows at least its first hand",
                             field="log")
        step = 1 if self.direction == "left" else -1
        done = len(self.revealed)
        if done == len(cycles) and not self.solo:  # the 4th cycle's leftovers: the middle
            sizes = [HAND_SIZE] * n
            for picks in self.revealed[:-1]:
                nxt = [0] * n
                for s in range(n):
                    nxt[(s + step) % n] = sizes[s] - (picks[s] is not None)
                sizes = nxt
            put, flat, k = [], list(hidden.middle), 0
            for s in range(n):
                size = sizes[s] - (self.revealed[-1][s] is not None)
                put.append(tuple(sorted(flat[k:k + size])))
                k += size
            if k != len(flat):
                raise InputError(f"the middle holds {len(flat)} cards, the hands left {k}",
                                 field="middle")
            self.middle_put = tuple(put)
            current = [sorted(put[s] + ((self.revealed[-1][s],)
                                        if self.revealed[-1][s] is not None else ()))
                       for s in range(n)]
        elif done == len(cycles):  # solo, a resupply before the swap
            current = [sorted(self.hands[s] + ([self.revealed[-1][s]]
                                               if self.revealed[-1][s] is not None else []))
                       for s in range(n)]
        else:
            current = [sorted(self.hands[s] + ([self.picked[s]]
                                               if self.picked.get(s) is not None else []))
                       for s in range(n)]
        packets = [tuple(tuple(h) for h in current)]
        for i in range(len(cycles) - 2, -1, -1):
            later = packets[0]
            packets.insert(0, tuple(
                tuple(sorted(later[(s + step) % n] + ((self.revealed[i][s],)
                                                      if self.revealed[i][s] is not None
                                                      else ())))
                for s in range(n)))
        for i, c in enumerate(cycles):
            if tuple(c.hand) != packets[i][me]:
                raise InputError(f"the hidden hands do not agree with the log: cycle {i + 1} "
                                 f"shows {', '.join(c.hand) or 'no card'}, they give "
                                 f"{', '.join(packets[i][me]) or 'no card'}", field="hidden")
        self.packets = packets


_DO = {Pick: State._do_pick, PassHand: State._do_pass, Resupply: State._do_resupply,
       Arrest: State._do_arrest, NoArrest: State._do_no_arrest, Jump: State._do_jump,
       Watson: State._do_watson, Wiggins: State._do_wiggins, Tail: State._do_tail,
       NoTail: State._do_no_tail, TakeCard: State._do_take_card,
       TakeBoard: State._do_take_board}


# ---------------------------------------------------------------------------------- setup
def _setup(rng: random.Random, state: State, cards: CardSet) -> None:
    ids = _ids(cards)
    for d in DECKS:
        deck = ids["decks"][d][:]
        _shuffle(rng, deck)
        state.decks[d] = deck
    villains = ids["villains"][:]
    _shuffle(rng, villains)
    state.row = [villains.pop() for _ in range(min(ROW, len(villains)))]
    state.villain_deck = villains


#: the names ``check_players`` has let pass, by (names, mode); emptied when full
_CHECKED: dict[tuple, tuple[str, ...]] = {}


def _checked(names: list, mode: str, where: str) -> tuple[str, ...]:
    """``check_players(names, mode, where)``, remembered for names all strings (the check
    depends on the names and the mode alone; a refusal is never remembered)."""
    key = (tuple(names), mode) if all(type(n) is str for n in names) else None
    found = _CHECKED.get(key) if key is not None else None
    if found is None:
        found = check_players(names, mode, where)
        if key is not None:
            if len(_CHECKED) >= 64:
                _CHECKED.clear()
            _CHECKED[key] = found
    return found


def new_game(seed: int, players: int = 3, cards: CardSet | None = None,
             names: Sequence[str] | None = None) -> State:
    """A new multiplayer game: with ``random.Random(seed)`` the 5 decks, the Villains (5
    revealed: the top ones) and the Plot Twists are shuffled, an Inspector dealt to each
    seat in seat order, the arresting order drawn; its next 64 bits seed the state's
    chance (the round deals). ``names`` default to Ann, Ben, Cat, Dan, Eve."""
    if not isinstance(players, int) or isinstance(players, bool) or \
            not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"the game takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not "
                         f"{players!r}", field="players")
    names = list(_checked(list(DEFAULT_NAMES[:players] if names is None else names), MULTI,
                          "names"))
    if len(names) != players:
        raise InputError(f"{len(names)} names for {players} players", field="names")
    cards = shipped_cards() if cards is None else cards
    rng = random.Random(seed)
    state = State(cards, names, MULTI, 0, cards.source)
    _setup(rng, state, cards)
    twists = _ids(cards)["twists"][:]
    _shuffle(rng, twists)
    state.twists = twists
    state.inspectors = rng.sample(_ids(cards)["inspectors"], players)
    order = list(range(players))
    _shuffle(rng, order)
    state.order = order
    state.chance_seed = rng.getrandbits(64)
    state._start_round(1)
    state._advance()
    return state


def new_solo(seed: int, cards: CardSet | None = None, name: str = "Ann") -> State:
    """A new solo game against Holmes: with ``random.Random(seed)`` the decks and the
    Villains shuffled, the player's Inspector drawn; its next 64 bits seed the chance
    (the deals, Holmes's picks)."""
    names = list(_checked([name, HOLMES], SOLO, "name"))
    cards = shipped_cards() if cards is None else cards
    rng = random.Random(seed)
    state = State(cards, names, SOLO, 0, cards.source)
    _setup(rng, state, cards)
    state.inspectors = [rng.choice(_ids(cards)["inspectors"]), None]
    state.order = [HOLMES_SEAT, 0]
    state.chance_seed = rng.getrandbits(64)
    state._solo_deal()
    state._advance()
    return state


def read_observation(observation: Any) -> dict:
    """An observation (``State.observation``) read and written back: the position
    (``position.parse_position``) and the log (``log.parse_log``) checked."""
    if not isinstance(observation, dict) or set(observation) != {"position", "log"}:
        raise InputError('an observation is {"position": ..., "log": ...}, got '
                         f"{json_kind(observation)}", where="observation")
    pos = parse_position(observation["position"], "observation: position")
    log = parse_log(observation["log"], pos.cards, pos.players, "observation", "log")
    return {"position": pos.to_json(), "log": log.to_json()}
