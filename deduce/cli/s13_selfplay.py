"""``deduce s13 selfplay``: bots against bots, seats rotating, win shares with 95% intervals."""

from __future__ import annotations

import time

import click

from deduce.cli.common import match_options, out, print_json, progress_bar, reports_errors
@click.command()
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True, help="2, 3 or 4 players.")
@click.option("--variant", default="standard", show_default=True, help="standard or expert.")
@click.option("--bots", "bot_list", default=None,
              help="One bot per seat, comma separated: random, tracker, infogain "
                   "[default: infogain, then random for every other seat].")
@match_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object only.")
@reports_errors
def selfplay(players: int, variant: str, bot_list: str | None, games: int, seed: int,
             workers: int, scheduler: str | None, as_json: bool) -> None:
    """Play GAMES games between bots and report each bot's results.

    Seats rotate: in game g the bot listed at position i sits at seat (i + g) mod N, so
    every bot takes every seat (seat 0 plays first) equally often. One row per position in
    --bots, in that order:

    \b
      win share   games won / games played, with its Wilson 95% interval
      mean turns  the bot's own turns per game (questions asked plus accusations),
                  averaged over all its games
      wrong acc.  wrong accusations in all its games (each one eliminates the bot)

    A game still running after 200 turns counts as won by nobody. Bots: random (random
    legal questions), tracker (maximises the expected top probability), infogain (expected
    bits, accuses early when that is the better bet); all accuse when certain.

    \b
    Examples:
      deduce s13 selfplay --players 4 --bots infogain,tracker,tracker,tracker --games 1000 --workers 2
      deduce s13 selfplay --players 3 --variant expert --bots infogain,random,random --json
    """
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.core.selfplay import open_executor, run_games, summarise
    from deduce.models.sherlock13.bots import game_specs, play_one

    variant = resolve(variant, ["standard", "expert"], "variant", where="--variant")
    if bot_list is None:
        names = ["infogain"] + ["random"] * (players - 1)
    else:
        names = [b.strip() for b in bot_list.split(",")]
        if any(not b for b in names):
            raise InputError("empty bot name in the list", where="--bots")
    specs = game_specs(players, variant, names, games, seed)
    names = _canonical(names)
    start = time.perf_counter()
    with open_executor(workers, scheduler) as executor:
        results = _run_with_progress(run_games, play_one, specs, executor, games)
    elapsed = time.perf_counter() - start
    rows = summarise(names, results)
    no_winner = sum(1 for r in results if r.winner is None)
    if as_json:
        print_json({
            "game": "sherlock13", "players": players, "variant": variant, "games": games,
            "seed": seed, "workers": workers, "scheduler": scheduler,
            "elapsed_s": round(elapsed, 3),
            "bots": [{"name": r.name, "win_share": round(r.win_share, 6),
                      "ci95": [round(r.ci95[0], 6), round(r.ci95[1], 6)],
                      "mean_turns": round(r.mean_turns, 6),
                      "wrong_accusations": r.counters.get("wrong_accusations", 0)} for r in rows],
        })
        return
    from rich.table import Table

    table = Table(title=f"Sherlock 13 self-play: {games} games, {players} players, {variant}, "
                        f"seed {seed}", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Bot")
    table.add_column("Win share", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("Mean turns", justify="right")
    table.add_column("Wrong accusations", justify="right")
    for i, r in enumerate(rows, start=1):
        table.add_row(str(i), r.name, f"{100 * r.win_share:.1f}%",
                      f"{100 * r.ci95[0]:.1f}% – {100 * r.ci95[1]:.1f}%",
                      f"{r.mean_turns:.2f}", str(r.counters.get("wrong_accusations", 0)))
    out.print(table)
    where = f"Dask at {scheduler}" if scheduler else f"{workers} worker{'s' * (workers != 1)}"
    out.print(f"{elapsed:.1f} s on {where}; games without a winner: {no_winner}. "
              "Mean turns: the bot's own turns per game.")


def _canonical(names: list[str]) -> list[str]:
    from deduce.core.names import resolve
    from deduce.models.sherlock13.bots import BOTS

    return [resolve(b, BOTS, "bot", where="--bots") for b in names]


def _run_with_progress(run_games, play_one, specs, executor, games):
    """``run_games`` with a progress bar on stderr when stderr is a terminal."""
    with progress_bar(games, "self-play") as advance:
        return run_games(play_one, specs, executor=executor, progress=advance)
