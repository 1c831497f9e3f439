"""What a person asks of a case: what is possible, what is forced, and why.

Every question here is asked of a set of notes: all of them (``deduce case solve``, ``why``)
or those a player has read so far (``deduce case table``). It is the one place these
questions are answered; ``check`` (the setter's report) and ``explain`` (the step-wise
derivation) build on the same model.

- ``solve_case(case)`` -> ``SolveResult``, the spec's ``{"status": "unique"|"multiple",
  "solutions": n, "answers": {question text: {"possible": [...]}}, "grid": [rows in key
  order]}`` with ``"solutions_at_least": true`` when ``n`` is a lower bound (past
  ``model.LIMIT`` solutions in some independent part; a count that would need more than
  ``counting.COUNT_EFFORT`` solver propagations below ``LIMIT`` is refused, exit 2) and
  ``grid`` only when the grid (every category's item in every row) is the same in every
  solution. Contradictory notes raise ``CaseContradiction`` (exit 3) naming a minimal
  conflicting set of notes; its JSON also carries ``"status": "none"`` and
  ``"solutions": 0``.
- ``why_rule(case, text, notes=None)`` -> ``WhyResult``: whether the rule ``text`` holds in
  every solution of the notes, in none, or in some (errors name ``RULE`` and the column).
  JSON: ``{"rule": text, "status": "forced", "notes": [i, ...], "note_texts": [...],
  "axioms": [...]}`` (the rule holds in every solution; the notes, indices from 0 in file
  order, and grid axiom kinds ``bijection``, ``transitivity``, ``one-value`` form a
  subset-minimal set that forces it: dropping any one of them no longer does);
  ``"status": "impossible"``, same keys (it holds in no solution; the set rules it out); or
  ``{"rule": text, "status": "open", "holds_in": solution, "fails_in": solution}``, two
  complete solutions ``{"grid": [...], "attributes": {...}, "unknowns": {...}}``.
- ``read_notes(oracle, notes)`` -> ``Reading``: what the notes a player has read allow
  (every question's possible answers, every cell's possible values, whether 221B Baker
  Street can be visited with certainty), from a ``knowledge.CaseOracle``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from deduce.models.casenotes.format import Case
from deduce.models.casenotes.knowledge import CaseOracle
from deduce.models.casenotes.language import parse_rule
from deduce.models.casenotes.model import AXIOMS, LIMIT, consistent_model, possible_answers
from deduce.models.casenotes.schema import Value


# ---------------------------------------------------------------------------------- solve
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


# ---------------------------------------------------------------------------------- why
@dataclass
class WhyResult:
    case: Case
    rule: str
    status: str  # "forced", "impossible" or "open"
    notes: list[int] = field(default_factory=list)
    axioms: list[str] = field(default_factory=list)
    holds_in: dict | None = None
    fails_in: dict | None = None

    def to_json(self) -> dict:
        out: dict = {"rule": self.rule, "status": self.status}
        if self.status == "open":
            out["holds_in"] = self.holds_in
            out["fails_in"] = self.fails_in
        else:
            out["notes"] = self.notes
            out["note_texts"] = [self.case.notes[i].text for i in self.notes]
            out["axioms"] = self.axioms
        return out


def why_rule(case: Case, text: str, notes: Iterable[int] | None = None) -> WhyResult:
    """Whether the rule ``text`` is forced, impossible or open under ``case``'s notes (or
    the subset ``notes``); ``CaseContradiction`` when those notes cannot all hold."""
    expr = parse_rule(text, case.schema, where="RULE")
    model = consistent_model(case, notes)
    try:
        q = model.compile_rule(expr, where="RULE", src=text)
        base = model.assumptions()
        holds = model.witness(base + [q])
        fails = model.witness(base + [-q])
        if holds is not None and fails is not None:
            return WhyResult(case, text, "open", holds_in=model.solution_json(holds),
                             fails_in=model.solution_json(fails))
        status, hard = ("forced", [-q]) if fails is None else ("impossible", [q])
        soft = [model.axiom_lits[k] for k in AXIOMS] + [model.note_lits[i] for i in model.note_lits]
        found, axioms = model.split(model.minimal_subset(hard, soft))
        return WhyResult(case, text, status, notes=found, axioms=axioms)
    finally:
        model.close()


# ---------------------------------------------------------------------------------- notes read
@dataclass(frozen=True)
class Reading:
    """What the notes read so far allow.

    ``notes``: in reading order; ``answers``: per question (file order) the possible
    answers; ``cells``: per cell of ``oracle.model.cells`` the possible values.
    """

    case: Case
    notes: tuple[int, ...]
    answers: tuple[tuple[Value, ...], ...]
    cells: tuple[tuple[Value, ...], ...]

    @property
    def ready(self) -> bool:
        """Whether every answer (with no questions: every cell) is fixed: time for 221B."""
        return all(len(v) == 1 for v in (self.answers if self.case.questions else self.cells))

    def to_json(self) -> dict:
        """``{"notes": [i, ...], "answers": {question: [possible, ...]}, "ready": bool}``."""
        return {"notes": list(self.notes),
                "answers": {q.text: list(a) for q, a in zip(self.case.questions, self.answers)},
                "ready": self.ready}


def read_notes(oracle: CaseOracle, notes: Iterable[int]) -> Reading:
    """What ``notes`` (a player's, in reading order; they must hold together) allow."""
    order = tuple(notes)
    known = frozenset(order)
    answers = oracle.possible(known) if oracle.case.questions else ()
    return Reading(oracle.case, order, answers, oracle.cell_values(known))
