"""Every registered game holds to the shape of ``deduce.models`` (after OpenSpiel's
random-simulation test): seeded random playouts through each game's ``rules.State`` check
that every legal action applies, that an action legal elsewhere but not here raises the
project's ``InputError`` and changes nothing, that observations round-trip through their
JSON, that every game ends, and that the same seed replays the same game. One seeded game
per game is stored as a golden playthrough (``tests/golden/``) and replayed exactly;
``DEDUCE_REGEN_GOLDEN=1 python -m pytest tests/test_conformance.py`` writes them anew.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from deduce.core.errors import InputError
from deduce.models import GAMES

GOLDEN = Path(__file__).parent / "golden"
STEP_CAP = 2000  # no game of the shipped data takes this many moves
TRIED = 6  # legal (and illegal) actions tried on clones at each step


def playout(game: str, seed: int, check: bool = True) -> dict:
    """One seeded random game: its moves (as ``repr``), final observations and winner;
    with ``check``, the conformance checks at every step."""
    entry = GAMES[game]
    state = entry.function("new_game")(seed)
    read = entry.function("read_observation")
    rng = random.Random(seed)
    seen: dict[str, object] = {}
    moves = []
    for _ in range(STEP_CAP):
        if state.is_over():
            break
        legal = state.legal_actions()
        assert legal, "a game that is not over has a legal action"
        keys = {repr(a) for a in legal}
        seen.update((repr(a), a) for a in legal)
        if check:
            _check_step(state, legal, [a for k, a in seen.items() if k not in keys], rng, read)
        action = rng.choice(legal)
        moves.append(repr(action))
        state.apply(action)
    assert state.is_over(), f"{game} seed {seed}: not over after {STEP_CAP} moves"
    assert state.legal_actions() == []
    final = [state.observation(p) for p in range(state.num_players())]
    if check:
        for obs in final:
            _round_trip(obs, read)
    return {"seed": seed, "moves": moves, "winner": state.winner(), "final": final}


def _check_step(state, legal, illegal, rng, read) -> None:
    before = [state.observation(p) for p in range(state.num_players())]
    for obs in before:
        _round_trip(obs, read)
    for action in rng.sample(legal, min(TRIED, len(legal))):
        state.clone().apply(action)  # every legal action applies
    for action in rng.sample(illegal, min(TRIED, len(illegal))):
        trial = state.clone()
        with pytest.raises(InputError):
            trial.apply(action)
        assert [trial.observation(p) for p in range(state.num_players())] == before
    assert [state.observation(p) for p in range(state.num_players())] == before  # untouched


def _round_trip(obs: dict, read) -> None:
    assert json.loads(json.dumps(obs)) == obs
    back = read(json.loads(json.dumps(obs)))
    if isinstance(back, dict):
        assert back == obs


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_random_playouts_follow_the_shape(game, seed):
    playout(game, seed)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_seed_replays_the_same_game(game):
    first, again, other = (playout(game, s, check=False) for s in (11, 11, 12))
    assert first == again
    assert first["moves"] != other["moves"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_golden_playthrough(game):
    path = GOLDEN / f"{game}.json"
    played = playout(game, 0, check=False)
    if os.environ.get("DEDUCE_REGEN_GOLDEN"):
        path.write_text(json.dumps(played, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    assert played == json.loads(path.read_text(encoding="utf-8"))


def test_every_game_folder_has_the_shared_modules():
    import importlib.util

    for entry in GAMES.values():
        for module in ("rules", "knowledge", "advice", "bots", "selfplay", "table"):
            assert importlib.util.find_spec(f"{entry.package}.{module}"), (entry.package, module)
