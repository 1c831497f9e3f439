"""Entry point of the ``deduce`` console script."""

from __future__ import annotations

import click

from deduce import __version__


class LazyGroup(click.Group):
    """A group whose commands are imported when first asked for (``LOADERS``: name ->
    a function that imports and assembles that command), so a command imports only its
    own game's modules (``deduce --help`` imports them all, to list them)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *LOADERS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LOADERS:
            self.add_command(LOADERS[cmd_name](), cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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


def _s13():
    from deduce.cli.s13 import s13

    return s13


def _story():
    from deduce.cli.story import story
    from deduce.cli.story_cache import cache
    from deduce.cli.story_table import table

    story.add_command(table)
    story.add_command(cache)
    return story


def _demo():
    from deduce.cli.demo import demo

    return demo


def _case():
    from deduce.cli.case import case

    return case


def _deductions():
    from deduce.cli.deductions import deductions
    from deduce.cli.deductions_play import advise, selfplay
    from deduce.cli.deductions_table import table

    for command in (table, selfplay, advise):
        deductions.add_command(command)
    return deductions


def _irregulars():
    from deduce.cli.irregulars import irregulars
    from deduce.cli.irregulars_hands import hands
    from deduce.cli.irregulars_play import advise, selfplay
    from deduce.cli.irregulars_table import table

    for command in (selfplay, advise, hands, table):
        irregulars.add_command(command)
    return irregulars


def _serve():
    from deduce.cli.serve import serve

    return serve


#: each top-level command's loader (``LazyGroup``)
LOADERS = {"s13": _s13, "story": _story, "demo": _demo, "case": _case,
           "deductions": _deductions, "irregulars": _irregulars, "serve": _serve}


def main() -> None:
    cli(prog_name="deduce")


if __name__ == "__main__":
    main()
