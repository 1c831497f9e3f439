"""The records one ``deduce serve`` serves, each a live table session of its game.

``Tables(folder)`` holds every ``Served`` record by its slug (the name in its URL,
``/r/SLUG``). A record given on the command line is opened with ``open``; a record made
from the page is made by ``create``, only in ``folder`` and only under a name that
``record_name`` accepts (letters, digits, ``-`` and ``_``; ``.json`` added): no path
segment, no ``..``, no dot file, so no request can name a path elsewhere. A slug is only
ever looked up in this table, never turned into a path.

Each session holds its record's lock (``core.records.RecordLock``) from ``open`` or
``create`` until ``close``; each ``Served`` has a mutex, so two requests on one record
(two tabs, two phones) take their turns. ``version`` is a hash of the record's content:
an entry posted with another version than the record's is refused (the page it was made
on is stale), never merged.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from deduce.core.errors import InputError
from deduce.core.games import RECORD_GAMES, identify
from deduce.core.records import read_json
from deduce.web.pages import game_page, served_games

#: a record's name as typed on the page (``.json`` may follow)
RECORD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def record_name(text: str | None) -> str:
    """The file name of a new record from its name as typed: ``game-1`` -> ``game-1.json``;
    ``InputError`` for anything else (a path, ``..``, a dot file, other characters)."""
    name = (text or "").strip()
    stem = name[:-5] if name.lower().endswith(".json") else name
    if not RECORD_NAME.fullmatch(stem):
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise InputError(f"a record name is 1 to 64 letters, digits, '-' or '_' (then "
                         f"'.json' if you like), with no folder: got {shown!r}",
                         where="new record, field 'name'")
    return stem + ".json"


def record_version(data: Any) -> str:
    """A short hash of a record's JSON: two views show the same record when it is equal."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass
class Served:
    """One record on the server: its game page (``pages`` module), session and mutex."""

    slug: str
    path: Path
    page: ModuleType
    session: Any
    mutex: threading.Lock = field(default_factory=threading.Lock)
    cache: dict = field(default_factory=dict)  # the page's own (views by version)

    @property
    def version(self) -> str:
        return self.page.version(self.session)


class Tables:
    """Every record served, by slug; ``folder``: where new records go."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.served: dict[str, Served] = {}
        self.mutex = threading.Lock()

    def get(self, slug: str) -> Served | None:
        return self.served.get(slug)

    def open(self, path: str | Path) -> Served:
        """Serve the existing record at ``path`` (its game told by its content); the
        session's errors (bad record, contradiction, lock held elsewhere) pass through."""
        p = Path(path)
        if not p.exists():
            raise InputError("file not found (new records are made from the page, in the "
                             "folder of --dir)", where=str(p))
        game = identify(read_json(p))
        if game is None:
            raise InputError("not a record of a game deduce knows (no field 'game')",
                             where=str(p))
        page = game_page(game)
        if page is None:
            raise InputError(f"deduce serve has no page for {RECORD_GAMES[game][0]} yet (it "
                             f"serves {', '.join(served_games())} records)", where=str(p))
        return self._add(p, page, page.open_record(p))

    def create(self, game: str | None, name: str | None, form) -> Served:
        """Make a new record of ``game`` called ``name`` in ``folder``, its setup read from
        ``form`` and checked as the terminal's table checks it."""
        page = game_page(game or "")
        if page is None:
            raise InputError(f"no such game page: choose one of {', '.join(served_games())}",
                             where="new record, field 'game'")
        p = self.folder / record_name(name)
        if p.exists() or p.is_symlink():
            raise InputError(f"{p.name} exists in the folder already: choose another name "
                             f"(or serve it: deduce serve {p})", where="new record, field 'name'")
        return self._add(p, page, page.create_record(p, form))

    def _add(self, path: Path, page: ModuleType, session) -> Served:
        with self.mutex:
            base = re.sub(r"[^A-Za-z0-9_-]+", "-", path.stem).strip("-") or "record"
            slug, k = base, 1
            while slug in self.served:
                k += 1
                slug = f"{base}-{k}"
            served = Served(slug, path, page, session)
            self.served[slug] = served
            return served

    def close(self) -> None:
        """Close every session (their locks go; everything accepted is saved already)."""
        for served in self.served.values():
            served.session.close()
        self.served.clear()
