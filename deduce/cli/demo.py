"""``deduce demo``: a shipped 4-player Sherlock 13 game, analysed turn by turn."""

from __future__ import annotations

import click

from deduce.cli.common import esc, out, reports_errors, styled


@click.command()
@click.option("--record", "record_file", type=click.Path(dir_okay=False),
              help="Replay this record instead of the shipped demo game.")
@click.option("--compact", is_flag=True, help="One short update per turn instead of full tables.")
@reports_errors
def demo(record_file: str | None, compact: bool) -> None:
    """Replay a recorded Sherlock 13 game from one player's seat, turn by turn.

    At each step: the clue sheet (who may hold which card), the criminal distribution,
    the best questions for that player's next turn and whether to accuse now.

    \b
    Examples:
      deduce demo
      deduce demo --compact
      deduce demo --record game.json
    """
    from rich.rule import Rule

    from deduce.cli.s13_view import compact_view, full_view
    from deduce.models.sherlock13.advice import analyze
    from deduce.models.sherlock13.cards import SUSPECTS
    from deduce.models.sherlock13.record import describe_event, load_record, new_record
    from deduce.puzzles import puzzle_path

    path = record_file or puzzle_path("sherlock13", "demo-4p.json")
    full = load_record(path)
    me = full.names[full.me]
    out.print(styled(f"[bold]Sherlock 13, {full.n} players, {full.variant} variant[/], seen by "
                     f"{esc(me)} (hand: {', '.join(SUSPECTS[c] for c in full.hand)}). Source: "
                     f"{esc(path)}"))
    rec = new_record(full.variant, full.names, me, [SUSPECTS[c] for c in full.hand], source=str(path))
    for step in range(len(full.events) + 1):
        if step:
            rec.add(full.events[step - 1])
            title = f"after event {step - 1}: {describe_event(full.events[step - 1], rec.names)}"
        else:
            title = "before the first turn"
        out.print(Rule(title))
        if rec.turns.over:
            out.print(styled(f"[bold]Game over: {esc(rec.names[rec.turns.winner])} wins.[/]"))
        analysis = analyze(rec)
        out.print(compact_view(analysis) if compact else full_view(analysis))
