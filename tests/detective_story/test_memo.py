"""The compact memo value (``memo.Rows``): each row kept on the SM interval it is known
on, read through one accessor (``memo.cell``) as the full array it stands for, and merged
cell by cell."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from deduce.models.detective_story.dp.grid import SL, L, S
from deduce.models.detective_story.dp.memo import Rows, cell, merged


def _array(rows, seed, lo_hi):
    """(rows, S*L) values known on an SM interval per row (or on none), NaN elsewhere,
    and some NaN inside too; ``rows`` 0: a flat (S*L) value."""
    rng = np.random.default_rng(seed)
    a = np.full((max(rows, 1), S, L), np.nan)
    for r, (lo, n) in zip(range(len(a)), lo_hi):
        a[r, lo:lo + n] = rng.random((len(range(lo, min(lo + n, S))), L))
    a[rng.random(a.shape) < 0.05] = np.nan
    return a.reshape(SL) if rows == 0 else a.reshape(rows, SL)


arrays = st.builds(_array, st.integers(0, 3), st.integers(0, 10 ** 6),
                   st.lists(st.tuples(st.integers(0, S - 1), st.integers(0, S)),
                            min_size=3, max_size=3))


@given(arrays, st.integers(0, 4), st.integers(0, S + 3), st.integers(0, L + 3))
def test_a_row_kept_on_its_interval_reads_as_the_array(a, row, sm, luck):
    r = Rows.of(a)
    assert r.shape == a.shape and r.ndim == a.ndim
    assert np.asarray(r).tobytes() == a.tobytes()  # NaN where NaN, bit for bit
    flat = a if a.ndim == 1 else (a[row] if row < len(a) else None)
    want = np.nan if flat is None else flat[min(sm, S - 1) * L + min(luck, L - 1)]
    got = cell(r, row, sm, luck)
    assert (got == want) or (np.isnan(got) and np.isnan(want))
    assert (got == cell(a, row, sm, luck)) or np.isnan(got)
    known = np.isfinite(a.reshape(-1, S, L)).any(axis=2)
    assert r.slots == sum(int(S - k.argmax() - k[::-1].argmax()) for k in known if k.any())


@given(arrays, arrays)
def test_merged_takes_the_new_cells_first_then_the_old(old, new):
    if old.shape != new.shape:  # not the same value: the new one
        rn = Rows.of(new)
        assert merged(Rows.of(old), rn) is rn
        return
    want = np.where(np.isnan(new), old, new)
    for o, n in ((Rows.of(old), Rows.of(new)), (old, Rows.of(new)), (Rows.of(old), new)):
        got = merged(o, n)
        assert type(got) is Rows and np.asarray(got).tobytes() == want.tobytes()
    assert merged(old, new).tobytes() == want.tobytes()


def test_a_stack_s_single_row_is_a_flat_value():
    a = _array(3, 1, [(2, 5), (0, 0), (20, 10)])
    r = Rows.of(a)
    assert len(r) == 3 and r.slots == 5 + 5
    one = r.row(2)
    assert one.ndim == 1 and np.asarray(one).tobytes() == a[2].tobytes()
    assert np.isnan(cell(r, 1, 3, 3)) and np.isnan(cell(r, 3, 3, 3))  # none known; past
    assert cell(7.5, 0, 3, 3) == 7.5


@given(st.integers(0, S - 1), st.integers(0, S), st.integers(0, S - 1), st.integers(0, S),
       st.booleans(), st.integers(0, 10 ** 6))
def test_a_single_row_reached_again_on_part_of_it_merges_to_the_larger(lo1, n1, lo2, n2,
                                                                       agree, seed):
    """The sweep's usual case: a start row reached from two sources, on two intervals, the
    same values where both are (or, ``agree`` False, not: then the new ones win)."""
    rng = np.random.default_rng(seed)
    full = rng.random((S, L))
    old, new = np.full((S, L), np.nan), np.full((S, L), np.nan)
    old[lo1:lo1 + n1] = full[lo1:lo1 + n1]
    new[lo2:lo2 + n2] = full[lo2:lo2 + n2] if agree else full[lo2:lo2 + n2] / 2
    want = np.where(np.isnan(new), old, new).reshape(SL)
    got = merged(Rows.of(old.reshape(SL)), Rows.of(new.reshape(SL)))
    assert np.asarray(got).tobytes() == want.tobytes()
