"""The case notes page of ``deduce serve`` (a game page: see ``web.pages``).

Every entry goes through ``models.casenotes.table.TableSession.handle`` as the line the
terminal's ``deduce case table`` would read (``visit "SOURCE"``, ``note N``, ``undo``,
``why RULE``): the page checks no rule itself, so its refusals (a contradiction with the
minimal set of notes that cannot all hold, exit code 3) are the terminal's. Locations and
notes are chosen by tapping (each chip posts an index into what it shows).

The live part, top to bottom: how many notes are read and answers fixed; the message of
the last entry; the entry forms (visit a location, read one note, undo); the questions'
possible answers (and whether 221B can be visited with certainty); the grid of what the
notes read force (as ``show`` draws it: a solved value, else ``?n``, n values left) in a
box of its own that scrolls sideways when wide; ``why RULE``; the ``explain`` steps from
the notes read (``casenotes.explain``, as ``deduce case explain --from-notes``), one at a
time with its reasons and the grid after it, for a teacher to show; the notes read.

``why`` (the page's query) is ``#`` for the explain steps, ``#K`` for step K (from 1) shown
with the grid after it, anything else a RULE. The steps are made only when asked for (an
explanation takes up to a second or two on a large case), kept by version.
"""

from __future__ import annotations

import os
from pathlib import Path

from deduce.core.errors import InputError
from deduce.models.casenotes.format import shipped_cases
from deduce.models.casenotes.table import GAME, Reply, TableSession
from deduce.web.html import chips, fieldset, h
from deduce.web.tables import record_version

TITLE = "Case notes"
#: note chips shown at most; past it, a list to choose from
MAX_NOTE_CHIPS = 60
#: the explain step shown by the ``why`` query ``#K``
STEP = "#"

__all__ = ["GAME", "TITLE", "act", "create_record", "new_record_fields", "open_record",
           "render", "summary", "version"]


# ----------------------------------------------------------------------------- sessions
def open_record(path) -> TableSession:
    return TableSession.open(path)


def shipped_names() -> list[str]:
    """The shipped cases' names (``deduce case list``), the choices of a new record."""
    return [p.stem for p in shipped_cases()]


def create_record(path, form) -> TableSession:
    """A new record for the shipped case whose index ``case`` holds, made as ``deduce case
    table PATH --case NAME`` makes it. A file of that name next to the record or in the
    server's folder would be read instead of the shipped case: refused, naming it."""
    where = "new record"
    names = shipped_names()
    name = form.pick("case", names, where)
    if name is None:
        raise InputError("choose a case", where=f"{where}, field 'case'")
    for shadow in (Path(name), Path(path).parent / name):
        if os.path.lexists(shadow):
            raise InputError(f"a file {str(shadow)!r} would be read instead of the shipped case "
                             f"{name!r}: rename it, or start this record in a terminal",
                             where=f"{where}, field 'case'")
    return TableSession.open(path, case=name)


def version(session: TableSession) -> str:
    return record_version({"game": GAME, "case": session.case_ref, "read": session.read})


def summary(session: TableSession) -> str:
    c = session.case
    return f"{TITLE}, {c.title}; {len(session.read)} of {len(c.notes)} notes read"


def act(served, form) -> Reply:
    """The session's reply to the line a posted ``op`` stands for: ``visit`` (``source``:
    an index of the case's locations), ``note`` (``note``: a note number), ``undo``."""
    session = served.session
    try:
        line = entry_line(form, session)
    except InputError as exc:
        return Reply("refused", str(exc), code=2)
    return session.handle(line)


def entry_line(form, session: TableSession) -> str:
    """The terminal line of the posted entry."""
    op = form.get("op")
    where = f"entry (note {len(session.read)} read)"
    if op == "undo":
        return "undo"
    if op == "visit":
        source = form.pick("source", session.case.sources, where)
        if source is None:
            raise InputError("choose the location visited", where=f"{where}, field 'source'")
        return f'visit "{source}"'
    if op == "note":
        n = form.pick("note", [str(i) for i in range(len(session.case.notes))], where)
        if n is None:
            raise InputError("choose the note read", where=f"{where}, field 'note'")
        return f"note {n}"
    raise InputError("expected visit, note or undo", where=f"{where}, field 'op'")


# ----------------------------------------------------------------------------- the page
def reading_of(served):
    """What the notes read allow (kept by version: a view costs nothing)."""
    return _cached(served, "reading", served.session.reading)


def explanation_of(served):
    """``explain_case`` from the notes read (kept by version)."""
    from deduce.models.casenotes.explain import explain_case

    session = served.session
    return _cached(served, "explain", lambda: explain_case(session.case, session.read))


def _cached(served, key: str, make):
    ver = served.version
    got = served.cache.get(key)
    if got is None or got[0] != ver:
        got = (ver, make())
        served.cache[key] = got
    return got[1]


def render(served, notice: str = "", why: str | None = None) -> str:
    """The live part of the record's page (see the module's docstring)."""
    session = served.session
    c = session.case
    r = reading_of(served)
    base = f"/r/{served.slug}"
    fixed, total = _fixed(r)
    head = (f'<p class="turn" id="turn">{h(c.title)} · {len(r.notes)} of {len(c.notes)} '
            f"notes read</p>"
            f'<p class="glance" id="glance">{fixed} of {total} '
            f'{"answers" if c.questions else "cells"} fixed'
            + (" · every answer is fixed: time for 221B Baker Street" if r.ready else "")
            + "</p>")
    step = None
    rule = None
    if why is not None and why.startswith(STEP):
        step = why[len(STEP):]
    elif why is not None:
        rule = why
    return "".join([head, notice, entry_forms(session, base, served.version), answers(r),
                    grid_section(session, r), why_section(session, base, rule),
                    explain_section(served, base, step), notes_read(session)])


def _fixed(r) -> tuple[int, int]:
    values = r.answers if r.case.questions else r.cells
    return sum(1 for v in values if len(v) == 1), len(values)


def entry_forms(session: TableSession, base: str, ver: str) -> str:
    c = session.case
    read = set(session.read)
    hidden = f'<input type="hidden" name="version" value="{h(ver)}">'
    forms = []
    open_sources = [(str(k), s) for k, s in enumerate(c.sources)
                    if any(n.source == s and n.index not in read for n in c.notes)]
    if open_sources:
        forms.append(f'<form class="entry live" method="post" action="{base}/act">{hidden}'
                     '<input type="hidden" name="op" value="visit">'
                     + fieldset("Visit a location (read all its notes)",
                                chips("source", open_sources, wide=True))
                     + '<button type="submit" class="primary" id="visit">Visit</button></form>')
    unread = [(str(n.index), str(n.index)) for n in c.notes if n.index not in read]
    if unread:
        if len(unread) <= MAX_NOTE_CHIPS:
            picker = chips("note", unread)
        else:
            picker = ('<select name="note" id="note" aria-label="note">'
                      '<option value="">—</option>'
                      + "".join(f'<option value="{v}">{v}</option>' for v, _ in unread)
                      + "</select>")
        forms.append(f'<form class="entry live" method="post" action="{base}/act">{hidden}'
                     '<input type="hidden" name="op" value="note">'
                     + fieldset("Read one note (its number, from 0)", picker)
                     + '<button type="submit" id="read-note">Read note</button></form>')
    disabled = "" if session.read else " disabled"
    forms.append(f'<form class="live undo" method="post" action="{base}/act">{hidden}'
                 '<input type="hidden" name="op" value="undo">'
                 f'<button type="submit" id="undo"{disabled}>Undo last entry</button></form>')
    return "".join(forms)


def _values(values) -> str:
    return " / ".join(map(str, values))


def answers(r) -> str:
    c = r.case
    if not c.questions:
        return ('<section id="answers"><h2>Answers</h2><p class="small">No questions: the '
                "whole grid is the answer.</p></section>")
    rows = []
    for q, values in zip(c.questions, r.answers):
        if len(values) == 1:
            shown = f'<strong class="solved">{h(values[0])}</strong>'
        else:
            shown = f'<span class="open">one of: {h(_values(values))}</span>'
        rows.append(f'<li data-possible="{len(values)}"><span class="q">{h(q.text)}</span> '
                    f"{shown}</li>")
    return f'<section id="answers"><h2>Answers</h2><ul class="answers">{"".join(rows)}</ul></section>'


def grid_table(c, cells, now, old=None) -> str:
    """The grid (key items x categories) of the values ``now`` leaves per cell of ``cells``
    (``model.cells``): a solved value, else ``?n`` (its title the values left); with
    ``old``, the cells this changed are marked (``new``), then attributes and unknowns."""
    old = now if old is None else old
    s = c.schema
    by_key = {cell.key: k for k, cell in enumerate(cells)}

    def cell(k: int, tag: str = "td") -> str:
        values, before = now[k], old[k]
        changed = " new" if values != before else ""
        if len(values) == 1:
            return f'<{tag} class="solved{changed}">{h(values[0])}</{tag}>'
        return (f'<{tag} class="open{changed}" title="{h(_values(values))}">?{len(values)}'
                f"</{tag}>")

    heads = "".join(f"<th>{h(name)}</th>" for name in s.cat_names)
    rows = []
    for r, item in enumerate(s.key.items):
        rows.append(f'<tr><th scope="row">{h(item)}</th>'
                    + "".join(cell(by_key[(r, cat)]) for cat in s.cat_names[1:]) + "</tr>")
    table = (f'<div class="scroll"><table class="grid"><thead><tr>{heads}</tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table></div>')
    others = [k for k, x in enumerate(cells) if x.kind != "grid"]
    if others:
        items = "".join(f"<li><span>{h(cells[k].name)}</span> {cell(k, 'span')}</li>"
                        for k in others)
        table += f'<ul class="cells">{items}</ul>'
    return table


def grid_section(session: TableSession, r) -> str:
    cells = session.oracle.model.cells
    return ('<section id="grid"><h2>Grid</h2><p class="small">What the notes read force: '
            "a solved value, or ?n: n values left.</p>"
            f"{grid_table(session.case, cells, r.cells)}</section>")


def why_section(session: TableSession, base: str, rule: str | None) -> str:
    from deduce.models.casenotes.model import AXIOM_TEXT

    answer = ""
    if rule is not None:
        reply = session.handle(f"why {rule}")
        if reply.kind == "refused":
            answer = f'<pre class="why refused">{h(reply.message)}</pre>'
        else:
            w = reply.why
            if w.status == "open":
                answer = (f'<div class="why" id="why-answer"><p><strong>{h(w.rule)}</strong> is '
                          "<strong>open</strong>: it holds in some solutions of the notes read "
                          "and not in others.</p>" + solution("A solution where it holds", w.holds_in)
                          + solution("A solution where it fails", w.fails_in) + "</div>")
            else:
                verb = "holds in every" if w.status == "forced" else "holds in no"
                reasons = [f"<li>{h(session.case.notes[i].describe())}</li>" for i in w.notes]
                reasons += [f"<li>axiom {h(k)}: {h(AXIOM_TEXT[k])}</li>" for k in w.axioms]
                if not reasons:
                    reasons = ["<li>nothing: it is true (or false) whatever the grid</li>"]
                answer = (f'<div class="why" id="why-answer"><p><strong>{h(w.rule)}</strong> is '
                          f"<strong>{h(w.status)}</strong>: it {verb} solution of the notes "
                          f'read, because of</p><ul>{"".join(reasons)}</ul></div>')
    shown = h(rule) if rule is not None else ""
    return (f'<section id="why"><h2>Why?</h2><form method="get" action="{base}#why" '
            'class="why-form"><fieldset><legend>Is a rule forced, impossible or open under the '
            "notes read? (as in the case file: Basil == hour[9])</legend>"
            f'<input type="text" name="why" id="why-rule" maxlength="1000" value="{shown}" '
            'autocomplete="off"></fieldset><button type="submit" id="why-ask">Why?</button>'
            f"</form>{answer}</section>")


def solution(title: str, sol: dict) -> str:
    """One complete solution (``model.solution_json``): its grid and the other cells."""
    keys = list(sol["grid"][0]) if sol["grid"] else []
    heads = "".join(f"<th>{h(k)}</th>" for k in keys)
    rows = "".join("<tr>" + "".join(f"<td>{h(row[k])}</td>" for k in keys) + "</tr>"
                   for row in sol["grid"])
    extra = [f"{a}: " + ", ".join(f"{i} {v}" for i, v in vals.items())
             for a, vals in sol["attributes"].items()]
    extra += [f"{u} = {v}" for u, v in sol["unknowns"].items()]
    lines = "".join(f"<li>{h(x)}</li>" for x in extra)
    return (f'<p class="small">{h(title)}</p><div class="scroll"><table class="grid">'
            f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></div>"
            + (f'<ul class="cells">{lines}</ul>' if lines else ""))


def step_reasons(c, e, step) -> str:
    """What one explain step cites: its notes quoted, its axioms in words, earlier steps."""
    from deduce.models.casenotes.model import AXIOM_TEXT

    items = [f"<li>{h(c.notes[i].describe())}</li>" for i in step.notes]
    items += [f"<li>axiom {h(a)}: {h(AXIOM_TEXT[a])}</li>" for a in step.axioms]
    if step.facts:
        cited = ", ".join(str(j + 1) for j in step.facts)
        items.append(f"<li>with step{'s' if len(step.facts) > 1 else ''} {cited}</li>")
    return f'<ul class="reasons">{"".join(items)}</ul>'


def explain_section(served, base: str, step: str | None) -> str:
    """The explain steps from the notes read, asked for by the page (``step`` None: only
    the link; "": every step in a list, its facts and reasons; ``K``, from 1: step K shown
    first, with the grid after it, then the list). Explaining takes a moment (up to a
    second or two on a large case), so entries do not wait for it."""
    head = ('<section id="explain"><h2>Explain</h2><p class="small">The notes read, step by '
            "step: easiest first, each step derives its facts from the notes, grid axioms and "
            "earlier steps it cites, and no fewer.</p>")
    if step is None:
        link = (f'<a class="chip live-link" href="{base}?why=%23#explain" data-why="{STEP}" '
                'id="explain-show">Show the steps</a>')
        return head + f'<div class="chips links">{link}</div></section>'
    session = served.session
    c = session.case
    e = explanation_of(served)
    head += f'<p class="small">{len(e.steps)} steps from the {len(session.read)} notes read.</p>'
    if not e.steps:
        return head + '<p class="small">Nothing follows yet: read some notes.</p></section>'
    shown = ""
    if step:
        if step.isascii() and step.isdigit() and 1 <= int(step) <= len(e.steps):
            k = int(step)
            s = e.steps[k - 1]
            nav = []
            if k > 1:
                nav.append(_step_link(base, k - 1, f"‹ step {k - 1}"))
            if k < len(e.steps):
                nav.append(_step_link(base, k + 1, f"step {k + 1} ›"))
            shown = (f'<div class="step shown" id="step-shown"><h3>Step {k} of {len(e.steps)} '
                     f'<span class="small">(cost {s.cost})</span></h3>'
                     f"{step_reasons(c, e, s)}<p>⇒ {h(', '.join(s.texts))}</p>"
                     f"{grid_table(c, e.cells, e.candidates(k), e.candidates(k - 1))}"
                     f'<div class="chips links">{"".join(nav)}</div></div>')
        else:
            shown = (f'<pre class="why refused">no step {h(step)}: the explanation has steps '
                     f"1 to {len(e.steps)}</pre>")
    items = "".join(f'<li id="step-{k}">{_step_link(base, k, f"Step {k}")} '
                    f'<span class="small">(cost {s.cost})</span> ⇒ {h(", ".join(s.texts))}'
                    f"{step_reasons(c, e, s)}</li>" for k, s in enumerate(e.steps, start=1))
    done = ("The whole solution follows." if e.complete else
            f"Nothing more follows: {len(e.open_cells)} cells stay open.")
    return head + shown + f'<ol class="steps">{items}</ol><p class="small">{done}</p></section>'


def _step_link(base: str, k: int, text: str) -> str:
    return (f'<a class="chip live-link" href="{base}?why=%23{k}#explain" '
            f'data-why="{STEP}{k}">{h(text)}</a>')


def notes_read(session: TableSession) -> str:
    if not session.read:
        return '<section id="notes"><h2>Notes read</h2><p class="small">None yet.</p></section>'
    items = "".join(f"<li>{h(session.case.notes[i].describe())}</li>" for i in session.read)
    return f'<section id="notes"><h2>Notes read</h2><ol class="notes">{items}</ol></section>'


# ----------------------------------------------------------------------------- new record
def new_record_fields() -> str:
    """The setup field of a new case notes record: the shipped case."""
    from deduce.models.casenotes.format import case_summary, load_case

    options = []
    for k, path in enumerate(shipped_cases()):
        s = case_summary(load_case(str(path)))
        options.append((str(k), f"{s['title']} ({s['size']}, {s['notes']} notes)"))
    return fieldset("Case", chips("case", options, wide=True, prefix="case"))
