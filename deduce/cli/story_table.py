"""``deduce story table``: a case played live at the table (``models/detective_story/
table.py``: the session, its lock, its saves and undo), wrapped for a terminal and for a
pipe.

On a terminal answers are asked with prompts. From a pipe each line answers one question
(read by ``common.read_line``: at most ``MAX_LINE`` characters), the questions go to
stderr as lines, a refused answer is one line ``refused: ...`` on stderr, and the session
exits with the code of its first refusal (0 if none, else 2), like ``s13 table``.
"""

from __future__ import annotations

import sys

import click

from deduce.cli.common import err, literal, one_line, out, read_line, reports_errors
from deduce.cli.story import DATA_OPTION, NO_CACHE_OPTION


@click.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@NO_CACHE_OPTION
@DATA_OPTION
@reports_errors
def table(record_file: str, no_cache: bool, data_dir) -> None:
    """Play the case in FILE live: before each Action the exact P(arrest) of every legal
    Action (Enter takes the best), then the dice of the turn as they fall (as in `deduce
    story turn`: an Action's 2d6, then, with Luck left, the advice on re-rolling it and
    the new roll if you spent the Luck; d6 faces; tests; a fight's end), and FILE is
    rewritten after the Action and after the Encounter Matrix.

    The case is solved once when the session starts (a fresh case: 15-36 s, 0.9-1.8 GB),
    or read from the cache folder when an earlier command solved it (`deduce story
    cache`; --no-cache neither reads nor writes it); every later answer is instant. undo, typed for any question, starts the phase in play
    again, or, at its first question, goes back to the phase before (as far back as the
    session started; also once the case is over): a die entered wrong is put right by
    playing the phase again. quit at the Action prompt, or the end of the input, stops;
    FILE keeps every finished phase. From a pipe, each line answers one question (at most
    1,000 characters), a refused answer is one line on stderr, and the exit code is that
    of the first refusal (0 if none, else 2). There is no --json: FILE is the session's
    machine-readable result (or play turn by turn with `deduce story turn --json`).

    \b
    Examples:
      deduce story table case.json
      deduce story table case.json --no-cache
      printf 'explore\\n7\\nkeep\\n2\\n9\\n3\\nquit\\n' | deduce story table case.json
    """
    from deduce.cli.story_view import print_warnings, solving, table_end_line
    from deduce.models.detective_story.table import TableSession

    interactive = sys.stdin.isatty()
    port = Port(interactive)
    # the lock first: a second session is refused at once, not after the long solve
    with TableSession.open(record_file, data_dir, port) as session:
        print_warnings(session.data)
        with solving(session.solver, "Solving the whole case for every SM and Luck (once)"):
            session.prepare(use_cache=not no_cache)
        if session.run() and interactive:  # the end of the input (or ^C, ^D on a terminal)
            err.print("")
        out.print(table_end_line(record_file, session.case, session.phase))
    sys.exit(session.first_code if not interactive else 0)


class Port:
    """The session's questions and answers on a terminal (prompts) or through a pipe (one
    line each; a refusal is one line)."""

    def __init__(self, interactive: bool):
        self.interactive = interactive

    def ask(self, question: str, default: str | None) -> str:
        from deduce.models.detective_story.table import EndOfInput

        if self.interactive:
            try:
                return click.prompt(literal(question), err=True, default=default,
                                    show_default=False)
            except click.exceptions.Abort:
                raise EndOfInput() from None
        click.echo(literal(question), err=True)
        line = read_line()
        if line is None:
            raise EndOfInput()
        text = line.rstrip("\r\n")
        if not text.strip() and default is not None:
            text = default
        return text

    def refuse(self, message: str) -> None:
        if self.interactive:
            err.print(f"  {message}")
        else:
            click.echo(f"refused: {literal(one_line(message))}", err=True)

    def tell(self, text: str) -> None:
        err.print(f"  {text}")

    def report(self, text: str) -> None:
        out.print(text)

    def show_advice(self, case, phase: str, advice) -> None:
        from deduce.cli.story_view import print_advice

        print_advice(case, phase, advice)

    def reroll_text(self, reroll) -> str:
        from deduce.cli.story_view import reroll_text

        return reroll_text(reroll)
