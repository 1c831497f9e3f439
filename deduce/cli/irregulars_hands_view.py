"""Rendering of ``deduce irregulars hands`` (rich tables; names shown literally)."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from deduce.cli.common import literal

#: a holding with at most this many possible cards lists them one by one
LIST_UP_TO = 8


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _possible(holding) -> Text:
    from deduce.models.irregulars.cards import DECK_NUMERALS

    if not holding.possible:
        return Text("-")
    if len(holding.possible) <= LIST_UP_TO:
        return Text("\n".join(f"{c} {_pct(float(p))}" for c, p in holding.possible.items()))
    lines = []
    for row in holding.by_deck():
        each = "" if row["p_each"] is None else f", {_pct(row['p_each'])} each"
        lines.append(f"deck {DECK_NUMERALS[row['deck']]}: {row['cards']} cards{each} "
                     f"(~{row['expected']:.2f})")
    return Text("\n".join(lines))


def hands_view(position, knowledge) -> Group:
    """A table of holders x (cards, held for sure, may hold), then the decks."""
    k = knowledge
    by_id = position.cards.evidence_by_id
    stage = (f"deal {k.deal}, cycle {k.cycle}" if position.solo
             else f"round {k.deal}, cycle {k.cycle}")
    title = literal(f"What the others hold: {k.me}'s view, {stage}, {k.phase} "
                    f"(hands pass {k.direction})")
    table = Table(title=title, title_justify="left", show_lines=True)
    table.add_column("Holder")
    table.add_column("Cards", justify="right")
    table.add_column("Held for sure")
    table.add_column("May hold (chance)")
    for h in k.holdings:
        sure = "\n".join(f"{c} {by_id[c].name}" for c in h.certain) or "-"
        table.add_row(literal(h.holder), str(h.cards), literal(sure), _possible(h))
    decks = Table(title="Evidence decks", title_justify="left")
    for name, justify in (("Deck", "left"), ("Unseen cards", "right"),
                          ("In the hands unseen", "right"), ("Left in the deck", "right")):
        decks.add_column(name, justify=justify)
    for d in k.decks:
        decks.add_row(d.to_json()["numeral"], str(len(d.unseen)), str(d.in_deal), str(d.in_deck))
    note = Text(f"{k.worlds:,} equally likely completion{'s' if k.worlds != 1 else ''} of the "
                "deal fit what you saw." if k.worlds != 1 else
                "Every hand of the deal is known: one completion fits what you saw.")
    return Group(table, decks, note)
