"""The solved-case cache through the CLI: a second command on the case reads it (no
solve), --no-cache neither reads nor writes, a damaged entry warns once and is solved
again, `story cache` lists and clears (also through a pipe), self-play and the table
solve once. Each command here stands for a new process: the shared solvers are
forgotten before it. Cases start late in a001 (turn 10, the Villain known)."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core import cache
from deduce.models.detective_story import advice as A
from tests.cli.procs import deduce_argv, quiet_env
from tests.detective_story.solves import count_solves, flip_in_array, solves


def run(*args, input=None):
    A.SOLVERS.clear()  # a new process: nothing solved in memory
    return CliRunner().invoke(cli, [str(a) for a in args], input=input,
                              catch_exceptions=False)


@pytest.fixture
def folder(private_cache_folder):
    return private_cache_folder


@pytest.fixture
def log(tmp_path, monkeypatch):
    path = tmp_path / "solves.log"
    count_solves(monkeypatch, path)
    yield path
    A.SOLVERS.clear()


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "case.json"
    assert run("story", "new", "--adventure", "a001", "--seed", 3, path).exit_code == 0
    rec = json.loads(path.read_text())
    rec.update(turn=10, villain="c201", clue_found=True, sm=1, luck=2)
    path.write_text(json.dumps(rec))
    return path


def entries(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_second_advise_reads_the_cache_and_says_the_same(record, folder, log):
    first = run("story", "advise", record, "--json")
    assert first.exit_code == 0, first.output
    assert solves(log) == 1 and len(entries(folder)) == 1
    second = run("story", "advise", record, "--json", "--roll", "investigate=4")
    assert second.exit_code == 0 and solves(log) == 1
    doc = json.loads(second.stdout)
    assert {k: doc[k] for k in ("best", "actions")} == json.loads(first.stdout)
    assert second.stderr == ""


def test_no_cache_neither_reads_nor_writes(record, folder, log):
    res = run("story", "advise", record, "--no-cache", "--json")
    assert res.exit_code == 0 and solves(log) == 1 and entries(folder) == []
    assert run("story", "advise", record, "--json").stdout == res.stdout
    (path,) = folder.iterdir()
    stamp, size = path.stat().st_mtime_ns, path.stat().st_size
    assert run("story", "advise", record, "--no-cache", "--json").stdout == res.stdout
    assert solves(log) == 3
    assert (path.stat().st_mtime_ns, path.stat().st_size) == (stamp, size)


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_entry_warns_once_and_the_case_is_solved_again(record, folder, log, damage):
    want = run("story", "advise", record, "--json").stdout
    (path,) = folder.iterdir()
    data = path.read_bytes()
    if damage == "flip":  # a bit of each chunk of the asked turn's start values
        turn = json.loads(open(record, encoding="utf-8").read())["turn"]
        with np.load(path) as archive:
            names = [n for n in archive.files if n.startswith(f"start.{turn}.c")]
        assert names
        for name in names:
            flip_in_array(path, name)
    else:
        path.write_bytes(data[:1000])
    res = run("story", "advise", record, "--json")
    assert res.exit_code == 0 and res.stdout == want
    assert res.stderr.count("warning:") == 1 and f"cache file {path} ignored" in res.stderr
    assert "Traceback" not in res.output
    assert solves(log) == 2
    assert run("story", "advise", record, "--json").stderr == ""  # rewritten, read
    assert solves(log) == 2


def test_a_folder_that_cannot_be_written_never_stops_a_command(record, tmp_path, monkeypatch,
                                                               log):
    from deduce.models.detective_story import store

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker / "cache"))
    monkeypatch.setattr(store, "_warned", set())
    res = run("story", "advise", record, "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["best"]
    assert res.stderr.count("warning:") == 1 and "cannot write the solved case" in res.stderr
    listed = run("story", "cache", "--json")
    assert listed.exit_code == 0 and json.loads(listed.stdout)["entries"] == []


def test_story_cache_lists_and_clears(record, folder, log):
    empty = run("story", "cache")
    assert empty.exit_code == 0 and "none yet" in empty.stdout and str(folder) in empty.stdout
    run("story", "advise", record)
    doc = json.loads(run("story", "cache", "--json").stdout)
    (path,) = folder.iterdir()
    assert doc["folder"] == str(folder) and doc["max_bytes"] == cache.DEFAULT_MAX_BYTES
    (entry,) = doc["entries"]
    assert entry["path"] == str(path) and entry["bytes"] == path.stat().st_size
    assert (entry["adventure"], entry["name"], entry["campaign"], entry["readable"]) == (
        "a001", "The Lamplighter's Ledger", "fogbound", True)
    assert doc["total_bytes"] == entry["bytes"] and 0 <= entry["age_s"] < 600
    (path.parent / "0000.npz").write_bytes(b"junk")  # an unreadable entry is listed too
    text = run("story", "cache").stdout
    assert "a001 The Lamplighter's Ledger" in text and "unreadable" in text
    assert any(line.endswith(str(path)) for line in text.splitlines())  # never split
    assert "total: 2 cases" in text
    cleared = run("story", "cache", "--clear")
    assert cleared.exit_code == 0 and "Removed 2 solved cases" in cleared.stdout
    assert entries(folder) == []
    assert json.loads(run("story", "cache", "--clear", "--json").stdout) == {
        "folder": str(folder), "removed": 0}


def test_story_cache_through_a_pipe(record, folder):
    run("story", "advise", record)
    argv = deduce_argv() + ["story", "cache", "--json"]
    doc = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True,
                                    env=quiet_env(), timeout=120).stdout)
    assert [e["adventure"] for e in doc["entries"]] == ["a001"]
    done = subprocess.run(deduce_argv() + ["story", "cache", "--clear"], capture_output=True,
                          text=True, env=quiet_env(), timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("Removed 1 solved case from ")
    assert entries(folder) == []


def test_optimal_selfplay_from_a_record_solves_once_with_workers(record, folder, log):
    args = ("story", "selfplay", "--bots", "optimal", "--games", 6, "--seed", 2, "--from",
            record, "--json")
    first = run(*args, "--workers", 2)
    assert first.exit_code == 0, first.output
    assert solves(log) == 1 and len(entries(folder)) == 1
    again = run(*args, "--workers", 2)
    assert solves(log) == 1  # read from the cache, shared with the workers
    alone = run(*args)
    assert solves(log) == 1
    outcomes = [json.loads(r.stdout)["outcomes"] for r in (first, again, alone)]
    assert outcomes[0] == outcomes[1] == outcomes[2] and sum(outcomes[0].values()) == 6
    run(*args, "--workers", 2, "--no-cache")
    assert solves(log) == 2


def test_the_table_reads_the_case_an_advise_solved(record, folder, log):
    assert run("story", "table", record, "--no-cache", input="quit\n").exit_code == 0
    assert solves(log) == 1 and entries(folder) == []
    run("story", "advise", record)
    assert solves(log) == 2
    res = run("story", "table", record, input="quit\n")
    assert res.exit_code == 0 and "P(arrest)" in res.stdout
    assert solves(log) == 2


def test_help_texts_name_the_cache():
    assert "--clear" in run("story", "cache", "--help").stdout
    for command in ("advise", "table", "selfplay"):
        assert "--no-cache" in run("story", command, "--help").stdout
    assert "deduce story cache" in run("story", "--help").stdout
