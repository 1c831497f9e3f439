"""Which game a record belongs to, so a command given another game's record says so.

Every game's record carries ``"game"``; a record without it is recognised by fields only
that game's records have. ``refuse_other_game(data, expected, where)`` is called by a
game's record parser first: a Detective Story case record given to a Sherlock 13 command
is refused as "this is a Detective Story case record, not a Sherlock 13 record", never
field by field.

>>> identify({"game": "sherlock13"}), identify({"adventure": "a001", "turn": 3}), identify({})
('sherlock13', 'detective-story', None)
"""

from __future__ import annotations

from typing import Any

from deduce.core.errors import InputError

#: game id -> (what a person calls its record, the command that reads it, fields that only
#: its records have)
RECORD_GAMES: dict[str, tuple[str, str, frozenset[str]]] = {
    "sherlock13": ("a Sherlock 13 record", "deduce s13",
                   frozenset({"players", "me", "hand", "events"})),
    "case-notes": ("a case notes table record", "deduce case table", frozenset({"read"})),
    "detective-story": ("a Detective Story case record", "deduce story",
                        frozenset({"adventure", "turn", "sm", "luck", "villain", "motive",
                                   "holmes", "watson", "allies", "first_case"})),
    "deductions": ("a Deductions position", "deduce deductions",
                   frozenset({"display", "pools", "reserved"})),
    "irregulars": ("a Baker Street Irregulars position", "deduce irregulars",
                   frozenset({"villains", "arrested", "tailing", "bsi"})),
}


def identify(data: Any) -> str | None:
    """The game ``data`` is a record of: its ``"game"`` if known, else the one game whose
    own fields it has; None when it cannot tell."""
    if not isinstance(data, dict):
        return None
    game = data.get("game")
    if isinstance(game, str) and game in RECORD_GAMES:
        return game
    if "game" in data:
        return None
    hits = [g for g, (_, _, fields) in RECORD_GAMES.items() if fields & set(data)]
    return hits[0] if len(hits) == 1 else None


def refuse_other_game(data: Any, expected: str, where: str,
                      game_where: str | None = None) -> None:
    """``InputError`` at ``where`` when ``data`` is a record of a game other than
    ``expected`` (known, or named by an unknown ``"game"`` string: then at ``game_where``,
    the place of the field in the game's own style, default ``WHERE: field 'game'``)."""
    if not isinstance(data, dict):
        return
    mine = RECORD_GAMES[expected][0]
    game = identify(data)
    if game is not None and game != expected:
        kind, command, _ = RECORD_GAMES[game]
        raise InputError(f"this is {kind}, not {mine} (use {command} ...)", where=where)
    named = data.get("game")
    if isinstance(named, str) and named not in RECORD_GAMES:
        raise InputError(f"this is a record of the game {named!r}, not {mine} (expected "
                         f'"game": "{expected}")', where=game_where or f"{where}: field 'game'")
