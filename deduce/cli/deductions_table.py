"""``deduce deductions table``: a Deductions game entered live at the table, on the shared
table loop (``cli/table_loop.py``); the session, its record, its saves and undo are
``models/deductions/table.py``'s. This module asks a new record's setup and draws the
views: the grid, the patterns, a payment and the odds with ``cli/deductions_view.py``'s
(the one-shot commands' views; a payment is the player to play's), the rest in plain lines;
rich draws them the same on a terminal and through a pipe, names shown literally.
"""

from __future__ import annotations

import sys

import click

from deduce.cli.common import SEED, literal, out, reports_errors


@click.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--from", "source", metavar="POSITION", type=click.Path(dir_okay=False),
              help="New record only: start from this position file (its `me` unless --me).")
@click.option("--seed", type=SEED, help="New record only: start from the deal of this seed "
                                        "(lay the grid and the display out as shown).")
@click.option("--players", help="New record only: names in seating order, comma separated.")
@click.option("--me", help="New record only: which player I am.")
@click.option("--cards", metavar="FILE", help="New record only: a card-set TOML file "
                                               "(default: the shipped set).")
@reports_errors
def table(record_file: str, source, seed, players, me, cards) -> None:
    """Enter a Deductions game live, one line per thing that happens; each accepted entry
    is saved to FILE before it is acknowledged, and a refused one changes nothing.

    FILE is created if missing: from a position (--from), from the deal of --seed (with
    --players and --me), or, on a terminal, by typing what lies on the table (players,
    who you are, who plays first, the grid row by row, the display, the pools), every
    answer checked as it is given. The options are ignored (with a note) when FILE
    exists. The player to play acts; cells are b3 (column a-d from the left, row 1-4 from
    the top). Entries and views (type help for the details):

    \b
      draw CARD                          take CELL [prop CELL] [refill CARD]
      mind row N|column L [got CARD] [refill C1,C2,C3,C4]
      solve CASE [with CARD+CARD=SUIT,...] [reveal CASE] [refill CARD]
      reserve CASE [reveal CASE]   rotate CASE SUIT   discard CARD
      claim MILESTONE [CASE,...]   refill CARD...   got CARD   reveal CASE
      patterns   pay [CASE]   best   odds   show   undo   help   quit

    An entry typed without what came (take b3) waits for it (refill writings). A solve
    without "with" pays the cheapest way. On a terminal every entry is followed by the
    grid and the pool of the player to play. From a pipe each line answers with one line:
    "ok: ..." on stdout, or "refused: ..." on stderr; the exit code is 0 if every entry
    was accepted, else 2.

    \b
    Examples:
      deduce deductions table game.json --seed 7 --players Ann,Ben,Cat --me Ann
      deduce deductions table live.json --from position.json
      printf 'draw writings\\ntake b1 prop a1\\n' | deduce deductions table game.json
    """
    from deduce.models.deductions.table import TableSession

    interactive = sys.stdin.isatty()
    session = TableSession.open(record_file, source=source, seed=seed, players=players,
                                me=me, cards=cards, ask=_ask_setup if interactive else None)
    given = [name for name, v in (("--from", source), ("--seed", seed), ("--players", players),
                                  ("--me", me), ("--cards", cards)) if v is not None]
    if not session.created:
        from deduce.cli.table_loop import note_ignored_setup

        note_ignored_setup(record_file, given, "its last entry")
    elif seed is not None:
        out.print(f"The deal of seed {seed}: lay it out as shown.")
        print_show(session.position(), session)
    with session:
        code = _loop(session, record_file, interactive)
    sys.exit(code)


# ----------------------------------------------------------------------------- setup
def _question(key: str, setup) -> tuple[str, str | None]:
    if key == "players":
        return "Players in seating order (2-4, comma separated)", None
    if key == "me":
        return f"Which player are you ({', '.join(setup.players)})", None
    if key == "to_play":
        return f"Who plays first ({', '.join(setup.players)})", setup.players[0]
    if key.startswith("grid"):
        return f"Grid row {key[4:]}, columns a-d (4 cards, comma separated)", None
    if key in ("solutions", "red_herrings"):
        kind = "Solutions" if key == "solutions" else "Red Herrings"
        return f"{kind} shown, the pile's top first (4 case ids or names, comma separated)", None
    return f"{key[5:]}'s pool (cards, comma separated; Enter: empty)", ""


def _ask_setup(key: str, setup) -> None:
    """Ask on the terminal for the setup field ``key`` until ``setup`` accepts the answer
    (the record's lock is already held)."""
    from deduce.core.errors import InputError

    text, default = _question(key, setup)

    def check(answer: str):
        try:
            return setup.set(key, answer)
        except InputError as exc:
            raise click.UsageError(literal(exc)) from None

    click.prompt(literal(text), default=default, value_proc=check,
                 show_default=bool(default))


# ----------------------------------------------------------------------------- views
def cards_text(cards) -> str:
    """Clue cards grouped in first-seen order: ``Knowledge x2, Sherlock Holmes``."""
    from collections import Counter

    count = Counter(cards)
    return ", ".join(c if n == 1 else f"{c} x{n}" for c, n in count.items()) or "-"


def player_lines(pos, player: str) -> list[str]:
    """A player's points and pool, then their solved cards, milestones and reserved card."""
    solved = ", ".join(f"{s.id} ({s.discount})" for s in pos.solved[player]) or "-"
    claimed = ", ".join(pos.milestones[player]) or "-"
    mine = " (me)" if player == pos.me else ""
    return [f"{player}{mine}: {pos.points(player)} points; pool {len(pos.pools[player])}: "
            f"{cards_text(pos.pools[player])}",
            f"  solved: {solved}; milestones: {claimed}; reserved: {pos.reserved[player] or '-'}"]


def print_show(pos, session) -> None:
    """The whole table: whose turn, the grid, the display, every player, deck and discard."""
    final = "; final round" if pos.final_round else ""
    from deduce.cli.deductions_view import grid_legend, grid_table

    out.print(f"{session.prompt()}{final}")
    out.print(grid_table(pos.grid))
    out.print(grid_legend(pos.grid))
    for key, label in (("solutions", "Solutions"), ("red_herrings", "Red Herrings")):
        ids = [i or "(gap)" for i in pos.display[key]]
        out.print(f"{label}: {ids[0]} (pile top), {', '.join(ids[1:])}")
    for p in pos.players:
        for line in player_lines(pos, p):
            out.print(line)
    out.print(f"deck: {sum(pos.deck_counts().values())} cards; discard pile: "
              f"{len(pos.discard)} cards")


def print_compact(session) -> None:
    """After an accepted entry on a terminal: the grid and the player to play."""
    from deduce.cli.deductions_view import grid_table

    pos = session.position()
    out.print(grid_table(pos.grid))
    for line in player_lines(pos, session.to_play()):
        out.print(line)


def print_patterns(session, data: dict) -> None:
    """The grid and its placements (``deductions_view.patterns_view``)."""
    from deduce.cli.deductions_view import patterns_view

    out.print(patterns_view(session.position(), data["placements"], data["forced"]))


def print_pay(session, result: dict) -> None:
    """The player to play's payment of a case, or every case within their reach ranked
    (``deductions_view.pay_view``, ``pay_all_view``)."""
    from deduce.cli.deductions_view import pay_all_view, pay_view

    if "cases" in result:
        out.print(pay_all_view(session.position(), result, session.to_play(), "pay CASE"))
    else:
        out.print(pay_view(session.position(), result, session.to_play()))


def print_odds(session, data: dict) -> None:
    """The deck's odds and each Mind Palace line (``deductions_view.odds_view``)."""
    from deduce.cli.deductions_view import odds_view

    out.print(odds_view(session.position(), data))


def print_best(advice, top: int = 5) -> None:
    """The advice (``advice.Advice``): the first ``top`` actions, then why the best is."""
    from deduce.cli.deductions_view import advice_view

    out.print(advice_view(advice, top=top))


def _loop(session, record_file: str, interactive: bool) -> int:
    """The shared table loop with the Deductions views."""
    from deduce.cli.table_loop import run_view_table

    views = {"show": lambda d: print_show(d, session),
             "patterns": lambda d: print_patterns(session, d),
             "pay": lambda d: print_pay(session, d),
             "odds": lambda d: print_odds(session, d), "best": print_best}

    return run_view_table(session, record_file, views, lambda: print_compact(session),
                          interactive)
