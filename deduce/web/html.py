"""HTML built by hand for the pages of ``deduce serve``: every piece of user text goes
through ``h`` (shown literally, then HTML-escaped), so a player named ``<script>`` is
shown as those characters and never runs.

``page(title, body)`` is the whole document: a phone viewport, the vendored stylesheet and
script (``deduce/web/static``, served by the app itself: nothing from another site).
"""

from __future__ import annotations

import html

from deduce.core.text import literal

#: the vendored files the app serves, by the name in their URL (``/static/NAME``)
STATIC_FILES = {"deduce.css": "text/css; charset=utf-8",
                "deduce.js": "text/javascript; charset=utf-8"}


def h(text) -> str:
    """User (or any) text as HTML text or an attribute value: control characters and
    bidirectional overrides as escapes (``core.text.literal``), then ``&<>"'`` escaped.

    >>> h('<b onclick="x">Ann</b>\\x1b')
    '&lt;b onclick=&quot;x&quot;&gt;Ann&lt;/b&gt;\\\\x1b'
    """
    return html.escape(literal(text), quote=True)


def chips(name: str, options, *, kind: str = "radio", checked=(), prefix: str | None = None,
          wide: bool = False) -> str:
    """A row of large tap targets: one hidden ``<input>`` (radio or checkbox) and its
    ``<label>`` per ``(value, label)`` in ``options``; ``checked`` holds the values ticked.
    Inputs get ids ``PREFIX-VALUE`` (prefix: ``name``), so a label is found by its id."""
    prefix = prefix or name
    parts = []
    for value, label in options:
        ident = f"{prefix}-{value}"
        tick = " checked" if value in checked else ""
        parts.append(f'<input type="{kind}" name="{h(name)}" value="{h(value)}" id="{h(ident)}"'
                     f'{tick}><label for="{h(ident)}">{h(label)}</label>')
    return f'<div class="chips{" wide" * wide}">{"".join(parts)}</div>'


def fieldset(legend: str, inner: str, cls: str = "") -> str:
    """A titled group of fields (``cls``: its classes, e.g. which action shows it)."""
    classes = f' class="{h(cls)}"' if cls else ""
    return f"<fieldset{classes}><legend>{h(legend)}</legend>{inner}</fieldset>"


def player_fields(most: int, me_legend: str = "I am") -> str:
    """A new record's ``player`` boxes (``most`` of them, in seating order; ids
    ``player-I``) and the ``me`` chips that pick one of them (read back by
    ``forms.seated_players``)."""
    boxes = "".join(f'<input type="text" name="player" maxlength="64" autocomplete="off" '
                    f'placeholder="player {i + 1}{" (first)" * (i == 0)}" '
                    f'aria-label="player {i + 1}" id="player-{i}">' for i in range(most))
    me = chips("me", [(str(i), f"player {i + 1}") for i in range(most)])
    return (fieldset("Players, in seating order", f'<div class="boxes">{boxes}</div>')
            + fieldset(me_legend, me))


def select(name: str, options, *, ident: str, label: str, blank: str = "—",
           multiple: bool = False) -> str:
    """A ``<select>`` of ``(value, label)`` options (first a blank one, unless
    ``multiple``), ``ident`` its id and ``label`` its accessible name."""
    first = "" if multiple else f'<option value="">{h(blank)}</option>'
    items = "".join(f'<option value="{h(v)}">{h(t)}</option>' for v, t in options)
    many = " multiple" if multiple else ""
    return (f'<select name="{h(name)}" id="{h(ident)}" aria-label="{h(label)}"{many}>'
            f"{first}{items}</select>")


def notice(kind: str, title: str, message: str = "") -> str:
    """A message box: ``kind`` is accepted, refused, stale or info (its colour); refusals
    and stale entries are announced to screen readers at once."""
    role = ' role="alert"' if kind in ("refused", "stale") else ' role="status"'
    body = f'<p class="message">{h(message)}</p>' if message else ""
    return (f'<div class="notice {h(kind)}" id="notice"{role}><strong>{h(title)}</strong>'
            f"{body}</div>")


def page(title: str, body: str) -> str:
    """The whole HTML document around ``body``."""
    return ("<!doctype html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            '<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">'
            f"<title>{h(title)}</title>"
            '<link rel="stylesheet" href="/static/deduce.css">'
            '<script src="/static/deduce.js" defer></script>'
            f"</head><body>{body}</body></html>\n")
