"""Compiled phases: a traced expression (``trace.Expr``) as arrays, and their value.

``Compiler.compile`` merges an expression's end leaves by where they lead (the memo key of
the end case's mode, the flags it carries, and its SM/Luck move) into a ``Lump``: index
and weight arrays, the leaves that end the case as a constant, decision nodes over
sub-lumps. Equal pieces are one object (``interned``), so a decision reached twice is
valued once. ``Compiler.evaluate`` values a lump from its targets' values.

**Compiled once per expression.** An expression serves every mode of its shape
(``phases``): the modes agree on every field it read or wrote, so its leaves end in cases
that differ only in fields it never touched, and where each leaf leads (its changed
fields ``Leaf.over``), its move and weight are the same for all of them. So its leaves
are merged once by (changed fields, move) into a ``_Template`` (the moves, weights and
constant as arrays), and a mode's lump is the template with each entry's target worked
out from that mode (``_instance``): the same lump, the same object, as merging its
leaves again. Where a mode's targets would merge two entries (``modes.mode_of`` can make
two end cases one mode) or a leaf ends the case differently, the expression is merged
again for that mode (``_merged``).
"""

from __future__ import annotations

from functools import reduce
from typing import NamedTuple

import numpy as np

from deduce.models.detective_story import combat as C
from deduce.models.detective_story.dp.grid import SL, MoveTable, by_sm, compose
from deduce.models.detective_story.dp.modes import Flags, ModeKeys, flags_of
from deduce.models.detective_story.dp.trace import CombatNode, Expr, Leaf, MaxNode, Ref, end_case
from deduce.models.detective_story.state import Case


class Target(NamedTuple):
    """Where a leaf leads: the mode key and the flags the phase leaves."""

    key: Case
    flags: Flags


class Lump(NamedTuple):
    """A compiled expression: ``const + sum(wts * target values gathered at idx) + nodes``."""

    const: object  # float or flat (S*L) array: the leaves that end the case
    targets: tuple  # (Target, ...)
    moves: np.ndarray  # (leaves,) ids of the (SM, Luck) after the phase (``MoveTable``)
    wts: np.ndarray  # (leaves, S*L), or (leaves, 1) when no weight depends on SM
    nodes: tuple  # ((weight, MaxNode or CombatNode of Lumps, or Ref), ...)


class _Template(NamedTuple):
    """An expression's leaves merged by (changed fields, move), for every mode of its
    shape (see the module docstring)."""

    expr: tuple  # kept: templates are found by its id
    leaves: tuple  # per entry one of its leaves (``trace.end_case`` of it: its target)
    move_ids: tuple  # per entry its move id
    moves: np.ndarray  # as ``Lump.moves`` (read-only)
    wts: np.ndarray  # as ``Lump.wts`` (read-only)
    const: object  # as ``Lump.const``
    ended: tuple  # ((leaf, its value), ...): a leaf of each change that ends the case
    nodes: tuple  # ("ref", weight, Ref) | ("max", weight, templates) | ("fight", weight,
    # setup, ((terminal, template), ...))
    key: tuple  # the constant's, moves' and weights' part of the lump's intern key


#: templates kept at most (emptied past it: a bot's long self-play)
MAX_TEMPLATES = 200_000


def _arrays(move_ids, weights) -> tuple:
    """A lump's ``(moves, wts)`` from its entries' move ids and summed weights (floats, or
    arrays over SM: then every row over (SM, Luck))."""
    weights = list(weights)
    vector = any(isinstance(w, np.ndarray) for w in weights)
    wts = np.empty((len(weights), SL if vector else 1))
    for i, w in enumerate(weights):
        wts[i] = by_sm(w) if isinstance(w, np.ndarray) else w
    return np.array(move_ids, dtype=np.intp), wts


class Compiler:
    """Compiles expressions of one solver (its ``ModeKeys`` and ``MoveTable``) and values
    the lumps; ``interned``: equal compiled pieces, one object each; ``templates``: per
    expression its ``_Template``."""

    def __init__(self, modes: ModeKeys, moves: MoveTable):
        self.modes = modes
        self.moves = moves
        self.interned: dict = {}
        self.templates: dict = {}  # (id(expr), start SM, start Luck) -> _Template
        self._weights: dict = {}  # bytes of a decision node's weight -> the one array

    def _intern(self, key: tuple, obj):
        return self.interned.setdefault(key, obj)

    def _weight(self, w):
        """A decision node's weight (``by_sm``): equal weights over SM are one read-only
        array (thousands of nodes share a few SM masks), a float stays a float."""
        w = by_sm(w)
        if not isinstance(w, np.ndarray):
            return w
        out = self._weights.get(b := w.tobytes())
        if out is None:
            out = self._weights[b] = w
            w.flags.writeable = False
        return out

    def compile(self, expr: Expr, start: Case, ends: dict | None = None) -> Lump:
        """``expr`` (traced from ``start``) with its leaves merged by where they lead (see
        ``Lump``). Equal decision nodes (a fight reached by each of option 3's starts)
        become one object, valued once per ``evaluate``. ``ends``: per leaf's changed
        fields (``Leaf.over``), what the end case is (its ``Target``, or its value if it
        ends the case) from ``start``, filled as the leaves are seen (SM and Luck are not
        part of it). Made from the expression's template (the module docstring)."""
        return self._sub(self._template(expr, start), start, {} if ends is None else ends)

    def _end(self, start: Case, leaf: Leaf, ends: dict):
        """Where ``leaf`` leads from ``start``: its ``Target``, or its value if it ends
        the case (kept in ``ends`` by its changed fields)."""
        end = ends.get(leaf.over)
        if end is None:
            case = end_case(start, leaf)
            end = ends[leaf.over] = ((1.0 if case.won else 0.0) if case.over else
                                     Target(self.modes.key(case), flags_of(case)))
        return end

    def _template(self, expr: Expr, start: Case) -> _Template:
        """``expr``'s ``_Template`` (made from ``start`` the first time)."""
        k = (id(expr), start.sm, start.luck)
        tpl = self.templates.get(k)
        if tpl is not None and tpl.expr is expr:
            return tpl
        const = 0.0
        merged: dict = {}
        leaves: dict = {}
        ended: dict = {}
        nodes = []
        for w, node in expr:
            if type(node) is Leaf:
                end = ended.get(node.over)
                if end is None:  # (the leaf, its value) if it ends the case, else False
                    case = end_case(start, node)
                    end = ended[node.over] = (node, 1.0 if case.won else 0.0) if case.over \
                        else False
                if end:
                    const = const + w * end[1]
                    continue
                if type(node.sm) is int:  # a concrete trace: the end values themselves
                    sm, luck = node.sm, node.luck
                else:
                    sm, luck = compose(start.sm, node.sm), compose(start.luck, node.luck)
                key = (node.over, sm, luck)
                merged[key] = merged.get(key, 0.0) + w
                leaves.setdefault(key, node)
            elif type(node) is Ref:
                nodes.append(("ref", self._weight(w), node))
            elif type(node) is MaxNode:
                nodes.append(("max", self._weight(w),
                              tuple(self._template(o, start) for o in node.options)))
            else:
                nodes.append(("fight", self._weight(w), node.setup,
                              tuple((t, self._template(sub, start)) for t, sub in node.terms)))
        move_ids = tuple(self.moves.id(sm, luck) for _, sm, luck in merged)
        moves, wts = _arrays(move_ids, merged.values())
        const = by_sm(const)
        moves.flags.writeable = wts.flags.writeable = False
        if len(self.templates) >= MAX_TEMPLATES:
            self.templates.clear()
        tpl = self.templates[k] = _Template(
            expr, tuple(leaves.values()), move_ids, moves, wts, const,
            tuple(e for e in ended.values() if e), tuple(nodes),
            (const.tobytes() if isinstance(const, np.ndarray) else const, moves.tobytes(),
             wts.tobytes()))
        return tpl

    def _instance(self, tpl: _Template, start: Case, ends: dict) -> Lump | None:
        """``tpl``'s lump for ``start`` (what ``_merged`` makes of its expression), or None
        where its leaves merge differently there (the module docstring)."""
        for leaf, value in tpl.ended:
            if self._end(start, leaf, ends) != value:
                return None
        targets = tuple([self._end(start, leaf, ends) for leaf in tpl.leaves])
        if any(type(t) is float for t in targets) or \
                len(set(zip(targets, tpl.move_ids))) < len(targets):
            return None
        nodes = []
        for item in tpl.nodes:
            if item[0] == "ref":
                nodes.append(item[1:])
                continue
            subs = item[-1]
            if item[0] == "max":
                lumps = tuple(self._sub(sub, start, ends) for sub in subs)
                nodes.append((item[1], self._intern(("max",) + tuple(map(id, lumps)),
                                                    MaxNode(lumps))))
            else:
                terms = tuple((t, self._sub(sub, start, ends)) for t, sub in subs)
                nodes.append((item[1], self._intern(("fight", item[2]) + tuple(
                    (t, id(x)) for t, x in terms), CombatNode(item[2], terms))))
        const, moves, wts = tpl.key
        lump = Lump(tpl.const, targets, tpl.moves, tpl.wts, tuple(nodes))
        return self._intern(("lump", const, targets, moves, wts, tuple(
            (id(n), id(w) if isinstance(w, np.ndarray) else w) for w, n in nodes)), lump)

    def _sub(self, tpl: _Template, start: Case, ends: dict) -> Lump:
        """``tpl``'s lump for ``start``, merged again where the template does not serve."""
        lump = self._instance(tpl, start, ends)
        return lump if lump is not None else self._merged(tpl.expr, start, ends)

    def _merged(self, expr: Expr, start: Case, ends: dict) -> Lump:
        """``compile`` without a template: ``expr``'s leaves merged for ``start`` alone."""
        const = 0.0
        merged: dict = {}
        nodes = []
        for w, node in expr:
            if type(node) is Leaf:
                end = ends.get(node.over)
                if end is None:
                    case = end_case(start, node)
                    end = ends[node.over] = ((1.0 if case.won else 0.0) if case.over else
                                             Target(self.modes.key(case), flags_of(case)))
                if type(end) is float:
                    const = const + w * end
                    continue
                if type(node.sm) is int:  # a concrete trace: the end values themselves
                    sm, luck = node.sm, node.luck
                else:
                    sm, luck = compose(start.sm, node.sm), compose(start.luck, node.luck)
                key = (end, sm, luck)
                merged[key] = merged.get(key, 0.0) + w
            elif type(node) is Ref:
                nodes.append((self._weight(w), node))
            elif type(node) is MaxNode:
                subs = tuple(self.compile(o, start, ends) for o in node.options)
                nodes.append((self._weight(w), self._intern(("max",) + tuple(map(id, subs)),
                                                     MaxNode(subs))))
            else:
                terms = tuple((t, self.compile(sub, start, ends)) for t, sub in node.terms)
                nodes.append((self._weight(w), self._intern(("fight", node.setup) + tuple(
                    (t, id(x)) for t, x in terms), CombatNode(node.setup, terms))))
        targets = tuple(t for t, _, _ in merged)
        moves, wts = _arrays([self.moves.id(sm, luck) for _, sm, luck in merged],
                             merged.values())
        const = by_sm(const)
        lump = Lump(const, targets, moves, wts, tuple(nodes))
        key = ("lump", const.tobytes() if isinstance(const, np.ndarray) else const, targets,
               moves.tobytes(), wts.tobytes(),
               tuple((id(n), id(w) if isinstance(w, np.ndarray) else w) for w, n in nodes))
        return self._intern(key, lump)

    def evaluate(self, lump: Lump, get, memo: dict | None = None, refs=None):
        """The value of ``lump``: ``get(target)`` gives a target's values, flat (S*L)
        arrays, or (labels, S*L) for every flag label at once (then the value has that
        shape too); ``refs(line)`` the value of a ``Ref``; ``memo``: decision nodes
        already valued in this evaluation (by identity)."""
        if memo is None:
            memo = {}
        out = lump.const
        if lump.targets:
            n = len(lump.targets)
            cols = (self.moves.table[lump.moves] + (np.arange(n) * SL)[:, None]).ravel()
            first = get(lump.targets[0])
            if first.ndim == 1:  # (leaves * S*L) -> the leaves' values after their moves
                g = np.concatenate([first] + [get(t) for t in lump.targets[1:]])[cols]
                g = g.reshape(n, SL)
                out = out + (np.einsum("nk,nk->k", g, lump.wts) if lump.wts.shape[1] > 1
                             else lump.wts[:, 0] @ g)
            else:  # (labels, leaves * S*L)
                x = first.shape[0]
                g = np.concatenate([first] + [get(t) for t in lump.targets[1:]], axis=1)[:, cols]
                g = g.reshape(x, n, SL)
                out = out + (np.einsum("xnk,nk->xk", g, lump.wts) if lump.wts.shape[1] > 1
                             else np.einsum("xnk,n->xk", g, lump.wts[:, 0]))
        for w, node in lump.nodes:
            if type(node) is Ref:
                out = out + w * refs(node.line)
                continue
            v = memo.get(id(node))
            if v is None:
                if type(node) is MaxNode:
                    v = reduce(np.maximum, [self.evaluate(o, get, memo) for o in node.options])
                else:
                    v = C.solve(node.setup, {t: self.evaluate(sub, get, memo)
                                             for t, sub in node.terms})[0]
                memo[id(node)] = v
            out = out + w * v
        return out
