"""``deduce irregulars selfplay``: bots play Baker Street Irregulars, multiplayer or solo
against Holmes.
(``cli/main.py`` attaches it to the ``irregulars`` group of ``cli/irregulars.py``.)
"""

from __future__ import annotations

import click

from deduce.cli.common import out, reports_errors
from deduce.cli.selfplay import bot_names, play_match, selfplay_options


@click.command(short_help="Bots play Baker Street Irregulars: win shares with 95% intervals.")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True,
              help="2 to 5 players (multi).")
@click.option("--mode", type=click.Choice(["multi", "solo"]), default="multi",
              show_default=True, help="multi: bots against each other; solo: one bot "
                                      "against Holmes.")
@selfplay_options(games=100, bots_help="One bot per seat, comma separated (solo: one bot): "
                                       "random [default: random for every seat].")
@reports_errors
def selfplay(players: int, mode: str, games: int, seed: int, workers: int,
             scheduler: str | None, bots: str | None, as_json: bool) -> None:
    """Play GAMES games of Baker Street Irregulars between bots and report each bot's
    results (solo: one bot against Holmes, 19 cycles, a win needing strictly more points
    than Holmes's Villains).

    Seats rotate (multi): in game g the bot listed at position i sits at seat
    (i + g) mod N, so every bot takes every seat equally often. One row per position in
    --bots, in that order:

    \b
      win share    games won / games played, with its Wilson 95% interval
                   (the tiebreakers leave one winner; solo: wins against Holmes)
      mean turns   the bot's own actions per game
      mean points  the bot's points at the end (Villains + best objective)

    Solo also gives Holmes's mean points.

    JSON: the self-play envelope {"game": "irregulars", "players", "variant": "multi" or
    "solo", "games", "seed", "workers", "scheduler", "elapsed_s", "bots": [{"name",
    "win_share", "ci95", "mean_turns", "mean_points"}]}, solo with "holmes":
    {"mean_points"} (and "players" 1).

    \b
    Examples:
      deduce irregulars selfplay --players 4 --games 200
      deduce irregulars selfplay --mode solo --bots random --games 500 --json
    """
    from deduce.core.selfplay import Match
    from deduce.models.irregulars.selfplay import GAME

    count = 1 if mode == "solo" else players
    names = bot_names(bots, GAME.bots) if bots is not None else ("random",) * count
    play_match(GAME, Match(games, seed, names, count, variant=mode, workers=workers,
                           scheduler=scheduler), as_json, _show_selfplay)


def _show_selfplay(report) -> None:
    from rich.table import Table

    m = report.match
    solo = m.variant == "solo"
    title = (f"Baker Street Irregulars self-play: {m.games} games, "
             + ("solo against Holmes" if solo else f"{m.players} players") + f", seed {m.seed}")
    table = Table(title=title, title_justify="left")
    for name, justify in (("#", "right"), ("Bot", "left"), ("Win share", "right"),
                          ("95% interval", "right"), ("Mean turns", "right"),
                          ("Mean points", "right")):
        table.add_column(name, justify=justify)
    for i, r in enumerate(report.rows, start=1):
        table.add_row(str(i), r.name, f"{100 * r.win_share:.1f}%",
                      f"{100 * r.ci95[0]:.1f}% – {100 * r.ci95[1]:.1f}%",
                      f"{r.mean_turns:.2f}", f"{r.figures['mean_points']:.2f}")
    out.print(table)
    where = (f"Dask at {m.scheduler}" if m.scheduler
             else f"{m.workers} worker{'s' * (m.workers != 1)}")
    holmes = (f"; Holmes's mean points: {report.summary.figures['holmes']['mean_points']:.2f}"
              if solo else "")
    out.print(f"{report.elapsed_s:.1f} s on {where}{holmes}.")

