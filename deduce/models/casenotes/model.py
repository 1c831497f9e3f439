"""The pysat CNF of a case: grid facts, guarded axiom groups, one assumption per note.

Variables (the *facts* an explanation talks about, ``CaseModel.facts()``):

- ``same(A, i, B, j)``: item ``i`` of category ``A`` and item ``j`` of ``B`` are in one row;
  one variable per unordered pair of categories (the key category included: ``same(key, r,
  B, j)`` says row ``r`` holds item ``j`` of ``B``). Within a category it is a constant.
- ``attr(a, i, v)``: item ``i`` of attribute ``a``'s category has value ``v``.
- ``unk(u, k)``: unknown ``u`` is item ``k`` of its category, or its ``k``-th free value.

Axiom groups, each switched on by one literal (``axiom_lits``), so explanations can cite
them: ``bijection`` (for every two categories, each item of one matches exactly one item of
the other), ``transitivity`` (``same(A,i,B,j) and same(B,j,C,k) -> same(A,i,C,k)``),
``one-value`` (each attribute of each item, and each unknown, has exactly one value).
With all three on, the solutions of the ``same`` variables are exactly the grids.

Notes: ``note_lits[i]`` is note ``i``'s assumption literal; ``note_holds[i]`` is a literal
*equivalent* to the note's condition (a Tseitin gate, so ``-note_holds[i]`` is its
negation); the clause ``note_lits[i] -> note_holds[i]`` switches the note on.

A *cell* (``Cell``) is one entry of a complete solution: the item of a non-key category in a
key row, an attribute of one item, or an unknown; a solution gives each cell one value,
and the cells fix every ``same``, ``attr`` and ``unk`` variable (the solution count is the
number of models projected on the cells). Cells are named in the rule language:
``room(hour[7])``, ``boots("Ada Finch")``, ``thief``.

Everything a reasoning step needs is here: ``implies(notes, axioms, facts, lit)``,
``consistent``, ``minimal_subset`` (a MUS over any assumption literals), ``possible``,
``witness``, ``compile_rule`` for a new condition (``why``), ``count_solutions``.

``consistent_model(case)`` is the model of a case whose notes hold together, else
``CaseContradiction`` (exit 3) naming a minimal conflicting set of notes;
``possible_answers(model)`` every answer some solution gives each question.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator

from pysat.solvers import Solver

from deduce.core.errors import ContradictionError, InputError
from deduce.core.sat import OwnsSolver, minimal_unsat_subset
from deduce.models.casenotes import language as L
from deduce.models.casenotes.builder import Builder, TooBig
from deduce.models.casenotes.counting import count_projected
from deduce.models.casenotes.format import Case
from deduce.models.casenotes.schema import Value

#: Many small incremental calls under assumptions.
SOLVER = "minisat22"
#: Solutions are counted exactly up to at least this many (the spec's 10,000).
LIMIT = 10_000
AXIOMS = ("bijection", "transitivity", "one-value")
#: What each axiom kind says, for people.
AXIOM_TEXT = {
    "bijection": "each item of a category matches exactly one item of every other category",
    "transitivity": "two items in a row with the same item are in one row",
    "one-value": "every attribute of every item, and every unknown, has exactly one value",
}
#: Gate variables one rule may add before it is refused as too large.
RULE_BUDGET = 50_000
#: Gate requests (memoised or new) one rule may make: bounds the compile time.
RULE_WORK = 50_000
#: Gate requests all the notes and questions of a case may make together: bounds the time
#: a case takes to compile, whatever the number of notes.
CASE_WORK = 50_000
#: Bindings of a comprehension's ``for`` variables.
MAX_BINDINGS = 5_000
#: Value pairs of one comparison or arithmetic operation.
MAX_DOMAIN = 20_000


class CaseContradiction(ContradictionError):
    """No solution fits the notes; ``conflict`` is a minimal set of note indices."""

    def __init__(self, case: Case, conflict: list[int]):
        self.case = case
        lines = "\n".join("  " + case.notes[i].describe() for i in conflict)
        super().__init__(f"{case.path}: the notes cannot all hold; a minimal conflicting set "
                         f"({len(conflict)} note{'s' if len(conflict) != 1 else ''}):\n{lines}",
                         conflict)

    def to_json(self) -> dict:
        return {"status": "none", "solutions": 0, **super().to_json(),
                "notes": [{"index": i, "source": self.case.notes[i].source,
                           "text": self.case.notes[i].text, "rule": self.case.notes[i].rule}
                          for i in self.conflict]}


@dataclass(frozen=True)
class RowVal:
    """A row as a one-hot over the items of ``cat``: ``lits[i]`` is "the row holds item i"."""

    cat: int
    lits: tuple[int, ...]


@dataclass(frozen=True)
class Cell:
    """One entry of a complete solution and its value literals (one-hot)."""

    name: str
    kind: str  # "grid", "attribute" or "unknown"
    key: tuple  # grid: (row, category); attribute: (attribute, item); unknown: (name,)
    values: tuple[Value, ...]
    lits: tuple[int, ...]


@dataclass(frozen=True)
class Fact:
    """A grid fact: ``lit`` (a positive variable) and its text in the rule language."""

    lit: int
    text: str
    negated: str


class CaseModel(OwnsSolver):
    """The CNF of ``case``; ``notes`` restricts which notes are compiled (default: all)."""

    def __init__(self, case: Case, notes: Iterable[int] | None = None):
        self.case = case
        self.s = case.schema
        self.b = Builder()
        self.TRUE, self.FALSE = self.b.TRUE, self.b.FALSE
        self.cats = self.s.cat_names
        self.n = self.s.size
        self._case_work = CASE_WORK
        self.axiom_lits = {k: self.b.var(("axiom", k)) for k in AXIOMS}
        self._encode_axioms()
        self.cells = self._make_cells()
        wanted = range(len(case.notes)) if notes is None else sorted(set(notes))
        self.note_lits: dict[int, int] = {}
        self.note_holds: dict[int, int] = {}
        for i in wanted:
            note = case.notes[i]
            holds = self._guarded(lambda e=note.expr: self.cond(e, {}), note.expr,
                                  f"{case.path}: note {i}", note.rule, in_case=True)
            self.note_lits[i] = self.b.var(("note", i))
            self.note_holds[i] = holds
            self.b.clauses.append([-self.note_lits[i], holds])
        self.answer_lits: list[dict] = [
            self.compile_value(q.expr, where=f"{case.path}: question {q.index}, field 'answer'",
                               src=q.answer, in_case=True)
            for q in case.questions
        ]
        self._lit_note = {v: i for i, v in self.note_lits.items()}
        self._lit_axiom = {v: k for k, v in self.axiom_lits.items()}
        self._solver = Solver(name=SOLVER)
        self._flushed = 0

    # ------------------------------------------------------------------ variables
    def same(self, a: int, i: int, b: int, j: int) -> int:
        """Literal: item ``i`` of category ``a`` and item ``j`` of ``b`` share a row (indices)."""
        if a == b:
            return self.b.const(i == j)
        if a > b:
            a, i, b, j = b, j, a, i
        return self.b.var(("same", a, i, b, j))

    def attr(self, name: str, i: int, v: int) -> int:
        """Literal: item ``i`` of the attribute's category has its ``v``-th value."""
        return self.b.var(("attr", name, i, v))

    def unk(self, name: str, k: int) -> int:
        """Literal: the unknown is item ``k`` of its category (or its ``k``-th free value)."""
        return self.b.var(("unk", name, k))

    # ------------------------------------------------------------------ axioms and cells
    def _encode_axioms(self) -> None:
        m, n, b = len(self.cats), self.n, self.b
        bij, tra, one = (self.axiom_lits[k] for k in AXIOMS)
        for x, y in itertools.combinations(range(m), 2):
            for i in range(n):
                b.exactly_one([self.same(x, i, y, j) for j in range(n)], guard=bij)
                b.exactly_one([self.same(x, j, y, i) for j in range(n)], guard=bij)
        for mid in range(m):
            ends = [c for c in range(m) if c != mid]
            for x, y in itertools.combinations(ends, 2):
                for i, j, k in itertools.product(range(n), repeat=3):
                    b.clauses.append([-tra, -self.same(x, i, mid, j), -self.same(mid, j, y, k),
                                      self.same(x, i, y, k)])
        for a in self.s.attributes.values():
            for i in range(len(self.s.categories[a.of].items)):
                b.exactly_one([self.attr(a.name, i, v) for v in range(len(a.values))], guard=one)
        for u in self.s.unknowns.values():
            size = self.n if u.category else len(u.values)
            b.exactly_one([self.unk(u.name, k) for k in range(size)], guard=one)

    def _make_cells(self) -> list[Cell]:
        s, key = self.s, self.cats[0]
        cells = []
        for r in range(self.n):
            for c in range(1, len(self.cats)):
                cat = self.cats[c]
                cells.append(Cell(f"{cat}({s.ref(key, r)})", "grid", (r, cat), s.categories[cat].items,
                                  tuple(self.same(0, r, c, i) for i in range(self.n))))
        for a in s.attributes.values():
            for i in range(len(s.categories[a.of].items)):
                cells.append(Cell(f"{a.name}({s.ref(a.of, i)})", "attribute", (a.name, i), a.values,
                                  tuple(self.attr(a.name, i, v) for v in range(len(a.values)))))
        for u in s.unknowns.values():
            values = s.categories[u.category].items if u.category else u.values
            cells.append(Cell(u.name, "unknown", (u.name,), values,
                              tuple(self.unk(u.name, k) for k in range(len(values)))))
        return cells

    def facts(self) -> list[Fact]:
        """Every grid fact variable with its text: ``same`` pairs, attributes, unknowns."""
        s, out = self.s, []
        for x, y in itertools.combinations(range(len(self.cats)), 2):
            for i, j in itertools.product(range(self.n), repeat=2):
                a, b = s.ref(self.cats[x], i), s.ref(self.cats[y], j)
                out.append(Fact(self.same(x, i, y, j), f"{a} == {b}", f"{a} != {b}"))
        for cell in self.cells:
            if cell.kind == "grid":
                continue
            u = self.s.unknowns.get(cell.name) if cell.kind == "unknown" else None
            for k, (v, lit) in enumerate(zip(cell.values, cell.lits)):
                text = s.ref(u.category, k) if u is not None and u.category else _literal(v)
                out.append(Fact(lit, f"{cell.name} == {text}", f"{cell.name} != {text}"))
        return out

    # ------------------------------------------------------------------ compiling rules
    def compile_rule(self, expr: L.Expr, where: str = "rule", src: str = "") -> int:
        """A literal equivalent to the condition ``expr`` (gates are added to the CNF)."""
        return self._guarded(lambda: self.cond(expr, {}), expr, where, src)

    def compile_value(self, expr: L.Expr, where: str = "answer", src: str = "",
                      in_case: bool = False) -> dict:
        """``{value: literal}`` for any expression: exactly one literal is true in a solution.

        A row gives its anchor category's items, a condition ``{True: l, False: -l}``.
        ``in_case``: a question of the case (it counts in ``CASE_WORK``).
        """
        def run() -> dict:
            if expr.kind == "bool":
                lit = self.cond(expr, {})
                return {True: lit, False: -lit}
            if expr.kind == "row":
                rv = self.row(expr, {})
                items = self.s.categories[self.cats[rv.cat]].items
                return {items[i]: lit for i, lit in enumerate(rv.lits)}
            if expr.kind == "num":
                return dict(sorted(self.num(expr, {}).items()))
            return self.sym(expr, {})
        return self._guarded(run, expr, where, src, in_case)

    def _guarded(self, run, expr: L.Expr, where: str, src: str, in_case: bool = False):
        """``run()`` within the caps: ``RULE_WORK`` gate requests (and, ``in_case``, what is
        left of ``CASE_WORK``), ``MAX_BINDINGS``, ``MAX_DOMAIN``; past one, an
        ``InputError`` at ``where`` naming it."""
        work = min(RULE_WORK, self._case_work) if in_case else RULE_WORK
        self.b.budget, self.b.work = RULE_BUDGET, work
        try:
            return run()
        except TooBig as exc:
            if exc.args:
                reason = f"the rule is too large to compile: {exc.args[0]}"
            elif work < RULE_WORK:
                reason = (f"the case is too large to compile: its notes and questions need "
                          f"more than the cap of {CASE_WORK:,} logic gates in all")
            else:
                reason = (f"the rule is too large to compile: more than the cap of "
                          f"{RULE_WORK:,} logic gates")
            raise L.rule_error(src, getattr(expr, "col", 1), reason, where) from None
        finally:
            if in_case:
                self._case_work -= work - max(self.b.work, 0)
            self.b.budget = self.b.work = None

    def row(self, e: L.Expr, env: dict) -> RowVal:
        if isinstance(e, L.Item):
            return self._fixed(self.s.cat_index(e.cat), e.index)
        if isinstance(e, L.Var):
            return self._fixed(self.s.cat_index(e.cat), env[e.name])
        if isinstance(e, L.URow):
            return RowVal(self.s.cat_index(e.cat), tuple(self.unk(e.name, k) for k in range(self.n)))
        if isinstance(e, L.CatOf):
            return self.convert(self.row(e.row, env), self.s.cat_index(e.cat))
        raise TypeError(f"not a row: {e!r}")  # the parser only makes the four kinds

    def _fixed(self, cat: int, index: int) -> RowVal:
        return RowVal(cat, tuple(self.b.const(k == index) for k in range(self.n)))

    def _fixed_index(self, rv: RowVal) -> int | None:
        if rv.lits.count(self.TRUE) == 1:
            return rv.lits.index(self.TRUE)
        return None

    def convert(self, rv: RowVal, cat: int) -> RowVal:
        """The same row seen through category ``cat``."""
        if rv.cat == cat:
            return rv
        i = self._fixed_index(rv)
        if i is not None:
            return RowVal(cat, tuple(self.same(rv.cat, i, cat, j) for j in range(self.n)))
        b = self.b
        return RowVal(cat, tuple(
            b.or_(b.and_([lit, self.same(rv.cat, i, cat, j)]) for i, lit in enumerate(rv.lits))
            for j in range(self.n)))

    def row_eq(self, ra: RowVal, rb: RowVal) -> int:
        if self._fixed_index(ra) is None and self._fixed_index(rb) is not None:
            ra, rb = rb, ra
        rb = self.convert(rb, ra.cat)
        return self.b.or_(self.b.and_([x, y]) for x, y in zip(ra.lits, rb.lits))

    def num(self, e: L.Expr, env: dict) -> dict[int, int]:
        b = self.b
        if isinstance(e, L.Num):
            return {e.value: self.TRUE}
        if isinstance(e, L.AsNum):
            rv = self.row(e.row, env)
            items = self.s.categories[self.cats[rv.cat]].items
            return {items[i]: lit for i, lit in enumerate(rv.lits) if lit != self.FALSE}
        if isinstance(e, L.Arith):
            da, db = self.num(e.a, env), self.num(e.b, env)
            if len(da) * len(db) > MAX_DOMAIN:
                raise TooBig(_TOO_MANY_PAIRS)
            op = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[e.op]
            return self._merge((op(x, y), b.and_([la, lb])) for x, la in da.items() for y, lb in db.items())
        if isinstance(e, L.Abs):
            return self._merge((abs(x), la) for x, la in self.num(e.a, env).items())
        if isinstance(e, L.Neg):
            return self._merge((-x, la) for x, la in self.num(e.a, env).items())
        if isinstance(e, L.Count):
            conds = [self.cond(c, env) for c in e.items] if e.comp is None else \
                [b.and_([f, body]) for f, body in self._ground(e.comp, env)]
            dist = {0: self.TRUE}
            for c in conds:
                nxt: dict[int, list[int]] = {}
                for k, lit in dist.items():
                    nxt.setdefault(k, []).append(b.and_([lit, -c]))
                    nxt.setdefault(k + 1, []).append(b.and_([lit, c]))
                dist = {k: b.or_(v) for k, v in nxt.items()}
                dist = {k: v for k, v in dist.items() if v != self.FALSE}
            return dist
        raise TypeError(f"not a number: {e!r}")

    def _merge(self, pairs) -> dict[int, int]:
        acc: dict[int, list[int]] = {}
        for v, lit in pairs:
            if lit != self.FALSE:
                acc.setdefault(v, []).append(lit)
        return {v: self.b.or_(lits) for v, lits in acc.items()}

    def sym(self, e: L.Expr, env: dict) -> dict:
        if isinstance(e, L.Sym):
            return {e.value: self.TRUE}
        if isinstance(e, L.UFree):
            values = self.s.unknowns[e.name].values
            return {v: self.unk(e.name, k) for k, v in enumerate(values)}
        if isinstance(e, L.AttrOf):
            a = self.s.attributes[e.attr]
            rv = self.convert(self.row(e.row, env), self.s.cat_index(a.of))
            b = self.b
            return {v: b.or_(b.and_([lit, self.attr(a.name, i, k)]) for i, lit in enumerate(rv.lits))
                    for k, v in enumerate(a.values)}
        raise TypeError(f"not a value: {e!r}")

    def _ground(self, comp: L.Comp, env: dict) -> Iterator[tuple[int, int]]:
        """(filter, body) literals for every binding of the comprehension's variables."""
        sizes = [range(len(self.s.categories[cat].items)) for _v, cat in comp.gens]
        total = 1
        for s in sizes:
            total *= len(s)
        if total > MAX_BINDINGS:
            raise TooBig(f"more than the cap of {MAX_BINDINGS:,} bindings of its 'for' "
                         f"variables ({total:,})")
        for combo in itertools.product(*sizes):
            inner = dict(env)
            inner.update({v: k for (v, _c), k in zip(comp.gens, combo)})
            filt = self.b.and_([self.cond(c, inner) for c in comp.conds])
            if filt == self.FALSE:
                continue
            yield filt, self.cond(comp.body, inner)

    def cond(self, e: L.Expr, env: dict) -> int:
        b = self.b
        if isinstance(e, L.BoolConst):
            return b.const(e.value)
        if isinstance(e, L.And):
            return b.and_([self.cond(x, env) for x in e.items])
        if isinstance(e, L.Or):
            return b.or_([self.cond(x, env) for x in e.items])
        if isinstance(e, L.Not):
            return -self.cond(e.a, env)
        if isinstance(e, L.Implies):
            return b.or_([-self.cond(e.a, env), self.cond(e.b, env)])
        if isinstance(e, L.Iff):
            return b.iff(self.cond(e.a, env), self.cond(e.b, env))
        if isinstance(e, L.Xor):
            return -b.iff(self.cond(e.a, env), self.cond(e.b, env))
        if isinstance(e, L.RowEq):
            return self.row_eq(self.row(e.a, env), self.row(e.b, env))
        if isinstance(e, L.NumCmp):
            da, db = self.num(e.a, env), self.num(e.b, env)
            if len(da) * len(db) > MAX_DOMAIN:
                raise TooBig(_TOO_MANY_PAIRS)
            test = _CMP[e.op]
            return b.or_(b.and_([la, lb]) for x, la in da.items() for y, lb in db.items() if test(x, y))
        if isinstance(e, L.SymEq):
            da, db = self.sym(e.a, env), self.sym(e.b, env)
            return b.or_(b.and_([la, db[v]]) for v, la in da.items() if v in db)
        if isinstance(e, L.Quant):
            pairs = list(self._ground(e.comp, env))
            if e.which == "all":
                return b.and_([b.or_([-f, body]) for f, body in pairs])
            return b.or_([b.and_([f, body]) for f, body in pairs])
        raise TypeError(f"not a condition: {e!r}")

    # ------------------------------------------------------------------ solving
    def assumptions(self, notes: Iterable[int] | None = None,
                    axioms: Iterable[str] | None = None) -> list[int]:
        """Axiom literals (default: all) and note literals (default: every compiled note)."""
        ax = AXIOMS if axioms is None else axioms
        ns = self.note_lits if notes is None else notes
        return [self.axiom_lits[k] for k in ax] + [self.note_lits[i] for i in ns]

    def solve(self, assumptions: list[int]) -> bool:
        """Satisfiable under ``assumptions``? (The model is then ``self.last_model``.)"""
        if self._flushed < len(self.b.clauses):
            self._solver.append_formula(self.b.clauses[self._flushed:])
            self._flushed = len(self.b.clauses)
        ok = bool(self._solver.solve(assumptions=assumptions))
        self.last_model = self._solver.get_model() if ok else None
        return ok

    def consistent(self, notes: Iterable[int] | None = None) -> bool:
        """Whether the notes (default: all) hold together under every axiom."""
        return self.solve(self.assumptions(notes))

    def implies(self, notes: Iterable[int], axioms: Iterable[str], facts: Iterable[int],
                lit: int) -> bool:
        """Whether the notes, the axiom kinds and the fact literals force ``lit``."""
        return not self.solve(self.assumptions(notes, axioms) + list(facts) + [-lit])

    def possible(self, lits: dict, assumptions: list[int]) -> set:
        """The keys of ``lits`` whose literal is true in some solution under ``assumptions``."""
        found: set = set()
        if not self.solve(assumptions):
            return found
        model = self.last_model
        pending = {k: v for k, v in lits.items() if v != self.FALSE}
        while True:
            found.update(k for k, v in pending.items() if self.b.value(model, v))
            pending = {k: v for k, v in pending.items() if k not in found}
            if not pending:
                return found
            key, lit = next(iter(pending.items()))
            if self.solve(assumptions + [lit]):
                model = self.last_model
            else:
                del pending[key]

    def minimal_subset(self, hard: list[int], soft: list[int]) -> list[int]:
        """A subset-minimal part of ``soft`` unsatisfiable with ``hard``, small sets first
        (``core.sat.minimal_unsat_subset``); ``ValueError`` if ``hard + soft`` is satisfiable."""
        return minimal_unsat_subset(self.solve, self._solver.get_core, hard, soft)

    def split(self, lits: Iterable[int]) -> tuple[list[int], list[str]]:
        """Assumption literals -> (sorted note indices, axiom kinds in ``AXIOMS`` order)."""
        lits = set(lits)
        notes = sorted(self._lit_note[v] for v in lits if v in self._lit_note)
        axioms = [k for k in AXIOMS if self.axiom_lits[k] in lits]
        return notes, axioms

    def minimal_conflict(self) -> list[int]:
        """Sorted note indices: a minimal set of notes that cannot hold together (all axioms on)."""
        mus = self.minimal_subset(self.assumptions(notes=()), list(self.note_lits.values()))
        return self.split(mus)[0]

    # ------------------------------------------------------------------ solutions
    def decode(self, model: list[int]) -> tuple[Value, ...]:
        """The value of every cell (``self.cells`` order) in a solver model."""
        out = []
        for cell in self.cells:
            vals = [v for v, lit in zip(cell.values, cell.lits) if self.b.value(model, lit)]
            out.append(vals[0])
        return tuple(out)

    def cell_lits(self, solution: tuple[Value, ...]) -> list[int]:
        """The literals that fix ``solution`` (one per cell)."""
        return [cell.lits[cell.values.index(v)] for cell, v in zip(self.cells, solution)]

    def witness(self, assumptions: list[int]) -> tuple[Value, ...] | None:
        """One solution under ``assumptions`` (cell values), or None."""
        return self.decode(self.last_model) if self.solve(assumptions) else None

    def another(self, solution: tuple[Value, ...], assumptions: list[int],
                cells: Iterable[int] | None = None) -> tuple[Value, ...] | None:
        """A solution differing from ``solution`` on some of ``cells`` (default: any), or None."""
        idx = range(len(self.cells)) if cells is None else cells
        act = self.b.var(("block", len(self.b.clauses)))
        fixed = self.cell_lits(solution)
        self.b.clauses.append([-act] + [-fixed[k] for k in idx])
        try:
            return self.witness(assumptions + [act])
        finally:
            self.b.clauses.append([-act])

    def solution_json(self, solution: tuple[Value, ...]) -> dict:
        """``{"grid": [rows in key order], "attributes": {a: {item: v}}, "unknowns": {u: v}}``."""
        s, key = self.s, self.cats[0]
        grid = [{key: item} for item in s.key.items]
        attributes: dict[str, dict] = {a: {} for a in s.attributes}
        unknowns: dict[str, Value] = {}
        for cell, v in zip(self.cells, solution):
            if cell.kind == "grid":
                grid[cell.key[0]][cell.key[1]] = v
            elif cell.kind == "attribute":
                item = s.categories[s.attributes[cell.key[0]].of].items[cell.key[1]]
                attributes[cell.key[0]][str(item)] = v
            else:
                unknowns[cell.name] = v
        return {"grid": grid, "attributes": attributes, "unknowns": unknowns}

    def solutions(self, assumptions: list[int], limit: int | None = None) -> Iterator[tuple]:
        """Every solution under ``assumptions`` (at most ``limit``), once each."""
        self.solve([])
        solver = Solver(name=SOLVER, bootstrap_with=self.b.clauses)
        try:
            count = 0
            while (limit is None or count < limit) and solver.solve(assumptions=assumptions):
                sol = self.decode(solver.get_model())
                yield sol
                count += 1
                solver.add_clause([-lit for lit in self.cell_lits(sol)])
        finally:
            solver.delete()

    def count_solutions(self, notes: Iterable[int] | None = None, limit: int = LIMIT) -> tuple[int, bool]:
        """(number of solutions, exact?) with the given notes (default: all) and all axioms.

        Independent parts (e.g. an attribute no note mentions) are counted apart and
        multiplied; each part is enumerated up to ``limit``; a part that reaches it, or an
        enumeration past ``counting.COUNT_EFFORT`` solver propagations, makes the count a
        lower bound (``exact`` False; at least 2 when there are two solutions). The spec
        counts exactly up to ``limit``: an enumeration that runs out of effort below it is
        an ``InputError`` naming the cap, never a lower bound under ``limit``.
        """
        chosen = set(self.note_lits if notes is None else notes)
        true = {self.TRUE} | set(self.axiom_lits.values()) | {self.note_lits[i] for i in chosen}
        false = {self.note_lits[i] for i in self.note_lits if i not in chosen}
        assumptions = self.assumptions(sorted(chosen))
        first = self.witness(assumptions)
        if first is None:
            return 0, True
        if self.another(first, assumptions) is None:
            return 1, True
        projection = [lit for cell in self.cells for lit in cell.lits if abs(lit) != self.TRUE]
        count, exact = count_projected(self.b.clauses, true, false, projection, limit, SOLVER,
                                       self.b.gate_clauses)
        if not exact and count < limit:
            from deduce.models.casenotes.counting import COUNT_EFFORT

            raise InputError(f"counting the solutions takes more than the cap of "
                             f"{COUNT_EFFORT:,} solver propagations ({count:,} found before it, "
                             f"and counts are exact up to {limit:,}): the case is too loose or "
                             "too large to count")
        return max(count, 2), exact

def consistent_model(case: Case, notes: Iterable[int] | None = None) -> CaseModel:
    """The case's model with ``notes`` (default: all); ``CaseContradiction`` if they
    cannot all hold."""
    model = CaseModel(case, notes)
    if not model.consistent():
        conflict = model.minimal_conflict()
        model.close()
        raise CaseContradiction(case, conflict)
    return model


def possible_answers(model: CaseModel) -> list[list[Value]]:
    """Per question (file order), every answer some solution gives, in domain order."""
    base = model.assumptions()
    out = []
    for lits in model.answer_lits:
        found = model.possible(lits, base)
        out.append([v for v in lits if v in found])
    return out


_TOO_MANY_PAIRS = f"more than the cap of {MAX_DOMAIN:,} value pairs in one comparison or operation"

_CMP = {"==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
        "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}


def _literal(v: Value) -> str:
    return str(v) if isinstance(v, int) else '"' + str(v).replace('"', '\\"') + '"'
