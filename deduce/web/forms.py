"""A posted form as the pages read it: the body of an ``application/x-www-form-urlencoded``
POST (what an HTML form sends, and what the page's script sends), capped and parsed here,
so no form library is needed.

``Form.parse(body)`` refuses a body over ``MAX_FORM_BYTES`` or with more than
``MAX_FORM_FIELDS`` fields (``InputError``). Values are strings as typed; ``pick`` reads
a choice made by tapping (an index into the options shown), so names never travel back
and forth through HTML, and a value that is not one of the options is refused naming the
field.
"""

from __future__ import annotations

from typing import Sequence
from urllib.parse import parse_qsl

from deduce.core.errors import InputError

#: where a new record's setup fields are named in messages
NEW_RECORD = "new record"

#: the largest form body read, in bytes (a new record's form is well under 2 KB)
MAX_FORM_BYTES = 64 * 1024
#: the most fields a form may have
MAX_FORM_FIELDS = 200


class Form:
    """The fields of one posted form, in order, each name with all its values."""

    def __init__(self, pairs: Sequence[tuple[str, str]] = ()):
        self.pairs = list(pairs)

    @classmethod
    def parse(cls, body: bytes) -> "Form":
        if len(body) > MAX_FORM_BYTES:
            raise InputError(f"form too large: more than the cap of {MAX_FORM_BYTES:,} bytes")
        try:
            text = body.decode("utf-8")
            pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS)
        except UnicodeDecodeError:
            raise InputError("cannot read the form: not UTF-8") from None
        except ValueError:
            raise InputError(f"form has more than the cap of {MAX_FORM_FIELDS} fields") from None
        return cls(pairs)

    def get(self, name: str) -> str | None:
        """The first value of ``name``, None when absent or blank."""
        for key, value in self.pairs:
            if key == name and value.strip():
                return value
        return None

    def all(self, name: str) -> list[str]:
        """Every non-blank value of ``name``, in order."""
        return [v for k, v in self.pairs if k == name and v.strip()]

    def pick(self, name: str, options: Sequence[str], where: str) -> str | None:
        """The option whose index the field ``name`` holds (None when nothing is chosen);
        ``InputError`` at ``where`` when the value is not an index of ``options``."""
        value = self.get(name)
        return None if value is None else pick(value, options, name, where)

    def pick_all(self, name: str, options: Sequence[str], where: str) -> list[str]:
        return [pick(v, options, name, where) for v in self.all(name)]


def pick(value: str, options: Sequence[str], name: str, where: str) -> str:
    """``options[int(value)]``; ``InputError`` naming the field otherwise."""
    if value.isascii() and value.isdigit() and int(value) < len(options):
        return options[int(value)]
    shown = value if len(value) <= 20 else value[:20] + "..."
    raise InputError(f"not one of the {len(options)} choices shown (got {shown!r})",
                     where=f"{where}, field {name!r}")


def seated_players(form: Form, most: int, where: str) -> tuple[list[str], str | None]:
    """A new-record form's ``player`` boxes (the first ``most``, blank ones left out, in
    seating order) and the name in the box that ``me`` picks (None when nothing is
    picked); ``InputError`` naming ``me`` when it picks a blank box."""
    boxes = [v.strip() for k, v in form.pairs if k == "player"][:most]
    seat = form.pick("me", [str(i) for i in range(len(boxes))], where)
    me = None
    if seat is not None:
        me = boxes[int(seat)]
        if not me:
            raise InputError(f"player {int(seat) + 1}'s name is blank", where=f"{where}, field 'me'")
    return [name for name in boxes if name], me


def missing(key: str, words: dict[str, str]) -> None:
    """Refuse a new record whose setup field ``key`` was not given (``words``: what each
    field asks for, in words)."""
    raise InputError(f"choose {words.get(key, key)}", where=f"{NEW_RECORD}, field {key!r}")
