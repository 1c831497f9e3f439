"""Entry point of the ``deduce`` console script."""

from __future__ import annotations

import click

from deduce import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deduce")
def cli() -> None:
    """deduce: exact deduction for Sherlock Holmes board games.

    \b
    Examples:
      deduce demo                          analyse a shipped 4-player game turn by turn
      deduce s13 analyze game.json         who may be the criminal, what to ask next
      deduce s13 why game.json moriarty    why is Moriarty ruled out (or how he can be it)
      deduce s13 table game.json           enter answers live at the table
      deduce s13 selfplay --players 4 --bots infogain,random,random,random --games 200
      deduce case solve zebra              solve a shipped logic-grid case
      deduce case explain lantern-street   step-by-step derivation a teacher can show
      deduce case table notes.json --case zebra     follow a case's notes as you read them
      deduce case selfplay kew-orchid --games 200   bots play a case: win rates
      deduce story advise case.json        Detective Story: the Action most likely to arrest
      deduce story table case.json         play a Detective Story case live, advice at each step
      deduce deductions patterns sample    Deductions: every pattern you may take from the grid
      deduce deductions advise sample      what to do now, by the chance to win
      deduce deductions table game.json --seed 7 --players Ann,Ben,Cat --me Ann
      deduce irregulars cards              Baker Street Irregulars: the shipped card set
      deduce irregulars arrest sample      which Villains I can arrest now, with which cards
      deduce irregulars arrest sample --plan   the best arrests for the rest of the game
      deduce irregulars holmes sample-solo   solo: the Villain Holmes arrests
      deduce irregulars score sample       the score, my Inspector's objectives in words
      deduce irregulars hands sample       who holds which cards, by hand tracking
      deduce irregulars selfplay --mode solo --games 200   bots against Holmes (solo)
      deduce irregulars advise sample      every choice now, ranked by my chance to win
      deduce irregulars table game.json --seed 7 --mode solo --me Ann   a live game, solo
      deduce serve game.json               the live table as a web page, for a phone
    """


def _register() -> None:
    from deduce.cli.case import case
    from deduce.cli.deductions import deductions
    from deduce.cli.deductions_play import advise as deductions_advise
    from deduce.cli.deductions_play import selfplay as deductions_selfplay
    from deduce.cli.deductions_table import table as deductions_table
    from deduce.cli.demo import demo
    from deduce.cli.irregulars import irregulars
    from deduce.cli.irregulars_play import advise as irregulars_advise
    from deduce.cli.irregulars_play import selfplay as irregulars_selfplay
    from deduce.cli.irregulars_hands import hands as irregulars_hands
    from deduce.cli.irregulars_table import table as irregulars_table
    from deduce.cli.s13 import s13
    from deduce.cli.serve import serve
    from deduce.cli.story import story
    from deduce.cli.story_cache import cache as story_cache
    from deduce.cli.story_table import table

    story.add_command(table)
    story.add_command(story_cache)
    cli.add_command(s13)
    cli.add_command(story)
    cli.add_command(demo)
    cli.add_command(case)
    for command in (deductions_table, deductions_selfplay, deductions_advise):
        deductions.add_command(command)
    cli.add_command(deductions)
    for command in (irregulars_selfplay, irregulars_advise, irregulars_hands,
                    irregulars_table):
        irregulars.add_command(command)
    cli.add_command(irregulars)
    cli.add_command(serve)


_register()


def main() -> None:
    cli(prog_name="deduce")


if __name__ == "__main__":
    main()
