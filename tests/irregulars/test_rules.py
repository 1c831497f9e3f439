"""Baker Street Irregulars' engine, one test per rule of the rulebook and per decision of
the spec (each named for it), on hand-made states of the shipped set."""

from __future__ import annotations

import pytest

from deduce.core.errors import InputError
from deduce.models.irregulars import cards as cards_module
from deduce.models.irregulars import rules
from deduce.models.irregulars.cards import shipped_cards
from deduce.models.irregulars.rules import (
    ARREST,
    BONUS,
    FINAL,
    INVESTIGATE,
    OVER,
    TAIL,
    Arrest,
    Jump,
    NoArrest,
    NoTail,
    PassHand,
    Pick,
    Tail,
    TakeBoard,
    TakeCard,
    Watson,
    Wiggins,
    _objective_points,
    new_game,
)
from tests.irregulars.helpers import (
    BLOOD,
    DISGUISE,
    GANG,
    HEART,
    HEART_GANG,
    MORAN,
    MORIARTY,
    SKULL,
    arrest_turn,
    settle,
)

CARDS = shipped_cards()


def _frozen(state):
    return [state.observation(p) for p in range(state.num_players())]


def _refused(state, action, says: str) -> None:
    before = _frozen(state)
    with pytest.raises(InputError, match=says):
        state.apply(action)
    assert _frozen(state) == before


def _play_cycle(state, choose=lambda legal: legal[0]) -> None:
    """Every seat picks (the first legal pick) until the picks are revealed."""
    cycle = state.cycle
    while state.phase == INVESTIGATE and state.cycle == cycle:
        state.apply(choose(state.legal_actions()))


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [2, 3, 5])
def test_setup_draws_as_many_cards_from_each_deck_as_players_and_deals_5_each(players):
    state = new_game(7, players)
    assert [len(h) for h in state.hands] == [5] * players
    assert all(h == sorted(h) for h in state.hands)
    dealt = [c for h in state.hands for c in h]
    for d in rules.DECKS:
        assert sum(1 for c in dealt if CARDS.evidence_by_id[c].deck == d) == players
        assert len(state.decks[d]) == 20 - players
    assert len(state.row) == 5 and len(state.villain_deck) == 35
    assert len(set(state.inspectors)) == players and sorted(state.order) == list(range(players))
    assert state.twist is not None and len(state.twists) == 11
    assert state.available == [13] * players and state.spent == [0] * players


def test_setup_and_every_chance_come_from_the_seed():
    a, b, c = new_game(3, 4), new_game(3, 4), new_game(4, 4)
    assert _frozen(a) == _frozen(b) and a.hidden(0) == b.hidden(0)
    assert a.hidden(0) != c.hidden(0)


def test_the_game_takes_2_to_5_players():
    for bad in (1, 6, True):
        with pytest.raises(InputError, match="2 to 5 players"):
            new_game(0, bad)


# ----------------------------------------------------------------------------- investigate
def test_a_pick_must_be_affordable_and_picking_is_compulsory():
    state = new_game(1, 3)
    p = state.current_player()
    state.available[p] = 1
    state.spent[p] = 12
    settle(state)
    legal = state.legal_actions()
    assert legal == [Pick(c) for c in state.hands[p] if CARDS.evidence_by_id[c].cost <= 1] \
        or legal == [PassHand()]
    dear = next(c for c in state.hands[p] if CARDS.evidence_by_id[c].cost > 1)
    _refused(state, Pick(dear), "costs")
    if legal != [PassHand()]:
        _refused(state, PassHand(), "picking is compulsory")


def test_a_player_who_can_afford_nothing_passes_the_whole_hand():
    state = new_game(1, 3)
    state.available[0], state.spent[0] = 0, 13
    state.hands[0] = [c for c in state.hands[0] if CARDS.evidence_by_id[c].cost > 0] or \
        state.hands[0]
    settle(state)
    assert state.legal_actions() == [PassHand()]
    hand = list(state.hands[0])
    _play_cycle(state)
    step = 1 if state.direction == "left" else -1
    assert state.hands[step % 3] == hand  # the whole hand passed on, nothing paid
    assert state.owned[0] == [] and state.available[0] == 0


def test_picks_stay_hidden_until_everyone_has_picked_then_are_paid():
    state = new_game(2, 3)
    first = state.legal_actions()[0]
    state.apply(first)
    other = state.observation(1)
    assert first.card not in str(other)  # neither in a hand, nor Evidence, nor the log
    mine = state.observation(0)
    assert mine["log"]["cycles"][0]["picks"] == {"Ann": first.card}
    assert mine["log"]["acted"] == ["Ann"] and mine["position"]["evidence"]["Ann"] == []
    assert state.hidden(1).picked == {"Ann": first.card}
    _play_cycle(state)
    assert state.phase == ARREST or state.phase == TAIL or state.cycle == 2
    assert state.owned[0] == [first.card]
    cost = CARDS.evidence_by_id[first.card].cost
    assert (state.available[0], state.spent[0]) == (13 - cost, cost)
    assert set(state.observation(1)["log"]["cycles"][0]["picks"]) == {"Ann", "Ben", "Cat"}


@pytest.mark.parametrize("round_, direction", [(1, "left"), (2, "right"), (3, "left"),
                                               (4, "right")])
def test_hands_pass_left_in_rounds_1_and_3_and_right_in_2_and_4(round_, direction):
    state = new_game(5, 3)
    state.twists = [t for t in state.twists
                    if CARDS.plot_twist_by_id[t].effect != rules.REVERSE_PASSING]
    state._start_round(round_)
    settle(state)
    assert state.direction == direction
    before = [list(h) for h in state.hands]
    picks = []
    while state.phase == INVESTIGATE:
        action = state.legal_actions()[0]
        picks.append(getattr(action, "card", None))
        state.apply(action)
    step = 1 if direction == "left" else -1
    for s in range(3):
        assert state.hands[(s + step) % 3] == [c for c in before[s] if c != picks[s]]


def test_reverse_passing_turns_the_direction():
    state = new_game(5, 3)
    reverse = next(t.id for t in CARDS.plot_twists if t.effect == rules.REVERSE_PASSING)
    state.twists.append(reverse)
    state._start_round(2)
    assert state.twist == reverse and state.direction == "left"


def test_in_the_4th_cycle_the_unchosen_cards_go_face_down_to_the_middle():
    state = new_game(6, 3)
    while state.cycle < 4 or state.phase != INVESTIGATE:
        state.apply(state.legal_actions()[-1])
    assert [len(h) for h in state.hands] == [2, 2, 2]
    _play_cycle(state)
    assert state.hands == [[], [], []] and len(state.middle) == 3
    assert all(c not in str(state.observation(0)["position"]) for c in state.middle
               if c not in state.middle_put[0])  # face down: only one's own is known
    assert state.hidden(0).middle == tuple(c for put in state.middle_put for c in put)


# ----------------------------------------------------------------------------- arrest
def test_an_arrest_needs_every_icon_of_the_villain():
    state = arrest_turn(owned=[HEART, DISGUISE, GANG, BLOOD])
    assert Arrest(MORAN) in state.legal_actions()
    state = arrest_turn(owned=[HEART, DISGUISE, GANG], boards=["holmes"])  # not skipped
    assert Arrest(MORAN) not in state.legal_actions()
    _refused(state, Arrest(MORAN, (HEART, DISGUISE, GANG)), "miss blood")


def test_a_card_with_two_needed_icons_satisfies_both():
    state = arrest_turn(owned=[HEART_GANG, DISGUISE, BLOOD, HEART, GANG])
    moran = [a for a in state.legal_actions() if a == Arrest(MORAN)]
    assert [a.cards for a in moran] == [(HEART_GANG, DISGUISE, BLOOD)]  # the smallest


def test_tailing_needs_one_icon_fewer_moran_3_of_4_moriarty_8_of_9():
    state = arrest_turn(owned=[HEART, GANG, BLOOD], tail=MORAN)
    assert [a.cards for a in state.legal_actions() if a == Arrest(MORAN)] == \
        [(HEART, GANG, BLOOD)]
    nine = {i: next(e.id for e in CARDS.evidence if e.icons == (i,))
            for i in CARDS.villain_by_id[MORIARTY].icons}
    eight = [nine[i] for i in list(nine)[:8]]
    state = arrest_turn(owned=eight, tail=MORIARTY, row=[MORIARTY, MORAN])
    assert Arrest(MORIARTY) in state.legal_actions()
    state = arrest_turn(owned=eight[:7], tail=MORIARTY, row=[MORIARTY, MORAN])
    assert Arrest(MORIARTY) not in state.legal_actions()


def test_the_holmes_board_ignores_one_more_icon_and_goes_back_once_used():
    state = arrest_turn(owned=[HEART, GANG], tail=MORAN, boards=["holmes"])
    assert Arrest(MORAN, holmes=True) in state.legal_actions()
    assert Arrest(MORAN) not in state.legal_actions()
    state.apply(Arrest(MORAN, (HEART, GANG), holmes=True))
    assert state.boards[0] == [] and state.arrested[0] == [MORAN]


def test_an_arrest_uses_the_cards_refunds_the_tailers_sends_the_badge_last_and_refills():
    state = arrest_turn(owned=[HEART, DISGUISE, GANG, BLOOD, SKULL])
    state.tailing[1], state.available[1] = MORAN, 12
    state.tailing[2], state.available[2] = state.row[1], 12
    top = state.villain_deck[-1]
    state.apply(Arrest(MORAN, (HEART, DISGUISE, GANG, BLOOD)))
    assert state.used[0] == {HEART, DISGUISE, GANG, BLOOD} and state.owned[0][-1] == SKULL
    assert state.arrested[0] == [MORAN] and state.row[0] == top and len(state.row) == 5
    assert state.tailing[1] is None and state.available[1] == 13  # refunded as available
    assert state.tailing[2] is not None
    assert state.order == [1, 2, 0]
    assert state.phase == TAIL and state.current_player() == 1  # one arrest per phase


def test_apply_takes_any_covering_set_of_unused_cards_and_refuses_others():
    state = arrest_turn(owned=[HEART_GANG, DISGUISE, BLOOD, HEART, GANG, SKULL])
    _refused(state, Arrest(MORAN, (HEART_GANG, DISGUISE)), "miss blood")
    _refused(state, Arrest(MORAN, ("E099", DISGUISE)), "not Evidence of the player")
    _refused(state, Arrest(MORAN, (HEART, HEART)), "not distinct")
    _refused(state, Arrest("V40", (HEART,)), "not a visible Villain")
    _refused(state, Arrest(MORAN, (HEART_GANG, DISGUISE, BLOOD), holmes=True),
             "no Holmes board")
    state.apply(Arrest(MORAN, (HEART, GANG, DISGUISE, BLOOD, SKULL)))  # not the smallest
    assert state.arrested[0] == [MORAN] and state.used[0] >= {HEART, GANG, SKULL}


def test_used_cards_cannot_serve_again():
    state = arrest_turn(owned=[HEART, DISGUISE, GANG, BLOOD], boards=["holmes"])
    state.used[0] = {BLOOD}
    settle(state)
    _refused(state, Arrest(MORAN, (HEART, DISGUISE, GANG, BLOOD)), "used already")


def test_legal_arrests_are_the_capped_smallest_covers_one_card_per_group():
    two_hearts = [HEART, "E035", DISGUISE, GANG, BLOOD, "E011"]
    state = arrest_turn(owned=two_hearts)
    covers = [a.cards for a in state.legal_actions() if a == Arrest(MORAN)]
    assert covers == [(HEART, DISGUISE, GANG, BLOOD)]  # one heart, one blood: the first
    state = arrest_turn(owned=two_hearts, tail=MORAN)
    covers = [a.cards for a in state.legal_actions() if a == Arrest(MORAN)]
    assert len(covers) == 4 and all(len(c) == 3 for c in covers)  # C(4, 3) groups


def test_the_villain_row_shrinks_once_the_villain_deck_is_empty():
    state = arrest_turn(owned=[HEART, DISGUISE, GANG, BLOOD])
    state.villain_deck = []
    state.apply(Arrest(MORAN, (HEART, DISGUISE, GANG, BLOOD)))
    assert len(state.row) == 4 and MORAN not in state.row


def test_a_forced_arrest_turn_is_skipped():
    state = arrest_turn(owned=[SKULL])  # nobody can arrest nor has a board
    assert state.phase == TAIL and state.current_player() == state.order[0]
    state = arrest_turn(owned=[SKULL], order=[1, 0, 2])
    state.owned[1] = [HEART, DISGUISE, GANG, BLOOD]
    state.phase, state.acted = ARREST, []
    settle(state)
    assert state.current_player() == 1 and state.legal_actions()[-1] == NoArrest()


# ----------------------------------------------------------------------------- boards
def test_the_holmes_board_jumps_to_the_front_in_ones_own_turn():
    state = arrest_turn(seat=2, owned=[SKULL], boards=["holmes"], order=[1, 0, 2],
                        acted=[1, 0])
    assert state.current_player() == 2 and Jump() in state.legal_actions()
    state.apply(Jump())  # then nothing is left to decide: the turn ends by itself
    assert state.order == [2, 1, 0] and state.boards[2] == []
    assert state.phase == TAIL and state.current_player() == 2  # first to tail now
    state = arrest_turn(seat=2, owned=[HEART, DISGUISE, GANG, BLOOD], boards=["holmes"],
                        order=[1, 0, 2], acted=[1, 0])
    state.apply(Jump())
    assert state.current_player() == 2 and NoArrest() in state.legal_actions()


def test_watson_moves_up_one_place():
    state = arrest_turn(seat=2, owned=[SKULL], boards=["watson"], order=[1, 0, 2],
                        acted=[1, 0])
    state.apply(Watson())
    assert state.order == [1, 2, 0] and state.boards[2] == []
    first = arrest_turn(seat=0, owned=[HEART, DISGUISE, GANG, BLOOD], boards=["watson"])
    assert Watson() not in first.legal_actions()
    _refused(first, Watson(), "first already")


def test_wiggins_switches_the_villain_tailed():
    state = arrest_turn(owned=[HEART, GANG, BLOOD], tail=state_row_second(), boards=["wiggins"])
    assert Arrest(MORAN) not in state.legal_actions()
    assert Wiggins(MORAN) in state.legal_actions()
    _refused(state, Wiggins(state.tailing[0]), "not another visible Villain")
    state.apply(Wiggins(MORAN))
    assert state.tailing[0] == MORAN and state.boards[0] == [] and state.current_player() == 0
    assert Arrest(MORAN) in state.legal_actions()


def state_row_second() -> str:
    return arrest_turn().row[1]


# ----------------------------------------------------------------------------- tail
def test_tailing_goes_in_arresting_order_one_token_one_villain():
    state = arrest_turn(owned=[SKULL])
    while state.phase == ARREST:
        state.apply(state.legal_actions()[-1])
    assert state.phase == TAIL and state.current_player() == state.order[0]
    p = state.current_player()
    assert state.legal_actions() == [Tail(v) for v in state.row] + [NoTail()]
    state.apply(Tail(state.row[2]))
    assert state.tailing[p] == state.row[2] and state.available[p] == 12
    assert state.current_player() == state.order[1]


def test_a_player_tailing_or_without_tokens_is_skipped():
    state = arrest_turn(owned=[SKULL])
    state.tailing[state.order[0]] = state.row[0]
    state.available[state.order[0]] = 12
    state.available[state.order[1]], state.spent[state.order[1]] = 0, 13
    state.acted = []
    settle(state)
    assert state.phase == TAIL and state.current_player() == state.order[2]


def test_no_tailing_skips_the_tail_phase_and_tails_stay():
    state = arrest_turn(owned=[SKULL], effect=rules.NO_TAILING, tail=MORAN)
    assert state.phase == INVESTIGATE and state.cycle == 2
    assert state.tailing[0] == MORAN


# ----------------------------------------------------------------------------- bonus
def _to_bonus(seed: int = 8, players: int = 3, effect: str | None = None):
    state = new_game(seed, players)
    if effect is not None:
        state.twist = next(t.id for t in CARDS.plot_twists if t.effect == effect)
    else:
        state.twist = next(t.id for t in CARDS.plot_twists if t.effect == rules.NO_TAILING)
    while state.phase != BONUS and state.round == 1:
        state.apply(state.legal_actions()[-1])
    return state


def test_the_bsi_bonus_goes_from_most_tokens_to_fewest_ties_by_arresting_order():
    state = _to_bonus()
    assert state.phase == BONUS
    rank = {s: i for i, s in enumerate(state.order)}
    assert state.bonus_order == sorted(range(3), key=lambda s: (-state.available[s], rank[s]))
    assert state.current_player() == state.bonus_order[0]
    legal = state.legal_actions()
    assert legal == [TakeCard(c) for c in state.middle] + [TakeBoard(b) for b in rules.BOARDS]
    assert state.observation(0)["position"]["hand"] == state.middle  # face up now


def test_bonus_in_arresting_order():
    state = _to_bonus(effect=rules.BONUS_IN_ARRESTING_ORDER)
    assert state.bonus_order == state.order


def test_a_bonus_card_is_free_and_a_board_is_one_of_each():
    state = _to_bonus()
    p = state.current_player()
    card = state.middle[0]
    money = state.available[p]
    state.apply(TakeCard(card))
    assert state.owned[p][-1] == card and state.available[p] == money
    q = state.current_player()
    state.apply(TakeBoard("watson"))
    assert state.boards[q] == ["watson"]
    _refused(state, TakeBoard("watson"), "not in the middle")


def test_cleanup_discards_the_rest_and_gives_spent_tokens_back_but_not_a_tail():
    state = _to_bonus()
    state.tailing[0], state.available[0] = state.row[0], state.available[0] - 1
    while state.phase == BONUS:
        state.apply(state.legal_actions()[-1])  # everyone takes a board or a card
    assert state.round == 2 and state.phase == INVESTIGATE
    assert state.spent == [0, 0, 0] and state.available[0] == 12
    assert state.available[1:] == [13, 13] and state.tailing[0] is not None
    assert state.middle == [] and set(state.gone) <= set(state.discard)


def test_unused_boards_go_back_to_the_middle_at_the_next_bonus():
    state = _to_bonus()
    state.apply(TakeBoard("holmes"))
    while state.phase == BONUS:
        state.apply(state.legal_actions()[0])
    assert any("holmes" in b for b in state.boards)
    while state.phase != BONUS:
        choices = [a for a in state.legal_actions() if not isinstance(a, Jump)
                   and not getattr(a, "holmes", False)]
        state.apply(choices[-1])
    assert state.round == 2 and state.boards == [[], [], []]
    assert TakeBoard("holmes") in state.legal_actions()


def test_no_bsi_bonus_discards_the_unchosen_cards_and_loses_the_boards():
    state = _to_bonus(effect=rules.NO_BSI_BONUS)
    assert state.round == 2 and state.phase == INVESTIGATE  # no bonus phase
    assert state.gone == [] and len(state.discard) >= 3 and state.boards == [[], [], []]


# ----------------------------------------------------------------------------- twists
def test_fewest_points_to_top_and_most_points_to_bottom_keep_their_order():
    state = new_game(9, 4)
    state.order = [0, 1, 2, 3]
    state.arrested = [["V02"], [], ["V05"], []]  # 8, 0, 5, 0 points
    state.twists.append(next(t.id for t in CARDS.plot_twists
                             if t.effect == rules.FEWEST_POINTS_TO_TOP))
    state._start_round(2)
    assert state.order == [1, 3, 0, 2]
    state.twists.append(next(t.id for t in CARDS.plot_twists
                             if t.effect == rules.MOST_POINTS_TO_BOTTOM))
    state._start_round(3)
    assert state.order == [1, 3, 2, 0]


# ----------------------------------------------------------------------------- round 4
def test_round_4_has_the_bonus_without_boards_then_one_final_arrest_phase():
    state = new_game(10, 3)
    state.twists = [t for t in state.twists
                    if CARDS.plot_twist_by_id[t].effect != rules.NO_BSI_BONUS]
    while not (state.round == 4 and state.phase == BONUS):
        state.apply(state.legal_actions()[-1])
    assert not any(isinstance(a, TakeBoard) for a in state.legal_actions())
    state.row[0] = MORAN
    state.owned[0] += [HEART, DISGUISE, GANG, BLOOD]
    state.villain_deck = [v for v in state.villain_deck if v != MORAN]
    while state.phase == BONUS:
        state.apply(state.legal_actions()[0])
    assert state.phase == FINAL and state.observation(0)["log"]["final"] is True
    while state.current_player() != 0:
        state.apply(NoArrest())
    state.apply(Arrest(MORAN, (HEART, DISGUISE, GANG, BLOOD)))
    while state.phase == FINAL:
        state.apply(NoArrest())
    assert state.phase == OVER and MORAN in state.arrested[0] and state.legal_actions() == [] and state.current_player() is None
    log = state.observation(0)["log"]
    assert log["final"] is True and state.observation(0)["position"]["phase"] == "arrest"


# ----------------------------------------------------------------------------- score
def test_objectives_count_every_owned_card_in_the_spec_vocabulary():
    gregson = CARDS.inspector_by_id["gregson"]  # 1/location, 2/black, 5/story pair
    owned = [CARDS.evidence_by_id[c] for c in ("E004", "E027", "E013", "E003", "E008")]
    locations = sum(1 for c in owned if c.type == "location")
    black = sum(1 for c in owned if c.colour == "black")
    pairs = sum(n // 2 for n in __import__("collections").Counter(c.story for c in owned).values())
    assert _objective_points(gregson, owned) == [locations, 2 * black, 5 * pairs]
    assert pairs == 1  # E004 and E027 are both RESI
    lestrade = CARDS.inspector_by_id["lestrade"]  # 1/artifact, 2/skull, 6/colour set
    skulls = sum(1 for c in owned if "skull" in c.icons)
    colours = min(sum(1 for c in owned if c.colour == k) for k in cards_module.COLOURS)
    artifacts = sum(1 for c in owned if c.type == "artifact")
    assert _objective_points(lestrade, owned) == [artifacts, 2 * skulls, 6 * colours]
    bradstreet = CARDS.inspector_by_id["bradstreet"]  # 1/witness, 2/red, 3/type set
    sets = min(sum(1 for c in owned if c.type == t) for t in cards_module.TYPES)
    assert _objective_points(bradstreet, owned)[2] == 3 * sets


def test_the_score_is_villain_points_plus_the_best_objective():
    state = new_game(11, 3)
    state.arrested[0] = [MORAN, "V05"]
    state.owned[0] = ["E004", "E027"]
    state.used[0] = {"E004"}  # used cards still count
    best = max(state.objectives(0))
    assert state.points(0) == 8 + 5 + best and state.scores()[0] == state.points(0)


def test_the_winner_has_most_points_then_most_tokens_then_is_higher_in_the_order():
    state = new_game(12, 3)
    state.phase = OVER
    for s in range(3):
        state.inspectors[s] = "gregson"
    state.arrested = [[MORAN], [MORAN[:-1] + "3"], []]
    state.owned = [[], [], []]
    pts = state.scores()
    assert state.winner() == [max(range(3), key=lambda s: (pts[s], state.available[s],
                                                            -state.order.index(s)))]
    state.arrested = [[], [], []]
    state.available = [5, 9, 9]
    state.order = [0, 2, 1]
    assert state.winner() == [2]  # tied tokens: higher in the order
