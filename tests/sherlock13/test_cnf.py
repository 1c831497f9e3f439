"""The CNF knowledge model (deduce.models.sherlock13.cnf) against brute force and the rules engine.

The referee here is the rules engine: a world fits a record when replaying the record's
actions from that deal (``State.from_deal``) gives back the record's answers.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations, permutations
from math import comb, factorial

import pytest

from deduce.core.errors import InputError
from deduce.models.sherlock13.cards import HAND_SIZE, N_CARDS, suspect_index
from deduce.models.sherlock13.cnf import RecordCNF
from deduce.models.sherlock13.record import Record, parse_record
from deduce.models.sherlock13.rules import (
    SIDES,
    Accuse,
    AccuseEvent,
    Count,
    CountEvent,
    Exchange,
    ExchangeEvent,
    Raise,
    RaiseEvent,
    State,
    action_of,
    default_names,
)

VARIANT_CASES = [(n, v) for n in (2, 3, 4) for v in ("standard", "expert")]
HANDS = {
    2: ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes", "Mary Morstan", "Inspector Hopkins"],
    3: ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes", "Mary Morstan"],
    4: ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"],
}


# ----------------------------------------------------------------------------- helpers
def make_record(n: int, variant: str, events=(), hand=None, me: str = "Ann") -> Record:
    return parse_record({
        "game": "sherlock13", "variant": variant, "players": default_names(n), "me": me,
        "hand": hand or HANDS[n], "events": list(events),
    })


def count(actor, target, icon, n):
    return {"actor": actor, "action": "count", "target": target, "icon": icon, "count": n}


def raise_(actor, icon, raised):
    return {"actor": actor, "action": "raise", "icon": icon, "raised": raised}


def accuse(actor, suspect, correct=False):
    return {"actor": actor, "action": "accuse", "suspect": suspect, "correct": correct}


def _same(replayed, recorded, me: int, seats) -> bool:
    """Whether a replayed event gives the recorded answer, as far as ``seats`` answer.

    Always compared: verdicts and the card I took. ``seats``: the seats whose answers count.
    """
    if isinstance(recorded, RaiseEvent):
        return all((s in replayed.raised) == (s in recorded.raised) for s in seats)
    if isinstance(recorded, CountEvent):
        return recorded.target not in seats or replayed.count == recorded.count
    if isinstance(recorded, AccuseEvent):
        return replayed.correct == recorded.correct
    if recorded.actor == me:
        return replayed == recorded
    return replace(replayed, took=None) == recorded


def fits(world: dict, record: Record, seats=None) -> bool:
    """Whether replaying the record from ``world`` reproduces its answers (of ``seats``)."""
    seats = range(record.n) if seats is None else seats
    hands = [list(world["hands"][s]) for s in range(record.n)]
    state = State.from_deal(record.variant, hands, world["criminal"], world.get("sides"))
    for recorded in record.events:
        try:
            replayed = state.apply(action_of(recorded))
        except InputError:  # an exchange revealing a card not in the hand
            return False
        if not _same(replayed, recorded, record.me, seats):
            return False
    return True


def deals(record: Record):
    """Every deal (criminal, hands as sorted tuples, sides) with my hand as in the record."""
    n, h, me = record.n, record.hand_size, record.me
    unknown = [c for c in range(N_CARDS) if c not in record.hand]
    others = [s for s in range(n) if s != me]
    middles = permutations(unknown, 3) if n == 2 else ((c,) for c in unknown)
    for middle in middles:
        crim, sides = middle[0], dict(zip(SIDES, middle[1:]))
        rest = [c for c in unknown if c not in middle]

        def split(cards, seats):
            if not seats:
                yield {}
                return
            for hand in combinations(cards, h):
                left = [c for c in cards if c not in hand]
                for more in split(left, seats[1:]):
                    yield {seats[0]: hand, **more}

        for hands in split(rest, others):
            yield {"criminal": crim, "hands": {me: tuple(record.hand), **hands}, "sides": sides}


def brute_count(record: Record) -> int:
    """Consistent worlds, by replay over every deal (expert: every order, seat by seat).

    Each seat's answers depend only on the deal and its own order, so in expert a deal
    counts the product over other seats of the orders that reproduce that seat's answers.
    """
    me = record.me
    total = 0
    for deal in deals(record):
        if record.variant == "standard":
            total += fits(deal, record)
            continue
        if not fits(deal, record, seats=[me]):
            continue
        product = 1
        for s in range(record.n):
            if s != me:
                product *= sum(fits({**deal, "hands": {**deal["hands"], s: order}}, record, seats=[s])
                               for order in permutations(deal["hands"][s]))
        total += product
    return total


def true_world(state: State) -> dict:
    world = {"criminal": state.criminal, "hands": dict(enumerate(state.start_hands))}
    if state.n == 2:  # a side's dealt card: still face down, or taken by the exchanger
        world["sides"] = dict(state.sides)
        world["sides"].update((e.side, e.took) for e in state.events if isinstance(e, ExchangeEvent))
    return world


def play(n: int, variant: str, seed: int, max_events: int = 12) -> State:
    """A random game: mostly questions (exchanges first with 2 players), a few wrong accusations."""
    rng = random.Random(seed)
    state = State.deal(n, variant, rng)
    while not state.is_over() and len(state.events) < max_events:
        acts = state.legal_actions()
        exchanges = [a for a in acts if isinstance(a, Exchange)]
        wrong = [a for a in acts if isinstance(a, Accuse) and a.suspect != state.criminal]
        questions = [a for a in acts if isinstance(a, (Raise, Count))]
        roll = rng.random()
        if exchanges and roll < 0.5:
            state.apply(rng.choice(exchanges))
        elif roll < 0.08:
            state.apply(rng.choice(wrong))
        else:
            state.apply(rng.choice(questions))
    return state


def my_record(state: State, seat: int) -> Record:
    return parse_record(state.record(seat))


# ----------------------------------------------------------------------------- world counts
@pytest.mark.parametrize("n, variant, expected", [
    (3, "standard", 9 * comb(8, 4)),
    (2, "standard", 8 * 7 * 6),
])
def test_world_count_without_events(n, variant, expected):
    rec = make_record(n, variant)
    assert RecordCNF(rec).count_worlds() == expected == brute_count(rec)


def test_world_count_4p_standard_no_events():
    assert RecordCNF(make_record(4, "standard")).count_worlds() == 10 * comb(9, 3) * comb(6, 3)


def test_enumeration_limit_and_distinct_worlds():
    worlds = list(RecordCNF(make_record(3, "standard")).enumerate_worlds(limit=50))
    assert len(worlds) == 50
    keys = {(w["criminal"], tuple(tuple(w["hands"][s]) for s in range(3))) for w in worlds}
    assert len(keys) == 50


def test_expert_2p_my_order_is_fixed():
    """Expert 2 players, no events: 336 deals x 5! opponent orders; my order fixed."""
    rec = make_record(2, "expert", [count("Ann", "Ben", "skull", 0), count("Ben", "Ann", "pipe", 2),
                                    count("Ann", "Ben", "badge", 1)])
    cnf = RecordCNF(rec)
    worlds = list(cnf.enumerate_worlds())
    assert len(worlds) == brute_count(rec)
    assert all(w["hands"][0] == list(rec.hand) for w in worlds)


def test_world_count_4p_standard_with_events():
    rec = make_record(4, "standard", [
        raise_("Ann", "skull", ["Ben", "Dan"]),
        count("Ben", "Cat", "badge", 1),
        count("Cat", "Dan", "fist", 2),
        accuse("Dan", "James Moriarty"),
        count("Ann", "Ben", "pipe", 0),
    ])
    cnf = RecordCNF(rec)
    worlds = list(cnf.enumerate_worlds())
    assert len(worlds) == brute_count(rec) > 0
    assert all(fits(w, rec) for w in worlds)


def test_world_count_3p_expert_with_counts():
    # Expert 3p: the rotations matter (Ann's turn started at the deal, Ben's at event 1 ...).
    rec = make_record(3, "expert", [
        count("Ann", "Ben", "badge", 1),
        count("Ben", "Cat", "skull", 1),
        count("Cat", "Ben", "fist", 0),
        count("Ann", "Cat", "book", 1),
        raise_("Ben", "eye", ["Cat"]),
        count("Cat", "Ben", "light bulb", 2),
        count("Ann", "Ben", "skull", 1),
        count("Ben", "Cat", "pipe", 1),
    ])
    cnf = RecordCNF(rec)
    worlds = list(cnf.enumerate_worlds())
    assert len(worlds) == brute_count(rec) > 0
    assert len({repr(sorted(w["hands"].items())) + str(w["criminal"]) for w in worlds}) == len(worlds)
    for w in worlds[:: max(1, len(worlds) // 20)]:
        assert fits(w, rec)


def test_world_count_2p_standard_with_exchanges():
    rec = make_record(2, "standard", [
        {"actor": "Ann", "action": "exchange", "side": "left", "revealed": "Mrs. Hudson",
         "took": "Irene Adler"},
        {"actor": "Ben", "action": "exchange", "side": "right", "revealed": "Sebastian Moran"},
        count("Ann", "Ben", "skull", 1),
        count("Ben", "Ann", "light bulb", 3),
        count("Ann", "Ben", "book", 2),
    ])
    cnf = RecordCNF(rec)
    assert cnf.count_worlds() == brute_count(rec) > 0
    # Ben now holds all 7 unknown cards but Moran (face up) and the criminal: 3 books - 1.
    assert cnf.possible_criminals() == {suspect_index(c) for c in ("Mycroft", "Lestrade", "Gregson")}
    assert cnf.possible_face_down() == {}
    holders = cnf.possible_holders()[1]
    assert suspect_index("Sebastian Moran") not in holders  # revealed
    assert suspect_index("Irene Adler") not in holders  # I took it


# ----------------------------------------------------------------------------- possibility
def test_possibility_matches_enumeration():
    rec = make_record(3, "standard", [
        raise_("Ann", "skull", ["Cat"]),
        count("Ben", "Cat", "skull", 2),
        accuse("Cat", "Irene Adler"),
    ])
    cnf = RecordCNF(rec)
    worlds = list(cnf.enumerate_worlds())
    assert cnf.possible_criminals() == {w["criminal"] for w in worlds}
    assert cnf.possible_holders() == {s: {c for w in worlds for c in w["hands"][s]} for s in (1, 2)}
    assert cnf.possible_face_down() == {}


def test_face_down_2p_before_any_exchange():
    rec = make_record(2, "standard", [count("Ann", "Ben", "skull", 3)])
    cnf = RecordCNF(rec)
    skulls = {suspect_index(c) for c in ("James Moriarty", "Irene Adler", "Sebastian Moran")}
    assert skulls <= cnf.possible_holders()[1]
    assert cnf.possible_criminals().isdisjoint(skulls)
    assert cnf.possible_face_down()["left"].isdisjoint(skulls)
    assert set(cnf.possible_face_down()) == {"left", "right"}


# ----------------------------------------------------------------------------- contradictions
def test_conflict_with_my_hand():
    # Ann holds Sherlock and Hudson: 2 pipes, not 1.
    rec = make_record(4, "standard", [raise_("Ann", "eye", ["Ben", "Cat"]), count("Ben", "Ann", "pipe", 1)])
    cnf = RecordCNF(rec)
    assert not cnf.is_consistent()
    assert cnf.is_consistent(drop=[1])
    assert cnf.minimal_conflict() == [1]


def test_conflict_between_two_events_is_minimal():
    rec = make_record(4, "standard", [
        count("Ann", "Ben", "skull", 1),
        count("Ben", "Cat", "badge", 1),
        count("Cat", "Ben", "skull", 0),
        raise_("Dan", "book", ["Ben"]),
    ])
    cnf = RecordCNF(rec)
    assert not cnf.is_consistent()
    conflict = cnf.minimal_conflict()
    assert conflict == [0, 2]
    for i in conflict:
        assert cnf.is_consistent(drop=[i])
    assert RecordCNF(rec, events=[0, 1, 3]).is_consistent()


def test_minimal_conflict_raises_on_consistent_record():
    with pytest.raises(ValueError):
        RecordCNF(make_record(3, "standard", [count("Ann", "Ben", "eye", 1)])).minimal_conflict()


def test_conflict_opponent_reveals_my_card():
    rec = make_record(2, "standard", [
        count("Ann", "Ben", "eye", 1),
        {"actor": "Ben", "action": "exchange", "side": "left", "revealed": "Sherlock Holmes"},
    ])
    assert RecordCNF(rec).minimal_conflict() == [1]


@pytest.mark.parametrize("n, variant", VARIANT_CASES)
def test_corrupted_random_records_give_minimal_conflicts(n, variant):
    rng = random.Random(7)
    checked = 0
    for seed in range(12):
        state = play(n, variant, seed)
        data = state.record(seed % n)
        counts = [i for i, e in enumerate(data["events"]) if e["action"] == "count"]
        if not counts:
            continue
        i = rng.choice(counts)
        data["events"][i]["count"] += rng.choice([1, 2])
        rec = parse_record(data)
        cnf = RecordCNF(rec)
        if cnf.is_consistent():  # still possible (a different world fits)
            continue
        conflict = cnf.minimal_conflict()
        assert i in conflict
        assert not RecordCNF(rec, events=conflict).is_consistent()
        for e in conflict:
            assert RecordCNF(rec, events=[x for x in conflict if x != e]).is_consistent()
        checked += 1
    assert checked > 0


# ----------------------------------------------------------------------------- explanations
def test_explain_not_criminal():
    rec = make_record(4, "standard", [
        count("Ann", "Ben", "eye", 1),
        accuse("Ben", "James Moriarty"),
        count("Cat", "Dan", "skull", 0),
    ])
    cnf = RecordCNF(rec)
    assert cnf.explain_not_criminal(suspect_index("James Moriarty")) == ([1], [])
    assert cnf.explain_not_criminal(suspect_index("Mrs. Hudson")) == ([], [1])
    assert cnf.explain_not_criminal(suspect_index("Irene Adler")) is None


def test_explain_by_elimination_is_minimal():
    # Ann, Ben and Cat hold no skull, Dan two of the three: the third is the criminal.
    rec = make_record(4, "standard", [
        count("Ann", "Ben", "skull", 0),
        count("Ben", "Cat", "skull", 0),
        count("Cat", "Dan", "skull", 2),
        count("Dan", "Ben", "eye", 1),
    ])
    cnf = RecordCNF(rec)
    assert cnf.possible_criminals() == {2, 3, 7}
    for card in range(N_CARDS):
        why = cnf.explain_not_criminal(card)
        if card in cnf.possible_criminals():
            assert why is None
            continue
        events, ks = why
        keep_events = set(events)
        sub = RecordCNF(rec, events=keep_events)
        assert card not in _possible_with(sub, ks)
        for e in events:
            assert card in _possible_with(RecordCNF(rec, events=keep_events - {e}), ks)
        for k in ks:
            assert card in _possible_with(sub, [x for x in ks if x != k])


def _possible_with(cnf: RecordCNF, ks) -> set[int]:
    """Possible criminals using only the hand facts ``ks``."""
    hand = [cnf.hand_lits[k] for k in ks]
    base = hand + list(cnf.event_lit.values())
    return {c for c in range(N_CARDS) if cnf.solve(base + [cnf.x(c, "crim")])}


# ----------------------------------------------------------------------------- random games
@pytest.mark.parametrize("n, variant", VARIANT_CASES)
def test_true_world_is_always_consistent(n, variant):
    for seed in range(8):
        state = play(n, variant, seed)
        truth = true_world(state)
        for seat in range(n):
            rec = my_record(state, seat)
            cnf = RecordCNF(rec)
            assert cnf.is_consistent()
            assert cnf.admits(truth)
            assert state.criminal in cnf.possible_criminals()
            holders = cnf.possible_holders()
            assert set(holders) == set(range(n)) - {seat}
            for s, cards in holders.items():
                assert set(state.hands[s]) <= cards
            face_down = cnf.possible_face_down()
            if n == 2:
                assert set(face_down) == set(state.sides)
                for side, card in state.sides.items():
                    assert card in face_down[side]
            else:
                assert face_down == {}
            witness = cnf.witness()
            assert fits(witness, rec)
            assert fits(cnf.witness(criminal=state.criminal), rec)


def test_random_2p_games_have_exchanges():
    kinds = [type(e) for seed in range(8) for e in play(2, "expert", seed).events]
    assert kinds.count(ExchangeEvent) >= 8


@pytest.mark.parametrize("variant", ["standard", "expert"])
def test_witness_shape(variant):
    rec = make_record(2, variant, [count("Ann", "Ben", "skull", 1)])
    w = RecordCNF(rec).witness(criminal=suspect_index("Mycroft Holmes"))
    assert w["criminal"] == suspect_index("Mycroft Holmes")
    assert w["hands"][0] == (sorted(rec.hand) if variant == "standard" else list(rec.hand))
    assert set(w["sides"]) == {"left", "right"}
    cards = [w["criminal"], *w["sides"].values(), *w["hands"][0], *w["hands"][1]]
    assert sorted(cards) == list(range(N_CARDS))
    assert RecordCNF(rec).witness(criminal=suspect_index("Sherlock Holmes")) is None


@pytest.mark.parametrize("seed, me", [(0, 0), (1, 0), (9, 1)])
def test_2p_expert_games_with_exchanges_match_brute_force(seed, me):
    state = play(2, "expert", seed, max_events=8)
    assert sum(isinstance(e, ExchangeEvent) for e in state.events) == 2
    rec = my_record(state, me)
    assert RecordCNF(rec).count_worlds() == brute_count(rec) > 0


@pytest.mark.slow
def test_2p_expert_opponent_exchanges_twice():
    state = play(2, "expert", 9, max_events=8)
    assert [e.actor for e in state.events if isinstance(e, ExchangeEvent)] == [1, 1]
    rec = my_record(state, 0)
    assert RecordCNF(rec).count_worlds() == brute_count(rec) > 0


@pytest.mark.slow
def test_world_count_2p_expert_no_events():
    assert RecordCNF(make_record(2, "expert")).count_worlds() == 336 * factorial(5)


@pytest.mark.slow
@pytest.mark.parametrize("n, variant", [(2, "standard"), (2, "expert"), (3, "standard")])
def test_random_game_counts_match_brute_force(n, variant):
    for seed in range(3):
        state = play(n, variant, seed, max_events=8)
        rec = my_record(state, seed % n)
        assert RecordCNF(rec).count_worlds() == brute_count(rec) > 0


def test_hand_sizes():
    for n in (2, 3, 4):
        cnf = RecordCNF(make_record(n, "standard"))
        assert len(cnf.hand_lits) == HAND_SIZE[n]
        assert cnf.event_lit == {}
