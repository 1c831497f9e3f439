"""A per-user cache of solved results kept on disk, reusable by every game.

Contract:
- `cache_dir()` is the user's cache folder by platform convention, with the project's
  name in the path (Linux `$XDG_CACHE_HOME/deduce` or `~/.cache/deduce`; macOS
  `~/Library/Caches/deduce`; Windows `%LOCALAPPDATA%\\deduce\\Cache`); the environment
  variable `DEDUCE_CACHE_DIR` overrides it.
- An entry is one `.npz` file named by its key (hex digest). It holds numeric arrays and
  a JSON header (array `__header__`, uint8 bytes) carrying the format version, the kind,
  the key, the caller's metadata and a SHA-256 checksum over every array's name, dtype,
  shape and bytes. Files are read with `allow_pickle=False`: a foreign file never runs
  code.
- Writes are atomic (temp file in the same folder, then `os.replace`), and after each
  write the folder is pruned to `max_bytes` (default `DEFAULT_MAX_BYTES`), oldest first.
- A corrupt, truncated, foreign or other-version file is ignored with a warning on
  stderr (`read_entry` returns None); it is never trusted and never stops the command.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

APP_NAME = "deduce"
ENV_VAR = "DEDUCE_CACHE_DIR"
FORMAT_VERSION = 1
#: room for the fresh solutions of both shipped Detective Story Adventures (a001 about
#: 300 MiB, a002 about 600 MiB with the reachable-only DP)
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


def _checksum(arrays: dict) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = arrays[name]
        digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        # the bytes themselves, not a copy (``tobytes``): a solved case is hundreds of MB
        digest.update(array if array.flags.c_contiguous else array.tobytes())
    return digest.hexdigest()


def _warn(path: Path, reason: str) -> None:
    print(f"warning: cache file {path} ignored: {reason}", file=sys.stderr)


def write_entry(key: str, kind: str, meta: dict, arrays: dict,
                directory: Path | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES) -> Path:
    """Write one entry atomically, then prune the folder to `max_bytes`."""
    import numpy as np

    folder = directory if directory is not None else cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    arrays = {name: np.ascontiguousarray(value) for name, value in arrays.items()}
    if HEADER_ARRAY in arrays:
        raise ValueError(f"array name {HEADER_ARRAY} is reserved")
    header = {"format": FORMAT_VERSION, "app": APP_NAME, "kind": kind, "key": key,
              "meta": meta, "checksum": _checksum(arrays)}
    encoded = np.frombuffer(json.dumps(header, sort_keys=True).encode("utf-8"),
                            dtype=np.uint8)
    target = folder / f"{key}{SUFFIX}"
    handle, temp_name = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=SUFFIX)
    try:
        with os.fdopen(handle, "wb") as stream:
            np.savez(stream, **{HEADER_ARRAY: encoded}, **arrays)
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    prune(folder, max_bytes, keep=target)
    return target


def read_entry(key: str, kind: str, directory: Path | None = None):
    """(meta, arrays) of a valid entry, or None (missing, or ignored with a warning)."""
    import numpy as np

    folder = directory if directory is not None else cache_dir()
    path = folder / f"{key}{SUFFIX}"
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as archive:
            data = {name: archive[name] for name in archive.files}
    except Exception as error:  # any unreadable file is a miss, never a crash
        _warn(path, f"not a readable cache entry ({type(error).__name__})")
        return None
    header = _decode_header(data.pop(HEADER_ARRAY, None))
    if header is None or header.get("app") != APP_NAME:
        _warn(path, "no deduce header (foreign file)")
        return None
    if header.get("format") != FORMAT_VERSION:
        _warn(path, f"format version {header.get('format')!r}, "
                    f"expected {FORMAT_VERSION}")
        return None
    if header.get("kind") != kind or header.get("key") != key:
        _warn(path, "entry is for another key or kind")
        return None
    if header.get("checksum") != _checksum(data):
        _warn(path, "checksum mismatch (corrupt)")
        return None
    return header.get("meta", {}), data


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
