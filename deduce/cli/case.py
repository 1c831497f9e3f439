"""``deduce case``: case notes (The Lost Diaries) and logic-grid puzzles as SAT models.

Every command takes CASE: a path to a case file (TOML, ../shared/specs/case-notes.md) or
the name of a shipped case (``deduce case list``; file stem or title, unambiguous
abbreviations allowed). Exit codes: 0 ok, 2 bad input (file, note number, column, closest
names), 3 contradictory notes (a minimal conflicting set of notes).

JSON shapes (``--json``; only JSON on stdout):

- ``list``: ``[{"name", "title", "size": "4x5", "categories", "items", "notes",
  "questions", "sources"}]``.
- ``solve``: the spec's ``{"status", "solutions", "answers", "grid"}`` (see
  ``deduce.models.casenotes.solve``).
- ``why``: ``{"rule", "status": "forced"|"impossible", "notes": [i], "note_texts": [...],
  "axioms": [...]}`` or ``{"rule", "status": "open", "holds_in": solution, "fails_in":
  solution}`` with solution ``{"grid": [...], "attributes": {...}, "unknowns": {...}}``.
- ``check``: ``{"unique", "solutions", "solution_matches", "redundant_notes",
  "minimal_sources", ...}`` (see ``deduce.models.casenotes.check``).
"""

from __future__ import annotations

import click

from deduce.cli.common import out, print_json, reports_errors

_CASE = click.argument("case_arg", metavar="CASE")
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON only.")


@click.group()
def case() -> None:
    """Case notes: solve a case file, say why a fact holds, check a setter's case.

    CASE is a case file (TOML) or a shipped case's name (see `deduce case list`).

    \b
    Examples:
      deduce case list
      deduce case solve lantern-street
      deduce case solve zebra --json
      deduce case why zebra "Japanese == zebra"
      deduce case why lantern-street "boots(culprit) == 'muddy'" --json
      deduce case check lantern-street
    """


@case.command(name="list")
@_JSON
@reports_errors
def list_cases(as_json: bool) -> None:
    """The shipped cases: name, title, size, notes and questions.

    \b
    Example:
      deduce case list --json
    """
    from deduce.models.casenotes.format import load_case, shipped_cases

    rows = []
    for path in shipped_cases():
        c = load_case(str(path))
        m, n = len(c.schema.categories), c.schema.size
        rows.append({"name": c.name, "title": c.title, "size": f"{m}x{n}", "categories": m,
                     "items": n, "notes": len(c.notes), "questions": len(c.questions),
                     "sources": len(c.sources)})
    if as_json:
        print_json(rows)
        return
    from rich.table import Table

    t = Table(title="Shipped cases")
    for col in ("name", "title", "size", "notes", "questions", "sources"):
        t.add_column(col, justify="right" if col in ("notes", "questions", "sources") else "left")
    for r in rows:
        t.add_row(r["name"], r["title"], r["size"], str(r["notes"]), str(r["questions"]),
                  str(r["sources"]))
    out.print(t)


@case.command()
@_CASE
@_JSON
@reports_errors
def solve(case_arg: str, as_json: bool) -> None:
    """Status, number of solutions, every possible answer, and the grid when unique.

    JSON: {"status": "unique"|"multiple", "solutions": n, "answers": {question:
    {"possible": [...]}}, "grid": [rows in key order]} ("grid" only when the grid is the
    same in every solution; "solutions_at_least": true when n is a lower bound, past
    10,000). Contradictory notes: exit 3, a minimal set of conflicting notes.

    \b
    Examples:
      deduce case solve zebra
      deduce case solve my-case.toml --json
    """
    from deduce.models.casenotes.format import load_case
    from deduce.models.casenotes.solve import solve_case

    c = load_case(case_arg)
    result = solve_case(c, cells=not as_json)
    if as_json:
        print_json(result.to_json())
        return
    _print_solve(c, result)


def _esc(text) -> str:
    from rich.markup import escape

    return escape(str(text))


def _fmt(values: list) -> str:
    return _esc(" / ".join(map(str, values)))


def _cell(values: list) -> str:
    """A solved value in bold green, else the possible values dimmed."""
    return f"[bold green]{_esc(values[0])}[/]" if len(values) == 1 else f"[dim]{_fmt(values)}[/]"


def _print_solve(c, result) -> None:
    from rich.table import Table

    s = c.schema
    count = f"{'at least ' if not result.exact else ''}{result.solutions:,}"
    plural = "s" if result.solutions != 1 or not result.exact else ""
    out.print(f"[bold]{_esc(c.title)}[/]: [bold]{result.status}[/] ({count} solution{plural})")
    cells = dict(zip(result.cell_names, result.cells))
    key = s.key.name
    grid = Table(title="Grid (bold: solved)", show_lines=False)
    for name in s.categories:
        grid.add_column(name)
    for r, item in enumerate(s.key.items):
        row = [f"[bold]{_esc(item)}[/]"]
        for cat in s.cat_names[1:]:
            row.append(_cell(cells[f"{cat}({s.ref(key, r)})"]))
        grid.add_row(*row)
    out.print(grid)
    if s.attributes:
        t = Table(title="Attributes")
        t.add_column("attribute")
        t.add_column("item")
        t.add_column("value")
        for a in s.attributes.values():
            for i, item in enumerate(s.categories[a.of].items):
                t.add_row(a.name, _esc(item), _cell(cells[f"{a.name}({s.ref(a.of, i)})"]))
        out.print(t)
    if c.questions:
        t = Table(title="Questions")
        t.add_column("question")
        t.add_column("answer")
        for q, vals in zip(c.questions, result.answers):
            t.add_row(_esc(q.text), _cell(vals) if len(vals) == 1
                      else f"one of: {_esc(', '.join(map(str, vals)))}")
        out.print(t)


@case.command()
@_CASE
@click.argument("rule")
@_JSON
@reports_errors
def why(case_arg: str, rule: str, as_json: bool) -> None:
    """Whether RULE holds in every solution, in none, or in some, and why.

    Forced or impossible: a minimal set of notes and grid axioms (bijection,
    transitivity, one-value) that forces it or rules it out. Open: one solution where it
    holds and one where it fails.

    JSON: {"rule", "status": "forced"|"impossible", "notes": [i, ...], "note_texts":
    [...], "axioms": [...]} or {"rule", "status": "open", "holds_in": {"grid", "attributes",
    "unknowns"}, "fails_in": {...}}.

    \b
    Examples:
      deduce case why zebra "Norwegian == water"
      deduce case why zebra "house(zebra) < 3" --json
    """
    from deduce.models.casenotes.format import load_case
    from deduce.models.casenotes.why import why_rule

    c = load_case(case_arg)
    result = why_rule(c, rule)
    if as_json:
        print_json(result.to_json())
        return
    from deduce.models.casenotes.model import AXIOM_TEXT

    if result.status == "open":
        out.print(f"[bold]{_esc(rule)}[/] is [bold]open[/]: it holds in some solutions and not in "
                  f"others.")
        _print_solution("A solution where it holds", result.holds_in)
        _print_solution("A solution where it fails", result.fails_in)
        return
    verb = "holds in every solution" if result.status == "forced" else "holds in no solution"
    out.print(f"[bold]{_esc(rule)}[/] is [bold]{result.status}[/]: it {verb}, because of")
    for i in result.notes:
        out.print("  " + c.notes[i].describe(), markup=False)
    for k in result.axioms:
        out.print(f"  axiom {k}: {AXIOM_TEXT[k]}", markup=False)
    if not result.notes and not result.axioms:
        out.print("  nothing: it is true (or false) whatever the grid", markup=False)


def _print_solution(title: str, sol: dict) -> None:
    from rich.table import Table

    t = Table(title=title)
    for k in sol["grid"][0]:
        t.add_column(k)
    for row in sol["grid"]:
        t.add_row(*(_esc(v) for v in row.values()))
    out.print(t)
    extra = [f"{a}: " + ", ".join(f"{i} {v}" for i, v in vals.items())
             for a, vals in sol["attributes"].items()]
    extra += [f"{u} = {v}" for u, v in sol["unknowns"].items()]
    for line in extra:
        out.print("  " + line, markup=False)


@case.command()
@_CASE
@_JSON
@reports_errors
def check(case_arg: str, as_json: bool) -> None:
    """Setter checks: uniqueness, [solution], redundant notes, the fewest sources to visit.

    JSON: {"unique", "solutions", "solution_matches", "redundant_notes", "minimal_sources"},
    with "witnesses" (two solutions) and "differences" ([{"cell", "values"}]) when not
    unique, "solution_mismatches" when [solution] disagrees, "minimal_sources_reason"
    when no set of sources fixes every answer. (The difficulty profile comes with
    `explain`.)

    \b
    Examples:
      deduce case check lantern-street
      deduce case check my-case.toml --json
    """
    from deduce.models.casenotes.check import check_case
    from deduce.models.casenotes.format import load_case

    c = load_case(case_arg)
    report = check_case(c)
    if as_json:
        print_json(report.to_json())
        return
    ok, bad = "[green]yes[/]", "[red]no[/]"
    count = f"{'at least ' if not report.exact else ''}{report.solutions:,}"
    out.print(f"[bold]{_esc(c.title)}[/]")
    plural = "s" if report.solutions != 1 or not report.exact else ""
    out.print(f"  unique solution: {ok if report.unique else bad} ({count} solution{plural})")
    for d in report.differences:
        out.print(f"    {d['cell']}: {d['values'][0]} or {d['values'][1]}", markup=False)
    if report.solution_matches is None:
        out.print("  [solution]: none given", markup=False)
    else:
        out.print(f"  matches \\[solution]: {ok if report.solution_matches else bad}")
        for m in report.solution_mismatches:
            out.print(f"    {m['cell']}: expected {m['expected']}, possible "
                      f"{', '.join(map(str, m['possible'])) or 'nothing'}", markup=False)
    if report.redundant_notes:
        out.print(f"  redundant notes (each implied by the others): "
                  f"{', '.join(map(str, report.redundant_notes))}", markup=False)
        for i in report.redundant_notes:
            out.print("    " + c.notes[i].describe(), markup=False)
    else:
        out.print("  redundant notes: none", markup=False)
    if report.minimal_sources is None:
        out.print(f"  minimal sources: none ({report.minimal_sources_reason})", markup=False)
    else:
        out.print(f"  fewest sources to answer every question: {len(report.minimal_sources)}",
                  markup=False)
        for src in report.minimal_sources:
            out.print(f"    {src}", markup=False)
