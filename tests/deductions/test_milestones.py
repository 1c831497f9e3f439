"""The milestone planner against a brute force over every commitment choice (every set of
5 solved cards), plus the spec's example and the chosen meaning of "reachable"."""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.deductions.milestones import (
    CASES,
    CATEGORIES,
    MILESTONES,
    claimable,
    completes,
    lacks,
    max_bonus,
    met,
    milestones_json,
    satisfies,
)


class SolvedCard(NamedTuple):
    """A solved card as the milestone functions read it (id, case, category)."""

    id: str
    case: str
    category: str


def meets(milestone: str, five: list[SolvedCard]) -> bool:
    """The rule itself: 5 cards, one of each category, or all of one case."""
    if milestone == "diversity":
        return sorted(c.category for c in five) == sorted(CATEGORIES)
    return len({c.case for c in five}) == 1


def commitments(milestone: str, cards: list[SolvedCard]) -> list[tuple[int, ...]]:
    """Every set of 5 indices into ``cards`` that meets ``milestone``, smallest first."""
    return [ix for ix in combinations(range(len(cards)), 5)
            if meets(milestone, [cards[i] for i in ix])]


def far(milestone: str, cards: list[SolvedCard]) -> tuple[int, ...]:
    """The documented distance, from the card list: the fewest cards still needed
    (per case, smallest first, for Case Completion)."""
    if milestone == "diversity":
        return (5 - len({c.category for c in cards}),)
    return tuple(sorted(max(0, 5 - sum(c.case == k for c in cards)) for k in CASES))


def without(cards, ix):
    return [c for i, c in enumerate(cards) if i not in ix]


def brute_together(milestones: list[str], cards: list[SolvedCard]) -> int:
    """The most of ``milestones`` met at once by disjoint 5-card sets."""
    best = 0
    for i, m in enumerate(milestones):
        for ix in commitments(m, cards):
            rest = milestones[:i] + milestones[i + 1:]
            best = max(best, 1 + brute_together(rest, without(cards, ix)))
    return best


def brute_claimable(solved, claimed) -> dict[str, list[str]]:
    """Every commitment choice tried: disjoint sets for all when the ready milestones can
    be met together (the least list of index sets), else for each the set leaving the
    other open milestones closest, then the least index set."""
    committed = {i for ids in claimed.values() for i in ids}
    cards = [c for c in solved if c.id not in committed]
    open_ = [m for m in MILESTONES if m not in claimed]
    ready = [m for m in open_ if commitments(m, cards)]
    if len(ready) == 2:
        pairs = [[a, b] for a in commitments(ready[0], cards) for b in commitments(
            ready[1], cards) if not set(a) & set(b)]
        if pairs:
            return {m: [cards[i].id for i in ix] for m, ix in zip(ready, min(pairs))}
    out = {}
    for m in ready:
        others = [o for o in open_ if o != m]
        key = min(([far(o, without(cards, ix)) for o in others], ix)
                  for ix in commitments(m, cards))
        out[m] = [cards[i].id for i in key[1]]
    return out


kinds = st.tuples(st.sampled_from(CASES), st.sampled_from(CATEGORIES))


@st.composite
def positions(draw, max_cards=11):
    """Solved cards (ids c0, c1, ...) and claims made with valid disjoint sets."""
    solved = [SolvedCard(f"c{i}", case, cat)
              for i, (case, cat) in enumerate(draw(st.lists(kinds, max_size=max_cards)))]
    claimed, free = {}, list(solved)
    for m in MILESTONES:
        options = commitments(m, free)
        if options and draw(st.booleans()):
            ix = draw(st.sampled_from(options))
            claimed[m] = [free[i].id for i in ix]
            free = without(free, ix)
    return solved, claimed


@settings(max_examples=150)
@given(positions())
def test_claimable_and_max_bonus_are_the_brute_force_choices(position):
    solved, claimed = position
    found = claimable(solved, claimed)
    assert found == brute_claimable(solved, claimed)
    assert met(solved, claimed) == list(found)
    by_id = {c.id: c for c in solved}
    for m, ids in found.items():
        assert satisfies(m, [by_id[i] for i in ids])
    committed = {i for ids in claimed.values() for i in ids}
    rest = [c for c in solved if c.id not in committed]
    open_ = [m for m in MILESTONES if m not in claimed]
    assert max_bonus(solved, claimed) == 3 * (len(claimed) + brute_together(open_, rest))


@settings(max_examples=100)
@given(positions(max_cards=8), kinds)
def test_lacks_and_completes_match_the_rules(position, kind):
    solved, claimed = position
    committed = {i for ids in claimed.values() for i in ids}
    rest = [c for c in solved if c.id not in committed]
    extra = SolvedCard("new", *kind)
    got = lacks(solved, claimed)
    assert list(got) == [m for m in MILESTONES if m not in claimed]
    if "diversity" in got:
        assert got["diversity"] == [k for k in CATEGORIES if k not in {c.category for c in rest}]
    if "completion" in got:
        assert got["completion"] == {k: max(0, 5 - sum(c.case == k for c in rest)) for k in CASES}
    assert completes(solved, claimed, extra) == [
        m for m in got if not commitments(m, rest) and commitments(m, rest + [extra])]


def hound(*categories, prefix="h"):
    return [SolvedCard(f"{prefix}{i}", "hound", k) for i, k in enumerate(categories)]


def test_the_spec_example():
    sign = [SolvedCard(f"s{i}", "sign", k) for i, k in enumerate(CATEGORIES)]
    solved = sign + hound("Suspect", "Suspect", "Motive", "Means", "Means")
    claimed = {"diversity": ["s0", "s1", "s2", "s3", "s4"]}
    assert milestones_json("Ann", solved, claimed) == {
        "player": "Ann", "claimed": claimed,
        "claimable": {"completion": ["h0", "h1", "h2", "h3", "h4"]}, "max_bonus": 6}


def test_the_set_committed_keeps_the_other_milestone_closest():
    # 6 hound cards (one per category, and a second Suspect) and a sign Suspect: both
    # milestones are met, not together. Diversity takes the sign Suspect, so that Case
    # Completion is 3 cards away (not 4 and 4); Case Completion leaves a card of another
    # category than Suspect beside the sign Suspect (the latest: the Opportunity), so
    # that Diversity lacks 3 (not 4)
    solved = hound(*CATEGORIES, "Suspect") + [SolvedCard("s", "sign", "Suspect")]
    assert claimable(solved, {}) == {"diversity": ["h1", "h2", "h3", "h4", "s"],
                                     "completion": ["h0", "h1", "h2", "h3", "h5"]}
    assert max_bonus(solved, {}) == 3
    # with Case Completion claimed, nothing else to keep: the earliest cards
    assert claimable(solved + hound(*CATEGORIES, prefix="x"),
                     {"completion": ["x0", "x1", "x2", "x3", "x4"]}) == {
        "diversity": ["h0", "h1", "h2", "h3", "h4"]}


def test_both_at_once_get_disjoint_sets():
    solved = hound(*CATEGORIES) + hound("Suspect", "Location", "Motive", "Means", prefix="x") \
        + [SolvedCard("o", "sign", "Opportunity")]
    found = claimable(solved, {})
    assert found == {"diversity": ["h0", "h1", "h2", "h3", "o"],
                     "completion": ["h4", "x0", "x1", "x2", "x3"]}
    assert max_bonus(solved, {}) == 6


def test_nothing_solved_and_both_claimed():
    assert milestones_json("Ben", [], {}) == {
        "player": "Ben", "claimed": {}, "claimable": {}, "max_bonus": 0}
    assert lacks([], {}) == {"diversity": list(CATEGORIES),
                             "completion": {"hound": 5, "sign": 5, "speckled": 5}}
    solved = hound(*CATEGORIES) + hound(*CATEGORIES, prefix="x")
    claimed = {"completion": ["h0", "h1", "h2", "h3", "h4"],
               "diversity": ["x0", "x1", "x2", "x3", "x4"]}
    assert max_bonus(solved, claimed) == 6
    assert lacks(solved, claimed) == {}
    assert milestones_json("Ben", solved, claimed)["claimed"] == {
        "diversity": claimed["diversity"], "completion": claimed["completion"]}
    assert completes(solved, claimed, SolvedCard("n", "sign", "Motive")) == []


def test_completes_names_what_one_more_card_would_meet():
    solved = hound("Suspect", "Location", "Motive", "Means")
    assert completes(solved, {}, SolvedCard("n", "hound", "Means")) == ["completion"]
    assert completes(solved, {}, SolvedCard("n", "sign", "Opportunity")) == ["diversity"]
    assert completes(solved, {}, SolvedCard("n", "hound", "Opportunity")) == [
        "diversity", "completion"]
    assert completes(solved, {}, SolvedCard("n", "sign", "Means")) == []


def test_satisfies():
    assert satisfies("diversity", hound(*CATEGORIES))
    assert satisfies("completion", hound(*["Means"] * 5))
    assert not satisfies("diversity", hound(*["Means"] * 5))
    assert not satisfies("completion", hound(*CATEGORIES[:4]) + [SolvedCard("s", "sign", "Means")])
    assert not satisfies("completion", hound(*CATEGORIES[:4]))
    assert not satisfies("completion", hound(*CATEGORIES[:4]) + hound("Means"))  # h0 twice


def test_bad_data_is_refused():
    with pytest.raises(ValueError, match="solved card 'x': case 'baskerville' is not one of"):
        max_bonus([SolvedCard("x", "baskerville", "Means")], {})
    with pytest.raises(ValueError, match="solved card 'x': category 'Weapon' is not one of"):
        lacks([SolvedCard("x", "hound", "Weapon")], {})
    with pytest.raises(ValueError, match="solved cards: 'h0' appears twice"):
        claimable(hound("Means", "Motive", prefix="h") + hound("Means"), {})
    with pytest.raises(ValueError, match="claimed: 'bonus' is not a milestone"):
        claimable([], {"bonus": []})
    with pytest.raises(ValueError, match="claimed diversity: 'zz' is not a solved card"):
        claimable([], {"diversity": ["zz"]})
