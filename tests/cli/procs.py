"""Running the installed ``deduce`` command as a person does: in a new process, through a
pipe or under a pseudo-terminal."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def deduce_argv() -> list[str]:
    """The installed console script (beside this Python), else ``python -m`` of the CLI."""
    script = Path(sys.executable).with_name("deduce")
    if script.exists():
        return [str(script)]
    found = shutil.which("deduce")
    return [found] if found else [sys.executable, "-m", "deduce.cli.main"]


def quiet_env(**extra: str) -> dict[str, str]:
    """An environment for a child ``deduce``: a fixed terminal size, no colour surprises;
    ``extra`` adds variables or overrides those (``TERM="dumb"``)."""
    env = {**os.environ, "COLUMNS": "120", "LINES": "40", "TERM": "xterm-256color", **extra}
    for forced in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        if forced not in extra:  # rich would take a pipe for a terminal, or the reverse
            env.pop(forced, None)
    return env
