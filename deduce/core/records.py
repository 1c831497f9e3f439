"""Reading input files safely, writing records atomically, and the record lock.

Reading (``read_text``, ``read_json``, ``read_toml``): only regular files are read (a
folder, a device, a FIFO or a socket is refused before a byte is read, so nothing hangs),
at most ``MAX_FILE_BYTES`` of them; a UTF-8 byte-order mark is accepted; integers longer
than Python's integer-string limit, ``NaN``/``Infinity`` in JSON and structures nested
deeper than ``MAX_NESTING`` levels are refused. Every problem is an ``InputError`` (exit 2)
naming the file and, where the parser knows it, the line and column.

Writing (``write_json_atomic``): a temporary file in the record's folder, fsynced, then
renamed over the record, so a killed process leaves the old record or the new one, never
a mix. A new record gets the usual permissions (``0o666`` minus the umask), an existing
one keeps its mode; a symlink is written through (its target is replaced). A write that
fails (missing folder, a path under a regular file, no permission, disk full) is an
``InputError`` naming the file and the system's reason; the record on disk is unchanged
and no temporary file is left. Temporary files left by a killed write are removed by the
next write of the same record.

Locking (``RecordLock``, ``locked``): one writer per record. The lock is an advisory
``flock`` on a sidecar file ``.NAME.lock`` beside the record (the record itself is replaced
by every write, so it cannot carry the lock); the sidecar exists while the lock is held and
holds the holder's process id. A live session holds the lock for its whole life; a one-shot
writer holds it from the read to the write (``with locked(path): ...``), waiting up to
``ONE_SHOT_WAIT`` seconds. ``write_json_atomic`` takes the lock itself for the write
unless this process already holds it, so no two writers of this program ever interleave.
POSIX only (``fcntl``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from deduce.core.errors import InputError
from deduce.core.limits import MAX_FILE_BYTES, MAX_NESTING, ONE_SHOT_WAIT


_KINDS = [(stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket")]


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _reason(exc: OSError) -> str:
    """The system's reason in words (``No space left on device``)."""
    return exc.strerror or str(exc)


# ----------------------------------------------------------------------------- reading
def read_bytes(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (at most ``max_bytes``), or ``InputError``."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError("file not found", where=str(p)) from None
    except OSError as exc:
        raise InputError(f"cannot read file: {_reason(exc)}", where=str(p)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"cannot read file: it is {_kind(mode)}, and only regular files "
                             "are read", where=str(p))
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read file: {_reason(exc)}", where=str(p)) from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise InputError(f"file too large: more than the cap of {max_bytes:,} bytes",
                         where=str(p))
    return b"".join(chunks)


def read_text(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (a leading byte-order mark dropped), or ``InputError``."""
    data = read_bytes(path, max_bytes)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read file: not UTF-8 text (byte {exc.start})",
                         where=str(path)) from None


@contextlib.contextmanager
def _shallow_recursion() -> Iterator[None]:
    """Parse with a recursion limit a little above the current depth: deep nesting raises
    ``RecursionError`` early, whatever limit another part of the program has set."""
    old = sys.getrecursionlimit()
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    sys.setrecursionlimit(depth + 4 * MAX_NESTING + 100)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def nesting_depth(value: Any) -> int:
    """How deep lists and dicts nest in ``value`` (a scalar: 0), without recursion.

    >>> nesting_depth({"a": [1, [2, {}]]})
    4
    """
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children if isinstance(c, (dict, list)))
    return deepest


def _check_parsed(value: Any, where: str) -> Any:
    if nesting_depth(value) > MAX_NESTING:
        raise InputError(f"nested too deeply: more than the cap of {MAX_NESTING} levels of "
                         "arrays and tables", where=where)
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json_text(text: str, where: str) -> Any:
    """``json.loads`` with the module's caps; ``InputError`` at ``where`` otherwise."""
    try:
        with _shallow_recursion():
            value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}",
                         where=where) from None
    except RecursionError:
        raise InputError(f"not valid JSON: nested too deeply (more than the cap of "
                         f"{MAX_NESTING} levels of arrays and objects)", where=where) from None
    except ValueError as exc:  # integer-string limit, NaN/Infinity
        raise InputError(f"not valid JSON: {_short(exc)}", where=where) from None
    return _check_parsed(value, where)


def read_json(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The parsed JSON of ``path``; ``InputError`` naming the file (and line) otherwise."""
    return parse_json_text(read_text(path, max_bytes), str(Path(path)))


def parse_toml_text(text: str, where: str) -> dict:
    """``tomllib.loads`` with the module's caps; ``InputError`` at ``where`` otherwise."""
    import tomllib

    try:
        with _shallow_recursion():
            value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", where=where) from None
    except RecursionError:
        raise InputError(f"not valid TOML: nested too deeply (more than the cap of "
                         f"{MAX_NESTING} levels of arrays and tables)", where=where) from None
    except ValueError as exc:  # integer-string limit
        raise InputError(f"not valid TOML: {_short(exc)}", where=where) from None
    return _check_parsed(value, where)


def read_toml(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> dict:
    """The parsed TOML of ``path``; ``InputError`` naming the file (and line) otherwise."""
    return parse_toml_text(read_text(path, max_bytes), str(Path(path)))


def _short(exc: Exception) -> str:
    text = str(exc)
    if "integer string conversion" in text:
        return (f"an integer has more than {sys.get_int_max_str_digits():,} digits "
                "(Python's integer-string limit)")
    return text


# ----------------------------------------------------------------------------- locking
_HELD: dict[str, "RecordLock"] = {}  # real path of the record -> the lock this process holds


def _real(path: str | os.PathLike) -> str:
    return os.path.realpath(os.fspath(path))


def lock_path(path: str | os.PathLike) -> Path:
    """The sidecar file whose lock stands for the record at ``path``."""
    real = Path(_real(path))
    return real.with_name(f".{real.name}.lock")


class RecordLock:
    """An advisory lock on the record at ``path``, held until ``release()``.

    ``RecordLock(path, wait=s)`` waits up to ``s`` seconds for another holder, then raises
    ``InputError`` (exit 2) naming the file and the holder's process id. Locks are per
    process and per record: taking a record this process already holds is refused too.
    The sidecar file exists while the lock is held (a holder that was killed leaves it,
    unlocked, for the next holder to take over and remove).
    """

    def __init__(self, path: str | os.PathLike, wait: float = 0.0):
        self.path = Path(path)
        self.real = _real(path)
        self.sidecar = lock_path(path)
        if self.real in _HELD:
            raise InputError("the record is already open in this session", where=str(path))
        deadline = time.monotonic() + wait
        while True:
            fd = self._open()
            if self._try_lock(fd, deadline, wait):
                if self._still_linked(fd):
                    break
            os.close(fd)  # the holder before removed the sidecar meanwhile: take the new one
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        self._fd: int | None = fd
        _HELD[self.real] = self

    def _open(self) -> int:
        _check_folder(Path(self.real), str(self.path))
        try:
            return os.open(self.sidecar, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise InputError(f"cannot lock the record: {_reason(exc)} ({self.sidecar})",
                             where=str(self.path)) from None

    def _try_lock(self, fd: int, deadline: float, wait: float) -> bool:
        """Lock ``fd``, waiting until ``deadline``; ``InputError`` when it stays locked."""
        import fcntl

        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    os.close(fd)
                    raise InputError(f"cannot lock the record: {_reason(exc)}",
                                     where=str(self.path)) from None
            if time.monotonic() >= deadline:
                holder = _holder(fd)
                os.close(fd)
                waited = f", waited {wait:g} s" if wait else ""
                raise InputError(
                    f"the record is in use by another deduce session{holder}{waited}: "
                    "finish that session first (one writer per record)", where=str(self.path))
            time.sleep(0.05)

    def _still_linked(self, fd: int) -> bool:
        try:
            here, there = os.fstat(fd), os.stat(self.sidecar)
        except OSError:
            return False
        return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)

    def release(self) -> None:
        """Remove the sidecar and unlock (unlinked first, so a waiter re-checks the path)."""
        if self._fd is None:
            return
        import fcntl

        _HELD.pop(self.real, None)
        with contextlib.suppress(OSError):
            os.unlink(self.sidecar)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "RecordLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (process {text})" if text.isdigit() else ""


def holds_lock(path: str | os.PathLike) -> bool:
    """Does this process hold the lock of the record at ``path``?"""
    return _real(path) in _HELD


@contextlib.contextmanager
def locked(path: str | os.PathLike, wait: float | None = None) -> Iterator[None]:
    """Hold the record's lock for a one-shot read-modify-write, waiting ``wait`` seconds
    (default ``ONE_SHOT_WAIT``) for another holder; nothing if this process holds it."""
    if holds_lock(path):
        yield
        return
    with RecordLock(path, wait=ONE_SHOT_WAIT if wait is None else wait):
        yield


# ----------------------------------------------------------------------------- writing
def _folder_problem(target: Path) -> str | None:
    """Why no file can be made at ``target`` for lack of a folder, or None."""
    folder = target.parent
    if folder.is_dir():
        return None
    if folder.exists() or any(p.is_file() for p in folder.parents):
        return "a path in it is a file, not a folder"
    return "its folder does not exist"


def _check_folder(target: Path, shown: str) -> None:
    """``InputError`` "cannot write the file: ..." when ``target``'s folder is not one."""
    problem = _folder_problem(target)
    if problem:
        raise InputError(f"cannot write the file: {problem}", where=shown)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _remove_leftovers(folder: Path, name: str) -> None:
    """Temporary files of earlier writes of ``name`` that were killed before their rename."""
    prefix = f".{name}."
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(prefix) and entry.name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def write_json_atomic(path: str | os.PathLike, data: Any) -> None:
    """Write ``data`` as indented JSON to ``path`` atomically (temp file, fsync, rename),
    holding the record's lock (waiting ``ONE_SHOT_WAIT`` s at most) unless this process
    holds it already. ``InputError`` naming the file and the system's reason on failure."""
    shown = str(path)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"  # TypeError: a program bug
    target = Path(_real(path))
    folder = target.parent
    _check_folder(target, shown)
    with locked(path):
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = _new_file_mode()
        except OSError as exc:
            raise InputError(f"cannot write the file: {_reason(exc)}", where=shown) from None
        _remove_leftovers(folder, target.name)
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fchmod(fh.fileno(), mode)
                os.fsync(fh.fileno())
            os.replace(tmp, target)
            tmp = None
        except OSError as exc:
            raise InputError(f"cannot write the file: {_reason(exc)}", where=shown) from None
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    try:  # make the rename itself durable
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def check_record_path(path: str | os.PathLike) -> None:
    """Refuse, before a session takes the lock, a record path that is not a regular file
    (read as such, so the message says what it is) or a new record in a missing folder."""
    p = Path(path)
    if p.exists() and not p.is_file():
        read_bytes(p)  # refuses it: only regular files are read
    problem = None if p.exists() else _folder_problem(p)
    if problem:
        raise InputError(f"cannot create the record: {problem}", where=str(p))


class LockedSession:
    """Base of every game's live table session: it holds its record's ``lock`` (a
    ``RecordLock`` taken before the record is read) until ``close``; a context manager."""

    lock: RecordLock | None

    def close(self) -> None:
        """Let the record's lock go (everything accepted is already saved)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def json_kind(value: Any, mapping: str = "an object") -> str:
    """What a parsed JSON (or TOML) value is, in words, with a short sample of it, for
    messages; ``mapping`` names a dict (``"a table"`` in a TOML file).

    >>> json_kind(None), json_kind(True), json_kind([1, 2]), json_kind({}, "a table")
    ('null', 'true', 'a list', 'a table')
    >>> json_kind("x" * 50), json_kind(2.5)
    ("a string ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...')", 'a number (2.5)')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return f"a number ({text if len(text) <= 30 else text[:30] + '...'})"
    if isinstance(value, str):
        return f"a string ({value if len(value) <= 30 else value[:30] + '...'!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return mapping
    return type(value).__name__


def check_fields(data: dict, required: Sequence[str], optional: Sequence[str] = (), *,
                 fail: Callable[[str, str], InputError]) -> None:
    """Refuse a field of ``data`` that is neither ``required`` nor ``optional`` ("unknown
    field (known: ...)"), then a ``required`` one that is missing ("missing field"): the
    error is ``fail(message, key)``, which names the place in the file's own style.

    >>> check_fields({"a": 1, "z": 2}, ("a",), ("b",), fail=lambda m, k: InputError(m, where=k))
    Traceback (most recent call last):
    deduce.core.errors.InputError: z: unknown field (known: a, b)
    """
    known = tuple(required) + tuple(optional)
    for key in data:
        if key not in known:
            raise fail(f"unknown field (known: {', '.join(known)})", key)
    for key in required:
        if key not in data:
            raise fail("missing field", key)
