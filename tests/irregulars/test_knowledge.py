"""``knowledge.read`` and ``knowledge.sample_hidden`` on positions and logs: random deals
played by the test's own simulator (``dealsim``, independent of ``rules.py``) in every
mode, player count, round, cycle and phase; exact values on hand-made observations; every
check of the log against the position; the sampler's frequencies against the exact
chances."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from deduce.core.errors import ContradictionError, InputError
from deduce.models.irregulars import knowledge as K
from deduce.models.irregulars.log import parse_log
from deduce.models.irregulars.position import parse_position
from deduce.puzzles import puzzle_path
from tests.irregulars.dealsim import CARDS, simulate

SAMPLE = puzzle_path("irregulars", "sample-observation.json")


def parse(position: dict, log: dict):
    pos = parse_position(position, "obs.json")
    return pos, parse_log(log, pos.cards, pos.players, "obs.json")


def know(d):
    return K.read(*parse(d.position, d.log), where="obs.json")


multi = st.builds(
    lambda players, round_, cycle, phase, me, reverse, rich, engine, seed: dict(
        players=players, round_=round_, cycle=cycle,
        phase="bonus" if phase == "bonus" and cycle == 4 else (
            "arrest" if phase == "bonus" else phase),
        me=me % players, reverse=reverse, rich=rich, engine=engine, seed=seed),
    st.integers(2, 5), st.integers(1, 4), st.integers(1, 4),
    st.sampled_from(["investigate", "arrest", "tail", "bonus"]), st.integers(0, 4),
    st.booleans(), st.booleans(), st.booleans(), st.integers(0, 2**32))
solo = st.builds(
    lambda cycle, phase, rich, engine, seed: dict(solo=True, cycle=cycle, phase=phase,
                                                  rich=rich, engine=engine, seed=seed),
    st.integers(1, 19), st.sampled_from(["investigate", "arrest", "tail"]), st.booleans(),
    st.booleans(), st.integers(0, 2**32))


@settings(max_examples=150)
@given(st.one_of(multi, solo))
def test_the_truth_is_always_possible(args):
    """Whatever was dealt and picked: the certain cards are held, the true hand is among
    the possible ones, the chances of each holder add up to its size, exactly."""
    seed = args.pop("seed")
    d = simulate(random.Random(seed), **args)
    # position.py caps a hand at 5 cards; a bonus-phase middle after passes may hold more
    assume(len(d.position["hand"]) <= 5)
    k = know(d)
    names = {h.holder for h in k.holdings}
    expected = set(d.truth) - ({"middle"} if args.get("phase") == "bonus" else set())
    assert names == expected
    for h in k.holdings:
        truth = d.truth[h.holder]
        assert h.cards == len(truth)
        assert set(h.certain) <= truth <= set(h.certain) | set(h.possible)
        assert len(h.certain) + sum(h.possible.values()) == h.cards
        assert all(0 < p < 1 for p in h.possible.values())
        if h.holder != "middle":
            for card in h.possible:
                assert card not in d.position["hand"]
    hidden = K.sample_hidden(*parse(d.position, d.log), random.Random(seed))
    for h in k.holdings:
        if h.holder == "middle":
            assert set(h.certain) <= set(hidden.middle)
            assert len(set(hidden.middle) - set(d.position["hand"])) == h.cards
        else:
            held = set(hidden.hands[h.holder]) | {hidden.picked.get(h.holder)}
            assert set(h.certain) <= held and len(held - {None}) == h.cards
    _one_place(d, hidden)


def _one_place(d, hidden) -> None:
    """Every Evidence card in exactly one place: the position, the log's gone cards, the
    hidden hands, picks, middle and decks, or (multi) left out as an unseen discard."""
    pos, log = d.position, d.log
    places = Counter(pos["hand"])
    for rows in pos["evidence"].values():
        places.update(r["card"] for r in rows)
    places.update(log["gone"])
    for cards in hidden.hands.values():
        places.update(cards)
    places.update(hidden.picked.values())
    if pos["phase"] == "bonus":  # the middle as put: now face up (the hand) or taken
        assert set(pos["hand"]) <= set(hidden.middle)
    else:
        places.update(hidden.middle)
    for cyc in log["cycles"]:  # my own face-down pick, in the log only
        mine = cyc["picks"].get(d.me)
        if mine is not None and len(cyc["picks"]) == 1:
            places[mine] += 1
    for cards in hidden.decks.values():
        places.update(cards)
    assert max(places.values()) == 1
    if pos["mode"] == "solo":
        assert len(places) == 100
    else:
        n = len(pos["players"])
        for deck, cards in hidden.decks.items():
            assert len(cards) == 20 - pos["round"] * n


# ----------------------------------------------------------------------------- the sample
def test_sample_observation_exact():
    """The shipped sample: 3 players, round 1, cycle 3, Ann to pick. By cycle 3 Ann has held
    all three hands, so every hand is known card for card."""
    data = json.loads(SAMPLE.read_text())
    pos, log = parse(data["position"], data["log"])
    k = K.read(pos, log)
    assert (k.me, k.deal, k.cycle, k.phase, k.direction) == ("Ann", 1, 3, "investigate", "left")
    ben, cat = k.holdings
    # Ben holds Ann's cycle-2 hand less Ann's pick; Cat holds Ann's first hand less Ann's
    # cycle-1 pick and Ben's cycle-2 pick (left: Ann -> Ben -> Cat -> Ann)
    c1, c2 = log.cycles[0], log.cycles[1]
    assert set(ben.certain) == set(c2.hand) - {c2.picks["Ann"]}
    assert set(cat.certain) == set(c1.hand) - {c1.picks["Ann"], c2.picks["Ben"]}
    assert ben.known and cat.known and ben.cards == 3 == cat.cards
    assert k.worlds == 1
    assert [d.in_deck for d in k.decks] == [17] * 5
    assert [d.in_deal for d in k.decks] == [0] * 5


def test_unseen_hand_chances_by_hand():
    """4 players, round 1, cycle 1: each other hand holds 5 of the 15 unseen cards of the
    draw; deck d has (4 - mine_d) unseen in the draw among 20 - mine_d - seen_d."""
    d = simulate(random.Random(5), players=4, round_=1, cycle=1)
    k = know(d)
    mine = Counter(CARDS.evidence_by_id[c].deck for c in d.position["hand"])
    for h in k.holdings:
        assert h.cards == 5 and h.certain == ()
        for card, p in h.possible.items():
            deck = CARDS.evidence_by_id[card].deck
            assert p == Fraction(4 - mine[deck], 20 - mine[deck]) * Fraction(5, 15)
    assert k.worlds == math.prod(math.comb(20 - mine[x], 4 - mine[x]) for x in range(1, 6)) \
        * math.factorial(15) // math.factorial(5) ** 3


def test_bonus_phase_holds_nothing_hidden():
    d = simulate(random.Random(1), players=5, round_=2, cycle=4, phase="bonus")
    k = know(d)
    assert all(h.cards == 0 for h in k.holdings)
    assert [h.holder for h in k.holdings] == ["Ben", "Cat", "Dan", "Eve"]
    assert all(x.in_deal == 0 and x.in_deck == 10 for x in k.decks)


def test_solo_holmes_known_after_the_first_swap():
    d = simulate(random.Random(8), solo=True, cycle=6)  # deal 2, cycle 2
    k = know(d)
    (holmes,) = k.holdings
    assert holmes.holder == "Holmes" and holmes.known and holmes.cards == 4
    assert set(holmes.certain) == d.truth["Holmes"]
    d1 = simulate(random.Random(8), solo=True, cycle=5)  # deal 2, cycle 1: unseen
    (holmes,) = know(d1).holdings
    assert holmes.certain == () and holmes.cards == 5
    mine = Counter(CARDS.evidence_by_id[c].deck for c in d1.position["hand"])
    assert sum(x["expected"] for x in holmes.by_deck()) == pytest.approx(5)
    for row in holmes.by_deck():
        assert row["expected"] == pytest.approx(2 - mine[row["deck"]])


# ----------------------------------------------------------------------------- checks
def base(players=3, cycle=2, phase="investigate", **kw):
    return simulate(random.Random(11), players=players, round_=1, cycle=cycle, phase=phase,
                    **kw)


def fails(d, field: str, text: str) -> None:
    with pytest.raises(InputError) as info:
        know(d)
    assert f"field {field!r}" in str(info.value), str(info.value)
    assert text in str(info.value)
    assert str(info.value).startswith("obs.json")


def test_log_of_another_deal():
    d = base()
    d.log["deal"] = 2
    fails(d, "log.deal", "the log is of deal 2; the position is in deal 1")


def test_wrong_direction():
    d = base()
    d.log["direction"] = "right"
    fails(d, "log.direction", "hands pass left in round 1")
    d = base(reverse=True)
    d.log["direction"] = "left"
    fails(d, "log.direction", "hands pass right in round 1 (reverse-passing)")


def test_two_players_pass_either_way():
    d = base(players=2)
    d.log["direction"] = "right"
    assert know(d).holdings[0].known


def test_cycle_count():
    d = base()
    d.log["cycles"].pop()
    fails(d, "log.cycles", "1 cycles; the position (investigate phase of cycle 2 of the deal) goes with 2")


def test_picks_of_the_cycle_being_drafted():
    d = base()
    d.log["cycles"][-1]["picks"] = {"Ben": None}
    fails(d, "log.cycles[1].picks", "not revealed yet")


def test_missing_pick_of_a_finished_cycle():
    d = base()
    del d.log["cycles"][0]["picks"]["Cat"]
    fails(d, "log.cycles[0].picks", "no pick for Cat")


def test_my_pick_not_in_my_hand():
    d = base()
    other = d.log["cycles"][1]["hand"][0]
    d.log["cycles"][0]["picks"]["Ann"] = other
    fails(d, "log.cycles[0].picks.Ann", f"{other} is not in Ann's hand of that cycle")


def test_pick_not_owned():
    d = base()
    card = d.log["cycles"][0]["picks"]["Ben"]
    d.position["evidence"]["Ben"] = [r for r in d.position["evidence"]["Ben"]
                                     if r["card"] != card]
    fails(d, "log.cycles[0].picks.Ben", f"{card} is not among Ben's Evidence")


def test_position_hand_not_the_logs():
    d = base()
    d.position["hand"] = d.position["hand"][:-1]
    fails(d, "log.cycles[1].hand", "is not this cycle's hand in the log")
    d = base(phase="arrest")
    d.position["hand"] = d.position["hand"][:-1]
    fails(d, "log.cycles[1].hand", "is not the rest of this cycle's hand less Ann's pick")


def test_card_twice_in_a_hand():
    d = base()
    h = d.log["cycles"][0]["hand"]
    h[1] = h[0]
    fails(d, "log.cycles[0].hand[1]", f"{h[0]} is listed twice")


def test_holmes_always_picks():
    d = simulate(random.Random(2), solo=True, cycle=2)
    d.log["cycles"][0]["picks"]["Holmes"] = None
    fails(d, "log.cycles[0].picks.Holmes", "Holmes always takes a card")


def contradiction(d) -> K.HandsContradiction:
    with pytest.raises(ContradictionError) as info:
        know(d)
    assert info.value.exit_code == 3
    return info.value


def test_card_in_two_hands_is_a_contradiction():
    """A card of Ann's first hand that Ann did not pick (that hand went to Ben) shown again
    in her cycle-2 hand (which came from Cat)."""
    d = base()
    c1 = d.log["cycles"][0]
    card = next(c for c in c1["hand"] if c != c1["picks"]["Ann"])
    d.log["cycles"][1]["hand"][0] = card
    d.position["hand"] = list(d.log["cycles"][1]["hand"])
    err = contradiction(d)
    assert err.fields == ["log.cycles[0].hand", "log.cycles[1].hand"]
    assert f"{card} is in two hands of the deal" in str(err)
    names = K.observation_fields(*parse(d.position, d.log))
    assert [names[i] for i in err.conflict] == err.fields
    assert err.to_json()["fields"] == err.fields and err.to_json()["error"] == "contradiction"


def test_gone_card_in_the_deal_is_a_contradiction():
    d = base(players=3)
    card = d.log["cycles"][1]["hand"][0]
    d.log["gone"] = [card]
    err = contradiction(d)
    assert err.fields == [f"position.hand[{d.position['hand'].index(card)}]", "log.gone[0]"]
    d.log["gone"] = [d.log["cycles"][0]["hand"][0]]  # in Ann's first hand, and gone
    assert contradiction(d).fields == ["log.cycles[0].hand", "log.gone[0]"]


def test_too_many_cards_of_a_deck_seen_before_the_round():
    """Round 2 with 3 players: at most 3 cards of each deck left play in round 1."""
    d = simulate(random.Random(4), players=3, round_=2, cycle=1)
    unseen = [c.id for c in CARDS.deck(1) if c.id not in json.dumps([d.position, d.log])]
    d.log["gone"] = d.log["gone"] + unseen[:4]
    err = contradiction(d)
    assert "at most 3 can have left it" in str(err)
    assert len(err.fields) == 4


# ----------------------------------------------------------------------------- sampling
def test_sampled_frequencies_match_the_exact_chances():
    """4 players, round 2, cycle 2 (Ann has seen 2 of the 4 hands): over 3000 seeded samples
    each (holder, card) count is within 4.5 standard deviations (binomial) of its exact
    expectation, and the seen hands are never resampled."""
    d = simulate(random.Random(21), players=4, round_=2, cycle=2)
    pos, log = parse(d.position, d.log)
    k = K.read(pos, log)
    rng = random.Random(1234)
    n = 3000
    counts: Counter = Counter()
    for _ in range(n):
        hidden = K.sample_hidden(pos, log, rng, drafted=(), knowledge=k)
        for holder, cards in hidden.hands.items():
            counts.update((holder, c) for c in cards)
        for h in k.holdings:
            if h.known:
                assert set(hidden.hands[h.holder]) == set(h.certain)
    unknown = [h for h in k.holdings if not h.known]
    assert unknown, "the case must have unseen hands"
    for h in k.holdings:
        for card in h.certain:
            assert counts[(h.holder, card)] == n
        for card, p in h.possible.items():
            mean, sd = n * float(p), math.sqrt(n * float(p) * (1 - float(p)))
            assert abs(counts[(h.holder, card)] - mean) <= 4.5 * sd + 1, (h.holder, card)
        assert sum(counts[(h.holder, c)] for c in CARDS.evidence_by_id) == n * h.cards


def test_drafted_picks_are_affordable_cards_of_their_hand():
    d = simulate(random.Random(6), players=3, round_=1, cycle=2, me=2)
    pos, log = parse(d.position, d.log)
    hidden = K.sample_hidden(pos, log, random.Random(0))  # Ann and Ben before Cat
    k = K.read(pos, log)
    for p in ("Ann", "Ben"):
        h = k.holding(p)
        card = hidden.picked[p]
        assert card in set(h.certain) | set(h.possible)
        assert CARDS.evidence_by_id[card].cost <= pos.bsi[p].available
        assert card not in hidden.hands[p] and len(hidden.hands[p]) == h.cards - 1
    assert K.sample_hidden(pos, log, random.Random(0), drafted=()).picked == {}


def test_sample_rest_of_the_state():
    d = simulate(random.Random(9), players=3, round_=3, cycle=4, phase="arrest")
    pos, log = parse(d.position, d.log)
    hidden = K.sample_hidden(pos, log, random.Random(3))
    assert all(cards == () for cards in hidden.hands.values())
    assert set(hidden.middle) == d.truth["middle"]  # 3 players: every rest was seen
    visible = set(pos.villains) | {v for p in pos.players for v in pos.arrested[p]}
    assert sorted(hidden.villain_deck) == sorted(v.id for v in CARDS.villains
                                                 if v.id not in visible)
    assert hidden.inspectors["Ann"] == pos.inspector
    assert len(set(hidden.inspectors.values())) == 3
    assert len(hidden.plot_twists) == 12 - 3 and pos.plot_twist not in hidden.plot_twists
    again = K.sample_hidden(pos, log, random.Random(3))
    assert again == hidden  # seeded: the same draw
