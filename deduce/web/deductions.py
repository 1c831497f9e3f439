"""The Deductions page of ``deduce serve`` (a game page: see ``web.pages``).

Every entry goes through ``models.deductions.table.TableSession.handle``: the page turns
the chips tapped into the line a player would type at the terminal table (``take b3 prop
a1``, ``solve sign-suspect``, ``refill Writings``), so every check and refusal is the
terminal's own; the page checks no rule. Which entry forms it shows follows the engine's
legal actions now (a draw or a solve at the start of a turn, a take or a Mind Palace after
the draw, Mycroft's and Irene's free actions when they may be played, the discard and the
claim at the end); an entry typed without what came (a dealt card the page was not told)
waits for it, and the page then asks for exactly that (``session.waiting()``).

The live part, top to bottom: whose turn and the step; the message of the last entry;
the entry forms (the take form is the grid itself: the cells a pattern lets the player to
play take are highlighted, exact takes strongest; the patterns solver's placements mark
what a draw would allow at other steps); undo; the display; the pay verdicts of every
case within reach of the player to play; the milestones in words; every player's points,
pool, solved cards and reserved card.

New records: dealt by deduce (``--seed`` with the players and me), or the table as laid
out (who plays first, the grid row by row, the display, the pools), each answer checked by
the session's ``Setup`` one field at a time, as the terminal asks them. A card-set file
(``--cards``) or a position file (``--from``) is a path, so the page offers neither: such
records are made at the terminal and then served.
"""

from __future__ import annotations

import re
from collections import Counter

from deduce.core.errors import InputError
from deduce.core.table_session import Reply
from deduce.web import entry_pages
from deduce.web.entry_pages import (
    advice_html,
    ask_section,
    chosen,
    dealt_seed,
    entry_form,
    quote,
    undo_form,
)
from deduce.models.deductions.cards import (
    ALLY_SUIT,
    CLUES,
    MILESTONES,
    RED_HERRING,
    SOLUTION,
    SUITS,
    load_cards,
)
from deduce.models.deductions.payment import use_words
from deduce.models.deductions.position import COLUMNS, MAX_PLAYERS, SIZE, cell_name, line_name
from deduce.models.deductions.table import TableSession
from deduce.web.forms import missing, seated_players
from deduce.web.html import chips, fieldset, h, player_fields, select

GAME = "deductions"
TITLE = "Deductions"

#: a suit's short name on the grid (an Ally adds ``*``)
SHORT = dict(zip(SUITS, ("Sta", "P&T", "Wri", "Art", "Kno")))
#: a suit's class on the page (its colour)
SUIT_CLASS = dict(zip(SUITS, ("s-sta", "s-pt", "s-wri", "s-art", "s-kno")))
MILESTONE_WORDS = {"diversity": "Diversity", "completion": "Case Completion"}
#: the 16 cells, row by row from the top (the take form's values are their indices)
CELLS = [(r, c) for r in range(SIZE) for c in range(SIZE)]
#: the 8 lines a Mind Palace may be made on
LINES = [("row", i) for i in range(SIZE)] + [("column", i) for i in range(SIZE)]
#: what the typed setup asks for each field, in words
SETUP_WORDS = {"players": "2, 3 or 4 player names", "me": "which player you are",
               "to_play": "who plays first", "solutions": "the 4 Solutions shown",
               "red_herrings": "the 4 Red Herrings shown"}
#: the entry forms' ops (a hidden field of each form)
OPS = ("draw", "take", "mind", "solve", "reserve", "rotate", "discard", "claim", "part", "undo")


def _rules():
    from deduce.models.deductions import rules

    return rules


# ----------------------------------------------------------------------------- sessions
def open_record(path) -> TableSession:
    return TableSession.open(path)


def create_record(path, form) -> TableSession:
    """A new record from the new-record form: ``start`` 0 (dealt: ``seed``, the players,
    ``me``) or 1 (as laid out: also ``to_play``, ``grid1``-``grid4`` (4 card indices
    each), ``solutions`` and ``red_herrings`` (4 case indices each) and ``pool-I`` per
    player, comma separated), checked by the session as the terminal checks it."""
    where = "new record"
    players, me = seated_players(form, MAX_PLAYERS, where)
    start = form.pick("start", ("dealt", "typed"), where) or "dealt"
    if start == "dealt":
        seed = dealt_seed(form)
        return TableSession.open(path, seed=seed, players=players or None, me=me,
                                 ask=_missing)
    cards = load_cards(None)

    def ask(key: str, setup) -> None:
        setup.set(key, _typed_answer(form, key, setup, cards, where))

    return TableSession.open(path, players=players or None, me=me, ask=ask)


def _missing(key: str, _setup=None) -> None:
    """Refuse a new record whose setup field ``key`` was not given."""
    missing(key, SETUP_WORDS)


def _typed_answer(form, key: str, setup, cards, where: str):
    """The answer to the setup field ``key`` from the form (``_missing`` when blank)."""
    if key == "to_play":
        answer = form.pick("to_play", list(setup.players), where)
    elif key.startswith("grid"):
        picked = [form.pick(f"{key}-{c}", CLUES, where) for c in range(SIZE)]
        answer = picked if all(picked) else None
        if answer is None:
            raise InputError(f"choose the 4 cards of grid row {key[4:]}",
                             where=f"{where}, field {key!r}")
    elif key in ("solutions", "red_herrings"):
        answer = form.pick_all(key, [c.id for c in cards.cards], where) or None
    elif key.startswith("pool:"):
        seat = setup.players.index(key[5:])
        return form.get(f"pool-{seat}") or ""
    else:
        answer = None
    if answer is None:
        _missing(key, setup)
    return answer


def version(session: TableSession) -> str:
    """The record's version, the entry waiting for what came included
    (``entry_pages.version``)."""
    return entry_pages.version(session)


def summary(session: TableSession) -> str:
    """The record's line in the list of records (``entry_pages.summary``)."""
    return entry_pages.summary(session, TITLE)


# ----------------------------------------------------------------------------- entries
def act(served, form) -> Reply:
    """The session's reply to a posted entry (``entry_pages.act`` of ``entry_lines``)."""
    return entry_pages.act(served.session, form, entry_lines)


def entry_lines(form, session: TableSession) -> list[str]:
    """The terminal lines the posted form stands for (``InputError`` for a field that is
    not one of the choices shown, or nothing chosen)."""
    where = "entry"
    op = form.get("op")
    pos = session.position()
    if op == "undo":
        return ["undo"]
    if op == "draw":
        card = form.pick("card", CLUES, where)
        return ["draw" + ("" if card is None else f" {quote(card)}")]
    if op == "take":
        cell = form.pick("cell", [cell_name(c) for c in CELLS], where)
        if cell is None:
            raise InputError("tap the cell taken on the grid", where=f"{where}, field 'cell'")
        prop = form.pick("prop", [cell_name(c) for c in CELLS], where)
        return [f"take {cell}" + ("" if prop is None else f" prop {prop}")]
    if op == "mind":
        line = form.pick("line", [line_name(x) for x in LINES], where)
        if line is None:
            raise InputError("choose the row or column", where=f"{where}, field 'line'")
        return [f"mind {line}"]
    if op == "solve":
        case = chosen(form, "case", _case_ids(pos), where, "the case solved")
        uses = form.get("with")
        return [f"solve {quote(case)}" + ("" if uses is None else f" with {quote(uses.strip())}")]
    if op == "reserve":
        return [f"reserve {quote(chosen(form, 'case', _case_ids(pos), where, 'the case reserved'))}"]
    if op == "rotate":
        case = chosen(form, "case", _case_ids(pos), where, "the solved card turned")
        suit = chosen(form, "suit", SUITS, where, "the new discount suit")
        return [f"rotate {quote(case)} {quote(suit)}"]
    if op == "discard":
        return [f"discard {quote(chosen(form, 'card', CLUES, where, 'the card discarded'))}"]
    if op == "claim":
        milestone = chosen(form, "milestone", MILESTONES, where, "the milestone")
        ids = form.pick_all("cases", _case_ids(pos), where)
        return [f"claim {milestone}" + (f" {quote(', '.join(ids))}" if ids else "")]
    if op == "part":
        lines = []
        refills = form.pick_all("refill", CLUES, where)
        if refills:
            lines.append(f"refill {quote(', '.join(refills))}")
        got = form.pick("got", CLUES, where)
        if got is not None:
            lines.append(f"got {quote(got)}")
        reveal = form.pick("reveal", _case_ids(pos), where)
        if reveal is not None:
            lines.append(f"reveal {quote(reveal)}")
        if not lines:
            raise InputError("choose what came", where=f"{where}, field 'refill'")
        return lines
    raise InputError("no such entry", where=f"{where}, field 'op'")


def _case_ids(pos) -> list[str]:
    """Every case id of the record's card set (the forms' case values are indices)."""
    return [c.id for c in pos.cards.cards]


# ----------------------------------------------------------------------------- the page
def render(served, notice: str = "", why: str | None = None) -> str:
    """The live part of the record's page (see the module's docstring)."""
    session = served.session
    pos = session.position()
    base = f"/r/{served.slug}"
    ver = served.version
    final = "; final round" if pos.final_round else ""
    parts = [f'<p class="turn" id="turn">{h(session.prompt())}{final}</p>',
             f'<p class="glance" id="glance">{h(_glance(session, pos))}</p>', notice]
    legal = [] if session.state.is_over() else session.state.legal_actions()
    if session.pending is not None:
        parts.append(part_form(session, pos, base, ver))
    elif legal:
        parts.append(entry_forms(session, pos, legal, base, ver))
    parts.append(undo_form(session, base, ver))
    if session.pending is not None or not any(isinstance(a, _rules().Take) for a in legal):
        parts.append(grid_view(pos))
    parts += [display_view(pos), pay_view(session, pos), milestones_view(session, pos),
              ask_section(session, base, why, QUESTIONS, _answer), players_view(pos)]
    return "".join(parts)


#: the terminal's views the page asks for by a link (``entry_pages.ask_section``)
QUESTIONS = {"best": "Best move (rollouts, about a second)", "odds": "Deck and Mind Palace odds"}


def _answer(reply) -> str:
    return advice_html(reply.data) if reply.view == "best" else odds_html(reply.data)


def odds_html(odds: dict) -> str:
    """The session's ``odds`` (``knowledge.odds_json``) as the terminal shows it: the
    deck per suit, the Allies in it, each Mind Palace line's chances."""
    n = odds["deck"]
    rows = "".join(f'<tr><td class="{SUIT_CLASS[s]}">{h(s)}</td><td>{v["left"]}</td>'
                   f'<td>{100 * v["p_next"]:.0f}%</td></tr>' for s, v in odds["suits"].items())
    suits = list(odds["suits"])
    lines = "".join(
        f"<tr><td>{h(line)}</td>"
        + "".join(f"<td>{100 * p[s]:.0f}%</td>" if p[s] else "<td>-</td>" for s in suits)
        + "</tr>" for line, p in odds["mind_palace"].items())
    empty = ('<p class="small">The deck is empty: the next draw shuffles the discard pile '
             "into a new deck.</p>" if n == 0 else "")
    return (f'<p>Clue deck: {n} card{"s" if n != 1 else ""} (face down, any order)</p>'
            '<table class="odds"><thead><tr><th>Suit</th><th>Left</th><th>Next draw</th></tr>'
            f"</thead><tbody>{rows}</tbody></table>"
            f'<p>Allies in the deck: {h(", ".join(odds["allies"]) or "none")} (each suit\'s '
            f"count includes its Ally)</p>{empty}"
            '<p>Mind Palace: one of the line\'s cards at random to the pool, the others '
            "discarded.</p>"
            '<div class="scroll"><table class="odds"><thead><tr><th>Line</th>'
            + "".join(f'<th class="{SUIT_CLASS[s]}">{h(SHORT[s])}</th>' for s in suits)
            + f"</tr></thead><tbody>{lines}</tbody></table></div>")


def _glance(session, pos) -> str:
    deck = sum(pos.deck_counts().values())
    points = ", ".join(f"{p} {pos.points(p)}" for p in pos.players)
    return f"points: {points} · deck {deck} · {len(session.record.entries)} entries"


def _card_chips(name: str, cards, prefix: str, kind: str = "radio") -> str:
    return chips(name, [(str(CLUES.index(c)), c) for c in cards], prefix=prefix, kind=kind)


def _case_chips(pos, name: str, ids, prefix: str, labels=None, kind: str = "radio") -> str:
    every = _case_ids(pos)
    labels = labels or {}
    return chips(name, [(str(every.index(i)), labels.get(i, i)) for i in ids], prefix=prefix,
                 kind=kind, wide=True)


def entry_forms(session, pos, legal: list, base: str, ver: str) -> str:
    """The forms of the entries the engine allows now (``legal``: its legal actions)."""
    R = _rules()
    kinds = {type(a) for a in legal}
    seeded = session.record.seed is not None
    out = []
    who = session.to_play()
    if R.Draw in kinds:
        inner = ("" if seeded else
                 fieldset("The card drawn", _card_chips("card", CLUES, "draw-card")))
        out.append(entry_form(base, ver, "draw", inner, "Draw" + (" (the deal gives it)" * seeded)))
    if R.Solve in kinds or pos.step == "start":
        out.append(solve_form(session, pos, base, ver))
    if R.Take in kinds:
        out.append(take_form(pos, [a for a in legal if isinstance(a, R.Take)], base, ver))
    if R.MindPalace in kinds:
        lines = sorted({a.line for a in legal if isinstance(a, R.MindPalace)}, key=LINES.index)
        forced = "" if R.Take in kinds else " (forced: no pattern to take)"
        inner = fieldset(f"Mind Palace{forced}: the line",
                         chips("line", [(str(LINES.index(x)), line_name(x)) for x in lines],
                               prefix="mind-line"))
        out.append(entry_form(base, ver, "mind", inner, "Mind Palace"))
    if R.Discard in kinds:
        cards = [c for c in CLUES if any(isinstance(a, R.Discard) and a.card == c for a in legal)]
        inner = fieldset(f"{who} discards (pool {len(pos.pools[who])}, over 10)",
                         _card_chips("card", cards, "discard-card"))
        out.append(entry_form(base, ver, "discard", inner, "Discard"))
    if R.Claim in kinds:
        ms = [m for m in MILESTONES if any(isinstance(a, R.Claim) and a.milestone == m for a in legal)]
        solved = [s.id for s in pos.solved[who]]
        inner = (fieldset("Milestone claimed", chips(
            "milestone", [(str(MILESTONES.index(m)), MILESTONE_WORDS[m]) for m in ms],
            prefix="claim-m"))
            + fieldset("With these 5 cards (none ticked: the ones that keep the most bonus)",
                       _case_chips(pos, "cases", solved, "claim-case", kind="checkbox")))
        out.append(entry_form(base, ver, "claim", inner, "Claim"))
    if R.Reserve in kinds:
        ids = [a.case for a in legal if isinstance(a, R.Reserve)]
        inner = fieldset("Mycroft: reserve a case", _case_chips(pos, "case", ids, "reserve-case"))
        out.append(_details("Mycroft Holmes: reserve a case",
                            entry_form(base, ver, "reserve", inner, "Reserve")))
    if R.Rotate in kinds:
        rot = [a for a in legal if isinstance(a, R.Rotate)]
        ids = list(dict.fromkeys(a.case for a in rot))
        inner = (fieldset("Irene: the solved card turned", _case_chips(pos, "case", ids, "rotate-case"))
                 + fieldset("Its new discount", chips("suit", [(str(i), s) for i, s in enumerate(SUITS)],
                                                      prefix="rotate-suit")))
        out.append(_details("Irene Adler: turn a discount", entry_form(base, ver, "rotate", inner, "Rotate")))
    return f'<section id="entry"><h2>Enter ({h(who)}, {h(pos.step)})</h2>{"".join(out)}</section>'


def _details(summary_text: str, inner: str) -> str:
    return f'<details class="more"><summary>{h(summary_text)}</summary>{inner}</details>'


def solve_form(session, pos, base: str, ver: str) -> str:
    """Solve a case within reach: each with its verdict (pays or short by); the payment
    is the cheapest unless typed as at the terminal (``with``)."""
    cases = session.pay([])["cases"]
    labels = {c["case"]: f"{c['case']}: " + ("pays" if c["affordable"] else f"short {c['short_by']}")
              for c in cases}
    inner = (fieldset("Solve: the case", _case_chips(pos, "case", [c["case"] for c in cases],
                                                     "solve-case", labels))
             + fieldset("Payment (blank: the cheapest; else as typed: Writings+Writings+"
                        "Artifacts=Knowledge, ...)",
                        '<input type="text" name="with" maxlength="300" autocomplete="off" '
                        'id="solve-with" aria-label="payment">'))
    return _details("Solve a case", entry_form(base, ver, "solve", inner, "Solve"))


def _marks(pos) -> tuple[set, set, set]:
    """The cells a pattern lets one take exactly, take over a prop, and the prop cells
    (the patterns solver, ``patterns.placements``)."""
    from deduce.models.deductions.patterns import placements

    exact, propped, props = set(), set(), set()
    for p in placements(pos.grid):
        (exact if p.prop is None else propped).update(p.take)
        if p.prop is not None:
            props.add(p.prop)
    return exact, propped - exact, props


def _cell_label(card: str | None) -> str:
    if card is None:
        return "—"
    suit = ALLY_SUIT.get(card, card)
    return SHORT[suit] + ("*" if card in ALLY_SUIT else "")


def _cell_class(card: str | None) -> str:
    return "" if card is None else SUIT_CLASS[ALLY_SUIT.get(card, card)]


def grid_view(pos) -> str:
    """The grid with the patterns solver's marks: ``T`` exact takes, ``t`` takes over a
    prop, ``P`` prop cells."""
    exact, propped, props = _marks(pos)
    rows = []
    for r in range(SIZE):
        cells = [f"<th>{r + 1}</th>"]
        for c in range(SIZE):
            card = pos.grid[r][c]
            mark = "exact" if (r, c) in exact else "propped" if (r, c) in propped else ""
            prop = " prop" if (r, c) in props else ""
            cells.append(f'<td class="{_cell_class(card)} {mark}{prop}" title="{h(card or "empty")}">'
                         f"{h(_cell_label(card))}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    head = "<tr><th></th>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "</tr>"
    return (f'<section id="grid"><h2>Grid</h2><table class="cluegrid">{head}{"".join(rows)}</table>'
            f"{_legend(pos, exact, propped)}</section>")


def _legend(pos, exact, propped) -> str:
    from deduce.models.deductions.patterns import mind_palace_forced

    forced = " Mind Palace is forced." if mind_palace_forced(pos.grid) else ""
    allies = [f"{card} at {cell_name((r, c))}" for r, row in enumerate(pos.grid)
              for c, card in enumerate(row) if card in ALLY_SUIT]
    ally = f" Allies: {', '.join(allies)}." if allies else ""
    return (f'<p class="small">Bold: a card a pattern lets one take ({len(exact)} exact); '
            f"dotted: takeable over a prop ({len(propped)}); underlined: a prop cell.{forced}"
            f"{ally} {' '.join(f'{SHORT[s]} {s}' for s in SUITS)}; * an Ally.</p>")


def take_form(pos, takes: list, base: str, ver: str) -> str:
    """The take form: the grid itself, each cell a tap target (the cells the engine lets
    the player take highlighted), then the prop cell."""
    exact = {a.cell for a in takes if a.prop is None}
    propped = {a.cell for a in takes if a.prop is not None} - exact
    props = sorted({a.prop for a in takes if a.prop is not None})
    rows = []
    for r in range(SIZE):
        cells = [f"<th>{r + 1}</th>"]
        for c in range(SIZE):
            card, k = pos.grid[r][c], CELLS.index((r, c))
            mark = "exact" if (r, c) in exact else "propped" if (r, c) in propped else "none"
            prop = " prop" if (r, c) in props else ""
            tap = (f'<input type="radio" name="cell" value="{k}" id="take-cell-{k}">'
                   f'<label for="take-cell-{k}" title="{h(card or "empty")} at {cell_name((r, c))}">'
                   f"{h(_cell_label(card))}</label>") if (r, c) in exact | propped else \
                f'<span title="{h(card or "empty")}">{h(_cell_label(card))}</span>'
            cells.append(f'<td class="{_cell_class(card)} {mark}{prop}">{tap}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    head = "<tr><th></th>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "</tr>"
    grid = f'<table class="cluegrid taps">{head}{"".join(rows)}</table>'
    prop_chips = chips("prop", [(str(CELLS.index(p)), cell_name(p)) for p in props], prefix="take-prop")
    inner = (fieldset("Take: tap the cell (bold: an exact pattern; dotted: over a prop)", grid)
             + (fieldset("A prop over (none: exact, or the one prop that fits)", prop_chips)
                if props else ""))
    return f'<div id="grid">{entry_form(base, ver, "take", inner, "Take")}</div>'


def part_form(session, pos, base: str, ver: str) -> str:
    """What came, for the entry waiting: exactly the parts it waits for."""
    needs = session.waiting() or ""
    inner = []
    if "refill" in needs:
        many = re.search(r"\(x(\d+)", needs)
        n = int(many.group(1)) if many else 1
        if n == 1:
            inner.append(fieldset("The card dealt in (refill)", _card_chips("refill", CLUES, "part-refill")))
        else:
            options = [(str(i), c) for i, c in enumerate(CLUES)]
            boxes = "".join(select("refill", options, ident=f"part-refill-{i}", label=f"card {i + 1}")
                            for i in range(n))
            inner.append(fieldset(f"The {n} cards dealt in, in order (refill)",
                                  f'<div class="boxes">{boxes}</div>'))
    if "got" in needs:
        inner.append(fieldset("The card that came to the pool (got)", _card_chips("got", CLUES, "part-got")))
    if "reveal" in needs:
        every = _case_ids(pos)
        unseen = [i for ids in pos.piles().values() for i in ids]
        inner.append(fieldset("The new top of the pile (reveal)", select(
            "reveal", [(str(every.index(i)), f"{i}: {pos.cards.by_id[i].name}") for i in unseen],
            ident="part-reveal", label="the case revealed")))
    head = (f'<p class="notice info" id="waiting"><strong>Waiting:</strong> '
            f"{h(session.pending.text)} needs {h(needs)} (not saved until it is said)</p>")
    return f'<section id="entry">{head}{entry_form(base, ver, "part", "".join(inner), "Enter what came")}</section>'


def display_view(pos) -> str:
    rows = []
    for key, label in (("solutions", "Solutions"), ("red_herrings", "Red Herrings")):
        ids = pos.display[key]
        items = "".join(
            f'<li{" class=top" * (k == 0)}>{h(i) if i else "(gap)"}'
            + (f' <span class="small">{h(pos.cards.by_id[i].name)}, '
               f"{pos.cards.by_id[i].points} pts</span>" if i else "") + "</li>"
            for k, i in enumerate(ids))
        rows.append(f"<h3>{label} (first: the pile top)</h3><ul class=\"cases\">{items}</ul>")
    return f'<section id="display"><h2>Display</h2>{"".join(rows)}</section>'


def _due_words(due: dict) -> str:
    return " ".join(f"{n} {SHORT[s]}" for s, n in due.items() if n) or "nothing"


def pay_view(session, pos) -> str:
    """The pay verdict of every case within reach of the player to play, best first."""
    who = session.to_play()
    rows = []
    for c in session.pay([])["cases"]:
        card = pos.cards.by_id[c["case"]]
        if c["affordable"]:
            paid = ", ".join(use_words(u["cards"], u["as"]) for u in c["payment"]) or "nothing"
            verdict = f'<span class="ok">pays: {h(paid)}</span>'
        else:
            verdict = f'<span class="short">short {c["short_by"]}</span>'
        rows.append(f'<li data-case="{h(card.id)}"><strong>{h(card.id)}</strong> '
                    f"{card.points} pts · due {h(_due_words(c['due']))} · {verdict}</li>")
    body = f'<ol class="pay">{"".join(rows)}</ol>' if rows else '<p class="small">No case within reach.</p>'
    return f'<section id="pay"><h2>Pay verdicts for {h(who)}</h2>{body}</section>'


def _lack_words(milestone: str, lack) -> str:
    if milestone == "diversity":
        return "lacks nothing" if not lack else "lacks " + ", ".join(lack)
    near = sorted(lack.items(), key=lambda kv: kv[1])
    return "lacks " + ", ".join(f"{n} more of {c}" if i == 0 else f"{n} of {c}"
                                for i, (c, n) in enumerate(near))


def milestones_view(session, pos) -> str:
    """The milestones of me and of the player to play, in words: claimed, claimable now
    (the cards to commit), what each open one lacks, the cases that would complete one."""
    from deduce.models.deductions.knowledge import milestone_report

    people = list(dict.fromkeys([pos.me, session.to_play()]))
    out = []
    for player in people:
        report = milestone_report(pos, player)
        data = report["json"]
        lines = [f"{len(data['claimed'])} claimed; most bonus reachable now {data['max_bonus']} points"]
        lines += [f"{MILESTONE_WORDS[m]}: claimed with {', '.join(ids)}" for m, ids in data["claimed"].items()]
        lines += [f"{MILESTONE_WORDS[m]}: claimable now, commit {', '.join(ids)}"
                  for m, ids in data["claimable"].items()]
        lines += [f"{MILESTONE_WORDS[m]}: {_lack_words(m, lack)}" for m, lack in report["lacks"].items()
                  if m not in data["claimable"]]
        lines += [f"solving {i} would complete {' and '.join(MILESTONE_WORDS[m] for m in ms)}"
                  for i, ms in report["completes"].items()]
        items = "".join(f"<li>{h(t)}</li>" for t in lines)
        out.append(f"<h3>{h(player)}</h3><ul class=\"milestones\">{items}</ul>")
    return f'<section id="milestones"><h2>Milestones</h2>{"".join(out)}</section>'


def _cards_text(cards) -> str:
    count = Counter(cards)
    return ", ".join(c if n == 1 else f"{c} x{n}" for c, n in count.items()) or "-"


def players_view(pos) -> str:
    rows = []
    for p in pos.players:
        mine = " (me)" if p == pos.me else ""
        solved = ", ".join(f"{s.id} ({s.discount})" for s in pos.solved[p]) or "-"
        rows.append(f'<li><strong>{h(p)}{mine}</strong>: {pos.points(p)} points; pool '
                    f"{len(pos.pools[p])}: {h(_cards_text(pos.pools[p]))}"
                    f'<span class="small">solved: {h(solved)}; milestones: '
                    f"{h(', '.join(MILESTONE_WORDS[m] for m in pos.milestones[p]) or '-')}; "
                    f"reserved: {h(pos.reserved[p] or '-')}</span></li>")
    return (f'<section id="players"><h2>Players</h2><ul class="records">{"".join(rows)}</ul>'
            f'<p class="small">deck: {sum(pos.deck_counts().values())} cards; discard pile: '
            f"{len(pos.discard)} cards</p></section>")


# ----------------------------------------------------------------------------- new record
def new_record_fields() -> str:
    """The setup fields of a new Deductions record: the players and me, then a dealt game
    (its seed) or the table as laid out."""
    cards = load_cards(None)
    options = [(str(i), c) for i, c in enumerate(CLUES)]
    rows = "".join(
        f'<div class="boxes four">{"".join(select(f"grid{r + 1}-{c}", options, ident=f"grid{r + 1}-{c}", label=f"{cell_name((r, c))}") for c in range(SIZE))}</div>'
        for r in range(SIZE))
    every = [c.id for c in cards.cards]
    display = ""
    for key, kind, label in (("solutions", SOLUTION, "Solutions"), ("red_herrings", RED_HERRING, "Red Herrings")):
        opts = [(str(every.index(c.id)), f"{c.id}") for c in cards.of_kind(kind)]
        boxes = "".join(select(key, opts, ident=f"{key}-{i}", label=f"{label} {i + 1}") for i in range(4))
        display += fieldset(f"{label} shown, the pile's top first", f'<div class="boxes">{boxes}</div>')
    pools = "".join(f'<input type="text" name="pool-{i}" maxlength="300" autocomplete="off" '
                    f'placeholder="player {i + 1}: cards, comma separated" aria-label="pool of player {i + 1}" '
                    f'id="pool-{i}">' for i in range(MAX_PLAYERS))
    to_play = chips("to_play", [(str(i), f"player {i + 1}") for i in range(MAX_PLAYERS)], checked=("0",),
                    prefix="to_play")
    typed = (fieldset("Who plays first", to_play) + fieldset("The grid, row 1 (top) to 4, columns a-d", rows)
             + display + fieldset("The pools (blank: empty)", f'<div class="boxes">{pools}</div>'))
    return (player_fields(MAX_PLAYERS)
            + fieldset("Start", chips("start", [("0", "dealt by deduce"), ("1", "as laid out")],
                                      checked=("0",), prefix="start"))
            + fieldset("Seed of the deal (dealt by deduce: lay the table out as the page shows)",
                       '<input type="text" name="seed" inputmode="numeric" maxlength="20" '
                       'autocomplete="off" id="seed" aria-label="seed">')
            + _details("As laid out: what lies on the table", typed))
