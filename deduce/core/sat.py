"""Shared pieces of the pysat models: solver lifetime and minimal unsatisfiable subsets.

Explanations are read by people, so ``minimal_unsat_subset`` looks for small sets first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

#: (subset size, largest candidate list for which every subset of that size is tried)
EXACT_SIZES = ((1, None), (2, 40), (3, 20))


def minimal_unsat_subset(
    solve: Callable[[list[int]], bool],
    core: Callable[[], Sequence[int] | None],
    hard: list[int],
    soft: list[int],
    exact_sizes: Sequence[tuple[int, int | None]] = EXACT_SIZES,
) -> list[int]:
    """A subset-minimal part of ``soft`` that is unsatisfiable together with ``hard``.

    ``solve(assumptions)`` answers satisfiability under assumption literals; ``core()`` is
    the solver's core after an unsatisfiable call. Order of search: every subset of the
    sizes in ``exact_sizes`` (while the core-reduced candidates are few enough), by size
    and then by position in ``soft`` (earlier literals preferred); then a deletion loop
    over the core trying the latest literals for deletion first. Returns ``[]`` when
    ``hard`` alone is unsatisfiable; ``ValueError`` if ``hard + soft`` is satisfiable.
    """
    if not solve(list(hard)):
        return []
    if solve(list(hard) + list(soft)):
        raise ValueError("the facts are consistent")
    kept = set(core() or soft)
    cand = [v for v in soft if v in kept]
    for size, cap in exact_sizes:
        if size >= len(cand) or (cap is not None and len(cand) > cap):
            break
        for subset in combinations(cand, size):
            if not solve(list(hard) + list(subset)):
                return list(subset)
    i = len(cand) - 1
    while i >= 0:
        trial = cand[:i] + cand[i + 1:]
        if not solve(list(hard) + trial):
            kept = set(core() or trial)
            cand = [v for v in trial if v in kept]
            i = min(i, len(cand))
        i -= 1
    return cand


class OwnsSolver:
    """Mixin for a model holding one pysat solver in ``self._solver``: ``close()`` frees it,
    and the model works as a context manager."""

    _solver = None

    def close(self) -> None:
        """Free the solver (idempotent)."""
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the solver may already be gone
            pass
