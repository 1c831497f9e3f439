"""One subpackage per game, each with the same modules: ``rules`` (the engine: a ``State``
with ``legal_actions``, ``apply``, ``observation``, ``is_over``, ``winner``, seeded chance),
``knowledge``, ``advice``, ``bots``, ``selfplay``, ``table``, plus the game's own modules.

``GAMES`` registers them for the tests that hold every game to that shape: each entry names
the package, its ``new_game(seed) -> State`` (all chance from ``seed``) and the function
that reads an observation back (returning the JSON again where the game can write it).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, NamedTuple


class GameEntry(NamedTuple):
    package: str
    new_game: str  # "module:function"
    read_observation: str  # "module:function"

    def function(self, which: str) -> Callable[..., Any]:
        module, name = getattr(self, which).split(":")
        return getattr(importlib.import_module(module), name)


GAMES: dict[str, GameEntry] = {
    "sherlock13": GameEntry("deduce.models.sherlock13", "deduce.models.sherlock13.rules:new_game",
                            "deduce.models.sherlock13.record:read_observation"),
    "case-notes": GameEntry("deduce.models.casenotes", "deduce.models.casenotes.rules:new_game",
                            "deduce.models.casenotes.knowledge:read_observation"),
    "detective-story": GameEntry("deduce.models.detective_story",
                                 "deduce.models.detective_story.rules:new_game",
                                 "deduce.models.detective_story.rules:read_observation"),
    "deductions": GameEntry("deduce.models.deductions", "deduce.models.deductions.rules:new_game",
                            "deduce.models.deductions.position:read_observation"),
    "irregulars": GameEntry("deduce.models.irregulars", "deduce.models.irregulars.rules:new_game",
                            "deduce.models.irregulars.rules:read_observation"),
}
