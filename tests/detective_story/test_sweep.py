"""The DP evaluated a turn at a time (``sweep``) against the same DP by recursion: the same
values in every memo entry both compute, and the same advice."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.models.detective_story.advice import Solver, advise
from deduce.models.detective_story.data import load_campaign

from .conftest import fresh


@pytest.fixture(scope="module")
def tiny(tiny_session_dir):
    return load_campaign(tiny_session_dir)


def _close(b: np.ndarray, v: np.ndarray) -> int:
    """``b`` (NaN where the reachable sweep did not reach) equals ``v`` at every other
    cell; returns how many cells were compared."""
    b = np.asarray(b)  # ``memo.Rows``: the array it stands for
    known = ~np.isnan(b)
    assert np.allclose(b[known], v[known], rtol=0, atol=1e-12)
    return int(known.sum())


def _same_memo(batched: Solver, recursive: Solver) -> int:
    """Every start-of-turn and Action entry of ``recursive`` equals ``batched``'s (which
    computes more) at each cell ``batched`` knows; returns how many cells were compared."""
    n = 0
    for k, v in recursive.memo.start.items():
        if k in batched.memo.start:
            n += _close(batched.memo.start[k], v)
    for k, v in recursive.memo.action.items():
        if k in batched.memo.action:
            b = np.asarray(batched.memo.action[k])
            rows = min(len(b), len(v)) if v.ndim == 2 else None
            n += _close(b[:rows], v[:rows])
    return n


@pytest.mark.parametrize("turn, extra", [
    pytest.param(1, {"villain": None, "sm": 0, "luck": 3, "clue_found": False},
                 marks=pytest.mark.slow),
    (8, {"villain": None, "clue_found": True}),
    (7, {"motive": 1, "sm": 2, "bonus": {"action": "Investigate", "value": 1}}),
    (9, {"trapped": True}),
    (10, {"villain": None, "investigate_next": True}),
])
def test_sweep_equals_recursion(tiny, turn, extra):
    cf = fresh(tiny, turn=turn, **{"villain": "c201", "sm": 1, "luck": 2, "clue_found": True,
                                   **extra})
    batched, recursive = Solver(cf.ctx), Solver(cf.ctx, batched=False)
    batched.prepare(cf.case)  # every later turn's values kept, to compare them all
    a = advise(cf.ctx, cf.case, solver=batched)
    b = advise(cf.ctx, cf.case, solver=recursive)
    assert a.best == b.best
    assert [x for x, _ in a.actions] == [x for x, _ in b.actions]
    for (_, p), (_, q) in zip(a.actions, b.actions):
        assert p == pytest.approx(q, abs=1e-12)
    assert _same_memo(batched, recursive) > 0
    # the sweep left nothing to the recursion
    assert batched.recursion.encounter_calls == batched.recursion.fallback.encounter_calls == 0


def test_sweep_from_the_encounter_phase(tiny):
    cf = fresh(tiny, turn=8, villain="c201", motive=1, sm=3, phase="encounter", waited=True)
    batched, recursive = Solver(cf.ctx), Solver(cf.ctx, batched=False)
    batched.prepare(cf.case, encounter=True)
    p = advise(cf.ctx, cf.case, cf.phase, cf.waited, solver=batched).p_win
    assert p == pytest.approx(advise(cf.ctx, cf.case, cf.phase, cf.waited,
                                     solver=recursive).p_win, abs=1e-12)
    assert 0 < p < 1
    assert _same_memo(batched, recursive) > 0


def test_advise_keeps_only_the_turns_it_reads(tiny):
    """``advise`` keeps this turn's and the next turn's values (enough for it and for the
    re-roll advice); a later state is swept again, with the same values."""
    cf = fresh(tiny, turn=8, villain="c201", motive=1, sm=1, luck=2)
    solver = Solver(cf.ctx)
    p = advise(cf.ctx, cf.case, solver=solver).p_win
    assert {t for t, _ in solver.memo.start} == {8, 9}
    later = fresh(tiny, turn=10, villain="c201", motive=1, sm=1, luck=2)
    whole = Solver(cf.ctx)
    whole.prepare(cf.case)
    assert {t for t, _ in whole.memo.start} == set(range(8, 13))
    assert whole.value(cf.case) == pytest.approx(p, abs=1e-12)
    assert solver.value(later.case) == pytest.approx(whole.value(later.case), abs=1e-12)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn=st.integers(10, 12), sm=st.integers(0, 5), luck=st.integers(0, 3),
       motive=st.sampled_from([None, 1]), villain=st.sampled_from([None, "c201", "c202"]),
       flag=st.sampled_from([{}, {"trapped": True}, {"investigate_next": True},
                             {"bonus": {"action": "Investigate", "value": 1}},
                             {"bonus": {"action": "Seek Information", "value": 2}}]),
       phase=st.sampled_from(["action", "encounter"]))
def test_sweep_equals_recursion_on_random_states(tiny, turn, sm, luck, motive, villain, flag,
                                                 phase):
    changes = {"villain": villain, "sm": sm, "luck": luck, "clue_found": True, **flag}
    if villain and motive:
        changes["motive"] = motive
    if phase == "encounter":
        changes.update(phase="encounter", waited=False)
        changes.pop("bonus", None)
    cf = fresh(tiny, turn=turn, **changes)
    a = advise(cf.ctx, cf.case, cf.phase, cf.waited, solver=Solver(cf.ctx))
    b = advise(cf.ctx, cf.case, cf.phase, cf.waited, solver=Solver(cf.ctx, batched=False))
    assert a.p_win == pytest.approx(b.p_win, abs=1e-12)
    assert [x for x, _ in a.actions] == [x for x, _ in b.actions]


def test_sweep_reports_its_progress_turn_by_turn(tiny):
    cf = fresh(tiny, turn=10, villain="c201", motive=1, sm=1, luck=2)
    solver = Solver(cf.ctx)
    messages = []
    solver.progress = messages.append
    advise(cf.ctx, cf.case, solver=solver)
    assert messages == ([f"laying out turn {t} of 12" for t in (10, 11, 12)]
                        + [f"solving turn {t} (from turn 12 back to turn 10)" for t in (12, 11, 10)])


def test_the_lazy_sweep_is_the_sweep():
    from deduce.models.detective_story.advice import LazySweep
    from deduce.models.detective_story.dp.sweep import Sweep

    assert LazySweep.partial is Sweep.partial is True


def test_the_sweep_lays_out_once_for_every_turn(tiny, monkeypatch):
    """One Action batch for turns 3-12 and one set of Encounter batches per band, each
    compiled once, an Encounter phase laid out once for every turn of its band that has
    it (not once per turn), with the recursion's values."""
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.dp import compact, sweep

    built, atlases = [], []
    init, make = compact.CompactBatch.__init__, sweep.Atlas

    def counting(self, batch):
        built.append(batch.n)
        init(self, batch)

    def keeping(*args):  # what the atlas laid out (dropped once every turn is reached)
        atlas = make(*args)
        per_turn = sum(len(c.labels) for c in atlas.charts)  # Encounter phases turn by turn
        pairs = {(T.band_for(c.t), kid) for c in atlas.charts for kid in c.labels}
        atlases.append((atlas, len(atlas.inst), per_turn, pairs))
        return atlas

    monkeypatch.setattr(compact.CompactBatch, "__init__", counting)
    monkeypatch.setattr(sweep, "Atlas", keeping)
    cf = fresh(tiny, turn=3, villain="c201", sm=1, luck=2, clue_found=True)
    a = advise(cf.ctx, cf.case, solver=Solver(cf.ctx))
    ((atlas, inst, per_turn, pairs),) = atlases
    bands = {T.band_for(t) for t in range(3, T.TURNS + 1)}
    assert set(atlas.cencs) == bands and len(bands) == 3
    assert len(built) == 1 + sum(len(v) for v in atlas.cencs.values())
    assert inst == len(pairs) < per_turn / 2  # one Encounter instance per (band, key)
    b = advise(cf.ctx, cf.case, solver=Solver(cf.ctx, batched=False))
    assert a.p_win == pytest.approx(b.p_win, abs=1e-12)


# -- a phase traced once per values of the fields it reads
def test_a_probe_notes_the_fields_read_and_written():
    from deduce.models.detective_story.dp import trace as TR
    from deduce.models.detective_story.state import Case

    case = Case(turn=3, sm=0, luck=0, villain="c201")
    seen = {}

    def phase(w, c):
        seen["villain"] = c.villain
        c = c._replace(motive=1)
        seen["over"] = c.over  # reads the outcome
        w.finish(None, c)

    expr, fields = TR.Tracer().trace_fields(phase, case)
    index = {f: i for i, f in enumerate(Case._fields)}
    # and SM and Luck, which every leaf reads (the same symbolic values in every probe)
    assert fields == tuple(sorted(index[f] for f in ("villain", "motive", "outcome", "sm",
                                                     "luck")))
    assert seen == {"villain": "c201", "over": False}
    assert [type(n) for _, n in expr] == [TR.Leaf] and expr[0][1].over == ((index["motive"], 1),)
    assert type(case.villain) is str and case.villain == "c201"  # outside a trace: plain


def test_every_phase_traced_once_per_shape_equals_its_own_trace(tiny, monkeypatch):
    """Each Action row, Encounter phase, event line and Rest a solve reuses is the
    expression a trace from its own start gives (the same leaves, weights and decision
    nodes)."""
    from deduce.models.detective_story.dp import phases as PH

    traced = PH.Phases._traced
    checked = []

    def both(self, kind, phase, start, refs=False):
        expr = traced(self, kind, phase, start, refs)
        assert _shape(expr) == _shape(self.tracer.trace(phase, start, refs)), kind
        checked.append(kind)
        return expr

    from deduce.models.detective_story.dp import trace as TR

    fields_of = TR.Tracer.trace_fields
    traced_once = []

    def counted(self, *args, **kwargs):
        traced_once.append(1)
        return fields_of(self, *args, **kwargs)

    monkeypatch.setattr(PH.Phases, "_traced", both)
    monkeypatch.setattr(TR.Tracer, "trace_fields", counted)
    cf = fresh(tiny, turn=6, villain=None, sm=1, luck=2)
    advise(cf.ctx, cf.case, solver=Solver(cf.ctx))
    assert 0 < len(traced_once) < len(checked)  # some were reused, and each was checked


def _shape(expr) -> tuple:
    from deduce.models.detective_story.dp import trace as TR

    out = []
    for w, node in expr:
        w = w.tobytes() if isinstance(w, np.ndarray) else w
        if type(node) is TR.Leaf:
            out.append((w, node))
        elif type(node) is TR.MaxNode:
            out.append((w, "max", tuple(_shape(o) for o in node.options)))
        elif type(node) is TR.CombatNode:
            out.append((w, node.setup, tuple((t, _shape(s)) for t, s in node.terms)))
        else:
            out.append((w, node))
    return tuple(out)


def test_every_lump_made_from_a_template_is_the_lump_merging_its_leaves_gives(tiny, monkeypatch):
    """Each phase a solve compiles from its expression's template (``compile._Template``)
    is the very lump (one interned object) that merging the expression's leaves for its
    own start gives; and over a quarter were made from a template made for another
    mode (the test campaign has few modes a shape)."""
    from deduce.models.detective_story.dp import compile as CM

    compile_ = CM.Compiler.compile
    made, reused = [], []

    def both(self, expr, start, ends=None):
        k = (id(expr), start.sm, start.luck)
        if k in self.templates:
            reused.append(1)
        lump = compile_(self, expr, start, ends)
        assert self._merged(expr, start, {}) is lump
        made.append(1)
        return lump

    monkeypatch.setattr(CM.Compiler, "compile", both)
    cf = fresh(tiny, turn=6, villain=None, sm=1, luck=2)
    advise(cf.ctx, cf.case, solver=Solver(cf.ctx))
    assert 0 < len(reused) < len(made) and len(reused) > len(made) // 4, (len(reused), len(made))


def test_a_mode_whose_targets_merge_two_template_entries_is_merged_again():
    """``modes.mode_of`` makes the meetings one value once the Motive is known: a phase
    ending in two meeting counts has two targets before it and one after."""
    from deduce.models.detective_story.dp.compile import Compiler
    from deduce.models.detective_story.dp.grid import IDENT, MoveTable
    from deduce.models.detective_story.dp.modes import ModeKeys, probe
    from deduce.models.detective_story.dp.trace import Leaf
    from deduce.models.detective_story.state import Case

    meetings = Case._fields.index("meetings")
    expr = ((0.25, Leaf(((meetings, 1),), IDENT, IDENT)),
            (0.75, Leaf(((meetings, 2),), IDENT, IDENT)))
    compiler = Compiler(ModeKeys(), MoveTable())
    unknown = probe(Case(0, 0, 0, villain="c201"), 3)
    known = probe(Case(0, 0, 0, villain="c201", motive=1), 3)
    before = compiler.compile(expr, unknown)
    after = compiler.compile(expr, known)
    assert len(compiler.templates) == 1  # one template served both
    assert [t.key.meetings for t in before.targets] == [1, 2]
    assert before.wts[:, 0].tolist() == [0.25, 0.75]
    assert [t.key.meetings for t in after.targets] == [2] and after.wts[:, 0].tolist() == [1.0]
    assert after is compiler._merged(expr, known, {})
    assert before is compiler._merged(expr, unknown, {})


def test_a_solver_is_freed_by_reference_counts_alone(tiny):
    """The sweep freezes what it made for the cyclic collector until the next sweep
    (``Sweep.run``): that is no leak only while a solver holds no reference cycle."""
    import gc
    import weakref

    cf = fresh(tiny, turn=9, villain="c201", sm=1, luck=2, clue_found=True)
    solver = Solver(cf.ctx)
    advise(cf.ctx, cf.case, solver=solver)
    assert gc.get_freeze_count() > 0
    gone = [weakref.ref(x) for x in (solver.recursion, solver.phases, solver.compiler)]
    collecting = gc.isenabled()
    gc.disable()
    try:
        del solver
        assert [r() for r in gone] == [None, None, None]
    finally:
        if collecting:
            gc.enable()
        gc.unfreeze()


def test_the_start_table_has_one_row_per_start_mode(tiny, monkeypatch):
    """(key, flags) that differ only in flags that cannot matter at the start of a turn
    share one start row (``atlas.StartRows``), and the sweep's start values still equal
    the recursion's."""
    from deduce.models.detective_story.dp import atlas as AT

    made = []
    init = AT.StartRows.__init__

    def spy(self, recursion):
        init(self, recursion)
        made.append(self)

    monkeypatch.setattr(AT.StartRows, "__init__", spy)
    cf = fresh(tiny, turn=7, villain="c201", sm=1, luck=2, clue_found=True,
               bonus={"action": "Investigate", "value": 1})
    swept, recursive = Solver(cf.ctx), Solver(cf.ctx, batched=False)
    swept.prepare(cf.case)  # every later turn's values kept, to compare them all
    (rows,) = made
    modes = [swept.recursion.turn_start(*name)[0] for name in rows.names]
    assert len(set(modes)) == len(modes) == len(rows)
    assert len(rows.ids) > len(rows)  # some (key, flags) were asked under another's row
    for name, i in rows.ids.items():
        assert modes[i] == swept.recursion.turn_start(*name)[0]
    assert advise(cf.ctx, cf.case, solver=swept).p_win == pytest.approx(
        advise(cf.ctx, cf.case, solver=recursive).p_win, abs=1e-12)
    assert _same_memo(swept, recursive) > 0


def test_the_start_rows_an_encounter_phase_reads_are_its_targets_for_each_label(tiny):
    """The chart's table of start rows (``Chart._reads``) gives, for every Encounter phase
    and labels it charted, the rows of each target of the phase (after Wait or not, its
    event lines included) for each label (with Investigate allowed where the target's
    event allowed it), in (target, label) order, each once."""
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.dp.atlas import Chart
    from deduce.models.detective_story.dp.layout import lump_targets
    from deduce.models.detective_story.dp.modes import flags_of
    from deduce.models.detective_story.dp.trace import Ref

    cf = fresh(tiny, turn=7, villain="c201", sm=1, luck=2, clue_found=True,
               bonus={"action": "Investigate", "value": 1})
    solver = Solver(cf.ctx)
    key = solver.modes.key(cf.case)
    chart = Chart(solver.recursion)
    chart.run([(key, flags_of(cf.case))], [], cf.case.turn)
    phases, seen, checked = solver.recursion.phases, {}, 0
    for (kid, band, every), got in chart._next.items():
        mode = chart.keys.names[kid]
        t = next(t for t in range(1, T.TURNS + 1) if T.band_for(t) == band)
        lumps = [phases.encounter(mode, t, False), phases.encounter(mode, t, True)]
        lumps += [phases.line(mode, n.line) for lump in lumps for _, n in lump.nodes
                  if type(n) is Ref]
        want: dict = {}
        for tg in (tg for lump in lumps for tg in lump_targets(lump, seen)):
            for f in every:
                f = f._replace(unlock=True) if tg.flags.unlock else f
                want[chart.V.ids[(tg.key, f)]] = None
        assert got.tolist() == list(want)
        checked += len(want)
    assert checked > 100


@given(st.lists(st.lists(st.integers(0, 40), max_size=12), max_size=6))
def test_first_seen_keeps_each_id_once_in_the_order_first_reached(parts):
    from deduce.models.detective_story.dp.atlas import first_seen

    got = first_seen(*parts)
    assert got.dtype == np.int32
    assert got.tolist() == list(dict.fromkeys(x for p in parts for x in p))
