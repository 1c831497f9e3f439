"""``deduce demo``: a shipped 4-player Sherlock 13 game, analysed turn by turn."""

from __future__ import annotations

import click

from deduce.cli.common import esc, out, reports_errors, styled


@click.command()
@click.option("--record", "record_file", type=click.Path(),
              help="Replay this record instead of the shipped demo game.")
@click.option("--compact", is_flag=True, help="One short update per turn instead of full tables.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON lines on stdout: one object per step (see above).")
@reports_errors
def demo(record_file: str | None, compact: bool, as_json: bool) -> None:
    """Replay a recorded Sherlock 13 game from one player's seat, turn by turn.

    At each step: the clue sheet (who may hold which card), the criminal distribution,
    the best questions for that player's next turn and whether to accuse now (not once
    that player has no next turn: the game is over or they are eliminated).

    With --json, one JSON object per line, one line per step (events + 1 lines): the
    object of `deduce s13 analyze --json` for the record cut after that step, plus
    "step" (how many events are in, 0 to the number of events) and "event" (the
    event just added, as in the record; null at step 0). A record that is bad input
    or contradictory prints no step: exit 2 or 3, as `deduce s13 analyze`.

    \b
    Examples:
      deduce demo
      deduce demo --compact
      deduce demo --record game.json
      deduce demo --json
    """
    from deduce.models.sherlock13.advice import analyze
    from deduce.models.sherlock13.record import load_record, new_record
    from deduce.models.sherlock13.cards import SUSPECTS
    from deduce.puzzles import puzzle_path

    path = record_file or puzzle_path("sherlock13", "demo-4p.json")
    full = load_record(path)
    analyze(full, suggestions=False)  # a contradictory record is refused before any step
    me = full.names[full.me]
    rec = new_record(full.variant, full.names, me, [SUSPECTS[c] for c in full.hand], source=str(path))
    show = _json_step if as_json else _human_step(path, full, compact)
    for step in range(len(full.events) + 1):
        if step:
            rec.add(full.events[step - 1])
        show(rec, step, analyze(rec))


def _json_step(rec, step: int, analysis) -> None:
    """One JSON line: the analyze object plus ``step`` and ``event``."""
    import json

    from deduce.models.sherlock13.rules import event_to_json

    event = event_to_json(rec.events[step - 1], rec.names, viewer=rec.me) if step else None
    click.echo(json.dumps({"step": step, "event": event, **analysis.to_json()},
                          ensure_ascii=False))


def _human_step(path, full, compact: bool):
    """The printer of one step as tables (or ``compact`` lines), after printing the header."""
    from rich.rule import Rule

    from deduce.cli.s13_view import compact_view, full_view
    from deduce.models.sherlock13.cards import SUSPECTS
    from deduce.models.sherlock13.record import describe_event

    out.print(styled(f"[bold]Sherlock 13, {full.n} players, {full.variant} variant[/], seen by "
                     f"{esc(full.names[full.me])} (hand: "
                     f"{', '.join(SUSPECTS[c] for c in full.hand)}). Source: {esc(path)}"))

    def show(rec, step: int, analysis) -> None:
        if step:
            title = f"after event {step - 1}: {describe_event(rec.events[step - 1], rec.names)}"
        else:
            title = "before the first turn"
        out.print(Rule(title))
        if rec.turns.over:
            out.print(styled(f"[bold]Game over: {esc(rec.names[rec.turns.winner])} wins.[/]"))
        out.print(compact_view(analysis) if compact else full_view(analysis))

    return show
