"""User text shown literally, by every front end (the terminal's consoles, the web page).

``literal(text)``: control characters and bidirectional overrides as escapes, so nothing a
user typed (a player's name, a note) can move the cursor, recolour or reorder what is shown.
"""

from __future__ import annotations

_CONTROL = {c: f"\\x{c:02x}" for c in list(range(0x20)) + list(range(0x7f, 0xa0))
            if chr(c) not in "\n\t"}
_CONTROL.update({c: f"\\u{c:04x}" for c in [*range(0x202a, 0x202f), *range(0x2066, 0x206a)]})


def literal(text) -> str:
    """``text`` with control characters (and bidirectional overrides) shown as escapes
    (``\\x1b``), so nothing a user typed can move the cursor, recolour or hide output; new
    lines and tabs stay.

    >>> literal("Ann\\x1b[2J\\nBen")
    'Ann\\\\x1b[2J\\nBen'
    """
    return str(text).translate(_CONTROL)
