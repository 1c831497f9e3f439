"""``deduce deductions selfplay`` and ``deduce deductions advise``: bots play Deductions,
and what to do now in a position.

``cli/main.py`` adds them to the ``deductions`` group.
"""

from __future__ import annotations

import click

from deduce.cli.common import (
    SEED,
    WholeNumber,
    out,
    print_json,
    reports_errors,
)
from deduce.cli.selfplay import bot_names, play_match, selfplay_options
from deduce.models.deductions import MAX_ROLLOUTS, ROLLOUTS, TOTAL_ROLLOUTS


@click.command(short_help="Bots play Deductions: each bot's win share with its 95% interval.")
@click.option("--players", type=click.IntRange(2, 4), default=3, show_default=True,
              help="2, 3 or 4 players.")
@selfplay_options(games=100, bots_help="One bot per seat, comma separated: random, greedy, "
                                       "search [default: greedy, then random for every "
                                       "other seat].")
@reports_errors
def selfplay(players: int, games: int, seed: int, workers: int, scheduler: str | None,
             bots: str | None, as_json: bool) -> None:
    """Play GAMES games of Deductions between bots and report each bot's results.

    Seats rotate: in game g the bot listed at position i sits at seat (i + g) mod N, so
    every bot takes every seat (seat 0 plays first) equally often. One row per position in
    --bots, in that order:

    \b
      win share    games won / games played, with its Wilson 95% interval
                   (a tie the tiebreakers leave is a win for each tied bot)
      mean turns   the bot's own turns per game
      mean points  the bot's points at the end of the game

    Bots: random (any legal action), greedy (solves the case worth the most when it can,
    else takes the clue that brings a case closest), search (tries the greedy's best
    choices on sampled deck orders, playing a few turns ahead).

    JSON: the self-play envelope {"game": "deductions", "players", "games", "seed",
    "workers", "scheduler", "elapsed_s", "bots": [{"name", "win_share", "ci95",
    "mean_turns", "mean_points"}]}.

    \b
    Examples:
      deduce deductions selfplay --players 3 --bots greedy,random,random --games 200
      deduce deductions selfplay --bots search,greedy,greedy --games 1000 --workers 2 --json
    """
    from deduce.core.selfplay import Match
    from deduce.models.deductions.selfplay import GAME

    names = (bot_names(bots, GAME.bots) if bots is not None
             else ("greedy",) + ("random",) * (players - 1))
    play_match(GAME, Match(games, seed, names, players, workers=workers, scheduler=scheduler),
               as_json, _show_selfplay)


def _show_selfplay(report) -> None:
    from rich.table import Table

    m = report.match
    table = Table(title=f"Deductions self-play: {m.games} games, {m.players} players, "
                        f"seed {m.seed}", title_justify="left")
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
    notes = report.summary.notes
    out.print(f"{report.elapsed_s:.1f} s on {where}; shared wins: {notes['shared']}; "
              f"turns per game: {notes['mean_game_turns']:.1f}.")


ROLLOUT_COUNT = WholeNumber(1, MAX_ROLLOUTS)


@click.command(short_help="Every legal action for me now, ranked by my chance to win.")
@click.argument("position_file", metavar="POSITION", type=click.Path())
@click.option("--rollouts", type=ROLLOUT_COUNT, default=ROLLOUTS, show_default=True,
              help=f"Rollouts per action (1 to {MAX_ROLLOUTS}; all actions together get at "
                   f"most {TOTAL_ROLLOUTS}).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the sampled deck orders: the same seed gives the same advice.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object only.")
@reports_errors
def advise(position_file: str, rollouts: int, seed: int, as_json: bool) -> None:
    """Every legal action for me now, ranked by my estimated chance to win.

    Each action is tried on deck orders sampled from what the position shows (never the
    real one), then every player plays the greedy bot for a few turns; the chance is the
    mean over the rollouts, with its standard error. All actions together get at most
    the rollout cap, so the advice comes in about 2 s.

    JSON: {"best": {"action", "p_win", "stderr", "rollouts", "why"}, "actions":
    [{"action", "p_win", "stderr", "rollouts"}]}.

    \b
    Example:
      deduce deductions advise game.json --rollouts 32 --seed 1
    """
    from deduce.models.deductions.advice import advise as run
    from deduce.models.deductions.position import load_position

    advice = run(load_position(position_file), rollouts, seed, where=position_file)
    if as_json:
        print_json(advice.to_json())
        return
    from deduce.cli.deductions_view import advice_view

    out.print(f"Advice for {position_file}", soft_wrap=True)
    out.print(advice_view(advice))



