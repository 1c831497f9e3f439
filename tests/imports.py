"""The imports of a package read from its source (top-level and inside functions): the
module graph, its cycles, and private names one module takes from another."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import deduce

ROOT = Path(deduce.__file__).resolve().parent.parent


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (a dotted name under ``deduce``) and its file."""
    found = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


@cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the module at ``path`` (each file parsed once per test run:
    the package's checks walk every module several times)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(package: str) -> dict[str, list[tuple[str, str]]]:
    """For each module of ``package``: every ``(module, name)`` it imports from the
    ``deduce`` package (``name`` empty for a whole module), wherever the import stands."""
    out = {}
    for name, path in modules(package).items():
        found = []
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] == "deduce":
                found += [(node.module, a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                found += [(a.name, "") for a in node.names if a.name.split(".")[0] == "deduce"]
        out[name] = found
    return out


def graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (``from P import m`` of a
    submodule ``m`` counts as importing ``P.m``)."""
    known = modules(package)
    edges: dict[str, set[str]] = {}
    for name, found in imports(package).items():
        targets = {f"{m}.{n}" if f"{m}.{n}" in known else m for m, n in found}
        edges[name] = {t for t in targets if t in known and t != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(package: str) -> list[str]:
    """Every private name a module of ``package`` takes from another module of ``deduce``:
    ``module: from other import _name``, or ``module: alias._name`` for an attribute of a
    module it imported (dunders such as ``__version__`` allowed)."""
    found = [f"{name}: from {m} import {n}" for name, pairs in imports(package).items()
             for m, n in pairs if _private(n) and m != name]
    for name, path in modules(package).items():
        tree = parsed(path)
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("deduce"):
                aliases |= {a.asname or a.name for a in node.names
                            if f"{node.module}.{a.name}" in modules_of_deduce()}
            elif isinstance(node, ast.Import):
                aliases |= {a.asname for a in node.names
                            if a.asname and a.name.startswith("deduce.")}
        found += [f"{name}: {node.value.id}.{node.attr}" for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and _private(node.attr)
                  and isinstance(node.value, ast.Name) and node.value.id in aliases]
    return found


@cache
def modules_of_deduce() -> frozenset[str]:
    """The dotted names of every module of the ``deduce`` package."""
    return frozenset(modules("deduce"))
