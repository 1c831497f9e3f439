"""Live table mode: line parsing, atomic saving, refusals that leave the record unchanged."""

from __future__ import annotations

import json

import pytest

from deduce.core.errors import ContradictionError, InputError
from deduce.models.sherlock13.table import TableSession


def session(tmp_path, **kw):
    setup = dict(variant="standard", players=["Ann", "Ben", "Cat", "Dan"], me="Ann",
                 hand=["sherlock", "hudson", "baynes"])
    setup.update(kw)
    return TableSession.open(tmp_path / "g.json", **setup)


def saved(tmp_path):
    return json.loads((tmp_path / "g.json").read_text())


def test_new_record_written_with_canonical_names(tmp_path):
    s = session(tmp_path)
    assert saved(tmp_path)["hand"] == ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"]
    assert s.record.events == []


def test_multiword_icon_and_suspect(tmp_path):
    s = session(tmp_path)
    assert s.handle("raise Ann light bulb Cat Dan").kind == "accepted"
    assert s.handle("count Ben Dan light bulb 1").kind == "accepted"
    assert s.handle('accuse Cat "James Moriarty" wrong').kind == "accepted"
    assert s.handle("accuse Dan Irene Adler wrong").kind == "accepted"
    events = saved(tmp_path)["events"]
    assert events[0] == {"actor": "Ann", "action": "raise", "icon": "light bulb", "raised": ["Cat", "Dan"]}
    assert events[1]["icon"] == "light bulb" and events[1]["count"] == 1
    assert events[2]["suspect"] == "James Moriarty" and events[3]["suspect"] == "Irene Adler"


def test_refusals_leave_the_file_unchanged(tmp_path):
    s = session(tmp_path)
    s.handle("raise Ann skull Cat")
    before = (tmp_path / "g.json").read_text()
    for line, code in [("count Cat Dan skull 1", 2),      # out of turn (Ben is to play)
                       ("count Ben Dan skull 1", 3),      # Dan did not raise for skull
                       ("count Ben Dan skull", 2),        # missing N
                       ("count Ben Dan skul 1", 3),       # skul is skull (contains rule): contradiction
                       ("count Ben Dan skulls 1", 2),     # unknown icon
                       ("fly Ben", 2)]:
        reply = s.handle(line)
        assert (reply.kind, reply.code) == ("refused", code), line
    assert (tmp_path / "g.json").read_text() == before
    reply = s.handle("count Ben Dan skull 1")
    assert reply.conflict == [0, 1] and "event 0: Ann raise skull (raised: Cat)" in reply.message


def test_undo_and_views(tmp_path):
    s = session(tmp_path)
    assert s.handle("raise Ann eye Ben").kind == "accepted"
    assert s.handle("undo").kind == "accepted"
    assert saved(tmp_path)["events"] == []
    assert s.handle("undo").kind == "refused"
    show = s.handle("show")
    assert show.view == "show" and show.analysis.total == 16800
    assert s.handle("best").analysis.suggestions[0].expected_bits > 0
    assert "Mrs. Hudson cannot be the criminal" in s.handle("why hudson").message
    assert s.handle("quit").kind == "quit"


def test_two_player_exchange_lines(tmp_path):
    s = session(tmp_path, players=["Ann", "Ben"],
                hand=["sherlock", "hudson", "baynes", "Mary Morstan", "adler"])
    assert s.handle("exchange Ann left Mary Morstan moriarty").kind == "accepted"
    assert s.handle("exchange Ben right lestrade").kind == "accepted"
    events = saved(tmp_path)["events"]
    assert events[0] == {"actor": "Ann", "action": "exchange", "side": "left",
                         "revealed": "Mary Morstan", "took": "James Moriarty"}
    assert events[1] == {"actor": "Ben", "action": "exchange", "side": "right",
                         "revealed": "Inspector G. Lestrade"}
    assert s.record.my_current_hand()[3] == 2  # Moriarty took Mary Morstan's slot
    assert s.handle("exchange Ann left adler").code == 2  # the left side is open now


def test_open_existing_contradictory_record_raises(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({
        "game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat"], "me": "Ann",
        "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes", "Mary Morstan"],
        "events": [{"actor": "Ann", "action": "count", "target": "Ben", "icon": "skull", "count": 4}]}))
    with pytest.raises(ContradictionError) as exc:
        TableSession.open(path)
    assert exc.value.conflict == [0]
    with pytest.raises(InputError):
        TableSession.open(tmp_path / "new.json", variant="standard")  # setup incomplete


def test_enter_undo_and_why_are_the_lines_own_steps(tmp_path):
    s = session(tmp_path)
    by_json = s.enter({"actor": "Ann", "action": "raise", "icon": "light bulb", "raised": ["Cat", "Dan"]})
    assert (by_json.kind, by_json.message) == ("accepted", "event 0: Ann raise light bulb (raised: Cat, Dan)")
    assert by_json.analysis.total == s.handle("show").analysis.total
    before = (tmp_path / "g.json").read_text()
    wrong = s.enter({"actor": "Ben", "action": "count", "target": "Ann", "icon": "bulb", "count": 0})
    assert (wrong.kind, wrong.code, wrong.conflict) == ("refused", 3, [1])  # I hold Sherlock and Baynes
    assert "Ben count Ann light bulb: 0 contradicts the record" in wrong.message
    late = s.enter({"actor": "Cat", "action": "raise", "icon": "eye", "raised": []})
    assert (late.kind, late.code) == ("refused", 2) and "out of turn" in late.message
    bad = s.enter({"actor": "Ben", "action": "count", "target": "Ann", "icon": "bulb"})
    assert "field 'count': missing field for a count event" in bad.message
    assert (tmp_path / "g.json").read_text() == before
    assert s.why("hudson").message == s.handle("why hudson").message
    assert s.why("nobody").kind == "refused"
    assert s.undo().message == "undone: Ann raise light bulb (raised: Cat, Dan)"
    assert saved(tmp_path)["events"] == [] and s.undo().message == "nothing to undo"
