"""``deduce irregulars``: Baker Street Irregulars: its card set and the questions of a table
position (who can arrest what with which Evidence, the best arrests for the rest of the
game, solo Holmes's arrest, the score).

The commands parse, call the model (``deduce.models.irregulars``) and render
(``deduce.cli.irregulars_view``); with ``--json`` only the spec's JSON goes to stdout.
"""

from __future__ import annotations

import click

from deduce.cli.common import out, print_json, reports_errors


def load_position(path: str):
    """``position.load_position`` (``sample`` included), imported when a command runs; a
    live table's record (``deduce irregulars table``) gives its position now, as I see it."""
    from deduce.models.irregulars.position import load_position as load
    from deduce.models.irregulars.table import record_position

    found = record_position(path)
    return found if found is not None else load(path)


position_argument = click.argument("position_file", metavar="POSITION", type=click.Path())
json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print the JSON object only.")


@click.group()
def irregulars() -> None:
    """Baker Street Irregulars: which Villains you can arrest and with which Evidence, the
    best arrests for the rest of the game, solo Holmes's arrest, the score, who holds which
    cards, what to do now, a live table, and bots that play the game.

    POSITION is the spec's position file (one player's view: "me"); its "cards" field
    names the card set ("shipped", or a TOML file of your own, relative to the position's
    folder). The word "sample" (when no file has that name) is the shipped sample: a
    3-player game in round 2, Ann to arrest, tailing V07 and holding the Holmes board;
    "sample-solo" is a solo game against Holmes in its 7th cycle. A live table's record
    (deduce irregulars table) may stand for POSITION too: its position now.

    \b
    Examples:
      deduce irregulars cards                        the shipped card set
      deduce irregulars cards --cards my-set.toml    check and list your own set
      deduce irregulars arrest sample                what Ann can arrest now, and with what
      deduce irregulars arrest sample --player cat --json
      deduce irregulars arrest sample --plan         the best arrests for the rest of the game
      deduce irregulars holmes sample-solo           solo: the Villain Holmes arrests
      deduce irregulars score sample                 the score, my objectives in words
      deduce irregulars hands sample-observation     who holds which cards now
      deduce irregulars advise sample                every choice now, by my chance to win
      deduce irregulars table game.json --seed 7 --players Ann,Ben,Cat --me Ann
                                                     a dealt game, entered live
      deduce irregulars selfplay --bots search,greedy,greedy,greedy --games 100
      deduce irregulars selfplay --mode solo --bots greedy --games 200
    """


@irregulars.command(short_help="List a card set (the shipped one or yours).")
@click.option("--cards", "cards_file", metavar="FILE", type=click.Path(),
              help="A card set of your own (TOML, the spec's format); default: shipped.")
@json_option
@reports_errors
def cards(cards_file: str | None, as_json: bool) -> None:
    """List a card set: the Evidence by deck (type, colour, cost, story, icons), the
    Villains (icons, points), the Inspectors (their objectives in words), the Plot Twists
    (each effect's sentence) and the solo Holmes Track.

    The set is checked as it is read (100 Evidence, 20 per deck; 40 Villains; 10
    Inspectors of 3 objectives; 12 Plot Twists; the 19-space track; every field in
    range); a problem is exit 2 naming the file, the card and the field. --json prints the
    set as in the TOML, names canonical: {"title", "evidence", "villain", "inspector",
    "plot_twist", "solo": {"holmes_track"}}.

    \b
    Examples:
      deduce irregulars cards
      deduce irregulars cards --cards my-set.toml --json
    """
    from deduce.models.irregulars.cards import load_cards

    card_set = load_cards(cards_file)
    if as_json:
        print_json(card_set.to_json())
        return
    from deduce.cli.irregulars_view import card_set_view

    out.print(card_set_view(card_set))


@irregulars.command(short_help="What a player can arrest now (or --plan: for the rest of the game).")
@position_argument
@click.option("--player", "player", metavar="P",
              help="The player asked about (a name or an unambiguous part); default: me.")
@click.option("--plan", "as_plan", is_flag=True,
              help="The best arrests for the rest of the game from the current Evidence.")
@json_option
@reports_errors
def arrest(position_file: str, player: str | None, as_plan: bool, as_json: bool) -> None:
    """For each visible Villain: whether the player can arrest it now, a smallest set of
    the player's unused Evidence that does (counting the player's tail on it and an
    unused Holmes board's ignore), what it uses ("tail" whenever the player tails it,
    "holmes" only when no set of that size works without the board) and, when out of
    reach, a smallest set of icons missing; then the best: most points, then fewer cards,
    then first in the row. The JSON is the spec's: {"player", "villains": [{"villain",
    "points", "arrestable", "cards", "uses", "missing"}], "best"}.

    With --plan: the best sequence of arrests for the rest of the game from the player's
    unused Evidence now: at most one arrest per remaining Arrest Phase (multi: 4 a round
    and the final one after round 4's bonus; solo: one a cycle of 19), each card used
    once, among the Villains visible now; the tail counts for the Villain tailed now, the
    Holmes board's ignore at most once if held. Most points, then fewest cards (exact,
    CP-SAT). The Villains that refill the row, the cards still to draft, future tails and
    the others' arrests are unknown and not planned. JSON: {"player", "phases_left",
    "points", "cards_used", "arrests": [{"villain", "points", "cards", "uses"}]}, the
    arrests in the order to make them (the one using the board first, then by points).

    \b
    Examples:
      deduce irregulars arrest sample
      deduce irregulars arrest sample --player cat --json
      deduce irregulars arrest sample --plan --json
    """
    from deduce.core.names import resolve

    position = load_position(position_file)
    who = position.me if player is None else resolve(player, position.players, "player",
                                                     where="--player")
    if as_plan:
        from deduce.models.irregulars.plan import plan

        result = plan(position, who)
        if as_json:
            print_json(result.to_json())
            return
        from deduce.cli.irregulars_view import plan_view

        out.print(plan_view(position, result))
        return
    from deduce.models.irregulars.arrest import answer_json, position_arrests, position_json

    if as_json:
        print_json(position_json(position, who))
        return
    from deduce.cli.irregulars_view import arrest_view

    options = position_arrests(position, who)
    out.print(arrest_view(position, who, options, answer_json(who, options)["best"]))


@irregulars.command(short_help="Solo: the Villain Holmes arrests, and with which cards.")
@position_argument
@json_option
@reports_errors
def holmes(position_file: str, as_json: bool) -> None:
    """Solo only: what Holmes arrests this cycle by the solo rules. He arrests first, as if
    tailing every Villain (all icons but one), no board: the visible Villain worth the
    most points he can arrest, ties by the fewest cards, then the first in the row; with a
    smallest set of his unused Evidence. JSON: {"arrest": Villain id or null, "cards":
    [Evidence ids]}. A multi position is exit 2.

    \b
    Example:
      deduce irregulars holmes sample-solo --json
    """
    from deduce.models.irregulars.holmes import holmes_json, holmes_options

    position = load_position(position_file)
    result = holmes_json(position, position_file)
    if as_json:
        print_json(result)
        return
    from deduce.cli.irregulars_view import holmes_view

    out.print(holmes_view(position, result, holmes_options(position)))


@irregulars.command(short_help="The score: Villain points and my objectives in words.")
@position_argument
@json_option
@reports_errors
def score(position_file: str, as_json: bool) -> None:
    """The score now: each player's Villain points; for me (the position's "me") each of my
    Inspector's 3 objectives with its value over all the Evidence I own (used or not), the
    best one and my total. The others' Inspectors are hidden: their objectives and totals
    are null (solo Holmes: his total is his Villain points). JSON: {"players": [{"name",
    "villain_points", "objectives", "best", "total"}]}, "best" the 0-based index of a
    largest objective (the first when tied).

    \b
    Example:
      deduce irregulars score sample --json
    """
    from deduce.models.irregulars.score import score_json

    position = load_position(position_file)
    result = score_json(position)
    if as_json:
        print_json(result)
        return
    from deduce.cli.irregulars_view import score_view

    out.print(score_view(position, result))
