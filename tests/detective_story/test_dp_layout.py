"""The advisor's DP (``detective_story/dp``, with ``advice`` its public face): imports go one
way (top-level and inside functions), the sweep is handed to the solver (neither imports
the other), no private name crosses a module, every public function and method states
its contract, and solving leaves Python's recursion limit alone."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import deduce.models.detective_story as story
from deduce.models.detective_story.advice import Solver, advise
from deduce.models.detective_story.data import load_campaign

from .conftest import fresh

PACKAGE = story.__name__
FOLDER = Path(story.__file__).parent
DP = f"{PACKAGE}.dp"
#: the DP's modules and the modules around it that use it
FILES = {f"{DP}.{p.stem}": p for p in sorted((FOLDER / "dp").glob("*.py")) if p.stem != "__init__"}
FILES.update({f"{PACKAGE}.{name}": FOLDER / f"{name}.py" for name in ("advice", "naive")})
FILES[DP] = FOLDER / "dp" / "__init__.py"


def _tree(name: str) -> ast.Module:
    return ast.parse(FILES[name].read_text(encoding="utf-8"))


def _imports(name: str) -> dict[str, tuple[str, bool]]:
    """``{alias: (module, whether the alias is the module itself)}`` of every ``deduce``
    module ``name`` imports from, anywhere in it."""
    out = {}
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("deduce"):
                    out[a.asname or a.name] = (a.name, True)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("deduce"):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out[a.asname or a.name] = (sub, True) if _is_module(sub) else (node.module, False)
    return out


def _is_module(dotted: str) -> bool:
    path = FOLDER.parents[2].joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _graph() -> dict[str, set[str]]:
    return {name: {m for m, _ in _imports(name).values() if m in FILES and m != name}
            for name in FILES}


def test_the_dp_imports_one_way():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = path + [node]
                pytest.fail("import cycle: " + " -> ".join(cycle[cycle.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt, path + [node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    assert f"{DP}.sweep" not in graph[f"{DP}.solver"]  # the sweep is handed to it
    assert not {f"{DP}.solver", f"{PACKAGE}.advice"} & graph[f"{DP}.sweep"]
    assert f"{DP}.recursion" in graph[f"{DP}.solver"]


def test_no_private_name_crosses_a_module():
    used = []
    for name in FILES:
        aliases = {a for a, (_, is_module) in _imports(name).items() if is_module}
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("deduce"):
                used += [f"{name}: from {node.module} import {a.name}" for a in node.names
                         if a.name.startswith("_")]
            elif (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                  and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                  and node.value.id in aliases):
                used.append(f"{name}: {node.value.id}.{node.attr}")
    assert used == []


def test_every_public_function_states_its_contract():
    missing = []
    for name in FILES:
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                if ast.get_docstring(node) is None:
                    missing.append(f"{name}.{node.name}")
                for f in node.body:
                    if (isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                            and not f.name.startswith("_") and ast.get_docstring(f) is None):
                        missing.append(f"{name}.{node.name}.{f.name}")
        for f in _tree(name).body:
            if (isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and not f.name.startswith("_") and ast.get_docstring(f) is None):
                missing.append(f"{name}.{f.name}")
    assert missing == []


def test_solving_leaves_the_recursion_limit_alone(tiny_session_dir):
    cf = fresh(load_campaign(tiny_session_dir), turn=11, villain="c201", motive=1, sm=1)
    limit = sys.getrecursionlimit()
    for batched in (True, False):
        assert 0 < advise(cf.ctx, cf.case, solver=Solver(cf.ctx, batched=batched)).p_win < 1
    assert sys.getrecursionlimit() == limit
