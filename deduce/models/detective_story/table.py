"""The live table: a case played turn after turn with the exact advice before every Action
and every Luck re-roll, and the record saved after every phase (no click: the CLI, a
terminal or a pipe, is a ``Port``).

``TableSession.open(path, data_dir, port)`` takes the record's lock
(``core.records.RecordLock``) for the session's life, before anything else, so a second
session is refused at once and not after the long solve; ``prepare()`` solves the DP once
for the whole case, or reads it from the cache folder (``store``; every later turn kept in
memory: a fresh case of a001 peaks at 0.7 GB, of a002 at 1.6 GB), so every later piece of
advice is read, not computed; ``run()`` plays
until quit, the end of the case (and no undo), or the end of the input.

The dice are told as in ``deduce story turn`` (``live.Told``); the record is rewritten
(atomically) after the Action and after the Encounter Matrix, so quitting, or the end of
the input, loses at most the phase in play. A phase whose write fails is refused (the file
and the session stay as they were) and played again. ``undo``, typed for any question,
starts the phase in play again or, at its first question, goes back to the phase before
(as far back as the session started; also once the case is over). Every refused answer is
said through the port; ``first_code`` is the exit code of the first refusal (0 if none).
"""

from __future__ import annotations

from typing import Callable, Protocol

from deduce.core.errors import InputError
from deduce.core.limits import MAX_LINE
from deduce.core.names import resolve
from deduce.core.records import LockedSession, RecordLock, write_json_atomic
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.advice import Solver, advise, reroll_advice
from deduce.models.detective_story.live import Answers, Question, Told
from deduce.models.detective_story.rules import play_action, play_encounter
from deduce.models.detective_story.state import (
    Case,
    CaseFile,
    case_to_record,
    load_case,
    outcome_text,
)

#: what stops the session at the Action prompt
QUIT_WORDS = ("quit", "q", "exit")
#: the exit code of a refused answer (bad input)
REFUSED = 2


class EndOfInput(Exception):
    """The player's input ended (a pipe's end, Ctrl-D or Ctrl-C at a terminal prompt)."""


class Port(Protocol):
    """How a session talks with the player: the CLI's terminal or pipe."""

    def ask(self, question: str, default: str | None) -> str:
        """The player's answer to ``question`` (an empty one: ``default``, if not None);
        ``EndOfInput`` when the input ends."""

    def refuse(self, message: str) -> None:
        """Say why an answer was refused (it is asked again)."""

    def tell(self, text: str) -> None:
        """A remark in the conversation: a warning, the re-roll advice, a phase undone."""

    def report(self, text: str) -> None:
        """A result: what happened in a phase, saved, undone."""

    def show_advice(self, case: Case, phase: str, advice) -> None:
        """The advice table before the Action (``phase`` action), or P(arrest) after it."""

    def reroll_text(self, reroll) -> str:
        """The re-roll advice (``advice.reroll_advice``) in words."""


class Undo(Exception):
    """The player typed undo: ``mid_phase`` if the phase in play had answers already (it
    starts again), else the phase before is undone."""

    def __init__(self, mid_phase: bool):
        super().__init__("undo")
        self.mid_phase = mid_phase


class TableSession(LockedSession):
    """The case in play in ``path`` (its lock held: ``open``), its solver, and the record
    written after every phase. Use it as a context manager, or call ``close()``."""

    def __init__(self, path: str, cf: CaseFile, port: Port, lock: RecordLock | None = None):
        self.path, self.cf, self.port, self.lock = path, cf, port, lock
        self.case, self.phase, self.waited = cf.case, cf.phase, cf.waited
        self.solver = Solver(cf.ctx)
        self.log: list[str] = []
        self.history: list[tuple] = []  # (case, phase, waited, log length) before each phase
        self.first_code = 0  # the exit code of the first refusal

    @classmethod
    def open(cls, path: str, data_dir: str | None, port: Port) -> "TableSession":
        """Lock ``path`` (refused at once if another session holds it), then load its case
        (``state.load_case``); the lock is let go if the record is refused."""
        lock = RecordLock(path)
        try:
            return cls(path, load_case(path, data_dir), port, lock)
        except BaseException:
            lock.release()
            raise

    @property
    def data(self):
        return self.cf.data

    def prepare(self, use_cache: bool = True) -> str:
        """Solve the DP once for the whole case (the long part: from a fresh case 10-40 s), or
        read it from the cache folder when an earlier command solved it (``use_cache``:
        read, and written after solving; ``store.prepare``, whose answer it returns)."""
        from deduce.models.detective_story import store

        return store.prepare(self.solver, self.cf.case, self.cf.phase, self.cf.waited,
                             use_cache=use_cache, whole=True)

    # -- the session
    def run(self) -> bool:
        """Play until quit or the end of the case (True: the input ended first)."""
        try:
            while True:
                try:
                    if not self.step():
                        return False
                except Undo as undo:
                    if undo.mid_phase:
                        self.port.tell("undone: this phase starts again")
                    else:
                        self.undo()
        except EndOfInput:
            return True

    def step(self) -> bool:
        """One phase (or the question at the end of the case); False when the player is
        done."""
        ctx = self.cf.ctx
        if self.case.over:
            return self.ask_undo_at_end()
        if self.phase == "action":
            advice = advise(ctx, self.case, "action", False, self.solver)
            self.port.show_advice(self.case, "action", advice)
            action = self.ask_action(advice.best)
            if action is None:
                return False
            start = self.case
            self.action(action, lambda tag, roll: self.port.reroll_text(
                reroll_advice(ctx, start, action, roll, solver=self.solver)))
            return True
        advice = advise(ctx, self.case, "encounter", self.waited, self.solver)
        self.port.show_advice(self.case, "encounter", advice)
        self.encounter()
        return True

    # -- questions
    def ask(self, question: str, default: str | None = None) -> str:
        """The answer to ``question`` (Enter: ``default``); a line longer than ``MAX_LINE``
        is refused and asked again."""
        while True:
            text = self.port.ask(question, default)
            if len(text) <= MAX_LINE:
                return text
            self.refuse(f"line too long: more than the cap of {MAX_LINE:,} characters")

    def refuse(self, message) -> None:
        """Say why an answer is refused; the first refusal sets the exit code."""
        self.port.refuse(str(message))
        self.first_code = self.first_code or REFUSED

    def _told(self, reroll_hint: Callable[[str, int], str] | None = None) -> Told:
        def prompt(q: Question) -> str:
            text = self.ask(f"{q.text} [{q.hint}]", q.default)
            if text.strip().lower() == "undo":
                raise Undo(mid_phase=bool(answers.used))
            return text

        answers = Answers((), prompt, self.port.tell, self.refuse)
        return Told(self.cf.ctx, answers, reroll_hint)

    def ask_undo_at_end(self) -> bool:
        """The case is over: undo the last phase (True), or finish (False)."""
        text = self.ask(f"The case is over ({outcome_text(self.case.outcome)}): undo, or "
                        "Enter to finish", "")
        if text.strip().lower() != "undo":
            return False
        self.undo()
        return True

    def ask_action(self, best: str) -> str | None:
        """The Action taken (Enter: ``best``), or None for quit (``Undo`` for undo); asked
        again until legal."""
        while True:
            text = self.ask(f"Action (or undo, quit) [{best}]", best).strip()
            if text.lower() in QUIT_WORDS:
                return None
            if text.lower() == "undo":
                raise Undo(mid_phase=False)
            try:
                action = resolve(text, list(E.ALL_ACTIONS), "action", aliases=T.ACTION_ALIASES)
                E.check_action(self.cf.ctx, self.case, action)
                return action
            except InputError as exc:
                self.refuse(exc)

    # -- phases
    def action(self, action: str, reroll_hint: Callable[[str, int], str]) -> None:
        """Play the Action phase from the table's dice and save it."""
        w = self._told(reroll_hint)
        case, waited = play_action(w, self.case, action)
        self._save(w, case, "encounter" if not case.over else "action", waited)

    def encounter(self) -> None:
        """Play the Encounter Matrix and the end of the turn from the table's dice, and
        save it."""
        w = self._told()
        self._save(w, play_encounter(w, self.case, self.waited), "action", False)

    def undo(self) -> None:
        """Back to the record as it was before the last phase played in this session."""
        if not self.history:
            self.refuse("nothing to undo in this session")
            return
        case, phase, waited, n = self.history[-1]
        if not self._write(case, phase, waited, self.log[:n]):
            return
        self.history.pop()
        del self.log[n:]
        self.case, self.phase, self.waited = case, phase, waited
        self.port.report(f"Undone: back to turn {case.turn} ({phase}), SM {case.sm}, "
                         f"Luck {case.luck}.")

    def _save(self, w: Told, case: Case, phase: str, waited: bool) -> None:
        """Write the phase just played; if the write fails it is refused (the file and the
        session stay as they were, and the phase is played again)."""
        if not self._write(case, phase, waited, self.log + w.log):
            return
        for line in w.log:
            self.port.report(f"  {line}")
        self.history.append((self.case, self.phase, self.waited, len(self.log)))
        self.log += w.log
        self.case, self.phase, self.waited = case, phase, waited
        if phase == "action" and not case.over:
            self.port.report(f"Saved: turn {case.turn}, SM {case.sm}, Luck {case.luck}.")

    def _write(self, case: Case, phase: str, waited: bool, log: list[str]) -> bool:
        """Rewrite the record; False (and the reason said) if the write failed."""
        try:
            write_json_atomic(self.path, case_to_record(self.cf, case, phase, waited, log=log))
        except InputError as exc:
            self.refuse(f"{exc}; nothing was saved, so this is played again")
            return False
        return True
