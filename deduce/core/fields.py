"""Reading a parsed JSON record field by field, every problem an ``InputError`` naming the
file and the field path (``game.json: field 'pools.Ann[3]'``), with ``field`` set to the
top-level field at fault. Used by the positions of the card games."""

from __future__ import annotations

from typing import Any, Callable

from deduce.core.errors import InputError
from deduce.core.records import json_kind


def top_field(path: str) -> str:
    """The top-level field of a field path.

    >>> top_field("pools.Ann[3]"), top_field("hand[0]"), top_field("me")
    ('pools', 'hand', 'me')
    """
    return path.split(".")[0].split("[")[0]


class FieldReader:
    """One record being read: ``where`` names the file; ``fail`` makes the error at a field."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, message: str, path: str) -> InputError:
        return InputError(message, where=f"{self.where}: field {path!r}", field=top_field(path))

    def string(self, value: Any, what: str, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"expected {what} (a string), got {json_kind(value)}", path)
        return value

    def listed(self, value: Any, what: str, path: str, most: int) -> list:
        if not isinstance(value, list):
            raise self.fail(f"expected a list of {what}, got {json_kind(value)}", path)
        if len(value) > most:
            raise self.fail(f"{len(value)} entries; at most {most} {what} fit here", path)
        return value

    def table(self, value: Any, what: str, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(f"expected an object of {what}, got {json_kind(value)}", path)
        return value

    def name(self, value: Any, resolver: Callable[..., Any], what: str, path: str):
        """``resolver(text, where=...)`` of a string ``value`` (its error names the field)."""
        text = self.string(value, what, path)
        try:
            return resolver(text, where=f"{self.where}: field {path!r}")
        except InputError as exc:
            exc.field = exc.field or top_field(path)
            raise

    def whole(self, value: Any, lo: int, hi: int, what: str, path: str) -> int:
        """A whole number from ``lo`` to ``hi`` (not a bool)."""
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(f"expected {what}, a whole number from {lo} to {hi}, got "
                            f"{json_kind(value)}", path)
        return value
