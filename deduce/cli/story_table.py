"""``deduce story table``: a case played live at the table, turn after turn, with the exact
advice before every Action and every Luck re-roll, and the record saved after every phase.

The DP is solved once for the whole case when the session starts (every later turn kept in
memory: a fresh case of a001 peaks at 0.7 GB, of a002 at 1.6 GB), so every later piece of
advice is read, not computed. The dice are told as in ``deduce story turn``
(``live.Told``); the record is rewritten (atomically) after the Action and after the
Encounter Matrix, so quitting, or the end of the input, loses at most the phase in play.

On a terminal answers are asked with prompts. From a pipe each line answers one question
(read by ``common.read_line``: at most ``MAX_LINE`` characters), the questions go to
stderr as lines, a refused answer is one line ``refused: ...`` on stderr, and the session
exits with the code of its first refusal (0 if none, else 2), like ``s13 table``.
"""

from __future__ import annotations

import sys

import click

from deduce.cli.common import err, literal, one_line, out, reports_errors
from deduce.cli.story import _DATA, _load, _warn, print_advice, reroll_text, solving
from deduce.models.detective_story.state import outcome_text


@click.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@_DATA
@reports_errors
def table(record_file: str, data_dir) -> None:
    """Play the case in FILE live: before each Action the exact P(arrest) of every legal
    Action (Enter takes the best), then the dice of the turn as they fall (as in `deduce
    story turn`: an Action's 2d6, then, with Luck left, the advice on re-rolling it and
    the new roll if you spent the Luck; d6 faces; tests; a fight's end), and FILE is
    rewritten after the Action and after the Encounter Matrix.

    The case is solved once when the session starts (a fresh case: 8-26 s, 0.7-1.6 GB);
    every later answer is instant. undo, typed for any question, starts the phase in play
    again, or, at its first question, goes back to the phase before (as far back as the
    session started; also once the case is over): a die entered wrong is put right by
    playing the phase again. quit at the Action prompt, or the end of the input, stops;
    FILE keeps every finished phase. From a pipe, each line answers one question (at most
    1,000 characters), a refused answer is one line on stderr, and the exit code is that
    of the first refusal (0 if none, else 2). There is no --json: FILE is the session's
    machine-readable result (or play turn by turn with `deduce story turn --json`).

    \b
    Examples:
      deduce story table case.json
      printf 'explore\\n7\\nkeep\\n2\\n9\\n3\\nquit\\n' | deduce story table case.json
    """
    from deduce.core.records import RecordLock

    with RecordLock(record_file):  # before the long solve: a second session is refused at once
        code = _play(record_file, data_dir, sys.stdin.isatty())
    sys.exit(code)


def _play(record_file: str, data_dir, interactive: bool) -> int:
    """The session itself (the caller holds the record's lock); the exit code (from a pipe:
    that of the first refusal, 0 if none)."""
    from deduce.models.detective_story.advice import advise, reroll_advice

    cf = _load(record_file, data_dir)
    _warn(cf.data)
    session = _Session(record_file, cf, interactive)
    with solving(session.solver, "Solving the whole case for every SM and Luck (once)"):
        session.solver.prepare(cf.case, encounter=cf.phase == "encounter", whole=True)
    try:
        while True:
            try:
                if session.case.over:
                    if not session.ask_undo_at_end():
                        break
                elif session.phase == "action":
                    advice = advise(cf.ctx, session.case, "action", False, session.solver)
                    print_advice(session.case, "action", advice)
                    action = session.ask_action(advice.best)
                    if action is None:
                        break
                    start = session.case
                    session.action(action, lambda tag, roll: reroll_text(
                        reroll_advice(cf.ctx, start, action, roll, solver=session.solver)))
                else:
                    advice = advise(cf.ctx, session.case, "encounter", session.waited,
                                    session.solver)
                    print_advice(session.case, "encounter", advice)
                    session.encounter()
            except _Undo as undo:
                if undo.mid_phase:
                    err.print("  undone: this phase starts again")
                else:
                    session.undo()
    except click.exceptions.Abort:  # the end of the input (or ^C, ^D on a terminal)
        if interactive:
            err.print("")
    if session.case.over:
        out.print(f"The case is over: {outcome_text(session.case.outcome)}. Close it with: "
                  f"deduce story end {record_file}")
    else:
        out.print(f"Stopped: {record_file} is at turn {session.case.turn} ({session.phase}).")
    return session.first_code


class _Undo(Exception):
    """The player typed undo: ``mid_phase`` if the phase in play had answers already (it
    starts again), else the phase before is undone."""

    def __init__(self, mid_phase: bool):
        super().__init__("undo")
        self.mid_phase = mid_phase


class _Session:
    """The case in play, its solver, and the record written after every phase; answers
    read from a terminal (prompts) or a pipe (lines), refusals counted for the exit code."""

    def __init__(self, record_file: str, cf, interactive: bool = True):
        from deduce.models.detective_story.advice import Solver

        self.file, self.cf, self.interactive = record_file, cf, interactive
        self.case, self.phase, self.waited = cf.case, cf.phase, cf.waited
        self.solver = Solver(cf.ctx)
        self.log: list[str] = []
        self.history: list[tuple] = []  # (case, phase, waited, log length) before each phase
        self.first_code = 0  # the exit code of the first refusal from a pipe

    def ask(self, question: str, default: str | None = None) -> str:
        """The answer to ``question`` (Enter: ``default``); a line longer than ``MAX_LINE``
        is refused and asked again; the end of the input is ``click.Abort``."""
        from deduce.cli.common import read_line
        from deduce.core.limits import MAX_LINE

        while True:
            if self.interactive:
                text = click.prompt(literal(question), err=True, default=default,
                                    show_default=False)
            else:
                click.echo(literal(question), err=True)
                line = read_line()
                if line is None:
                    raise click.exceptions.Abort()
                text = line.rstrip("\r\n")
                if not text.strip() and default is not None:
                    text = default
            if len(text) <= MAX_LINE:
                return text
            self.refuse(f"line too long: more than the cap of {MAX_LINE:,} characters")

    def refuse(self, message) -> None:
        """Say why an answer is refused (from a pipe: one line, and the exit code is 2)."""
        if self.interactive:
            err.print(f"  {message}")
        else:
            click.echo(f"refused: {literal(one_line(str(message)))}", err=True)
            self.first_code = self.first_code or 2

    def _told(self, reroll_hint=None):
        from deduce.models.detective_story.live import Answers, Told

        def prompt(q):
            text = self.ask(f"{q.text} [{q.hint}]", q.default)
            if text.strip().lower() == "undo":
                raise _Undo(mid_phase=bool(answers.used))
            return text

        answers = Answers((), prompt, lambda text: err.print(f"  {text}"), self.refuse)
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
        """The Action taken (Enter: ``best``), or None for quit (``_Undo`` for undo); asked
        again until legal."""
        from deduce.core.errors import InputError
        from deduce.core.names import resolve
        from deduce.models.detective_story import engine as E
        from deduce.models.detective_story import tables as T

        while True:
            text = self.ask(f"Action (or undo, quit) [{best}]", best).strip()
            if text.lower() in ("quit", "q", "exit"):
                return None
            if text.lower() == "undo":
                raise _Undo(mid_phase=False)
            try:
                action = resolve(text, list(E.ALL_ACTIONS), "action",
                                 aliases={"arrest": T.ATTEMPT_ARREST, "seek": T.SEEK})
                E.check_action(self.cf.ctx, self.case, action)
                return action
            except InputError as exc:
                self.refuse(exc)

    def action(self, action: str, reroll_hint) -> None:
        from deduce.models.detective_story.live import play_action

        w = self._told(reroll_hint)
        case, waited = play_action(w, self.case, action)
        self._save(w, case, "encounter" if not case.over else "action", waited)

    def encounter(self) -> None:
        from deduce.models.detective_story.live import play_encounter

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
        out.print(f"Undone: back to turn {case.turn} ({phase}), SM {case.sm}, Luck {case.luck}.")

    def _save(self, w, case, phase: str, waited: bool) -> None:
        """Write the phase just played; if the write fails it is refused (the file and the
        session stay as they were, and the phase is played again)."""
        if not self._write(case, phase, waited, self.log + w.log):
            return
        for line in w.log:
            out.print(f"  {line}")
        self.history.append((self.case, self.phase, self.waited, len(self.log)))
        self.log += w.log
        self.case, self.phase, self.waited = case, phase, waited
        if phase == "action" and not case.over:
            out.print(f"Saved: turn {case.turn}, SM {case.sm}, Luck {case.luck}.")

    def _write(self, case, phase: str, waited: bool, log: list[str]) -> bool:
        """Rewrite the record; False (and the reason said) if the write failed."""
        from deduce.core.errors import InputError
        from deduce.core.records import write_json_atomic
        from deduce.models.detective_story.state import case_to_record

        try:
            write_json_atomic(self.file, case_to_record(self.cf, case, phase, waited, log=log))
        except InputError as exc:
            self.refuse(f"{exc}; nothing was saved, so this is played again")
            return False
        return True
