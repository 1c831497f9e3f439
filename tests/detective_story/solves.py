"""Counting the DP's solves: every whole-turn sweep a ``Solver.prepare`` runs (the solve
itself; reading the memo or the cache runs none), in this process and in the workers it
forks (each call appends a line to a file)."""

from __future__ import annotations

from pathlib import Path


def count_solves(monkeypatch, log: Path) -> None:
    """From now on every sweep, here or in a forked worker, appends a line to ``log``."""
    from deduce.models.detective_story.dp.sweep import Sweep

    original = Sweep.run

    def counted(self, *args, **kwargs):
        with open(log, "a", encoding="utf-8") as stream:
            stream.write("solve\n")
        return original(self, *args, **kwargs)

    log.write_text("", encoding="utf-8")
    monkeypatch.setattr(Sweep, "run", counted)


def solves(log: Path) -> int:
    """The sweeps counted in ``log`` so far."""
    return len(log.read_text(encoding="utf-8").splitlines())


# -- damaging one array of a cache entry in place (its header's checksums kept)
def _member_data(path: Path, name: str) -> tuple:
    """(first byte, size) of array ``name``'s stored bytes in the entry file ``path``."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(f"{name}.npy")
    with open(path, "rb") as stream:
        stream.seek(info.header_offset)
        local = stream.read(30)
    start = info.header_offset + 30 + int.from_bytes(local[26:28], "little") \
        + int.from_bytes(local[28:30], "little")
    return start, info.file_size


def flip_in_array(path: Path, name: str) -> None:
    """One bit of array ``name``'s last value flipped in the file."""
    start, size = _member_data(path, name)
    data = bytearray(path.read_bytes())
    data[start + size - 1] ^= 0x01
    path.write_bytes(bytes(data))


def without_array(path: Path, name: str) -> None:
    """The file rewritten without array ``name`` (the header still lists it)."""
    import zipfile

    temp = path.with_name(path.name + ".part")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(temp, "w", zipfile.ZIP_STORED,
                                                       allowZip64=True) as dst:
        for info in src.infolist():
            if info.filename != f"{name}.npy":
                dst.writestr(info.filename, src.read(info.filename))
    temp.replace(path)


def chunks_read(solver) -> list:
    """The chunk arrays ``solver``'s memo has read from its cache entry so far."""
    from deduce.models.detective_story import packed

    entry = solver.memo.start._source.arrays if isinstance(solver.memo.start,
                                                           packed.LazyStore) else None
    return [n for n in (entry._read if entry is not None else ()) if ".c" in n]
