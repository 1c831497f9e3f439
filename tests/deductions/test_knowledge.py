"""knowledge: the deck's composition, the odds JSON, Mind Palace chances, the cases within
a player's reach, payments ranked and the milestone report (values worked out by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deduce.core.errors import InputError
from deduce.models.deductions import knowledge as K
from deduce.models.deductions.cards import SUITS
from deduce.models.deductions.position import load_position, parse_position

HAND = Path(__file__).parent / "positions" / "hand.json"


@pytest.fixture(scope="module")
def pos():
    return load_position(HAND)


def test_deck_counts_and_odds(pos):
    deck = pos.deck_counts()
    assert sum(deck.values()) == K.deck_size(pos) == 42
    assert deck["Statements"] == 6 and deck["Sherlock Holmes"] == 0
    assert deck["Prints & Tracks"] == 10 and deck["Inspector Lestrade"] == 1
    assert K.suits_left(pos)["Prints & Tracks"] == 11
    assert K.allies_left(pos) == ["Inspector Lestrade", "Mycroft Holmes"]
    odds = K.odds_json(pos)
    assert sum(v["left"] for v in odds["suits"].values()) == 42
    assert sum(v["p_next"] for v in odds["suits"].values()) == pytest.approx(1.0)


def test_empty_deck_has_no_chance():
    data = json.loads(HAND.read_text())
    # every clue card face up: the missing ones go to the discard pile
    seen = load_position(HAND).deck_counts()
    data["discard"] += [c for c, n in seen.items() for _ in range(n)]
    pos = parse_position(data, "x")
    odds = K.odds_json(pos)
    assert odds["deck"] == 0 and odds["allies"] == []
    assert all(v == {"left": 0, "p_next": 0.0} for v in odds["suits"].values())


def test_line_odds():
    assert K.line_odds([None] * 4) == dict.fromkeys(SUITS, 0.0)
    got = K.line_odds(["Sherlock Holmes", "Statements", "Mycroft Holmes", None])
    assert got == {**dict.fromkeys(SUITS, 0.0), "Statements": 2 / 3, "Artifacts": 1 / 3}
    assert K.line_allies(["Sherlock Holmes", "Statements", "Mycroft Holmes", None]) == [
        "Sherlock Holmes", "Mycroft Holmes"]


def test_mind_palace_lines(pos):
    mp = K.mind_palace(pos)
    assert list(mp) == list(K.LINES)
    assert mp["column a"]["Writings"] == mp["column a"]["Knowledge"] == 1 / 3
    assert mp["column b"] == {**dict.fromkeys(SUITS, 0.0), "Writings": 1 / 3,
                              "Artifacts": 1 / 3, "Statements": 1 / 3}
    for chances in mp.values():
        assert sum(chances.values()) == pytest.approx(1.0)


def test_open_cases_and_find_case(pos):
    ids = [c.id for c in K.open_cases(pos, "[red]Ann")]
    assert ids == ["hound-suspect", "sign-means", "speckled-motive", "sign-motive",
                   "hound-opportunity-1", "sign-opportunity-1", "speckled-means-1",
                   "sign-motive-1", "speckled-suspect"]
    assert len(K.open_cases(pos, "Ben")) == 8
    assert K.find_case(pos, "Stepfather", "[red]Ann").id == "speckled-suspect"
    assert K.find_case(pos, "Sign Means", "[red]Ann").id == "sign-means"
    # the exact id of a card in its pile is that card, not the reachable speckled-means-1
    with pytest.raises(InputError, match="^CASE: 'speckled-means' is not visible nor reserved "
                                         "by \\[red\\]Ann: it is in its pile, unseen$"):
        K.find_case(pos, "speckled-means", "[red]Ann")
    assert K.find_case(pos, "speckled-mean", "[red]Ann").id == "speckled-means-1"
    with pytest.raises(InputError) as e:
        K.find_case(pos, "Stepfather", "Ben")
    assert str(e.value) == ("CASE: 'speckled-suspect' is not visible nor reserved by Ben: "
                            "it is reserved by [red]Ann")


def test_due_and_pay(pos):
    card = pos.cards.by_id["hound-suspect"]
    assert K.due(pos, card, "[red]Ann") == {"Statements": 2, "Writings": 2, "Knowledge": 3}
    assert K.due(pos, card, "Ben") == {"Statements": 2, "Writings": 1, "Knowledge": 2}
    assert K.pay_json(pos, card, "Ben")["short_by"] == 5
    ranked = K.pay_all_json(pos, "Ben")["cases"]
    assert [r["affordable"] for r in ranked] == [False] * 8
    assert [r["short_by"] for r in ranked] == sorted(r["short_by"] for r in ranked)


def test_milestone_report(pos):
    ann = K.milestone_report(pos, "[red]Ann")
    assert ann["lacks"] == {"diversity": ["Motive", "Means", "Opportunity"],
                            "completion": {"hound": 5, "sign": 3, "speckled": 5}}
    assert ann["completes"] == {}
    data = json.loads(HAND.read_text())
    data["solved"]["[red]Ann"] += [{"case": "speckled-motive-1", "discount": "Writings"},
                                   {"case": "speckled-means-2", "discount": "Artifacts"}]
    near = parse_position(data, "x")
    report = K.milestone_report(near, "[red]Ann")
    assert report["lacks"]["diversity"] == ["Opportunity"]
    assert report["completes"] == {"hound-opportunity-1": ["diversity"],
                                   "sign-opportunity-1": ["diversity"]}
