"""Input errors of rules and case files: note index, column, closest names; and fuzzing
(random rule strings and random TOML never raise anything but InputError)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.casenotes.format import load_case, parse_case
from deduce.models.casenotes.model import CaseModel
from deduce.models.casenotes.language import parse_rule
from tests.casenotes.helpers import TINY, tiny_case

KEY = """
[categories]
hour    = [7, 8, 9, 10]
visitor = ["Ada Finch", "Basil Crane", "Cora Vane", "Dr. Hale"]
room    = ["Workshop", "Parlour", "Library", "Attic"]
"""


def error_of(rules, header=TINY) -> str:
    with pytest.raises(InputError) as info:
        tiny_case(rules, header)
    return str(info.value)


def test_misspelt_name_names_note_column_and_suggestion():
    msg = error_of(["Ann == cat", "pos(Bob) > 1", "Ann == cta"])
    assert "tiny.toml: note 2: column 8: unknown name 'cta'" in msg
    assert "did you mean cat" in msg
    assert msg.splitlines()[-1] == "           ^"  # the caret under column 8


def test_surname_prefix_and_ambiguity():
    case = tiny_case(['Basil != hour[9] and Hale == Attic and "ada finch" == Lib'], KEY)
    assert case.notes[0].expr is not None
    msg = error_of(["Basl == Attic"], KEY)
    assert "column 1" in msg and "Basil Crane" in msg
    header = KEY.replace('"Attic"', '"Cora Room"')
    assert "ambiguous" in error_of(["Cora == hour[7]"], header)


def test_unordered_comparison_is_refused():
    msg = error_of(["Ann < Bob"])
    assert "column 1" in msg and "unordered" in msg and "person" in msg
    assert "unordered" in error_of(["pos(Ann) < cat"])


@pytest.mark.parametrize("rule,needle,col", [
    ("Ann ==", "not a valid rule", 7),
    ("Ann == 2", "write pos[2]", 8),
    ("pos == 1", "pos is a category", 1),
    ("hat(Ann) == \"green\"", "not a hat value", 13),
    ("Ann.x == 1", "Attribute is not allowed", 1),
    ("lambda: 1", "Lambda is not allowed", 1),
    ("__import__('os') == 1", "unknown function '__import__'", 1),
    ("Ann == cat if True else False", "IfExp is not allowed", 1),
    ("sum(pos(x) for x in person) == 6", "expected a condition", 5),
    ("all(hat(x) for x in persn)", "did you mean person", 21),
    ("pairs([Ann], [cat, dog])", "same length", 1),
    ("xor(Ann == cat)", "takes 2 arguments", 1),
    ("Ann in [cat]", "write one_of(A, [B, C])", 8),
    ("motive == Ann", "compares a motive value with an item", 1),
    ("pos[4] == Ann", "pos has no item 4", 5),
    ("1.5 == pos(Ann)", "float constants", 1),
    ("thief", "expected a condition", 1),
    ("pet(Ann) == pet(", "not a valid rule", 16),
])
def test_rule_errors(rule, needle, col):
    msg = error_of([rule])
    assert needle in msg, msg
    assert f"note 0: column {col}:" in msg, msg


def test_non_ascii_columns_count_characters():
    header = KEY.replace('"Attic"', '"Ätti Room"')
    msg = error_of(['"Ätti Room" == Basl'], header)
    assert "column 16" in msg


@pytest.mark.parametrize("text,needle", [
    ("[categories]\na = [1, 2]\nb = [1, 2, 3]\n", "has 3 items but a has 2"),
    ("[categories]\na = [1, 1]\n", "duplicate item 1"),
    ("[categories]\na = [\"x\", \"X\"]\n", "duplicate item 'X'"),
    ("[categories]\na = [1, \"x\"]\n", "mixes numbers and names"),
    ("[categories]\nsum = [1, 2]\n", "cannot be used as a name"),
    ("notes = []\n[categories]\na = [1, 2]\n", "unknown top-level key 'notes'; did you mean note"),
    ("[categories]\na = [1, 2]\n[attributes]\nh = { of = \"b\", values = [\"x\"] }\n",
     "unknown category 'b'"),
    ("[categories]\nperson = [\"A\", \"B\"]\n[attributes]\nh = { of = \"persn\", values = [\"x\"] }\n",
     "did you mean person"),
    ("[categories]\na = [1, 2]\n[attributes]\nh = { of = \"a\", values = [\"x\"], colour = 1 }\n",
     "unknown key 'colour'"),
    ("[categories]\na = [1, 2]\n[unknowns]\nu = \"b\"\n", "unknowns.u: unknown category 'b'"),
    ("[categories]\na = [1, 2]\n[unknowns]\nu = 3\n", "expected a category name or a list"),
    ("[categories]\na = [1, 2]\n[[question]]\ntext = \"q\"\nanswer = \"a(\"\n",
     "question 0, field 'answer': column"),
    ("[categories]\na = [1, 2]\n[[question]]\ntext = \"q\"\n", "question 0: missing 'answer'"),
    ("[categories]\na = [1, 2]\n[[note]]\ntext = \"q\"\n", "note 0: missing 'rule'"),
    ("[categories]\na = [1, 2]\n[[note]]\nrule = \"True\"\nsorce = \"x\"\n",
     "unknown key 'sorce'; did you mean source"),
    ("[categories]\na = [1, 2]\nb = [\"x\", \"y\"]\n[solution]\nc = [\"x\", \"y\"]\n",
     "unknown solution key 'c'"),
    ("[categories]\na = [1, 2]\nb = [\"x\", \"y\"]\n[solution]\na = [1, 2]\n", "is the grid's key"),
    ("[categories]\na = [1, 2]\nb = [\"x\", \"y\"]\n[solution]\nb = [\"x\", \"x\"]\n",
     "names an item twice"),
    ("[categories]\na = [1, 2]\nb = [\"x\", \"y\"]\n[solution]\nb = [\"x\"]\n", "a list of 2 entries"),
    ("[categories]\na = [1, 2]\n[unknowns]\nu = [\"p\", \"q\"]\n[solution]\nu = \"r\"\n",
     "unknown value 'r'"),
    ("[categories\n", "not valid TOML"),
    ("title = 3\n[categories]\na = [1]\n", "title: expected a string"),
    ("", "missing [categories]"),
])
def test_case_file_errors(text, needle):
    with pytest.raises(InputError) as info:
        parse_case(text, "bad.toml")
    assert str(info.value).startswith("bad.toml"), str(info.value)
    assert needle in str(info.value), str(info.value)


def test_missing_and_unknown_case_names():
    with pytest.raises(InputError, match="file not found"):
        load_case("/nonexistent/x.toml")
    with pytest.raises(InputError, match="unknown case 'zebar'.*did you mean zebra"):
        load_case("zebar")


# ----------------------------------------------------------------------------- fuzzing
TOKENS = ["Ann", "Bob", "Cy", "cat", "dog", "eel", "pos", "person", "pet", "hat", "thief",
          "motive", "x", "y", "(", ")", "[", "]", ",", "==", "!=", "<", ">=", "+", "-", "*",
          "and", "or", "not", "for", "in", "if", "all", "any", "sum", "abs", "one_of", "pairs",
          "distinct", "implies", "xor", "1", "2", "3", "'red'", '"debt"', ":", "lambda", ".",
          "**", "True", "None", "1.5", "é", "\\", "'", "{", "}"]

_model = None


def _compile(rule: str) -> None:
    global _model
    if _model is None:
        _model = CaseModel(tiny_case([]))
    case_schema = _model.s
    try:
        expr = parse_rule(rule, case_schema, where="fuzz")
    except InputError:
        return
    _model.compile_rule(expr, where="fuzz", src=rule)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=14).map(" ".join))
def test_random_token_rules_never_crash(rule):
    _compile(rule)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_random_text_rules_never_crash(rule):
    _compile(rule)


VALID = TINY + """
[[question]]
text = "Who?"
answer = "thief"

[[note]]
source = "Location 1"
text = "Ann keeps the cat."
rule = "Ann == cat and hat(thief) == 'red'"

[solution]
thief = "Bob"
pet = ["cat", "dog", "eel"]
hat = ["red", "red", "blue"]
"""


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_case_files_never_crash(data):
    text = VALID
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 12)))
        insert = data.draw(st.sampled_from(["", "x", "1", '"', "[", "]", "\n", "=", ",", "{",
                                            "[[note]]\n", "rule = 'Ann'\n", "hat", "person", "é"]))
        text = text[:i] + insert + text[j:]
    try:
        case = parse_case(text, "fuzz.toml")
    except InputError:
        return
    CaseModel(case).close()


scalars = st.one_of(st.integers(-3, 12), st.text(max_size=6), st.booleans(), st.floats(allow_nan=False),
                    st.dates(), st.times(), st.datetimes())
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                      max_leaves=10)


def _toml_value(v) -> str:
    if hasattr(v, "isoformat"):  # dates, times, date-times
        return v.isoformat()
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v) if not isinstance(v, float) or v == v and abs(v) != float("inf") else "0"
    if isinstance(v, str):
        return '"' + v.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{_toml_value(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["title", "intro", "categories", "attributes", "unknowns",
                                        "question", "note", "solution", "other"]),
                       values, max_size=6))
def test_random_toml_structures_never_crash(doc):
    text = "\n".join(f"{k} = {_toml_value(v)}" for k, v in doc.items())
    try:
        case = parse_case(text, "fuzz.toml")
    except InputError:
        return
    CaseModel(case).close()


# ----------------------------------------------------------------------------- wrong types
import datetime as _dt  # noqa: E402

BASE = {
    "title": "T", "intro": "I",
    "categories": {"pos": [1, 2, 3], "person": ["Ann", "Bob", "Cy"]},
    "attributes": {"hat": {"of": "person", "values": ["red", "blue"]}},
    "unknowns": {"thief": "person", "motive": ["debt", "envy"]},
    "question": [{"text": "Who?", "answer": "thief"}],
    "note": [{"source": "Location 1", "text": "Ann first.", "rule": "Ann == pos[1]"}],
    "solution": {"thief": "Bob", "person": ["Ann", "Bob", "Cy"], "hat": ["red", "red", "blue"],
                 "motive": "debt"},
}
#: every TOML type, by the name messages give it
WRONG = {
    "a boolean": True, "an integer": 7, "a number": 1.5,
    "a date-time": _dt.datetime(1979, 5, 27, 7, 32, tzinfo=_dt.timezone.utc),
    "a date": _dt.date(1979, 5, 27), "a time": _dt.time(7, 32), "a string": "x",
    "a list": [1, 2], "a table": {"k": 1}, "nested lists": [[1], [2]],
}
#: (path in BASE, what the field accepts, where the message points)
FIELDS = [
    (("title",), {"a string"}, "title"),
    (("intro",), {"a string"}, "intro"),
    (("categories",), {"a table"}, "categories"),
    (("categories", "person"), {"a list"}, "categories.person"),
    (("categories", "person", 0), {"a string"}, "categories.person"),
    (("categories", "pos", 1), {"an integer"}, "categories.pos"),
    (("attributes",), {"a table"}, "attributes"),
    (("attributes", "hat"), {"a table"}, "attributes.hat"),
    (("attributes", "hat", "of"), {"a string"}, "attributes.hat.of"),
    (("attributes", "hat", "values"), {"a list"}, "attributes.hat.values"),
    (("attributes", "hat", "values", 0), {"a string", "an integer"}, "attributes.hat.values"),
    (("unknowns",), {"a table"}, "unknowns"),
    (("unknowns", "thief"), {"a string", "a list"}, "unknowns.thief"),
    (("unknowns", "motive", 1), {"a string", "an integer"}, "unknowns.motive"),
    (("question",), {"a list"}, "question"),
    (("question", 0), {"a table"}, "question 0"),
    (("question", 0, "text"), {"a string"}, "question 0, field 'text'"),
    (("question", 0, "answer"), {"a string"}, "question 0, field 'answer'"),
    (("note",), {"a list"}, "note"),
    (("note", 0), {"a table"}, "note 0"),
    (("note", 0, "source"), {"a string"}, "note 0, field 'source'"),
    (("note", 0, "text"), {"a string"}, "note 0, field 'text'"),
    (("note", 0, "rule"), {"a string"}, "note 0, field 'rule'"),
    (("solution",), {"a table"}, "solution"),
    (("solution", "thief"), {"a string", "an integer"}, "solution.thief"),
    (("solution", "motive"), {"a string", "an integer"}, "solution.motive"),
    (("solution", "person"), {"a list"}, "solution.person"),
    (("solution", "person", 0), {"a string", "an integer"}, "solution.person[0]"),
    (("solution", "hat", 2), {"a string", "an integer"}, "solution.hat[2]"),
]


def _with(path, value) -> str:
    import copy

    doc = copy.deepcopy(BASE)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return "\n".join(f"{k} = {_toml_value(v)}" for k, v in doc.items()) + "\n"


def test_the_base_document_is_valid():
    case = parse_case(_with(("title",), "T"), "bad.toml")
    assert case.solution["thief"] == "Bob" and case.notes[0].source == "Location 1"


@pytest.mark.parametrize("path,accepts,where", FIELDS, ids=[".".join(map(str, f[0])) for f in FIELDS])
def test_every_field_refuses_every_wrong_type(path, accepts, where):
    for name, value in WRONG.items():
        if name in accepts:
            continue
        with pytest.raises(InputError) as info:
            parse_case(_with(path, value), "bad.toml")
        msg = str(info.value)
        assert msg.startswith(f"bad.toml: {where}"), (name, msg)
        if accepts <= {"a string", "an integer", "a table"} and name != "nested lists":
            assert f"got {name}" in msg or "mixes numbers and names" in msg, (name, msg)


def test_booleans_are_not_integers():
    for path in [("categories", "pos"), ("unknowns", "motive"), ("attributes", "hat", "values")]:
        with pytest.raises(InputError, match="item 0: expected a name or an integer, got a boolean"):
            parse_case(_with(path, [True, False, True]), "bad.toml")
    with pytest.raises(InputError, match="solution.thief: expected a name or an integer, got a boolean"):
        parse_case(_with(("solution", "thief"), True), "bad.toml")


def test_wrong_types_exit_2_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from deduce.cli.main import cli

    p = tmp_path / "bad.toml"
    p.write_text(_with(("note", 0, "rule"), _dt.date(1979, 5, 27)), encoding="utf-8")
    res = CliRunner().invoke(cli, ["case", "solve", str(p)])
    assert res.exit_code == 2
    assert res.output == f"error: {p}: note 0, field 'rule': expected a string, got a date\n"
