"""``common.esc``: any text put inside our own markup shows exactly as typed (controls
escaped), whatever follows it, including the backslash-and-bracket cases rich's own
``escape`` gets wrong."""

from __future__ import annotations

import itertools

from rich.text import Text

from deduce.cli.common import esc
from deduce.cli.common import literal

#: (markup around the text, what it shows around it)
CONTEXTS = [("x[bold]{}[/]y", "x{}y"), ("{}", "{}"), ("  {}  [dim]q[/]", "  {}  q"),
            ("{}[x", "{}[x"), ("{}\\[b]", "{}[b]")]


def test_every_short_text_of_brackets_and_backslashes_shows_as_typed():
    for size in range(6):
        for chars in itertools.product("a[]/\\", repeat=size):
            text = "".join(chars)
            for markup, shown in CONTEXTS:
                assert Text.from_markup(markup.format(esc(text))).plain == \
                    shown.format(literal(text)), (text, markup)


def test_names_from_a_case_file():
    for text, shown in [("z\\[", "z\\["), ("[red]r", "[red]r"), ("b\x1b[2Jb", "b\\x1b[2Jb"),
                        ("\\[bold]x\\", "\\[bold]x\\")]:
        assert Text.from_markup(f"[bold green]{esc(text)}[/]").plain == shown
