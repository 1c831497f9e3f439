"""The ``deduce case`` commands through click, as a user runs them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from deduce.cli.main import cli
from tests.casenotes.helpers import TINY


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(tmp_path, rules, extra="", name="case.toml"):
    p = tmp_path / name
    notes = "".join(f'\n[[note]]\nsource = "Location {i}"\ntext = "Note {i} text."\nrule = """{r}"""\n'
                    for i, r in enumerate(rules))
    p.write_text(TINY + extra + notes, encoding="utf-8")
    return str(p)


def test_list_json_and_table():
    res = run("case", "list", "--json")
    assert res.exit_code == 0
    rows = {r["name"]: r for r in json.loads(res.output)}
    assert rows["zebra"] == {"name": "zebra", "title": "The Zebra Puzzle", "size": "6x5",
                             "categories": 6, "items": 5, "notes": 14, "questions": 2, "sources": 0}
    assert rows["lantern-street"]["size"] == "4x5"
    res = run("case", "list")
    assert res.exit_code == 0 and "kew-orchid" in res.output


def test_solve_json_is_the_spec_object():
    res = run("case", "solve", "zebra", "--json")
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert list(out) == ["status", "solutions", "answers", "grid"]
    assert out["status"] == "unique" and out["solutions"] == 1
    assert out["answers"]["Who owns the zebra?"] == {"possible": ["Japanese"]}
    assert len(out["grid"]) == 5 and out["grid"][0]["house"] == 1


def test_solve_by_title_alias_and_human_table():
    res = run("case", "solve", "Lantern Street")
    assert res.exit_code == 0
    assert "unique" in res.output and "Harriet Quill" in res.output and "coal cellar" in res.output


def test_solve_multiple_and_lower_bound(tmp_path):
    path = write(tmp_path, ["pos(Ann) < pos(Bob)"], extra='\n[[question]]\ntext = "Who?"\nanswer = "thief"\n')
    out = json.loads(run("case", "solve", path, "--json").output)
    assert out["status"] == "multiple" and out["solutions"] == 3 * 6 * 8 * 3 * 2
    assert "grid" not in out and "solutions_at_least" not in out
    assert out["answers"] == {"Who?": {"possible": ["Ann", "Bob", "Cy"]}}
    path = write(tmp_path, ["Ann == pos[1] and Bob == pos[2] and Ann == cat and Bob == dog"])
    out = json.loads(run("case", "solve", path, "--json").output)
    assert out["status"] == "multiple" and out["grid"][2] == {"pos": 3, "person": "Cy", "pet": "eel"}


def test_contradiction_exit_3_with_minimal_notes(tmp_path):
    path = write(tmp_path, ["pos(Ann) == 1", "Ann == cat", "Bob == dog", "Cy == cat", 'motive == "debt"'])
    res = run("case", "solve", path, "--json")
    assert res.exit_code == 3
    out = json.loads(res.stdout)
    assert out["status"] == "none" and out["solutions"] == 0
    assert out["error"] == "contradiction" and out["conflict"] == [1, 3]
    assert 'note 1 (Location 1): "Note 1 text."' in out["message"]
    for cmd in (["check", path], ["why", path, "Ann == cat"]):
        assert run("case", *cmd).exit_code == 3


def test_bad_input_exit_2(tmp_path):
    path = write(tmp_path, ["Ann == cat", "Bob == dgo"])
    res = run("case", "solve", path)
    assert res.exit_code == 2
    assert "note 1: column 8: unknown name 'dgo'; did you mean dog" in res.output
    res = run("case", "solve", str(tmp_path / "missing.toml"), "--json")
    assert res.exit_code == 2 and json.loads(res.stdout)["error"] == "bad-input"
    res = run("case", "why", "zebra", "Japanese == zebr a")
    assert res.exit_code == 2 and "RULE: column" in res.output
    assert run("case", "solve", "no-such-case").exit_code == 2


def test_why_forced_impossible_open():
    out = json.loads(run("case", "why", "zebra", "Japanese == zebra", "--json").output)
    assert out["status"] == "forced" and out["rule"] == "Japanese == zebra"
    assert set(out) == {"rule", "status", "notes", "note_texts", "axioms"}
    assert out["notes"] and all(isinstance(i, int) for i in out["notes"])
    assert out["note_texts"][0].endswith(".") and "bijection" in out["axioms"]
    out = json.loads(run("case", "why", "zebra", "Englishman == green", "--json").output)
    assert out["status"] == "impossible" and out["notes"] == [0] and out["axioms"] == ["bijection"]
    out = json.loads(run("case", "why", "zebra", "Norwegian == house[1]", "--json").output)
    assert out == {"rule": "Norwegian == house[1]", "status": "forced", "notes": [8],
                   "note_texts": ["The Norwegian lives in the first house."], "axioms": []}
    res = run("case", "why", "zebra", "Norwegian == water")
    assert res.exit_code == 0 and "forced" in res.output and "note " in res.output


def test_why_open_gives_two_witnesses(tmp_path):
    path = write(tmp_path, ["pos(Ann) < pos(Bob)"])
    out = json.loads(run("case", "why", path, "Ann == pos[1]", "--json").output)
    assert out["status"] == "open"
    holds, fails = out["holds_in"], out["fails_in"]
    assert set(holds) == {"grid", "attributes", "unknowns"}
    assert holds["grid"][0]["person"] == "Ann" and fails["grid"][0]["person"] != "Ann"
    assert set(holds["attributes"]["hat"]) == {"Ann", "Bob", "Cy"}
    assert set(holds["unknowns"]) == {"thief", "motive"}


def test_check_json(tmp_path):
    out = json.loads(run("case", "check", "lantern-street", "--json").output)
    assert list(out) == ["unique", "solutions", "solution_matches", "solution_is_a_solution",
                         "redundant_notes", "minimal_sources", "difficulty"]
    assert out["unique"] and out["solution_matches"] is True and out["solution_is_a_solution"]
    assert out["minimal_sources"] and all(s.startswith("Location") for s in out["minimal_sources"])
    extra = ('\n[[question]]\ntext = "Who?"\nanswer = "thief"\n'
             '\n[solution]\nthief = "Cy"\npet = ["cat", "dog", "eel"]\n')
    path = write(tmp_path, ["Ann == pos[1] and Bob == pos[2] and Ann == cat", "thief == Bob",
                            "Ann == cat"], extra=extra)
    out = json.loads(run("case", "check", path, "--json").output)
    assert out["unique"] is False and len(out["witnesses"]) == 2
    assert all(set(d) == {"cell", "values"} and d["values"][0] != d["values"][1]
               for d in out["differences"])
    assert out["solution_matches"] is False and out["solution_is_a_solution"] is False
    assert {"cell": "thief", "expected": "Cy", "possible": ["Bob"]} in out["solution_mismatches"]
    assert out["redundant_notes"] == [2]
    assert out["minimal_sources"] == ["Location 1"]
    res = run("case", "check", path)
    assert res.exit_code == 0 and "redundant notes" in res.output


def test_check_says_whether_the_solution_is_one_of_several(tmp_path):
    head = '[categories]\npos = [1, 2, 3]\nperson = ["Ann", "Bob", "Cy"]\n' \
           '[[note]]\nrule = "Ann == pos[1]"\n[solution]\n'
    for order, one_of_them in [('["Ann", "Cy", "Bob"]', True), ('["Bob", "Ann", "Cy"]', False)]:
        p = tmp_path / "two.toml"
        p.write_text(head + f"person = {order}\n", encoding="utf-8")
        out = json.loads(run("case", "check", str(p), "--json", "--no-profile").output)
        assert out["solutions"] == 2 and out["unique"] is False
        assert out["solution_matches"] is False
        assert out["solution_is_a_solution"] is one_of_them
        text = run("case", "check", str(p), "--no-profile").output
        assert f"  [solution] is one of the solutions: {'yes' if one_of_them else 'no'}\n" in text
    p.write_text(head.replace("[solution]\n", ""), encoding="utf-8")
    out = json.loads(run("case", "check", str(p), "--json", "--no-profile").output)
    assert out["solution_matches"] is None and out["solution_is_a_solution"] is None
