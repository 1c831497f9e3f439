"""position: the sample and the hand-built positions round-trip; each check of
``parse_position`` names the file and the field; random JSON values in every field never
cause another exception than ``InputError``; solo positions."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.irregulars.position import (
    REQUIRED,
    load_position,
    parse_position,
    read_observation,
)
from tests.irregulars.helpers import GREGSON, SAMPLE, SOLO, data

W = "game.json"


def fails(d, where: str, *words: str) -> InputError:
    with pytest.raises(InputError) as e:
        parse_position(d, W)
    text = str(e.value)
    assert text.startswith(f"{W}: field {where!r}") or f"field {where!r}" in text, text
    for w in words:
        assert w in text, (w, text)
    return e.value


def test_round_trips():
    for path in (SAMPLE, SOLO, GREGSON):
        raw = json.loads(path.read_text())
        pos = parse_position(raw, path.name)
        assert pos.to_json() == raw
        assert parse_position(pos.to_json(), "again") == pos
    pos = load_position("sample")
    assert pos.me == "Ann" and pos.tailing["Ann"] == "V07" and pos.boards["Ann"] == ("holmes",)
    assert [c.id for c in pos.unused("Ann")] == ["E001", "E006", "E010", "E022", "E027"]
    assert len(pos.owned("Ann")) == 6 and pos.villain_points("Ben") == 5
    assert read_observation(data()) == data()


def test_names_are_read_canonically():
    d = data(me="ann", order=["ann", "CAT", "ben"], mode="Multi", phase="ARREST")
    d["tailing"]["Ann"] = "dr grimesby roylott"        # a Villain by its name
    pos = parse_position(d, W)
    assert (pos.me, pos.order, pos.tailing["Ann"]) == ("Ann", ("Ann", "Cat", "Ben"), "V07")
    assert pos.to_json()["tailing"]["Ann"] == "V07"


def test_solo_positions():
    pos = load_position(SOLO)
    assert pos.solo and pos.players == ("Ann", "Holmes") and pos.order == ("Holmes", "Ann")
    assert pos.villain_points("Holmes") == 12
    fails(data(SOLO, players=["Ann", "Watson"]), "players[1]", "Holmes")
    fails(data(SOLO, me="Holmes"), "me", '[me, "Holmes"]')
    fails(data(SOLO, cycle=20), "cycle", "1 to 19")
    fails(data(SOLO, round=2), "round", "1 to 1")
    fails(data(SOLO, phase="bonus"), "phase")
    fails(data(SOLO, order=["Ann", "Holmes"]), "order", "he arrests first")
    fails(data(SOLO, plot_twist="SIXN"), "plot_twist", "no Plot Twists in solo")
    d = data(SOLO)
    d["tailing"] = {"Ann": None, "Holmes": "V21"}
    d["bsi"] = {"Ann": {"available": 7, "spent": 6}, "Holmes": {"available": 9, "spent": 3}}
    fails(d, "tailing.Holmes", "never tails")
    d = data(SOLO)
    d["boards"]["Ann"] = ["holmes"]
    fails(d, "boards.Ann", "no boards in solo")


def changed(fn):
    d = data()
    fn(d)
    return d


CHECKS = [
    (lambda d: d.update(game="irregular"), "game", "not a Baker Street Irregulars"),
    (lambda d: d.update(game=3), "game", "expected"),
    (lambda d: d.update(flavour=1), "flavour", "unknown field"),
    (lambda d: d.pop("hand"), "hand", "missing field"),
    (lambda d: d.update(cards=3), "cards", "a string"),
    (lambda d: d.update(cards="nowhere.toml"), "cards", "cannot be read"),
    (lambda d: d.update(mode="team"), "mode", ""),
    (lambda d: d.update(players="Ann"), "players", "a list"),
    (lambda d: d.update(players=["Ann"]), "players", "2 to 5"),
    (lambda d: d.update(players=list("ABCDEF")), "players", "at most 5"),
    (lambda d: d.update(players=["Ann", "ann", "Cat"]), "players[1]", "same name"),
    (lambda d: d.update(players=["Ann", 3, "Cat"]), "players[1]", "a string"),
    (lambda d: d.update(players=["Ann", " ", "Cat"]), "players[1]", "1 to 100"),
    (lambda d: d.update(me="Dan"), "me", "player"),
    (lambda d: d.update(round=5), "round", "1 to 4"),
    (lambda d: d.update(round=True), "round", "1 to 4"),
    (lambda d: d.update(cycle=0), "cycle", "1 to 4"),
    (lambda d: d.update(phase="lunch"), "phase", ""),
    (lambda d: d.update(hand=["E031"] * 6), "hand", "at most 5"),
    (lambda d: d.update(hand=["E999"]), "hand[0]", "Evidence id"),
    (lambda d: d.update(hand=["E001"]), "evidence.Ann[0].card", "already at hand[0]"),
    (lambda d: d.update(villains=["V07"] * 6), "villains", "at most 5"),
    (lambda d: d.update(villains=["V07", "V99"]), "villains[1]", "Villain"),
    (lambda d: d["evidence"].update(Dan=[]), "evidence.Dan", "not a player"),
    (lambda d: d["evidence"].pop("Cat"), "evidence.Cat", "missing entry"),
    (lambda d: d["evidence"].update(Cat=[1]), "evidence.Cat[0]", "card and used"),
    (lambda d: d["evidence"].update(Cat=[{"card": "E003"}]), "evidence.Cat[0].used",
     "missing field"),
    (lambda d: d["evidence"].update(Cat=[{"card": "E003", "used": 1}]),
     "evidence.Cat[0].used", "true or false"),
    (lambda d: d["evidence"].update(Cat=[{"card": "E001", "used": False}]),
     "evidence.Cat[0].card", "already at evidence.Ann[0].card"),
    (lambda d: d["tailing"].update(Ben="V01"), "tailing.Ben", "not a visible Villain"),
    (lambda d: d["arrested"].update(Cat=["V07"]), "arrested.Cat[0]", "already at villains[0]"),
    (lambda d: d["arrested"].update(Cat=["V05"]), "arrested.Cat[0]",
     "already at arrested.Ben[0]"),
    (lambda d: d["arrested"].update(Cat="V05"), "arrested.Cat", "a list"),
    (lambda d: d["bsi"].update(Cat={"available": 5}), "bsi.Cat.spent", "missing field"),
    (lambda d: d["bsi"].update(Cat={"available": 14, "spent": 0}), "bsi.Cat.available",
     "0 to 13"),
    (lambda d: d["bsi"].update(Cat={"available": 5, "spent": 7}), "bsi.Cat", "is 12"),
    (lambda d: d["boards"].update(Cat=["holmes"]), "boards.Cat[0]", "already held by Ann"),
    (lambda d: d["boards"].update(Cat=["lestrade"]), "boards.Cat[0]", "board"),
    (lambda d: d.update(order=["Ann", "Ben"]), "order", "missing: Cat"),
    (lambda d: d.update(order=["Ann", "Ben", "Ben"]), "order", "every player once"),
    (lambda d: d.update(inspector="holmes"), "inspector", "Inspector"),
    (lambda d: d.update(plot_twist="XXXX"), "plot_twist", "Plot Twist"),
]


@pytest.mark.parametrize("change,where,words", CHECKS)
def test_each_check_names_the_field(change, where, words):
    e = fails(changed(change), where, words)
    assert e.field == where.split(".")[0].split("[")[0]


def test_not_an_object_and_other_records(tmp_path):
    with pytest.raises(InputError, match="JSON object"):
        parse_position([1], W)
    with pytest.raises(InputError) as e:
        parse_position(data(game="deductions"), W)
    assert str(e.value).startswith(W) and "use deduce deductions" in str(e.value)
    bad = tmp_path / "p.json"
    bad.write_text("{")
    with pytest.raises(InputError) as e:
        load_position(bad)
    assert str(bad) in str(e.value)


def test_a_card_set_of_ones_own_relative_to_the_position(tmp_path):
    from deduce.models.irregulars.cards import shipped_path

    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "mine.toml").write_text(shipped_path().read_text())
    d = data(cards="sets/mine.toml")
    (tmp_path / "pos.json").write_text(json.dumps(d))
    pos = load_position(tmp_path / "pos.json")
    assert pos.cards.source == "sets/mine.toml" and pos.to_json()["cards"] == "sets/mine.toml"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False)
    | st.sampled_from(["Ann", "Ben", "Holmes", "E001", "V07", "holmes", "solo", "arrest",
                       "gregson", "", "shipped"]) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["Ann", "Ben", "Cat", "card", "used", "available", "spent", "x"]),
        inner, max_size=4),
    max_leaves=8)


@st.composite
def positions(draw):
    d = data(draw(st.sampled_from([SAMPLE, SOLO])))
    field = draw(st.sampled_from(REQUIRED + ("cards", "plot_twist")))
    if draw(st.booleans()) and isinstance(d.get(field), dict) and d[field]:
        key = draw(st.sampled_from(sorted(d[field])))
        d[field][key] = draw(json_values)
    else:
        d[field] = draw(json_values)
    return d


@settings(max_examples=300)
@given(positions())
def test_random_json_in_every_field_is_input_error_only(d):
    before = copy.deepcopy(d)
    try:
        pos = parse_position(d, W)
    except InputError as e:
        assert str(e).startswith(W)
    else:
        assert parse_position(pos.to_json(), W) == pos
    assert d == before  # the input is not changed
