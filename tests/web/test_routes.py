"""Every route of ``deduce serve``'s app through Starlette's test client: records made
and refused, entries, undo, stale and contradictory entries (the file unchanged), why,
escaping of hostile names, the token and the loopback guard, paths never reached."""

from __future__ import annotations

import html
import json
import os
import re

import pytest

from deduce.models.sherlock13.advice import analyze
from deduce.models.sherlock13.record import parse_record
from deduce.web.tables import Tables, record_version
from tests.web.helpers import FETCH, client, demo, event_fields, setup_fields, version_of

HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "Ann\x1b[2J&amp;"]


@pytest.fixture
def served(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    tables = Tables(folder)
    yield tables, client(tables), folder
    tables.close()


def make(c, record: dict, name: str = "g"):
    return c.post("/new", data=setup_fields(record, name), follow_redirects=False)


def enter(c, slug: str, fields, version: str | None = None, script: bool = True):
    version = version or c.get(f"/r/{slug}/version").json()["version"]
    data: dict[str, list[str]] = {}
    for key, value in [("version", version), ("op", "enter"), *fields]:
        data.setdefault(key, []).append(value)
    return c.post(f"/r/{slug}/act", data=data, headers=FETCH if script else {})


def on_disk(folder, name="g.json") -> dict:
    return json.loads((folder / name).read_text(encoding="utf-8"))


STANDARD = {"variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"], "me": "Ann",
            "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"]}


def test_a_record_made_from_the_page_holds_the_setup_and_its_lock(served):
    tables, c, folder = served
    answer = make(c, STANDARD)
    assert (answer.status_code, answer.headers["location"]) == (303, "/r/g")
    assert on_disk(folder) == {"game": "sherlock13", **STANDARD, "events": []}
    assert (folder / ".g.json.lock").exists()  # the session holds the record's lock
    index = c.get("/")
    assert index.status_code == 200 and 'href="/r/g"' in index.text
    assert "Sherlock 13, standard, Ann, Ben, Cat, Dan (me: Ann); 0 events; Ann to play" in index.text
    tables.close()
    assert not (folder / ".g.json.lock").exists()


@pytest.mark.parametrize("change, field, words", [
    ({"name": "../evil"}, "name", "no folder"),
    ({"name": "a/b"}, "name", "no folder"),
    ({"name": ".hidden"}, "name", "no folder"),
    ({"name": ""}, "name", "no folder"),
    ({"card": ["0", "1"]}, "hand", "with 4 players a hand has 3 cards, not 2"),
    ({"card": ["0", "0", "1"]}, "hand", "a card is listed twice: Sherlock Holmes"),
    ({"card": ["0", "1", "13"]}, "card", "not one of the 13 choices shown"),
    ({"player": ["Ann", "ann", "Cat"]}, "players", "player names must differ"),
    ({"player": ["Ann"]}, "players", "played by 2, 3 or 4 players, not 1"),
    ({"me": ""}, "me", "choose which player you are"),
    ({"me": "3", "player": ["Ann", "Ben", "Cat", ""]}, "me", "player 4's name is blank"),
    ({"variant": "2"}, "variant", "not one of the 2 choices shown"),
    ({"game": "chess"}, "game", "no such game page"),
])
def test_a_bad_setup_is_refused_naming_the_field_and_makes_no_file(served, change, field, words):
    _, c, folder = served
    fields = {**setup_fields({"game": "sherlock13", **STANDARD}, "g"), **change}
    answer = c.post("/new", data=fields, follow_redirects=False)
    assert answer.status_code == 422
    assert f"field &#x27;{field}&#x27;" in answer.text and html.escape(words) in answer.text
    assert os.listdir(folder) == [] and sorted(os.listdir(folder.parent)) == ["games"]
    by_script = c.post("/new", data=fields, headers=FETCH)
    assert by_script.status_code == 422 and words in by_script.json()["message"]


def test_an_existing_file_is_never_opened_or_overwritten_from_the_page(served):
    _, c, folder = served
    (folder / "g.json").write_text("not mine", encoding="utf-8")
    answer = make(c, STANDARD)
    assert answer.status_code == 422 and "g.json exists in the folder already" in answer.text
    assert (folder / "g.json").read_text(encoding="utf-8") == "not mine"


def test_the_demo_game_entered_through_the_form_is_the_demo_record(served):
    tables, c, folder = served
    record = demo()
    assert make(c, record).status_code == 303
    for i, event in enumerate(record["events"]):
        answer = enter(c, "g", event_fields(event, record["players"]))
        assert (answer.status_code, answer.json()["kind"]) == (200, "accepted"), answer.json()
        saved = on_disk(folder)
        assert saved["events"] == record["events"][:i + 1]
        assert answer.json()["version"] == record_version(saved)
        bars = dict(re.findall(r'data-suspect="([^"]+)" data-p="([^"]+)"', answer.json()["html"]))
        criminal = analyze(parse_record(saved)).to_json()["criminal"]
        assert {s: float(p) for s, p in bars.items()} == {s: p for s, p in criminal.items() if p > 0}
    assert on_disk(folder) == record
    page = c.get("/r/g").text
    assert "game over: Dan wins" in page and "No questions: I have no next turn" in page


def test_a_plain_form_post_gets_the_whole_page(served):
    _, c, folder = served
    make(c, STANDARD)
    answer = enter(c, "g", [("actor", "0"), ("action", "0"), ("icon", "7"), ("raised", "2")],
                   script=False)
    assert answer.status_code == 200 and answer.text.startswith("<!doctype html>")
    assert "Saved" in answer.text and "event 0: Ann raise skull (raised: Cat)" in answer.text
    assert on_disk(folder)["events"] == [{"actor": "Ann", "action": "raise", "icon": "skull",
                                          "raised": ["Cat"]}]


def test_a_stale_entry_is_refused_and_the_record_kept(served):
    _, c, folder = served
    make(c, STANDARD)
    old = c.get("/r/g/version").json()["version"]
    assert enter(c, "g", [("actor", "0"), ("action", "0"), ("icon", "7"), ("raised", "2")],
                 old).status_code == 200
    before = (folder / "g.json").read_bytes()
    answer = enter(c, "g", [("actor", "1"), ("action", "0"), ("icon", "6")], old)  # the old view
    assert answer.status_code == 409 and answer.json()["kind"] == "stale"
    assert "the record changed on another device" in answer.json()["message"]
    assert (folder / "g.json").read_bytes() == before
    assert answer.json()["version"] == record_version(json.loads(before))
    assert version_of(answer.json()["html"]) == answer.json()["version"]  # the current view


def test_a_contradiction_is_refused_with_its_events_and_the_file_unchanged(served):
    _, c, folder = served
    make(c, STANDARD)
    enter(c, "g", [("actor", "0"), ("action", "0"), ("icon", "7"), ("raised", "2")])
    before = (folder / "g.json").read_bytes()
    # Ben asks Dan for skulls: 1, but Dan raised no hand for skull
    answer = enter(c, "g", [("actor", "1"), ("action", "1"), ("icon", "7"), ("target", "3"),
                            ("count", "1")])
    assert answer.status_code == 422 and answer.json()["kind"] == "refused"
    assert "Refused: contradiction" in answer.json()["html"]
    assert "event 0: Ann raise skull (raised: Cat)" in answer.json()["message"]
    assert (folder / "g.json").read_bytes() == before


@pytest.mark.parametrize("fields, words", [
    ([("actor", "2"), ("action", "0"), ("icon", "1")], "out of turn: Cat acted but it is Ann's turn"),
    ([("actor", "0"), ("action", "0")], "field 'icon': missing field for a raise event"),
    ([("actor", "0")], "choose what was done"),
    ([("actor", "0"), ("action", "0"), ("icon", "1"), ("raised", "0")], "the asker does not raise a hand"),
    ([("actor", "0"), ("action", "3"), ("side", "0"), ("revealed", "0")], "exchange"),
    ([("actor", "9"), ("action", "0"), ("icon", "1")], "field 'actor': not one of the 4 choices"),
    ([("actor", "0"), ("action", "1"), ("icon", "1"), ("target", "1"), ("count", "6")],
     "field 'count': not one of the 6 choices"),
])
def test_bad_entries_are_refused_with_the_sessions_reason(served, fields, words):
    _, c, folder = served
    make(c, STANDARD)
    before = (folder / "g.json").read_bytes()
    answer = enter(c, "g", fields)
    assert answer.status_code == 422 and words in answer.json()["message"]
    assert (folder / "g.json").read_bytes() == before


def test_undo_takes_back_the_last_entry_and_refuses_when_empty(served):
    _, c, folder = served
    make(c, STANDARD)
    enter(c, "g", [("actor", "0"), ("action", "0"), ("icon", "6"), ("raised", "1")])
    version = c.get("/r/g/version").json()["version"]
    answer = c.post("/r/g/act", data={"version": version, "op": "undo"}, headers=FETCH)
    assert answer.status_code == 200 and "undone: Ann raise eye (raised: Ben)" in answer.json()["message"]
    assert on_disk(folder)["events"] == []
    again = c.post("/r/g/act", data={"version": answer.json()["version"], "op": "undo"}, headers=FETCH)
    assert again.status_code == 422 and again.json()["message"] == "nothing to undo"


def test_views_and_why(served):
    _, c, folder = served
    make(c, STANDARD)
    page = c.get("/r/g").text
    assert "16,800 consistent worlds" in page and page.count('class="bar"') == 10
    assert page.count("bits</span>") == 5 and 'id="accuse"' in page
    assert page.count("<tr>") == 14  # the clue sheet: a head row and 13 suspects
    main = c.get("/r/g/main?why=5").json()
    assert main["version"] == record_version(on_disk(folder))
    assert "Mrs. Hudson cannot be the criminal" in main["html"]
    assert "not one of the 13 choices shown" in c.get("/r/g?why=13").text
    assert "Updated: the record changed" in c.get("/r/g/main?changed=1").json()["html"]


def test_a_two_player_record_offers_exchanges(served):
    _, c, folder = served
    two = {"variant": "standard", "players": ["Ann", "Ben"], "me": "Ann",
           "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes", "Mary Morstan", "Irene Adler"]}
    assert make(c, two).status_code == 303
    assert 'id="action-3"' in c.get("/r/g").text and 'id="action-0"' not in c.get("/r/g").text
    event = {"actor": "Ann", "action": "exchange", "side": "left", "revealed": "Mary Morstan",
             "took": "James Moriarty"}
    assert enter(c, "g", event_fields(event, two["players"])).status_code == 200
    assert on_disk(folder)["events"] == [event]


def test_hostile_names_are_shown_as_text(served):
    tables, c, folder = served
    record = {"variant": "standard", "players": HOSTILE, "me": HOSTILE[2],
              "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes", "Mary Morstan"]}
    assert make(c, record).status_code == 303
    assert on_disk(folder)["players"] == HOSTILE  # kept as typed
    enter(c, "g", [("actor", "0"), ("action", "0"), ("icon", "7"), ("raised", "1")])
    refused = enter(c, "g", [("actor", "0"), ("action", "0"), ("icon", "7")]).json()
    for text in (c.get("/r/g").text, c.get("/").text, refused["html"]):
        assert "<script>alert" not in text and "<img src=x" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "\x1b" not in text
    assert "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in c.get("/r/g").text
    assert "Ann\\x1b[2J&amp;amp;" in c.get("/r/g").text  # the escape shown, & escaped


def test_paths_are_never_taken_from_a_request(served, tmp_path):
    _, c, folder = served
    make(c, STANDARD)
    secret = json.dumps({"game": "sherlock13", **STANDARD})
    (tmp_path / "secret.json").write_text(secret)
    for path in ["/r/..%2Fsecret", "/r/../secret", "/r/%2e%2e%2fsecret.json", "/r/secret"]:
        assert c.get(path).status_code == 404, path
    for path in ["/static/..%2Fapp.py", "/static/app.py", "/static/%2e%2e/html.py"]:
        assert c.get(path).status_code == 404, path
    assert c.get("/static/deduce.js").status_code == 200
    assert c.get("/static/deduce.css").headers["content-type"].startswith("text/css")
    assert c.post("/r/nope/act", data={"op": "undo"}).status_code == 404
    assert c.get("/r/nope/main").status_code == 404 and c.get("/r/nope/version").status_code == 404
    assert make(c, STANDARD, "../secret").status_code == 422
    assert (tmp_path / "secret.json").read_text() == secret
    assert sorted(os.listdir(folder)) == [".g.json.lock", "g.json"]


def test_the_token_is_needed_on_every_request(tmp_path):
    tables = Tables(tmp_path)
    c = client(tables, token="s3cret-token")
    try:
        for path in ["/", "/static/deduce.js", "/r/g", "/?token=wrong"]:
            assert c.get(path).status_code == 403, path
        assert "needs its access token" in c.get("/").text
        assert c.post("/new", data=setup_fields({"game": "sherlock13", **STANDARD}, "g")).status_code == 403
        assert not (tmp_path / "g.json").exists()
        answer = c.get("/?token=s3cret-token&x=1", follow_redirects=False)
        assert (answer.status_code, answer.headers["location"]) == (303, "/?x=1")
        assert "deduce_token_8765=s3cret-token" in answer.headers["set-cookie"]
        assert "samesite=strict" in answer.headers["set-cookie"].lower()
        assert c.get("/").status_code == 200  # the cookie now
        assert make(c, STANDARD).status_code == 303
        c.cookies.clear()
        assert c.get("/r/g").status_code == 403
        assert c.get("/r/g?token=s3cret-token").status_code == 200  # via the redirect
    finally:
        tables.close()


def test_the_loopback_server_refuses_other_hosts_and_other_sites(served):
    _, c, folder = served
    assert c.get("/", headers={"host": "evil.example:8765"}).status_code == 403
    assert c.get("/", headers={"host": "localhost:8765"}).status_code == 200
    fields = setup_fields({"game": "sherlock13", **STANDARD}, "g")
    assert c.post("/new", data=fields, headers={"origin": "http://evil.example"}).status_code == 403
    assert os.listdir(folder) == []
    answer = c.get("/")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_body_over_the_cap_is_refused(served):
    _, c, folder = served
    make(c, STANDARD)
    answer = c.post("/r/g/act", content=b"x=" + b"a" * 70_000, headers={
        **FETCH, "content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 422 and "form too large" in answer.json()["message"]
    many = "&".join(f"f{i}=1" for i in range(300))
    answer = c.post("/r/g/act", content=many.encode(), headers={
        **FETCH, "content-type": "application/x-www-form-urlencoded"})
    assert "more than the cap of 200 fields" in answer.json()["message"]
