"""The game record: parsing, the round trip, replay of engine games, and every input error."""

import copy
import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.sherlock13.cards import ICONS, SUSPECTS
from deduce.models.sherlock13.record import (
    CriminalFact,
    ExchangeStep,
    HoldsFact,
    IconFact,
    SideFact,
    View,
    event_from_json,
    load_record,
    new_record,
    parse_record,
)
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
)
from tests.documents import places, with_value

from tests.sherlock13.names import (  # card and icon indices by name
    PIPE,
    BULB,
    FIST,
    BOOK,
    EYE,
    SKULL,
    HOLMES,
    WATSON,
    MORIARTY,
    ADLER,
    MYCROFT,
    HUDSON,
    MORSTAN,
    LESTRADE,
    GREGSON,
    BAYNES,
    HOPKINS,
)

SPEC_EXAMPLE = {
    "game": "sherlock13",
    "variant": "standard",
    "players": ["Ann", "Ben", "Cat", "Dan"],
    "me": "Ann",
    "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"],
    "events": [
        {"actor": "Ann", "action": "raise", "icon": "skull", "raised": ["Cat"]},
        {"actor": "Ben", "action": "count", "target": "Dan", "icon": "book", "count": 1},
        {"actor": "Cat", "action": "accuse", "suspect": "James Moriarty", "correct": False},
    ],
}

TWO_PLAYER = {
    "game": "sherlock13",
    "variant": "expert",
    "players": ["Ann", "Ben"],
    "me": "Ann",
    "hand": ["Sherlock Holmes", "John H. Watson", "James Moriarty", "Irene Adler", "Mycroft Holmes"],
    "events": [
        {"actor": "Ann", "action": "exchange", "side": "left", "revealed": "Irene Adler",
         "took": "Inspector Baynes"},
        {"actor": "Ben", "action": "exchange", "side": "right", "revealed": "Mary Morstan"},
        {"actor": "Ann", "action": "count", "target": "Ben", "icon": "eye", "count": 2},
    ],
}

THREE_PLAYER = {
    "game": "sherlock13",
    "variant": "standard",
    "players": ["Ann", "Ben", "Cat"],
    "me": "Ben",
    "hand": ["Mycroft Holmes", "Mrs. Hudson", "Mary Morstan", "Sebastian Moran"],
    "events": [
        {"actor": "Ann", "action": "count", "target": "Ben", "icon": "skull", "count": 1},
    ],
}


# ----------------------------------------------------------------------------- the spec example
def test_spec_example_parses():
    rec = parse_record(copy.deepcopy(SPEC_EXAMPLE))
    assert rec.variant == "standard"
    assert rec.names == ["Ann", "Ben", "Cat", "Dan"]
    assert rec.n == 4 and rec.hand_size == 3
    assert rec.me == 0
    assert rec.hand == (HOLMES, HUDSON, BAYNES)
    assert rec.events == [
        RaiseEvent(0, SKULL, frozenset({2})),
        CountEvent(1, 3, BOOK, 1),
        AccuseEvent(2, MORIARTY, False),
    ]
    assert rec.turns.eliminated == {2}
    assert rec.turns.current == 3
    assert rec.turns.rotations == [1, 1, 1, 1]
    assert not rec.turns.over
    assert rec.facts_of(0) == [
        IconFact(View(1, 0, 0), SKULL, 0, 0),
        IconFact(View(2, 0, 0), SKULL, 1, 99),
        IconFact(View(3, 0, 0), SKULL, 0, 0),
    ]
    assert rec.facts_of(1) == [IconFact(View(3, 0, 0), BOOK, 1, 1)]
    assert rec.facts_of(2) == [CriminalFact(MORIARTY, False)]
    assert len(rec.facts) == 5
    assert rec.steps == []
    assert rec.my_current_hand() == [HOLMES, HUDSON, BAYNES]
    # my next turn: Dan plays, then Ann (Cat is out but not before Ann)
    assert rec.next_turn_views() == {0: View(0, 2, 0), 1: View(1, 1, 0),
                                     2: View(2, 1, 0), 3: View(3, 1, 0)}


def test_spec_example_round_trip():
    data = copy.deepcopy(SPEC_EXAMPLE)
    assert parse_record(data).to_json() == SPEC_EXAMPLE
    assert data == SPEC_EXAMPLE  # parsing does not mutate its input


@pytest.mark.parametrize("data", [TWO_PLAYER, THREE_PLAYER])
def test_other_records_round_trip(data):
    assert parse_record(copy.deepcopy(data)).to_json() == data


def test_aliases_in_input_give_canonical_output():
    data = {
        "game": "sherlock13",
        "variant": "STANDARD",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "me": "ann",
        "hand": ["sherlock", "mrs hudson", "baynes"],
        "events": [
            {"actor": "ANN", "action": "Raise", "icon": "Skull", "raised": ["cat"]},
            {"actor": "ben", "action": "count", "target": "dan", "icon": "Book", "count": 1},
            {"actor": "cat", "action": "accuse", "suspect": "moriarty", "correct": False},
        ],
    }
    assert parse_record(data).to_json() == SPEC_EXAMPLE


def test_raised_list_is_written_in_seat_order():
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["events"][0]["raised"] = ["Dan", "Ben"]
    out = parse_record(data).to_json()
    assert out["events"][0]["raised"] == ["Ben", "Dan"]


def test_events_may_be_absent():
    data = {k: v for k, v in SPEC_EXAMPLE.items() if k != "events"}
    rec = parse_record(data)
    assert rec.events == [] and rec.turns.current == 0
    assert rec.to_json() == {**data, "events": []}


def test_two_player_record_facts_and_my_hand():
    rec = parse_record(copy.deepcopy(TWO_PLAYER))
    assert rec.events[0] == ExchangeEvent(0, "left", ADLER, BAYNES)
    assert rec.events[1] == ExchangeEvent(1, "right", MORSTAN, None)
    assert rec.facts_of(0) == [SideFact("left", BAYNES)]
    assert rec.facts_of(1) == [HoldsFact(View(1, 1, 0), MORSTAN)]
    assert rec.facts_of(2) == [IconFact(View(1, 1, 1), EYE, 2, 2)]
    assert rec.steps == [ExchangeStep(0, 0, "left", ADLER), ExchangeStep(1, 0, "right", MORSTAN)]
    assert rec.turns.open_sides == {"left", "right"}
    assert rec.turns.exchanges == [1, 1]
    assert rec.my_current_hand() == [HOLMES, WATSON, MORIARTY, BAYNES, MYCROFT]
    assert rec.turns.current == 1


def test_eliminated_players_turns_are_skipped_in_validation():
    data = copy.deepcopy(SPEC_EXAMPLE)  # Cat eliminated at event 2
    data["events"] += [
        {"actor": "Dan", "action": "count", "target": "Cat", "icon": "pipe", "count": 0},
        {"actor": "Ann", "action": "raise", "icon": "eye", "raised": ["Cat"]},
        {"actor": "Ben", "action": "raise", "icon": "fist", "raised": []},
        {"actor": "Dan", "action": "raise", "icon": "pipe", "raised": ["Ben"]},
    ]
    rec = parse_record(data)
    assert [e.actor for e in rec.events] == [0, 1, 2, 3, 0, 1, 3]
    assert rec.turns.current == 0
    assert rec.turns.rotations == [3, 2, 2, 2]  # Cat's skipped turns still counted
    # the eliminated player still answers: facts about seat 2 at events 3 and 4
    assert rec.facts_of(3) == [IconFact(View(2, 1, 0), PIPE, 0, 0)]
    assert IconFact(View(2, 1, 0), EYE, 1, 99) in rec.facts_of(4)
    assert IconFact(View(2, 2, 0), PIPE, 0, 0) in rec.facts_of(6)
    # Cat acting in what would have been her turn is out of turn
    bad = copy.deepcopy(data)
    bad["events"].insert(6, {"actor": "Cat", "action": "raise", "icon": "pipe", "raised": []})
    with pytest.raises(InputError) as info:
        parse_record(bad)
    msg = str(info.value)
    assert "event 6" in msg and "field 'actor'" in msg and "out of turn" in msg
    assert "Cat acted but it is Dan's turn" in msg


def test_load_and_save(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_EXAMPLE))
    rec = load_record(path)
    assert rec.source == str(path)
    out = tmp_path / "out.json"
    rec.save(out)
    assert json.loads(out.read_text()) == SPEC_EXAMPLE
    bad = copy.deepcopy(SPEC_EXAMPLE)
    bad["events"][1]["icon"] = "books"
    path.write_text(json.dumps(bad))
    with pytest.raises(InputError) as info:
        load_record(path)
    assert str(info.value).startswith(f"{path}: event 1, field 'icon': ")
    with pytest.raises(InputError, match="not found"):
        load_record(tmp_path / "missing.json")


# ----------------------------------------------------------------------------- random engine games
def play_random(n: int, variant: str, seed: int, steps: int) -> State:
    """A game of up to ``steps`` random legal turns; accusations rare, exchanges frequent."""
    rng = random.Random(seed)
    game = State.deal(n, variant, rng)
    for _ in range(steps):
        if game.is_over():
            break
        acts = game.legal_actions()
        by_kind: dict[type, list] = {}
        for a in acts:
            by_kind.setdefault(type(a), []).append(a)
        weights = {Raise: 3, Count: 4, Exchange: 3, Accuse: 0.4}
        kinds = list(by_kind)
        kind = rng.choices(kinds, weights=[weights[k] for k in kinds])[0]
        game.apply(rng.choice(by_kind[kind]))
    return game


VARIANTS6 = [(n, v) for n in (2, 3, 4) for v in ("standard", "expert")]


def _hidden_took(event, seat):
    if isinstance(event, ExchangeEvent) and event.actor != seat:
        return replace(event, took=None)
    return event


@pytest.mark.parametrize("n, variant", VARIANTS6)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40))
def test_engine_records_parse_and_replay(n, variant, seed, steps):
    game = play_random(n, variant, seed, steps)
    names = ["North", "East", "South", "West"][:n]
    for seat in range(n):
        data = game.record(seat, names)
        json.dumps(data)  # plain JSON
        rec = parse_record(copy.deepcopy(data))
        assert rec.to_json() == data
        assert rec.me == seat and rec.names == names and rec.variant == variant
        assert list(rec.hand) == game.start_hands[seat]
        assert rec.events == [_hidden_took(e, seat) for e in game.events]
        t, g = rec.turns, game.turns
        assert (t.current, t.rotations, t.exchanges, t.eliminated, t.open_sides, t.over, t.winner) == (
            g.current, g.rotations, g.exchanges, g.eliminated, g.open_sides, g.over, g.winner)
        # my hand now: slot order, rotated in the expert variant
        mine = rec.my_current_hand()
        if variant == "expert":
            r = g.rotations[seat] % len(mine)
            mine = mine[r:] + mine[:r]
        assert mine == game.hands[seat]
        # every answer in the record is what the engine's hands gave
        for i, e in enumerate(rec.events):
            if isinstance(e, (ExchangeEvent,)):
                took = [f for f in rec.facts_of(i) if isinstance(f, SideFact)]
                assert bool(took) == (e.actor == seat)
        assert len(rec.steps) == sum(isinstance(e, ExchangeEvent) for e in game.events)


def test_random_games_cover_exchanges_and_eliminations():
    """The generator of the property test reaches the interesting parts of the rules."""
    seen = set()
    for seed in range(150):
        for n, variant in VARIANTS6:
            g = play_random(n, variant, seed, 40)
            if any(isinstance(e, ExchangeEvent) for e in g.events):
                seen.add(("exchange", n))
            if len(g.turns.open_sides) == 2:
                seen.add(("both sides", n))
            if g.turns.eliminated and not g.is_over():
                seen.add(("eliminated, still playing", n))
            if g.is_over():
                seen.add(("over", n))
    assert {("exchange", 2), ("both sides", 2), ("over", 2), ("over", 3), ("over", 4),
            ("eliminated, still playing", 3), ("eliminated, still playing", 4)} <= seen


def test_a_record_with_answers_replays_the_engine_answers():
    # 0:[Holmes, Watson, Moriarty] 1:[Adler, Mycroft, Hudson] 2:[Morstan, Moran, Lestrade]
    # 3:[Gregson, Baynes, Bradstreet]; expert: answers ignore the last card
    game = State.from_deal("expert", [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]], 12)
    for a in [Raise(SKULL), Count(0, PIPE), Accuse(HOLMES), Count(2, BOOK), Raise(BULB),
              Count(2, FIST), Count(2, FIST)]:
        game.apply(a)
    data = game.record(3)
    assert [e.get("count", e.get("raised")) for e in data["events"]] == [
        ["Ben", "Cat"],  # skull: Ben [Adler, Mycroft | Hudson], Cat [Morstan, Moran | Lestrade]
        1,               # Ann [Watson, Moriarty | Holmes]: Watson
        None,            # Cat accuses wrongly
        1,               # Cat [Moran, Lestrade | Morstan]: Lestrade
        ["Ben", "Dan"],  # bulb: Ben [Mycroft, Hudson | Adler], Cat [Moran, Lestrade | Morstan] no,
                         #       Dan [Baynes, Bradstreet | Gregson]
        1,               # Cat [Moran, Lestrade | Morstan]: Moran
        0,               # Cat's skipped turn rotated her to [Lestrade, Morstan | Moran]
    ]
    rec = parse_record(data)
    assert rec.to_json() == data
    assert rec.turns.rotations == [3, 2, 2, 2] and rec.turns.current == 0
    assert rec.facts_of(5) == [IconFact(View(2, 1, 0), FIST, 1, 1)]
    assert rec.facts_of(6) == [IconFact(View(2, 2, 0), FIST, 0, 0)]


# ----------------------------------------------------------------------------- input errors
def _err(data, *fragments):
    with pytest.raises(InputError) as info:
        parse_record(data, source="game.json")
    msg = str(info.value)
    assert msg.startswith("game.json"), msg
    for f in fragments:
        assert f in msg, msg
    return msg


def _with(base, index, **changes):
    data = copy.deepcopy(base)
    data["events"][index].update(changes)
    for k, v in changes.items():
        if v is _DROP:
            del data["events"][index][k]
    return data


_DROP = object()


def test_error_out_of_turn():
    data = _with(SPEC_EXAMPLE, 1, actor="Cat")
    msg = _err(data, "event 1", "field 'actor'", "out of turn", "Cat acted but it is Ben's turn")
    assert msg.startswith("game.json: event 1, field 'actor': ")


def test_error_first_event_by_second_player():
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["events"] = data["events"][1:]
    _err(data, "event 0", "field 'actor'", "Ben acted but it is Ann's turn")


def test_error_unknown_icon_suggests():
    _err(_with(SPEC_EXAMPLE, 0, icon="skulls"), "event 0", "field 'icon'", "unknown icon 'skulls'",
         "did you mean skull")


def test_error_unknown_suspect_suggests():
    _err(_with(SPEC_EXAMPLE, 2, suspect="Moriarity"), "event 2", "field 'suspect'", "James Moriarty")


def test_error_ambiguous_suspect_lists_candidates():
    _err(_with(SPEC_EXAMPLE, 2, suspect="holmes"), "event 2", "field 'suspect'", "ambiguous",
         "Sherlock Holmes", "Mycroft Holmes")


def test_error_unknown_player():
    _err(_with(SPEC_EXAMPLE, 1, target="Dave"), "event 1", "field 'target'", "unknown player 'Dave'")


def test_error_unknown_field():
    msg = _err(_with(SPEC_EXAMPLE, 1, colour="red"), "event 1", "field 'colour'", "unknown field")
    assert "count" in msg and "target" in msg  # the allowed fields


def test_error_unknown_action():
    _err(_with(SPEC_EXAMPLE, 1, action="ask"), "event 1", "field 'action'", "unknown action 'ask'")


def test_error_missing_field():
    _err(_with(SPEC_EXAMPLE, 1, count=_DROP), "event 1", "field 'count'", "missing")
    _err(_with(SPEC_EXAMPLE, 0, raised=_DROP), "event 0", "field 'raised'", "missing")
    _err(_with(SPEC_EXAMPLE, 2, correct=_DROP), "event 2", "field 'correct'", "missing")
    _err(_with(SPEC_EXAMPLE, 0, action=_DROP), "event 0", "field 'action'", "missing")


def test_error_missing_top_level_field():
    for key in ("variant", "players", "me", "hand"):
        data = copy.deepcopy(SPEC_EXAMPLE)
        del data[key]
        _err(data, f"field '{key}'", "missing")


def test_error_top_level_shapes():
    _err({**SPEC_EXAMPLE, "game": "cluedo"}, "field 'game'")
    _err({**SPEC_EXAMPLE, "extra": 1}, "field 'extra'", "unknown field")
    _err({**SPEC_EXAMPLE, "variant": "hard"}, "field 'variant'", "unknown variant")
    _err({**SPEC_EXAMPLE, "players": ["Ann"]}, "field 'players'", "2, 3 or 4 players")
    _err({**SPEC_EXAMPLE, "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}, "field 'players'")
    _err({**SPEC_EXAMPLE, "players": ["Ann", "ann", "Cat", "Dan"]}, "field 'players'", "differ")
    _err({**SPEC_EXAMPLE, "players": "Ann, Ben"}, "field 'players'")
    _err({**SPEC_EXAMPLE, "me": "Eve"}, "field 'me'", "unknown player 'Eve'")
    _err({**SPEC_EXAMPLE, "events": {}}, "field 'events'")
    _err({**SPEC_EXAMPLE, "hand": "Sherlock Holmes"}, "field 'hand'")
    _err({**SPEC_EXAMPLE, "hand": ["Sherlock Holmes", 3, "Inspector Baynes"]}, "field 'hand'")
    with pytest.raises(InputError):
        parse_record([SPEC_EXAMPLE])
    with pytest.raises(InputError):
        parse_record({**SPEC_EXAMPLE, "events": [["Ann", "raise"]]})


def test_error_wrong_hand_size():
    _err({**SPEC_EXAMPLE, "hand": ["Sherlock Holmes", "Mrs. Hudson"]}, "field 'hand'",
         "with 4 players a hand has 3 cards, not 2")
    data = copy.deepcopy(THREE_PLAYER)
    data["hand"] = data["hand"][:3]
    _err(data, "field 'hand'", "with 3 players a hand has 4 cards, not 3")
    data = copy.deepcopy(TWO_PLAYER)
    data["hand"].append("Mary Morstan")
    _err(data, "field 'hand'", "with 2 players a hand has 5 cards, not 6")


def test_error_duplicate_card():
    _err({**SPEC_EXAMPLE, "hand": ["Sherlock Holmes", "sherlock", "Inspector Baynes"]},
         "field 'hand'", "twice")


def test_error_duplicate_or_asker_in_raised():
    _err(_with(SPEC_EXAMPLE, 0, raised=["Cat", "cat"]), "event 0", "field 'raised'", "twice")
    _err(_with(SPEC_EXAMPLE, 0, raised=["Ann"]), "event 0", "field 'raised'", "asker")
    _err(_with(SPEC_EXAMPLE, 0, raised="Cat"), "event 0", "field 'raised'")


def test_error_raise_with_two_players():
    data = copy.deepcopy(TWO_PLAYER)
    data["events"][0] = {"actor": "Ann", "action": "raise", "icon": "skull", "raised": ["Ben"]}
    _err(data, "event 0", "field 'action'", "2 players")


def test_error_exchange_with_three_players():
    data = copy.deepcopy(THREE_PLAYER)
    data["events"].append({"actor": "Ben", "action": "exchange", "side": "left",
                           "revealed": "Mary Morstan", "took": "Inspector Hopkins"})
    _err(data, "event 1", "field 'action'", "only played with 2 players")


def test_error_exchange_of_an_open_side():
    data = copy.deepcopy(TWO_PLAYER)
    data["events"][1]["side"] = "left"
    _err(data, "event 1", "field 'side'", "already face up")
    _err(_with(TWO_PLAYER, 1, side="middle"), "event 1", "field 'side'", "unknown side")


def test_error_my_exchange_without_took():
    _err(_with(TWO_PLAYER, 0, took=_DROP), "event 0", "field 'took'")
    _err(_with(TWO_PLAYER, 0, took=None), "event 0", "field 'took'")


def test_error_took_on_someone_elses_exchange():
    _err(_with(TWO_PLAYER, 1, took="Inspector Hopkins"), "event 1", "field 'took'",
         "only the actor")


def test_error_my_exchange_of_a_card_not_in_my_hand():
    _err(_with(TWO_PLAYER, 0, revealed="Mary Morstan"), "event 0", "field 'revealed'",
         "Mary Morstan is not in my hand")


def test_my_second_reveal_may_be_the_card_i_took():
    data = copy.deepcopy(TWO_PLAYER)
    data["events"] = data["events"][:1] + [
        {"actor": "Ben", "action": "count", "target": "Ann", "icon": "pipe", "count": 3},
        {"actor": "Ann", "action": "exchange", "side": "right", "revealed": "baynes",
         "took": "Inspector Hopkins"},
    ]
    rec = parse_record(data)
    assert rec.my_current_hand() == [HOLMES, WATSON, MORIARTY, HOPKINS, MYCROFT]
    assert rec.steps == [ExchangeStep(0, 0, "left", ADLER), ExchangeStep(0, 1, "right", BAYNES)]
    assert rec.facts_of(2) == [SideFact("right", HOPKINS)]
    # the card given away is gone: revealing Adler again is an error
    data["events"][2]["revealed"] = "Irene Adler"
    _err(data, "event 2", "field 'revealed'", "Irene Adler is not in my hand")


def test_error_events_after_the_game_is_over():
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["events"] += [
        {"actor": "Dan", "action": "accuse", "suspect": "Inspector Hopkins", "correct": True},
        {"actor": "Ann", "action": "raise", "icon": "pipe", "raised": []},
    ]
    _err(data, "event 4, field 'action': the game is over")
    data = copy.deepcopy(TWO_PLAYER)
    data["events"].insert(1, {"actor": "Ben", "action": "accuse", "suspect": "Hudson",
                              "correct": False})
    _err(data, "event 2, field 'action': the game is over")


def test_error_accuse_with_non_bool_correct():
    for bad in ("false", 0, 1, None, "no"):
        _err(_with(SPEC_EXAMPLE, 2, correct=bad), "event 2", "field 'correct'", "true or false")


def test_error_negative_or_non_integer_count():
    for bad in (-1, 1.5, "1", True, None):
        _err(_with(SPEC_EXAMPLE, 1, count=bad), "event 1", "field 'count'")


def test_error_count_target_is_the_asker():
    _err(_with(SPEC_EXAMPLE, 1, target="Ben"), "event 1", "field 'target'", "another player")


def test_error_non_string_names():
    _err(_with(SPEC_EXAMPLE, 1, target=3), "event 1", "field 'target'", "string")
    _err(_with(SPEC_EXAMPLE, 0, icon=["skull"]), "event 0", "field 'icon'")
    _err(_with(SPEC_EXAMPLE, 0, actor=None), "event 0", "field 'actor'")


def test_event_from_json_and_new_record_directly():
    names = ["Ann", "Ben", "Cat"]
    ev = event_from_json({"actor": "b", "action": "co", "target": "ann", "icon": "bulb",
                          "count": 2}, names, "x: event 9")
    assert ev == CountEvent(1, 0, BULB, 2)
    with pytest.raises(InputError, match=r"^x: event 9, field 'icon'"):
        event_from_json({"actor": "b", "action": "count", "target": "ann", "icon": "",
                         "count": 2}, names, "x: event 9")
    rec = new_record("expert", names, "Cat", ["lestrade", "gregson", "baynes", "hopkins"])
    assert rec.me == 2 and rec.hand == (LESTRADE, GREGSON, BAYNES, HOPKINS)
    assert rec.variant == "expert" and rec.events == []


def test_adding_a_typed_event_checks_it():
    rec = parse_record(copy.deepcopy(SPEC_EXAMPLE))
    rec.add(CountEvent(3, 2, PIPE, 1))
    assert rec.turns.current == 0
    with pytest.raises(InputError, match="event 4, field 'actor'"):
        rec.add(CountEvent(2, 1, PIPE, 1))
    with pytest.raises(InputError, match="event 4, field 'count'"):
        rec.add(CountEvent(0, 1, PIPE, -2))
    assert len(rec.events) == 4


# ----------------------------------------------------------------------------- fuzzing
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.floats(allow_nan=False),
    st.sampled_from(["Ann", "ben", "Cat", "Dan", "skull", "bulb", "left", "right", "raise",
                     "count", "accuse", "exchange", "moriarty", "holmes", "Hopkins", "expert",
                     "standard", "sherlock13", "", "  ", "!?"]),
    st.text(max_size=8),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(max_size=8) | st.sampled_from(
                                ["actor", "action", "icon", "raised", "target", "count",
                                 "suspect", "correct", "side", "revealed", "took"]),
                                inner, max_size=6)),
    max_leaves=20,
)
TOP_KEYS = ["game", "variant", "players", "me", "hand", "events"]


def _parse_or_input_error(data):
    try:
        rec = parse_record(data)
    except InputError as exc:
        assert str(exc)
        return None
    return rec


@settings(max_examples=100, deadline=None)
@given(data=st.dictionaries(st.sampled_from(TOP_KEYS) | st.text(max_size=5), json_values, max_size=7))
def test_fuzz_random_dicts(data):
    _parse_or_input_error(data)


@settings(max_examples=100, deadline=None)
@given(value=json_values)
def test_fuzz_random_json_values(value):
    _parse_or_input_error(value)


BASES = [SPEC_EXAMPLE, TWO_PLAYER, THREE_PLAYER]


@settings(max_examples=250, deadline=None)
@given(base=st.sampled_from(BASES), data=st.data())
def test_fuzz_mutations_of_valid_records(base, data):
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in places(doc) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        op = data.draw(st.sampled_from(["replace", "delete", "insert", "name"]))
        last = path[-1]
        if op == "replace":
            parent[last] = data.draw(json_values)
        elif op == "name":
            parent[last] = data.draw(st.sampled_from(
                list(SUSPECTS) + list(ICONS) + ["Ann", "Ben", "Cat", "Dan", "left", "right"]))
        elif op == "delete":
            del parent[last]
        elif isinstance(parent, list):
            parent.insert(last, data.draw(json_values))
        else:
            parent[data.draw(st.text(max_size=6))] = data.draw(json_values)
    _parse_or_input_error(doc)


@settings(max_examples=120, deadline=None)
@given(base=st.sampled_from(BASES), data=st.data())
def test_fuzz_event_sequences(base, data):
    """Well-shaped events in random order and content: legal or InputError, never a crash."""
    doc = copy.deepcopy(base)
    names = doc["players"]
    event = st.one_of(
        st.fixed_dictionaries({"actor": st.sampled_from(names), "action": st.just("raise"),
                               "icon": st.sampled_from(ICONS),
                               "raised": st.lists(st.sampled_from(names), max_size=3)}),
        st.fixed_dictionaries({"actor": st.sampled_from(names), "action": st.just("count"),
                               "target": st.sampled_from(names), "icon": st.sampled_from(ICONS),
                               "count": st.integers(-1, 6)}),
        st.fixed_dictionaries({"actor": st.sampled_from(names), "action": st.just("accuse"),
                               "suspect": st.sampled_from(SUSPECTS), "correct": st.booleans()}),
        st.fixed_dictionaries({"actor": st.sampled_from(names), "action": st.just("exchange"),
                               "side": st.sampled_from(["left", "right"]),
                               "revealed": st.sampled_from(SUSPECTS)},
                              optional={"took": st.sampled_from(SUSPECTS)}),
    )
    doc["events"] = data.draw(st.lists(event, max_size=12))
    rec = _parse_or_input_error(doc)
    if rec is not None:  # the record keeps every event; raisers come back in seat order
        for e in doc["events"]:
            if e["action"] == "raise":
                e["raised"] = sorted(set(e["raised"]), key=names.index)
        assert rec.to_json() == doc


# ----------------------------------------------------------------------------- wrong JSON types
#: one value of every JSON type (and the shapes that trip Python: true is an int there)
WRONG = {
    "null": None, "true": True, "false": False, "zero": 0, "number": 3, "float": 1.5,
    "huge": 10**4000,  # within Python's integer-string limit, so it parses
    "string": "zzz", "empty string": "", "list": [], "list of a name": ["Ann"], "object": {},
    "nested": {"a": [[{"b": None}]]},
}

#: the JSON type each field takes (``None`` allowed only where the field is optional)
FIELD_TYPES = {
    "game": str, "variant": str, "players": list, "me": str, "hand": list, "events": list,
    "players[]": str, "hand[]": str, "events[]": dict, "raised[]": str,
    "actor": str, "action": str, "icon": str, "raised": list, "target": str, "count": int,
    "suspect": str, "correct": bool, "side": str, "revealed": str, "took": (str, type(None)),
}


def _field_paths(doc):
    """Every (path, field kind, place the message must name) of a record, lists' first
    elements included."""
    out = []
    for key in TOP_KEYS:
        if key in doc:
            out.append(((key,), key, f"field '{key}'"))
    for key in ("players", "hand"):
        out.append(((key, 0), f"{key}[]", f"field '{key}'"))
    for i, ev in enumerate(doc["events"]):
        out.append((("events", i), "events[]", f"event {i}: "))
        for key in ev:
            out.append((("events", i, key), key, f"event {i}, field '{key}'"))
        if ev["action"] == "raise" and ev["raised"]:
            out.append((("events", i, "raised", 0), "raised[]", f"event {i}, field 'raised'"))
        if ev["action"] == "exchange" and "took" not in ev:
            out.append((("events", i, "took"), "took", f"event {i}, field 'took'"))
    return out





def _well_typed(kind, value) -> bool:
    want = FIELD_TYPES[kind]
    if kind == "game":
        return value == "sherlock13"
    if isinstance(value, bool):
        return bool in (want if isinstance(want, tuple) else (want,))
    return isinstance(value, want)


def _check_typed(doc, path, kind, place, value):
    """A value of the wrong JSON type is refused naming its field and its type; a count out
    of range is refused naming the cap; anything else parses or is an input error."""
    data = with_value(doc, path, value)
    if _well_typed(kind, value) and not (kind == "count" and not 0 <= value <= 5):
        _parse_or_input_error(data)
        return
    with pytest.raises(InputError) as info:
        parse_record(data, source="game.json")
    msg = str(info.value)
    assert msg.startswith("game.json") and place in msg, (path, value, msg)
    if kind == "took" and value is None:
        assert "needs the card I took" in msg  # null is the same as leaving it out
    elif kind == "count":
        assert "from 0 to 5" in msg
    elif kind == "game" and isinstance(value, str):
        assert f"record of the game {value!r}" in msg
    else:
        from deduce.core.records import json_kind

        assert f"got {json_kind(value).split(' (')[0]}" in msg, (path, value, msg)


_ALL_FIELDS = [(name, base, path, kind, place) for name, base in
               [("4p", SPEC_EXAMPLE), ("2p", TWO_PLAYER), ("3p", THREE_PLAYER)]
               for path, kind, place in _field_paths(base)]


@pytest.mark.parametrize("name, base, path, kind, place", _ALL_FIELDS,
                         ids=[f"{n}-{'.'.join(map(str, p))}" for n, _, p, _, _ in _ALL_FIELDS])
def test_every_field_refuses_every_wrong_json_type(name, base, path, kind, place):
    for value in WRONG.values():
        _check_typed(base, path, kind, place, value)


def test_the_fields_covered_are_all_the_fields():
    kinds = {kind for _, _, _, kind, _ in _ALL_FIELDS}
    assert kinds == set(FIELD_TYPES)


any_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.just(10**4000)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(_ALL_FIELDS), value=any_json)
def test_fuzz_wrong_types_name_the_field(case, value):
    _, base, path, kind, place = case
    _check_typed(base, path, kind, place, value)
