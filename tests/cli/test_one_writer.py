"""One writer per record: a second live session on a record is refused at once, and no
entry the first session acknowledged is ever lost."""

import json
import select
import subprocess
import sys

from tests.cli.procs import deduce_argv, quiet_env

SETUP = ["--variant", "standard", "--players", "Ann,Ben,Cat,Dan", "--me", "Ann",
         "--hand", "sherlock,hudson,baynes"]
ENTRIES = ["raise Ann skull Cat", "count Ben Dan book 1", "accuse Cat moriarty wrong",
           "count Dan Ann light bulb 2"]


def _start_session(path):
    return subprocess.Popen(deduce_argv() + ["s13", "table", str(path), *SETUP],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=quiet_env())


def _enter(proc, line: str) -> str:
    """Send one entry and return the session's answer on stdout (never waits forever)."""
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    assert ready, f"no answer to {line!r} on stdout"
    return proc.stdout.readline().strip()


def test_a_second_s13_table_session_is_refused_and_nothing_acknowledged_is_lost(tmp_path):
    path = tmp_path / "game.json"
    first = _start_session(path)
    try:
        assert _enter(first, ENTRIES[0]).startswith("ok: event 0")
        second = subprocess.run(deduce_argv() + ["s13", "table", str(path)], input="undo\n",
                                capture_output=True, text=True, env=quiet_env(), timeout=60)
        assert second.returncode == 2
        assert second.stdout == ""
        assert f"error: {path}: the record is in use by another deduce session (process " \
               f"{first.pid})" in second.stderr
        acknowledged = 1
        for line in ENTRIES[1:]:
            assert _enter(first, line).startswith(f"ok: event {acknowledged}")
            acknowledged += 1
            on_disk = json.loads(path.read_text(encoding="utf-8"))
            assert len(on_disk["events"]) == acknowledged  # saved before the ok
        first.stdin.write("quit\n")
        first.stdin.close()
        assert first.wait(timeout=60) == 0
    finally:
        first.kill()
    assert [e["action"] for e in json.loads(path.read_text())["events"]] == \
        ["raise", "count", "accuse", "count"]
    # the session is over: the record is free again
    again = subprocess.run(deduce_argv() + ["s13", "table", str(path)], input="undo\n",
                           capture_output=True, text=True, env=quiet_env(), timeout=60)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("ok: undone: Dan count Ann light bulb: 2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def _late_story_record(path):
    """A Detective Story case at turn 11 with the Villain known (its DP takes a moment)."""
    made = subprocess.run(deduce_argv() + ["story", "new", "--adventure", "a001", "--seed", "7",
                                           str(path)], capture_output=True, text=True,
                          env=quiet_env(), timeout=60)
    assert made.returncode == 0, made.stderr
    rec = json.loads(path.read_text())
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    path.write_text(json.dumps(rec))


def test_a_one_shot_writer_refuses_a_record_held_by_a_live_session(tmp_path):
    record = tmp_path / "case.json"
    _late_story_record(record)
    before = record.read_bytes()
    table = subprocess.Popen(deduce_argv() + ["story", "table", str(record)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=quiet_env())
    try:
        ready, _, _ = select.select([table.stderr], [], [], 60)
        assert ready, "the table session asked nothing"
        assert table.stderr.readline().startswith("Action (or undo, quit)")  # solved, asking
        turn = subprocess.run(deduce_argv() + ["story", "turn", str(record), "wait", "-a", "2"],
                              capture_output=True, text=True, env=quiet_env(), timeout=60)
        assert turn.returncode == 2
        assert f"{record}: the record is in use by another deduce session (process " \
               f"{table.pid}), waited 2 s" in turn.stderr
        assert record.read_bytes() == before
        table.stdin.write("quit\n")
        table.stdin.close()
        assert table.wait(timeout=60) == 0
    finally:
        table.kill()
        table.wait()
    assert record.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.json"]


def test_a_story_table_on_a_record_held_by_another_process_is_refused_at_once(tmp_path):
    record = tmp_path / "case.json"
    _late_story_record(record)
    before = record.read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from deduce.core.records import RecordLock\n"
         "lock = RecordLock(sys.argv[1]); print('locked', flush=True); time.sleep(30)",
         str(record)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        table = subprocess.run(deduce_argv() + ["story", "table", str(record)], input="wait\n2\n",
                               capture_output=True, text=True, env=quiet_env(), timeout=60)
        assert table.returncode == 2
        assert table.stdout == ""
        assert table.stderr == (f"error: {record}: the record is in use by another deduce "
                                f"session (process {holder.pid}): finish that session first "
                                "(one writer per record)\n")  # at once: no wait
        assert record.read_bytes() == before
    finally:
        holder.kill()
        holder.wait()
