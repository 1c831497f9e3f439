"""Rich rendering for Sherlock 13: an analysis (clue sheet, criminal distribution, advice)
and a self-play report."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from deduce.cli.common import literal
from deduce.models.sherlock13.advice import Analysis, accuse_advice, no_turn_reason
from deduce.models.sherlock13.cards import SUSPECT_ICONS, SUSPECTS


def _cell(p: float) -> Text:
    if p >= 1 - 1e-12:
        return Text("✔ 100%", style="bold green")
    if p <= 1e-12:
        return Text("✗", style="dim")
    return Text(f"{100 * p:.0f}%" if p >= 0.005 else "<1%")


def clue_sheet(a: Analysis) -> Table:
    """Suspects x places: my hand, each other player (now), face-down sides, the criminal."""
    rec = a.record
    table = Table(title="Clue sheet (probability that each place holds the card)", title_justify="left")
    table.add_column("Suspect")
    table.add_column("Icons", style="dim")
    mine = set(rec.my_current_hand())
    holders = a.holder_probs()
    face_down = a.face_down_probs()
    for s, name in enumerate(rec.names):
        table.add_column(f"{name} (me)" if s == rec.me else name, justify="center")
    for side in face_down:
        table.add_column(f"{side} (face down)", justify="center")
    table.add_column("Criminal", justify="center", style="bold")
    crim = a.criminal_probs()
    for c, suspect in enumerate(SUSPECTS):
        row = [suspect, ", ".join(SUSPECT_ICONS[suspect])]
        for s in range(rec.n):
            row.append(Text("✔ mine", style="bold cyan") if s == rec.me and c in mine
                       else Text("✗", style="dim") if s == rec.me else _cell(holders[s][c]))
        row += [_cell(p[c]) for p in face_down.values()]
        row.append(_cell(crim[c]))
        table.add_row(*row)
    return table


def criminal_table(a: Analysis) -> Table:
    title = f"Criminal ({a.total:,} consistent worlds, {a.entropy():.2f} bits left)"
    table = Table(title=title, title_justify="left", min_width=len(title))  # title on one line
    table.add_column("Suspect")
    table.add_column("P", justify="right")
    table.add_column("")
    probs = a.criminal_probs()
    for c in sorted(range(len(SUSPECTS)), key=lambda c: -probs[c]):
        if probs[c] > 0:
            table.add_row(SUSPECTS[c], f"{probs[c]:.3f}", "█" * max(1, round(30 * probs[c])))
    return table


def advice_table(a: Analysis, top: int = 5) -> Table | Text:
    if not a.suggestions:
        reason = no_turn_reason(a) or "no question is legal"
        return Text(literal(f"No questions: I have no next turn ({reason})."), style="dim")
    table = Table(title=f"Best questions for {a.record.names[a.record.me]}'s next turn",
                  title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Question")
    table.add_column("Expected bits", justify="right")
    for i, s in enumerate(a.suggestions[:top], 1):
        table.add_row(str(i), s.text(a.record.names), f"{s.expected_bits:.3f}")
    return table


def accuse_text(a: Analysis) -> Text | None:
    """Whether to accuse on my next turn (``advice.accuse_advice``); None when I have no
    next turn."""
    advice = accuse_advice(a)
    if advice is None:
        return None
    text, certain = advice
    return Text(text, style="bold green" if certain else "yellow")


def full_view(a: Analysis) -> Group:
    """The clue sheet, the criminal distribution, the best questions and the accuse advice
    (no advice when I have no next turn)."""
    parts = [clue_sheet(a), criminal_table(a), advice_table(a), accuse_text(a)]
    return Group(*[p for p in parts if p is not None])


def compact_view(a: Analysis, top: int = 5) -> Text:
    """One or two lines: the criminal distribution's head and the best question."""
    probs = a.criminal_probs()
    order = [c for c in sorted(range(len(SUSPECTS)), key=lambda c: -probs[c]) if probs[c] > 0]
    head = ", ".join(f"{SUSPECTS[c]} {probs[c]:.2f}" for c in order[:top])
    more = f" (+{len(order) - top} more)" if len(order) > top else ""
    text = Text(f"{a.total:,} worlds; criminal: {head}{more}")
    if a.suggestions:
        text.append(literal(f"\nbest question: {a.suggestions[0].text(a.record.names)} "
                            f"({a.suggestions[0].expected_bits:.2f} bits)"), style="cyan")
    return text


def selfplay_table(report) -> Table:
    """One row per line-up position of a self-play ``core.selfplay.Report``."""
    m = report.match
    table = Table(title=f"Sherlock 13 self-play: {m.games} games, {m.players} players, "
                        f"{m.variant}, seed {m.seed}", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Bot")
    table.add_column("Win share", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("Mean turns", justify="right")
    table.add_column("Wrong accusations", justify="right")
    for i, r in enumerate(report.rows, start=1):
        table.add_row(str(i), r.name, f"{100 * r.win_share:.1f}%",
                      f"{100 * r.ci95[0]:.1f}% – {100 * r.ci95[1]:.1f}%",
                      f"{r.mean_turns:.2f}", str(r.figures["wrong_accusations"]))
    return table


def selfplay_footer(report) -> str:
    """Where and how long the match ran, and the games nobody won."""
    m = report.match
    where = f"Dask at {m.scheduler}" if m.scheduler else f"{m.workers} worker{'s' * (m.workers != 1)}"
    return (f"{report.elapsed_s:.1f} s on {where}; games without a winner: "
            f"{report.summary.notes['no_winner']}. Mean turns: the bot's own turns per game.")
