"""cards: the shipped set follows the spec; every check of ``parse_cards`` with its exact
message; a user's file read back; random TOML-ish input never a traceback."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.deductions.cards import (
    CASES,
    CATEGORIES,
    RED_HERRING,
    SOLUTION,
    load_cards,
    parse_cards,
    shipped_cards,
    shipped_path,
)

F = "set.toml"


def rows() -> list[dict]:
    """The shipped set's cards as TOML tables (dicts)."""
    return [c.to_json() for c in shipped_cards().cards]


def toml_value(v) -> str:
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    return json.dumps(v)


def toml(cards: list[dict], title="Mine", **top) -> str:
    lines = [] if title is None else [f"title = {toml_value(title)}"]
    lines += [f"{k} = {toml_value(v)}" for k, v in top.items()]
    for card in cards:
        lines.append("[[case]]")
        lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in card.items()]
    return "\n".join(lines) + "\n"


def message(text: str) -> str:
    with pytest.raises(InputError) as e:
        parse_cards(text, F)
    return str(e.value)


def changed(i: int = 0, **fields) -> str:
    cards = rows()
    for k, v in fields.items():
        if v is None:
            del cards[i][k]
        else:
            cards[i][k] = v
    return toml(cards)


# ----------------------------------------------------------------------------- shipped set
def test_shipped_set_follows_the_spec():
    cards = shipped_cards().cards
    assert len(cards) == 45 and shipped_cards().title == "Three Cases"
    slots = Counter((c.case, c.category, c.kind) for c in cards)
    assert slots == {**{(k, g, SOLUTION): 1 for k in CASES for g in CATEGORIES},
                     **{(k, g, RED_HERRING): 2 for k in CASES for g in CATEGORIES}}
    for c in cards:
        total, suits = sum(n for _, n in c.cost), len(c.cost)
        if c.kind == SOLUTION:
            assert 6 <= total <= 9 and 2 <= suits <= 3 and 2 <= c.points <= 4
        else:
            assert 2 <= total <= 4 and 1 <= suits <= 3 and 0 <= c.points <= 1
    assert len({c.name for c in cards}) == 45
    assert load_cards("shipped") is shipped_cards() is load_cards(None)


def test_round_trip_of_a_users_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(toml(rows(), title="Ours"), encoding="utf-8")
    mine = load_cards("mine.toml", base=tmp_path)
    assert mine.source == "mine.toml" and mine.title == "Ours"
    assert mine.cards == shipped_cards().cards
    assert parse_cards(toml(mine.to_json()["cards"], title="Ours")).cards == mine.cards


def test_aliases_are_written_canonically():
    cards = rows()
    cards[0].update(case="The Hound of the Baskervilles", category="suspect", kind="Solution",
                    cost={"statements": 3, "writ": 2, "know": 3})
    cards[1]["cost"] = {"prints": 3, "Artifacts": 3}
    got = parse_cards(toml(cards)).cards
    assert got[:2] == shipped_cards().cards[:2]


def test_title_defaults_to_the_file_name():
    assert parse_cards(toml(rows(), title=None), "my-set.toml").title == "my-set"


# ----------------------------------------------------------------------------- every check
W1 = f"{F}: [[case]] 1 ('hound-suspect')"
KNOWN = "id, name, case, category, kind, points, cost"


@pytest.mark.parametrize("text, expected", [
    ("title = \n", f"{F}: not valid TOML: Invalid value (at line 1, column 9)"),
    (toml(rows(), extra=1), f"{F}: 'extra': unknown top-level key (known: title, case)"),
    (toml(rows(), title=3), f"{F}: field 'title': expected a string of 1 to 100 characters, "
                            "got a number (3)"),
    (toml(rows(), title=""), f"{F}: field 'title': expected a string of 1 to 100 characters, "
                             "got a string ('')"),
    ('case = 3\n', f"{F}: field 'case': expected [[case]] tables"),
    (toml(rows()[:44]), f"{F}: a card set has exactly 45 case cards ([[case]] tables), this "
                        "one has 44"),
    (toml([]) + "case = [" + ", ".join(["1"] * 45) + "]\n",
     f"{F}: [[case]] 1: expected a table, got a number (1)"),
    (changed(colour="red"), f"{W1}, field 'colour': unknown field (known: {KNOWN})"),
    (changed(name=None), f"{W1}, field 'name': missing field"),
    (changed(id=5), f"{F}: [[case]] 1, field 'id': expected a string of 1 to 100 characters, "
                    "got a number (5)"),
    (changed(name=" "), f"{W1}, field 'name': expected a string of 1 to 100 characters, got a "
                        "string (' ')"),
    (changed(name="x" * 101), f"{W1}, field 'name': expected a string of 1 to 100 characters, "
                              f"got a string ('{'x' * 30}...')"),
    (changed(case="moor"), f"{W1}, field 'case': unknown case 'moor'; known: hound, sign, "
                           "speckled"),
    (changed(case=1), f"{W1}, field 'case': expected a string, got a number (1)"),
    (changed(category="Weapon"), f"{W1}, field 'category': unknown category 'Weapon'; did "
                                 "you mean Means?"),
    (changed(kind="truth"), f"{W1}, field 'kind': unknown kind 'truth'; known: solution, "
                            "red-herring"),
    (changed(points=5), f"{W1}, field 'points': a solution is worth 2 to 4 points, got a "
                        "number (5)"),
    (changed(points=True), f"{W1}, field 'points': a solution is worth 2 to 4 points, got true"),
    (changed(5, points=2), f"{F}: [[case]] 6 ('hound-suspect-1'), field 'points': a red herring "
                           "is worth 0 to 1 points, got a number (2)"),
    (changed(cost=[1]), f"{W1}, field 'cost': expected a table of suit = count, got a list"),
    (changed(cost={"Coins": 3}), f"{W1}, field 'cost': 'Coins': unknown suit 'Coins'; known: "
                                 "Statements, Prints & Tracks, Writings, Artifacts, Knowledge"),
    (changed(1, cost={"prints": 2, "Prints & Tracks": 1, "Artifacts": 3}),
     f"{F}: [[case]] 2 ('hound-location'), field 'cost': 'Prints & Tracks': Prints & Tracks "
     "is given twice"),
    (changed(cost={"Statements": 0, "Writings": 7}),
     f"{W1}, field 'cost': 'Statements': a count is a whole number from 1 to 9, got a number (0)"),
    (changed(cost={"Statements": 10}),
     f"{W1}, field 'cost': 'Statements': a count is a whole number from 1 to 9, got a number "
     "(10)"),
    (changed(cost={"Statements": "3", "Writings": 4}),
     f"{W1}, field 'cost': 'Statements': a count is a whole number from 1 to 9, got a string "
     "('3')"),
    (changed(cost={"Statements": 9, "Writings": 1}),
     f"{W1}, field 'cost': a solution costs 6 to 9 clues in 2 to 3 suits, this one 10 in 2"),
    (changed(cost={"Statements": 7}),
     f"{W1}, field 'cost': a solution costs 6 to 9 clues in 2 to 3 suits, this one 7 in 1"),
    (changed(5, cost={"Statements": 5}),
     f"{F}: [[case]] 6 ('hound-suspect-1'), field 'cost': a red herring costs 2 to 4 clues in 1 "
     "to 3 suits, this one 5 in 1"),
    (changed(1, id="Hound Suspect"),
     f"{F}: [[case]] 2 ('Hound Suspect'), field 'id': the id is already that of [[case]] 1 (ids "
     "are unique, ignoring case, spaces and punctuation)"),
    (changed(1, category="Suspect"),
     f"{F}: [[case]] 2 ('hound-location'), field 'category': one solution too many in case "
     "'hound', category Suspect (each case has 1 solution per category, 2 red herrings per "
     "category)"),
    (changed(5, case="sign"),
     f"{F}: [[case]] 22 ('sign-suspect-2'), field 'category': one red herring too many in case "
     "'sign', category Suspect (each case has 1 solution per category, 2 red herrings per "
     "category)"),
])
def test_every_check(text, expected):
    assert message(text) == expected


def test_file_errors(tmp_path):
    with pytest.raises(InputError) as e:
        load_cards(tmp_path / "none.toml")
    assert str(e.value) == f"{tmp_path / 'none.toml'}: file not found"
    with pytest.raises(InputError) as e:
        load_cards(tmp_path)
    assert str(tmp_path) in str(e.value)


# ----------------------------------------------------------------------------- hypothesis
_keys = st.sampled_from(["id", "name", "case", "category", "kind", "points", "cost", "title",
                         "Statements", "prints", "x"])
_scalars = st.one_of(st.integers(-3, 12), st.booleans(), st.text(max_size=8),
                     st.sampled_from(["hound", "Suspect", "solution", "red herring", "Knowledge"]))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)), max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 44), _keys, _values)
def test_mutated_sets_never_crash(i, key, value):
    cards = rows()
    cards[i][key] = value
    try:
        text = toml(cards)
    except (TypeError, ValueError):
        return
    try:
        parse_cards(text, F)
    except InputError:
        pass


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet='[]{}=",.\n 0123456789abcase_titleidkn#\'\\', max_size=80))
def test_random_toml_text_never_crashes(text):
    try:
        parse_cards(text, F)
    except InputError:
        pass


def test_shipped_path_is_the_shipped_file():
    assert shipped_path().name == "shipped.toml"
