"""``deduce irregulars table``: a Baker Street Irregulars game entered live at the table,
multiplayer or solo, on the shared table loop (``cli/table_loop.py``); the session, its
record, its saves and undo are ``models/irregulars/table.py``'s. This module asks a new
record's start and draws the views: the arrest answer and the score with
``cli/irregulars_view.py``'s (the one-shot commands' views), the hand tracking and the
table in plain lines and rich tables; names shown literally.
"""

from __future__ import annotations

import sys

import click
from rich.table import Table

from deduce.cli.common import SEED, literal, out, reports_errors


@click.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--from", "source", metavar="POSITION", type=click.Path(dir_okay=False),
              help="New record only: start from this position file (a game's start).")
@click.option("--seed", type=SEED, help="New record only: the program deals the game with "
                                        "this seed and shows you what you see.")
@click.option("--mode", type=click.Choice(["multi", "solo"]), default="multi",
              show_default=True, help="New record only: multiplayer or solo against Holmes.")
@click.option("--players", help="New record only: names in seating order, comma separated.")
@click.option("--me", help="New record only: which player I am (solo: my name).")
@click.option("--cards", metavar="FILE", help="New record only: a card-set TOML file "
                                               "(default: the shipped set).")
@reports_errors
def table(record_file: str, source, seed, mode, players, me, cards) -> None:
    """Enter a Baker Street Irregulars game live, one line per thing that happens at the
    table; each accepted entry is saved to FILE before it is acknowledged, and a refused
    one changes nothing. The engine plays every entry, so every rule is checked.

    FILE is created if missing: from a start position (--from), from the deal of --seed
    (with --players and --me; solo: --mode solo and --me), or, on a terminal, by typing
    what lies on the table (players, who you are, your Inspector, the 5 Villains, the
    arresting order, the Plot Twist, your hand; solo: you, your Inspector, the Villains,
    your hand), every answer checked as it is given. The options are ignored (with a
    note) when FILE exists. The player to act acts (the prompt says who); type help for
    the details:

    \b
      pick CARD | pass             reveal NAME CARD, NAME CARD    (investigate)
      arrest VILLAIN [with CARD, ...] [ignore]   jump   watson   wiggins VILLAIN
      tail VILLAIN | pass          take CARD | board NAME         resupply keep|back
      inspector NAME INSPECTOR     (another player's, shown at the end)
      what came: refill V  twist T  hand C, ...  middle C, ...  holmes C  track C  check C  ok
      arrest [PLAYER]   hands   score   best   show   undo   help   quit

    An entry typed without what came (arrest V07) waits for it (refill V12). Solo, the
    table plays Holmes: you say his random pick and the cards the decks give him, it says
    what he arrests (confirm with the refill drawn, or ok). On a terminal every entry is
    followed by the row and your hand. From a pipe each line answers with one line: "ok:
    ..." on stdout, or "refused: ..." on stderr; the exit code is 0 if every entry was
    accepted, else 2.

    \b
    Examples:
      deduce irregulars table game.json --seed 7 --players Ann,Ben,Cat --me Ann
      deduce irregulars table solo.json --seed 7 --mode solo --me Ann
      deduce irregulars table live.json --from start.json
    """
    from deduce.models.irregulars.table import TableSession

    interactive = sys.stdin.isatty()
    session = TableSession.open(record_file, source=source, seed=seed, mode=mode,
                                players=players, me=me, cards=cards,
                                ask=_ask_setup if interactive else None)
    given = [name for name, v in (("--from", source), ("--seed", seed), ("--players", players),
                                  ("--me", me), ("--cards", cards)) if v is not None]
    if not session.created:
        from deduce.cli.table_loop import note_ignored_setup

        note_ignored_setup(record_file, given, "its last entry")
    elif seed is not None:
        out.print(f"The deal of seed {seed}: lay it out as shown.")
        print_show(session, session.view_data())
    with session:
        code = _loop(session, record_file, interactive)
    sys.exit(code)


# ----------------------------------------------------------------------------- setup
def _question(key: str, setup) -> tuple[str, str | None]:
    if key == "players":
        return "Players in seating order (2-5, comma separated)", None
    if key == "me":
        if setup.mode == "solo":
            return "Your name", None
        return f"Which player are you ({', '.join(setup.players)})", None
    if key == "inspector":
        return "Your Inspector (an id or a name)", None
    if key == "villains":
        return "The 5 Villains in the row (ids or names, comma separated)", None
    if key == "order":
        return "The arresting order, first to last (comma separated)", ", ".join(setup.players)
    if key == "plot_twist":
        return "The round's Plot Twist (an id or a name)", None
    return "Your hand (5 Evidence ids or names, comma separated)", None


def _ask_setup(key: str, setup) -> None:
    """Ask on the terminal for the start field ``key`` until ``setup`` accepts it."""
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
def _name(cards, ident: str) -> str:
    return f"{ident} {cards.by_id[ident].name}" if ident in cards.by_id else ident


def print_show(session, data: dict) -> None:
    """The whole table: the round, the row, every player, my hand, the cycle so far."""
    pos, log = data["position"], data["log"]
    cards = pos.cards
    out.print(session.prompt())
    twist = ""
    if pos.plot_twist:
        t = cards.plot_twist_by_id[pos.plot_twist]
        twist = f"; Plot Twist {t.id} {t.name} ({t.effect})"
    where = f"cycle {pos.cycle} of 19" if pos.solo else f"round {pos.round}, cycle {pos.cycle}"
    out.print(literal(f"{where}, {pos.phase} phase{twist}"))
    row = Table(title="Villains in the row", title_justify="left")
    for name, opts in (("Id", {"no_wrap": True}), ("Name", {"overflow": "fold"}),
                       ("Icons", {}), ("Pts", {"justify": "right"}), ("Tailed by", {})):
        row.add_column(name, **opts)
    for v in pos.villains:
        villain = cards.villain_by_id[v]
        tails = ", ".join(p for p in pos.players if pos.tailing[p] == v) or "-"
        row.add_row(v, villain.name, " ".join(villain.icons), str(villain.points), tails)
    out.print(row)
    people = Table(title="Players (arresting order: " + literal(", ".join(pos.order)) + ")",
                   title_justify="left")
    for name, opts in (("Player", {"overflow": "fold"}), ("Tokens", {"justify": "right"}),
                       ("Evidence (unused)", {"ratio": 1}), ("Arrested", {}),
                       ("Boards", {})):
        people.add_column(name, **opts)
    for p in pos.players:
        unused = [c.id for c in pos.unused(p)]
        owned = len(pos.evidence[p])
        people.add_row(p + (" (me)" if p == pos.me else ""),
                       f"{pos.bsi[p].available} ({pos.bsi[p].spent} spent)",
                       f"{owned}: " + (", ".join(unused) or "-"),
                       ", ".join(pos.arrested[p]) or "-", ", ".join(pos.boards[p]) or "-")
    out.print(people)
    label = "The middle, face up" if pos.phase == "bonus" else "My hand"
    out.print(literal(f"{label}: " + (", ".join(_name(cards, c) for c in pos.hand) or "-")))
    if log.cycles and log.cycles[-1].picks:
        picks = log.cycles[-1].picks
        out.print(literal("Picks revealed: " + ", ".join(
            f"{p} {'passed' if picks[p] is None else picks[p]}" for p in pos.players
            if p in picks)))
    pending = data["pending"]
    if pending is not None and pending.picks:
        out.print(literal("Picks entered: " + ", ".join(
            f"{p} {'pass' if c is None else c}" for p, c in pending.picks.items())))


def print_compact(session) -> None:
    """After an accepted entry on a terminal: the row and my hand."""
    pos = session.position()
    out.print(literal("Row: " + (", ".join(pos.villains) or "-") + "; my hand: "
                      + (", ".join(pos.hand) or "-")))


def print_score(session, result: dict) -> None:
    from deduce.cli.irregulars_view import score_view

    pos = session.position()
    out.print(score_view(pos, result))
    final = session.final_scores()
    if final is not None:
        out.print(literal("Final (every Inspector shown): " + ", ".join(
            f"{n} {p}" for n, p in final) + f"; {session.prompt()}"))


def print_arrest(session, data: dict) -> None:
    from deduce.cli.irregulars_view import arrest_view

    out.print(arrest_view(session.position(), data["player"], data["options"], data["best"]))


def print_hands(session, knowledge) -> None:
    """My hand tracking (``deduce irregulars hands``'s view)."""
    from deduce.cli.irregulars_hands_view import hands_view

    out.print(hands_view(session.position(), knowledge))


def print_best(advice) -> None:
    """The advice (``deduce irregulars advise``'s view)."""
    from deduce.cli.irregulars_advice_view import advice_view

    out.print(advice_view(advice))


def _loop(session, record_file: str, interactive: bool) -> int:
    """The shared table loop with the Baker Street Irregulars views."""
    from deduce.cli.table_loop import run_view_table

    views = {"show": lambda d: print_show(session, d),
             "score": lambda d: print_score(session, d),
             "arrest": lambda d: print_arrest(session, d),
             "hands": lambda d: print_hands(session, d),
             "best": print_best}

    return run_view_table(session, record_file, views, lambda: print_compact(session),
                          interactive)
