"""``deduce case solve``: status, solution count, possible answers, the grid when unique.

``solve_case(case)`` returns a ``SolveResult`` whose ``to_json()`` is the spec's object:
``{"status": "unique"|"multiple", "solutions": n, "answers": {question text: {"possible":
[...]}}, "grid": [rows in key order]}`` with ``"solutions_at_least": true`` when ``n`` is a
lower bound (past ``LIMIT`` solutions in some independent part; a count that would need
more than ``counting.COUNT_EFFORT`` solver propagations below ``LIMIT`` is refused, exit 2)
and ``grid`` only when the grid (every category's item in every row) is the same in every
solution. Contradictory
notes raise ``CaseContradiction`` (exit 3) naming a minimal conflicting set of notes;
its JSON also carries ``"status": "none"`` and ``"solutions": 0``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deduce.core.errors import ContradictionError
from deduce.models.casenotes.format import Case
from deduce.models.casenotes.model import CaseModel
from deduce.models.casenotes.schema import Value

#: Solutions are counted exactly up to at least this many.
LIMIT = 10_000


class CaseContradiction(ContradictionError):
    """No solution fits the notes; ``conflict`` is a minimal set of note indices."""

    def __init__(self, case: Case, conflict: list[int]):
        self.case = case
        lines = "\n".join("  " + case.notes[i].describe() for i in conflict)
        super().__init__(f"{case.path}: the notes cannot all hold; a minimal conflicting set "
                         f"({len(conflict)} note{'s' if len(conflict) != 1 else ''}):\n{lines}",
                         conflict)

    def to_json(self) -> dict:
        return {"status": "none", "solutions": 0, **super().to_json(),
                "notes": [{"index": i, "source": self.case.notes[i].source,
                           "text": self.case.notes[i].text, "rule": self.case.notes[i].rule}
                          for i in self.conflict]}


def consistent_model(case: Case) -> CaseModel:
    """The case's model; ``CaseContradiction`` if the notes cannot all hold."""
    model = CaseModel(case)
    if not model.consistent():
        conflict = model.minimal_conflict()
        model.close()
        raise CaseContradiction(case, conflict)
    return model


def possible_answers(model: CaseModel) -> list[list[Value]]:
    """Per question (file order), every answer some solution gives, in domain order."""
    base = model.assumptions()
    out = []
    for lits in model.answer_lits:
        found = model.possible(lits, base)
        out.append([v for v in lits if v in found])
    return out


@dataclass
class SolveResult:
    case: Case
    solutions: int
    exact: bool
    answers: list[list[Value]]
    grid: list[dict] | None
    #: per cell (``model.cells`` order): the values some solution gives it
    cells: list[list[Value]] = field(default_factory=list)
    cell_names: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return "unique" if self.solutions == 1 and self.exact else "multiple"

    def to_json(self) -> dict:
        out: dict = {"status": self.status, "solutions": self.solutions}
        if not self.exact:
            out["solutions_at_least"] = True
        out["answers"] = {q.text: {"possible": a} for q, a in zip(self.case.questions, self.answers)}
        if self.grid is not None:
            out["grid"] = self.grid
        return out


def solve_case(case: Case, cells: bool = False, limit: int = LIMIT) -> SolveResult:
    """Solve ``case``; with ``cells``, also every cell's possible values (for the grid view)."""
    model = consistent_model(case)
    try:
        count, exact = model.count_solutions(limit=limit)
        answers = possible_answers(model)
        base = model.assumptions()
        first = model.witness(base)
        grid_cells = [k for k, c in enumerate(model.cells) if c.kind == "grid"]
        grid = None
        if model.another(first, base, grid_cells) is None:
            grid = model.solution_json(first)["grid"]
        result = SolveResult(case, count, exact, answers, grid)
        if cells:
            for cell in model.cells:
                found = model.possible(dict(zip(cell.values, cell.lits)), base)
                result.cells.append([v for v in cell.values if v in found])
                result.cell_names.append(cell.name)
        return result
    finally:
        model.close()
