"""One line typed at a live table, read the same way by every table: capped, split like a
shell line, its first word resolved to a command.

>>> command_line("  Undo  ", ("undo", "show"))
('undo', [])
>>> command_line("show 'Ann Lee'", ("undo", "show"))
('show', ['Ann Lee'])
>>> command_line("", ("undo",)) is None
True
"""

from __future__ import annotations

import shlex
from typing import Mapping, Sequence

from deduce.core.errors import InputError
from deduce.core.limits import MAX_LINE
from deduce.core.names import resolve


def command_line(line: str, commands: Sequence[str], aliases: Mapping[str, str] | None = None
                 ) -> tuple[str, list[str]] | None:
    """``(command, its arguments)`` of ``line`` (at most ``MAX_LINE`` characters; split as
    a shell does, so quotes keep spaces; the command by ``core.names.resolve`` among
    ``commands``, with ``aliases``); None for a blank line. ``InputError`` with the
    refusal's message for a line too long, unbalanced quotes or an unknown command."""
    if len(line.rstrip("\n")) > MAX_LINE:
        raise InputError(f"line too long: more than the cap of {MAX_LINE:,} characters")
    try:
        tokens = shlex.split(line)
    except ValueError as exc:
        raise InputError(f"cannot read the line: {exc}") from None
    if not tokens:
        return None
    try:
        word = resolve(tokens[0], commands, "command", aliases=aliases)
    except InputError as exc:
        raise InputError(f"{exc} (type help)") from None
    return word, tokens[1:]
