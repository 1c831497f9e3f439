"""score: objective counting for the six kinds by hand, the rulebook's Gregson example
(tests/irregulars/positions/gregson.json: Ann owns E027 E056 E013 E041 E084, black
locations of the stories RESI GLOR BLUE VALL HOUN, two of them used, and E068, a gold witness
of GLOR: 5 locations, 5 black cards, one pair of GLOR -> 5, 10, 5), the spec's JSON, solo."""

from __future__ import annotations

from deduce.models.irregulars.cards import Evidence, Objective, shipped_cards
from deduce.models.irregulars.score import objective_value, score_json
from deduce.models.irregulars.position import parse_position
from tests.irregulars.helpers import GREGSON, SOLO, data, position


def ev(ident, kind="artifact", colour="red", story="AAAA", icons=("heart",)) -> Evidence:
    return Evidence(ident, ident, 1, kind, colour, 1, story, tuple(icons))


def test_gregson_example_of_the_rulebook():
    out = score_json(position(GREGSON))
    assert out == {"players": [
        {"name": "Ann", "villain_points": 8, "objectives": [5, 10, 5], "best": 1, "total": 18},
        {"name": "Ben", "villain_points": 5, "objectives": None, "best": None, "total": None},
        {"name": "Cat", "villain_points": 0, "objectives": None, "best": None, "total": None}]}
    gregson = shipped_cards().inspector_by_id["gregson"]
    assert [o.to_json() for o in gregson.objectives] == [
        {"each": "type", "type": "location", "points": 1},
        {"each": "colour", "colour": "black", "points": 2},
        {"each": "story-pair", "points": 5}]


def test_each_kind_by_hand():
    cards = [ev("a", "artifact", "red", "AAAA", ("heart", "skull")),
             ev("b", "location", "blue", "AAAA", ("heart",)),
             ev("c", "witness", "gold", "AAAA", ("song",)),
             ev("d", "artifact", "silver", "BBBB", ("heart", "blood")),
             ev("e", "location", "black", "BBBB", ("gang",)),
             ev("f", "artifact", "red", "CCCC", ("print",))]
    assert objective_value(Objective("type", "artifact", 2), cards) == 6
    assert objective_value(Objective("colour", "red", 3), cards) == 6
    assert objective_value(Objective("icon", "heart", 2), cards) == 6
    # AAAA x3 -> 1 pair, BBBB x2 -> 1, CCCC x1 -> 0
    assert objective_value(Objective("story-pair", None, 5), cards) == 10
    # artifacts 3, locations 2, witnesses 1 -> 1 set
    assert objective_value(Objective("type-set", None, 4), cards) == 4
    # every colour at least once -> 1 set; without the black card none
    assert objective_value(Objective("colour-set", None, 7), cards) == 7
    assert objective_value(Objective("colour-set", None, 7), cards[:4] + cards[5:]) == 0
    assert objective_value(Objective("type-set", None, 4), cards + cards) == 8
    assert all(objective_value(Objective(k, v, 3), []) == 0 for k, v in (
        ("type", "witness"), ("colour", "gold"), ("icon", "song"), ("story-pair", None),
        ("type-set", None), ("colour-set", None)))


def test_the_first_largest_objective_is_best():
    """The sample: Ann owns E001 E010 E027 (locations), E022 E027 (black), no two of one
    story: 3, 4, 0. With only E027 (black location) and E001 (gold location): 2, 2, 0, a
    tie: the first is best."""
    ann = score_json(position())["players"][0]
    assert (ann["objectives"], ann["best"], ann["total"]) == ([3, 4, 0], 1, 4)
    d = data()
    d["evidence"]["Ann"] = [{"card": "E027", "used": True}, {"card": "E001", "used": False}]
    tie = score_json(parse_position(d, "tie.json"))["players"][0]
    assert (tie["objectives"], tie["best"], tie["total"]) == ([2, 2, 0], 0, 2)


def test_solo_holmes_total_is_his_villain_points():
    """Ann owns E001 (gold location), E006 (used), E019 (red location), E057: 2 locations,
    no black card, no story pair; she arrested V05 (5), Holmes V02 (8) and V08 (4)."""
    assert score_json(position(SOLO)) == {"players": [
        {"name": "Ann", "villain_points": 5, "objectives": [2, 0, 0], "best": 0, "total": 7},
        {"name": "Holmes", "villain_points": 12, "objectives": None, "best": None,
         "total": 12}]}
