"""The one shape of every game's ``selfplay`` command: its options, the progress bar, and
the JSON envelope or a rendered table (the runner is ``deduce.core.selfplay``).

A game's command adds its own options, then ``selfplay_options`` (``--games``, ``--seed``,
``--workers``, ``--scheduler``, ``--bots NAME,NAME,...``, ``--json``), and in its body
turns them into a ``core.selfplay.Match`` and calls ``play_match``::

    @group.command()
    @click.option("--players", ...)
    @selfplay_options(games=100, bots_help="One bot per seat: ...")
    @reports_errors
    def selfplay(players, games, seed, workers, scheduler, bots, as_json):
        names = bot_names(bots, GAME.bots) if bots else DEFAULT
        play_match(GAME, Match(games, seed, names, players, workers=workers,
                               scheduler=scheduler), as_json, render)

An old spelling of an option (``--cases`` for ``--games``, ``--policy`` or ``--strategy``
for ``--bots``) is an option of its own, merged with ``old_spelling`` (giving both is an
error naming both).
"""

from __future__ import annotations

from typing import Callable, Sequence

import click

from deduce.cli.common import (
    GAMES,
    MAX_GAMES,
    MAX_WORKERS,
    SEED,
    WORKERS,
    WholeNumber,
    check_scheduler,
    print_json,
    progress_bar,
)


class BotsOrCount(click.ParamType):
    """``--bots``: ``NAME,NAME,...`` (kept as text, resolved by ``bot_names`` in the command,
    so a bad name is the command's input error) or, where the game still takes the old
    spelling ``--bots N``, a whole number (``count``: its bounds and messages)."""

    name = "NAME,..."

    def __init__(self, count: WholeNumber | None = None):
        self.count = count

    def convert(self, value, param, ctx):
        if isinstance(value, int) or self.count is None:
            return value
        if any(ch.isalpha() for ch in str(value)):
            return str(value)
        return self.count.convert(value, param, ctx)


def selfplay_options(*, games: int = 100, bots_help: str, bots_count: WholeNumber | None = None):
    """The options of every ``selfplay`` command: ``--games`` (default ``games``), ``--seed``,
    ``--workers``, ``--scheduler``, ``--bots`` (help ``bots_help``; ``bots_count``: also take
    the old spelling ``--bots N``) and ``--json``."""
    options = [
        click.option("--games", type=GAMES, default=games, show_default=True,
                     help=f"Games to play (1 to {MAX_GAMES:,})."),
        click.option("--seed", type=SEED, default=0, show_default=True,
                     help="Master seed: the same seed gives the same games whatever the workers."),
        click.option("--workers", type=WORKERS, default=1, show_default=True,
                     help=f"Local worker processes (1: play in this process; at most "
                          f"{MAX_WORKERS})."),
        click.option("--scheduler", metavar="ADDRESS", default=None, callback=check_scheduler,
                     help="Play on a Dask cluster at ADDRESS (tcp://HOST:PORT; needs the "
                          "optional extra: pip install 'deduce[dask]')."),
        click.option("--bots", "bots", type=BotsOrCount(bots_count), default=None,
                     metavar="NAME,..." if bots_count is None else "NAME,...|N", help=bots_help),
        click.option("--json", "as_json", is_flag=True,
                     help="Print one JSON object only: the self-play envelope."),
    ]

    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def bot_names(text: str, choices: Sequence[str], where: str = "--bots") -> tuple[str, ...]:
    """The line-up in ``text`` (names separated by commas, each any unambiguous alias of one
    of ``choices``), canonical; ``InputError`` at ``where`` for an empty or unknown name, or
    more than ``MAX_LINEUP`` names."""
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.core.selfplay import MAX_LINEUP

    names = [b.strip() for b in str(text).split(",", MAX_LINEUP)]
    if len(names) > MAX_LINEUP:
        raise InputError(f"more than the cap of {MAX_LINEUP} bots in the line-up", where=where)
    if any(not b for b in names):
        raise InputError("empty bot name in the list", where=where)
    return tuple(resolve(b, choices, "bot", where=where) for b in names)


def old_spelling(new: str, value, old: str, old_value):
    """The value of the option ``new`` (``value``) or, when only its old spelling ``old``
    was given, ``old_value``; both given: a usage error naming both (exit 2)."""
    if old_value is None:
        return value
    source = click.get_current_context().get_parameter_source(new.lstrip("-").replace("-", "_"))
    if value is not None and source is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError(f"give {new} or its old spelling {old}, not both")
    return old_value


def play_match(game, match, as_json: bool, render: Callable) -> None:
    """Play ``match`` of ``game`` (``core.selfplay.run``; a progress bar on stderr when it is
    a terminal) and print its JSON envelope, or ``render(report)`` the table."""
    from deduce.core.selfplay import run

    report = run(game, match, progress=progress_bar)
    if as_json:
        print_json(report.envelope)
        return
    render(report)
