"""The Detective Story page of ``deduce serve`` through Starlette's test client, on the
tiny test campaign (a late case: its solve takes milliseconds): a record made from the
page equals ``deduce story new``'s, answers by taps give the record the terminal's
session writes for the same lines, mid-phase answers are kept until the phase is played,
undo across phases, refusals with the terminal's reason (the file unchanged), a stale
view refused, the solve in a thread of its own (stopped when the record is closed), the
views (state, odds, advice) as the models say, and hostile names escaped."""

from __future__ import annotations

import html
import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.cli.main import cli
from deduce.core.errors import InputError
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.advice import advise
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.odds import state_report
from deduce.models.detective_story.table import TableSession
from deduce.web import pages, story
from deduce.web.story import answer_choices, d6_faces
from deduce.web.tables import Tables
from tests.detective_story.conftest import TINY, write_campaign
from tests.detective_story.test_table import Script
from tests.web.helpers import FETCH, client, version_of

HOSTILE = "<script>alert(1)</script>"


@pytest.fixture
def tiny(tmp_path):
    return write_campaign(tmp_path / "tiny", TINY)


def late_record(tiny, **changes) -> dict:
    """A tiny-campaign case at turn 11 with the Villain known (as tests/detective_story)."""
    rec = new_record(load_campaign(str(tiny)), "a001", seed=2, data_dir=str(tiny))
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True, **changes)
    return rec


@pytest.fixture
def served(tmp_path, tiny):
    """``late.json`` served (as ``deduce serve late.json``), solved; its start kept."""
    folder = tmp_path / "games"
    folder.mkdir()
    text = json.dumps(late_record(tiny))
    (folder / "late.json").write_text(text)
    (tmp_path / "start.json").write_text(text)
    tables = Tables(folder)
    tables.open(folder / "late.json").session.wait_solved()
    yield tables, client(tables), folder
    tables.close()


def post(c, slug: str = "late", version: str | None = None, **fields):
    version = version or c.get(f"/r/{slug}/version").json()["version"]
    return c.post(f"/r/{slug}/act", data={"version": version, **fields}, headers=FETCH)


def pick(c, label: str, slug: str = "late"):
    """Tap the chip whose label starts with ``label`` (its index, as the page posts it)."""
    page = c.get(f"/r/{slug}").text
    labels = re.findall(r'<input type="radio" name="pick" value="(\d+)" id="pick-\d+"(?: checked)?>'
                        r'<label for="pick-\d+">([^<]*)</label>', page)
    value = next(v for v, text in labels if html.unescape(text).startswith(label))
    return post(c, slug, pick=value)


def referee(tmp_path, lines: list[str]) -> tuple[dict, Script]:
    """The record the terminal's session writes for ``lines`` (piped) from the start."""
    path = tmp_path / "ref.json"
    path.write_bytes((tmp_path / "start.json").read_bytes())
    port = Script(lines)
    with TableSession.open(str(path), None, port) as session:
        session.prepare()
        session.run()
    return json.loads(path.read_text()), port


def on_disk(folder, name: str = "late.json") -> dict:
    return json.loads((folder / name).read_text())


def test_answers_by_taps_write_the_terminals_record_and_undo_crosses_phases(served, tmp_path):
    _, c, folder = served
    start = on_disk(folder)
    answer = pick(c, "Wait")
    assert (answer.status_code, answer.json()["message"]) == (200, "turn 11: Wait")
    assert on_disk(folder) == referee(tmp_path, ["Wait"])[0]  # the Action phase is saved
    answer = pick(c, "2")  # the Encounter Matrix: 2d6 2
    assert answer.json()["message"] == "encounter: 2d6 2+1 = 3\nSaved: turn 12, SM 1, Luck 2."
    assert on_disk(folder) == referee(tmp_path, ["Wait", "2"])[0]
    assert on_disk(folder)["turn"] == 12
    answer = post(c, op="undo")  # back to turn 11's Encounter Matrix
    assert answer.json()["message"] == "Undone: back to turn 11 (encounter), SM 1, Luck 2."
    assert on_disk(folder) == referee(tmp_path, ["Wait", "2", "undo"])[0]
    post(c, op="undo")
    assert on_disk(folder) == start | {"phase": "action", "waited": False}
    answer = post(c, op="undo")
    assert answer.status_code == 422 and answer.json()["message"] == "nothing to undo in this session"


def test_answers_mid_phase_are_kept_until_the_phase_is_played(served, tmp_path):
    tables, c, folder = served
    before = (folder / "late.json").read_bytes()
    assert pick(c, "Investigate").json()["message"] == "Turn 11: the Action: Investigate"
    answer = post(c, line="8")  # typed as in the terminal
    assert answer.json()["message"] == "Investigate: the 2d6 (natural total; the engine adds +1): 8"
    view = answer.json()["html"]
    # the session's advice on re-rolling the 8, and the question after it, keep preselected
    assert "Investigate: dice 8, total 9 -&gt; important information: Clue event" in view
    assert re.search(r'value="0" id="pick-0" checked><label for="pick-0">keep</label>', view)
    assert "This phase so far" in view and (folder / "late.json").read_bytes() == before
    post(c, pick="0")  # keep
    assert tables.get("late").session.typed == ["Investigate", "8", "keep"]
    answer = pick(c, "4: m421")  # the Clue line's d6: 4, a letter; then a Brains test
    assert "Brains test" in answer.json()["html"] and (folder / "late.json").read_bytes() == before
    answer = post(c, op="undo")  # the phase starts again: nothing saved
    assert answer.json()["message"] == "undone: this phase starts again"
    assert tables.get("late").session.typed == [] and (folder / "late.json").read_bytes() == before
    for line in ["Investigate", "8", "keep", "4", "pass"]:
        assert post(c, line=line).json()["kind"] == "accepted", line
    expected, _ = referee(tmp_path, ["Investigate", "8", "keep", "4", "pass"])
    assert on_disk(folder) == expected and expected["phase"] == "encounter"


def test_refusals_are_the_terminals_and_leave_the_file_unchanged(served, tmp_path):
    _, c, folder = served
    before = (folder / "late.json").read_bytes()
    _, port = referee(tmp_path, ["fly<b>", "Investigate", "13"])
    cases = [({"line": "fly<b>"}, port.refused[0]),
             ({"line": "quit"}, "quit and finish are for the terminal"),
             ({"line": "Investigate"}, None),
             ({"line": "13"}, port.refused[1]),
             ({"line": "7" * 1001}, "line too long: more than the cap of 1,000 characters"),
             ({"pick": "99"}, "field 'pick': not one of the 11 choices shown")]
    for fields, message in cases:
        answer = post(c, **fields)
        if message is None:
            assert answer.json()["kind"] == "accepted"
            continue
        assert answer.status_code == 422 and answer.json()["kind"] == "refused"
        assert message in answer.json()["message"]
        assert (folder / "late.json").read_bytes() == before
    refused = post(c, line="fly<b>").json()["html"]
    assert "fly<b>" not in refused and "fly&lt;b&gt;" in refused


def test_a_stale_view_is_refused(served):
    _, c, folder = served
    old = version_of(c.get("/r/late").text)
    pick(c, "Investigate")  # another device answers the Action: the version changes
    before = (folder / "late.json").read_bytes()
    answer = post(c, version=old, line="Wait")
    assert answer.status_code == 409 and answer.json()["kind"] == "stale"
    assert (folder / "late.json").read_bytes() == before


def test_the_views_are_the_models(served):
    tables, c, folder = served
    table = tables.get("late").session
    page = c.get("/r/late").text
    cf = table.session.cf
    advice = advise(cf.ctx, table.case, "action", False, table.session.solver)
    bars = [(html.unescape(a), float(p)) for a, p in
            re.findall(r'<li class="bar" data-action="([^"]+)" data-p="([^"]+)">', page)]
    assert bars == advice.actions and len(bars) == 4
    report = state_report(cf.ctx, table.case, "action", False)
    odds = re.findall(r'<div class="odds" data-action="([^"]+)">', page)
    assert odds == [o["action"] for o in report["odds"] if "rows" in o or o.get("heals")]
    for o in report["odds"]:
        for row in o.get("rows", []):
            assert f'<td class="p">{100 * row["p"]:.1f}%</td><td>{html.escape(row["text"])}' in page
    assert f"Best Action: {advice.best} · P(arrest by turn 12) {100 * advice.p_win:.1f}%" in page
    assert "a001 The Test Case · turn 11/12 (action) · SM 1 · Luck 2" in page
    assert "The Forger: 100.0%" in page
    index = c.get("/").text
    assert "Detective Story, a001 The Test Case; turn 11 (action), SM 1, Luck 2" in index


def test_a_record_made_from_the_page_is_story_news(tmp_path, tiny, monkeypatch):
    monkeypatch.setattr(story, "CAMPAIGN_DIR", str(tiny))
    monkeypatch.setattr(story.StoryTable, "start_solve", lambda self: None)  # no fresh solve
    folder = tmp_path / "games"
    folder.mkdir()
    tables = Tables(folder)
    c = client(tables)
    try:
        index = c.get("/?new=detective-story").text
        assert "New Detective Story record" in index and "a001 The Test Case" in index
        traits = [str(T.STARTING_TRAITS.index(t)) for t in ("Aware", "Science", "Tracking")]
        answer = c.post("/new", data={"game": "detective-story", "name": "s", "adventure": "0",
                                      "seed": "7", "trait": traits, "equipment": "0"},
                        follow_redirects=False)
        assert (answer.status_code, answer.headers["location"]) == (303, "/r/s")
        result = CliRunner().invoke(cli, ["story", "new", "--data", str(tiny), "--adventure",
                                          "a001", "--seed", "7", "--traits",
                                          "Aware,Science,Tracking", "--equipment", "m413",
                                          str(tmp_path / "ref.json")])
        assert result.exit_code == 0, result.output
        assert on_disk(folder, "s.json") == json.loads((tmp_path / "ref.json").read_text())
        # unsolved: the state shows, an answer is refused, nothing written
        page = c.get("/r/s").text
        assert "Solving the whole case once" in page and "turn 1/12" in page
        before = (folder / "s.json").read_bytes()
        answer = post(c, "s", line="Explore")
        assert answer.status_code == 422 and "nothing was entered" in answer.json()["message"]
        assert (folder / "s.json").read_bytes() == before
        fresh = c.post("/new", data={"game": "detective-story", "name": "f",
                                     "trait": traits[:3]}, follow_redirects=False)
        assert fresh.status_code == 303 and isinstance(on_disk(folder, "f.json")["seed"], int)
    finally:
        tables.close()


@pytest.mark.parametrize("fields, words", [
    ({"trait": ["0", "1"]}, "field 'traits': choose 3 different Traits"),
    ({"trait": ["0", "1", "1"]}, "field 'traits': choose 3 different Traits"),
    ({"trait": ["0", "1", "99"]}, "field 'trait': not one of the 11 choices shown"),
    ({"seed": "seven"}, "field 'seed': expected a seed from 0 to"),
    ({"adventure": "5"}, "field 'adventure': not one of the 1 choices shown"),
])
def test_a_bad_setup_is_refused_naming_the_field(tmp_path, tiny, monkeypatch, fields, words):
    monkeypatch.setattr(story, "CAMPAIGN_DIR", str(tiny))
    tables = Tables(tmp_path)
    try:
        data = {"game": "detective-story", "name": "s", "trait": ["0", "1", "6"], **fields}
        answer = client(tables).post("/new", data=data, headers=FETCH)
        assert answer.status_code == 422 and words in answer.json()["message"]
        assert not (tmp_path / "s.json").exists()
    finally:
        tables.close()


def test_the_solve_runs_in_its_own_thread_and_stops_with_the_record(tmp_path, tiny):
    rec = new_record(load_campaign(str(tiny)), "a001", seed=2, data_dir=str(tiny))
    (tmp_path / "fresh.json").write_text(json.dumps(rec))
    tables = Tables(tmp_path)
    served = tables.open(tmp_path / "fresh.json")  # returns before the solve is done
    table = served.session
    assert table.solve == "solving" and table.thread.is_alive()
    solving = served.version
    tables.close()  # stops the solve at its next step, and lets the lock go
    assert table.wait_solved(60) and table.solve == "stopped"
    assert served.version != solving and not (tmp_path / ".fresh.json.lock").exists()


@pytest.mark.parametrize("use_cache", [True, False])
def test_the_served_solve_uses_the_cache_unless_told_not_to(tmp_path, tiny, monkeypatch,
                                                            use_cache):
    """``deduce serve --no-cache`` (``pages.USE_CACHE``) reaches the session's solve."""
    asked = []
    monkeypatch.setattr(TableSession, "prepare",
                        lambda self, use_cache=True: asked.append(use_cache) or "memory")
    monkeypatch.setattr(pages, "USE_CACHE", use_cache)
    (tmp_path / "h.json").write_text(json.dumps(late_record(tiny)))
    tables = Tables(tmp_path)
    try:
        assert tables.open(tmp_path / "h.json").session.wait_solved(60)
    finally:
        tables.close()
    assert asked == [use_cache]


def test_a_hostile_campaign_name_is_escaped(tmp_path):
    files = dict(TINY, **{"adventures.toml": TINY["adventures.toml"].replace(
        "The Test Case", HOSTILE.replace('"', "'"))})
    tiny = write_campaign(tmp_path / "hostile", files)
    (tmp_path / "h.json").write_text(json.dumps(late_record(tiny)))
    tables = Tables(tmp_path)
    try:
        tables.open(tmp_path / "h.json").session.wait_solved()
        c = client(tables)
        for text in (c.get("/r/h").text, c.get("/").text):
            assert HOSTILE not in text and html.escape(HOSTILE) in text
    finally:
        tables.close()


@pytest.mark.parametrize("question, lines", [
    ("1d3: Luck lost for Dr. John Watson [1-3]", ["1", "2", "3"]),
    ("Encounter Matrix (turn 11): the 2d6 (the engine adds +1) [2-12]",
     [str(n) for n in range(2, 13)]),
    ("Investigate: the 2d6 (natural total; the engine adds +1) [N, or N/M when 1 Luck was "
     "spent to re-roll]", [str(n) for n in range(2, 13)]),
    ("Explore: the 2d6 (natural total; the engine adds +0) [N]", [str(n) for n in range(2, 13)]),
    ("Investigate: the new 2d6 if 1 Luck was spent to re-roll [N, or keep]",
     ["keep"] + [str(n) for n in range(2, 13)]),
    ("Brains test: pass on 2d6 <= 9 [the 2d6 total, or pass/fail]",
     ["pass", "fail"] + [str(n) for n in range(2, 13)]),
    ("1d6, the Clue line [1-3: m420 (A clue); 4-6: m421 (A letter)]",
     ["1", "2", "3", "4", "5", "6"]),
    ("the fight (R009), played at the table: how it ended [won, won wounded, escaped]",
     ["won", "won wounded", "escaped"]),
    ("the Ally drawn at random [m404 (Inspector), m410 (Witness)]", ["m404", "m410"]),
])
def test_the_chips_of_each_kind_of_question(question, lines):
    assert [line for line, _ in answer_choices(question)] == lines


def test_d6_faces_are_labelled_by_the_hint():
    assert d6_faces("1-3: m420 (A clue); 4-6: m421 (A letter)")[3] == ("4", "4: m421 (A letter)")
    assert d6_faces("2,5: x") == [("2", "2: x"), ("5", "5: x")]
    assert [f for f, _ in d6_faces("as the paragraph says")] == ["1", "2", "3", "4", "5", "6"]


def test_the_record_is_locked_polled_and_needs_the_token(served):
    tables, c, folder = served
    with pytest.raises(InputError, match="already open"):  # the served session holds it
        TableSession.open(str(folder / "late.json"), None, Script([]))
    ver = c.get("/r/late/version").json()["version"]
    assert ver == version_of(c.get("/r/late").text) == c.get("/r/late/main").json()["version"]
    pick(c, "Investigate")  # a mid-phase answer changes the view, so the version too
    assert c.get("/r/late/version").json()["version"] != ver
    guarded = client(tables, token="s3cret")
    for route in ("/r/late", "/r/late/version", "/r/late/main"):
        assert guarded.get(route).status_code == 403
    assert guarded.post("/r/late/act", data={"op": "undo"}).status_code == 403
    assert tables.get("late").session.typed == ["Investigate"]


def test_a_phase_whose_write_fails_is_refused_and_played_again(served, monkeypatch):
    tables, c, folder = served
    from deduce.models.detective_story import table as story_table

    def full(path, data):
        raise InputError("cannot write: no space left on device", where=str(path))

    before = (folder / "late.json").read_bytes()
    pick(c, "Investigate")
    post(c, line="8")
    post(c, line="keep")
    post(c, line="4")
    monkeypatch.setattr(story_table, "write_json_atomic", full)
    answer = post(c, line="pass")  # the phase's last answer: its write fails
    assert answer.status_code == 422
    assert answer.json()["message"].endswith("no space left on device; nothing was saved, so "
                                             "this is played again")
    assert (folder / "late.json").read_bytes() == before
    assert tables.get("late").session.typed == []  # as the terminal: the phase from its start
    assert "Turn 11: the Action taken" in answer.json()["html"]
    monkeypatch.undo()
    for line in ["Investigate", "8", "keep", "4", "pass"]:
        assert post(c, line=line).json()["kind"] == "accepted", line
    assert json.loads((folder / "late.json").read_text())["phase"] == "encounter"


def test_a_case_past_the_advisors_caps_is_shown_and_refused_without_a_traceback(tmp_path, tiny):
    from deduce.models.detective_story.advice import SM_CAP

    (tmp_path / "x.json").write_text(json.dumps(late_record(tiny) | {"sm": SM_CAP + 1}))
    tables = Tables(tmp_path)
    try:
        tables.open(tmp_path / "x.json").session.wait_solved()
        c = client(tables)
        words = f"the advisor handles SM up to {SM_CAP} and Luck up to"
        assert words in c.get("/r/x").text
        before = (tmp_path / "x.json").read_bytes()
        answer = post(c, "x", line="Wait")
        assert answer.status_code == 422 and words in answer.json()["message"]
        assert (tmp_path / "x.json").read_bytes() == before
    finally:
        tables.close()


def test_the_end_of_the_case_is_shown_and_undone(served, tmp_path):
    _, c, folder = served
    for line in ["Wait", "2", "Wait", "2"]:
        answer = post(c, line=line)
    assert answer.json()["message"].endswith("the case ends: time is up (turn 12 ended without "
                                             "an arrest) (turn 12)")
    assert on_disk(folder) == referee(tmp_path, ["Wait", "2", "Wait", "2"])[0]
    assert on_disk(folder)["outcome"] == "time_up"
    assert "The case is over: time is up" in answer.json()["html"]
    assert 'name="pick"' not in answer.json()["html"]  # nothing to answer but undo
    answer = post(c, op="undo")
    assert answer.json()["message"] == "Undone: back to turn 12 (encounter), SM 1, Luck 2."
    assert on_disk(folder)["outcome"] is None


def test_deduce_serve_refuses_a_bad_record_naming_its_field(tmp_path, tiny):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(late_record(tiny) | {"luck": "lots"}))
    result = CliRunner().invoke(cli, ["serve", str(path), "--port", "0", "--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{path}: field 'luck': expected an integer, got 'lots'" in result.output
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".lock")]


@pytest.mark.slow  # about 0.3 s of CPU an example (two sessions and a dozen requests)
@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.one_of(st.integers(0, 11), st.just("undo")), min_size=1, max_size=7))
def test_any_taps_give_the_record_of_the_same_piped_lines(tmp_path_factory, taps):
    """Chips tapped at random (by index; undo among them): the record on disk is the one
    the terminal's session writes when the same lines are piped to it."""
    tmp = tmp_path_factory.mktemp("walk")
    tiny = write_campaign(tmp / "tiny", TINY)
    text = json.dumps(late_record(tiny))
    (tmp / "late.json").write_text(text)
    (tmp / "start.json").write_text(text)
    tables = Tables(tmp)
    try:
        table = tables.open(tmp / "late.json").session
        table.wait_solved()
        c = client(tables)
        lines = []
        for tap in taps:
            if tap == "undo":
                post(c, op="undo")
                lines.append("undo")
                continue
            choices = story.current_choices(table)
            if not choices:
                break
            line = choices[tap % len(choices)][0]
            post(c, pick=str(tap % len(choices)))
            lines.append(line)
        expected, _ = referee(tmp, lines)
        assert json.loads((tmp / "late.json").read_text()) == expected
    finally:
        tables.close()


def test_the_page_answers_while_the_case_is_being_solved(tmp_path, tiny, monkeypatch):
    import threading

    gate = threading.Event()
    solve = TableSession.prepare
    monkeypatch.setattr(TableSession, "prepare",
                        lambda self, use_cache=True: (gate.wait(30), solve(self, use_cache)))
    monkeypatch.setattr(story, "SOLVE_WAIT", 0)
    (tmp_path / "late.json").write_text(json.dumps(late_record(tiny)))
    tables = Tables(tmp_path)
    try:
        table = tables.open(tmp_path / "late.json").session
        c = client(tables)
        page = c.get("/r/late").text  # the solve holds no lock the page needs
        assert table.solve == "solving" and "Solving the whole case once" in page
        assert "turn 11/12" in page and 'id="question"' not in page
        solving = c.get("/r/late/version").json()["version"]
        answer = post(c, line="Wait")
        assert answer.status_code == 422 and "the case is being solved" in answer.json()["message"]
        gate.set()
        assert table.wait_solved(30) and table.solve == "solved"
        assert c.get("/r/late/version").json()["version"] != solving  # the poll brings it
        assert "Turn 11: the Action taken" in c.get("/r/late").text
    finally:
        gate.set()
        tables.close()


def test_without_the_script_a_plain_form_gets_the_whole_page(served):
    _, c, folder = served
    version = c.get("/r/late/version").json()["version"]
    answer = c.post("/r/late/act", data={"version": version, "op": "answer", "line": "Wait"})
    assert answer.status_code == 200 and answer.text.startswith("<!doctype html>")
    assert "Encounter Matrix (turn 11)" in answer.text and on_disk(folder)["phase"] == "encounter"
    refused = c.post("/r/late/act", data={"version": version, "line": "Wait"})
    assert refused.status_code == 409 and "Not entered" in refused.text
