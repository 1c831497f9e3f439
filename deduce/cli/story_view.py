"""What ``deduce story`` shows people: rich tables and lines rendered from the model's
documents (``odds.state_report``, ``reports``), the advice, the spinner of a long solve.
Nothing here decides anything; names from the campaign and file names are shown
literally (``common.esc`` inside our own markup)."""

from __future__ import annotations

from deduce.cli.common import err, esc, out, styled


def pct(p: float) -> str:
    """A probability as a percentage, 5 wide: `` 12.5%``."""
    return f"{100 * p:5.1f}%"


def print_warnings(data) -> None:
    """The campaign's warnings, on stderr."""
    for w in data.warnings:
        err.print(f"warning: {w}")


def adventures_table(data):
    """``story list``: the campaign's Adventures."""
    from rich.table import Table

    t = Table(title=f"{data.campaign.name}: Adventures")
    for col in ("id", "name", "where", "Villains (1d6)"):
        t.add_column(col)
    for a in data.adventures.values():
        t.add_row(a.id, a.name, "London" if a.london else "outside London",
                  ", ".join(a.line("villain")))
    return t


def new_line(path: str, adventure, record: dict, seed: int):
    """``story new``: the case written."""
    return styled(f"[bold]{esc(path)}[/]: {esc(adventure.id)} {esc(adventure.name)}, turn 1, "
                  f"equipment {esc(', '.join(record['equipment']))}, seed {seed}")


# ----------------------------------------------------------------------------- state
def state_view(r: dict):
    """``story state``: the parts of the case at a glance, from ``odds.state_report``."""
    from rich.table import Table

    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.state import outcome_text

    motive = f" / Motive value {r['motive_value']}" if r["motive_value"] is not None else ""
    flags = [f"bonus +{r['bonus']['value']} to {r['bonus']['action']}" if r["bonus"] else "",
             "trapped: this turn is spent escaping" if r["trapped"] else "",
             "Investigate allowed by an event" if r["investigate_allowed_by_event"] else "",
             f"Seek channels closed: {', '.join(r['seek_closed'])}" if r["seek_closed"] else ""]
    head = (f"[bold]{esc(r['adventure']['id'])} {esc(r['adventure']['name'])}[/]  "
            f"turn {r['turn']}/12 ({r['phase']})  SM {r['sm']}{motive}"
            f"{'  can arrest' if r['can_arrest'] else ''}  Luck {r['luck']}"
            + (f"  [red]case over: {esc(outcome_text(r['outcome']))}[/]" if r["outcome"] else ""))
    yield styled(head)
    if any(flags):
        yield "  " + "; ".join(f for f in flags if f)
    party = Table(title="Party")
    for col in ("", "Brains", "Brawn", "Bravery", "Traits", "health"):
        party.add_column(col)
    for m in r["party"]:
        health = ", ".join(x for x in ["Wounded" if m["wounded"] else "",
                                       f"Addiction {m['addiction']}" if m["addiction"] else "",
                                       f"Madness {m['madness']}" if m["madness"] else ""] if x) or "well"
        party.add_row(m["name"], str(m["brains"]), str(m["brawn"]), str(m["bravery"]),
                      ", ".join(f"{t} {lv}" for t, lv in m["traits"].items()), health)
    yield party
    vt = Table(title="Villain")
    for col in ("id", "name", "p", "Motive"):
        vt.add_column(col)
    for v in r["villain"]:
        motives = "; ".join(f"{m['motive']}: value {m['value']} ({pct(m['p']).strip()})"
                            for m in v.get("motives", [])) or "revealed on the second meeting (R005a)"
        vt.add_row(v["id"], v["name"], pct(v["p"]), motives if "motives" in v else "-")
    yield vt
    at = Table(title="Actions")
    at.add_column("Action")
    at.add_column("legal")
    at.add_column("why not")
    for a in r["actions"]:
        at.add_row(a["action"], "yes" if a["legal"] else "no", a["why_not"])
    yield at
    for o in r["odds"]:
        if "rows" in o:
            parts = ", ".join(f"{p['why']} {p['value']:+d}" for p in o["modifier_parts"]) or "none"
            t = Table(title=f"{o['action']}: 2d6 {o['modifier']:+d} ({parts})")
            t.add_column("roll")
            t.add_column("p", justify="right")
            t.add_column("outcome")
            for row in o["rows"]:
                t.add_row(row["rows"], pct(row["p"]), row["text"])
            yield t
        elif o.get("heals"):
            t = Table(title=f"{o['action']}: Medicine rolls (R007f)")
            for col in ("healer", "patient", "roll", "p"):
                t.add_column(col)
            for h in o["heals"]:
                t.add_row(h["healer"], f"{h['patient']} ({h['condition']})",
                          f"Medicine {h['target']}", pct(h["p"]))
            yield t
    if r["encounter"]:
        e = r["encounter"]
        cols = ", ".join(f"{T.LINE_WORDS.get(c['column'], 'no encounter')} "
                         f"{pct(c['p']).strip()}" for c in e["columns"])
        yield (f"Encounter Matrix (R008): event on {e['event_on']}+: {pct(e['p_event']).strip()} "
               f"(after Wait {pct(e['p_event_after_wait']).strip()}); "
               f"vertical die {e['vertical_modifier']:+d}: {cols}")


# ----------------------------------------------------------------------------- advice
def solving(solver, title: str = "Solving the case for every SM and Luck (early in a case: "
                                  "up to about a minute)"):
    """A context manager: on a terminal, a spinner naming the turn the DP is at."""
    import contextlib

    if not err.is_terminal:
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def spinner():
        with err.status(title + "...") as status:
            solver.progress = lambda message: status.update(f"{title}: {message}...")
            try:
                yield
            finally:
                solver.progress = None

    return spinner()


def print_advice(case, phase: str, advice) -> None:
    """The advice table of a turn's start, or P(arrest) after the Action."""
    from rich.table import Table

    if phase != "action":
        out.print(f"Action done; on the Encounter Matrix now. P(arrest by turn 12) = "
                  f"{pct(advice.p_win).strip()}")
        return
    title = f"Turn {case.turn}: P(arrest by the end of turn 12)"
    t = Table(title=title, min_width=len(title))  # the title on one line
    t.add_column("Action")
    t.add_column("P(arrest)", justify="right")
    for i, (a, p) in enumerate(advice.actions):
        t.add_row(styled(f"[bold]{esc(a)}[/]") if i == 0 else a, pct(p))
    out.print(t)


def reroll_text(rr) -> str:
    """The re-roll advice in a line."""
    from deduce.models.detective_story import tables as T

    verdict = ("spend 1 Luck and roll again" if rr.spend else
               "keep it" if rr.p_reroll is not None else "keep it (no Luck left)")
    again = pct(rr.p_reroll).strip() if rr.p_reroll is not None else "-"
    outcome = T.OUTCOME_TEXT[rr.what][rr.outcome]
    return (f"{rr.what}: dice {rr.roll}, total {rr.total} -> {outcome}: P(arrest) keeping "
            f"{pct(rr.p_keep).strip()}, re-rolling {again}: {verdict}")


# ----------------------------------------------------------------------------- a turn
def case_over(outcome: str) -> str:
    """The case is over, and how it ended."""
    from deduce.models.detective_story.state import outcome_text

    return f"The case is over: {outcome_text(outcome)}."


def case_over_line(outcome: str, path: str) -> str:
    """The case is over, and how to close it."""
    return f"{case_over(outcome)} Close it with: deduce story end {path}"


def print_turn(path: str, doc: dict) -> None:
    """``story turn``: what happened (``reports.turn_document``), and what comes next."""
    for line in doc["log"]:
        out.print(f"  {line}")
    if doc["outcome"] is not None:
        out.print(case_over_line(doc["outcome"], path))
    elif doc["phase"] == "encounter":
        out.print(f"Action recorded; next: the Encounter Matrix (deduce story turn "
                  f"{path}). SM {doc['sm']}, Luck {doc['luck']}.")
    else:
        out.print(f"Turn {doc['turn']} recorded; now turn {doc['next_turn']}: SM {doc['sm']}, "
                  f"Luck {doc['luck']}.")


def table_end_line(path: str, case, phase: str) -> str:
    """The last line of a table session: the case over, or where the record stopped."""
    if case.over:
        return case_over_line(case.outcome, path)
    return f"Stopped: {path} is at turn {case.turn} ({phase})."


# ----------------------------------------------------------------------------- between cases
def print_end(path: str, adventure, doc: dict, cheapest: int) -> None:
    """``story end``: the case closed (``reports.end_document``), and what comes next
    (``cheapest``: the SM of the cheapest purchase open)."""
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.state import outcome_text

    won, outcome = doc["won"], doc["outcome"]
    out.print(styled(f"[bold]{esc(path)}[/]: {esc(adventure.id)} {esc(adventure.name)} closed: "
                     f"{esc(outcome_text(outcome))} ({'won' if won else 'lost'})"))
    if won:
        out.print(f"  Luck {doc['luck_at_end']} + SM {doc['sm_at_end']} = {doc['luck_next']} for "
                  "the next case (R010); "
                  + (f"{doc['sm_to_spend']} SM to spend" if doc["sm_to_spend"] else "no SM to spend"))
    elif outcome != "holmes_killed":
        out.print(f"  SM {doc['sm_at_end']} lost; Luck {doc['luck_at_end']} -> {doc['luck_next']} "
                  "(half lost, rounded up, R007)")
    roll = doc["loss_roll"]
    if roll:
        out.print(f"  no SM and no Luck left: loss table 1d6 = {roll['die']}: "
                  f"{T.LOSS_WORDS[roll['result']]} (seed {doc['seed']})")
    if doc["game_over"]:
        out.print(styled("  [red bold]the game is over[/]: Holmes is dead"))
        return
    nxt = f"'deduce story next {path} --adventure ID'"
    sm = doc["sm_to_spend"]
    if sm >= cheapest:
        out.print(f"  next: 'deduce story spend ... {path}' (R010), then {nxt}")
    elif sm:
        out.print(f"  next: {nxt} ({sm} SM is too little to buy anything: the cheapest "
                  f"purchase costs {cheapest}; at most 1 SM goes on to the next case, R001)")
    else:
        out.print(f"  next: {nxt}")


def purchase_line(doc: dict):
    """``story spend``: what was bought (``reports.purchase_document``)."""
    return styled(f"[bold]{esc(doc['file'])}[/]: {esc(doc['what'])} for {doc['cost']} SM; "
                  f"{doc['sm_left']} SM left")


def next_line(doc: dict):
    """``story next``: the next case written (``reports.next_document``)."""
    lost = f" ({doc['sm_forfeited']} unspent SM lost, R001)" if doc["sm_forfeited"] else ""
    party = ", ".join((["Watson"] if doc["watson_alive"] else []) + doc["friends"]) or "alone"
    return styled(f"[bold]{esc(doc['file'])}[/]: {esc(doc['adventure'])} {esc(doc['name'])}, "
                  f"turn 1, SM {doc['sm']}{lost}, Luck {doc['luck']}, with {esc(party)}, "
                  f"seed {doc['seed']}")


def print_selfplay(report) -> None:
    """The story self-play table (the policy's figures, outcome by outcome)."""
    from rich.table import Table

    summary = report.envelope
    t = Table(title=f"Self-play: {summary['policy']}, {summary['cases']} cases, "
                    f"seed {summary['seed']}")
    t.add_column("")
    t.add_column("", justify="right")
    lo, hi = summary["ci95"]
    t.add_row("arrest rate", f"{pct(summary['arrest_rate'])} (95% {pct(lo).strip()}-"
                             f"{pct(hi).strip()})")
    t.add_row("mean turns", f"{summary['mean_turns']:.2f}")
    t.add_row("Holmes killed", str(summary["deaths"]))
    t.add_row("party deaths", str(summary["party_deaths"]))
    t.add_row("Luck spent (mean)", f"{summary['mean_luck_spent']:.2f}")
    for k, v in summary["outcomes"].items():
        t.add_row(f"  {k}", str(v))
    out.print(t)
