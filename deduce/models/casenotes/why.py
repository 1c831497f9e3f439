"""``deduce case why``: does a rule hold in every solution, in none, or in some?

``why_rule(case, text)`` parses ``text`` as a rule (errors name ``RULE`` and the column)
and returns a ``WhyResult``. JSON (``to_json``):

- ``{"rule": text, "status": "forced", "notes": [i, ...], "note_texts": [...],
  "axioms": [...]}``: the rule holds in every solution; the notes (indices from 0, file
  order) and grid axiom kinds (``bijection``, ``transitivity``, ``one-value``) form a
  subset-minimal set that forces it (dropping any one of them no longer does).
- ``"status": "impossible"``, same keys: the rule holds in no solution; the set rules it out.
- ``{"rule": text, "status": "open", "holds_in": solution, "fails_in": solution}``: two
  complete solutions, ``{"grid": [...], "attributes": {...}, "unknowns": {...}}``.

Contradictory notes raise ``CaseContradiction`` (exit 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deduce.models.casenotes.format import Case
from deduce.models.casenotes.model import AXIOMS
from deduce.models.casenotes.rules import parse_rule
from deduce.models.casenotes.solve import consistent_model


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


def why_rule(case: Case, text: str) -> WhyResult:
    """Whether the rule ``text`` is forced, impossible or open under ``case``'s notes."""
    expr = parse_rule(text, case.schema, where="RULE")
    model = consistent_model(case)
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
        notes, axioms = model.split(model.minimal_subset(hard, soft))
        return WhyResult(case, text, status, notes=notes, axioms=axioms)
    finally:
        model.close()
