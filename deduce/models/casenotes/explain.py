"""``deduce case explain``: the whole solution as a sequence of small, cheap reasoning steps.

A *step* derives one or more new grid facts (literals of the model's ``same``, ``attr`` and
``unk`` variables, ``CaseModel.facts()``, true or false) from a set of notes, grid axiom
kinds (``bijection``, ``transitivity``, ``one-value``) and earlier steps. Its cost is
``100 * notes + 60 * axiom kinds + 1 * earlier steps cited`` (spec: "1 per earlier fact
used"; a cited fact is an earlier step, as in the spec's ``"facts": [3, 4]``).

The targets are the facts that all the (chosen) notes force: for a case with a unique
solution, every fact variable (the whole logic grid, the ticks and the crosses, attributes
and unknowns); with ``notes=`` a subset (a player's notes so far), whatever follows from it.

Algorithm (greedy, cheapest next step; one incremental pysat solver under assumptions):

1. *Configurations* (a set of notes and a set of axiom kinds) are tried in increasing base
   cost ``100 k + 60 a``, every configuration with ``k`` notes as long as there are at most
   ``MAX_SUBSETS`` note subsets of that size (all singles, all pairs, the triples of a
   15-note case); axiom kinds without clauses in the grid are left out.
2. For one configuration, the solver decides which remaining targets follow from it plus
   every step so far (``forced``: models whose decisions prefer falsifying the targets rule
   most of them out at once; the rest are tested one by one under assumptions). A
   configuration that forced some target at an earlier step still forces it (more facts
   only add consequences), so while such targets remain it needs no solver call.
3. At the first cost level where something follows, a target the configuration forces on
   its own (no earlier step) is taken at once; otherwise targets get a subset-minimal set
   of earlier steps (the solver's core, then a deletion loop) until one needs a single
   step or ``MAX_CANDIDATES`` were examined; the cheapest is chosen (ties: the first).
4. The step derives *every* remaining target that follows from the chosen notes, axioms and
   cited steps (batching), and gets a selector literal implying its facts, so later steps
   can cite it.
5. When no configuration within ``MAX_SUBSETS`` works, a fallback takes, for up to
   ``MAX_CANDIDATES`` remaining targets, a subset-minimal set of notes, axioms and steps
   (deletion dropping notes first), and keeps the cheapest. Such steps are counted in
   ``Explanation.fallback_steps`` (none on the shipped cases).

Guarantees:

- every step follows from what it cites (the cited steps' facts) and is subset-minimal:
  dropping any one cited note, axiom kind or step leaves some derived fact unproven
  (the notes and axioms are minimal because every cheaper configuration was tried first
  with every derived fact; the steps by the deletion loop);
- outside fallback steps, each step has the lowest notes-and-axioms cost of any step
  possible at that point; its cited steps are subset-minimal, and the fewest among the
  targets examined (not always the global minimum). So the sequence is "cheapest next":
  costs only drop where a step makes a cheaper one possible (a note step followed by the
  bijection steps it enables);
- the steps together derive exactly the targets: every fact the notes force, nothing else
  (with a unique solution: exactly that solution).

>>> [explain_cost(n, a, f) for n, a, f in [(1, 1, 2), (2, 0, 0)]]
[162, 200]
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from pysat.solvers import Solver

from deduce.models.casenotes.format import Case
from deduce.models.casenotes.model import AXIOMS, SOLVER, CaseContradiction, CaseModel, Cell
from deduce.models.casenotes.schema import Value

COST_NOTE, COST_AXIOM, COST_FACT = 100, 60, 1
#: Note subsets of one size tried exhaustively at most (C(15, 3) = 455 fits).
MAX_SUBSETS = 1000
#: Facts the fallback (and the choice among equal-cost steps) examines at most per step.
MAX_CANDIDATES = 12


def explain_cost(notes: int, axioms: int, facts: int) -> int:
    """The spec's cost: 100 per note, 60 per axiom kind, 1 per earlier fact (step) used."""
    return COST_NOTE * notes + COST_AXIOM * axioms + COST_FACT * facts


# ---------------------------------------------------------------------------------- SAT
class SatOracle:
    """A pysat solver over a growing clause list, asked under assumptions.

    Incremental (default): one solver for the whole sequence. ``incremental=False`` builds a
    fresh solver for every call (the benchmark's naive baseline; same answers).
    """

    def __init__(self, clauses: list[list[int]], new_var: Callable[[], int],
                 incremental: bool = True):
        self.clauses = [list(c) for c in clauses]
        self.new_var = new_var
        self.incremental = incremental
        self.calls = 0
        self._solver = Solver(name=SOLVER, bootstrap_with=self.clauses) if incremental else None
        self._model: list[int] = []
        self._core: list[int] = []

    def add(self, clause: list[int]) -> None:
        self.clauses.append(list(clause))
        if self._solver is not None:
            self._solver.add_clause(clause)

    def solve(self, assumptions: Sequence[int], phases: Sequence[int] = ()) -> bool:
        """Satisfiable under ``assumptions``? Decisions prefer the literals in ``phases``."""
        self.calls += 1
        if self._solver is not None:
            return self._run(self._solver, assumptions, phases)
        with Solver(name=SOLVER, bootstrap_with=self.clauses) as fresh:
            return self._run(fresh, assumptions, phases)

    def _run(self, solver: Solver, assumptions: Sequence[int], phases: Sequence[int]) -> bool:
        if phases:
            solver.set_phases(list(phases))
        ok = bool(solver.solve(assumptions=list(assumptions)))
        self._model = solver.get_model() if ok else []
        self._core = [] if ok else list(solver.get_core() or assumptions)
        return ok

    def true(self, lit: int) -> bool:
        """Whether ``lit`` holds in the last model."""
        v = abs(lit)
        return v <= len(self._model) and (self._model[v - 1] > 0) == (lit > 0)

    @property
    def core(self) -> set[int]:
        """The assumptions the last unsatisfiable call used (a superset of some MUS)."""
        return set(self._core)

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None


def forced(oracle: SatOracle, assumptions: Sequence[int], candidates: Iterable[int]) -> list[int]:
    """The literals of ``candidates`` true in every model under ``assumptions``.

    Each candidate not yet ruled out is tested by assuming its negation: unsatisfiable means
    forced; a model rules out every candidate it falsifies, and decisions prefer falsifying
    the candidates still pending, so a few models rule out most. All of them if
    ``assumptions`` is unsatisfiable. Candidate order is kept.
    """
    pending = list(candidates)
    if not pending:
        return []
    base = list(assumptions)
    if not oracle.solve(base, [-lit for lit in pending]):
        return pending
    pending = [lit for lit in pending if oracle.true(lit)]
    out: list[int] = []
    while pending:
        lit = pending.pop(0)
        if not oracle.solve(base + [-lit], [-x for x in pending]):
            out.append(lit)
        else:
            pending = [x for x in pending if oracle.true(x)]
    return out


# ---------------------------------------------------------------------------------- steps
@dataclass(frozen=True)
class Step:
    """One explanation step: ``derived`` literals from ``notes``, ``axioms`` and earlier
    steps ``facts`` (indices from 0); ``texts`` are the derived facts in the rule language."""

    derived: tuple[int, ...]
    texts: tuple[str, ...]
    notes: tuple[int, ...]
    axioms: tuple[str, ...]
    facts: tuple[int, ...]
    cost: int

    def to_json(self) -> dict:
        """The spec's step object."""
        return {"derived": list(self.texts), "notes": list(self.notes),
                "axioms": list(self.axioms), "facts": list(self.facts), "cost": self.cost}


@dataclass
class Explanation:
    """A derivation: the steps, what stays open, and how long it took.

    ``cells`` are the model's cells; ``open_cells`` (cell index, possible values) those the
    notes leave open; ``notes`` is the chosen subset (None: every note).
    """

    case: Case
    notes: list[int] | None
    steps: list[Step]
    cells: list[Cell]
    open_cells: list[tuple[int, list[Value]]]
    seconds_first: float | None
    seconds_total: float
    fallback_steps: int = 0
    sat_calls: int = 0

    @property
    def complete(self) -> bool:
        """Whether the steps fix every cell (the whole solution)."""
        return not self.open_cells

    def profile(self) -> dict:
        """The difficulty profile: ``{"steps", "hardest_cost", "multi_note_steps",
        "total_cost", "complete"}``."""
        costs = [s.cost for s in self.steps]
        return {"steps": len(self.steps), "hardest_cost": max(costs, default=0),
                "multi_note_steps": sum(1 for s in self.steps if len(s.notes) >= 2),
                "total_cost": sum(costs), "complete": self.complete}

    def to_json(self) -> dict:
        """``{"case": title, "from_notes": [i] | null, "complete": bool, "steps": [spec step
        objects], "open": [{"cell", "possible"}], "profile": {...}, "fallback_steps": n,
        "seconds": {"first_step": s | null, "total": s}}``."""
        return {
            "case": self.case.title,
            "from_notes": self.notes,
            "complete": self.complete,
            "steps": [s.to_json() for s in self.steps],
            "open": [{"cell": self.cells[k].name, "possible": vals} for k, vals in self.open_cells],
            "profile": self.profile(),
            "fallback_steps": self.fallback_steps,
            "seconds": {"first_step": _round(self.seconds_first),
                        "total": _round(self.seconds_total)},
        }

    def candidates(self, upto: int) -> list[list[Value]]:
        """Per cell, the values not ruled out by the facts of steps ``0 .. upto - 1``."""
        known = {lit for s in self.steps[:upto] for lit in s.derived}
        return [cell_values(cell, known) for cell in self.cells]


def cell_values(cell: Cell, known: set[int]) -> list[Value]:
    """The values of ``cell`` that the known literals leave possible."""
    for v, lit in zip(cell.values, cell.lits):
        if lit in known:
            return [v]
    return [v for v, lit in zip(cell.values, cell.lits) if -lit not in known]


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


# ---------------------------------------------------------------------------------- search
def useful_axioms(model: CaseModel) -> list[str]:
    """The axiom kinds with clauses in this grid (``AXIOMS`` order): bijection with two
    categories or more, transitivity with three or more, one-value with an attribute or an
    unknown. The others can never take part in a step."""
    s = model.s
    have = {"bijection": len(s.categories) >= 2, "transitivity": len(s.categories) >= 3,
            "one-value": bool(s.attributes or s.unknowns)}
    return [k for k in AXIOMS if have[k]]


@dataclass(frozen=True)
class _Config:
    notes: tuple[int, ...]
    axioms: tuple[str, ...]

    @property
    def base(self) -> int:
        return explain_cost(len(self.notes), len(self.axioms), 0)


@dataclass(frozen=True)
class _Choice:
    config: _Config
    steps: tuple[int, ...]
    lit: int

    @property
    def cost(self) -> int:
        return self.config.base + COST_FACT * len(self.steps)


class Deriver:
    """The greedy step search over one model (see the module docstring)."""

    def __init__(self, model: CaseModel, incremental: bool = True):
        self.model = model
        self.oracle = SatOracle(model.b.clauses, self._fresh, incremental)
        self.notes = sorted(model.note_lits)
        self.axioms = useful_axioms(model)
        self.facts = {f.lit: f for f in model.facts()}
        self.order = {v: k for k, v in enumerate(self.facts)}
        self.steps: list[Step] = []
        self.selectors: list[int] = []
        self.derived: set[int] = set()
        self.fallback_steps = 0
        self._fresh_count = 0
        #: caches: targets a configuration forced last time; targets it forces alone;
        #: subset-minimal step sets per (configuration, target)
        self._implied: dict[_Config, list[int]] = {}
        self._forces_alone: dict[_Config, list[int]] = {}
        self._steps_for: dict[tuple[_Config, int], tuple[int, ...]] = {}

    def _fresh(self) -> int:
        self._fresh_count += 1
        return self.model.b.var(("explain", self._fresh_count))

    def lits(self, config: _Config) -> list[int]:
        return [self.model.axiom_lits[k] for k in config.axioms] + \
            [self.model.note_lits[i] for i in config.notes]

    # ------------------------------------------------------------------ targets
    def targets(self) -> list[int]:
        """Every fact literal all the compiled notes force (fact order)."""
        everything = self.model.assumptions()
        if not self.oracle.solve(everything):
            raise ValueError("the notes are contradictory")
        first = [v if self.oracle.true(v) else -v for v in self.facts]
        return forced(self.oracle, everything, first)

    # ------------------------------------------------------------------ the loop
    def run(self, targets: list[int], on_step: Callable[[Step], None] | None = None) -> list[Step]:
        """Derive ``targets`` step by step; ``on_step`` is called after every step."""
        remaining = list(targets)
        while remaining:
            step = self.next_step(remaining)
            self._record(step)
            done = set(step.derived)
            remaining = [lit for lit in remaining if lit not in done]
            if on_step:
                on_step(step)
        return self.steps

    def next_step(self, remaining: list[int]) -> Step:
        """The cheapest step that derives something in ``remaining``."""
        for k, axioms in self._levels():
            hits = self._hits(k, axioms, remaining)
            if hits:
                choice = self._cheapest(hits, remaining)
                return self._make_step(choice.config, choice.steps, remaining)
        self.fallback_steps += 1
        choice = self._fallback(remaining)
        return self._make_step(choice.config, choice.steps, remaining)

    def _levels(self) -> list[tuple[int, int]]:
        """(notes, axiom kinds) pairs in increasing base cost, while the subsets stay few."""
        n = len(self.notes)
        top = 0
        while top < n and math.comb(n, top + 1) <= MAX_SUBSETS:
            top += 1
        pairs = [(k, a) for k in range(top + 1) for a in range(len(self.axioms) + 1) if k or a]
        return sorted(pairs, key=lambda p: (explain_cost(p[0], p[1], 0), p[0]))

    def _hits(self, k: int, a: int, remaining: list[int]) -> list[tuple[_Config, list[int]]]:
        """Configurations of ``k`` notes and ``a`` axiom kinds that (with every derived step)
        force some remaining target, with targets they force.

        What a configuration forced at an earlier step it still forces (more facts only add
        consequences), so while some of those targets remain they are its hit and no solver
        call is made; otherwise the solver decides afresh.
        """
        left = set(remaining)
        hits = []
        for axioms in itertools.combinations(self.axioms, a):
            for notes in itertools.combinations(self.notes, k):
                config = _Config(notes, axioms)
                got = [lit for lit in self._implied.get(config, ()) if lit in left]
                if not got:
                    got = forced(self.oracle, self.lits(config) + self.selectors, remaining)
                    self._implied[config] = got
                if got:
                    hits.append((config, got))
        return hits

    def _cheapest(self, hits: list[tuple[_Config, list[int]]], remaining: list[int]) -> _Choice:
        """Among the hits (one cost level), a fact needing the fewest earlier steps.

        A fact a configuration forces on its own (no earlier step) is taken at once;
        otherwise facts are examined in order until one needs a single step (nothing can be
        cheaper) or ``MAX_CANDIDATES`` were examined.
        """
        left = set(remaining)
        for config, _lits in hits:
            alone = [lit for lit in self._alone(config, remaining) if lit in left]
            if alone:
                return _Choice(config, (), alone[0])
        best: _Choice | None = None
        examined = 0
        for config, lits in hits:
            for lit in lits:
                steps = self._min_steps(config, lit)
                choice = _Choice(config, steps, lit)
                if best is None or choice.cost < best.cost:
                    best = choice
                examined += 1
                if len(steps) <= 1 or examined >= MAX_CANDIDATES:
                    return best
        return best

    def _alone(self, config: _Config, remaining: list[int]) -> list[int]:
        """The targets ``config`` forces without any earlier step (computed once: it never
        changes)."""
        if config not in self._forces_alone:
            self._forces_alone[config] = forced(self.oracle, self.lits(config), remaining)
        return self._forces_alone[config]

    def _min_steps(self, config: _Config, lit: int) -> tuple[int, ...]:
        """A subset-minimal set of step indices that, with ``config``, forces ``lit``: the
        solver's core, then a deletion loop (latest steps tried first). A set found at an
        earlier step is reused: it stays subset-minimal, since it names the same steps."""
        key = (config, lit)
        if key in self._steps_for:
            return self._steps_for[key]
        base = self.lits(config)
        if self.oracle.solve(base + self.selectors + [-lit]):
            raise AssertionError("the literal does not follow")  # callers pass forced ones
        core = self.oracle.core
        kept = [k for k, sel in enumerate(self.selectors) if sel in core]
        for k in sorted(kept, reverse=True):
            if k not in kept:
                continue
            trial = [j for j in kept if j != k]
            if not self.oracle.solve(base + [self.selectors[j] for j in trial] + [-lit]):
                core = self.oracle.core
                kept = [j for j in trial if self.selectors[j] in core]
        self._steps_for[key] = tuple(kept)
        return self._steps_for[key]

    def _fallback(self, remaining: list[int]) -> _Choice:
        """Per remaining target (up to ``MAX_CANDIDATES``), a subset-minimal set of notes,
        axioms and steps (dropping notes first); the cheapest."""
        best: _Choice | None = None
        for lit in remaining[:MAX_CANDIDATES]:
            choice = self._minimal_for(lit)
            if best is None or choice.cost < best.cost:
                best = choice
        return best

    def _minimal_for(self, lit: int) -> _Choice:
        m = self.model
        notes = [m.note_lits[i] for i in self.notes]
        axioms = [m.axiom_lits[k] for k in self.axioms]
        kept = notes + axioms + list(self.selectors)
        for x in list(kept):  # notes first: the most expensive
            trial = [y for y in kept if y != x]
            if not self.oracle.solve(trial + [-lit]):
                core = self.oracle.core
                kept = [y for y in trial if y in core]
        note_ids, axiom_kinds = m.split(kept)
        steps = [k for k, s in enumerate(self.selectors) if s in kept]
        return _Choice(_Config(tuple(note_ids), tuple(axiom_kinds)), tuple(steps), lit)

    def _make_step(self, config: _Config, steps: Sequence[int], remaining: list[int]) -> Step:
        """The step citing ``config`` and ``steps``, deriving every remaining target they force."""
        base = self.lits(config) + [self.selectors[k] for k in steps]
        derived = forced(self.oracle, base, remaining)
        derived.sort(key=lambda lit: (lit < 0, self.order[abs(lit)]))
        texts = tuple(self.text(lit) for lit in derived)
        cost = explain_cost(len(config.notes), len(config.axioms), len(steps))
        return Step(tuple(derived), texts, config.notes, config.axioms, tuple(steps), cost)

    def _record(self, step: Step) -> None:
        sel = self._fresh()
        for lit in step.derived:
            self.oracle.add([-sel, lit])
        self.selectors.append(sel)
        self.steps.append(step)
        self.derived.update(step.derived)

    def text(self, lit: int) -> str:
        """A fact literal in the rule language (``Basil != hour[9]``)."""
        f = self.facts[abs(lit)]
        return f.text if lit > 0 else f.negated

    def close(self) -> None:
        self.oracle.close()


# ---------------------------------------------------------------------------------- entry
def explain_case(case: Case, notes: Iterable[int] | None = None,
                 on_step: Callable[[Step, int, int], None] | None = None,
                 incremental: bool = True, max_steps: int | None = None) -> Explanation:
    """The step-wise derivation of everything ``case``'s notes (or the subset ``notes``) force.

    ``on_step(step, derived_so_far, targets)`` is called after every step (progress bars).
    ``max_steps`` stops early (benchmarks of slow baselines). ``CaseContradiction`` (exit 3)
    when the chosen notes cannot all hold.
    """
    start = time.perf_counter()
    chosen = None if notes is None else sorted(set(notes))
    model = CaseModel(case, chosen)
    deriver = Deriver(model, incremental)
    try:
        if not model.consistent():
            raise CaseContradiction(case, model.minimal_conflict())
        targets = deriver.targets()
        first: list[float] = []
        progress = [0]

        def step_done(step: Step) -> None:
            if not first:
                first.append(time.perf_counter() - start)
            progress[0] += len(step.derived)
            if on_step:
                on_step(step, progress[0], len(targets))
            if max_steps is not None and len(deriver.steps) >= max_steps:
                raise _Stop()

        try:
            deriver.run(targets, step_done)
        except _Stop:
            pass
        known = set(deriver.derived)
        open_cells = []
        for k, cell in enumerate(model.cells):
            vals = cell_values(cell, known)
            if len(vals) != 1:
                open_cells.append((k, vals))
        return Explanation(case, chosen, deriver.steps, list(model.cells), open_cells,
                           first[0] if first else None, time.perf_counter() - start,
                           deriver.fallback_steps, deriver.oracle.calls)
    finally:
        deriver.close()
        model.close()


class _Stop(Exception):
    """Raised by the step callback to end a truncated run."""
