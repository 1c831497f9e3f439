"""What the pages of the engine-backed tables share (Deductions, Baker Street Irregulars:
``core.table_session.EntryTableSession``): each posted form is made into the terminal
table's lines and handed to the session one by one (``act``), so refusals are the
terminal's; the entry forms and the undo form; the new-record form's seed; the views the
terminal asks for beside the entries (``ask_section``: ``best``, ``odds``, answered by the
session as at the terminal); and the version of a view, the entry waiting for what came
included (it is in memory, not saved, so another tab's view of the record is stale
meanwhile).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from deduce.core.errors import InputError
from deduce.core.numbers import whole_number
from deduce.core.table_session import Reply
from deduce.web.forms import NEW_RECORD
from deduce.web.html import h
from deduce.web.tables import record_version

#: a seed typed on the page: 0 to this (as the table commands' ``--seed``)
MAX_SEED = 2**63 - 1


def act(session, form, entry_lines: Callable) -> Reply:
    """The session's reply to a posted form: ``entry_lines(form, session)`` (the terminal
    lines the form stands for; ``InputError`` for a field that is none of the choices
    shown) handed to ``session.handle`` one by one, until one is refused or nothing waits
    for what came any more."""
    try:
        lines = entry_lines(form, session)
    except InputError as exc:
        return Reply("refused", str(exc), code=2)
    reply = Reply("refused", "nothing to enter: choose what came", code=2)
    for line in lines:
        reply = session.handle(line)
        if reply.kind != "info" or session.pending is None:
            break
    return reply


def quote(text: str) -> str:
    """``text`` as one word of a terminal line."""
    return shlex.quote(text)


def chosen(form, name: str, options, where: str, what: str) -> str:
    """The form's ``name`` among ``options``; ``InputError`` "choose WHAT" when none is."""
    value = form.pick(name, list(options), where)
    if value is None:
        raise InputError(f"choose {what}", where=f"{where}, field {name!r}")
    return value


def dealt_seed(form) -> int:
    """The seed of a dealt game from the new-record form (required, as the terminal's
    ``--seed`` is)."""
    text = form.get("seed")
    where = f"{NEW_RECORD}, field 'seed'"
    if text is None:
        raise InputError("type the seed of the deal (a whole number)", where=where)
    return whole_number(text.strip(), 0, MAX_SEED, "a seed", where=where)


def entry_form(base: str, ver: str, op: str, inner: str, button: str, cls: str = "",
               primary: bool = True) -> str:
    """One entry's form: posted to the record's ``act`` with the view's version and the
    entry's ``op``."""
    kind = "primary" if primary else "wide"
    extra = f" {cls}" if cls else ""
    return (f'<form class="entry live{extra}" method="post" action="{base}/act">'
            f'<input type="hidden" name="version" value="{h(ver)}">'
            f'<input type="hidden" name="op" value="{op}">{inner}'
            f'<button type="submit" class="{kind}" id="enter-{op}">{h(button)}</button></form>')


def undo_form(session, base: str, ver: str) -> str:
    """Undo the last entry, or drop the entry waiting for what came."""
    disabled = "" if session.record.entries or session.pending is not None else " disabled"
    label = "Drop the entry waiting" if session.pending is not None else "Undo last entry"
    return (f'<form class="live undo" method="post" action="{base}/act">'
            f'<input type="hidden" name="version" value="{h(ver)}">'
            '<input type="hidden" name="op" value="undo">'
            f'<button type="submit" id="undo"{disabled}>{label}</button></form>')


def summary(session, title: str, *details: str) -> str:
    """The record's line in the list of records: the game's ``title``, ``details`` (the
    Irregulars' mode), the players and me, the deal's seed, the entries so far, whose
    turn."""
    setup = session.record.setup
    dealt = "" if session.record.seed is None else f", dealt (seed {session.record.seed})"
    return (f"{', '.join([title, *details, *setup.players])} (me: {setup.me}){dealt}; "
            f"{len(session.record.entries)} entries; {session.prompt()}")


def version(session, **waiting) -> str:
    """The record's version; with an entry waiting, ``waiting`` (what the view shows of
    it) is part of it."""
    data = session.record.to_json()
    if session.pending is not None:
        return record_version({"record": data, "waiting": session.pending.text, **waiting})
    return record_version(data)


def ask_section(session, base: str, why: str | None, questions: dict[str, str],
                answer: Callable[[Reply], str]) -> str:
    """The terminal's views beside the entries, one link each (``questions``: the
    terminal's word -> the link's label), asked as ``?why=WORD`` (the page's script
    refreshes the live part and asks again when the record changes): the session's reply
    to ``WORD``, drawn by ``answer(reply)``; a refusal (say, not my turn) shows its
    message."""
    links = "".join(f'<a class="chip live-link" href="{base}?why={word}#ask" '
                    f'data-why="{word}">{h(label)}</a>' for word, label in questions.items())
    shown = ""
    if why is not None:
        reply = session.handle(why) if why in questions else Reply(
            "refused", f"no such question: {why!r} (one of {', '.join(questions)})")
        if reply.kind == "info" and reply.view == why:
            shown = f'<div class="answer" id="ask-answer">{answer(reply)}</div>'
        else:
            shown = f'<pre class="why refused" id="ask-answer">{h(reply.message)}</pre>'
    return (f'<section id="ask"><h2>Ask</h2><div class="chips links">{links}</div>{shown}'
            "</section>")


def advice_html(advice, top: int = 5) -> str:
    """An ``advice.Advice`` (Deductions' or the Irregulars': ranked ``estimates`` with
    ``words``, ``p_win``, ``stderr``, ``rollouts``; ``why``) as the terminal's ``best``
    shows it: the first ``top`` choices, then why the best one is best."""
    rows = "".join(f"<tr><td>{i}</td><td>{h(e.words)}</td><td>{100 * e.p_win:.1f}%</td>"
                   f"<td>{100 * e.stderr:.1f}</td><td>{e.rollouts}</td></tr>"
                   for i, e in enumerate(advice.estimates[:top], start=1))
    more = len(advice.estimates) - top
    rest = f'<p class="small">({more} more choices: the advise command lists them all)</p>' \
        if more > 0 else ""
    return ('<table class="odds advice"><thead><tr><th>#</th><th>Choice</th><th>Chance to win</th>'
            f'<th>± s.e.</th><th>Rollouts</th></tr></thead><tbody>{rows}</tbody></table>{rest}'
            f"<p><strong>Best:</strong> {h(advice.why)}</p>")
