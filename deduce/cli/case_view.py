"""How ``deduce case`` shows its results to a person (rich text on ``common.out``).

Every function prints what one command (or one table entry) shows; the commands in
``cli/case.py`` only parse, call the model and hand the result here. Names from a case file
are shown literally (``common.esc`` inside our own markup, plain strings otherwise).
"""

from __future__ import annotations

from deduce.cli.common import esc, out, styled

def print_list(rows: list[dict]) -> None:
    """``deduce case list``: one row per shipped case."""
    from rich.table import Table

    t = Table(title="Shipped cases")
    for col in ("name", "title", "size", "notes", "questions", "sources"):
        t.add_column(col, justify="right" if col in ("notes", "questions", "sources") else "left")
    for r in rows:
        t.add_row(r["name"], r["title"], r["size"], str(r["notes"]), str(r["questions"]),
                  str(r["sources"]))
    out.print(t)


def _fmt(values: list) -> str:
    return esc(" / ".join(map(str, values)))


def _cell(values: list) -> str:
    """A solved value in bold green, else the possible values dimmed."""
    return styled(f"[bold green]{esc(values[0])}[/]" if len(values) == 1
                  else f"[dim]{_fmt(values)}[/]")


def print_solve(c, result) -> None:
    """``deduce case solve``: the status, the grid (solved cells bold), attributes and
    questions."""
    from rich.table import Table

    s = c.schema
    count = f"{'at least ' if not result.exact else ''}{result.solutions:,}"
    plural = "s" if result.solutions != 1 or not result.exact else ""
    out.print(styled(f"[bold]{esc(c.title)}[/]: [bold]{result.status}[/] ({count} "
                     f"solution{plural})"))
    cells = dict(zip(result.cell_names, result.cells))
    key = s.key.name
    grid = Table(title="Grid (bold: solved)", show_lines=False)
    for name in s.categories:
        grid.add_column(name)
    for r, item in enumerate(s.key.items):
        row = [styled(f"[bold]{esc(item)}[/]")]
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
                t.add_row(a.name, str(item), _cell(cells[f"{a.name}({s.ref(a.of, i)})"]))
        out.print(t)
    if c.questions:
        t = Table(title="Questions")
        t.add_column("question")
        t.add_column("answer")
        for q, vals in zip(c.questions, result.answers):
            t.add_row(q.text, _cell(vals) if len(vals) == 1
                      else f"one of: {', '.join(map(str, vals))}")
        out.print(t)


def print_why(c, result) -> None:
    """``deduce case why``: forced or impossible with its minimal reason, or open with a
    solution each way."""
    from deduce.models.casenotes.model import AXIOM_TEXT

    rule = result.rule
    if result.status == "open":
        out.print(styled(f"[bold]{esc(rule)}[/] is [bold]open[/]: it holds in some solutions "
                         "and not in others."))
        print_solution("A solution where it holds", result.holds_in)
        print_solution("A solution where it fails", result.fails_in)
        return
    verb = "holds in every solution" if result.status == "forced" else "holds in no solution"
    out.print(styled(f"[bold]{esc(rule)}[/] is [bold]{result.status}[/]: it {verb}, because of"))
    for i in result.notes:
        out.print("  " + c.notes[i].describe())
    for k in result.axioms:
        out.print(f"  axiom {k}: {AXIOM_TEXT[k]}")
    if not result.notes and not result.axioms:
        out.print("  nothing: it is true (or false) whatever the grid")


def print_solution(title: str, sol: dict) -> None:
    """One complete solution (``model.solution_json``) as a table and a few lines."""
    from rich.table import Table

    t = Table(title=title)
    for k in sol["grid"][0]:
        t.add_column(k)
    for row in sol["grid"]:
        t.add_row(*(str(v) for v in row.values()))
    out.print(t)
    extra = [f"{a}: " + ", ".join(f"{i} {v}" for i, v in vals.items())
             for a, vals in sol["attributes"].items()]
    extra += [f"{u} = {v}" for u, v in sol["unknowns"].items()]
    for line in extra:
        out.print("  " + line)


def print_check(c, report) -> None:
    """``deduce case check``: the setter's report, one check a line."""
    ok, bad = "[green]yes[/]", "[red]no[/]"
    count = f"{'at least ' if not report.exact else ''}{report.solutions:,}"
    out.print(styled(f"[bold]{esc(c.title)}[/]"))
    plural = "s" if report.solutions != 1 or not report.exact else ""
    out.print(styled(f"  unique solution: {ok if report.unique else bad} ({count} "
                     f"solution{plural})"))
    for d in report.differences:
        out.print(f"    {d['cell']}: {d['values'][0]} or {d['values'][1]}")
    if report.solution_matches is None:
        out.print("  [solution]: none given")
    else:
        out.print(styled(f"  matches \\[solution]: {ok if report.solution_matches else bad}"))
        for m in report.solution_mismatches:
            out.print(f"    {m['cell']}: expected {m['expected']}, possible "
                      f"{', '.join(map(str, m['possible'])) or 'nothing'}")
        if not report.unique:
            out.print(styled(f"  \\[solution] is one of the solutions: "
                             f"{ok if report.solution_is_a_solution else bad}"))
    if report.redundant_notes:
        out.print(f"  redundant notes (each implied by the others): "
                  f"{', '.join(map(str, report.redundant_notes))}")
        for i in report.redundant_notes:
            out.print("    " + c.notes[i].describe())
    else:
        out.print("  redundant notes: none")
    if report.minimal_sources is None:
        out.print(f"  minimal sources: none ({report.minimal_sources_reason})")
    else:
        out.print(f"  fewest sources to answer every question: {len(report.minimal_sources)}")
        for src in report.minimal_sources:
            out.print(f"    {src}")
    if report.difficulty is not None:
        out.print("  difficulty: " + profile_text(report.difficulty))


def profile_text(p: dict) -> str:
    """``54 steps, hardest cost 161, 2 steps need two notes or more (total cost 4,210)``."""
    multi = p["multi_note_steps"]
    need = "no step needs" if multi == 0 else f"{multi} step{'s' if multi != 1 else ''} need"
    text = (f"{p['steps']} step{'s' if p['steps'] != 1 else ''}, hardest cost "
            f"{p['hardest_cost']}, {need} two notes or more (total cost {p['total_cost']:,})")
    return text if p["complete"] else text + "; the notes leave cells open"


def print_explanation(c, e) -> None:
    """``deduce case explain``: the numbered steps, the grid after each that changes it,
    and the summary."""
    from deduce.models.casenotes.model import AXIOM_TEXT

    which = "all notes" if e.notes is None else \
        f"notes {', '.join(map(str, e.notes))}" if e.notes else "no notes"
    out.print(styled(f"[bold]{esc(c.title)}[/]: {len(e.steps)} steps from {esc(which)}"))
    out.print(styled("[dim]After each step that changes it, the grid: a solved cell ([/][bold yellow]"
              "yellow[/][dim]: solved by this step), ?n: n values left (?n*: fewer than "
              "before).[/]"))
    for k, step in enumerate(e.steps, start=1):
        out.print(styled(f"\n[bold]Step {k}[/] [dim](cost {step.cost})[/]"))
        for i in step.notes:
            out.print("  " + c.notes[i].describe())
        for a in step.axioms:
            out.print(f"  axiom {a}: {AXIOM_TEXT[a]}")
        if step.facts:
            cited = ", ".join(str(j + 1) for j in step.facts)
            out.print(f"  with step{'s' if len(step.facts) > 1 else ''} {cited}")
        out.print(styled("  [bold]=>[/] " + esc(", ".join(step.texts))))
        before, after = e.candidates(k - 1), e.candidates(k)
        if before != after:
            print_state(c, e.cells, after, before)
    print_explain_summary(e)


def state_cell(values: list, old: list) -> str:
    """A solved value (yellow when solved by this step), else how many values remain."""
    if len(values) == 1:
        style = "bold green" if len(old) == 1 else "bold yellow"
        return f"[{style}]{esc(values[0])}[/]"
    changed = "" if values == old else "*"
    return f"[dim]?{len(values)}{changed}[/]"


def print_state(c, cells, now, old) -> None:
    """The grid (key rows) and, on one line, attributes and unknowns: per cell of
    ``cells`` (``model.cells``) the values ``now`` leaves (those ``old`` left, to mark what
    changed)."""
    from rich import box
    from rich.padding import Padding
    from rich.table import Table

    s = c.schema
    by_key = {cell.key: k for k, cell in enumerate(cells)}
    t = Table(box=box.SIMPLE, padding=(0, 1), show_edge=False, pad_edge=False)
    for name in s.cat_names:
        t.add_column(name, style=None)
    for r, item in enumerate(s.key.items):
        row = [styled(f"[bold]{esc(item)}[/]")]
        for cat in s.cat_names[1:]:
            k = by_key[(r, cat)]
            row.append(styled(state_cell(now[k], old[k])))
        t.add_row(*row)
    out.print(Padding(t, (0, 0, 0, 2)))
    others = [k for k, cell in enumerate(cells) if cell.kind != "grid"]
    shown = [k for k in others if len(now[k]) == 1 or now[k] != old[k]]
    extra = [f"{esc(cells[k].name)} {state_cell(now[k], old[k])}" for k in shown]
    if len(shown) < len(others):
        extra.append(f"[dim]({len(others) - len(shown)} more open)[/]")
    if others:
        out.print(styled("  " + "  ".join(extra)))


def print_explain_summary(e) -> None:
    """What the steps add up to, what stays open, and the time taken."""
    p = e.profile()
    out.print("")
    if e.complete:
        out.print(styled(f"[bold]The whole solution follows[/] in {esc(profile_text(p))}."))
    else:
        out.print(styled(f"[bold]Nothing more follows[/] after {esc(profile_text(p))}. Still "
                         "open:"))
        untouched = []
        for k, vals in e.open_cells:
            if len(vals) < len(e.cells[k].values):
                out.print(f"  {e.cells[k].name}: {' / '.join(map(str, vals))}")
            else:
                untouched.append(e.cells[k].name)
        if untouched:
            out.print(f"  nothing known yet about {len(untouched)} more: {', '.join(untouched)}")
    first = "none" if e.seconds_first is None else f"{e.seconds_first:.2f} s"
    out.print(styled(f"[dim]first step after {first}, all in {e.seconds_total:.2f} s[/]"))


def move_text(m: dict) -> str:
    """One move of a ``play`` log: ``bot 1 -> Location 3: ... (2 tokens, displacing bot 0)``."""
    if m["action"] == "visit":
        how = "on foot" if m["bid"] == 0 else f"{m['bid']} token{'s' if m['bid'] > 1 else ''}"
        bumped = "" if m["displaces"] is None else f", displacing bot {m['displaces']}"
        return f"bot {m['seat']} -> {m['location']} ({how}{bumped})"
    return f"bot {m['seat']} -> " + ("the Carriage Stop" if m["action"] == "stop" else "221B")


def print_play(c, r: dict) -> None:
    """``deduce case play``: the rounds, the bots' table, who solved it, the truth."""
    from rich.table import Table

    out.print(styled(f"[bold]{esc(c.title)}[/]: {r['mode']} play, {len(r['bots'])} bots "
                     f"({', '.join(r['strategies'])}), seed {r['seed']}"))
    for e in r["log"]:
        out.print(styled(f"[bold]Round {e['round']}[/] [dim](start: bot {e['start_player']})[/]"))
        for m in e["moves"]:
            out.print("  " + move_text(m))
        for a in e["answers"]:
            verdict = "[bold green]solved it[/]" if a["won"] else "[red]eliminated[/]"
            out.print(styled(f"  221B: bot {a['seat']} answers {a['correct']}/{a['of']} right: "
                             f"{verdict}"))
    t = Table(title="Bots")
    for col in ("bot", "strategy", "status", "tokens", "spent", "locations", "answered"):
        t.add_column(col)
    for b in r["bots"]:
        t.add_row(str(b["seat"]), b["strategy"], b["status"], str(b["tokens"]), str(b["spent"]),
                  str(len(b["visited"])), "-" if b["answered_round"] is None
                  else f"round {b['answered_round']}, {b['correct']} right")
    out.print(t)
    winners = ", ".join(f"bot {k}" for k in r["winners"]) or "nobody"
    out.print(f"Solved by {winners} in {r['rounds']} rounds ({r['end']}).")
    if "cooperative" in r:
        print_coop(r["cooperative"])
    for q, a in r["truth"].items():
        out.print(f"  {q} {a}")


def print_coop(co: dict) -> None:
    """A cooperative game against a perfect one."""
    needed = "-" if co["tokens_needed"] is None else co["tokens_needed"]
    best = "-" if co["best_score"] is None else co["best_score"]
    score = "-" if co["score"] is None else co["score"]
    out.print(f"Team: started with {co['tokens_start']} tokens, spent {co['tokens_spent']}; a "
              f"perfect game needs {needed} (best score {best}). Score {score}: "
              f"{co['outcome']}")


def print_reading(c, reading, compact: bool = False) -> None:
    """``deduce case table``'s answers: how many notes are read, and every question's
    possible answers (fixed ones in bold green; ``compact``: how many, ``?n``, for the
    open ones)."""
    read = f"{len(reading.notes)} of {len(c.notes)} note{'s' if len(c.notes) != 1 else ''} read"
    if c.questions:
        fixed = sum(1 for a in reading.answers if len(a) == 1)
        out.print(f"{read}; {fixed} of {len(c.questions)} answers fixed.")
        for q, values in zip(c.questions, reading.answers):
            if len(values) == 1:
                shown = _cell(values)
            else:
                shown = styled(f"[dim]?{len(values)}[/]" if compact else f"one of: {_fmt(values)}")
            out.print(styled(f"  {esc(q.text)}  ") + shown)
    else:
        fixed = sum(1 for v in reading.cells if len(v) == 1)
        out.print(f"{read}; {fixed} of {len(reading.cells)} cells fixed (no questions: the "
                  "whole grid is the answer, `show` draws it).")
    if reading.ready:
        out.print(styled("[bold]Every answer is fixed[/]: time for 221B Baker Street."))


def print_table_show(c, cells, reading) -> None:
    """``deduce case table``'s ``show``: the grid of what the notes read force (as
    ``deduce case explain --from-notes`` draws it), then ``print_reading``."""
    which = f"notes {', '.join(map(str, reading.notes))}" if reading.notes else "no notes"
    out.print(styled(f"[bold]{esc(c.title)}[/]: what {esc(which)} force ([bold green]solved"
                     "[/], ?n: n values left)"))
    print_state(c, cells, reading.cells, reading.cells)
    print_reading(c, reading)


def print_selfplay(r: dict) -> None:
    """The table of a case self-play envelope (competitive positions, or the team)."""
    from rich import box
    from rich.table import Table

    title = (f"{r['case']}: {r['games']} {r['mode']} games, {r['players']} bots, "
             f"seed {r['seed']}")
    if "team" in r:
        tm = r["team"]
        t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True)
        t.add_column("team")
        t.add_column("", justify="right")
        t.add_row("solved", f"{tm['solved']} ({100 * tm['solved_share']:.1f}%, 95% "
                            f"{100 * tm['ci95'][0]:.1f}%-{100 * tm['ci95'][1]:.1f}%)")
        t.add_row("mean score (solved)", "-" if tm["mean_score"] is None
                  else f"{tm['mean_score']:.2f}")
        t.add_row("perfect games", f"{tm['perfect']} (best score "
                                   f"{'-' if tm['best_score'] is None else tm['best_score']})")
        t.add_row("tokens spent (mean)", f"{tm['mean_tokens_spent']:.2f}")
    else:
        t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True)
        for col in ("#", "strategy", "wins", "share", "95% CI", "shared", "elim.",
                    "round", "tokens", "places"):
            t.add_column(col, justify="left" if col == "strategy" else "right")
        for b in r["bots"]:
            lo, hi = b["ci95"]
            t.add_row(str(b["position"]), b["strategy"], str(b["wins"]),
                      f"{100 * b['win_share']:.1f}%", f"{100 * lo:.0f}-{100 * hi:.0f}%",
                      str(b["shared_wins"]), str(b["eliminated"]),
                      "-" if b["mean_answer_round"] is None else f"{b['mean_answer_round']:.2f}",
                      f"{b['mean_tokens_spent']:.2f}", f"{b['mean_locations']:.2f}")
    out.print(t)
    ends = ", ".join(f"{k}: {v}" for k, v in r["ends"].items())
    where = (f"Dask at {r['scheduler']}" if r["scheduler"]
             else f"{r['workers']} worker{'s' * (r['workers'] != 1)}")
    extra = f"; no winner: {r['no_winner']}" if "no_winner" in r else ""
    out.print(f"Mean rounds {r['mean_rounds']:.2f}; ends: {ends}{extra}. "
              f"{r['elapsed_s']:.1f} s on {where}.")
