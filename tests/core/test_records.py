"""Atomic JSON records: round trip, no temp files left, the old file survives a failure."""

import errno
import json
import os
import stat

import pytest

from deduce.core import records
from deduce.core.errors import ExitCode, InputError
from deduce.core.records import read_json, write_json_atomic

DATA = {
    "game": "sherlock13",
    "players": ["Ann", "Ben"],
    "hand": ["Mrs. Hudson", "Inspector G. Lestrade"],
    "events": [{"count": 2, "correct": False, "raised": [], "x": None, "f": 1.5}],
    "unicode": "Zoë — “quotes”",
}


def test_round_trip(tmp_path):
    path = tmp_path / "game.json"
    write_json_atomic(path, DATA)
    assert read_json(path) == DATA
    assert json.loads(path.read_text(encoding="utf-8")) == DATA
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert "Zoë — “quotes”" in text  # written as UTF-8, not \u escapes
    assert text.startswith('{\n  "game": "sherlock13"')  # indented


def test_round_trip_accepts_str_paths_and_overwrites(tmp_path):
    path = str(tmp_path / "game.json")
    write_json_atomic(path, [1, 2, 3])
    write_json_atomic(path, {"second": True})
    assert read_json(path) == {"second": True}
    assert os.listdir(tmp_path) == ["game.json"]


def test_relative_path_in_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_json_atomic("plain.json", {"a": 1})
    assert read_json("plain.json") == {"a": 1}
    assert os.listdir(tmp_path) == ["plain.json"]


def test_leaves_no_temp_file(tmp_path):
    for i in range(5):
        write_json_atomic(tmp_path / "game.json", {"i": i})
    assert sorted(os.listdir(tmp_path)) == ["game.json"]
    assert read_json(tmp_path / "game.json") == {"i": 4}


def test_old_file_survives_when_json_dump_raises(tmp_path):
    path = tmp_path / "game.json"
    write_json_atomic(path, DATA)
    before = path.read_bytes()
    # the dict serialises partly before the unserialisable value is reached
    with pytest.raises(TypeError):
        write_json_atomic(path, {"a": list(range(100)), "z": object()})
    assert path.read_bytes() == before
    assert read_json(path) == DATA
    assert os.listdir(tmp_path) == ["game.json"]


def test_no_file_is_created_when_the_first_write_fails(tmp_path):
    with pytest.raises(TypeError):
        write_json_atomic(tmp_path / "new.json", {1j: "complex key"})
    assert os.listdir(tmp_path) == []


def test_old_file_survives_an_interrupt_and_a_failed_rename(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    write_json_atomic(path, DATA)
    before = path.read_bytes()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(records.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_json_atomic(path, {"new": 1})
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.json"]


def test_fsync_happens_before_the_rename(tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(records.os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(records.os, "replace",
                        lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    write_json_atomic(tmp_path / "game.json", {"a": 1})
    assert calls[:2] == ["fsync", "replace"]
    assert read_json(tmp_path / "game.json") == {"a": 1}


def test_read_json_missing_file_names_it(tmp_path):
    path = tmp_path / "nope.json"
    with pytest.raises(InputError) as info:
        read_json(path)
    assert str(info.value) == f"{path}: file not found"
    assert info.value.exit_code == ExitCode.BAD_INPUT == 2


def test_read_json_bad_json_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n  "a": 1,\n  "b": \n}\n', encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_json(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: not valid JSON (line 4, column 1)")
    assert info.value.where == str(path)


def test_read_json_not_utf8(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(InputError, match="cannot read file"):
        read_json(path)


def test_read_json_folder_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read file"):
        read_json(tmp_path)


# ----------------------------------------------------------------------------- hostile reads
def test_only_regular_files_are_read(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody writes to it: reading it would hang
    with pytest.raises(InputError, match="it is a FIFO .* only regular files are read"):
        read_json(fifo)
    with pytest.raises(InputError, match="it is a character device"):
        read_json("/dev/zero")  # an endless stream
    with pytest.raises(InputError, match="it is a folder"):
        records.read_toml(tmp_path)


def test_files_over_the_cap_are_refused_without_reading_them_whole(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("[" + "1," * 600 + "1]", encoding="utf-8")
    assert len(read_json(path)) == 601
    with pytest.raises(InputError, match="file too large: more than the cap of 1,000 bytes"):
        read_json(path, max_bytes=1000)


def test_a_byte_order_mark_is_accepted(tmp_path):
    j, t = tmp_path / "bom.json", tmp_path / "bom.toml"
    j.write_bytes(b"\xef\xbb\xbf" + b'{"a": 1}')
    t.write_bytes(b"\xef\xbb\xbf" + "title = \"Zoë\"\n".encode())
    assert read_json(j) == {"a": 1}
    assert records.read_toml(t) == {"title": "Zoë"}


@pytest.mark.parametrize("text", ["9" * 5000, '{"a": ' + "1" * 4301 + "}"])
def test_json_integers_past_the_string_limit(tmp_path, text):
    path = tmp_path / "long.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="integer has more than 4,300 digits"):
        read_json(path)


def test_toml_integers_past_the_string_limit(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text("a = " + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="integer has more than 4,300 digits"):
        records.read_toml(path)


@pytest.mark.parametrize("depth", [65, 300, 100_000])
def test_deep_nesting_is_refused_at_the_cap(tmp_path, depth):
    j, t = tmp_path / "deep.json", tmp_path / "deep.toml"
    j.write_text("[" * depth + "]" * depth, encoding="utf-8")
    t.write_text("a = " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    for path, read in ((j, read_json), (t, records.read_toml)):
        with pytest.raises(InputError, match="nested too deeply.*cap of 64 levels"):
            read(path)


def test_nesting_at_the_cap_is_read(tmp_path):
    j = tmp_path / "deep.json"
    j.write_text("[" * 64 + "]" * 64, encoding="utf-8")
    assert records.nesting_depth(read_json(j)) == 64


def test_deep_nesting_is_refused_whatever_the_recursion_limit(tmp_path):
    import sys

    j = tmp_path / "deep.json"
    j.write_text("[" * 15000 + "]" * 15000, encoding="utf-8")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)  # a caller may have raised it
    try:
        with pytest.raises(InputError, match="nested too deeply"):
            read_json(j)
        assert sys.getrecursionlimit() == 20000
    finally:
        sys.setrecursionlimit(old)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_nan_and_infinity_are_refused(tmp_path, constant):
    path = tmp_path / "nan.json"
    path.write_text(f'{{"count": {constant}}}', encoding="utf-8")
    with pytest.raises(InputError, match=f"{constant} is not a number JSON allows"):
        read_json(path)


# ----------------------------------------------------------------------------- failed writes
def test_write_into_a_missing_folder(tmp_path):
    path = tmp_path / "no" / "such" / "game.json"
    with pytest.raises(InputError) as info:
        write_json_atomic(path, DATA)
    assert str(info.value) == f"{path}: cannot write the file: its folder does not exist"
    assert os.listdir(tmp_path) == []


def test_write_under_a_regular_file(tmp_path):
    (tmp_path / "file.json").write_text("{}", encoding="utf-8")
    path = tmp_path / "file.json" / "game.json"
    with pytest.raises(InputError, match="cannot write the file: a path in it is a file"):
        write_json_atomic(path, DATA)
    assert os.listdir(tmp_path) == ["file.json"]


@pytest.mark.parametrize("where,err", [("mkstemp", errno.EACCES), ("fsync", errno.ENOSPC),
                                       ("replace", errno.EROFS)])
def test_a_failed_write_names_the_reason_and_changes_nothing(tmp_path, monkeypatch, where, err):
    path = tmp_path / "game.json"
    write_json_atomic(path, DATA)
    before = path.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(err, os.strerror(err))

    target = records.tempfile if where == "mkstemp" else records.os
    monkeypatch.setattr(target, where, fail)
    with pytest.raises(InputError) as info:
        write_json_atomic(path, {"new": 1})
    assert str(info.value) == f"{path}: cannot write the file: {os.strerror(err)}"
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.json"]  # no temp file, no lock file


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_write_into_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(InputError, match="Permission denied"):
            write_json_atomic(folder / "game.json", DATA)
    finally:
        folder.chmod(0o700)


def test_new_files_follow_the_umask_and_existing_ones_keep_their_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_json_atomic(tmp_path / "new.json", DATA)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640
    kept = tmp_path / "kept.json"
    write_json_atomic(kept, DATA)
    kept.chmod(0o604)
    write_json_atomic(kept, {"again": 1})
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o604


def test_leftovers_of_a_killed_write_are_removed_by_the_next_write(tmp_path):
    path = tmp_path / "game.json"
    (tmp_path / ".game.json.abc123.tmp").write_text('{"half', encoding="utf-8")
    (tmp_path / ".other.json.abc123.tmp").write_text("{", encoding="utf-8")  # not ours
    write_json_atomic(path, DATA)
    assert sorted(os.listdir(tmp_path)) == [".other.json.abc123.tmp", "game.json"]


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "real.json"
    write_json_atomic(real, {"v": 1})
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_json_atomic(link, {"v": 2})
    assert link.is_symlink() and read_json(real) == {"v": 2}


# ----------------------------------------------------------------------------- the lock
def test_a_second_lock_on_a_record_is_refused_and_names_the_holder(tmp_path):
    path = tmp_path / "game.json"
    with records.RecordLock(path):
        assert records.lock_path(path).exists()
        with pytest.raises(InputError, match="already open in this session"):
            records.RecordLock(path)
        assert records.holds_lock(path)
        write_json_atomic(path, DATA)  # the holder writes freely
    assert not records.holds_lock(path)
    assert os.listdir(tmp_path) == ["game.json"]  # the sidecar goes with the lock
    with records.RecordLock(path):
        pass


LOCKER = """
import sys, time
from deduce.core.records import RecordLock
lock = RecordLock(sys.argv[1])
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
"""


def _hold_in_another_process(path, seconds):
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", LOCKER, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_record_locked_by_another_process_is_refused_then_free(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "ONE_SHOT_WAIT", 0.2)
    path = tmp_path / "game.json"
    proc = _hold_in_another_process(path, 30)
    try:
        with pytest.raises(InputError) as info:
            records.RecordLock(path)
        assert f"in use by another deduce session (process {proc.pid})" in str(info.value)
        with pytest.raises(InputError, match=r"waited 0.2 s"):
            write_json_atomic(path, DATA)  # a one-shot writer waits briefly, then refuses
        assert not path.exists()
    finally:
        proc.kill()
        proc.wait()
    write_json_atomic(path, DATA)  # a killed holder's lock is free again
    assert read_json(path) == DATA


def test_a_one_shot_writer_waits_for_a_short_holder(tmp_path):
    path = tmp_path / "game.json"
    proc = _hold_in_another_process(path, 0.3)
    with records.locked(path, wait=10):
        write_json_atomic(path, DATA)
    proc.wait()
    assert read_json(path) == DATA
