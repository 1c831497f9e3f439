"""``deduce deductions``: Deductions, the deck game: its card set and the analysis of a
table position (patterns, payments, milestones, odds).

The commands parse, call the model (``deduce.models.deductions``) and render
(``deduce.cli.deductions_view``); with ``--json`` only the spec's JSON goes to stdout.
"""

from __future__ import annotations

import click

from deduce.cli.common import out, print_json, reports_errors


def load_position(path: str):
    """``position.load_position`` (``sample`` included), imported when a command runs."""
    from deduce.models.deductions.position import load_position as load

    return load(path)


position_argument = click.argument("position_file", metavar="POSITION", type=click.Path())
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print the spec's JSON object only.")


@click.group()
def deductions() -> None:
    """Deductions, the deck game: patterns on the clue grid, what a case costs you, the
    milestones within reach and the odds of the next draw, from a table position (JSON).

    POSITION is the spec's position file; its "cards" field names the case cards
    ("shipped", or a TOML file of your own, relative to the position's folder). The word
    "sample" (when no file has that name) is the shipped sample: a 3-player game in its
    middle, Ann to play.

    \b
    Examples:
      deduce deductions cards                       the shipped case cards
      deduce deductions cards --cards my-set.toml   check and list your own set
      deduce deductions patterns sample             every exact and propped pattern
      deduce deductions pay sample sign-opportunity-1   how I pay a case
      deduce deductions pay sample --all            every case within my reach, ranked
      deduce deductions milestones sample ben       what Ben's milestones still lack
      deduce deductions odds position.json --json   the deck and each Mind Palace line
      deduce deductions advise sample               what to do now, by my chance to win
      deduce deductions table game.json --seed 7 --players Ann,Ben,Cat --me Ann
                                                    a dealt game, entered live
      deduce deductions selfplay --bots search,greedy,greedy --games 200 --workers 2
    """


@deductions.command(short_help="List a card set (the shipped one or yours), one table per case.")
@click.option("--cards", "cards_file", metavar="FILE", type=click.Path(),
              help="A card set of your own (TOML, the spec's format); default: shipped.")
@json_option
@reports_errors
def cards(cards_file: str | None, as_json: bool) -> None:
    """List a card set: the 45 case cards, one table per case (Solutions first).

    The set is checked as it is read (45 cards: per case 5 Solutions, one per category,
    and 10 Red Herrings, two per category; costs and points in range); a problem is exit 2
    naming the file, the card and the field. --json prints {"title", "cards"}, each card
    as in the TOML (id, name, case, category, kind, points, cost), names canonical.

    \b
    Examples:
      deduce deductions cards
      deduce deductions cards --cards my-set.toml --json
    """
    from deduce.models.deductions.cards import load_cards

    card_set = load_cards(cards_file)
    if as_json:
        print_json(card_set.to_json())
        return
    from deduce.cli.deductions_view import card_set_view

    out.print(card_set_view(card_set))


@deductions.command(short_help="Every exact and propped pattern on the clue grid.")
@position_argument
@json_option
@reports_errors
def patterns(position_file: str, as_json: bool) -> None:
    """Every exact and every propped pattern placement on the clue grid.

    Exact: four cards of one suit, take any one. Propped: three of a suit and one other
    card, which you cover with a card of your pool (it stays on the grid): take one of the
    three. Mind Palace is forced only when there is neither. Cells are written a1 (top
    left) to d4 (bottom right); the JSON uses [row, column] from 0.

    \b
    Example:
      deduce deductions patterns sample --json
    """
    from deduce.models.deductions.patterns import (
        mind_palace_forced,
        placement_json,
        placements,
    )

    position = load_position(position_file)
    found = placements(position.grid)
    forced = mind_palace_forced(position.grid)
    if as_json:
        print_json({"patterns": [placement_json(p) for p in found],
                    "mind_palace_forced": forced})
        return
    from deduce.cli.deductions_view import patterns_view

    out.print(patterns_view(position, found, forced))


@deductions.command(short_help="How I pay a case (or every case within reach, ranked).")
@position_argument
@click.argument("case", required=False)
@click.option("--all", "every", is_flag=True,
              help="Every visible case and my reserved one, ranked (instead of CASE).")
@json_option
@reports_errors
def pay(position_file: str, case: str | None, every: bool, as_json: bool) -> None:
    """How I (the position's "me") pay CASE: the due after my discounts and the payment
    that spends the fewest cards (then the fewest Allies), or how many cards I am short.

    CASE is a visible case or the one I reserved: its id, or an unambiguous part of its
    id or name. With --all (no CASE), every such case, ranked: the affordable ones first,
    then by the fewest extra cards needed, the fewest cards spent, the most points; the
    JSON is {"cases": [one pay object per case, in that order]}.

    \b
    Examples:
      deduce deductions pay sample sign-opportunity-1
      deduce deductions pay sample "fog over" --json
      deduce deductions pay sample --all
    """
    from deduce.models.deductions.knowledge import find_case, pay_all_json, pay_json

    if every == (case is not None):
        raise click.UsageError("give either CASE or --all")
    position = load_position(position_file)
    me = position.me
    if every:
        result = pay_all_json(position, me)
    else:
        result = pay_json(position, find_case(position, case, me), me)
    if as_json:
        print_json(result)
        return
    from deduce.cli.deductions_view import pay_all_view, pay_view

    out.print(pay_all_view(position, result) if every else pay_view(position, result))


@deductions.command(short_help="A player's milestones: claimed, claimable, what they lack.")
@position_argument
@click.argument("player", required=False)
@json_option
@reports_errors
def milestones(position_file: str, player: str | None, as_json: bool) -> None:
    """PLAYER's milestones (default: the position's "me"): claimed, claimable now (with the
    5 cards to commit that keep the most bonus reachable), the most bonus reachable; in
    words, what each open milestone still lacks and which cases within PLAYER's reach
    would complete one. PLAYER: a name or an unambiguous part of one.

    \b
    Example:
      deduce deductions milestones sample ben --json
    """
    from deduce.core.names import resolve
    from deduce.models.deductions.knowledge import milestone_report

    position = load_position(position_file)
    who = position.me if player is None else resolve(player, position.players, "player",
                                                     where="PLAYER")
    report = milestone_report(position, who)
    if as_json:
        print_json(report["json"])
        return
    from deduce.cli.deductions_view import milestones_view

    out.print(milestones_view(position, report))


@deductions.command(short_help="The clue deck's odds and what each Mind Palace line yields.")
@position_argument
@json_option
@reports_errors
def odds(position_file: str, as_json: bool) -> None:
    """The clue deck (every clue card not on the grid, in a pool or discarded): how many
    of each suit are left (its Ally included) and the chance of each on the next draw;
    the Allies still in it; and per row and column, what a Mind Palace there yields (one
    of its four cards at random; an Ally counts as its suit).

    The JSON adds "mind_palace": {"row 1": {suit: chance, ...}, ..., "column d": {...}}
    (rows from the top, columns from the left, every suit listed).

    \b
    Example:
      deduce deductions odds sample --json
    """
    from deduce.models.deductions.knowledge import odds_json

    position = load_position(position_file)
    result = odds_json(position)
    if as_json:
        print_json(result)
        return
    from deduce.cli.deductions_view import odds_view

    out.print(odds_view(position, result))
