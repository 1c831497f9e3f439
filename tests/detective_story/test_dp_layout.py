"""The advisor's DP (``detective_story/dp``, with ``advice`` its public face): imports go one
way (top-level and inside functions), the sweep is handed to the solver (neither imports
the other), no private name crosses a module, every public function and method states
its contract, and solving leaves Python's recursion limit alone (no private name crosses a
module: ``tests/test_package.py``)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path


import deduce.models.detective_story as story
from deduce.models.detective_story.advice import Solver, advise
from deduce.models.detective_story.data import load_campaign

from tests.imports import cycles, graph

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


def test_the_dp_imports_one_way():
    """No cycle among the DP's modules (the package-wide test checks all of ``deduce``),
    and the sweep is handed to the solver: neither imports the other."""
    edges = graph(PACKAGE)
    dp = {name: edges[name] & set(FILES) for name in FILES}
    assert cycles(dp) == []
    assert f"{DP}.sweep" not in dp[f"{DP}.solver"]
    assert not {f"{DP}.solver", f"{PACKAGE}.advice"} & dp[f"{DP}.sweep"]
    assert f"{DP}.recursion" in dp[f"{DP}.solver"]


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
