"""``deduce case`` under a pseudo-terminal (colours and the progress bar on): names with
console markup and control characters from a case file are still shown literally, and
the only escape sequences are the program's own styling."""

from __future__ import annotations

import re

import pytest

from tests.casenotes.helpers import HOSTILE, HOSTILE_SHOWN as SHOWN
from tests.cli.procs import deduce_argv, quiet_env

pexpect = pytest.importorskip("pexpect")


def on_a_terminal(*args: str) -> bytes:
    """Everything ``deduce case ARGS`` writes to the terminal (stdout and stderr); exit 0."""
    argv = deduce_argv() + ["case", *args]
    child = pexpect.spawn(argv[0], argv[1:], env=quiet_env(), timeout=60,
                          dimensions=(40, 160))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return child.before


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hostile.toml"
    path.write_text(HOSTILE, encoding="utf-8")
    return str(path)


#: what a case file could smuggle in: clear screen, set colour red, bell
SMUGGLED = [b"\x1b[2J", b"\x1b[31m", b"\x07"]


def plain(raw: bytes) -> str:
    """The text without the program's own escape sequences (CSI ... letter)."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw.decode("utf-8"))


def test_solve_in_colour_shows_names_literally(hostile):
    raw = on_a_terminal("solve", hostile)
    assert b"\x1b[1m" in raw  # colours are on: bold titles
    for bad in SMUGGLED:
        assert bad not in raw, bad
    text = plain(raw)
    for shown in [SHOWN["title"], *SHOWN["items"], SHOWN["question"], SHOWN["hat"]]:
        assert shown in text, shown


def test_explain_with_its_progress_bar_shows_names_literally(hostile):
    raw = on_a_terminal("explain", hostile)
    for bad in SMUGGLED:
        assert bad not in raw, bad
    text = plain(raw)
    assert f"{SHOWN['title']}: 6 steps from all notes" in text
    assert f'note 0 ({SHOWN["source"]}): "{SHOWN["text"]}"' in text
