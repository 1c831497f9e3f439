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
from deduce.models.deductions.position import parse_cell
from deduce.models.deductions.table import (
    Setup,
    load_record,
    parse_line_name,
    parse_uses,
    split_parts,
)


# ----------------------------------------------------------------------------- grammar
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
           ("players", "Ann, ann!", "new.json: field 'players[1]': the same name as "
                                    "players[0] (names differ in more than case, spaces and "
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
    with pytest.raises(InputError) as exc:  # 4 Writings on the grid
        s.set("pool:Ben", ", ".join(["writings"] * 8))
    assert str(exc.value) == ("new.json: field 'pools.Ben': one Writings too many on the "
                              "table: 11 regular Writings cards exist (plus its Ally)")
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


@pytest.fixture(scope="module")
def table_for_hypothesis(tmp_path_factory):
    """One session for every example of a property test."""
    from deduce.models.deductions.table import TableSession

    folder = tmp_path_factory.mktemp("hyp")
    (folder / "pos.json").write_text(json.dumps(POSITION))
    session = TableSession.open(folder / "g.json", source=str(folder / "pos.json"))
    yield session
    session.close()


def saved(session) -> dict:
    return json.loads(session.path.read_text())


def entries(session) -> list[dict]:
    return saved(session)["entries"]


def test_a_turn_of_obtain_clues_saved_entry_by_entry(table):
    assert table.prompt() == "Ann to play: start"
    reply = table.handle("draw writings")
    assert (reply.kind, reply.message) == ("accepted", "entry 1: Ann draws Writings")
    assert entries(table) == [{"action": {"action": "draw"},
                               "outcome": {"draws": ["Writings"], "pick": None, "reveals": []}}]
    assert table.prompt() == "Ann to play: investigate"
    reply = table.handle("take a1")  # waits for the card dealt into a1
    assert (reply.kind, reply.message) == ("info", "take a1: waiting for refill CARD")
    assert table.prompt() == "Ann: take a1: what came?" and len(entries(table)) == 1
    reply = table.handle("refill knowledge")
    assert (reply.kind, reply.message) == (
        "accepted", "entry 2: Ann takes Writings from a1; dealt Knowledge")
    pos = table.position()
    assert pos.grid[0][0] == "Knowledge" and pos.pools["Ann"][-2:] == ("Writings", "Writings")
    assert table.prompt() == "Ben to play: start"
    assert entries(table)[1] == {"action": {"action": "take", "cell": [0, 0], "prop": None},
                                 "outcome": {"draws": ["Knowledge"], "pick": None,
                                             "reveals": []}}


def test_a_propped_take_and_a_mind_palace_on_one_line(table):
    table.handle("draw statements")
    reply = table.handle("take d3 refill writings")  # only propped placements hold d3
    assert (reply.kind, reply.message) == (
        "refused", "d3 can be taken with a prop over d1 or c2 or c3 or c4: say which "
                   "(take d3 prop d1)")
    reply = table.handle("take d3 prop d1 refill writings")
    assert reply.message == ("entry 2: Ann takes Knowledge from d3, a prop over d1; dealt "
                             "Writings")
    assert table.handle("draw knowledge").kind == "accepted"
    reply = table.handle("mind row 2 got irene refill writings, writings, artifacts, knowledge")
    assert reply.message == ("entry 4: Ben retreats to the Mind Palace on row 2: Irene Adler "
                             "to the pool; dealt Writings, Writings, Artifacts, Knowledge")
    pos = table.position()
    assert pos.pools["Ben"] == ("Knowledge", "Irene Adler")
    assert sorted(pos.discard) == ["Artifacts", "Knowledge", "Prints & Tracks"]


def test_a_solve_with_the_cheapest_payment_and_the_pile_revealed(table):
    reply = table.handle("solve hound-suspect-2")
    assert (reply.kind, reply.message) == ("info", "solve hound-suspect-2: waiting for reveal "
                                                   "CASE (the new top of the pile)")
    reply = table.handle("reveal sign-suspect-1")
    assert reply.message == ("entry 1: Ann solves hound-suspect-2 paying Sherlock Holmes as "
                             "2 Statements, Knowledge as 1 Knowledge, Knowledge as 1 "
                             "Knowledge; revealed sign-suspect-1")
    pos = table.position()
    assert pos.pools["Ann"] == ("Statements", "Dr. John Watson")
    assert [s.id for s in pos.solved["Ann"]] == ["hound-suspect-2"]
    assert pos.display["red_herrings"][0] == "sign-suspect-1"


def test_undo_is_exact_and_drops_a_waiting_entry(table):
    table.handle("draw writings")
    before = saved(table)
    table.handle("take a1 refill knowledge")
    reply = table.handle("undo")
    assert reply.message == "undone: entry 2: Ann takes Writings from a1; dealt Knowledge"
    assert saved(table) == before and table.prompt() == "Ann to play: investigate"
    table.handle("take b1")
    assert table.handle("undo").message == "dropped: take b1 (it was not saved)"
    assert table.handle("undo").message == "undone: entry 1: Ann draws Writings"
    reply = table.handle("undo")
    assert (reply.kind, reply.message, reply.code) == ("refused", "nothing to undo", 2)


@pytest.mark.parametrize("line, message", [
    ("fly", "unknown command 'fly'"),
    ("take a1", None),  # the engine's reason: not at the start of a turn
    ("draw", "usage: draw CARD (the clue card drawn)"),
    ("draw nonsense", "draw: unknown clue card (suit or Ally) 'nonsense'"),
    ("take a1 with knowledge", "take takes no with part (its parts: prop, refill)"),
    ("solve hound-suspect", None),  # not affordable
    ("refill writings", "no entry waits for refill (use it on the entry's line: take b3 "
                        "refill writings)"),
    ("x" * 1001, "line too long: more than the cap of 1,000 characters"),
])
def test_refusals_leave_the_record_unchanged(table, line, message):
    before = table.path.read_text()
    reply = table.handle(line)
    assert (reply.kind, reply.code) == ("refused", 2)
    if message is not None:
        assert reply.message.startswith(message)
    assert table.path.read_text() == before and table.prompt() == "Ann to play: start"


def test_a_waiting_entry_refuses_other_entries_and_wrong_parts(table):
    table.handle("draw writings")
    table.handle("take a1")
    reply = table.handle("draw writings")
    assert reply.message == "take a1 waits for what came: refill CARD (or undo to drop it)"
    reply = table.handle("refill knowledge, knowledge")
    assert reply.message == "this entry has 1 clue card(s) dealt from the deck, not 2 (refill)"
    assert table.prompt() == "Ann: take a1: what came?"
    assert table.handle("refill knowledge").kind == "accepted"


def test_a_failed_write_refuses_the_entry_and_the_session_goes_on(table, monkeypatch):
    real, calls = records.os.replace, [0]

    def replace(src, dst, *a, **kw):  # the disk is full for the first write
        calls[0] += 1
        if calls[0] == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(records.os, "replace", replace)
    before = table.path.read_text()
    reply = table.handle("draw writings")
    assert (reply.kind, reply.message) == (
        "refused", f"{table.path}: cannot write the file: No space left on device")
    assert table.path.read_text() == before and table.prompt() == "Ann to play: start"
    assert table.handle("draw writings").kind == "accepted"
    assert len(entries(table)) == 1


def test_the_lock_is_held_for_the_session(table, tmp_path):
    from deduce.models.deductions.table import TableSession

    with pytest.raises(InputError, match="the record is already open in this session"):
        TableSession.open(table.path)
    table.close()
    with TableSession.open(table.path) as again:  # read back, replayed
        assert again.prompt() == "Ann to play: start" and not again.created


def test_views(table):
    assert table.handle("show").view == "show"
    patterns = table.handle("patterns").data
    assert patterns["forced"] is False
    assert {("row", p.suit, p.prop) for p in patterns["placements"] if p.kind == "row"} == {
        ("row", "Writings", None)}
    pay = table.handle("pay hound-suspect-2").data
    assert pay == {"case": "hound-suspect-2", "due": {"Statements": 2, "Knowledge": 2},
                   "affordable": True, "cards_spent": 3,
                   "payment": [{"cards": ["Sherlock Holmes"], "as": "Statements"},
                               {"cards": ["Knowledge"], "as": "Knowledge"},
                               {"cards": ["Knowledge"], "as": "Knowledge"}],
                   "pool_after": ["Statements", "Dr. John Watson"], "short_by": 0}
    every = table.handle("pay").data["cases"]  # knowledge.pay_all_json: ranked
    assert len(every) == 8
    assert [r["case"] for r in every] == [
        "hound-suspect-1", "hound-suspect-2", "speckled-means-2", "sign-motive-1",
        "hound-suspect", "sign-motive", "hound-location", "speckled-means"]
    assert table.handle("pay sign-suspect").message == (
        "pay: 'sign-suspect' is not visible nor reserved by Ann: it is in its pile, unseen")
    odds = table.handle("odds").data
    assert odds["deck"] == 60 - 16 - 5 and odds["allies"] == [
        "Inspector Lestrade", "Mycroft Holmes"]
    assert odds["suits"]["Writings"]["left"] == 12 - 6 - 1


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=60))
def test_any_line_is_answered_never_a_traceback(table_for_hypothesis, line):
    before = table_for_hypothesis.path.read_text()
    reply = table_for_hypothesis.handle(line)
    assert reply.kind in ("accepted", "refused", "info", "quit")
    if reply.kind == "accepted":  # put it back
        table_for_hypothesis.handle("undo")
    table_for_hypothesis.pending = None
    assert table_for_hypothesis.path.read_text() == before


def rich_position() -> dict:
    """POSITION where Ann has solved four Hound red herrings and holds Mycroft, Irene and
    Watson: hound-suspect-2 (due 1 Statements, 2 Knowledge) completes a Case Completion."""
    pos = json.loads(json.dumps(POSITION))
    solved = ["hound-suspect-1", "hound-location-1", "hound-motive-1", "hound-means-1"]
    discount = ["Statements", "Prints & Tracks", "Writings", "Artifacts"]
    pos["solved"]["Ann"] = [{"case": c, "discount": d} for c, d in zip(solved, discount)]
    pos["display"]["red_herrings"] = ["sign-suspect-1", "hound-suspect-2", "sign-motive-1",
                                      "speckled-means-2"]
    pos["pools"]["Ann"] = ["Knowledge", "Knowledge", "Statements", "Mycroft Holmes",
                           "Irene Adler", "Dr. John Watson"]
    pos["grid"][1][1] = "Knowledge"  # Irene is in Ann's pool
    return pos


@pytest.fixture
def rich(tmp_path):
    from deduce.models.deductions.table import TableSession

    (tmp_path / "pos.json").write_text(json.dumps(rich_position()))
    session = TableSession.open(tmp_path / "g.json", source=str(tmp_path / "pos.json"))
    yield session
    session.close()


def test_free_actions_a_solve_paid_by_hand_and_a_claim(rich):
    reply = rich.handle("reserve sign-motive reveal sign-suspect")
    assert reply.message == ("entry 1: Ann reserves sign-motive (Mycroft); revealed "
                             "sign-suspect")
    assert rich.position().reserved["Ann"] == "sign-motive"
    reply = rich.handle("rotate hound-means-1 knowledge")
    assert reply.message == "entry 2: Ann turns hound-means-1 to a Knowledge discount (Irene)"
    assert rich.handle("pay hound-suspect-2").data["due"] == {"Statements": 1,
                                                                  "Knowledge": 1}
    reply = rich.handle("solve hound-suspect-2 with watson+mycroft+irene=statements, know "
                        "reveal sign-location-1 refill writings")
    assert reply.message == ("entry 3: Ann solves hound-suspect-2 paying 3 cards as 1 "
                             "Statements (cross-reference: Dr. John Watson, Mycroft Holmes, "
                             "Irene Adler), Knowledge as 1 Knowledge; revealed "
                             "sign-location-1; dealt Writings")
    assert rich.prompt() == "Ann to play: claim"
    assert rich.position().pools["Ann"] == ("Knowledge", "Statements", "Writings")
    reply = rich.handle("claim completion")
    assert reply.message == ("entry 4: Ann claims completion with hound-suspect-1, "
                             "hound-location-1, hound-motive-1, hound-means-1, hound-suspect-2")
    assert rich.position().points("Ann") == 3 + 1 + sum(
        rich.position().cards.by_id[c].points for c in
        ("hound-suspect-1", "hound-location-1", "hound-motive-1", "hound-means-1"))
    assert rich.prompt() == "Ben to play: start"
    assert [e["action"]["action"] for e in entries(rich)] == ["reserve", "rotate", "solve",
                                                              "claim"]


def test_the_end_of_turn_discard(tmp_path):
    from deduce.models.deductions.table import TableSession

    pos = json.loads(json.dumps(POSITION))
    pos["pools"]["Ann"] = ["Statements"] * 5 + ["Artifacts"] * 5
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    with TableSession.open(tmp_path / "g.json", source=str(tmp_path / "pos.json")) as s:
        s.handle("draw artifacts")
        s.handle("take a1 refill knowledge")
        assert s.prompt() == "Ann to play: discard"
        assert s.handle("discard knowledge").kind == "refused"  # not in her pool
        assert s.handle("discard statements").message == "entry 3: Ann discards Statements"
        assert s.handle("discard art").message == "entry 4: Ann discards Artifacts"
        assert s.prompt() == "Ben to play: start"
        assert s.position().discard == ("Statements", "Artifacts")


def test_best_is_the_advice_for_me_on_my_turn(table):
    from deduce.models.deductions.advice import advise

    reply = table.handle("best")
    assert reply.view == "best" and reply.data == advise(table.position())
    table.handle("draw writings")
    table.handle("take a1 refill knowledge")
    reply = table.handle("best")  # Ben's turn
    assert (reply.kind, reply.message) == (
        "refused", "best: it is Ben's turn, not Ann's: advice is for me on my turn")


def test_a_record_whose_entry_cannot_be_played_names_it(table):
    table.handle("draw writings")
    data = saved(table)
    table.close()
    data["entries"][0]["outcome"]["draws"] = ["Sherlock Holmes"]  # in Ann's pool
    table.path.write_text(json.dumps(data))
    from deduce.models.deductions.table import TableSession

    with pytest.raises(InputError) as exc:
        TableSession.open(table.path)
    assert str(exc.value) == (f"{table.path}: field 'entries[0]': the entry cannot be played: "
                              "Sherlock Holmes (draws[0]) is not in the clue deck")
    data["entries"][0]["action"] = {"action": "fly"}
    table.path.write_text(json.dumps(data))
    with pytest.raises(InputError) as exc:
        TableSession.open(table.path)
    assert str(exc.value) == (f"{table.path}: field 'entries[0].action': field 'action': "
                              "unknown action 'fly' (known: draw, take, mind_palace, solve, "
                              "reserve, rotate, discard, claim)")
    assert not records.holds_lock(table.path)  # let go when refused


def test_the_last_turn_of_the_final_round_ends_the_game(tmp_path):
    from deduce.models.deductions.table import TableSession

    pos = json.loads(json.dumps(POSITION))
    hound = ["hound-suspect", "hound-location", "hound-motive", "hound-means",
             "hound-opportunity"]  # 15 points
    pos["solved"]["Ann"] = [{"case": c, "discount": d} for c, d in zip(
        hound, ["Statements", "Prints & Tracks", "Writings", "Artifacts", "Knowledge"])]
    pos["display"]["solutions"] = ["sign-suspect", "sign-location", "sign-motive",
                                   "speckled-means"]
    pos.update(to_play="Cat", final_round=True)
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    with TableSession.open(tmp_path / "g.json", source=str(tmp_path / "pos.json")) as s:
        assert s.prompt() == "Cat to play: start"
        s.handle("draw writings")
        s.handle("take a1 refill knowledge")
        assert s.prompt() == "game over: Ann wins"
        reply = s.handle("draw writings")
        assert reply.message == "the game is over (undo takes back the last entry)"
        assert s.handle("undo").kind == "accepted" and s.prompt() == "Cat to play: investigate"


def test_a_dealt_game_takes_what_the_deal_gives_and_replays_exactly(tmp_path):
    from deduce.models.deductions.table import TableSession

    path = tmp_path / "d.json"
    with TableSession.open(path, seed=3, players="Ann, Ben", me="Ben") as s:
        assert s.created and s.record.setup.me == "Ben"
        assert s.handle("draw").kind == "accepted"
        take = next(a for a in s.state.legal_actions() if type(a).__name__ == "Take")
        cell = "abcd"[take.cell[1]] + str(take.cell[0] + 1)
        prop = "" if take.prop is None else " prop " + "abcd"[take.prop[1]] + str(take.prop[0] + 1)
        assert s.handle(f"take {cell}{prop}").kind == "accepted"  # the deck's top came
        shown = s.position().to_json()
    with TableSession.open(path) as again:
        assert again.position().to_json() == shown
    data = json.loads(path.read_text())
    assert data["seed"] == 3 and [len(e["outcome"]["draws"]) for e in data["entries"]] == [1, 1]
    data["setup"]["to_play"] = "Ben"  # Ann plays first in a dealt game
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as exc:
        TableSession.open(path)
    assert str(exc.value) == f"{path}: field 'setup': not the deal of seed 3 (edited by hand?)"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["b3", "a9", "row", "column", "2", "prop", "refill", "with",
                                 "sherlock=statements", "x+y", "=", ",", "writings", "٣",
                                 "²", "e", "palace", ""]), max_size=6))
def test_the_grammar_never_raises_anything_but_input_errors(words):
    for parse in (lambda w: parse_cell(" ".join(w)), parse_line_name, parse_uses, split_parts):
        try:
            parse(words)
        except InputError:
            pass


def test_a_card_set_of_ones_own_is_kept_relative_to_the_record(tmp_path):
    from deduce.models.deductions.cards import shipped_path
    from deduce.models.deductions.table import TableSession

    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "mine.toml").write_text(shipped_path().read_text(encoding="utf-8"),
                                                 encoding="utf-8")
    path = tmp_path / "d.json"
    with TableSession.open(path, seed=1, players="Ann,Ben", me="Ann",
                           cards=str(tmp_path / "sets" / "mine.toml")):
        pass
    assert json.loads(path.read_text())["setup"]["cards"] == "sets/mine.toml"
    with TableSession.open(path) as again:
        assert again.record.setup.cards.source == "sets/mine.toml"
    (tmp_path / "p").mkdir()
    (tmp_path / "r").mkdir()
    pos = dict(POSITION, cards="../sets/mine.toml")
    (tmp_path / "p" / "pos.json").write_text(json.dumps(pos))
    with TableSession.open(tmp_path / "r" / "g.json", source=str(tmp_path / "p" / "pos.json")):
        pass
    assert json.loads((tmp_path / "r" / "g.json").read_text())["setup"]["cards"] == \
        "../sets/mine.toml"


def test_entries_past_the_cap_are_refused(table, monkeypatch):
    from deduce.core import table_session

    monkeypatch.setattr(table_session, "MAX_ENTRIES", 1)
    table.handle("draw writings")
    reply = table.handle("take a1 refill knowledge")
    assert (reply.kind, reply.message) == ("refused", "the record holds the cap of 1 entries")
