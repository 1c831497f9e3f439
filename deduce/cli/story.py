"""``deduce story``: the Sherlock Holmes Detective Story Game (solo): campaigns, case
records, a turn played from the table's dice, exact odds and advice, self-play."""

from __future__ import annotations

import click

from deduce.cli.common import (
    GAMES,
    SEED,
    err,
    literal,
    out,
    print_json,
    reports_errors,
    writes_record,
)
from deduce.cli.selfplay import bot_names, play_match, selfplay_options
from deduce.cli.story_view import print_selfplay, print_warnings

DATA_OPTION = click.option("--data", "data_dir", type=click.Path(file_okay=False),
                           help="Campaign folder of *.toml files (default: the record's, else "
                                "the shipped sample campaign).")
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
NO_CACHE_OPTION = click.option("--no-cache", "no_cache", is_flag=True,
                               help="Neither read nor write the solved case in the cache "
                                    "folder (see 'deduce story cache').")


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
      deduce story selfplay --bots greedy --games 2000 --seed 1
      deduce story selfplay --bots optimal --games 500 --seed 1 --from case.json --json
      deduce story cache

    \b
    Between cases (a campaign):
      deduce story end case.json
      deduce story spend quality case.json --quality Brains
      deduce story next case.json --adventure a002 --seed 8
    """


def _load(record_file: str, data_dir: str | None):
    """The case record in FILE (``state.load_case``)."""
    from deduce.models.detective_story.state import load_case

    return load_case(record_file, data_dir)


@story.command(name="list")
@DATA_OPTION
@JSON_OPTION
@reports_errors
def list_(data_dir: str | None, as_json: bool) -> None:
    """The campaign's Adventures.

    \b
    Example:
      deduce story list --json
    """
    from deduce.cli.story_view import adventures_table
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.reports import adventure_list

    data = load_campaign(data_dir)
    print_warnings(data)
    if as_json:
        print_json(adventure_list(data))
        return
    out.print(adventures_table(data))


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
@DATA_OPTION
@JSON_OPTION
@reports_errors
@writes_record
def new(record_file: str, adventure, seed, traits, equipment, force, data_dir, as_json) -> None:
    """Write a fresh case record at turn 1 to FILE (atomically).

    \b
    Example:
      deduce story new --adventure a001 --seed 7 case.json
    """
    from deduce.cli.story_view import new_line
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story.campaign import new_record
    from deduce.models.detective_story.data import load_campaign

    _refuse_overwrite(record_file, force)
    data = load_campaign(data_dir)
    print_warnings(data)
    seed = _seed(seed)
    rec = new_record(data, adventure, seed, [t.strip() for t in traits.split(",") if t.strip()],
                     equipment, data_dir)
    write_json_atomic(record_file, rec)
    if as_json:
        print_json(rec)
    else:
        out.print(new_line(record_file, data.adventures[rec["adventure"]], rec, seed))


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@DATA_OPTION
@JSON_OPTION
@reports_errors
def state(record_file: str, data_dir, as_json: bool) -> None:
    """The case at a glance: turn, SM against the Motive value, Luck, party, the Villain's
    candidates, which Actions are legal (and why not), and the exact odds of each.

    \b
    Example:
      deduce story state case.json
    """
    from deduce.cli.story_view import state_view
    from deduce.models.detective_story.odds import state_report

    cf = _load(record_file, data_dir)
    print_warnings(cf.data)
    report = state_report(cf.ctx, cf.case, cf.phase, cf.waited)
    if as_json:
        print_json(report)
        return
    for part in state_view(report):
        out.print(part)


def _parse_roll(text: str) -> tuple[str, int]:
    """``ACTION=N`` of ``--roll``: an Action with a 2d6 table and the natural total."""
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.core.numbers import whole_number
    from deduce.models.detective_story import tables as T

    name, sep, value = text.partition("=")
    if not sep:
        raise InputError(f"expected ACTION=N such as investigate=7, got {literal(text)!r}",
                         where="--roll")
    action = resolve(name, list(T.ACTION_TABLES), "action with a 2d6 table", where="--roll",
                     aliases=T.ACTION_ALIASES)
    return action, whole_number(value, 2, 12, "the natural 2d6 total", where="--roll")


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--roll", "roll", metavar="ACTION=N",
              help="The 2d6 just rolled for ACTION (natural dice, 2-12): should 1 Luck re-roll it?")
@NO_CACHE_OPTION
@DATA_OPTION
@JSON_OPTION
@reports_errors
def advise(record_file: str, roll: str | None, no_cache: bool, data_dir, as_json: bool) -> None:
    """The Action maximising P(the Villain is arrested by the end of turn 12), with that
    probability for every legal Action (exact dynamic programming); with --roll, whether
    to spend a Luck point on re-rolling the dice just rolled.

    A won case counts an arrest and a Villain killed in a fight (the case "ends
    successfully", R009b). The whole case is solved for every SM and Luck at once: from a
    fresh case of the shipped campaign about 15-36 s and 0.9-1.8 GB of memory the first
    time (a spinner shows on a terminal); from turn 8 on, with the Villain known, about a
    second. The solved case is kept in the cache folder (`deduce story cache`), so every
    later `advise`, `table` or optimal `selfplay --from` on the same case reads the part
    of it that state needs (about a third of a second in all) instead of solving again;
    --no-cache neither reads nor writes it and keeps only the next two turns in memory (a
    fresh case: 11-26 s, 0.4-0.7 GB, every time).

    \b
    Examples:
      deduce story advise case.json
      deduce story advise case.json --json
      deduce story advise case.json --roll explore=6
      deduce story advise case.json --no-cache
    """
    from deduce.cli.story_view import case_over, print_advice, reroll_text, solving
    from deduce.models.detective_story import store
    from deduce.models.detective_story.advice import advise as run
    from deduce.models.detective_story.advice import solver_for
    from deduce.models.detective_story.reports import advice_document, check_reroll, reroll_for

    cf = _load(record_file, data_dir)
    print_warnings(cf.data)
    asked = None
    if roll:
        check_reroll(cf)
        asked = _parse_roll(roll)
    solver = solver_for(cf.ctx)
    rr = None
    with solving(solver):
        store.prepare(solver, cf.case, cf.phase, cf.waited, use_cache=not no_cache)
        if asked:
            rr = reroll_for(cf, *asked, solver)
        advice = run(cf.ctx, cf.case, cf.phase, cf.waited, solver=solver)
    if as_json:
        print_json(advice_document(cf, advice, rr))
        return
    if cf.case.over:
        out.print(case_over(cf.case.outcome))
        return
    print_advice(cf.case, cf.phase, advice)
    if rr is not None:
        out.print(reroll_text(rr))


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.argument("action", metavar="[ACTION]", required=False)
@click.option("-a", "--answer", "answers", multiple=True, metavar="TEXT",
              help="What the dice or the player said, in the order asked (repeat the option); "
                   "on a terminal, anything still needed is asked.")
@click.option("--action-only", is_flag=True,
              help="Record the Action only: the record then waits for the Encounter Matrix "
                   "(phase encounter; run turn FILE again without ACTION).")
@DATA_OPTION
@JSON_OPTION
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

    from deduce.cli.story_view import print_turn
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story import engine as E
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.live import Answers, play_turn
    from deduce.models.detective_story.reports import turn_document
    from deduce.models.detective_story.state import case_to_record

    cf = _load(record_file, data_dir)
    print_warnings(cf.data)
    if action is not None:
        action = resolve(action, list(E.ALL_ACTIONS), "action", where="ACTION",
                         aliases=T.ACTION_ALIASES)
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
    told.check_all_used()
    rec = case_to_record(cf, done.case, done.phase, done.waited, log=done.log)
    write_json_atomic(record_file, rec)
    doc = turn_document(record_file, played_turn, action, done, rec)
    if as_json:
        print_json(doc)
    else:
        print_turn(record_file, doc)


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
@NO_CACHE_OPTION
@DATA_OPTION
@selfplay_options(games=1000, bots_help="The policy playing the cases (the game is solo: one "
                                        "bot): optimal, greedy or random. Required (or its "
                                        "old spelling --policy).")
@reports_errors
def selfplay(policy, cases, from_file, adventure, no_cache, data_dir, games, seed, workers,
             scheduler, bots, as_json) -> None:
    """Play many cases with a policy: arrest rate (Wilson 95% interval), mean turns,
    deaths, Luck spent. Deterministic for a seed (whatever the workers or the cluster).

    The game is solo: --bots names one policy, optimal (the DP), greedy or random;
    --games is the number of cases. Old spellings, still taken: --policy P for --bots P,
    --cases N for --games N. With --from, the optimal policy's DP is solved once for the
    whole case before the workers start (local workers share it; it is read from the
    cache folder if an earlier command solved the case, and written there otherwise:
    --no-cache neither reads nor writes it); on a Dask cluster once per worker process.

    JSON: the self-play envelope {"game": "detective-story", "players": 1, "games",
    "seed", "workers", "scheduler", "elapsed_s", "bots": [{"name", "win_share", "ci95",
    "mean_turns"}], then "policy", "cases", "arrest_rate", "ci95", "wins",
    "mean_turns", "deaths", "party_deaths", "luck_spent", "mean_luck_spent",
    "outcomes": {outcome: cases}, "adventure", "from"}.

    \b
    Examples:
      deduce story selfplay --bots random --games 5000 --seed 1
      deduce story selfplay --bots optimal --games 500 --seed 1 --from case.json --json
      deduce story selfplay --bots optimal --games 500 --from case.json --workers 2 --no-cache
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
        print_warnings(cf.data)
        record = read_json(from_file)
        data_dir = data_dir or data_folder(record, from_file)
    match = Match(games, seed, names, 1, workers=workers, scheduler=scheduler,
                  setup=story_setup(record, data_dir, adventure, from_file,
                                    cache=not no_cache))
    play_match(GAME, match, as_json, print_selfplay)


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
    from deduce.models.detective_story.campaign import check_between
    from deduce.models.detective_story.state import read_record

    raw, data = read_record(record_file, data_dir)
    print_warnings(data)
    return check_between(raw, record_file, data), data


def _refuse_overwrite(path: str, force: bool) -> None:
    """FILE is not overwritten unless --force."""
    from pathlib import Path

    from deduce.core.errors import InputError

    if Path(path).exists() and not force:
        raise InputError("file exists (use --force to overwrite)", where=path)


@story.command()
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--time-up", is_flag=True,
              help="Turn 12 has been played without an arrest: close the case as lost "
                   "(outcome time_up, R007). Only for a record at turn 12 with no outcome.")
@click.option("--seed", type=SEED, help="Seed for the loss table's 1d6 (default: a fresh one, "
                                       "echoed).")
@DATA_OPTION
@JSON_OPTION
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

    from deduce.cli.story_view import print_end
    from deduce.core.errors import InputError
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story.campaign import case_to_close, cheapest_purchase, close_case
    from deduce.models.detective_story.reports import end_document

    cf = _load(record_file, data_dir)
    print_warnings(cf.data)
    try:
        case = case_to_close(cf.case, cf.phase, time_up)
    except InputError as exc:
        raise _at(record_file, exc, {"time_up": "--time-up"}) from None
    seed = _seed(seed)
    try:
        rec, roll = close_case(cf, case, random.Random(seed))
    except InputError as exc:
        raise _at(record_file, exc) from None
    write_json_atomic(record_file, rec)
    summary = end_document(record_file, case, rec, roll, seed)
    if as_json:
        print_json(summary)
        return
    print_end(record_file, cf.ctx.adventure, summary, cheapest_purchase(rec))


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


def _spent(record_file: str, after: dict, doc: dict, as_json: bool) -> None:
    """Write the record after a purchase and say what was bought (``reports``' document)."""
    from deduce.cli.story_view import purchase_line
    from deduce.core.records import write_json_atomic

    write_json_atomic(record_file, after)
    if as_json:
        print_json(doc)
    else:
        out.print(purchase_line(doc))


_WHO = click.option("--who", type=click.Choice(["holmes", "watson"], case_sensitive=False),
                    default="holmes", show_default=True)


@spend.command(name="quality")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@_WHO
@click.option("--quality", required=True, help="Brains, Brawn or Bravery.")
@DATA_OPTION
@JSON_OPTION
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
    from deduce.models.detective_story.reports import quality_purchase

    raw, _ = _load_between(record_file, data_dir)
    who = who.lower()
    name = resolve(quality, T.QUALITIES, "quality", where="--quality")
    try:
        after = C.spend_quality(raw, who, name)
    except InputError as exc:
        raise _at(record_file, exc, {"quality": f"{who}.{name.lower()}", "who": who}) from None
    _spent(record_file, after, quality_purchase(record_file, raw, after, who, name), as_json)


@spend.command(name="trait")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@_WHO
@click.option("--trait", required=True, help="The Trait to gain or raise by one level.")
@DATA_OPTION
@JSON_OPTION
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
    from deduce.models.detective_story.reports import trait_purchase

    raw, _ = _load_between(record_file, data_dir)
    who = who.lower()
    name = resolve(trait, T.TRAITS, "trait", where="--trait")
    try:
        after = C.spend_trait(raw, who, name)
    except InputError as exc:
        raise _at(record_file, exc, {"trait": f"{who}.traits", "who": who}) from None
    _spent(record_file, after, trait_purchase(record_file, raw, after, who, name), as_json)


@spend.command(name="equipment")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--seed", type=SEED, help="Seed for the 1d6 (default: a fresh one, echoed).")
@DATA_OPTION
@JSON_OPTION
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
    from deduce.models.detective_story.reports import equipment_purchase

    raw, data = _load_between(record_file, data_dir)
    seed = _seed(seed)
    try:
        after = C.spend_equipment(raw, data, random.Random(seed))
    except InputError as exc:
        raise _at(record_file, exc) from None
    _spent(record_file, after, equipment_purchase(record_file, raw, after, data, seed), as_json)


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
@DATA_OPTION
@JSON_OPTION
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
    from deduce.models.detective_story.reports import friend_purchase

    raw, data = _load_between(record_file, data_dir)
    split = _parse_split(split_text)
    try:
        allies = C.surviving_allies(raw)
    except InputError as exc:
        raise _at(record_file, exc) from None

    def pick(text: str, ids: list[str], kind: str, where: str) -> str:
        """An id from ``ids`` named by its id or its character's name."""
        by_name = {data.paragraphs[c].character.name: c for c in ids}
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
    _spent(record_file, after, friend_purchase(record_file, raw, after, data, cid, replace),
           as_json)


@story.command(name="next")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--adventure", required=True, help="The next case's Adventure (id or name).")
@click.option("--seed", type=SEED, help="Seed for the dice of the Adventure's start rules "
                                       "(default: a fresh one, echoed and kept in the record).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="Write the new case here and leave FILE as it is (default: rewrite FILE).")
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
@DATA_OPTION
@JSON_OPTION
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
    from deduce.cli.story_view import next_line
    from deduce.core.errors import InputError
    from deduce.core.records import write_json_atomic
    from deduce.models.detective_story.campaign import next_record
    from deduce.models.detective_story.reports import next_document

    raw, data = _load_between(record_file, data_dir)
    adv = data.adventure(adventure, where="--adventure")
    target = out_file or record_file
    if out_file:
        _refuse_overwrite(out_file, force)
    seed = _seed(seed)
    try:
        rec = next_record(raw, data, adv.id, seed, data_dir)
    except InputError as exc:
        raise _at(record_file, exc) from None
    write_json_atomic(target, rec)
    doc = next_document(target, record_file, adv, raw, rec, seed)
    if as_json:
        print_json(doc)
    else:
        out.print(next_line(doc))
