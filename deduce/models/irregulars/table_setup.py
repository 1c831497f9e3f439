"""How a Baker Street Irregulars live table starts: from what lies on the table at the
start of a game (typed answer by answer, ``Setup``, or a position file), or from a game
the program deals (``dealt``).

A start is round 1, cycle 1, the Investigate Phase, nobody holding Evidence, a board or a
tail, 13 tokens each. What lies on the table: the players in seating order, me, my
Inspector, the 5 visible Villains, the arresting order, the round's Plot Twist and my hand
(solo: me, my Inspector, the 5 Villains and my hand; Holmes's hand is face down, his order
first). The engine's state of a typed start (``initial_state``) is ``rules.State.
from_parts`` of that position, its log (the hand I hold) and one guess of the rest
(``random.Random(0)``: the round's draw holds my hand and as many cards of each deck as
there are players, 2 in solo; the other hands, the deck orders, the Villain deck, the Plot
Twists and the others' Inspectors shuffled), which the entries then correct
(``forcing``).
"""

from __future__ import annotations

import random
from typing import Any

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.models.irregulars import rules
from deduce.models.irregulars.cards import DECKS, SHIPPED, CardSet
from deduce.models.irregulars.hidden import Hidden
from deduce.models.irregulars.position import (
    GAME,
    HAND_SIZE,
    HOLMES,
    MULTI,
    ROW,
    SOLO,
    TOKENS,
    Position,
    check_players,
    parse_position,
)

SOLO_PER_DECK = 2


def resolve_evidence(text: str, cards: CardSet, where: str) -> str:
    """An Evidence id from its id (any case) or its name."""
    return resolve(text, [c.id for c in cards.evidence], "Evidence card", where=where,
                   aliases={c.name: c.id for c in cards.evidence})


def resolve_villain(text: str, cards: CardSet, where: str) -> str:
    return resolve(text, [v.id for v in cards.villains], "Villain", where=where,
                   aliases={v.name: v.id for v in cards.villains})


def resolve_twist(text: str, cards: CardSet, where: str) -> str:
    return resolve(text, [t.id for t in cards.plot_twists], "Plot Twist", where=where,
                   aliases={t.name: t.id for t in cards.plot_twists})


def resolve_inspector(text: str, cards: CardSet, where: str) -> str:
    return resolve(text, [i.id for i in cards.inspectors], "Inspector", where=where,
                   aliases={i.name: i.id for i in cards.inspectors})


def split_list(value) -> list[str]:
    """``"E001, E002"`` -> ``["E001", "E002"]`` (a list is kept)."""
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


def check_start(pos: Position, where: str) -> None:
    """``InputError`` unless ``pos`` is the start of a game (see the module docstring)."""
    problems = []
    if (pos.round, pos.cycle, pos.phase) != (1, 1, "investigate"):
        problems.append(f"it is round {pos.round}, cycle {pos.cycle}, {pos.phase} phase")
    for p in pos.players:
        if pos.evidence[p] or pos.arrested[p] or pos.boards[p] or pos.tailing[p]:
            problems.append(f"{p} holds Evidence, a Villain, a board or a tail")
        if pos.bsi[p].available != TOKENS:
            problems.append(f"{p} has {pos.bsi[p].available} tokens, not {TOKENS}")
    if len(pos.hand) != HAND_SIZE:
        problems.append(f"my hand has {len(pos.hand)} cards, not {HAND_SIZE}")
    if len(pos.villains) != ROW:
        problems.append(f"{len(pos.villains)} Villains are visible, not {ROW}")
    if problems:
        raise InputError("a table starts at the start of a game (round 1, cycle 1, "
                         "investigate, nothing drafted): " + "; ".join(problems), where=where)


def start_log(pos: Position) -> dict:
    """The log of a start: the hand I hold, hands passing as the round's twist says."""
    from deduce.models.irregulars.knowledge import expected_direction

    direction = "left" if pos.solo else expected_direction(pos)
    return {"deal": 1, "direction": direction, "gone": [],
            "cycles": [{"hand": sorted(pos.hand), "picks": {}}], "acted": []}


def initial_state(pos: Position, where: str = "setup"):
    """The engine's state of a typed start (module docstring)."""
    cards = pos.cards
    rng = random.Random(0)
    mine = set(pos.hand)
    per_deck = SOLO_PER_DECK if pos.solo else len(pos.players)
    draw: list[str] = []
    decks: dict[int, tuple[str, ...]] = {}
    for d in DECKS:
        ids = [c.id for c in cards.deck(d) if c.id not in mine]
        have = len([c for c in cards.deck(d) if c.id in mine])
        if have > per_deck:
            raise InputError(f"my hand holds {have} cards of deck {d}; the round's draw has "
                             f"{per_deck}", where=f"{where}: field 'hand'")
        rng.shuffle(ids)
        draw += ids[:per_deck - have]
        decks[d] = tuple(ids[per_deck - have:])
    rng.shuffle(draw)
    others = [p for p in pos.players if p != pos.me]
    hands = {p: tuple(sorted(draw[HAND_SIZE * i:HAND_SIZE * (i + 1)]))
             for i, p in enumerate(others)}
    out_of_deck = set(pos.villains)
    villains = [v.id for v in cards.villains if v.id not in out_of_deck]
    rng.shuffle(villains)
    inspectors = {pos.me: pos.inspector}
    twists: list[str] = []
    if not pos.solo:
        pool = [i.id for i in cards.inspectors if i.id != pos.inspector]
        rng.shuffle(pool)
        inspectors.update(zip(others, pool))
        twists = [t.id for t in cards.plot_twists if t.id != pos.plot_twist]
        rng.shuffle(twists)
    hidden = Hidden(hands=hands, decks=decks, villain_deck=tuple(villains),
                    inspectors=inspectors, plot_twists=tuple(twists))
    return rules.State.from_parts(pos, start_log(pos), hidden, 0)


def dealt(seed: int, mode: str, players: list[str], me: str, cards: CardSet,
          cards_field: str | None):
    """The state of the game the program deals with ``seed``: ``rules.new_game`` (the
    players in seating order) or ``rules.new_solo`` (``players`` is ``[me]``)."""
    if mode == SOLO:
        state = rules.new_solo(seed, cards=cards, name=me)
    else:
        state = rules.new_game(seed, players=len(players), cards=cards, names=players)
    state.cards_field = cards_field
    return state


class Setup:
    """A new record's start typed by hand, one answer at a time (``set`` checks each);
    ``position()`` checks the whole (``parse_position``)."""

    def __init__(self, source: str, cards: CardSet, cards_field: str | None = SHIPPED,
                 mode: str = MULTI, base=None):
        self.source = source
        self.base = base
        self.cards = cards
        self.cards_field = cards_field
        self.mode = mode
        self.data: dict[str, Any] = {}

    def fields(self) -> list[str]:
        keys = (["me", "inspector", "villains", "hand"] if self.mode == SOLO else
                ["players", "me", "inspector", "villains", "order", "plot_twist", "hand"])
        return [k for k in keys if k not in self.data]

    @property
    def players(self) -> list[str]:
        if self.mode == SOLO:
            return [self.data["me"], HOLMES] if "me" in self.data else []
        return list(self.data.get("players", []))

    def set(self, key: str, value) -> Any:
        """Check ``value`` (text as typed, or a list) for ``key`` and keep it."""
        where = f"{self.source}: field {key!r}"
        cards = self.cards
        if key == "players":
            got = list(check_players(split_list(value), MULTI, where))
        elif key == "me" and self.mode == SOLO:
            got = check_players([str(value).strip(), HOLMES], SOLO, where)[0]
        elif key == "me":
            got = resolve(str(value), self.players, "player", where=where)
        elif key == "inspector":
            got = resolve_inspector(str(value), cards, where)
        elif key == "plot_twist":
            got = resolve_twist(str(value), cards, where)
        elif key == "order":
            got = [resolve(v, self.players, "player", where=where) for v in split_list(value)]
            if sorted(got) != sorted(self.players):
                raise InputError(f"the arresting order lists every player once "
                                 f"({', '.join(self.players)})", where=where)
        elif key in ("villains", "hand"):
            items = split_list(value)
            want = ROW if key == "villains" else HAND_SIZE
            if len(items) != want:
                raise InputError(f"{want} {'Villains' if key == 'villains' else 'cards'}, "
                                 f"got {len(items)}", where=where)
            read = resolve_villain if key == "villains" else resolve_evidence
            got = [read(v, cards, where) for v in items]
            twice = sorted({g for g in got if got.count(g) > 1})
            if twice:
                raise InputError(f"{', '.join(twice)} is listed twice", where=where)
        else:
            raise InputError(f"unknown setup field {key!r}", where=where)
        self.data[key] = got
        return got

    def position(self) -> Position:
        """The start as a checked position."""
        names = self.players
        empty = {p: [] for p in names}
        data: dict[str, Any] = {
            "game": GAME, "mode": self.mode, "players": names, "me": self.data["me"],
            "round": 1, "cycle": 1, "phase": "investigate", "hand": self.data["hand"],
            "evidence": empty, "bsi": {p: {"available": TOKENS, "spent": 0} for p in names},
            "tailing": {p: None for p in names}, "villains": self.data["villains"],
            "arrested": empty, "boards": empty, "inspector": self.data["inspector"],
            "order": [HOLMES, self.data["me"]] if self.mode == SOLO else self.data["order"]}
        if self.mode != SOLO:
            data["plot_twist"] = self.data["plot_twist"]
        if self.cards_field is not None:
            data["cards"] = self.cards_field
        pos = parse_position(data, self.source, base=self.base)
        check_start(pos, self.source)
        return pos
