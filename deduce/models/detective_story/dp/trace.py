"""Tracing a phase: the ``Tracer`` world runs the engine on a case whose SM and Luck are
symbolic (``grid.Lin``) and records the phase as an expression.

An expression (``Expr``) is ``((weight, node), ...)``: a weight is a float or an (S, 1)
array over the SM the trace started with; a node is a ``Leaf`` (an end of the phase), a
``MaxNode`` (option 3's start, the best of sub-expressions), a ``CombatNode`` (a fight,
valued by ``combat.solve`` over sub-expressions) or a ``Ref`` (an event line valued on its
own, see ``Tracer.trace``). ``compile.Compiler`` turns it into arrays.

A paragraph or event line read at the end of a phase is traced where it is read, from the
case it is read at: no sub-trace is kept and spliced in. On a fresh a001 solve three in
four such reads were of a (paragraph, mode) not traced before, and splicing a kept
sub-trace rebuilt each of its leaves from the reading case (once more per level of a
nested read): that cost more than the reads it saved (the solve is 9% faster without it).
"""

from __future__ import annotations

from typing import NamedTuple

from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story.dp.grid import S, actual, compose
from deduce.models.detective_story.dp.rolls import p_at_most_by_sm, row_probabilities, yes_no
from deduce.models.detective_story.state import Case


class Leaf(NamedTuple):
    """The end of a phase: ``over`` ((field index, value), ...) the fields changed from the
    trace's probe, and SM and Luck (``Lin``; ints in a concrete trace)."""

    over: tuple
    sm: object
    luck: object


class MaxNode(NamedTuple):
    """A decision: the best of ``options`` (expressions), elementwise."""

    options: tuple


class CombatNode(NamedTuple):
    """A fight: ``combat.solve`` over ``terms`` ((terminal, expression), ...)."""

    setup: C.Setup
    terms: tuple


class Ref(NamedTuple):
    """An event line read from the start of the Encounter phase, valued once per turn and
    mode and shared by the phase's variants (after Wait or not, every band)."""

    line: str


#: an expression: ``((weight, node), ...)`` (see the module docstring)
Expr = tuple

#: the fields of a ``Case`` a ``Leaf`` records (SM and Luck are kept apart)
PLAIN_FIELDS = tuple(i for i, f in enumerate(Case._fields) if f not in ("sm", "luck"))


_SM, _LUCK = Case._fields.index("sm"), Case._fields.index("luck")


#: the fields read or written in the traces being recorded (``Tracer.trace_fields``), one
#: set of field indices per trace, innermost last
_SEEN: list = []
_INDEX = {f: i for i, f in enumerate(Case._fields)}


class Probe(Case):
    """A ``Case`` that notes, while ``Tracer.trace_fields`` records, each field the engine
    reads (``case.villain``) and each it writes (``case._replace(villain=...)``); the cases
    made from it by ``_replace`` are ``Probe`` too. Index access (``case[i]``, what the
    tracer's own leaf diff uses) and iteration are not noted: the engine reads fields by
    name only (its module docstring)."""

    __slots__ = ()

    def _replace(self, /, **changes):
        if _SEEN:
            _SEEN[-1].update(_INDEX[f] for f in changes)
        return Case._replace(self, **changes)


def _noted(i: int) -> property:
    def read(self):
        if _SEEN:
            _SEEN[-1].add(i)
        return tuple.__getitem__(self, i)
    return property(read)


for _i, _f in enumerate(Case._fields):
    setattr(Probe, _f, _noted(_i))


def noting_fields(f, start: Case) -> tuple:
    """``(f(probe), fields)`` for ``probe`` the ``Probe`` of ``start``: ``fields`` the
    indices of the fields of ``start`` that ``f`` read or wrote, sorted."""
    _SEEN.append(set())
    try:
        out = f(Probe._make(start))
    finally:
        seen = _SEEN.pop()
        if _SEEN:  # a recording inside another: what it saw, the outer one saw too
            _SEEN[-1].update(seen)
    return out, tuple(sorted(seen))


def end_case(start: Case, leaf: Leaf) -> Case:
    """The case ``leaf`` ends at, for a trace from ``start`` (SM and Luck composed)."""
    vals = list(start)
    for i, v in leaf.over:
        vals[i] = v
    if type(leaf.sm) is int:  # a concrete trace: the end values themselves
        vals[_SM], vals[_LUCK] = leaf.sm, leaf.luck
    else:
        vals[_SM], vals[_LUCK] = compose(start.sm, leaf.sm), compose(start.luck, leaf.luck)
    return Case._make(vals)


class Tracer:
    """The world that turns a phase into an ``Expr`` (the engine's world interface).

    ``trace(f, probe)`` runs ``f(tracer, probe)``; every end of phase (``finish``) becomes a
    weighted ``Leaf``; SM-dependent branches become SM-dependent weights; ``choose`` and
    ``combat`` become decision nodes over sub-traces. A tracer keeps nothing from one
    trace to the next: one serves every phase of a solver.
    """

    def __init__(self):
        self.refs = False  # see ``trace``
        self._terms: list = []
        self._w = 1.0
        self._probe: Case | None = None

    def trace(self, f, start: Case, refs: bool = False) -> Expr:
        """The expression of ``f(tracer, start)``; ``refs``: an event line read from
        ``start`` itself becomes a ``Ref`` node instead of being traced."""
        saved = (self._terms, self._w, self._probe, self.refs)
        self._terms, self._w, self._probe, self.refs = [], 1.0, start, refs
        try:
            f(self, start)
            return tuple(self._terms)
        finally:
            self._terms, self._w, self._probe, self.refs = saved

    def trace_fields(self, f, start: Case, refs: bool = False) -> tuple:
        """``(trace(f, start, refs), fields)``: ``fields`` the indices of the fields of
        ``start`` the trace read or wrote, sorted (``noting_fields``). The engine is a
        function of what it reads, so a start that agrees with ``start`` on those fields
        gives the same expression (the same branches and weights; each leaf the same
        changed fields, as the written fields' start values agree too)."""
        return noting_fields(lambda case: self.trace(f, case, refs), start)

    def run(self, f, start: Case) -> list[tuple[float, Case]]:
        """``[(p, end case), ...]`` of ``f(tracer, start, k)`` (no decisions inside: else
        ValueError)."""
        out = []
        for w, node in self.trace(lambda t, c: f(t, c, E.AFTER_TURN), start):
            if type(node) is not Leaf:
                raise ValueError("the phase holds a decision")
            out.append((w, end_case(start, node)))
        return out

    end_case = staticmethod(end_case)

    def _sub(self, run) -> Expr:
        saved = (self._terms, self._w)
        self._terms, self._w = [], 1.0
        try:
            run()
            return tuple(self._terms)
        finally:
            self._terms, self._w = saved

    # -- the world interface (``engine``'s module docstring)
    def note(self, text: str) -> None:
        """Nothing: a trace keeps no log."""

    def chance(self, case: Case, dist, k, what=None):
        """Every outcome of ``dist`` ((p, x), ...), weighted."""
        w0 = self._w
        try:
            for p, x in dist:
                self._w = w0 * p
                k(self, case, x)
        finally:
            self._w = w0

    def _split(self, case: Case, p, k_yes, k_no):
        w0 = self._w
        try:
            self._w = w0 * p
            k_yes(self, case)
            self._w = w0 * (1 - p)
            k_no(self, case)
        finally:
            self._w = w0

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        """Both branches where the answer depends on the start SM (weights 0/1 over SM)."""
        if type(case.sm) is int:
            return k_yes(self, case) if case.sm >= value else k_no(self, case)
        mask = actual(case.sm, S) >= value
        if mask.all():
            return k_yes(self, case)
        if not mask.any():
            return k_no(self, case)
        return self._split(case, mask[:, None].astype(float), k_yes, k_no)

    def roll_at_most_sm(self, case: Case, offset: int, k):
        """2d6 <= SM + offset and its negation, weighted over the start SM."""
        if type(case.sm) is int:
            p = E.p_2d6_at_most(case.sm + offset)
            return self.chance(case, yes_no(p), k)
        p = p_at_most_by_sm(offset)[actual(case.sm, S)]
        if (p >= 1).all():
            return k(self, case, True)
        if (p <= 0).all():
            return k(self, case, False)
        return self._split(case, p, lambda w, c: k(w, c, True), lambda w, c: k(w, c, False))

    def plain_roll(self, case: Case, mod: int, table, k):
        """Every row of ``table`` for 2d6 + ``mod``, weighted."""
        return self.chance(case, tuple((p, o) for o, p in row_probabilities(table, mod)), k)

    def luck_roll(self, *args):
        """Refused (TypeError): an Action roll is valued by the solver, not traced."""
        raise TypeError("an Action roll is valued by the Solver, not traced")

    def choose(self, case: Case, kind: str, options, k):
        """A ``MaxNode`` over each option's sub-trace."""
        subs = tuple(self._sub(lambda o=o: k(self, case, o)) for o in options)
        self._terms.append((self._w, MaxNode(subs)))

    def combat(self, case: Case, setup: C.Setup, k):
        """A ``CombatNode`` over each terminal's sub-trace."""
        terms = tuple((t, self._sub(lambda t=t: k(self, case, t))) for t in C.terminals(setup))
        self._terms.append((self._w, CombatNode(setup, terms)))

    def finish(self, phase, case: Case):
        """A weighted ``Leaf``."""
        self._terms.append((self._w, self._leaf(case)))

    def _leaf(self, case: Case) -> Leaf:
        start = self._probe
        return Leaf(tuple((i, case[i]) for i in PLAIN_FIELDS if case[i] != start[i]),
                    case.sm, case.luck)

    def tail(self, key, case: Case, k, f):
        """``f(tracer, case, k)``, traced in place (see the module docstring); an event
        line read from the probe itself a ``Ref`` (``trace``'s ``refs``)."""
        if self.refs and key[0] == "line" and isinstance(k, E.Phase) and case == self._probe:
            self._terms.append((self._w, Ref(key[1])))
            return
        return f(self, case, k)
