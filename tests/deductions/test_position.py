"""position: a test per check of ``parse_position`` (the field named exactly), the round
trip parse -> to_json -> parse, and mutated positions: an InputError or a Position, never
another exception."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.deductions.position import (
    COLUMNS,
    SIZE,
    Position,
    Turn,
    cell_name,
    load_position,
    parse_cell,
    parse_position,
)

HAND = Path(__file__).parent / "positions" / "hand.json"
SAMPLE = Path(__file__).parents[2] / "deduce" / "puzzles" / "deductions" / "sample-position.json"
ANN = "[red]Ann"
BEN_HOUND = ["hound-suspect-1", "hound-location-2", "hound-motive-1", "hound-means-2",
             "hound-opportunity-2"]


def base() -> dict:
    return json.loads(HAND.read_text())


def refused(data, path: str, words: str) -> InputError:
    """``parse_position`` refuses ``data`` at the field ``path`` with ``words`` in it."""
    with pytest.raises(InputError) as e:
        parse_position(data, "p.json")
    text = str(e.value)
    assert text.startswith(f"p.json: field {path!r}: "), text
    assert words in text, text
    assert e.value.field == path.split(".")[0].split("[")[0]
    return e.value


def test_hand_and_sample_positions_read():
    pos = load_position(HAND)
    assert pos.players == (ANN, "Ben") and pos.me == ANN and pos.to_play == "Ben"
    assert pos.grid[2] == (None, None, "Irene Adler", None)
    assert pos.points("Ben") == 3 and pos.step == "start" and pos.final_by() is None
    sample = load_position(SAMPLE)
    assert sample.players == ("Ann", "Ben", "Cat") and sample.points("Ann") == 2


@pytest.mark.parametrize("path", [HAND, SAMPLE])
def test_round_trip(path):
    pos = load_position(path)
    again = parse_position(pos.to_json(), "again", base=path.parent)
    assert again == pos
    assert again.to_json() == pos.to_json()


def test_aliases_written_canonically():
    data = base()
    data["grid"][0][0] = "writ"
    data["pools"]["ben"] = data["pools"].pop("Ben")
    data["pools"]["ben"] = ["lestrade", "prints"]
    data["to_play"] = "ben"
    data["display"]["solutions"][0] = "Naturalist"
    pos = parse_position(data, "p.json")
    assert pos.grid[0][0] == "Writings" and pos.to_play == "Ben"
    assert pos.pools["Ben"] == ("Inspector Lestrade", "Prints & Tracks")
    assert pos.display["solutions"][0] == "hound-suspect"
    assert pos.to_json()["pools"] == {ANN: list(pos.pools[ANN]), "Ben": list(pos.pools["Ben"])}


def test_turn_round_trip():
    data = base()
    data["turn"] = {"number": 7, "step": "investigate", "used_allies": []}
    pos = parse_position(data, "p.json")
    assert pos.turn == Turn(7, "investigate", ()) and pos.to_json()["turn"] == data["turn"]


# ----------------------------------------------------------------------------- the checks
def test_not_an_object_and_other_game():
    with pytest.raises(InputError, match="^p.json: a position is a JSON object, got a list$"):
        parse_position([], "p.json")
    with pytest.raises(InputError, match="not a Deductions position"):
        parse_position({"game": "sherlock13"}, "p.json")


def mutate(fn):
    data = base()
    fn(data)
    return data


def setter(path_keys, value):
    def fn(data):
        target = data
        for k in path_keys[:-1]:
            target = target[k]
        target[path_keys[-1]] = value
    return fn


def deleter(*keys):
    def fn(data):
        target = data
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]
    return fn


CASES = [
    # fields
    (setter(["colour"], 1), "colour", "unknown field (known: game, players"),
    (deleter("discard"), "discard", "missing field"),
    (setter(["cards"], 3), "cards", "expected shipped or a card-set file (a string), got a number"),
    (setter(["cards"], "none.toml"), "cards", "the card set cannot be read"),
    # players
    (setter(["players"], [ANN]), "players", "1 players; the game takes 2 to 4"),
    (setter(["players"], [ANN, "Ben", "C", "D", "E"]), "players", "5 entries; at most 4"),
    (setter(["players"], ["Ben", "b-e-n"]), "players[1]", "the same name as players[0] (names "
     "differ in more than case, spaces and punctuation)"),
    (setter(["players"], [ANN, 3]), "players[1]", "expected a player name (a string)"),
    (setter(["players"], [ANN, " "]), "players[1]", "a player name has 1 to 100 characters"),
    (setter(["players"], [ANN, "x" * 101]), "players[1]", "a player name has 1 to 100"),
    (setter(["me"], "Zed"), "me", "unknown player 'Zed'"),
    (setter(["to_play"], 1), "to_play", "expected a player (a string)"),
    # per-player tables
    (deleter("pools", "Ben"), "pools.Ben", "no entry for Ben"),
    (setter(["reserved", "ben"], None), "reserved.ben", "Ben has two entries"),
    (setter(["solved", "Cat"], []), "solved.Cat", "unknown player 'Cat'"),
    # grid
    (setter(["grid"], [[None] * 4] * 3), "grid", "expected 4 rows, got 3"),
    (setter(["grid", 1], [None] * 3), "grid[1]", "expected 4 cells, got 3"),
    (setter(["grid", 1, 3], "Coins"), "grid[1][3]", "unknown clue card (suit or Ally) 'Coins'"),
    (setter(["grid", 1, 3], 7), "grid[1][3]", "expected a clue card or null (a string)"),
    # copies
    (setter(["pools", "Ben"], ["Statements"] * 8), "pools.Ben[6]",
     "one Statements too many on the grid, in the pools and in the discard pile: 11 regular"),
    (setter(["discard"], ["Sherlock Holmes"]), "discard[0]",
     "one Sherlock Holmes too many on the grid, in the pools and in the discard pile: Sherlock "
     "Holmes is one of a kind"),
    # case cards
    (setter(["display", "solutions", 1], "no-such"), "display.solutions[1]",
     "unknown case card 'no-such'"),
    (setter(["display", "solutions", 1], "hound-motive-1"), "display.solutions[1]",
     "'hound-motive-1' is a red herring; this row holds solutions"),
    (setter(["display", "solutions"], ["hound-suspect"] * 3), "display.solutions",
     "expected 4 slots (null for a gap), got 3"),
    (setter(["display", "extra"], []), "display.extra", "unknown display row"),
    (deleter("display", "red_herrings"), "display.red_herrings", "missing display row"),
    (setter(["reserved", "Ben"], "sign-means"), "reserved.Ben",
     "'sign-means' is also at display.solutions[1] (a case card is in one place)"),
    (setter(["solved", "Ben", 0], {"case": "sign-suspect-1", "discount": "Statements"}),
     "solved.Ben[0].case", "'sign-suspect-1' is also at solved.[red]Ann[0].case"),
    (setter(["solved", "Ben", 0], {"case": "hound-suspect-1"}), "solved.Ben[0].discount",
     "missing field"),
    (setter(["solved", "Ben", 0], {"case": "hound-suspect-1", "discount": "x", "y": 1}),
     "solved.Ben[0].y", "unknown field (known: case, discount)"),
    (setter(["solved", "Ben", 0], {"case": "hound-suspect-1", "discount": "Coins"}),
     "solved.Ben[0].discount", "unknown suit 'Coins'"),
    # piles
    (setter(["display", "solutions", 0], None), "display.solutions[0]",
     "a gap at the pile's top means the pile is empty, but"),
    (setter(["display", "red_herrings", 2], None), "display.red_herrings[2]",
     "a gap beside a pile that still has cards"),
    # milestones
    (setter(["milestones", "Ben"], {"diversity": BEN_HOUND[:4] + ["sign-suspect-1"]}),
     "milestones.Ben.diversity[4]", "'sign-suspect-1' is not among this player's solved cards"),
    (setter(["milestones", "Ben"], {"diversity": BEN_HOUND, "completion": BEN_HOUND}),
     "milestones.Ben.completion[0]", "'hound-suspect-1' is already committed to diversity"),
    (setter(["milestones", "Ben"], {"diversity": BEN_HOUND[:4]}), "milestones.Ben.diversity",
     "these cards do not satisfy diversity (5 distinct cards, one of each category)"),
    (setter(["milestones", "Ben"], {"bravery": []}), "milestones.Ben.bravery",
     "unknown milestone 'bravery'"),
    (setter(["milestones", "Ben"], {"diversity": BEN_HOUND, "Diversity": []}),
     "milestones.Ben.Diversity", "diversity is given twice"),
    (setter(["milestones", "Ben"], {"diversity": BEN_HOUND * 2}), "milestones.Ben.diversity",
     "10 entries; at most 5"),
    # pools
    (setter(["pools", ANN], ["Knowledge"] * 5 + ["Artifacts"] * 6), f"pools.{ANN}",
     "11 cards; a pool holds at most 10 at the end of a turn"),
    (setter(["pools", "Ben"], ["Knowledge"] * 9 + ["Artifacts"] * 4), "pools.Ben",
     "13 entries; at most 12"),
    # final round
    (setter(["final_round"], "no"), "final_round", "expected true or false"),
    (setter(["final_round"], True), "final_round",
     "true, but none of the players before Ben has 15 points"),
    # turn
    (setter(["turn"], {"number": -1}), "turn.number", "expected a whole number from 0 to 200"),
    (setter(["turn"], {"step": "dance"}), "turn.step", "unknown step 'dance'"),
    (setter(["turn"], {"colour": 1}), "turn.colour", "unknown field (known: number, step"),
    (setter(["turn"], {"used_allies": ["Irene Adler"]}), "turn.used_allies[0]",
     "Irene Adler is in no pool"),
    (setter(["turn"], {"used_allies": ["Mycroft Holmes", "mycroft"]}), "turn.used_allies[1]",
     "Mycroft Holmes is listed twice"),
    (setter(["turn"], {"used_allies": ["Sherlock Holmes"]}), "turn.used_allies[0]",
     "unknown Ally with a free action"),
    (setter(["turn"], {"step": "discard"}), "turn.step",
     "the step is 'discard', but Ben's pool holds 0 cards"),
]


@pytest.mark.parametrize("change, path, words", CASES)
def test_every_check(change, path, words):
    refused(mutate(change), path, words)


def test_final_round_false_with_15_points():
    data = base()
    data["solved"][ANN] = [{"case": c, "discount": "Knowledge"} for c in
                           ("hound-means", "sign-opportunity", "speckled-means", "sign-location",
                            "sign-suspect-1")]
    for row, ids in (("solutions", ["hound-suspect", "hound-motive", "speckled-motive",
                                    "sign-motive"]),):
        data["display"][row] = ids
    err = refused(data, "final_round", f"false, but {ANN} has 15 points")
    assert "(15 at the end of a turn starts the final round)" in str(err)
    data["final_round"] = True
    assert parse_position(data, "p.json").final_by() == ANN


def test_to_play_mid_turn_pool():
    data = base()
    data["pools"]["Ben"] = ["Knowledge"] * 9 + ["Artifacts"] * 3
    assert parse_position(data, "p.json").step == "discard"
    data["turn"] = {"step": "investigate"}
    refused(data, "pools.Ben", "12 cards; a pool holds at most 11 at the step 'investigate'")


def test_cli_names_the_field(tmp_path):
    """Through the CLI: exit 2, the file and the field named."""
    import subprocess

    from tests.cli.procs import deduce_argv, quiet_env

    path = tmp_path / "p.json"
    path.write_text(json.dumps(mutate(setter(["grid", 1, 3], "Coins"))))
    res = subprocess.run([*deduce_argv(), "deductions", "odds", str(path)], capture_output=True,
                         text=True, env=quiet_env(), timeout=60)
    assert res.returncode == 2
    assert res.stderr.startswith(f"error: {path}: field 'grid[1][3]': unknown clue card")


# ----------------------------------------------------------------------------- hypothesis
def _paths(data, prefix=()):
    """Every (container path, key) in ``data``."""
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return
    for k, v in items:
        yield prefix + (k,)
        yield from _paths(v, prefix + (k,))


_ALL_PATHS = list(_paths(base()))
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 20), st.text(max_size=6),
                     st.sampled_from(["Ben", ANN, "Knowledge", "Irene Adler", "hound-suspect",
                                      "sign-means-1", "diversity", "discard", "shipped"]))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=5) | st.sampled_from(
        ["Ben", "case", "discount", "step", "number"]), inner, max_size=3)), max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_ALL_PATHS), _values, st.booleans()), min_size=1,
                max_size=3))
def test_mutated_positions(changes):
    data = base()
    for path, value, delete in changes:
        target = data
        try:
            for k in path[:-1]:
                target = target[k]
            if delete:
                del target[path[-1]]
            else:
                target[path[-1]] = copy.deepcopy(value)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        pos = parse_position(data, "p.json", base=HAND.parent)
    except InputError:
        return
    assert isinstance(pos, Position)
    assert parse_position(pos.to_json(), "again", base=HAND.parent) == pos


# ----------------------------------------------------------------------------- cells
def test_cells_are_column_letter_then_row_from_the_top():
    assert parse_cell("a1") == (0, 0)
    assert parse_cell("b3") == (2, 1)
    assert parse_cell("D4") == (3, 3)
    assert parse_cell("b\u0663") == (2, 1)  # an Arabic-Indic 3


@pytest.mark.parametrize("text, message", [
    ("e1", "take: expected a cell such as b3 (column a-d, row 1-4), got 'e1'"),
    ("b", "take: expected a cell such as b3 (column a-d, row 1-4), got 'b'"),
    ("b5", "take: expected a row in 'b5' from 1 to 4, got '5'"),
    ("b\u00b2", "take: expected a row in 'b\u00b2' from 1 to 4, got '\u00b2'"),
])
def test_bad_cells(text, message):
    with pytest.raises(InputError) as exc:
        parse_cell(text, "take")
    assert str(exc.value) == message


def test_every_cell_name_parses_back_to_its_cell():
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    names = [cell_name(cell) for cell in cells]
    assert names[:5] == ["a1", "b1", "c1", "d1", "a2"] and names[-1] == "d4"
    assert COLUMNS == "abcd"
    assert [parse_cell(n.upper()) for n in names] == cells
