"""Hostile input to ``deduce s13`` and ``deduce demo`` through click and a real pipe: names
with markup and control characters, paths that are not files, digits of other scripts,
huge lines, failed writes, records of other games, and ``demo --json``."""

from __future__ import annotations

import errno
import json
import os
import subprocess

import pytest
from click.testing import CliRunner

import deduce.core.records as records
from deduce.cli.main import cli
from deduce.puzzles import puzzle_path
from tests.cli.procs import deduce_argv, quiet_env

DEMO = str(puzzle_path("sherlock13", "demo-4p.json"))
SETUP = ["--variant", "standard", "--players", "Ann,Ben,Cat,Dan", "--me", "Ann",
         "--hand", "sherlock,hudson,baynes"]
NAMES = ["[/bad]", "[bold]x", "\x1b[2J", "B\x07\r"]
SHOWN = ["[/bad]", "[bold]x", "\\x1b[2J", "B\\x07\\x0d"]  # as every human output shows them


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def base(**kw):
    rec = {"game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"],
           "me": "Ann", "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"], "events": []}
    rec.update(kw)
    return rec


def write(path, data):
    path.write_text(json.dumps(data))
    return str(path)


def hostile_record(tmp_path):
    return write(tmp_path / "m.json", base(players=NAMES, me=NAMES[0], events=[
        {"actor": NAMES[0], "action": "raise", "icon": "skull", "raised": [NAMES[2]]},
        {"actor": NAMES[1], "action": "count", "target": NAMES[3], "icon": "book", "count": 1},
        {"actor": NAMES[2], "action": "accuse", "suspect": "James Moriarty", "correct": False},
    ]))


def assert_literal(text: str, names=SHOWN):
    """Every name shown as written, no control character reaches the output."""
    for shown in names:
        assert shown in text, (shown, text)
    assert not any(c in text for c in "\x1b\x07\r"), repr(text)


# ----------------------------------------------------------------------------- names shown literally
def test_analyze_and_why_show_names_literally(tmp_path):
    path = hostile_record(tmp_path)
    res = run("s13", "analyze", path)
    assert res.exit_code == 0
    assert_literal(res.output)
    res = run("s13", "why", path, "moriarty")
    assert res.exit_code == 0 and "event 2: \\x1b[2J accuse James Moriarty: wrong" in res.output
    assert_literal(res.output, ["\\x1b[2J"])
    res = run("s13", "why", path, "watson")  # a deal where guilty: every hand by name
    assert res.exit_code == 0
    assert_literal(res.output)
    out = json.loads(run("s13", "analyze", path, "--json").output)
    assert list(out["holders"]) == NAMES[1:]  # JSON keeps the raw strings


def test_demo_record_shows_names_literally(tmp_path):
    path = hostile_record(tmp_path)
    for extra in ([], ["--compact"]):
        res = run("demo", "--record", path, *extra)
        assert res.exit_code == 0
        assert_literal(res.output, ["[/bad]", "\\x1b[2J", "B\\x07\\x0d"])
        assert "after event 0: [/bad] raise skull (raised: \\x1b[2J)" in res.output


def test_piped_table_shows_names_literally_in_oks_and_refusals(tmp_path):
    path = hostile_record(tmp_path)
    lines = ["count zzzz [bold]x pipe 1",            # unknown player: the names are listed
             "count [bold]x [/bad] pipe 1",          # out of turn
             "count b [bold]x skull 3",               # contradiction (3 skulls for a 3-card hand)
             "count b [bold]x pipe 1"]
    res = run("s13", "table", path, input="\n".join(lines) + "\n")
    assert res.exit_code == 2
    assert res.stdout == "ok: event 3: B\\x07\\x0d count [bold]x pipe: 1\n"
    errors = res.stderr.splitlines()
    assert len(errors) == 3
    assert "known: [/bad], [bold]x, \\x1b[2J, B\\x07\\x0d" in errors[0]
    assert "out of turn: [bold]x acted but it is B\\x07\\x0d's turn" in errors[1]
    assert errors[2].startswith("refused: B\\x07\\x0d count [bold]x skull: 3 contradicts the record")
    assert_literal(res.stderr)


# ----------------------------------------------------------------------------- digits
def test_piped_table_digits_of_other_scripts(tmp_path):
    path = tmp_path / "g.json"
    res = run("s13", "table", str(path), *SETUP,
              input="raise Ann skull Cat\ncount Ben Dan book ²\ncount Ben Dan book ٣\n")
    assert res.exit_code == 2
    assert res.stderr == ("refused: count ASKER TARGET ICON N: expected N (a count) from 0 to 5, "
                          "got '²'\n")
    assert res.stdout.splitlines()[-1] == "ok: event 1: Ben count Dan book: 3"
    assert json.loads(path.read_text())["events"][1]["count"] == 3


# ----------------------------------------------------------------------------- one line per refusal
def test_piped_contradiction_refusals_are_one_line_each(tmp_path):
    path = tmp_path / "g.json"
    lines = ["raise Ann skull Cat", "count Ben Dan book 1", "count Cat Ann pipe 2",
             "count Dan Cat skull 0",                   # contradicts event 0 (Cat has a skull)
             "count Dan Ben skull 1",                   # contradicts event 0 (Ben has none)
             "count Dan Ben fist 1"]
    res = run("s13", "table", str(path), *SETUP, input="\n".join(lines) + "\n")
    assert res.exit_code == 3
    errors = res.stderr.splitlines()
    assert errors == [
        "refused: Dan count Cat skull: 0 contradicts the record; these events cannot all hold "
        "with my hand: event 0: Ann raise skull (raised: Cat); event 3: Dan count Cat skull: 0",
        "refused: Dan count Ben skull: 1 contradicts the record; these events cannot all hold "
        "with my hand: event 0: Ann raise skull (raised: Cat); event 3: Dan count Ben skull: 1",
    ]
    assert len(json.loads(path.read_text())["events"]) == 4


# ----------------------------------------------------------------------------- paths that are not files
def _not_files(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    (tmp_path / "folder.json").mkdir()
    return [("a folder", str(tmp_path / "folder.json")), ("a FIFO (named pipe)", str(fifo)),
            ("a character device", "/dev/zero")]


@pytest.mark.parametrize("command", [["s13", "analyze"], ["s13", "why"], ["s13", "table"],
                                     ["demo", "--record"]])
def test_paths_that_are_not_regular_files(tmp_path, command):
    for kind, path in _not_files(tmp_path):
        args = command + [path] + (["moriarty"] if command[1] == "why" else [])
        res = run(*args, input="quit\n")
        assert res.exit_code == 2, res.output
        assert res.stderr == (f"error: {path}: cannot read file: it is {kind}, and only "
                              "regular files are read\n")
    assert not os.path.exists("/dev/.zero.lock")


# ----------------------------------------------------------------------------- failed writes
def test_failed_writes_in_a_piped_session(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(base()))
    before = path.read_text()
    real, calls = records.os.replace, [0]

    def replace(src, dst, *a, **kw):  # the disk is full for the 1st and 3rd write
        if str(dst) == str(path.resolve()):
            calls[0] += 1
            if calls[0] in (1, 3):
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(records.os, "replace", replace)
    res = run("s13", "table", str(path),
              input="raise Ann skull Cat\nraise Ann skull Cat\nundo\ncount Ben Dan book 1\n")
    assert res.exit_code == 2
    refusal = f"refused: {path}: cannot write the file: No space left on device"
    assert res.stderr.splitlines() == [refusal, refusal]
    assert res.stdout.splitlines() == ["ok: event 0: Ann raise skull (raised: Cat)",
                                       "ok: event 1: Ben count Dan book: 1"]
    assert [e["action"] for e in json.loads(path.read_text())["events"]] == ["raise", "count"]
    assert json.loads(before)["events"] == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_refuses_the_entry_and_the_session_goes_on(tmp_path):
    from deduce.models.sherlock13.table import TableSession

    folder = tmp_path / "ro"
    folder.mkdir()
    with TableSession.open(folder / "g.json", variant="standard", players="Ann,Ben,Cat,Dan",
                           me="Ann", hand="sherlock,hudson,baynes") as s:
        before = (folder / "g.json").read_text()
        folder.chmod(0o500)
        try:
            reply = s.handle("raise Ann skull Cat")
            assert (reply.kind, reply.code) == ("refused", 2)
            assert reply.message == f"{folder / 'g.json'}: cannot write the file: Permission denied"
            assert (folder / "g.json").read_text() == before
        finally:
            folder.chmod(0o700)
        assert s.handle("raise Ann skull Cat").kind == "accepted"


def test_a_new_record_in_a_missing_folder(tmp_path):
    path = tmp_path / "no" / "such" / "g.json"
    res = run("s13", "table", str(path), *SETUP, input="quit\n")
    assert res.exit_code == 2
    assert res.stderr == f"error: {path}: cannot create the record: its folder does not exist\n"
    assert not (tmp_path / "no").exists()


def test_setup_options_for_an_existing_record_are_noted(tmp_path):
    path = write(tmp_path / "g.json", base())
    res = run("s13", "table", path, "--variant", "expert", "--me", "Ben", input="quit\n")
    assert res.exit_code == 0
    assert res.stderr == (f"note: {path} exists, so --variant, --me (for a new record) are "
                          "ignored: entries go on from its last event\n")
    res = run("s13", "table", str(tmp_path / "n.json"), *SETUP[:-2], "--hand", "sherlock,hudson",
              input="quit\n")
    assert res.exit_code == 2 and "field 'hand': with 4 players a hand has 3 cards, not 2" in res.stderr


# ----------------------------------------------------------------------------- a 10 MB line
def test_a_huge_line_through_a_pipe_is_refused_and_the_next_is_read(tmp_path):
    path = tmp_path / "g.json"
    data = b"raise Ann " + b"x" * (10 * 1024 * 1024) + b"\nraise Ann skull Cat\n"
    proc = subprocess.run(deduce_argv() + ["s13", "table", str(path), *SETUP], input=data,
                          capture_output=True, env=quiet_env(), timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == b"refused: line too long: more than the cap of 1,000 characters\n"
    assert proc.stdout == b"ok: event 0: Ann raise skull (raised: Cat)\n"


# ----------------------------------------------------------------------------- other games
def test_other_games_records_are_named(tmp_path):
    story = write(tmp_path / "case.json", {"game": "detective-story", "version": 1,
                                           "adventure": "a001", "turn": 1, "sm": 1})
    res = run("s13", "analyze", story)
    assert res.exit_code == 2
    assert res.stderr == (f"error: {story}: this is a Detective Story case record, not a "
                          "Sherlock 13 record (use deduce story ...)\n")
    res = run("s13", "analyze", write(tmp_path / "l.json", [1, 2]))
    assert "a record is a JSON object, and this file holds a list" in res.stderr
    res = run("s13", "analyze", write(tmp_path / "w.json", {"wrong": True, "count": True}))
    assert res.exit_code == 2 and "not a Sherlock 13 record: no field 'game'" in res.stderr


# ----------------------------------------------------------------------------- no accuse advice without a next turn
def test_demo_last_step_has_no_accuse_advice():
    res = run("demo")
    assert res.exit_code == 0
    last = res.output.split("Game over: Dan wins.")[1]
    assert "No questions: I have no next turn (the game is over: Dan wins)." in last
    assert "ccus" not in last.replace("after event", "")
    before = res.output.split("Game over: Dan wins.")[0].splitlines()
    assert len([line for line in before if line.startswith("Accus")]) == 12  # one per step
    assert before[-2] == "Accuse Inspector Hopkins now: certain."


def test_an_eliminated_me_gets_no_accuse_advice(tmp_path):
    path = write(tmp_path / "g.json", base(events=[
        {"actor": "Ann", "action": "accuse", "suspect": "moriarty", "correct": False}]))
    res = run("s13", "analyze", path)
    assert res.exit_code == 0
    assert "No questions: I have no next turn (I am eliminated by a wrong accusation)." in res.output
    assert "Accus" not in res.output
    assert json.loads(run("s13", "analyze", path, "--json").output)["suggestions"] == []


# ----------------------------------------------------------------------------- demo --json
def test_demo_json_lines_are_the_analyses_of_each_step(tmp_path):
    res = run("demo", "--json")
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    full = json.loads(open(DEMO).read())
    assert len(lines) == len(full["events"]) + 1
    for step, line in enumerate(lines):
        obj = json.loads(line)
        assert obj.pop("step") == step
        assert obj.pop("event") == (full["events"][step - 1] if step else None)
        cut = write(tmp_path / f"s{step}.json", {**full, "events": full["events"][:step]})
        assert obj == json.loads(run("s13", "analyze", cut, "--json").output)


def test_demo_json_of_a_contradictory_record_prints_no_step(tmp_path):
    path = write(tmp_path / "c.json", base(events=[
        {"actor": "Ann", "action": "raise", "icon": "skull", "raised": ["Cat"]},
        {"actor": "Ben", "action": "count", "target": "Cat", "icon": "skull", "count": 0}]))
    res = run("demo", "--record", path, "--json")
    assert res.exit_code == 3
    out = json.loads(res.stdout)  # one JSON document: the error
    assert out["error"] == "contradiction" and out["conflict"] == [0, 1]
