"""What the engine-backed live tables (Deductions, Baker Street Irregulars) share: the
reply to a line, the record's common fields, and the session's skeleton.

A record of such a table is a JSON object ``{"game", "setup", "seed", "entries"}``: the
start, the seed of a dealt game (or null) and the accepted entries, each played again by
the game's engine when the record is opened. ``EntryTableSession`` is the session's
skeleton: ``open`` (lock first, then load or create and save), ``handle`` (one line: a
command, a view, a part of the entry waiting, or a new entry; every refusal a ``Reply``,
never an exception) and the dropping of the entry waiting on ``undo``. A game's session
says what differs through the hooks its docstrings name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from deduce.core.errors import ContradictionError, InputError
from deduce.core.games import refuse_other_game
from deduce.core.limits import MAX_DIGITS
from deduce.core.lines import command_line
from deduce.core.records import (
    LockedSession,
    RecordLock,
    check_fields,
    check_record_path,
    json_kind,
    read_json,
    write_json_atomic,
)

#: the fields of every engine-backed table record, in this order
RECORD_KEYS = ("game", "setup", "seed", "entries")
#: a record holds at most this many entries
MAX_ENTRIES = 5_000


@dataclass
class Reply:
    """What a line did: ``kind`` accepted, refused, info or quit; ``view`` the view asked
    for (a game's view word) with its ``data``; ``code`` a refusal's exit code."""

    kind: str
    message: str = ""
    view: str | None = None
    data: Any = None
    code: int = 0


# ----------------------------------------------------------------------------- the record
def read_record_object(path: str | Path, game: str, position_key: str, title: str) -> dict:
    """The JSON object of the table record ``path`` of ``game``, its fields checked
    (``RECORD_KEYS``, no other); ``InputError`` naming the file and the field otherwise,
    and saying what to do when the file is a position of ``title`` (it has
    ``position_key``) rather than a record."""
    where = str(path)
    data = read_json(path)
    refuse_other_game(data, game, where)
    if not isinstance(data, dict):
        raise InputError(f"a table record is a JSON object, got {json_kind(data)}", where=where)
    if "setup" not in data and position_key in data:
        raise InputError(f"this is a {title} position, not a table record: start a table "
                         "from it with --from POSITION", where=where)
    check_fields(data, RECORD_KEYS,
                 fail=lambda message, key: InputError(message, where=f"{where}: field {key!r}"))
    return data


def record_seed(value: Any, where: str) -> int | None:
    """The record's ``seed`` field: null or a whole number of at most ``MAX_DIGITS``
    digits."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10 ** MAX_DIGITS:
        raise InputError(f"expected null or a whole number from 0 to {MAX_DIGITS} digits, got "
                         f"{json_kind(value)}", where=f"{where}: field 'seed'")
    return value


def record_entries(value: Any, where: str, entry: Callable[[Any, str], Any]) -> list:
    """The record's ``entries`` field: a list of at most ``MAX_ENTRIES``, each read by
    ``entry(value, "entries[i]")``."""
    if not isinstance(value, list):
        raise InputError(f"expected a list of entries, got {json_kind(value)}",
                         where=f"{where}: field 'entries'")
    if len(value) > MAX_ENTRIES:
        raise InputError(f"{len(value):,} entries; more than the cap of {MAX_ENTRIES:,}",
                         where=f"{where}: field 'entries'")
    return [entry(v, f"entries[{i}]") for i, v in enumerate(value)]


def relative_path(path: Path, folder: Path) -> str:
    """``path`` relative to ``folder`` (absolute where no relative path exists, e.g.
    another drive), as a record stores a card-set file."""
    try:
        return os.path.relpath(path.resolve(), folder.resolve())
    except ValueError:
        return str(path.resolve())


def rebase_cards(setup, source_folder: Path, record_folder: Path, shipped: str):
    """A position read from ``source_folder`` (a dataclass with ``cards_field``) with its
    card-set path rewritten relative to the record's folder (the shipped set and no set
    are kept as they are)."""
    if setup.cards_field in (None, shipped):
        return setup
    return replace(setup, cards_field=relative_path(source_folder / setup.cards_field,
                                                    record_folder))


# ----------------------------------------------------------------------------- the session
class EntryTableSession(LockedSession):
    """A live session on one record, holding its lock from ``open`` to ``close``.

    A game's session sets ``COMMANDS``, ``ALIASES``, ``VIEWS``, ``PARTS`` and ``HELP`` and
    defines ``_load_record(path)``, ``_new_record(path, **options)`` (the record a new
    session starts; ``source`` set by ``open``), ``_undo_entry()``, ``_view(word, args)``,
    ``_part(word, args)``, ``_entry(word, args)`` (a new entry) and, where they differ,
    ``_is_view`` and ``_waiting``. ``pending`` is the entry waiting for what came (an
    object with ``text``) or None.
    """

    COMMANDS: tuple = ()
    ALIASES: dict = {}
    VIEWS: tuple = ()
    PARTS: tuple = ()
    HELP = ""

    pending: Any = None
    record: Any

    @classmethod
    def open(cls, path: str | Path, **options) -> "EntryTableSession":
        """Lock ``path`` (refused at once when another session holds it), then load it, or
        create it from ``options`` (the game's ``_new_record`` says which) and save it."""
        p = Path(path)
        check_record_path(p)
        lock = RecordLock(p)
        try:
            if p.exists():
                return cls(p, cls._load_record(p), lock)
            record = replace(cls._new_record(p, **options), source=str(p))
            session = cls(p, record, lock, created=True)
            write_json_atomic(p, record.to_json())
            return session
        except BaseException:
            lock.release()
            raise

    # -- one line
    def handle(self, line: str) -> Reply:
        """Do what ``line`` says and say how it went (a refusal: exit code 2, nothing
        changed)."""
        try:
            parsed = command_line(line, self.COMMANDS, self.ALIASES)
        except InputError as exc:
            return Reply("refused", str(exc), code=2)
        if parsed is None:
            return Reply("info", "")
        word, args = parsed
        try:
            return self._do(word, args)
        except (ContradictionError, InputError) as exc:  # a refused entry: the session goes on
            return Reply("refused", str(exc), code=2)

    def _do(self, word: str, args: list[str]) -> Reply:
        if word == "quit":
            note = (f" (the entry waiting, {self.pending.text}, is dropped)"
                    if self.pending else "")
            return Reply("quit", f"bye: the record is saved{note}")
        if word == "help":
            return Reply("info", self.HELP)
        if word == "undo":
            if self.pending is not None:
                text, self.pending = self.pending.text, None
                return Reply("accepted", f"dropped: {text} (it was not saved)")
            if not self.record.entries:
                raise InputError("nothing to undo")
            return self._undo_entry()
        if self._is_view(word, args):
            return self._view(word, args)
        if word in self.PARTS:
            return self._part(word, args)
        waiting = self._waiting()
        if waiting is not None:
            raise InputError(f"{self.pending.text} waits for what came: {waiting} "
                             "(or undo to drop it)")
        if len(self.record.entries) >= MAX_ENTRIES:
            raise InputError(f"the record holds the cap of {MAX_ENTRIES:,} entries")
        return self._entry(word, args)

    def waiting(self) -> str | None:
        """What the entry waiting (``pending``) still needs, in words (``refill CARD``),
        or None when no entry waits for what came (a page asks for exactly that)."""
        return self._waiting()

    def _is_view(self, word: str, args: list[str]) -> bool:
        """Is the line ``word args`` a view (not an entry)?"""
        return word in self.VIEWS

    def _waiting(self) -> str | None:
        """What the entry waiting still needs, in words, or None when no entry waits."""
        return None if self.pending is None else "what came"
