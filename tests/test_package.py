"""The package's own shape, over all of ``deduce``: no import cycle (imports inside
functions count), no private name one module takes from another, and the models and core
below the CLI (no click, no rich, no ``deduce.cli``)."""

from __future__ import annotations

from tests.imports import cycles, graph, imports, private_imports


def test_no_import_cycle_anywhere_in_the_package():
    edges = graph("deduce")
    assert cycles(edges) == []
    assert "deduce.cli.s13" in edges["deduce.cli.main"]  # an import inside a function, seen


def test_no_private_name_is_used_across_modules():
    assert private_imports("deduce") == []


def test_the_models_and_core_import_no_cli():
    import ast

    from tests.imports import modules, parsed

    bad = []
    for package in ("deduce.models", "deduce.core"):
        bad += [f"{name}: {m}" for name, found in imports(package).items() for m, _ in found
                if m.startswith("deduce.cli")]
        for name, path in modules(package).items():
            for node in ast.walk(parsed(path)):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                bad += [f"{name}: {n}" for n in names if n.split(".")[0] in ("click", "rich")]
    assert bad == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
