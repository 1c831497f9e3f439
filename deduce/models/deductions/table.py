"""The Deductions live table: what happens at a real table entered one line at a time,
each accepted entry saved atomically before it is accepted.

The record (JSON)::

    {"game": "deductions",
     "setup": <position JSON: what lay on the table when the session began, me included>,
     "seed": null | S,
     "entries": [{"action": <rules action JSON>,
                  "outcome": {"draws": [clue card, ...], "pick": clue card | null,
                              "reveals": [case id | null, ...]}}, ...]}

The position now is the setup replayed through ``rules.State``, each entry's action
applied with its ``Outcome`` (the clue cards dealt, the Mind Palace card, the case cards
revealed), so undo (replay all but the last entry) is exact. Without a seed the replay
starts from ``rules.from_position(setup, Random(0))`` (the unseen deck and piles in any
order: the outcomes decide every chance result); with a seed (a dealt game) from
``rules.new_game(seed, ...)``, whose deal must be the setup, and an entry that does not
say what came takes what the dealt deck and piles give.

``TableSession`` holds the record's lock (``core.records.RecordLock``) from ``open`` to
``close``. ``handle(line)`` answers a line with a ``Reply``. An entry the rules refuse
(out of step, not on the grid, not affordable, a card that cannot have come) is refused
with the engine's reason and nothing changes, in memory or on disk; so is an entry whose
write fails (disk full, read-only folder): the session goes on.

Entries (the player to play acts; cells ``b3``: column a-d from the left, row 1-4 from
the top; cards by suit or Ally alias, cases by id or name alias)::

    draw CARD                                Obtain Clues, step 1: the card drawn
    take CELL [prop CELL] [refill CARD]      step 2A: the card taken, the card propped
                                             over, the card dealt into CELL
    mind row N | column L [got CARD] [refill CARD...]
                                             step 2B: the card that came to the pool,
                                             the 4 cards dealt into the line
    solve CASE [with USE, ...] [reveal CASE] [refill CARD]
                                             USE: CARD[+CARD+CARD][=SUIT]; default: the
                                             cheapest payment; reveal: the new pile top;
                                             refill: Watson's draw
    reserve CASE [reveal CASE]   rotate CASE SUIT   discard CARD
    claim MILESTONE [CASE, CASE, ...]        default: the cards that keep the most bonus
    refill CARD... | got CARD | reveal CASE  what came, for the entry waiting for it

An entry typed without what came (``take b3``) waits for it (``refill writings``);
anything else but a view or ``undo`` (which drops it) is refused meanwhile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.core.numbers import whole_number
from deduce.core.records import RecordLock, json_kind, write_json_atomic
from deduce.core.table_session import (
    EntryTableSession,
    Reply,
    read_record_object,
    rebase_cards,
    record_entries,
    record_seed,
    relative_path,
)
from deduce.models.deductions.cards import (
    LESTRADE,
    MILESTONES,
    RED_HERRING,
    SHERLOCK,
    SHIPPED,
    SOLUTION,
    copies,
    load_cards,
    resolve_clue,
    resolve_suit,
    suit_of,
)
from deduce.models.deductions.knowledge import find_case, odds_json, pay_all_json, pay_json
from deduce.models.deductions.payment import use_words
from deduce.models.deductions.position import (
    COLUMNS,
    GAME,
    SIZE,
    SLOTS,
    Position,
    cell_name,
    line_name,
    check_players,
    load_position,
    parse_cell,
    parse_position,
    too_many,
)

#: the most entries a record holds (a real game has a few hundred)
ENTRY_KEYS = ("action", "outcome")
OUTCOME_KEYS = ("draws", "pick", "reveals")
#: words that end a name in an entry (``solve The Hound reveal x``)
KEYWORDS = ("prop", "refill", "got", "reveal", "with")
ENTRIES = ("draw", "take", "mind", "solve", "reserve", "rotate", "discard", "claim")
PARTS = ("refill", "got", "reveal")
VIEWS = ("patterns", "pay", "best", "odds", "show")
COMMANDS = ENTRIES + PARTS + VIEWS + ("undo", "help", "quit")
ALIASES = {"palace": "mind", "mindpalace": "mind", "exit": "quit"}

HELP = """\
Cells: b3 = column b (a-d from the left), row 3 (1-4 from the top). Cards: a suit or an
Ally (aliases: prints, sherlock, ...). Cases: an id or a name alias. The player to play acts.
draw CARD                                 step 1: the clue card drawn
take CELL [prop CELL] [refill CARD]       step 2A: take CELL (a prop over CELL), CARD dealt in
mind row N|column L [got CARD] [refill C1,C2,C3,C4]
                                          step 2B: CARD came to the pool, C1-C4 dealt in
solve CASE [with USE,...] [reveal CASE] [refill CARD]
                                          USE: CARD[+CARD+CARD][=SUIT] (default: the cheapest);
                                          reveal: the new top of the pile; refill: Watson's draw
reserve CASE [reveal CASE]                Mycroft: CASE to my reserved slot
rotate CASE SUIT                          Irene: CASE's discount becomes SUIT
discard CARD                              the end-of-turn discard (pool over 10)
claim MILESTONE [CASE, ...]               commit 5 solved cards (default: the best 5)
refill CARD... | got CARD | reveal CASE   what came, when an entry waits for it
patterns | pay [CASE] | best | odds | show   views
undo                                      take back the last entry (or the one waiting)
help | quit                               this text | leave (everything is already saved)"""


def _rules():
    from deduce.models.deductions import rules

    return rules


# ----------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class Entry:
    """One accepted entry: the action and what chance gave (``rules.Outcome``)."""

    action: Any
    outcome: Any

    def to_json(self) -> dict:
        o = self.outcome
        return {"action": self.action.to_json(),
                "outcome": {"draws": list(o.draws), "pick": o.pick, "reveals": list(o.reveals)}}


@dataclass
class Record:
    """A table record: the ``setup`` position, the ``seed`` of a dealt game (or None) and
    the accepted ``entries``; ``source`` names the file in messages."""

    setup: Position
    seed: int | None
    entries: list[Entry] = field(default_factory=list)
    source: str = "record"

    def to_json(self) -> dict:
        return {"game": GAME, "setup": self.setup.to_json(), "seed": self.seed,
                "entries": [e.to_json() for e in self.entries]}

    def with_entries(self, entries: list[Entry]) -> "Record":
        return replace(self, entries=list(entries))

    def start(self):
        """The ``rules.State`` of the setup (a seeded game: its deal, checked against the
        setup)."""
        R = _rules()
        setup = self.setup
        if self.seed is None:
            return R.from_position(setup, random.Random(0))
        state = R.new_game(self.seed, players=len(setup.players), cards=setup.cards,
                           names=list(setup.players))
        if _comparable(state.position(setup.players.index(setup.me))) != _comparable(setup):
            raise InputError(f"not the deal of seed {self.seed} (edited by hand?)",
                             where=f"{self.source}: field 'setup'")
        return state

    def replay(self):
        """The state after every entry; ``InputError`` naming the first entry the rules
        refuse."""
        state = self.start()
        for i, e in enumerate(self.entries):
            try:
                state.apply(e.action, e.outcome)
            except InputError as exc:
                raise InputError(f"the entry cannot be played: {exc}",
                                 where=f"{self.source}: field 'entries[{i}]'") from None
        return state


def _comparable(p: Position) -> dict:
    data = p.to_json()
    data.pop("cards", None)
    return data


def load_record(path: str | Path) -> Record:
    """Read and check a table record (its entries are replayed by ``Record.replay``);
    ``InputError`` naming the file and the field otherwise."""
    where = str(path)
    data = read_record_object(path, GAME, "display", "Deductions")
    setup = parse_position(data["setup"], f"{where}: setup", base=Path(path).parent)
    return Record(setup, record_seed(data["seed"], where),
                  record_entries(data["entries"], where, lambda v, at: _entry(v, where, at)),
                  where)


def _entry(value: Any, where: str, path: str) -> Entry:
    """One entry at ``path`` (``entries[3]``) of the record ``where``."""
    R = _rules()
    at = lambda key: f"{where}: field '{path}{key}'"  # noqa: E731
    _keys(value, ENTRY_KEYS, at(""))
    action = R.action_from_json(value["action"], where=at(".action"))
    o = value["outcome"]
    _keys(o, OUTCOME_KEYS, at(".outcome"))
    draws = tuple(_name(v, at(f".outcome.draws[{i}]"), resolve_clue)
                  for i, v in enumerate(_list(o["draws"], at(".outcome.draws"))))
    reveals = tuple(_list(o["reveals"], at(".outcome.reveals")))
    for i, v in enumerate(reveals):
        if v is not None and not isinstance(v, str):
            raise InputError(f"expected a case id or null, got {json_kind(v)}",
                             where=at(f".outcome.reveals[{i}]"))
    pick = None if o["pick"] is None else _name(o["pick"], at(".outcome.pick"), resolve_clue)
    return Entry(action, R.Outcome(draws=draws, pick=pick, reveals=reveals))


def _keys(value: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(value, dict):
        raise InputError(f"expected an object with {', '.join(keys)}, got {json_kind(value)}",
                         where=where)
    for k in value:
        if k not in keys:
            raise InputError(f"unknown field {k!r} (known: {', '.join(keys)})", where=where)
    for k in keys:
        if k not in value:
            raise InputError(f"missing field {k!r}", where=where)


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise InputError(f"expected a list, got {json_kind(value)}", where=where)
    return value


def _name(value: Any, where: str, resolver: Callable[..., str]) -> str:
    if not isinstance(value, str):
        raise InputError(f"expected a name, got {json_kind(value)}", where=where)
    return resolver(value, where=where)


# ----------------------------------------------------------------------------- a new setup
def split_list(value) -> list[str]:
    """A list as typed: ``"Ann, Ben,Cat"`` -> ``["Ann", "Ben", "Cat"]`` (a list is kept)."""
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


class Setup:
    """A new record's setup typed by hand, checked one answer at a time (``set``): the
    players, me, who plays first, the grid's 4 rows, the display's two rows and each
    pool; ``position()`` checks the whole (``parse_position``)."""

    def __init__(self, source: str, cards=None, cards_field: str | None = SHIPPED):
        self.source = source
        self.cards = cards if cards is not None else load_cards(None)
        self.cards_field = cards_field
        self.data: dict[str, Any] = {"game": GAME}
        self.players: list[str] = []

    def fields(self) -> list[str]:
        """The answers still to give, in order (the pools once the players are known)."""
        keys = ["players", "me", "to_play", *(f"grid{r + 1}" for r in range(SIZE)),
                "solutions", "red_herrings"]
        keys += [f"pool:{p}" for p in self.players]
        return [k for k in keys if not self._has(k)]

    def _has(self, key: str) -> bool:
        if key.startswith("grid"):
            return len(self.data.get("grid", [])) >= int(key[4:])
        if key in ("solutions", "red_herrings"):
            return key in self.data.get("display", {})
        if key.startswith("pool:"):
            return key[5:] in self.data.get("pools", {})
        return key in self.data

    def set(self, key: str, value) -> object:
        """Check ``value`` (text as typed, or a list) for ``key`` and keep it; the checked
        value, or ``InputError`` naming the field."""
        where = f"{self.source}: field {_field_path(key)!r}"
        if key == "players":
            return self._players(split_list(value), where)
        if key in ("me", "to_play"):
            self.data[key] = resolve(str(value), self.players, "player", where=where)
            return self.data[key]
        if key.startswith("grid"):
            return self._row(split_list(value), where)
        if key in ("solutions", "red_herrings"):
            return self._display(key, split_list(value), where)
        return self._pool(key[5:], split_list(value), where)

    def _players(self, names: list[str], where: str) -> list[str]:
        """The players as a position's ``players`` field (``position.check_players``)."""
        self.players = list(check_players(names, self.source))
        self.data["players"] = self.players
        return self.players

    def _row(self, cards: list[str], where: str) -> list[str]:
        if len(cards) != SIZE:
            raise InputError(f"a row has {SIZE} cards, got {len(cards)}", where=where)
        row = [resolve_clue(c, where=where) for c in cards]
        self._check_copies(row, where)
        self.data.setdefault("grid", []).append(row)
        return row

    def _display(self, key: str, ids: list[str], where: str) -> list[str]:
        kind = SOLUTION if key == "solutions" else RED_HERRING
        if len(ids) != SLOTS:
            raise InputError(f"the display shows {SLOTS} of them, got {len(ids)}", where=where)
        got = [self.cards.resolve(i, where=where, kind=kind).id for i in ids]
        shown = [i for row in self.data.get("display", {}).values() for i in row] + got
        twice = sorted({i for i in shown if shown.count(i) > 1})
        if twice:
            raise InputError(f"a case card is in one place: {', '.join(twice)} is listed twice",
                             where=where)
        self.data.setdefault("display", {})[key] = got
        return got

    def _pool(self, player: str, cards: list[str], where: str) -> list[str]:
        pool = [resolve_clue(c, where=where) for c in cards]
        self._check_copies(pool, where)
        self.data.setdefault("pools", {})[player] = pool
        return pool

    def _check_copies(self, more: list[str], where: str) -> None:
        seen = [c for row in self.data.get("grid", []) for c in row]
        seen += [c for pool in self.data.get("pools", {}).values() for c in pool]
        seen += more
        for card in dict.fromkeys(more):
            if seen.count(card) > copies(card):
                raise InputError(too_many(card, "on the table"), where=where)

    def position(self) -> Position:
        """The whole setup checked as a position (no card solved, reserved or discarded)."""
        names = self.players
        data = dict(self.data, display={k: self.data["display"][k] for k in ("solutions", "red_herrings")},
                    pools={p: self.data["pools"][p] for p in names},
                    solved={p: [] for p in names}, milestones={p: {} for p in names},
                    reserved={p: None for p in names}, discard=[], final_round=False)
        if self.cards_field is not None:
            data["cards"] = self.cards_field
        return parse_position(data, self.source)


def _field_path(key: str) -> str:
    """A setup answer's place in the position JSON: ``grid2`` -> ``grid[1]``."""
    if key.startswith("grid"):
        return f"grid[{int(key[4:]) - 1}]"
    if key in ("solutions", "red_herrings"):
        return f"display.{key}"
    if key.startswith("pool:"):
        return f"pools.{key[5:]}"
    return key


# ----------------------------------------------------------------------------- parsing
def parse_line_name(tokens: list[str]) -> tuple[str, int]:
    """``row 2`` / ``column b`` / ``2`` / ``b`` -> ``("row", 1)`` / ``("column", 1)``."""
    usage = "mind row N (1-4) or mind column L (a-d)"
    words = [t for t in tokens if t.lower() not in ("palace",)]
    if len(words) == 2:
        kind = resolve(words[0], ("row", "column"), "line", where=usage)
        text = words[1]
    elif len(words) == 1:
        text = words[0]
        kind = "column" if text.strip().lower() in COLUMNS else "row"
    else:
        raise InputError(f"usage: {usage}")
    if kind == "column":
        t = text.strip().lower()
        if len(t) == 1 and t in COLUMNS:
            return "column", COLUMNS.index(t)
        return "column", whole_number(t, 1, SIZE, "a column (a-d or 1-4)", where=usage) - 1
    return "row", whole_number(text, 1, SIZE, "a row (1-4)", where=usage) - 1


@dataclass
class Told:
    """What an entry says chance gave (None: not said): ``draws`` the clue cards dealt,
    ``pick`` the Mind Palace card, ``reveals`` the case cards revealed (pile tops)."""

    draws: tuple[str, ...] | None = None
    pick: str | None = None
    reveals: tuple[str, ...] | None = None

    def merge(self, more: "Told") -> "Told":
        """These parts with ``more``'s (a part said twice: ``InputError``)."""
        out = replace(self)
        for key in OUTCOME_KEYS:
            value = getattr(more, key)
            if value is None:
                continue
            if getattr(out, key) is not None:
                raise InputError(f"{_PART_WORD[key]} is already said for this entry")
            setattr(out, key, value)
        return out


_PART_WORD = {"draws": "refill", "pick": "got", "reveals": "reveal"}


def split_parts(tokens: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The words before the first keyword, and the words after each keyword
    (``KEYWORDS``); a keyword given twice is an ``InputError``."""
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    current = head
    for t in tokens:
        key = t.lower()
        if key in KEYWORDS:
            if key in parts:
                raise InputError(f"{key} is given twice")
            parts[key] = current = []
        else:
            current.append(t)
    return head, parts


def told_parts(parts: dict[str, list[str]], cards) -> Told:
    """The ``refill``, ``got`` and ``reveal`` parts of an entry, names resolved."""
    told = Told()
    if "refill" in parts:
        told.draws = tuple(_clues(parts["refill"], "refill CARD..."))
    if "got" in parts:
        if not parts["got"]:
            raise InputError("usage: got CARD")
        told.pick = resolve_clue(" ".join(parts["got"]), where="got")
    if "reveal" in parts:
        names = [t.strip() for t in " ".join(parts["reveal"]).split(",") if t.strip()]
        if not names:
            raise InputError("usage: reveal CASE")
        told.reveals = tuple(cards.resolve(n, where="reveal").id for n in names)
    return told


def _clues(tokens: list[str], usage: str) -> list[str]:
    if not tokens:
        raise InputError(f"usage: {usage}")
    text = " ".join(tokens)
    if "," in text:
        return [resolve_clue(t.strip(), where=usage.split()[0]) for t in text.split(",") if t.strip()]
    try:
        return [resolve_clue(text, where=usage.split()[0])]
    except InputError:
        if len(tokens) == 1:
            raise
    return [resolve_clue(t, where=usage.split()[0]) for t in tokens]


def parse_uses(tokens: list[str]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """``sherlock=statements, knowledge, writings+writings+artifacts=knowledge`` -> the
    uses of a payment (``payment.Payment.uses``): a regular card, Watson, Mycroft or Irene
    alone pays its own suit unless ``=SUIT`` says another; Sherlock, Lestrade and 3 cards
    together need ``=SUIT``."""
    text = " ".join(tokens)
    if not text.strip():
        raise InputError("usage: with CARD[+CARD+CARD][=SUIT], ...")
    uses = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        cards_text, _, suit_text = part.partition("=")
        cards = tuple(resolve_clue(c.strip(), where="with") for c in cards_text.split("+"))
        if suit_text.strip():
            suit = resolve_suit(suit_text.strip(), where="with")
        elif len(cards) == 1 and cards[0] not in (SHERLOCK, LESTRADE):
            suit = suit_of(cards[0])
        else:
            what = {SHERLOCK: "Sherlock Holmes pays 2 of the suit you choose",
                    LESTRADE: "Inspector Lestrade pays 1 of the suit you choose"}.get(
                cards[0], "3 cards pay 1 of the suit you choose") if len(cards) == 1 else \
                "3 cards pay 1 of the suit you choose"
            raise InputError(f"{what}: add =SUIT to {part!r}", where="with")
        uses.append((cards, suit))
    return tuple(uses)


# ----------------------------------------------------------------------------- the session
@dataclass
class Pending:
    """An entry waiting for what came: its action, what is said so far, its words."""

    action: Any
    told: Told
    text: str


class TableSession(EntryTableSession):
    """A live session on one record, holding its lock from ``open`` to ``close``; a
    context manager. ``TableSession.open(path, source=..., seed=..., players=..., me=...,
    cards=..., ask=...)``: the options of a new record are ``_new_record``'s."""

    COMMANDS, ALIASES, VIEWS, PARTS, HELP = COMMANDS, ALIASES, VIEWS, PARTS, HELP

    def __init__(self, path: str | Path, record: Record, lock: RecordLock | None,
                 created: bool = False):
        self.path = Path(path)
        self.record = record
        self.lock = lock
        self.created = created
        self.state = record.replay()
        self.pending: Pending | None = None

    # -- opening (``EntryTableSession.open`` locks, then loads or creates)
    @staticmethod
    def _load_record(path: Path) -> Record:
        return load_record(path)

    @staticmethod
    def _new_record(path: Path, *, source: str | None = None, seed: int | None = None,
                    players=None, me=None, cards: str | None = None,
                    ask: Callable[[str, Any], None] | None = None) -> Record:
        """A new record: from the position file ``source``, from the deal of ``seed`` (with
        ``players`` and ``me``), or typed by hand (``ask(field, setup)`` must ask until
        ``setup.set(field, answer)`` accepts an answer; without ``ask``: ``InputError``).
        ``cards``: a card-set file for a new dealt or typed setup."""
        return _start_record(path, source, seed, players, me, cards, ask)

    # -- what the table shows
    @property
    def me(self) -> int:
        return self.record.setup.players.index(self.record.setup.me)

    def position(self) -> Position:
        """The position now, as I (``setup.me``) see it."""
        return self.state.position(self.me)

    def names(self) -> tuple[str, ...]:
        return self.record.setup.players

    def to_play(self) -> str:
        """The player to play (me once the game is over)."""
        seat = self.state.current_player()
        return self.names()[self.me if seat is None else seat]

    def step(self) -> str:
        """``over``, or the step of the player to play (``start``, ``investigate``, ...)."""
        if self.state.is_over():
            return "over"
        turn = self.position().turn
        return turn.step if turn is not None else "start"

    def prompt(self) -> str:
        """The prompt's words: who plays and the step (or what an entry waits for)."""
        if self.state.is_over():
            won = [self.names()[i] for i in self.state.winner()]
            return f"game over: {' and '.join(won)} win{'s' if len(won) == 1 else ''}"
        if self.pending is not None:
            return f"{self.to_play()}: {self.pending.text}: what came?"
        return f"{self.to_play()} to play: {self.step()}"

    # -- one line (``EntryTableSession.handle``)
    def _waiting(self) -> str | None:
        return None if self.pending is None else self._needs_text()

    def _entry(self, word: str, args: list[str]) -> Reply:
        if self.state.is_over():
            raise InputError("the game is over (undo takes back the last entry)")
        action, told = self._parse_entry(word, args)
        return self._enter(action, told, " ".join([word, *args]))

    # -- entries
    #: the parts each entry takes after its words
    ENTRY_PARTS = {"draw": (), "take": ("prop", "refill"), "mind": ("got", "refill"),
                   "solve": ("with", "reveal", "refill"), "reserve": ("reveal",),
                   "rotate": (), "discard": (), "claim": ()}

    def _parse_entry(self, word: str, args: list[str]):
        """The action an entry line names and what it says came (``Told``)."""
        head, parts = split_parts(args)
        allowed = self.ENTRY_PARTS[word]
        for key in parts:
            if key not in allowed:
                raise InputError(f"{word} takes no {key} part"
                                 + (f" (its parts: {', '.join(allowed)})" if allowed else ""))
        told = told_parts(parts, self.record.setup.cards)
        return getattr(self, f"_entry_{word}")(head, parts, told), told

    def _entry_draw(self, head, parts, told: Told):
        if head:
            told.draws = tuple(_clues(head, "draw CARD"))
        elif self.record.seed is None:
            raise InputError("usage: draw CARD (the clue card drawn)")
        return _rules().Draw()

    def _entry_take(self, head, parts, told: Told):
        if len(head) != 1:
            raise InputError("usage: take CELL [prop CELL] [refill CARD]")
        cell = parse_cell(head[0], "take")
        prop = parse_cell(" ".join(parts["prop"]), "prop") if "prop" in parts else None
        return self._take(cell, prop, "prop" in parts)

    def _entry_mind(self, head, parts, told: Told):
        return _rules().MindPalace(parse_line_name(head))

    def _entry_solve(self, head, parts, told: Told):
        case = self._case(head, "solve CASE [with USE, ...] [reveal CASE] [refill CARD]")
        if "with" in parts:
            return _rules().Solve(case, parse_uses(parts["with"]))
        return self._cheapest(case)

    def _entry_reserve(self, head, parts, told: Told):
        return _rules().Reserve(self._case(head, "reserve CASE [reveal CASE]"))

    def _entry_rotate(self, head, parts, told: Told):
        if len(head) < 2:
            raise InputError("usage: rotate CASE SUIT")
        case = self.record.setup.cards.resolve(" ".join(head[:-1]), where="rotate").id
        return _rules().Rotate(case, resolve_suit(head[-1], where="rotate"))

    def _entry_discard(self, head, parts, told: Told):
        if not head:
            raise InputError("usage: discard CARD")
        return _rules().Discard(resolve_clue(" ".join(head), where="discard"))

    def _entry_claim(self, head, parts, told: Told):
        return self._claim(head)

    def _case(self, head: list[str], usage: str) -> str:
        if not head:
            raise InputError(f"usage: {usage}")
        return self.record.setup.cards.resolve(" ".join(head), where=usage.split()[0]).id

    def _legal(self, kind: type) -> list:
        return [a for a in self.state.legal_actions() if isinstance(a, kind)]

    def _take(self, cell, prop, prop_given: bool):
        """The Take of ``cell``: with ``prop`` as given, else exact if it may be, else the
        one prop that fits (several: ``InputError`` asking which)."""
        R = _rules()
        if prop_given:
            return R.Take(cell, prop)
        takes = [a for a in self._legal(R.Take) if a.cell == cell]
        if not takes or any(a.prop is None for a in takes):
            return R.Take(cell, None)  # legal, or refused with the engine's reason
        props = sorted({a.prop for a in takes})
        if len(props) == 1:
            return R.Take(cell, props[0])
        raise InputError(f"{cell_name(cell)} can be taken with a prop over "
                         f"{' or '.join(cell_name(p) for p in props)}: say which "
                         f"(take {cell_name(cell)} prop {cell_name(props[0])})")

    def _cheapest(self, case: str):
        R = _rules()
        for a in self._legal(R.Solve):
            if a.case == case:
                return a
        return R.Solve(case, ())  # refused by the engine with its reason

    def _claim(self, head: list[str]):
        R = _rules()
        if not head:
            raise InputError(f"usage: claim MILESTONE [CASE, ...] ({' or '.join(MILESTONES)})")
        milestone = resolve(head[0], MILESTONES, "milestone", where="claim")
        if len(head) > 1:
            names = [t.strip() for t in " ".join(head[1:]).split(",") if t.strip()]
            if len(names) == 1:
                names = head[1:]
            ids = tuple(self.record.setup.cards.resolve(n, where="claim").id for n in names)
            return R.Claim(milestone, ids)
        claims = [a for a in self._legal(R.Claim) if a.milestone == milestone]
        return claims[0] if claims else R.Claim(milestone, ())

    def _enter(self, action, told: Told, text: str) -> Reply:
        """Play ``action`` with what ``told`` says came; wait for what is missing."""
        probe = self.state.clone()
        probe.apply(action)  # refused here (nothing changed) when the rules refuse it
        shape = probe.last_outcome()
        missing = _missing(shape, told, self.record.seed is not None)
        if missing:
            self.pending = Pending(action, told, text)
            return Reply("info", f"{text}: waiting for {', '.join(missing)}")
        return self._play(action, _outcome(shape, told, self.record.seed is not None))

    def _part(self, word: str, args: list[str]) -> Reply:
        if self.pending is None:
            raise InputError(f"no entry waits for {word} (use it on the entry's line: "
                             "take b3 refill writings)")
        parts = {word: args}
        told = self.pending.told.merge(told_parts(parts, self.record.setup.cards))
        pending, self.pending = self.pending, None
        try:
            return self._enter(pending.action, told, pending.text)
        except InputError:
            self.pending = pending
            raise

    def _needs_text(self) -> str:
        probe = self.state.clone()
        probe.apply(self.pending.action)
        return ", ".join(_missing(probe.last_outcome(), self.pending.told, False))

    def _play(self, action, outcome) -> Reply:
        """Apply, save (a failed write refuses it), accept."""
        trial = self.state.clone()
        before = self.state
        trial.apply(action, outcome)
        entry = Entry(action, trial.last_outcome())
        record = self.record.with_entries([*self.record.entries, entry])
        write_json_atomic(self.path, record.to_json())
        self.record, self.state = record, trial
        return Reply("accepted", f"entry {len(record.entries)}: "
                                 f"{describe(entry, before, self.names())}")

    def _undo_entry(self) -> Reply:
        record = self.record.with_entries(self.record.entries[:-1])
        state = record.replay()
        write_json_atomic(self.path, record.to_json())
        last = self.record.entries[-1]
        self.record, self.state = record, state
        return Reply("accepted", f"undone: entry {len(record.entries) + 1}: "
                                 f"{describe(last, state, self.names())}")

    # -- views
    def _view(self, word: str, args: list[str]) -> Reply:
        pos = self.position()
        if word == "show":
            return Reply("info", view="show", data=pos)
        if word == "patterns":
            from deduce.models.deductions.patterns import mind_palace_forced, placements

            return Reply("info", view="patterns",
                         data={"placements": placements(pos.grid),
                               "forced": mind_palace_forced(pos.grid)})
        if word == "pay":
            return Reply("info", view="pay", data=self.pay(args))
        if word == "odds":
            return Reply("info", view="odds", data=odds_json(pos))
        return self._best()

    def pay(self, args: list[str]) -> dict:
        """The spec's pay JSON for the player to play (whoever it is: the table helps every
        seat): CASE's pay object (a case within their reach: ``knowledge.find_case``), else
        ``{"cases": [...]}`` for every case within their reach, ranked
        (``knowledge.pay_all_json``)."""
        pos = self.position()
        player = self.to_play()
        if args:
            return pay_json(pos, find_case(pos, " ".join(args), player, where="pay"), player)
        return pay_all_json(pos, player)

    def _best(self) -> Reply:
        """The advice for me on my turn (``advice.advise``, as ``deduce deductions
        advise``)."""
        from deduce.models.deductions import advice

        return Reply("info", view="best", data=advice.advise(self.position(), where="best"))


def _missing(shape, told: Told, seeded: bool) -> list[str]:
    """What ``told`` leaves unsaid of what chance gives (``shape``: an outcome of the same
    action); nothing when seeded (the deal gives it). Too many parts: ``InputError``."""
    need = {"draws": len(shape.draws), "pick": int(shape.pick is not None),
            "reveals": sum(r is not None for r in shape.reveals)}
    say = {"draws": "refill CARD" + (f" (x{need['draws']}, in order)" if need["draws"] > 1 else ""),
           "pick": "got CARD (the card that came to the pool)",
           "reveals": "reveal CASE (the new top of the pile)"}
    out = []
    for key in OUTCOME_KEYS:
        value = getattr(told, key)
        if value is None:
            if need[key] and not seeded:
                out.append(say[key])
            continue
        got = 1 if key == "pick" else len(value)
        if got != need[key]:
            what = {"draws": "clue card(s) dealt from the deck", "pick": "card to the pool",
                    "reveals": "case card(s) revealed"}[key]
            raise InputError(f"this entry has {need[key]} {what}, not {got} ({_PART_WORD[key]})")
    return out


def _outcome(shape, told: Told, seeded: bool):
    """The ``rules.Outcome`` of ``told``'s parts, the rest from ``shape`` (what the seeded
    deal gives, or nothing)."""
    R = _rules()
    reveals = shape.reveals
    if told.reveals is not None:
        it = iter(told.reveals)
        reveals = tuple(None if r is None else next(it) for r in shape.reveals)
    return R.Outcome(draws=told.draws if told.draws is not None else tuple(shape.draws),
                     pick=told.pick if told.pick is not None else shape.pick,
                     reveals=tuple(reveals))


# ----------------------------------------------------------------------------- words
def describe(entry: Entry, before, names: tuple[str, ...]) -> str:
    """An entry in words, as played from the state ``before`` it."""
    R = _rules()
    a, o = entry.action, entry.outcome
    who = names[before.current_player()]
    dealt = f"; dealt {', '.join(o.draws)}" if o.draws else ""
    revealed = "".join(f"; revealed {r}" for r in o.reveals if r is not None)
    if isinstance(a, R.Draw):
        return f"{who} draws {', '.join(o.draws) or 'nothing (the deck is empty)'}"
    if isinstance(a, R.Take):
        grid = before.position(0).grid
        prop = "" if a.prop is None else f", a prop over {cell_name(a.prop)}"
        return f"{who} takes {grid[a.cell[0]][a.cell[1]]} from {cell_name(a.cell)}{prop}{dealt}"
    if isinstance(a, R.MindPalace):
        return f"{who} retreats to the Mind Palace on {line_name(a.line)}: {o.pick} to the pool{dealt}"
    if isinstance(a, R.Solve):
        uses = ", ".join(use_words(cards, suit) for cards, suit in a.uses) or "nothing"
        return f"{who} solves {a.case} paying {uses}{revealed}{dealt}"
    if isinstance(a, R.Reserve):
        return f"{who} reserves {a.case} (Mycroft){revealed}"
    if isinstance(a, R.Rotate):
        return f"{who} turns {a.case} to a {a.suit} discount (Irene)"
    if isinstance(a, R.Discard):
        return f"{who} discards {a.card}"
    return f"{who} claims {a.milestone} with {', '.join(a.cards)}"


# ----------------------------------------------------------------------------- new records
def _start_record(path: Path, source, seed, players, me, cards, ask) -> Record:
    """The record a new session starts (see ``TableSession.open``)."""
    if source is not None:
        setup = load_position(source)
        if me:
            setup = replace(setup, me=resolve(str(me), setup.players, "player", where="--me"))
        return Record(rebase_cards(setup, Path(source).parent, path.parent, SHIPPED), None)
    cards_field = SHIPPED if cards is None else relative_path(Path(cards), path.parent)
    card_set = load_cards(cards)
    setup = Setup(str(path), card_set, cards_field)
    given = {"players": players, "me": me}
    keys = ["players", "me"] if seed is not None else setup.fields()
    missing = [k for k in keys if not given.get(k)]
    if missing and ask is None:
        how = ("give --players and --me" if seed is not None
               else "give --from POSITION, or --seed S with --players and --me, or start it "
                    "on a terminal to type the table in")
        raise InputError(f"the record does not exist yet: {how}", where=str(path))
    for key in ("players", "me"):
        if given.get(key):
            setup.set(key, given[key])
    if seed is not None:
        if "me" in missing or "players" in missing:
            for key in ("players", "me"):
                if key in missing:
                    ask(key, setup)
        return _dealt(seed, setup, card_set, cards_field)
    while setup.fields():
        ask(setup.fields()[0], setup)
    return Record(setup.position(), None)


def _dealt(seed: int, setup: Setup, card_set, cards_field) -> Record:
    R = _rules()
    names = setup.players
    state = R.new_game(seed, players=len(names), cards=card_set, names=list(names))
    dealt = state.position(names.index(setup.data["me"]))
    return Record(replace(dealt, cards_field=cards_field), seed)
