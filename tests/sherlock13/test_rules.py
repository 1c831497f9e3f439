"""The rules engine: deal, legal actions, answers, eliminations, expert rotation, exchanges.

Card indices (SUSPECTS order) and their icons, used in the hand-computed answers below:
 0 Sherlock Holmes  pipe bulb fist        7 Sebastian Moran   skull fist
 1 John H. Watson   pipe eye fist         8 Insp. Lestrade    badge eye book
 2 James Moriarty   skull bulb            9 Insp. Gregson     badge fist book
 3 Irene Adler      skull bulb necklace  10 Insp. Baynes      badge bulb
 4 Mycroft Holmes   pipe bulb book       11 Insp. Bradstreet  badge fist
 5 Mrs. Hudson      pipe necklace        12 Insp. Hopkins     badge pipe eye
 6 Mary Morstan     book necklace
"""

import random
from collections import Counter

import pytest

from deduce.core.errors import InputError
from deduce.models.sherlock13.cards import ICONS, N_CARDS, SUSPECTS
from deduce.models.sherlock13.rules import (
    Accuse,
    AccuseEvent,
    Count,
    CountEvent,
    Exchange,
    ExchangeEvent,
    Raise,
    RaiseEvent,
    State,
    Turns,
    answering_cards,
    default_names,
    describe_action,
)

from tests.sherlock13.names import (  # card and icon indices by name
    PIPE,
    BULB,
    FIST,
    BADGE,
    BOOK,
    NECKLACE,
    EYE,
    SKULL,
    HOLMES,
    WATSON,
    MORIARTY,
    ADLER,
    MYCROFT,
    HUDSON,
    MORSTAN,
    MORAN,
    LESTRADE,
    GREGSON,
    BAYNES,
    BRADSTREET,
    HOPKINS,
)


def test_index_constants_match_the_tables():
    assert ICONS[SKULL] == "skull" and ICONS[BULB] == "light bulb" and ICONS[EYE] == "eye"
    assert SUSPECTS[MORAN] == "Sebastian Moran" and SUSPECTS[HOPKINS] == "Inspector Hopkins"


# ----------------------------------------------------------------------------- dealing
@pytest.mark.parametrize("n, size", [(2, 5), (3, 4), (4, 3)])
@pytest.mark.parametrize("variant", ["standard", "expert"])
def test_deal_uses_all_13_cards(n, size, variant):
    for seed in range(25):
        st = State.deal(n, variant, random.Random(seed))
        assert st.n == n
        assert [len(h) for h in st.hands] == [size] * n
        assert [len(h) for h in st.start_hands] == [size] * n
        dealt = [c for h in st.hands for c in h] + [st.criminal] + list(st.sides.values())
        assert sorted(dealt) == list(range(N_CARDS))
        if n == 2:
            assert set(st.sides) == {"left", "right"}
            assert st.criminal not in st.sides.values()
        else:
            assert st.sides == {}
        assert st.face_up == {} and st.events == []
        assert st.current == 0 and not st.is_over() and st.winner() is None


def test_deal_is_deterministic_for_a_seed_and_varies_with_it():
    a = State.deal(4, "standard", random.Random(7))
    b = State.deal(4, "standard", random.Random(7))
    assert (a.hands, a.criminal) == (b.hands, b.criminal)
    deals = {(tuple(map(tuple, State.deal(4, "standard", random.Random(s)).hands)))
             for s in range(20)}
    assert len(deals) == 20


def test_deal_criminal_is_uniform_enough():
    crims = Counter(State.deal(3, "standard", random.Random(s)).criminal for s in range(1300))
    assert set(crims) == set(range(13))
    assert max(crims.values()) < 160  # expected 100 each


def test_expert_deal_rotates_the_first_players_hand_before_the_first_turn():
    st = State.deal(3, "expert", random.Random(3))
    start = st.start_hands
    assert st.hands[0] == start[0][1:] + start[0][:1]
    assert st.hands[1] == start[1] and st.hands[2] == start[2]
    assert st.turns.rotations == [1, 0, 0]


@pytest.mark.parametrize("n", [0, 1, 5, 13])
def test_deal_rejects_player_counts(n):
    with pytest.raises(InputError, match="2, 3 or 4 players"):
        State.deal(n, "standard", random.Random(0))


def test_deal_rejects_unknown_variant():
    with pytest.raises(InputError, match="variant"):
        State.deal(3, "hard", random.Random(0))


def test_from_deal_copies_the_hands():
    hands = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    st = State.from_deal("standard", hands, 12)
    st.hands[0].append(99)
    st.start_hands[1].append(99)
    assert hands == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


# ----------------------------------------------------------------------------- legal actions
def _deal4():
    return State.from_deal("standard", [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]], 12)


def _deal3(variant="standard"):
    return State.from_deal(variant, [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], 12)


def _deal2(variant="standard"):
    return State.from_deal(variant, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], 11,
                           {"left": 10, "right": 12})


def _kinds(actions):
    return Counter(type(a).__name__ for a in actions)


def test_legal_actions_four_players():
    acts = _deal4().legal_actions()
    assert _kinds(acts) == {"Raise": 8, "Count": 3 * 8, "Accuse": 13}
    assert len(acts) == len(set(acts)) == 45
    assert {a.target for a in acts if isinstance(a, Count)} == {1, 2, 3}


def test_legal_actions_three_players():
    st = _deal3()
    st.apply(Raise(SKULL))
    acts = st.legal_actions()
    assert _kinds(acts) == {"Raise": 8, "Count": 2 * 8, "Accuse": 13}
    assert {a.target for a in acts if isinstance(a, Count)} == {0, 2}


def test_legal_actions_two_players_exchange_while_a_side_is_closed():
    st = _deal2()
    acts = st.legal_actions()
    assert _kinds(acts) == {"Exchange": 2 * 5, "Count": 8, "Accuse": 13}
    assert {(a.side, a.reveal) for a in acts if isinstance(a, Exchange)} == {
        (s, c) for s in ("left", "right") for c in range(5)}
    st.apply(Exchange("left", 2))
    acts = st.legal_actions()
    assert _kinds(acts) == {"Exchange": 5, "Count": 8, "Accuse": 13}
    assert {(a.side, a.reveal) for a in acts if isinstance(a, Exchange)} == {
        ("right", c) for c in range(5, 10)}
    st.apply(Exchange("right", 9))
    acts = st.legal_actions()
    assert _kinds(acts) == {"Count": 8, "Accuse": 13}
    assert st.turns.legal_kinds() == ["count", "accuse"]


def test_legal_kinds():
    assert Turns(4).legal_kinds() == ["raise", "count", "accuse"]
    assert Turns(3).legal_kinds() == ["raise", "count", "accuse"]
    assert Turns(2).legal_kinds() == ["exchange", "count", "accuse"]


def test_every_legal_action_applies():
    for make in (_deal2, _deal3, _deal4):
        base = make()
        for a in base.legal_actions():
            st = make()
            ev = st.apply(a)
            assert st.events == [ev]
            assert ev.actor == 0


# ----------------------------------------------------------------------------- answers
def test_standard_answers_four_players():
    st = _deal4()  # 0:[Holmes,Watson,Moriarty] 1:[Adler,Mycroft,Hudson] 2:[Morstan,Moran,Lestrade] 3:[Gregson,Baynes,Bradstreet]
    assert st.apply(Raise(SKULL)) == RaiseEvent(0, SKULL, frozenset({1, 2}))
    assert st.apply(Count(3, BADGE)) == CountEvent(1, 3, BADGE, 3)
    assert st.apply(Raise(PIPE)) == RaiseEvent(2, PIPE, frozenset({0, 1}))
    assert st.apply(Count(0, FIST)) == CountEvent(3, 0, FIST, 2)
    assert st.apply(Raise(EYE)) == RaiseEvent(0, EYE, frozenset({2}))
    assert st.apply(Count(0, BULB)) == CountEvent(1, 0, BULB, 2)
    assert st.apply(Raise(NECKLACE)) == RaiseEvent(2, NECKLACE, frozenset({1}))
    assert st.apply(Raise(SKULL)) == RaiseEvent(3, SKULL, frozenset({0, 1, 2}))
    assert st.apply(Count(2, NECKLACE)) == CountEvent(0, 2, NECKLACE, 1)
    assert st.current == 1
    assert st.hands == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]  # standard: no rotation


def test_answer_count_matches_answering_cards():
    assert answering_cards([1, 2, 3], "standard") == [1, 2, 3]
    assert answering_cards([1, 2, 3], "expert") == [1, 2]
    st = _deal3("expert")  # seat 1: [Mycroft, Hudson, Morstan, Moran]
    assert st.answer_count(1, SKULL) == 0  # Moran is last
    assert st.answer_count(1, BOOK) == 2
    st = _deal3()
    assert st.answer_count(1, SKULL) == 1
    assert st.answer_count(1, PIPE) == 2


# ----------------------------------------------------------------------------- accusations
def test_wrong_accusation_eliminates_skips_but_the_player_still_answers():
    st = _deal3()  # criminal Hopkins
    ev = st.apply(Accuse(HOLMES))
    assert ev == AccuseEvent(0, HOLMES, False)
    assert st.turns.eliminated == {0}
    assert not st.is_over()
    assert st.current == 1
    # seat 0 still answers: 0:[Holmes, Watson, Moriarty, Adler]
    assert st.apply(Count(0, SKULL)) == CountEvent(1, 0, SKULL, 2)
    assert st.current == 2
    assert st.apply(Raise(PIPE)) == RaiseEvent(2, PIPE, frozenset({0, 1}))
    assert st.current == 1  # seat 0 skipped
    acts = st.legal_actions()
    assert {a.target for a in acts if isinstance(a, Count)} == {0, 2}  # eliminated is a target
    assert st.apply(Raise(EYE)) == RaiseEvent(1, EYE, frozenset({0, 2}))
    assert st.current == 2
    assert st.turns.rotations == [2, 2, 2]  # seat 0's skipped turn still counts
    st.apply(Count(0, EYE))
    assert st.current == 1 and st.turns.rotations == [3, 3, 2]


def test_right_accusation_ends_the_game():
    st = _deal4()
    st.apply(Raise(PIPE))
    ev = st.apply(Accuse(12))
    assert ev == AccuseEvent(1, 12, True)
    assert st.is_over() and st.winner() == 1
    assert st.legal_actions() == []
    assert st.turns.legal_kinds() == []
    with pytest.raises(InputError, match="over"):
        st.apply(Count(0, PIPE))
    assert len(st.events) == 2


def test_game_ends_when_one_player_remains_three_players():
    st = _deal3()
    st.apply(Accuse(HOLMES))
    assert not st.is_over()
    st.apply(Accuse(WATSON))
    assert st.is_over() and st.winner() == 2
    assert st.turns.eliminated == {0, 1}
    assert st.legal_actions() == []


def test_game_ends_when_one_player_remains_four_players():
    st = _deal4()
    st.apply(Accuse(HOLMES))       # seat 0 out
    st.apply(Raise(PIPE))          # seat 1
    st.apply(Accuse(WATSON))       # seat 2 out
    assert st.current == 3
    st.apply(Count(1, PIPE))       # seat 3
    assert st.current == 1         # 0 skipped
    st.apply(Accuse(MORIARTY))     # seat 1 out
    assert st.is_over() and st.winner() == 3


def test_game_ends_two_players_at_one_wrong_accusation():
    st = _deal2()
    st.apply(Accuse(HOLMES))
    assert st.is_over() and st.winner() == 1
    with pytest.raises(InputError):
        st.apply(Count(0, PIPE))


def test_right_accusation_after_eliminations():
    st = _deal3()
    st.apply(Accuse(HOLMES))
    st.apply(Count(0, PIPE))
    st.apply(Accuse(HOPKINS))
    assert st.is_over() and st.winner() == 2 and st.turns.eliminated == {0}


# ----------------------------------------------------------------------------- expert rotation
def test_expert_rotation_and_answers_ignore_the_last_card():
    # 0:[Holmes, Watson, Moriarty, Adler]  1:[Mycroft, Hudson, Morstan, Moran]
    # 2:[Lestrade, Gregson, Baynes, Bradstreet]   criminal Hopkins
    st = _deal3("expert")
    assert st.hands[0] == [WATSON, MORIARTY, ADLER, HOLMES]  # seat 0's first turn started
    assert st.hands[1] == [MYCROFT, HUDSON, MORSTAN, MORAN]

    # turn 1, seat 0: seat 1 answers with Mycroft, Hudson, Morstan (Moran last)
    assert st.apply(Count(1, SKULL)) == CountEvent(0, 1, SKULL, 0)
    assert st.hands[1] == [HUDSON, MORSTAN, MORAN, MYCROFT]
    # turn 2, seat 1: seat 0 answers with Watson, Moriarty, Adler (Holmes last)
    assert st.apply(Count(0, PIPE)) == CountEvent(1, 0, PIPE, 1)
    assert st.hands[2] == [GREGSON, BAYNES, BRADSTREET, LESTRADE]
    # turn 3, seat 2: book: seat 0 none; seat 1 Morstan (Mycroft last)
    assert st.apply(Raise(BOOK)) == RaiseEvent(2, BOOK, frozenset({1}))
    assert st.hands[0] == [MORIARTY, ADLER, HOLMES, WATSON]
    # turn 4, seat 0 accuses wrongly
    assert st.apply(Accuse(HOLMES)) == AccuseEvent(0, HOLMES, False)
    assert st.hands[1] == [MORSTAN, MORAN, MYCROFT, HUDSON]
    # turn 5, seat 1: seat 0 answers Moriarty, Adler, Holmes: no eye (Watson last)
    assert st.apply(Count(0, EYE)) == CountEvent(1, 0, EYE, 0)
    assert st.hands[2] == [BAYNES, BRADSTREET, LESTRADE, GREGSON]
    # turn 6, seat 2: seat 0 fist: Holmes
    assert st.apply(Count(0, FIST)) == CountEvent(2, 0, FIST, 1)
    # seat 0's skipped turn still rotates, then seat 1 starts
    assert st.current == 1
    assert st.hands[0] == [ADLER, HOLMES, WATSON, MORIARTY]
    assert st.hands[1] == [MORAN, MYCROFT, HUDSON, MORSTAN]
    # turn 7, seat 1: seat 0 answers Adler, Holmes, Watson: one skull (Moriarty last)
    assert st.apply(Count(0, SKULL)) == CountEvent(1, 0, SKULL, 1)
    assert st.hands[2] == [BRADSTREET, LESTRADE, GREGSON, BAYNES]
    # turn 8, seat 2: raise bulb: seat 0 Adler/Holmes yes; seat 1 Moran, Mycroft, Hudson: Mycroft
    assert st.apply(Raise(BULB)) == RaiseEvent(2, BULB, frozenset({0, 1}))
    assert st.turns.rotations == [4, 4, 3]
    assert st.hands[0] == [HOLMES, WATSON, MORIARTY, ADLER]
    assert st.hands[1] == [MYCROFT, HUDSON, MORSTAN, MORAN]
    assert st.hands[2] == [BRADSTREET, LESTRADE, GREGSON, BAYNES]
    # turn 9, seat 1: seat 2 answers Bradstreet, Lestrade, Gregson: 3 badges (Baynes last)
    assert st.apply(Count(2, BADGE)) == CountEvent(1, 2, BADGE, 3)
    assert st.apply(Count(1, BADGE)) == CountEvent(2, 1, BADGE, 0)
    assert st.turns.rotations == [5, 5, 4]


def test_same_actions_standard_answers_differ_from_expert():
    st = _deal3("standard")
    assert st.apply(Count(1, SKULL)) == CountEvent(0, 1, SKULL, 1)
    assert st.apply(Count(0, PIPE)) == CountEvent(1, 0, PIPE, 2)
    assert st.apply(Raise(BOOK)) == RaiseEvent(2, BOOK, frozenset({1}))
    assert st.hands == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_expert_four_players_with_two_eliminated():
    # 0:[Holmes, Watson, Moriarty] 1:[Adler, Mycroft, Hudson] 2:[Morstan, Moran, Lestrade]
    # 3:[Gregson, Baynes, Bradstreet]  criminal Hopkins
    st = State.from_deal("expert", [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]], 12)
    st.apply(Accuse(0))                       # seat 0 out; seat 1 rotates
    st.apply(Accuse(1))                       # seat 1 out; seat 2 rotates
    assert st.current == 2
    assert st.turns.rotations == [1, 1, 1, 0]
    st.apply(Count(3, BADGE))                 # seat 3 rotates
    # seat 3 [Baynes, Bradstreet, Gregson] answers Baynes, Bradstreet -> 2
    assert st.events[-1] == CountEvent(2, 3, BADGE, 2)
    st.apply(Count(0, PIPE))                  # seats 0, 1 skipped but rotate, then seat 2
    assert st.current == 2
    assert st.turns.rotations == [2, 2, 2, 1]
    assert st.hands[0] == [MORIARTY, HOLMES, WATSON]
    assert st.hands[1] == [HUDSON, ADLER, MYCROFT]
    assert st.hands[2] == [LESTRADE, MORSTAN, MORAN]
    # seat 0 answers Moriarty, Holmes: 1 pipe (Watson last); earlier it was Watson, Moriarty
    assert st.events[-1] == CountEvent(3, 0, PIPE, 1)
    # seat 1 answers Hudson, Adler (Mycroft last)
    assert st.apply(Count(1, NECKLACE)) == CountEvent(2, 1, NECKLACE, 2)
    assert st.apply(Count(1, BOOK)) == CountEvent(3, 1, BOOK, 0)
    assert st.current == 2 and st.turns.rotations == [3, 3, 3, 2]
    assert st.hands[0] == [HOLMES, WATSON, MORIARTY]
    assert st.hands[1] == [ADLER, MYCROFT, HUDSON]
    assert st.apply(Count(0, PIPE)) == CountEvent(2, 0, PIPE, 2)          # Holmes, Watson
    assert st.apply(Count(1, BOOK)) == CountEvent(3, 1, BOOK, 1)          # Mycroft


def test_expert_rotation_stops_when_the_game_ends():
    st = _deal3("expert")
    st.apply(Accuse(HOPKINS))
    assert st.is_over()
    assert st.turns.rotations == [1, 0, 0]
    assert st.hands[1] == [MYCROFT, HUDSON, MORSTAN, MORAN]


# ----------------------------------------------------------------------------- two players
def test_two_player_exchange_standard():
    # 0:[Holmes, Watson, Moriarty, Adler, Mycroft] 1:[Hudson, Morstan, Moran, Lestrade, Gregson]
    # left Baynes, criminal Bradstreet, right Hopkins
    st = _deal2()
    ev = st.apply(Exchange("left", MORIARTY))
    assert ev == ExchangeEvent(0, "left", MORIARTY, BAYNES)
    assert st.hands[0] == [HOLMES, WATSON, BAYNES, ADLER, MYCROFT]
    assert st.sides == {"right": HOPKINS}
    assert st.face_up == {"left": MORIARTY}
    assert st.turns.open_sides == {"left"}
    assert st.turns.exchanges == [1, 0]
    assert st.apply(Count(0, BADGE)) == CountEvent(1, 0, BADGE, 1)
    assert st.apply(Count(1, SKULL)) == CountEvent(0, 1, SKULL, 1)
    with pytest.raises(InputError, match="face up"):
        st.apply(Exchange("left", LESTRADE))
    ev = st.apply(Exchange("right", LESTRADE))
    assert ev == ExchangeEvent(1, "right", LESTRADE, HOPKINS)
    assert st.hands[1] == [HUDSON, MORSTAN, MORAN, HOPKINS, GREGSON]
    assert st.sides == {}
    assert st.face_up == {"left": MORIARTY, "right": LESTRADE}
    assert st.turns.open_sides == {"left", "right"}
    assert st.turns.exchanges == [1, 1]
    with pytest.raises(InputError):
        st.apply(Exchange("right", HOLMES))
    assert st.apply(Count(1, EYE)) == CountEvent(0, 1, EYE, 1)  # Hopkins
    assert st.criminal == BRADSTREET


def test_two_player_exchange_expert_takes_the_slot_of_the_card_given():
    st = _deal2("expert")
    assert st.hands[0] == [WATSON, MORIARTY, ADLER, MYCROFT, HOLMES]
    st.apply(Exchange("left", ADLER))
    assert st.hands[0] == [WATSON, MORIARTY, BAYNES, MYCROFT, HOLMES]
    assert st.hands[1] == [MORSTAN, MORAN, LESTRADE, GREGSON, HUDSON]
    # seat 0 answers with Watson, Moriarty, Baynes, Mycroft: one badge
    assert st.apply(Count(0, BADGE)) == CountEvent(1, 0, BADGE, 1)
    assert st.hands[0] == [MORIARTY, BAYNES, MYCROFT, HOLMES, WATSON]
    # seat 1 answers with Morstan, Moran, Lestrade, Gregson (Hudson last): no pipe
    assert st.apply(Count(1, PIPE)) == CountEvent(0, 1, PIPE, 0)
    assert st.hands[1] == [MORAN, LESTRADE, GREGSON, HUDSON, MORSTAN]
    st.apply(Exchange("right", MORSTAN))   # the last card goes, Hopkins takes its place
    assert st.hands[1] == [MORAN, LESTRADE, GREGSON, HUDSON, HOPKINS]
    # seat 1's last card Hopkins is ignored when answering
    assert st.apply(Count(1, EYE)) == CountEvent(0, 1, EYE, 1)          # Lestrade only
    assert st.hands[1] == [LESTRADE, GREGSON, HUDSON, HOPKINS, MORAN]
    assert st.apply(Count(0, SKULL)) == CountEvent(1, 0, SKULL, 0)      # Moriarty is last now
    assert st.hands[0] == [MYCROFT, HOLMES, WATSON, MORIARTY, BAYNES]


def test_exchange_of_a_card_not_in_hand_changes_nothing():
    st = _deal2()
    with pytest.raises(InputError, match="not in the actor's hand"):
        st.apply(Exchange("left", HUDSON))
    assert st.sides == {"left": BAYNES, "right": HOPKINS}
    assert st.face_up == {} and st.events == [] and st.turns.open_sides == set()
    assert st.hands[0] == [0, 1, 2, 3, 4] and st.current == 0


# ----------------------------------------------------------------------------- illegal actions
@pytest.mark.parametrize(
    "make, action, fragment",
    [
        (_deal2, Raise(SKULL), "2 players"),
        (_deal3, Exchange("left", HOLMES), "only played with 2 players"),
        (_deal4, Exchange("left", HOLMES), "only played with 2 players"),
        (_deal2, Exchange("middle", HOLMES), "side"),
        (_deal4, Count(0, SKULL), "another player"),
        (_deal4, Count(4, SKULL), "another player"),
        (_deal4, Count(-1, SKULL), "another player"),
        (_deal4, Count(1, 8), "icon"),
        (_deal4, Raise(-1), "icon"),
        (_deal4, Accuse(13), "suspect"),
        (_deal4, "raise skull", "unknown action"),
    ],
)
def test_illegal_actions_raise_input_error_and_change_nothing(make, action, fragment):
    st = make()
    with pytest.raises(InputError, match=fragment):
        st.apply(action)
    assert st.events == [] and st.current == 0
    assert st.turns.rotations[0] == 1 and sum(st.turns.rotations) == 1


# ----------------------------------------------------------------------------- misc
def test_describe_action_and_default_names():
    names = default_names(4)
    assert names == ["Ann", "Ben", "Cat", "Dan"]
    assert default_names(2) == ["Ann", "Ben"]
    assert describe_action(Raise(SKULL), names) == "raise skull"
    assert describe_action(Count(2, BULB), names) == "count Cat light bulb"
    assert describe_action(Accuse(MORIARTY), names) == "accuse James Moriarty"
    assert describe_action(Exchange("left", HUDSON), names) == "exchange left revealing Mrs. Hudson"


def test_turns_next_turn_of():
    t = Turns(3)
    assert t.next_turn_of(0) == {0: 1, 1: 0, 2: 0}
    assert t.next_turn_of(2) == {0: 1, 1: 1, 2: 1}
    t.record(AccuseEvent(0, 0, False))
    assert t.current == 1 and t.rotations == [1, 1, 0]
    assert t.next_turn_of(0) is None
    assert t.next_turn_of(1) == {0: 1, 1: 1, 2: 0}  # the current player: now
    # seat 0 is skipped but still rotates before seat 1's next turn
    t.record(CountEvent(1, 0, 0, 1))
    assert t.next_turn_of(1) == {0: 2, 1: 2, 2: 1}
    assert t.rotations == [1, 1, 1]
    t.record(CountEvent(2, 0, 0, 1))
    assert t.current == 1 and t.rotations == [2, 2, 1]
    t2 = t.copy()
    t2.record(CountEvent(1, 0, 0, 1))
    assert t.current == 1 and t2.current == 2
    assert t.rotations == [2, 2, 1] and t2.rotations == [2, 2, 2]
    assert t2.eliminated == {0} and t2.eliminated is not t.eliminated
    t2.record(AccuseEvent(2, 5, True))
    assert t2.over and t2.winner == 2 and t2.next_turn_of(1) is None


def test_random_games_keep_the_cards_and_end():
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.choice([2, 3, 4])
        variant = rng.choice(["standard", "expert"])
        st = State.deal(n, variant, rng)
        for _ in range(200):
            if st.is_over():
                break
            acts = st.legal_actions()
            a = rng.choice(acts)
            ev = st.apply(a)
            assert ev.actor == st.events[-1].actor
            cards = [c for h in st.hands for c in h] + [st.criminal]
            cards += list(st.sides.values()) + list(st.face_up.values())
            assert sorted(cards) == list(range(13))
            assert [len(h) for h in st.hands] == [len(h) for h in st.start_hands]
            if st.variant == "standard":
                for s in range(n):
                    for icon in range(8):
                        assert st.answer_count(s, icon) == sum(
                            1 for c in st.hands[s] if ICONS[icon] in _icons(c))
        assert st.is_over()
        w = st.winner()
        assert w is not None and w not in st.turns.eliminated
        last = st.events[-1]
        assert isinstance(last, AccuseEvent)
        assert last.correct == (len(st.turns.eliminated) < n - 1)


def _icons(card):
    from deduce.models.sherlock13.cards import SUSPECT_ICONS
    return SUSPECT_ICONS[SUSPECTS[card]]
