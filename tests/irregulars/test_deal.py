"""``deal.track`` against brute force on small made-up universes: every draw and every
deal (and, for partial logs, every unobserved pick) is enumerated, played forward and
checked against the log; the exact chances and the count of worlds must agree, a log no
deal fits must be a ``Conflict`` whose fields no deal fits while dropping any one of them
leaves a log some deal fits."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.models.irregulars.deal import Conflict, DealLog, packet_at, packet_of, track


# ----------------------------------------------------------------------------- brute force
def partitions(cards: list[str], sizes: list[int]):
    """Every ordered split of ``cards`` into groups of ``sizes``."""
    if not sizes:
        yield []
        return
    for first in combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for tail in partitions(rest, sizes[1:]):
            yield [frozenset(first)] + tail


def brute(u: dict, obs: dict | None = None):
    """Every final state of the seats (tuple of frozensets by seat) over all draws, deals
    and unobserved picks fitting the observations ``obs`` (default: all of ``u``'s).

    ``u``: decks {d: [cards]}, n, me, step, h, q, cycles (how many logged), played (how many
    of them have their picks), and the observations: hands {cycle: set}, picks
    {(cycle, seat): card or None}, outside {card}."""
    obs = obs if obs is not None else u
    hands, picks, outside = obs["hands"], obs["picks"], obs["outside"]
    n, me, step, h, q = u["n"], u["me"], u["step"], u["h"], u["q"]
    pools = [[c for c in u["decks"][d] if c not in outside] for d in sorted(u["decks"])]

    def play(state, c):
        if c in hands and state[me] != hands[c]:
            return
        if c > u["played"]:
            yield tuple(state)
            return
        options = []
        for s in range(n):
            if (c, s) in picks:
                x = picks[(c, s)]
                if x is not None and x not in state[s]:
                    return
                options.append([x])
            else:
                options.append(sorted(state[s]) + [None])
        for choice in product(*options):
            new = [state[s] - {choice[s]} for s in range(n)]
            if c == u["cycles"]:
                yield tuple(new)
            else:
                passed = [None] * n
                for s in range(n):
                    passed[(s + step) % n] = new[s]
                yield from play(passed, c + 1)

    for combo in product(*(combinations(p, q) for p in pools)):
        draw = [c for part in combo for c in part]
        if 1 in hands:
            first = hands[1]
            if len(first) != h or not first <= set(draw):
                continue
            rest = [c for c in draw if c not in first]
            for others in partitions(rest, [h] * (n - 1)):
                state = others[:me] + [frozenset(first)] + others[me:]
                yield from play(state, 1)
        else:
            for state in partitions(draw, [h] * n):
                yield from play(list(state), 1)


def scenario(rng: random.Random, decks_n: int, n: int, deck_size: int, outside_n: int,
             null_rate: float = 0.2) -> dict:
    """A random true deal in a small universe, played a random number of cycles; the log
    of seat ``me``."""
    h, q = decks_n, n
    decks = {d: [f"{'ABCDE'[d - 1]}{i}" for i in range(deck_size)] for d in range(1, decks_n + 1)}
    outside = set()
    for d, cards in decks.items():
        outside |= set(rng.sample(cards, rng.randint(0, min(outside_n, deck_size - q))))
    draw = [c for d in decks for c in rng.sample([x for x in decks[d] if x not in outside], q)]
    rng.shuffle(draw)
    state = [frozenset(draw[h * s:h * s + h]) for s in range(n)]
    me, step = rng.randrange(n), rng.choice((1, -1))
    cycles = rng.randint(1, h - 1)
    played = cycles if rng.random() < 0.6 else cycles - 1
    hands, picks = {}, {}
    for c in range(1, cycles + 1):
        hands[c] = state[me]
        if c > played:
            break
        new = []
        for s in range(n):
            x = None if rng.random() < null_rate else rng.choice(sorted(state[s]))
            picks[(c, s)] = x
            new.append(state[s] - {x})
        state = new
        if c < cycles:
            passed = [None] * n
            for s in range(n):
                passed[(s + step) % n] = state[s]
            state = passed
    return {"decks": decks, "n": n, "me": me, "step": step, "h": h, "q": q, "cycles": cycles,
            "played": played, "hands": hands, "picks": picks, "outside": outside,
            "truth": state}


def deal_log(u: dict, hands=None, picks=None, outside=None) -> DealLog:
    hands = u["hands"] if hands is None else hands
    picks = u["picks"] if picks is None else picks
    outside = u["outside"] if outside is None else outside
    seen = set(outside) | {c for hs in hands.values() for c in hs} | {
        x for x in picks.values() if x is not None}
    deck_of = {c: d for d, cs in u["decks"].items() for c in cs}
    cycles = u["cycles"]
    return DealLog(
        seats=u["n"], me=u["me"], step=u["step"], hand_size=u["h"], per_deck=u["q"],
        hands=tuple(tuple(sorted(hands[c])) for c in range(1, cycles + 1)),
        picks=tuple({s: picks[(c, s)] for s in range(u["n"]) if (c, s) in picks}
                    for c in range(1, cycles + 1)),
        deck_of=deck_of,
        candidates={d: tuple(c for c in cs if c not in seen) for d, cs in u["decks"].items()},
        hand_fields=tuple(f"hand{c}" for c in range(1, cycles + 1)),
        pick_fields=tuple({s: f"pick{c}.{s}" for s in range(u["n"])}
                          for c in range(1, cycles + 1)),
        outside={c: f"out.{c}" for c in sorted(outside)})


def compare(u: dict, to_middle: bool = False) -> None:
    """``track`` equals the brute-force count on ``u``, chance by chance."""
    t = track(deal_log(u), to_middle=to_middle)
    finals = list(brute(u))
    assert t.worlds() == len(finals) > 0
    n, me = u["n"], u["me"]
    counts: Counter = Counter()
    for state in finals:
        for s in range(n):
            for x in state[s]:
                counts[("middle" if to_middle else s, x)] += 1
    universe = [c for cs in u["decks"].values() for c in cs]
    for s in range(n):
        if s == me and not to_middle:
            continue
        j = packet_of(s, u["cycles"], n, u["step"])
        packet = t.packets[j]
        assert packet.holder == (None if to_middle else s)
        for x in universe:
            if to_middle:
                continue
            assert t.chance(x, j) == Fraction(counts[(s, x)], len(finals)), (s, x)
        assert sum(t.chance(x, j) for x in universe) == packet.size
        assert set(packet.known) <= u["truth"][s]
        assert u["truth"][s] <= set(packet.known) | set(t.possible(j))
    if to_middle:
        for x in universe:
            inside = sum(t.chance(x, j) for j in range(n))
            assert inside == Fraction(counts[("middle", x)], len(finals)), x


SHAPES = [  # decks (= hand size), seats (= cards per deck in the draw), deck size
    (3, 2, 4), (3, 2, 3), (4, 2, 3), (3, 3, 4), (2, 4, 5), (2, 3, 4)]


@settings(max_examples=60)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.integers(0, 2))
def test_chances_equal_brute_force(shape, seed, outside_n):
    decks_n, n, size = shape
    u = scenario(random.Random(seed), decks_n, n, size, outside_n)
    compare(u)
    if u["played"] == u["cycles"]:
        compare(u, to_middle=True)


def test_a_known_count_by_hand():
    """Two seats, decks A B C of 3 cards, 2 per deck in the draw: I hold A0 B0 C0; the
    other hand holds one of A1/A2, one of B1/B2, one of C1/C2: 8 worlds, each card 1/2."""
    u = {"decks": {1: ["A0", "A1", "A2"], 2: ["B0", "B1", "B2"], 3: ["C0", "C1", "C2"]},
         "n": 2, "me": 0, "step": 1, "h": 3, "q": 2, "cycles": 1, "played": 0,
         "hands": {1: frozenset({"A0", "B0", "C0"})}, "picks": {}, "outside": set(),
         "truth": [frozenset({"A0", "B0", "C0"}), frozenset({"A1", "B2", "C1"})]}
    t = track(deal_log(u))
    assert t.worlds() == 8 == len(list(brute(u)))
    assert t.possible(1) == {c: Fraction(1, 2) for c in ("A1", "A2", "B1", "B2", "C1", "C2")}
    assert t.packets[1].unknown == 3 and t.packets[1].known == ()


def test_seen_hand_is_known_after_the_pass():
    """After one pass I hold the other hand: both are known, minus the revealed picks."""
    u = {"decks": {1: ["A0", "A1", "A2"], 2: ["B0", "B1", "B2"], 3: ["C0", "C1", "C2"]},
         "n": 2, "me": 0, "step": 1, "h": 3, "q": 2, "cycles": 2, "played": 1,
         "hands": {1: frozenset({"A0", "B0", "C0"}), 2: frozenset({"A1", "B2"})},
         "picks": {(1, 0): "A0", (1, 1): "C1"}, "outside": set(), "truth": None}
    t = track(deal_log(u))
    assert t.worlds() == 1
    other = t.packets[packet_of(1, 2, 2, 1)]
    assert other.known == ("B0", "C0") and other.unknown == 0 and other.holder == 1
    assert packet_at(0, 2, 2, 1) == 1


# ----------------------------------------------------------------------------- conflicts
def feasible(u: dict, hands, picks, outside) -> bool:
    return next(iter(brute(u, {"hands": hands, "picks": picks, "outside": outside})),
                None) is not None


def check_conflict(u: dict, hands, picks, outside, fields) -> None:
    """The conflict's fields: together no deal fits; without any one of them some does."""
    by_field = {f"hand{c}": ("hand", c) for c in hands}
    by_field.update({f"pick{c}.{s}": ("pick", (c, s)) for (c, s) in picks})
    by_field.update({f"out.{c}": ("out", c) for c in outside})

    def keep(chosen):
        hs = {c: v for c, v in hands.items() if f"hand{c}" in chosen}
        ps = {k: v for k, v in picks.items() if f"pick{k[0]}.{k[1]}" in chosen}
        os_ = {c for c in outside if f"out.{c}" in chosen}
        return hs, ps, os_

    assert set(fields) <= set(by_field), fields
    assert not feasible(u, *keep(set(fields)))
    for f in fields:
        assert feasible(u, *keep(set(fields) - {f})), (fields, f)


def corrupt(rng: random.Random, u: dict):
    """The log with one observation changed (a hand's card, a pick, an outside card)."""
    hands = {c: set(v) for c, v in u["hands"].items()}
    picks = dict(u["picks"])
    outside = set(u["outside"])
    universe = [c for cs in u["decks"].values() for c in cs]
    kind = rng.choice(["hand", "pick", "out", "drop"])
    if kind == "hand":
        c = rng.choice(sorted(hands))
        if hands[c]:
            hands[c].discard(rng.choice(sorted(hands[c])))
        hands[c].add(rng.choice(universe))
    elif kind == "pick" and picks:
        key = rng.choice(sorted(picks))
        picks[key] = rng.choice(universe + [None])
    elif kind == "out":
        outside.add(rng.choice(universe))
    else:
        c = rng.choice(sorted(hands))
        if hands[c]:
            hands[c].discard(rng.choice(sorted(hands[c])))
    return {c: frozenset(v) for c, v in hands.items()}, picks, outside


@settings(max_examples=80)
@given(st.sampled_from([(3, 2, 4), (3, 2, 3), (4, 2, 3)]), st.integers(0, 2**32))
def test_contradictions_are_small_and_real(shape, seed):
    """A corrupted log: ``track`` fails exactly when no deal fits, and then names a
    conflicting set each of whose fields is needed."""
    rng = random.Random(seed)
    u = scenario(rng, *shape, outside_n=1)
    hands, picks, outside = corrupt(rng, u)
    log = deal_log(u, hands, picks, outside)
    fits = feasible(u, hands, picks, outside)
    if fits:
        t = track(log)
        assert t.worlds() == len(list(brute(u, {"hands": hands, "picks": picks,
                                                "outside": outside})))
        return
    with pytest.raises(Conflict) as info:
        track(log)
    check_conflict(u, hands, picks, outside, info.value.fields)


def test_conflict_card_picked_then_seen_again():
    u = {"decks": {1: ["A0", "A1", "A2"], 2: ["B0", "B1", "B2"], 3: ["C0", "C1", "C2"]},
         "n": 2, "me": 0, "step": 1, "h": 3, "q": 2, "cycles": 2, "played": 1}
    hands = {1: frozenset({"A0", "B0", "C0"}), 2: frozenset({"A1", "C1"})}
    picks = {(1, 0): "A0", (1, 1): "C1"}
    with pytest.raises(Conflict) as info:
        track(deal_log(u, hands, picks, set()))
    assert info.value.fields == ["pick1.1", "hand2"]
    assert "C1 was picked in cycle 1 and is still in the hand seen in cycle 2" in str(info.value)
    check_conflict(u, hands, picks, set(), info.value.fields)


def test_conflict_too_many_cards_of_a_deck():
    u = {"decks": {1: ["A0", "A1", "A2"], 2: ["B0", "B1", "B2"], 3: ["C0", "C1", "C2"]},
         "n": 2, "me": 0, "step": 1, "h": 3, "q": 2, "cycles": 2, "played": 1}
    hands = {1: frozenset({"A0", "A1", "C0"}), 2: frozenset({"A2", "C1"})}
    picks = {(1, 0): "C0", (1, 1): "B0"}
    with pytest.raises(Conflict) as info:
        track(deal_log(u, hands, picks, set()))
    assert "more than 2 cards of deck 1" in str(info.value)
    assert info.value.fields == ["hand1", "hand2"]
    check_conflict(u, hands, picks, set(), info.value.fields)
