"""``deduce story``: the Sherlock Holmes Detective Story Game (solo): campaigns, case
records, a turn played from the table's dice, exact odds and advice, self-play."""

from __future__ import annotations

import click

from deduce.cli.common import (
    GAMES,
    SEED,
    err,
    esc,
    literal,
    out,
    print_json,
    reports_errors,
    styled,
    writes_record,
)
from deduce.cli.selfplay import bot_names, play_match, selfplay_options

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
      deduce story advise case.json --roll explore=7
      deduce story turn case.json explore -a 7 -a 2 -a 9 -a 3
      deduce story table case.json
      deduce story selfplay --policy greedy --cases 2000 --seed 1
      deduce story selfplay --policy optimal --cases 500 --seed 1 --from case.json --json

    \b
    Between cases (a campaign):
      deduce story end case.json
      deduce story spend quality case.json --quality Brains
      deduce story next case.json --adventure a002 --seed 8
    """


def _load(record_file: str, data_dir: str | None):
    """The case record in FILE, checked against its campaign (``--data``, else the
    record's ``data`` folder, else the shipped campaign)."""
    from deduce.core.records import read_json
    from deduce.models.detective_story.state import parse_record, record_campaign

    raw = read_json(record_file)
    if isinstance(raw, dict) and raw.get("phase") == "between":
        from deduce.core.errors import InputError

        raise InputError("field 'phase': the record is between cases (its case was closed by "
                         "'deduce story end'): spend its SM with 'deduce story spend' or start "
                         "the next case with 'deduce story next'", where=record_file, field="phase")
    return parse_record(raw, record_file, record_campaign(raw, record_file, data_dir))


def _warn(data) -> None:
    for w in data.warnings:
        err.print(f"warning: {w}")


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
@click.option("--seed", type=SEED, help="Seed for the dice rolled at the start (equipment, "
                                       "Adventure, start rules; default: a fresh one, "
                                       "echoed and kept in the record).")
@click.option("--traits", default="Aware,Charisma,Tracking", show_default=True,
              help="Holmes's 3 starting Traits (R003), comma separated.")
@click.option("--equipment", help="Starting equipment paragraph (default: rolled, A000).")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
@_DATA
@_JSON
@reports_errors
@writes_record
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
    seed = _seed(seed)
    rec = new_record(data, adventure, seed, [t.strip() for t in traits.split(",") if t.strip()],
                     equipment, str(Path(data_dir).resolve()) if data_dir else None)
    write_json_atomic(record_file, rec)
    if as_json:
        print_json(rec)
    else:
        adv = data.adventures[rec["adventure"]]
        out.print(styled(f"[bold]{esc(record_file)}[/]: {esc(adv.id)} {esc(adv.name)}, turn 1, "
                         f"equipment {esc(', '.join(rec['equipment']))}, seed {seed}"))


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
        cols = ", ".join(f"{T.LINE_WORDS.get(c['column'], 'no encounter')} "
                         f"{_pct(c['p']).strip()}" for c in e["columns"])
        yield (f"Encounter Matrix (R008): event on {e['event_on']}+: {_pct(e['p_event']).strip()} "
               f"(after Wait {_pct(e['p_event_after_wait']).strip()}); "
               f"vertical die {e['vertical_modifier']:+d}: {cols}")


def _parse_roll(text: str) -> tuple[str, int]:
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.models.detective_story import tables as T

    from deduce.core.numbers import whole_number

    name, sep, value = text.partition("=")
    if not sep:
        raise InputError(f"expected ACTION=N such as investigate=7, got {literal(text)!r}",
                         where="--roll")
    action = resolve(name, list(T.ACTION_TABLES), "action with a 2d6 table", where="--roll",
                     aliases={"arrest": T.ATTEMPT_ARREST, "seek": T.SEEK})
    return action, whole_number(value, 2, 12, "the natural 2d6 total", where="--roll")


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
    fresh case this takes 7-25 s on the shipped campaign (a spinner shows on a terminal);
    from turn 8 on, with the Villain known, under half a second.

    \b
    Examples:
      deduce story advise case.json
      deduce story advise case.json --json
      deduce story advise case.json --roll explore=6
    """
    from deduce.core.errors import InputError
    from deduce.models.detective_story.advice import advise as run
    from deduce.models.detective_story.advice import reroll_advice, solver_for

    cf = _load(record_file, data_dir)
    _warn(cf.data)
    solver = solver_for(cf.ctx)
    with solving(solver):
        if roll:
            if cf.phase != "action":
                raise InputError("the record's Action is done (phase encounter): a "
                                 "re-roll is advised for the Action's roll", where="--roll")
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
    if cf.case.over:
        from deduce.models.detective_story.state import outcome_text

        out.print(f"The case is over: {outcome_text(cf.case.outcome)}.")
        return
    print_advice(cf.case, cf.phase, advice)
    if roll:
        out.print(reroll_text(rr))


def solving(solver, title: str = "Solving the case for every SM and Luck (early in a case: "
                                  "up to half a minute)"):
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
                  f"{_pct(advice.p_win).strip()}")
        return
    title = f"Turn {case.turn}: P(arrest by the end of turn 12)"
    t = Table(title=title, min_width=len(title))  # the title on one line
    t.add_column("Action")
    t.add_column("P(arrest)", justify="right")
    for i, (a, p) in enumerate(advice.actions):
        t.add_row(styled(f"[bold]{esc(a)}[/]") if i == 0 else a, _pct(p))
    out.print(t)


def reroll_text(rr) -> str:
    """The re-roll advice in a line."""
    from deduce.models.detective_story import tables as T

    verdict = ("spend 1 Luck and roll again" if rr.spend else
               "keep it" if rr.p_reroll is not None else "keep it (no Luck left)")
    again = _pct(rr.p_reroll).strip() if rr.p_reroll is not None else "-"
    outcome = T.OUTCOME_TEXT[rr.what][rr.outcome]
    return (f"{rr.what}: dice {rr.roll}, total {rr.total} -> {outcome}: P(arrest) keeping "
            f"{_pct(rr.p_keep).strip()}, re-rolling {again}: {verdict}")


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.argument("action", metavar="[ACTION]", required=False)
@click.option("-a", "--answer", "answers", multiple=True, metavar="TEXT",
              help="What the dice or the player said, in the order asked (repeat the option); "
                   "on a terminal, anything still needed is asked.")
@click.option("--action-only", is_flag=True,
              help="Record the Action only: the record then waits for the Encounter Matrix "
                   "(phase encounter; run turn FILE again without ACTION).")
@_DATA
@_JSON
@reports_errors
@writes_record
def turn(record_file: str, action: str | None, answers: tuple, action_only: bool, data_dir,
         as_json: bool) -> None:
    """Play this turn at the table and rewrite FILE (atomically): the rules engine applies
    the Action and the Encounter Matrix from the dice you rolled and the choices you made,
    so the record keeps SM, Luck, the party, the Villain and every flag right.

    ACTION is the Action taken (any unambiguous spelling), left out when the record's Action
    is done (phase encounter). Answers, in the order asked: an Action's 2d6 as the
    natural total N, or N/M when 1 Luck was spent to re-roll M; the Encounter Matrix 2d6;
    a d6 as its face (1-6: the engine reads the line, the vertical modifiers, the
    paragraph); a test or a healing roll as the 2d6 total or pass/fail; a random Ally or
    Trait by name; option 3's start (Deduction, Hide/Follow, Fight); a fight's end (won
    wounded, lost watson serious, escaped, ...). Numbers are decimal digits of any script.
    On a terminal (without --json) whatever is missing is asked; otherwise a missing or
    wrong answer exits 2 naming the question and the answers it takes, and FILE is left
    as it was.

    What a turn needs: an Action with a 2d6 table (all but Wait, Rest and Escape the trap)
    needs its 2d6 first, then what its row leads to (an event: the line's d6, then the
    paragraph's tests and dice); Rest needs a healing roll for each Wounded or afflicted
    member it treats; then the Encounter Matrix's 2d6 and, on an encounter, the column's
    d6 and that event's dice. So Wait needs one answer, and -a 2 is always quiet (2 + 1:
    no turn has an encounter below 5).

    JSON: {"file", "turn": the turn played, "action", "log": [what happened], "answers":
    [{"question", "answer"}], "luck_spent", "phase", "next_turn", "sm", "luck",
    "outcome"}.

    \b
    Examples (each on a fresh 'deduce story new --adventure a001 --seed 7 case.json'):
      deduce story turn case.json wait -a 2
      deduce story turn case.json explore -a 7 -a 2 -a 9 -a 3
      deduce story turn case.json explore -a 5/8 -a 2 --json
      deduce story turn case.json explore --action-only -a 5/8
      deduce story turn case.json -a 2
    """
    import sys

    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story import engine as E
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.live import Answers, play_turn
    from deduce.models.detective_story.state import case_to_record

    cf = _load(record_file, data_dir)
    _warn(cf.data)
    if action is not None:
        action = resolve(action, list(E.ALL_ACTIONS), "action", where="ACTION",
                         aliases={"arrest": T.ATTEMPT_ARREST, "seek": T.SEEK})
    told = Answers(answers, *(_terminal_prompt() if sys.stdin.isatty() and not as_json
                              else (None, None)))
    played_turn = cf.case.turn
    try:
        done = play_turn(cf.ctx, cf.case, cf.phase, cf.waited, action, told, action_only)
    except InputError as exc:
        if exc.field == "action":
            raise InputError(str(exc), where="ACTION") from None
        raise _at(record_file, exc) from None
    except click.exceptions.Abort:  # Ctrl-C or Ctrl-D at a question on a terminal
        err.print(f"\nstopped: {record_file} is unchanged (nothing of this turn was written)")
        sys.exit(1)
    if len(told.used) < len(answers):
        raise InputError(f"{len(answers)} answers given, the turn took {len(told.used)}: "
                         f"'{answers[len(told.used)]}' and after are left over",
                         where=f"--answer {len(told.used) + 1}")
    rec = case_to_record(cf, done.case, done.phase, done.waited, log=done.log)
    write_json_atomic(record_file, rec)
    c = done.case
    doc = {"file": record_file, "turn": played_turn, "action": action, "log": done.log,
           "answers": done.answers, "luck_spent": done.luck_spent, "phase": done.phase,
           "next_turn": None if c.over else rec["turn"], "sm": c.sm, "luck": c.luck,
           "outcome": c.outcome}
    if as_json:
        print_json(doc)
        return
    for line in done.log:
        out.print(f"  {line}")
    if c.over:
        from deduce.models.detective_story.state import outcome_text

        out.print(f"The case is over: {outcome_text(c.outcome)}. Close it with: deduce story "
                  f"end {record_file}")
    elif done.phase == "encounter":
        out.print(f"Action recorded; next: the Encounter Matrix (deduce story turn "
                  f"{record_file}). SM {c.sm}, Luck {c.luck}.")
    else:
        out.print(f"Turn {played_turn} recorded; now turn {rec['turn']}: SM {c.sm}, Luck "
                  f"{c.luck}.")


def _terminal_prompt():
    """``(prompt, warn)`` for ``live.Answers`` on a terminal: ask on stderr, warn there."""
    def prompt(q):
        return click.prompt(literal(f"{q.text} [{q.hint}]"), err=True)

    def warn(text):
        err.print(f"  {text}")

    return prompt, warn


@story.command()
@click.option("--policy", type=click.Choice(["optimal", "greedy", "random"]), default=None,
              help="Old spelling of --bots POLICY.")
@click.option("--cases", type=GAMES, default=None, help="Old spelling of --games.")
@click.option("--from", "from_file", type=click.Path(dir_okay=False),
              help="Start every case from this record (default: fresh first cases).")
@click.option("--adventure", help="Fresh cases: this Adventure (default: A000's 1d6 per case).")
@_DATA
@selfplay_options(games=1000, bots_help="The policy playing the cases (the game is solo: one "
                                        "bot): optimal, greedy or random. Required (or its "
                                        "old spelling --policy).")
@reports_errors
def selfplay(policy, cases, from_file, adventure, data_dir, games, seed, workers, scheduler,
             bots, as_json) -> None:
    """Play many cases with a policy: arrest rate (Wilson 95% interval), mean turns,
    deaths, Luck spent. Deterministic for a seed (whatever the workers or the cluster).

    The game is solo: --bots names one policy, optimal (the DP), greedy or random;
    --games is the number of cases. Old spellings, still taken: --policy P for --bots P,
    --cases N for --games N. With --from and local --workers, the optimal policy's DP is
    solved once, before the workers start; on a Dask cluster once per worker process.

    JSON: the self-play envelope {"game": "detective-story", "players": 1, "games",
    "seed", "workers", "scheduler", "elapsed_s", "bots": [{"name", "win_share", "ci95",
    "mean_turns"}], then "policy", "cases", "arrest_rate", "ci95", "wins",
    "mean_turns", "deaths", "party_deaths", "luck_spent", "mean_luck_spent",
    "outcomes": {outcome: cases}, "adventure", "from"}.

    \b
    Examples:
      deduce story selfplay --bots random --games 5000 --seed 1
      deduce story selfplay --bots optimal --games 500 --seed 1 --from case.json --json
      deduce story selfplay --bots greedy --games 100000 --scheduler tcp://10.0.0.5:8786
      deduce story selfplay --policy random --cases 5000 --seed 1      (old spelling)
    """
    from deduce.cli.selfplay import old_spelling
    from deduce.core.errors import InputError
    from deduce.core.selfplay import Match
    from deduce.models.detective_story.selfplay import GAME, story_setup

    games = old_spelling("--games", games, "--cases", cases)
    bots = old_spelling("--bots", bots, "--policy", policy)
    if bots is None:
        raise click.UsageError("Missing option '--bots' (or its old spelling '--policy'): "
                               "the policy, optimal, greedy or random.")
    names = bot_names(bots, GAME.bots)
    if len(names) != 1:
        raise InputError(f"the game is solo: give one policy, not {len(names)}", where="--bots")
    record = None
    if from_file:
        from deduce.core.records import read_json

        from deduce.models.detective_story.state import data_folder

        cf = _load(from_file, data_dir)
        _warn(cf.data)
        record = read_json(from_file)
        data_dir = data_dir or data_folder(record, from_file)
    match = Match(games, seed, names, 1, workers=workers, scheduler=scheduler,
                  setup=story_setup(record, data_dir, adventure, from_file))
    play_match(GAME, match, as_json, _print_selfplay)


def _print_selfplay(report) -> None:
    """The story self-play table (the policy's figures, outcome by outcome)."""
    from rich.table import Table

    summary = report.envelope
    t = Table(title=f"Self-play: {summary['policy']}, {summary['cases']} cases, "
                    f"seed {summary['seed']}")
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


# ----------------------------------------------------------------------------- between cases
def _seed(seed: int | None) -> int:
    """The seed given, or a fresh one (echoed, so the dice can be replayed)."""
    import random

    return seed if seed is not None else random.SystemRandom().randrange(2**31)


def _at(record_file: str, exc, fields: dict | None = None):
    """A model error, which names only its field, re-raised naming FILE and the record field
    (or the option at fault, for a field mapped to ``--option``)."""
    from deduce.core.errors import InputError

    if exc.where:
        return exc
    fld = (fields or {}).get(exc.field, exc.field)
    if fld and fld.startswith("--"):
        return InputError(str(exc), where=fld, field=fld)
    return InputError(f"field '{fld}': {exc}" if fld else str(exc), where=record_file, field=fld)


def _load_between(record_file: str, data_dir: str | None):
    """The raw record between cases in FILE and its campaign data (both checked)."""
    from deduce.core.records import read_json
    from deduce.models.detective_story.campaign import check_between
    from deduce.models.detective_story.state import record_campaign

    raw = read_json(record_file)
    data = record_campaign(raw, record_file, data_dir)
    _warn(data)
    return check_between(raw, record_file, data), data


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--time-up", is_flag=True,
              help="Turn 12 has been played without an arrest: close the case as lost "
                   "(outcome time_up, R007). Only for a record at turn 12 with no outcome.")
@click.option("--seed", type=SEED, help="Seed for the loss table's 1d6 (default: a fresh one, "
                                       "echoed).")
@_DATA
@_JSON
@reports_errors
@writes_record
def end(record_file: str, time_up: bool, seed, data_dir, as_json: bool) -> None:
    """Close the finished case in FILE (its outcome set) and rewrite FILE (atomically) as
    the record between cases: won, the case's SM is added to Luck and stays to be spent
    (R010); lost, all SM and half the Luck (rounded up) are lost, and with neither left the
    1d6 loss table is rolled (R007). A case still running is refused (exit 2).

    JSON keys: file, adventure, outcome (the case's), won, sm_at_end, sm_to_spend,
    luck_at_end, luck_next (Luck for the next case), loss_roll (null or {"die", "result"}:
    holmes_killed, watson_killed, lestrade_killed, nothing), game_over, watson_alive,
    inspector, ruled_out, seed.

    \b
    Examples:
      deduce story end case.json
      deduce story end case.json --time-up --seed 3 --json
    """
    import random

    from deduce.core.errors import InputError
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.campaign import cheapest_purchase, close_case, game_over
    from deduce.models.detective_story.state import TIME_UP, outcome_text

    cf = _load(record_file, data_dir)
    _warn(cf.data)
    case = cf.case
    if time_up:
        if case.over:
            raise InputError(f"the case is already over ({outcome_text(case.outcome)})",
                             where="--time-up")
        if case.turn != 12:
            raise InputError(f"the record is at turn {case.turn}: a case runs to the end of "
                             "turn 12 (R007)", where="--time-up")
        case = case._replace(outcome=TIME_UP)
    elif not case.over:
        raise InputError(f"field 'outcome': the case is still running (turn {case.turn}, "
                         f"phase {cf.phase}); close it once it is over (outcome set), or with "
                         "--time-up once turn 12 is played without an arrest",
                         where=record_file, field="outcome")
    seed = _seed(seed)
    try:
        rec, roll = close_case(cf, case, random.Random(seed))
    except InputError as exc:
        raise _at(record_file, exc) from None
    write_json_atomic(record_file, rec)
    summary = {
        "file": record_file, "adventure": rec["adventure"], "outcome": case.outcome,
        "won": case.won, "sm_at_end": case.sm, "sm_to_spend": rec["sm"],
        "luck_at_end": case.luck, "luck_next": rec["luck"],
        "loss_roll": {"die": roll[0], "result": roll[1]} if roll else None,
        "game_over": game_over(rec), "watson_alive": rec.get("watson") is not None,
        "inspector": rec["inspector"], "ruled_out": rec.get("ruled_out", []), "seed": seed,
    }
    if as_json:
        print_json(summary)
        return
    adv = cf.ctx.adventure
    out.print(styled(f"[bold]{esc(record_file)}[/]: {esc(adv.id)} {esc(adv.name)} closed: "
                     f"{esc(outcome_text(case.outcome))} ({'won' if case.won else 'lost'})"))
    if case.won:
        out.print(f"  Luck {case.luck} + SM {case.sm} = {rec['luck']} for the next case (R010); "
                  + (f"{rec['sm']} SM to spend" if rec["sm"] else "no SM to spend"))
    elif case.outcome != "holmes_killed":
        out.print(f"  SM {case.sm} lost; Luck {case.luck} -> {rec['luck']} (half lost, rounded "
                  "up, R007)")
    if roll:
        out.print(f"  no SM and no Luck left: loss table 1d6 = {roll[0]}: "
                  f"{T.LOSS_WORDS[roll[1]]} (seed {seed})")
    if summary["game_over"]:
        out.print(styled("  [red bold]the game is over[/]: Holmes is dead"))
        return
    nxt = f"'deduce story next {record_file} --adventure ID'"
    cheapest = cheapest_purchase(rec)
    if rec["sm"] >= cheapest:
        out.print(f"  next: 'deduce story spend ... {record_file}' (R010), then {nxt}")
    elif rec["sm"]:
        out.print(f"  next: {nxt} ({rec['sm']} SM is too little to buy anything: the cheapest "
                  f"purchase costs {cheapest}; at most 1 SM goes on to the next case, R001)")
    else:
        out.print(f"  next: {nxt}")


@story.group()
def spend() -> None:
    """Spend the SM of a closed case (R010); FILE is rewritten atomically, and a purchase
    that is not affordable or not allowed changes nothing (exit 2).

    \b
    Costs:
      quality    +1 to a Quality: half its value, rounded up (at most +4 in a campaign)
      trait      a new Trait 3, level 1->2 4, 2->3 6 (never above 3; Holmes never Medicine)
      equipment  5: roll 1d6 on the equipment line
      friend     6: a surviving Ally becomes a Friend, +4 split over the Qualities, Aware
                 (at most 3 Friends)

    JSON keys of every purchase: file, bought, what, cost, sm_before, sm_left, and the
    purchase's own (see each command).

    \b
    Examples:
      deduce story spend quality case.json --quality Brains
      deduce story spend trait case.json --who watson --trait Tracking
      deduce story spend equipment case.json --seed 4
      deduce story spend friend case.json --ally m404 --split 1,2,1
    """


def _spent(record_file: str, before: dict, after: dict, bought: str, what: str,
           as_json: bool, **extra) -> None:
    from deduce.core.records import write_json_atomic

    write_json_atomic(record_file, after)
    doc = {"file": record_file, "bought": bought, "what": what,
           "cost": before["sm"] - after["sm"], "sm_before": before["sm"], "sm_left": after["sm"],
           **extra}
    if as_json:
        print_json(doc)
    else:
        out.print(styled(f"[bold]{esc(record_file)}[/]: {esc(what)} for {doc['cost']} SM; "
                         f"{doc['sm_left']} SM left"))


_WHO = click.option("--who", type=click.Choice(["holmes", "watson"], case_sensitive=False),
                    default="holmes", show_default=True)


@spend.command(name="quality")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@_WHO
@click.option("--quality", required=True, help="Brains, Brawn or Bravery.")
@_DATA
@_JSON
@reports_errors
@writes_record
def spend_quality(record_file: str, who: str, quality: str, data_dir, as_json: bool) -> None:
    """+1 to a Quality of Holmes or Watson for half its value in SM, rounded up.

    JSON: also who, quality, from, to.

    \b
    Example:
      deduce story spend quality case.json --quality Brains
    """
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.models.detective_story import campaign as C
    from deduce.models.detective_story import tables as T

    raw, _ = _load_between(record_file, data_dir)
    who = who.lower()
    name = resolve(quality, T.QUALITIES, "quality", where="--quality")
    try:
        after = C.spend_quality(raw, who, name)
    except InputError as exc:
        raise _at(record_file, exc, {"quality": f"{who}.{name.lower()}", "who": who}) from None
    q = name.lower()
    _spent(record_file, raw, after, "quality",
           f"{who.capitalize()} {name} {raw[who][q]} -> {after[who][q]}", as_json,
           who=who, quality=name, **{"from": raw[who][q], "to": after[who][q]})


@spend.command(name="trait")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@_WHO
@click.option("--trait", required=True, help="The Trait to gain or raise by one level.")
@_DATA
@_JSON
@reports_errors
@writes_record
def spend_trait(record_file: str, who: str, trait: str, data_dir, as_json: bool) -> None:
    """Gain a Trait (3 SM) or raise it one level (1->2: 4 SM, 2->3: 6 SM).

    JSON: also who, trait, from, to (levels; 0: not held).

    \b
    Example:
      deduce story spend trait case.json --who watson --trait Tracking
    """
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.models.detective_story import campaign as C
    from deduce.models.detective_story import tables as T

    raw, _ = _load_between(record_file, data_dir)
    who = who.lower()
    name = resolve(trait, T.TRAITS, "trait", where="--trait")
    try:
        after = C.spend_trait(raw, who, name)
    except InputError as exc:
        raise _at(record_file, exc, {"trait": f"{who}.traits", "who": who}) from None
    lv = raw[who].get("traits", {}).get(name, 0)
    _spent(record_file, raw, after, "trait", f"{who.capitalize()} {name} {lv} -> {lv + 1}",
           as_json, who=who, trait=name, **{"from": lv, "to": lv + 1})


@spend.command(name="equipment")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--seed", type=SEED, help="Seed for the 1d6 (default: a fresh one, echoed).")
@_DATA
@_JSON
@reports_errors
@writes_record
def spend_equipment(record_file: str, seed, data_dir, as_json: bool) -> None:
    """5 SM: roll 1d6 on the campaign's equipment line; Holmes gains its Traits.

    JSON: also equipment (paragraph id), title, seed.

    \b
    Example:
      deduce story spend equipment case.json --seed 4
    """
    import random

    from deduce.core.errors import InputError
    from deduce.models.detective_story import campaign as C

    raw, data = _load_between(record_file, data_dir)
    seed = _seed(seed)
    try:
        after = C.spend_equipment(raw, data, random.Random(seed))
    except InputError as exc:
        raise _at(record_file, exc) from None
    got = after["equipment"][-1]
    title = data.paragraphs[got].title
    _spent(record_file, raw, after, "equipment", f"equipment {got} {title} (seed {seed})",
           as_json, equipment=got, title=title, seed=seed)


def _parse_split(text: str) -> tuple[int, int, int]:
    from deduce.core.errors import InputError
    from deduce.models.detective_story import tables as T

    from deduce.core.numbers import whole_number

    parts = text.split(",")
    if len(parts) != 3:
        raise InputError(f"expected BRAINS,BRAWN,BRAVERY such as 2,1,1, got {literal(text)!r}",
                         where="--split")
    split = tuple(whole_number(p, 0, T.FRIEND_QUALITY_POINTS, f"the {q} points", where="--split")
                  for p, q in zip(parts, ("Brains", "Brawn", "Bravery")))
    if sum(split) != T.FRIEND_QUALITY_POINTS:
        raise InputError(f"the points must add up to {T.FRIEND_QUALITY_POINTS}, got {sum(split)}",
                         where="--split")
    return split


@spend.command(name="friend")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--ally", required=True, help="The surviving Ally (paragraph id or name).")
@click.option("--split", "split_text", required=True, metavar="B,BR,BV",
              help="The +4 over Brains, Brawn, Bravery, e.g. 2,1,1.")
@click.option("--replace", help="With 3 Friends already: the Friend the new one replaces.")
@_DATA
@_JSON
@reports_errors
@writes_record
def spend_friend(record_file: str, ally: str, split_text: str, replace, data_dir,
                 as_json: bool) -> None:
    """6 SM: a surviving Ally of the case becomes a Friend, who joins every later case:
    +4 to the Qualities as split, and Aware if missing. At most 3 Friends; Watson is not
    one of them.

    JSON: also friend (id, name, brains, brawn, bravery, traits), replaced (id or null).

    \b
    Example:
      deduce story spend friend case.json --ally m404 --split 1,2,1
    """
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.models.detective_story import campaign as C

    raw, data = _load_between(record_file, data_dir)
    split = _parse_split(split_text)
    allies = [a["id"] for a in raw.get("allies", [])]
    if not allies:
        raise InputError("field 'allies': no Ally was with Holmes at the end of the case",
                         where=record_file, field="allies")

    def name(cid: str) -> str:
        return data.paragraphs[cid].character.name

    def pick(text: str, ids: list[str], kind: str, where: str) -> str:
        """An id from ``ids`` named by its id or its character's name."""
        by_name = {name(c): c for c in ids}
        hit = resolve(text, ids + [n for n in by_name if n not in ids], kind, where=where)
        return by_name.get(hit, hit)

    cid = pick(ally, allies, "surviving Ally", "--ally")
    friends = [f["id"] for f in raw.get("friends", [])]
    if replace is not None and friends:
        replace = pick(replace, friends, "Friend", "--replace")
    try:
        after = C.spend_friend(raw, data, cid, split, replace)
    except InputError as exc:
        raise _at(record_file, exc, {"friend": "friends", "replace": "--replace",
                                     "split": "--split"}) from None
    sheet = dict(after["friends"][-1], name=name(cid))
    what = f"{sheet['name']} ({cid}) a Friend" + (f" in place of {replace}" if replace else "")
    _spent(record_file, raw, after, "friend", what, as_json, friend=sheet, replaced=replace)


@story.command(name="next")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--adventure", required=True, help="The next case's Adventure (id or name).")
@click.option("--seed", type=SEED, help="Seed for the dice of the Adventure's start rules "
                                       "(default: a fresh one, echoed and kept in the record).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="Write the new case here and leave FILE as it is (default: rewrite FILE).")
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
@_DATA
@_JSON
@reports_errors
@writes_record
def next_(record_file: str, adventure: str, seed, out_file, force, data_dir,
          as_json: bool) -> None:
    """Start the next case from the record between cases in FILE: turn 1, at most 1 SM
    carried over (R001; the rest is lost), Luck kept, wounds, Addiction and Madness healed,
    Friends along as Allies. FILE is rewritten atomically, or with --out the new case goes
    to another file and FILE keeps the record between cases. Refused (exit 2) when the game
    is over or FILE is not between cases.

    JSON keys: file (the record written), from, adventure, name, turn, sm, sm_forfeited,
    luck, watson_alive, friends, equipment, seed.

    \b
    Examples:
      deduce story next case.json --adventure a002 --seed 8
      deduce story next case.json --adventure saltmarsh --out case2.json --json
    """
    from pathlib import Path

    from deduce.core.errors import InputError
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story.campaign import next_record

    raw, data = _load_between(record_file, data_dir)
    adv = data.adventure(adventure, where="--adventure")
    target = out_file or record_file
    if out_file and Path(out_file).exists() and not force:
        raise InputError("file exists (use --force to overwrite)", where=out_file)
    seed = _seed(seed)
    try:
        rec = next_record(raw, data, adv.id, seed)
    except InputError as exc:
        raise _at(record_file, exc) from None
    if data_dir:
        rec["data"] = str(Path(data_dir).resolve())
    write_json_atomic(target, rec)
    doc = {"file": target, "from": record_file, "adventure": adv.id, "name": adv.name,
           "turn": rec["turn"], "sm": rec["sm"], "sm_forfeited": raw["sm"] - rec["sm"],
           "luck": rec["luck"], "watson_alive": rec.get("watson") is not None,
           "friends": [f["id"] for f in rec.get("friends", [])],
           "equipment": rec.get("equipment", []), "seed": seed}
    if as_json:
        print_json(doc)
        return
    lost = f" ({doc['sm_forfeited']} unspent SM lost, R001)" if doc["sm_forfeited"] else ""
    party = ", ".join((["Watson"] if doc["watson_alive"] else []) + doc["friends"]) or "alone"
    out.print(styled(f"[bold]{esc(target)}[/]: {esc(adv.id)} {esc(adv.name)}, turn 1, SM "
                     f"{rec['sm']}{lost}, Luck {rec['luck']}, with {esc(party)}, seed {seed}"))
