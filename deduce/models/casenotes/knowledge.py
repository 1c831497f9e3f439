"""What one player's notes still allow: the case compiled once, asked under any set of notes.

``CaseOracle(case)`` answers, for any set of known notes (indices), what a player holding
exactly those notes can conclude: every question's possible answers (``possible``), whether
they are all unique (``certain``), a guess (one consistent solution's answers, ``guess``),
how many grid facts are fixed (``fixed_facts``), every cell's possible values
(``cell_values``), whether the notes can hold together (``consistent``) and, when not, a
minimal conflicting set (``conflict``). It compiles the whole case once (each note has its
own assumption literal), so a player's model is the oracle under *their* notes only;
results are memoised per note set. With no questions, the "answers" are the cells of the
whole solution.

Two queries look past a player's notes, and say so: ``truth`` (the case's answers: what
221B Baker Street checks, the referee's hidden state in ``rules``) and ``plan`` /
``locations_needed`` (which locations' notes would fix every answer: the informed bot's
upper bound and the cooperative benchmark).

``View`` is what a player sees when choosing a move, read from the observation
``rules.State.observation`` gives (``View.from_observation``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Iterable

from deduce.models.casenotes.explain import SatOracle, forced
from deduce.models.casenotes.format import Case
from deduce.models.casenotes.model import CaseContradiction, CaseModel
from deduce.models.casenotes.schema import Value


class CaseOracle:
    """What any set of a case's notes implies (one solver for the whole game)."""

    def __init__(self, case: Case):
        self.case = case
        self.model = CaseModel(case)
        self._fresh_count = 0
        self.sat = SatOracle(self.model.b.clauses, self._fresh)
        if case.questions:
            self.labels = [q.text for q in case.questions]
            self.answer_lits = [dict(lits) for lits in self.model.answer_lits]
        else:
            self.labels = [cell.name for cell in self.model.cells]
            self.answer_lits = [dict(zip(c.values, c.lits)) for c in self.model.cells]
        self.sources = case.sources
        self.notes_at = [[n.index for n in case.notes if n.source == src] for src in self.sources]
        self.free_notes = frozenset(n.index for n in case.notes if n.source is None)
        self._truth: tuple[Value, ...] | None = None
        self._fact_lits: list[int] | None = None
        self._possible: dict[frozenset, tuple] = {}
        self._fixed: dict[frozenset, int] = {}
        self._plans: dict[frozenset, frozenset[int]] = {}
        self._cells: dict[frozenset, tuple] = {}

    def _fresh(self) -> int:
        self._fresh_count += 1
        return self.model.b.var(("play", self._fresh_count))

    def assumptions(self, known: Iterable[int]) -> list[int]:
        return self.model.assumptions(sorted(known))

    # ------------------------------------------------------------------ the referee's
    @property
    def truth(self) -> tuple[Value, ...]:
        """The case's answers (computed on first use): a solution of every note agreeing
        with ``[solution]`` when it can (else any solution of every note);
        ``CaseContradiction`` (exit 3) when the notes cannot all hold."""
        if self._truth is None:
            self._truth = self._find_truth()
        return self._truth

    def _find_truth(self) -> tuple[Value, ...]:
        from deduce.models.casenotes.check import solution_cells

        base = self.model.assumptions()
        fixed = [self.model.cells[k].lits[self.model.cells[k].values.index(v)]
                 for k, v in solution_cells(self.model, self.case.solution)]
        if fixed and self.sat.solve(base + fixed):
            return self._answers_in_model()
        if not self.sat.solve(base):
            raise CaseContradiction(self.case, self.model.minimal_conflict())
        return self._answers_in_model()

    def _answers_in_model(self) -> tuple[Value, ...]:
        return tuple(next(v for v, lit in lits.items() if self.sat.true(lit))
                     for lits in self.answer_lits)

    def _solution_facts(self) -> list[int]:
        """Every fact literal of one solution of all the notes (forced facts are among them)."""
        if self._fact_lits is None:
            self.sat.solve(self.model.assumptions())
            self._fact_lits = [v if self.sat.true(v) else -v
                               for v in (f.lit for f in self.model.facts())]
        return self._fact_lits

    # ------------------------------------------------------------------ a player's notes
    def consistent(self, known: Iterable[int]) -> bool:
        """Whether the ``known`` notes can all hold together."""
        return self.sat.solve(self.assumptions(known))

    def conflict(self, known: Iterable[int]) -> list[int]:
        """A minimal set of the ``known`` notes that cannot hold together (sorted indices);
        ``ValueError`` when they can."""
        notes = sorted(set(known))
        lits = self.model.minimal_subset(self.model.assumptions(notes=()),
                                         [self.model.note_lits[i] for i in notes])
        return self.model.split(lits)[0]

    def possible(self, known: frozenset[int]) -> tuple[tuple[Value, ...], ...]:
        """Per question, the answers some solution of the ``known`` notes gives."""
        if known not in self._possible:
            base = self.assumptions(known)
            out = []
            for lits in self.answer_lits:
                ruled_out = set(forced(self.sat, base, [-lit for lit in lits.values()]))
                out.append(tuple(v for v, lit in lits.items() if -lit not in ruled_out))
            self._possible[known] = tuple(out)
        return self._possible[known]

    def cell_values(self, known: frozenset[int]) -> tuple[tuple[Value, ...], ...]:
        """Per cell (``model.cells`` order), the values some solution of the ``known``
        notes gives it: what those notes force, as ``deduce case explain --from-notes``
        ends with."""
        if known not in self._cells:
            base = self.assumptions(known)
            cells = self.model.cells
            ruled_out = set(forced(self.sat, base, [-lit for c in cells for lit in c.lits]))
            self._cells[known] = tuple(
                tuple(v for v, lit in zip(c.values, c.lits) if -lit not in ruled_out)
                for c in cells)
        return self._cells[known]

    def certain(self, known: frozenset[int]) -> bool:
        """Whether the ``known`` notes fix every answer."""
        return all(len(p) == 1 for p in self.possible(known))

    def guess(self, known: frozenset[int], rng: random.Random | None = None) -> tuple[Value, ...]:
        """The answers of one solution of the ``known`` notes (the unique ones when
        certain): question by question, an answer consistent with the notes and the
        answers chosen before it, the first in the question's order or, with ``rng``, in a
        random order. It depends only on ``known`` and ``rng``, never on what the solver
        was asked before (an oracle is shared by many games in ``selfplay``)."""
        base = self.assumptions(known)
        if not self.sat.solve(base):
            raise ValueError("the notes are contradictory")
        chosen: list[int] = []
        answers = []
        for lits, values in zip(self.answer_lits, self.possible(known)):
            order = rng.sample(values, len(values)) if rng and len(values) > 1 else values
            v = next(v for v in order
                     if len(values) == 1 or self.sat.solve(base + chosen + [lits[v]]))
            chosen.append(lits[v])
            answers.append(v)
        return tuple(answers)

    def combinations(self, known: frozenset[int]) -> float:
        """log2 of the number of answer combinations the per-question answers allow."""
        return sum(math.log2(len(p)) for p in self.possible(known))

    def fixed_facts(self, known: frozenset[int]) -> int:
        """How many grid facts the ``known`` notes force."""
        if known not in self._fixed:
            self._fixed[known] = len(forced(self.sat, self.assumptions(known),
                                            self._solution_facts()))
        return self._fixed[known]

    # ------------------------------------------------------------------ past the notes
    def plan(self, known: frozenset[int]) -> frozenset[int]:
        """A smallest set of locations (indices) whose notes, with the ``known`` ones, fix
        every answer (empty when no set does, or none is needed)."""
        if known not in self._plans:
            from deduce.models.casenotes.check import minimal_sources

            names, _reason = minimal_sources(self.model, known)
            self._plans[known] = frozenset(self.sources.index(s) for s in names or ())
        return self._plans[known]

    def locations_needed(self) -> int | None:
        """How many locations a perfect game visits: the size of a smallest set whose
        notes fix every answer (None: no set does)."""
        if not hasattr(self, "_needed"):
            from deduce.models.casenotes.check import minimal_sources

            chosen, _reason = minimal_sources(self.model)
            self._needed = None if chosen is None else len(chosen)
        return self._needed

    def close(self) -> None:
        self.sat.close()
        self.model.close()

    def __enter__(self) -> "CaseOracle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass(frozen=True)
class View:
    """What a player sees when choosing: their tokens, the notes they have read, the
    locations they have visited, the pawns on the board this round (location -> tokens on
    it) and, in cooperative play, whether the Carriage Stop's bonus is claimed."""

    tokens: int
    known: frozenset[int]
    visited: frozenset[int]
    occupied: dict[int, int]
    stop_used: bool = False

    @classmethod
    def from_observation(cls, obs: dict) -> "View":
        """The view in ``rules.State.observation(player)``'s JSON."""
        me = obs["me"]
        occupied = {p["location"]: p["bid"] for p in obs["pawns"] if p["action"] == "visit"}
        return cls(me["tokens"], frozenset(me["notes"]), frozenset(me["visited"]), occupied,
                   obs["carriage_stop_used"])


def read_observation(observation: dict) -> View:
    """An observation (``rules.State.observation``) read as the view a bot decides from."""
    return View.from_observation(observation)
