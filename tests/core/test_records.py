"""Atomic JSON records: round trip, no temp files left, the old file survives a failure."""

import json
import os

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
