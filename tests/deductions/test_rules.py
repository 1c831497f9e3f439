"""The Deductions rules engine (``deduce.models.deductions.rules``): one test per rule of
the rulebook and per decision of the spec, with exact values, and property tests of
random legal play."""

from __future__ import annotations

import pytest

from deduce.core.errors import InputError
from deduce.models.deductions.rules import (
    Claim,
    Discard,
    Draw,
    MindPalace,
    Reserve,
    Rotate,
    Solve,
    Take,
    action_from_json,
)

ACTIONS = [Draw(), Take((1, 2)), Take((0, 0), (3, 3)), MindPalace(("column", 3)),
           Solve("hound-suspect", ((("Sherlock Holmes",), "Statements"),
                                   (("Writings", "Writings", "Artifacts"), "Knowledge"))),
           Reserve("sign-means"), Rotate("hound-motive", "Knowledge"), Discard("Irene Adler"),
           Claim("diversity", ("a", "b", "c", "d", "e"))]


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_actions_round_trip_through_json(action):
    back = action_from_json(action.to_json())
    assert back == action and back.to_json() == action.to_json()
    assert hash(back) == hash(action)


def test_action_json_takes_aliases_and_names_bad_fields():
    assert action_from_json({"action": "discard", "card": "irene"}) == Discard("Irene Adler")
    with pytest.raises(InputError) as err:
        action_from_json({"action": "take", "cell": [4, 0]})
    assert "field 'cell'" in str(err.value)
    with pytest.raises(InputError) as err:
        action_from_json({"action": "fly"})
    assert "unknown action 'fly'" in str(err.value)


def test_solves_are_equal_by_their_case():
    assert Solve("x", ((("Writings",), "Writings"),)) == Solve("x")
    assert repr(Solve("x", ((("Writings",), "Writings"),))) == "Solve(case='x')"


# ----------------------------------------------------------------------------- the engine
import json  # noqa: E402
import random  # noqa: E402
from collections import Counter  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from deduce.models.deductions.cards import ALLIES, clue_deck, shipped_cards  # noqa: E402
from deduce.models.deductions.payment import pay  # noqa: E402
from deduce.models.deductions.position import (  # noqa: E402
    POOL_LIMIT,
    ROUND_CAP,
    parse_position,
)
from deduce.models.deductions.rules import (  # noqa: E402
    CELLS,
    Outcome,
    from_position,
    new_game,
)

W, S, P, A, K = "Writings", "Statements", "Prints & Tracks", "Artifacts", "Knowledge"
SHERLOCK, LESTRADE, WATSON, MYCROFT, IRENE = ALLIES
#: a grid with no exact and no propped placement (Mind Palace forced)
FORCED = [[W, K, K, P], [S, S, W, A], [A, W, P, A], [K, P, S, K]]
#: row 0 exact in Writings
EXACT = [[W, W, W, W]] + FORCED[1:]
#: row 0 propped at (0, 3)
PROPPED = [[W, W, W, P]] + FORCED[1:]
DISPLAY = {"solutions": ["sign-means", "speckled-suspect", "speckled-motive", "hound-motive"],
           "red_herrings": ["hound-motive-1", "speckled-location-1", "hound-location-2",
                            "sign-means-2"]}


def game(grid=FORCED, ann=(), ben=(), cat=(), solved=None, step=None, display=DISPLAY,
         **fields):
    """A state from a position: seed 0's names, ``grid``, ``display`` and the given pools,
    solved cards (player -> [(id, discount)]) and other fields."""
    obs = new_game(0).observation(0)
    obs.update(grid=grid, display=display, pools={"Ann": list(ann), "Ben": list(ben),
                                                  "Cat": list(cat)})
    if solved:
        obs["solved"].update({p: [{"case": i, "discount": d} for i, d in v]
                              for p, v in solved.items()})
    if step is not None:
        obs["turn"]["step"] = step
    obs.update(fields)
    return from_position(parse_position(obs, "test"), random.Random(1))


def unchanged_by(state, action, outcome=None):
    """The InputError message of an illegal ``action``; the state is checked untouched."""
    before = [state.observation(p) for p in range(state.num_players())]
    with pytest.raises(InputError) as err:
        state.apply(action, outcome)
    assert [state.observation(p) for p in range(state.num_players())] == before
    return str(err.value)


def test_setup_deals_sixteen_clues_and_four_cases_of_each_kind():
    state = new_game(7)
    obs = state.observation(1)
    assert all(c is not None for row in obs["grid"] for c in row)
    assert len(state.deck) == 44 and obs["discard"] == []
    assert [len(v) for v in obs["display"].values()] == [4, 4]
    assert {k: len(v) for k, v in state.piles.items()} == {"solutions": 11, "red_herrings": 26}
    assert obs["pools"] == {"Ann": [], "Ben": [], "Cat": []} and obs["me"] == "Ben"
    assert obs["turn"] == {"number": 0, "step": "start", "used_allies": []}
    assert state.current_player() == 0 and state.legal_actions() == [Draw()]
    assert new_game(7).observation(0) == state.observation(0)
    assert new_game(8).observation(0) != state.observation(0)


def test_the_game_takes_two_to_four_players_with_distinct_names():
    assert new_game(1, players=4).players == ("Ann", "Ben", "Cat", "Dan")
    assert new_game(1, players=2, names=["Holmes", "Moriarty"]).players == ("Holmes", "Moriarty")
    with pytest.raises(InputError) as err:
        new_game(1, players=5)
    assert "the game takes 2 to 4 players, not 5" in str(err.value)
    with pytest.raises(InputError) as err:
        new_game(1, players=2, names=["Ann", "ann"])
    assert "the same name as players[0]" in str(err.value)


def test_draw_puts_the_top_clue_in_the_pool():
    state = game(EXACT)
    top = state.deck[-1]
    state.apply(Draw())
    assert state.pools[0] == [top] and state.step == "investigate"
    assert state.last_outcome() == Outcome(draws=(top,))


def test_take_from_an_exact_pattern_refills_the_cell():
    state = game(EXACT, ann=[K], step="investigate")
    assert Take((0, 1)) in state.legal_actions()
    state.apply(Take((0, 1)), Outcome(draws=(A,)))
    assert state.pools[0] == [K, W] and state.grid[0] == [W, A, W, W]
    assert state.current_player() == 1 and state.step == "start" and state.turns == 1


def test_a_propped_take_leaves_the_mismatched_card_on_the_grid():
    state = game(PROPPED, ann=[K], step="investigate")
    legal = state.legal_actions()
    assert Take((0, 0), (0, 3)) in legal and Take((0, 1), (0, 3)) in legal
    state.apply(Take((0, 0), (0, 3)), Outcome(draws=(S,)))
    assert state.grid[0] == [S, W, W, P] and state.pools[0] == [K, W]


def test_a_prop_needs_a_pool_card():
    state = game(PROPPED, step="investigate")
    takes = [a for a in state.legal_actions() if isinstance(a, Take)]
    assert takes and all(a.prop is None for a in takes)
    assert unchanged_by(state, Take((0, 0), (0, 3))) == (
        "take a1 prop d1 is not legal: no placement propped at d1 (with a pool card) lets you "
        "take the card at a1 (Ann to play, step 'investigate')")


def test_mind_palace_is_forced_only_without_a_pattern():
    forced = game(FORCED, ann=[K], step="investigate").legal_actions()
    assert forced == [MindPalace((kind, i)) for kind in ("row", "column") for i in range(4)]
    optional = game(EXACT, ann=[K], step="investigate").legal_actions()
    assert MindPalace(("row", 2)) in optional and Take((0, 0)) in optional


def test_mind_palace_takes_one_at_random_discards_the_rest_and_refills_the_line():
    state = game(FORCED, ann=[K], step="investigate")
    state.apply(MindPalace(("row", 0)), Outcome(draws=(S, S, A, A), pick=K))
    assert state.pools[0] == [K, K] and state.discard == [W, K, P]
    assert state.grid[0] == [S, S, A, A] and state.turns == 1
    picks = Counter()
    for seed in range(40):
        trial = game(FORCED, ann=[K], step="investigate")
        trial.chance_seed = seed
        trial.apply(MindPalace(("row", 0)))
        picks[trial.last_outcome().pick] += 1
    assert set(picks) == {W, K, P}


def test_a_pool_over_ten_is_discarded_down_to_ten_at_the_end_of_the_turn():
    ten = [W, W, S, S, A, A, K, K, P, MYCROFT]
    state = game(EXACT, ann=ten)
    state.apply(Draw(), Outcome(draws=(S,)))
    state.apply(Take((0, 0)), Outcome(draws=(S,)))
    assert state.step == "discard" and len(state.pools[0]) == 12
    assert state.legal_actions()[:6] == [Discard(c) for c in (W, S, A, K, P, MYCROFT)]
    assert Reserve("sign-means") in state.legal_actions()  # free actions still open
    state.apply(Discard(MYCROFT))
    assert state.step == "discard"
    state.apply(Discard(W))
    assert state.current_player() == 1 and len(state.pools[0]) == POOL_LIMIT
    assert state.discard == [MYCROFT, W]


def test_solve_pays_after_discounts_and_refills_the_display():
    state = game(ann=[P, P, W, K], solved={"Ann": [("hound-suspect-1", S)]})
    legal = state.legal_actions()
    assert legal == [Draw(), Solve("hound-motive-1"), Solve("speckled-location-1")]
    assert legal[1].uses == (((W,), W), ((P, P, K), W))
    assert legal[2].uses == tuple(pay({P: 2, W: 1}, [P, P, W, K]).uses)
    assert legal[2].uses == (((P,), P), ((P,), P), ((W,), W))
    hidden = state.piles["red_herrings"][0]
    state.apply(legal[2], Outcome(reveals=(hidden,)))
    assert state.pools[0] == [K] and state.discard == [P, P, W]
    assert state.display["red_herrings"] == [hidden, "hound-motive-1", "hound-location-2",
                                             "sign-means-2"]
    assert [s.card.id for s in state.solved[0]] == ["hound-suspect-1", "speckled-location-1"]
    assert state.solved[0][1].discount == P and state.points(0) == 0
    assert state.current_player() == 1


def test_an_empty_pile_leaves_a_gap_in_the_display():
    display = {"solutions": ["hound-means", "sign-opportunity", "speckled-means", "sign-means"],
               "red_herrings": DISPLAY["red_herrings"]}
    solved = {"Ann": [(i, S) for i in ("hound-suspect", "hound-location", "hound-motive",
                                       "hound-opportunity")],
              "Ben": [(i, S) for i in ("sign-suspect", "sign-location", "sign-motive",
                                       "speckled-motive")],
              "Cat": [(i, S) for i in ("speckled-suspect", "speckled-location",
                                       "speckled-opportunity")]}
    state = game(ann=[A, A, A, A, K, K, K], solved=solved, display=display)
    assert state.piles["solutions"] == []
    state.apply(Solve("sign-means"), Outcome(reveals=(None,)))
    assert state.display["solutions"] == [None, "sign-opportunity", "speckled-means",
                                          "hound-means"]
    assert state.last_outcome().reveals == (None,)
    parse_position(state.observation(0), "after")  # a gap at the top: the pile is empty


def test_a_hand_entered_claim_step_with_nothing_to_claim_passes_the_turn():
    assert game(step="claim").current_player() == 1


def test_any_five_cards_that_satisfy_the_milestone_may_be_committed():
    solved = [("hound-suspect", S), ("sign-opportunity", K), ("sign-location", P),
              ("speckled-means", A), ("sign-suspect-1", S)]
    state = game(ann=[W, W], solved={"Ann": solved})
    state.apply(Solve("hound-motive-1"))
    ids = ("sign-opportunity", "sign-location", "speckled-means", "sign-suspect-1",
           "hound-motive-1")
    assert state.legal_actions() == [
        Claim("diversity", ("hound-suspect", *ids[:3], "hound-motive-1")),
        Claim("diversity", ids)]
    bad = ("hound-suspect", "sign-suspect-1", "sign-location", "speckled-means",
           "hound-motive-1")
    assert "these cards do not satisfy diversity" in unchanged_by(state, Claim("diversity", bad))
    state.apply(Claim("diversity", tuple(reversed(ids))))
    assert state.claimed[0] == {"diversity": ("sign-opportunity", "sign-location",
                                              "speckled-means", "sign-suspect-1",
                                              "hound-motive-1")}


def test_discounts_can_solve_a_case_for_nothing():
    state = game(solved={"Ann": [("hound-suspect-1", W), ("sign-suspect-1", W)]})
    assert Solve("hound-motive-1") in state.legal_actions()
    state.apply(Solve("hound-motive-1"))
    assert state.pools[0] == [] and state.discard == []


def test_any_payment_that_covers_the_due_is_accepted_and_a_short_one_refused():
    pool = [P, P, W, K, S, A]
    state = game(ann=pool)
    short = Solve("speckled-location-1", (((P,), P), ((P,), P)))
    assert "the payment leaves 1 Writings unpaid" in unchanged_by(state, short)
    wrong = Solve("speckled-location-1", (((P,), P), ((P,), P), ((K,), W)))
    assert "use 3 (Knowledge as Writings) pays nothing" in unchanged_by(state, wrong)
    extra = Solve("speckled-location-1", (((P,), P), ((P,), P), ((W,), W), ((W,), W)))
    assert "more Writings than the pool holds" in unchanged_by(state, extra)
    cross = Solve("speckled-location-1", (((P,), P), ((P,), P), ((K, S, A), W)))
    state.apply(cross)
    assert state.pools[0] == [W] and state.discard == [P, P, K, S, A]


def test_watson_draws_a_clue_after_paying():
    state = game(ann=[WATSON, W])
    state.apply(Solve("hound-motive-1"), Outcome(draws=(K,),
                                                 reveals=(state.piles["red_herrings"][0],)))
    assert state.pools[0] == [K] and state.discard == [W, WATSON]


def test_mycroft_reserves_a_visible_case_once_while_he_stays():
    state = game(ann=[MYCROFT])
    legal = state.legal_actions()
    assert legal[1:] == [Reserve(i) for row in DISPLAY.values() for i in row]
    top = state.piles["solutions"][-1]
    state.apply(Reserve("hound-motive"))
    assert state.reserved == ["hound-motive", None, None]
    assert state.display["solutions"] == [top, "speckled-suspect", "speckled-motive",
                                          "sign-means"]
    assert state.observation(0)["turn"]["used_allies"] == [MYCROFT]
    assert state.legal_actions() == [Draw()]
    other = game(ben=[S, S, S, W, W, W, W], to_play="Ben",
                 reserved={"Ann": "hound-motive", "Ben": None, "Cat": None},
                 display={**DISPLAY, "solutions": [top, "speckled-suspect", "speckled-motive",
                                                   "sign-means"]})
    assert "neither in the display nor reserved" in unchanged_by(other, Solve("hound-motive"))


def test_a_reserved_case_may_be_solved_by_its_holder():
    state = game(ann=[S, S, S, W, W, W, W], reserved={"Ann": "hound-motive", "Ben": None,
                                                      "Cat": None},
                 display={**DISPLAY, "solutions": ["sign-suspect", "speckled-suspect",
                                                   "speckled-motive", "sign-means"]})
    assert Solve("hound-motive") in state.legal_actions()
    state.apply(Solve("hound-motive"))
    assert state.reserved[0] is None and state.points(0) == 3
    assert state.display["solutions"] == ["sign-suspect", "speckled-suspect", "speckled-motive",
                                          "sign-means"]


def test_irene_turns_a_discount_once_and_the_category_stays():
    state = game(ann=[IRENE], solved={"Ann": [("hound-suspect-1", S)]})
    assert state.legal_actions()[1:] == [Rotate("hound-suspect-1", s) for s in (P, W, A, K)]
    state.apply(Rotate("hound-suspect-1", K))
    assert state.solved[0][0].discount == K and state.solved[0][0].card.category == "Suspect"
    assert state.legal_actions() == [Draw()]
    assert "Irene Adler's free action is used" in unchanged_by(state, Rotate("hound-suspect-1", A))


def test_an_ally_leaving_the_pool_has_a_fresh_free_action():
    state = game(EXACT, ann=[W, W, S, S, A, A, K, K, P, MYCROFT])
    state.apply(Reserve("hound-motive"))
    state.apply(Draw(), Outcome(draws=(S,)))
    state.apply(Take((0, 0)), Outcome(draws=(S,)))
    state.apply(Discard(MYCROFT))
    assert state.used == frozenset()


def test_free_actions_wait_for_the_steps_start_investigate_and_discard():
    state = game(FORCED, ann=[MYCROFT], step="investigate")
    assert Reserve("sign-means") in state.legal_actions()
    solved = [("hound-suspect", S), ("sign-opportunity", K), ("sign-location", P),
              ("speckled-means", A)]
    state = game(ann=[W, W, MYCROFT], solved={"Ann": solved})
    state.apply(Solve("hound-motive-1"))
    assert state.step == "claim" and all(isinstance(a, Claim) for a in state.legal_actions())
    assert "Mycroft Holmes's free action is played at step 'start' or 'investigate' or " \
           "'discard'" in unchanged_by(state, Reserve("sign-means"))


def test_an_empty_deck_takes_the_discard_pile_shuffled():
    rest = Counter(clue_deck())
    rest.subtract(c for row in FORCED for c in row)
    cards = list(rest.elements())
    state = game(FORCED, ann=cards[:10], ben=cards[10:20], cat=cards[20:30],
                 discard=cards[30:])
    assert state.deck == [] and len(state.discard) == 14
    state.apply(Draw(), Outcome(draws=(cards[35],)))
    assert state.discard == [] and len(state.deck) == 13
    assert state.pools[0][-1] == cards[35]


def test_fifteen_points_at_the_end_of_a_turn_start_the_final_round():
    solved = [("hound-suspect", S), ("sign-opportunity", K), ("sign-location", P),
              ("speckled-means", A)]
    state = game(ann=[W, W], solved={"Ann": solved})
    assert state.points(0) == 14
    state.apply(Solve("hound-motive-1"))
    assert state.step == "claim" and state.points(0) == 14
    ids = ("hound-suspect", "sign-opportunity", "sign-location", "speckled-means",
           "hound-motive-1")
    assert state.legal_actions() == [Claim("diversity", ids)]
    state.apply(Claim("diversity", ids))
    assert state.points(0) == 17 and state.final_round and state.current_player() == 1
    assert state.observation(0)["milestones"]["Ann"] == {"diversity": list(ids)}
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    assert state.turns == 3 and state.winner() == [0]


def test_a_card_committed_to_one_milestone_serves_no_other():
    solved = [("hound-suspect", S), ("hound-location", P), ("hound-means", A),
              ("hound-opportunity", K)]
    state = game(ann=[W, W], solved={"Ann": solved})
    state.apply(Solve("hound-motive-1"))
    legal = state.legal_actions()
    assert {a.milestone for a in legal} == {"diversity", "completion"}
    state.apply(legal[0])
    assert state.current_player() == 1 and len(state.observation(0)["milestones"]["Ann"]) == 1


def test_ties_go_to_solutions_then_solved_cards_then_pool_clues():
    def over(ann, ben, ann_pool=(), ben_pool=()):
        return game(ann=ann_pool, ben=ben_pool, step="over",
                    solved={"Ann": [(i, S) for i in ann], "Ben": [(i, S) for i in ben]})
    eight = ["sign-opportunity", "hound-means"]
    herrings = ["sign-suspect-2", "hound-suspect-2", "speckled-location-2", "sign-location-2"]
    assert over(eight, ["speckled-means"] + herrings).winner() == [0]
    assert over(eight, ["speckled-means", "hound-suspect", "sign-location-2"]).winner() == [1]
    same = (["sign-opportunity", "hound-opportunity", "speckled-location-2"],
            ["speckled-means", "hound-suspect", "sign-location-2"])
    assert over(*same, [W, W], [W]).winner() == [0]
    assert over(*same, [W], [K]).winner() == [0, 1]
    assert game().winner() is None


def test_the_round_cap_ends_the_game():
    state = game(EXACT, to_play="Cat",
                 turn={"number": ROUND_CAP * 3 - 1, "step": "start", "used_allies": []})
    state.apply(Draw())
    state.apply(Take((0, 0)))
    assert state.is_over() and state.turns == ROUND_CAP * 3
    assert state.winner() == [2]  # no points: Cat holds the most pool cards
    assert state.legal_actions() == [] and state.current_player() is None
    assert "the game is over" in unchanged_by(state, Draw())


def test_an_illegal_action_says_why_and_changes_nothing():
    state = game(EXACT)
    assert unchanged_by(state, Take((0, 0))) == (
        "take a1 is not legal: a take (Obtain Clues, step 2A) is played "
        "at step 'investigate' (Ann to play, step 'start')")
    assert "not a Deductions action" in unchanged_by(state, "draw")


def test_an_outcome_names_possible_results_only():
    state = game(EXACT)
    message = unchanged_by(state, Draw(), Outcome(draws=(W, W)))
    assert message == "the outcome lists 2 draws, the action deals 1"
    state = game(EXACT, ann=[SHERLOCK])
    assert unchanged_by(state, Draw(), Outcome(draws=(SHERLOCK,))) == (
        "Sherlock Holmes (draws[0]) is not in the clue deck")
    state = game(FORCED, ann=[K], step="investigate")
    assert "(pick) is not among the line's cards" in unchanged_by(
        state, MindPalace(("row", 0)), Outcome(draws=(S, S, A, A), pick=A))


# ----------------------------------------------------------------------------- properties
CASE_IDS = [c.id for c in shipped_cards().cards]
#: actions tried at every step: legal exactly when listed
PROBES = ([Draw()] + [Take(c, p) for c in CELLS for p in (None, (0, 0), (3, 3)) if p != c]
          + [MindPalace((k, i)) for k in ("row", "column") for i in range(4)]
          + [Discard(c) for c in (W, S, MYCROFT, IRENE)] + [Reserve(i) for i in CASE_IDS[::4]]
          + [Rotate(i, K) for i in CASE_IDS[::3]] + [Solve(i) for i in CASE_IDS[::2]])


def check_invariants(state) -> None:
    grid = [c for row in state.grid for c in row if c is not None]
    clues = Counter(grid + state.deck + state.discard + [c for p in state.pools for c in p])
    assert clues == Counter(clue_deck())
    cases = ([i for row in state.display.values() for i in row if i is not None]
             + [i for pile in state.piles.values() for i in pile]
             + [s.card.id for v in state.solved for s in v]
             + [i for i in state.reserved if i is not None])
    assert sorted(cases) == sorted(CASE_IDS)
    for p in range(state.num_players()):
        assert state.points(p) == sum(s.card.points for s in state.solved[p]) + 3 * len(
            state.claimed[p])
        if state.step in ("start", "over") or p != state.to_play:
            assert len(state.pools[p]) <= POOL_LIMIT


def check_observations(state) -> None:
    obs = [state.observation(p) for p in range(state.num_players())]
    for p, o in enumerate(obs):
        assert json.loads(json.dumps(o)) == o
        assert parse_position(o, "obs").to_json() == o == state.position(p).to_json()
        assert {**o, "me": "x"} == {**obs[0], "me": "x"}
        again = from_position(state.position(p), random.Random(p))
        assert again.observation(p) == o and again.legal_actions() == state.legal_actions()


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4))
def test_random_play_keeps_every_invariant(seed, players):
    state = new_game(seed, players)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over():
        legal = state.legal_actions()
        check_invariants(state)
        if steps % 7 == 0:
            check_observations(state)
            for probe in PROBES:
                if probe in legal:
                    state.clone().apply(probe)
                else:
                    unchanged_by(state.clone(), probe)
        state.apply(rng.choice(legal))
        steps += 1
    check_invariants(state)
    check_observations(state)
    assert state.turns <= ROUND_CAP * players and state.winner()


def test_from_position_samples_what_the_position_hides():
    state = new_game(5)
    state.apply(Draw())
    position = state.position(1)
    one, two = (from_position(position, random.Random(k)) for k in (1, 2))
    assert one.observation(1) == two.observation(1) == state.observation(1)
    assert Counter(one.deck) == Counter(two.deck) == Counter(state.deck)
    assert one.deck != two.deck and one.piles != two.piles


@settings(max_examples=40)
@given(st.integers(0, 2**64 - 1), st.integers(1, 70))
def test_the_deal_shuffles_as_random_randoms_own(seed, n):
    from deduce.models.deductions.rules import _shuffle

    mine, theirs = random.Random(seed), random.Random(seed)
    cards, expected = list(range(n)), list(range(n))
    _shuffle(mine, cards)
    theirs.shuffle(expected)
    assert cards == expected
    assert mine.getrandbits(64) == theirs.getrandbits(64)


def test_the_chance_stream_is_the_mmix_lcg_and_its_draws_are_uniform():
    from deduce.models.deductions.rules import chance_below, chance_shuffle

    assert chance_below(0, 1 << 32) == (1442695040888963407, 1442695040888963407 >> 32)
    assert chance_below(1, 4) == ((6364136223846793005 + 1442695040888963407) % 2**64,
                                  ((6364136223846793005 + 1442695040888963407) % 2**64) >> 62)
    seed, counts = 7, Counter()
    for _ in range(12000):
        seed, k = chance_below(seed, 3)
        counts[k] += 1
    assert set(counts) == {0, 1, 2} and all(3800 <= v <= 4200 for v in counts.values())
    orders, seed = Counter(), 11
    for _ in range(6000):
        cards = [0, 1, 2]
        seed = chance_shuffle(seed, cards)
        orders[tuple(cards)] += 1
    assert len(orders) == 6 and all(850 <= v <= 1150 for v in orders.values())
    again = list(range(60))
    assert chance_shuffle(5, again) == chance_shuffle(5, list(range(60)))
    assert sorted(again) == list(range(60)) and again != list(range(60))


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 120),
       st.lists(st.sampled_from(clue_deck()), max_size=14), st.booleans())
def test_the_listed_solves_are_the_targets_pay_can_pay(seed, steps, pool, reserve):
    """The start step's Solves (packed affordability without Sherlock, the closed form
    with him) are exactly the targets ``payment.pay`` finds a payment for."""
    from deduce.models.deductions.payment import discounted_due

    state = new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    while not state.is_over() and state.step != "start":
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over():
        return
    p = state.to_play
    if reserve and state.reserved[p] is None:
        state.reserved = state.reserved[:]
        state.reserved[p] = state.piles["solutions"][-1] if state.piles["solutions"] else None
        state._asked = [None] * state.n
    state.pools[p] = list(pool)
    state._legal = None
    listed = [a.case for a in state.legal_actions() if isinstance(a, Solve)]
    targets = [i for row in state.display.values() for i in row if i is not None]
    targets += [state.reserved[p]] if state.reserved[p] is not None else []
    discounts = [s.discount for s in state.solved[p]]
    expected = [case for case in targets
                if pay(discounted_due(state.cards.by_id[case].cost_dict(), discounts),
                       list(pool)) is not None]
    assert listed == expected
