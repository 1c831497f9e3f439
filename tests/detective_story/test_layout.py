"""The Detective Story modules' shape: no import cycle through them (imports inside
functions count), and no private name of another module used (``from m import _x``,
``m._x``)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import deduce

ROOT = Path(deduce.__file__).parent
#: the modules of this game (the DP's ``advice``/``sweep`` are checked by their own tests)
MINE = sorted([p for p in (ROOT / "models" / "detective_story").glob("*.py")
               if p.stem not in ("advice", "sweep")] + list((ROOT / "cli").glob("story*.py")))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in ROOT.rglob("*.py")}


def imported(tree: ast.AST) -> list[tuple[str, str | None, str | None]]:
    """``(module, name imported from it or None, local alias of a module or None)`` for
    every import of a ``deduce`` module anywhere in ``tree``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("deduce"):
                    out.append((a.name, None, a.asname))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("deduce"):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                if sub in MODULES:  # ``from package import module``
                    out.append((sub, None, a.asname or a.name))
                else:
                    out.append((node.module, a.name, None))
    return out


def graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for name, path in MODULES.items():
        for mod, _, _ in imported(ast.parse(path.read_text(encoding="utf-8"))):
            if mod in MODULES and mod != name:
                g.add_edge(name, mod)
    return g


def test_no_import_cycle_through_the_detective_story_modules():
    mine = {module_name(p) for p in MINE}
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph())
              if len(c) > 1 and c & mine]
    assert cycles == []


def test_no_private_name_of_another_module_is_used():
    used = []
    for path in MINE:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = set()
        for mod, name, alias in imported(tree):
            if name is not None and name.startswith("_") and name != "__version__":
                used.append(f"{path.name}: from {mod} import {name}")
            if alias is not None:
                aliases.add(alias)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                used.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert used == []


def test_the_game_models_import_no_click_and_no_cli():
    """``models/detective_story`` (the live table too) is below the CLI: no click, no rich,
    no ``deduce.cli``."""
    bad = []
    for path in (ROOT / "models" / "detective_story").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.name}: {n}" for n in names
                    if n.split(".")[0] in ("click", "rich") or n.startswith("deduce.cli")]
    assert bad == []
