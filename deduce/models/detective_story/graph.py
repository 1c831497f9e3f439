"""The paragraph-reference graph of a campaign and the checks made on it (plain Python;
``build_graph`` makes it a networkx ``DiGraph``).

Nodes are the ``"campaign"`` root, Adventure, Villain and Memoirs ids; an edge ``u -> v``
says reading ``u`` can lead to ``v`` (attribute ``field``: where in ``u`` the reference
is; ``kind``: line, goto, join, entry). Every Adventure is a root's child: a later case may
be played in any of them.

- a cycle of ``goto`` edges would make a paragraph read itself for ever: an ``InputError``
  naming the paragraph and the field;
- a paragraph the root cannot reach is never read: a warning naming it.
"""

from __future__ import annotations

from collections.abc import Iterator

from deduce.core.errors import InputError
from deduce.models.detective_story import effects as fx


def effect_refs(effects: fx.Effects, path: str,
                seen: set[int] | None = None) -> Iterator[tuple[str, str, str]]:
    """``(target id, field path, kind)`` of every reference inside ``effects``. Effects are
    shared (``data``: a d6 key over several faces, equal effects anywhere), so each effect
    list is walked once per ``seen`` set (one per entry), its first place named: linear in
    the entry's text however its branches nest."""
    seen = set() if seen is None else seen
    if id(effects) in seen:
        return
    seen.add(id(effects))
    for i, e in enumerate(effects):
        p = f"{path}[{i}]"
        if isinstance(e, fx.Goto):
            yield e.target, f"{p}.goto", "goto"
        elif isinstance(e, fx.Join):
            yield e.character, f"{p}.join", "join"
        elif isinstance(e, (fx.Test, fx.Require)):
            yield from effect_refs(e.passed, f"{p}.pass", seen)
            yield from effect_refs(e.failed, f"{p}.fail", seen)
        elif isinstance(e, fx.D6):
            for faces, sub in _face_groups(e.faces):
                yield from effect_refs(sub, f"{p}.d6.{faces}", seen)
        elif isinstance(e, fx.Combat):
            yield from effect_refs(e.won, f"{p}.win", seen)
            yield from effect_refs(e.lost, f"{p}.lose", seen)


def _face_groups(faces: tuple) -> Iterator[tuple[str, fx.Effects]]:
    """``("1-3", effects), ("4", effects), ...``: runs of faces sharing one effects list."""
    start = 0
    for f in range(1, 7):
        if f == 6 or faces[f] is not faces[start]:
            yield (f"{start + 1}-{f}" if f - start > 1 else f"{f}"), faces[start]
            start = f


def _villain_refs(v) -> Iterator[tuple[str, str, str]]:
    yield from effect_refs(v.option1[1], "option1.effects")
    yield from effect_refs(v.option2[1], "option2.effects")
    yield from effect_refs(v.option3.escape, "option3.escape")
    for choice, effects in v.option3.rewards:
        yield from effect_refs(effects, f"option3.rewards.{choice}")


def reference_edges(data) -> tuple:
    """``(nodes, edges)`` of ``data``'s reference graph (a ``data.Data``): every node, and
    every edge as ``(u, v, field, kind)`` in the order found (a later edge between the same
    two nodes replaces an earlier one's attributes, as in a ``DiGraph``)."""
    nodes: dict = {"campaign": None}
    edges: list = []

    def edge(u, v, field_, kind):
        nodes.setdefault(u)
        nodes.setdefault(v)
        edges.append((u, v, field_, kind))

    c = data.campaign
    for key in ("baker_street", "escape", "end_of_case", "start", "inspector"):
        if getattr(c, key):
            edge("campaign", getattr(c, key), key, "entry")
    for i, pid in enumerate(c.equipment):
        edge("campaign", pid, f"equipment[{i}]", "entry")
    for aid, adv in data.adventures.items():
        edge("campaign", aid, "adventures", "entry")
        for line, ids in adv.lines:
            for i, pid in enumerate(ids):
                edge(aid, pid, f"{line}[{i}]", "line")
        for j, s in enumerate(adv.special):
            for target, path, kind in effect_refs(s.effects, f"special[{j}].effects"):
                edge(aid, target, path, kind)
    for vid, v in data.villains.items():
        nodes.setdefault(vid)
        for target, path, kind in _villain_refs(v):
            edge(vid, target, path, kind)
    for pid, p in data.paragraphs.items():
        nodes.setdefault(pid)
        for target, path, kind in effect_refs(p.effects, "effects"):
            edge(pid, target, path, kind)
    return list(nodes), edges


def build_graph(data):
    """The reference ``DiGraph`` of ``data`` (a ``data.Data``; networkx)."""
    import networkx as nx

    nodes, edges = reference_edges(data)
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    for u, v, field_, kind in edges:
        g.add_edge(u, v, field=field_, kind=kind)
    return g


def _goto_cycle(edges: list) -> list | None:
    """The nodes of a cycle of ``goto`` edges (its first node repeated at the end), or
    None: a depth-first search, iterative (a long chain of gotos is no deep recursion)."""
    succ: dict = {}
    for u, v, _, kind in edges:
        if kind == "goto":
            succ.setdefault(u, {})[v] = None
            succ.setdefault(v, {})
    done: set = set()
    for root in succ:
        if root in done:
            continue
        path, on_path, stack = [root], {root}, [iter(succ[root])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                node = path.pop()
                on_path.discard(node)
                done.add(node)
                stack.pop()
                continue
            if nxt in on_path:
                return path[path.index(nxt):] + [nxt]
            if nxt not in done:
                path.append(nxt)
                on_path.add(nxt)
                stack.append(iter(succ[nxt]))
    return None


def check_graph(data):
    """``Data.warnings`` of ``data``; ``InputError`` on a ``goto`` cycle (naming paragraph
    and field). Plain Python: loading a campaign needs no networkx (``build_graph`` makes
    the ``DiGraph`` when ``Data.graph`` is first asked)."""
    nodes, edges = reference_edges(data)
    cycle = _goto_cycle(edges)
    if cycle:
        u, v = cycle[0], cycle[1]
        field_ = [f for a, b, f, _ in edges if (a, b) == (u, v)][-1]  # as a DiGraph keeps
        loop = " -> ".join(cycle)
        raise InputError(f"field '{field_}': goto cycle {loop} (a paragraph would be read "
                         f"for ever)", where=f"{_source(data, u)}: {u}", field=field_)
    succ: dict = {}
    for u, v, _, _ in edges:
        succ.setdefault(u, []).append(v)
    reachable, todo = set(), ["campaign"]
    while todo:
        for v in succ.get(todo.pop(), ()):
            if v not in reachable:
                reachable.add(v)
                todo.append(v)
    return [f"{_source(data, n)}: {n}: unreachable (no campaign entry, Adventure line or "
            f"effect leads to it)"
            for n in sorted(set(nodes) - reachable - {"campaign"})]


def _source(data, node: str) -> str:
    for table in (data.paragraphs, data.villains, data.adventures):
        if node in table:
            return table[node].source
    return "campaign"
