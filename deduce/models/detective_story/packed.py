"""A Detective Story solver's memo as arrays and back, read lazily: what ``store`` keeps
in a solved case's cache entry (``core.cache``).

Contract:

- ``pack(memo)`` / ``unpack(memo, arrays)``: the memo stores ``STORES`` as arrays and
  back, per store and turn. Keys are kept exactly (``core.keys``: a table of their
  distinct parts, each part's JSON alone (``atoms``, ``atoms.at``), a ``Case`` as the
  indices of its fields' parts; per store and turn an int32 array of part indices,
  ``{store}.{turn}.keys``); values as the memo keeps them (``memo.Rows``: per row the SM
  interval the sweep reached, every Luck, float64 bit for bit): per store and turn a
  piece table (``.pieces``: ndim, rows, chunk, first slot), a row table (``.rows``: first
  SM, SM count) and the values in chunks of at most ``CHUNK_SLOTS`` (SM, every Luck)
  slots, each slot's Luck columns up to the last that differs from the one above it
  (``trim``: the values above repeat it; about half of a solved case's values), as one
  flat array (``.c0``, ``.c1``, ...) and per slot its width (``.w0``, ``.w1``, ...:
  uint8); an ``index`` (store, turn, keys, chunks, values at every Luck). A cell the DP
  did not reach costs nothing and reads back as not known.
- reading is lazy (``LazyStore``): the index and the part table when the entry is
  opened; a key asked is looked up in its (store, turn)'s key table by its parts' codes
  (the asked key encoded: the entry's keys are decoded only to iterate); a chunk is read
  when a value in it is first read; each array is checked against its own checksum then
  (``core.cache.Entry``). A command at one state of the case reads a few hundred KB of a
  case's hundreds of MB. A table found inconsistent or an array damaged or missing
  later drops the entry (one warning, the file removed): the values not read yet are
  forgotten, never trusted, and valued again (``store.prepare`` reads every value ``advise``
  reads at the asked state first: a damaged one there means solving again).
"""

from __future__ import annotations

import sys

from deduce.core import cache
from deduce.core import keys as K

#: the memo stores kept: enough for ``value``, ``q_values``, ``after_action``, the re-roll
#: advice and the optimal bot to read without solving (``dp.memo.Memo``)
STORES = ("start", "action", "encounter_all")
#: the (SM, every Luck) slots of one chunk of an entry (544 KiB of values): a command
#: reading a few values reads a few chunks
CHUNK_SLOTS = 1 << 12


def key_types() -> dict:
    """The classes a memo key is made of (``core.keys``)."""
    from deduce.models.detective_story.data import Sheet
    from deduce.models.detective_story.dp.modes import Flags
    from deduce.models.detective_story.state import Case

    return {"Case": Case, "Flags": Flags, "Sheet": Sheet}


def by_turn(memo) -> dict:
    """``{turn: {store: [(key, value), ...]}}`` of ``memo``'s stores ``STORES`` (the
    turns, stores and keys in the memo's order)."""
    out: dict = {}
    for name in STORES:
        for k, v in getattr(memo, name).items():
            out.setdefault(k[0], {}).setdefault(name, []).append((k, v))
    return out


def pack(memo):
    """The stores ``STORES`` of ``memo`` as (name, array) pairs, made one at a time (see
    the module's docstring; ``dict(pack(memo))`` for all at once)."""
    packer = Packer()
    for t, stores in sorted(by_turn(memo).items()):
        yield from packer.turn(t, stores)
    yield from packer.finish()


class Packer:
    """``pack`` a turn at a time: ``turn(t, stores)`` gives the arrays of turn ``t``'s
    values (``stores``: ``by_turn(memo)[t]``; each turn once: a solve that makes the
    turns one by one writes each as it comes, then drops it), ``finish()`` the index and
    the key parts after the last turn. ``values``: the values packed so far, counted at
    every Luck."""

    def __init__(self):
        self.types = key_types()
        self._flat = {cls: name for name, cls in self.types.items() if issubclass(cls, tuple)}
        self.atoms: list = []
        self._index: dict = {}
        self._by_id: dict = {}  # id(part) -> (part, its atom)
        self._table: list = []
        self.values = 0

    def _atom(self, part) -> int:
        hit = self._by_id.get(id(part))  # most parts are the same objects again and again
        if hit is not None and hit[0] is part:
            return hit[1]
        slot = (type(part), part)
        i = self._index.get(slot)
        if i is None:
            if type(part) in self._flat:  # its fields are atoms of their own: each read once
                encoded = {"n": self._flat[type(part)], "a": [self._atom(x) for x in part]}
            else:
                encoded = K.encode(part, self.types)
            i = self._index[slot] = len(self.atoms)
            self.atoms.append(encoded)
        self._by_id[id(part)] = (part, i)  # holding the part: its id is not reused
        return i

    def turn(self, t: int, stores: dict):
        """The arrays of turn ``t``'s values (``stores``: store -> [(key, value), ...]),
        store by store."""
        for name in STORES:
            if stores.get(name):
                yield from self._store_turn(name, t, stores[name])

    def _store_turn(self, name: str, t: int, items: list):
        import numpy as np

        from deduce.models.detective_story.dp.grid import L
        from deduce.models.detective_story.dp.memo import Rows

        keys = [[self._atom(part) for part in k] for k, _ in items]
        if len({len(k) for k in keys}) > 1:
            raise ValueError(f"memo store {name}: keys of different lengths")
        parts, pieces, los, starts, blocks = [], [], [], [], []
        chunk, held, n_values = 0, 0, 0
        for _, value in items:
            got = value if type(value) is tuple else (value,)
            parts.append(len(got) if type(value) is tuple else -1)
            for p in got:
                if type(p) is not Rows:
                    p = Rows.of(p)
                block = p.columns()
                n = len(block)
                if held and held + n > CHUNK_SLOTS:  # this chunk is full: the next one
                    yield from _chunk(f"{name}.{t}", chunk, blocks)
                    chunk, held, blocks = chunk + 1, 0, []
                pieces.append((p.ndim, len(p.lo), chunk, held))
                los.append(p.lo)
                starts.append(p.start)
                blocks.append(block)
                held += n
                n_values += n * L
        yield from _chunk(f"{name}.{t}", chunk, blocks)
        yield f"{name}.{t}.keys", np.array(keys, dtype=np.int32).reshape(len(keys), -1)
        yield f"{name}.{t}.parts", np.array(parts, dtype=np.int16)
        yield f"{name}.{t}.pieces", np.array(pieces, dtype=np.int32).reshape(-1, 4)
        yield f"{name}.{t}.rows", _row_table(los, starts)
        self._table.append((STORES.index(name), t, len(keys), chunk + 1, n_values))
        self.values += n_values

    def finish(self):
        """The index of every (store, turn) packed and the key parts' table."""
        import json

        import numpy as np

        yield "index", np.array(self._table, dtype=np.int64).reshape(-1, 5)
        texts = [json.dumps(a, sort_keys=True, separators=(",", ":")).encode("utf-8")
                 for a in self.atoms]  # each parsed alone, when a key needs it
        yield "atoms", np.frombuffer(b"".join(texts), dtype=np.uint8)
        yield "atoms.at", np.cumsum([0] + [len(x) for x in texts], dtype=np.int64)


def trim(block) -> tuple:
    """A chunk's values (slots, w) (w at most L: a Luck above the last column reads it) as
    ``(values, widths)``: per slot its Luck columns up to the last one whose bits differ
    from the next column's (``widths``, uint8, 1 to w), concatenated (float64); the same
    as for the block widened to L columns. Bit for bit: NaN and -0.0 are kept as they
    are."""
    import numpy as np

    block = np.ascontiguousarray(block, dtype=np.float64)
    w = block.shape[1]
    if w == 1:  # one column: nothing to compare
        return block.reshape(-1), np.ones(len(block), dtype=np.uint8)
    bits = block.view(np.int64)
    differs = bits[:, :-1] != bits[:, 1:]
    last = (w - 2) - np.argmax(differs[:, ::-1], axis=1)  # the last column that differs
    widths = np.where(differs.any(axis=1), last + 2, 1).astype(np.uint8)
    return block[np.arange(w) < widths[:, None]], widths


def untrim(values, widths):
    """``trim``'s inverse: the (slots, L) block, each slot's last column repeated.
    ``ValueError`` if the two do not fit together."""
    import numpy as np

    from deduce.models.detective_story.dp.grid import L

    if values.dtype != np.float64 or values.ndim != 1 or widths.dtype != np.uint8 \
            or widths.ndim != 1 or (len(widths) and (widths.min() < 1 or widths.max() > L)):
        raise ValueError("bad chunk")
    w = widths.astype(np.intp)
    ends = np.cumsum(w)
    if (int(ends[-1]) if len(ends) else 0) != len(values):
        raise ValueError(f"chunk of {len(values)} values for widths summing to "
                         f"{int(ends[-1]) if len(ends) else 0}")
    return values[(ends - w)[:, None] + np.minimum(np.arange(L), w[:, None] - 1)]


def _chunk(prefix: str, k: int, blocks: list):
    """Chunk ``k`` of a (store, turn) made of ``blocks`` ((slots, Luck columns) each: a
    turn's share its columns; others are widened to the most), trimmed."""
    import numpy as np

    from deduce.models.detective_story.dp.grid import luck_columns

    w = max((b.shape[1] for b in blocks), default=1)
    block = np.concatenate([b if b.shape[1] == w else luck_columns(b, w) for b in blocks]) \
        if blocks else np.zeros((0, w))
    values, widths = trim(block)
    yield f"{prefix}.c{k}", values
    yield f"{prefix}.w{k}", widths


def _row_table(los: list, starts: list):
    """The ``.rows`` table of pieces with first SMs ``los`` and slot offsets ``starts``:
    (first SM, SM count) per row, int8."""
    import numpy as np

    if not los:
        return np.zeros((0, 2), dtype=np.int8)
    lo = np.concatenate(los)
    cat = np.concatenate(starts).astype(np.int64)
    step = np.diff(cat)  # within a piece: its rows' counts; across two: dropped
    keep = np.ones(len(step), dtype=bool)
    keep[np.cumsum([len(x) for x in starts])[:-1] - 1] = False
    return np.stack([lo, step[keep]], axis=1).astype(np.int8)


def packed_size(memo) -> int:
    """The bytes of ``pack(memo)``'s values at every Luck, counted without packing: the
    most its values take (``trim`` drops about half of them, so they take at least
    ``1 / L`` of it; the key and row tables and the chunks' widths come on top: a few
    bytes per key, row and slot)."""
    import numpy as np

    from deduce.models.detective_story.dp.grid import L

    size = 0
    for name in STORES:
        for value in getattr(memo, name).values():
            for piece in (value if isinstance(value, tuple) else (value,)):
                if hasattr(piece, "block"):  # its slots at every Luck (not widened to count)
                    size += 8 * L * piece.slots
                else:
                    a = np.asarray(piece, dtype=np.float64)
                    size += 8 * a.size  # an array: at most this (its interval of SM)
    return size


def unpack(memo, arrays) -> int:
    """Put the stores of ``arrays`` (``pack``'s, a mapping: a dict or a ``cache.Entry``)
    into ``memo``, keeping what it holds already (a value it holds takes the cells it does
    not know from the entry); returns the values the entry holds. ``ValueError`` (nothing
    put) if its index and key table are not a packed memo's. Each store becomes a
    ``LazyStore``: a turn's keys are read when a key of that turn is first asked, a value
    when it is first read (its chunk, a read-only block), so a command that reads a few
    values reads a few chunks. A table found inconsistent or a chunk damaged then
    (``cache.CorruptEntry``) drops what is left of the entry with one warning: its values
    are then not known (solved again), never trusted."""

    import numpy as np

    try:
        atoms = _Atoms(bytes(arrays["atoms"]), np.asarray(arrays["atoms.at"]))
        table = np.asarray(arrays["index"])
        if table.dtype != np.int64 or table.ndim != 2 or table.shape[1] != 5 or (
                len(table) and (table[:, 0].min() < 0 or table[:, 0].max() >= len(STORES)
                                or table[:, 2:].min() < 0)):
            raise ValueError("bad index")
        turns: dict = {name: {} for name in STORES}
        for s, t, n_keys, n_chunks, n_values in table.tolist():
            if t in turns[STORES[s]]:
                raise ValueError(f"index: store {STORES[s]} turn {t} twice")
            turns[STORES[s]][t] = (n_keys, n_chunks, n_values)
    except ValueError as exc:
        raise ValueError(f"not a packed memo ({exc})") from None
    except (KeyError, IndexError, TypeError, cache.CorruptEntry) as exc:
        raise ValueError(f"not a packed memo ({type(exc).__name__}: {exc})") from None
    source = _Source(arrays, atoms)
    for name in STORES:
        held = {k: v for k, v in dict.items(getattr(memo, name))  # not an older entry's
                if type(v) not in (Packed, _Later)}
        lazy = LazyStore(source, name, turns[name])
        for k, v in held.items():  # merged with the entry's value when first read
            packed = lazy._packed(k)
            if packed is not None:
                lazy._take(k)
            dict.__setitem__(lazy, k, v if packed is None else _Later(packed, v))
        source.stores.append(lazy)
        setattr(memo, name, lazy)
    return int(table[:, 4].sum()) if len(table) else 0


class _Atoms:
    """The key parts of ``pack``'s atom table (``text``: each atom's JSON, atom ``i`` at
    bytes ``at[i]:at[i + 1]``), each parsed and made when first asked: an encoded key
    (``core.keys``), or a NamedTuple whose fields are earlier atoms (``{"n": name, "a":
    [indices]}``). ``ValueError`` for an atom that is neither (JSON errors, UTF-8 errors
    and nesting too deep too)."""

    def __init__(self, text: bytes, at):
        import numpy as np

        if at.dtype != np.int64 or at.ndim != 1 or not len(at) or at[0] != 0 \
                or at[-1] != len(text) or (np.diff(at) < 0).any():
            raise ValueError("bad atom table")
        self.text, self.at = text, at.tolist()
        self.made: dict = {}
        self.types = key_types()
        self._flat = {cls: name for name, cls in self.types.items() if issubclass(cls, tuple)}
        self._by_text: dict | None = None
        self._codes: dict = {}

    def code(self, key: tuple):
        """The atom indices of ``key``'s parts, as ``pack`` wrote them (None if a part is
        not in the table: the key is not in the entry)."""
        out = []
        for part in key:
            i = self._code(part)
            if i is None:
                return None
            out.append(i)
        return tuple(out)

    def _code(self, part):
        import json

        slot = (type(part), part)
        got = self._codes.get(slot, self)
        if got is not self:
            return got
        if type(part) in self._flat:
            fields = [self._code(x) for x in part]
            encoded = self if None in fields else {"n": self._flat[type(part)], "a": fields}
        else:
            try:
                encoded = K.encode(part, self.types)
            except TypeError:
                encoded = self  # not a key part: in no entry
        if encoded is self:
            got = None
        else:
            if self._by_text is None:
                t, at = self.text, self.at
                self._by_text = {}
                for i in range(len(at) - 1):
                    self._by_text.setdefault(t[at[i]:at[i + 1]], i)
            text = json.dumps(encoded, sort_keys=True, separators=(",", ":")).encode("utf-8")
            got = self._by_text.get(text)
        self._codes[slot] = got
        return got

    def _parsed(self, i: int):
        import json

        try:
            return json.loads(self.text[self.at[i]:self.at[i + 1]].decode("utf-8"))
        except RecursionError:
            raise ValueError(f"atom {i} nested too deep") from None

    def __call__(self, i: int):
        got = self.made.get(i, self)
        if got is not self:
            return got
        if not 0 <= i < len(self.at) - 1:
            raise ValueError(f"atom {i} past the table")
        x = self._parsed(i)
        if isinstance(x, dict) and x.keys() == {"n", "a"}:
            cls, fields = self.types.get(x["n"]), x["a"]
            if cls is None or not issubclass(cls, tuple) or not isinstance(fields, list) \
                    or not all(type(j) is int and 0 <= j < i for j in fields):
                raise ValueError(f"bad atom {i}")
            try:
                got = cls(*[self(j) for j in fields])
            except TypeError as exc:
                raise ValueError(f"bad atom {i}: {exc}") from None
        else:
            got = K.decode(x, self.types)
        self.made[i] = got
        return got


class _Later:
    """A value the memo held before its turn of the entry was read: merged with the
    entry's (``packed``) when first read, the held cells first."""

    __slots__ = ("packed", "held")

    def __init__(self, packed, held):
        self.packed, self.held = packed, held


class Packed:
    """A memo value still in its cache entry: piece ``first`` on (``parts`` of them, -1:
    a value of one piece) of a turn's tables (``_Tables``)."""

    __slots__ = ("tables", "first", "parts")

    def __init__(self, tables, first: int, parts: int):
        self.tables, self.first, self.parts = tables, first, parts


class _Source:
    """What the ``LazyStore`` of one entry read from: the entry's arrays, the atoms, the
    stores (all dropped at once when the entry is found damaged)."""

    def __init__(self, arrays, atoms: _Atoms):
        self.arrays, self.atoms = arrays, atoms
        self.stores: list = []
        self.dropped = False

    def drop(self, reason: str) -> None:
        """Forget every value not read yet, of every store; warn once; remove the file."""
        if self.dropped:
            return
        self.dropped = True
        for lazy in self.stores:
            lazy._pending.clear()
            lazy._tables.clear()
            lazy._taken.clear()
            for k in [k for k, v in dict.items(lazy) if type(v) in (Packed, _Later)]:
                v = dict.__getitem__(lazy, k)
                if type(v) is _Later:
                    dict.__setitem__(lazy, k, v.held)
                else:
                    dict.__delitem__(lazy, k)
        if isinstance(self.arrays, cache.Entry):
            cache.drop(self.arrays, reason)
        else:
            print(f"warning: solved case ignored: {reason}", file=sys.stderr)


class _Tables:
    """One (store, turn) of an entry: its pieces, rows and chunks, checked when read."""

    def __init__(self, source: _Source, name: str, t: int, n_chunks: int):
        import numpy as np

        from deduce.models.detective_story.dp.grid import S

        arrays = source.arrays
        self.source, self.prefix = source, f"{name}.{t}"
        pieces, rows = arrays[f"{self.prefix}.pieces"], arrays[f"{self.prefix}.rows"]
        if pieces.dtype != np.int32 or pieces.ndim != 2 or pieces.shape[1] != 4 \
                or rows.dtype != np.int8 or rows.ndim != 2 or rows.shape[1] != 2:
            raise ValueError(f"{self.prefix}: bad piece or row tables")
        ndim, n_rows, chunk, slot = (pieces[:, j].astype(np.int64) for j in range(4))
        row_at = np.r_[0, np.cumsum(n_rows)]
        lo, cnt = rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64)
        if len(pieces) and (not np.isin(ndim, (1, 2)).all() or n_rows.min() < 1
                            or ((ndim == 1) & (n_rows != 1)).any() or chunk.min() < 0
                            or chunk.max() >= n_chunks or slot.min() < 0) \
                or int(row_at[-1]) != len(rows) or (len(rows) and (
                    lo.min() < 0 or cnt.min() < 0 or (lo > S).any() or (lo + cnt > S).any())):
            raise ValueError(f"{self.prefix}: inconsistent piece or row tables")
        slot_at = np.r_[0, np.cumsum(cnt)]
        self.ndim, self.chunk, self.slot = ndim.tolist(), chunk.tolist(), slot.tolist()
        self.row_at, self.slot_at, self.lo = row_at.tolist(), slot_at, rows[:, 0]
        self.chunks: dict = {}

    def piece(self, i: int):
        """Piece ``i`` as ``memo.Rows`` (its block a read-only view of its chunk, made
        whole again: ``untrim``)."""
        from deduce.models.detective_story.dp.memo import Rows

        c = self.chunk[i]
        block = self.chunks.get(c)
        if block is None:
            arrays = self.source.arrays
            try:
                block = untrim(arrays[f"{self.prefix}.c{c}"], arrays[f"{self.prefix}.w{c}"])
            except cache.CorruptEntry:
                raise  # damaged or missing in the file: said as such
            except (ValueError, KeyError) as exc:
                raise ValueError(f"{self.prefix}.c{c}: {exc}") from None
            block.flags.writeable = False
            self.chunks[c] = block
        r0, r1 = self.row_at[i], self.row_at[i + 1]
        start = self.slot_at[r0:r1 + 1] - self.slot_at[r0]
        a = self.slot[i]
        if a + int(start[-1]) > len(block):
            raise ValueError(f"{self.prefix}: piece {i} past its chunk")
        return Rows(self.lo[r0:r1], start, block[a:a + int(start[-1])], self.ndim[i])

    def value(self, packed: Packed):
        if packed.parts < 0:
            return self.piece(packed.first)
        return tuple(self.piece(packed.first + j) for j in range(packed.parts))


class LazyStore(dict):
    """A memo store read from a cache entry. Asking for a key (``in``, ``[]``, ``get``)
    looks it up in its turn's key table by its parts' codes (``_Atoms.code``: the asked
    key is encoded, the entry's keys are not decoded) and reads its value (its chunk)
    when first read; a write is kept as is. ``len`` counts without reading; iterating
    (``keys``, ``values``, ``items``) decodes every turn's keys."""

    def __init__(self, source: _Source, name: str, turns: dict):
        super().__init__()
        self._source, self._name = source, name
        self._turns = turns  # turn -> (keys, chunks, values)
        self._pending = set(turns)  # turns whose keys are not all in the dict yet
        self._tables: dict = {}  # pending turn -> (_Tables, {key codes: j}, first, parts)
        self._taken: dict = {}  # pending turn -> keys of it in the dict (read, or written)

    def _table(self, t):
        """Turn ``t``'s tables and its key codes -> key index, checked (None: the entry
        was dropped)."""
        got = self._tables.get(t)
        if got is None:
            import numpy as np

            source = self._source
            try:
                n_keys, n_chunks, _ = self._turns[t]
                tables = _Tables(source, self._name, t, n_chunks)
                keys = source.arrays[f"{self._name}.{t}.keys"]
                parts = source.arrays[f"{self._name}.{t}.parts"]
                if keys.dtype != np.int32 or keys.ndim != 2 or len(keys) != n_keys \
                        or parts.dtype != np.int16 or parts.shape != (n_keys,) \
                        or (n_keys and (parts.min() < -1 or parts.min() == 0)):
                    raise ValueError(f"{self._name}.{t}: inconsistent key tables")
                counts = np.where(parts < 0, 1, parts)
                if int(counts.sum()) != len(tables.ndim):
                    raise ValueError(f"{self._name}.{t}: {len(tables.ndim)} values for "
                                     f"{n_keys} keys")
                first = np.r_[0, np.cumsum(counts)].tolist()
                codes = dict(zip(map(tuple, keys.tolist()), range(n_keys)))
                if len(codes) != n_keys:
                    raise ValueError(f"{self._name}.{t}: a key twice")
            except (ValueError, KeyError, IndexError, TypeError, cache.CorruptEntry) as exc:
                source.drop(str(exc) if isinstance(exc, cache.CorruptEntry)
                            else f"not a packed memo ({type(exc).__name__}: {exc})")
                return None
            got = self._tables[t] = (tables, codes, first, parts.tolist())
        return got

    @staticmethod
    def _made(got, j: int) -> "Packed":
        """Key ``j`` of a turn's tables (``_table``) as ``Packed``."""
        tables, _, first, parts = got
        return Packed(tables, first[j], parts[j])

    def _packed(self, k):
        """The entry's ``Packed`` value of ``k`` (a key of a pending turn), or None."""
        if type(k) is not tuple or not k or k[0] not in self._pending:
            return None
        got = self._table(k[0])
        if got is None:
            return None
        code = self._source.atoms.code(k)
        j = got[1].get(code) if code is not None else None
        return None if j is None else self._made(got, j)

    def _take(self, k) -> None:
        self._taken.setdefault(k[0], set()).add(k)

    def _load(self, t) -> None:
        """Every key of turn ``t`` into the dict (each a ``Packed``), decoded; a damaged
        table drops the entry."""
        got = self._table(t)
        if got is None or t not in self._pending:
            return
        self._pending.discard(t)
        taken = self._taken.pop(t, set())
        atom = self._source.atoms
        try:
            for code, j in got[1].items():
                packed = self._made(got, j)
                k = tuple(atom(i) for i in code)
                if k[0] != t:
                    raise ValueError(f"{self._name}.{t}: a key of turn {k[0]!r}")
                if k in taken:
                    continue  # read already, or written since: kept
                held = dict.get(self, k)
                dict.__setitem__(self, k, packed if held is None else _Later(packed, held))
        except (ValueError, KeyError, IndexError, TypeError, RecursionError) as exc:
            self._source.drop(f"not a packed memo ({type(exc).__name__}: {exc})")

    def _all(self) -> None:
        for t in sorted(self._pending):
            self._load(t)

    def __contains__(self, k) -> bool:
        return dict.__contains__(self, k) or self._packed(k) is not None

    def _value(self, k, v):
        """``v`` (a dict value of ``k``) read from the entry if it is still there."""
        packed = v.packed if type(v) is _Later else v
        try:
            read = packed.tables.value(packed)
        except (ValueError, cache.CorruptEntry) as exc:
            self._source.drop(str(exc) if isinstance(exc, cache.CorruptEntry)
                              else f"not a packed memo ({exc})")
            return _MISSING if type(v) is not _Later else v.held
        if type(v) is _Later:
            from deduce.models.detective_story.dp.memo import merged

            read = merged(read, v.held)
        return read

    def __getitem__(self, k):
        if dict.__contains__(self, k):
            v = dict.__getitem__(self, k)
            if type(v) not in (Packed, _Later):
                return v
        else:
            v = self._packed(k)
            if v is None:
                raise KeyError(k)
            self._take(k)
        read = self._value(k, v)
        if read is _MISSING:
            dict.pop(self, k, None)
            raise KeyError(k)
        dict.__setitem__(self, k, read)
        return read

    def get(self, k, default=None):
        try:
            return self[k]
        except KeyError:
            return default

    def __setitem__(self, k, v) -> None:
        if not dict.__contains__(self, k) and self._packed(k) is not None:
            self._take(k)  # the entry's value of it is not read: replaced
        dict.__setitem__(self, k, v)

    def __len__(self) -> int:
        pending = sum(self._turns[t][0] - len(self._taken.get(t, ()))
                      for t in self._pending)
        return dict.__len__(self) + pending

    def __iter__(self):
        self._all()
        return dict.__iter__(self)

    def keys(self):
        self._all()
        return dict.keys(self)

    def values(self):
        return [v for _, v in self.items()]

    def items(self):
        """Every (key, value), each read (a value lost to a damaged chunk left out)."""
        out = []
        for k in list(self):
            v = self.get(k, _MISSING)
            if v is not _MISSING:
                out.append((k, v))
        return out


_MISSING = object()
