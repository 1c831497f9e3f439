"""Bots for case-notes self-play (``deduce case play``): what a set of notes implies, and how
to choose the next location.

``CaseOracle`` answers, for any set of known notes (indices), what a player holding exactly
those notes can conclude: every question's possible answers, whether they are all unique,
a guess (one consistent solution's answers), how many grid facts are fixed. It compiles
the whole case once (each note has its own assumption literal), so a bot's model is the
oracle under *its* notes only; results are memoised per note set. With no questions, the
"answers" are the cells of the whole solution.

Strategies (``STRATEGIES``) rank the locations a bot has not visited yet, best first:

- ``informed``: knows every location's notes in advance (no player can: an upper bound on
  play; it still answers only from the notes it has read). It heads for a smallest set of
  locations that, with what it has read, fixes every answer (``check.minimal_sources``),
  and among those (then among the rest) prefers the one whose notes leave the fewest
  answer combinations, then the most fixed grid facts.
- ``fair``: only what a player sees: how many words of a location's name occur in the case
  introduction, the questions and the notes the bot has read (the rulebook's advice: begin
  with the places the introduction mentions); ties at random (seeded).

``Bot.decide`` turns a ranking into an action (``Action``): go to 221B Baker Street when
every answer is unique (or nothing is left to visit: then it guesses); else the best
location, outbidding the pawn there (one token more, at most ``BID_CAP``) only when it is
better than the best free one by the strategy's first criterion (informed: planned versus
not planned; fair: more name words) -- tokens also decide who answers first at 221B, so
they are not spent on a mere preference; else the best free location on foot; else the
Carriage Stop. Cooperative teams pay a token per trip: with one token left, more than one
location still to visit and the Carriage Stop's bonus unclaimed, they take it first
(``Bot.decide_team``).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Iterable

from deduce.models.casenotes.explain import SatOracle, forced
from deduce.models.casenotes.format import Case
from deduce.models.casenotes.model import CaseModel
from deduce.models.casenotes.schema import Value

#: The most tokens a bot bids for a contested location.
BID_CAP = 3
STRATEGIES = ("informed", "fair")
_MIN_WORD = 4
_PREFIX = re.compile(r"^\s*location\s*\d+\s*[:.\-]?\s*", re.IGNORECASE)
_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)


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
        self.truth = self._truth()
        self._fact_lits = self._solution_facts()
        self._possible: dict[frozenset, tuple] = {}
        self._fixed: dict[frozenset, int] = {}
        self._plans: dict[frozenset, frozenset[int]] = {}

    def _fresh(self) -> int:
        self._fresh_count += 1
        return self.model.b.var(("play", self._fresh_count))

    def assumptions(self, known: Iterable[int]) -> list[int]:
        return self.model.assumptions(sorted(known))

    def _truth(self) -> tuple[Value, ...]:
        """The case's answers: a solution of every note agreeing with ``[solution]`` when it
        can (else any solution of every note)."""
        from deduce.models.casenotes.check import solution_cells

        base = self.model.assumptions()
        fixed = [self.model.cells[k].lits[self.model.cells[k].values.index(v)]
                 for k, v in solution_cells(self.model, self.case.solution)]
        if fixed and self.sat.solve(base + fixed):
            return self._answers_in_model()
        if not self.sat.solve(base):
            raise ValueError("the notes are contradictory")
        return self._answers_in_model()

    def _answers_in_model(self) -> tuple[Value, ...]:
        return tuple(next(v for v, lit in lits.items() if self.sat.true(lit))
                     for lits in self.answer_lits)

    def _solution_facts(self) -> list[int]:
        """Every fact literal of one solution of all the notes (forced facts are among them)."""
        self.sat.solve(self.model.assumptions())
        return [v if self.sat.true(v) else -v for v in (f.lit for f in self.model.facts())]

    # ------------------------------------------------------------------ queries
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
            self._fixed[known] = len(forced(self.sat, self.assumptions(known), self._fact_lits))
        return self._fixed[known]

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


@dataclass(frozen=True)
class Action:
    """``kind``: ``"visit"`` (``source`` index, ``bid`` tokens: 0 on foot), ``"stop"`` (the
    Carriage Stop) or ``"221B"`` (answer the questions)."""

    kind: str
    source: int | None = None
    bid: int = 0


@dataclass(frozen=True)
class View:
    """What a bot sees when it chooses: its tokens, the notes it has read, the locations it
    has visited, the pawns on the board (location -> tokens on it) and, in cooperative
    play, whether the Carriage Stop's bonus is claimed."""

    tokens: int
    known: frozenset[int]
    visited: frozenset[int]
    occupied: dict[int, int]
    stop_used: bool = False


class Bot:
    """One player: a ranking strategy and its own seeded random tie-breaks."""

    def __init__(self, strategy: str, oracle: CaseOracle, rng: random.Random):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        self.strategy = strategy
        self.oracle = oracle
        self.rng = rng

    # ------------------------------------------------------------------ ranking
    def rank(self, known: frozenset[int], candidates: list[int]) -> list[tuple[tuple, int]]:
        """(score, location) for each candidate, best (smallest score) first; ties in a
        random order (the bot's seeded generator)."""
        scored = [(self.score(known, src), self.rng.random(), src) for src in candidates]
        scored.sort()
        return [(score, src) for score, _tie, src in scored]

    def score(self, known: frozenset[int], source: int) -> tuple:
        if self.strategy == "informed":
            after = known | frozenset(self.oracle.notes_at[source])
            planned = source in self.oracle.plan(known)
            return (not planned, round(self.oracle.combinations(after), 9),
                    -self.oracle.fixed_facts(after))
        return (-self._name_hits(known, source),)

    def _name_hits(self, known: frozenset[int], source: int) -> int:
        """How many words of the location's name occur in what the bot has read."""
        case = self.oracle.case
        texts = [case.intro or "", case.title] + [q.text for q in case.questions] + \
            [case.notes[i].text for i in sorted(known)]
        seen = {w for t in texts for w in _words(t)}
        return sum(1 for w in set(_words(_PREFIX.sub("", self.oracle.sources[source])))
                   if w in seen)

    # ------------------------------------------------------------------ deciding
    def ready(self, view: View) -> bool:
        """Go to 221B: every answer unique, or nothing left to visit (a guess)."""
        return self.oracle.certain(view.known) or not self._unvisited(view)

    def _unvisited(self, view: View) -> list[int]:
        return [k for k in range(len(self.oracle.sources)) if k not in view.visited]

    def decide(self, view: View) -> Action:
        """Competitive play: 221B, a location (outbidding when worth it), or the Carriage Stop."""
        if self.ready(view):
            return Action("221B")
        ranked = self.rank(view.known, self._unvisited(view))
        free = [(score, src) for score, src in ranked if src not in view.occupied]
        top_score, top = ranked[0]
        if top in view.occupied:
            bid = view.occupied[top] + 1
            better = not free or top_score[0] < free[0][0][0]
            if better and bid <= min(BID_CAP, view.tokens):
                return Action("visit", top, bid)
        if free:
            return Action("visit", free[0][1])
        return Action("stop")

    def decide_team(self, view: View) -> Action:
        """Cooperative play (a token per trip): 221B when ready or out of tokens; with one
        token left and more than one place still to go, the Carriage Stop first (if
        unclaimed)."""
        unvisited = self._unvisited(view)
        if self.ready(view) or view.tokens <= 0:
            return Action("221B")
        if view.tokens == 1 and not view.stop_used and self.still_to_visit(view) > 1:
            return Action("stop")
        return Action("visit", self.rank(view.known, unvisited)[0][1])

    def still_to_visit(self, view: View) -> int:
        """How many more locations the bot thinks it needs: the informed bot's plan, or
        every unvisited location."""
        plan = self.oracle.plan(view.known) if self.strategy == "informed" else frozenset()
        return len(plan) if plan else len(self._unvisited(view))


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORDS.findall(text) if len(w) >= _MIN_WORD]
