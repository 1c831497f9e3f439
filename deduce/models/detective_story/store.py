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
- ``pack(memo)`` / ``unpack(memo, arrays)``: the memo stores ``STORES`` as arrays and
  back. Keys are kept exactly (``core.keys``: a table of their distinct parts as JSON, a
  ``Case`` as the indices of its fields' parts, and per store an int32 array of part
  indices); values keep their finite cells only (a
  packed bit mask and the float64 values, bit for bit), so a cell the DP left NaN costs
  nothing and reads back as NaN. Everything is in arrays the entry's checksum covers.
- ``prepare(solver, case, phase, waited, use_cache, whole)``: make sure ``solver`` answers at
  the case without solving again: from its memory, else from the cache entry, else by
  solving (the whole case when ``use_cache``) and writing the entry. A corrupt, truncated,
  foreign or other-version entry is ignored with one warning on stderr (``core.cache``)
  and the case solved again and rewritten; a folder that cannot be written is warned
  about once and the command goes on.
- ``entries()`` / ``clear()``: this game's entries in the cache folder, and removing them.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path

from deduce.core import cache
from deduce.core import keys as K

GAME = "detective-story"
#: the ``kind`` of this game's entries (``core.cache``)
KIND = "detective-story/solved-case"
#: the memo stores kept: enough for ``value``, ``q_values``, ``after_action``, the re-roll
#: advice and the optimal bot to read without solving (``dp.memo.Memo``)
STORES = ("start", "action", "encounter_all")
#: where a cache entry's answer came from (``prepare``)
MEMORY, CACHED, SOLVED = "memory", "cache", "solved"

_warned: set = set()
#: ``pack`` checks cells for NaN this many at a time
_CHUNK_CELLS = 1 << 20


def _key_types() -> dict:
    from deduce.models.detective_story.data import Sheet
    from deduce.models.detective_story.dp.modes import Flags
    from deduce.models.detective_story.state import Case

    return {"Case": Case, "Flags": Flags, "Sheet": Sheet}


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

    return cache.digest_key(KIND, program_digest(), K.encode(context_key(ctx), _key_types()))


# ----------------------------------------------------------------------------- the memo
def pack(memo) -> dict:
    """The stores ``STORES`` of ``memo`` as arrays (see the module's docstring)."""
    import json

    import numpy as np

    types = _key_types()
    flat = {cls: name for name, cls in types.items() if issubclass(cls, tuple)}
    atoms: list = []
    index: dict = {}

    def atom(part) -> int:
        slot = (type(part), part)
        i = index.get(slot)
        if i is None:
            if type(part) in flat:  # its fields are atoms of their own: each read once
                encoded = {"n": flat[type(part)], "a": [atom(x) for x in part]}
            else:
                encoded = K.encode(part, types)
            i = index[slot] = len(atoms)
            atoms.append(encoded)
        return i

    arrays = {}
    for name in STORES:
        store = getattr(memo, name)
        keys = [[atom(part) for part in k] for k in store]
        arity = {len(k) for k in keys} or {0}
        if len(arity) > 1:
            raise ValueError(f"memo store {name}: keys of different lengths")
        parts, shapes, finite = [], [], []
        chunk: list = []  # cells gathered a few MB at a time: no dense copy of the memo
        held = 0
        total = sum(np.size(p) for v in store.values() for p in (v if type(v) is tuple else (v,)))
        known = np.empty(total)  # the finite cells go here: only those pages are touched
        n_known = 0

        def flush():
            nonlocal n_known
            cells = np.concatenate(chunk)
            f = np.isfinite(cells)
            finite.append(f)
            got = cells if f.all() else cells[f]
            known[n_known:n_known + len(got)] = got
            n_known += len(got)
            chunk.clear()

        for value in store.values():
            pieces = value if isinstance(value, tuple) else (value,)
            parts.append(len(pieces) if isinstance(value, tuple) else -1)
            for piece in pieces:
                a = np.asarray(piece, dtype=np.float64)
                if a.ndim not in (1, 2):
                    raise ValueError(f"memo store {name}: a value of shape {a.shape}")
                shapes.append((a.ndim, a.shape[0], a.shape[-1]))
                chunk.append(a.reshape(-1))
                held += a.size
                if held >= _CHUNK_CELLS:
                    flush()
                    held = 0
        if chunk:
            flush()
        arrays[f"{name}.keys"] = np.array(keys, dtype=np.int32).reshape(len(keys), *arity)
        arrays[f"{name}.parts"] = np.array(parts, dtype=np.int16)
        arrays[f"{name}.shapes"] = np.array(shapes, dtype=np.int32).reshape(-1, 3)
        arrays[f"{name}.mask"] = np.packbits(np.concatenate(finite)) if finite else \
            np.zeros(0, dtype=np.uint8)
        arrays[f"{name}.values"] = known[:n_known]
    text = json.dumps(atoms, sort_keys=True, separators=(",", ":"))
    arrays["atoms"] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    return arrays


def packed_size(memo) -> int:
    """The bytes of ``pack(memo)``'s values and masks (its key tables come on top: a few
    bytes per key), counted without packing."""
    import numpy as np

    size = 0
    for name in STORES:
        cells = 0
        for value in getattr(memo, name).values():
            for piece in (value if isinstance(value, tuple) else (value,)):
                a = np.asarray(piece)
                cells += a.size
                size += 8 * int(np.count_nonzero(np.isfinite(a)))
        size += (cells + 7) // 8  # the store's mask
    return size


def unpack(memo, arrays: dict) -> int:
    """Put the stores of ``arrays`` (``pack``'s) into ``memo``, keeping what it holds
    already (a value it holds takes the cells it does not know, NaN, from the entry);
    returns the values read. ``ValueError`` (nothing put) if they are not a
    packed memo: every table is checked here, so reading a value later cannot fail.
    Each store becomes a ``LazyStore``: a value read is made on its first access (a
    read-only view of the entry's values, or its cells put back among NaN), so a command
    that reads a few values never spends the memory of the whole case."""
    import json

    import numpy as np

    try:
        atoms = _atoms(json.loads(bytes(arrays["atoms"]).decode("utf-8")))
        stores = {name: _unpack_store(arrays, name, atoms, np) for name in STORES}
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError too
        raise ValueError(f"not a packed memo ({exc})") from None
    except (KeyError, IndexError, TypeError, RecursionError) as exc:  # nested too deep too
        raise ValueError(f"not a packed memo ({type(exc).__name__}: {exc})") from None
    for name, packed in stores.items():
        lazy = LazyStore(packed)
        for k, held in dict.items(getattr(memo, name)):  # what the memo holds is kept
            if type(held) is not Packed and k in packed:
                held = _known_first(held, lazy[k], np)
            dict.__setitem__(lazy, k, held)
        setattr(memo, name, lazy)
    return sum(int(arrays[f"{name}.values"].size) for name in STORES)


def _ones_before(mask, at, np):
    """For each cell index in ``at`` (ascending, the last one the mask's cell count): the
    set bits of the bit-packed ``mask`` before it, without unpacking the mask (a popcount
    per byte, a running sum, and the leading bits of the byte it falls in)."""
    counts, leading = _bit_tables()
    pop = counts[mask]
    if int(pop.sum(dtype=np.int64)) == int(at[-1]):  # every cell finite
        return at
    before = np.zeros(len(mask) + 1, dtype=np.int64)
    np.cumsum(pop, dtype=np.int64, out=before[1:])
    byte, bit = at >> 3, at & 7
    padded = np.append(mask, np.uint8(0))
    return before[byte] + leading[padded[byte], bit]


@lru_cache(maxsize=1)
def _bit_tables():
    """Per byte value: its set bits, and the set bits among its first k (0-7) cells
    (``np.packbits`` puts a byte's first cell in its most significant bit)."""
    import numpy as np

    counts = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)
    leading = np.array([[bin(b >> (8 - k)).count("1") for k in range(8)] for b in range(256)],
                       dtype=np.int64)
    return counts, leading


def _known_first(held, read, np):
    """``held`` (a memo value: an array or a tuple of arrays), its NaN cells taken from
    ``read`` where the shapes agree."""
    if type(held) is tuple and type(read) is tuple and len(held) == len(read):
        return tuple(_known_first(h, r, np) for h, r in zip(held, read))
    if type(held) is tuple or type(read) is tuple or np.shape(held) != np.shape(read):
        return held
    return np.where(np.isnan(held), read, held)


def _atoms(table: list) -> list:
    """The key parts of ``pack``'s atom table: each an encoded key (``core.keys``), or a
    NamedTuple whose fields are earlier atoms (``{"n": name, "a": [indices]}``)."""
    types = _key_types()
    out: list = []
    for x in table:
        if isinstance(x, dict) and x.keys() == {"n", "a"}:
            cls, fields = types.get(x["n"]), x["a"]
            if cls is None or not issubclass(cls, tuple) or not isinstance(fields, list) \
                    or not all(type(j) is int and 0 <= j < len(out) for j in fields):
                raise ValueError(f"bad atom {len(out)}")
            try:
                out.append(cls(*[out[j] for j in fields]))
            except TypeError as exc:
                raise ValueError(f"bad atom {len(out)}: {exc}") from None
        else:
            out.append(K.decode(x, types))
    return out


class Packed:
    """A memo value still in its cache entry: ``make()`` builds it."""

    __slots__ = ("make", "index")

    def __init__(self, make, index: int):
        self.make, self.index = make, index


class LazyStore(dict):
    """A memo store some of whose values are ``Packed``: each is made on its first access
    (``[]``, ``get``, ``values``, ``items``) and kept; what the DP writes is kept as is."""

    def __getitem__(self, k):
        v = dict.__getitem__(self, k)
        if type(v) is Packed:
            v = v.make(v.index)
            dict.__setitem__(self, k, v)
        return v

    def get(self, k, default=None):
        return self[k] if k in self else default

    def values(self):
        return [self[k] for k in self]

    def items(self):
        return [(k, self[k]) for k in self]


def _unpack_store(arrays: dict, name: str, atoms: list, np) -> dict:
    """Key -> ``Packed`` of one store, every table checked first."""
    keys, parts = arrays[f"{name}.keys"], arrays[f"{name}.parts"]
    shapes, mask = arrays[f"{name}.shapes"], arrays[f"{name}.mask"]
    values = arrays[f"{name}.values"]
    if keys.ndim != 2 or len(keys) != len(parts) or shapes.ndim != 2 or shapes.shape[1] != 3 \
            or (keys.size and (keys.min() < 0 or keys.max() >= len(atoms))):
        raise ValueError(f"memo store {name}: inconsistent tables")
    counts = np.where(parts < 0, 1, parts)
    if len(parts) and parts.min() == 0 or int(counts.sum()) != len(shapes):
        raise ValueError(f"memo store {name}: {len(shapes)} values for {len(parts)} keys")
    if len(shapes) and (shapes[:, 1:].min() < 1 or not np.isin(shapes[:, 0], (1, 2)).all()
                        or ((shapes[:, 0] == 1) & (shapes[:, 1] != shapes[:, 2])).any()):
        raise ValueError(f"memo store {name}: bad shapes")
    sizes = np.where(shapes[:, 0] == 1, shapes[:, 2], shapes[:, 1] * shapes[:, 2]) \
        .astype(np.int64)
    cell_at = np.concatenate([[0], np.cumsum(sizes)])
    n_cells = int(cell_at[-1])
    if mask.dtype != np.uint8 or mask.ndim != 1 or len(mask) != (n_cells + 7) // 8 \
            or values.dtype != np.float64 or values.ndim != 1:
        raise ValueError(f"memo store {name}: bad mask or values")
    ones = _ones_before(mask, cell_at, np)  # finite cells before each piece's first
    if int(ones[-1]) != len(values):
        raise ValueError(f"memo store {name}: {len(values)} values for {int(ones[-1])} "
                         "finite cells")
    values.flags.writeable = False
    value_at = ones
    cells, vals = cell_at.tolist(), value_at.tolist()
    dims = shapes.tolist()

    def piece(i: int):
        c0, c1, v0, v1 = cells[i], cells[i + 1], vals[i], vals[i + 1]
        if v1 - v0 == c1 - c0:
            out = values[v0:v1]
        else:
            b0 = c0 >> 3
            bits = np.unpackbits(mask[b0:(c1 + 7) >> 3])[c0 - 8 * b0:c1 - 8 * b0].view(bool)
            out = np.full(c1 - c0, np.nan)
            out[bits] = values[v0:v1]
            out.flags.writeable = False
        ndim, rows, cols = dims[i]
        return out if ndim == 1 else out.reshape(rows, cols)

    first = np.concatenate([[0], np.cumsum(counts)]).tolist()

    def make(k: int):
        n = parts_list[k]
        if n < 0:
            return piece(first[k])
        return tuple(piece(first[k] + j) for j in range(n))

    parts_list = parts.tolist()
    return {tuple(atoms[i] for i in row): Packed(make, k)
            for k, row in enumerate(keys.tolist())}


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
    """Read the cache entry of ``solver``'s case into its memo (True if one was read)."""
    folder = _folder()
    if folder is None:
        return False
    found = cache.read_entry(case_key(solver.ctx), KIND, folder)
    if found is None:
        return False
    _, arrays = found
    try:
        unpack(solver.memo, arrays)
    except ValueError as exc:
        path = folder / f"{case_key(solver.ctx)}{cache.SUFFIX}"
        print(f"warning: cache file {path} ignored: {exc}", file=sys.stderr)
        return False
    return True


def save(solver, max_bytes: int = cache.DEFAULT_MAX_BYTES) -> Path | None:
    """Write ``solver``'s memo as its case's cache entry, the folder then pruned to
    ``max_bytes`` (the path; None, with a warning, when the folder cannot be written or
    the entry alone is larger than ``max_bytes``: the command goes on without it)."""
    folder = _folder()
    if folder is None:
        _warn_once("home", "no cache folder (no home folder): the solved case is not kept")
        return None
    size = packed_size(solver.memo)
    if size > max_bytes:  # known before packing: no copy of the memo made for nothing
        _warn_once("size", f"the solved case ({size / 2 ** 20:.0f} MiB) is larger than the "
                           f"cache's bound ({max_bytes / 2 ** 20:.0f} MiB): not kept")
        return None
    arrays = pack(solver.memo)
    values = sum(int(arrays[f"{name}.values"].size) for name in STORES)
    try:
        return cache.write_entry(case_key(solver.ctx), KIND, _meta(solver.ctx, values), arrays,
                                 folder, max_bytes)
    except OSError as exc:
        _warn_once("write", f"cannot write the solved case to the cache folder {folder} "
                            f"({exc.strerror or exc}): going on without it")
        return None


def covered(solver, case, phase: str = "action", waited: bool = False) -> bool:
    """Whether ``solver``'s memo holds the value at ``case`` (``Solver.knows``), so
    nothing needs solving for it."""
    return solver.knows(case, encounter=phase == "encounter", waited=waited)


def prepare(solver, case, phase: str = "action", waited: bool = False,
            use_cache: bool = True, whole: bool = False) -> str:
    """Make sure ``solver`` answers at ``case`` (``phase``, ``waited``) without solving:
    ``MEMORY`` (it could already, or there is nothing to solve: the case is over, or SM or
    Luck is past the grid, which ``advice.advise`` refuses), ``CACHED`` (read from the
    cache entry), ``SOLVED`` (solved here: the whole case, then the entry written, when
    ``use_cache``; else ``whole`` as ``Solver.prepare``). ``use_cache`` False: the cache
    is neither read nor written."""
    from deduce.models.detective_story.dp.grid import LUCK_CAP, SM_CAP

    if case.over or case.sm > SM_CAP or case.luck > LUCK_CAP or covered(solver, case, phase,
                                                                          waited):
        return MEMORY
    if use_cache:
        if solver.progress:
            solver.progress("reading the solved case from the cache")
        if load(solver) and covered(solver, case, phase, waited):
            return CACHED
    solver.prepare(case, encounter=phase == "encounter", whole=whole or use_cache,
                   waited=waited)
    if use_cache:
        save(solver)
    return SOLVED


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
