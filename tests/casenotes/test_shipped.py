"""The shipped cases: known solutions, setter checks, and counts with notes removed
against an itertools brute force (evaluate.py on every candidate, no solver)."""

from __future__ import annotations

import itertools

import pytest

from deduce.models.casenotes.check import check_case
from deduce.models.casenotes.format import load_case, shipped_cases
from deduce.models.casenotes.model import CaseModel
from deduce.models.casenotes.naive import brute_force
from deduce.models.casenotes.advice import solve_case

NAMES = [p.stem for p in shipped_cases()]


def test_shipped_set():
    assert set(NAMES) >= {"zebra", "lantern-street", "kew-orchid", "half-moon-mews"}
    sizes = {n: (len(load_case(n).schema.categories), load_case(n).schema.size) for n in NAMES}
    assert sum(1 for s in sizes.values() if s == (4, 5)) >= 2
    for name in NAMES:
        c = load_case(name)
        if name != "zebra":
            assert c.schema.attributes and len(c.questions) >= 3 and len(c.sources) >= 5
            assert any(u.values for u in c.schema.unknowns.values())  # a free-list unknown


@pytest.mark.parametrize("name", NAMES)
def test_shipped_cases_are_unique_and_match_their_solution(name):
    report = check_case(load_case(name))
    assert report.unique and report.solutions == 1
    assert report.solution_matches is True


def test_zebra_answers_and_grid():
    r = solve_case(load_case("zebra"))
    assert r.to_json()["answers"] == {"Who drinks water?": {"possible": ["Norwegian"]},
                                      "Who owns the zebra?": {"possible": ["Japanese"]}}
    assert r.grid[4] == {"house": 5, "nationality": "Japanese", "colour": "green",
                         "drink": "coffee", "smoke": "Parliaments", "pet": "zebra"}
    assert [row["nationality"] for row in r.grid] == \
        ["Norwegian", "Ukrainian", "Englishman", "Spaniard", "Japanese"]


def test_case_answers():
    r = solve_case(load_case("lantern-street"))
    assert r.answers == [["Harriet Quill"], [10], ["growler"], ["revenge"], ["coal cellar"]]
    r = solve_case(load_case("kew-orchid"))
    assert r.answers == [["Amos Kettle"], ["Lily House"], ["a rival nursery"], [6], ["watering can"]]
    r = solve_case(load_case("half-moon-mews"))
    assert r.answers == [["Bellerophon"], [3], ["Barnaby Cole"], ["a bookmaker"]]


def brute_force_count(case, notes) -> int:
    return brute_force(case, notes)[0]


@pytest.mark.parametrize("removed", [[0], [1], [4], [0, 5], [2, 3, 8]])
def test_counts_with_notes_removed_match_brute_force(removed):
    case = load_case("half-moon-mews")
    keep = [i for i in range(len(case.notes)) if i not in removed]
    with CaseModel(case) as model:
        count, exact = model.count_solutions(notes=keep)
    assert exact and count == brute_force_count(case, keep)
    assert count > 1


def test_redundant_notes_are_exactly_those_implied():
    case = load_case("half-moon-mews")
    report = check_case(case)
    assert report.redundant_notes == [3]
    with CaseModel(case) as model:
        for i in range(len(case.notes)):
            others = [j for j in range(len(case.notes)) if j != i]
            assert (model.count_solutions(notes=others)[0] == 1) == (i in report.redundant_notes)


@pytest.mark.parametrize("name", ["half-moon-mews", "lantern-street"])
def test_minimal_sources_is_minimum(name):
    case = load_case(name)
    report = check_case(case)
    sources = case.sources
    with CaseModel(case) as model:
        def fixes(chosen) -> bool:
            notes = [n.index for n in case.notes if n.source is None or n.source in chosen]
            base = model.assumptions(notes)
            return all(len(model.possible(lits, base)) == 1 for lits in model.answer_lits)

        assert fixes(set(report.minimal_sources))
        k = len(report.minimal_sources)
        assert not any(fixes(set(c)) for c in itertools.combinations(sources, k - 1))


def test_component_count_equals_plain_enumeration():
    case = load_case("lantern-street")
    with CaseModel(case) as model:
        for keep in ([0, 1, 2, 3, 4, 5, 6], list(range(12)), list(range(3, 15)), list(range(9))):
            count, exact = model.count_solutions(notes=keep)
            plain = sum(1 for _ in model.solutions(model.assumptions(keep), limit=20_000))
            assert exact and count == plain, keep
