"""A Baker Street Irregulars position (the spec's position JSON): read, checked, written back.

A position is one player's view at the table (``me``): the Evidence everyone owns, the
tokens, the tails, the visible and arrested Villains and the arresting order are public;
``hand`` and ``inspector`` are ``me``'s own. ``parse_position`` checks it and
``Position.to_json`` writes it back (names canonical: ``parse_position(p.to_json())`` gives
``p`` again). Every problem is an ``InputError`` (exit 2) naming the file and the field,
e.g. ``game.json: field 'evidence.Ann[1].card'``:

- ``game`` is ``"irregulars"``; no unknown field; every field but ``cards`` and
  ``plot_twist`` is required;
- ``cards``: ``shipped`` (the default) or a card-set file, relative to the position file's
  folder;
- ``mode`` ``multi``: ``players`` 2 to 5 distinct names; ``round`` 1-4, ``cycle`` 1-4;
  ``mode`` ``solo``: ``players`` is ``[me, "Holmes"]``, ``round`` 1, ``cycle`` 1-19, no
  ``bonus`` phase, Holmes never tails and holds no board, ``order`` is ``["Holmes", me]``;
- the per-player tables (``evidence``, ``bsi``, ``tailing``, ``arrested``, ``boards``)
  have an entry for each player and no other;
- ``hand``: Evidence ids, at most 5 (``HAND_SIZE``). Decision: in the ``bonus`` phase
  ``hand`` lists the unchosen cards face up in the middle (the BSI Bonus's choices: up to
  5 per player, since a player who could afford nothing passed a whole hand on);
- every card in one place: the hand, a player's Evidence; a Villain visible, or arrested
  by one player; ``villains`` at most 5 (``ROW``), a tailed Villain visible;
- tokens: ``available + spent + (1 if tailing)`` is 13 for every player;
- ``boards``: ``holmes``, ``watson``, ``wiggins``, each held by one player at most;
- ``inspector``: ``me``'s Inspector; ``plot_twist``: the round's Plot Twist (multi only).

Decision: a position is a decision point for ``me`` in its ``phase``; in the arrest and
tail phases the players before ``me`` in ``order`` have already acted this phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deduce.core.errors import InputError
from deduce.core.fields import FieldReader
from deduce.core.games import refuse_other_game
from deduce.core.names import normalise, resolve
from deduce.core.records import check_fields, json_kind, read_json
from deduce.models.irregulars.cards import (
    EVIDENCE_CARDS,
    MAX_NAME,
    SHIPPED,
    CardSet,
    Evidence,
    load_cards,
)

GAME = "irregulars"
SAMPLE = "sample"
SAMPLE_SOLO = "sample-solo"
#: the shipped sample positions, by the word that names them
SAMPLES = {SAMPLE: "sample-position.json", SAMPLE_SOLO: "sample-solo-position.json"}
MODES = ("multi", "solo")
MULTI, SOLO = MODES
HOLMES = "Holmes"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
ROUNDS, CYCLES, SOLO_CYCLES = 4, 4, 19
PHASES = ("investigate", "arrest", "tail", "bonus")
INVESTIGATE, ARREST, TAIL, BONUS = PHASES
BOARDS = ("holmes", "watson", "wiggins")
TOKENS = 13
HAND_SIZE = 5
ROW = 5
REQUIRED = ("game", "mode", "players", "me", "round", "cycle", "phase", "hand", "evidence",
            "bsi", "tailing", "villains", "arrested", "order", "boards", "inspector")
OPTIONAL = ("cards", "plot_twist")


@dataclass(frozen=True)
class Owned:
    """One Evidence card a player owns; ``used`` once it served in an arrest."""

    card: Evidence
    used: bool = False

    def to_json(self) -> dict:
        return {"card": self.card.id, "used": self.used}


@dataclass(frozen=True)
class Tokens:
    available: int
    spent: int

    def to_json(self) -> dict:
        return {"available": self.available, "spent": self.spent}


@dataclass(frozen=True)
class Position:
    """A checked position; names canonical, per-player tables keyed by player name in
    seating order (passing left goes to the next name). ``cards_field`` is the ``cards``
    field as written (None: absent)."""

    cards: CardSet
    mode: str
    players: tuple[str, ...]
    me: str
    round: int
    cycle: int
    phase: str
    hand: tuple[str, ...]
    evidence: dict[str, tuple[Owned, ...]]
    bsi: dict[str, Tokens]
    tailing: dict[str, str | None]
    villains: tuple[str, ...]
    arrested: dict[str, tuple[str, ...]]
    order: tuple[str, ...]
    boards: dict[str, tuple[str, ...]]
    inspector: str
    plot_twist: str | None = None
    cards_field: str | None = SHIPPED

    def to_json(self) -> dict:
        """The position JSON (``cards`` and ``plot_twist`` only when set)."""
        out: dict[str, Any] = {"game": GAME}
        if self.cards_field is not None:
            out["cards"] = self.cards_field
        out.update({
            "mode": self.mode, "players": list(self.players), "me": self.me,
            "round": self.round, "cycle": self.cycle, "phase": self.phase,
            "hand": list(self.hand),
            "evidence": {p: [o.to_json() for o in v] for p, v in self.evidence.items()},
            "bsi": {p: t.to_json() for p, t in self.bsi.items()},
            "tailing": dict(self.tailing), "villains": list(self.villains),
            "arrested": {p: list(v) for p, v in self.arrested.items()},
            "order": list(self.order),
            "boards": {p: list(v) for p, v in self.boards.items()},
            "inspector": self.inspector,
        })
        if self.plot_twist is not None:
            out["plot_twist"] = self.plot_twist
        return out

    @property
    def solo(self) -> bool:
        return self.mode == SOLO

    def unused(self, player: str) -> list[Evidence]:
        """The player's Evidence not yet used in an arrest, in the position's order."""
        return [o.card for o in self.evidence[player] if not o.used]

    def owned(self, player: str) -> list[Evidence]:
        """Every Evidence card the player owns, used or not (what objectives count)."""
        return [o.card for o in self.evidence[player]]

    def villain_points(self, player: str) -> int:
        by_id = self.cards.villain_by_id
        return sum(by_id[v].points for v in self.arrested[player])


# ----------------------------------------------------------------------------- reading
def load_position(path: str | Path) -> Position:
    """Read and check the position file ``path`` (its ``cards`` path is relative to its
    folder). ``sample`` and ``sample-solo`` (``SAMPLES``), when no file has that name, are
    the shipped samples: a mid-game 3-player position and a solo one (cycle 7, arrest)."""
    from deduce.puzzles import named_sample

    path = named_sample(path, "irregulars", SAMPLES)
    return parse_position(read_json(path), str(path), base=Path(path).parent)


def read_observation(observation: dict) -> dict:
    """An observation (``rules.State.observation``) read and written back."""
    return parse_position(observation, "observation").to_json()


def parse_position(data: Any, where: str = "<position>", base: str | Path | None = None
                   ) -> Position:
    """Check the parsed JSON ``data`` of a position (``where`` names it in messages,
    ``base`` is the folder a relative ``cards`` path starts from: the current folder by
    default); see the module docstring for the rules."""
    r = FieldReader(where)
    if not isinstance(data, dict):
        raise InputError(f"a position is a JSON object, got {json_kind(data)}", where=where)
    try:
        refuse_other_game(data, GAME, where)
    except InputError as exc:  # the record of another game: its field "game" is at fault
        exc.field = exc.field or "game"
        raise
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
    mode = r.name(data["mode"], lambda t, where: resolve(t, MODES, "mode", where=where),
                  "multi or solo", "mode")
    players = _players(r, data["players"], mode)
    me = r.name(data["me"], lambda t, where: resolve(t, players, "player", where=where),
                "a player", "me")
    if mode == SOLO and me != players[0]:
        raise r.fail(f'in solo, players is [me, "{HOLMES}"]', "me")
    rounds, cycles = (1, SOLO_CYCLES) if mode == SOLO else (ROUNDS, CYCLES)
    round_ = r.whole(data["round"], 1, rounds, "the round", "round")
    cycle = r.whole(data["cycle"], 1, cycles, "the cycle", "cycle")
    phases = PHASES[:-1] if mode == SOLO else PHASES
    phase = r.name(data["phase"], lambda t, where: resolve(t, phases, "phase", where=where),
                   "a phase", "phase")
    evidence_id = _evidence_resolver(cards)
    most = HAND_SIZE * len(players) if phase == BONUS else HAND_SIZE  # the middle
    hand = tuple(r.name(v, evidence_id, "an Evidence id", f"hand[{i}]")
                 for i, v in enumerate(r.listed(data["hand"], "Evidence ids", "hand", most)))
    villains = tuple(r.name(v, _villain_resolver(cards), "a Villain id", f"villains[{i}]")
                     for i, v in enumerate(r.listed(data["villains"], "Villain ids",
                                                    "villains", ROW)))
    per = lambda key, read: _per_player(r, data[key], players, key, read)  # noqa: E731
    evidence = per("evidence", lambda v, path, _: _owned(r, v, path, cards))
    tailing = per("tailing", lambda v, path, _: None if v is None else r.name(
        v, _villain_resolver(cards), "a Villain id or null", path))
    arrested = per("arrested", lambda v, path, _: tuple(
        r.name(x, _villain_resolver(cards), "a Villain id", f"{path}[{i}]")
        for i, x in enumerate(r.listed(v, "Villain ids", path, len(cards.villains)))))
    bsi = per("bsi", lambda v, path, _: _tokens(r, v, path))
    boards = per("boards", lambda v, path, _: tuple(
        r.name(x, lambda t, where: resolve(t, BOARDS, "board", where=where), "a board",
               f"{path}[{i}]")
        for i, x in enumerate(r.listed(v, "boards", path, len(BOARDS)))))
    order = _order(r, data["order"], players)
    inspector = r.name(data["inspector"], lambda t, where: resolve(
        t, [c.id for c in cards.inspectors], "Inspector", where=where,
        aliases={c.name: c.id for c in cards.inspectors}), "an Inspector id", "inspector")
    twist = data.get("plot_twist")
    if twist is not None:
        twist = r.name(twist, lambda t, where: resolve(
            t, [c.id for c in cards.plot_twists], "Plot Twist", where=where,
            aliases={c.name: c.id for c in cards.plot_twists}), "a Plot Twist id", "plot_twist")
    position = Position(cards, mode, players, me, round_, cycle, phase, hand, evidence, bsi,
                        tailing, villains, arrested, order, boards, inspector, twist,
                        cards_field)
    _check_places(r, position)
    _check_tokens(r, position)
    _check_boards(r, position)
    if mode == SOLO:
        _check_solo(r, position)
    return position


def _evidence_resolver(cards: CardSet):
    def read(text: str, where: str) -> str:
        if text in cards.evidence_by_id:
            return text
        return resolve(text, [c.id for c in cards.evidence], "Evidence id", where=where)
    return read


def _villain_resolver(cards: CardSet):
    def read(text: str, where: str) -> str:
        if text in cards.villain_by_id:
            return text
        return resolve(text, [c.id for c in cards.villains], "Villain", where=where,
                       aliases={c.name: c.id for c in cards.villains})
    return read


def check_players(names: Any, mode: str = MULTI, where: str = "players") -> tuple[str, ...]:
    """The players' names checked as a position's ``players`` field; ``InputError`` at
    ``where`` otherwise."""
    return _players(FieldReader(where), names, mode)


def _players(r: FieldReader, value: Any, mode: str) -> tuple[str, ...]:
    lo, hi = (2, 2) if mode == SOLO else (MIN_PLAYERS, MAX_PLAYERS)
    names = r.listed(value, "player names", "players", hi)
    if len(names) < lo:
        raise r.fail(f"{len(names)} players; the game takes {lo} to {hi}"
                     + (' (solo: [me, "Holmes"])' if mode == SOLO else ""), "players")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        r.string(name, "a player name", f"players[{i}]")
        if not name.strip() or len(name) > MAX_NAME:
            raise r.fail(f"a player name has 1 to {MAX_NAME} characters", f"players[{i}]")
        key = normalise(name)
        if key in seen:
            raise r.fail(f"the same name as players[{seen[key]}] (names differ in more than "
                         "case, spaces and punctuation)", f"players[{i}]")
        seen[key] = i
    if mode == SOLO and names[1] != HOLMES:
        raise r.fail(f'in solo, players is [me, "{HOLMES}"]', "players[1]")
    return tuple(names)


def _per_player(r: FieldReader, value: Any, players: tuple[str, ...], key: str, read
                ) -> dict:
    table = r.table(value, "one entry per player", key)
    for name in table:
        if name not in players:
            raise r.fail(f"{name!r} is not a player (players: {', '.join(players)})",
                         f"{key}.{name}")
    out = {}
    for p in players:
        if p not in table:
            raise r.fail("missing entry for this player", f"{key}.{p}")
        out[p] = read(table[p], f"{key}.{p}", p)
    return out


def _owned(r: FieldReader, value: Any, path: str, cards: CardSet) -> tuple[Owned, ...]:
    rows = r.listed(value, "owned Evidence", path, EVIDENCE_CARDS)
    out = []
    for i, row in enumerate(rows):
        at = f"{path}[{i}]"
        row = r.table(row, "card and used", at)
        check_fields(row, ("card", "used"), fail=lambda m, k, at=at: r.fail(m, f"{at}.{k}"))
        card = r.name(row["card"], _evidence_resolver(cards), "an Evidence id", f"{at}.card")
        if not isinstance(row["used"], bool):
            raise r.fail(f"expected true or false, got {json_kind(row['used'])}", f"{at}.used")
        out.append(Owned(cards.evidence_by_id[card], row["used"]))
    return tuple(out)


def _tokens(r: FieldReader, value: Any, path: str) -> Tokens:
    row = r.table(value, "available and spent", path)
    check_fields(row, ("available", "spent"), fail=lambda m, k: r.fail(m, f"{path}.{k}"))
    return Tokens(r.whole(row["available"], 0, TOKENS, "available tokens", f"{path}.available"),
                  r.whole(row["spent"], 0, TOKENS, "spent tokens", f"{path}.spent"))


def _order(r: FieldReader, value: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    names = r.listed(value, "player names", "order", len(players))
    order = tuple(r.name(v, lambda t, where: resolve(t, players, "player", where=where),
                         "a player", f"order[{i}]") for i, v in enumerate(names))
    if sorted(order) != sorted(players):
        missing = [p for p in players if p not in order]
        raise r.fail("the arresting order lists every player once"
                     + (f" (missing: {', '.join(missing)})" if missing else ""), "order")
    return order


def _check_places(r: FieldReader, pos: Position) -> None:
    """Every Evidence card and every Villain in one place."""
    seen: dict[str, str] = {}

    def place(card: str, path: str, what: str) -> None:
        if card in seen:
            raise r.fail(f"{what} {card} is already at {seen[card]} (a card is in one place)",
                         path)
        seen[card] = path

    for i, c in enumerate(pos.hand):
        place(c, f"hand[{i}]", "Evidence")
    for p, owned in pos.evidence.items():
        for i, o in enumerate(owned):
            place(o.card.id, f"evidence.{p}[{i}].card", "Evidence")
    for i, v in enumerate(pos.villains):
        place(v, f"villains[{i}]", "the Villain")
    for p, ids in pos.arrested.items():
        for i, v in enumerate(ids):
            place(v, f"arrested.{p}[{i}]", "the Villain")
    for p, v in pos.tailing.items():
        if v is not None and v not in pos.villains:
            raise r.fail(f"{v} is not a visible Villain (a tail is on a Villain in the row)",
                         f"tailing.{p}")


def _check_tokens(r: FieldReader, pos: Position) -> None:
    for p, t in pos.bsi.items():
        tail = 0 if pos.tailing[p] is None else 1
        if t.available + t.spent + tail != TOKENS:
            raise r.fail(f"available {t.available} + spent {t.spent} + tailing {tail} is "
                         f"{t.available + t.spent + tail}; each player has {TOKENS} BSI "
                         "tokens", f"bsi.{p}")


def _check_boards(r: FieldReader, pos: Position) -> None:
    holder: dict[str, str] = {}
    for p, boards in pos.boards.items():
        for i, b in enumerate(boards):
            if b in holder:
                raise r.fail(f"the {b} board is already held by {holder[b]} (one of each "
                             "board)", f"boards.{p}[{i}]")
            holder[b] = p


def _check_solo(r: FieldReader, pos: Position) -> None:
    if pos.tailing[HOLMES] is not None:
        raise r.fail("Holmes never tails (solo)", f"tailing.{HOLMES}")
    if pos.boards[HOLMES] or pos.boards[pos.me]:
        who = HOLMES if pos.boards[HOLMES] else pos.me
        raise r.fail("no boards in solo", f"boards.{who}")
    if pos.order != (HOLMES, pos.me):
        raise r.fail(f'in solo the order is ["{HOLMES}", "{pos.me}"] (he arrests first)',
                     "order")
    if pos.plot_twist is not None:
        raise r.fail("no Plot Twists in solo", "plot_twist")
