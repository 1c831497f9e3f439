"""The solved case kept on disk (``store``): exact round trips, one entry per case read by
any state of it, damaged entries ignored with one warning and solved again, a folder
that cannot be written never stopping the solve, and one solve for a self-play run.

Every solve here starts late in a case of the shipped a001 (turn 10, the Villain known:
a twentieth of a second) but one, marked slow: the fresh case."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from deduce.core import cache
from deduce.models.detective_story import advice as A
from deduce.models.detective_story import packed, store
from deduce.models.detective_story.dp.memo import Memo
from deduce.models.detective_story.dp.modes import flags_of
from tests.detective_story.conftest import fresh, load_case
from tests.detective_story.solves import (
    chunks_read,
    count_solves,
    flip_in_array,
    solves,
    without_array,
)

LATE = dict(turn=10, villain="c201", clue_found=True, sm=1, luck=2)


@pytest.fixture
def folder(private_cache_folder):
    return private_cache_folder


@pytest.fixture
def log(tmp_path, monkeypatch):
    """Solves counted in a file; the process's shared solvers forgotten before and after
    (each command of a test stands for a new process)."""
    A.SOLVERS.clear()
    path = tmp_path / "solves.log"
    count_solves(monkeypatch, path)
    yield path
    A.SOLVERS.clear()


def late(shipped, **changes):
    return fresh(shipped, "a001", **{**LATE, **changes})


def stores_equal(one: Memo, other: Memo) -> bool:
    """Same keys in every kept store and, for each, the same values bit for bit (NaN where
    NaN)."""
    for name in packed.STORES:
        a, b = getattr(one, name), getattr(other, name)
        if a.keys() != b.keys():
            return False
        for k in a:
            pa = a[k] if isinstance(a[k], tuple) else (a[k],)
            pb = b[k] if isinstance(b[k], tuple) else (b[k],)
            if len(pa) != len(pb) or not all(  # ``memo.Rows``: as the array it stands for
                    np.asarray(x).shape == np.asarray(y).shape
                    and np.asarray(x, dtype=np.float64).tobytes() == np.asarray(y).tobytes()
                    for x, y in zip(pa, pb)):
                return False
    return True


def _values(arrays: dict) -> int:
    """The values an entry holds (its index's count)."""
    return int(arrays["index"][:, 4].sum())


def test_pack_and_unpack_keep_every_key_and_value_exactly_unknown_cells_free(shipped):
    from deduce.models.detective_story.dp.grid import L, S
    from deduce.models.detective_story.dp.memo import Rows

    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    solver.prepare(cf.case, whole=True)
    memo = solver.memo
    assert {name: len(getattr(memo, name)) > 0 for name in packed.STORES} == dict.fromkeys(
        packed.STORES, True)
    assert {type(v) for v in memo.start.values()} == {Rows}  # compact: reached SM only
    dense = dict(packed.pack(memo))
    k = max(memo.start, key=lambda k: np.isfinite(np.asarray(memo.start[k])).sum())
    holed = np.asarray(memo.start[k]).reshape(S, L)
    known_sm = np.isfinite(holed).any(axis=1)
    top = int(np.nonzero(known_sm)[0].max())
    assert known_sm.sum() >= 2
    holed[top] = np.nan  # an SM a reachable-only DP did not reach
    memo.start[k] = holed.reshape(-1)
    arrays = dict(packed.pack(memo))
    assert _values(arrays) == _values(dense) - L
    back = Memo()
    read = packed.unpack(back, arrays)
    assert read == _values(arrays)
    assert stores_equal(memo, back)
    assert np.isnan(np.asarray(back.start[k]).reshape(S, L)[top]).all()
    assert {type(key[1]).__name__ for key in back.start} == {"Case"}


def _value(draw_rows, nan_cells, seed):
    from deduce.models.detective_story.dp.grid import SL

    rng = np.random.default_rng(seed)
    a = rng.random(draw_rows * SL if draw_rows else SL)
    a[rng.random(a.size) < nan_cells] = np.nan
    return a.reshape(draw_rows, SL) if draw_rows else a


values = st.builds(_value, st.integers(1, 3), st.sampled_from([0.0, 0.5, 0.99, 1.0]),
                   st.integers(0, 10 ** 6))


@given(st.lists(st.tuples(st.integers(1, 12), st.text("abc", max_size=2), values),
                max_size=12, unique_by=lambda x: x[:2]),
       st.lists(st.tuples(st.integers(1, 12), values, values), max_size=6,
                unique_by=lambda x: x[0]),
       st.sampled_from([1, 7, packed.CHUNK_SLOTS]))
def test_pack_and_unpack_round_trip_any_values_and_nan_patterns(plain, pairs, chunk):
    from deduce.models.detective_story.dp.grid import L, S
    from deduce.models.detective_story.state import Case

    memo = Memo()
    for t, name, v in plain:
        memo.start[(t, Case(t, 0, 0, villain=name or None))] = v[0]
        memo.action[(t, Case(0, 0, 0), name)] = v
    for t, v, w in pairs:
        memo.encounter_all[(t, Case(0, 0, 0, blocked=frozenset({"x", str(t)})))] = (v, w[:1])

    def slots(x):  # each row from its first to its last SM with a finite cell
        known = np.isfinite(np.asarray(x).reshape(-1, S, L)).any(axis=2)
        return sum(int(S - r.argmax() - r[::-1].argmax()) for r in known if r.any())

    want = L * sum(slots(x) for name in packed.STORES for value in getattr(memo, name).values()
                   for x in (value if isinstance(value, tuple) else (value,)))
    old = packed.CHUNK_SLOTS
    packed.CHUNK_SLOTS = chunk
    try:
        arrays = dict(packed.pack(memo))
    finally:
        packed.CHUNK_SLOTS = old
    assert _values(arrays) == want
    widths = [a for n, a in arrays.items() if n.split(".")[-1].startswith("w")]
    assert all(len(w) <= max(chunk, 3 * S) for w in widths)  # a larger piece: on its own
    assert sum(len(a) for n, a in arrays.items() if n.split(".")[-1].startswith("c")) == sum(
        int(w.sum(dtype=np.int64)) for w in widths)
    back = Memo()
    assert packed.unpack(back, arrays) == want
    assert stores_equal(memo, back)


def _brute_width(row) -> int:
    """The Luck columns a slot needs: up to the last whose bits differ from the next's."""
    bits = [x.tobytes() for x in row]
    return max([j + 2 for j in range(len(bits) - 1) if bits[j] != bits[j + 1]], default=1)


@given(st.lists(st.lists(st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, float("nan")]),
                         min_size=17, max_size=17), max_size=20))
def test_trim_keeps_each_slot_up_to_its_last_change_and_untrim_restores_the_bits(rows):
    from deduce.models.detective_story.dp.grid import L

    assert L == 17
    block = np.array(rows, dtype=np.float64).reshape(-1, L)
    values, widths = packed.trim(block)
    assert widths.dtype == np.uint8 and values.dtype == np.float64
    assert widths.tolist() == [_brute_width(r) for r in block]
    assert len(values) == int(widths.sum(dtype=np.int64))
    back = packed.untrim(values, widths)
    assert back.shape == block.shape and back.tobytes() == block.tobytes()
    for w in (1, 2, 11):  # a late turn's block, on its Luck columns: as if widened to L
        from deduce.models.detective_story.dp.grid import luck_columns

        narrow, wide = packed.trim(block[:, :w]), packed.trim(luck_columns(block[:, :w], L))
        assert narrow[0].tobytes() == wide[0].tobytes()
        assert narrow[1].tolist() == wide[1].tolist()


def test_untrim_refuses_values_and_widths_that_do_not_fit():
    from deduce.models.detective_story.dp.grid import L

    block = np.tile(np.arange(L, dtype=np.float64), (3, 1))
    block[1, 5:] = 7.0  # this slot needs its first 6 columns
    block[2] = 0.5  # this one a single column
    values, widths = packed.trim(block)
    assert widths.tolist() == [L, 6, 1] and len(values) == L + 7
    for bad in ((values[:-1], widths), (values, widths.astype(np.int16)),
                (values, np.array([L + 1, 5, 1], dtype=np.uint8)),
                (values, np.array([0, L + 6, 1], dtype=np.uint8)),
                (values.astype(np.float32), widths), (values.reshape(-1, 1), widths)):
        with pytest.raises(ValueError):
            packed.untrim(*bad)


def test_unpack_refuses_a_bad_index_or_key_table_and_puts_nothing(shipped):
    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    solver.prepare(cf.case, whole=True)
    good = dict(packed.pack(solver.memo))
    index = good["index"].copy()
    index[0, 0] = 7
    broken = [{k: v for k, v in good.items() if k != "index"},
              dict(good, index=index),
              dict(good, index=good["index"].astype(np.int32)),
              dict(good, atoms=good["atoms"][:-1]),
              dict(good, **{"atoms.at": good["atoms.at"][::-1].copy()}),
              {k: v for k, v in good.items() if k != "atoms.at"}]
    for arrays in broken:
        memo = Memo()
        with pytest.raises(ValueError):
            packed.unpack(memo, arrays)
        assert (len(memo.start), len(memo.action), len(memo.encounter_all)) == (0, 0, 0)


def test_a_bad_table_read_later_drops_the_entry_with_one_warning(shipped, capsys):
    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    solver.prepare(cf.case, whole=True)
    good = dict(packed.pack(solver.memo))
    t = cf.case.turn + 1
    rows = good[f"start.{t}.rows"].copy()
    rows[0] = (20, 10)  # SM 20 to 29: past the grid
    def with_atoms(*texts):  # atoms added at the end of the table, the first key's mode
        at = list(good["atoms.at"])
        for x in texts:
            at.append(at[-1] + len(x))
        keys = good[f"action.{t}.keys"].copy()
        keys[0, 1] = len(at) - 2
        return {"atoms": np.frombuffer(bytes(good["atoms"]) + b"".join(texts), dtype=np.uint8),
                "atoms.at": np.array(at, dtype=np.int64), f"action.{t}.keys": keys}

    for bad in ({f"start.{t}.rows": rows},
                {f"start.{t}.parts": good[f"start.{t}.parts"][:-1]},
                {f"start.{t}.c0": good[f"start.{t}.c0"][:-1]},
                {f"start.{t}.w0": good[f"start.{t}.w0"][:-1]},
                with_atoms(b'{"n":"Case","a":[999999]}'),  # a field past the table
                with_atoms(b'{"n":"Exec","v":[]}'),  # not a key type
                with_atoms(b"[" * 100_000 + b"]" * 100_000),  # nested too deep
                with_atoms(b'{"t":[1,')):  # not JSON
        memo = Memo()
        assert packed.unpack(memo, dict(good, **bad)) == _values(good)
        capsys.readouterr()
        first = next(k for k in solver.memo.start if k[0] == t - 1)
        assert memo.start.get(first) is not None  # read before the damage is met
        assert capsys.readouterr().err == ""
        values = list(memo.start.values()) + list(memo.action.values())
        err = capsys.readouterr().err
        assert err.count("warning:") == 1 and "not a packed memo" in err, (bad.keys(), err)
        assert 0 < len(values) < len(solver.memo.start) + len(solver.memo.action)
        for name in ("start", "action"):  # what was read before the damage: exact
            for k, v in getattr(memo, name).items():
                want = np.asarray(getattr(solver.memo, name)[k])
                assert np.asarray(v).tobytes() == want.tobytes()


def turns_held(memo) -> set:
    """The turns ``memo``'s kept stores hold values of."""
    return {k[0] for name in packed.STORES for k in getattr(memo, name)}


def test_a_second_solver_reads_the_entry_and_answers_exactly_as_solving(shipped, folder, log):
    """The entry written as the solve goes holds the whole case exactly (a whole solve's
    memo bit for bit), while the solver that wrote it kept in memory only the two turns
    ``advise`` reads; a second solver answers from the entry as solving does."""
    cf = late(shipped)
    first = A.Solver(cf.ctx)
    assert store.prepare(first, cf.case) == store.SOLVED
    assert solves(log) == 1
    assert [p.name for p in folder.iterdir()] == [f"{store.case_key(cf.ctx)}.npz"]
    assert turns_held(first.memo) == {cf.case.turn, cf.case.turn + 1}
    whole = A.Solver(cf.ctx)  # no cache: every turn kept in memory
    assert store.prepare(whole, cf.case, use_cache=False, whole=True) == store.SOLVED
    assert turns_held(whole.memo) == {10, 11, 12}
    plain = A.Solver(cf.ctx)  # no cache: the two turns advise keeps
    assert store.prepare(plain, cf.case, use_cache=False) == store.SOLVED
    assert solves(log) == 3
    read = A.Solver(cf.ctx)
    assert store.prepare(read, cf.case) == store.CACHED
    assert solves(log) == 3
    assert stores_equal(whole.memo, read.memo)
    got, want = A.advise(cf.ctx, cf.case, solver=read), A.advise(cf.ctx, cf.case, solver=plain)
    assert got.best == want.best and [a for a, _ in got.actions] == [a for a, _ in want.actions]
    assert got.p_win == pytest.approx(want.p_win, abs=1e-15, rel=0)
    for (_, p), (_, q) in zip(got.actions, want.actions):
        assert p == pytest.approx(q, abs=1e-15, rel=0)
    for roll in (3, 7, 11):
        r1 = A.reroll_advice(cf.ctx, cf.case, "Investigate", roll, solver=read)
        r2 = A.reroll_advice(cf.ctx, cf.case, "Investigate", roll, solver=plain)
        assert (r1.p_keep, r1.p_reroll) == pytest.approx((r2.p_keep, r2.p_reroll), abs=1e-15)
    for waited in (False, True):  # after the Action: the Encounter phase, read too
        assert read.after_action(cf.case, waited) == pytest.approx(
            plain.after_action(cf.case, waited), abs=1e-15, rel=0)
    assert solves(log) == 3


def test_later_states_of_the_case_read_the_entry_and_others_are_merged_in(shipped, log):
    cf = late(shipped)
    store.prepare(A.Solver(cf.ctx), cf.case)
    assert solves(log) == 1
    for changes in (dict(turn=11), dict(turn=12)):  # reached by Wait and a quiet Encounter
        later = late(shipped, **changes)
        assert later.ctx is not cf.ctx  # a new process's own load of the record
        assert store.prepare(A.Solver(later.ctx), later.case) == store.CACHED
    encounter = late(shipped, phase="encounter", waited=True)
    assert store.prepare(A.Solver(encounter.ctx), encounter.case, "encounter", True) \
        == store.CACHED
    assert solves(log) == 1
    other = late(shipped, villain="c202")  # not reachable from the first state
    assert store.prepare(A.Solver(other.ctx), other.case) == store.SOLVED
    assert solves(log) == 2
    both = A.Solver(cf.ctx)
    assert store.prepare(both, cf.case) == store.CACHED
    assert store.prepare(both, other.case) == store.MEMORY
    assert solves(log) == 2


def test_the_key_is_the_case_not_where_its_files_are(shipped, tmp_path):
    from deduce.models.detective_story.data import load_campaign
    from deduce.puzzles import puzzle_path

    copy = shutil.copytree(puzzle_path("detective_story"), tmp_path / "campaign")
    cf = late(shipped)
    assert store.case_key(late(load_campaign(copy)).ctx) == store.case_key(cf.ctx)
    assert store.case_key(late(shipped, turn=12, sm=5).ctx) == store.case_key(cf.ctx)
    (copy / "adventures.toml").write_text(
        (copy / "adventures.toml").read_text(encoding="utf-8").replace(
            "The Lamplighter's Ledger", "The Lamplighter's Book"), encoding="utf-8")
    assert store.case_key(late(load_campaign(copy)).ctx) != store.case_key(cf.ctx)
    assert store.case_key(late(shipped, ruled_out=["c202"]).ctx) != store.case_key(cf.ctx)
    assert store.case_key(late(shipped, first_case=False).ctx) != store.case_key(cf.ctx)


def _read_first(path, cf) -> str:
    """The first chunk a new solver reads from the entry at ``cf``'s state."""
    probe = A.Solver(cf.ctx)
    assert store.load(probe) and store.covered(probe, cf.case)
    name = chunks_read(probe)[0]
    probe.memo.start._source.arrays.close()
    return name


def _damage_by_flipping(path, cf):
    flip_in_array(path, _read_first(path, cf))


def _damage_by_removing_a_chunk(path, cf):
    without_array(path, _read_first(path, cf))


def _damage_by_truncating(path, cf):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _rewritten(path, change):
    with np.load(path) as archive:
        arrays = {k: archive[k] for k in archive.files if k != cache.HEADER_ARRAY}
    return change(arrays)


def _damage_by_foreign_kind(path, cf):
    arrays = _rewritten(path, lambda a: a)
    cache.write_entry(path.stem, "another-game/thing", {}, arrays, path.parent)


def _damage_by_bad_tables(path, cf):
    arrays = _rewritten(path, lambda a: a)
    rows = arrays[f"start.{cf.case.turn}.rows"].copy()
    rows[:, 1] = 30  # more SM values than the grid has
    arrays[f"start.{cf.case.turn}.rows"] = rows
    cache.write_entry(path.stem, store.KIND, {"game": store.GAME}, arrays, path.parent)


@pytest.mark.parametrize("damage, reason", [
    (_damage_by_flipping, "damaged (corrupt)"),
    (_damage_by_removing_a_chunk, "missing (corrupt)"),
    (_damage_by_truncating, "not a readable cache entry"),
    (_damage_by_foreign_kind, "another key or kind"), (_damage_by_bad_tables, "not a packed memo")])
def test_a_damaged_entry_is_ignored_with_one_warning_then_solved_and_rewritten(
        shipped, folder, log, capsys, damage, reason):
    cf = late(shipped)
    store.prepare(A.Solver(cf.ctx), cf.case)
    path = folder / f"{store.case_key(cf.ctx)}.npz"
    damage(path, cf)
    capsys.readouterr()
    solver = A.Solver(cf.ctx)
    assert store.prepare(solver, cf.case) == store.SOLVED
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and reason in err and str(path) in err, err
    assert "Traceback" not in err
    assert solves(log) == 2
    assert store.prepare(A.Solver(cf.ctx), cf.case) == store.CACHED  # rewritten, whole
    assert capsys.readouterr().err == ""


def test_a_damaged_chunk_read_later_drops_the_entry_and_is_never_trusted(
        shipped, folder, log, capsys):
    """The state asked reads its own chunks; a chunk read later (a bot playing the case
    on) found damaged: one warning, the entry removed, the values not read yet forgotten,
    the answers still exact (solved again)."""
    cf = late(shipped)
    store.prepare(A.Solver(cf.ctx), cf.case)
    solved = A.Solver(cf.ctx)  # what the entry holds, in memory
    store.prepare(solved, cf.case, use_cache=False, whole=True)
    path = folder / f"{store.case_key(cf.ctx)}.npz"
    first = _read_first(path, cf)
    with np.load(path) as archive:
        later = sorted(n for n in archive.files if n.startswith(f"start.{cf.case.turn + 2}.c"))
    assert later and first not in later
    flip_in_array(path, later[-1])
    capsys.readouterr()
    solver = A.Solver(cf.ctx)
    assert store.prepare(solver, cf.case) == store.CACHED
    assert capsys.readouterr().err == ""
    got = {k: solver.memo.start.get(k) for k in list(solved.memo.start)}
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and "damaged (corrupt)" in err and str(path) in err, err
    assert not path.exists()
    assert later[-1] not in chunks_read(solver)
    assert 0 < sum(v is not None for v in got.values()) < len(got)
    for k, v in got.items():  # what was read before is exact, the rest unknown
        want = np.asarray(solved.memo.start[k])
        assert v is None or np.asarray(v).tobytes() == want.tobytes()
    t, key = cf.case.turn + 2, solver.modes.key(cf.case)
    assert solver.recursion.start_value(t, key, flags_of(cf.case), 3, 2) == pytest.approx(
        solved.recursion.start_value(t, key, flags_of(cf.case), 3, 2), abs=1e-12)


def test_a_folder_that_cannot_be_written_warns_once_and_the_solve_goes_on(
        shipped, tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker / "cache"))
    monkeypatch.setattr(store, "_warned", set())
    cf = late(shipped)
    for _ in range(2):
        solver = A.Solver(cf.ctx)
        assert store.prepare(solver, cf.case) == store.SOLVED
        assert A.advise(cf.ctx, cf.case, solver=solver).best is not None
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and "cannot write the solved case" in err, err


def test_a_full_disk_leaves_no_file_behind(shipped, folder, monkeypatch, capsys):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache, "_write_member", full)
    monkeypatch.setattr(store, "_warned", set())
    cf = late(shipped)
    assert store.prepare(A.Solver(cf.ctx), cf.case) == store.SOLVED
    assert "No space left on device" in capsys.readouterr().err
    assert list(folder.iterdir()) == []


def test_a_disk_full_midway_leaves_no_file_and_the_answers_exact(shipped, folder, monkeypatch,
                                                                  capsys):
    """The entry is written as the solve goes: a write failing after some turns were
    written gives the entry up (no file left), warns once, and the solve goes on to the
    same answers as without the cache."""
    written = []
    real = cache._write_member

    def fills_up(archive, name, array):
        written.append(name)
        if len(written) > 12:
            raise OSError(28, "No space left on device")
        real(archive, name, array)

    monkeypatch.setattr(cache, "_write_member", fills_up)
    monkeypatch.setattr(store, "_warned", set())
    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    assert store.prepare(solver, cf.case) == store.SOLVED
    assert len(written) == 13 and written[0].startswith("start.12.")  # turn 12 first
    err = capsys.readouterr().err
    assert err.count("warning:") == 1 and "No space left on device" in err
    assert list(folder.iterdir()) == []
    plain = A.Solver(cf.ctx)
    store.prepare(plain, cf.case, use_cache=False)
    got = A.advise(cf.ctx, cf.case, solver=solver)
    want = A.advise(cf.ctx, cf.case, solver=plain)
    assert got.actions == want.actions and got.p_win == want.p_win


def test_an_entry_past_the_bound_is_given_up_at_once_and_the_solve_goes_on(
        shipped, folder, monkeypatch, capsys):
    monkeypatch.setattr(store, "_warned", set())
    packed_turns = []
    turn = packed.Packer.turn
    monkeypatch.setattr(packed.Packer, "turn",
                        lambda self, t, stores: packed_turns.append(t) or turn(self, t, stores))
    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    assert store.solve_writing(solver, cf.case, max_bytes=30_000) is None
    assert packed_turns == [12]  # not one turn packed after the entry was given up
    assert "larger than the cache's bound" in capsys.readouterr().err
    assert list(folder.iterdir()) == []
    assert turns_held(solver.memo) == {10, 11}
    plain = A.Solver(cf.ctx)
    store.prepare(plain, cf.case, use_cache=False)
    assert A.advise(cf.ctx, cf.case, solver=solver).actions == \
        A.advise(cf.ctx, cf.case, solver=plain).actions
    assert store.solve_writing(plain, cf.case) is None  # nothing left to solve: no entry
    assert list(folder.iterdir()) == []


def test_no_cache_neither_reads_nor_writes(shipped, folder, log):
    cf = late(shipped)
    assert store.prepare(A.Solver(cf.ctx), cf.case, use_cache=False) == store.SOLVED
    assert list(folder.iterdir()) == []
    store.prepare(A.Solver(cf.ctx), cf.case)
    (path,) = folder.iterdir()
    os.utime(path, (1000, 1000))
    before = path.read_bytes()
    assert store.prepare(A.Solver(cf.ctx), cf.case, use_cache=False) == store.SOLVED
    assert solves(log) == 3
    assert path.stat().st_mtime == 1000 and path.read_bytes() == before


def test_optimal_selfplay_from_a_record_solves_once_for_every_worker(shipped, tmp_path, log):
    from deduce.core.selfplay import Match, run
    from deduce.models.detective_story.selfplay import GAME, CaseSpec, play_one, story_setup

    record = json.loads(json.dumps(late(shipped).record))
    setup = story_setup(record, cache=True)
    first = run(GAME, Match(8, 3, ("optimal",), 1, workers=2, setup=setup))
    assert solves(log) == 1  # in this process, before the two forked workers started
    A.SOLVERS.clear()
    again = run(GAME, Match(8, 3, ("optimal",), 1, workers=2, setup=setup))
    assert solves(log) == 1  # read from the cache
    assert again.summary.figures["outcomes"] == first.summary.figures["outcomes"]
    A.SOLVERS.clear()  # a worker started by spawn: nothing inherited, the entry read
    play_one(CaseSpec(record, None, "optimal", 5, None, True))
    assert solves(log) == 1


@pytest.mark.slow
def test_a_case_solved_once_is_read_back_for_any_later_state(shipped, log):
    """A case whose Villain is not known yet (turn 9: what a fresh case solves, eight
    turns fewer), solved once: its entry answers the advice exactly, and a later state of
    the case is read from it, not solved."""
    cf = fresh(shipped, "a001", seed=1, turn=9)
    solver = A.Solver(cf.ctx)
    assert store.prepare(solver, cf.case) == store.SOLVED
    want = A.advise(cf.ctx, cf.case, solver=solver)
    read = A.Solver(cf.ctx)
    assert store.prepare(read, cf.case) == store.CACHED
    got = A.advise(cf.ctx, cf.case, solver=read)
    assert (got.best, got.actions, got.p_win) == (want.best, want.actions, want.p_win)
    later = load_case(shipped, {**cf.record, "turn": 11, "sm": 2, "luck": 3})
    assert store.prepare(A.Solver(later.ctx), later.case) == store.CACHED
    assert solves(log) == 1
    assert turns_held(solver.memo) == {9, 10}
    whole = A.Solver(cf.ctx)  # the entry holds the whole case, bit for bit
    store.prepare(whole, cf.case, use_cache=False, whole=True)
    assert stores_equal(whole.memo, read.memo)


def test_an_entry_larger_than_the_bound_is_not_kept(shipped, folder, monkeypatch, capsys):
    from deduce.models.detective_story.dp.grid import L

    monkeypatch.setattr(store, "_warned", set())
    solver = A.Solver(late(shipped).ctx)
    store.prepare(solver, late(shipped).case, use_cache=False, whole=True)
    arrays = dict(packed.pack(solver.memo))
    full = packed.packed_size(solver.memo)  # every slot at every Luck
    slots = sum(len(a) for n, a in arrays.items() if ".w" in n)
    assert full == 8 * L * slots
    values = sum(a.nbytes for n, a in arrays.items() if ".c" in n)
    assert full // L <= values < 0.9 * full  # trimmed: late turns' Luck columns repeat
    other = cache.write_entry("0" * 64, store.KIND, {"game": store.GAME}, {"v": np.zeros(8)},
                              folder)
    for bound, packs in ((full // L - 1, 0), (values - 1, 1)):  # refused before, or once written
        made = []
        monkeypatch.setattr(store, "pack", lambda memo: made.append(1) or packed.pack(memo))
        assert store.save(solver, max_bytes=bound) is None
        assert len(made) == packs
        assert "larger than the cache's bound" in capsys.readouterr().err
        assert list(folder.iterdir()) == [other]  # nothing written, nothing pruned for it
        monkeypatch.setattr(store, "_warned", set())
    size = sum(a.nbytes for a in arrays.values())
    path = store.save(solver, max_bytes=size + other.stat().st_size + 100_000)
    assert path.parent == folder and path.stat().st_size < size + 100_000
    assert sorted(folder.iterdir()) == sorted([other, path])


def test_an_empty_memo_packs_and_unpacks_to_nothing():
    back = Memo()
    assert packed.unpack(back, dict(packed.pack(Memo()))) == 0
    assert stores_equal(Memo(), back)


def test_reading_into_a_memo_keeps_what_it_knows_and_fills_its_unknown_cells():
    from deduce.models.detective_story.dp.grid import SL
    from deduce.models.detective_story.state import Case

    k = (3, Case(3, 0, 0))
    held = np.full(SL, np.nan)
    held[[0, 3]] = 0.25, 0.5
    value = np.full(SL, np.nan)
    value[[0, 1, 3]] = 0.75, 0.125, 0.0
    written = Memo()
    written.start[k] = value
    written.start[(4, Case(4, 0, 0))] = np.arange(float(SL))
    memo = Memo()
    memo.start[k] = held
    packed.unpack(memo, dict(packed.pack(written)))
    got = np.asarray(memo.start[k])
    assert got[0] == 0.25 and got[1] == 0.125 and np.isnan(got[2]) and got[3] == 0.5
    assert np.isnan(got[4:]).all()
    assert np.asarray(memo.start[(4, Case(4, 0, 0))]).tolist() == list(range(SL))


def test_a_key_asked_is_looked_up_without_decoding_its_turn(shipped):
    """A point lookup encodes the asked key (its turn's keys stay undecoded); a key the
    entry lacks is not in it; a write to a turn not decoded yet survives its decoding."""
    from deduce.models.detective_story.state import Case

    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    solver.prepare(cf.case, whole=True)
    memo = Memo()
    packed.unpack(memo, dict(packed.pack(solver.memo)))
    n = len(solver.memo.start)
    assert len(memo.start) == n
    k = next(k for k in solver.memo.start if k[0] == 11)
    assert k in memo.start and memo.start._pending == {10, 11, 12}  # nothing decoded
    assert np.asarray(memo.start[k]).tobytes() == np.asarray(solver.memo.start[k]).tobytes()
    other = (11, k[1]._replace(villain="nobody"))
    assert other not in memo.start and memo.start.get(other) is None
    assert (13, k[1]) not in memo.start and ("x",) not in memo.start
    mine = next(k for k in solver.memo.start if k[0] == 12)
    memo.start[mine] = "written"
    memo.start[(12, Case(12, 0, 0))] = "new"
    assert len(memo.start) == n + 1
    assert set(memo.start) == set(solver.memo.start) | {(12, Case(12, 0, 0))}  # decoded
    assert memo.start[mine] == "written" and memo.start[(12, Case(12, 0, 0))] == "new"
    assert np.asarray(memo.start[k]).tobytes() == np.asarray(solver.memo.start[k]).tobytes()


def test_an_entry_read_twice_into_one_memo_reads_the_same(shipped):
    cf = late(shipped)
    solver = A.Solver(cf.ctx)
    solver.prepare(cf.case, whole=True)
    arrays = dict(packed.pack(solver.memo))
    memo = Memo()
    packed.unpack(memo, arrays)
    k = next(iter(solver.memo.start))
    memo.start[k]  # one value read from the first entry, the others not yet
    assert set(memo.start) == set(solver.memo.start)  # their keys decoded
    packed.unpack(memo, arrays)
    assert stores_equal(solver.memo, memo)
