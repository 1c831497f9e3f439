"""The shared CLI pieces: literal consoles, numeric options, one-line messages."""

import io

import pytest
from click.testing import CliRunner

from deduce.cli import common
from deduce.cli.main import cli


def _render(*objects) -> str:
    console = common._console(file=io.StringIO(), width=200, force_terminal=False)
    for o in objects:
        console.print(o)
    return console.file.getvalue()


def test_plain_strings_are_shown_literally():
    from rich.table import Table

    t = Table(title="[bold]x")
    t.add_column("[/bad]")
    t.add_row("[red]Ann[/red]")
    text = _render("[/bad] and [bold]x", t, "bell\x07 esc\x1b[2J del\x7f")
    assert "[/bad] and [bold]x" in text
    assert "[red]Ann[/red]" in text and "[/bad]" in text.splitlines()[3]
    assert text.splitlines()[1].strip() == "[bold]x"
    assert "bell\\x07 esc\\x1b[2J del\\x7f" in text
    assert "\x1b" not in text and "\x07" not in text


def test_our_markup_styles_and_user_text_inside_it_stays_literal():
    console = common._console(file=io.StringIO(), width=200, force_terminal=True,
                              color_system="standard")
    name = "[/bad] Ann\x1b"
    console.print(common.styled(f"[bold]{common.esc(name)}[/] wins"))
    text = console.file.getvalue()
    assert "\x1b[1m" in text  # bold is ours
    assert "[/bad] Ann\\x1b" in text


def test_literal_escapes_bidi_overrides_but_keeps_newlines_and_tabs():
    assert common.literal("a\u202eb\nc\td") == "a\\u202eb\nc\td"


@pytest.mark.parametrize("args,message", [
    (["--games", "0"], "0 is out of range: from 1 to 1,000,000"),
    (["--games", "9" * 5000], "expected a whole number from 1 to 1,000,000"),
    (["--games", "²"], "expected a whole number from 1 to 1,000,000, got '²'"),
    (["--workers", "100000"], "100,000 is out of range: from 1 to 64"),
    (["--seed", "-1"], "-1 is out of range: from 0 to 9,223,372,036,854,775,807"),
    (["--scheduler", "tcp://host"], "expected [tcp|tls|ws|wss]://HOST:PORT"),
    (["--scheduler", "tcp://host:99999"], "port 99999 is not from 1 to 65535"),
    (["--scheduler", "ftp://host:80"], "unknown scheme 'ftp'"),
    (["--scheduler", "x" * 10_000], "expected [tcp|tls|ws|wss]://HOST:PORT"),
])
@pytest.mark.parametrize("command", [["s13", "selfplay"], ["case", "selfplay", "zebra"]])
def test_absurd_many_games_options_are_refused_before_any_work(command, args, message):
    res = CliRunner().invoke(cli, command + args)
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("args,message", [
    (["--cases", "2000000"], "2,000,000 is out of range: from 1 to 1,000,000"),
    (["--workers", "0"], "0 is out of range: from 1 to 64"),
    (["--scheduler", "::::"], "expected [tcp|tls|ws|wss]://HOST:PORT"),
])
def test_story_selfplay_options_share_the_bounds(args, message):
    res = CliRunner().invoke(cli, ["story", "selfplay", "--policy", "random"] + args)
    assert res.exit_code == 2
    assert message in res.output


def test_arabic_indic_digits_are_read_in_options():
    res = CliRunner().invoke(cli, ["s13", "selfplay", "--games", "٣", "--json"])
    assert res.exit_code == 0, res.output
    assert '"games": 3' in res.output


def test_read_line_caps_a_long_line_and_skips_its_rest():
    stream = io.StringIO("x" * 100_000 + "\nnext\n")
    first = common.read_line(stream)
    assert len(first) == common.MAX_LINE + 1
    assert common.read_line(stream) == "next\n"
    assert common.read_line(stream) is None
