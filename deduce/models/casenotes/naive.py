"""The naive referee of the solver: every complete solution of a case counted by plain
enumeration (``itertools``), with no SAT at all. Exponential: for tests on small cases and
for the benchmark's baseline, never for users.

Grids first (each non-key category a permutation of the key's rows), then attribute
values, then unknowns, each level checking the notes that only use what is fixed so far
(``evaluate.holds``).
"""

from __future__ import annotations

import itertools
from typing import Iterable

from deduce.models.casenotes import language as L
from deduce.models.casenotes.evaluate import World, holds
from deduce.models.casenotes.format import Case


def brute_force(case: Case, notes: Iterable[int] | None = None,
                max_grids: int | None = None) -> tuple[int, int]:
    """(complete solutions found, grids visited) with ``notes`` (indices; default all)
    over the first ``max_grids`` grids (all if None)."""
    s = case.schema
    exprs = [case.notes[i].expr for i in (range(len(case.notes)) if notes is None else notes)]
    level = [2 if L.uses(e, (L.URow, L.UFree)) else 1 if L.uses(e, L.AttrOf) else 0
             for e in exprs]
    grid_notes = [e for e, lv in zip(exprs, level) if lv == 0]
    attr_notes = [e for e, lv in zip(exprs, level) if lv == 1]
    unk_notes = [e for e, lv in zip(exprs, level) if lv == 2]
    n, cats = s.size, s.cat_names
    perms = list(itertools.permutations(range(n)))
    attr_space = list(itertools.product(*[itertools.product(a.values, repeat=n)
                                          for a in s.attributes.values()]))
    unk_space = list(itertools.product(*[range(n) if u.category else u.values
                                         for u in s.unknowns.values()]))
    dummy_attrs = {a: (spec.values[0],) * n for a, spec in s.attributes.items()}
    dummy_unks = {u: 0 if spec.category else spec.values[0] for u, spec in s.unknowns.items()}
    found = visited = 0
    for grid in itertools.islice(itertools.product(perms, repeat=len(cats) - 1), max_grids):
        visited += 1
        rows = {cats[0]: tuple(range(n)), **dict(zip(cats[1:], grid))}
        if not all(holds(e, World(s, rows, dummy_attrs, dummy_unks)) for e in grid_notes):
            continue
        for attrs in attr_space:
            wa = World(s, rows, dict(zip(s.attributes, attrs)), dummy_unks)
            if not all(holds(e, wa) for e in attr_notes):
                continue
            for unks in unk_space:
                wu = World(s, rows, wa.attrs, dict(zip(s.unknowns, unks)))
                found += all(holds(e, wu) for e in unk_notes)
    return found, visited
