"""``deduce case explain``: every step follows from what it cites and from nothing less, the
steps derive exactly what the notes force, costs follow the spec's formula, and the profile
and CLI carry it.

Steps are checked through their *texts* (the JSON a user sees), parsed back with the rule
parser: on TINY cases by an itertools brute force over every complete solution
(``evaluate.worlds`` + ``evaluate.holds``, no solver), on the shipped cases by a fresh model
(a new solver that never saw the explanation's clauses).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.cli.main import cli
from deduce.models.casenotes.check import check_case
from deduce.models.casenotes.evaluate import holds, worlds
from deduce.models.casenotes.explain import explain_case, explain_cost
from deduce.models.casenotes.format import load_case
from deduce.models.casenotes.model import AXIOMS, CaseModel
from deduce.models.casenotes.language import parse_rule
from deduce.models.casenotes.model import CaseContradiction
from tests.casenotes.helpers import tiny_case

#: Rules over the TINY grid for random cases (each alone is consistent).
POOL = [
    "Ann == pos[1]", "Bob != pos[3]", "pos(Cy) > pos(Bob)", "Ann == cat", "dog != pos[1]",
    "pos(eel) == pos(Ann) + 1", "hat(Ann) == 'red'", "hat(pos[2]) != hat(pos[3])",
    "thief == dog", "motive == 'envy'", "implies(motive == 'debt', thief == Cy)",
    "one_of(Bob, [cat, eel])", "sum(hat(x) == 'red' for x in person) == 1",
    "pairs([Ann, Bob], [dog, pos[3]])", "hat(thief) == 'blue'", "Cy != eel",
]


# ---------------------------------------------------------------------------------- referees
class BruteForce:
    """Truth sets (indices of complete solutions where a rule holds) over a case's grid."""

    def __init__(self, case):
        self.schema = case.schema
        self.worlds = list(worlds(case.schema))
        self.all = frozenset(range(len(self.worlds)))
        self._sets: dict[str, frozenset] = {}

    def sat(self, text: str) -> frozenset:
        if text not in self._sets:
            expr = parse_rule(text, self.schema)
            self._sets[text] = frozenset(k for k, w in enumerate(self.worlds) if holds(expr, w))
        return self._sets[text]

    def models(self, texts) -> frozenset:
        out = self.all
        for t in texts:
            out &= self.sat(t)
        return out

    def follows(self, premises, conclusions) -> bool:
        return self.models(premises) <= self.models(conclusions)


def premises(case, e, notes, facts):
    """The texts a step cites: its notes' rules and every fact of the cited steps."""
    return [case.notes[i].rule for i in notes] + [t for k in facts for t in e["steps"][k]["derived"]]


def check_steps_brute_force(case, e) -> None:
    """Each step follows from its notes and cited steps (brute force: every complete solution
    where they hold has the derived facts) and from nothing less (fresh solver, which can
    switch axiom kinds off; every complete solution obeys all of them, so the brute force
    judges minimality only for steps that cite every axiom kind)."""
    bf = BruteForce(case)
    every = set(useful_axioms_of(case))
    for k, step in enumerate(e["steps"]):
        assert all(j < k for j in step["facts"])
        assert bf.follows(premises(case, e, step["notes"], step["facts"]), step["derived"])
        if set(step["axioms"]) != every:
            continue
        for i in step["notes"]:
            rest = [x for x in step["notes"] if x != i]
            assert not bf.follows(premises(case, e, rest, step["facts"]), step["derived"])
        for j in step["facts"]:
            rest = [x for x in step["facts"] if x != j]
            assert not bf.follows(premises(case, e, step["notes"], rest), step["derived"])
    check_steps_fresh_solver(case, e)


def useful_axioms_of(case) -> list[str]:
    s = case.schema
    return ["bijection"] + (["transitivity"] if len(s.categories) > 2 else []) + \
        (["one-value"] if s.attributes or s.unknowns else [])


def fresh_follows(model, case, e, step, notes=None, axioms=None, facts=None, drop_axiom=False) -> bool:
    """Whether a step's derived facts follow in ``model`` from (possibly altered) citations;
    ``drop_axiom``: whether they follow after dropping *some* axiom kind (any of them)."""
    notes = step["notes"] if notes is None else notes
    axioms = step["axioms"] if axioms is None else axioms
    facts = step["facts"] if facts is None else facts
    lits = [model.compile_rule(parse_rule(t, case.schema)) for k in facts
            for t in e["steps"][k]["derived"]]
    derived = [model.compile_rule(parse_rule(t, case.schema)) for t in step["derived"]]
    if drop_axiom:
        return any(all(model.implies(notes, [x for x in axioms if x != a], lits, d) for d in derived)
                   for a in axioms)
    return all(model.implies(notes, axioms, lits, d) for d in derived)


def check_steps_fresh_solver(case, e) -> None:
    with CaseModel(case) as fresh:
        for k, step in enumerate(e["steps"]):
            assert all(j < k for j in step["facts"])
            assert fresh_follows(fresh, case, e, step), k
            for i in step["notes"]:
                assert not fresh_follows(fresh, case, e, step, notes=[x for x in step["notes"] if x != i])
            for j in step["facts"]:
                assert not fresh_follows(fresh, case, e, step, facts=[x for x in step["facts"] if x != j])
            assert not step["axioms"] or not fresh_follows(fresh, case, e, step, drop_axiom=True)


def forced_texts(case, notes=None) -> set[str]:
    """Every fact text that the notes force, by a fresh model (one implication test per fact)."""
    out = set()
    with CaseModel(case, notes) as m:
        chosen = sorted(m.note_lits)
        for f in m.facts():
            if m.implies(chosen, AXIOMS, [], f.lit):
                out.add(f.text)
            elif m.implies(chosen, AXIOMS, [], -f.lit):
                out.add(f.negated)
    return out


def derived_texts(e) -> list[str]:
    return [t for s in e["steps"] for t in s["derived"]]


# ---------------------------------------------------------------------------------- tests
def test_cost_formula():
    assert explain_cost(1, 1, 2) == 162  # the spec's example
    assert explain_cost(0, 3, 0) == 180 and explain_cost(2, 0, 5) == 205
    e = explain_case(load_case("half-moon-mews")).to_json()
    for s in e["steps"]:
        assert s["cost"] == 100 * len(s["notes"]) + 60 * len(s["axioms"]) + len(s["facts"])
        assert set(s) == {"derived", "notes", "axioms", "facts", "cost"}
        assert s["derived"] and set(s["axioms"]) <= set(AXIOMS)


def test_tiny_case_steps_follow_and_are_minimal_by_brute_force():
    case = tiny_case(["Ann == pos[1]", "pos(eel) == pos(Ann) + 1", "Cy != eel", "Bob != dog",
                      "hat(pos[2]) != hat(pos[3])", "hat(Ann) == 'red'", "hat(Bob) == 'red'",
                      "thief == dog", "implies(thief == Ann, motive == 'debt')", "motive == 'envy'",
                      "pos(Cy) > pos(Bob)"])
    e = explain_case(case).to_json()
    assert e["complete"] and e["open"] == []
    check_steps_brute_force(case, e)
    bf = BruteForce(case)
    solutions = bf.models([n.rule for n in case.notes])
    assert len(solutions) == 1
    assert bf.models(derived_texts(e)) == solutions  # the steps pin down exactly the solution


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(POOL), min_size=1, max_size=6, unique=True))
def test_random_tiny_cases(rules):
    case = tiny_case(rules)
    try:
        e = explain_case(case).to_json()
    except CaseContradiction:
        return
    check_steps_brute_force(case, e)
    bf = BruteForce(case)
    sols = bf.models(rules)
    texts = derived_texts(e)
    assert len(texts) == len(set(texts))
    assert sols <= bf.models(texts)  # nothing derived that some solution breaks
    for f in forced_texts(case):     # and everything forced is derived
        assert f in texts
    assert e["complete"] == (len(sols) == 1)


@pytest.mark.parametrize("name", ["half-moon-mews", "lantern-street"])
def test_shipped_steps_follow_are_minimal_and_derive_the_solution(name):
    case = load_case(name)
    e = explain_case(case).to_json()
    assert e["complete"] and e["fallback_steps"] == 0
    check_steps_fresh_solver(case, e)
    texts = derived_texts(e)
    assert len(texts) == len(set(texts))
    assert set(texts) == forced_texts(case)  # exactly the solution: every fact, both signs


def test_each_step_is_the_cheapest_possible_at_its_point():
    """No configuration (notes + axiom kinds) cheaper than a step's own forces any fact not
    yet derived, given every fact derived before it (fresh solver, one test per fact)."""
    import itertools

    case = tiny_case(["Ann == pos[1]", "pos(eel) == pos(Ann) + 1", "Cy != eel", "Bob != dog",
                      "hat(pos[2]) != hat(pos[3])", "hat(Ann) == 'red'", "thief == dog",
                      "motive == 'envy'", "pos(Cy) > pos(Bob)"])
    e = explain_case(case).to_json()
    with CaseModel(case) as m:
        lit = {t: m.compile_rule(parse_rule(t, case.schema))
               for s in e["steps"] for t in s["derived"]}
        configs = [(ns, ax) for k in (0, 1, 2) for ns in itertools.combinations(range(len(case.notes)), k)
                   for a in range(4) for ax in itertools.combinations(AXIOMS, a) if k or a]
        for k, step in enumerate(e["steps"]):
            before = [lit[t] for s in e["steps"][:k] for t in s["derived"]]
            later = [lit[t] for s in e["steps"][k:] for t in s["derived"]]
            own = explain_cost(len(step["notes"]), len(step["axioms"]), 0)
            for ns, ax in configs:
                if explain_cost(len(ns), len(ax), 0) < own:
                    assert not any(m.implies(ns, ax, before, x) for x in later), (k, ns, ax)


def test_from_notes_is_what_the_partial_model_forces():
    case = load_case("lantern-street")
    notes = [0, 4, 6, 13]
    e = explain_case(case, notes).to_json()
    assert e["from_notes"] == notes and e["complete"] is False
    assert all(set(s["notes"]) <= set(notes) for s in e["steps"])
    texts = derived_texts(e)
    assert set(texts) == forced_texts(case, notes)
    with CaseModel(case, notes) as m:
        base = m.assumptions()
        cells = {c.name: c for c in m.cells}
        for item in e["open"]:
            cell = cells[item["cell"]]
            found = m.possible(dict(zip(cell.values, cell.lits)), base)
            assert [v for v in cell.values if v in found] == item["possible"]
            assert len(item["possible"]) > 1
    check_steps_fresh_solver(case, e)


def test_from_no_notes_derives_nothing():
    e = explain_case(load_case("half-moon-mews"), []).to_json()
    assert e["steps"] == [] and not e["complete"] and e["seconds"]["first_step"] is None
    assert e["profile"] == {"steps": 0, "hardest_cost": 0, "multi_note_steps": 0,
                            "total_cost": 0, "complete": False}


def test_contradictory_notes():
    case = tiny_case(["Ann == cat", "Bob == cat"])
    with pytest.raises(CaseContradiction):
        explain_case(case)
    assert explain_case(case, [0]).steps  # one of them alone is fine


def test_naive_baseline_gives_valid_steps_too():
    case = tiny_case(["Ann == pos[1]", "pos(eel) == pos(Ann) + 1", "Cy != eel", "Bob != dog",
                      "thief == dog", "motive == 'envy'"])
    e = explain_case(case, incremental=False).to_json()
    check_steps_brute_force(case, e)
    assert set(derived_texts(e)) == set(derived_texts(explain_case(case).to_json()))


def test_fallback_steps_are_valid_too(monkeypatch):
    """With no note subset tried exhaustively, every note step comes from the fallback
    (subset-minimal, not necessarily cheapest): still sound, minimal and complete."""
    from deduce.models.casenotes import explain

    monkeypatch.setattr(explain, "MAX_SUBSETS", 0)
    case = tiny_case(["Ann == pos[1]", "pos(eel) == pos(Ann) + 1", "Cy != eel", "Bob != dog",
                      "thief == dog", "motive == 'envy'", "hat(thief) == 'red'"])
    e = explain_case(case).to_json()
    assert e["fallback_steps"] == sum(1 for s in e["steps"] if s["notes"]) > 0
    check_steps_brute_force(case, e)
    assert set(derived_texts(e)) == forced_texts(case)


def test_max_steps_truncates():
    e = explain_case(load_case("half-moon-mews"), max_steps=3)
    assert len(e.steps) == 3 and not e.complete


def test_profile_in_check_matches_explain():
    case = load_case("half-moon-mews")
    report = check_case(case).to_json()
    profile = explain_case(case).profile()
    assert report["difficulty"] == profile
    assert set(profile) == {"steps", "hardest_cost", "multi_note_steps", "total_cost", "complete"}
    assert profile["hardest_cost"] == max(s.cost for s in explain_case(case).steps)
    assert "difficulty" not in check_case(case, profile=False).to_json()


@pytest.mark.slow
def test_zebra_whole_explanation():
    case = load_case("zebra")
    e = explain_case(case).to_json()
    assert e["complete"] and e["fallback_steps"] == 0
    check_steps_fresh_solver(case, e)
    assert set(derived_texts(e)) == forced_texts(case)
    assert e["seconds"]["first_step"] <= e["seconds"]["total"]


# ---------------------------------------------------------------------------------- CLI
def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_cli_json_document():
    res = run("case", "explain", "half-moon-mews", "--json")
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert list(out) == ["case", "from_notes", "complete", "steps", "open", "profile",
                         "fallback_steps", "seconds"]
    assert out["complete"] and out["from_notes"] is None and out["open"] == []
    assert set(out["seconds"]) == {"first_step", "total"}
    assert out["profile"]["steps"] == len(out["steps"])


def test_cli_human_output_quotes_notes_and_shows_grid():
    case = load_case("half-moon-mews")
    res = run("case", "explain", "half-moon-mews")
    assert res.exit_code == 0
    assert "Step 1" in res.output and case.notes[0].text[:30] in res.output
    assert "axiom bijection" in res.output and "with step" in res.output
    assert "The whole solution follows" in res.output and "Bellerophon" in res.output


def test_cli_from_notes():
    res = run("case", "explain", "lantern-street", "--from-notes", "0, 4,6", "--json")
    out = json.loads(res.stdout)
    assert out["from_notes"] == [0, 4, 6] and not out["complete"] and out["open"]
    res = run("case", "explain", "lantern-street", "--from-notes", "0,4")
    assert res.exit_code == 0 and "Still open" in res.output
    for bad in ("0,x", "99", "-1"):
        res = run("case", "explain", "lantern-street", "--from-notes", bad)
        assert res.exit_code == 2 and "--from-notes" in res.output


def test_cli_contradiction_exit_3(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(_toml(["Ann == cat", "Bob == cat"]), encoding="utf-8")
    res = run("case", "explain", str(p), "--json")
    assert res.exit_code == 3 and json.loads(res.stdout)["conflict"] == [0, 1]


def test_cli_check_shows_difficulty():
    res = run("case", "check", "half-moon-mews")
    assert res.exit_code == 0 and "difficulty:" in res.output and "hardest cost" in res.output
    out = json.loads(run("case", "check", "half-moon-mews", "--no-profile", "--json").stdout)
    assert "difficulty" not in out


def _toml(rules) -> str:
    from tests.casenotes.helpers import TINY

    return TINY + "".join(f'\n[[note]]\nrule = """{r}"""\n' for r in rules)
