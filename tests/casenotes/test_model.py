"""The model API the explanation and self-play layers build on: fact and cell names that
parse back to their own literals, implication checks, and minimal cores."""

from __future__ import annotations

import pytest

from deduce.models.casenotes.format import load_case
from deduce.models.casenotes.model import AXIOMS, CaseModel
from deduce.models.casenotes.language import parse_rule, parse_value
from deduce.models.casenotes.model import CaseContradiction
from deduce.models.casenotes.advice import why_rule
from tests.casenotes.helpers import tiny_case


@pytest.mark.parametrize("name", ["lantern-street", "zebra"])
def test_fact_and_cell_names_parse_back_to_their_literals(name):
    case = load_case(name)
    with CaseModel(case) as model:
        facts = model.facts()
        n, m = case.schema.size, len(case.schema.categories)
        assert len({f.lit for f in facts}) == len(facts) >= m * (m - 1) // 2 * n * n
        for f in facts:
            assert model.compile_rule(parse_rule(f.text, case.schema)) == f.lit, f.text
            assert model.compile_rule(parse_rule(f.negated, case.schema)) == -f.lit, f.negated
        for cell in model.cells:
            lits = model.compile_value(parse_value(cell.name, case.schema))
            assert tuple(lits[v] for v in cell.values) == cell.lits, cell.name


def test_implies_with_notes_axioms_and_facts():
    case = tiny_case(["Ann != pos[2]", "Ann != pos[3]"])
    with CaseModel(case) as model:
        ann1 = model.compile_rule(parse_rule("Ann == pos[1]", case.schema))
        not_ann3 = model.compile_rule(parse_rule("Ann != pos[3]", case.schema))
        assert model.implies([0, 1], AXIOMS, [], ann1)
        assert not model.implies([0], AXIOMS, [], ann1)
        assert model.implies([0], AXIOMS, [not_ann3], ann1)  # an earlier fact stands in for note 1
        assert not model.implies([0, 1], ["transitivity", "one-value"], [], ann1)  # needs bijection


def test_why_core_is_subset_minimal():
    case = load_case("zebra")
    result = why_rule(case, "Japanese == zebra")
    assert result.status == "forced"
    with CaseModel(case) as model:
        q = model.compile_rule(parse_rule("Japanese == zebra", case.schema))
        assert model.implies(result.notes, result.axioms, [], q)
        for i in result.notes:
            assert not model.implies([j for j in result.notes if j != i], result.axioms, [], q)
        for k in result.axioms:
            assert not model.implies(result.notes, [a for a in result.axioms if a != k], [], q)


def test_contradiction_core_is_minimal_and_quotes_notes():
    case = tiny_case(["Ann == cat", "pos(Ann) == 1", "Bob == cat or Cy == cat", "thief == Ann"])
    with pytest.raises(CaseContradiction) as info:
        from deduce.models.casenotes.advice import solve_case
        solve_case(case)
    assert info.value.conflict == [0, 2]
    assert info.value.exit_code == 3
    assert '"Ann == cat"' in str(info.value) or "Ann == cat" in str(info.value)


def test_rule_too_large_is_an_input_error():
    from deduce.core.errors import InputError

    def nested(k: int) -> str:
        body = " and ".join(f"pos(x{i}) < pos(x{i + 1})" for i in range(k - 1))
        return f"sum({body} " + " ".join(f"for x{i} in person" for i in range(k)) + ") > 0"

    for k in (7, 9):  # too much work; too many bindings
        with pytest.raises(InputError, match="note 0: column 1: the rule is too large"):
            CaseModel(tiny_case([nested(k)]))
