"""``deduce story``: the Sherlock Holmes Detective Story Game (solo): campaigns, case
records, exact odds and advice, self-play."""

from __future__ import annotations

import click

from deduce.cli.common import err, out, print_json, reports_errors

_DATA = click.option("--data", "data_dir", type=click.Path(file_okay=False),
                     help="Campaign folder of *.toml files (default: the record's, else the "
                          "shipped sample campaign).")
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON only.")


@click.group()
def story() -> None:
    """Detective Story Game (solo): rules engine, case record, exact advice, self-play.

    \b
    Examples:
      deduce story list
      deduce story new --adventure a001 --seed 7 case.json
      deduce story state case.json
      deduce story advise case.json
      deduce story advise case.json --roll investigate=7
      deduce story selfplay --policy greedy --cases 2000 --seed 1
      deduce story selfplay --policy optimal --cases 500 --seed 1 --from case.json --json
    """


def _load(record_file: str, data_dir: str | None):
    from deduce.core.records import read_json
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.state import parse_record

    raw = read_json(record_file)
    folder = data_dir or (raw.get("data") if isinstance(raw, dict) else None)
    data = load_campaign(folder)
    return parse_record(raw, record_file, data)


def _warn(data) -> None:
    for w in data.warnings:
        err.print(f"warning: {w}", markup=False)


@story.command(name="list")
@_DATA
@_JSON
@reports_errors
def list_(data_dir: str | None, as_json: bool) -> None:
    """The campaign's Adventures.

    \b
    Example:
      deduce story list --json
    """
    from deduce.models.detective_story.data import load_campaign

    data = load_campaign(data_dir)
    _warn(data)
    if as_json:
        print_json([{"id": a.id, "name": a.name} for a in data.adventures.values()])
        return
    from rich.table import Table

    t = Table(title=f"{data.campaign.name}: Adventures")
    for col in ("id", "name", "where", "Villains (1d6)"):
        t.add_column(col)
    for a in data.adventures.values():
        t.add_row(a.id, a.name, "London" if a.london else "outside London",
                  ", ".join(a.line("villain")))
    out.print(t)


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--adventure", help="Adventure id or name (default: the 1d6 of A000).")
@click.option("--seed", type=int, help="Seed for the dice rolled at the start (equipment, "
                                       "Adventure, start rules).")
@click.option("--traits", default="Aware,Charisma,Tracking", show_default=True,
              help="Holmes's 3 starting Traits (R003), comma separated.")
@click.option("--equipment", help="Starting equipment paragraph (default: rolled, A000).")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
@_DATA
@_JSON
@reports_errors
def new(record_file: str, adventure, seed, traits, equipment, force, data_dir, as_json) -> None:
    """Write a fresh case record at turn 1 to FILE (atomically).

    \b
    Example:
      deduce story new --adventure a001 --seed 7 case.json
    """
    from pathlib import Path

    from deduce.core.errors import InputError
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story.campaign import new_record
    from deduce.models.detective_story.data import load_campaign

    if Path(record_file).exists() and not force:
        raise InputError("file exists (use --force to overwrite)", where=record_file)
    data = load_campaign(data_dir)
    _warn(data)
    rec = new_record(data, adventure, seed, [t.strip() for t in traits.split(",") if t.strip()],
                     equipment, str(Path(data_dir).resolve()) if data_dir else None)
    write_json_atomic(record_file, rec)
    if as_json:
        print_json(rec)
    else:
        adv = data.adventures[rec["adventure"]]
        out.print(f"[bold]{record_file}[/]: {adv.id} {adv.name}, turn 1, equipment "
                  f"{', '.join(rec['equipment'])}, seed {seed}")


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@_DATA
@_JSON
@reports_errors
def state(record_file: str, data_dir, as_json: bool) -> None:
    """The case at a glance: turn, SM against the Motive value, Luck, party, the Villain's
    candidates, which Actions are legal (and why not), and the exact odds of each.

    \b
    Example:
      deduce story state case.json
    """
    from deduce.models.detective_story.odds import state_report

    cf = _load(record_file, data_dir)
    _warn(cf.data)
    report = state_report(cf.ctx, cf.case, cf.phase, cf.waited)
    if as_json:
        print_json(report)
        return
    for part in _state_view(report):
        out.print(part)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def _state_view(r: dict):
    from rich.table import Table

    motive = f" / Motive value {r['motive_value']}" if r["motive_value"] is not None else ""
    flags = [f"bonus +{r['bonus']['value']} to {r['bonus']['action']}" if r["bonus"] else "",
             "trapped: this turn is spent escaping" if r["trapped"] else "",
             "Investigate allowed by an event" if r["investigate_allowed_by_event"] else "",
             f"Seek channels closed: {', '.join(r['seek_closed'])}" if r["seek_closed"] else ""]
    head = (f"[bold]{r['adventure']['id']} {r['adventure']['name']}[/]  turn {r['turn']}/12 "
            f"({r['phase']})  SM {r['sm']}{motive}{'  can arrest' if r['can_arrest'] else ''}"
            f"  Luck {r['luck']}" + (f"  [red]case over: {r['outcome']}[/]" if r["outcome"] else ""))
    yield head
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
        motives = "; ".join(f"{m['motive']}: value {m['value']} ({_pct(m['p']).strip()})"
                            for m in v.get("motives", [])) or "revealed on the second meeting (R005a)"
        vt.add_row(v["id"], v["name"], _pct(v["p"]), motives if "motives" in v else "-")
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
                t.add_row(row["rows"], _pct(row["p"]), row["text"])
            yield t
        elif o.get("heals"):
            t = Table(title=f"{o['action']}: Medicine rolls (R007f)")
            for col in ("healer", "patient", "roll", "p"):
                t.add_column(col)
            for h in o["heals"]:
                t.add_row(h["healer"], f"{h['patient']} ({h['condition']})",
                          f"Medicine {h['target']}", _pct(h["p"]))
            yield t
    if r["encounter"]:
        e = r["encounter"]
        cols = ", ".join(f"{c['column']} {_pct(c['p']).strip()}" for c in e["columns"])
        yield (f"Encounter Matrix (R008): event on {e['event_on']}+: {_pct(e['p_event']).strip()} "
               f"(after Wait {_pct(e['p_event_after_wait']).strip()}); "
               f"vertical die {e['vertical_modifier']:+d}: {cols}")


def _parse_roll(text: str) -> tuple[str, int]:
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.models.detective_story import tables as T

    name, sep, value = text.partition("=")
    if not sep or not value.strip().isdigit():
        raise InputError(f"expected ACTION=N such as investigate=7, got {text!r}", where="--roll")
    action = resolve(name, list(T.ACTION_TABLES), "action with a 2d6 table", where="--roll",
                     aliases={"arrest": T.ATTEMPT_ARREST, "seek": T.SEEK})
    return action, int(value)


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--roll", "roll", metavar="ACTION=N",
              help="The 2d6 just rolled for ACTION (natural dice, 2-12): should 1 Luck re-roll it?")
@_DATA
@_JSON
@reports_errors
def advise(record_file: str, roll: str | None, data_dir, as_json: bool) -> None:
    """The Action maximising P(the Villain is arrested by the end of turn 12), with that
    probability for every legal Action (exact dynamic programming); with --roll, whether
    to spend a Luck point on re-rolling the dice just rolled.

    A won case counts an arrest and a Villain killed in a fight (the case "ends
    successfully", R009b). The whole case is solved for every SM and Luck at once: from a
    fresh case this takes a while; later in the case it is quick.

    \b
    Examples:
      deduce story advise case.json
      deduce story advise case.json --json
      deduce story advise case.json --roll research=6
    """
    from deduce.core.errors import InputError
    from deduce.models.detective_story.advice import advise as run
    from deduce.models.detective_story.advice import reroll_advice, solver_for

    cf = _load(record_file, data_dir)
    _warn(cf.data)
    solver = solver_for(cf.ctx)
    if roll:
        if cf.phase != "action":
            raise InputError("the record's Action is done (phase encounter): a re-roll is "
                             "advised for the Action's roll", where="--roll")
        action, n = _parse_roll(roll)
        try:
            rr = reroll_advice(cf.ctx, cf.case, action, n, solver=solver)
        except InputError as exc:
            raise InputError(str(exc), where="--roll") from None
    advice = run(cf.ctx, cf.case, cf.phase, cf.waited, solver=solver)
    if as_json:
        doc = advice.to_json()
        if cf.phase != "action" or cf.case.over:
            doc["p_arrest"] = advice.p_win
        if roll:
            doc["reroll"] = rr.to_json()
        print_json(doc)
        return
    from rich.table import Table

    if cf.case.over:
        out.print(f"The case is over: {cf.case.outcome}.")
        return
    if cf.phase != "action":
        out.print(f"Action done; on the Encounter Matrix now. P(arrest by turn 12) = "
                  f"{_pct(advice.p_win).strip()}")
    else:
        t = Table(title=f"Turn {cf.case.turn}: P(arrest by the end of turn 12)")
        t.add_column("Action")
        t.add_column("P(arrest)", justify="right")
        for i, (a, p) in enumerate(advice.actions):
            t.add_row(f"[bold]{a}[/]" if i == 0 else a, _pct(p))
        out.print(t)
    if roll:
        verdict = ("spend 1 Luck and roll again" if rr.spend else
                   "keep it" if rr.p_reroll is not None else "keep it (no Luck left)")
        again = _pct(rr.p_reroll).strip() if rr.p_reroll is not None else "-"
        out.print(f"{rr.what}: dice {rr.roll}, total {rr.total} -> {rr.outcome}: "
                  f"P(arrest) keeping {_pct(rr.p_keep).strip()}, re-rolling {again}: "
                  f"[bold]{verdict}[/]")


@story.command()
@click.option("--policy", type=click.Choice(["optimal", "greedy", "random"]), required=True)
@click.option("--cases", type=click.IntRange(1, 10_000_000), default=1000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--from", "from_file", type=click.Path(dir_okay=False),
              help="Start every case from this record (default: fresh first cases).")
@click.option("--adventure", help="Fresh cases: this Adventure (default: A000's 1d6 per case).")
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes (the optimal policy solves its DP in each).")
@_DATA
@_JSON
@reports_errors
def selfplay(policy, cases, seed, from_file, adventure, workers, data_dir, as_json) -> None:
    """Play many cases with a policy: arrest rate (Wilson 95% interval), mean turns,
    deaths, Luck spent. Deterministic for a seed (whatever the workers).

    \b
    Examples:
      deduce story selfplay --policy random --cases 5000 --seed 1
      deduce story selfplay --policy optimal --cases 500 --seed 1 --from case.json --json
    """
    from deduce.models.detective_story.selfplay import run_selfplay

    record = None
    if from_file:
        from deduce.core.records import read_json

        cf = _load(from_file, data_dir)
        _warn(cf.data)
        record = read_json(from_file)
        data_dir = data_dir or record.get("data")
    summary = run_selfplay(policy, cases, seed, record, data_dir, adventure, workers,
                           progress=_progress)
    summary["from"] = from_file
    if as_json:
        print_json(summary)
        return
    from rich.table import Table

    t = Table(title=f"Self-play: {policy}, {cases} cases, seed {seed}")
    t.add_column("")
    t.add_column("", justify="right")
    lo, hi = summary["ci95"]
    t.add_row("arrest rate", f"{_pct(summary['arrest_rate'])} (95% {_pct(lo).strip()}-{_pct(hi).strip()})")
    t.add_row("mean turns", f"{summary['mean_turns']:.2f}")
    t.add_row("Holmes killed", str(summary["deaths"]))
    t.add_row("party deaths", str(summary["party_deaths"]))
    t.add_row("Luck spent (mean)", f"{summary['mean_luck_spent']:.2f}")
    for k, v in summary["outcomes"].items():
        t.add_row(f"  {k}", str(v))
    out.print(t)


def _progress(total: int):
    """A rich progress bar on stderr if it is a terminal; a no-op callback otherwise."""
    import contextlib

    if not err.is_terminal:
        return contextlib.nullcontext(lambda k: None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    @contextlib.contextmanager
    def bar():
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                      transient=True) as p:
            task = p.add_task("cases", total=total)
            yield lambda k: p.advance(task, k)

    return bar()
