"""Counting models projected on some variables, one independent part at a time.

``count_projected`` fixes the literals of ``true`` and the variables of ``false``, drops
the clauses that become satisfied and the definitions of gates (``gate_clauses``) that no
remaining constraint uses, splits the rest into connected components (variables
linked through clauses) and enumerates each component's projected models with blocking
clauses, up to ``limit`` per component. The count is the product over components, times 2
per projected variable that no clause mentions. It is exact when no component reached
``limit`` and the enumeration stayed within ``effort``: the solver propagations all the
components may use together (``COUNT_EFFORT`` by default; a deterministic measure of the
time, about a few million a second). Past it, each component's count so far is kept and the
product is a lower bound.

The caller guarantees that the whole formula is satisfiable under ``true``/``false``
(so is every component) and that the variables outside the projection are functions of
the projected ones (Tseitin gates), so projected models are the solutions.

>>> count_projected([[1, 2], [-1, -2], [3, 4]], {5}, set(), [1, 2, 3, 4], 100, "minisat22", {})
(6, True)
"""

from __future__ import annotations

from pysat.solvers import Solver

#: Solver propagations one count may use (about 10-20 s): past it the count is a lower bound
#: (``CaseModel.count_solutions`` refuses one below its exact range).
COUNT_EFFORT = 50_000_000


def count_projected(clauses: list[list[int]], true: set[int], false: set[int],
                    projection: list[int], limit: int, solver_name: str,
                    gate_clauses: dict[int, list[int]],
                    effort: int | None = None) -> tuple[int, bool]:
    """(count, exact) of the models of ``clauses`` projected on the ``projection`` variables.

    ``gate_clauses`` maps each gate variable to the indices of its defining clauses;
    ``effort``: the propagations the enumeration may use (default ``COUNT_EFFORT``).
    """
    defining = {k for ks in gate_clauses.values() for k in ks}

    def reduce(cl: list[int]) -> list[int] | None:
        if any(lit in true or -lit in false for lit in cl):
            return None
        return [lit for lit in cl if not (-lit in true or lit in false)]

    reduced: list[list[int]] = []
    todo: list[int] = []
    for k, cl in enumerate(clauses):
        if k in defining:
            continue
        kept = reduce(cl)
        if kept is None:
            continue
        if not kept:
            return 0, True
        reduced.append(kept)
        todo.extend(abs(lit) for lit in kept if abs(lit) in gate_clauses)
    used: set[int] = set()
    while todo:
        g = todo.pop()
        if g in used:
            continue
        used.add(g)
        for k in gate_clauses[g]:
            kept = reduce(clauses[k])
            if kept is None:
                continue
            if not kept:
                return 0, True
            reduced.append(kept)
            todo.extend(abs(lit) for lit in kept if abs(lit) in gate_clauses and abs(lit) not in used)
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for cl in reduced:
        first = find(abs(cl[0]))
        for lit in cl[1:]:
            other = find(abs(lit))
            if other != first:
                parent[other] = first
    groups: dict[int, list[list[int]]] = {}
    for cl in reduced:
        groups.setdefault(find(abs(cl[0])), []).append(cl)
    proj_by_root: dict[int, list[int]] = {}
    total, exact = 1, True
    for v in sorted({abs(lit) for lit in projection}):
        if v in parent:
            proj_by_root.setdefault(find(v), []).append(v)
        else:
            total *= 2
    left = [COUNT_EFFORT if effort is None else effort]
    for root, pv in proj_by_root.items():
        count, complete = _enumerate(groups[root], pv, limit, solver_name, left)
        total *= count
        exact = exact and complete
    return total, exact


def _enumerate(clauses: list[list[int]], pv: list[int], limit: int, solver_name: str,
               left: list[int]) -> tuple[int, bool]:
    """(count, exact) of one satisfiable component, spending from ``left[0]`` propagations
    (a component's first model is always found: the count is at least 1)."""
    with Solver(name=solver_name, bootstrap_with=clauses) as s:

        def more() -> bool | None:
            """A next model (True), none (False), or the effort is spent (None)."""
            before = s.accum_stats().get("propagations", 0)
            s.prop_budget(max(left[0], 1))
            found = s.solve_limited()
            left[0] -= s.accum_stats().get("propagations", 0) - before
            return found

        count = 0
        while count < limit:
            found = more() if count else s.solve()
            if found is None:
                return count, False
            if not found:
                return count, True
            model = s.get_model()
            s.add_clause([-v if model[v - 1] > 0 else v for v in pv])
            count += 1
        return count, more() is False
