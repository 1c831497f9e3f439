"""Whole numbers typed by a person: at a table, as a dice answer, in an option.

One rule everywhere: decimal digits of any script (``7``, Arabic-Indic ``٧``), an optional
leading ``-`` where negatives make sense, at most ``MAX_DIGITS`` digits, within the bounds
asked; never superscripts or other digit-like signs (``²``), never an exponent or a
fraction. Anything else is an ``InputError`` saying what was expected.

>>> whole_number("7", 2, 12, "a dice total")
7
>>> whole_number("٧", 2, 12, "a dice total")
7
>>> whole_number("²", 2, 12, "a dice total")
Traceback (most recent call last):
deduce.core.errors.InputError: expected a dice total from 2 to 12, got '²'
"""

from __future__ import annotations

from deduce.core.errors import InputError
from deduce.core.limits import MAX_DIGITS


def read_whole_number(text: str) -> int | None:
    """The value of ``text`` by the rule above (no bounds), or None."""
    text = str(text).strip()
    digits = text[1:] if text.startswith("-") else text
    if not digits or len(digits) > MAX_DIGITS or not digits.isdecimal():
        return None
    return -int(digits) if text.startswith("-") else int(digits)


def whole_number(text: str, lo: int, hi: int, what: str = "a whole number",
                 where: str | None = None) -> int:
    """``text`` as a whole number from ``lo`` to ``hi``; ``InputError`` (at ``where``)
    naming ``what`` and the bounds otherwise."""
    value = read_whole_number(text)
    if value is None or not lo <= value <= hi:
        shown = str(text) if len(str(text)) <= 40 else str(text)[:40] + "..."
        raise InputError(f"expected {what} from {lo:,} to {hi:,}, got {shown!r}", where=where)
    return value
