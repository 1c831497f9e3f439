"""Live table mode for case notes: the notes a player reads, one entry a line, each saved
at once, and what they allow so far.

``TableSession.open(path, case=...)`` locks the record (``core.records.RecordLock``, held
until ``close``: a second session is refused at once), then loads it, or creates it from
``case`` when it does not exist. ``handle(line)`` returns a ``Reply``. An entry that is
malformed or contradicts the notes read (then: a minimal set of them that cannot all
hold, exit code 3) is refused with the reason and the record is unchanged, in memory and
on disk; so is an entry (or an ``undo``) whose write fails (disk full, read-only folder):
the session goes on.

The record (JSON, written by the program; every accepted entry rewrites it atomically)::

    {"game": "case-notes", "case": "lantern-street", "read": [3, 4, 0]}

- ``game``: always ``"case-notes"`` (a record of another game is named as such);
- ``case``: a shipped case's name (``deduce case list``), or the path of a case file,
  relative to the record's folder unless absolute (``--case`` is given relative to the
  current folder and stored relative to the record's);
- ``read``: the notes read, as note indices (from 0, the case file's order, as in
  ``deduce case explain --from-notes``) in reading order, each once. No other field.

Entries (command names may be shortened while unambiguous)::

    visit SOURCE   every note of a location not read yet: SOURCE is its name (case, spaces
                   and punctuation ignored; a unique part of it will do) or its number,
                   the one printed in its name (``visit 3`` or ``visit location 3`` for
                   "Location 3: The Workshop")
    note N         one note (its index)
    undo           take back the last entry of this session (before any: the last note)
    show           the grid of what the notes read force, and the questions' answers
    answers        the questions' possible answers
    why RULE       whether RULE is forced, impossible or open under the notes read
    help | quit
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from deduce.core.errors import ContradictionError, InputError
from deduce.core.games import refuse_other_game
from deduce.core.limits import MAX_LINE
from deduce.core.names import resolve
from deduce.core.numbers import read_whole_number, whole_number
from deduce.core.records import (
    LockedSession,
    RecordLock,
    check_record_path,
    read_json,
    write_json_atomic,
)
from deduce.models.casenotes.advice import Reading, WhyResult, read_notes, why_rule
from deduce.models.casenotes.format import Case, load_case, source_name, source_number
from deduce.models.casenotes.knowledge import CaseOracle

GAME = "case-notes"
FIELDS = ("game", "case", "read")
COMMANDS = ("visit", "note", "undo", "show", "answers", "why", "help", "quit")
HELP = """\
visit SOURCE      read every note of a location (its name, or its number)
note N            read one note (its number, from 0)
undo              take back the last entry
show              the grid of what the notes read force, and the answers
answers           the questions' possible answers
why RULE          is RULE forced, impossible or open under the notes read?
help              this text
quit              leave (everything is already saved)"""
_NUMBERED = re.compile(r"(?:location\s*)?(\S+)", re.IGNORECASE)


@dataclass
class Reply:
    """What a line did.

    ``kind``: accepted, refused, info or quit. ``view``: for ``show``, ``answers`` and
    ``why``, what to render (``reading``, ``why``). ``code``: the exit code of a refusal
    (2 or 3); ``conflict``: for a contradiction, the notes that cannot all hold.
    """

    kind: str
    message: str = ""
    reading: Reading | None = None
    view: str | None = None
    why: WhyResult | None = None
    code: int = 0
    conflict: list[int] | None = None


# ---------------------------------------------------------------------------------- the record
def case_file(record: Path, ref: str) -> str:
    """What ``load_case`` is given for the record's ``case``: a relative path is taken
    from the record's folder when a file is there, anything else as written (a shipped
    case's name, or a path ``load_case`` refuses by name)."""
    p = Path(ref)
    if not p.is_absolute() and os.path.lexists(record.parent / p):
        return str(record.parent / p)
    return ref


def stored_case(record: Path, given: str) -> str:
    """The ``case`` to store for ``--case given``: a file, relative to the record's folder
    (absolute stays absolute); a shipped case's name as given."""
    p = Path(given)
    if p.is_absolute() or not os.path.lexists(p):
        return given
    return os.path.relpath(p.resolve(), record.resolve().parent)


def parse_record(data, where: str) -> tuple[str, list[int]]:
    """``(case, read)`` of a record's JSON; ``InputError`` naming the field otherwise (the
    notes are checked against the case by ``TableSession``)."""
    if not isinstance(data, dict):
        raise InputError("not a case notes table record: a record is a JSON object", where=where)
    if data.get("game") != GAME:
        refuse_other_game(data, GAME, where)
        if "game" not in data:
            raise InputError(f'missing field (a case notes table record has "game": "{GAME}")',
                             where=f"{where}: field 'game'")
        raise InputError(f'expected "{GAME}", got {data["game"]!r}'[:200],
                         where=f"{where}: field 'game'")
    for key in data:
        if key not in FIELDS:
            raise InputError(f"unknown field (allowed: {', '.join(FIELDS)})",
                             where=f"{where}: field {str(key)[:40]!r}")
    for key in ("case", "read"):
        if key not in data:
            raise InputError("missing field", where=f"{where}: field {key!r}")
    case = data["case"]
    if not isinstance(case, str) or not case.strip():
        raise InputError("expected a case file or a shipped case's name (a string)",
                         where=f"{where}: field 'case'")
    read = data["read"]
    if not isinstance(read, list):
        raise InputError("expected a list of note numbers", where=f"{where}: field 'read'")
    for k, i in enumerate(read):
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise InputError(f"expected a note number (a whole number), got {str(i)[:40]!r}",
                             where=f"{where}: field 'read', item {k}")
        if i in read[:k]:
            raise InputError(f"note {i} is listed twice", where=f"{where}: field 'read', item {k}")
    return case, list(read)


# ---------------------------------------------------------------------------------- session
class TableSession(LockedSession):
    """A live session on one record, holding the record's lock from ``open`` to ``close``
    (use it as a context manager). ``read``: the notes read, in reading order."""

    def __init__(self, path: Path, case_ref: str, case: Case, read: list[int], lock: RecordLock,
                 created: bool = False):
        self.path = path
        self.case_ref = case_ref
        self.case = case
        self.read = read
        self.lock = lock
        self.created = created  # True if ``open`` created the record
        self.oracle: CaseOracle | None = None
        self._entries: list[tuple[list[int], str]] = []  # this session's: notes added, text

    @classmethod
    def open(cls, path: str | Path, case: str | None = None) -> "TableSession":
        """Lock ``path`` (``InputError`` at once if another session holds it), then load the
        record, or create it for ``case`` (required then) if it does not exist.
        ``ContradictionError`` when the notes a record has read cannot all hold."""
        p = Path(path)
        check_record_path(p)
        lock = RecordLock(p)
        try:
            if p.exists():
                ref, read = parse_record(read_json(p), str(p))
                session = cls(p, ref, _load(p, ref), read, lock)
            else:
                if not case:
                    raise InputError("the record does not exist yet: give --case CASE",
                                     where=str(p))
                ref = stored_case(p, case)
                session = cls(p, ref, load_case(case), [], lock, created=True)
            session._check_notes()
            session.oracle = CaseOracle(session.case)
            if not session.oracle.consistent(session.read):
                raise _contradiction(session, session.read, f"{p}: the notes the record has "
                                     "read cannot all hold; a minimal conflicting set:")
            if session.created:
                session._save(session.read)
            return session
        except BaseException:
            if "session" in locals() and session.oracle is not None:
                session.oracle.close()
            lock.release()
            raise

    def _check_notes(self) -> None:
        count = len(self.case.notes)
        for k, i in enumerate(self.read):
            if i >= count:
                raise InputError(f"no note {i}: the case has {_notes_range(count)}",
                                 where=f"{self.path}: field 'read', item {k}")

    def close(self) -> None:
        """Close the case's solvers and release the record's lock."""
        if self.oracle is not None:
            self.oracle.close()
            self.oracle = None
        super().close()

    def reading(self) -> Reading:
        """What the notes read so far allow."""
        return read_notes(self.oracle, self.read)

    def _save(self, read: list[int]) -> None:
        write_json_atomic(self.path, {"game": GAME, "case": self.case_ref, "read": read})

    # -- one line
    def handle(self, line: str) -> Reply:
        """Do what ``line`` says (at most ``MAX_LINE`` characters) and say how it went."""
        text = line.rstrip("\n")
        if len(text) > MAX_LINE:
            return Reply("refused", f"line too long: more than the cap of {MAX_LINE:,} "
                                    "characters", code=2)
        word, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if not word:
            return Reply("info", "")
        try:
            command = resolve(word, COMMANDS, "command")
        except InputError as exc:
            return Reply("refused", f"{exc} (type help)", code=2)
        try:
            return self._do(command, rest)
        except ContradictionError as exc:
            return Reply("refused", str(exc), code=3, conflict=exc.conflict)
        except InputError as exc:
            return Reply("refused", str(exc), code=2)

    def _do(self, command: str, rest: str) -> Reply:
        if command in ("undo", "show", "answers", "help", "quit") and rest:
            raise InputError(f"{command} takes nothing after it")
        if command == "visit":
            return self._visit(rest)
        if command == "note":
            return self._note(rest)
        if command == "undo":
            return self._undo()
        if command in ("show", "answers"):
            return Reply("info", reading=self.reading(), view=command)
        if command == "why":
            if not rest:
                raise InputError("usage: why RULE")
            return Reply("info", view="why", why=why_rule(self.case, rest, self.read))
        if command == "help":
            return Reply("info", HELP)
        return Reply("quit", "bye: the record is saved")

    # -- entries
    def _visit(self, text: str) -> Reply:
        if not text:
            raise InputError("usage: visit SOURCE")
        source = find_source(_unquote(text), self.case.sources)
        notes = [n.index for n in self.case.notes if n.source == source]
        new = [i for i in notes if i not in self.read]
        if not new:
            raise InputError(f"already read: every note of {source} "
                             f"({_plural('note', notes)})")
        return self._enter(new, f"visited {source}: read {_plural('note', new)}")

    def _note(self, text: str) -> Reply:
        if not text:
            raise InputError("usage: note N")
        if not self.case.notes:
            raise InputError("the case has no notes")
        i = whole_number(text, 0, len(self.case.notes) - 1, "a note number", where="note N")
        if i in self.read:
            raise InputError(f"note {i} is already read")
        return self._enter([i], f"read {self.case.notes[i].describe()}")

    def _enter(self, new: list[int], message: str) -> Reply:
        trial = self.read + new
        if not self.oracle.consistent(trial):
            raise _contradiction(self, trial, f"{_plural('note', new)} contradicts the notes "
                                 "read; these notes cannot all hold:")
        self._save(trial)  # a failed write refuses the entry: the session keeps its notes
        self.read = trial
        self._entries.append((new, message))
        return Reply("accepted", message, reading=self.reading())

    def _undo(self) -> Reply:
        if not self.read:
            raise InputError("nothing to undo")
        if self._entries:
            new, message = self._entries[-1]
        else:
            new, message = self.read[-1:], f"read {self.case.notes[self.read[-1]].describe()}"
        kept = self.read[:len(self.read) - len(new)]
        self._save(kept)
        self.read = kept
        if self._entries:
            self._entries.pop()
        return Reply("accepted", f"undone: {message}", reading=self.reading())


def find_source(text: str, sources: list[str]) -> str:
    """The source ``text`` names: by the number printed in its name (``3``, ``location
    3``), else by the alias rule (``core.names.resolve``); ``InputError`` otherwise."""
    if not sources:
        raise InputError("the case's notes have no sources (locations): use note N")
    m = _NUMBERED.fullmatch(text.strip())
    number = read_whole_number(m.group(1)) if m else None
    if number is None:
        short = [source_name(s) for s in sources]  # "The Workshop" names its source too
        aliases = {k: s for k, s in zip(short, sources) if k and short.count(k) == 1}
        return resolve(text, sources, "location", where="visit SOURCE", aliases=aliases)
    hits = [s for s in sources if source_number(s) == number]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise InputError(f"location {number} is ambiguous: could be {', '.join(hits)}",
                         where="visit SOURCE")
    numbers = sorted({n for n in map(source_number, sources) if n is not None})
    have = f"numbered {', '.join(map(str, numbers))}" if numbers else "not numbered: use a name"
    raise InputError(f"no location numbered {number}: the locations are {have}",
                     where="visit SOURCE")


def _load(record: Path, ref: str) -> Case:
    """The record's case; a case that cannot be found names the record's field too."""
    try:
        return load_case(case_file(record, ref))
    except InputError as exc:
        raise InputError(f"{exc}", where=f"{record}: field 'case'") from None


def _contradiction(session: TableSession, notes: list[int], headline: str) -> ContradictionError:
    """``headline`` and, a line each, a minimal set of ``notes`` that cannot all hold."""
    conflict = session.oracle.conflict(notes)
    lines = [f"  {session.case.notes[i].describe()}" for i in conflict]
    return ContradictionError("\n".join([headline] + lines), conflict)


def _unquote(text: str) -> str:
    """``"The Cab Rank"`` or ``'The Cab Rank'`` without its quotes (anything else as is)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _plural(word: str, items: list[int]) -> str:
    return f"{word}{'s' if len(items) != 1 else ''} {', '.join(map(str, items))}"


def _notes_range(count: int) -> str:
    return f"notes 0 to {count - 1}" if count else "no notes"
