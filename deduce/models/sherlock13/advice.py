"""What a player asks of a record: who may be the criminal, who holds what, what to ask.

``analyze(record)`` counts the worlds (``knowledge.count_worlds``) and returns an
``Analysis``; ``Analysis.to_json()`` is the spec's ``deduce s13 analyze --json`` object.
A record no world fits raises ``ContradictionError`` with a minimal conflicting set of
events (found by the CNF model, ``cnf.RecordCNF.minimal_conflict``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from deduce.core.errors import ContradictionError
from deduce.core.info import entropy_bits, expected_bits_many
from deduce.models.sherlock13.cards import ICONS, N_CARDS, SUSPECTS
from deduce.models.sherlock13.knowledge import Question, Worlds, count_worlds, questions_for
from deduce.models.sherlock13.record import Record, describe_event


@dataclass(frozen=True)
class Suggestion:
    question: Question
    expected_bits: float

    def to_json(self, names: list[str]) -> dict:
        q = self.question
        out: dict = {"action": q.action}
        if q.action == "count":
            out["target"] = names[q.target]
        if q.icon is not None:
            out["icon"] = ICONS[q.icon]
        if q.side is not None:
            out["side"] = q.side
        out["expected_bits"] = self.expected_bits
        return out

    def text(self, names: list[str]) -> str:
        q = self.question
        if q.action == "raise":
            return f"raise {ICONS[q.icon]}"
        if q.action == "count":
            return f"count {names[q.target]} {ICONS[q.icon]}"
        return f"exchange {q.side}"


@dataclass
class Analysis:
    record: Record
    worlds: Worlds
    suggestions: list[Suggestion] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.worlds.total

    def criminal_probs(self) -> np.ndarray:
        return self.worlds.criminal / self.total

    def holder_probs(self) -> dict[int, np.ndarray]:
        return {s: c / self.total for s, c in self.worlds.holders.items()}

    def face_down_probs(self) -> dict[str, np.ndarray]:
        return {s: c / self.total for s, c in self.worlds.face_down.items()}

    def entropy(self) -> float:
        return entropy_bits(self.worlds.criminal)

    def top_suspect(self) -> tuple[int, float]:
        """The most likely criminal and the chance that accusing them now is right."""
        p = self.criminal_probs()
        c = int(np.argmax(p))
        return c, float(p[c])

    def to_json(self) -> dict:
        names = self.record.names
        out = {
            "variant": self.record.variant,
            "worlds": self.total,
            "criminal": _by_suspect(self.criminal_probs()),
            "holders": {names[s]: _by_suspect(p) for s, p in self.holder_probs().items()},
        }
        if self.record.n == 2:
            out["face_down"] = {s: _by_suspect(p) for s, p in self.face_down_probs().items()}
        out["suggestions"] = [s.to_json(names) for s in self.suggestions]
        return out


def no_turn_reason(a: Analysis) -> str | None:
    """Why I have no next turn (the game is over, or I am eliminated), or None if I have one."""
    rec = a.record
    if rec.turns.over:
        winner = rec.turns.winner
        return "the game is over" + ("" if winner is None else
                                     f": {'I win' if winner == rec.me else rec.names[winner] + ' wins'}")
    if rec.me in rec.turns.eliminated:
        return "I am eliminated by a wrong accusation"
    return None


def accuse_advice(a: Analysis) -> tuple[str, bool] | None:
    """Whether to accuse on my next turn, in words, and whether the accusation is certain;
    None when I have no next turn."""
    if no_turn_reason(a) is not None:
        return None
    c, p = a.top_suspect()
    if p >= 1 - 1e-12:
        return f"Accuse {SUSPECTS[c]} now: certain.", True
    return (f"Accusing {SUSPECTS[c]} now would be right with probability {p:.3f}; "
            "a wrong accusation eliminates you."), False


def _by_suspect(p: np.ndarray) -> dict[str, float]:
    return {SUSPECTS[c]: float(p[c]) for c in range(N_CARDS)}


def analyze(record: Record, *, suggestions: bool = True) -> Analysis:
    """Exact analysis of ``record``; ``ContradictionError`` if no world fits it."""
    worlds = count_worlds(record)
    if worlds.total == 0:
        raise contradiction(record)
    result = Analysis(record, worlds)
    if suggestions:
        result.suggestions = rank_questions(record, worlds)
    return result


def rank_questions(record: Record, worlds: Worlds) -> list[Suggestion]:
    """Every question legal on my next turn, by expected bits, best first (stable on ties)."""
    questions = questions_for(record)
    groups: dict[tuple, list[int]] = {}
    tables = [worlds.joint(q) for q in questions]
    for i, t in enumerate(tables):
        groups.setdefault(t.shape, []).append(i)
    bits = [0.0] * len(questions)
    for members in groups.values():
        for i, b in zip(members, expected_bits_many(np.stack([tables[i] for i in members]))):
            bits[i] = float(b)
    scored = [Suggestion(q, b) for q, b in zip(questions, bits)]
    return sorted(scored, key=lambda s: -s.expected_bits)


def contradiction(record: Record) -> ContradictionError:
    """The error for a record no world fits, naming a minimal conflicting set of events."""
    from deduce.models.sherlock13.cnf import RecordCNF

    conflict = RecordCNF(record).minimal_conflict()
    lines = [f"  event {i}: {describe_event(record.events[i], record.names)}" for i in conflict]
    hand = ", ".join(SUSPECTS[c] for c in record.hand)
    head = (f"{record.source}: the record is contradictory: no deal fits these events "
            f"together with my hand ({hand})")
    if not conflict:
        head = f"{record.source}: the record is contradictory with my hand ({hand}) alone"
    return ContradictionError("\n".join([head + ":"] + lines) if lines else head, conflict)
