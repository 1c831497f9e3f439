"""The case notes page of ``deduce serve`` through Starlette's test client: a record made
from the page (a shipped case, as ``deduce case table --case`` makes it), entries by
taps equal to the terminal session's lines on a referee record, undo, refusals and a
contradiction (its minimal set of notes; the file unchanged), a stale view refused, the
grid, the answers, why RULE and the explain steps, and hostile names escaped."""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.core.errors import InputError
from deduce.models.casenotes.advice import why_rule
from deduce.models.casenotes.explain import explain_case
from deduce.models.casenotes.format import load_case
from deduce.models.casenotes.table import TableSession
from deduce.web.casenotes import shipped_names
from deduce.web.tables import Tables
from tests.casenotes.helpers import TINY
from tests.casenotes.test_play import QUESTIONS
from tests.web.helpers import FETCH, client, version_of

HOSTILE = "<script>alert(1)</script>"
NOTES = [  # (source, rule, text): notes 0 to 4; 1 and 3 cannot both hold
    ("Location 1: The Stable", "thief == Bob", "thief == Bob"),
    ("Location 2: The Eel Pond", "Ann == cat", "Ann == cat"),
    ("Location 2: The Eel Pond", "motive == 'envy'", "motive == 'envy'"),
    (f"Location 3: {HOSTILE}", "Ann == dog", f"Ann == dog {HOSTILE}"),
    (None, "Bob == pos[1]", "Bob == pos[1]"),
]


@pytest.fixture
def folder(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    text = TINY + QUESTIONS + "".join(
        f'\n[[note]]\n{f"source = {src!r}" if src else ""}\ntext = {text!r}\nrule = """{rule}"""\n'
        for src, rule, text in NOTES)
    (games / "tiny.toml").write_text('title = "Tiny"\n' + text, encoding="utf-8")
    return games


@pytest.fixture
def served(folder):
    """The tiny case's record ``t.json`` served (as ``deduce serve t.json``), its client."""
    TableSession.open(folder / "t.json", case=str(folder / "tiny.toml")).close()
    (folder / "start.json").write_bytes((folder / "t.json").read_bytes())
    tables = Tables(folder)
    tables.open(folder / "t.json")
    yield tables, client(tables)
    tables.close()


def post(c, slug: str, version: str | None = None, **fields):
    version = version or c.get(f"/r/{slug}/version").json()["version"]
    return c.post(f"/r/{slug}/act", data={"version": version, **fields}, headers=FETCH)


def on_disk(folder, name: str) -> dict:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def referee(folder, lines: list[str], name: str = "ref.json") -> dict:
    """The record the terminal's session writes for ``lines`` from t.json as it started
    (``start.json``, kept by the fixture)."""
    (folder / name).write_bytes((folder / "start.json").read_bytes())
    with TableSession.open(folder / name) as s:
        for line in lines:
            assert s.handle(line).kind == "accepted", line
    return on_disk(folder, name)


def test_a_record_made_from_the_page_is_the_terminals(tmp_path):
    games = tmp_path / "g"
    games.mkdir()
    tables = Tables(games)
    c = client(tables)
    try:
        index = c.get("/?new=case-notes")
        assert "New Case notes record" in index.text
        k = shipped_names().index("lantern-street")
        answer = c.post("/new", data={"game": "case-notes", "name": "n", "case": str(k)},
                        follow_redirects=False)
        assert (answer.status_code, answer.headers["location"]) == (303, "/r/n")
        TableSession.open(tmp_path / "ref.json", case="lantern-street").close()
        assert on_disk(games, "n.json") == on_disk(tmp_path, "ref.json") == {
            "game": "case-notes", "case": "lantern-street", "read": []}
        title = load_case("lantern-street").title
        assert html.escape(f"Case notes, {title}; 0 of 15 notes read") in c.get("/").text
    finally:
        tables.close()


@pytest.mark.parametrize("fields, words", [
    ({}, "new record, field 'case': choose a case"),
    ({"case": "99"}, "new record, field 'case': not one of the 4 choices shown"),
])
def test_a_bad_setup_is_refused_naming_the_field(tmp_path, fields, words):
    tables = Tables(tmp_path)
    try:
        answer = client(tables).post("/new", data={"game": "case-notes", "name": "n", **fields},
                                     headers=FETCH)
        assert answer.status_code == 422 and words in answer.json()["message"]
        assert not (tmp_path / "n.json").exists()
    finally:
        tables.close()


def test_a_file_that_would_shadow_the_shipped_case_is_refused(tmp_path):
    (tmp_path / "zebra").write_text("not a case")
    tables = Tables(tmp_path)
    try:
        k = shipped_names().index("zebra")
        answer = client(tables).post("/new", data={"game": "case-notes", "name": "n",
                                                   "case": str(k)}, headers=FETCH)
        assert answer.status_code == 422
        assert "would be read instead of the shipped case 'zebra'" in answer.json()["message"]
        assert not (tmp_path / "n.json").exists()
    finally:
        tables.close()


def test_entries_by_taps_equal_the_terminals_lines_and_undo(served, folder):
    tables, c = served
    sources = tables.get("t").session.case.sources
    steps = [({"op": "visit", "source": str(sources.index("Location 2: The Eel Pond"))},
              'visit "Location 2: The Eel Pond"'),
             ({"op": "note", "note": "4"}, "note 4"),
             ({"op": "visit", "source": "0"}, "visit 1"),
             ({"op": "undo"}, "undo")]
    lines = []
    for fields, line in steps:
        answer = post(c, "t", **fields)
        assert answer.status_code == 200 and answer.json()["kind"] == "accepted"
        lines.append(line)
        assert on_disk(folder, "t.json") == referee(folder, lines)
    assert on_disk(folder, "t.json")["read"] == [1, 2, 4]
    assert answer.json()["message"] == "undone: visited Location 1: The Stable: read note 0"


def test_the_views_show_what_the_session_and_the_models_say(served, folder):
    tables, c = served
    post(c, "t", op="visit", source="0")
    post(c, "t", op="note", note="4")
    session = tables.get("t").session
    reading = session.reading()
    page = c.get("/r/t").text
    shown = [int(n) for n in re.findall(r'<li data-possible="(\d+)">', page)]
    assert shown == [len(a) for a in reading.answers] and len(shown) == 2
    assert "2 of 5 notes read" in page
    # the grid: one row per key item, every cell as the reading has it
    grid = re.search(r'<section id="grid">.*?</section>', page, re.S).group(0)
    assert len(re.findall(r"<tr><th scope=\"row\">", grid)) == 3
    assert grid.count('class="solved') == sum(1 for v in reading.cells if len(v) == 1) > 0
    assert grid.count('class="open') == sum(1 for v in reading.cells if len(v) > 1) > 0
    # why RULE, as the session's why says
    rule = "Bob == pos[1]"
    page = c.get("/r/t", params={"why": rule}).text
    status = why_rule(session.case, rule, session.read).status
    assert status == "forced" and "is <strong>forced</strong>" in page
    assert html.escape(session.case.notes[4].describe()) in page
    bad = c.get("/r/t", params={"why": "Ann == <b>"}).text
    assert "<b>" not in bad and "&lt;b&gt;" in bad and 'class="why refused"' in bad
    # explain: the steps from the notes read, step 1 shown with its reasons
    e = explain_case(session.case, session.read)
    plain = c.get("/r/t").text  # made only when asked for
    assert 'id="explain-show"' in plain and '<li id="step-' not in plain
    listed = c.get("/r/t", params={"why": "#"}).text
    assert listed.count('<li id="step-') == len(e.steps) > 1 and "step-shown" not in listed
    page = c.get("/r/t", params={"why": "#1"}).text
    assert f"{len(e.steps)} steps from the 2 notes read" in page
    assert page.count('<li id="step-') == len(e.steps)
    shown_step = re.search(r'<div class="step shown".*?</div></div>', page, re.S).group(0)
    assert f"Step 1 of {len(e.steps)}" in shown_step
    assert html.escape(", ".join(e.steps[0].texts)) in shown_step
    for i in e.steps[0].notes:
        assert html.escape(session.case.notes[i].describe()) in shown_step
    assert "no step 99: the explanation has steps 1 to" in c.get("/r/t", params={"why": "#99"}).text
    main = c.get("/r/t/main", params={"why": "#1"}).json()
    assert main["version"] == c.get("/r/t/version").json()["version"] and "step-shown" in main["html"]


def test_a_contradiction_is_refused_with_its_minimal_set_and_the_file_unchanged(served, folder):
    _, c = served
    post(c, "t", op="note", note="1")
    before = (folder / "t.json").read_bytes()
    answer = post(c, "t", op="visit", source="2")  # Location 3: note 3, Ann == dog
    assert answer.status_code == 422 and answer.json()["kind"] == "refused"
    message = answer.json()["message"]
    assert message.startswith("note 3 contradicts the notes read; these notes cannot all hold:")
    assert "note 1 (Location 2: The Eel Pond)" in message
    assert "Refused: contradiction" in answer.json()["html"]
    assert (folder / "t.json").read_bytes() == before
    # refusals of the session and of the form: the file unchanged
    for fields, words in [({"op": "note", "note": "1"}, "note 1 is already read"),
                          ({"op": "note", "note": "9"}, "field 'note': not one of the 5 choices"),
                          ({"op": "visit"}, "choose the location visited"),
                          ({"op": "dance"}, "expected visit, note or undo")]:
        answer = post(c, "t", **fields)
        assert answer.status_code == 422 and words in answer.json()["message"], answer.json()
        assert (folder / "t.json").read_bytes() == before


def test_a_stale_view_is_refused_and_hostile_names_are_escaped(served, folder):
    _, c = served
    page = c.get("/r/t").text
    old = version_of(page)
    assert HOSTILE not in page and html.escape(HOSTILE) in page  # a location's name
    post(c, "t", op="note", note="0")
    before = (folder / "t.json").read_bytes()
    answer = post(c, "t", version=old, op="note", note="2")
    assert answer.status_code == 409 and answer.json()["kind"] == "stale"
    assert (folder / "t.json").read_bytes() == before
    answer = post(c, "t", op="visit", source="2")  # the hostile note read: escaped
    assert HOSTILE not in answer.json()["html"] and html.escape(HOSTILE) in answer.json()["html"]
    assert HOSTILE not in answer.json()["html"].replace(html.escape(HOSTILE), "")
    # a plain form (no script) gets the whole page
    plain = c.post("/r/t/act", data={"version": c.get("/r/t/version").json()["version"],
                                     "op": "undo"})
    assert plain.status_code == 200 and plain.text.startswith("<!doctype html>")


def test_the_record_is_locked_polled_and_needs_the_token(served, folder):
    tables, c = served
    with pytest.raises(InputError, match="already open"):  # the served session holds it
        TableSession.open(folder / "t.json")
    ver = c.get("/r/t/version").json()["version"]
    assert ver == version_of(c.get("/r/t").text) == c.get("/r/t/main").json()["version"]
    post(c, "t", op="note", note="0")
    assert c.get("/r/t/version").json()["version"] not in (ver, None)
    guarded = client(tables, token="s3cret")
    for route in ("/r/t", "/r/t/version", "/r/t/main"):
        assert guarded.get(route).status_code == 403
    assert guarded.post("/r/t/act", data={"op": "undo"}).status_code == 403
    assert on_disk(folder, "t.json")["read"] == [0]
    assert guarded.get("/r/t?token=s3cret").status_code == 200  # the cookie, then the page


@pytest.mark.parametrize("read, code, words", [
    ([1, 3], 3, "the notes the record has read cannot all hold; a minimal conflicting set:"),
    ([9], 2, "field 'read', item 0: no note 9: the case has notes 0 to 4"),
])
def test_deduce_serve_refuses_a_bad_or_contradictory_record(folder, read, code, words):
    from click.testing import CliRunner

    from deduce.cli.main import cli

    path = folder / "bad.json"
    path.write_text(json.dumps({"game": "case-notes", "case": "tiny.toml", "read": read}))
    result = CliRunner().invoke(cli, ["serve", str(path), "--port", "0", "--dir", str(folder)])
    assert result.exit_code == code and words in result.output
    assert not [p for p in folder.iterdir() if p.name.endswith(".lock")]


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["visit", "note", "undo"]), st.integers(0, 4)),
                max_size=6))
def test_any_taps_give_the_terminals_replies_and_record(served, folder, taps):
    """Whatever is tapped (refused ones too), each reply and the record are those of the
    terminal's session given the same lines."""
    tables, c = served
    session = tables.get("t").session
    while session.read:  # back to the start (hypothesis reuses the fixture)
        session.handle("undo")
    sources = session.case.sources
    (folder / "ref.json").write_bytes((folder / "start.json").read_bytes())
    with TableSession.open(folder / "ref.json") as ref:
        for op, k in taps:
            if op == "visit":
                fields, line = {"source": str(k % len(sources))}, f'visit "{sources[k % len(sources)]}"'
            elif op == "note":
                fields, line = {"note": str(k)}, f"note {k}"
            else:
                fields, line = {}, "undo"
            got = post(c, "t", op=op, **fields).json()
            want = ref.handle(line)
            assert (got["kind"], got["message"]) == (want.kind, want.message)
            assert on_disk(folder, "t.json")["read"] == on_disk(folder, "ref.json")["read"]
