"""The registry of game pages: which games ``deduce serve`` has a page for.

A game page is one module under ``deduce/web/`` (``s13`` for Sherlock 13) with:

- ``GAME`` (the record's ``"game"``) and ``TITLE`` (the game's name for people);
- ``open_record(path)`` and ``create_record(path, form)``: the game's live table session
  (its ``table.py``) on an existing record, or on a new one whose setup comes from the
  posted ``forms.Form`` and is checked exactly as the terminal's table checks it;
- ``new_record_fields()``: the HTML of the setup fields of the new-record form;
- ``summary(session)``: one line about the record for the list of records;
- ``version(session)``: ``tables.record_version`` of the record as it is now;
- ``render(served, notice, why)``: the HTML of the record's live part (entry form, views),
  ``notice`` an HTML message box or "", ``why`` a query asked for by the page or None;
- ``act(served, form)``: the session's ``Reply`` to a posted entry or undo (``served``: the
  ``tables.Served``, whose ``cache`` the page may keep views in).

To add a game: write its module and add it to ``GAME_PAGES``; the index page lists and
offers only the games here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: whether the pages' solves (Detective Story) read and write the solved-case cache
#: (``deduce serve --no-cache`` sets it False for the server's process)
USE_CACHE = True

#: record "game" -> the module of its page
GAME_PAGES: dict[str, str] = {"sherlock13": "deduce.web.s13",
                              "case-notes": "deduce.web.casenotes",
                              "detective-story": "deduce.web.story",
                              "deductions": "deduce.web.deductions",
                              "irregulars": "deduce.web.irregulars"}


def game_page(game: str) -> ModuleType | None:
    """The page module of ``game`` (imported on first use), None when it has none."""
    module = GAME_PAGES.get(game)
    return importlib.import_module(module) if module else None


def served_games() -> list[str]:
    """The names people know the served games by (``Sherlock 13``)."""
    return [game_page(g).TITLE for g in GAME_PAGES]
