"""Sherlock 13 has the shape of every game: no import cycle (top-level or inside a
function) and no private name taken from another module."""

from __future__ import annotations

from tests.imports import cycles, graph, private_imports

PACKAGE = "deduce.models.sherlock13"


def test_no_import_cycle_and_no_private_name_across_modules():
    assert cycles(graph(PACKAGE)) == []
    assert cycles(graph("deduce.cli")) == []
    assert private_imports(PACKAGE) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
