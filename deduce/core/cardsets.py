"""Card sets read from TOML: the shipped one of a game or a user's file, the same way for
every card game (Deductions, Baker Street Irregulars). Each game keeps its own
``parse_cards(text, where, source=...)``; this module only finds and reads the text."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

from deduce.core.records import read_text

SHIPPED = "shipped"
T = TypeVar("T")
Parse = Callable[..., T]


def shipped_path(game: str) -> Path:
    """The shipped set of ``game`` (``deduce/puzzles/GAME/shipped.toml``)."""
    from deduce.puzzles import puzzle_path

    return puzzle_path(game, "shipped.toml")


def read_shipped(game: str, parse: Parse) -> T:
    """``parse`` of the shipped set of ``game`` (its ``source`` is ``shipped``)."""
    path = shipped_path(game)
    return parse(read_text(path), str(path), source=SHIPPED)


def read_card_set(arg: str | Path | None, base: str | Path | None, shipped: Callable[[], T],
                  parse: Parse) -> T:
    """The set ``arg`` names: ``shipped`` (or None) is ``shipped()``, else a TOML file,
    relative to the folder ``base`` when given, read by ``parse`` (its ``source`` is
    ``arg`` as given)."""
    if arg is None or str(arg) == SHIPPED:
        return shipped()
    path = Path(arg)
    if base is not None and not path.is_absolute():
        path = Path(base) / path
    return parse(read_text(path), str(path), source=str(arg))
