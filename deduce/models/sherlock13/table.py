"""Live table mode: one command line at a time, every accepted entry saved atomically.

``TableSession(path, record)`` takes lines such as ``raise Ann skull Cat`` or
``count Ben Dan book 1`` and returns a ``Reply``. An entry that is malformed, out of turn or
contradicts the record is refused with the reason (for a contradiction, the conflicting
earlier events) and the record is unchanged, in memory and on disk; so is an entry (or an
``undo``) whose write fails (disk full, read-only folder): the session goes on. A new
record's setup is checked one field at a time (``Setup``), after the lock is taken.

Commands (names take the spec's aliases; multi-word names may be quoted or not)::

    raise ASKER ICON [RAISER...]            nobody listed: nobody raised a hand
    count ASKER TARGET ICON N
    accuse ACCUSER SUSPECT right|wrong
    exchange ACTOR left|right REVEALED [TOOK]   TOOK only (and always) when ACTOR is me
    undo | show | best | why SUSPECT | help | quit

A caller that has the parts already (the web page of ``deduce serve``) calls ``enter``
(one event as the spec's JSON), ``undo`` and ``why``: the same checks, refusals and saving
as the lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from deduce.core.errors import ContradictionError, InputError
from deduce.core.lines import command_line
from deduce.core.names import normalise, resolve
from deduce.core.numbers import whole_number
from deduce.core.records import LockedSession, RecordLock, check_record_path
from deduce.models.sherlock13.advice import Analysis, analyze
from deduce.models.sherlock13.cards import ICONS, SUSPECTS
from deduce.models.sherlock13.record import (
    MAX_COUNT,
    Record,
    check_hand,
    check_me,
    check_players,
    check_variant,
    describe_event,
    event_from_json,
    new_record,
)

HELP = """\
raise ASKER ICON [RAISER...]              who raised a hand (none listed: nobody)
count ASKER TARGET ICON N                 TARGET said they hold N of ICON
accuse ACCUSER SUSPECT right|wrong        an accusation and its verdict
exchange ACTOR left|right REVEALED [TOOK] 2 players; TOOK when ACTOR is me
undo                                      take back the last entry
show                                      clue sheet, criminal, best questions
best                                      the best questions for my next turn
why SUSPECT                               why ruled out, or a deal where guilty
help                                      this text
quit                                      leave (everything is already saved)"""

COMMANDS = ("raise", "count", "accuse", "exchange", "undo", "show", "best", "why", "help", "quit")


@dataclass
class Reply:
    """What a line did.

    ``kind``: accepted, refused, info or quit. ``view``: for ``show`` and ``best``, which
    view of ``analysis`` to render. ``code``: the exit code of a refusal (2 or 3).
    """

    kind: str
    message: str = ""
    analysis: Analysis | None = None
    view: str | None = None
    code: int = 0
    conflict: list[int] | None = None


SETUP_FIELDS = ("variant", "players", "me", "hand")


def split_list(value) -> list[str]:
    """A list as typed: ``"Ann, Ben,Cat"`` -> ``["Ann", "Ben", "Cat"]`` (a list is kept)."""
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


class Setup:
    """A new record's setup, checked one field at a time in ``SETUP_FIELDS`` order (the
    checks of ``record.check_*``), so each answer is refused as it is given."""

    def __init__(self, source: str):
        self.source = source
        self.variant: str | None = None
        self.names: list[str] | None = None
        self.me: int | None = None
        self.hand: tuple[int, ...] | None = None

    def set(self, key: str, value) -> object:
        """Check ``value`` (text as typed, or a list) for field ``key`` and keep it; the
        checked value, or ``InputError`` naming the field."""
        where = self.source
        if key == "variant":
            self.variant = check_variant(value, where)
            return self.variant
        if key == "players":
            self.names = check_players(split_list(value), where)
            return self.names
        if key == "me":
            self.me = check_me(value, self.names, where)
            return self.me
        self.hand = check_hand(split_list(value), len(self.names), where)
        return self.hand

    def record(self) -> Record:
        return Record(self.variant, list(self.names), self.me, self.hand, source=self.source)


class TableSession(LockedSession):
    """A live session on one record, holding the record's lock (``core.records.RecordLock``)
    from ``open`` to ``close`` so no second session can write it meanwhile. Use it as a
    context manager, or call ``close()``."""

    def __init__(self, path: str | Path, record: Record, lock: RecordLock, created: bool = False):
        self.path = Path(path)
        self.record = record
        self.lock = lock
        self.created = created  # True if ``open`` created the record

    @classmethod
    def open(cls, path: str | Path, *, variant=None, players=None, me=None, hand=None,
             ask: Callable[[str, "Setup"], None] | None = None) -> "TableSession":
        """Lock ``path`` (``InputError`` at once if another session holds it), then load it
        (``ContradictionError`` if no world fits it), or create it if it does not exist.

        A new record's setup comes from the options (``players`` and ``hand``: lists, or
        text with commas), each checked as given; with ``ask``, every option left out is
        asked for, with the lock already held: ``ask(field, setup)`` must ask until
        ``setup.set(field, answer)`` accepts an answer. Without ``ask`` a missing option is
        an ``InputError`` naming them all. A path that exists but is not a regular file, or
        a new record in a folder that does not exist, is refused before anything else."""
        from deduce.models.sherlock13.record import load_record

        p = Path(path)
        check_record_path(p)
        lock = RecordLock(p)
        try:
            if p.exists():
                session = cls(p, load_record(p), lock)
                session.analysis()
                return session
            given = dict(variant=variant, players=players, me=me, hand=hand)
            missing = [k for k in SETUP_FIELDS if given[k] in (None, "", [])]
            if missing and ask is None:
                raise InputError("the record does not exist yet: give "
                                 f"{', '.join('--' + m for m in missing)}", where=str(p))
            setup = Setup(str(p))
            for key in SETUP_FIELDS:
                if key in missing:
                    ask(key, setup)
                else:
                    setup.set(key, given[key])
            rec = setup.record()
            rec.save(p)
            return cls(p, rec, lock, created=True)
        except BaseException:
            lock.release()
            raise

    def analysis(self) -> Analysis:
        return analyze(self.record)

    # -- one line
    def handle(self, line: str) -> Reply:
        """Do what ``line`` says (at most ``MAX_LINE`` characters) and say how it went."""
        try:
            parsed = command_line(line, COMMANDS)
        except InputError as exc:
            return Reply("refused", str(exc), code=2)
        if parsed is None:
            return Reply("info", "")
        word, args = parsed

        def do() -> Reply:
            if word in ("raise", "count", "accuse", "exchange"):
                return self._enter(self._event_json(word, args))
            if word == "undo":
                return self._undo()
            if word in ("show", "best"):
                return Reply("info", analysis=self.analysis(), view=word)
            if word == "why":
                return self._why(args)
            if word == "help":
                return Reply("info", HELP)
            return Reply("quit", "bye: the record is saved")

        return _refusing(do)

    # -- the same steps for a caller that already holds the parts (the web page)
    def enter(self, data: dict) -> Reply:
        """Enter one event given as the spec's event JSON (``{"actor": ..., "action":
        ...}``, names as the players are named, aliases allowed): checked, refused or saved
        exactly as a typed entry line."""
        return _refusing(lambda: self._enter(data))

    def undo(self) -> Reply:
        """Take back the last entry, as the ``undo`` line does."""
        return _refusing(self._undo)

    def why(self, suspect: str) -> Reply:
        """Why ``suspect`` is ruled out, or a deal where guilty, as ``why SUSPECT`` does."""
        return _refusing(lambda: self._why([suspect]))

    # -- entries
    def _enter(self, data: dict) -> Reply:
        index = len(self.record.events)
        event = event_from_json(data, self.record.names, where=f"entry (event {index})")
        trial = self._replay(self.record.events + [event])
        try:
            result = analyze(trial)
        except ContradictionError as exc:
            lines = [f"  event {i}: {describe_event(trial.events[i], trial.names)}" for i in exc.conflict]
            raise ContradictionError(
                "\n".join([f"{describe_event(event, trial.names)} contradicts the record; "
                            "these events cannot all hold with my hand:"] + lines),
                exc.conflict) from None
        trial.save(self.path)  # a failed write refuses the entry: the session keeps the record
        self.record = trial
        return Reply("accepted", f"event {index}: {describe_event(event, trial.names)}", analysis=result)

    def _replay(self, events) -> Record:
        rec = new_record(self.record.variant, self.record.names, self.record.names[self.record.me],
                         [SUSPECTS[c] for c in self.record.hand], source=str(self.path))
        for e in events:
            rec.add(e)
        return rec

    def _undo(self) -> Reply:
        if not self.record.events:
            return Reply("refused", "nothing to undo", code=2)
        last = self.record.events[-1]
        rec = self._replay(self.record.events[:-1])
        rec.save(self.path)
        self.record = rec
        return Reply("accepted", f"undone: {describe_event(last, rec.names)}", analysis=analyze(rec))

    def _why(self, args: list[str]) -> Reply:
        from deduce.models.sherlock13.cards import suspect_index
        from deduce.models.sherlock13.explain import explain_suspect

        if not args:
            raise InputError("usage: why SUSPECT")
        card = suspect_index(" ".join(args), where="why")
        return Reply("info", explain_suspect(self.record, card).text())

    # -- parsing
    def _event_json(self, word: str, args: list[str]) -> dict:
        usage = {
            "raise": "raise ASKER ICON [RAISER...]",
            "count": "count ASKER TARGET ICON N",
            "accuse": "accuse ACCUSER SUSPECT right|wrong",
            "exchange": "exchange ACTOR left|right REVEALED [TOOK]",
        }[word]
        need = {"raise": 2, "count": 4, "accuse": 3, "exchange": 3}[word]
        if len(args) < need:
            raise InputError(f"usage: {usage}")
        if word == "raise":
            icon, rest = _take_icon(args[1:])
            return {"actor": args[0], "action": "raise", "icon": icon, "raised": rest}
        if word == "count":
            n = whole_number(args[-1], 0, MAX_COUNT, "N (a count)", where=usage)
            return {"actor": args[0], "action": "count", "target": args[1],
                    "icon": " ".join(args[2:-1]), "count": n}
        if word == "accuse":
            verdict = resolve(args[-1], ("right", "wrong"), "verdict")
            return {"actor": args[0], "action": "accuse", "suspect": " ".join(args[1:-1]),
                    "correct": verdict == "right"}
        revealed, took = split_cards(args[2:])
        data = {"actor": args[0], "action": "exchange", "side": args[1], "revealed": revealed}
        if took is not None:
            data["took"] = took
        return data


def _refusing(step: Callable[[], Reply]) -> Reply:
    """``step()``, or the refusal of the input error or contradiction it raised."""
    try:
        return step()
    except ContradictionError as exc:
        return Reply("refused", str(exc), code=3, conflict=exc.conflict)
    except InputError as exc:
        return Reply("refused", str(exc), code=2)


def _take_icon(tokens: list[str]) -> tuple[str, list[str]]:
    """Split ``light bulb Cat`` into the icon (one or two words) and the rest."""
    if len(tokens) >= 2 and normalise(" ".join(tokens[:2])) in {normalise(i) for i in ICONS}:
        return " ".join(tokens[:2]), tokens[2:]
    return tokens[0], tokens[1:]


#: no alias of a suspect is longer, once normalised, than the longest canonical name
LONGEST_SUSPECT = max(len(normalise(s)) for s in SUSPECTS)


def split_cards(tokens: list[str]) -> tuple[str, str | None]:
    """One or two suspect names from words (``Mary Morstan Sherlock Holmes``).

    Words that cannot be one name (no letter or digit, more letters and digits than
    ``LONGEST_SUSPECT``, or more words than that) are never looked up, so a line of any
    length costs at most a few dozen short lookups."""
    from itertools import accumulate

    from deduce.models.sherlock13.cards import suspect_index

    upto = [0, *accumulate(len(normalise(t)) for t in tokens)]  # letters in tokens[:i]

    def ok(lo: int, hi: int) -> bool:
        if not 0 < upto[hi] - upto[lo] <= LONGEST_SUSPECT or hi - lo > LONGEST_SUSPECT:
            return False
        try:
            suspect_index(" ".join(tokens[lo:hi]))
            return True
        except InputError:
            return False

    n = len(tokens)
    if n == 1 or ok(0, n):
        return " ".join(tokens), None  # a single bad name: the parser names it
    splits = [i for i in range(1, n) if ok(0, i) and ok(i, n)]
    if len(splits) == 1:
        i = splits[0]
        return " ".join(tokens[:i]), " ".join(tokens[i:])
    if len(tokens) == 2:
        return tokens[0], tokens[1]  # let the parser name the bad one
    raise InputError("cannot tell the revealed card from the card taken: quote them, "
                     "e.g. exchange Ann left \"Mary Morstan\" \"Sherlock Holmes\"")
