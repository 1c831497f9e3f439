"""Names with console markup (``[/bad]``, ``[bold]x``) and control characters (ESC, BEL)
in a case file are shown literally by every human output of ``deduce case``: markup as
text, controls as ``\\x1b``-style escapes; the quoted item names work in rules. (Under
CliRunner the consoles are not terminals: any ESC or BEL in the output is a leak.)"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.models.casenotes import format as case_format
from tests.casenotes.helpers import HOSTILE, HOSTILE_SHOWN as SHOWN


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    return str(path)


def human(*args) -> str:
    res = CliRunner().invoke(cli, ["case", *args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "\x07" not in res.output, res.output
    return res.output


def test_list(hostile, monkeypatch):
    from pathlib import Path

    monkeypatch.setattr(case_format, "shipped_cases", lambda: [Path(hostile)])
    assert SHOWN["title"] in human("list")


def test_solve(hostile):
    text = human("solve", hostile)
    for shown in [SHOWN["title"], *SHOWN["items"], SHOWN["question"], SHOWN["hat"],
                  SHOWN["motive"]]:
        assert shown in text, shown
    assert f"{SHOWN['title']}: unique (1 solution)" in text


def test_why_with_quoted_hostile_names(hostile):
    text = human("why", hostile, 'pos("[/bad]") == 1')
    assert text.startswith('pos("[/bad]") == 1 is forced: it holds in every solution, because of\n')
    assert f'note 0 ({SHOWN["source"]}): "{SHOWN["text"]}"' in text
    text = human("why", hostile, 'hat("[bold]x") == "b\\x1b[2Jb"')
    assert "is forced" in text and 'hat("[bold]x") == "b\\x1b[2Jb"' in text


def test_why_open_shows_the_solutions_literally(tmp_path):
    path = tmp_path / "open.toml"
    path.write_text(HOSTILE[:HOSTILE.rindex("[[note]]")], encoding="utf-8")  # hats open
    text = human("why", str(path), 'hat("[bold]x") == "[red]r"')
    assert text.startswith('hat("[bold]x") == "[red]r" is open: it holds in some solutions')
    assert "[bold]x [red]r" in text and f"[bold]x {SHOWN['hat']}" in text  # holds, fails
    assert "  thief = [bold]x\n  motive = [red]debt\n" in text


def test_errors_show_names_literally(hostile):
    res = CliRunner().invoke(cli, ["case", "why", hostile, 'thief == "\x1b[2J[/x]"'])
    assert res.exit_code == 2 and "\x1b" not in res.output
    assert res.output.startswith("error: RULE: column 10: unknown name '\\x1b[2J[/x]'")


def test_check(hostile):
    text = human("check", hostile)
    assert text.startswith(SHOWN["title"] + "\n")
    assert "[i]Loc 2" in text


def test_explain(hostile):
    text = human("explain", hostile)
    assert text.startswith(f"{SHOWN['title']}: 6 steps from all notes\n")
    assert f'note 0 ({SHOWN["source"]}): "{SHOWN["text"]}"' in text
    assert '=> pos[1] == "[/bad]", pos[2] == "[bold]x"' in text
    assert f"motive != \"{SHOWN['envy']}\"" in text


def test_play_and_selfplay(hostile):
    text = human("play", hostile, "--bots", "2")
    assert f"{SHOWN['question']} [bold]x" in text and f"-> {SHOWN['source']}" in text
    text = human("selfplay", hostile, "--bots", "2", "--games", "2")
    assert text.startswith(SHOWN["title"])


def test_json_keeps_the_raw_strings(hostile):
    res = CliRunner().invoke(cli, ["case", "solve", hostile, "--json"])
    out = json.loads(res.output)
    assert out["answers"]["[b]Who?\x07"] == {"possible": ["[bold]x"]}
    assert [r["who"] for r in out["grid"]] == ["[/bad]", "[bold]x", "Bel\x07l"]
