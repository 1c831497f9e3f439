"""Hostile input to ``deduce story``: numbers in any script, campaign data and records of
every wrong shape, effects that would multiply, names full of console markup and control
characters, writes that fail. Each is answered with exit 2 (or 0 where valid) and a
message naming the place: never a traceback, never a hang. Fast: late records only."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core.errors import InputError

from .conftest import TINY, write_campaign


def run(*args, **kwargs):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False, **kwargs)


def refused(res, *words) -> None:
    """Exit 2, every word in the message, no traceback."""
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    for w in words:
        assert w in res.output, (w, res.output)


@pytest.fixture
def fresh(tmp_path):
    """The shipped campaign's a001, seed 7, at turn 1 (no DP is run on it here)."""
    path = tmp_path / "case.json"
    assert run("story", "new", "--adventure", "a001", "--seed", 7, path).exit_code == 0
    return path


@pytest.fixture
def late_tiny(tmp_path, tiny_dir):
    """A tiny-campaign case at turn 11 with the Villain known: its DP takes milliseconds."""
    path = tmp_path / "late.json"
    assert run("story", "new", "--data", tiny_dir, "--adventure", "a001", "--seed", 2,
               path).exit_code == 0
    rec = json.loads(path.read_text())
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    path.write_text(json.dumps(rec))
    return path


def between(path, **changes) -> None:
    """Close the case in ``path`` as won (by hand, then ``story end``)."""
    rec = json.loads(path.read_text())
    rec.update(outcome="arrested", villain="c201", motive=1, turn=9, **changes)
    path.write_text(json.dumps(rec))
    assert run("story", "end", path, "--seed", 1).exit_code == 0


# ----------------------------------------------------------------------------- 1. numbers
def test_dice_answers_are_decimal_digits_of_any_script(fresh):
    before = fresh.read_bytes()
    refused(run("story", "turn", fresh, "wait", "-a", "²"), "--answer 1",
            "expected a dice total from 2 to 12, got '²'")
    refused(run("story", "turn", fresh, "wait", "-a", "٣²"), "--answer 1")
    assert fresh.read_bytes() == before
    res = run("story", "turn", fresh, "wait", "-a", "٢", "--json")  # Arabic-Indic 2: 2+1 quiet
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["log"] == ["turn 1: Wait", "encounter: 2d6 2+1 = 3"]


def test_roll_option_reads_numbers_by_the_same_rule(late_tiny):
    refused(run("story", "advise", late_tiny, "--roll", "investigate=²"), "--roll",
            "from 2 to 12, got '²'")
    refused(run("story", "advise", late_tiny, "--roll", "investigate=1e1"), "--roll")
    res = run("story", "advise", late_tiny, "--roll", "investigate=٣", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["reroll"]["dice"] == 3


def test_split_option_reads_numbers_by_the_same_rule(late_tiny):
    between(late_tiny, sm=13, allies=[{"id": "m404"}])
    before = late_tiny.read_bytes()
    for bad in ("1,²,1", "1,2,1,0", "1,-2,5", "1, ,3"):
        refused(run("story", "spend", "friend", late_tiny, "--ally", "m404", "--split", bad),
                "--split")
        assert late_tiny.read_bytes() == before
    res = run("story", "spend", "friend", late_tiny, "--ally", "m404", "--split", "١,٢,١",
              "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["friend"]["brawn"] == 6 + 2
