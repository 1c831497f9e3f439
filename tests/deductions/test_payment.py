"""The payment solver against a brute force over every use of every card, plus the spec's
example and the corner cases (surplus, nothing due, Watson, not affordable)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.deductions.payment import (
    ALLY_SUIT,
    SUITS,
    Payment,
    affordable,
    discounted,
    discounted_due,
    due_dict,
    due_vector,
    affordable_dues,
    pay,
    pay_vector,
    payment_json,
    pool_counts,
    short_by,
    spend_vector,
    use_pays,
    use_words,
)

SHERLOCK, LESTRADE, WATSON, MYCROFT, IRENE = ALLY_SUIT
ALLIES = tuple(ALLY_SUIT)
CROSS = "cross"


def card_uses(card: str) -> list:
    """Every use one card can have: None (unused), CROSS (one of the 3 cards of a
    cross-reference), or ``(suit, units)`` paid by the card alone."""
    if card == SHERLOCK:
        alone = [(s, 2) for s in SUITS]
    elif card == LESTRADE:
        alone = [(s, 1) for s in SUITS]
    else:
        alone = [(ALLY_SUIT.get(card, card), 1)]
    return [None, CROSS, *alone]


def brute_pay(due: dict[str, int], pool: tuple[str, ...]) -> tuple[int, int] | None:
    """``(cards spent, Allies spent)`` of the best payment found by trying every use of
    every card (None when none pays). The cross-reference cards form ``n // 3`` groups,
    each of a suit of one's choosing: they pay the due iff what the single cards leave
    unpaid is at most ``n // 3`` units."""
    best = None
    for choice in product(*(card_uses(c) for c in pool)):
        crosses, rest = divmod(choice.count(CROSS), 3)
        if rest:
            continue
        paid = Counter()
        for use in choice:
            if isinstance(use, tuple):
                paid[use[0]] += use[1]
        if sum(max(0, n - paid[s]) for s, n in due.items()) > crosses:
            continue
        used = [card for card, use in zip(pool, choice) if use is not None]
        score = (len(used), sum(card in ALLY_SUIT for card in used))
        best = score if best is None or score < best else best
    return best


@lru_cache(maxsize=None)
def brute_affordable(due: tuple[tuple[str, int], ...], pool: tuple[str, ...]) -> bool:
    """Whether the brute force finds any payment (``pool`` sorted, for the cache)."""
    return brute_pay(dict(due), pool) is not None


def brute_short_by(due: dict[str, int], pool: list[str], affordable) -> int:
    """The fewest extra regular cards (every multiset of suits tried, smallest first)
    that make ``affordable(due, pool + extra)`` true."""
    for k in range(sum(due.values()) + 1):
        for extra in combinations_with_replacement(SUITS, k):
            if affordable(due, [*pool, *extra]):
                return k
    raise AssertionError("paying every unit with a card of its suit always works")


def check_legal(payment: Payment, due: dict[str, int], pool: list[str]) -> None:
    """Every use is allowed by the rules, the uses cover the due, and ``spent``,
    ``pool_after`` and the counts agree with the uses and the pool."""
    paid = Counter()
    for cards, suit in payment.uses:
        assert suit in SUITS
        if len(cards) == 3:
            paid[suit] += 1
        else:
            (card,) = cards
            assert suit == ALLY_SUIT.get(card, card) or card in (SHERLOCK, LESTRADE)
            paid[suit] += 2 if card == SHERLOCK else 1
    assert all(paid[s] >= n for s, n in due.items())
    assert Counter(payment.spent) == Counter(c for cards, _ in payment.uses for c in cards)
    assert Counter(payment.spent) + Counter(payment.pool_after) == Counter(pool)
    rest = iter(pool)
    assert all(any(c == k for k in rest) for c in payment.pool_after)  # pool order kept
    assert payment.cards_spent == len(payment.spent)
    assert payment.allies_spent == sum(c in ALLY_SUIT for c in payment.spent)


dues = st.dictionaries(st.sampled_from(SUITS), st.integers(0, 3), max_size=5)
pools = st.tuples(st.lists(st.sampled_from(SUITS), max_size=5),
                  st.lists(st.sampled_from(ALLIES), max_size=3, unique=True),
                  st.randoms(use_true_random=False)).map(
    lambda t: t[2].sample(t[0] + t[1], len(t[0]) + len(t[1])))


@settings(max_examples=250)
@given(dues, pools)
def test_pay_is_the_brute_force_optimum_and_legal(due, pool):
    found = pay(due, pool)
    best = brute_pay(due, tuple(pool))
    if best is None:
        assert found is None
    else:
        assert (found.cards_spent, found.allies_spent) == best
        check_legal(found, due, pool)


@settings(max_examples=60)
@given(dues, pools)
def test_short_by_is_the_fewest_extra_cards(due, pool):
    expected = brute_short_by(due, pool, lambda d, p: pay(d, p) is not None)
    assert short_by(due, pool) == expected
    assert (expected == 0) == (pay(due, pool) is not None)


@settings(max_examples=40)
@given(st.dictionaries(st.sampled_from(SUITS), st.integers(0, 2), max_size=3),
       st.lists(st.sampled_from(SUITS + ALLIES), max_size=3))
def test_short_by_matches_the_brute_force_on_tiny_pools(due, pool):
    def affordable(d, p):
        return brute_affordable(tuple(sorted(d.items())), tuple(sorted(p)))

    assert short_by(due, pool) == brute_short_by(due, pool, affordable)


@settings(max_examples=40)
@given(dues, st.lists(st.sampled_from(SUITS + (SHERLOCK, LESTRADE, WATSON)), max_size=5))
def test_duplicate_allies_are_solved_exactly_too(due, pool):
    found, best = pay(due, pool), brute_pay(due, tuple(pool))
    assert (None if found is None else (found.cards_spent, found.allies_spent)) == best


@settings(max_examples=120)
@given(dues, pools)
def test_affordable_is_whether_the_brute_force_finds_a_payment(due, pool):
    expected = brute_pay(due, tuple(pool)) is not None
    assert affordable(due_vector(due), pool_counts(pool)) is expected
    assert (pay(due, pool) is not None) is expected


@settings(max_examples=60)
@given(dues, st.lists(st.sampled_from(SUITS + (SHERLOCK, SHERLOCK, LESTRADE, IRENE)),
                      max_size=6))
def test_affordable_with_several_sherlocks_and_lestrades(due, pool):
    expected = brute_affordable(tuple(sorted(due.items())), tuple(sorted(pool)))
    assert affordable(due_vector(due), pool_counts(pool)) is expected
    assert (pay(due, pool) is not None) is expected


@settings(max_examples=80)
@given(st.tuples(*[st.integers(0, 5)] * 5),
       st.tuples(*[st.integers(0, 4)] * 6).map(lambda c: (*c, 1, sum(c) + 1)))
def test_one_sherlock_closed_form_is_every_placement_tried(due, counts):
    from deduce.models.deductions.payment import _one_sherlock_affordable, _placed_affordable

    assert _one_sherlock_affordable(due, counts) is _placed_affordable(due, counts)


@settings(max_examples=60)
@given(dues, st.lists(st.sampled_from(SUITS + (LESTRADE, IRENE, WATSON)), max_size=6))
def test_affordable_with_one_sherlock_is_the_brute_force(due, pool):
    pool = [SHERLOCK, *pool]
    expected = brute_affordable(tuple(sorted(due.items())), tuple(sorted(pool)))
    assert affordable(due_vector(due), pool_counts(pool)) is expected


def test_pool_counts_and_due_vectors():
    pool = ["Writings", WATSON, SHERLOCK, LESTRADE, "Knowledge", IRENE, "Writings"]
    # Statements, Prints & Tracks, Writings (2 + Watson), Artifacts, Knowledge (+ Irene)
    assert pool_counts(pool) == (0, 0, 3, 0, 2, 1, 1, 7)
    assert due_vector({"Knowledge": 2, "Statements": 1}) == (1, 0, 0, 0, 2)
    assert due_dict((1, 0, 0, 0, 2)) == {"Statements": 1, "Knowledge": 2}
    assert discounted((3, 0, 1, 0, 2), (0, 1, 2, 0, 1)) == (3, 0, 0, 0, 1)
    with pytest.raises(ValueError, match="'Clues' is neither a suit nor an Ally"):
        pool_counts(["Clues"])


def test_due_vectors_are_paid_as_dues():
    pool = [SHERLOCK, "Knowledge", "Writings", "Writings", "Artifacts", LESTRADE]
    dues = [{"Statements": 2, "Knowledge": 2}, {"Writings": 4}, {}, {"Artifacts": 6}]
    vectors = [due_vector(d) for d in dues]
    assert [pay_vector(v, pool) for v in vectors] == [pay(d, pool) for d in dues]
    assert affordable_dues(vectors, pool_counts(pool)) == [True, True, True, False]
    no_sherlock = pool[1:]
    assert affordable_dues(vectors, pool_counts(no_sherlock)) == [
        pay(d, no_sherlock) is not None for d in dues] == [False, False, True, False]


def test_what_one_use_pays():
    assert use_pays((SHERLOCK,), "Knowledge") == 2
    assert use_pays((LESTRADE,), "Writings") == 1
    assert use_pays((WATSON,), "Writings") == 1
    assert use_pays((WATSON,), "Knowledge") == 0
    assert use_pays(("Artifacts",), "Artifacts") == 1
    assert use_pays(("Artifacts",), "Writings") == 0
    assert use_pays(("Artifacts", WATSON), "Writings") == 0
    assert use_pays(("Artifacts", WATSON, SHERLOCK), "Writings") == 1


SPEC_POOL = [SHERLOCK, "Knowledge", "Writings", "Writings", "Artifacts", "Prints & Tracks"]


def test_the_spec_example():
    assert payment_json("ID", {"Statements": 2, "Knowledge": 2}, SPEC_POOL) == {
        "case": "ID", "due": {"Statements": 2, "Knowledge": 2}, "affordable": True,
        "cards_spent": 5,
        "payment": [{"cards": [SHERLOCK], "as": "Statements"},
                    {"cards": ["Knowledge"], "as": "Knowledge"},
                    {"cards": ["Writings", "Writings", "Artifacts"], "as": "Knowledge"}],
        "pool_after": ["Prints & Tracks"], "short_by": 0}


def test_surplus_is_allowed_and_lost():
    p = pay({"Knowledge": 1}, [SHERLOCK, "Writings"])
    assert p == Payment([((SHERLOCK,), "Knowledge")], [SHERLOCK], ["Writings"], 1, 1)
    p = pay({"Statements": 1, "Writings": 1}, ["Writings", SHERLOCK, "Knowledge"])
    assert p.uses == [((SHERLOCK,), "Statements"), (("Writings",), "Writings")]
    assert p.pool_after == ["Knowledge"]


@pytest.mark.parametrize("due", [{}, {"Statements": 0, "Knowledge": 0}])
def test_nothing_due_spends_nothing(due):
    assert pay(due, ["Writings", SHERLOCK]) == Payment([], [], ["Writings", SHERLOCK], 0, 0)
    assert payment_json("C", due, []) == {
        "case": "C", "due": {}, "affordable": True, "cards_spent": 0, "payment": [],
        "pool_after": [], "short_by": 0}


def test_watson_is_one_card_of_writings_and_his_draw_is_not_ours():
    assert pay({"Writings": 1}, [WATSON]) == Payment(
        [((WATSON,), "Writings")], [WATSON], [], 1, 1)
    assert pay({"Writings": 2}, [WATSON]) is None
    p = pay({"Statements": 1}, ["Knowledge", WATSON, "Artifacts", SHERLOCK, LESTRADE])
    assert p.uses == [((LESTRADE,), "Statements")]  # 1 card, and Sherlock kept
    p = pay({"Statements": 1}, ["Knowledge", WATSON, "Artifacts"])
    assert p.uses == [(("Knowledge", WATSON, "Artifacts"), "Statements")]
    assert p.pool_after == []


def test_not_affordable_gives_the_exact_shortfall():
    due, pool = {"Statements": 3, "Knowledge": 1}, ["Statements", "Writings", "Writings"]
    assert pay(due, pool) is None
    assert short_by(due, pool) == 3
    assert pay(due, pool + ["Statements", "Statements", "Knowledge"]) is not None
    assert all(pay(due, pool + list(extra)) is None
               for extra in combinations_with_replacement(SUITS, 2))
    assert payment_json("C", due, pool) == {
        "case": "C", "due": due, "affordable": False, "cards_spent": 0, "payment": [],
        "pool_after": pool, "short_by": 3}
    assert short_by({"Artifacts": 2}, []) == 2
    assert short_by({"Artifacts": 2}, ["Writings"] * 5) == 1  # 1 Artifacts + 3-for-1


def test_ties_are_broken_as_documented():
    # regular cards before their suit's Ally; own-suit Allies before Lestrade
    assert pay({"Writings": 1}, [WATSON, "Writings"]).spent == ["Writings"]
    assert pay({"Writings": 1}, [LESTRADE, WATSON]).spent == [WATSON]
    # Sherlock on the first suit of SUITS among equal choices
    p = pay({"Statements": 2, "Knowledge": 2}, ["Knowledge", "Knowledge", SHERLOCK,
                                                 "Statements", "Statements"])
    assert p.uses[0] == ((SHERLOCK,), "Statements")
    assert p.pool_after == ["Statements", "Statements"]
    # a cross-reference takes the suit with most copies left, and Allies last
    p = pay({"Knowledge": 1}, ["Artifacts", "Writings", "Writings", "Writings", IRENE])
    assert p.uses == [((IRENE,), "Knowledge")]
    p = pay({"Knowledge": 1}, ["Artifacts", "Writings", "Writings", "Statements"])
    assert p.uses == [(("Artifacts", "Writings", "Writings"), "Knowledge")]
    p = pay({"Knowledge": 1}, [SHERLOCK, MYCROFT, "Artifacts"])
    assert p.uses == [((SHERLOCK,), "Knowledge")]
    p = pay({"Knowledge": 1, "Statements": 2}, [SHERLOCK, MYCROFT, WATSON, "Artifacts"])
    assert p.uses == [((SHERLOCK,), "Statements"),
                      ((MYCROFT, WATSON, "Artifacts"), "Knowledge")]
    # of identical cards the earliest are spent
    assert pay({"Writings": 1}, ["Writings", "Knowledge", "Writings"]).pool_after == [
        "Knowledge", "Writings"]


def test_discounted_due():
    cost = {"Statements": 3, "Writings": 1, "Knowledge": 2}
    assert discounted_due(cost, ["Writings", "Writings", "Knowledge", "Artifacts"]) == {
        "Statements": 3, "Knowledge": 1}
    assert list(discounted_due({"Knowledge": 1, "Statements": 1}, [])) == [
        "Statements", "Knowledge"]
    assert discounted_due({"Artifacts": 0}, []) == {}


@settings(max_examples=300)
@given(st.tuples(*[st.integers(0, 4)] * 5),
       st.lists(st.sampled_from(SUITS + SUITS + ALLIES + (LESTRADE, WATSON)), max_size=14))
def test_spend_vector_is_what_the_cheapest_payment_spends_and_keeps(due, pool):
    """The rules engine's path (no uses built) against ``pay_vector``: the same cards
    spent, use by use, and the same pool after, on pools with repeated Allies and
    cross-references (a Sherlock goes through ``pay_vector`` itself)."""
    found = pay_vector(due, pool)
    expected = None if found is None else (
        [card for cards, _ in found.uses for card in cards], found.pool_after)
    assert spend_vector(due, pool) == expected


def test_spend_vector_cases_by_hand():
    # direct cards, regular before the Ally; a Lestrade; a cross-reference from the suit
    # with the most copies left, in pool order; the earliest copies spent
    pool = ["Writings", WATSON, "Artifacts", "Artifacts", LESTRADE, "Artifacts", "Writings"]
    due = due_vector({"Writings": 3, "Statements": 2})
    assert spend_vector(due, pool) == (
        [LESTRADE, "Writings", "Writings", WATSON, "Artifacts", "Artifacts", "Artifacts"], [])
    assert spend_vector(due_vector({"Knowledge": 1}), ["Writings"]) is None
    assert spend_vector(due_vector({"Writings": 1}), [SHERLOCK, "Writings"]) == (
        ["Writings"], [SHERLOCK])
    with pytest.raises(ValueError, match="'Clues' is neither a suit nor an Ally"):
        spend_vector(due_vector({"Writings": 1}), ["Clues"])


def test_names_that_are_not_cards_are_refused():
    with pytest.raises(ValueError, match="'Clues' is neither a suit nor an Ally"):
        pay({"Writings": 1}, ["Clues"])
    with pytest.raises(ValueError, match="due: 'writings' is not a suit"):
        pay({"writings": 1}, [])
    with pytest.raises(ValueError, match="due: 'Writings' owes -1"):
        short_by({"Writings": -1}, [])
    with pytest.raises(ValueError, match="discounts: 'Clues' is not a suit"):
        discounted_due({}, ["Clues"])


def test_each_use_in_words():
    assert use_words([SHERLOCK], "Statements") == "Sherlock Holmes as 2 Statements"
    assert use_words((LESTRADE,), "Writings") == "Inspector Lestrade as 1 Writings"
    assert use_words(["Knowledge"], "Knowledge") == "Knowledge as 1 Knowledge"
    assert use_words(["Writings", WATSON, "Artifacts"], "Knowledge") == (
        "3 cards as 1 Knowledge (cross-reference: Writings, Dr. John Watson, Artifacts)")
