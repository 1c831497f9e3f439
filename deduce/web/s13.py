"""The Sherlock 13 page of ``deduce serve`` (a game page: see ``web.pages``).

Every entry goes through ``models.sherlock13.table.TableSession`` (``enter``, ``undo``,
``why``): the page checks no rule itself. Choices are made by tapping large chips (hidden
radio buttons and check boxes); each chip posts the index of what it shows (a seat, an
icon, a suspect), which ``forms.Form.pick`` turns back into the name the session resolves.

The live part, top to bottom (a phone's order): whose turn; the message of the last
entry (refusals with the session's reason); the entry form (asker, what was done, icon,
raised hands or target and answer, accusation, exchange); undo; the criminal
distribution as bars; the five best questions with their expected bits and the accuse
advice; the clue sheet (suspects x places, probabilities, certain cells marked); ``why``
for any suspect; the events so far.
"""

from __future__ import annotations

from deduce.core.errors import InputError
from deduce.models.sherlock13.advice import Analysis, accuse_advice, no_turn_reason
from deduce.models.sherlock13.cards import HAND_SIZE, ICONS, SUSPECT_ICONS, SUSPECTS
from deduce.models.sherlock13.record import MAX_COUNT, describe_event
from deduce.models.sherlock13.rules import SIDES, VARIANTS
from deduce.models.sherlock13.table import Reply, TableSession
from deduce.web.forms import NEW_RECORD, missing, seated_players
from deduce.web.html import chips, fieldset, h, player_fields
from deduce.web.tables import record_version

GAME = "sherlock13"
TITLE = "Sherlock 13"

#: the most players a record has (the new-record form has this many name boxes)
MAX_PLAYERS = max(HAND_SIZE)
#: the most cards a starting hand has (2 players)
MAX_HAND = max(HAND_SIZE.values())
#: the best questions shown
TOP_QUESTIONS = 5
#: what each setup field of a new record asks for, in words
SETUP_WORDS = {"variant": "the variant", "players": "2, 3 or 4 player names",
               "me": "which player you are", "hand": "your cards"}

#: a suspect's name in the clue sheet's narrow first column (the full name is its title)
SHORT = {"Sherlock Holmes": "Sherlock", "John H. Watson": "Watson", "James Moriarty": "Moriarty",
         "Irene Adler": "Adler", "Mycroft Holmes": "Mycroft", "Mrs. Hudson": "Hudson",
         "Mary Morstan": "Morstan", "Sebastian Moran": "Moran",
         "Inspector G. Lestrade": "Lestrade", "Inspector Gregson": "Gregson",
         "Inspector Baynes": "Baynes", "Inspector Bradstreet": "Bradstreet",
         "Inspector Hopkins": "Hopkins"}

ENTRY = "entry"


# ----------------------------------------------------------------------------- sessions
def open_record(path) -> TableSession:
    return TableSession.open(path)


def create_record(path, form) -> TableSession:
    """A new record from the new-record form: ``variant`` (an index of ``VARIANTS``),
    ``player`` boxes (blank ones left out), ``me`` (the index of a box) and ``card``
    choices (indices of ``SUSPECTS``, blank ones left out, in order), checked by the
    session's ``Setup`` one field at a time, as the terminal asks them."""
    where = NEW_RECORD
    players, me = seated_players(form, MAX_PLAYERS, where)
    setup = dict(variant=form.pick("variant", VARIANTS, where), players=players or None, me=me,
                 hand=form.pick_all("card", SUSPECTS, where) or None)
    return TableSession.open(path, **setup, ask=lambda key, _setup: missing(key, SETUP_WORDS))


def version(session: TableSession) -> str:
    return record_version(session.record.to_json())


def summary(session: TableSession) -> str:
    rec = session.record
    return (f"{TITLE}, {rec.variant}, {', '.join(rec.names)} (me: {rec.names[rec.me]}); "
            f"{len(rec.events)} events; {_whose_turn(rec)}")


def act(served, form) -> Reply:
    """The session's reply to a posted ``op``: ``undo``, or ``enter`` with the entry
    fields (``event_data``); an accepted one's analysis is kept for the view after it."""
    session = served.session
    if form.get("op") == "undo":
        reply = session.undo()
    else:
        try:
            reply = session.enter(event_data(form, session.record))
        except InputError as exc:
            return Reply("refused", str(exc), code=2)
    if reply.analysis is not None:
        served.cache["analysis"] = (served.version, reply.analysis)
    return reply


def event_data(form, record) -> dict:
    """The spec's event JSON from the entry form's chips (fields left unchosen are left
    out, so the session names what is missing)."""
    where = f"{ENTRY} (event {len(record.events)})"
    names = record.names
    action = form.pick("action", KINDS, where)
    if action is None:
        raise InputError("choose what was done: raise, count, accuse or exchange",
                         where=f"{where}, field 'action'")
    data: dict = {"action": action}

    def put(key: str, options) -> None:
        value = form.pick(key, options, where)
        if value is not None:
            data[key] = value

    put("actor", names)
    if action in ("raise", "count"):
        put("icon", ICONS)
    if action == "raise":
        data["raised"] = form.pick_all("raised", names, where)
    elif action == "count":
        put("target", names)
        n = form.pick("count", [str(k) for k in range(MAX_COUNT + 1)], where)
        if n is not None:
            data["count"] = int(n)
    elif action == "accuse":
        put("suspect", SUSPECTS)
        verdict = form.pick("verdict", ("right", "wrong"), where)
        if verdict is not None:
            data["correct"] = verdict == "right"
    else:
        put("side", SIDES)
        put("revealed", SUSPECTS)
        put("took", SUSPECTS)
    return data


#: what a player may do on a turn, by the chips' order
KINDS = ("raise", "count", "accuse", "exchange")


# ----------------------------------------------------------------------------- the page
def analysis_of(served) -> Analysis:
    """The analysis of the record as it is now (kept by version: views cost nothing)."""
    key = served.version
    cached = served.cache.get("analysis")
    if cached is None or cached[0] != key:
        cached = (key, served.session.analysis())
        served.cache["analysis"] = cached
    return cached[1]


def render(served, notice: str = "", why: str | None = None) -> str:
    """The live part of the record's page (see the module's docstring)."""
    a = analysis_of(served)
    rec = a.record
    base = f"/r/{served.slug}"
    parts = [f'<p class="turn" id="turn">{h(_whose_turn(rec))} · {len(rec.events)} events · '
             f"{h(rec.variant)}</p>", glance(a), notice,
             entry_form(rec, base, served.version),
             criminal_bars(a), advice(a), clue_sheet(a), why_section(served, base, why),
             event_list(rec)]
    return "".join(parts)


def _whose_turn(rec) -> str:
    if rec.turns.over:
        winner = rec.turns.winner
        return "game over" + ("" if winner is None else f": {rec.names[winner]} wins")
    return f"{rec.names[rec.turns.current]} to play"


def glance(a: Analysis) -> str:
    """One line: the most likely criminal and the best question (the terminal's compact
    view), so the page's top answers "who, and what do I ask" before any scrolling."""
    c, p = a.top_suspect()
    text = f"Most likely: {SUSPECTS[c]} {p:.2f}"
    if a.suggestions:
        best = a.suggestions[0]
        text += f" · best question: {best.text(a.record.names)} ({best.expected_bits:.2f} bits)"
    return f'<p class="glance" id="glance">{h(text)}</p>'


def entry_form(rec, base: str, ver: str) -> str:
    names = rec.names
    seats = [(str(s), f"{n} (me)" if s == rec.me else n) for s, n in enumerate(names)]
    current = () if rec.turns.over else (str(rec.turns.current),)
    kinds = ["raise", "count", "accuse"] if rec.n >= 3 else ["exchange", "count", "accuse"]
    icons = [(str(i), icon) for i, icon in enumerate(ICONS)]
    suspects = [(str(c), s) for c, s in enumerate(SUSPECTS)]
    sections = [
        fieldset("Who asked", chips("actor", seats, checked=current)),
        fieldset("What", chips("action", [(str(KINDS.index(k)), k) for k in kinds],
                               checked=(str(KINDS.index(kinds[0])),))),
        fieldset("Icon", chips("icon", icons), "for for-raise for-count"),
        fieldset("Raised a hand (none ticked: nobody)",
                 chips("raised", seats, kind="checkbox"), "for for-raise"),
        fieldset("Asked", chips("target", seats), "for for-count"),
        fieldset("Answer", chips("count", [(str(k), str(k)) for k in range(MAX_COUNT + 1)]),
                 "for for-count"),
        fieldset("Accused", chips("suspect", suspects, wide=True), "for for-accuse"),
        fieldset("Verdict", chips("verdict", [("0", "right"), ("1", "wrong")]), "for for-accuse"),
    ]
    if rec.n == 2:
        sections += [
            fieldset("Side", chips("side", [(str(i), s) for i, s in enumerate(SIDES)]),
                     "for for-exchange"),
            fieldset("Revealed (put face up)", chips("revealed", suspects, wide=True),
                     "for for-exchange"),
            fieldset(f"Took (only when {names[rec.me]} exchanges)",
                     chips("took", suspects, wide=True), "for for-exchange"),
        ]
    disabled = " disabled" if not rec.events else ""
    return (f'<form class="entry live" method="post" action="{base}/act">'
            f'<input type="hidden" name="version" value="{ver}">'
            f'<input type="hidden" name="op" value="enter">{"".join(sections)}'
            '<button type="submit" class="primary" id="enter">Enter</button></form>'
            f'<form class="live undo" method="post" action="{base}/act">'
            f'<input type="hidden" name="version" value="{ver}">'
            '<input type="hidden" name="op" value="undo">'
            f'<button type="submit" id="undo"{disabled}>Undo last entry</button></form>')


def criminal_bars(a: Analysis) -> str:
    probs = a.criminal_probs()
    order = [c for c in sorted(range(len(SUSPECTS)), key=lambda c: -probs[c]) if probs[c] > 0]
    rows = []
    for c in order:
        p = float(probs[c])
        rows.append(f'<li class="bar" data-suspect="{h(SUSPECTS[c])}" data-p="{p!r}">'
                    f'<span class="name">{h(SUSPECTS[c])}</span>'
                    f'<span class="track"><span class="fill" style="width:{100 * p:.1f}%">'
                    f'</span></span><span class="p">{p:.3f}</span></li>')
    return (f'<section id="criminal"><h2>Criminal</h2><p class="small">{a.total:,} '
            f"consistent worlds, {a.entropy():.2f} bits left</p>"
            f'<ol class="bars">{"".join(rows)}</ol></section>')


def advice(a: Analysis) -> str:
    rec = a.record
    if not a.suggestions:
        reason = no_turn_reason(a) or "no question is legal"
        body = f'<p class="small">No questions: I have no next turn ({h(reason)}).</p>'
    else:
        rows = "".join(f'<li><span class="q">{h(s.text(rec.names))}</span>'
                       f'<span class="bits">{s.expected_bits:.3f} bits</span></li>'
                       for s in a.suggestions[:TOP_QUESTIONS])
        body = f'<ol class="questions" id="questions">{rows}</ol>'
    verdict = accuse_advice(a)
    if verdict is not None:
        text, certain = verdict
        body += f'<p class="accuse{" certain" * certain}" id="accuse">{h(text)}</p>'
    return (f'<section id="advice"><h2>Best questions for {h(rec.names[rec.me])}</h2>'
            f"{body}</section>")


def _cell(p: float) -> str:
    if p >= 1 - 1e-12:
        return '<td class="yes">✔</td>'
    if p <= 1e-12:
        return '<td class="no">✗</td>'
    return f"<td>{100 * p:.0f}%</td>" if p >= 0.005 else "<td>&lt;1%</td>"


def clue_sheet(a: Analysis) -> str:
    """Suspects x places: my hand, each other player (now), face-down sides, the criminal;
    certain cells ✔, impossible ones ✗, the rest in percent."""
    rec = a.record
    mine = set(rec.my_current_hand())
    holders = a.holder_probs()
    face_down = a.face_down_probs()
    crim = a.criminal_probs()
    heads = ["<th>Suspect</th>"]
    for s, n in enumerate(rec.names):
        mark = ' class="me"' if s == rec.me else ""
        heads.append(f'<th title="{h(n)}"{mark}>{h(n)}</th>')
    heads += [f'<th title="face down {side}">{h(side)}</th>' for side in face_down]
    heads.append('<th title="the criminal">Crim.</th>')
    rows = []
    for c, suspect in enumerate(SUSPECTS):
        cells = [f'<th scope="row" title="{h(suspect)}: {h(", ".join(SUSPECT_ICONS[suspect]))}">'
                 f"{h(SHORT[suspect])}</th>"]
        for s in range(rec.n):
            if s == rec.me:
                cells.append('<td class="mine">✔</td>' if c in mine else '<td class="no">✗</td>')
            else:
                cells.append(_cell(float(holders[s][c])))
        cells += [_cell(float(p[c])) for p in face_down.values()]
        cells.append(_cell(float(crim[c])).replace("<td", '<td data-crim="1"', 1))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return ('<section id="sheet"><h2>Clue sheet</h2><p class="small">Probability that each '
            "place holds the card: ✔ certain, ✗ impossible; my own column underlined.</p>"
            f'<table class="sheet"><thead><tr>{"".join(heads)}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></section>')


def why_section(served, base: str, why: str | None) -> str:
    links = "".join(f'<a class="chip live-link" href="{base}?why={c}#why" '
                    f'data-why="{c}">{h(SHORT[s])}</a>' for c, s in enumerate(SUSPECTS))
    answer = ""
    if why is not None:
        from deduce.web.forms import pick

        try:
            suspect = pick(why, SUSPECTS, "why", "why")
        except InputError as exc:
            answer = f'<pre class="why refused">{h(exc)}</pre>'
        else:
            reply = served.session.why(suspect)
            answer = f'<pre class="why" id="why-answer">{h(reply.message)}</pre>'
    return (f'<section id="why"><h2>Why?</h2><p class="small">Why a suspect is ruled out, '
            f'or a deal where they are guilty.</p><div class="chips links">{links}</div>'
            f"{answer}</section>")


def event_list(rec) -> str:
    if not rec.events:
        return '<section id="events"><h2>Events</h2><p class="small">None yet.</p></section>'
    items = "".join(f"<li>{h(describe_event(e, rec.names))}</li>" for e in rec.events)
    return f'<section id="events"><h2>Events</h2><ol start="0">{items}</ol></section>'


# ----------------------------------------------------------------------------- new record
def new_record_fields() -> str:
    """The setup fields of a new Sherlock 13 record."""
    options = '<option value="">—</option>' + "".join(
        f'<option value="{c}">{h(s)}</option>' for c, s in enumerate(SUSPECTS))
    cards = "".join(f'<select name="card" id="card-{i}" aria-label="card {i + 1}">{options}</select>'
                    for i in range(MAX_HAND))
    sizes = ", ".join(f"{size} with {n} players" for n, size in sorted(HAND_SIZE.items(), reverse=True))
    return (fieldset("Variant", chips("variant", [(str(i), v) for i, v in enumerate(VARIANTS)],
                                      checked=("0",)))
            + player_fields(MAX_PLAYERS)
            + fieldset(f"My cards, first card first ({sizes})", f'<div class="boxes">{cards}</div>'))
