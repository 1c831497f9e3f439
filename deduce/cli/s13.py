"""``deduce s13``: Sherlock 13 analysis, explanations, live table mode and self-play."""

from __future__ import annotations

import click

from deduce.cli.common import esc, literal, out, print_json, reports_errors, styled
from deduce.cli.selfplay import bot_names, play_match, selfplay_options


@click.group()
def s13() -> None:
    """Sherlock 13: exact analysis of a game record (spec JSON).

    \b
    Examples:
      deduce s13 analyze game.json
      deduce s13 analyze game.json --json
      deduce s13 why game.json moriarty
      deduce s13 table game.json --variant standard --players Ann,Ben,Cat,Dan --me Ann \\
          --hand sherlock,hudson,baynes
      deduce s13 selfplay --players 4 --bots infogain,random,random,random --games 100 --seed 1
    """


@s13.command()
@click.argument("record_file", metavar="RECORD", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the spec's JSON object only.")
@reports_errors
def analyze(record_file: str, as_json: bool) -> None:
    """Who may be the criminal, who holds what, and the best questions to ask next.

    Exit codes: 0 ok, 2 bad input, 3 contradictory record (a minimal conflicting set of
    events is named).

    \b
    Example:
      deduce s13 analyze game.json --json
    """
    from deduce.models.sherlock13.advice import analyze as run
    from deduce.models.sherlock13.record import load_record

    analysis = run(load_record(record_file))
    if as_json:
        print_json(analysis.to_json())
        return
    from deduce.cli.s13_view import full_view

    out.print(full_view(analysis))


@s13.command()
@click.argument("record_file", metavar="RECORD", type=click.Path())
@click.argument("suspect")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
@reports_errors
def why(record_file: str, suspect: str, as_json: bool) -> None:
    """Why SUSPECT is ruled out (a minimal set of events and hand facts), or a deal where
    SUSPECT is the criminal.

    \b
    Example:
      deduce s13 why game.json moriarty
    """
    from deduce.models.sherlock13.cards import suspect_index
    from deduce.models.sherlock13.explain import explain_suspect
    from deduce.models.sherlock13.record import load_record

    record = load_record(record_file)
    card = suspect_index(suspect, where="SUSPECT")
    explanation = explain_suspect(record, card)
    if as_json:
        print_json(explanation.to_json())
    else:
        out.print(explanation.text(), soft_wrap=True)  # plain lines: a pipe gets them whole


@s13.command()
@click.argument("record_file", metavar="RECORD", type=click.Path())
@click.option("--variant", help="New record only: the variant, standard or expert.")
@click.option("--players", help="New record only: names in seating order, comma separated.")
@click.option("--me", help="New record only: which player I am.")
@click.option("--hand", help="New record only: my cards, comma separated (aliases allowed).")
@reports_errors
def table(record_file: str, variant, players, me, hand) -> None:
    """Live play: enter answers one line at a time; each is saved to RECORD at once.

    RECORD is created if missing, from the options or (on a terminal) by asking for each
    one left out, every answer checked as it is given; the options are ignored (with a
    note) when RECORD exists. Commands:

    \b
      raise ASKER ICON [RAISER...]     count ASKER TARGET ICON N
      accuse ACCUSER SUSPECT right|wrong
      exchange ACTOR left|right REVEALED [TOOK]
      undo   show   best   why SUSPECT   help   quit

    On a terminal every entry is followed by the criminal distribution. From a pipe each
    line answers with one line: "ok: ..." on stdout, or the refusal on stderr; the exit
    code of a piped session is 0 if every entry was accepted, else that of the first
    refusal (2 bad input, 3 contradiction). A refused entry never changes RECORD.

    \b
    Example:
      printf 'raise Ann skull Cat\\ncount Ben Dan book 1\\n' | deduce s13 table game.json \\
          --variant standard --players Ann,Ben,Cat,Dan --me Ann --hand sherlock,hudson,baynes
    """
    import sys

    from deduce.models.sherlock13.table import TableSession

    interactive = sys.stdin.isatty()
    session = TableSession.open(record_file, variant=variant, players=players, me=me, hand=hand,
                                ask=_ask_setup if interactive else None)
    given = [f"--{k}" for k, v in (("variant", variant), ("players", players), ("me", me),
                                   ("hand", hand)) if v]
    if not session.created:
        from deduce.cli.table_loop import note_ignored_setup

        note_ignored_setup(record_file, given, "its last event")
    with session:
        code = _table_loop(session, record_file, interactive)
    sys.exit(code)


def _ask_setup(key: str, setup) -> None:
    """Ask on the terminal for the setup field ``key`` until ``setup`` accepts the answer
    (the record's lock is already held: a second session is refused before any question)."""
    from deduce.core.errors import InputError
    from deduce.models.sherlock13.cards import HAND_SIZE

    if key == "variant":
        text, default = "Variant (standard or expert)", "standard"
    elif key == "players":
        text, default = "Players in seating order, first to play first (2-4, comma separated)", None
    elif key == "me":
        text, default = f"Which player are you ({', '.join(setup.names)})", None
    else:
        size = HAND_SIZE[len(setup.names)]
        text, default = f"Your hand: {size} cards, first card first (comma separated)", None

    def check(answer: str):
        try:
            return setup.set(key, answer)
        except InputError as exc:
            raise click.UsageError(literal(exc)) from None

    click.prompt(literal(text), default=default, value_proc=check)


def _table_loop(session, record_file: str, interactive: bool) -> int:
    """The shared table loop (``cli/table_loop.py``) with Sherlock 13's views."""
    from deduce.cli.s13_view import advice_table, compact_view, full_view
    from deduce.cli.table_loop import TableViews, run_table

    def intro() -> None:
        out.print(styled(f"[bold]{esc(record_file)}[/]: {len(session.record.events)} events. "
                         "Type help for commands."))
        out.print(compact_view(session.analysis()))

    def prompt() -> str:
        turns = session.record.turns
        return "game over" if turns.over else f"{session.record.names[turns.current]} to play"

    def show(reply) -> bool:
        if reply.view == "show":
            out.print(full_view(reply.analysis))
        elif reply.view == "best":
            out.print(advice_table(reply.analysis))
        return reply.view is not None

    return run_table(session, TableViews(intro, prompt, show,
                                         lambda reply: out.print(compact_view(reply.analysis))),
                     interactive)



@s13.command()
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True, help="2, 3 or 4 players.")
@click.option("--variant", default="standard", show_default=True, help="standard or expert.")
@selfplay_options(games=100, bots_help="One bot per seat, comma separated: random, tracker, "
                                       "infogain [default: infogain, then random for every "
                                       "other seat].")
@reports_errors
def selfplay(players: int, variant: str, games: int, seed: int, workers: int,
             scheduler: str | None, bots: str | None, as_json: bool) -> None:
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

    JSON: the self-play envelope {"game": "sherlock13", "players", "variant", "games",
    "seed", "workers", "scheduler", "elapsed_s", "bots": [{"name", "win_share", "ci95",
    "mean_turns", "wrong_accusations"}]}.

    \b
    Examples:
      deduce s13 selfplay --players 4 --bots infogain,tracker,tracker,tracker --games 1000 --workers 2
      deduce s13 selfplay --players 3 --variant expert --bots infogain,random,random --json
    """
    from deduce.core.names import resolve
    from deduce.core.selfplay import Match
    from deduce.models.sherlock13.selfplay import GAME

    variant = resolve(variant, ["standard", "expert"], "variant", where="--variant")
    names = (bot_names(bots, GAME.bots) if bots is not None
             else ("infogain",) + ("random",) * (players - 1))
    match = Match(games, seed, names, players, variant, workers, scheduler)
    play_match(GAME, match, as_json, _show_selfplay)


def _show_selfplay(report) -> None:
    from deduce.cli.s13_view import selfplay_footer, selfplay_table

    out.print(selfplay_table(report))
    out.print(selfplay_footer(report))
