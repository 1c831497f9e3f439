"""``table.TableSession``, the live session without click: a scripted ``Port`` answers, the
record is saved after every phase, undo goes back across phases, refusals set the exit
code, the end of the input stops, and the record stays locked for the session's life."""

from __future__ import annotations

import json

import pytest

from deduce.core.errors import InputError
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.table import EndOfInput, TableSession


class Script:
    """A ``Port`` that answers from ``lines`` and keeps everything said."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.asked, self.refused, self.told, self.reports, self.advice = [], [], [], [], []

    def ask(self, question, default):
        self.asked.append(question)
        if not self.lines:
            raise EndOfInput()
        text = self.lines.pop(0)
        return default if not text.strip() and default is not None else text

    def refuse(self, message):
        self.refused.append(message)

    def tell(self, text):
        self.told.append(text)

    def report(self, text):
        self.reports.append(text)

    def show_advice(self, case, phase, advice):
        self.advice.append((case.turn, phase))

    def reroll_text(self, reroll):
        return f"re-roll? {reroll.spend}"


@pytest.fixture
def late(tmp_path, tiny_session_dir):
    """A tiny-campaign case at turn 11 with the Villain known (its DP takes milliseconds)."""
    rec = new_record(load_campaign(tiny_session_dir), "a001", seed=2,
                     data_dir=str(tiny_session_dir))
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    path = tmp_path / "late.json"
    path.write_text(json.dumps(rec))
    return path


def play(path, lines):
    port = Script(lines)
    with TableSession.open(str(path), None, port) as session:
        session.prepare()
        ended = session.run()
    return session, port, ended


def test_a_session_saves_each_phase_and_undoes_across_phases(late):
    before = json.loads(late.read_text())
    # Wait; Encounter 2 (quiet) -> turn 12; undo (back to the encounter); undo (its first
    # question: back to the Action); quit
    session, port, ended = play(late, ["wait", "2", "undo", "undo", "quit"])
    assert not ended and session.first_code == 0 and port.refused == []
    assert port.advice == [(11, "action"), (11, "encounter"), (12, "action"),
                           (11, "encounter"), (11, "action")]
    assert port.reports == ["  turn 11: Wait", "  encounter: 2d6 2+1 = 3",
                            "Saved: turn 12, SM 1, Luck 2.",
                            "Undone: back to turn 11 (encounter), SM 1, Luck 2.",
                            "Undone: back to turn 11 (action), SM 1, Luck 2."]
    assert json.loads(late.read_text()) == before | {"phase": "action", "waited": False}


def test_refusals_set_the_exit_code_and_the_phase_goes_on(late):
    session, port, ended = play(late, ["fly", "wait", "13", "7" * 1001, "2"])
    assert ended  # the input ended at turn 12's Action
    assert session.first_code == 2
    assert port.refused[0].startswith("unknown action 'fly'")
    assert port.refused[1:] == ["expected a dice total from 2 to 12, got '13'",
                                "line too long: more than the cap of 1,000 characters"]
    rec = json.loads(late.read_text())
    assert (rec["turn"], rec["phase"]) == (12, "action")


def test_undo_mid_phase_starts_it_again_and_nothing_to_undo_is_refused(late):
    before = late.read_text()
    session, port, _ = play(late, ["undo", "investigate", "8", "undo", "quit"])
    assert port.refused == ["nothing to undo in this session"]
    assert port.told[0].startswith("re-roll? ")  # the advice on re-rolling the 8
    assert port.told[1:] == ["undone: this phase starts again"]
    assert port.asked[-1].startswith("Action (or undo, quit)")
    assert (session.case.turn, session.phase) == (11, "action")
    assert late.read_text() == before


def test_the_record_is_locked_for_the_session(late):
    with TableSession.open(str(late), None, Script([])):
        with pytest.raises(InputError, match="already open"):
            TableSession.open(str(late), None, Script([]))
    TableSession.open(str(late), None, Script([])).close()  # let go at the end


def test_a_refused_record_lets_the_lock_go(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{}")
    with pytest.raises(InputError):
        TableSession.open(str(path), None, Script([]))
    with pytest.raises(InputError):  # refused for the record again, not for a lock
        TableSession.open(str(path), None, Script([]))
