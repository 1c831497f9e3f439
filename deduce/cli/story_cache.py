"""``deduce story cache``: the solved cases kept in the cache folder (``models/
detective_story/store.py``), listed or removed."""

from __future__ import annotations

import click

from deduce.cli.common import esc, out, print_json, reports_errors, styled


@click.command()
@click.option("--clear", "clear", is_flag=True, help="Remove every solved case kept.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON only.")
@reports_errors
def cache(clear: bool, as_json: bool) -> None:
    """The solved cases kept in the cache folder: each case, its size, its age and its
    file; with --clear, remove them all.

    `advise`, `table` and optimal `selfplay --from` write the whole case's solution there
    after solving it, and every later command on the same case reads the part of it the
    state needs instead of solving again (from a fresh case: a quarter of a second
    instead of 5-25 s). An entry is keyed by the program's version, the campaign files'
    content and the case's fixed start (Adventure, character sheets); any state of that
    case reads it. The folder is the platform's cache folder (Linux:
    $XDG_CACHE_HOME/deduce or ~/.cache/deduce; macOS: ~/Library/Caches/deduce; Windows:
    %LOCALAPPDATA%\\deduce\\Cache), or $DEDUCE_CACHE_DIR; at most 1 GiB in all, the
    oldest entries dropped first. A damaged or foreign file (or a part of one found
    damaged when read) is ignored with a warning, removed, and the case solved again;
    --no-cache on a command neither reads nor writes.

    JSON: {"folder", "max_bytes", "total_bytes", "entries": [{"adventure", "name",
    "campaign", "bytes", "age_s", "modified", "path", "readable"}]}, newest first; with
    --clear {"folder", "removed"}.

    \b
    Examples:
      deduce story cache
      deduce story cache --json
      deduce story cache --clear
    """
    from deduce.core.cache import ENV_VAR
    from deduce.core.errors import InputError
    from deduce.models.detective_story import store

    try:
        doc = store.report()
        removed = store.clear() if clear else 0
    except OSError as exc:
        raise InputError(f"cannot {'clear' if clear else 'list'} the cache folder: "
                         f"{exc.strerror or exc}", where=str(exc.filename or "")) from None
    except RuntimeError as exc:  # no home folder to find the platform's cache folder in
        raise InputError(f"no cache folder ({exc}): set {ENV_VAR} to one") from None
    if clear:
        if as_json:
            print_json({"folder": doc["folder"], "removed": removed})
        else:
            out.print(styled(f"Removed {removed} solved case{'' if removed == 1 else 's'} "
                             f"from {esc(doc['folder'])}."), soft_wrap=True)
        return
    if as_json:
        print_json(doc)
        return
    for line in cache_lines(doc):
        out.print(line, soft_wrap=True)  # a path is never split across lines


def cache_lines(doc: dict) -> list:
    """The listing: the folder and its bound, a line per entry, the total."""
    n = len(doc["entries"])
    lines = [styled(f"[bold]Solved cases in {esc(doc['folder'])}[/] (at most "
                    f"{_size(doc['max_bytes'])} in all, the oldest dropped first):")]
    if not n:
        lines.append(styled("  none yet (advise, table and selfplay --from write one after "
                            "solving a case)"))
    for e in doc["entries"]:
        what = (f"{esc(e['adventure'])} {esc(e['name'])}" if e["readable"]
                else "[red]unreadable[/] (ignored; rewritten when its case is solved)")
        lines.append(styled(f"  {what}  {_size(e['bytes'])}  {_age(e['age_s'])} ago  "
                            f"{esc(e['path'])}"))
    lines.append(styled(f"  total: {n} case{'' if n == 1 else 's'}, "
                        f"{_size(doc['total_bytes'])}"))
    return lines


def _size(n: int) -> str:
    """Bytes in words.

    >>> _size(2 ** 30), _size(293289676), _size(12 * 1024), _size(980)
    ('1 GiB', '279.7 MiB', '12 KiB', '980 B')
    """
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"


def _age(seconds: int) -> str:
    """An age in words (whole units, rounded down).

    >>> _age(40), _age(300), _age(3 * 3600 + 59), _age(86400), _age(2 * 86400)
    ('40 s', '5 min', '3 h', '1 day', '2 days')
    """
    for unit, scale in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= scale:
            value = seconds // scale
            return f"{value} {'day' if unit == 'days' and value == 1 else unit}"
    return f"{seconds} s"
