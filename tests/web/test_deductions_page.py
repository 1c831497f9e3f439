"""The Deductions page of ``deduce serve`` through Starlette's test client: records made
from the page equal those the terminal's table makes for the same setup; entries posted
as the page's forms give the record the terminal's session writes for the same typed
lines (the referee: a ``TableSession`` driven directly, line by line); what came asked
for when an entry waits; undo; refusals with the terminal's reason and the file
unchanged; stale views; hostile names; the lock, the token and the path rules."""

from __future__ import annotations

import html
import json
import os
import shlex

import pytest

from deduce.models.deductions import rules as R
from deduce.models.deductions.cards import CLUES, MILESTONES, SUITS
from deduce.models.deductions.position import cell_name, line_name
from deduce.models.deductions.table import TableSession
from deduce.web.deductions import CELLS, LINES
from deduce.web.tables import record_version
from tests.web import helpers
from tests.web.helpers import (check_any_form_is_answered, check_refused_as_the_terminal,
                               client, on_disk, post_act, served_folder)

HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "Ann\x1b[2J&amp;"]
NAMES = ["Ann", "Ben", "Cat"]


@pytest.fixture
def served(tmp_path):
    tables, c, folder = served_folder(tmp_path)
    yield tables, c, folder
    tables.close()


def dealt_fields(name="g", seed=7, players=NAMES, me=0) -> dict:
    return {"game": "deductions", "name": name, "start": "0", "seed": str(seed),
            "player": list(players) + [""] * (4 - len(players)), "me": str(me)}



def referee(tmp_path, name="g.json", **setup) -> TableSession:
    """The terminal's session on a record of its own, the same setup."""
    return helpers.referee(TableSession, tmp_path, name, **setup)


def case_index(session, case: str) -> str:
    return str([c.id for c in session.position().cards.cards].index(case))


def form_and_line(session, action) -> tuple[dict, str]:
    """The page's form for a rules action, and the line a player types for it."""
    if isinstance(action, R.Draw):
        return {"op": "draw"}, "draw"
    if isinstance(action, R.Take):
        form = {"op": "take", "cell": CELLS.index(action.cell)}
        line = f"take {cell_name(action.cell)}"
        if action.prop is not None:
            form["prop"] = CELLS.index(action.prop)
            line += f" prop {cell_name(action.prop)}"
        return form, line
    if isinstance(action, R.MindPalace):
        return {"op": "mind", "line": LINES.index(action.line)}, f"mind {line_name(action.line)}"
    if isinstance(action, R.Solve):
        return {"op": "solve", "case": case_index(session, action.case)}, f"solve {action.case}"
    if isinstance(action, R.Reserve):
        return {"op": "reserve", "case": case_index(session, action.case)}, f"reserve {action.case}"
    if isinstance(action, R.Rotate):
        return ({"op": "rotate", "case": case_index(session, action.case),
                 "suit": SUITS.index(action.suit)},
                f"rotate {action.case} {shlex.quote(action.suit)}")
    if isinstance(action, R.Discard):
        return {"op": "discard", "card": CLUES.index(action.card)}, f"discard {shlex.quote(action.card)}"
    return {"op": "claim", "milestone": MILESTONES.index(action.milestone)}, f"claim {action.milestone}"


#: which kind of action the driver plays first, when legal
PREFERENCE = [R.Claim, R.Rotate, R.Reserve, R.Solve, R.Discard, R.MindPalace, R.Take, R.Draw]


def choose(session, i: int, preference=PREFERENCE):
    """A legal action of the referee's state, by ``preference`` (a Mind Palace every
    fifth entry when a take is legal too)."""
    legal = session.state.legal_actions()
    takes = any(isinstance(a, R.Take) for a in legal)
    for kind in preference:
        actions = [a for a in legal if isinstance(a, kind)]
        if actions and not (kind is R.MindPalace and takes and i % 5):
            return actions[i % len(actions)]
    raise AssertionError(f"no legal action: {legal}")


def test_a_dealt_record_from_the_page_is_the_terminals(served, tmp_path):
    tables, c, folder = served
    answer = c.post("/new", data=dealt_fields(), follow_redirects=False)
    assert (answer.status_code, answer.headers["location"]) == (303, "/r/g")
    assert (folder / ".g.json.lock").exists()  # the session holds the record's lock
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        assert on_disk(folder) == json.loads(ref.path.read_text(encoding="utf-8"))
    page = c.get("/r/g").text
    assert "Ann to play: start" in page and 'id="enter-draw"' in page
    index = c.get("/").text
    assert "Deductions, Ann, Ben, Cat (me: Ann), dealt (seed 7); 0 entries" in index


def test_entries_by_the_forms_write_the_terminals_record(served, tmp_path):
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    kinds = set()
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        for i in range(46):
            action = choose(ref, i)
            form, line = form_and_line(ref, action)
            kinds.add(form["op"])
            expected = ref.handle(line)
            answer = post_act(c, "g", form)
            assert expected.kind == "accepted", (line, expected.message)
            assert (answer.status_code, answer.json()["kind"]) == (200, "accepted"), answer.json()
            assert answer.json()["message"] == expected.message
            assert on_disk(folder) == json.loads(ref.path.read_text(encoding="utf-8"))
            assert answer.json()["version"] == record_version(on_disk(folder))
        assert kinds == {"draw", "take", "mind", "solve", "rotate", "reserve"}
        html = c.get("/r/g").text
        assert ref.prompt() in html


@pytest.mark.parametrize("preference, entries, op", [
    ([R.Claim, R.Rotate, R.Reserve, R.Solve, R.Discard, R.MindPalace, R.Take, R.Draw], 104, "claim"),
    ([R.Discard, R.Take, R.MindPalace, R.Draw], 32, "discard"),  # hoarding: the pool over 10
])
def test_claims_and_discards_by_the_forms(tmp_path, preference, entries, op):
    """A record played on at the terminal up to a claim (or a discard), then served: the
    page offers that entry and writes what the terminal writes."""
    from deduce.web.tables import Tables

    folder = tmp_path / "games"
    folder.mkdir()
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        for i in range(entries):
            assert ref.handle(form_and_line(ref, choose(ref, i, preference))[1]).kind == "accepted"
        (folder / "g.json").write_bytes(ref.path.read_bytes())
        tables = Tables(folder)
        try:
            tables.open(folder / "g.json")
            c = client(tables)
            assert f'id="enter-{op}"' in c.get("/r/g").text
            form, line = form_and_line(ref, choose(ref, entries, preference))
            assert form["op"] == op
            expected = ref.handle(line)
            answer = post_act(c, "g", form)
            assert expected.kind == "accepted" and answer.json()["message"] == expected.message
            assert on_disk(folder) == json.loads(ref.path.read_text(encoding="utf-8"))
        finally:
            tables.close()


def test_what_came_is_asked_for_when_an_entry_waits(served, tmp_path):
    """A table laid out by hand (no seed): the draw names its card; the take waits for
    the card dealt in, and the page asks exactly that."""
    tables, c, folder = served
    with referee(tmp_path, "dealt.json", seed=7, players=NAMES, me="Ann") as dealt:
        pos = dealt.position()
    grid = pos.grid
    fields = {**dealt_fields(), "start": "1", "seed": "", "to_play": "0",
              "solutions": [case_index(dealt, i) for i in pos.display["solutions"]],
              "red_herrings": [case_index(dealt, i) for i in pos.display["red_herrings"]]}
    for r in range(4):
        for col in range(4):
            fields[f"grid{r + 1}-{col}"] = str(CLUES.index(grid[r][col]))
    made = c.post("/new", data=fields, follow_redirects=False)
    assert made.status_code == 303, made.text[-400:]
    answers = {"to_play": "Ann", "solutions": ", ".join(pos.display["solutions"]),
               "red_herrings": ", ".join(pos.display["red_herrings"])}
    answers.update({f"grid{r + 1}": ", ".join(grid[r]) for r in range(4)})

    def ask(key, setup):
        setup.set(key, answers.get(key, ""))

    with referee(tmp_path, players=NAMES, me="Ann", ask=ask) as ref:
        assert on_disk(folder) == json.loads(ref.path.read_text(encoding="utf-8"))
        assert on_disk(folder)["seed"] is None
        page = c.get("/r/g").text
        assert 'id="draw-card-0"' in page  # the card drawn is told: no deal says it
        for form, line in [({"op": "draw", "card": CLUES.index("Writings")}, "draw Writings")]:
            assert post_act(c, "g", form).json()["message"] == ref.handle(line).message
        take = next(a for a in ref.state.legal_actions() if isinstance(a, R.Take))
        form, line = form_and_line(ref, take)
        waiting = ref.handle(line)
        answer = post_act(c, "g", form)
        assert (answer.status_code, answer.json()["kind"]) == (200, "info")
        assert answer.json()["message"] == waiting.message and "waiting for refill CARD" in waiting.message
        html = answer.json()["html"]
        assert 'id="waiting"' in html and 'id="part-refill-0"' in html and "Waiting for what came" in html
        assert on_disk(folder)["entries"][-1]["action"] == {"action": "draw"}  # nothing saved yet
        assert answer.json()["version"] != record_version(on_disk(folder))  # the wait is in the view
        done = post_act(c, "g", {"op": "part", "refill": CLUES.index("Knowledge")})
        assert done.json()["message"] == ref.handle("refill Knowledge").message
        assert done.json()["kind"] == "accepted"
        assert on_disk(folder) == json.loads(ref.path.read_text(encoding="utf-8"))
        assert on_disk(folder)["entries"][-1]["outcome"]["draws"] == ["Knowledge"]


def test_undo_and_refusals_are_the_terminals(served, tmp_path):
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        answer = check_refused_as_the_terminal(c, "g", folder, ref, [
            ({"op": "take", "cell": 0}, "take a1"),  # before the draw
            ({"op": "solve", "case": 0}, "solve " + ref.position().cards.cards[0].id),
            ({"op": "undo"}, "undo")])
        assert "nothing to undo" in answer.json()["message"]
        post_act(c, "g", {"op": "draw"})
        ref.handle("draw")
        answer = post_act(c, "g", {"op": "undo"})
        assert answer.json()["message"] == ref.handle("undo").message
        assert answer.json()["message"].startswith("undone: entry 1: Ann draws ")
        assert on_disk(folder)["entries"] == []
    for form, words in [({"op": "take"}, "tap the cell taken"),
                        ({"op": "take", "cell": 16}, "field 'cell': not one of the 16 choices"),
                        ({"op": "mind"}, "choose the row or column"),
                        ({"op": "chess"}, "field 'op'"),
                        ({"op": "part"}, "choose what came")]:
        answer = post_act(c, "g", form)
        assert answer.status_code == 422 and words in answer.json()["message"]


def test_best_and_odds_are_the_terminals_views(served, tmp_path):
    """The page's Ask links: the terminal's ``odds`` and ``best`` of the same record (the
    advice seeded as the terminal's, so the same estimates), a question it does not
    have refused."""
    from deduce.models.deductions.knowledge import odds_json

    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    page = html.unescape(c.get("/r/g").text)
    assert 'href="/r/g?why=best#ask"' in page and 'data-why="odds"' in page
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        odds = odds_json(ref.position())
        shown = html.unescape(c.get("/r/g/main", params={"why": "odds"}).json()["html"])
        assert f"Clue deck: {odds['deck']} cards" in shown
        for suit, v in odds["suits"].items():
            assert f"{suit}</td><td>{v['left']}</td><td>{100 * v['p_next']:.0f}%" in shown
        best = ref.handle("best").data
        shown = html.unescape(c.get("/r/g/main", params={"why": "best"}).json()["html"])
        first = best.estimates[0]
        assert (f"<td>1</td><td>{first.words}</td><td>{100 * first.p_win:.1f}%</td>"
                f"<td>{100 * first.stderr:.1f}</td><td>{first.rollouts}</td>") in shown
        assert f"<strong>Best:</strong> {best.why}" in shown
    wrong = html.unescape(c.get("/r/g/main", params={"why": "moves"}).json()["html"])
    assert "no such question: 'moves' (one of best, odds)" in wrong


def test_a_stale_view_is_refused_and_the_file_kept(served):
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    old = c.get("/r/g/version").json()["version"]
    assert post_act(c, "g", {"op": "draw"}, old).status_code == 200
    before = (folder / "g.json").read_bytes()
    answer = post_act(c, "g", {"op": "take", "cell": 5}, old)
    assert answer.status_code == 409 and answer.json()["kind"] == "stale"
    assert (folder / "g.json").read_bytes() == before
    assert answer.json()["version"] == record_version(json.loads(before))


@pytest.mark.parametrize("change, field, words", [
    ({"seed": ""}, "seed", "type the seed"),
    ({"seed": "x7"}, "seed", "expected a seed from 0"),
    ({"me": ""}, "me", "choose which player you are"),
    ({"me": "3"}, "me", "player 4's name is blank"),
    ({"player": ["Ann", "", "", ""]}, "players", "1 players; the game takes 2 to 4"),
    ({"player": ["Ann", "ann", "Cat", ""]}, "players", "the same name as players[0]"),
    ({"start": "1", "seed": ""}, "to_play", "choose who plays first"),
    ({"start": "1", "to_play": "0"}, "grid1", "choose the 4 cards of grid row 1"),
    ({"name": "../evil"}, "name", "no folder"),
])
def test_a_bad_setup_is_refused_naming_the_field(served, change, field, words):
    tables, c, folder = served
    answer = c.post("/new", data={**dealt_fields(), **change}, follow_redirects=False)
    assert answer.status_code == 422, answer.text[-300:]
    assert f"field &#x27;{field}" in answer.text and html.escape(words) in answer.text
    assert os.listdir(folder) == []


def test_hostile_names_are_shown_as_text(served):
    tables, c, folder = served
    assert c.post("/new", data=dealt_fields(players=HOSTILE, me=2), follow_redirects=False).status_code == 303
    assert on_disk(folder)["setup"]["players"] == HOSTILE
    post_act(c, "g", {"op": "draw"})
    refused = post_act(c, "g", {"op": "draw"}).json()
    for text in (c.get("/r/g").text, c.get("/").text, refused["html"]):
        assert "<script>alert" not in text and "<img src=x" not in text and "\x1b" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "Ann\\x1b[2J&amp;amp; (me)" in c.get("/r/g").text


def test_a_terminal_record_is_served_and_locked(tmp_path):
    from deduce.core.errors import InputError
    from deduce.web.tables import Tables

    path = tmp_path / "t.json"
    with TableSession.open(path, seed=3, players=["Ann", "Ben"], me="Ben") as s:
        s.handle("draw")
    tables = Tables(tmp_path)
    try:
        served = tables.open(path)
        with pytest.raises(InputError, match="already open"):
            TableSession.open(path)
        c = client(tables)
        assert '<p class="turn" id="turn">Ann to play: investigate</p>' in c.get("/r/t").text
        assert c.get("/r/t/version").json()["version"] == record_version(json.loads(path.read_text()))
        assert served.page.TITLE == "Deductions"
    finally:
        tables.close()
    guarded = Tables(tmp_path)
    try:
        guarded.open(path)
        c = client(guarded, token="tok")
        assert c.get("/r/t").status_code == 403 and c.get("/r/t?token=tok").status_code == 200
    finally:
        guarded.close()


def test_any_posted_form_is_answered_never_raised(tmp_path):
    """Whatever the fields hold, ``act`` answers with a reply (a refusal names the field)
    and a refused entry leaves the record on disk as it was."""
    from hypothesis import strategies as st

    from deduce.web import deductions

    session = TableSession.open(tmp_path / "p.json", seed=7, players=NAMES, me="Ann")
    names = ["op", "card", "cell", "prop", "line", "case", "with", "suit", "milestone",
             "cases", "refill", "got", "reveal"]
    values = st.one_of(st.integers(-2, 60).map(str), st.sampled_from(deductions.OPS),
                       st.text(max_size=8))
    try:
        check_any_form_is_answered(deductions, session, names, values)
    finally:
        session.close()