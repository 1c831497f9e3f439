"""The Baker Street Irregulars page of ``deduce serve`` (a game page: see ``web.pages``).

Every entry goes through ``models.irregulars.table.TableSession.handle``: the page turns
the chips and lists chosen into the lines a player would type at the terminal table
(``pick E005``, ``reveal ben E040``, ``arrest V07 with E011, E071``, ``refill V12``), so
every check and refusal is the terminal's; the page checks no rule. Which forms it shows
follows the phase and the engine's legal actions: the Investigate picks (mine and the
others' as they are revealed, in one form; solo: mine), an arrest turn's arrest, pass and
boards, the tail, the BSI Bonus, a solo resupply, the others' Inspectors at the end; an
entry that waits for what came (``refill``, ``twist``, ``hand``, ``holmes``, ...) is
asked for exactly what it waits for, in the session's order.

A player is named in a line by their name with case, spaces and punctuation taken out
(``core.names.normalise``: the names rule matches it exactly, and it holds no comma, no
``=`` and no space, which the terminal's ``reveal`` reads as separators).

The live part, top to bottom: what the table waits for; the message of the last entry;
the entry forms; undo; the row of Villains with what I can arrest now and with which
Evidence (and the player to act, when another); my hand (the middle in a BSI Bonus);
every player's tokens, Evidence, arrests and boards; the score; the hand tracking (who
holds which cards, with the exact chances, and the decks).
"""

from __future__ import annotations


from deduce.core.errors import InputError
from deduce.core.names import normalise
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
from deduce.models.irregulars import rules
from deduce.models.irregulars.cards import DECK_NUMERALS, load_cards
from deduce.models.irregulars.position import BOARDS, HAND_SIZE, MAX_PLAYERS, MULTI, ROW, SOLO
from deduce.models.irregulars.table import TableSession
from deduce.models.irregulars.table_play import ORDER, TOLD_WORDS
from deduce.web.forms import missing, seated_players
from deduce.web.html import chips, fieldset, h, player_fields, select

GAME = "irregulars"
TITLE = "Baker Street Irregulars"

MODES = (MULTI, SOLO)
#: the largest seed a dealt game takes (``deduce irregulars table --seed``)
#: the entry forms' ops
OPS = ("picks", "arrest", "pass", "jump", "watson", "wiggins", "tail", "take", "board",
       "resupply", "inspector", "part", "undo")
#: a holding with at most this many possible cards lists them one by one
LIST_UP_TO = 8
SETUP_WORDS = {"players": "2 to 5 player names", "me": "which player you are",
               "inspector": "your Inspector", "villains": "the 5 Villains in the row",
               "plot_twist": "the round's Plot Twist", "hand": "your 5 cards"}


# ----------------------------------------------------------------------------- sessions
def open_record(path) -> TableSession:
    return TableSession.open(path)


def create_record(path, form) -> TableSession:
    """A new record from the new-record form: ``mode`` (0 multi, 1 solo), the players and
    ``me`` (solo: my name, the box picked or the only one filled), ``start`` 0 (dealt:
    ``seed``) or 1 (as laid out: ``inspector``, ``villains`` x5, ``order`` (seats, blank:
    the seating order), ``plot_twist``, ``hand`` x5, indices of the card set's lists),
    checked by the session's ``Setup`` as the terminal checks it."""
    where = "new record"
    mode = form.pick("mode", MODES, where) or MULTI
    players, me = seated_players(form, MAX_PLAYERS, where)
    if mode == SOLO:
        if me is None and len(players) == 1:
            me = players[0]
        players = []
    start = form.pick("start", ("dealt", "typed"), where) or "dealt"
    if start == "dealt":
        seed = dealt_seed(form)
        if mode == MULTI and not players:
            _missing("players", None)
        if not me:
            _missing("me", None)
        return TableSession.open(path, seed=seed, mode=mode, players=players or None, me=me)
    cards = load_cards(None)

    def ask(key: str, setup) -> None:
        setup.set(key, _typed_answer(form, key, setup, cards, where))

    return TableSession.open(path, mode=mode, players=players or None, me=me, ask=ask)


def _missing(key: str, _setup=None) -> None:
    """Refuse a new record whose setup field ``key`` was not given."""
    missing(key, SETUP_WORDS)


def _typed_answer(form, key: str, setup, cards, where: str):
    """The answer to the start field ``key`` from the form (``_missing`` when blank)."""
    answer = None
    if key == "inspector":
        answer = form.pick("inspector", [i.id for i in cards.inspectors], where)
    elif key == "plot_twist":
        answer = form.pick("plot_twist", [t.id for t in cards.plot_twists], where)
    elif key == "villains":
        answer = form.pick_all("villains", [v.id for v in cards.villains], where) or None
    elif key == "hand":
        answer = form.pick_all("hand", [e.id for e in cards.evidence], where) or None
    elif key == "order":
        return form.pick_all("order", setup.players, where) or list(setup.players)
    if answer is None:
        _missing(key, setup)
    return answer


def version(session: TableSession) -> str:
    """The record's version, the entry waiting for what came included (its picks and what
    it was told so far: ``entry_pages.version``)."""
    pending = session.pending
    if pending is None:
        return entry_pages.version(session)
    return entry_pages.version(session, picks=pending.picks, told=pending.told.to_json())


def summary(session: TableSession) -> str:
    """The record's line in the list of records (``entry_pages.summary``, with the mode)."""
    return entry_pages.summary(session, TITLE, session.record.setup.mode)


# ----------------------------------------------------------------------------- entries
def act(served, form) -> Reply:
    """The session's reply to a posted entry (``entry_pages.act`` of ``entry_lines``)."""
    return entry_pages.act(served.session, form, entry_lines)


def player_word(name: str) -> str:
    """A player's name as one word of a line (see the module's docstring)."""
    return normalise(name) or quote(name)


def entry_lines(form, session: TableSession) -> list[str]:
    """The terminal lines the posted form stands for."""
    where = "entry"
    op = form.get("op")
    cards = session.record.setup.cards
    evidence = [e.id for e in cards.evidence]
    villains = [v.id for v in cards.villains]
    names = list(session.names())
    if op in ("undo", "pass", "jump", "watson"):
        return [op]
    if op == "picks":
        lines = []
        mine = form.get("mine")
        if mine == "pass":
            lines.append("pass")
        elif mine is not None:
            lines.append(f"pick {form.pick('mine', evidence, where)}")
        for seat, name in enumerate(names):
            value = form.get(f"reveal-{seat}")
            if value is None or seat == session.me:
                continue
            card = "pass" if value == "pass" else form.pick(f"reveal-{seat}", evidence, where)
            lines.append(f"reveal {player_word(name)} {card}")
        if not lines:
            raise InputError("choose a pick (yours, or one revealed)", where=f"{where}, field 'mine'")
        return lines
    if op == "arrest":
        villain = chosen(form, "villain", villains, where, "the Villain arrested")
        used = form.pick_all("with", evidence, where)
        ignore = " ignore" if form.get("ignore") else ""
        return [f"arrest {villain}" + (f" with {', '.join(used)}" if used else "") + ignore]
    if op in ("wiggins", "tail"):
        return [f"{op} {chosen(form, 'villain', villains, where, 'the Villain')}"]
    if op == "take":
        return [f"take {chosen(form, 'card', evidence, where, 'the card taken')}"]
    if op == "board":
        return [f"board {chosen(form, 'board', BOARDS, where, 'the board taken')}"]
    if op == "resupply":
        return [f"resupply {chosen(form, 'choice', ('keep', 'back'), where, 'keep or back')}"]
    if op == "inspector":
        player = chosen(form, "player", names, where, "the player")
        inspector = chosen(form, "inspector", [i.id for i in cards.inspectors], where,
                            "their Inspector")
        return [f"inspector {player_word(player)} {inspector}"]
    if op == "part":
        return _part_lines(form, cards, evidence, villains, where)
    raise InputError("no such entry", where=f"{where}, field 'op'")


def _part_lines(form, cards, evidence, villains, where: str) -> list[str]:
    """What came, one line per part, in the order the session asks them
    (``table_play.ORDER``)."""
    given = {"refill": form.pick_all("refill", villains, where),
             "twist": form.pick("twist", [t.id for t in cards.plot_twists], where),
             "hand": form.pick_all("hand", evidence, where),
             "middle": form.pick_all("middle", evidence, where),
             "holmes": form.pick("holmes", evidence, where),
             "track": form.pick("track", evidence, where),
             "check": form.pick("check", evidence, where),
             "ok": "ok" if form.get("ok") else None}
    lines = []
    for key in ORDER:
        value = given[key]
        if not value:
            continue
        if key == "ok":
            lines.append("ok")
        else:
            lines.append(f"{key} {', '.join(value) if isinstance(value, list) else value}")
    if not lines:
        raise InputError("choose what came", where=f"{where}, field 'part'")
    return lines


# ----------------------------------------------------------------------------- the page
def render(served, notice: str = "", why: str | None = None) -> str:
    """The live part of the record's page (see the module's docstring)."""
    session = served.session
    pos = session.position()
    base = f"/r/{served.slug}"
    ver = served.version
    parts = [f'<p class="turn" id="turn">{h(session.prompt())}</p>',
             f'<p class="glance" id="glance">{h(_glance(pos))}</p>', notice,
             entry_forms(session, pos, base, ver), undo_form(session, base, ver),
             row_view(session, pos), hand_view(pos), players_view(pos),
             score_view(session, pos), hands_view(served, pos),
             ask_section(session, base, why, QUESTIONS, lambda reply: advice_html(reply.data))]
    return "".join(parts)


#: the terminal's views the page asks for by a link (``entry_pages.ask_section``)
QUESTIONS = {"best": "Best move (rollouts, about a second)"}


def _glance(pos) -> str:
    where = f"cycle {pos.cycle}" if pos.solo else f"round {pos.round}, cycle {pos.cycle}"
    twist = ""
    if pos.plot_twist:
        t = pos.cards.plot_twist_by_id[pos.plot_twist]
        twist = f" · Plot Twist {t.id} {t.name} ({t.effect})"
    return f"{where}, {pos.phase} phase{twist}"


def _ev_label(cards, ident: str) -> str:
    e = cards.evidence_by_id[ident]
    return f"{e.id} {e.name} ({' '.join(e.icons) or 'no icon'}; cost {e.cost})"


def _villain_label(cards, ident: str) -> str:
    v = cards.villain_by_id[ident]
    return f"{v.id} {v.name} ({v.points})"


def _evidence_options(cards) -> list[tuple[str, str]]:
    return [(str(i), f"{e.id} {e.name}") for i, e in enumerate(cards.evidence)]


def entry_forms(session, pos, base: str, ver: str) -> str:
    """The forms of the entries of the phase now (the engine's legal actions say which
    boards may be played), or what came when an entry waits for it."""
    st = session.state
    cards = pos.cards
    pending = session.pending
    if pending is not None and pending.action is not None:
        return part_form(session, pos, base, ver)
    out = []
    evidence = [e.id for e in cards.evidence]
    villains = [v.id for v in cards.villains]
    if st.is_over():
        if not session.winner_known():
            shown = session.revealed()
            others = [(str(s), n) for s, n in enumerate(session.names())
                      if s != session.me and n not in shown]
            inner = (fieldset("Whose Inspector", chips("player", others, prefix="insp-player"))
                     + fieldset("Their Inspector", select(
                         "inspector", [(str(i), f"{x.id} {x.name}") for i, x in enumerate(cards.inspectors)],
                         ident="insp-inspector", label="Inspector")))
            out.append(entry_form(base, ver, "inspector", inner, "Show the Inspector"))
        return f'<section id="entry"><h2>Enter</h2>{"".join(out)}</section>' if out else ""
    legal = st.legal_actions()
    kinds = {type(a) for a in legal}
    phase = st.phase
    if phase == rules.INVESTIGATE:
        out.append(picks_form(session, pos, evidence, base, ver))
    elif phase in (rules.ARREST, rules.FINAL):
        who = session.to_act()
        vs = [(str(villains.index(v)), _villain_label(cards, v)) for v in pos.villains]
        unused = [(str(evidence.index(e.id)), _ev_label(cards, e.id)) for e in pos.unused(who)]
        inner = (fieldset(f"{who} arrests", chips("villain", vs, prefix="arrest-v", wide=True))
                 + (fieldset("With (none ticked: a smallest set)",
                             chips("with", unused, kind="checkbox", prefix="arrest-with", wide=True))
                    if unused else "")
                 + fieldset("The Holmes board", chips("ignore", [("1", "ignore one icon")],
                                                      kind="checkbox", prefix="arrest-ignore")))
        out.append(entry_form(base, ver, "arrest", inner, "Arrest"))
        out.append(entry_form(base, ver, "pass", "", f"{who}: no arrest (pass)", primary=False))
        if rules.Jump in kinds:
            out.append(entry_form(base, ver, "jump", "", "Holmes board: jump to the front", primary=False))
        if rules.Watson in kinds:
            out.append(entry_form(base, ver, "watson", "", "Watson board: up one place", primary=False))
        if rules.Wiggins in kinds:
            ws = [a.villain for a in legal if isinstance(a, rules.Wiggins)]
            inner = fieldset("Wiggins board: the tail moves to", chips(
                "villain", [(str(villains.index(v)), _villain_label(cards, v)) for v in ws],
                prefix="wiggins-v", wide=True))
            out.append(entry_form(base, ver, "wiggins", inner, "Move the tail"))
    elif phase == rules.TAIL:
        who = session.to_act()
        vs = [(str(villains.index(v)), _villain_label(cards, v)) for v in pos.villains]
        inner = fieldset(f"{who} tails", chips("villain", vs, prefix="tail-v", wide=True))
        out.append(entry_form(base, ver, "tail", inner, "Tail"))
        out.append(entry_form(base, ver, "pass", "", f"{who}: no tail (pass)", primary=False))
    elif phase == rules.BONUS:
        who = session.to_act()
        takes = [a.card for a in legal if isinstance(a, rules.TakeCard)] or list(pos.hand)
        inner = fieldset(f"{who} takes from the middle", chips(
            "card", [(str(evidence.index(c)), _ev_label(cards, c)) for c in takes],
            prefix="take-card", wide=True))
        out.append(entry_form(base, ver, "take", inner, "Take the card"))
        boards = [a.board for a in legal if isinstance(a, rules.TakeBoard)]
        if boards:
            inner = fieldset("Or a board", chips(
                "board", [(str(BOARDS.index(b)), f"{b} board") for b in boards], prefix="take-board"))
            out.append(entry_form(base, ver, "board", inner, "Take the board"))
    elif phase == rules.RESET:
        inner = fieldset("Resupply: your tail", chips(
            "choice", [("0", "keep the tail"), ("1", "take the token back")], prefix="resupply"))
        out.append(entry_form(base, ver, "resupply", inner, "Resupply"))
    return f'<section id="entry"><h2>Enter</h2>{"".join(out)}</section>'


def picks_form(session, pos, evidence, base: str, ver: str) -> str:
    """The Investigate picks: mine (the cards of my hand; pass) and, multiplayer, the
    others' as they are revealed (each a card, or pass), entered in any order."""
    cards = pos.cards
    so_far = (session.pending.picks or {}) if session.pending is not None else {}
    names = session.names()
    me = names[session.me]
    inner = []
    if me not in so_far:
        mine = [(str(evidence.index(c)), _ev_label(cards, c)) for c in pos.hand]
        inner.append(fieldset("My pick", chips("mine", mine + [("pass", "pass (none affordable)")],
                                               prefix="mine", wide=True)))
    if not pos.solo:
        options = [("pass", "passed")] + _evidence_options(cards)
        boxes = "".join(
            f'<label class="small" for="reveal-{s}">{h(n)}</label>'
            + select(f"reveal-{s}", options, ident=f"reveal-{s}", label=f"{n}'s pick")
            for s, n in enumerate(names) if s != session.me and n not in so_far)
        if boxes:
            inner.append(fieldset("The others' picks, as revealed", f'<div class="picks">{boxes}</div>'))
    if so_far:
        inner.insert(0, '<p class="small" id="picks-so-far">Entered so far (not saved until every '
                        "pick is in): " + h(", ".join(f"{n} {'pass' if c is None else c}"
                                                      for n, c in so_far.items())) + "</p>")
    return entry_form(base, ver, "picks", "".join(inner), "Enter the picks")


def part_form(session, pos, base: str, ver: str) -> str:
    """What came, for the entry waiting: the parts it waits for (``pending.missing``)."""
    cards = pos.cards
    missing = session.pending.missing
    ev = _evidence_options(cards)
    inner = []
    for key in [k for k in ORDER if k in missing]:
        words = TOLD_WORDS[key]
        if key == "refill":
            field = select("refill", [(str(i), f"{v.id} {v.name}") for i, v in enumerate(cards.villains)],
                           ident="part-refill", label="the Villain drawn")
        elif key == "twist":
            field = select("twist", [(str(i), f"{t.id} {t.name}") for i, t in enumerate(cards.plot_twists)],
                           ident="part-twist", label="the Plot Twist")
        elif key in ("hand", "middle"):
            field = '<div class="boxes">' + "".join(
                select(key, ev, ident=f"part-{key}-{i}", label=f"card {i + 1}")
                for i in range(HAND_SIZE)) + "</div>"
        elif key == "ok":
            field = chips("ok", [("1", "confirm")], kind="checkbox", checked=("1",), prefix="part-ok")
        else:
            field = select(key, ev, ident=f"part-{key}", label=key)
        inner.append(fieldset(words, field))
    head = (f'<p class="notice info" id="waiting"><strong>Waiting:</strong> {h(session.pending.text)} '
            "(not saved until what came is said)</p>")
    return (f'<section id="entry"><h2>Enter</h2>{head}'
            f'{entry_form(base, ver, "part", "".join(inner), "Enter what came")}</section>')


def row_view(session, pos) -> str:
    """The Villains in the row: icons, points, who tails them, and whether I (and the
    player to act, when another) can arrest each now, with which Evidence."""
    from deduce.models.irregulars.arrest import best_arrest, position_arrests

    cards = pos.cards
    who = [pos.me]
    acting = session.to_act()
    if acting is not None and acting != pos.me and not pos.solo:
        who.append(acting)
    answers = {p: position_arrests(pos, p) for p in who}
    items = []
    for k, v in enumerate(pos.villains):
        villain = cards.villain_by_id[v]
        tails = ", ".join(p for p in pos.players if pos.tailing[p] == v) or "-"
        verdicts = []
        for p in who:
            a = answers[p][k]
            if a.arrestable:
                uses = f" (+ {', '.join(a.uses)})" if a.uses else ""
                verdicts.append(f'<span class="ok">{h(p)}: arrest with '
                                f"{h(', '.join(c.id for c in a.cards) or 'no card')}{h(uses)}</span>")
            else:
                verdicts.append(f'<span class="short">{h(p)}: missing {h(" ".join(a.missing))}</span>')
        items.append(f'<li data-villain="{h(v)}" data-arrestable="{int(answers[pos.me][k].arrestable)}">'
                     f"<strong>{h(v)} {h(villain.name)}</strong> {villain.points} pts · "
                     f"{h(' '.join(villain.icons))} · tailed by {h(tails)}"
                     f'<span class="small">{" · ".join(verdicts)}</span></li>')
    best = best_arrest(answers[pos.me])
    line = (f"Best for {pos.me}: {best.villain.id} {best.villain.name} ({best.villain.points} pts)"
            if best else f"{pos.me} can arrest no visible Villain now.")
    return (f'<section id="row"><h2>Villains in the row</h2><ul class="row">{"".join(items)}</ul>'
            f'<p class="small" id="best-arrest">{h(line)}</p></section>')


def hand_view(pos) -> str:
    cards = pos.cards
    label = "The middle, face up" if pos.phase == rules.BONUS else "My hand"
    items = "".join(f"<li>{h(_ev_label(cards, c))}</li>" for c in pos.hand) or "<li>-</li>"
    return f'<section id="hand"><h2>{label}</h2><ul class="cases">{items}</ul></section>'


def players_view(pos) -> str:
    cards = pos.cards
    rows = []
    for p in pos.players:
        mine = " (me)" if p == pos.me else ""
        unused = ", ".join(e.id for e in pos.unused(p)) or "-"
        t = pos.bsi[p]
        rows.append(f"<li><strong>{h(p)}{mine}</strong>: {t.available} tokens ({t.spent} spent); "
                    f"Evidence {len(pos.evidence[p])}, unused: {h(unused)}"
                    f'<span class="small">arrested: {h(", ".join(pos.arrested[p]) or "-")} '
                    f"({pos.villain_points(p)} pts); boards: {h(', '.join(pos.boards[p]) or '-')}"
                    "</span></li>")
    inspector = cards.inspector_by_id[pos.inspector]
    return (f'<section id="players"><h2>Players</h2><ul class="records">{"".join(rows)}</ul>'
            f'<p class="small">Arresting order: {h(", ".join(pos.order))}. My Inspector: '
            f"{h(inspector.id)} {h(inspector.name)}.</p></section>")


def score_view(session, pos) -> str:
    from deduce.models.irregulars.score import score_json

    rows = []
    for p in score_json(pos)["players"]:
        best = "?" if p["objectives"] is None else p["objectives"][p["best"]]
        total = "?" if p["total"] is None else p["total"]
        rows.append(f"<tr><th>{h(p['name'])}</th><td>{p['villain_points']}</td><td>{best}</td>"
                    f"<td>{total}</td></tr>")
    final = session.final_scores()
    note = ("" if final is None else '<p class="small" id="final">Final: '
            + h(", ".join(f"{n} {s}" for n, s in final)) + "</p>")
    return ('<section id="score"><h2>Score</h2><table class="sheet score"><thead><tr>'
            "<th>Player</th><th>Villains</th><th>Best objective</th><th>Total</th></tr></thead>"
            f'<tbody>{"".join(rows)}</tbody></table><p class="small">?: hidden (another '
            f"player's Inspector).</p>{note}</section>")


def _pct(p) -> str:
    return f"{100 * float(p):.1f}%"


def hands_view(served, pos) -> str:
    """Hand tracking (``session.hands()``, kept by version): each holder's cards in all,
    those held for sure, and the rest each with its exact chance (by deck when many)."""
    key = served.version
    cached = served.cache.get("hands")
    if cached is None or cached[0] != key:
        try:
            cached = (key, served.session.hands(), None)
        except InputError as exc:
            cached = (key, None, str(exc))
        served.cache["hands"] = cached
    _, k, problem = cached
    if k is None:
        return f'<section id="hands"><h2>Who holds what</h2><p class="small">{h(problem)}</p></section>'
    by_id = pos.cards.evidence_by_id
    items = []
    for holding in k.holdings:
        sure = ", ".join(f"{c} {by_id[c].name}" for c in holding.certain) or "-"
        if not holding.possible:
            maybe = "-"
        elif len(holding.possible) <= LIST_UP_TO:
            maybe = ", ".join(f"{c} {_pct(p)}" for c, p in holding.possible.items())
        else:
            maybe = "; ".join(
                f"deck {DECK_NUMERALS[row['deck']]}: {row['cards']} cards"
                + ("" if row["p_each"] is None else f", {_pct(row['p_each'])} each")
                + f" (~{row['expected']:.2f})" for row in holding.by_deck())
        items.append(f'<li data-holder="{h(holding.holder)}"><strong>{h(holding.holder)}</strong>: '
                     f"{holding.cards} cards; for sure: {h(sure)}"
                     f'<span class="small">may hold: {h(maybe)}</span></li>')
    decks = ", ".join(f"{d.to_json()['numeral']}: {len(d.unseen)} unseen, {d.in_deal} in the "
                      f"hands, {d.in_deck} in the deck" for d in k.decks)
    worlds = (f"{k.worlds:,} equally likely completions of the deal fit what you saw."
              if k.worlds != 1 else "Every hand of the deal is known.")
    return (f'<section id="hands"><h2>Who holds what</h2><p class="small">{h(k.me)}\'s view, '
            f"hands pass {h(k.direction)}</p><ul class=\"hands\">{''.join(items)}</ul>"
            f'<p class="small">Evidence decks: {h(decks)}. {h(worlds)}</p></section>')


# ----------------------------------------------------------------------------- new record
def new_record_fields() -> str:
    """The setup fields of a new Baker Street Irregulars record: the mode, the players
    and me, then a dealt game (its seed) or the start as laid out."""
    cards = load_cards(None)
    ev = _evidence_options(cards)
    villains = [(str(i), f"{v.id} {v.name}") for i, v in enumerate(cards.villains)]
    seats = [(str(i), f"player {i + 1}") for i in range(MAX_PLAYERS)]
    typed = (fieldset("My Inspector", select("inspector", [(str(i), f"{x.id} {x.name}")
                                                           for i, x in enumerate(cards.inspectors)],
                                             ident="inspector", label="my Inspector"))
             + fieldset("The 5 Villains in the row", '<div class="boxes">' + "".join(
                 select("villains", villains, ident=f"villains-{i}", label=f"Villain {i + 1}")
                 for i in range(ROW)) + "</div>")
             + fieldset("The arresting order, first to last (blank: the seating order; not solo)",
                        '<div class="boxes">' + "".join(
                            select("order", seats, ident=f"order-{i}", label=f"place {i + 1}")
                            for i in range(MAX_PLAYERS)) + "</div>")
             + fieldset("The round's Plot Twist (not solo)", select(
                 "plot_twist", [(str(i), f"{t.id} {t.name}") for i, t in enumerate(cards.plot_twists)],
                 ident="plot_twist", label="Plot Twist"))
             + fieldset("My hand", '<div class="boxes">' + "".join(
                 select("hand", ev, ident=f"hand-{i}", label=f"card {i + 1}")
                 for i in range(HAND_SIZE)) + "</div>"))
    return (fieldset("Mode", chips("mode", [("0", "multiplayer"), ("1", "solo against Holmes")],
                                   checked=("0",), prefix="mode"))
            + player_fields(MAX_PLAYERS, "I am (solo: my name's box)")
            + fieldset("Start", chips("start", [("0", "dealt by deduce"), ("1", "as laid out")],
                                      checked=("0",), prefix="start"))
            + fieldset("Seed of the deal (dealt by deduce: lay the table out as the page shows)",
                       '<input type="text" name="seed" inputmode="numeric" maxlength="20" '
                       'autocomplete="off" id="seed" aria-label="seed">')
            + f'<details class="more"><summary>As laid out: what lies on the table</summary>'
              f"{typed}</details>")
