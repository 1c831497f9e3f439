"""``deduce irregulars advise`` as a person runs it: the JSON, the table and the words,
the progress bar on a terminal only (none through a pipe, the same table either way),
bad input as exit 2 naming the file and field, names shown literally."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.models.irregulars.advice import MAX_ROLLOUTS, advise, load_view
from tests.cli.test_terminal import bar_drawn, on_terminal, piped
from tests.irregulars.helpers import data

ADVISE = ["irregulars", "advise", "sample", "--rollouts", "3", "--seed", "4"]
HEAD = ["#", "Choice", "Chance to win", "± s.e.", "Rollouts"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_json_is_the_advice():
    res = run(*ADVISE, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc == advise(load_view("sample"), 3, 4).to_json()
    assert doc["seen"] == "hand" and len(doc["actions"]) == 6
    for a in doc["actions"]:
        assert list(a) == ["action", "words", "p_win", "stderr", "rollouts"]


def test_for_a_person_the_table_and_why(tmp_path):
    path = tmp_path / "ann's [bold]pos.json"
    path.write_text(json.dumps(data()), encoding="utf-8")
    res = run("irregulars", "advise", path, "--rollouts", 2)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == f"Advice for {path}"  # the name as it is, markup and all
    assert [c.strip() for c in lines[2].split("┃")[1:-1]] == HEAD
    advice = advise(load_view(str(path)), 2, 0)
    assert len([r for r in lines if r.startswith("│") and r[1:4].strip()]) == \
        len(advice.estimates)
    assert " ".join(res.output.split("Best: ", 1)[1].split()) == advice.why


def test_a_bar_on_a_terminal_none_through_a_pipe(tmp_path):
    shown, raw = on_terminal(ADVISE, tmp_path)
    assert bar_drawn(raw, "rollouts", 3)
    assert shown[0] == "Advice for sample"
    assert [c.strip() for c in shown[2].split("┃")[1:-1]] == HEAD
    assert any(r.startswith("Best: ") for r in shown)
    pipe = piped(ADVISE, tmp_path)  # no bar: stderr stays empty; the same advice
    assert pipe == shown


def test_bad_input_is_exit_2_naming_the_file_and_field(tmp_path):
    res = run("irregulars", "advise", "sample", "--rollouts", MAX_ROLLOUTS + 1)
    assert res.exit_code == 2
    assert f"from 1 to {MAX_ROLLOUTS:,}" in res.output
    res = run("irregulars", "advise", tmp_path / "missing.json")
    assert res.exit_code == 2 and "file not found" in res.output
    bad = data()
    bad["bsi"]["Ann"]["available"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    res = run("irregulars", "advise", path, "--json")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert re.search(r"bad\.json: field 'bsi\.Ann", res.output), res.output
    path.write_text(json.dumps({"position": data(), "log": {"deal": 9}}))
    res = run("irregulars", "advise", path)
    assert res.exit_code == 2 and "bad.json" in res.output and "log" in res.output
