"""A turn told by the player: the table's dice and decisions, applied by the rules engine.

``Told`` implements the world interface of ``engine`` by asking the player: every roll,
chance and decision of the turn becomes a ``Question`` answered from ``Answers`` (the
answers given in order, then an interactive prompt if there is one). So the record is kept
by the same rules that the advisor and the bots play by, and the player only says what the
dice showed:

- an Action's 2d6 (R003): the natural dice total, ``N``; ``N/M`` when 1 Luck was spent to
  roll ``M`` instead (the engine adds the modifiers and takes the Luck point);
- the Encounter Matrix's 2d6, a Deduction's 2d6 (option 3): the natural total;
- a d6 (an Adventure line, the Villain or Motive line, a paragraph's d6, the Encounter
  Matrix's vertical d6, found again, an Ally leaving): the face, 1-6 (the engine applies
  the vertical modifiers and the line);
- a Quality or Trait test, a healing roll: the 2d6 total, or ``pass``/``fail``;
- 1d3: 1-3; a random Ally or Trait: its name (drawn as the player likes);
- option 3's start: deduction, hide_follow or fight;
- a fight (R009, played at the table round by round): how it ended, e.g. ``won wounded``,
  ``lost watson serious``, ``escaped``.

``play_turn`` plays the rest of a record's turn (the Action and the Encounter Matrix, or
just one of them: ``rules.play_action``, ``rules.play_encounter``) and returns the new case
and what happened; nothing is written here.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.core.numbers import whole_number
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.rules import play_action, play_encounter
from deduce.models.detective_story.state import Case, Context, outcome_text


class Question(NamedTuple):
    """What the player is asked: ``text``, ``hint`` (the answers accepted), and the answer
    an empty reply stands for (None: none)."""

    text: str
    hint: str
    default: str | None = None


class Answers:
    """The player's answers: ``given`` in order, then ``prompt(question) -> str`` if any
    (a terminal or a table session: a wrong answer is refused, ``refuse(error)``, and
    asked again; ``warn(text)`` tells the player something). Keeps what was answered."""

    def __init__(self, given: list[str] | tuple[str, ...] = (),
                 prompt: Callable[[Question], str] | None = None,
                 warn: Callable[[str], None] | None = None,
                 refuse: Callable[[InputError], None] | None = None):
        self.given = list(given)
        self.prompt = prompt
        self.warn = warn or (lambda text: None)
        self.refuse = refuse or (lambda exc: self.warn(str(exc)))
        self.used: list[dict] = []

    def ask(self, q: Question, parse: Callable[[str], object]):
        """``parse(answer)`` of the next answer; ``InputError`` naming the answer (or the
        question, when none is left)."""
        while True:
            i = len(self.used)
            if i < len(self.given):
                text, where = self.given[i], f"--answer {i + 1}"
            elif self.prompt is not None:
                text, where = self.prompt(q), None
            else:
                raise InputError(f"needs an answer for: {q.text} ({q.hint}); "
                                 f"{len(self.given)} given", where="--answer")
            if not text.strip() and q.default is not None:
                text = q.default
            try:
                value = parse(text.strip())
            except InputError as exc:
                if where is not None:
                    raise InputError(f"{exc} (for: {q.text})", where=where) from None
                self.refuse(exc)
                continue
            self.used.append({"question": q.text, "answer": text.strip()})
            return value

    def check_all_used(self) -> None:
        """``InputError`` naming the first answer given that no question took."""
        n = len(self.used)
        if n < len(self.given):
            raise InputError(f"{len(self.given)} answers given, the turn took {n}: "
                             f"'{self.given[n]}' and after are left over", where=f"--answer {n + 1}")


def _total(text: str, low: int = 2, high: int = 12) -> int:
    """A die face or a dice total typed by the player (``core.numbers``: decimal digits of
    any script), from ``low`` to ``high``."""
    what = "a die face" if (low, high) == (1, 6) else "a number" if low == 1 else "a dice total"
    return whole_number(text, low, high, what)


_KEEP = ("keep", "k", "no", "n")
_PASS = {"pass": True, "passed": True, "p": True, "yes": True, "y": True,
         "fail": False, "failed": False, "f": False, "no": False, "n": False}


class Told:
    """The world of a turn told by the player (see the module docstring). ``reroll_hint
    (tag, roll) -> text`` (optional): after an Action's first roll, with Luck left, the
    player is told ``text`` (the table session's advice) and asked whether they re-rolled."""

    def __init__(self, ctx: Context, answers: Answers,
                 reroll_hint: Callable[[str, int], str] | None = None):
        self.ctx = ctx
        self.answers = answers
        self.reroll_hint = reroll_hint
        self.log: list[str] = []
        self.luck_spent = 0

    def note(self, text: str) -> None:
        self.log.append(text)

    # -- chance nodes
    def chance(self, case: Case, dist, k, what=None):
        if len(dist) == 1:
            return k(self, case, dist[0][1])
        outcomes = [x for _, x in dist]
        kind = what[0] if what else None
        if kind == "d6":
            names = what[3] if len(what) > 3 else {}
            return k(self, case, self._face(outcomes, what[1], what[2], names))
        if kind == "test":
            return k(self, case, self._test(case, what[1]))
        if kind == "heal":
            healer, member, need = what[1]
            heals = f"{self.ctx.name_of(healer)} heals {self.ctx.name_of(member)}"
            return k(self, case, self._passed(f"{heals}: 2d6 >= {need}", lambda n: n >= need))
        if kind == "1d3":
            q = Question(f"1d3: Luck lost for {self.ctx.name_of(what[1])}", "1-3")
            return k(self, case, self.answers.ask(q, lambda a: _total(a, 1, 3)))
        names = [str(x) for x in outcomes]
        label = {"ally": "the Ally drawn at random", "trait": "the Trait drawn at random"}.get(
            kind, "the outcome")
        q = Question(label, ", ".join(self._name(x) for x in outcomes))
        aliases = self._aliases(outcomes)
        got = self.answers.ask(q, lambda a: resolve(a, names, label, aliases=aliases))
        return k(self, case, outcomes[names.index(got)])

    def _face(self, outcomes: list, faces: tuple, label: str, names: dict | None = None):
        """The outcome of the d6 face the player rolled (faces of outcomes not possible
        now, such as a ruled-out Villain, are rolled again); ``names``: what to call an
        outcome that is no id or line (a Motive's number)."""
        def name(x) -> str:
            return names[x] if names and not isinstance(x, tuple) and x in names else self._name(x)

        groups: dict = {}
        for f, x in enumerate(faces, start=1):  # a paragraph's effects: by identity (shared)
            key = ("effects", id(x)) if isinstance(x, tuple) else x
            groups.setdefault(key, (x, []))[1].append(f)
        shown = "; ".join(f"{_faces(fs)}: {name(x)}" for x, fs in groups.values()
                          if x in outcomes)
        q = Question(f"1d6, {label}", shown)

        def parse(a: str):
            f = _total(a, 1, 6)
            if faces[f - 1] not in outcomes:
                raise InputError(f"face {f} ({name(faces[f - 1])}) cannot come up now: "
                                 "roll again")
            return faces[f - 1]

        x = self.answers.ask(q, parse)
        self.note(f"1d6, {label}: {self.answers.used[-1]['answer']} -> {name(x)}")
        return x

    def _test(self, case: Case, t) -> bool:
        if t.quality:
            need = self.ctx.quality(self.ctx.holmes, case.holmes, t.name) + t.modifier
            return self._passed(f"{t.name} test: pass on 2d6 <= {need}", lambda n: n <= need)
        need = t.target - self.ctx.group_trait(case, t.name, t.holmes_only)
        return self._passed(f"{t.name} test: pass on 2d6 >= {need}", lambda n: n >= need)

    def _passed(self, text: str, rule: Callable[[int], bool]) -> bool:
        ok = self.answers.ask(Question(text, "the 2d6 total, or pass/fail"),
                              lambda a: _passed(a, rule))
        self.note(f"{text}: {self.answers.used[-1]['answer']} -> {'passed' if ok else 'failed'}")
        return ok

    def _name(self, x) -> str:
        data = self.ctx.data
        if isinstance(x, bool):
            return "yes" if x else "no"
        if isinstance(x, str) and x in data.paragraphs:
            return f"{x} ({data.paragraphs[x].title})"
        if isinstance(x, str) and x in data.villains:
            return f"{x} ({data.villains[x].name})"
        if isinstance(x, str) and x in self.ctx.sheets:
            return f"{x} ({self.ctx.sheets[x].name})"
        if isinstance(x, str) and x in T.LINE_WORDS:
            return T.LINE_WORDS[x]
        if x is None:
            return "no encounter"
        if isinstance(x, tuple):  # a paragraph's d6: its text says what each face does
            return "as the paragraph says"
        return str(x)

    def _aliases(self, outcomes: list) -> dict:
        out = {}
        for x in outcomes:
            if isinstance(x, str) and x in self.ctx.sheets:
                out[self.ctx.sheets[x].name] = x
        return out

    # -- rolls
    def luck_roll(self, case: Case, tag: str, mod: int, with_sm: bool, table, k):
        if with_sm:
            mod += case.sm
        q = Question(f"{tag}: the 2d6 (natural total; the engine adds {mod:+d})",
                     "N, or N/M when 1 Luck was spent to re-roll" if case.luck > 0 else "N")

        def parse(a: str):
            first, sep, second = a.partition("/")
            rolls = (_total(first.strip()),) + ((_total(second.strip()),) if sep else ())
            if sep and case.luck < 1:
                raise InputError("no Luck left to re-roll (R003)")
            return rolls

        rolls = self.answers.ask(q, parse)
        if len(rolls) == 1 and case.luck > 0 and self.reroll_hint is not None:
            self.answers.warn(self.reroll_hint(tag, rolls[0]))
            again = Question(f"{tag}: the new 2d6 if 1 Luck was spent to re-roll", "N, or keep",
                             default="keep")
            second = self.answers.ask(again, lambda a: None if a.lower() in _KEEP else _total(a))
            rolls += (second,) if second is not None else ()
        if len(rolls) == 2:
            self.luck_spent += 1
            self.note(f"{tag}: rolled {rolls[0]}, spends 1 Luck to roll again")
            case = case._replace(luck=case.luck - 1)
        roll = rolls[-1]
        self.note(f"{tag}: 2d6 {roll}{mod:+d} = {roll + mod}")
        return k(self, case, T.row_for(table, roll + mod).outcome)

    def plain_roll(self, case: Case, mod: int, table, k):
        q = Question(f"Encounter Matrix (turn {case.turn}): the 2d6"
                     + (f" (the engine adds {mod:+d})" if mod else ""), "2-12")
        roll = self.answers.ask(q, _total)
        self.note(f"encounter: 2d6 {roll}{mod:+d} = {roll + mod}")
        return k(self, case, T.row_for(table, roll + mod).outcome)

    def sm_at_least(self, case: Case, value: int, k_yes, k_no):
        return k_yes(self, case) if case.sm >= value else k_no(self, case)

    def roll_at_most_sm(self, case: Case, offset: int, k):
        q = Question(f"Deduction: 2d6, succeeds on at most {case.sm + offset}", "2-12")
        roll = self.answers.ask(q, _total)
        self.note(f"2d6 {roll} against SM {case.sm} {offset:+d}")
        return k(self, case, roll <= case.sm + offset)

    # -- decisions
    def choose(self, case: Case, kind: str, options, k):
        words = {E.O3_WORDS.get(o, o): o for o in map(str, options)}
        q = Question(f"{E.choice_text(kind)}: where to start", ", ".join(words))
        choice = words[self.answers.ask(q, lambda a: resolve(
            a, list(words), "choice", aliases={o: w for w, o in words.items()}))]
        self.note(E.choice_text(kind, choice))
        return k(self, case, choice)

    def combat(self, case: Case, setup: C.Setup, k):
        ends = {" ".join(t): t for t in C.terminals(setup)}
        q = Question("the fight (R009), played at the table: how it ended", ", ".join(ends))
        got = self.answers.ask(q, lambda a: resolve(a, list(ends), "fight result"))
        return k(self, case, ends[got])

    def tail(self, key, case: Case, k, f):
        return f(self, case, k)

    def finish(self, phase, case: Case) -> Case:
        return case


def _passed(text: str, rule: Callable[[int], bool]) -> bool:
    word = _PASS.get(text.lower())
    if word is not None:
        return word
    return rule(_total(text))


def _faces(fs: list[int]) -> str:
    if len(fs) > 1 and fs == list(range(fs[0], fs[-1] + 1)):
        return f"{fs[0]}-{fs[-1]}"
    return ",".join(map(str, fs))


class Turn(NamedTuple):
    """What ``play_turn`` did: the case after it, the record's phase and ``waited`` flag
    after it, what happened, and the answers used."""

    case: Case
    phase: str
    waited: bool
    log: list[str]
    answers: list[dict]
    luck_spent: int


def play_turn(ctx: Context, case: Case, phase: str, waited: bool, action: str | None,
              answers: Answers, action_only: bool = False) -> Turn:
    """Play the rest of the turn from ``phase`` ("action": ``action`` then, unless
    ``action_only``, the Encounter Matrix and the end of the turn; "encounter": the
    Encounter Matrix and the end of the turn)."""
    if case.over:
        raise InputError(f"the case is over ({outcome_text(case.outcome)}): close it with "
                         "'deduce story end'",
                         field="outcome")
    w = Told(ctx, answers)
    if phase == "action":
        if action is None:
            raise InputError("name the Action taken this turn", where="ACTION")
        case, waited = play_action(w, case, action)
        if action_only and not case.over:
            return Turn(case, "encounter", waited, w.log, answers.used, w.luck_spent)
    elif action is not None:
        raise InputError(f"the Action of turn {case.turn} is done: the record waits for the "
                         "Encounter Matrix (leave ACTION out)", where="ACTION")
    case = play_encounter(w, case, waited)
    return Turn(case, "action", False, w.log, answers.used, w.luck_spent)
