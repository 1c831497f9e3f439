"""cards: the shipped set's facts; every check of ``parse_cards`` with a message naming the
file, the card and the field; a user's file read back; random mutations of the shipped TOML
(wrong types, removed keys, unknown keys, out-of-range numbers) give ``InputError``, never
another exception."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.irregulars.cards import (
    ALL_ICONS,
    COLOURS,
    EFFECTS,
    ICONS,
    MAX_COST,
    MAX_NAME,
    MAX_POINTS,
    OBJECTIVE_KINDS,
    STORY,
    TYPES,
    load_cards,
    parse_cards,
    shipped_cards,
    shipped_path,
)

F = "set.toml"


def toml_value(v) -> str:
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    return json.dumps(v)


def toml(data: dict) -> str:
    """A card set as TOML: top-level values, then the arrays of tables, then [solo]."""
    lines = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items()
             if not isinstance(v, (dict, list)) or (isinstance(v, list) and not all(
                 isinstance(x, dict) for x in v)) or (isinstance(v, list) and not v)]
    for key, rows in data.items():
        if isinstance(rows, list) and rows and all(isinstance(x, dict) for x in rows):
            for row in rows:
                lines.append(f"[[{key}]]")
                lines += [f"{json.dumps(k)} = {toml_value(x)}" for k, x in row.items()]
    for key, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{key}]")
            lines += [f"{json.dumps(k)} = {toml_value(x)}" for k, x in table.items()]
    return "\n".join(lines) + "\n"


def shipped_data() -> dict:
    return shipped_cards().to_json()


def message(data_or_text) -> InputError:
    text = data_or_text if isinstance(data_or_text, str) else toml(data_or_text)
    with pytest.raises(InputError) as e:
        parse_cards(text, F)
    return e.value


def changed(table: str, i: int, **fields) -> dict:
    data = shipped_data()
    for k, v in fields.items():
        if v is DELETE:
            del data[table][i][k]
        else:
            data[table][i][k] = v
    return data


DELETE = object()


# ----------------------------------------------------------------------------- shipped
def test_shipped_counts_and_ranges():
    cs = shipped_cards()
    assert cs.title == "The Fog Over Baker Street"
    assert (len(cs.evidence), len(cs.villains), len(cs.inspectors), len(cs.plot_twists)) == (
        100, 40, 10, 12)
    assert Counter(c.deck for c in cs.evidence) == {1: 20, 2: 20, 3: 20, 4: 20, 5: 20}
    assert [c.id for c in cs.deck(1)] == [f"E{i:03}" for i in range(1, 21)]
    for c in cs.evidence:
        assert c.type in TYPES and c.colour in COLOURS and 0 <= c.cost <= MAX_COST
        assert STORY.fullmatch(c.story)
        assert 1 <= len(c.icons) <= 2 and set(c.icons) <= set(ICONS)
        assert 1 <= len(c.name) <= MAX_NAME
    for v in cs.villains:
        assert 2 <= len(v.icons) <= 9 and 1 <= v.points <= MAX_POINTS
    for i in cs.inspectors:
        assert len(i.objectives) == 3
        assert all(o.each in OBJECTIVE_KINDS and 1 <= o.points <= MAX_POINTS
                   for o in i.objectives)
    assert all(t.effect in EFFECTS for t in cs.plot_twists)
    assert set(EFFECTS) >= {"no-bsi-bonus", "no-tailing", "bonus-in-arresting-order",
                            "fewest-points-to-top"}
    assert len(cs.holmes_track) == 19 and all(0 <= d <= 5 for d in cs.holmes_track)
    ids = [c.id for c in (*cs.evidence, *cs.villains, *cs.inspectors, *cs.plot_twists)]
    assert len(ids) == len(set(ids)) == len(cs.by_id)


def test_moriarty_moran_gregson():
    cs = shipped_cards()
    moriarty = cs.villain_by_id["V01"]
    assert moriarty.name == "Prof. James Moriarty" and moriarty.mask == ALL_ICONS
    assert moriarty.points == 20 and moriarty.icons == ICONS
    moran = next(v for v in cs.villains if v.name == "Col. Sebastian Moran")
    assert moran.icons == ("heart", "disguise", "gang", "blood")
    gregson = cs.inspector_by_id["gregson"]
    assert gregson.name == "Inspector Gregson"
    assert [o.to_json() for o in gregson.objectives] == [
        {"each": "type", "type": "location", "points": 1},
        {"each": "colour", "colour": "black", "points": 2},
        {"each": "story-pair", "points": 5}]
    assert [o.words() for o in gregson.objectives] == [
        "1 per location card", "2 per black card", "5 per pair of cards of one story"]


def test_round_trip_through_toml(tmp_path):
    path = tmp_path / "mine.toml"
    data = shipped_data()
    data["title"] = "Mine"
    path.write_text(toml(data))
    cs = load_cards("mine.toml", base=tmp_path)
    assert cs.to_json() == data and cs.source == "mine.toml"
    assert parse_cards(shipped_path().read_text(), "x").to_json() == shipped_data()
    assert load_cards(None) is shipped_cards() and load_cards("shipped") is shipped_cards()


def test_aliases_are_written_canonically():
    cs = parse_cards(toml(changed("evidence", 0, colour="Yellow", type="LOCATION",
                                  icons=["codes", "secret"], story="twis")), F)
    c = cs.evidence[0]
    assert (c.colour, c.type, c.icons, c.story) == ("gold", "location", ("scroll", "song"),
                                                    "TWIS")


# ----------------------------------------------------------------------------- checks
def named(e: InputError, *parts: str) -> None:
    text = str(e)
    assert text.startswith(F), text
    for p in parts:
        assert p in text, (p, text)


@pytest.mark.parametrize("field,value,words", [
    ("deck", 6, "from 1 to 5"), ("deck", "I", "from 1 to 5"), ("deck", True, "from 1 to 5"),
    ("cost", -1, "from 0 to 13"), ("cost", 14, "from 0 to 13"), ("cost", 1.5, "a cost"),
    ("type", "letter", "type"), ("type", 3, "expected a string"),
    ("colour", "green", "colour"), ("story", "GAR", "4 letters"),
    ("story", "3G-R", "4 letters"), ("icons", [], "1 to 2"),
    ("icons", ["heart", "skull", "song"], "1 to 2"), ("icons", ["heart", "love"], "twice"),
    ("icons", ["feather"], "plot icon"), ("icons", "heart", "expected a list"),
    ("id", "", "1 to 100"), ("id", 7, "1 to 100"), ("name", "x" * 101, "1 to 100"),
    ("name", "  ", "1 to 100"),
])
def test_evidence_checks_name_card_and_field(field, value, words):
    e = message(changed("evidence", 2, **{field: value}))
    named(e, "[[evidence]] 3", f"field {field!r}", words)
    if field != "id":
        named(e, "('E003')")


@pytest.mark.parametrize("table,i,ident", [("evidence", 4, "E005"), ("villain", 1, "V02"),
                                           ("inspector", 0, None), ("plot_twist", 3, None)])
def test_missing_and_unknown_fields(table, i, ident):
    data = shipped_data()
    ident = ident or data[table][i]["id"]
    e = message(changed(table, i, name=DELETE))
    named(e, f"[[{table}]] {i + 1} ({ident!r})", "field 'name'", "missing field")
    e = message(changed(table, i, flavour="x"))
    named(e, f"[[{table}]] {i + 1} ({ident!r})", "field 'flavour'", "unknown field")


@pytest.mark.parametrize("field,value,words", [
    ("icons", ["heart"], "2 to 9"), ("icons", ["heart", "heart"], "twice"),
    ("points", 0, "from 1 to 50"), ("points", 51, "from 1 to 50"), ("points", "8", "points"),
])
def test_villain_checks(field, value, words):
    e = message(changed("villain", 1, **{field: value}))
    named(e, "[[villain]] 2 ('V02')", f"field {field!r}", words)


@pytest.mark.parametrize("objectives,words,where", [
    ([], "exactly 3", ""), ("type", "exactly 3", ""),
    ([1, 2, 3], "expected a table", ": objective 1"),
    ([{"each": "shape", "points": 1}] * 3, "objective", ": objective 1, field 'each'"),
    ([{"each": "type", "points": 1}] * 3, "missing field", ": objective 1, field 'type'"),
    ([{"each": "story-pair", "colour": "red", "points": 1}] * 3, "unknown field",
     ": objective 1, field 'colour'"),
    ([{"each": "icon", "icon": "feather", "points": 1}] * 3, "plot icon",
     ": objective 1, field 'icon'"),
    ([{"each": "colour", "colour": "red", "points": 0}] * 3, "from 1 to 50",
     ": objective 1, field 'points'"),
])
def test_inspector_objective_checks(objectives, words, where):
    data = changed("inspector", 0, objectives=objectives)
    e = message(data)
    named(e, "[[inspector]] 1 ('gregson')", "field 'objectives'" + where, words)


def test_plot_twist_effect_unknown_names_the_card():
    e = message(changed("plot_twist", 0, effect="no-arrests"))
    named(e, "[[plot_twist]] 1 ('SECO')", "field 'effect'", "unknown effect 'no-arrests'",
          "no-bsi-bonus")
    e = message(changed("plot_twist", 0, effect=3))
    named(e, "[[plot_twist]] 1 ('SECO')", "field 'effect'")


def test_counts_decks_ids_and_track():
    data = shipped_data()
    data["villain"] = data["villain"][:39]
    named(message(data), "exactly 40 [[villain]]", "has 39")
    named(message(changed("evidence", 25, deck=1)), "[[evidence]] 26 ('E026')",
          "field 'deck'", "deck I already has 20")
    named(message(changed("villain", 5, id="e-001")), "[[villain]] 6 ('e-001')",
          "field 'id'", "already that of [[evidence]] 1")
    data = shipped_data()
    data["solo"]["holmes_track"] = [0] * 18
    named(message(data), "[solo], field 'holmes_track'", "19 spaces", "of 18")
    data["solo"]["holmes_track"] = [0] * 18 + [6]
    named(message(data), "[solo], field 'holmes_track': space 19", "from 0 to 5")
    data = shipped_data()
    data["solo"]["extra"] = 1
    named(message(data), "[solo], field 'extra'", "unknown field")
    data = shipped_data()
    del data["solo"]
    named(message(data), "[solo]", "holmes_track")


def test_top_level_checks():
    data = shipped_data()
    data["villains"] = 1
    named(message(data), "'villains'", "unknown top-level key")
    data = shipped_data()
    data["title"] = ""
    named(message(data), "field 'title'")
    data = shipped_data()
    data["evidence"] = 5
    named(message(data), "field 'evidence'", "[[evidence]] tables")
    data = shipped_data()
    data["evidence"] = list(range(100))
    named(message(data), "[[evidence]] 1", "expected a table")
    named(message("title = \n"), F)
    assert "set.toml" in str(message("[[evidence]]\nid = 'E1'\n[[evidence\n"))


# ----------------------------------------------------------------------------- random
values = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 200) | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=5)


@st.composite
def mutations(draw):
    data = shipped_data()
    table = draw(st.sampled_from(["evidence", "villain", "inspector", "plot_twist", "solo",
                                  "top"]))
    if table == "top":
        target = data
    elif table == "solo":
        target = data["solo"]
    else:
        target = draw(st.sampled_from(data[table]))
    kind = draw(st.sampled_from(["delete", "value", "unknown", "number"]))
    keys = list(target)
    key = draw(st.sampled_from(keys))
    if kind == "delete":
        del target[key]
    elif kind == "unknown":
        target[draw(st.text(min_size=1, max_size=6))] = draw(values)
    elif kind == "number":
        target[key] = draw(st.integers(-(2 ** 70), 2 ** 70))
    else:
        target[key] = draw(values)
    return data


def strip_none(v):
    """TOML has no null: a None is left out (a removed key, or an empty place)."""
    if isinstance(v, dict):
        return {k: strip_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [strip_none(x) for x in v if x is not None]
    return v


@settings(max_examples=60)
@given(mutations())
def test_random_mutations_give_input_error_only(data):
    text = toml(strip_none(data))
    try:
        parse_cards(text, F)
    except InputError as e:
        assert str(e).startswith(F)


@settings(max_examples=150)
@given(st.text(max_size=200))
def test_random_text_gives_input_error_only(text):
    try:
        parse_cards(text, F)
    except InputError:
        pass
