"""plan: the best arrests for the rest of the game, against brute force over every
assignment of cards (and of the Holmes board's ignore) on small random cases; the Arrest
Phases left by hand; the sample's plan by hand."""

from __future__ import annotations

from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.irregulars.arrest import covers
from deduce.models.irregulars.cards import ALL_ICONS, Evidence, Villain, mask_icons
from deduce.models.irregulars.plan import best_plan, phases_left, plan
from tests.irregulars.helpers import SOLO, position

CARD_MASKS = [m for m in range(1, ALL_ICONS + 1) if m.bit_count() <= 2]
#: a few icons only, so that cases are tight and arrests compete for cards
SMALL = [m for m in CARD_MASKS if m < 1 << 5]


def card(i: int, mask: int) -> Evidence:
    return Evidence(f"E{i:03}", f"card {i}", 1, "artifact", "red", 1, "3GAR",
                    tuple(mask_icons(mask)))


def villain(i: int, mask: int, points: int) -> Villain:
    return Villain(f"V{i:02}", f"villain {i}", tuple(mask_icons(mask)), points)


def brute(cards, villains, tailed, board, phases):
    """(points, cards used) best over every set of Villains (at most ``phases``), every
    assignment of the cards to them (or to none) and every place of the board's ignore."""
    best = (0, 0)
    for size in range(1, min(phases, len(villains)) + 1):
        for chosen in combinations(range(len(villains)), size):
            for boarded in [None, *chosen] if board else [None]:
                for owner in product([None, *chosen], repeat=len(cards)):
                    ok = True
                    for v in chosen:
                        mine = [c for c, o in zip(cards, owner) if o == v]
                        allowed = int(villains[v].id == tailed) + int(boarded == v)
                        if not covers(mine, villains[v], allowed):
                            ok = False
                            break
                    if ok:
                        used = sum(o is not None for o in owner)
                        value = (sum(villains[v].points for v in chosen), -used)
                        if value > (best[0], -best[1]):
                            best = (value[0], used)
    return best


@settings(max_examples=30)
@given(st.lists(st.sampled_from(SMALL), max_size=6),
       st.lists(st.tuples(st.integers(1, (1 << 5) - 1).filter(lambda m: m.bit_count() >= 2),
                          st.integers(1, 9)), min_size=1, max_size=3),
       st.integers(-1, 2), st.booleans(), st.integers(0, 3))
def test_best_plan_is_brute_force(masks, rows, tail_at, board, phases):
    cards = [card(i, m) for i, m in enumerate(masks)]
    villains = [villain(i, m, p) for i, (m, p) in enumerate(rows)]
    tailed = villains[tail_at].id if 0 <= tail_at < len(villains) else None
    points, used, chosen = best_plan(cards, villains, tailed, board, phases)
    assert (points, used) == brute(cards, villains, tailed, board, phases)
    # the plan itself is legal
    assert len(chosen) <= phases and sum(b for _, _, b in chosen) <= int(board)
    seen = [i for _, idx, _ in chosen for i in idx]
    assert len(seen) == len(set(seen)) == used
    for v, idx, boarded in chosen:
        allowed = int(villains[v].id == tailed) + int(boarded)
        assert covers([cards[i] for i in idx], villains[v], allowed)


def test_phases_left_by_hand():
    assert phases_left(position()) == 2 + 4 * 2 + 1      # round 2 cycle 3 arrest: 3 and 4
    assert phases_left(position(phase="investigate")) == 11
    assert phases_left(position(phase="tail")) == 1 + 8 + 1
    assert phases_left(position(phase="bonus", cycle=4)) == 8 + 1
    assert phases_left(position(round=4, cycle=4, phase="bonus")) == 1  # the final one
    assert phases_left(position(round=1, cycle=1, phase="investigate")) == 17
    assert phases_left(position(SOLO)) == 19 - 7 + 1
    assert phases_left(position(SOLO, cycle=19, phase="tail")) == 0


def test_sample_plan_by_hand():
    """Ann: E001 scroll+song, E006 heart, E010 coins+gang, E022 song, E027 skull; tails V07
    (heart coins disguise song), holds the Holmes board. V07 takes heart, coins, song
    (disguise by the tail): E006 E010 E022; V21 (skull coins song) with the board: E027
    E001. Moran (8) lacks disguise and blood; V12 (6) needs the only heart, as V07 does:
    11 points is the most."""
    got = plan(position(), "Ann").to_json()
    assert got == {"player": "Ann", "phases_left": 11, "points": 11, "cards_used": 5,
                   "arrests": [
                       {"villain": "V21", "points": 5, "cards": ["E001", "E027"],
                        "uses": ["holmes"]},
                       {"villain": "V07", "points": 6, "cards": ["E006", "E010", "E022"],
                        "uses": ["tail"]}]}
    # one Arrest Phase left (round 4's final one): 6 points, V07 (2 cards with the tail and
    # the board) rather than V12 (3 cards)
    for phase in ("tail", "bonus"):
        one = plan(position(round=4, cycle=4, phase=phase), "Ann").to_json()
        assert (one["phases_left"], one["points"], len(one["arrests"])) == (1, 6, 1)
        assert one["cards_used"] == 2


def test_no_phase_left_plans_nothing():
    got = plan(position(SOLO, cycle=19, phase="tail"), "Ann").to_json()
    assert got == {"player": "Ann", "phases_left": 0, "points": 0, "cards_used": 0,
                   "arrests": []}
