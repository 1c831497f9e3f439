"""The paragraph-reference graph of a campaign (networkx) and the checks made on it.

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


def build_graph(data):
    """The reference ``DiGraph`` of ``data`` (a ``data.Data``)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_node("campaign")
    c = data.campaign
    for key in ("baker_street", "escape", "end_of_case", "start", "inspector"):
        if getattr(c, key):
            g.add_edge("campaign", getattr(c, key), field=key, kind="entry")
    for i, pid in enumerate(c.equipment):
        g.add_edge("campaign", pid, field=f"equipment[{i}]", kind="entry")
    for aid, adv in data.adventures.items():
        g.add_edge("campaign", aid, field="adventures", kind="entry")
        for line, ids in adv.lines:
            for i, pid in enumerate(ids):
                g.add_edge(aid, pid, field=f"{line}[{i}]", kind="line")
        for j, s in enumerate(adv.special):
            for target, path, kind in effect_refs(s.effects, f"special[{j}].effects"):
                g.add_edge(aid, target, field=path, kind=kind)
    for vid, v in data.villains.items():
        g.add_node(vid)
        for target, path, kind in _villain_refs(v):
            g.add_edge(vid, target, field=path, kind=kind)
    for pid, p in data.paragraphs.items():
        g.add_node(pid)
        for target, path, kind in effect_refs(p.effects, "effects"):
            g.add_edge(pid, target, field=path, kind=kind)
    return g


def check_graph(data):
    """``(graph, warnings)``; ``InputError`` on a ``goto`` cycle (naming paragraph and field)."""
    import networkx as nx

    g = build_graph(data)
    gotos = nx.DiGraph([(u, v, d) for u, v, d in g.edges(data=True) if d["kind"] == "goto"])
    try:
        cycle = nx.find_cycle(gotos)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle:
        u, v = cycle[0][0], cycle[0][1]
        loop = " -> ".join([e[0] for e in cycle] + [cycle[0][0]])
        raise InputError(f"field '{g.edges[u, v]['field']}': goto cycle {loop} (a paragraph "
                         f"would be read for ever)", where=f"{_source(data, u)}: {u}",
                         field=g.edges[u, v]["field"])
    reachable = nx.descendants(g, "campaign")
    warnings = [f"{_source(data, n)}: {n}: unreachable (no campaign entry, Adventure line or "
                f"effect leads to it)"
                for n in sorted(set(g.nodes) - reachable - {"campaign"})]
    return g, warnings


def _source(data, node: str) -> str:
    for table in (data.paragraphs, data.villains, data.adventures):
        if node in table:
            return table[node].source
    return "campaign"
