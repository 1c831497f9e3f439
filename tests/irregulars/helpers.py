"""Test helpers: hand-made engine states for the rule tests (a real new game with the parts
a test sets changed, then moved on to its first decision: ``settle``) and the hand-built
positions of ``positions/``, read and changed."""

from __future__ import annotations

import json
from pathlib import Path

from deduce.models.irregulars import rules
from deduce.models.irregulars.position import parse_position
from deduce.models.irregulars.rules import ARREST, State, new_game

MORAN, MORIARTY = "V02", "V01"
#: Evidence of the shipped set by its icons (cost in brackets)
HEART, DISGUISE, GANG, BLOOD = "E006", "E007", "E003", "E008"        # (2, 2, 1, 0)
HEART_GANG = "E094"                                                  # heart + gang (4)
SKULL, PRINT = "E004", "E002"                                        # (1, 1)


def settle(state: State) -> State:
    state._legal = None
    state._advance()
    return state


def arrest_turn(seat: int = 0, owned=(), tail: str | None = None, row=None, boards=(),
                players: int = 3, seed: int = 0, order=None, acted=(),
                effect: str | None = None) -> State:
    """An Arrest Phase with ``seat`` first in the order (or ``order``, the seats in
    ``acted`` having acted), holding ``owned`` (unused), tailing ``tail``, the row ``row``
    (default: the game's with Moran first), the round's Plot Twist one of ``effect``."""
    state = new_game(seed, players)
    state.phase = ARREST
    state.acted = list(acted)
    state.order = list(order) if order is not None else \
        [seat] + [s for s in range(players) if s != seat]
    if effect is not None:
        state.twist = next(t.id for t in state.cards.plot_twists if t.effect == effect)
    for s in range(players):
        state.hands[s] = []
        state.owned[s], state.used[s] = [], set()
    state.picked = {}
    state.owned[seat] = list(owned)
    if row is None:
        row = [MORAN] + [v for v in state.row if v != MORAN][:4]
    state.villain_deck = [v for v in state.villain_deck if v not in row]
    state.row = list(row)
    if tail is not None:
        state.tailing[seat] = tail
        state.available[seat] = rules.TOKENS - 1
    state.boards[seat] = list(boards)
    return settle(state)


POSITIONS = Path(__file__).parent / "positions"
SOLO = POSITIONS / "solo.json"
GREGSON = POSITIONS / "gregson.json"
SAMPLE = Path(__file__).parents[2] / "deduce" / "puzzles" / "irregulars" / "sample-position.json"


def data(path: Path = SAMPLE, **changes) -> dict:
    out = json.loads(path.read_text())
    out.update(changes)
    return out


def position(path: Path = SAMPLE, **changes):
    return parse_position(data(path, **changes), path.name)
