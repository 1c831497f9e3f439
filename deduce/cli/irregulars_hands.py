"""``deduce irregulars hands``: what the other players hold now, exactly, from my
observation of the deal (the position and my log of the hands that passed).

(``cli/main.py`` attaches it to the ``irregulars`` group of ``cli/irregulars.py``.)
"""

from __future__ import annotations

import click

from deduce.cli.common import out, print_json, reports_errors


@click.command(short_help="What each other player holds now: for sure, or how likely.")
@click.argument("observation_file", metavar="FILE", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the JSON object only.")
@reports_errors
def hands(observation_file: str, as_json: bool) -> None:
    """What each other player holds now, from FILE, an observation of the deal:
    {"position": the position JSON, "log": my log of the deal} (what the engine writes
    for a seat). Per player (and the middle, once the last cycle's rests lie face down
    there): how many cards, those held for sure (hands I have held, less the picks
    revealed since) and every other card they may hold with its exact chance (the unseen
    cards of the draw; within a deck all have the same chance).

    FILE may also be a live table's record (``deduce irregulars table``): its observation
    now. The word "sample" (when no file has that name) is the shipped sample: 3 players,
    round 1, cycle 3, Ann to pick. A log that does not go with the position is exit 2
    naming the field; observations no deal fits are exit 3 naming the conflicting fields.

    --json prints {"me", "mode", "deal", "cycle", "phase", "stage", "direction",
    "holdings": [{
    "holder", "cards", "known", "certain": [ids], "possible": [{"card", "p", "exact"}],
    "by_deck": [{"deck", "cards", "p_each", "expected"}]}], "decks": [{"deck", "numeral",
    "unseen", "in_deal", "in_deck"}], "worlds"} ("exact": the chance as a fraction;
    "worlds": how many completions of the deal fit, all equally likely).

    \b
    Examples:
      deduce irregulars hands sample
      deduce irregulars hands obs.json --json
    """
    from deduce.models.irregulars.knowledge import load_observation, read
    from deduce.models.irregulars.table import record_observation

    found = record_observation(observation_file)
    position, log, where = found or load_observation(observation_file)
    knowledge = read(position, log, where)
    if as_json:
        print_json(knowledge.to_json())
        return
    from deduce.cli.irregulars_hands_view import hands_view

    out.print(hands_view(position, knowledge))
