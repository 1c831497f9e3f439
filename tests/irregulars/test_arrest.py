"""arrest: the exact minimum cover against brute force (every subset of cards by size) on
random small tableaux, including masks the shipped set has not; the spec's ``uses`` and
``missing`` rules checked literally; the answer for the sample position by hand."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.irregulars.arrest import (
    EDGE_BIT,
    HOLMES_BOARD,
    PAIRS,
    TAIL,
    Tableau,
    answer_json,
    arrest,
    arrests,
    arrests_json,
    best_arrest,
    covers,
    fewest_cards,
    max_matching,
    naive_arrest,
    naive_fewest_cards,
    position_arrests,
    position_json,
    shortfall,
)
from deduce.models.irregulars.cards import (
    ALL_ICONS,
    ICON_BIT,
    ICONS,
    Evidence,
    Villain,
    icon_mask,
    mask_icons,
    shipped_cards,
)
from deduce.models.irregulars.position import load_position

B = ICON_BIT
#: every icon mask a card may show (1 or 2 icons)
CARD_MASKS = [m for m in range(1, ALL_ICONS + 1) if m.bit_count() <= 2]
card_mask = st.sampled_from(CARD_MASKS)
villain_mask = st.integers(1, ALL_ICONS).filter(lambda m: m.bit_count() >= 2)


def card(i: int, mask: int) -> Evidence:
    return Evidence(f"E{i:03}", f"card {i}", 1, "artifact", "red", 1, "3GAR",
                    tuple(mask_icons(mask)))


def villain(mask: int, points: int = 5, ident: str = "V99") -> Villain:
    return Villain(ident, "someone", tuple(mask_icons(mask)), points)


def union(masks, chosen) -> int:
    out = 0
    for i in chosen:
        out |= masks[i]
    return out


# ----------------------------------------------------------------------------- the cover
def test_doc_examples_by_hand():
    masks = [B["heart"] | B["gang"], B["disguise"], B["blood"] | B["heart"]]
    moran = B["heart"] | B["disguise"] | B["gang"] | B["blood"]
    assert fewest_cards(masks, moran, 0) == (3, [0, 1, 2])
    assert fewest_cards(masks, moran, 1) == (2, [0, 2])
    assert fewest_cards(masks, moran, 2) == (1, [0])
    assert fewest_cards(masks, B["skull"] | B["coins"], 1) is None
    assert fewest_cards([], B["skull"] | B["coins"], 2) == (0, [])


def test_a_card_of_three_icons_is_refused():
    with pytest.raises(ValueError):
        fewest_cards([B["heart"] | B["skull"] | B["coins"]], B["heart"] | B["skull"], 0)


def test_matching_of_an_odd_cycle_and_a_triangle_with_a_tail():
    # a 5-cycle: 2 pairs; greedy (lowest edge first) may stop short of the optimum on a
    # path a-b, b-c, c-d: edges ab(0), bc, cd: greedy takes ab then cd: 2 (optimal)
    icons = [B[i] for i in ICONS[:5]]
    cycle = 0
    for k in range(5):
        cycle |= Tableau([icons[k] | icons[(k + 1) % 5]]).edges
    assert len(max_matching(cycle)) == 2
    # the greedy's trap: edges 0-1 first, but 0-2 and 1-3 match both
    a, b, c, d = icons[:4]
    edges = Tableau([a | b, a | c, b | d]).edges
    got = max_matching(edges)
    assert len(got) == 2 and sorted(got) == sorted([a | c, b | d])


@settings(max_examples=400)
@given(st.lists(card_mask, max_size=9), villain_mask, st.integers(0, 2))
def test_fewest_cards_is_brute_force(masks, target, allowed):
    got = fewest_cards(masks, target, allowed)
    want = naive_fewest_cards(masks, target, allowed)
    assert (got is None) == (want is None)
    if got is not None:
        size, chosen = got
        assert size == want[0] == len(chosen) == len(set(chosen))
        assert chosen == sorted(chosen) and all(0 <= i < len(masks) for i in chosen)
        assert (target & ~union(masks, chosen)).bit_count() <= allowed


@settings(max_examples=200)
@given(st.lists(card_mask, min_size=1, max_size=12), st.integers(0, 2))
def test_moriarty_against_brute_force(masks, allowed):
    got = fewest_cards(masks, ALL_ICONS, allowed)
    want = naive_fewest_cards(masks, ALL_ICONS, allowed)
    assert (got is None) == (want is None)
    if got is not None:
        assert got[0] == want[0]
        assert (ALL_ICONS & ~union(masks, got[1])).bit_count() <= allowed


@settings(max_examples=300)
@given(st.lists(card_mask, max_size=8), villain_mask, st.booleans(), st.booleans())
def test_arrest_is_the_spec_read_literally(masks, target, tailing, board):
    """``cards`` a smallest set counting tail and board; ``uses``: tail whenever tailing,
    holmes only when no set of that size works without the board; ``missing``: a smallest
    set of icons that, added, makes the Villain arrestable."""
    cards = [card(i, m) for i, m in enumerate(masks)]
    v = villain(target)
    got = arrest(cards, v, tailing, board)
    want = naive_arrest(cards, v, tailing, board)
    assert got.arrestable == want.arrestable
    assert len(got.cards) == len(want.cards)
    assert got.uses == want.uses and got.missing == want.missing
    assert (TAIL in got.uses) == tailing
    allowed = int(tailing) + int(board)
    if got.arrestable:
        assert not got.missing
        assert covers(got.cards, v, allowed)
        assert len({c.id for c in got.cards}) == len(got.cards)
        # no smaller set, with or without the board
        for size in range(len(got.cards)):
            for subset in combinations(cards, size):
                assert not covers(subset, v, allowed)
        without = any(covers(s, v, int(tailing)) for s in combinations(cards, len(got.cards)))
        assert (HOLMES_BOARD in got.uses) == (not without)
    else:
        assert got.cards == () and HOLMES_BOARD not in got.uses
        extra = icon_mask(got.missing)
        assert covers([*cards, card(99, extra)] if extra else cards, v, allowed) \
            or not extra
        # adding any smaller set of icons is not enough
        absent = [i for i in ICONS if v.mask & ~Tableau(masks).shown & B[i]]
        for size in range(len(got.missing)):
            for icons in combinations(ICONS, size):
                assert not covers([*cards, card(98, icon_mask(icons))] if icons else cards,
                                  v, allowed)
        assert set(got.missing) <= set(absent)


def test_shortfall_takes_the_first_absent_icons():
    masks = [B["heart"]]
    target = B["heart"] | B["skull"] | B["song"] | B["blood"]
    assert shortfall(masks, target, 0) == ["skull", "song", "blood"]
    assert shortfall(masks, target, 1) == ["skull", "song"]
    assert shortfall(masks, target, 3) == []


# ----------------------------------------------------------------------------- a row
@settings(max_examples=40)
@given(st.randoms(use_true_random=False))
def test_full_row_with_moriarty_matches_the_reference(rng):
    cs = shipped_cards()
    cards = rng.sample(cs.evidence, 10)
    row = [cs.villains[0]] + rng.sample(cs.villains[1:], 4)
    tailed = rng.choice([None] + [v.id for v in row])
    board = rng.random() < 0.5
    fast = arrests(cards, row, tailed, board)
    for a, v in zip(fast, row):
        want = naive_arrest(cards, v, v.id == tailed, board)
        assert (a.arrestable, len(a.cards), a.uses, a.missing) == (
            want.arrestable, len(want.cards), want.uses, want.missing)


def test_best_is_most_points_then_fewest_cards_then_first():
    cards = [card(0, B["heart"] | B["skull"]), card(1, B["coins"]), card(2, B["scroll"])]
    a = villain(B["heart"] | B["skull"], 5, "VA")          # 1 card
    b = villain(B["coins"] | B["scroll"], 5, "VB")         # 2 cards
    c = villain(B["heart"] | B["coins"], 5, "VC")          # 2 cards
    d = villain(B["song"] | B["gang"], 9, "VD")            # not arrestable
    e = villain(B["skull"] | B["heart"], 5, "VE")          # 1 card, after VA
    out = answer_json("Ann", arrests(cards, [b, c, d, a, e], None, False))
    assert out["best"] == "VA"
    assert out["villains"][2] == {"villain": "VD", "points": 9, "arrestable": False,
                                  "cards": [], "uses": [], "missing": ["song", "gang"]}
    assert best_arrest(arrests(cards, [d], None, False)) is None
    assert answer_json("Ann", arrests(cards, [d], None, False))["best"] is None


SAMPLE_ANSWER = {"player": "Ann", "villains": [
    {"villain": "V07", "points": 6, "arrestable": True, "cards": ["E001", "E010"],
     "uses": ["tail", "holmes"], "missing": []},
    {"villain": "V12", "points": 6, "arrestable": True, "cards": ["E001", "E006", "E027"],
     "uses": ["holmes"], "missing": []},
    {"villain": "V02", "points": 8, "arrestable": False, "cards": [], "uses": [],
     "missing": ["disguise"]},
    {"villain": "V33", "points": 3, "arrestable": False, "cards": [], "uses": [],
     "missing": ["print"]},
    {"villain": "V21", "points": 5, "arrestable": True, "cards": ["E001", "E010"],
     "uses": ["holmes"], "missing": []}], "best": "V07"}


def test_sample_position_by_hand():
    """Ann's unused Evidence in the sample: E001 scroll+song, E006 heart, E010 coins+gang,
    E022 song, E027 skull; she tails V07 and holds the Holmes board. V07 (heart coins
    disguise song): disguise is on no card (the tail), the board drops heart: E001 E010.
    V12 (heart skull song print): print missing (the board), 3 cards. Moran (heart
    disguise gang blood): disguise and blood missing, one allowed: disguise is missing.
    V33 (song print blood): print. V21 (skull coins song): the board drops skull. Best:
    V07 and V12 both 6 points, V07 with fewer cards."""
    pos = load_position("sample")
    options = position_arrests(pos, "Ann")
    assert answer_json("Ann", options) == SAMPLE_ANSWER == position_json(pos, "Ann")
    assert [a.to_json() for a in options] == SAMPLE_ANSWER["villains"]
    cards = pos.unused("Ann")
    for a in options:
        want = naive_arrest(cards, a.villain, a.villain.id == "V07", True)
        assert (a.arrestable, len(a.cards), a.uses, a.missing) == (
            want.arrestable, len(want.cards), want.uses, want.missing)


def brute_matching(edges: int) -> int:
    """The largest number of disjoint pairs, sizes from the most that fit (4) down."""
    pairs = [PAIRS[k] for k in range(len(PAIRS)) if edges >> k & 1]
    for size in range(min(4, len(pairs)), 0, -1):
        for chosen in combinations(pairs, size):
            if sum(chosen).bit_count() == 2 * size:
                return size
    return 0


@settings(max_examples=300)
@given(st.lists(st.integers(0, len(PAIRS) - 1), max_size=12))
def test_max_matching_is_brute_force(ks):
    """Random edge sets of up to 12 pairs on the 9 icons."""
    edges = sum({1 << k for k in ks})
    got = max_matching(edges)
    assert sum(got).bit_count() == 2 * len(got)           # disjoint
    assert all(EDGE_BIT[p] & edges for p in got)          # edges of the set
    assert len(got) == brute_matching(edges)


@settings(max_examples=40)
@given(st.randoms(use_true_random=False))
def test_arrests_json_is_answer_json_of_arrests(rng):
    cs = shipped_cards()
    cards = rng.sample(cs.evidence, rng.randint(0, 25))
    row = rng.sample(cs.villains, 5)
    tailed = rng.choice([None] + [v.id for v in row])
    board = rng.random() < 0.5
    assert arrests_json("Cat", cards, row, tailed, board) == answer_json(
        "Cat", arrests(cards, row, tailed, board))
