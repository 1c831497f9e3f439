"""A solved Detective Story case kept on disk (``core.cache``), so that every later
question on the case reads it instead of solving again.

Contract:

- ``case_key(ctx)``: the entry's key, a digest of the program (``deduce.__version__`` and a
  hash of this model's source files, so a changed rule or DP never reads an old entry),
  the campaign's content (``Data.digest``) and what is fixed from the case's start
  (``advice.context_key``: the Adventure, the character sheets, the rules' flags). What
  changes during the case (turn, SM, Luck, the Villain, the party, the flags) is the
  memo's own keys and axes: one entry serves every state of the case, and a state it does
  not cover is solved and merged into it.
- the memo in the entry: ``packed`` (``pack``, ``unpack``: per store and turn, in
  chunks, each array with its own checksum, read only when a state needs it; a part
  found damaged then drops the entry with one warning, never trusted);
- ``prepare(solver, case, phase, waited, use_cache, whole)``: make sure ``solver`` answers at
  the case without solving again: from its memory, else from the cache entry, else by
  solving (the whole case when ``use_cache``) and writing the entry: a solver with
  nothing in memory writes each turn into the entry as the solve makes it and keeps only
  what it answers from (``solve_writing``), one that read part of an entry merges the
  rest in and writes the whole memo (``save``). A corrupt, truncated, foreign or
  other-version entry is ignored with one warning on stderr (``core.cache``) and the
  case solved again and rewritten; a folder that cannot be written is warned about once
  and the command goes on.
- ``entries()`` / ``clear()``: this game's entries in the cache folder, and removing them.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path

from deduce.core import cache
from deduce.core import keys as K
from deduce.models.detective_story.packed import key_types, pack, packed_size, unpack

GAME = "detective-story"
#: the ``kind`` of this game's entries (``core.cache``)
KIND = "detective-story/solved-case"
#: where a cache entry's answer came from (``prepare``)
MEMORY, CACHED, SOLVED = "memory", "cache", "solved"

_warned: set = set()


@lru_cache(maxsize=None)
def program_digest() -> str:
    """``deduce.__version__`` and a hash of this model's source files."""
    import deduce

    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"?")
    return f"{deduce.__version__}+{digest.hexdigest()[:16]}"


def case_key(ctx) -> str:
    """The cache key of ``ctx``'s case (see the module's docstring)."""
    from deduce.models.detective_story.advice import context_key

    return cache.digest_key(KIND, program_digest(), K.encode(context_key(ctx), key_types()))


# ----------------------------------------------------------------------------- the entry
def _meta(ctx, values: int) -> dict:
    return {"game": GAME, "campaign": ctx.data.campaign.id, "adventure": ctx.adventure.id,
            "name": ctx.adventure.name, "program": program_digest(), "values": values}


def _folder() -> Path | None:
    try:
        return cache.cache_dir()
    except (RuntimeError, KeyError, OSError):  # no home folder to put it in
        return None


def _warn_once(what: str, text: str) -> None:
    if what not in _warned:
        _warned.add(what)
        print(f"warning: {text}", file=sys.stderr)


def load(solver) -> bool:
    """Put the cache entry of ``solver``'s case into its memo (True if there was one):
    its index and key parts are read and checked now, the rest as it is read
    (``unpack``)."""
    folder = _folder()
    if folder is None:
        return False
    found = cache.read_entry(case_key(solver.ctx), KIND, folder, verify=("index", "atoms"))
    if found is None:
        return False
    _, entry = found
    try:
        unpack(solver.memo, entry)
    except ValueError as exc:
        cache.drop(entry, str(exc))
        return False
    return True


def save(solver, max_bytes: int = cache.DEFAULT_MAX_BYTES) -> Path | None:
    """Write ``solver``'s memo as its case's cache entry, the folder then pruned to
    ``max_bytes`` (the path; None, with a warning, when the folder cannot be written or
    the entry alone is larger than ``max_bytes``: the command goes on without it). The
    entry is written a chunk at a time (``pack``): no copy of the memo is made. Its size
    is known once written (``packed.trim``): an entry that cannot fit even trimmed to
    one Luck column a slot is refused before packing, a larger one when written (the
    other entries are not pruned for it)."""
    folder = _writable_folder()
    if folder is None:
        return None
    from deduce.models.detective_story.dp.grid import L

    size = packed_size(solver.memo)  # at every Luck: trimmed, at least 1 / L of it
    if size // L > max_bytes:  # known before packing: nothing written for nothing
        _too_large(size // L, max_bytes)
        return None
    import gc

    collecting = gc.isenabled()
    gc.disable()  # the keys' millions of small objects: the cyclic collector's passes over
    try:  # the solver's heap would cost more than the packing (they hold no cycle to free)
        return cache.write_entry(case_key(solver.ctx), KIND, _meta(solver.ctx, size // 8),
                                 pack(solver.memo), folder, max_bytes)
    except (cache.TooLarge, OSError) as exc:
        _not_kept(exc, folder, max_bytes)
        return None
    finally:
        if collecting:
            gc.enable()


def _too_large(size: int, max_bytes: int) -> None:
    _warn_once("size", f"the solved case ({size / 2 ** 20:.0f} MiB) is larger than the "
                       f"cache's bound ({max_bytes / 2 ** 20:.0f} MiB): not kept")


def covered(solver, case, phase: str = "action", waited: bool = False) -> bool:
    """Whether ``solver``'s memo holds the value at ``case`` (``Solver.knows``) and, at
    the start of a turn, every legal Action's, so nothing needs solving for it (what
    ``advice.advise`` reads is read, and so checked, here)."""
    from deduce.models.detective_story import engine as E
    from deduce.models.detective_story.dp.modes import flags_of, with_flags

    if not solver.knows(case, encounter=phase == "encounter", waited=waited):
        return False
    r = solver.recursion
    if case.over or phase == "encounter" or not r.partial:
        return True
    key = solver.modes.key(case)
    mode = with_flags(key, flags_of(case))
    values = (r.action_value(case.turn, key, a, mode, case.sm, case.luck, fallback=False)
              for a in E.legal_actions(solver.ctx, case))
    return all(v == v for v in values)  # NaN: not known


def prepare(solver, case, phase: str = "action", waited: bool = False,
            use_cache: bool = True, whole: bool = False) -> str:
    """Make sure ``solver`` answers at ``case`` (``phase``, ``waited``) without solving:
    ``MEMORY`` (it could already, or there is nothing to solve: the case is over, or SM or
    Luck is past the grid, which ``advice.advise`` refuses), ``CACHED`` (read from the
    cache entry), ``SOLVED`` (solved here: the whole case, written into the entry, when
    ``use_cache``: see the module's docstring; else ``whole`` as ``Solver.prepare``).
    ``use_cache`` False: the cache is neither read nor written."""
    from deduce.models.detective_story.dp.grid import LUCK_CAP, SM_CAP

    if case.over or case.sm > SM_CAP or case.luck > LUCK_CAP or covered(solver, case, phase,
                                                                          waited):
        return MEMORY
    loaded = False
    if use_cache:
        if solver.progress:
            solver.progress("reading the solved case from the cache")
        loaded = load(solver)
        if loaded and covered(solver, case, phase, waited):
            return CACHED
    if use_cache and not loaded and not solver.memo.entries:
        solve_writing(solver, case, phase, waited, whole)
        return SOLVED
    solver.prepare(case, encounter=phase == "encounter", whole=whole or use_cache,
                   waited=waited)
    if use_cache:
        save(solver)
    return SOLVED


def solve_writing(solver, case, phase: str = "action", waited: bool = False,
                  whole: bool = False, max_bytes: int = cache.DEFAULT_MAX_BYTES) -> Path | None:
    """Solve the whole case from ``case`` with ``solver`` (whose memo holds nothing yet),
    writing each turn's values into its cache entry as the solve makes them (turn 12
    first: ``cache.EntryWriter``, ``packed.Packer``) and, unless ``whole``, keeping in
    memory only what ``prepare`` answers from (this turn's and the next): a solved case
    is never held whole in memory for the sake of the cache (a fresh a001 case: the
    first ``advise`` peaks at 0.33 GB, a tenth above a solve without the cache, where
    holding the whole case until it was written took 0.50 GB). The entry is kept once
    the last turn is written (its path); a folder that cannot be written, or an entry
    past ``max_bytes``, is warned about once and the solve goes on without it (None)."""
    from deduce.models.detective_story.packed import Packer, by_turn

    folder = _writable_folder()
    writer = None
    if folder is not None:
        try:
            writer = cache.EntryWriter(case_key(solver.ctx), KIND, folder, max_bytes)
        except OSError as exc:
            _not_kept(exc, folder, max_bytes)
    packer, written = Packer(), []

    def each_turn(t: int) -> None:
        nonlocal writer
        if writer is None:
            return
        try:
            for name, array in packer.turn(t, by_turn(solver.memo).get(t, {})):
                writer.add(name, array)
            written.append(t)
        except (cache.TooLarge, OSError) as exc:  # the writer gave the entry up
            _not_kept(exc, folder, max_bytes)
            writer = None

    try:
        solver.prepare(case, encounter=phase == "encounter", whole=whole, waited=waited,
                       each_turn=each_turn)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if writer is None:
        return None
    if not written:  # nothing solved (the memo knew the case): no entry of nothing
        writer.abort()
        return None
    try:
        for name, array in packer.finish():
            writer.add(name, array)
        return writer.commit(_meta(solver.ctx, packer.values))
    except (cache.TooLarge, OSError) as exc:  # the writer gave the entry up
        _not_kept(exc, folder, max_bytes)
    return None


def _writable_folder() -> Path | None:
    """The cache folder to write to, or None (warned about once: no home folder)."""
    folder = _folder()
    if folder is None:
        _warn_once("home", "no cache folder (no home folder): the solved case is not kept")
    return folder


def _not_kept(exc: Exception, folder: Path, max_bytes: int) -> None:
    """Warn once that the entry was given up: too large (``cache.TooLarge``), or the folder
    could not be written (``OSError``); the command goes on without it."""
    if isinstance(exc, cache.TooLarge):
        _too_large(exc.size, max_bytes)
    else:
        _warn_once("write", f"cannot write the solved case to the cache folder {folder} "
                            f"({exc.strerror or exc}): going on without it")


def attach(ctx) -> None:
    """Give the process's shared solver of ``ctx`` (``advice.SOLVERS``) the cache entry's
    values if it has none yet (a self-play worker started by spawn reads what the parent
    solved and wrote); never solves or writes."""
    from deduce.models.detective_story.advice import SOLVERS, context_key

    if context_key(ctx) not in SOLVERS.solvers:
        load(SOLVERS.get(ctx))


# ----------------------------------------------------------------------------- the folder
def entries(directory: Path | None = None) -> list:
    """This game's entries in the cache folder (``core.cache.EntryInfo``), oldest first,
    with any unreadable entry file (meta ``{}``: it would be ignored and rewritten)."""
    return [e for e in cache.list_entries(directory)
            if e.meta.get("game") == GAME or not e.meta]


def clear(directory: Path | None = None) -> int:
    """Delete this game's entries (``entries``); returns how many."""
    found = entries(directory)
    for entry in found:
        entry.path.unlink(missing_ok=True)
    return len(found)


def report(directory: Path | None = None, now: float | None = None) -> dict:
    """What ``deduce story cache`` shows: ``{"folder", "max_bytes", "total_bytes",
    "entries": [{"adventure", "name", "campaign", "bytes", "age_s", "modified", "path",
    "readable"}]}``, the newest entry first (``modified``: UTC, ISO 8601)."""
    import time
    from datetime import datetime, timezone

    folder = directory if directory is not None else cache.cache_dir()
    now = time.time() if now is None else now
    rows = []
    for e in reversed(entries(folder)):
        rows.append({"adventure": e.meta.get("adventure"), "name": e.meta.get("name"),
                     "campaign": e.meta.get("campaign"), "bytes": e.size,
                     "age_s": max(0, round(now - e.mtime)),
                     "modified": datetime.fromtimestamp(e.mtime, timezone.utc)
                     .isoformat(timespec="seconds"),
                     "path": str(e.path), "readable": bool(e.meta)})
    return {"folder": str(folder), "max_bytes": cache.DEFAULT_MAX_BYTES,
            "total_bytes": sum(r["bytes"] for r in rows), "entries": rows}
