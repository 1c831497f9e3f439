"""deduce.core.cache: round-trip, atomic folder, corrupt/foreign files, size bound."""

import os

import numpy as np
import pytest

from deduce.core import cache


def test_round_trip_is_bit_exact(tmp_path):
    values = np.array([0.6082010142190251, 1 / 3, 0.0])
    cache.write_entry("k1", "demo", {"case": "a001"}, {"v": values}, tmp_path)
    meta, arrays = cache.read_entry("k1", "demo", tmp_path)
    assert meta == {"case": "a001"}
    assert arrays["v"].tobytes() == values.tobytes()
    assert [p.name for p in tmp_path.iterdir()] == ["k1.npz"]


def test_env_var_overrides_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path))
    assert cache.cache_dir() == tmp_path


def test_corrupt_and_foreign_files_are_ignored_with_warning(tmp_path, capsys):
    cache.write_entry("k1", "demo", {}, {"v": np.arange(4.0)}, tmp_path)
    path = tmp_path / "k1.npz"
    path.write_bytes(path.read_bytes()[:50])
    assert cache.read_entry("k1", "demo", tmp_path) is None
    assert "k1.npz ignored" in capsys.readouterr().err
    np.savez(tmp_path / "k2.npz", v=np.arange(3.0))
    assert cache.read_entry("k2", "demo", tmp_path) is None
    assert "foreign" in capsys.readouterr().err


def test_changed_value_fails_checksum(tmp_path, capsys):
    cache.write_entry("k1", "demo", {}, {"v": np.arange(4.0)}, tmp_path)
    with np.load(tmp_path / "k1.npz") as archive:
        data = dict(archive)
    data["v"] = data["v"] + 1
    np.savez(tmp_path / "k1.npz", **data)
    assert cache.read_entry("k1", "demo", tmp_path) is None
    assert "checksum" in capsys.readouterr().err


def test_oldest_dropped_first_and_clear(tmp_path):
    big = {"v": np.zeros(1000)}
    for index, key in enumerate(["a", "b", "c"]):
        path = cache.write_entry(key, "demo", {}, big, tmp_path)
        os.utime(path, (1000 + index, 1000 + index))
    size = (tmp_path / "a.npz").stat().st_size
    cache.write_entry("d", "demo", {}, big, tmp_path, max_bytes=2 * size)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.npz", "d.npz"]
    assert cache.clear(tmp_path) == 2
    assert cache.list_entries(tmp_path) == []


def test_an_entry_larger_than_the_bound_alone_is_not_kept_and_prunes_nothing(tmp_path):
    small = cache.write_entry("a", "demo", {}, {"v": np.zeros(10)}, tmp_path)
    with pytest.raises(cache.TooLarge) as caught:
        cache.write_entry("b", "demo", {}, {"v": np.zeros(100_000)}, tmp_path,
                          max_bytes=500_000)
    assert caught.value.size > 800_000 and caught.value.max_bytes == 500_000
    assert list(tmp_path.iterdir()) == [small]  # no temp file left, nothing pruned


def test_an_entry_written_array_by_array_is_kept_only_once_committed(tmp_path):
    with cache.EntryWriter("k1", "demo", tmp_path) as writer:
        writer.add("b", np.arange(3.0))
        writer.add("a", np.array([1 / 3]))
        (temp,) = tmp_path.iterdir()  # a temp file until committed
        assert temp.name.startswith(cache.TEMP_PREFIX)
        assert cache.read_entry("k1", "demo", tmp_path) is None
        path = writer.commit({"n": 2})
    meta, arrays = cache.read_entry("k1", "demo", tmp_path)
    assert meta == {"n": 2} and sorted(arrays.names) == ["a", "b"]
    assert arrays["a"].tobytes() == np.array([1 / 3]).tobytes()
    assert list(tmp_path.iterdir()) == [path]
    with pytest.raises(ValueError, match="committed or given up"):
        writer.add("c", np.zeros(2))


def test_an_entry_given_up_leaves_nothing_and_refuses_more(tmp_path):
    kept = cache.write_entry("k0", "demo", {}, {"v": np.zeros(4)}, tmp_path)
    with cache.EntryWriter("k1", "demo", tmp_path) as writer:
        writer.add("v", np.zeros(4))
        with pytest.raises(ValueError, match="reserved or repeated"):
            writer.add("v", np.zeros(4))
    assert list(tmp_path.iterdir()) == [kept]  # left uncommitted: removed
    assert not writer.open
    with pytest.raises(ValueError):
        writer.commit({})


def test_an_entry_past_the_bound_is_given_up_as_soon_as_it_is(tmp_path):
    writer = cache.EntryWriter("k1", "demo", tmp_path, max_bytes=100_000)
    writer.add("small", np.zeros(10))
    with pytest.raises(cache.TooLarge) as caught:
        writer.add("big", np.zeros(20_000))
    assert caught.value.size > 160_000 and caught.value.max_bytes == 100_000
    assert list(tmp_path.iterdir()) == [] and not writer.open
