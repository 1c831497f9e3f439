"""Hostile input to the Sherlock 13 model: player names, records of other games, the setup
checked one answer at a time, long table lines and failed writes."""

from __future__ import annotations

import copy
import errno
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deduce.core.records as records
from deduce.core.errors import InputError
from deduce.models.sherlock13 import cards
from deduce.models.sherlock13.record import MAX_NAME, parse_record
from deduce.models.sherlock13.table import LONGEST_SUSPECT, Setup, TableSession, split_cards

BASE = {
    "game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"],
    "me": "Ann", "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"], "events": [],
}
HOSTILE_NAMES = ["[/bad]", "[bold]x", "E\x1b[2Jve\x07!\r"]


def _refused(data, *fragments):
    with pytest.raises(InputError) as info:
        parse_record(data, source="g.json")
    for f in fragments:
        assert f in str(info.value), str(info.value)
    return str(info.value)


# ----------------------------------------------------------------------------- player names
def test_names_with_markup_and_control_characters_are_kept_as_written():
    data = {**BASE, "players": HOSTILE_NAMES + ["Dan"], "me": "[/bad]",
            "events": [{"actor": "[/bad]", "action": "raise", "icon": "skull",
                        "raised": ["E\x1b[2Jve\x07!\r"]}]}
    rec = parse_record(copy.deepcopy(data))
    assert rec.names == HOSTILE_NAMES + ["Dan"]
    assert rec.to_json() == data  # JSON keeps the raw strings


@pytest.mark.parametrize("name, fragment", [
    ("", "needs a letter or a digit, got ''"),
    ("   ", "needs a letter or a digit"),
    ("\x07", "needs a letter or a digit, got '\\x07'"),
    ("[/]", "needs a letter or a digit"),
    ("x" * (MAX_NAME + 1), f"at most {MAX_NAME} characters (the cap), got {MAX_NAME + 1}"),
    ("Ann\nBen", "a player name is one line"),
    ("Ann\u2028", "a player name is one line"),
])
def test_refused_player_names(name, fragment):
    _refused({**BASE, "players": [name, "Ben", "Cat", "Dan"]}, "g.json, field 'players'", fragment)


def test_a_name_of_the_cap_is_accepted_and_duplicates_after_normalising_are_not():
    parse_record({**BASE, "players": ["x" * MAX_NAME, "Ben", "Cat", "Dan"], "me": "Ben"})
    _refused({**BASE, "players": ["Ann", "[ann]", "Cat", "Dan"]}, "field 'players'",
             "'Ann' and '[ann]' are the same name")


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.text(max_size=70), min_size=2, max_size=4))
def test_fuzz_player_names(names):
    """Any strings: a record or an input error naming the players field (or me)."""
    data = {**BASE, "players": names, "me": names[0],
            "hand": BASE["hand"] + ["Mary Morstan", "Irene Adler"][:5 - len(names) - 1]}
    try:
        rec = parse_record(data, source="g.json")
    except InputError as exc:
        assert "field 'players'" in str(exc) or "field 'hand'" in str(exc), str(exc)
        return
    assert rec.names == names


# ----------------------------------------------------------------------------- other games
def test_a_detective_story_record_is_named():
    story = {"game": "detective-story", "version": 1, "adventure": "a001", "turn": 3, "sm": 2,
             "luck": 1, "phase": "action"}
    msg = _refused(story)
    assert msg == ("g.json: this is a Detective Story case record, not a Sherlock 13 record "
                   "(use deduce story ...)")
    no_game = {k: v for k, v in story.items() if k != "game"}
    assert _refused(no_game) == msg


def test_records_of_other_or_no_known_game():
    assert _refused({**BASE, "game": "cluedo"}) == (
        "g.json, field 'game': this is a record of the game 'cluedo', not a Sherlock 13 "
        'record (expected "game": "sherlock13")')
    assert _refused({**BASE, "game": 13}) == 'g.json, field \'game\': expected "sherlock13", got a number (13)'
    no_game = {k: v for k, v in BASE.items() if k != "game"}
    assert _refused(no_game) == ('g.json, field \'game\': missing field (a Sherlock 13 record '
                                 'has "game": "sherlock13")')
    assert _refused({"title": "x", "grid": []}) == (
        "g.json: not a Sherlock 13 record: no field 'game' and fields it does not have "
        "('title', 'grid')")
    for value, kind in [([BASE], "a list"), ("sherlock13", "a string ('sherlock13')"),
                        (3, "a number (3)"), (None, "null"), (True, "true")]:
        assert _refused(value) == ("g.json: not a Sherlock 13 record: a record is a JSON "
                                   f"object, and this file holds {kind}")


# ----------------------------------------------------------------------------- setup, one answer at a time
def test_setup_checks_each_answer_as_given():
    s = Setup("NEW.json")
    for key, bad, fragment in [
        ("variant", "hard", "unknown variant 'hard'"),
        ("variant", 3, "got a number"),
        ("players", "Ann", "2, 3 or 4 players, not 1"),
        ("players", "Ann, ann!", "must differ"),
        ("players", "Ann,Ben,Cat,Dan,Eve", "not 5"),
    ]:
        with pytest.raises(InputError, match=fragment) as info:
            s.set(key, bad)
        assert str(info.value).startswith(f"NEW.json, field '{key}': ")
    assert s.set("variant", "EXPERT") == "expert"
    assert s.set("players", " Ann, Ben ,Cat") == ["Ann", "Ben", "Cat"]
    with pytest.raises(InputError, match="field 'me': unknown player 'Eve'"):
        s.set("me", "Eve")
    assert s.set("me", "ben") == 1
    for bad, fragment in [("sherlock,hudson", "with 3 players a hand has 4 cards, not 2"),
                          ("sherlock,sherlock,hudson,baynes", "twice: Sherlock Holmes"),
                          ("holmes,hudson,baynes,morstan", "ambiguous"),
                          ("sherlock,hudson,baynes,nobody", "unknown suspect 'nobody'")]:
        with pytest.raises(InputError, match=fragment):
            s.set("hand", bad)
    assert s.set("hand", "sherlock,hudson,baynes,morstan") == (0, 5, 10, 6)
    rec = s.record()
    assert (rec.variant, rec.names, rec.me, rec.hand) == ("expert", ["Ann", "Ben", "Cat"], 1, (0, 5, 10, 6))


def test_open_asks_for_missing_fields_with_the_lock_held(tmp_path):
    path = tmp_path / "new.json"
    asked = []

    def ask(key, setup):
        assert records.holds_lock(path)  # the lock comes before the first question
        asked.append(key)
        setup.set(key, {"players": "Ann,Ben", "me": "Ben",
                        "hand": "sherlock,hudson,baynes,morstan,adler"}[key])

    with TableSession.open(path, variant="standard", ask=ask) as session:
        assert session.created and asked == ["players", "me", "hand"]
    assert json.loads(path.read_text())["me"] == "Ben"
    with TableSession.open(path, variant="expert") as session:
        assert not session.created and session.record.variant == "standard"


def test_open_refuses_a_new_record_in_a_missing_folder(tmp_path):
    with pytest.raises(InputError) as info:
        TableSession.open(tmp_path / "no" / "g.json", variant="standard")
    assert str(info.value) == f"{tmp_path / 'no' / 'g.json'}: cannot create the record: its folder does not exist"
    (tmp_path / "file").write_text("")
    with pytest.raises(InputError, match="cannot create the record: a path in it is a file, not a folder"):
        TableSession.open(tmp_path / "file" / "g.json", variant="standard")


# ----------------------------------------------------------------------------- table lines
def _session(tmp_path, **kw):
    setup = dict(variant="standard", players="Ann,Ben,Cat,Dan", me="Ann", hand="sherlock,hudson,baynes")
    setup.update(kw)
    return TableSession.open(tmp_path / "g.json", **setup)


def test_count_digits_follow_core_numbers(tmp_path):
    with _session(tmp_path) as s:
        s.handle("raise Ann skull Cat")
        reply = s.handle("count Ben Dan book ²")
        assert (reply.kind, reply.code) == ("refused", 2)
        assert reply.message == "count ASKER TARGET ICON N: expected N (a count) from 0 to 5, got '²'"
        assert s.handle("count Ben Dan book 6").message.endswith("from 0 to 5, got '6'")
        assert s.handle("count Ben Dan book ٣").kind == "accepted"
        assert s.record.events[-1].count == 3


def test_splitting_names_looks_up_few_candidates_whatever_the_line(monkeypatch):
    calls = []
    real = cards.suspect_index

    def counting(text, **kw):
        calls.append(text)
        return real(text, **kw)

    monkeypatch.setattr(cards, "suspect_index", counting)
    assert split_cards(["Mary", "-", "Morstan", "Sherlock", "Holmes"]) == ("Mary - Morstan", "Sherlock Holmes")
    for words in (["word"] * 195, ["mary", "morstan"] * 97, ["."] * 499, ["a"] * 499):
        calls.clear()
        with pytest.raises(InputError, match="cannot tell the revealed card"):
            split_cards(words)
        assert LONGEST_SUSPECT == len("inspectorbradstreet")
        assert len(calls) <= 2 * LONGEST_SUSPECT, len(calls)
        assert all(len(c) <= 2 * LONGEST_SUSPECT for c in calls)


@pytest.mark.parametrize("line", [
    "exchange Ann left " + "word " * 195,
    "accuse Ann " + "x" * 975 + " wrong",
    "raise Ann " + "skull " * 160,
    "count Ann Ben " + "book " * 196 + "1",
    "raise Ann skull " + "Cat " * 245,
    '"' * 999,
])
def test_long_lines_within_the_cap_are_refused_with_a_reason(tmp_path, line):
    with _session(tmp_path) as s:
        assert len(line) <= 1000
        reply = s.handle(line)
        assert (reply.kind, reply.code) == ("refused", 2) and reply.message


def test_a_line_over_the_cap_is_refused_naming_it(tmp_path):
    with _session(tmp_path) as s:
        reply = s.handle("raise Ann skull " + "Cat " * 300)
        assert reply.message == "line too long: more than the cap of 1,000 characters"


# ----------------------------------------------------------------------------- failed writes
def _disk_full(monkeypatch, target, fail_calls):
    """``os.replace`` onto ``target`` fails with ENOSPC on the calls numbered ``fail_calls``."""
    real, seen = records.os.replace, [0]

    def replace(src, dst, *a, **kw):
        if str(dst) == str(target):
            seen[0] += 1
            if seen[0] in fail_calls:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(records.os, "replace", replace)


def test_failed_writes_refuse_entries_and_undo_and_the_session_goes_on(tmp_path, monkeypatch):
    with _session(tmp_path) as s:
        path = (tmp_path / "g.json").resolve()
        _disk_full(monkeypatch, path, {1, 3})
        before = path.read_text()
        reply = s.handle("raise Ann skull Cat")
        assert (reply.kind, reply.code) == ("refused", 2)
        assert reply.message == f"{tmp_path / 'g.json'}: cannot write the file: No space left on device"
        assert path.read_text() == before and s.record.events == []
        assert s.handle("raise Ann skull Cat").kind == "accepted"
        after_raise = path.read_text()
        reply = s.handle("undo")
        assert reply.kind == "refused" and "No space left on device" in reply.message
        assert path.read_text() == after_raise and len(s.record.events) == 1
        assert s.handle("count Ben Dan book 1").kind == "accepted"
        assert [e["action"] for e in json.loads(path.read_text())["events"]] == ["raise", "count"]
        assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []
