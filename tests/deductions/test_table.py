"""The Deductions live table's model (models/deductions/table.py): the entry grammar, a
new setup checked answer by answer, the record read back, and the session: each entry,
undo, refusals with their reasons and the file unchanged, a failed write, the lock."""

from __future__ import annotations

import errno
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deduce.core import records
from deduce.core.errors import InputError
from deduce.models.deductions.table import (
    Setup,
    load_record,
    parse_cell,
    parse_line_name,
    parse_uses,
    split_parts,
)


# ----------------------------------------------------------------------------- grammar
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


def test_mind_palace_lines():
    assert parse_line_name(["row", "2"]) == ("row", 1)
    assert parse_line_name(["col", "c"]) == ("column", 2)
    assert parse_line_name(["palace", "column", "3"]) == ("column", 2)
    assert parse_line_name(["b"]) == ("column", 1)
    assert parse_line_name(["4"]) == ("row", 3)
    with pytest.raises(InputError) as exc:
        parse_line_name(["row", "e"])
    assert str(exc.value) == ("mind row N (1-4) or mind column L (a-d): expected a row (1-4) "
                              "from 1 to 4, got 'e'")


def test_payment_uses():
    assert parse_uses("sherlock=statements, knowledge, writings+writings+artifacts=know"
                      .split()) == (
        (("Sherlock Holmes",), "Statements"), (("Knowledge",), "Knowledge"),
        (("Writings", "Writings", "Artifacts"), "Knowledge"))
    assert parse_uses(["irene"]) == ((("Irene Adler",), "Knowledge"),)
    for text, message in [
        ("sherlock", "with: Sherlock Holmes pays 2 of the suit you choose: add =SUIT to "
                     "'sherlock'"),
        ("lestrade", "with: Inspector Lestrade pays 1 of the suit you choose: add =SUIT to "
                     "'lestrade'"),
        ("writings+writings+artifacts", "with: 3 cards pay 1 of the suit you choose: add "
                                        "=SUIT to 'writings+writings+artifacts'"),
    ]:
        with pytest.raises(InputError) as exc:
            parse_uses([text])
        assert str(exc.value) == message


def test_parts_of_an_entry():
    assert split_parts("b3 prop c3 refill writings".split()) == (
        ["b3"], {"prop": ["c3"], "refill": ["writings"]})
    with pytest.raises(InputError, match="^refill is given twice$"):
        split_parts("b3 refill x refill y".split())


# ----------------------------------------------------------------------------- a new setup
def test_a_typed_setup_is_checked_answer_by_answer():
    s = Setup("new.json")
    bad = [("players", "Ann", "new.json: field 'players': 1 players; the game takes 2 to 4"),
           ("players", "Ann, ann!", "new.json: field 'players': 'ann!' is the same name as "
                                    "'Ann' (names differ in more than case, spaces and "
                                    "punctuation)")]
    for key, answer, message in bad:
        with pytest.raises(InputError) as exc:
            s.set(key, answer)
        assert str(exc.value) == message
    assert s.set("players", "Ann, Ben") == ["Ann", "Ben"]
    assert s.set("me", "ben") == "Ben" and s.set("to_play", "Ann") == "Ann"
    with pytest.raises(InputError) as exc:
        s.set("grid1", "irene, irene, writings, knowledge")
    assert str(exc.value) == ("new.json: field 'grid[0]': one Irene Adler too many on the "
                              "table: Irene Adler is one of a kind")
    rows = ["irene, writings, writings, knowledge", "statements, prints, artifacts, knowledge",
            "writings, statements, statements, knowledge", "knowledge, writings, statements, art"]
    for i, row in enumerate(rows):
        s.set(f"grid{i + 1}", row)
    with pytest.raises(InputError) as exc:
        s.set("solutions", "hound-suspect, hound-suspect-1, sign-motive, speckled-means")
    assert str(exc.value).startswith("new.json: field 'display.solutions': ")
    s.set("solutions", "hound-suspect, hound-location, sign-motive, speckled-means")
    s.set("red_herrings", "hound-suspect-1, hound-suspect-2, sign-motive-1, speckled-means-2")
    assert s.fields() == ["pool:Ann", "pool:Ben"]
    s.set("pool:Ann", "")
    s.set("pool:Ben", "sherlock, writings")
    pos = s.position()
    assert pos.me == "Ben" and pos.pools == {"Ann": (), "Ben": ("Sherlock Holmes", "Writings")}
    assert pos.grid[0] == ("Irene Adler", "Writings", "Writings", "Knowledge")


# ----------------------------------------------------------------------------- the record
@pytest.mark.parametrize("data, message", [
    ({"game": "deductions", "players": [], "display": {}}, "this is a Deductions position, not a "
                                                          "table record: start a table from it "
                                                          "with --from POSITION"),
    ({"game": "sherlock13"}, "this is a Sherlock 13 record, not a Deductions position (use "
                             "deduce s13 ...)"),
    ({"game": "deductions", "setup": {}, "seed": None, "entries": [], "x": 1},
     "field 'x': unknown field (known: game, setup, seed, entries)"),
    ({"game": "deductions", "setup": {}, "seed": None}, "field 'entries': missing field"),
])
def test_records_that_are_refused(tmp_path, data, message):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as exc:
        load_record(path)
    assert str(exc.value) == f"{path}: {message}"


# ----------------------------------------------------------------------------- the session
#: Ann to play at the start of her turn; row 1 is an exact Writings row, column d a
#: Knowledge column propped over d1; Ann affords hound-suspect-2 (Sherlock + 2 Knowledge)
POSITION = {
    "game": "deductions", "players": ["Ann", "Ben", "Cat"], "me": "Ann", "to_play": "Ann",
    "grid": [["Writings", "Writings", "Writings", "Writings"],
             ["Prints & Tracks", "Irene Adler", "Artifacts", "Knowledge"],
             ["Writings", "Statements", "Statements", "Knowledge"],
             ["Knowledge", "Writings", "Statements", "Knowledge"]],
    "display": {"solutions": ["hound-suspect", "hound-location", "sign-motive", "speckled-means"],
                "red_herrings": ["hound-suspect-1", "hound-suspect-2", "sign-motive-1",
                                 "speckled-means-2"]},
    "pools": {"Ann": ["Statements", "Sherlock Holmes", "Knowledge", "Knowledge",
                      "Dr. John Watson"], "Ben": [], "Cat": []},
    "solved": {"Ann": [], "Ben": [], "Cat": []},
    "milestones": {"Ann": {}, "Ben": {}, "Cat": {}},
    "reserved": {"Ann": None, "Ben": None, "Cat": None},
    "discard": [], "final_round": False,
}


@pytest.fixture
def table(tmp_path):
    """A session started from POSITION (closed at the end)."""
    from deduce.models.deductions.table import TableSession

    (tmp_path / "pos.json").write_text(json.dumps(POSITION))
    session = TableSession.open(tmp_path / "g.json", source=str(tmp_path / "pos.json"))
    yield session
    session.close()


def saved(session) -> dict:
    return json.loads(session.path.read_text())


def entries(session) -> list[dict]:
    return saved(session)["entries"]
