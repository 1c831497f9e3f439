"""Rich rendering for Baker Street Irregulars: a card set, the arrest answer and plan,
solo Holmes's arrest and the score. User text (player names, ids, names and titles of a
user's set) is shown literally: plain strings go through the literal console, our own
markup through ``esc``.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from deduce.cli.common import esc, literal, styled
from deduce.models.irregulars.cards import DECK_NUMERALS, DECKS, EFFECTS

COLOUR_STYLE = {"red": "red", "blue": "blue", "gold": "yellow", "silver": "white",
                "black": "bright_black"}
USE_WORDS = {"tail": "your tail", "holmes": "the Holmes board's ignore"}


def _icons(icons) -> str:
    return " ".join(icons) or "-"


def _ids(cards) -> str:
    return ", ".join(c.id for c in cards) or "-"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ----------------------------------------------------------------------------- cards
def card_set_view(card_set) -> Group:
    """The Evidence by deck, the Villains, the Inspectors, the Plot Twists, the track."""
    parts: list = [styled(f"[bold]{esc(card_set.title)}[/]: {len(card_set.evidence)} "
                          f"Evidence in {len(DECKS)} decks, {len(card_set.villains)} "
                          f"Villains, {len(card_set.inspectors)} Inspectors, "
                          f"{len(card_set.plot_twists)} Plot Twists")]
    for deck in DECKS:
        table = Table(title=f"Deck {DECK_NUMERALS[deck]}", title_justify="left")
        for name, opts in (("Id", {"no_wrap": True}), ("Name", {"ratio": 1, "overflow": "fold"}),
                           ("Type", {}), ("Colour", {}), ("Cost", {"justify": "right"}),
                           ("Story", {}), ("Icons", {})):
            table.add_column(name, **opts)
        for c in card_set.deck(deck):
            table.add_row(c.id, c.name, c.type, Text(c.colour, style=COLOUR_STYLE[c.colour]),
                          str(c.cost), c.story, _icons(c.icons))
        parts.append(table)
    table = Table(title="Villains", title_justify="left")
    for name, opts in (("Id", {"no_wrap": True}), ("Name", {"ratio": 1, "overflow": "fold"}),
                       ("Icons", {"ratio": 1}), ("Pts", {"justify": "right"})):
        table.add_column(name, **opts)
    for v in card_set.villains:
        table.add_row(v.id, v.name, _icons(v.icons), str(v.points))
    parts.append(table)
    table = Table(title="Inspectors (end-game objectives: the best one scores)",
                  title_justify="left", show_lines=True)
    for name, opts in (("Id", {"no_wrap": True}), ("Name", {"overflow": "fold"}),
                       ("Objectives", {"ratio": 1})):
        table.add_column(name, **opts)
    for i in card_set.inspectors:
        table.add_row(i.id, i.name, "\n".join(o.words() for o in i.objectives))
    parts.append(table)
    table = Table(title="Plot Twists", title_justify="left")
    for name, opts in (("Id", {"no_wrap": True}), ("Name", {"overflow": "fold"}),
                       ("Effect", {"ratio": 1})):
        table.add_column(name, **opts)
    for t in card_set.plot_twists:
        table.add_row(t.id, t.name, Text.assemble((t.effect, "bold"), "\n", EFFECTS[t.effect]))
    parts.append(table)
    table = Table(title="Solo Holmes Track (one space a cycle; a numeral: Holmes draws from "
                  "that deck)", title_justify="left", padding=(0, 0))
    for k in range(len(card_set.holmes_track)):
        table.add_column(str(k + 1), justify="center", min_width=3)
    table.add_row(*[DECK_NUMERALS.get(d, "·") for d in card_set.holmes_track])
    parts.append(table)
    return Group(*parts)


# ----------------------------------------------------------------------------- arrest
def arrest_table(options, title: str) -> Table:
    """One row per visible Villain: its points and icons, whether it can be arrested, the
    cards, what they use, the icons missing."""
    table = Table(title=title, title_justify="left")
    for name, opts in (("Villain", {"overflow": "fold", "ratio": 1}),
                       ("Pts", {"justify": "right"}), ("Icons", {"ratio": 1}),
                       ("Arrest", {}), ("Cards", {}), ("Uses", {}), ("Missing", {})):
        table.add_column(name, **opts)
    for a in options:
        v = a.villain
        table.add_row(Text.assemble(Text(literal(v.id), style="bold"), "\n", literal(v.name)),
                      str(v.points), _icons(v.icons),
                      Text("yes", style="green") if a.arrestable else Text("no", style="red"),
                      _ids(a.cards), ", ".join(a.uses) or "-", _icons(a.missing))
    return table


def _uses_words(uses) -> str:
    return (" using " + " and ".join(USE_WORDS[u] for u in uses)) if uses else ""


def arrest_view(position, player: str, options, best: str | None) -> Group:
    """The table, then the best arrest in words."""
    n = len(position.unused(player))
    table = arrest_table(options, literal(f"What {player} can arrest now ("
                                          f"{_plural(n, 'unused Evidence card')})"))
    if best is None:
        words = Text(literal(f"{player} can arrest no visible Villain now."), style="bold")
    else:
        a = next(o for o in options if o.villain.id == best)
        words = styled(f"[bold]Best:[/] arrest {esc(a.villain.id)} {esc(a.villain.name)} "
                       f"({_plural(a.villain.points, 'point')}) with "
                       f"{esc(_ids(a.cards))} ({_plural(len(a.cards), 'card')})"
                       f"{_uses_words(a.uses)}.")
    return Group(table, words)


def plan_view(position, plan) -> Group:
    """The planned arrests in order, the points, and what is not planned."""
    head = styled(f"[bold]Plan for {esc(plan.player)}:[/] {_plural(plan.points, 'point')} in "
                  f"{_plural(len(plan.arrests), 'arrest')} ({_plural(plan.cards_used, 'card')})"
                  f", {_plural(plan.phases_left, 'Arrest Phase')} left")
    parts: list = [head]
    if plan.arrests:
        table = Table(title_justify="left")
        for name, opts in (("#", {"justify": "right"}), ("Villain", {"overflow": "fold"}),
                           ("Pts", {"justify": "right"}), ("Cards", {}), ("Uses", {})):
            table.add_column(name, **opts)
        for i, a in enumerate(plan.arrests, 1):
            table.add_row(str(i), f"{a.villain.id} {a.villain.name}", str(a.villain.points),
                          _ids(a.cards), ", ".join(a.uses) or "-")
        parts.append(table)
    else:
        parts.append(Text("No arrest is possible with the unused Evidence now."))
    parts.append(Text("At most one arrest an Arrest Phase, each card once, among the Villains "
                      "visible now. The Villains that refill the row, the cards still to "
                      "draft, future tails and the others' arrests are unknown and not "
                      "planned.", style="dim"))
    return Group(*parts)


# ----------------------------------------------------------------------------- holmes
def holmes_view(position, result: dict, options) -> Group:
    """Holmes's options (tailing every Villain), then his choice in words."""
    table = arrest_table(options, "Holmes, as if tailing every Villain")
    if result["arrest"] is None:
        words = Text("Holmes arrests nothing this cycle.", style="bold")
    else:
        v = position.cards.villain_by_id[result["arrest"]]
        words = styled(f"[bold]Holmes arrests[/] {esc(v.id)} {esc(v.name)} "
                       f"({_plural(v.points, 'point')}) with {esc(', '.join(result['cards']))}"
                       " (most points, then fewest cards, then first in the row).")
    return Group(table, words)


# ----------------------------------------------------------------------------- score
def score_view(position, result: dict) -> Group:
    """A table of the players, then my objectives in words with their values."""
    table = Table(title="Score", title_justify="left")
    for name, opts in (("Player", {"overflow": "fold"}), ("Villains", {"justify": "right"}),
                       ("Best objective", {"justify": "right"}), ("Total", {"justify": "right"})):
        table.add_column(name, **opts)
    for p in result["players"]:
        best = "?" if p["best"] is None else str(p["objectives"][p["best"]])
        if p["objectives"] is None and p["total"] is not None:
            best = "-"
        table.add_row(p["name"], str(p["villain_points"]), best,
                      "?" if p["total"] is None else str(p["total"]))
    me = next(p for p in result["players"] if p["name"] == position.me)
    inspector = position.cards.inspector_by_id[position.inspector]
    mine = Table(title=literal(f"{position.me}'s objectives ({inspector.name}), over all "
                               f"{len(position.owned(position.me))} Evidence owned"),
                 title_justify="left")
    for name, opts in (("#", {"justify": "right"}), ("Objective", {"ratio": 1}),
                       ("Value", {"justify": "right"})):
        mine.add_column(name, **opts)
    for i, (o, value) in enumerate(zip(inspector.objectives, me["objectives"])):
        mark = Text(" best", style="bold green") if i == me["best"] else ""
        mine.add_row(str(i + 1), o.words(), Text.assemble(str(value), mark))
    note = Text("?: hidden (another player's Inspector).", style="dim")
    return Group(table, mine, note)
