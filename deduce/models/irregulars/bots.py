"""Baker Street Irregulars bots: how to choose the next action from what a player sees.

A bot is given its observation (``rules.State.observation(seat)``: the position JSON and
its log), the legal actions and its own seeded ``random.Random``, and returns one of those
actions: ``Bot.decide(observation, legal, rng)``. It never sees the hidden state; a bot
that needs it samples it from its own knowledge and rebuilds a state with
``rules.State.from_parts``.

Bots (``make_bot(name)``, names in ``BOTS``; a new bot is one more entry of ``MAKERS``):

- ``random``: a uniformly random legal action.
- ``greedy``: one-step scoring, no look-ahead (``greedy``'s docstring): draft toward the
  most valuable Villain within reach, arrest whenever possible, tail the nearest.
- ``search``: determinized rollouts (``search``'s docstring): each candidate action tried
  on hidden states sampled from the observation (``knowledge.sample_hidden``), the game
  played to its end by greedy for every seat, the best mean win taken.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from deduce.core.names import resolve
from deduce.models.irregulars.cards import CardSet


class RandomBot:
    """A uniformly random legal action."""

    name = "random"

    def decide(self, observation: dict, legal: Sequence[Any], rng: random.Random) -> Any:
        return legal[rng.randrange(len(legal))]


#: every bot: its name and how to make it (from the card set its observations use, None:
#: the one each observation names)
MAKERS: dict[str, Callable[[CardSet | None], Any]] = {
    "random": lambda cards: RandomBot(),
    "greedy": lambda cards: _greedy(cards),
    "search": lambda cards: _search(cards),
}
BOTS = tuple(MAKERS)


def _greedy(cards: CardSet | None):
    from deduce.models.irregulars.greedy import GreedyBot

    return GreedyBot(cards)


def _search(cards: CardSet | None):
    from deduce.models.irregulars.search import SearchBot

    return SearchBot(cards)


def make_bot(name: str, cards: CardSet | None = None):
    """The bot called ``name`` (any unambiguous alias of one of ``BOTS``)."""
    return MAKERS[resolve(name, tuple(MAKERS), "bot", where="--bots")](cards)
