"""Clause building: variables, constants and memoised Tseitin gates over pysat literals.

``Builder`` holds an ``IDPool`` and a growing clause list. ``TRUE`` is a variable fixed by
a unit clause (``-TRUE`` is false), so constants fold away: ``and_([TRUE, x]) == x``. Every
gate is a full equivalence (``v <-> a and b``), so a gate variable is a function of its
inputs: gates never cut solutions, and ``-v`` is a faithful negation (needed to ask whether a
condition can fail). Gates are memoised on their input set.

``budget`` caps the number of gate variables one compilation may add, and ``work`` the
number of gate requests (new or memoised); past either ``TooBig`` is raised (the caller
turns it into an input error naming the rule).
"""

from __future__ import annotations

from pysat.formula import IDPool


class TooBig(Exception):
    """A rule needs more clauses than the budget allows."""


class Builder:
    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.TRUE = self.pool.id("true")
        self.FALSE = -self.TRUE
        self.clauses.append([self.TRUE])
        self._gates: dict[frozenset, int] = {}
        #: gate variable -> the indices of its defining clauses
        self.gate_clauses: dict[int, list[int]] = {}
        self.budget: int | None = None
        self.work: int | None = None

    def var(self, key) -> int:
        """The variable named by the hashable ``key`` (made on first use)."""
        return self.pool.id(key)

    def const(self, value: bool) -> int:
        return self.TRUE if value else self.FALSE

    def and_(self, lits) -> int:
        """A literal equivalent to the conjunction of ``lits`` (TRUE for none)."""
        if self.work is not None:
            self.work -= 1
            if self.work < 0:
                raise TooBig()
        s: set[int] = set()
        for lit in lits:
            if lit == self.FALSE:
                return self.FALSE
            if lit == self.TRUE:
                continue
            if -lit in s:
                return self.FALSE
            s.add(lit)
        if not s:
            return self.TRUE
        if len(s) == 1:
            return next(iter(s))
        key = frozenset(s)
        v = self._gates.get(key)
        if v is None:
            if self.budget is not None:
                self.budget -= 1
                if self.budget < 0:
                    raise TooBig()
            v = self._gates[key] = self.pool.id(("gate", len(self._gates)))
            start = len(self.clauses)
            self.clauses.extend([-v, lit] for lit in s)
            self.clauses.append([v] + [-lit for lit in s])
            self.gate_clauses[v] = list(range(start, len(self.clauses)))
        return v

    def or_(self, lits) -> int:
        """A literal equivalent to the disjunction of ``lits`` (FALSE for none)."""
        return -self.and_(-lit for lit in lits)

    def iff(self, a: int, b: int) -> int:
        return self.or_([self.and_([a, b]), self.and_([-a, -b])])

    def exactly_one(self, lits: list[int], guard: int | None = None) -> None:
        """Clauses ``guard -> exactly one of lits`` (pairwise at-most-one)."""
        tail = [] if guard is None else [-guard]
        self.clauses.append(list(lits) + tail)
        for k, a in enumerate(lits):
            for b in lits[k + 1:]:
                self.clauses.append([-a, -b] + tail)

    def value(self, model: list[int], lit: int) -> bool:
        """Whether ``lit`` is true in a solver model (a list of signed variables)."""
        v = model[abs(lit) - 1]
        return (v > 0) == (lit > 0)
