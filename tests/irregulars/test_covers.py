"""The listed arrests (``covers``): every smallest cover in lexicographic order, and the
engine's list of one card per group, both equal to brute force over all subsets; the size
equal to ``arrest.fewest_cards``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.irregulars.arrest import fewest_cards
from deduce.models.irregulars.covers import (
    arrest_covers,
    min_covers,
    naive_arrest_covers,
    naive_covers,
    representatives,
)

ICON = st.integers(0, 8)
CARD = st.one_of(ICON.map(lambda i: 1 << i),
                 st.tuples(ICON, ICON).filter(lambda t: t[0] != t[1])
                 .map(lambda t: (1 << t[0]) | (1 << t[1])))
VILLAIN = st.one_of(st.sets(ICON, min_size=2, max_size=5), st.just(set(range(9)))) \
    .map(lambda icons: sum(1 << i for i in icons))


@settings(max_examples=300)
@given(masks=st.lists(CARD, max_size=9), villain=VILLAIN, allowed=st.integers(0, 2),
       cap=st.sampled_from([1, 3, 100]))
def test_smallest_covers_are_brute_force_s(masks, villain, allowed, cap):
    found = min_covers(masks, villain, allowed, cap)
    assert found == naive_covers(masks, villain, allowed, cap)
    fewest = fewest_cards(masks, villain, allowed)
    assert (found is None) == (fewest is None)
    if found is not None:
        assert found[0] == fewest[0] and found[1] and len(found[1]) <= cap


@settings(max_examples=300)
@given(masks=st.lists(CARD, max_size=9), villain=VILLAIN, allowed=st.integers(0, 2),
       cap=st.sampled_from([1, 4, 100]))
def test_the_listed_arrests_are_brute_force_s_and_each_card_represents_its_group(
        masks, villain, allowed, cap):
    found = arrest_covers(masks, villain, allowed, cap)
    assert found == naive_arrest_covers(masks, villain, allowed, cap)
    reps = set(representatives(masks, villain).values())
    if found is not None:
        assert found[0] == fewest_cards(masks, villain, allowed)[0]
        assert all(set(cover) <= reps for cover in found[1])


def test_a_villain_within_the_allowance_needs_no_card():
    assert min_covers([], 0b11, 2, 4) == (0, [()])
    assert arrest_covers([0b100], 0b11, 2, 4) == (0, [()])
