"""``deduce case table``'s model: entries read notes and are saved at once, refusals leave
the record unchanged (a contradiction names a minimal conflicting set, a failed write
refuses the entry), undo, the record's format, and one session per record."""

from __future__ import annotations

import errno
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.core import records
from deduce.core.errors import ContradictionError, InputError
from deduce.models.casenotes.table import TableSession, find_source
from tests.casenotes.helpers import TINY
from tests.casenotes.test_play import QUESTIONS

NOTES = [  # (source, rule): notes 0 to 5
    ("Location 1: The Stable", "thief == Bob"),
    ("Location 2: The Eel Pond", "Ann == cat"),
    ("Location 2: The Eel Pond", "motive == 'envy'"),
    ("Location 12: The Yard", "Ann == dog"),
    ("Location 2: The Annex", "Cy == pos[3]"),
    (None, "Bob == pos[1]"),
]


@pytest.fixture
def case_file(tmp_path):
    text = TINY + QUESTIONS + "".join(
        f'\n[[note]]\n{f"source = {src!r}" if src else ""}\ntext = "{rule}"\nrule = """{rule}"""\n'
        for src, rule in NOTES)
    path = tmp_path / "tiny.toml"
    path.write_text('title = "Tiny"\n' + text, encoding="utf-8")
    return path


@pytest.fixture
def session(tmp_path, case_file):
    with TableSession.open(tmp_path / "r.json", case=str(case_file)) as s:
        yield s


def saved(tmp_path) -> dict:
    return json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))


def test_a_new_record_names_its_case_from_its_own_folder(tmp_path, case_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    with TableSession.open("games/r.json", case="tiny.toml") as s:
        assert s.created and s.read == []
    assert json.loads((tmp_path / "games" / "r.json").read_text()) == {
        "game": "case-notes", "case": "../tiny.toml", "read": []}
    monkeypatch.chdir(tmp_path / "games")  # found from anywhere
    with TableSession.open("r.json", case="ignored.toml") as s:
        assert not s.created and s.case.title == "Tiny"


def test_visits_and_notes_are_saved_before_the_reply(session, tmp_path):
    reply = session.handle("visit eel pond")
    assert reply.kind == "accepted" and reply.message == "visited Location 2: The Eel Pond: read notes 1, 2"
    assert saved(tmp_path)["read"] == [1, 2]
    assert reply.reading.answers == (("Ann", "Bob", "Cy"), ("envy",))
    reply = session.handle("note 0")
    assert reply.message == 'read note 0 (Location 1: The Stable): "thief == Bob"'
    assert reply.reading.answers == (("Bob",), ("envy",)) and reply.reading.ready
    assert saved(tmp_path) == {"game": "case-notes", "case": str(tmp_path / "tiny.toml"),
                               "read": [1, 2, 0]}


@pytest.mark.parametrize("text, source", [
    ("1", "Location 1: The Stable"), ("location 12", "Location 12: The Yard"),
    ("٢ ", None), ("yard", "Location 12: The Yard"), ("'the eel pond'", "Location 2: The Eel Pond"),
    ("annex", "Location 2: The Annex"),
])
def test_a_source_is_named_by_its_number_or_by_the_alias_rule(session, text, source):
    reply = session.handle(f"visit {text}")
    if source is None:  # Arabic-Indic 2: a number, and two locations carry it
        assert reply.code == 2 and reply.message == (
            "visit SOURCE: location 2 is ambiguous: could be Location 2: The Eel Pond, "
            "Location 2: The Annex")
    else:
        assert reply.kind == "accepted" and reply.message.startswith(f"visited {source}: ")


def test_unknown_sources_and_notes_are_refused_by_name(session, tmp_path):
    refusals = {line: session.handle(line) for line in (
        "visit 7", "visit stabel", "visit", "note 6", "note ²", "note", "look 1", "undo now")}
    assert {k: (r.kind, r.code) for k, r in refusals.items()} == {
        k: ("refused", 2) for k in refusals}
    assert refusals["visit 7"].message == \
        "visit SOURCE: no location numbered 7: the locations are numbered 1, 2, 12"
    assert refusals["visit stabel"].message == \
        "visit SOURCE: unknown location 'stabel'; did you mean Location 1: The Stable?"
    assert refusals["note 6"].message == "note N: expected a note number from 0 to 5, got '6'"
    assert refusals["note ²"].message == "note N: expected a note number from 0 to 5, got '²'"
    assert refusals["look 1"].message.endswith("(type help)")
    assert saved(tmp_path)["read"] == []
    assert session.handle("x" * 1001).message == \
        "line too long: more than the cap of 1,000 characters"


def test_a_contradiction_is_refused_with_a_minimal_set_and_nothing_changes(session, tmp_path):
    assert session.handle("visit 1").kind == "accepted"
    assert session.handle("visit eel").kind == "accepted"
    reply = session.handle("visit 12")
    assert (reply.kind, reply.code, reply.conflict) == ("refused", 3, [1, 3])
    assert reply.message.splitlines() == [
        "note 3 contradicts the notes read; these notes cannot all hold:",
        '  note 1 (Location 2: The Eel Pond): "Ann == cat"',
        '  note 3 (Location 12: The Yard): "Ann == dog"']
    assert session.read == [0, 1, 2] and saved(tmp_path)["read"] == [0, 1, 2]
    assert session.handle("visit 1").message == \
        "already read: every note of Location 1: The Stable (note 0)"


def test_undo_takes_back_entries_then_notes_read_before(session, tmp_path, case_file):
    session.handle("note 5")
    session.close()
    with TableSession.open(tmp_path / "r.json") as again:
        assert again.handle("visit eel").kind == "accepted"
        assert again.handle("undo").message == \
            "undone: visited Location 2: The Eel Pond: read notes 1, 2"
        assert saved(tmp_path)["read"] == [5]
        assert again.handle("undo").message == 'undone: read note 5: "Bob == pos[1]"'
        reply = again.handle("undo")
        assert (reply.kind, reply.message) == ("refused", "nothing to undo")
        assert saved(tmp_path)["read"] == []


def test_show_answers_and_why_use_the_notes_read(session):
    session.handle("note 0")
    show = session.handle("show")
    assert (show.kind, show.view) == ("info", "show")
    cells = dict(zip((c.name for c in session.oracle.model.cells), show.reading.cells))
    assert cells["thief"] == ("Bob",) and cells["motive"] == ("debt", "envy")
    why = session.handle("why thief != Ann")
    assert why.view == "why" and why.why.status == "forced" and why.why.notes == [0]
    assert session.handle("why motive == 'envy'").why.status == "open"
    assert session.handle("why motive == ").code == 2
    assert session.handle("answers").reading.answers == (("Bob",), ("debt", "envy"))


def test_failed_writes_refuse_the_entry_and_the_session_goes_on(session, tmp_path, monkeypatch):
    path = (tmp_path / "r.json").resolve()
    real, calls = records.os.replace, [0]

    def replace(src, dst, *a, **kw):  # the disk is full for the 1st and 3rd write
        if str(dst) == str(path):
            calls[0] += 1
            if calls[0] in (1, 3):
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(records.os, "replace", replace)
    reply = session.handle("visit 1")
    assert (reply.kind, reply.code) == ("refused", 2)
    assert reply.message == f"{tmp_path / 'r.json'}: cannot write the file: No space left on device"
    assert session.read == [] and saved(tmp_path)["read"] == []
    assert session.handle("visit 1").kind == "accepted"
    assert session.handle("undo").kind == "refused" and session.read == [0]
    assert session.handle("note 5").kind == "accepted"
    assert saved(tmp_path)["read"] == [0, 5]
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_one_session_per_record(session, tmp_path):
    with pytest.raises(InputError, match="already open"):
        TableSession.open(tmp_path / "r.json")


@pytest.mark.parametrize("data, message", [
    ([], "r.json: not a case notes table record: a record is a JSON object"),
    ({"game": "sherlock13", "players": []},
     "r.json: this is a Sherlock 13 record, not a case notes table record (use deduce s13 ...)"),
    ({"case": "zebra", "read": []},
     "r.json: field 'game': missing field (a case notes table record has \"game\": \"case-notes\")"),
    ({"game": "case-notes", "case": "zebra", "read": [], "seen": 1},
     "r.json: field 'seen': unknown field (allowed: game, case, read)"),
    ({"game": "case-notes", "read": []}, "r.json: field 'case': missing field"),
    ({"game": "case-notes", "case": "zebra", "read": [0, True]},
     "r.json: field 'read', item 1: expected a note number (a whole number), got 'True'"),
    ({"game": "case-notes", "case": "zebra", "read": [2, 2]},
     "r.json: field 'read', item 1: note 2 is listed twice"),
    ({"game": "case-notes", "case": "zebra", "read": [14]},
     "r.json: field 'read', item 0: no note 14: the case has notes 0 to 13"),
    ({"game": "case-notes", "case": "nosuchcase", "read": []},
     "r.json: field 'case': unknown case 'nosuchcase'; known: half-moon-mews, kew-orchid"),
])
def test_bad_records_are_refused_by_field(tmp_path, monkeypatch, data, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps(data))
    with pytest.raises(InputError) as info:
        TableSession.open("r.json")
    assert str(info.value).startswith(message)
    assert not (tmp_path / ".r.json.lock").exists()  # the lock is released


def test_records_that_cannot_be_made_or_contradict(tmp_path, case_file):
    with pytest.raises(InputError, match="the record does not exist yet: give --case CASE"):
        TableSession.open(tmp_path / "new.json")
    with pytest.raises(InputError, match="its folder does not exist"):
        TableSession.open(tmp_path / "no" / "r.json", case=str(case_file))
    (tmp_path / "r.json").write_text(json.dumps(
        {"game": "case-notes", "case": "tiny.toml", "read": [3, 0, 1]}))
    with pytest.raises(ContradictionError) as info:
        TableSession.open(tmp_path / "r.json")
    assert info.value.conflict == [1, 3]


def test_find_source_without_numbers():
    with pytest.raises(InputError, match="the locations are not numbered: use a name"):
        find_source("3", ["The Stable", "The Yard"])
    assert find_source("yard", ["The Stable", "The Yard"]) == "The Yard"


_WORDS = st.sampled_from(["visit", "note", "undo", "show", "answers", "why", "help", "v", "n",
                          "1", "2", "12", "٣", "²", "-1", "location", "eel", "'", '"', "thief",
                          "==", "Bob", "(", "[red]", "\x1b", "motive", "!=", "and"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(_WORDS, max_size=5).map(" ".join), max_size=6))
def test_random_lines_never_raise_and_the_record_stays_valid(tmp_path, case_file, lines):
    path = tmp_path / "random.json"
    path.unlink(missing_ok=True)
    with TableSession.open(path, case=str(case_file)) as s:
        for line in lines:
            reply = s.handle(line)
            assert reply.kind in ("accepted", "refused", "info", "quit")
            assert reply.kind != "refused" or reply.code in (2, 3)
            on_disk = json.loads(path.read_text(encoding="utf-8"))["read"]
            assert on_disk == s.read and len(set(on_disk)) == len(on_disk)
            assert s.oracle.consistent(on_disk)
