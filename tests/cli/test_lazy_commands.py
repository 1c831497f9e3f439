"""The ``deduce`` group imports a game's commands only when that game is asked for, so
each command starts without the other games' modules (``cli.main.LazyGroup``)."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from deduce.cli.main import LOADERS, cli

PROBE = """
import sys
from deduce.cli.main import cli
loaded = lambda: sorted(m for m in sys.modules if m.startswith("deduce.cli.") and m != "deduce.cli.main")
print(loaded())
cli.get_command(None, "story")
print(loaded())
"""


def test_a_command_imports_its_own_game_only():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "[]"
    story = eval(out[1])  # the story commands and the shared modules they use
    assert {"deduce.cli.story", "deduce.cli.story_cache", "deduce.cli.story_table"} <= set(story)
    others = ("s13", "case", "demo", "deductions", "irregulars", "serve")
    assert not [m for m in story if m.split(".")[2].split("_")[0] in others]


def test_every_command_is_listed_and_found():
    assert cli.list_commands(None) == sorted(LOADERS) == [
        "case", "deductions", "demo", "irregulars", "s13", "serve", "story"]
    help_text = CliRunner().invoke(cli, ["--help"]).output
    assert all(f"  {name} " in help_text for name in LOADERS)
    assert CliRunner().invoke(cli, ["nope"]).exit_code == 2
    assert {"table", "cache", "advise"} <= set(cli.get_command(None, "story").commands)
