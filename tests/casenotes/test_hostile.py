"""Hostile case files and options: every one is exit 2 with a message naming the place and
the cap (or exit 0 where it is valid), never a traceback or a hang.

Classes: files that are not regular files or are too large; rules with huge integers,
deep nesting or great length; whole files past the case-wide budgets; values of the wrong
TOML type in every field (tests/casenotes/test_parse_errors.py has the random TOML fuzz);
hostile option values.
"""

from __future__ import annotations

import ast
import os
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.cli.main import cli
from deduce.core.errors import InputError
from deduce.core.limits import MAX_FILE_BYTES
from deduce.models.casenotes import model as M
from deduce.models.casenotes import language as L
from deduce.models.casenotes.format import (
    MAX_ATTRIBUTES,
    MAX_NOTES,
    MAX_QUESTIONS,
    MAX_UNKNOWNS,
    case_path,
    load_case,
    parse_case,
)
from deduce.models.casenotes.model import CaseModel
from tests.casenotes.helpers import TINY, tiny_case


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def error_of(text: str, name: str = "bad.toml") -> str:
    with pytest.raises(InputError) as info:
        parse_case(text, name)
    return str(info.value)


def rule_error(rule: str) -> str:
    with pytest.raises(InputError) as info:
        tiny_case([rule])
    return str(info.value)


# ----------------------------------------------------------------------------- 1. files
def test_folder_fifo_and_device_are_refused_as_not_regular_files(tmp_path):
    folder = tmp_path / "zebra"  # even a folder named like a shipped case: the path wins
    folder.mkdir()
    fifo = tmp_path / "case.fifo"
    os.mkfifo(fifo)
    for path, kind in [(folder, "a folder"), (fifo, "a FIFO (named pipe)"),
                       ("/dev/zero", "a character device")]:
        res = run("case", "solve", str(path))
        assert res.exit_code == 2, res.output
        assert res.output == (f"error: {path}: cannot read file: it is {kind}, and only "
                              "regular files are read\n")
    assert case_path(str(fifo)) == fifo  # an existing path is never looked up as a name


def test_bom_accepted_and_size_capped(tmp_path):
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + TINY.encode())
    assert load_case(str(p)).schema.size == 3
    big = tmp_path / "big.toml"
    big.write_bytes(TINY.encode() + b"#" * MAX_FILE_BYTES)
    res = run("case", "check", str(big))
    assert res.exit_code == 2
    assert res.output == (f"error: {big}: file too large: more than the cap of "
                          f"{MAX_FILE_BYTES:,} bytes\n")


def test_integer_past_the_int_string_limit_in_a_category():
    msg = error_of("[categories]\npos = [1, " + "9" * 5000 + "]\n")
    assert msg == ("bad.toml: not valid TOML: an integer has more than 4,300 digits "
                   "(Python's integer-string limit)")
    msg = error_of("[categories]\npos = [1, 12345678901]\nwho = ['a', 'b']\n")
    assert msg == "bad.toml: categories.pos: item 1: number too large: more than the cap of 1,000,000,000 in size"


# ----------------------------------------------------------------------------- 2. rules
TOO_DEEP = "the rule is nested too deeply: more than the cap of 60 levels"


@pytest.mark.parametrize("rule,col", [
    ("not " * 10_000 + "Ann == cat", None),                  # too long first
    ("not " * 990 + "Ann == cat", 241),                      # the 61st not
    ("(" * 1990 + "Ann == cat" + ")" * 1990, 61),            # the 61st bracket
    ("True and (" * 360 + "True" + ")" * 360, 610),
    ("pos(Ann) == " + "-" * 3900 + "1", 73),
    ("one_of(Ann, " + "[" * 1900 + "cat" + "]" * 1900 + ")", 72),
    ("-(" * 31 + "1" + ")" * 31 + " == pos(Ann)", 61),
])
def test_deep_rules_name_the_cap(rule, col):
    msg = rule_error(rule)
    if col is None:
        assert msg == (f"tiny.toml: note 0: the rule is too long: {len(rule):,} characters, "
                       f"more than the cap of 4,000")
    else:
        assert msg.startswith(f"tiny.toml: note 0: column {col}: {TOO_DEEP}\n"), msg


def test_nesting_just_under_the_cap_is_read():
    assert tiny_case(["not " * 59 + "Ann == cat"]).notes[0].expr is not None
    assert tiny_case(["(" * 58 + "Ann == cat" + ")" * 58]).notes[0].expr is not None
    # brackets, signs and nots inside a quoted name do not count
    name = "(" * 80 + "not -cat"
    case = tiny_case([f'"{name}" == Ann'], TINY.replace('"cat"', f'"{name}"'))
    assert case.notes[0].expr == L.RowEq(L.Item("pet", 0, 1), L.Item("person", 0, 95), 1)


def test_deep_tree_past_the_text_count_is_refused_by_the_walk():
    # a chain of 70 + is flat in brackets and signs but 70 levels deep as a tree
    msg = rule_error("pos(Ann) == " + " + ".join(["1"] * 70))
    assert f": {TOO_DEEP}\n" in msg


@pytest.mark.parametrize("exc", [RecursionError, MemoryError])
def test_parser_exhaustion_is_a_backstop_with_the_cap(monkeypatch, exc):
    def boom(*args, **kwargs):
        raise exc()
    monkeypatch.setattr(ast, "parse", boom)
    assert rule_error("Ann == cat") == f"tiny.toml: note 0: column 1: {TOO_DEEP}\n    Ann == cat\n    ^"


def test_huge_integers_in_a_rule():
    msg = rule_error("pos(Ann) == " + "9" * 5000)
    assert msg == "tiny.toml: note 0: the rule is too long: 5,012 characters, more than the cap of 4,000"
    msg = rule_error("pos(Ann) == " + "9" * 3000)
    assert msg.startswith("tiny.toml: note 0: column 13: number too large: more than the cap of "
                          "1,000,000,000 in size\n")
    assert "column 13: number too large" in rule_error("pos(Ann) == 1_000_000_000_0")
    assert "column 13: number too large" in rule_error("pos(Ann) == 10000000000")
    assert "column 13: number too large" in rule_error("pos(Ann) == 1" + "0" * 3900)[:200]
    assert "not a valid rule" in rule_error("pos(Ann) == 00000000001")  # leading zeros: Python's


_pieces = st.sampled_from(["(", ")", "[", "]", "not ", "-", "+", "~", "Ann", "==", "cat", " and ",
                           "'(('", '"', "9" * 12, "pos(", ",", "abs(", "1", "\\"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_pieces, max_size=200).map("".join))
def test_random_nesting_never_crashes(rule):
    try:
        tiny_case([rule])
    except InputError as exc:
        text = str(exc)
        assert "nested too deeply" not in text or "cap of 60 levels" in text


# ----------------------------------------------------------------------------- 3. budgets
def test_rule_parts_cap():
    rule = "distinct(" + ", ".join(["Ann"] * 250) + ")"
    msg = rule_error(rule)
    assert msg.startswith("tiny.toml: note 0: column 1: the rule is too large: more than the cap "
                          "of 20,000 parts (one_of, pairs and distinct expanded)\n"), msg


def test_case_parts_cap_names_the_note(monkeypatch):
    monkeypatch.setattr(L, "MAX_CASE_PARTS", 40)
    rule = "Ann == cat and Bob == dog"  # 7 parts
    case = tiny_case([rule] * 5)
    assert len(case.notes) == 5
    msg = rule_error_many([rule] * 6)
    assert msg.startswith("tiny.toml: note 5: column ") and (
        "the case's rules are too large in all: more than the cap of 40 parts over all notes "
        "and questions") in msg, msg


def rule_error_many(rules):
    with pytest.raises(InputError) as info:
        tiny_case(rules)
    return str(info.value)


def test_case_work_cap_names_the_note(monkeypatch):
    monkeypatch.setattr(M, "CASE_WORK", 300)
    rule = "sum(pos(x) > pos(y) for x in person for y in person) >= {k}"
    rules = [rule.format(k=k) for k in range(8)]
    with pytest.raises(InputError) as info:
        CaseModel(tiny_case(rules)).close()
    msg = str(info.value)
    assert re.match(r"tiny.toml: note \d: column 1: the case is too large to compile: its notes "
                    r"and questions need more than the cap of 300 logic gates in all\n", msg), msg
    CaseModel(tiny_case(rules[:1])).close()  # one of them alone fits


def test_rule_work_and_binding_caps_are_named(monkeypatch):
    gens = "for x in person for y in person for a in pos for b in pos for c in pet for d in pet " \
        "for e in pos for f in pos"
    msg = model_error(f"all(x == y {gens})")
    assert msg.startswith("tiny.toml: note 0: column 1: the rule is too large to compile: more "
                          "than the cap of 5,000 bindings of its 'for' variables (6,561)\n"), msg
    monkeypatch.setattr(M, "RULE_WORK", 100)
    msg = model_error("sum(pos(x) > pos(y) for x in person for y in person) >= 2")
    assert msg.startswith("tiny.toml: note 0: column 1: the rule is too large to compile: more "
                          "than the cap of 100 logic gates\n"), msg


def model_error(rule: str) -> str:
    with pytest.raises(InputError) as info:
        CaseModel(tiny_case([rule])).close()
    return str(info.value)


@pytest.mark.parametrize("table,cap,what", [
    ("attributes", MAX_ATTRIBUTES, "attributes"),
    ("unknowns", MAX_UNKNOWNS, "unknowns"),
])
def test_count_caps(table, cap, what):
    rows = "".join(f'a{k} = {{ of = "person", values = ["x", "y"] }}\n' if table == "attributes"
                   else f'a{k} = "person"\n' for k in range(cap + 1))
    text = "[categories]\nperson = ['A', 'B']\n[" + table + "]\n" + rows
    assert error_of(text) == f"bad.toml: {table}: too many {what}: {cap + 1}, more than the cap of {cap}"


def test_question_and_note_caps():
    qs = "".join(f'[[question]]\ntext = "q{k}"\nanswer = "person(A)"\n' for k in range(MAX_QUESTIONS + 1))
    assert error_of("[categories]\nperson = ['A', 'B']\n" + qs) == \
        f"bad.toml: too many questions: {MAX_QUESTIONS + 1}, more than the cap of {MAX_QUESTIONS}"
    notes = '[[note]]\nrule = "True"\n' * (MAX_NOTES + 1)
    assert error_of("[categories]\nperson = ['A', 'B']\n" + notes) == \
        f"bad.toml: too many notes: {MAX_NOTES + 1:,}, more than the cap of {MAX_NOTES:,}"


# ----------------------------------------------------------------------------- 6. options
NINES = "9" * 5000


@pytest.mark.parametrize("args,message", [
    (["explain", "half-moon-mews", "--from-notes", "0,²"],
     "error: --from-notes: expected note numbers separated by commas (like 0,3,5), got '²'"),
    (["explain", "half-moon-mews", "--from-notes", "-1"],
     "error: --from-notes: expected note numbers separated by commas (like 0,3,5), got '-1'"),
    (["explain", "half-moon-mews", "--from-notes", NINES],
     f"error: --from-notes: expected note numbers separated by commas (like 0,3,5), got "
     f"'{'9' * 40}...'"),
    (["explain", "half-moon-mews", "--from-notes", "0," * 50_000 + "9"],
     "error: --from-notes: no note 9: the case has notes 0 to 8"),
])
def test_from_notes_hostile_values(args, message):
    res = run("case", *args)
    assert res.exit_code == 2 and res.output == message + "\n", res.output


def test_from_notes_any_script_digits_and_repeats():
    res = run("case", "explain", "half-moon-mews", "--from-notes", "٠,0,0", "--json")
    assert res.exit_code == 0
    assert '"from_notes": [\n    0\n  ]' in res.output


@pytest.mark.parametrize("option,value,message", [
    ("--bots", "²", "expected a whole number from 1 to 7, got '²'"),
    ("--bots", NINES, f"expected a whole number from 1 to 7, got '{'9' * 40}'"),
    ("--bots", "0", "0 is out of range: from 1 to 7"),
    ("--tokens", "-5", "-5 is out of range: from 0 to 1,000"),
    ("--tokens", "10²", "expected a whole number from 0 to 1,000, got '10²'"),
    ("--seed", "²", "expected a whole number from 0 to 9,223,372,036,854,775,807, got '²'"),
])
@pytest.mark.parametrize("command", ["play", "selfplay"])
def test_bots_tokens_seed_hostile_values(command, option, value, message):
    res = CliRunner().invoke(cli, ["case", command, "half-moon-mews", option, value])
    assert res.exit_code == 2
    assert f"Invalid value for '{option}': {message}" in res.output, res.output


def test_grid_cap():
    cats = "".join(f"c{k} = [{', '.join(str(i) for i in range(1, 9))}]\n" for k in range(9))
    assert error_of("[categories]\n" + cats) == (
        "bad.toml: categories: the grid is too large: 9 categories x 8 items = 72, more than "
        "the cap of 64 (categories x items)")
    assert parse_case("[categories]\n" + cats[: cats.rindex("c8")], "ok.toml").schema.size == 8


def test_counting_that_runs_out_of_effort_below_the_exact_range_is_refused(monkeypatch,
                                                                           tmp_path):
    """The spec counts exactly up to 10,000: never a lower bound below it."""
    from deduce.models.casenotes import counting

    case = tiny_case(["pos(Ann) < pos(Bob)"])
    model = CaseModel(case)
    try:
        assert model.count_solutions() == (3 * 6 * 8 * 3 * 2, True)
        monkeypatch.setattr(counting, "COUNT_EFFORT", 1)
        with pytest.raises(InputError, match="more than the cap of 1 solver propagations"):
            model.count_solutions()
    finally:
        model.close()
    path = tmp_path / "c.toml"
    path.write_text(TINY + '[[note]]\nrule = "pos(Ann) < pos(Bob)"\n', encoding="utf-8")
    res = run("case", "solve", str(path), "--json")
    assert res.exit_code == 2 and "counts are exact up to 10,000" in res.output


# ----------------------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_random_file_bytes_never_crash(tmp_path_factory, bom, data):
    path = tmp_path_factory.mktemp("bytes") / "case.toml"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    try:
        load_case(str(path))
    except InputError as exc:
        assert str(exc).startswith(str(path))


_POOL = ["Ann == cat", "distinct(Ann, Bob, Cy)", "pairs([Ann, Bob], [cat, dog])",
         "one_of(Ann, [cat, dog, eel])", "not not (Ann == pos[1])", "pos(Ann) + 1 == pos(Bob)"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_POOL), max_size=12), st.integers(1, 120))
def test_case_parts_budget_is_exact(rules, cap):
    sizes = []
    for rule in rules:
        budget = L.PartsBudget(10**6)
        L.parse_rule(rule, tiny_case([]).schema, budget=budget)
        sizes.append(budget.cap - budget.left)
    old = L.MAX_CASE_PARTS
    L.MAX_CASE_PARTS = cap
    try:
        case = tiny_case(rules)
    except InputError as exc:
        first = next(k for k in range(len(rules)) if sum(sizes[:k + 1]) > cap)
        assert str(exc).startswith(f"tiny.toml: note {first}: column ")
        assert f"more than the cap of {cap} parts over all notes" in str(exc)
    else:
        assert sum(sizes) <= cap and len(case.notes) == len(rules)
    finally:
        L.MAX_CASE_PARTS = old


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.integers(-5, 20).map(str), st.text(max_size=6),
                          st.just("9" * 30), st.just("²")), max_size=8).map(",".join))
def test_from_notes_values_never_crash(text):
    from deduce.cli.case import _note_list

    case = load_case("half-moon-mews")
    try:
        notes = _note_list(text, case)
    except InputError as exc:
        assert str(exc).startswith("--from-notes: ")
    else:
        assert notes == sorted(set(notes)) and all(0 <= i < len(case.notes) for i in notes)


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (controls as \\uXXXX escapes)."""
    body = "".join("\\" + ch if ch in '"\\' else f"\\u{ord(ch):04x}" if ord(ch) < 0x20 or
                   0x7f <= ord(ch) < 0xa0 else ch for ch in text)
    return f'"{body}"'


_HOSTILE_TEXT = st.text(st.sampled_from("ab[]/\\\x1b\x07\x00\u202e \"'"), max_size=5)


@settings(max_examples=12, deadline=None)
@given(st.lists(_HOSTILE_TEXT, min_size=3, max_size=3))
def test_random_hostile_names_are_shown_literally(tmp_path_factory, tails):
    """Items ``x<tail>``, ``y<tail>``, ``z<tail>`` (distinct by their first letter), named in
    a rule by their quoted text, solved and shown: each literally, no control character."""
    from deduce.cli.common import literal

    names = [f"{k}{t}" for k, t in zip("xyz", tails)]
    rule = f"who[{names[0]!r}] == pos[1] and who[{names[1]!r}] == pos[2]"
    path = tmp_path_factory.mktemp("names") / "case.toml"
    path.write_text(f"[categories]\npos = [1, 2, 3]\nwho = [{', '.join(map(_toml_string, names))}]"
                    f"\n[[note]]\nrule = {_toml_string(rule)}\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["case", "solve", str(path)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert not set(res.output) & {"\x1b", "\x07", "\x00", "\u202e"}
    cells = [line.split("│")[2].strip() for line in res.output.splitlines() if line.count("│") == 3]
    assert cells == [literal(n).strip() for n in names]
