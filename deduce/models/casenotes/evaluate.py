"""Evaluating a typed rule on one concrete solution (no solver).

A ``World`` is a complete solution given directly: for every category the item in each
key row, every attribute's value per item, every unknown's value. ``holds(expr, world)``
and ``value(expr, world)`` evaluate the parser's typed tree on it. This is the
independent referee of the CNF compilation (tests brute-force small cases with
``itertools`` and compare counts) and the way to check a note against a known answer
(self-play bots, 221B).
"""

from __future__ import annotations

from dataclasses import dataclass

from deduce.models.casenotes import language as L
from deduce.models.casenotes.schema import Schema, Value


@dataclass(frozen=True)
class World:
    """``rows[cat][r]``: the item index of ``cat`` in key row ``r``; ``attrs[a][i]``: the value
    of item ``i`` (of the attribute's category); ``unknowns[u]``: an item index (unknown of
    a category) or a value (free list)."""

    schema: Schema
    rows: dict[str, tuple[int, ...]]
    attrs: dict[str, tuple[Value, ...]]
    unknowns: dict[str, int | Value]

    def row_of(self, cat: str, index: int) -> int:
        return self.rows[cat].index(index)


def _row(e: L.Expr, w: World, env: dict) -> int:
    if isinstance(e, L.Item):
        return w.row_of(e.cat, e.index)
    if isinstance(e, L.Var):
        return w.row_of(e.cat, env[e.name])
    if isinstance(e, L.URow):
        return w.row_of(e.cat, w.unknowns[e.name])
    if isinstance(e, L.CatOf):
        return _row(e.row, w, env)
    raise TypeError(f"not a row: {e!r}")


def _num(e: L.Expr, w: World, env: dict) -> int:
    if isinstance(e, L.Num):
        return e.value
    if isinstance(e, L.AsNum):
        cat = L.anchor(e.row)
        return w.schema.categories[cat].items[w.rows[cat][_row(e.row, w, env)]]
    if isinstance(e, L.Arith):
        a, b = _num(e.a, w, env), _num(e.b, w, env)
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    if isinstance(e, L.Abs):
        return abs(_num(e.a, w, env))
    if isinstance(e, L.Neg):
        return -_num(e.a, w, env)
    if isinstance(e, L.Count):
        if e.comp is None:
            return sum(holds(c, w, env) for c in e.items)
        return sum(body for f, body in _bindings(e.comp, w, env) if f)
    raise TypeError(f"not a number: {e!r}")


def _sym(e: L.Expr, w: World, env: dict) -> Value:
    if isinstance(e, L.Sym):
        return e.value
    if isinstance(e, L.UFree):
        return w.unknowns[e.name]
    if isinstance(e, L.AttrOf):
        of = w.schema.attributes[e.attr].of
        return w.attrs[e.attr][w.rows[of][_row(e.row, w, env)]]
    raise TypeError(f"not a value: {e!r}")


def _bindings(comp: L.Comp, w: World, env: dict):
    import itertools

    sizes = [range(len(w.schema.categories[cat].items)) for _v, cat in comp.gens]
    for combo in itertools.product(*sizes):
        inner = dict(env)
        inner.update({v: k for (v, _c), k in zip(comp.gens, combo)})
        if all(holds(c, w, inner) for c in comp.conds):
            yield True, holds(comp.body, w, inner)


_CMP = {"==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
        "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}


def holds(e: L.Expr, w: World, env: dict | None = None) -> bool:
    """Whether the condition ``e`` is true in ``w``."""
    env = env or {}
    if isinstance(e, L.BoolConst):
        return e.value
    if isinstance(e, L.And):
        return all(holds(x, w, env) for x in e.items)
    if isinstance(e, L.Or):
        return any(holds(x, w, env) for x in e.items)
    if isinstance(e, L.Not):
        return not holds(e.a, w, env)
    if isinstance(e, L.Implies):
        return not holds(e.a, w, env) or holds(e.b, w, env)
    if isinstance(e, L.Iff):
        return holds(e.a, w, env) == holds(e.b, w, env)
    if isinstance(e, L.Xor):
        return holds(e.a, w, env) != holds(e.b, w, env)
    if isinstance(e, L.RowEq):
        return _row(e.a, w, env) == _row(e.b, w, env)
    if isinstance(e, L.NumCmp):
        return _CMP[e.op](_num(e.a, w, env), _num(e.b, w, env))
    if isinstance(e, L.SymEq):
        return _sym(e.a, w, env) == _sym(e.b, w, env)
    if isinstance(e, L.Quant):
        results = (body for _f, body in _bindings(e.comp, w, env))
        return all(results) if e.which == "all" else any(results)
    raise TypeError(f"not a condition: {e!r}")


def value(e: L.Expr, w: World) -> Value | bool:
    """The value of any expression in ``w`` (a row gives its anchor category's item)."""
    if e.kind == "bool":
        return holds(e, w)
    if e.kind == "num":
        return _num(e, w, {})
    if e.kind == "sym":
        return _sym(e, w, {})
    cat = L.anchor(e)
    return w.schema.categories[cat].items[w.rows[cat][_row(e, w, {})]]


def worlds(schema: Schema):
    """Every complete solution of ``schema`` (no notes): the brute-force search space."""
    import itertools

    n = schema.size
    cats = schema.cat_names
    perms = list(itertools.permutations(range(n)))
    attr_spaces = [itertools.product(a.values, repeat=len(schema.categories[a.of].items))
                   for a in schema.attributes.values()]
    attr_spaces = [list(s) for s in attr_spaces]
    unk_spaces = [range(n) if u.category else u.values for u in schema.unknowns.values()]
    for grid in itertools.product(perms, repeat=len(cats) - 1):
        rows = {cats[0]: tuple(range(n))}
        rows.update({c: p for c, p in zip(cats[1:], grid)})
        for attrs in itertools.product(*attr_spaces):
            for unks in itertools.product(*unk_spaces):
                yield World(schema, rows, dict(zip(schema.attributes, attrs)),
                            dict(zip(schema.unknowns, unks)))
