"""``deduce irregulars selfplay``: bots play Baker Street Irregulars, multiplayer or solo
against Holmes; ``deduce irregulars advise``: every legal choice for me now, ranked.
(``cli/main.py`` attaches it to the ``irregulars`` group of ``cli/irregulars.py``.)
"""

from __future__ import annotations

import click

from deduce.cli.common import (
    SEED,
    WholeNumber,
    literal,
    out,
    print_json,
    progress_bar,
    reports_errors,
)
from deduce.cli.selfplay import bot_names, play_match, selfplay_options
from deduce.models.irregulars.advice import MAX_ROLLOUTS, ROLLOUTS, TOTAL_ROLLOUTS


@click.command(short_help="Bots play Baker Street Irregulars: win shares with 95% intervals.")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True,
              help="2 to 5 players (multi).")
@click.option("--mode", type=click.Choice(["multi", "solo"]), default="multi",
              show_default=True, help="multi: bots against each other; solo: one bot "
                                      "against Holmes.")
@selfplay_options(games=100, bots_help="One bot per seat, comma separated (solo: one bot): "
                                       "random, greedy, search [default: random for every seat].")
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

    Bots: random (any legal action), greedy (drafts toward the most valuable Villain
    within reach, arrests whenever it can, tails the nearest Villain), search (tries the
    greedy's best choices on hidden states sampled from what it sees, every player
    playing greedy to the end of the round).

    JSON: the self-play envelope {"game": "irregulars", "players", "variant": "multi" or
    "solo", "games", "seed", "workers", "scheduler", "elapsed_s", "bots": [{"name",
    "win_share", "ci95", "mean_turns", "mean_points"}]}, solo with "holmes":
    {"mean_points"} (and "players" 1).

    \b
    Examples:
      deduce irregulars selfplay --players 4 --games 200
      deduce irregulars selfplay --mode solo --bots random --games 500 --json
      deduce irregulars selfplay --bots search,greedy,greedy,greedy --games 100 --workers 2
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



@click.command(short_help="Every legal choice for me now, ranked by my chance to win.")
@click.argument("view_file", metavar="FILE", type=click.Path())
@click.option("--rollouts", type=WholeNumber(1, MAX_ROLLOUTS), default=ROLLOUTS,
              show_default=True,
              help=f"Rollouts per choice (1 to {MAX_ROLLOUTS}; all choices together get at "
                   f"most {TOTAL_ROLLOUTS}).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the sampled hidden states: the same seed gives the same advice.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object only.")
@reports_errors
def advise(view_file: str, rollouts: int, seed: int, as_json: bool) -> None:
    """Every legal choice for me in the current phase (each pick, each arrest with its
    cards, each tail, each bonus card or board, each board use), ranked by my estimated
    chance to win (solo: to beat Holmes).

    FILE is a live table's record (its observation now), a position (then I have seen
    only my hand of this cycle: the other hands are drawn from every unseen card, and the
    advice says so), an observation
    {"position": ..., "log": ...} as the engine writes it (every hand seen while passing
    is kept), or "sample" / "sample-solo" (the shipped samples). Each choice is tried on
    hidden states drawn from what FILE shows (never the real one), then every player
    plays the greedy bot to the end of the game; the chance is the mean over the
    rollouts, with its standard error. All choices together get at most the rollout cap,
    so the advice comes in about 2 s.

    JSON: {"seed", "rollouts", "seen": "log" or "hand", "best": {"action", "words",
    "p_win", "stderr", "rollouts", "why"}, "actions": [{"action", "words", "p_win",
    "stderr", "rollouts"}]}.

    \b
    Examples:
      deduce irregulars advise sample
      deduce irregulars advise observation.json --rollouts 64 --seed 3 --json
    """
    from deduce.models.irregulars.advice import advise as run
    from deduce.models.irregulars.advice import load_view

    from deduce.models.irregulars.advice import Observed
    from deduce.models.irregulars.table import record_observation

    found = record_observation(view_file)  # a live table's record: its observation now
    view = Observed(*found) if found is not None else load_view(view_file)
    advice = run(view, rollouts, seed, progress=None if as_json else
                 (lambda total: progress_bar(total, "rollouts")))
    if as_json:
        print_json(advice.to_json())
        return
    from deduce.cli.irregulars_advice_view import advice_view

    out.print(f"Advice for {literal(view_file)}", soft_wrap=True, markup=False)
    out.print(advice_view(advice))
