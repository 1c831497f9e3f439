"""``deduce serve``: the live tables as a web page for the phone at the table."""

from __future__ import annotations

import click

from deduce.cli.common import reports_errors


@click.command()
@click.argument("records", metavar="[RECORD]...", nargs=-1, type=click.Path())
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Any other than 127.0.0.1 (e.g. 0.0.0.0, for a "
                   "phone on the same network) needs the access token printed at start.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--dir", "folder", type=click.Path(), default=".", show_default=True,
              help="Folder where records made from the page are saved.")
@click.option("--no-cache", is_flag=True,
              help="Detective Story: solve each case without reading or writing the "
                   "solved-case cache (see `deduce story cache`).")
@reports_errors
def serve(records: tuple[str, ...], host: str, port: int, folder: str, no_cache: bool) -> None:
    """Serve live table pages: enter each turn by taps on a phone and see the game's
    views (Sherlock 13's clue sheet, criminal odds and best questions; the other games'
    table views). Records of every game: Sherlock 13, case notes, Detective Story,
    Deductions and Baker Street Irregulars.

    Each RECORD given is opened as its game's table command opens it (`deduce s13
    table`, `case table`, `story table`, `deductions table`, `irregulars table`) and
    locked while the server runs; new records are made from the page, in --dir. Every
    accepted entry is saved at once (atomically); an entry made on a view another device
    has changed since is refused, never merged.

    On 127.0.0.1 only this machine can connect. With another --host a random access token
    is printed in the address (and as a QR code): every request needs it.

    Exit codes: 0 after Ctrl-C, 2 bad input (a bad record, a record locked by another
    session, a port in use), 3 a contradictory record.

    \b
    Examples:
      deduce serve game.json
      deduce serve --dir games
      deduce serve --host 0.0.0.0 --port 8765 game.json
      deduce serve case.json --no-cache
    """
    from deduce.web.serve import serve as run

    run(list(records), host, port, folder, echo=click.echo, use_cache=not no_cache)
