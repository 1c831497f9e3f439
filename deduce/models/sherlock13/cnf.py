"""The pysat CNF knowledge model of one player's Sherlock 13 record.

``RecordCNF(record)`` compiles the record (``record.py``) into clauses over the hidden
world, fixed at the deal (spec, "The analysis"):

- ``x(card, place)``: ``card`` was dealt to ``place``: a seat, ``"crim"`` (the criminal) or,
  with 2 players, the face-down ``"left"`` / ``"right"`` side. Each card lies in exactly one
  place; each seat gets exactly ``h`` cards (5, 4, 3 with 2, 3, 4 players); one criminal;
  one card per side.
- expert variant: ``slot(seat, j, card)``: ``card`` is at position ``j`` of the seat's
  starting hand order. Each slot holds exactly one card, and the cards in a seat's slots are
  exactly its hand.

Everything that happens later is defined from those by auxiliary (Tseitin) variables: the
hand (and in expert the slots) after each of a seat's exchange steps, and the cards that
answer at a ``View``. The information is switched on by assumption literals, so any subset
of it can be tested, and cores give explanations:

- ``event_lit[i]``: every fact of event ``i`` holds (only events that tell something);
- ``hand_lits[k]``: card ``record.hand[k]`` is in my starting hand, at slot ``k`` (the slot
  only matters in expert).

Structure (deal, turn order, rotations, exchange steps) is never switched off: an event
whose information is dropped still takes its turn. An exchange step of a card that is in
no slot changes nothing (see ``record.py``).

The worlds counted and enumerated are the deals of criminal, other hands (expert: with
their starting order) and side cards; my own hand is fixed by the hand facts.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from deduce.core.sat import OwnsSolver, minimal_unsat_subset
from deduce.models.sherlock13.cards import ICON_MATRIX, N_CARDS
from deduce.models.sherlock13.record import (
    CriminalFact,
    Fact,
    HoldsFact,
    IconFact,
    Record,
    SideFact,
    View,
)
from deduce.models.sherlock13.rules import SIDES

#: The SAT solver (many small incremental calls under assumptions).
SOLVER = "cadical195"

CRIM = "crim"
_CARDS = range(N_CARDS)


class RecordCNF(OwnsSolver):
    """The CNF of one player's record, with one assumption literal per event and hand fact.

    ``events``: the indices of the events whose facts are encoded (default: all). The
    solver is kept for the object's life; ``close()`` (or ``with``) frees it.
    """

    def __init__(self, record: Record, events: Iterable[int] | None = None):
        self.record = record
        self.n = record.n
        self.h = record.hand_size
        self.expert = record.variant == "expert"
        self.places: list = list(range(self.n)) + [CRIM] + (list(SIDES) if self.n == 2 else [])
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self._steps = {(st.seat, st.epoch): st for st in record.steps}
        self._memo: dict = {}
        self._world_vars = self.world_vars()
        self._encode_deal()
        self.hand_lits: list[int] = [self._encode_hand_fact(k, c) for k, c in enumerate(record.hand)]
        wanted = set(range(len(record.events))) if events is None else set(events)
        self.event_lit: dict[int, int] = {}
        for index, fact in record.facts:
            if index in wanted:
                if index not in self.event_lit:
                    self.event_lit[index] = self.pool.id(("event", index))
                self._encode_fact(fact, self.event_lit[index])
        self._lit_event = {lit: i for i, lit in self.event_lit.items()}
        self._lit_hand = {lit: k for k, lit in enumerate(self.hand_lits)}
        self._solver = Solver(name=SOLVER)
        self._flushed = 0

    # ------------------------------------------------------------------ variables
    def x(self, card: int, place) -> int:
        """Variable: ``card`` was dealt to ``place`` (seat, ``"crim"``, ``"left"``, ``"right"``)."""
        return self.pool.id(("x", card, place))

    def slot(self, seat: int, j: int, card: int) -> int:
        """Variable (expert): ``card`` is at position ``j`` of ``seat``'s starting order."""
        return self.pool.id(("slot", seat, j, card))

    def world_vars(self) -> list[int]:
        """The variables that fix a world: every ``x``, and in expert every starting slot."""
        out = [self.x(c, p) for c in _CARDS for p in self.places]
        if self.expert:
            out += [self.slot(s, j, c) for s in range(self.n) for j in range(self.h) for c in _CARDS]
        return out

    # ------------------------------------------------------------------ encoding: deal
    def _encode_deal(self) -> None:
        for c in _CARDS:
            self._card([self.x(c, p) for p in self.places], 1, 1)
        for p in self.places:
            size = self.h if isinstance(p, int) else 1
            self._card([self.x(c, p) for c in _CARDS], size, size)
        if self.expert:
            for s in range(self.n):
                self._encode_slots(s)

    def _encode_slots(self, seat: int) -> None:
        """Each slot exactly one card; a card in the hand is in exactly one slot, else none."""
        for j in range(self.h):
            self._card([self.slot(seat, j, c) for c in _CARDS], 1, 1)
        for c in _CARDS:
            in_hand = self.x(c, seat)
            slots = [self.slot(seat, j, c) for j in range(self.h)]
            self.clauses.append([-in_hand] + slots)
            for v in slots:
                self.clauses.append([-v, in_hand])
            self._card(slots, 0, 1)

    def _encode_hand_fact(self, k: int, card: int) -> int:
        a = self.pool.id(("hand", k))
        target = self.slot(self.record.me, k, card) if self.expert else self.x(card, self.record.me)
        self.clauses.append([-a, target])
        return a

    # ------------------------------------------------------------------ encoding: facts
    def _encode_fact(self, fact: Fact, a: int) -> None:
        """Clauses ``a -> fact``."""
        if isinstance(fact, IconFact):
            lits = [self.answers(fact.view, c) for c in _CARDS if ICON_MATRIX[c, fact.icon]]
            self._card([lit for lit in lits if lit is not None], fact.lo, fact.hi, guard=a)
        elif isinstance(fact, CriminalFact):
            v = self.x(fact.card, CRIM)
            self.clauses.append([-a, v if fact.is_criminal else -v])
        elif isinstance(fact, HoldsFact):
            v = self.holds(fact.view.seat, fact.view.epoch, fact.card)
            self.clauses.append([-a] if v is None else [-a, v])
        elif isinstance(fact, SideFact):
            self.clauses.append([-a, self.x(fact.card, fact.side)])
        else:  # pragma: no cover - the record only makes the four kinds
            raise TypeError(f"unknown fact {fact!r}")

    def _card(self, lits: list[int], lo: int, hi: int, guard: int | None = None) -> None:
        """Clauses ``guard -> lo <= sum(lits) <= hi`` (``hi`` above ``len(lits)`` means no cap)."""
        tail = [] if guard is None else [-guard]
        n = len(lits)
        hi = min(hi, n)
        if lo > hi:
            self.clauses.append(tail)
            return
        out: list[list[int]] = []
        if lo == n:
            out += [[v] for v in lits]
        elif lo == 1:
            out.append(list(lits))
        elif lo > 1:
            out += CardEnc.atleast(lits, lo, vpool=self.pool, encoding=EncType.seqcounter).clauses
        if hi == 0:
            out += [[-v] for v in lits]
        elif hi < n and lo < n:
            enc = EncType.pairwise if hi == 1 and n <= 6 else EncType.seqcounter
            out += CardEnc.atmost(lits, hi, vpool=self.pool, encoding=enc).clauses
        self.clauses += [cl + tail for cl in out]

    # ------------------------------------------------------------------ derived literals
    def holds(self, seat: int, epoch: int, card: int) -> int | None:
        """Literal: ``seat`` holds ``card`` after its first ``epoch`` exchange steps (None: never)."""
        if epoch == 0:
            return self.x(card, seat)
        step = self._steps[(seat, epoch - 1)]
        before = self.holds(seat, epoch - 1, card)
        if card == step.revealed:
            return None
        gave = self.holds(seat, epoch - 1, step.revealed)
        return self._or(before, self._and(gave, self.x(card, step.side)))

    def slot_at(self, seat: int, epoch: int, j: int, card: int) -> int | None:
        """Literal (expert): slot ``j`` of ``seat`` holds ``card`` after ``epoch`` exchange steps."""
        if epoch == 0:
            return self.slot(seat, j, card)
        step = self._steps[(seat, epoch - 1)]
        if card == step.revealed:
            return None
        before = self.slot_at(seat, epoch - 1, j, card)
        gave = self.slot_at(seat, epoch - 1, j, step.revealed)
        return self._or(before, self._and(gave, self.x(card, step.side)))

    def answers(self, view: View, card: int) -> int | None:
        """Literal: ``card`` is one of the cards the hand answers with at ``view``."""
        held = self.holds(view.seat, view.epoch, card)
        if not self.expert:
            return held
        last = self.slot_at(view.seat, view.epoch, (view.rotation - 1) % self.h, card)
        return self._and(held, None if last is None else -last)

    def _and(self, a: int | None, b: int | None) -> int | None:
        """Literal equivalent to ``a and b`` (None is false)."""
        if a is None or b is None:
            return None
        key = ("and", a, b)
        if key not in self._memo:
            v = self._memo[key] = self.pool.id(key)
            self.clauses += [[-v, a], [-v, b], [v, -a, -b]]
        return self._memo[key]

    def _or(self, a: int | None, b: int | None) -> int | None:
        """Literal equivalent to ``a or b`` (None is false)."""
        if a is None or b is None:
            return b if a is None else a
        key = ("or", a, b)
        if key not in self._memo:
            v = self._memo[key] = self.pool.id(key)
            self.clauses += [[-v, a, b], [v, -a], [v, -b]]
        return self._memo[key]

    # ------------------------------------------------------------------ solving
    def assumptions(self, drop: Iterable[int] = ()) -> list[int]:
        """All hand facts and every encoded event's literal except those of ``drop``."""
        drop = set(drop)
        return list(self.hand_lits) + [a for i, a in self.event_lit.items() if i not in drop]

    def solve(self, assumptions: list[int]) -> bool:
        """Whether the clauses (any added since the last call included) hold with every
        literal of ``assumptions`` true."""
        if self._flushed < len(self.clauses):
            self._solver.append_formula(self.clauses[self._flushed:])
            self._flushed = len(self.clauses)
        return bool(self._solver.solve(assumptions=assumptions))

    def is_consistent(self, drop: Iterable[int] = ()) -> bool:
        """Whether some world fits my hand and every encoded event except those in ``drop``."""
        return self.solve(self.assumptions(drop))

    def _possible(self, lits: dict) -> set:
        """The keys of ``lits`` whose literal is true in some world fitting all the facts."""
        base = self.assumptions()
        pending = {k: v for k, v in lits.items() if v is not None}
        found: set = set()
        if not self.solve(base):
            return found
        model = self._solver.get_model()
        while True:
            found.update(k for k, v in pending.items() if model[abs(v) - 1] == v)
            pending = {k: v for k, v in pending.items() if k not in found}
            if not pending:
                return found
            key, lit = next(iter(pending.items()))
            if self.solve(base + [lit]):
                model = self._solver.get_model()
            else:
                del pending[key]

    def possible_criminals(self) -> set[int]:
        """The cards that may be the criminal (empty if the record is contradictory)."""
        return self._possible({c: self.x(c, CRIM) for c in _CARDS})

    def possible_holders(self) -> dict[int, set[int]]:
        """Every seat but mine -> the cards it may hold now (after all its exchange steps)."""
        epochs = {s: sum(1 for (seat, _e) in self._steps if seat == s) for s in range(self.n)}
        others = [s for s in range(self.n) if s != self.record.me]
        found = self._possible({(s, c): self.holds(s, epochs[s], c) for s in others for c in _CARDS})
        return {s: {c for c in _CARDS if (s, c) in found} for s in others}

    def possible_face_down(self) -> dict[str, set[int]]:
        """2 players: each still closed side -> the cards possibly there; ``{}`` otherwise."""
        if self.n != 2:
            return {}
        closed = [s for s in SIDES if s not in self.record.turns.open_sides]
        found = self._possible({(s, c): self.x(c, s) for s in closed for c in _CARDS})
        return {s: {c for c in _CARDS if (s, c) in found} for s in closed}

    # ------------------------------------------------------------------ explanations
    def _mus(self, hard: list[int], soft: list[int]) -> list[int]:
        """A minimal subset of ``soft`` inconsistent with ``hard``, small sets first
        (``core.sat.minimal_unsat_subset``)."""
        return minimal_unsat_subset(self.solve, self._solver.get_core, hard, soft)

    def minimal_conflict(self) -> list[int]:
        """Sorted event indices: a minimal set of events that cannot hold with my hand.

        Minimal: without any one of them the rest can hold (with my hand). ``ValueError``
        if the record is consistent.
        """
        mus = self._mus(list(self.hand_lits), list(self.event_lit.values()))
        return sorted(self._lit_event[v] for v in mus)

    def explain_not_criminal(self, card: int) -> tuple[list[int], list[int]] | None:
        """Why ``card`` cannot be the criminal: (event indices, my hand positions ``k``).

        A minimal set over both kinds of facts that together rule ``card`` out; ``None`` if
        ``card`` may be the criminal. (On a contradictory record, the set may be a conflict.)
        """
        hard = [self.x(card, CRIM)]
        soft = list(self.hand_lits) + list(self.event_lit.values())
        if self.solve(hard + soft):
            return None
        mus = set(self._mus(hard, soft))
        events = sorted(self._lit_event[v] for v in mus if v in self._lit_event)
        hand = sorted(self._lit_hand[v] for v in mus if v in self._lit_hand)
        return events, hand

    # ------------------------------------------------------------------ worlds
    def _world(self, true_vars: Iterable[int]) -> dict:
        """The world dict (see ``witness``) from the world variables that are true."""
        crim, sides = None, {}
        hands: dict[int, list] = {s: [None] * self.h if self.expert else [] for s in range(self.n)}
        for v in true_vars:
            key = self.pool.obj(v)
            if key[0] == "slot":
                hands[key[1]][key[2]] = key[3]
            elif key[2] == CRIM:
                crim = key[1]
            elif key[2] in SIDES:
                sides[key[2]] = key[1]
            elif not self.expert:
                hands[key[2]].append(key[1])
        world = {"criminal": crim, "hands": {s: hands[s] if self.expert else sorted(hands[s])
                                             for s in range(self.n)}}
        if self.n == 2:
            world["sides"] = sides
        return world

    def _true_world_vars(self, model: list[int]) -> list[int]:
        return [v for v in self._world_vars if model[v - 1] > 0]

    def world_lits(self, world: dict) -> list[int]:
        """The literals that fix ``world`` (same shape as ``witness``; standard: order ignored)."""
        lits = [self.x(world["criminal"], CRIM)]
        for s, cards in world["hands"].items():
            lits += [self.x(c, s) for c in cards]
            if self.expert:
                lits += [self.slot(s, j, c) for j, c in enumerate(cards)]
        lits += [self.x(c, side) for side, c in world.get("sides", {}).items()]
        return lits

    def admits(self, world: dict) -> bool:
        """Whether ``world`` (a full deal, shape of ``witness``) fits all the facts."""
        return self.solve(self.assumptions() + self.world_lits(world))

    def witness(self, criminal: int | None = None) -> dict | None:
        """One world fitting all the facts (with that ``criminal`` if given), or None.

        ``{"criminal": c, "hands": {seat: [cards]}, "sides": {"left": c, "right": c}}``:
        every seat (mine included), cards in starting slot order (standard: ascending);
        ``sides`` only with 2 players (the cards dealt there).
        """
        extra = [] if criminal is None else [self.x(criminal, CRIM)]
        if not self.solve(self.assumptions() + extra):
            return None
        return self._world(self._true_world_vars(self._solver.get_model()))

    def enumerate_worlds(self, limit: int | None = None) -> Iterator[dict]:
        """Every world fitting all the facts, once each (at most ``limit``), as ``witness`` dicts.

        The naive baseline: one solver call per world, blocking each world's deal (its true
        ``x`` and slot variables) before the next.
        """
        self.solve([])  # flush pending clauses
        solver = Solver(name=SOLVER, bootstrap_with=self.clauses)
        try:
            for a in self.assumptions():
                solver.add_clause([a])
            count = 0
            while (limit is None or count < limit) and solver.solve():
                true = self._true_world_vars(solver.get_model())
                yield self._world(true)
                count += 1
                solver.add_clause([-v for v in true])
        finally:
            solver.delete()

    def count_worlds(self, limit: int | None = None) -> int:
        """The number of worlds ``enumerate_worlds`` yields."""
        return sum(1 for _ in self.enumerate_worlds(limit))
