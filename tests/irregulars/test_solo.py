"""The solo game against Holmes, rule by rule (spec "Solo" and the rulebook's solo
variant): setup, Holmes's random pick paid down to no less than 0, the Holmes Track, the
token checks and the resupply with a tail, the swap, the new deals, Holmes's arrests
first, the 19 cycles and the win with strictly more points."""

from __future__ import annotations

import random

import pytest

from deduce.core.errors import InputError
from deduce.models.irregulars.cards import shipped_cards
from deduce.models.irregulars.rules import (
    HOLMES_SEAT,
    INVESTIGATE,
    OVER,
    RESET,
    NoTail,
    Pick,
    Resupply,
    Tail,
    new_solo,
)
from tests.irregulars.helpers import BLOOD, DISGUISE, GANG, HEART, MORAN, settle

CARDS = shipped_cards()
EV = CARDS.evidence_by_id


def _pick(state, cheapest: bool = True):
    legal = state.legal_actions()
    if cheapest:
        legal = sorted(legal, key=lambda a: EV[a.card].cost if isinstance(a, Pick) else 0)
    state.apply(legal[0])


def test_solo_setup_two_cards_from_each_deck_five_each_no_twists_holmes_first():
    state = new_solo(3)
    assert [len(h) for h in state.hands] == [5, 5]
    assert all(len(d) == 18 for d in state.decks.values())
    assert state.order == [HOLMES_SEAT, 0] and state.twist is None and state.twists == []
    assert state.inspectors[0] is not None and state.inspectors[1] is None
    pos = state.observation(0)["position"]
    assert pos["players"] == ["Ann", "Holmes"] and pos["order"] == ["Holmes", "Ann"]
    assert pos["round"] == 1 and "plot_twist" not in pos and pos["mode"] == "solo"
    with pytest.raises(InputError, match="Holmes is played by the rules"):
        state.observation(1)


def test_holmes_takes_a_random_card_of_his_hand_and_the_hands_swap():
    state = new_solo(4)
    his = list(state.hands[1])
    _pick(state)
    taken = state.owned[1][0]
    assert taken in his and state.hands[0] == [c for c in his if c != taken]
    assert state.revealed[0] == (state.owned[0][0], taken)
    assert state.available[1] == 13 - EV[taken].cost  # no check fired: both above 2


def test_holmes_pays_down_to_no_less_than_0_and_a_low_holmes_resupplies_both():
    state = new_solo(5)
    state.available[1], state.spent[1] = 1, 12
    state.available[0], state.spent[0] = 9, 4
    _pick(state)
    assert state.available == [13, 13] and state.spent == [0, 0]
    assert len(state.owned[1]) == 1  # his pick; the resupply draws him nothing


def test_a_low_player_gives_holmes_the_top_card_of_deck_iii_then_both_resupply():
    state = new_solo(6)
    state.available[0], state.spent[0] = 2, 11
    state.hands[0] = [c for c in state.hands[0] if EV[c].cost == 0] or ["E008"]
    top = state.decks[3][-1]
    settle(state)
    state.apply(state.legal_actions()[0])
    assert state.owned[1][-1] == top and len(state.owned[1]) == 2
    assert state.available == [13, 13]


def test_no_tokens_at_all_counts_as_low():
    state = new_solo(6)
    state.available[0], state.spent[0] = 0, 13
    state.hands[0] = ["E008", "E011", "E013"]  # the cost-0 cards
    settle(state)
    state.apply(Pick("E008"))
    assert state.available[0] == 13


def test_the_holmes_track_gives_him_the_top_card_of_the_deck_of_its_space():
    track = CARDS.holmes_track
    cycle = track.index(1) + 1  # the first space with a numeral: deck I
    state = new_solo(7)
    while not (state.cycle == cycle and state.phase == INVESTIGATE):
        state.apply(state.legal_actions()[-1])
    top = state.decks[1][-1]
    before = len(state.owned[1])
    _pick(state)
    assert top in state.owned[1] and len(state.owned[1]) >= before + 2


def test_a_resupply_while_tailing_asks_to_keep_the_tail_at_12_or_take_it_back():
    for keep, tokens in ((True, 12), (False, 13)):
        state = new_solo(8)
        state.tailing[0], state.available[0], state.spent[0] = MORAN, 2, 10
        state.row[0] = MORAN
        settle(state)
        state.hands[0] = ["E008", "E011", "E013"]
        state._legal = None
        state.apply(Pick("E008"))
        assert state.phase == RESET and state.legal_actions() == [Resupply(True),
                                                                  Resupply(False)]
        assert state.observation(0)["position"]["phase"] == "investigate"
        state.apply(Resupply(keep))
        assert state.available[0] == tokens
        assert state.tailing[0] == (MORAN if keep else None) and state.phase != RESET


def test_after_4_cycles_the_last_cards_are_discarded_and_new_hands_dealt():
    state = new_solo(9)
    for _ in range(4):
        cycle = state.cycle
        while state.cycle == cycle:
            state.apply(state.legal_actions()[-1])
    assert state.deal == 2 and [len(h) for h in state.hands] == [5, 5]
    assert len(state.gone) == 2 and state.gone == state.discard
    log = state.observation(0)["log"]
    assert log["deal"] == 2 and len(log["cycles"]) == 1 and log["gone"] == state.gone


def test_holmes_arrests_first_as_if_tailing_everything_most_points_fewest_cards():
    state = new_solo(10)
    state.row = [MORAN, "V05", "V06", "V08", "V09"]
    state.villain_deck = [v for v in state.villain_deck if v not in state.row]
    state.owned[1] = [HEART, GANG, BLOOD]  # Moran (8 points) 3 of 4
    state.owned[0] = [HEART, DISGUISE, GANG, BLOOD]  # the player could too
    _pick(state)
    while state.phase == "reset":
        state.apply(state.legal_actions()[0])
    assert MORAN in state.arrested[1] and state.used[1] >= {HEART, GANG, BLOOD}
    assert MORAN not in state.arrested[0]


def test_holmes_does_not_tail_and_the_player_may():
    state = new_solo(11)
    _pick(state)
    while state.phase != "tail":
        state.apply(state.legal_actions()[-1])
    assert state.current_player() == 0
    assert state.legal_actions() == [Tail(v) for v in state.row] + [NoTail()]


def test_the_game_is_19_cycles_and_the_player_wins_only_with_strictly_more_points():
    state = new_solo(12)
    rng = random.Random(12)
    cycles = set()
    while not state.is_over():
        cycles.add(state.cycle)
        state.apply(rng.choice(state.legal_actions()))
    assert cycles == set(range(1, 20)) and state.phase == OVER and state.deal == 5
    state.arrested = [[], []]
    state.owned[0] = []
    assert state.points(0) == state.points(1) == 0 and state.winner() == [HOLMES_SEAT]
    state.arrested[0] = [MORAN]
    assert state.winner() == [0]
