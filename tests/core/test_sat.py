import pytest
from pysat.solvers import Solver

from deduce.core.sat import minimal_unsat_subset


def _solver(clauses):
    s = Solver(name="cadical195", bootstrap_with=clauses)
    return s, (lambda a: s.solve(assumptions=a)), s.get_core


def test_smallest_set_first():
    # selectors 10..14 guard: x1, -x1, x2, (-x2 or -x1), x3; the smallest conflict is {10, 11}
    clauses = [[-10, 1], [-11, -1], [-12, 2], [-13, -2, -1], [-14, 3]]
    s, solve, core = _solver(clauses)
    assert minimal_unsat_subset(solve, core, [], [12, 13, 10, 11, 14]) == [10, 11]
    assert sorted(minimal_unsat_subset(solve, core, [], [10, 11, 12, 13, 14])) == [10, 11]
    # with x1 forced by a hard literal, one selector suffices: -x1
    assert minimal_unsat_subset(solve, core, [10], [12, 13, 11, 14]) == [11]
    s.delete()


def test_deletion_loop_result_is_minimal():
    # x100, x100 -> x101 -> ... -> x106, and -x106: only the whole chain of 8 conflicts
    clauses = [[-(20 + i), -(100 + i), 101 + i] for i in range(6)] + [[-30, 100], [-31, -106]]
    s, solve, core = _solver(clauses)
    soft = [30, 31] + [20 + i for i in range(6)]
    mus = minimal_unsat_subset(solve, core, [], soft)
    assert sorted(mus) == sorted(soft)
    for v in mus:  # minimal: without any one of them the rest is satisfiable
        assert solve([u for u in mus if u != v])
    s.delete()


def test_hard_alone_unsat_gives_empty_and_consistent_raises():
    s, solve, core = _solver([[-1, 2], [-1, -2]])
    assert minimal_unsat_subset(solve, core, [1], [5, 6]) == []
    with pytest.raises(ValueError):
        minimal_unsat_subset(solve, core, [], [5, 6])
    s.delete()
