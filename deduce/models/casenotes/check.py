"""``deduce case check``: the setter's checks of a case.

``check_case(case)`` returns a ``CheckReport``; its JSON (``to_json``):

``{"unique": bool, "solutions": n, "solution_matches": bool | null,
"solution_is_a_solution": bool | null, "redundant_notes": [i, ...], "minimal_sources":
[source, ...] | null}``, plus

- ``"solutions_at_least": true`` when ``n`` is a lower bound;
- when not unique: ``"witnesses"``: two complete solutions (as in ``why``), and
  ``"differences"``: ``[{"cell": "room(hour[7])", "values": [first, second]}]``, every
  cell where they differ, named in the rule language (feed it to ``why``);
- when ``[solution]`` is given and some entry is not forced: ``"solution_mismatches"``:
  ``[{"cell": ..., "expected": v, "possible": [...]}]``. ``solution_matches`` is true when
  every solution agrees with every entry of ``[solution]``, null when there is none;
  ``solution_is_a_solution`` is true when some solution agrees with every entry (with
  several solutions: ``[solution]`` is one of them), null when there is none;
- ``"minimal_sources_reason"`` when ``minimal_sources`` is null (the notes do not fix every
  answer);
- ``"difficulty"`` (unless ``profile=False``): the difficulty profile of the step-wise
  explanation (``deduce case explain``, ``explain.Explanation.profile``): ``{"steps": n,
  "hardest_cost": c, "multi_note_steps": k, "total_cost": t, "complete": bool}`` -- the
  number of steps, the cost of the hardest one (100 per note, 60 per axiom kind, 1 per
  earlier step cited), how many steps need two notes or more, the sum of the costs, and
  whether the steps fix the whole solution (false when the notes leave cells open; the
  profile then covers what does follow).

Redundant notes: each note that the other notes (with the axioms) imply; two notes that
imply each other are both listed, so drop them one at a time.

Minimal sources: the smallest set of note sources (file order) whose notes, with the notes
that have no source (known from the start), fix every question's answer (with no
questions: the whole solution). Found by implicit hitting sets: a minimum hitting set (CP-SAT)
of the correction sets found so far is tested; if its notes still allow another answer,
it is grown greedily to a maximal set that does, whose complement is a new correction set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from deduce.models.casenotes.format import Case
from deduce.models.casenotes.model import LIMIT, CaseModel, consistent_model, possible_answers
from deduce.models.casenotes.schema import Value


@dataclass
class CheckReport:
    solutions: int
    exact: bool
    witnesses: list[dict] = field(default_factory=list)
    differences: list[dict] = field(default_factory=list)
    solution_matches: bool | None = None
    solution_is_a_solution: bool | None = None
    solution_mismatches: list[dict] = field(default_factory=list)
    redundant_notes: list[int] = field(default_factory=list)
    minimal_sources: list[str] | None = None
    minimal_sources_reason: str | None = None
    difficulty: dict | None = None

    @property
    def unique(self) -> bool:
        return self.solutions == 1 and self.exact

    def to_json(self) -> dict:
        out: dict = {"unique": self.unique, "solutions": self.solutions}
        if not self.exact:
            out["solutions_at_least"] = True
        if not self.unique:
            out["witnesses"] = self.witnesses
            out["differences"] = self.differences
        out["solution_matches"] = self.solution_matches
        out["solution_is_a_solution"] = self.solution_is_a_solution
        if self.solution_mismatches:
            out["solution_mismatches"] = self.solution_mismatches
        out["redundant_notes"] = self.redundant_notes
        out["minimal_sources"] = self.minimal_sources
        if self.minimal_sources_reason:
            out["minimal_sources_reason"] = self.minimal_sources_reason
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        return out


def check_case(case: Case, limit: int = LIMIT, profile: bool = True) -> CheckReport:
    """Every setter check of ``case`` (``CaseContradiction`` if the notes conflict); with
    ``profile``, also the explanation's difficulty profile."""
    report = _checks(case, limit)
    if profile:
        from deduce.models.casenotes.explain import explain_case

        report.difficulty = explain_case(case).profile()
    return report


def _checks(case: Case, limit: int) -> CheckReport:
    model = consistent_model(case)
    try:
        count, exact = model.count_solutions(limit=limit)
        report = CheckReport(count, exact)
        base = model.assumptions()
        if not report.unique:
            first = model.witness(base)
            second = model.another(first, base)
            report.witnesses = [model.solution_json(first), model.solution_json(second)]
            report.differences = [{"cell": c.name, "values": [a, b]}
                                  for c, a, b in zip(model.cells, first, second) if a != b]
        if case.solution:
            report.solution_mismatches = solution_mismatches(model, case.solution)
            report.solution_matches = not report.solution_mismatches
            report.solution_is_a_solution = is_a_solution(model, case.solution)
        report.redundant_notes = redundant_notes(model)
        report.minimal_sources, report.minimal_sources_reason = minimal_sources(model)
        return report
    finally:
        model.close()


def solution_cells(model: CaseModel, solution: dict) -> list[tuple[int, Value]]:
    """``[solution]`` as (cell index, expected value) pairs."""
    index = {c.key: k for k, c in enumerate(model.cells)}
    s = model.s
    out = []
    for key, value in solution.items():
        if key in s.unknowns:
            out.append((index[(key,)], value))
        elif key in s.categories:
            out += [(index[(r, key)], v) for r, v in enumerate(value)]
        else:
            out += [(index[(key, i)], v) for i, v in enumerate(value)]
    return out


def is_a_solution(model: CaseModel, solution: dict) -> bool:
    """Whether some solution of the notes agrees with every entry of ``[solution]``."""
    lits = [model.cells[k].lits[model.cells[k].values.index(v)]
            for k, v in solution_cells(model, solution)]
    return model.solve(model.assumptions() + lits)


def solution_mismatches(model: CaseModel, solution: dict) -> list[dict]:
    """The ``[solution]`` entries that some solution of the notes contradicts."""
    base = model.assumptions()
    out = []
    for k, expected in solution_cells(model, solution):
        cell = model.cells[k]
        found = model.possible(dict(zip(cell.values, cell.lits)), base)
        if found != {expected}:
            out.append({"cell": cell.name, "expected": expected,
                        "possible": [v for v in cell.values if v in found]})
    return out


def redundant_notes(model: CaseModel) -> list[int]:
    """Notes implied by all the other notes (with every axiom)."""
    out = []
    for i in model.note_lits:
        others = [j for j in model.note_lits if j != i]
        if not model.solve(model.assumptions(others) + [-model.note_holds[i]]):
            out.append(i)
    return out


def minimal_sources(model: CaseModel, known: Iterable[int] = ()) -> tuple[list[str] | None, str | None]:
    """(smallest set of sources fixing every answer, None) or (None, why there is none).

    ``known``: notes already read (a player's so far); like notes without a source they are
    free, so the set is what is still to visit.
    """
    case = model.case
    base = model.assumptions()
    if case.questions:
        answers = possible_answers(model)
        open_q = [q.text for q, a in zip(case.questions, answers) if len(a) != 1]
        if open_q:
            return None, "not every answer is fixed by all the notes: " + "; ".join(open_q)
        targets = [lits[a[0]] for lits, a in zip(model.answer_lits, answers)]
    else:
        first = model.witness(base)
        if model.another(first, base) is not None:
            return None, "the notes allow more than one solution"
        targets = model.cell_lits(first)
    differs = model.b.or_([-t for t in targets])
    sources = case.sources
    by_source = [[n.index for n in case.notes if n.source == src] for src in sources]
    free = sorted({n.index for n in case.notes if n.source is None} | set(known))

    def open_with(chosen: set[int]) -> bool:
        notes = free + [i for k in sorted(chosen) for i in by_source[k]]
        return model.solve(model.assumptions(notes) + [differs])

    if not open_with(set()):
        return [], None
    correction_sets: list[set[int]] = []
    while True:
        chosen = _min_hitting_set(len(sources), correction_sets)
        if not open_with(chosen):
            return [sources[k] for k in sorted(chosen)], None
        grown = set(chosen)
        witness = model.last_model
        for k in range(len(sources)):
            if k in grown:
                continue
            if all(model.b.value(witness, model.note_holds[i]) for i in by_source[k]):
                grown.add(k)
            elif open_with(grown | {k}):
                grown.add(k)
                witness = model.last_model
        correction_sets.append(set(range(len(sources))) - grown)


def _min_hitting_set(n: int, sets: list[set[int]]) -> set[int]:
    """A smallest subset of ``range(n)`` meeting every set (earlier indices preferred)."""
    if not sets:
        return set()
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = [m.new_bool_var(f"s{k}") for k in range(n)]
    for s in sets:
        m.add_bool_or([x[k] for k in s])
    m.minimize(sum(x) * (n * n + 1) + sum(k * x[k] for k in range(n)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise AssertionError("hitting set problem without solution")
    return {k for k in range(n) if solver.value(x[k])}
