"""A Deductions table position (the spec's position JSON): read, checked, written back.

A position is what a player sees at the table: every card is face up except the clue deck
and the case piles below their tops, so all players see the same position but for ``me``.
``parse_position`` checks it and ``Position.to_json`` writes it back (names canonical:
``parse_position(p.to_json())`` gives ``p`` again). Every problem is an ``InputError``
(exit 2) naming the field, e.g. ``game.json: field 'pools.Ann[3]'``:

- ``game`` is ``"deductions"``; no unknown field; every field but ``cards`` and ``turn``
  is required;
- ``cards``: ``shipped`` (the default) or a card-set file, relative to the position
  file's folder;
- ``players``: 2 to 4 distinct names; ``me`` and ``to_play`` among them; the per-player
  tables (``pools``, ``solved``, ``milestones``, ``reserved``) have an entry for each
  player and no other;
- clue cards: names of suits or Allies (aliases allowed); no more copies on the grid, in
  the pools and in the discard pile than exist (11 of each suit, 1 of each Ally); the deck
  is every other clue card (``deck_counts``);
- case cards: ids (or aliases of ids and names) of the card set; each in one place (the
  display, a solved list, a reserved slot); a Solution in ``display.solutions`` and a Red
  Herring in ``display.red_herrings`` only (4 slots each, ``null`` for a gap);
- the piles: a gap at a pile's top (slot 0) means the pile is empty, so every card of
  that kind is in the display, solved or reserved; a gap in slots 1-3 means the pile is
  empty too (its top would have filled the slot);
- milestones: ``diversity`` and ``completion``, each 5 distinct cards of that player's
  solved cards that satisfy it; no card committed to both;
- pools: at most 10 cards (``POOL_LIMIT``), except for ``to_play`` in the middle of an
  Obtain Clues turn: up to 12 (the drawn card and the taken card come before the
  end-of-turn discard; a Solve never grows a pool: Watson's draw replaces Watson);
- ``final_round``: false while no player but ``to_play`` has 15 points (15+ at the end of
  a turn starts it); true only when some player has 15 points.

``turn`` (optional, written by the rules engine) is where the turn stands:
``{"number": turns played before this one, "step": "start" | "investigate" | "discard" |
"claim" | "over", "used_allies": [Mycroft Holmes and/or Irene Adler, when their holder has
used their free action while holding them]}``. Without it a position stands at the start
of ``to_play``'s turn (or, with 11-12 cards in ``to_play``'s pool, at the discard).

Cells: the JSON writes a grid cell ``[row, column]`` from 0; a person writes it ``a1`` to
``d4`` (``cell_name``, ``parse_cell``): the column ``a``-``d`` from the left, the row
``1``-``4`` from the top, so ``a1`` is ``[0, 0]``, ``b3`` is ``[2, 1]`` and ``d4`` is
``[3, 3]``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from deduce.core.errors import InputError
from deduce.core.fields import FieldReader as _Reader
from deduce.core.games import refuse_other_game
from deduce.core.names import normalise, resolve
from deduce.core.numbers import whole_number
from deduce.core.records import check_fields, json_kind, read_json
from deduce.models.deductions.cards import (
    ALLIES,
    CASE_CARDS,
    IRENE,
    MAX_NAME,
    MILESTONE_BONUS,
    MILESTONES,
    MYCROFT,
    RED_HERRING,
    SHIPPED,
    SOLUTION,
    CardSet,
    SolvedCard,
    clue_deck,
    copies,
    load_cards,
    resolve_clue,
    resolve_suit,
)
from deduce.models.deductions.milestones import satisfies

GAME = "deductions"
#: the name that reads the shipped sample position (``load_position``)
SAMPLE = "sample"
SIZE = 4
POOL_LIMIT = 10
#: the most ``to_play`` holds mid-turn: 10 + the drawn card + the taken card
POOL_MID_TURN = POOL_LIMIT + 2
WIN_POINTS = 15
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: safety cap: the game ends after this many rounds (every player's turn) with the
#: scores as they stand (no real game comes near it; random play needs a bound)
ROUND_CAP = 50
DISPLAY = {"solutions": SOLUTION, "red_herrings": RED_HERRING}
SLOTS = 4
STEPS = ("start", "investigate", "discard", "claim", "over")
FREE_ALLIES = (MYCROFT, IRENE)
REQUIRED = ("game", "players", "me", "to_play", "grid", "display", "pools", "solved",
            "milestones", "reserved", "discard", "final_round")
OPTIONAL = ("cards", "turn")
TURN_KEYS = ("number", "step", "used_allies")
#: the grid's columns as a person names them, from the left
COLUMNS = "abcd"


# ----------------------------------------------------------------------------- cells
def cell_name(cell) -> str:
    """``(row, column)`` from 0 as a person writes it: ``(2, 1)`` -> ``b3``."""
    r, c = cell
    return f"{COLUMNS[c]}{r + 1}"


def line_name(line) -> str:
    """A row or column of the grid as a person writes it: ``("row", 1)`` -> ``row 2``,
    ``("column", 1)`` -> ``column b`` (as its cells' letter)."""
    kind, i = line
    return f"row {i + 1}" if kind == "row" else f"column {COLUMNS[i]}"


def parse_cell(text: str, where: str = "cell") -> tuple[int, int]:
    """``b3`` -> ``(2, 1)``: column a-d from the left, row 1-4 from the top (digits of any
    script, as ``core.numbers``); ``InputError`` at ``where`` otherwise."""
    t = str(text).strip().lower()
    if len(t) < 2 or t[0] not in COLUMNS:
        raise InputError(f"expected a cell such as b3 (column a-d, row 1-4), got {text!r}",
                         where=where)
    row = whole_number(t[1:], 1, SIZE, f"a row in {text!r}", where=where)
    return row - 1, COLUMNS.index(t[0])


@dataclass(frozen=True)
class Turn:
    """Where the turn of ``to_play`` stands (see the module docstring)."""

    number: int = 0
    step: str = "start"
    used_allies: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"number": self.number, "step": self.step,
                "used_allies": list(self.used_allies)}


@dataclass(frozen=True)
class Position:
    """A checked position; names canonical, per-player tables keyed by player name in
    seating order. ``cards_field`` is the ``cards`` field as written (None: absent)."""

    cards: CardSet
    players: tuple[str, ...]
    me: str
    to_play: str
    grid: tuple[tuple[str | None, ...], ...]
    display: dict[str, tuple[str | None, ...]]
    pools: dict[str, tuple[str, ...]]
    solved: dict[str, tuple[SolvedCard, ...]]
    milestones: dict[str, dict[str, tuple[str, ...]]]
    reserved: dict[str, str | None]
    discard: tuple[str, ...]
    final_round: bool
    turn: Turn | None = None
    cards_field: str | None = SHIPPED

    def to_json(self) -> dict:
        """The position JSON (``cards`` and ``turn`` only when set)."""
        out: dict[str, Any] = {"game": GAME}
        if self.cards_field is not None:
            out["cards"] = self.cards_field
        out.update({
            "players": list(self.players), "me": self.me, "to_play": self.to_play,
            "grid": [list(row) for row in self.grid],
            "display": {k: list(v) for k, v in self.display.items()},
            "pools": {p: list(v) for p, v in self.pools.items()},
            "solved": {p: [s.to_json() for s in v] for p, v in self.solved.items()},
            "milestones": {p: {m: list(ids) for m, ids in v.items()}
                           for p, v in self.milestones.items()},
            "reserved": dict(self.reserved), "discard": list(self.discard),
            "final_round": self.final_round,
        })
        if self.turn is not None:
            out["turn"] = self.turn.to_json()
        return out

    @property
    def step(self) -> str:
        """The step of ``to_play``'s turn (``turn``'s, else inferred from the pool)."""
        if self.turn is not None:
            return self.turn.step
        return "discard" if len(self.pools[self.to_play]) > POOL_LIMIT else "start"

    def points(self, player: str) -> int:
        """Points of ``player``: solved cards' points plus 3 per claimed milestone."""
        return (sum(s.card.points for s in self.solved[player])
                + MILESTONE_BONUS * len(self.milestones[player]))

    def deck_counts(self) -> Counter:
        """The clue deck's composition: every clue card not on the grid, in a pool or in
        the discard pile (order unknown)."""
        deck = Counter(clue_deck())
        deck.subtract(self.seen_clues())
        return +deck

    def seen_clues(self) -> Counter:
        """The clue cards face up: the grid, the pools and the discard pile."""
        seen = Counter(c for row in self.grid for c in row if c is not None)
        for pool in self.pools.values():
            seen.update(pool)
        seen.update(self.discard)
        return seen

    def piles(self) -> dict[str, list[str]]:
        """Per display row (``solutions``, ``red_herrings``): the ids of the cards below the
        visible pile top (order unknown)."""
        placed = self.placed_cases()
        return {key: [c.id for c in self.cards.of_kind(kind) if c.id not in placed]
                for key, kind in DISPLAY.items()}

    def placed_cases(self) -> set[str]:
        """Ids of the case cards in sight: displayed, solved or reserved."""
        ids = {i for row in self.display.values() for i in row if i is not None}
        ids |= {s.id for v in self.solved.values() for s in v}
        return ids | {i for i in self.reserved.values() if i is not None}

    def final_by(self) -> str | None:
        """Who started the final round (None if it has not started): the player furthest
        back among the ``n - 1`` before ``to_play`` with 15 points (those before them in
        that window had fewer at the end of their turn, or they would have started it)."""
        if not self.final_round:
            return None
        n, k = len(self.players), self.players.index(self.to_play)
        back = [self.players[(k - d) % n] for d in range(1, n)]
        hits = [p for p in back if self.points(p) >= WIN_POINTS]
        return hits[-1] if hits else None


# ----------------------------------------------------------------------------- reading
def load_position(path: str | Path) -> Position:
    """Read and check the position file ``path`` (its ``cards`` path is relative to its
    folder). ``sample`` (``SAMPLE``), when no file has that name, is the shipped sample
    position (a mid-game 3-player position of the shipped set)."""
    from deduce.puzzles import named_sample

    path = named_sample(path, "deductions", {SAMPLE: "sample-position.json"})
    return parse_position(read_json(path), str(path), base=Path(path).parent)


def read_observation(observation: dict) -> dict:
    """An observation (``rules.State.observation``) read and written back."""
    return parse_position(observation, "observation").to_json()


def parse_position(data: Any, where: str = "<position>", base: str | Path | None = None
                   ) -> Position:
    """Check the parsed JSON ``data`` of a position (``where`` names it in messages,
    ``base`` is the folder a relative ``cards`` path starts from: the current folder by
    default); see the module docstring for the rules."""
    r = _Reader(where)
    if not isinstance(data, dict):
        raise InputError(f"a position is a JSON object, got {json_kind(data)}", where=where)
    refuse_other_game(data, GAME, where)
    check_fields(data, REQUIRED, OPTIONAL, fail=r.fail)
    if data["game"] != GAME:
        raise r.fail(f'expected "{GAME}", got {json_kind(data["game"])}', "game")
    cards_field = data.get("cards")
    if cards_field is not None:
        cards_field = r.string(cards_field, "shipped or a card-set file", "cards")
    try:
        cards = load_cards(cards_field, base)
    except InputError as exc:
        raise r.fail(f"the card set cannot be read: {exc}", "cards") from None
    players = _players(r, data["players"])
    me = r.name(data["me"], lambda t, where: resolve(t, players, "player", where=where),
                "a player", "me")
    to_play = r.name(data["to_play"], lambda t, where: resolve(t, players, "player", where=where),
                     "a player", "to_play")
    position = Position(
        cards=cards, players=players, me=me, to_play=to_play, grid=_grid(r, data["grid"]),
        display=_display(r, data["display"], cards),
        pools=_per_player(r, data["pools"], players, "pools",
                          lambda v, path, _: _clues(r, v, path, POOL_MID_TURN)),
        solved=_per_player(r, data["solved"], players, "solved",
                           lambda v, path, _: _solved(r, v, path, cards)),
        milestones={}, reserved=_per_player(
            r, data["reserved"], players, "reserved", lambda v, path, _: None if v is None
            else r.name(v, cards.resolve, "a case id or null", path).id),
        discard=tuple(_clues(r, data["discard"], "discard", len(clue_deck()))),
        final_round=_boolean(r, data["final_round"], "final_round"),
        turn=None if data.get("turn") is None else _turn(r, data["turn"]),
        cards_field=cards_field)
    milestones = _per_player(r, data["milestones"], players, "milestones",
                             lambda v, path, player: _milestones(r, v, path, position, player))
    position = replace(position, milestones=milestones)
    _check_copies(r, position)
    _check_cases(r, position)
    _check_piles(r, position)
    _check_pools(r, position)
    _check_final(r, position)
    _check_turn(r, position)
    return position


def check_players(names: Any, where: str = "players") -> tuple[str, ...]:
    """The players' names checked as a position's ``players`` field (2 to 4 distinct
    names of 1 to ``MAX_NAME`` characters); ``InputError`` at ``where`` otherwise."""
    return _players(_Reader(where), names)


def _players(r: _Reader, value: Any) -> tuple[str, ...]:
    names = r.listed(value, "player names", "players", MAX_PLAYERS)
    if len(names) < MIN_PLAYERS:
        raise r.fail(f"{len(names)} players; the game takes {MIN_PLAYERS} to {MAX_PLAYERS}",
                     "players")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        r.string(name, "a player name", f"players[{i}]")
        if not 1 <= len(name.strip()) or len(name) > MAX_NAME:
            raise r.fail(f"a player name has 1 to {MAX_NAME} characters", f"players[{i}]")
        key = normalise(name)
        if key in seen:
            raise r.fail(f"the same name as players[{seen[key]}] (names differ in more than "
                         "case, spaces and punctuation)", f"players[{i}]")
        seen[key] = i
    return tuple(names)


def _grid(r: _Reader, value: Any) -> tuple[tuple[str | None, ...], ...]:
    rows = r.listed(value, "4 rows", "grid", SIZE)
    if len(rows) != SIZE:
        raise r.fail(f"expected {SIZE} rows, got {len(rows)}", "grid")
    out = []
    for i, row in enumerate(rows):
        cells = r.listed(row, "4 cells", f"grid[{i}]", SIZE)
        if len(cells) != SIZE:
            raise r.fail(f"expected {SIZE} cells, got {len(cells)}", f"grid[{i}]")
        out.append(tuple(None if c is None else r.name(c, resolve_clue, "a clue card or null",
                                                       f"grid[{i}][{j}]")
                         for j, c in enumerate(cells)))
    return tuple(out)


def _display(r: _Reader, value: Any, cards: CardSet) -> dict[str, tuple[str | None, ...]]:
    table = r.table(value, "display rows", "display")
    out = {}
    for key in table:
        if key not in DISPLAY:
            raise r.fail(f"unknown display row (known: {', '.join(DISPLAY)})", f"display.{key}")
    for key, kind in DISPLAY.items():
        if key not in table:
            raise r.fail("missing display row", f"display.{key}")
        row = r.listed(table[key], "4 case ids or null", f"display.{key}", SLOTS)
        if len(row) != SLOTS:
            raise r.fail(f"expected {SLOTS} slots (null for a gap), got {len(row)}",
                         f"display.{key}")
        ids = []
        for i, v in enumerate(row):
            path = f"display.{key}[{i}]"
            if v is None:
                ids.append(None)
                continue
            card = r.name(v, cards.resolve, "a case id or null", path)
            if card.kind != kind:
                raise r.fail(f"{card.id!r} is a {card.kind.replace('-', ' ')}; this row holds "
                             f"{kind.replace('-', ' ')}s", path)
            ids.append(card.id)
        out[key] = tuple(ids)
    return out


def _per_player(r: _Reader, value: Any, players: tuple[str, ...], key: str,
                read: Callable[[Any, str, str], Any]) -> dict:
    """A table with one entry per player (keys by the alias rule), each ``read(value,
    path, player)``; in seating order."""
    table = r.table(value, "one entry per player", key)
    found: dict[str, Any] = {}
    for name, v in table.items():
        player = r.name(name, lambda t, where: resolve(t, players, "player", where=where),
                        "a player", f"{key}.{name}")
        if player in found:
            raise r.fail(f"{player} has two entries", f"{key}.{name}")
        found[player] = (name, v)
    for p in players:
        if p not in found:
            raise r.fail(f"no entry for {p}", f"{key}.{p}")
    return {p: read(found[p][1], f"{key}.{found[p][0]}", p) for p in players}


def _clues(r: _Reader, value: Any, path: str, most: int) -> tuple[str, ...]:
    cards = r.listed(value, "clue cards", path, most)
    return tuple(r.name(c, resolve_clue, "a clue card", f"{path}[{i}]")
                 for i, c in enumerate(cards))


def _solved(r: _Reader, value: Any, path: str, cards: CardSet) -> tuple[SolvedCard, ...]:
    out = []
    for i, entry in enumerate(r.listed(value, "solved cards", path, CASE_CARDS)):
        at = f"{path}[{i}]"
        entry = r.table(entry, '"case" and "discount"', at)
        check_fields(entry, ("case", "discount"),
                     fail=lambda message, k, at=at: r.fail(message, f"{at}.{k}"))
        card = r.name(entry["case"], cards.resolve, "a case id", f"{at}.case")
        out.append(SolvedCard(card, r.name(entry["discount"], resolve_suit, "a suit",
                                           f"{at}.discount")))
    return tuple(out)


def _milestones(r: _Reader, value: Any, path: str, pos: Position, player: str
                ) -> dict[str, tuple[str, ...]]:
    table = r.table(value, "milestones (diversity, completion)", path)
    mine = {s.id: s.card for s in pos.solved[player]}
    out: dict[str, tuple[str, ...]] = {}
    committed: dict[str, str] = {}
    for key, ids in table.items():
        m = r.name(key, lambda t, where: resolve(t, MILESTONES, "milestone", where=where),
                   "a milestone", f"{path}.{key}")
        at = f"{path}.{key}"
        if m in out:
            raise r.fail(f"{m} is given twice", at)
        got = []
        for i, v in enumerate(r.listed(ids, "5 solved case ids", at, 5)):
            card = r.name(v, pos.cards.resolve, "a case id", f"{at}[{i}]")
            if card.id not in mine:
                raise r.fail(f"{card.id!r} is not among this player's solved cards",
                             f"{at}[{i}]")
            if card.id in committed:
                raise r.fail(f"{card.id!r} is already committed to {committed[card.id]} (a "
                             "card serves one milestone)", f"{at}[{i}]")
            committed[card.id] = m
            got.append(card.id)
        if not satisfies(m, [mine[i] for i in got]):
            raise r.fail(f"these cards do not satisfy {m} ({_milestone_rule(m)})", at)
        out[m] = tuple(got)
    return {m: out[m] for m in MILESTONES if m in out}


def _milestone_rule(m: str) -> str:
    return ("5 distinct cards, one of each category" if m == "diversity"
            else "5 distinct cards of one case")


def _boolean(r: _Reader, value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise r.fail(f"expected true or false, got {json_kind(value)}", path)
    return value


def _turn(r: _Reader, value: Any) -> Turn:
    table = r.table(value, "number, step, used_allies", "turn")
    check_fields(table, (), TURN_KEYS, fail=lambda message, k: r.fail(message, f"turn.{k}"))
    number = table.get("number", 0)
    cap = ROUND_CAP * MAX_PLAYERS
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= cap:
        raise r.fail(f"expected a whole number from 0 to {cap} (the round cap "
                     f"{ROUND_CAP} x {MAX_PLAYERS} players), got {json_kind(number)}",
                     "turn.number")
    step = r.name(table.get("step", "start"),
                  lambda t, where: resolve(t, STEPS, "step", where=where), "a step", "turn.step")
    used = []
    for i, v in enumerate(r.listed(table.get("used_allies", []), "Allies", "turn.used_allies",
                                   len(FREE_ALLIES))):
        ally = r.name(v, lambda t, where: resolve(t, FREE_ALLIES, "Ally with a free action",
                                                  where=where), "an Ally", f"turn.used_allies[{i}]")
        if ally in used:
            raise r.fail(f"{ally} is listed twice", f"turn.used_allies[{i}]")
        used.append(ally)
    return Turn(number, step, tuple(a for a in FREE_ALLIES if a in used))


# ----------------------------------------------------------------------------- checks
def _clue_places(pos: Position):
    """Every face-up clue card with its field path."""
    for i, row in enumerate(pos.grid):
        for j, c in enumerate(row):
            if c is not None:
                yield c, f"grid[{i}][{j}]"
    for p, pool in pos.pools.items():
        for i, c in enumerate(pool):
            yield c, f"pools.{p}[{i}]"
    for i, c in enumerate(pos.discard):
        yield c, f"discard[{i}]"


def _check_copies(r: _Reader, pos: Position) -> None:
    count: Counter = Counter()
    for card, path in _clue_places(pos):
        count[card] += 1
        if count[card] > copies(card):
            raise r.fail(too_many(card, "on the grid, in the pools and in the discard pile"),
                         path)


def too_many(card: str, place: str) -> str:
    """The words for one copy of the clue ``card`` more than exist, seen ``place``."""
    what = (f"{card} is one of a kind" if card in ALLIES else
            f"{copies(card)} regular {card} cards exist (plus its Ally)")
    return f"one {card} too many {place}: {what}"


def _check_cases(r: _Reader, pos: Position) -> None:
    seen: dict[str, str] = {}
    places = [(i, f"display.{k}[{j}]") for k, row in pos.display.items()
              for j, i in enumerate(row)]
    places += [(s.id, f"solved.{p}[{j}].case") for p, v in pos.solved.items()
               for j, s in enumerate(v)]
    places += [(i, f"reserved.{p}") for p, i in pos.reserved.items()]
    for ident, path in places:
        if ident is None:
            continue
        if ident in seen:
            raise r.fail(f"{ident!r} is also at {seen[ident]} (a case card is in one place)",
                         path)
        seen[ident] = path


def _check_piles(r: _Reader, pos: Position) -> None:
    for key, hidden in pos.piles().items():
        row = pos.display[key]
        if row[0] is None and hidden:
            raise r.fail(f"a gap at the pile's top means the pile is empty, but "
                         f"{', '.join(map(repr, hidden))} are nowhere else", f"display.{key}[0]")
        for j in range(1, SLOTS):
            if row[j] is None and row[0] is not None:
                raise r.fail("a gap beside a pile that still has cards (its top fills an "
                             "empty slot)", f"display.{key}[{j}]")


def _check_pools(r: _Reader, pos: Position) -> None:
    limits = {"start": POOL_LIMIT, "claim": POOL_LIMIT, "over": POOL_LIMIT,
              "investigate": POOL_LIMIT + 1, "discard": POOL_MID_TURN}
    for p, pool in pos.pools.items():
        most = limits[pos.step] if p == pos.to_play else POOL_LIMIT
        if len(pool) > most:
            why = ("at the end of a turn" if p != pos.to_play else
                   f"at the step {pos.step!r} of the turn")
            raise r.fail(f"{len(pool)} cards; a pool holds at most {most} {why} (only the "
                         f"player to play holds more, up to {POOL_MID_TURN}, before the "
                         "end-of-turn discard)", f"pools.{p}")
    if pos.turn is not None and pos.step == "discard" and len(pos.pools[pos.to_play]) <= POOL_LIMIT:
        raise r.fail(f"the step is 'discard', but {pos.to_play}'s pool holds "
                     f"{len(pos.pools[pos.to_play])} cards (at most {POOL_LIMIT} needs none)",
                     "turn.step")


def _check_final(r: _Reader, pos: Position) -> None:
    if not pos.final_round:
        for p in pos.players:
            if p != pos.to_play and pos.points(p) >= WIN_POINTS:
                raise r.fail(f"false, but {p} has {pos.points(p)} points ({WIN_POINTS} at the "
                             "end of a turn starts the final round)", "final_round")
    elif pos.step != "over" and pos.final_by() is None:
        raise r.fail(f"true, but none of the players before {pos.to_play} has {WIN_POINTS} "
                     "points", "final_round")


def _check_turn(r: _Reader, pos: Position) -> None:
    if pos.turn is None:
        return
    held = {c for pool in pos.pools.values() for c in pool}
    for i, ally in enumerate(pos.turn.used_allies):
        if ally not in held:
            raise r.fail(f"{ally} is in no pool (the free action is renewed when the Ally "
                         "leaves a pool)", f"turn.used_allies[{i}]")
