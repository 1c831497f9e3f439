"""The Baker Street Irregulars page of ``deduce serve`` through Starlette's test client:
records made from the page (dealt, multiplayer and solo; laid out by hand) equal the
terminal's for the same setup; entries posted as the page's forms give the record the
terminal's session writes for the same typed lines (the referee: a ``TableSession``
driven directly); what came asked for when an entry waits; undo; refusals with the
terminal's reason and the file unchanged; stale views; hostile names in lines and on
the page."""

from __future__ import annotations

import html
import json
import os

import pytest

from deduce.models.irregulars import rules
from deduce.models.irregulars.cards import load_cards
from deduce.models.irregulars.position import BOARDS
from deduce.models.irregulars.table import TableSession
from deduce.web.irregulars import player_word
from deduce.web.tables import record_version
from tests.web import helpers
from tests.web.helpers import (check_any_form_is_answered, check_refused_as_the_terminal,
                               on_disk, post_act, served_folder)

HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "Ann\x1b[2J&amp;"]
NAMES = ["Ann", "Ben", "Cat"]
CARDS = load_cards(None)
EVIDENCE = [e.id for e in CARDS.evidence]
VILLAINS = [v.id for v in CARDS.villains]


@pytest.fixture
def served(tmp_path):
    tables, c, folder = served_folder(tmp_path)
    yield tables, c, folder
    tables.close()


def dealt_fields(name="g", seed=7, players=NAMES, me=0, mode="0") -> dict:
    return {"game": "irregulars", "name": name, "mode": mode, "start": "0", "seed": str(seed),
            "player": list(players) + [""] * (5 - len(players)), "me": str(me)}



def referee(tmp_path, name="g.json", **setup) -> TableSession:
    """The terminal's session on a record of its own, the same setup."""
    return helpers.referee(TableSession, tmp_path, name, **setup)


def same_record(folder, ref) -> bool:
    return on_disk(folder) == json.loads(ref.path.read_text(encoding="utf-8"))


def picks_step(ref) -> tuple[dict, list[str], object]:
    """One multiplayer Investigate cycle: for each player the first card of their hand
    the referee accepts (the deal is known to the test: the state's hands), as the page's
    one form and as the lines typed (mine first), and the referee's reply to the last."""
    form: dict = {"op": "picks"}
    lines = []
    for seat, name in enumerate(ref.names()):
        for card in ref.state.hands[seat] + [None]:
            if seat == ref.me:
                line = "pass" if card is None else f"pick {card}"
            else:
                line = f"reveal {player_word(name)} {card or 'pass'}"
            reply = ref.handle(line)
            if reply.kind != "refused":
                break
        lines.append(line)
        key = "mine" if seat == ref.me else f"reveal-{seat}"
        form[key] = "pass" if card is None else str(EVIDENCE.index(card))
    return form, lines, reply


def action_step(ref, i: int) -> tuple[dict, str]:
    """A legal action of the seat to act (an arrest when one is legal, else every other
    turn a tail or a bonus card), as the page's form and the line typed."""
    legal = ref.state.legal_actions()
    arrests = [a for a in legal if isinstance(a, rules.Arrest)]
    if arrests:
        a = arrests[0]
        form = {"op": "arrest", "villain": VILLAINS.index(a.villain),
                "with": [EVIDENCE.index(c) for c in a.cards]}
        line = f"arrest {a.villain} with {', '.join(a.cards)}"
        if a.holmes:
            form["ignore"] = "1"
            line += " ignore"
        return form, line
    tails = [a for a in legal if isinstance(a, rules.Tail)]
    if tails and i % 2:
        v = tails[i % len(tails)].villain
        return {"op": "tail", "villain": VILLAINS.index(v)}, f"tail {v}"
    takes = [a for a in legal if isinstance(a, rules.TakeCard)]
    if takes:
        return {"op": "take", "card": EVIDENCE.index(takes[0].card)}, f"take {takes[0].card}"
    boards = [a for a in legal if isinstance(a, rules.TakeBoard)]
    if boards:
        return {"op": "board", "board": BOARDS.index(boards[0].board)}, f"board {boards[0].board}"
    if any(isinstance(a, rules.Resupply) for a in legal):
        return {"op": "resupply", "choice": "0"}, "resupply keep"
    return {"op": "pass"}, "pass"


def test_a_dealt_record_from_the_page_is_the_terminals(served, tmp_path):
    tables, c, folder = served
    answer = c.post("/new", data=dealt_fields(), follow_redirects=False)
    assert (answer.status_code, answer.headers["location"]) == (303, "/r/g")
    assert (folder / ".g.json.lock").exists()
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        assert same_record(folder, ref)
    solo = c.post("/new", data=dealt_fields("s", mode="1", players=["Ann"]), follow_redirects=False)
    assert solo.status_code == 303
    with referee(tmp_path, "s.json", seed=7, mode="solo", me="Ann") as ref:
        assert on_disk(folder, "s.json") == json.loads(ref.path.read_text(encoding="utf-8"))
    index = c.get("/?new=irregulars").text
    assert "Baker Street Irregulars, solo, Ann, Holmes (me: Ann), dealt (seed 7)" in index
    assert 'id="new-irregulars"' in index and 'name="mode"' in index
    page = c.get("/r/g").text
    assert "round 1 cycle 1: picks (to enter: Ann, Ben, Cat)" in page and 'id="enter-picks"' in page


def test_a_multiplayer_game_by_the_forms_writes_the_terminals_record(served, tmp_path):
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    ops = set()
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        for i in range(30):
            if ref.state.phase == rules.INVESTIGATE:
                form, lines, expected = picks_step(ref)
            else:
                form, line = action_step(ref, i)
                expected = ref.handle(line)
                assert expected.kind == "accepted", (line, expected.message)
            ops.add(form["op"])
            answer = post_act(c, "g", form)
            assert (answer.status_code, answer.json()["kind"]) == (200, "accepted"), answer.json()
            assert answer.json()["message"] == expected.message
            assert same_record(folder, ref), form
            assert answer.json()["version"] == record_version(on_disk(folder))
        assert {"picks", "tail", "pass", "arrest"} <= ops
        assert ref.prompt() in c.get("/r/g").text


def test_the_readme_solo_game_by_the_forms(served, tmp_path):
    """The README's solo game: picks, a tail, Holmes's arrest waiting for ok."""
    tables, c, folder = served
    c.post("/new", data=dealt_fields(mode="1", players=["Ann"]))
    steps = [({"op": "picks", "mine": EVIDENCE.index("E005")}, "pick E005", "accepted"),
             ({"op": "tail", "villain": VILLAINS.index("V05")}, "tail V05", "accepted"),
             ({"op": "picks", "mine": EVIDENCE.index("E038")}, "pick E038", "info"),
             ({"op": "part", "ok": "1"}, "ok", "accepted"),
             ({"op": "pass"}, "pass", "accepted"),
             ({"op": "picks", "mine": EVIDENCE.index("E011")}, "pick E011", "accepted")]
    with referee(tmp_path, seed=7, mode="solo", me="Ann") as ref:
        for form, line, kind in steps:
            expected = ref.handle(line)
            answer = post_act(c, "g", form)
            assert (answer.json()["kind"], answer.json()["message"]) == (kind, expected.message)
            assert same_record(folder, ref)
            if kind == "info":
                assert "waiting for ok (Holmes arrests V40 with E023, E097)" in expected.message
                assert 'id="part-ok-1"' in answer.json()["html"] and 'id="waiting"' in answer.json()["html"]
                assert answer.json()["version"] != record_version(on_disk(folder))
        assert len(on_disk(folder)["entries"]) == 5
        page = c.get("/r/g").text
        assert 'data-villain="V05" data-arrestable="1"' in page  # my tail and cards arrest him
        assert "Ann: arrest with E005, E038 (+ tail)" in page


def test_a_start_laid_out_by_hand_waits_for_the_hand_passed(served, tmp_path):
    """A start typed in (the one seed 7 deals); the picks of that deal entered; the entry
    waits for the hand passed to me (cards I have not seen), which the deal says."""
    tables, c, folder = served
    dealt = referee(tmp_path, "dealt.json", seed=7, players=NAMES, me="Ann")
    start = dealt.position()
    fields = {**dealt_fields(), "start": "1", "seed": "",
              "inspector": str([i.id for i in CARDS.inspectors].index(start.inspector)),
              "villains": [str(VILLAINS.index(v)) for v in start.villains],
              "order": [str(NAMES.index(p)) for p in start.order],
              "plot_twist": str([t.id for t in CARDS.plot_twists].index(start.plot_twist)),
              "hand": [str(EVIDENCE.index(e)) for e in start.hand]}
    made = c.post("/new", data=fields, follow_redirects=False)
    assert made.status_code == 303, made.text[-300:]
    answers = {"inspector": start.inspector, "villains": ", ".join(start.villains),
               "order": ", ".join(start.order), "plot_twist": start.plot_twist,
               "hand": ", ".join(start.hand)}

    def ask(key, setup):
        setup.set(key, answers[key])

    with dealt, referee(tmp_path, players=NAMES, me="Ann", ask=ask) as ref:
        assert same_record(folder, ref) and on_disk(folder)["seed"] is None
        form, lines, _ = picks_step(dealt)  # the deal's own picks
        passed = list(dealt.state.hands[dealt.me])
        for line in lines:
            expected = ref.handle(line)
        answer = post_act(c, "g", form).json()
        assert (answer["kind"], answer["message"]) == ("info", expected.message)
        assert "waiting for hand CARD, ..." in expected.message
        assert 'id="part-hand-0"' in answer["html"] and on_disk(folder)["entries"] == []
        expected = ref.handle(f"hand {', '.join(passed)}")
        answer = post_act(c, "g", {"op": "part", "hand": [EVIDENCE.index(e) for e in passed]}).json()
        assert (answer["kind"], answer["message"]) == ("accepted", expected.message)
        assert same_record(folder, ref)
        assert on_disk(folder)["entries"][0]["told"] == {"hand": passed}
        page = c.get("/r/g").text
        assert 'data-holder="Ben"' in page and "Who holds what" in page


def test_picks_in_parts_then_undo_drops_them(served):
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    ben = json.loads((folder / "g.json").read_text())  # the record before
    answer = post_act(c, "g", {"op": "picks", "mine": EVIDENCE.index("E005")}).json()
    assert answer["kind"] == "info" and "waiting for Ben, Cat" in answer["message"]
    assert 'id="picks-so-far"' in answer["html"] and "mine-" not in answer["html"]
    dropped = post_act(c, "g", {"op": "undo"}).json()
    assert dropped["message"] == "dropped: picks (it was not saved)"
    assert on_disk(folder) == ben


def test_refusals_are_the_terminals_and_change_nothing(served, tmp_path):
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        check_refused_as_the_terminal(c, "g", folder, ref, [
            ({"op": "tail", "villain": 0}, f"tail {VILLAINS[0]}"),
            ({"op": "picks", "mine": EVIDENCE.index("E001")}, "pick E001"),
            ({"op": "take", "card": 3}, f"take {EVIDENCE[3]}"),
            ({"op": "undo"}, "undo")])
    for form, words in [({"op": "arrest"}, "choose the Villain arrested"),
                        ({"op": "picks"}, "choose a pick"),
                        ({"op": "picks", "reveal-1": "999"}, "field 'reveal-1': not one of"),
                        ({"op": "board", "board": "3"}, "field 'board': not one of the 3"),
                        ({"op": "part"}, "choose what came"),
                        ({"op": "nope"}, "field 'op'")]:
        answer = post_act(c, "g", form)
        assert answer.status_code == 422 and words in answer.json()["message"], answer.json()


def test_best_is_the_terminals_view(served, tmp_path):
    """The page's Ask link: the terminal's ``best`` of the same record (the advice seeded
    as the terminal's, so the same estimates)."""
    tables, c, folder = served
    c.post("/new", data=dealt_fields())
    assert 'href="/r/g?why=best#ask"' in c.get("/r/g").text
    with referee(tmp_path, seed=7, players=NAMES, me="Ann") as ref:
        best = ref.handle("best").data
    shown = html.unescape(c.get("/r/g/main", params={"why": "best"}).json()["html"])
    for i, e in enumerate(best.estimates[:5], start=1):
        assert (f"<td>{i}</td><td>{e.words}</td><td>{100 * e.p_win:.1f}%</td>"
                f"<td>{100 * e.stderr:.1f}</td><td>{e.rollouts}</td>") in shown
    assert f"<strong>Best:</strong> {best.why}" in shown
    assert len(best.estimates) == 5 and "more choices" not in shown  # a hand of 5 picks


def test_a_stale_view_is_refused(served):
    tables, c, folder = served
    c.post("/new", data=dealt_fields(mode="1", players=["Ann"]))
    old = c.get("/r/g/version").json()["version"]
    assert post_act(c, "g", {"op": "picks", "mine": EVIDENCE.index("E005")}, old).status_code == 200
    before = (folder / "g.json").read_bytes()
    answer = post_act(c, "g", {"op": "pass"}, old)
    assert answer.status_code == 409 and answer.json()["kind"] == "stale"
    assert (folder / "g.json").read_bytes() == before


@pytest.mark.parametrize("change, field, words", [
    ({"seed": ""}, "seed", "type the seed"),
    ({"me": ""}, "me", "choose which player you are"),
    ({"player": ["Ann", "", "", "", ""]}, "players", "1 players; the game takes 2 to 5"),
    ({"mode": "1", "player": ["Holmes"]}, "me", "the same name as players[0]"),
    ({"start": "1", "seed": "", "inspector": "0", "villains": ["0", "1", "2", "3", "3"]},
     "villains", f"{VILLAINS[3]} is listed twice"),
    ({"mode": "2"}, "mode", "not one of the 2 choices"),
    ({"name": "a/b"}, "name", "no folder"),
    ({"start": "1", "seed": ""}, "inspector", "choose your Inspector"),
])
def test_a_bad_setup_is_refused_naming_the_field(served, change, field, words):
    tables, c, folder = served
    answer = c.post("/new", data={**dealt_fields(), **change}, follow_redirects=False)
    assert answer.status_code == 422, answer.text[-300:]
    assert f"field &#x27;{field}" in answer.text and html.escape(words) in answer.text
    assert os.listdir(folder) == []


def test_hostile_names_in_lines_and_on_the_page(served, tmp_path):
    tables, c, folder = served
    assert c.post("/new", data=dealt_fields(players=HOSTILE, me=2), follow_redirects=False).status_code == 303
    with referee(tmp_path, seed=7, players=HOSTILE, me=HOSTILE[2]) as ref:
        assert same_record(folder, ref)
        form, lines, _ = picks_step(ref)
        assert lines[1].startswith("reveal imgsrcxonerroralert2 ")
        answer = post_act(c, "g", form)
        assert answer.json()["kind"] == "accepted" and same_record(folder, ref)
    for text in (c.get("/r/g").text, c.get("/").text, answer.json()["html"]):
        assert "<script>alert" not in text and "<img src=x" not in text and "\x1b" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "Ann\\x1b[2J&amp;amp; (me)" in c.get("/r/g").text


def test_any_posted_form_is_answered_never_raised(tmp_path):
    """Whatever the fields hold, ``act`` answers with a reply and a refused entry leaves
    the record on disk as it was."""
    from hypothesis import strategies as st

    from deduce.web import irregulars

    session = TableSession.open(tmp_path / "p.json", seed=7, mode="solo", me="Ann")
    names = ["op", "mine", "reveal-1", "villain", "with", "ignore", "card", "board", "choice",
             "player", "inspector", "refill", "twist", "hand", "holmes", "ok"]
    values = st.one_of(st.integers(-2, 110).map(str), st.sampled_from(irregulars.OPS),
                       st.sampled_from(["pass", "1", ""]), st.text(max_size=8))
    try:
        check_any_form_is_answered(irregulars, session, names, values)
    finally:
        session.close()