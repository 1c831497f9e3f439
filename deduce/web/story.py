"""The Detective Story page of ``deduce serve`` (a game page: see ``web.pages``).

The terminal's ``deduce story table`` is a conversation: the session
(``models.detective_story.table.TableSession``) asks each question of a phase (the Action,
its 2d6, a re-roll, a d6 face, a test, a fight's end, ...) through a ``Port`` and saves
the record when the phase is played. The page keeps that session and talks to it as a
pipe does: ``StoryTable`` holds the lines answered so far in the phase in play; each
posted answer is played through ``session.run()`` after them, as piped lines, until the
input ends at the next question. So every answer is checked, refused (with the
terminal's reason), saved or undone by the session itself; a line answered mid-phase is
kept by the page until its phase is played (as the terminal keeps it: nothing is saved
before the phase ends), and ``undo`` is the terminal's (the phase in play starts again,
or, at its first question, the phase before is undone).

The whole case is solved once per served record (``TableSession.prepare``, up to half a
minute for a fresh case): in a thread of its own, started when the record is opened, so
the page shows the case's state at once and the advice and the questions when the solve
is done (the version changes then, so the page's poll brings them). ``close`` stops a
solve still running.

The live part, top to bottom: the turn, SM, Luck; the best Action and P(arrest); the
message of the last answer; the question waiting, as chips to tap (or the line typed as
in the terminal) and undo; P(arrest by the end of turn 12) of every legal Action (the
table's advice); the state (``odds.state_report``: party, Villain candidates, Actions
legal or why not, the exact odds of each Action's 2d6 rows, the Encounter Matrix); the
answers of the phase in play and the case's log.
"""

from __future__ import annotations

import random
import re
import threading

from deduce.core.errors import DeduceError, InputError
from deduce.core.numbers import whole_number
from deduce.core.table_session import Reply
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.campaign import DEFAULT_TRAITS, new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.odds import state_report
from deduce.models.detective_story.state import case_to_record, outcome_text
from deduce.models.detective_story.table import EndOfInput, TableSession
from deduce.web import pages
from deduce.web.html import chips, fieldset, h
from deduce.web.tables import record_version

GAME = "detective-story"
TITLE = "Detective Story"
#: the campaign folder new records come from (None: the shipped campaign); tests set it
CAMPAIGN_DIR: str | None = None
#: a seed typed on the page: 0 to this (as ``deduce story new --seed``)
MAX_SEED = 2**63 - 1
#: how long a view waits for a solve under way before showing "solving" (seconds)
SOLVE_WAIT = 1.0
#: the log lines of the case shown (the last ones)
LOG_LINES = 40

__all__ = ["CAMPAIGN_DIR", "GAME", "StoryTable", "TITLE", "WebPort", "act", "answer_choices",
           "create_record", "new_record_fields", "open_record", "render", "summary", "version"]


# ----------------------------------------------------------------------------- the session
class SolveStopped(Exception):
    """The solve was stopped: the record is no longer served."""


class WebPort:
    """A ``table.Port`` that answers from the lines given (``feed``) and ends the input
    when they run out, keeping the question then waiting, the advice last shown, and what
    was said: ``said`` holds ``(kind, text, lines used by then)``, kind ``refused``,
    ``told`` or ``report``; ``asked``: ``(question, line)`` of each line used. A blank
    line stands for the question's default, as the terminal's pipe reads it."""

    def __init__(self):
        self.feed([])

    def feed(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.used = 0
        self.question: tuple[str, str | None] | None = None
        self.advice = None
        self.advised = -1  # lines used when the advice was last shown (a step began)
        self.said: list[tuple[str, str, int]] = []
        self.asked: list[tuple[str, str]] = []

    def ask(self, question: str, default: str | None) -> str:
        if not self.lines:
            self.question = (question, default)
            raise EndOfInput()
        text = self.lines.pop(0)
        self.used += 1
        if not text.strip() and default is not None:
            text = default
        self.asked.append((question, text))
        return text

    def refuse(self, message: str) -> None:
        self.said.append(("refused", message, self.used))

    def tell(self, text: str) -> None:
        self.said.append(("told", text, self.used))

    def report(self, text: str) -> None:
        self.said.append(("report", text, self.used))

    def show_advice(self, case, phase: str, advice) -> None:
        self.advice = advice
        self.advised = self.used

    def reroll_text(self, rr) -> str:
        verdict = ("spend 1 Luck and roll again" if rr.spend else
                   "keep it" if rr.p_reroll is not None else "keep it (no Luck left)")
        again = pct(rr.p_reroll) if rr.p_reroll is not None else "-"
        outcome = T.OUTCOME_TEXT[rr.what][rr.outcome]
        return (f"{rr.what}: dice {rr.roll}, total {rr.total} -> {outcome}: P(arrest) keeping "
                f"{pct(rr.p_keep)}, re-rolling {again}: {verdict}")


class StoryTable:
    """A served story session: ``session`` (its lock held), the ``typed`` lines answered
    in the phase in play, the view of the last run (question waiting, advice, what the
    session said since the last line), and the one solve (``solve``: unsolved, solving,
    solved, failed or stopped)."""

    def __init__(self, session: TableSession, port: WebPort):
        self.session, self.port = session, port
        self.typed: list[str] = []
        self.answered: list[tuple[str, str]] = []
        self.solve = "unsolved"
        self.progress = ""
        self.failure = ""
        self.stopping = False
        self.thread: threading.Thread | None = None
        self.viewed = False  # the port holds the view of the state as it is
        self.error = ""  # what stopped the last run (the advisor's caps), if anything

    @property
    def case(self):
        return self.session.case

    # -- the solve
    def start_solve(self) -> None:
        """Solve the whole case in a thread of its own (once)."""
        if self.solve != "unsolved":
            return
        self.solve = "solving"

        def progress(message: str) -> None:
            if self.stopping:
                raise SolveStopped()
            self.progress = message

        def work() -> None:
            solver = self.session.solver
            solver.progress = progress
            try:
                self.session.prepare(use_cache=pages.USE_CACHE)
                state = "solved"
            except SolveStopped:
                state = "stopped"
            except Exception as exc:  # an uncaught error would only die with the thread
                self.failure, state = f"{type(exc).__name__}: {exc}", "failed"
            finally:
                solver.progress = None
            self.solve = state

        self.thread = threading.Thread(target=work, name=f"solve {self.session.path}",
                                       daemon=True)
        self.thread.start()

    def wait_solved(self, timeout: float | None = None) -> bool:
        """Wait for the solve (at most ``timeout`` seconds); whether it is over."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self.solve not in ("unsolved", "solving")

    def close(self) -> None:
        """Stop a solve under way and let the record's lock go."""
        self.stopping = True
        self.session.close()

    # -- answers
    def run(self, lines: list[str]) -> None:
        """Play ``lines`` through the session as piped lines (then the input ends). An
        error the terminal would stop at (the advisor's caps) is kept in ``error``, and
        no question waits."""
        self.port.feed(lines)
        self.error = ""
        try:
            self.session.run()
        except DeduceError as exc:
            self.error = str(exc)
            self.port.question = None
        self.viewed = True

    def view(self) -> None:
        """Make the port hold the question waiting and the advice (a run of the lines
        answered so far in the phase: the session asks them again)."""
        if not self.viewed and self.solve == "solved":
            self.run(self.typed)

    def answer(self, line: str) -> Reply:
        """The session's reply to one more line in the phase in play."""
        if self.solve != "solved":
            why = {"solving": "the case is being solved (once, for every later turn): wait "
                              "until the advice shows, then answer",
                   "failed": f"the case could not be solved: {self.failure}",
                   "stopped": "the solve was stopped"}.get(self.solve, "the case is not solved yet")
            return Reply("refused", f"{why}; nothing was entered", code=2)
        s = self.session
        before = (len(s.history), s.case, s.phase, s.waited)
        action = at_action(self)
        given = self.typed + [line]
        self.run(given)
        port = self.port
        if self.error:
            self.run(self.typed)
            return Reply("refused", f"{self.error}; nothing was entered", code=2)
        if port.question is None and port.used == len(given):  # quit, or finished at the end
            self.run(self.typed)
            return Reply("refused", "quit and finish are for the terminal: here every phase "
                                    "is saved as it is played; nothing was entered", code=2)
        refusals = [text for kind, text, used in port.said if kind == "refused" and used == len(given)]
        if refusals:
            if port.advised == len(given):  # the phase begins again (its write failed)
                self.typed, self.answered = [], []
            self.run(self.typed)  # the question refused, asked again
            return Reply("refused", "\n".join(refusals), code=2)
        after = (len(s.history), s.case, s.phase, s.waited)
        said = [text.strip() for kind, text, used in port.said
                if used == len(given) and kind in ("report", "told")]
        if after != before or line.strip().lower() == "undo":
            self.typed, self.answered = [], []
            self.run([])  # the view of the phase now in play, from its first question
            return Reply("accepted", "\n".join(said) or "undone: this phase starts again")
        self.typed, self.answered = given, list(port.asked)
        question, answer = port.asked[-1]
        asked = f"Turn {s.case.turn}: the Action" if action else split_question(question)[0]
        return Reply("accepted", f"{asked}: {answer}")


# ----------------------------------------------------------------------------- the game page
def open_record(path) -> StoryTable:
    """The record's session (the record's lock taken at once), its solve started."""
    port = WebPort()
    table = StoryTable(TableSession.open(str(path), None, port), port)
    table.start_solve()
    return table


def campaign():
    """The campaign new records come from (``CAMPAIGN_DIR``)."""
    return load_campaign(CAMPAIGN_DIR)


def create_record(path, form) -> StoryTable:
    """A new case from the new-record form, as ``deduce story new`` makes it: the
    ``adventure`` (an index of the campaign's; none: the 1d6 of A000), the ``seed`` (blank:
    a fresh one, kept in the record), three ``trait`` boxes (indices of the starting
    Traits) and the ``equipment`` (an index; none: rolled); then its session."""
    from deduce.core.records import write_json_atomic

    where = "new record"
    data = campaign()
    adventures = list(data.adventures)
    equipment = [p for p, x in data.paragraphs.items() if x.kind == "equipment"]
    adventure = form.pick("adventure", adventures, where)
    seed_text = form.get("seed")
    seed = (whole_number(seed_text.strip(), 0, MAX_SEED, "a seed", where=f"{where}, field 'seed'")
            if seed_text is not None else random.SystemRandom().randrange(2**31))
    traits = form.pick_all("trait", list(T.STARTING_TRAITS), where)
    kit = form.pick("equipment", equipment, where)
    fields = {"--adventure": "adventure", "--traits": "traits", "--equipment": "equipment"}
    try:
        rec = new_record(data, adventure, seed, traits, kit, CAMPAIGN_DIR)
    except InputError as exc:
        message = str(exc)
        if exc.where:
            message = message[len(exc.where) + 2:]
        raise InputError(message, where=f"{where}, field "
                                        f"{fields.get(exc.where, exc.where or 'setup')!r}") from None
    write_json_atomic(path, rec)
    return open_record(path)


def version(table: StoryTable) -> str:
    s = table.session
    return record_version({"record": case_to_record(s.cf, s.case, s.phase, s.waited, log=s.log),
                           "typed": table.typed, "solve": table.solve,
                           "undo": len(s.history)})


def summary(table: StoryTable) -> str:
    s = table.session
    a = s.cf.ctx.adventure
    return (f"{TITLE}, {a.id} {a.name}; turn {s.case.turn} ({s.phase}), SM {s.case.sm}, "
            f"Luck {s.case.luck}" + (f"; over: {outcome_text(s.case.outcome)}" if s.case.over else ""))


def act(served, form) -> Reply:
    """The session's reply to a posted ``op``: ``undo``, or ``answer`` with the ``line``
    typed or else the ``pick`` chip (an index of ``answer_choices``)."""
    table: StoryTable = served.session
    if form.get("op") == "undo":
        return table.answer("undo")
    typed = next((v for k, v in form.pairs if k == "line" and v.strip()), None)
    if typed is not None:
        return table.answer(typed)
    table.view()
    choices = current_choices(table)
    where = f"answer (turn {table.case.turn}, {table.session.phase})"
    try:
        picked = form.pick("pick", [line for line, _ in choices], where)
    except InputError as exc:
        return Reply("refused", str(exc), code=2)
    return table.answer(picked if picked is not None else "")


# ----------------------------------------------------------------------------- questions
def split_question(text: str) -> tuple[str, str]:
    """A question as the session asks it, ``TEXT [HINT]``, as (text, hint)."""
    if text.endswith("]") and " [" in text:
        body, _, hint = text[:-1].rpartition(" [")
        return body, hint
    return text, ""


_RANGE = re.compile(r"(\d+)-(\d+)")
_NAMED = re.compile(r"(\S+) \((.+)\)")


def answer_choices(question: str) -> list[tuple[str, str]]:
    """The answers to tap for a question of a phase (``live.Told``'s), as (line, label):
    from its hint, a range ``2-12``, a 2d6 ``N`` (2-12; ``keep``), a test (pass, fail, the
    total), a d6 (the faces listed), or a list of names (an id's line is the id)."""
    text, hint = split_question(question)
    dice = [(str(n), str(n)) for n in range(2, 13)]
    m = _RANGE.fullmatch(hint)
    if m:
        return [(str(n), str(n)) for n in range(int(m.group(1)), int(m.group(2)) + 1)]
    if hint == "N, or keep":
        return [("keep", "keep")] + dice
    if hint.startswith("N"):
        return dice
    if "pass/fail" in hint:
        return [("pass", "pass"), ("fail", "fail")] + dice
    if text.startswith("1d6"):
        return d6_faces(hint)
    if not hint:
        return []
    out = []
    for item in hint.split(", "):
        named = _NAMED.fullmatch(item)
        out.append((named.group(1) if named else item, item))
    return out


def d6_faces(hint: str) -> list[tuple[str, str]]:
    """The faces of a d6 question's hint ``1-2: X; 3: Y`` (every face when unreadable)."""
    faces: dict[int, str] = {}
    for group in hint.split("; "):
        spec, sep, name = group.partition(": ")
        m = _RANGE.fullmatch(spec)
        numbers = (range(int(m.group(1)), int(m.group(2)) + 1) if m else
                   [int(x) for x in spec.split(",") if x.isdigit()])
        for f in numbers:
            if 1 <= f <= 6:
                faces[f] = name
    if not faces:
        return [(str(f), str(f)) for f in range(1, 7)]
    return [(str(f), f"{f}: {faces[f]}") for f in sorted(faces)]


def current_choices(table: StoryTable) -> list[tuple[str, str]]:
    """The chips of the question waiting: at an Action, the legal Actions (best first)."""
    port = table.port
    if port.question is None or table.case.over:
        return []
    if at_action(table):
        return [(a, f"{a} {pct(p)}") for a, p in port.advice.actions]
    return answer_choices(port.question[0])


def at_action(table: StoryTable) -> bool:
    """Whether the question waiting is the turn's Action."""
    return (table.session.phase == "action" and not table.typed and not table.case.over
            and table.port.advice is not None and bool(table.port.advice.actions))


def pct(p: float) -> str:
    return f"{100 * p:.1f}%"


# ----------------------------------------------------------------------------- the page
def render(served, notice: str = "", why: str | None = None) -> str:
    """The live part of the record's page (see the module's docstring)."""
    table: StoryTable = served.session
    table.wait_solved(SOLVE_WAIT if table.solve == "solving" else 0)
    table.view()
    s = table.session
    c = s.case
    base = f"/r/{served.slug}"
    report = state_report(s.cf.ctx, c, s.phase, s.waited)
    motive = f" / Motive {report['motive_value']}" if report["motive_value"] is not None else ""
    head = (f'<p class="turn" id="turn">{h(report["adventure"]["id"])} '
            f'{h(report["adventure"]["name"])} · turn {report["turn"]}/{T.TURNS} '
            f"({h(s.phase)}) · SM {c.sm}{h(motive)} · Luck {c.luck}</p>")
    parts = [head, glance(table), notice, question_form(table, base, served.version),
             advice_section(table), state_section(report, s), answers_so_far(table),
             log_section(s)]
    return "".join(parts)


def glance(table: StoryTable) -> str:
    c = table.case
    if c.over:
        text = f"The case is over: {outcome_text(c.outcome)}."
    elif table.error:
        text = f"The advisor cannot go on: {table.error}"
    elif table.solve != "solved":
        text = solve_text(table)
    elif at_action(table):
        best, p = table.port.advice.actions[0]
        text = f"Best Action: {best} · P(arrest by turn {T.TURNS}) {pct(p)}"
    elif table.port.advice is not None:
        text = f"P(arrest by turn {T.TURNS}) {pct(table.port.advice.p_win)}"
    else:
        text = ""
    return f'<p class="glance" id="glance">{h(text)}</p>'


def solve_text(table: StoryTable) -> str:
    if table.solve == "failed":
        return f"The case could not be solved: {table.failure}"
    if table.solve == "stopped":
        return "The solve was stopped."
    step = f" ({table.progress})" if table.progress else ""
    return ("Solving the whole case once, for every SM and Luck (a fresh case: up to half a "
            f"minute){step}; the advice and the questions show when it is done.")


def question_form(table: StoryTable, base: str, ver: str) -> str:
    """The question waiting (or the end of the case), its answers as chips, a line to
    type as in the terminal, and undo."""
    hidden = f'<input type="hidden" name="version" value="{h(ver)}">'
    s = table.session
    can_undo = bool(table.typed or s.history)
    undo = (f'<form class="live undo" method="post" action="{base}/act">{hidden}'
            '<input type="hidden" name="op" value="undo">'
            f'<button type="submit" id="undo"{"" if can_undo else " disabled"}>Undo</button>'
            '<span class="small"> the phase in play starts again; at its first question, the '
            "phase before is undone</span></form>")
    if table.case.over:
        return (f'<section id="question"><h2>The case is over</h2><p>{h(outcome_text(table.case.outcome))}. '
                "Close it with deduce story end.</p>" + undo + "</section>")
    port = table.port
    if table.solve != "solved" or port.question is None:
        return ""
    question, default = port.question
    text, hint = split_question(question)
    choices = current_choices(table)
    if at_action(table):
        text, hint = f"Turn {table.case.turn}: the Action taken", "the best first, with P(arrest)"
    told = [t for kind, t, used in port.said if kind == "told" and used == port.used]
    tells = "".join(f'<p class="told">{h(t)}</p>' for t in told)
    picks = ""
    if choices:
        checked = tuple(str(k) for k, (line, _) in enumerate(choices) if line == default)
        picks = chips("pick", [(str(k), label) for k, (_, label) in enumerate(choices)],
                      checked=checked, wide=any(len(label) > 14 for _, label in choices))
    return (f'<section id="question"><form class="entry live" method="post" action="{base}/act">'
            f'{hidden}<input type="hidden" name="op" value="answer">'
            f'<h2 id="question-text">{h(text)}</h2>{tells}'
            + fieldset(hint or "your answer", picks)
            + fieldset("or type the answer as in the terminal",
                       '<input type="text" name="line" id="line" maxlength="1000" '
                       'autocomplete="off">')
            + '<button type="submit" class="primary" id="enter">Enter</button></form>'
            + undo + "</section>")


def advice_section(table: StoryTable) -> str:
    port = table.port
    if table.solve != "solved" or port.advice is None or table.case.over:
        return ""
    a = port.advice
    if not a.actions:
        return (f'<section id="advice"><h2>Advice</h2><p>Action done; on the Encounter Matrix '
                f"now: P(arrest by turn {T.TURNS}) {pct(a.p_win)}</p></section>")
    rows = "".join(f'<li class="bar" data-action="{h(act_)}" data-p="{p!r}">'
                   f'<span class="name">{h(act_)}</span><span class="track">'
                   f'<span class="fill" style="width:{100 * p:.1f}%"></span></span>'
                   f'<span class="p">{pct(p)}</span></li>' for act_, p in a.actions)
    return (f'<section id="advice"><h2>P(arrest by the end of turn {T.TURNS})</h2>'
            '<p class="small">Every legal Action, best first, with the best play after it '
            f'(exact).</p><ol class="bars">{rows}</ol></section>')


def state_section(r: dict, session: TableSession) -> str:
    """``deduce story state`` on the page: flags, party, Villain, Actions, odds."""
    flags = [f"bonus +{r['bonus']['value']} to {r['bonus']['action']}" if r["bonus"] else "",
             "trapped: this turn is spent escaping" if r["trapped"] else "",
             "Investigate allowed by an event" if r["investigate_allowed_by_event"] else "",
             "a Clue found" if r["clue_found"] else "",
             "can arrest" if r["can_arrest"] else "",
             f"Seek channels closed: {', '.join(r['seek_closed'])}" if r["seek_closed"] else ""]
    warn = "".join(f'<p class="small">warning: {h(w)}</p>' for w in session.data.warnings)
    lines = "".join(f"<li>{h(f)}</li>" for f in flags if f)
    party = "".join(
        f"<tr><th scope=\"row\">{h(m['name'])}</th><td>{m['brains']}</td><td>{m['brawn']}</td>"
        f"<td>{m['bravery']}</td><td>{h(', '.join(f'{t} {lv}' for t, lv in m['traits'].items()))}</td>"
        f"<td>{h(_health(m))}</td></tr>" for m in r["party"])
    villain = "".join(
        f"<li>{h(v['id'])} {h(v['name'])}: {pct(v['p'])}"
        + (f" · {h(_motives(v))}" if "motives" in v else "") + "</li>" for v in r["villain"])
    actions = "".join(
        f'<li class="{"legal" if a["legal"] else "illegal"}">{h(a["action"])}'
        + ("" if a["legal"] else f': <span class="small">{h(a["why_not"])}</span>') + "</li>"
        for a in r["actions"])
    odds = "".join(action_odds(o) for o in r["odds"])
    enc = ""
    if r["encounter"]:
        e = r["encounter"]
        cols = ", ".join(f"{T.LINE_WORDS.get(col['column'], 'no encounter')} {pct(col['p'])}"
                         for col in e["columns"])
        enc = (f'<p id="encounter">Encounter Matrix (R008): an event on {e["event_on"]}+: '
               f"{pct(e['p_event'])} (after Wait {pct(e['p_event_after_wait'])}); vertical die "
               f"{e['vertical_modifier']:+d}: {h(cols)}</p>")
    return (f'<section id="state"><h2>State</h2>{warn}'
            + (f'<ul class="flags">{lines}</ul>' if lines else "")
            + '<div class="scroll"><table class="party"><thead><tr><th></th><th>Brains</th>'
              "<th>Brawn</th><th>Bravery</th><th>Traits</th><th>health</th></tr></thead>"
            + f"<tbody>{party}</tbody></table></div>"
            + f'<h3>Villain</h3><ul class="villain">{villain}</ul>'
            + f'<h3>Actions</h3><ul class="actions">{actions}</ul>'
            + (f'<h3>Odds of each Action</h3>{odds}' if odds else "") + enc + "</section>")


def _health(m: dict) -> str:
    return ", ".join(x for x in ["Wounded" if m["wounded"] else "",
                                 f"Addiction {m['addiction']}" if m["addiction"] else "",
                                 f"Madness {m['madness']}" if m["madness"] else ""] if x) or "well"


def _motives(v: dict) -> str:
    return "; ".join(f"{m['motive']}: value {m['value']} ({pct(m['p'])})"
                     for m in v["motives"]) or "revealed on the second meeting (R005a)"


def action_odds(o: dict) -> str:
    """One legal Action's odds: its 2d6 rows with their probabilities, or Rest's rolls."""
    if "rows" in o:
        parts = ", ".join(f"{p['why']} {p['value']:+d}" for p in o["modifier_parts"]) or "none"
        rows = "".join(f'<tr><td>{h(row["rows"])}</td><td class="p">{pct(row["p"])}</td>'
                       f"<td>{h(row['text'])}</td></tr>" for row in o["rows"])
        return (f'<div class="odds" data-action="{h(o["action"])}"><p><strong>'
                f"{h(o['action'])}</strong>: 2d6 {o['modifier']:+d} ({h(parts)})</p>"
                f'<table class="odds"><tbody>{rows}</tbody></table></div>')
    if o.get("heals"):
        rows = "".join(f"<tr><td>{h(x['healer'])}</td><td>{h(x['patient'])} "
                       f"({h(x['condition'])})</td><td>Medicine {x['target']}</td>"
                       f'<td class="p">{pct(x["p"])}</td></tr>' for x in o["heals"])
        return (f'<div class="odds" data-action="{h(o["action"])}"><p><strong>'
                f"{h(o['action'])}</strong>: Medicine rolls (R007f)</p>"
                f'<div class="scroll"><table class="odds"><tbody>{rows}</tbody></table></div></div>')
    return ""


def answers_so_far(table: StoryTable) -> str:
    if not table.answered:
        return ""
    action = table.session.phase == "action"  # then the first answer is the Action

    def asked(i: int, question: str) -> str:
        return "the Action" if action and i == 0 else split_question(question)[0]

    items = "".join(f"<li>{h(asked(i, q))}: <strong>{h(a)}</strong></li>"
                    for i, (q, a) in enumerate(table.answered))
    return (f'<section id="answered"><h2>This phase so far</h2><p class="small">Saved when '
            f"the phase is played.</p><ol>{items}</ol></section>")


def log_section(session: TableSession) -> str:
    log = list(session.cf.record.get("log", [])) + session.log
    if not log:
        return ""
    items = "".join(f"<li>{h(line)}</li>" for line in log[-LOG_LINES:])
    more = f'<p class="small">({len(log) - LOG_LINES} earlier lines)</p>' if len(log) > LOG_LINES else ""
    return f'<section id="log"><h2>Log</h2>{more}<ol class="log">{items}</ol></section>'


# ----------------------------------------------------------------------------- new record
def new_record_fields() -> str:
    """The setup fields of a new case (``deduce story new``'s options)."""
    data = campaign()
    adventures = [(str(k), f"{a.id} {a.name}") for k, a in enumerate(data.adventures.values())]
    kits = [(str(k), f"{p} {x.title}") for k, (p, x) in
            enumerate((p, x) for p, x in data.paragraphs.items() if x.kind == "equipment")]
    traits = [(str(k), t) for k, t in enumerate(T.STARTING_TRAITS)]
    default = tuple(str(T.STARTING_TRAITS.index(t)) for t in DEFAULT_TRAITS)
    return (fieldset("Adventure (none ticked: the 1d6 of A000)",
                     chips("adventure", adventures, wide=True, prefix="adventure"))
            + fieldset("Seed for the dice of the start (blank: a fresh one, kept in the record)",
                       '<input type="text" name="seed" id="seed" maxlength="19" '
                       'inputmode="numeric" autocomplete="off">')
            + fieldset(f"Holmes's {T.START_TRAIT_COUNT} starting Traits (R003)",
                       chips("trait", traits, kind="checkbox", checked=default, prefix="trait"))
            + fieldset("Starting equipment (none ticked: rolled)",
                       chips("equipment", kits, wide=True, prefix="equipment")))
