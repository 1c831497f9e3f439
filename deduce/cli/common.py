"""What every command shares: consoles, error handling and exit codes, JSON output."""

from __future__ import annotations

import functools
import json
import re
import sys
from typing import NoReturn

import click

from deduce.core.errors import DeduceError
from deduce.core.limits import MAX_GAMES, MAX_LINE, MAX_WORKERS
from deduce.core.text import literal


def one_line(text: str) -> str:
    """A message of several lines as one line, for a pipe (its first line, then the rest
    joined by ``; ``).

    >>> one_line("x contradicts the record:\\n  event 0: a\\n  event 3: b")
    'x contradicts the record: event 0: a; event 3: b'
    """
    lines = [line.strip() for line in str(text).split("\n") if line.strip()]  # not at \r
    return " ".join(lines[:1] + ["; ".join(lines[1:])] if len(lines) > 1 else lines)


#: a ``[`` and the backslashes before it; group 2 is set when the ``[`` opens a rich tag
_BRACKET = re.compile(r"(\\*)\[(?=([a-z#/@][^\[]*?\])?)")
_TRAILING = re.compile(r"(\\+)$")


def esc(text) -> str:
    """User text to put inside our own markup (``styled``), shown exactly as ``literal``
    gives it, whatever follows it in the markup.

    Rich's own ``escape`` misses two cases: a ``[`` after backslashes that
    opens no tag (rich's markup turns ``\\[`` into ``[``: ``z\\[`` showed as ``z[``) and
    backslashes at the end (halved, or not, by what comes next). Here a ``[`` after ``k``
    backslashes becomes ``2k+1`` backslashes and ``[`` when it opens a tag, ``k+1``
    otherwise (``k`` = 0: as it is); trailing backslashes are doubled inside a ``[none]``
    tag (no style), so a ``[`` after them is never theirs."""

    def bracket(m: re.Match) -> str:
        k = len(m.group(1))
        if m.group(2) is not None:
            return "\\" * (2 * k + 1) + "["
        return "\\" * (k + 1) + "[" if k else "["

    body = _BRACKET.sub(bracket, literal(text))
    return _TRAILING.sub(lambda m: f"[none]{m.group(1) * 2}[/none]", body)


def styled(markup: str):
    """Our own rich markup as a ``Text`` (the consoles interpret no markup in plain strings;
    user text inside ``markup`` goes through ``esc``)."""
    from rich.text import Text

    return Text.from_markup(markup)


def _console(**options):
    """A rich Console that shows every plain string literally: no markup, no emoji codes,
    control characters as escapes (``literal``)."""
    from rich.console import Console

    class LiteralConsole(Console):
        def render_str(self, text, **kwargs):
            return super().render_str(literal(text), **kwargs)

    return LiteralConsole(highlight=False, markup=False, emoji=False, **options)


class _LazyConsole:
    """A literal rich Console made on first use, so --json paths never import rich."""

    def __init__(self, **options):
        self._options = options
        self._console = None

    @property
    def real(self):
        """The rich Console itself (for rich objects that take a ``console=``)."""
        if self._console is None:
            self._console = _console(**self._options)
        return self._console

    def __getattr__(self, name):
        return getattr(self.real, name)


#: human output on stdout; errors and progress go to ``err`` (stderr)
out = _LazyConsole()
err = _LazyConsole(stderr=True)


class WholeNumber(click.ParamType):
    """A whole number from ``lo`` to ``hi``, read by ``core.numbers`` (decimal digits of
    any script, at most ``MAX_DIGITS``); the message of a bad value names both bounds."""

    name = "integer"

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        from deduce.core.numbers import read_whole_number

        number = value if isinstance(value, int) else read_whole_number(value)
        if number is None:
            shown = literal(str(value)[:40])
            self.fail(f"expected a whole number from {self.lo:,} to {self.hi:,}, got {shown!r}",
                      param, ctx)
        if not self.lo <= number <= self.hi:
            self.fail(f"{number:,} is out of range: from {self.lo:,} to {self.hi:,}", param, ctx)
        return number


GAMES = WholeNumber(1, MAX_GAMES)
WORKERS = WholeNumber(1, MAX_WORKERS)
SEED = WholeNumber(0, 2**63 - 1)


def check_scheduler(ctx, param, value):
    """``--scheduler``: ``[tcp|tls|ws|wss]://HOST:PORT`` or ``HOST:PORT`` (port 1-65535)."""
    if value is None:
        return None
    from deduce.core.selfplay import check_scheduler_address

    try:
        return check_scheduler_address(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def progress_bar(total: int | None, label: str):
    """A context manager yielding ``advance(k, total=None)``: a rich progress bar on stderr
    when stderr is a terminal (transient: gone when done), a no-op otherwise (pipes, --json,
    CI). ``total`` None: not known yet (the bar pulses) until an ``advance`` gives it."""
    import contextlib

    if not err.is_terminal:
        return contextlib.nullcontext(lambda k, total=None: None)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    @contextlib.contextmanager
    def bar():
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), console=err.real,
                      transient=True) as p:
            task = p.add_task(label, total=total)
            yield lambda k, total=None: p.update(task, advance=k, total=total)

    return bar()


def read_line(stream=None) -> str | None:
    """The next line of ``stream`` (stdin), ``None`` at its end. A line longer than
    ``MAX_LINE`` characters is read to its end in bounded pieces and comes back cut to
    ``MAX_LINE + 1`` characters, so the session refuses it without holding it whole."""
    stream = stream or sys.stdin
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith("\n"):
        while True:
            rest = stream.readline(64 * 1024)
            if not rest or rest.endswith("\n"):
                break
    return line


def print_json(data) -> None:
    """One JSON document on stdout (nothing else is printed there with --json)."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def fail(exc: DeduceError, as_json: bool) -> NoReturn:
    """Report ``exc`` (stderr; with --json also its JSON on stdout) and exit with its code."""
    click.echo(f"error: {literal(exc)}", err=True)
    if as_json:
        print_json(exc.to_json())
    sys.exit(int(exc.exit_code))


def writes_record(func):
    """Decorate a one-shot command that rewrites its ``record_file``: it holds the record's
    lock from its read to its write (waiting ``ONE_SHOT_WAIT`` s for a live session, then
    refused with exit 2). Goes below ``reports_errors``."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from deduce.core.records import locked

        with locked(kwargs["record_file"]):
            return func(*args, **kwargs)

    return wrapper


def reports_errors(func):
    """Decorate a command: a ``DeduceError`` becomes its message and exit code, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except DeduceError as exc:
            fail(exc, bool(kwargs.get("as_json")))

    return wrapper
