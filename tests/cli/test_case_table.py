"""``deduce case table`` as a person runs it: through pipes (one line per entry, refusals on
stderr, the exit code of the first refusal), on a terminal (prompts, a compact view after
each entry, names shown literally, Ctrl-D leaves), one session per record, and a failed
write that refuses the entry while the session goes on."""

from __future__ import annotations

import errno
import json
import select
import subprocess

import pexpect
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core import records
from tests.casenotes.helpers import HOSTILE, HOSTILE_SHOWN
from tests.cli.procs import deduce_argv, quiet_env
from tests.cli.test_terminal import clean, finish, say, screen, spawn, through_pipes, wait

PROMPT = r"\[(\d+) of 15 notes read\] > "
VENN = "visited Location 2: Venn's Ledger: read note 1"
SCOTLAND_YARD = ('read note 0 (Location 1: Scotland Yard): "Mr. Marsh told Gregson he had only '
                 'come to collect a parcel. The constable on the corner saw a private carriage '
                 'draw up at the shop as the clock struck eleven."  [Marsh == collect and '
                 'hour(private) == 11]')
OPEN = ["  Who took the Hallam silver?  ?5", "  At what hour did the thief call?  ?5",
        "  How did the thief come to Lantern Street?  ?5", "  Why did the thief do it?  ?3",
        "  Where is the silver hidden?  ?3"]


def read(path) -> list[int]:
    return json.loads(path.read_text(encoding="utf-8"))["read"]


def test_through_a_pipe_each_entry_answers_with_one_line(tmp_path):
    res = through_pipes(["case", "table", "notes.json", "--case", "lantern-street"], tmp_path,
                        "visit venn\nnote 99\nvisit 2\nnote 0\nundo\nanswers\nquit\nnote 3\n")
    clean(res.stdout + res.stderr)
    assert res.returncode == 2  # that of the first refusal
    assert res.stdout.splitlines() == [
        f"ok: {VENN}", f"ok: {SCOTLAND_YARD}", f"ok: undone: {SCOTLAND_YARD}",
        "1 of 15 notes read; 0 of 5 answers fixed.",
        "  Who took the Hallam silver?  one of: Edmund Pryce / Florence Abney / Gideon Marsh "
        "/ Harriet Quill / Silas Drummond",
        "  At what hour did the thief call?  one of: 7 / 8 / 9 / 10 / 11",
        "  How did the thief come to Lantern Street?  one of: hansom / growler / omnibus / on "
        "foot / private carriage",
        "  Why did the thief do it?  one of: debt / revenge / greed",
        "  Where is the silver hidden?  one of: chimney / floorboards / coal cellar"]
    assert res.stderr.splitlines() == [
        "refused: note N: expected a note number from 0 to 14, got '99'",
        "refused: already read: every note of Location 2: Venn's Ledger (note 1)"]
    assert read(tmp_path / "notes.json") == [1]  # quit: the last line is never read


def test_a_contradiction_through_a_pipe_is_one_line_and_exit_3(tmp_path):
    case = tmp_path / "c.toml"
    case.write_text('title = "C"\n[categories]\nperson = ["Ann", "Bob"]\npet = ["cat", "dog"]\n'
                    '[[note]]\nsource = "Location 1: A"\ntext = "a"\nrule = "Ann == cat"\n'
                    '[[note]]\nsource = "Location 2: B"\ntext = "b"\nrule = "Ann == dog"\n',
                    encoding="utf-8")
    res = through_pipes(["case", "table", "r.json", "--case", "c.toml"], tmp_path,
                        "visit 1\nvisit 2\nnote 7\n")
    assert res.returncode == 3
    assert res.stderr.splitlines() == [
        'refused: note 1 contradicts the notes read; these notes cannot all hold: note 0 '
        '(Location 1: A): "a"  [Ann == cat]; note 1 (Location 2: B): "b"  [Ann == dog]',
        "refused: note N: expected a note number from 0 to 1, got '7'"]
    assert read(tmp_path / "r.json") == [0]


def test_on_a_terminal_prompts_views_undo_and_ctrl_d(tmp_path):
    path = tmp_path / "notes.json"
    child = spawn(["case", "table", "notes.json", "--case", "lantern-street"], tmp_path)
    shown = wait(child, PROMPT)
    assert shown == ["notes.json: The Lantern Street Pawnshop. Type help for commands.",
                     "0 of 15 notes read; 0 of 5 answers fixed."] + OPEN
    assert child.match[1] == "0" and read(path) == []  # created before the first entry
    assert say(child, "visit 2", PROMPT) == ["visit 2", f"ok {VENN}",
                                            "1 of 15 notes read; 0 of 5 answers fixed."] + OPEN
    assert child.match[1] == "1" and read(path) == [1]  # saved before the ok
    assert say(child, "visit 2", PROMPT) == [
        "visit 2", "refused: already read: every note of Location 2: Venn's Ledger (note 1)"]
    shown = say(child, "show", PROMPT)
    assert shown[1] == "The Lantern Street Pawnshop: what notes 1 force (solved, ?n: n values left)"
    assert shown[2].split() == ["hour", "visitor", "errand", "travel"]
    assert shown[-6:] == ["1 of 15 notes read; 0 of 5 answers fixed.",
                          "  Who took the Hallam silver?  one of: Edmund Pryce / Florence Abney "
                          "/ Gideon Marsh / Harriet Quill / Silas Drummond",
                          "  At what hour did the thief call?  one of: 7 / 8 / 9 / 10 / 11",
                          "  How did the thief come to Lantern Street?  one of: hansom / growler "
                          "/ omnibus / on foot / private carriage",
                          "  Why did the thief do it?  one of: debt / revenge / greed",
                          "  Where is the silver hidden?  one of: chimney / floorboards / coal "
                          "cellar"]
    assert say(child, "undo", PROMPT)[:2] == ["undo", f"ok undone: {VENN}"]
    assert say(child, "undo", PROMPT) == ["undo", "refused: nothing to undo"]
    assert child.match[1] == "0" and read(path) == []
    child.sendeof()
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    assert screen(raw)[-2:] == ["[0 of 15 notes read] >", "bye: the record is saved"]


#: what a case file could smuggle in: clear screen, set colour red, bell
SMUGGLED = ["\x1b[2J", "\x1b[31m", "\x07"]


def test_names_are_shown_literally_on_a_terminal(tmp_path):
    (tmp_path / "h.toml").write_text(HOSTILE, encoding="utf-8")
    child = spawn(["case", "table", "h.json", "--case", "h.toml"], tmp_path)
    prompt = r"\[\d of 3 notes read\] > "
    wait(child, prompt)
    shown = say(child, "visit 1", prompt)
    assert shown[1] == f"ok visited {HOSTILE_SHOWN['source']}: read note 0"
    shown = say(child, "visit loc 2", prompt)
    assert f"  {HOSTILE_SHOWN['question']}  {HOSTILE_SHOWN['items'][1]}" in shown
    say(child, "quit", pexpect.EOF)
    code, raw = finish(child)
    assert code == 0
    for bad in SMUGGLED:
        assert bad not in raw, bad
    assert f"{HOSTILE_SHOWN['title']}. Type help for commands." in "\n".join(screen(raw))


def test_a_second_session_is_refused_and_nothing_acknowledged_is_lost(tmp_path):
    path = tmp_path / "notes.json"
    first = subprocess.Popen(deduce_argv() + ["case", "table", str(path), "--case", "kew-orchid"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=quiet_env())
    try:
        for entry, notes in (("visit 1", 1), ("note 14", 2)):
            first.stdin.write(entry + "\n")
            first.stdin.flush()
            ready, _, _ = select.select([first.stdout], [], [], 60)
            assert ready and first.stdout.readline().startswith("ok: ")
            assert len(read(path)) == notes  # saved before the ok
            second = subprocess.run(deduce_argv() + ["case", "table", str(path)], input="undo\n",
                                    capture_output=True, text=True, env=quiet_env(), timeout=60)
            assert second.returncode == 2 and second.stdout == ""
            assert f"error: {path}: the record is in use by another deduce session (process " \
                   f"{first.pid})" in second.stderr
        first.stdin.write("quit\n")
        first.stdin.close()
        assert first.wait(timeout=60) == 0
    finally:
        first.kill()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json"]


def test_failed_writes_in_a_piped_session(tmp_path, monkeypatch):
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"game": "case-notes", "case": "lantern-street", "read": []}))
    real, calls = records.os.replace, [0]

    def replace(src, dst, *a, **kw):  # the disk is full for the 1st and 3rd write
        if str(dst) == str(path.resolve()):
            calls[0] += 1
            if calls[0] in (1, 3):
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(records.os, "replace", replace)
    res = CliRunner().invoke(cli, ["case", "table", str(path)],
                             input="visit 2\nvisit 2\nundo\nnote 0\n")
    assert res.exit_code == 2
    refusal = f"refused: {path}: cannot write the file: No space left on device"
    assert res.stderr.splitlines() == [refusal, refusal]
    assert res.stdout.splitlines() == [f"ok: {VENN}", f"ok: {SCOTLAND_YARD}"]
    assert read(path) == [1, 0]


def test_a_record_that_exists_ignores_case_with_a_note_and_a_new_one_needs_it(tmp_path):
    res = through_pipes(["case", "table", "n.json"], tmp_path, "quit\n")
    assert res.returncode == 2
    assert res.stderr == "error: n.json: the record does not exist yet: give --case CASE\n"
    (tmp_path / "n.json").write_text(json.dumps({"game": "case-notes", "case": "zebra",
                                                 "read": [0]}))
    res = through_pipes(["case", "table", "n.json", "--case", "kew-orchid"], tmp_path, "undo\n")
    assert res.returncode == 0 and res.stdout.startswith("ok: undone: read note 0")
    assert res.stderr == ("note: n.json exists, so --case (for a new record) is ignored: "
                          "entries go on from its last note\n")
