"""Rich rendering for Deductions: a card set, the clue grid and its patterns, a payment,
milestones and odds. Every view fits a terminal of 80 columns; user text (player names,
card ids, names and titles of a user's set) is shown literally (``literal``/``esc``).

Cells are named by ``position.cell_name``: columns ``a``-``d`` from the left, rows
``1``-``4`` from the top (``a1`` is the JSON's ``[0, 0]``, ``d4`` its ``[3, 3]``).
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from deduce.cli.common import esc, literal, styled
from deduce.models.deductions.cards import (
    ALLY_SUIT,
    CASE_TITLES,
    CASES,
    CATEGORIES,
    MILESTONE_SIZE,
    SOLUTION,
    SUITS,
    WATSON,
    suit_of,
)
from deduce.models.deductions.payment import use_words
from deduce.models.deductions.position import COLUMNS, cell_name

#: a short name and a colour per suit
ABBREV = dict(zip(SUITS, ("Sta", "P&T", "Wri", "Art", "Kno")))
COLOUR = dict(zip(SUITS, ("red", "yellow", "blue", "green", "magenta")))
KIND_WORDS = {"row": "row", "column": "column", "diagonal": "diagonal", "square": "2x2 square",
              "corners": "four corners", "diamond": "diamond", "l": "L", "t": "T"}
MILESTONE_WORDS = {"diversity": "Diversity", "completion": "Case Completion"}


def clue_text(card: str | None, short: bool = True) -> Text:
    """A clue card coloured by suit: its suit's short name (an Ally adds ``*``), or the
    full name; an empty cell is a dim dot."""
    if card is None:
        return Text("·", style="dim")
    suit = suit_of(card)
    label = (ABBREV[suit] + ("*" if card in ALLY_SUIT else "")) if short else card
    return Text(label, style=f"bold {COLOUR[suit]}")


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def _cost_text(cost: dict[str, int]) -> Text:
    """``3 Sta 2 Wri`` coloured; ``nothing`` when empty."""
    if not cost:
        return Text("nothing")
    parts = []
    for suit, n in cost.items():
        parts += [Text(f"{n} "), Text(ABBREV[suit], style=COLOUR[suit]), Text(" ")]
    return Text.assemble(*parts[:-1])


def _count_words(cost: dict[str, int]) -> str:
    """``2 Statements, 2 Knowledge``; ``nothing`` when empty."""
    return ", ".join(f"{n} {s}" for s, n in cost.items()) or "nothing"


def _kind_word(kind: str, plural: bool = False) -> str:
    word = "Solution" if kind == SOLUTION else "Red Herring"
    return word + "s" if plural else word


# ----------------------------------------------------------------------------- cards
def card_set_view(card_set) -> Group:
    """One table per case: Solutions then Red Herrings, each by category; a card's name
    above its id."""
    parts = [styled(f"[bold]{esc(card_set.title)}[/]: {len(card_set.cards)} case cards "
                    f"(suits: " + ", ".join(f"{ABBREV[s]} {s}" for s in SUITS) + ")")]
    order = {c: i for i, c in enumerate(CATEGORIES)}
    for case in CASES:
        table = Table(title=CASE_TITLES[case], title_justify="left")
        table.add_column("Kind", no_wrap=True)
        table.add_column("Category", no_wrap=True)
        table.add_column("Card (name, id)", ratio=1, overflow="fold")
        table.add_column("Pts", justify="right")
        table.add_column("Cost", no_wrap=True)
        rows = sorted((c for c in card_set.cards if c.case == case),
                      key=lambda c: (c.kind != SOLUTION, order[c.category]))
        for c in rows:
            solution = c.kind == SOLUTION
            name = Text.assemble(Text(literal(c.name), style="bold" if solution else ""),
                                 "\n", Text(literal(c.id), style="dim"))
            table.add_row("Solution" if solution else "Herring", c.category, name,
                          str(c.points), _cost_text(c.cost_dict()),
                          end_section=solution and c is rows[4])
        parts.append(table)
    return Group(*parts)


# ----------------------------------------------------------------------------- grid
def grid_table(grid, marks: dict | None = None) -> Table:
    """The 4x4 grid, columns a-d, rows 1-4, each card's suit short and coloured (``*``:
    an Ally). ``marks`` maps cells to a style laid over them."""
    table = Table(show_header=True, box=None, padding=(0, 1), pad_edge=False)
    table.add_column("")
    for c in COLUMNS:
        table.add_column(c, justify="center", min_width=4)
    for r, row in enumerate(grid):
        cells = []
        for c, card in enumerate(row):
            text = clue_text(card)
            if marks and (r, c) in marks:
                text.stylize(marks[(r, c)])
            cells.append(text)
        table.add_row(str(r + 1), *cells)
    return table


def grid_legend(grid) -> Text:
    """The suits' short names, then where the grid's Allies are (``*`` in ``grid_table``)."""
    allies = [(cell_name((r, c)), card) for r, row in enumerate(grid)
              for c, card in enumerate(row) if card in ALLY_SUIT]
    text = ", ".join(f"{ABBREV[s]} {s}" for s in SUITS)
    if allies:
        text += "; * an Ally: " + ", ".join(f"{card} at {cell}" for cell, card in allies)
    return Text(text, style="dim")


def patterns_view(position, found, forced: bool) -> Group:
    """The grid, then each placement (kind, suit, cells, the cells to take, the prop)."""
    grid = position.grid
    exact = [p for p in found if p.prop is None]
    propped = [p for p in found if p.prop is not None]
    parts: list = [Text("Clue grid (columns a-d, rows 1-4 from the top)", style="bold"),
                   grid_table(grid), grid_legend(grid), Text("")]
    if forced:
        parts.append(Text("Mind Palace is forced: no exact and no propped pattern.",
                          style="bold red"))
        return Group(*parts)
    parts.append(Text(f"{len(found)} patterns: {len(exact)} exact (take any of the 4), "
                      f"{len(propped)} propped (cover the prop cell with a pool card, take "
                      "one of the other 3). Mind Palace is not forced."))
    table = Table(title_justify="left", show_lines=True)
    for name in ("Pattern", "Suit", "Map", "Take", "Prop"):
        table.add_column(name, no_wrap=True)
    for p in exact + propped:
        take = " ".join(cell_name(c) + ("*" if grid[c[0]][c[1]] in ALLY_SUIT else "")
                        for c in sorted(p.take))
        prop = Text("-") if p.prop is None else Text.assemble(
            f"{cell_name(p.prop)} ", "(", clue_text(grid[p.prop[0]][p.prop[1]]), ")")
        table.add_row(KIND_WORDS[p.kind], clue_text(p.suit, short=False), pattern_map(p),
                      take, prop)
    parts.append(table)
    parts.append(Text(f"Map: {MAP_TAKE} a card you may take, {MAP_PROP} the prop cell "
                      f"(covered by a pool card, it stays), {MAP_OFF} not in the pattern.",
                      style="dim"))
    return Group(*parts)


MAP_TAKE, MAP_PROP, MAP_OFF = "T", "P", "·"


def pattern_map(placement) -> Text:
    """The placement drawn on a 4x4 map, one line per grid row: ``T`` a cell to take,
    ``P`` the prop cell, ``·`` a cell outside the pattern.

    >>> from deduce.models.deductions.patterns import placements
    >>> grid = [["Writings"] * 3 + ["Knowledge"]] + [[None] * 4] * 3
    >>> print(pattern_map(next(p for p in placements(grid) if p.kind == "row")))
    TTTP
    ····
    ····
    ····
    """
    take, size = set(placement.take), len(COLUMNS)
    lines = []
    for r in range(size):
        lines.append("".join(MAP_TAKE if (r, c) in take else MAP_PROP if (r, c) == placement.prop
                             else MAP_OFF for c in range(size)))
    return Text("\n".join(lines))


# ----------------------------------------------------------------------------- paying
def _case_title(position, case_id: str) -> Text:
    card = position.cards.by_id[case_id]
    return styled(f"[bold]{esc(card.name)}[/] ({esc(card.id)}): {_kind_word(card.kind)}, "
                  f"{CASE_TITLES[card.case]}, {card.category}, {card.points} point"
                  f"{'s' if card.points != 1 else ''}")


def pay_view(position, result: dict, player: str | None = None) -> Group:
    """``player``'s payment (``knowledge.pay_json``; default: ``position.me``): the due,
    each use in words, the pool after; or what it is short by."""
    card = position.cards.by_id[result["case"]]
    player = position.me if player is None else player
    discounts = [s.discount for s in position.solved[player]]
    parts: list = [_case_title(position, card.id),
                   Text.assemble("Cost: ", _count_words(card.cost_dict())),
                   Text(literal(f"Due after {player}'s {len(discounts)} discount"
                                f"{'s' if len(discounts) != 1 else ''}: "
                                f"{_count_words(result['due'])}"))]
    pool = list(position.pools[player])
    parts.append(Text(literal(f"{player}'s pool ({len(pool)}): {', '.join(pool) or 'empty'}")))
    if result["affordable"]:
        n = result["cards_spent"]
        parts.append(Text(f"Affordable, spending {n} card{'s' if n != 1 else ''}:",
                          style="bold green"))
        parts += [Text(f"  {use_words(u['cards'], u['as'])}") for u in result["payment"]]
        after = result["pool_after"]
        parts.append(Text(f"Pool after: {', '.join(after) or 'empty'} ({len(after)})"))
        if any(WATSON in u["cards"] for u in result["payment"]):
            parts.append(Text(f"Spending {WATSON} draws 1 clue into the pool.", style="dim"))
    else:
        k = result["short_by"]
        parts.append(Text(f"Not affordable: short by {k} clue card{'s' if k != 1 else ''} "
                          "(of the suits you like).", style="bold red"))
    return Group(*parts)


#: how to ask for one case's payment, said under ``pay_all_view``'s table
PAY_ONE = "deduce deductions pay POSITION CASE"


def pay_all_view(position, result: dict, player: str | None = None,
                 pay_one: str = PAY_ONE) -> Group:
    """Every case within ``player``'s reach (``knowledge.pay_all_json``; default:
    ``position.me``), ranked, one row each; ``pay_one`` says how to ask for one case's
    payment (the live table: ``pay CASE``)."""
    player = position.me if player is None else player
    table = Table(title=literal(f"Cases within {player}'s reach, best first"),
                  title_justify="left")
    for name, opts in (("#", {"justify": "right"}), ("Case", {"overflow": "fold"}),
                       ("Kind", {}), ("Pts", {"justify": "right"}),
                       ("Due", {"no_wrap": True}), ("Pay", {})):
        table.add_column(name, **opts)
    for i, r in enumerate(result["cases"], 1):
        card = position.cards.by_id[r["case"]]
        name = Text(literal(card.id))
        if card.id == position.reserved[player]:
            name.append("\nreserved", style="dim")
        if r["affordable"]:
            n = r["cards_spent"]
            status = Text(f"{n} card{'s' if n != 1 else ''}", style="green")
        else:
            status = Text(f"short {r['short_by']}", style="red")
        table.add_row(str(i), name, "Solution" if card.kind == SOLUTION else "Herring",
                      str(card.points), _cost_text(r["due"]), status)
    return Group(table, Text(f"short N: N more clue cards needed. {pay_one}: the payment "
                             "of one case.", style="dim"))


# ----------------------------------------------------------------------------- milestones
def _lack_words(milestone: str, lack) -> str:
    """What a milestone lacks, in words: the missing categories, or per case (closest
    first) how many more of its cards."""
    if milestone == "diversity":
        return "lacks nothing" if not lack else "lacks " + ", ".join(lack)
    near = sorted(lack.items(), key=lambda kv: kv[1])
    return "lacks " + ", ".join(f"{n} more of {c}" if i == 0 else f"{n} of {c}"
                                for i, (c, n) in enumerate(near))


def milestones_view(position, report: dict) -> Group:
    """Claimed, claimable (the cards to commit), the bonus reachable; what each open
    milestone lacks; which cases within reach complete one."""
    data = report["json"]
    player = data["player"]
    parts: list = [styled(f"[bold]Milestones of {esc(player)}[/]: {len(data['claimed'])} "
                          f"claimed, most bonus reachable now {data['max_bonus']} points "
                          f"({MILESTONE_SIZE} solved cards each, a card serves one)")]
    for m, ids in data["claimed"].items():
        parts.append(Text(literal(f"  {MILESTONE_WORDS[m]}: claimed with {', '.join(ids)}")))
    for m, ids in data["claimable"].items():
        parts.append(Text(literal(f"  {MILESTONE_WORDS[m]}: claimable now, commit "
                                  f"{', '.join(ids)}"), style="bold green"))
    for m, lack in report["lacks"].items():
        if m not in data["claimable"]:
            parts.append(Text(f"  {MILESTONE_WORDS[m]}: {_lack_words(m, lack)}"))
    if report["completes"]:
        parts.append(Text("Solving one of these would complete a milestone:"))
        for case_id, ms in report["completes"].items():
            card = position.cards.by_id[case_id]
            parts.append(Text(literal(f"  {card.id} ({card.name}): "
                                      + ", ".join(MILESTONE_WORDS[m] for m in ms))))
    elif report["lacks"]:
        parts.append(Text(literal(f"No case within {player}'s reach completes a milestone."),
                          style="dim"))
    return Group(*parts)


# ----------------------------------------------------------------------------- odds
def mind_palace_table(position, chances: dict[str, dict[str, float]]) -> Table:
    """Per line, the chance of each suit from a Mind Palace there, and its Allies."""
    from deduce.models.deductions.knowledge import line_allies, lines

    cells = lines(position)
    table = Table(title="Mind Palace: one of the line's cards at random to your pool, the "
                  "others discarded", title_justify="left")
    table.add_column("Line")
    for s in SUITS:
        table.add_column(Text(ABBREV[s], style=COLOUR[s]), justify="right")
    table.add_column("Ally on it")
    for name, ch in chances.items():
        table.add_row(name, *[_pct(ch[s]) if ch[s] else Text("-", style="dim") for s in SUITS],
                      ", ".join(line_allies(cells[name])) or "-")
    return table


def odds_view(position, result: dict) -> Group:
    """The deck per suit, the Allies in it, each Mind Palace line, the unseen piles."""
    from deduce.models.deductions.knowledge import unseen_cases

    n = result["deck"]
    title = f"Clue deck: {n} card{'s' if n != 1 else ''} (face down, any order)"
    table = Table(title=title, title_justify="left", min_width=len(title))
    table.add_column("Suit")
    table.add_column("Left", justify="right")
    table.add_column("Next draw", justify="right")
    for s, v in result["suits"].items():
        table.add_row(Text(s, style=COLOUR[s]), str(v["left"]), _pct(v["p_next"]))
    allies = result["allies"]
    parts: list = [table, Text(f"Allies in the deck: {', '.join(allies) or 'none'} "
                               "(each suit's count above includes its Ally)")]
    if n == 0:
        parts.append(Text("The deck is empty: the next draw shuffles the discard pile into "
                          "a new deck.", style="dim"))
    parts.append(mind_palace_table(position, result["mind_palace"]))
    piles = unseen_cases(position)
    parts.append(Text(f"Below the case pile tops (unseen): {len(piles['solutions'])} "
                      f"{_kind_word(SOLUTION, True)}, {len(piles['red_herrings'])} Red Herrings"))
    return Group(*parts)


# ----------------------------------------------------------------------------- advice
def advice_view(advice, top: int | None = None) -> Group:
    """The ranked actions (``advice.Advice``; the first ``top`` of them, all by default)
    with their estimated chance to win, its standard error and the rollouts, then in
    words why the best one is best."""
    table = Table()
    for name, justify in (("#", "right"), ("Action", "left"), ("Chance to win", "right"),
                          ("± s.e.", "right"), ("Rollouts", "right")):
        table.add_column(name, justify=justify)
    shown = advice.estimates if top is None else advice.estimates[:top]
    for i, e in enumerate(shown, start=1):
        table.add_row(str(i), literal(e.words), f"{100 * e.p_win:.1f}%",
                      f"{100 * e.stderr:.1f}", str(e.rollouts))
    parts: list = [table]
    if top is not None and len(advice.estimates) > top:
        parts.append(Text(f"({len(advice.estimates) - top} more: deduce deductions advise "
                          "lists them all)", style="dim"))
    parts.append(styled(f"[bold]Best:[/] {esc(advice.why)}"))
    return Group(*parts)
