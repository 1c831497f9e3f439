"""Rendering of ``deduce irregulars advise`` for a person: the ranked choices in a rich
table and, in words, why the best is best."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table

from deduce.cli.common import esc, literal, styled


def advice_view(advice) -> Group:
    """The ranked choices (``advice.Advice``) with their estimated chance to win, its
    standard error and the rollouts, then why the best one is best."""
    table = Table()
    for name, justify in (("#", "right"), ("Choice", "left"), ("Chance to win", "right"),
                          ("± s.e.", "right"), ("Rollouts", "right")):
        table.add_column(name, justify=justify)
    for i, e in enumerate(advice.estimates, start=1):
        table.add_row(str(i), esc(literal(e.words)), f"{100 * e.p_win:.1f}%",
                      f"{100 * e.stderr:.1f}", str(e.rollouts))
    return Group(table, styled(f"[bold]Best:[/] {esc(literal(advice.why))}"))
