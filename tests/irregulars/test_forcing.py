"""forcing.Guess: facts forced into a guessed engine state move only unseen cards, keep
the deal's per-deck counts, and are refused when what ``me`` has seen forbids them; and
the live table answers any line, never with a traceback."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.irregulars import rules
from deduce.models.irregulars.forcing import Guess, seen_by
from deduce.models.irregulars.table_setup import initial_state
from tests.irregulars.table_driver import start_position

ME = 0


def guessed(seed: int = 1, players: int = 3):
    """A table's guess of the start of ``rules.new_game(seed, players)`` (Ann: E019 E028
    E035 E048 E052 for seed 1)."""
    pos = rules.new_game(seed, players).position(ME)
    return initial_state(pos)


def deal_decks(state) -> Counter:
    deck = state.cards.evidence_by_id
    return Counter(deck[c].deck for h in state.hands for c in h)


def test_the_start_guess_holds_my_hand_and_a_draw_of_three_per_deck():
    state = guessed()
    assert state.hands[ME] == ["E019", "E028", "E035", "E048", "E052"]
    assert deal_decks(state) == Counter({d: 3 for d in range(1, 6)})
    assert state.observation(ME) == rules.new_game(1, 3).observation(ME)
    assert seen_by(state, ME) == set(state.hands[ME])


def test_a_card_from_a_deck_comes_in_for_one_of_its_deck_or_through_a_chain():
    state = guessed()
    g = Guess(state, ME)
    pile = state.decks[4]
    card = pile[0]  # an unseen deck IV card outside the deal
    g.into_hand(card, 1, "Ben's hand")
    assert card in state.hands[1] and card in g.fixed
    assert deal_decks(state) == Counter({d: 3 for d in range(1, 6)})
    assert sorted(c for h in state.hands for c in h) == sorted(set(c for h in state.hands
                                                                  for c in h))
    # force deck IV into Ben's hand until it holds no other unseen card: the chain
    # goes on through Cat's hand, the counts stay
    for card in [c for c in state.decks[4]][:2]:
        g.into_hand(card, 1, "Ben's hand")
    assert deal_decks(state) == Counter({d: 3 for d in range(1, 6)})
    with pytest.raises(InputError, match="the deal holds no more unseen cards of deck 4"):
        g.into_hand(state.decks[4][0], 1, "Ben's hand")


def test_seen_cards_never_move():
    state = guessed()
    g = Guess(state, ME)
    with pytest.raises(InputError) as info:
        g.into_hand("E019", 2, "Cat's hand")
    assert str(info.value) == "E019 cannot be in Cat's hand: it is in your hand"
    g.into_hand(state.hands[2][0], 2, "Cat's hand")  # already there: nothing moves
    with pytest.raises(InputError, match="Cat's hand holds 5 cards, not 1"):
        g.hand_is(["E003"], 2, "Cat's hand")


def test_a_pass_needs_no_affordable_card_and_tops_go_on_their_deck():
    state = guessed()
    state.available[1] = 1  # Ben with 1 token: only cards of cost 2 or more may stay
    g = Guess(state, ME)
    g.cannot_afford(1, "Ben")
    cost = state.cards.evidence_by_id
    assert all(cost[c].cost > 1 for c in state.hands[1])
    assert deal_decks(state) == Counter({d: 3 for d in range(1, 6)})
    bottom = state.decks[3][0]
    g.deck_tops(3, [bottom])
    assert state.decks[3][-1] == bottom and bottom in g.fixed
    with pytest.raises(InputError, match="E019 is of deck 1, not of deck 2"):
        g.deck_tops(2, ["E019"])


def test_villains_and_plot_twists_on_top():
    state = guessed()
    g = Guess(state, ME)
    deck = list(state.villain_deck)
    g.villain_tops([deck[0], deck[1]])
    assert state.villain_deck[-2:] == [deck[1], deck[0]]
    with pytest.raises(InputError, match="V11 cannot be drawn: it is in the row"):
        g.villain_tops(["V11"])
    g.twist_top(state.twists[0])
    with pytest.raises(InputError, match="WIST cannot be the next Plot Twist: it is the "
                                         "current Plot Twist"):
        g.twist_top("WIST")


@pytest.fixture(scope="module")
def table_for_hypothesis(tmp_path_factory):
    from deduce.models.irregulars.table import TableSession

    folder = tmp_path_factory.mktemp("hyp")
    (folder / "s.json").write_text(json.dumps(start_position(rules.new_game(2, 3))))
    session = TableSession.open(folder / "g.json", source=str(folder / "s.json"))
    session.handle("pick E002")
    session.handle("reveal Ben E019, Cat E046 hand E051, E066, E072, E088")
    yield session
    session.close()


WORDS = st.sampled_from(["pick", "pass", "reveal", "arrest", "tail", "take", "board",
                         "wiggins", "jump", "refill", "hand", "twist", "middle", "holmes",
                         "ok", "with", "ignore", "inspector", "Ben", "Cat", "Ann", "E002",
                         "E019", "E051", "V40", "V01", "holmes", "keep", ",", "=", "'",
                         "show", "score", "hands", "resupply"])


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(WORDS, max_size=6).map(" ".join)))
def test_any_line_is_answered_never_a_traceback(table_for_hypothesis, line):
    table = table_for_hypothesis
    before = table.path.read_text()
    reply = table.handle(line)
    assert reply.kind in ("accepted", "refused", "info", "quit")
    if reply.kind == "accepted" and table.path.read_text() != before:
        assert table.handle("undo").kind == "accepted"
    table.pending = None
    assert table.path.read_text() == before
