"""Sherlock 13 has the shape of every game: the six modules, self-play in ``selfplay.py``
(bots.py keeps the strategies), no import cycle (top-level or inside a function) and no
private name taken from another module."""

from __future__ import annotations

from tests.imports import cycles, graph, private_imports, modules

PACKAGE = "deduce.models.sherlock13"


def test_the_six_modules_of_a_game():
    found = set(modules(PACKAGE))
    for module in ("rules", "knowledge", "advice", "bots", "selfplay", "table"):
        assert f"{PACKAGE}.{module}" in found


def test_self_play_lives_in_selfplay_and_the_strategies_in_bots():
    from deduce.models.sherlock13 import bots, selfplay

    assert {"play_one", "game_specs", "GameSpec", "TURN_CAP"}.isdisjoint(vars(bots))
    assert selfplay.GAME.play_one is selfplay.play_one and selfplay.GAME.bots == tuple(bots.BOTS)


def test_no_import_cycle_and_no_private_name_across_modules():
    assert cycles(graph(PACKAGE)) == []
    assert cycles(graph("deduce.cli")) == []
    assert private_imports(PACKAGE) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
