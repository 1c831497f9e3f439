"""The reachable-only sweep (``dp.sweep``) against its referees: the dense sweep
(``dp.dense``, every cell) and the plain recursion; its SM bands (``dp.cells``); the
memo's NaN contract (a cell not reached is valued by the recursion) and its
``export``/``load`` round trip."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.advice import Solver, advise
from deduce.models.detective_story.bots import make_policy
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.dp import solver as dp_solver
from deduce.models.detective_story.dp import sweep as sweep_module
from deduce.models.detective_story.dp.cells import Band, nonzero_bounds, sm_of_moves
from deduce.models.detective_story.dp.compact import _by_count, luck_saturation
from deduce.models.detective_story.dp.dense import DenseSweep
from deduce.models.detective_story.dp.grid import L, S, Lin, MoveTable, actual, luck_columns
from deduce.models.detective_story.dp.modes import flags_of, with_flags
from deduce.models.detective_story.worlds import Sampler

from .conftest import fresh


@pytest.fixture(scope="module")
def tiny(tiny_session_dir):
    return load_campaign(tiny_session_dir)


def dense_solver(ctx):
    return dp_solver.Solver(ctx, sweep=DenseSweep())


class Counting:
    """A sweep that counts its runs."""

    def __init__(self, sweep):
        self.sweep, self.runs, self.partial = sweep, 0, sweep.partial

    def run(self, *args, **kwargs):
        self.runs += 1
        return self.sweep.run(*args, **kwargs)


# -- the bands
def test_band_lays_out_slots_row_by_row():
    b = Band(3)
    b.grow(np.array([0, 2, 0]), np.array([4, 1, 2]), np.array([5, 1, 3]))
    b.lay_out()
    assert (b.lo.tolist(), b.hi.tolist()) == ([2, S, 1], [5, -1, 1])
    assert b.n == 5 and b.start.tolist() == [0, 4, 4, 5] and b.sm.tolist() == [2, 3, 4, 5, 1]
    assert b.sm.dtype == np.int8
    i, p = b.expand(np.array([2, 0, 1]))
    assert i.tolist() == [0, 1, 1, 1, 1] and p.tolist() == [4, 0, 1, 2, 3]
    pos = b.pos()
    assert pos[0 * S + 3] == 1 and pos[2 * S + 1] == 4 and pos[1 * S + 0] == -1
    vals = np.arange(5 * L, dtype=float).reshape(5, L)
    d = b.dense(vals).reshape(3, S, L)
    assert np.array_equal(d[0, 2:6], vals[:4]) and np.array_equal(d[2, 1], vals[4])
    assert np.isnan(d[1]).all() and np.isnan(d[0, :2]).all() and np.isnan(d[0, 6:]).all()
    assert np.array_equal(Band.of(b.state()).sm, b.sm)


def test_nonzero_bounds_brute_force():
    rng = np.random.default_rng(3)
    w = rng.integers(0, 2, (20, S)) * rng.random((20, S))
    nxt, prv = nonzero_bounds(w)
    for r in range(20):
        for s in range(S):
            assert nxt[r, s] == next((x for x in range(s, S) if w[r, x]), S)
            assert prv[r, s] == next((x for x in range(s, -1, -1) if w[r, x]), -1)


@given(a=st.integers(-30, 30), c=st.integers(0, 30), b=st.integers(-20, 20),
       d=st.integers(0, 20))
def test_moves_act_on_sm_and_luck_apart_and_keep_order(a, c, b, d):
    moves = MoveTable()
    m = moves.id(Lin(a, c), Lin(b, d))
    sm, luck = sm_of_moves(moves.table)
    assert sm[m].tolist() == actual(Lin(a, c), S).tolist()
    assert luck[m].tolist() == actual(Lin(b, d), L).tolist()
    assert (np.diff(sm[m]) >= 0).all()  # an interval goes to an interval
    assert (moves.table[m] == (sm[m][:, None] * L + luck[m][None, :]).ravel()).all()


@given(moves=st.lists(st.tuples(st.integers(-20, 20), st.integers(0, 20)), min_size=1,
                      max_size=6), b=st.integers(0, L - 1))
def test_luck_saturation_brute_force(moves, b):
    table = MoveTable()
    ids = [table.id(Lin(0, 0), Lin(a, c)) for a, c in moves]
    luck = sm_of_moves(table.table)[1][ids]
    want = next((l0 for l0 in range(L) if (luck[:, l0:] >= b).all()), L - 1)
    assert luck_saturation(luck, b) == want
    # so values equal from Luck b on, read through these moves, are equal from want on
    f = np.r_[np.arange(b), np.full(L - b, b)].astype(float)
    read = f[luck]
    assert (read[:, want:] == read[:, -1:]).all()


@given(st.lists(st.integers(0, 9), max_size=40))
def test_rows_by_leaf_count_brute_force(entries):
    rows = np.array(sorted(entries), dtype=np.int64)
    groups = _by_count(rows, 10)
    seen = []
    for m, rs, first in groups:
        for r, f in zip(rs.tolist(), first.tolist()):
            assert entries.count(r) == m and rows[f:f + m].tolist() == [r] * m
            seen.append(r)
    assert sorted(seen) == sorted(set(entries))
    assert [m for m, _, _ in groups] == sorted({entries.count(r) for r in set(entries)})


def test_values_on_more_luck_columns_repeat_the_last_in_c_order():
    vals = np.arange(6, dtype=float).reshape(3, 2)
    wide = luck_columns(vals, 4)
    assert wide.tolist() == [[0, 1, 1, 1], [2, 3, 3, 3], [4, 5, 5, 5]]
    assert wide.flags.c_contiguous  # the batches read it flat (``CompactBatch.run``)


def test_rows_on_fewer_luck_columns_read_the_last_one_above_them():
    from deduce.models.detective_story.dp.memo import Rows, cell, merged

    vals = np.arange(6, dtype=float).reshape(3, 2)  # row 0: SM 3-4, row 1: SM 0
    narrow = Rows(np.array([3, 0], dtype=np.int8), np.array([0, 2, 3]), vals, 2)
    wide = Rows(narrow.lo, narrow.start, np.take(vals, np.minimum(np.arange(L), 1), axis=1), 2)
    assert narrow.values().shape == (3, L) and narrow.values().tobytes() == wide.values().tobytes()
    assert np.array_equal(np.asarray(narrow), np.asarray(wide), equal_nan=True)
    for row, sm, luck, want in ((0, 3, 0, 0.0), (0, 4, 1, 3.0), (0, 4, L - 1, 3.0),
                                (0, 4, L + 5, 3.0), (1, 0, 9, 5.0), (1, 1, 0, None), (2, 0, 0, None)):
        got = cell(narrow, row, sm, luck)
        assert got == want if want is not None else np.isnan(got)
    more = Rows(np.array([2, 0], dtype=np.int8), np.array([0, 1, 2]), np.full((2, L), 9.0), 2)
    both = merged(narrow, more)  # the new row 0 at SM 2 beside the old SM 3-4
    assert [cell(both, 0, sm, 7) for sm in (2, 3, 4)] == [9.0, 1.0, 3.0]


def test_a_late_turn_is_valued_on_the_luck_columns_it_needs(tiny, monkeypatch):
    widths = {}
    backward = sweep_module._backward

    def spy(atlas, plan, held):
        band, vals = backward(atlas, plan, held)
        widths[plan.chart.t] = vals.shape[1]
        return band, vals

    monkeypatch.setattr(sweep_module, "_backward", spy)
    seen = []
    widths_of = sweep_module._widths
    monkeypatch.setattr(sweep_module, "_widths", lambda *a: seen.append(widths_of(*a)) or seen[-1])
    cf = fresh(tiny, turn=9, villain="c201", sm=1, luck=2, clue_found=True)
    reach, dense = Solver(cf.ctx), dense_solver(cf.ctx)
    reach.prepare(cf.case)
    dense.prepare(cf.case)
    # turn 12 reads only whether a re-roll can be paid; each earlier turn more Luck
    assert widths[12] == 2 and widths[12] <= widths[11] <= widths[10] <= widths[9] <= L
    # turn 12's Encounter phases read values equal at every Luck: one column
    assert seen[0] == (1, 2) and all(e < w for e, w in seen if w < L)
    # kept on those columns (a Luck above them reads the last one)
    assert {v.block.shape[1] for (t, _), v in reach.memo.start.items() if t == 12} == {2}
    for (t, k), v in reach.memo.start.items():  # equal to the dense at every Luck
        v, w = np.asarray(v), dense.memo.start[(t, k)]
        ok = ~np.isnan(v)
        assert np.allclose(v[ok], w[ok], rtol=0, atol=1e-12), (t, k)


# -- the values
@pytest.mark.parametrize("turn, extra", [
    (8, {"villain": None, "clue_found": True, "sm": 0, "luck": 3}),
    (9, {"motive": 1, "sm": 2, "luck": 1, "bonus": {"action": "Investigate", "value": 1}}),
    (10, {"trapped": True}),
])
def test_reachable_sweep_equals_dense_sweep(tiny, turn, extra):
    cf = fresh(tiny, turn=turn, **{"villain": "c201", "sm": 1, "luck": 2, "clue_found": True,
                                   **extra})
    reach, dense = Solver(cf.ctx), dense_solver(cf.ctx)
    reach.prepare(cf.case)
    dense.prepare(cf.case)
    known = total = 0
    for store in ("start", "action"):
        a, b = getattr(reach.memo, store), getattr(dense.memo, store)
        assert set(a) <= set(b)
        for k, v in a.items():
            v = np.asarray(v)  # ``memo.Rows``: the array it stands for
            w = b[k][:len(v)] if v.ndim == 2 else b[k]
            ok = ~np.isnan(v)
            assert np.allclose(v[ok], w[ok], rtol=0, atol=1e-12), k
            known, total = known + ok.sum(), total + v.size
    assert 0 < known < total  # some cells skipped, the rest equal
    key, f = reach.modes.key(cf.case), flags_of(cf.case)
    assert reach.recursion.start_value(turn, key, f, cf.case.sm, cf.case.luck,
                                       fallback=False) == pytest.approx(dense.value(cf.case),
                                                                        abs=1e-12)
    assert reach.q_values(cf.case) == pytest.approx(dense.q_values(cf.case), abs=1e-12)


def test_reachable_sweep_on_every_cell_is_the_dense_sweep(tiny):
    cf = fresh(tiny, turn=10, villain="c201", motive=1, sm=1, luck=2)
    reach, dense = Solver(cf.ctx), dense_solver(cf.ctx)
    key = reach.modes.key(cf.case)
    reach.sweep.run(reach.recursion, [(key, flags_of(cf.case))], [], 10)  # cells None
    dense.prepare(cf.case)
    assert set(reach.memo.start) <= set(dense.memo.start)
    for k, v in reach.memo.start.items():  # rows reached through SM-dependent branches
        v = np.asarray(v)
        ok = ~np.isnan(v)  # only hold NaN at the SM values those never take
        assert ok.any() and np.allclose(v[ok], dense.memo.start[k][ok], rtol=0, atol=1e-12), k
    root = reach.memo.start[(10, reach.recursion.start_mode(with_flags(key, flags_of(cf.case))))]
    assert not np.isnan(np.asarray(root)).any()  # the roots: every SM and Luck


def test_a_cell_not_reached_is_valued_by_the_recursion(tiny):
    cf = fresh(tiny, turn=9, villain="c201", motive=1, sm=1, luck=2)
    solver, plain = Solver(cf.ctx), Solver(cf.ctx, batched=False)
    solver.prepare(cf.case)
    r, key, f = solver.recursion, solver.modes.key(cf.case), flags_of(cf.case)
    assert r.start_value(9, key, f, 1, 2, fallback=False) == pytest.approx(
        plain.value(cf.case), abs=1e-12)
    assert np.isnan(r.start_value(9, key, f, 6, 2, fallback=False))  # SM 6 is not reached
    other = cf.case._replace(sm=6)
    assert r.start_value(9, key, f, 6, 2) == pytest.approx(plain.value(other), abs=1e-12)
    assert r.fallback.encounter_calls > 0
    assert solver.value(other) == pytest.approx(plain.value(other), abs=1e-12)  # swept again


def _played(ctx, case, seed: int, turns: int):
    """The states at the start of each of the next ``turns`` turns of one greedy game."""
    rng, policy, out = random.Random(seed), make_policy("greedy"), []
    for _ in range(turns):
        if case.over:
            break
        w = Sampler(rng, policy, ctx)
        action = E.legal_actions(ctx, case)[0]
        waited = action == T.WAIT
        after = E.take_action(w, ctx, case, action, E.AFTER_ACTION[waited])
        if after.over:
            break
        out.append((after, waited))
        case = E.end_turn(E.encounter(w, ctx, after, waited, E.AFTER_TURN))
        if not case.over:
            out.append((case, None))
    return out


def test_a_loaded_memo_answers_as_the_solver_that_swept(tiny):
    """The whole case's memo packed as the cache keeps it (``packed.pack``) and put into a
    fresh solver (``packed.unpack``) answers every later state exactly as the solver that
    swept, without a sweep or the recursion's fallback."""
    from deduce.models.detective_story import packed

    cf = fresh(tiny, turn=8, villain="c201", motive=1, sm=1, luck=2)
    solved = Solver(cf.ctx)
    solved.prepare(cf.case)  # the whole case
    arrays = dict(packed.pack(solved.memo))
    loaded = Solver(cf.ctx)
    loaded.sweep = counting = Counting(loaded.sweep)
    packed.unpack(loaded.memo, {k: v.copy() for k, v in arrays.items()})
    states = [(cf.case, None)] + [s for seed in range(4) for s in _played(cf.ctx, cf.case, seed, 5)]
    assert len(states) > 10
    for case, waited in states:
        if waited is None:
            assert loaded.value(case) == solved.value(case)
            assert loaded.q_values(case) == solved.q_values(case)
            assert loaded.at(case) == solved.at(case)
        else:
            assert loaded.after_action(case, waited) == solved.after_action(case, waited)
            assert loaded.at(case, "encounter", waited) == solved.at(case, "encounter", waited)
    assert counting.runs == 0 and loaded.recursion.fallback.encounter_calls == 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn=st.integers(10, 12), sm=st.integers(0, 6), luck=st.integers(0, 4),
       villain=st.sampled_from([None, "c201"]),
       flag=st.sampled_from([{}, {"trapped": True}, {"investigate_next": True},
                             {"bonus": {"action": "Seek Information", "value": 1}}]))
def test_reachable_sweep_equals_dense_sweep_on_random_states(tiny, turn, sm, luck, villain,
                                                              flag):
    cf = fresh(tiny, turn=turn, villain=villain, sm=sm, luck=luck, clue_found=True, **flag)
    a = advise(cf.ctx, cf.case, solver=Solver(cf.ctx))
    b = advise(cf.ctx, cf.case, solver=dense_solver(cf.ctx))
    assert a.p_win == pytest.approx(b.p_win, abs=1e-12)
    assert [x for x, _ in a.actions] == [x for x, _ in b.actions]


def test_flags_no_action_leaves_are_valued_by_the_recursion_after_one_sweep(tiny):
    """After an Action, a record carrying flags no Action leaves (trapped and Investigate
    allowed at once): the sweep runs once from it, the recursion values those flags."""
    cf = fresh(tiny, turn=10, villain="c201", motive=1, sm=1, luck=2, trapped=True,
               investigate_next=True, phase="encounter", waited=False)
    solver, plain = Solver(cf.ctx), Solver(cf.ctx, batched=False)
    solver.sweep = counting = Counting(solver.sweep)
    assert flags_of(cf.case) not in solver.recursion.flag_labels(10, solver.modes.key(cf.case))
    expected = plain.after_action(cf.case, False)
    assert 0 < expected < 1
    for _ in range(2):
        assert solver.after_action(cf.case, False) == pytest.approx(expected, abs=1e-12)
    assert counting.runs == 1 and solver.recursion.fallback.encounter_calls > 0


def test_two_turns_kept_equal_the_dense_sweep_and_no_other_turn_is_written(tiny):
    """``advise``'s sweep (two turns kept; the other turns drop what only writing the memo
    reads once reached) against the dense sweep of every turn."""
    cf = fresh(tiny, turn=10, villain="c201", sm=1, luck=2, clue_found=True)
    reach, dense = Solver(cf.ctx), dense_solver(cf.ctx)
    reach.prepare(cf.case, whole=False)
    dense.prepare(cf.case)
    for store in ("start", "action"):
        a, b = getattr(reach.memo, store), getattr(dense.memo, store)
        assert a and {k[0] for k in a} == {10, 11}  # the kept turns only
        for k, v in a.items():
            v = np.asarray(v)  # a compact memo value (``memo.Rows``) as its array
            w = b[k][:len(v)] if v.ndim == 2 else b[k]
            ok = ~np.isnan(v)
            assert np.allclose(v[ok], w[ok], rtol=0, atol=1e-12), k
    assert reach.q_values(cf.case, whole=False) == pytest.approx(dense.q_values(cf.case),
                                                                 abs=1e-12)


def test_equal_decision_weights_are_one_array(tiny):
    """The compiler keeps one read-only array per distinct decision-node weight (thousands
    of nodes share a few SM masks)."""
    cf = fresh(tiny, turn=10, villain="c201", sm=1, luck=2, clue_found=True)
    solver = Solver(cf.ctx)
    solver.prepare(cf.case)
    weights = [w for lump in solver.compiler.interned.values() if hasattr(lump, "const")
               for w, _ in lump.nodes if isinstance(w, np.ndarray)]
    assert weights  # the tiny campaign has SM-dependent decisions
    by_bytes: dict = {}
    for w in weights:
        assert not w.flags.writeable
        assert by_bytes.setdefault(w.tobytes(), w) is w
    assert len(by_bytes) < len(weights)


def test_equal_flag_labels_and_start_modes_are_one_object(tiny):
    """A solve asks the flag labels of many (turn, key) and the start mode of many (key,
    flags): equal ones are kept as one object (a fresh case's many keys have a few dozen
    distinct label tuples)."""
    cf = fresh(tiny, turn=9, villain="c201", sm=1, luck=2, clue_found=True)
    solver = Solver(cf.ctx)
    advise(cf.ctx, cf.case, solver=solver)
    r = solver.recursion
    labels = list(r._labels.values())
    assert len(labels) > len({id(x) for x in labels})  # some keys share their labels
    by_value = {}
    for x in labels + [vk for vk, _, _ in r._starts.values()]:
        assert by_value.setdefault(x, x) is x
