"""A per-user cache of solved results kept on disk, reusable by every game.

Contract:
- `cache_dir()` is the user's cache folder by platform convention, with the project's
  name in the path (Linux `$XDG_CACHE_HOME/deduce` or `~/.cache/deduce`; macOS
  `~/Library/Caches/deduce`; Windows `%LOCALAPPDATA%\\deduce\\Cache`); the environment
  variable `DEDUCE_CACHE_DIR` overrides it.
- An entry is one `.npz` file named by its key (hex digest). It holds numeric arrays and
  a JSON header (array `__header__`, uint8 bytes) carrying the format version, the kind,
  the key, the caller's metadata and, per array, a SHA-256 checksum over its name, dtype,
  shape and bytes. Files are read with `allow_pickle=False`: a foreign file never runs
  code.
- `read_entry` checks the header and the arrays named in `verify` (default: every array)
  at once; any other array is read and checked when first asked (`Entry[name]`), so a
  caller that needs a few arrays of a large entry reads only those. An array found
  missing or damaged then raises `CorruptEntry` (the caller ignores the entry from then
  on and drops it: `drop`).
- `write_entry` takes the arrays as a mapping or as (name, array) pairs made one at a
  time (written as they come: no copy of the whole entry is held).
- Writes are atomic (temp file in the same folder, then `os.replace`), and after each
  write the folder is pruned to `max_bytes` (default `DEFAULT_MAX_BYTES`), oldest first.
  An entry larger than `max_bytes` on its own is not kept: its temp file is removed,
  nothing is pruned, and `TooLarge` (its size) is raised.
- A corrupt, truncated, foreign or other-version file is ignored with a warning on
  stderr (`read_entry` returns None); it is never trusted and never stops the command.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

APP_NAME = "deduce"
ENV_VAR = "DEDUCE_CACHE_DIR"
FORMAT_VERSION = 2
#: room for the fresh solutions of both shipped Detective Story Adventures together (a001
#: about 170 MiB, a002 about 365 MiB with the reachable-only DP and trimmed chunks)
DEFAULT_MAX_BYTES = 1024 * 1024 * 1024
SUFFIX = ".npz"
HEADER_ARRAY = "__header__"
#: the name of a write under way starts with this
TEMP_PREFIX = ".tmp-"


def cache_dir() -> Path:
    """The cache folder (not created): $DEDUCE_CACHE_DIR, else the platform's."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / APP_NAME / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP_NAME
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / APP_NAME


def digest_key(*parts: object) -> str:
    """A stable hex key from JSON-able parts (sorted keys, no whitespace)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _checksum(name: str, array) -> str:
    digest = hashlib.sha256()
    digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
    # the bytes themselves, not a copy (``tobytes``): a solved case is hundreds of MB
    digest.update(array if array.flags.c_contiguous else array.tobytes())
    return digest.hexdigest()


def _warn(path: Path, reason: str) -> None:
    print(f"warning: cache file {path} ignored: {reason}", file=sys.stderr)


class CorruptEntry(ValueError):
    """An array of an entry read later is missing or damaged (the message says which)."""


class TooLarge(Exception):
    """An entry written was larger than the folder's bound on its own (not kept)."""

    def __init__(self, size: int, max_bytes: int):
        super().__init__(f"the entry ({size} bytes) is larger than the bound ({max_bytes})")
        self.size, self.max_bytes = size, max_bytes


def _write_member(archive, name: str, array) -> None:
    """One array into the open zip ``archive`` as ``name.npy`` (as ``np.savez`` does)."""
    import numpy as np

    with archive.open(f"{name}.npy", "w", force_zip64=True) as stream:
        np.lib.format.write_array(stream, array, allow_pickle=False)


class EntryWriter:
    """One entry written as its arrays come (``add``), kept only once committed
    (``commit``): until then a temp file in the folder (``TEMP_PREFIX``), removed by
    ``abort``, by a failed ``add`` or ``commit``, and on leaving a ``with`` block
    uncommitted. For a caller that makes an entry's arrays while doing other work (a
    solve writing each turn's values as they are made, then dropping them): nothing is
    held but the array being written. ``add`` raises ``TooLarge`` (the temp file
    removed) as soon as the entry is past ``max_bytes``: it would not be kept."""

    def __init__(self, key: str, kind: str, directory: Path | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES):
        import tempfile

        self.key, self.kind, self.max_bytes = key, kind, max_bytes
        self.folder = directory if directory is not None else cache_dir()
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, self._temp = tempfile.mkstemp(dir=self.folder, prefix=TEMP_PREFIX,
                                              suffix=SUFFIX)
        try:
            self._stream = os.fdopen(handle, "wb")
            self._archive = zipfile.ZipFile(self._stream, "w", zipfile.ZIP_STORED,
                                            allowZip64=True)
        except BaseException:
            os.close(handle)
            Path(self._temp).unlink(missing_ok=True)
            raise
        self._sums: dict = {}

    def __enter__(self) -> "EntryWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.abort()

    @property
    def open(self) -> bool:
        """Whether arrays can still be added (not committed, not aborted)."""
        return self._archive is not None

    def add(self, name: str, value) -> None:
        """Write array ``name`` (checksummed; the entry's arrays are read by name, in any
        order). ``ValueError`` for a reserved or repeated name, or once committed or
        given up (nothing written); ``TooLarge`` once the entry is past ``max_bytes``; on
        any error the entry is aborted."""
        import numpy as np

        if not self.open:
            raise ValueError("the entry is committed or given up: no array can be added")
        if name == HEADER_ARRAY or name in self._sums:
            raise ValueError(f"array name {name} is reserved or repeated")
        try:
            value = np.ascontiguousarray(value)
            self._sums[name] = _checksum(name, value)
            _write_member(self._archive, name, value)
            size = self._stream.tell()
            if size > self.max_bytes:
                raise TooLarge(size, self.max_bytes)
        except BaseException:
            self.abort()
            raise

    def commit(self, meta: dict) -> Path:
        """Write the header (``meta``: the caller's metadata), put the entry in place
        atomically and prune the folder to ``max_bytes``, this entry kept; its path.
        ``TooLarge`` (nothing kept or pruned) if it is larger than ``max_bytes``."""
        import numpy as np

        if not self.open:
            raise ValueError("the entry is committed or given up already")
        target = self.folder / f"{self.key}{SUFFIX}"
        try:
            header = {"format": FORMAT_VERSION, "app": APP_NAME, "kind": self.kind,
                      "key": self.key, "meta": meta, "checksums": self._sums}
            _write_member(self._archive, HEADER_ARRAY, np.frombuffer(
                json.dumps(header, sort_keys=True).encode("utf-8"), dtype=np.uint8))
            self._archive.close()
            self._stream.close()
            self._archive = None
            size = os.path.getsize(self._temp)
            if size > self.max_bytes:
                raise TooLarge(size, self.max_bytes)
            os.replace(self._temp, target)
        except BaseException:
            self.abort()
            raise
        prune(self.folder, self.max_bytes, keep=target)
        return target

    def abort(self) -> None:
        """Give the entry up: the temp file closed and removed (nothing if committed)."""
        archive, self._archive = self._archive, None
        if archive is not None:
            try:
                archive.close()
            except Exception:  # a half-written member: the file is removed anyway
                pass
        if not self._stream.closed:
            self._stream.close()
        Path(self._temp).unlink(missing_ok=True)


def write_entry(key: str, kind: str, meta: dict, arrays,
                directory: Path | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES) -> Path:
    """Write one entry atomically, then prune the folder to `max_bytes` (``TooLarge``,
    nothing kept or pruned, if the entry alone is larger). ``arrays``: a mapping of names
    to arrays, or (name, array) pairs (each written, checksummed and dropped before the
    next is made). (``EntryWriter`` for arrays made between other work.)"""
    pairs = arrays.items() if hasattr(arrays, "items") else arrays
    with EntryWriter(key, kind, directory, max_bytes) as writer:
        for name, value in pairs:
            writer.add(name, value)
        return writer.commit(meta)


class Entry:
    """The arrays of an entry read by ``read_entry``: ``entry[name]`` reads the array and
    checks its checksum the first time (``CorruptEntry`` if it is missing or damaged),
    then keeps it; ``names`` every array the header lists; ``close()`` the file."""

    def __init__(self, path: Path, archive, sums: dict):
        self.path, self._archive, self._sums = path, archive, sums
        self._read: dict = {}
        self._pid = os.getpid()

    def _here(self):
        """The open archive, opened again in a forked process: a parent's open file is
        shared with its children, offset included, so their reads would interleave (the
        same file: the process's view of the open descriptor where there is one)."""
        if self._pid != os.getpid() and self._archive is not None:
            import numpy as np

            self._pid = os.getpid()
            same = Path(f"/proc/self/fd/{self._archive.fid.fileno()}")
            self._archive = np.load(same if same.exists() else self.path, allow_pickle=False)
        return self._archive

    @property
    def names(self) -> list:
        return list(self._sums)

    def __contains__(self, name) -> bool:
        return name in self._sums

    def __iter__(self):
        return iter(self._sums)

    def keys(self):
        return self._sums.keys()

    def __len__(self) -> int:
        return len(self._sums)

    def __getitem__(self, name: str):
        got = self._read.get(name)
        if got is None:
            if name not in self._sums or self._archive is None:
                raise KeyError(name)
            try:
                got = self._here()[name]
            except KeyError:
                raise CorruptEntry(f"array {name} missing (corrupt)") from None
            except zipfile.BadZipFile:  # its CRC
                raise CorruptEntry(f"array {name} damaged (corrupt)") from None
            except Exception as error:  # an unreadable member, whatever the cause
                raise CorruptEntry(f"array {name} unreadable ({type(error).__name__})") \
                    from None
            if _checksum(name, got) != self._sums[name]:
                raise CorruptEntry(f"array {name}: checksum mismatch (corrupt)")
            got.flags.writeable = False
            self._read[name] = got
        return got

    def items(self):
        return [(name, self[name]) for name in self._sums]

    def close(self) -> None:
        if self._archive is not None:
            self._archive.close()
            self._archive = None


def read_entry(key: str, kind: str, directory: Path | None = None, verify=None):
    """(meta, ``Entry``) of a valid entry, or None (missing, or ignored with a warning).
    ``verify``: the arrays read and checked now (None: every one; a damaged one makes the
    entry ignored), the others when first asked."""
    import numpy as np

    folder = directory if directory is not None else cache_dir()
    path = folder / f"{key}{SUFFIX}"
    if not path.is_file():
        return None
    try:
        archive = np.load(path, allow_pickle=False)
        if not hasattr(archive, "files"):  # a plain .npy file
            raise ValueError("not an archive")
    except Exception as error:  # any unreadable file is a miss, never a crash
        _warn(path, f"not a readable cache entry ({type(error).__name__})")
        return None
    try:
        raw = archive[HEADER_ARRAY] if HEADER_ARRAY in archive.files else None
    except Exception as error:
        archive.close()
        _warn(path, f"not a readable cache entry ({type(error).__name__})")
        return None
    header = _decode_header(raw)
    reason = None
    if header is None or header.get("app") != APP_NAME:
        reason = "no deduce header (foreign file)"
    elif header.get("format") != FORMAT_VERSION:
        reason = f"format version {header.get('format')!r}, expected {FORMAT_VERSION}"
    elif header.get("kind") != kind or header.get("key") != key:
        reason = "entry is for another key or kind"
    elif not isinstance(header.get("checksums"), dict):
        reason = "no checksums (corrupt)"
    if reason is None:
        entry = Entry(path, archive, header["checksums"])
        try:
            for name in (entry.names if verify is None else verify):
                entry[name]
        except (CorruptEntry, KeyError) as error:
            reason = str(error) if isinstance(error, CorruptEntry) else \
                f"array {error} missing (corrupt)"
    if reason is not None:
        archive.close()
        _warn(path, reason)
        return None
    return header.get("meta", {}), entry


def drop(entry: Entry, reason: str) -> None:
    """An entry found damaged after ``read_entry``: closed, removed, one warning (a later
    write replaces it)."""
    entry.close()
    _warn(entry.path, reason)
    entry.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class EntryInfo:
    """One cache file as listed: path, size in bytes, modification time, header meta."""

    path: Path
    size: int
    mtime: float
    meta: dict


def _decode_header(raw) -> dict | None:
    """The JSON header of an entry (its `HEADER_ARRAY` bytes), or None when it is missing
    or not a JSON object."""
    if raw is None:
        return None
    try:
        header = json.loads(bytes(raw).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return header if isinstance(header, dict) else None


def _header_meta(path: Path) -> dict:
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as archive:
            header = _decode_header(archive[HEADER_ARRAY])
    except Exception:
        return {}
    return header.get("meta", {}) if header is not None else {}


def _entry_files(folder: Path) -> list[EntryInfo]:
    """Every entry file of `folder` (not the temp files of writes under way), oldest
    first, without reading them (meta {})."""
    if not folder.is_dir():
        return []
    entries = []
    for path in folder.glob(f"*{SUFFIX}"):
        if path.name.startswith(TEMP_PREFIX):
            continue
        stat = path.stat()
        entries.append(EntryInfo(path, stat.st_size, stat.st_mtime, {}))
    return sorted(entries, key=lambda entry: (entry.mtime, entry.path.name))


def list_entries(directory: Path | None = None) -> list[EntryInfo]:
    """Every entry file, oldest first, with its header's meta ({} for an unreadable
    one)."""
    folder = directory if directory is not None else cache_dir()
    return [replace(entry, meta=_header_meta(entry.path)) for entry in _entry_files(folder)]


def prune(directory: Path, max_bytes: int, keep: Path | None = None) -> list[Path]:
    """Drop the oldest entries until the total is within `max_bytes`; returns them."""
    entries = _entry_files(directory)
    total = sum(entry.size for entry in entries)
    dropped = []
    for entry in entries:
        if total <= max_bytes:
            break
        if keep is not None and entry.path == keep:
            continue
        entry.path.unlink(missing_ok=True)
        total -= entry.size
        dropped.append(entry.path)
    return dropped


def clear(directory: Path | None = None) -> int:
    """Delete every entry file (and stray temp files); returns how many entries."""
    folder = directory if directory is not None else cache_dir()
    entries = _entry_files(folder)
    for entry in entries:
        entry.path.unlink(missing_ok=True)
    if folder.is_dir():
        for stray in folder.glob(f"{TEMP_PREFIX}*{SUFFIX}"):
            stray.unlink(missing_ok=True)
    return len(entries)
