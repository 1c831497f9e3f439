"""``deduce case``: case notes (The Lost Diaries) and logic-grid puzzles as SAT models.

Every command takes CASE: a path to a case file (TOML, ../shared/specs/case-notes.md) or
the name of a shipped case (``deduce case list``; file stem or title, unambiguous
abbreviations allowed). Exit codes: 0 ok, 2 bad input (file, note number, column, closest
names), 3 contradictory notes (a minimal conflicting set of notes).

JSON shapes (``--json``; only JSON on stdout):

- ``list``: ``[{"name", "title", "size": "4x5", "categories", "items", "notes",
  "questions", "sources"}]``.
- ``solve``: the spec's ``{"status", "solutions", "answers", "grid"}`` (see
  ``deduce.models.casenotes.advice``).
- ``why``: ``{"rule", "status": "forced"|"impossible", "notes": [i], "note_texts": [...],
  "axioms": [...]}`` or ``{"rule", "status": "open", "holds_in": solution, "fails_in":
  solution}`` with solution ``{"grid": [...], "attributes": {...}, "unknowns": {...}}``.
- ``check``: ``{"unique", "solutions", "solution_matches", "redundant_notes",
  "minimal_sources", "difficulty", ...}`` (see ``deduce.models.casenotes.check``).
- ``explain``: ``{"case", "from_notes", "complete", "steps": [spec step objects], "open",
  "profile", "fallback_steps", "seconds"}`` (see ``deduce.models.casenotes.explain``).
- ``play``: ``{"case", "mode", "seed", "strategies", "rounds", "winners", "bots", "log",
  "truth", ...}`` (see ``deduce.models.casenotes.rules``).
- ``selfplay``: the self-play envelope ``{"game", "players", "games", "seed", "workers",
  "scheduler", "elapsed_s", "bots": [...], "case", "mode", "strategies", "mean_rounds",
  "ends", "no_winner" or "team": {...}}`` (see the command's help and
  ``deduce.models.casenotes.selfplay``).

``table`` is a live session (no JSON output): its record's format is in
``deduce.models.casenotes.table``.
"""

from __future__ import annotations

import click

from deduce.cli.common import (
    SEED,
    WholeNumber,
    esc,
    out,
    print_json,
    progress_bar,
    reports_errors,
)
from deduce.cli.selfplay import bot_names, play_match, selfplay_options

_CASE = click.argument("case_arg", metavar="CASE")
#: bots at a table (the game takes 2 to 7 players; 1 plays solo) and carriage tokens
BOTS = WholeNumber(1, 7)
TOKENS = WholeNumber(0, 1000)
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
      deduce case explain half-moon-mews
      deduce case explain lantern-street --from-notes 0,3,5 --json
      deduce case play lantern-street --bots 3 --seed 7
      deduce case selfplay lantern-street --bots 4 --games 200 --workers 2
      deduce case table notes.json --case lantern-street
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
    from deduce.models.casenotes.format import case_summary, load_case, shipped_cases

    rows = [case_summary(load_case(str(path))) for path in shipped_cases()]
    if as_json:
        print_json(rows)
        return
    from deduce.cli.case_view import print_list

    print_list(rows)


@case.command()
@_CASE
@_JSON
@reports_errors
def solve(case_arg: str, as_json: bool) -> None:
    """Status, number of solutions, every possible answer, and the grid when unique.

    JSON: {"status": "unique"|"multiple", "solutions": n, "answers": {question:
    {"possible": [...]}}, "grid": [rows in key order]} ("grid" only when the grid is the
    same in every solution; "solutions_at_least": true when n is a lower bound, past
    10,000 or past the counting cap of 50,000,000 solver propagations). Contradictory
    notes: exit 3, a minimal set of conflicting notes.

    \b
    Examples:
      deduce case solve zebra
      deduce case solve my-case.toml --json
    """
    from deduce.models.casenotes.advice import solve_case
    from deduce.models.casenotes.format import load_case

    c = load_case(case_arg)
    result = solve_case(c, cells=not as_json)
    if as_json:
        print_json(result.to_json())
        return
    from deduce.cli.case_view import print_solve

    print_solve(c, result)


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
    from deduce.models.casenotes.advice import why_rule
    from deduce.models.casenotes.format import load_case

    c = load_case(case_arg)
    result = why_rule(c, rule)
    if as_json:
        print_json(result.to_json())
        return
    from deduce.cli.case_view import print_why

    print_why(c, result)


@case.command()
@_CASE
@click.option("--no-profile", "no_profile", is_flag=True,
              help="Skip the difficulty profile (it runs the whole explanation).")
@_JSON
@reports_errors
def check(case_arg: str, no_profile: bool, as_json: bool) -> None:
    """Setter checks: uniqueness, [solution], redundant notes, the fewest sources to visit,
    and the difficulty profile of the step-wise explanation.

    JSON: {"unique", "solutions", "solution_matches", "solution_is_a_solution",
    "redundant_notes", "minimal_sources", "difficulty"}: "solution_matches" is true when
    every solution agrees with [solution], "solution_is_a_solution" when some solution
    does (with several solutions: [solution] is one of them), both null without a
    [solution]; with "witnesses" (two solutions) and "differences" ([{"cell",
    "values"}]) when not unique, "solution_mismatches" when [solution] disagrees,
    "minimal_sources_reason" when no set of sources fixes every answer. "difficulty":
    {"steps": number of explanation steps, "hardest_cost": the costliest step's cost,
    "multi_note_steps": steps that need two notes or more, "total_cost": the sum of the
    step costs, "complete": whether the steps fix the whole solution}; costs as in
    `deduce case explain` (100 per note, 60 per axiom kind, 1 per earlier step cited).

    \b
    Examples:
      deduce case check lantern-street
      deduce case check my-case.toml --json
    """
    from deduce.models.casenotes.check import check_case
    from deduce.models.casenotes.format import load_case

    c = load_case(case_arg)
    report = check_case(c, profile=not no_profile)
    if as_json:
        print_json(report.to_json())
        return
    from deduce.cli.case_view import print_check

    print_check(c, report)


def _note_list(text: str | None, case) -> list[int] | None:
    """``--from-notes 0,3,5`` as sorted distinct note indices (None when not given); exit 2
    naming the option for anything but note numbers of the case (read by ``core.numbers``)."""
    if text is None:
        return None
    from deduce.core.errors import InputError
    from deduce.core.numbers import read_whole_number

    out = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        number = read_whole_number(part)
        if number is None or number < 0:
            shown = part if len(part) <= 40 else part[:40] + "..."
            raise InputError(f"expected note numbers separated by commas (like 0,3,5), got "
                             f"{shown!r}", where="--from-notes")
        if number >= len(case.notes):
            have = f"notes 0 to {len(case.notes) - 1}" if case.notes else "no notes"
            raise InputError(f"no note {number}: the case has {have}", where="--from-notes")
        out.add(number)
    return sorted(out)


def _step_progress(advance):
    """``explain_case``'s ``on_step(step, derived, targets)`` as the moves of a
    ``common.progress_bar`` (``advance(k, total)``), whose total is not known before."""
    shown = [0]

    def on_step(_step, done: int, total: int) -> None:
        advance(done - shown[0], total=total)
        shown[0] = done

    return on_step


@case.command()
@_CASE
@click.option("--from-notes", "from_notes", metavar="I,J,...",
              help="Explain from these notes only (indices from 0, file order): what a player "
                   "knows so far. The derivation stops when nothing more follows.")
@_JSON
@reports_errors
def explain(case_arg: str, from_notes: str | None, as_json: bool) -> None:
    """The whole solution as numbered reasoning steps, easiest first.

    Each step derives new grid facts (Basil == hour[9], Basil != Attic, ...) from a few
    notes, grid axioms (bijection: each item matches exactly one item of every other
    category; transitivity; one-value: each attribute and unknown has one value) and
    earlier steps. No step uses more than it needs: dropping any note, axiom or earlier
    step it cites leaves some of its facts unproven. Cost of a step: 100 per note, 60 per
    axiom kind, 1 per earlier step cited; the cheapest possible step comes next. Shown as
    numbered steps (from 1) quoting the notes, the axioms in words and the earlier steps
    cited, with the grid after each step that changes it.

    JSON: {"case": title, "from_notes": [i, ...] or null, "complete": true when the steps
    fix the whole solution, "steps": [{"derived": [fact, ...], "notes": [i, ...],
    "axioms": [kind, ...], "facts": [earlier step index, ...], "cost": n}, ...] (step and
    note indices from 0), "open": [{"cell", "possible": [...]}] (cells still open),
    "profile": {"steps", "hardest_cost", "multi_note_steps", "total_cost", "complete"},
    "fallback_steps": steps found without the cheapest-first guarantee, "seconds":
    {"first_step", "total"}}. Contradictory notes: exit 3.

    \b
    Examples:
      deduce case explain half-moon-mews
      deduce case explain zebra --json
      deduce case explain lantern-street --from-notes 0,4,6
    """
    from deduce.models.casenotes.explain import explain_case
    from deduce.models.casenotes.format import load_case

    c = load_case(case_arg)
    notes = _note_list(from_notes, c)
    with progress_bar(None, "explaining") as advance:
        e = explain_case(c, notes, on_step=_step_progress(advance))
    if as_json:
        print_json(e.to_json())
        return
    from deduce.cli.case_view import print_explanation

    print_explanation(c, e)


@case.command()
@_CASE
@click.option("--bots", "n_bots", type=BOTS, default=3, show_default=True,
              help="Number of bots (the game takes 2 to 7 players; 1 plays solo).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed: the first Start Player and the bots' tie-breaks.")
@click.option("--mode", type=click.Choice(["competitive", "cooperative"]), default="competitive",
              show_default=True)
@click.option("--strategy", "strategy", default="informed", show_default=True,
              metavar="NAME[,NAME...]",
              help="Bot strategies, cycled over the seats: informed (reads each location's "
                   "notes in advance: an upper bound) or fair (only what a player sees).")
@click.option("--tokens", type=TOKENS, default=None,
              help="Carriage tokens at the start (default: 10 each; cooperative: the highest "
                   "location number minus 3).")
@_JSON
@reports_errors
def play(case_arg: str, n_bots: int, seed: int, mode: str, strategy: str, tokens: int | None,
         as_json: bool) -> None:
    """Self-play of a case with The Lost Diaries' rules: who solves it, in how many rounds.

    Each note source is a location; a bot visiting it reads its notes (notes without a
    source are known from the start). One bot per location per round: contested
    locations go to the highest carriage-token bid (a displaced bot loses one token and
    chooses again); the Carriage Stop gives 3 tokens; a bot goes to 221B Baker Street when
    its notes fix every answer (or nothing is left to visit: it guesses): all answers
    right wins, a wrong one eliminates. Cooperative mode: one team pawn, one token per
    trip, scored as in the rulebook and compared with a perfect game (one token per
    location of `check`'s minimal source set).

    JSON: {"case", "mode", "seed", "strategies", "rounds", "winners": [seat, ...], "end":
    "solved"|"all eliminated"|"alone, out of rounds"|"wrong answer"|"round cap", "bots":
    [{"seat", "strategy", "status": "won"|"eliminated"|"playing", "tokens", "spent",
    "gained", "visited", "answered_round", "answers", "correct"}], "truth": {question:
    answer}, "log": [{"round", "start_player", "moves": [{"seat", "action":
    "visit"|"stop"|"221B", "location", "bid", "displaces": seat or null}] in turn order,
    "answers": [{"seat", "correct", "of", "won"}]}]}, and in cooperative mode
    "cooperative": {"tokens_start", "tokens_spent", "tokens_needed", "carriage_stop_used",
    "score", "best_score", "outcome"}.

    \b
    Examples:
      deduce case play lantern-street --bots 3 --seed 7
      deduce case play kew-orchid --bots 4 --strategy informed,fair --json
      deduce case play lantern-street --mode cooperative --bots 2
    """
    from deduce.models.casenotes.format import load_case
    from deduce.models.casenotes.rules import play_game

    c = load_case(case_arg)
    strategies = _strategies(strategy)
    report = play_game(c, n_bots, seed, mode, strategies, tokens)
    if as_json:
        print_json(report.to_json())
        return
    from deduce.cli.case_view import print_play

    print_play(c, report.to_json())


@case.command()
@click.argument("record_file", metavar="RECORD", type=click.Path())
@click.option("--case", "case_arg", metavar="CASE",
              help="New record only: the case (a case file or a shipped case's name).")
@reports_errors
def table(record_file: str, case_arg: str | None) -> None:
    """Live play: enter the locations you visit and the notes you read, one line at a
    time; each entry is saved to RECORD at once, and you see what your notes allow.

    RECORD (JSON: {"game": "case-notes", "case": CASE, "read": [note numbers in reading
    order]}) is created if missing, for --case (ignored, with a note, when RECORD exists).
    A second session on RECORD is refused. Commands:

    \b
      visit SOURCE   every note of a location (its name, or its number: visit 3)
      note N         one note (numbered from 0, as in the case file)
      undo   show   answers   why RULE   help   quit

    On a terminal every entry is followed by the questions' possible answers. From a
    pipe each entry answers with one line: "ok: ..." on stdout, or the refusal on stderr;
    the exit code of a piped session is 0 if every entry was accepted, else that of the
    first refusal (2 bad input, 3 the notes read contradict each other). A refused entry
    never changes RECORD.

    \b
    Example:
      printf 'visit 2\\nnote 0\\nanswers\\n' | deduce case table notes.json --case lantern-street
    """
    import sys

    from deduce.models.casenotes.table import TableSession

    interactive = sys.stdin.isatty()
    session = TableSession.open(record_file, case=case_arg)
    if not session.created:
        from deduce.cli.table_loop import note_ignored_setup

        note_ignored_setup(record_file, ["--case"] if case_arg else [], "its last note")
    with session:
        code = _table(session, record_file, interactive)
    sys.exit(code)


def _table(session, record_file: str, interactive: bool) -> int:
    """The shared table loop with case notes' views."""
    from deduce.cli import case_view as view
    from deduce.cli.common import styled
    from deduce.cli.table_loop import TableViews, run_table

    c = session.case

    def intro() -> None:
        out.print(styled(f"[bold]{esc(record_file)}[/]: {esc(c.title)}. Type help "
                         "for commands."))
        view.print_reading(c, session.reading(), compact=True)

    def prompt() -> str:
        return f"{len(session.read)} of {len(c.notes)} notes read"

    def show(reply) -> bool:
        if reply.view == "show":
            view.print_table_show(c, session.oracle.model.cells, reply.reading)
        elif reply.view == "answers":
            view.print_reading(c, reply.reading)
        elif reply.view == "why":
            view.print_why(c, reply.why)
        return reply.view is not None

    return run_table(session, TableViews(intro, prompt, show,
                                         lambda reply: view.print_reading(c, reply.reading,
                                                                          compact=True)),
                     interactive)


@case.command()
@_CASE
@click.option("--strategy", "strategy", default=None, metavar="NAME[,NAME...]",
              help="Old spelling: the strategies of the line-up positions, cycled over "
                   "--bots N (default 3 bots) [default: informed,fair].")
@click.option("--mode", type=click.Choice(["competitive", "cooperative"]), default="competitive",
              show_default=True)
@click.option("--tokens", type=TOKENS, default=None,
              help="Carriage tokens at the start (default: as `deduce case play`).")
@selfplay_options(games=100, bots_count=BOTS,
                  bots_help="One strategy per line-up position, comma separated: informed or "
                            "fair (see `deduce case play --help`), 1 to 7 bots (2 to 7 "
                            "players; 1 plays solo) [default: informed,fair,informed]. Old "
                            "spelling: --bots N, that many bots cycling --strategy.")
@reports_errors
def selfplay(case_arg: str, strategy: str | None, mode: str, tokens: int | None, games: int,
             seed: int, workers: int, scheduler: str | None, bots, as_json: bool) -> None:
    """Play GAMES games of a case between bots and report the figures.

    Each game is `deduce case play` with its own seed. Seats rotate: in game g the
    strategy at line-up position i (--bots) sits at seat (i + g) mod BOTS, so every
    position takes every seat equally often. The old spellings still work: --bots N
    --strategy S,... is the line-up of N bots cycling the strategies S (--bots 4
    --strategy informed,fair is --bots informed,fair,informed,fair).

    \b
    Competitive, one row per line-up position:
      wins          games it won (a shared win counts for each winner), with
                    the Wilson 95% interval of its share; shared: of which shared
      elim.         wrong answers at 221B
      round         the mean round of its answer at 221B (games it answered)
      tokens, places      tokens spent and locations visited per game
    Cooperative, the team: the solved share with its 95% interval, the mean
    score of solved games, perfect games (the best score a minimal set of
    locations allows) and tokens spent.

    JSON: the self-play envelope {"game": "case-notes", "players", "games",
    "seed", "workers", "scheduler", "elapsed_s", "bots": [{"name", "win_share",
    "ci95", "mean_turns" (rounds in the game), "position", "strategy", and
    competitive "wins", "shared_wins", "eliminated", "mean_answer_round",
    "mean_tokens_spent", "mean_locations"}], then "case", "mode", "strategies",
    "mean_rounds", "ends": {end: games}, and competitive "no_winner";
    cooperative "team": {"solved", "solved_share", "ci95", "mean_score",
    "perfect", "best_score", "mean_tokens_spent"}}.

    \b
    Examples:
      deduce case selfplay lantern-street --bots informed,fair,informed,fair --games 200 --workers 2
      deduce case selfplay kew-orchid --bots informed,fair,fair --json
      deduce case selfplay half-moon-mews --mode cooperative --bots informed,fair --games 50
      deduce case selfplay kew-orchid --bots 4 --strategy fair      (old spelling)
    """
    from deduce.core.selfplay import Match
    from deduce.models.casenotes.format import load_case
    from deduce.models.casenotes.selfplay import GAME, CaseSetup

    c = load_case(case_arg)
    line_up = _line_up(bots, strategy)
    match = Match(games, seed, line_up, len(line_up), workers=workers, scheduler=scheduler,
                  setup=CaseSetup(c, mode, tokens))
    from deduce.cli.case_view import print_selfplay

    play_match(GAME, match, as_json, lambda report: print_selfplay(report.envelope))


def _line_up(bots: str | int | None, strategy: str | None) -> tuple[str, ...]:
    """The strategy of each line-up position: ``--bots NAME,...``, or the old spelling
    ``--bots N`` (default 3) with ``--strategy`` (default informed,fair) cycled over it."""
    from deduce.core.errors import InputError
    from deduce.models.casenotes.selfplay import GAME, positions_of

    if bots is None or isinstance(bots, int):
        return tuple(positions_of(_strategies(strategy or "informed,fair"),
                                  3 if bots is None else bots))
    if strategy is not None:
        raise click.UsageError("give the strategies once: --bots NAME,... or the old "
                               "spelling --bots N --strategy NAME,...")
    names = bot_names(bots, GAME.bots)
    if len(names) > BOTS.hi:
        raise InputError(f"the game takes 1 to {BOTS.hi} bots, not {len(names)}", where="--bots")
    return names


def _strategies(text: str) -> list[str]:
    from deduce.core.errors import InputError
    from deduce.core.names import resolve
    from deduce.models.casenotes.bots import STRATEGIES

    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise InputError("expected strategy names separated by commas", where="--strategy")
    return [resolve(n, list(STRATEGIES), "strategy", where="--strategy") for n in names]

