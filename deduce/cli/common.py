"""What every command shares: consoles, error handling and exit codes, JSON output."""

from __future__ import annotations

import functools
import json
import sys
from typing import NoReturn

import click

from deduce.core.errors import DeduceError


class _LazyConsole:
    """A rich Console made on first use, so --json paths never import rich."""

    def __init__(self, **options):
        self._options = options
        self._console = None

    def __getattr__(self, name):
        if self._console is None:
            from rich.console import Console

            self._console = Console(highlight=False, **self._options)
        return getattr(self._console, name)


#: human output on stdout; errors and progress go to ``err`` (stderr)
out = _LazyConsole()
err = _LazyConsole(stderr=True)


def match_options(func):
    """The options of every many-games command: --games, --seed, --workers, --scheduler."""
    options = [
        click.option("--games", type=int, default=100, show_default=True, help="Games to play."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Master seed: the same seed gives the same games whatever the workers."),
        click.option("--workers", type=int, default=1, show_default=True,
                     help="Local worker processes (1: play in this process)."),
        click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Play on a Dask cluster (needs the optional extra: "
                          "pip install 'deduce[dask]')."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def progress_bar(total: int, label: str):
    """A context manager yielding ``advance(k)``: a rich progress bar on stderr when stderr
    is a terminal (transient: gone when done), a no-op otherwise (pipes, --json, CI)."""
    import contextlib

    if not err.is_terminal:
        return contextlib.nullcontext(lambda k: None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    @contextlib.contextmanager
    def bar():
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                      transient=True) as p:
            task = p.add_task(label, total=total)
            yield lambda k: p.advance(task, k)

    return bar()


def print_json(data) -> None:
    """One JSON document on stdout (nothing else is printed there with --json)."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def fail(exc: DeduceError, as_json: bool) -> NoReturn:
    """Report ``exc`` (stderr; with --json also its JSON on stdout) and exit with its code."""
    click.echo(f"error: {exc}", err=True)
    if as_json:
        print_json(exc.to_json())
    sys.exit(int(exc.exit_code))


def reports_errors(func):
    """Decorate a command: a ``DeduceError`` becomes its message and exit code, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except DeduceError as exc:
            fail(exc, bool(kwargs.get("as_json")))

    return wrapper
