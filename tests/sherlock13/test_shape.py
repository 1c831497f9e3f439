"""Sherlock 13's self-play lives in ``selfplay.py`` and bots.py keeps the strategies (the
six modules of every game: ``tests/test_conformance.py``; imports: ``tests/test_package.py``)."""

from __future__ import annotations


def test_self_play_lives_in_selfplay_and_the_strategies_in_bots():
    from deduce.models.sherlock13 import bots, selfplay

    assert {"play_one", "game_specs", "GameSpec", "TURN_CAP"}.isdisjoint(vars(bots))
    assert selfplay.GAME.play_one is selfplay.play_one and selfplay.GAME.bots == tuple(bots.BOTS)
