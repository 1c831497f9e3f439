"""The loop of a live table session, the same for every game: read a line, hand it to the
session, show the reply.

A session is any object whose ``handle(line)`` returns a reply with ``kind`` (accepted,
refused, info or quit), ``message`` and ``code`` (a refusal's exit code); the game says
how its replies look (``TableViews``). Behaviour (the promises of the README's table
sessions):

- on a terminal: a prompt ``[TEXT] > ``, a compact view after every accepted entry,
  refusals on stderr as ``refused: ...``; Ctrl-D or Ctrl-C leaves as ``quit`` does;
- through a pipe: lines read with ``common.read_line`` (capped at ``MAX_LINE``), one
  ``ok: ...`` line on stdout per accepted entry, one ``refused: ...`` line on stderr per
  refusal, the exit code that of the first refusal (0 if none);
- views asked for (``show`` and the like) are printed both ways; every name is shown
  literally.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import click

from deduce.cli.common import err, esc, literal, one_line, out, read_line, styled


@dataclass(frozen=True)
class TableViews:
    """How one game's session looks.

    ``intro()``: printed once on a terminal before the first prompt; ``prompt()``: the text
    inside the prompt's brackets; ``show(reply)``: print the view a reply asks for (show,
    best, why, ...) and return True, or return False when it asks for none;
    ``compact(reply)``: printed after an accepted entry on a terminal.
    """

    intro: Callable[[], None]
    prompt: Callable[[], str]
    show: Callable[[Any], bool]
    compact: Callable[[Any], None]


def run_table(session, views: TableViews, interactive: bool) -> int:
    """Read and answer lines until quit or the end of the input; the exit code of a piped
    session (that of its first refusal, 0 if none)."""
    first_code = 0
    if interactive:
        views.intro()
    while True:
        if interactive:
            try:
                line = click.prompt(f"[{literal(views.prompt())}]", prompt_suffix=" > ",
                                    default="", show_default=False)
            except (EOFError, click.Abort):  # Ctrl-D or Ctrl-C: leave as quit does
                click.echo("")
                line = "quit"
        else:
            line = read_line()
            if line is None:
                break
        reply = session.handle(line)
        if reply.kind == "quit":
            if interactive:
                out.print(reply.message)
            break
        if reply.kind == "refused":
            if interactive:
                err.print(f"refused: {reply.message}")
            else:
                click.echo(f"refused: {one_line(literal(reply.message))}", err=True)  # \r escaped first
                first_code = first_code or reply.code
            continue
        if views.show(reply):
            continue
        if reply.kind == "accepted" and not interactive:
            click.echo(f"ok: {literal(reply.message)}")
        elif reply.kind == "accepted":
            out.print(styled(f"[green]ok[/] {esc(reply.message)}"))
            views.compact(reply)
        elif reply.message:
            out.print(reply.message)
    return first_code


def run_view_table(session, record_file: str, views: dict[str, Callable[[Any], None]],
                   compact: Callable[[], None], interactive: bool) -> int:
    """``run_table`` for a session whose replies name their view in ``reply.view`` with its
    ``reply.data`` (``core.table_session.Reply``): ``views[view](data)`` prints it,
    ``compact()`` the compact view (after the intro line and each accepted entry)."""

    def intro() -> None:
        out.print(styled(f"[bold]{esc(record_file)}[/]: {len(session.record.entries)} "
                         "entries. Type help for commands."))
        compact()

    def show(reply) -> bool:
        if reply.view is None:
            return False
        views[reply.view](reply.data)
        return True

    return run_table(session, TableViews(intro, session.prompt, show, lambda reply: compact()),
                     interactive)


def note_ignored_setup(record_file: str, given: list[str], where: str) -> None:
    """Say on stderr that setup options (``given``, e.g. ``["--case"]``) were ignored
    because ``record_file`` exists: the session goes on from ``where``."""
    if given:
        err.print(f"note: {record_file} exists, so {', '.join(given)} (for a new record) "
                  f"{'is' if len(given) == 1 else 'are'} ignored: entries go on from {where}",
                  soft_wrap=True)
