"""The one self-play runner: seeds, seats, executors, progress, intervals and the JSON envelope.

A game with self-play supplies a ``SelfPlayGame`` (in its ``models/<game>/selfplay.py``,
registered in ``REGISTRY``): its bot names, ``specs(match)`` (one pure, picklable spec per
game), ``play_one(spec) -> result`` (a module-level function: pure, deterministic for its
spec) and ``summarise(match, results) -> Summary`` (one ``Standing`` per line-up position,
plus the game's own figures). ``run(game, match, progress)`` does the rest and returns a
``Report`` whose ``envelope`` is the JSON every game's ``selfplay --json`` prints::

    {"game", "players", "variant" (where the game has one), "games", "seed", "workers",
     "scheduler", "elapsed_s", "bots": [{"name", "win_share", "ci95", "mean_turns",
     ...the game's figures}], ...the game's own keys}

A result is the game's own type (only its ``summarise`` reads it); a game whose results are
a ``Result`` (winner seat, turns, per-seat counters) maps them to line-up positions with
``summarise(bots, results)``.

Games run through ``run_games``: in order, on any ``concurrent.futures.Executor`` (a local
process pool, a Dask cluster's ``Client.get_executor()``; ``open_executor``) or in a plain
loop; results come back in spec order, so a summary depends only on the specs, never on the
workers or the scheduler.

Seats rotate: in game ``g`` the bot at position ``i`` of the line-up sits at seat
``(i + g) % n`` (``seat_of``), and game ``g`` is seeded ``game_seed(master, g)``
(``schedule`` gives both), so game ``g`` is the same game whoever plays it where. (One
exception, kept so that its published figures hold: the Detective Story seeds its cases
with its own ``selfplay.case_seed``, handed to ``schedule``.)

>>> wilson_ci(0, 10)[0]
0.0
>>> [round(x, 4) for x in wilson_ci(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

#: z for a two-sided 95% interval
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Result:
    """One finished game: ``winner`` seat (None: nobody, e.g. the turn cap), ``turns`` taken
    in the whole game, and per-seat counters (``stats[seat]["wrong_accusations"]``, ...)."""

    winner: int | None
    turns: int
    stats: tuple[dict[str, int], ...] = field(default_factory=tuple)


def wilson_ci(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default); (0, 1) for n == 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seed(master: int, game: int) -> int:
    """A 63-bit seed for game ``game``, derived from ``master`` (independent of the workers)."""
    import numpy as np

    state = np.random.SeedSequence([int(master) & (2**64 - 1), int(game)]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def seat_of(position: int, game: int, n: int) -> int:
    """Seat of the bot at ``position`` of the line-up in game ``game`` (seats rotate)."""
    return (position + game) % n


def lineup(bots: Sequence[Any], game: int) -> list[Any]:
    """The bots in seat order for game ``game``: ``lineup(b, g)[seat_of(i, g, n)] == b[i]``."""
    n = len(bots)
    seats: list[Any] = [None] * n
    for i, b in enumerate(bots):
        seats[seat_of(i, game, n)] = b
    return seats


def schedule(bots: Sequence[Any], games: int, master: int,
             seed: Callable[[int, int], int] = game_seed) -> list[tuple[tuple, int]]:
    """``(seats, seed)`` of each game of a match: game ``g`` seats ``lineup(bots, g)`` and is
    seeded ``seed(master, g)``.

    >>> [seats for seats, _ in schedule(["a", "b"], 3, 7)]
    [('a', 'b'), ('b', 'a'), ('a', 'b')]
    """
    return [(tuple(lineup(bots, g)), seed(master, g)) for g in range(games)]


def _play_chunk(play_one: Callable[[Any], Result], specs: list) -> list[Result]:
    return [play_one(s) for s in specs]


def run_games(play_one: Callable[[Any], Result], specs: Sequence[Any],
              executor: Executor | None = None,
              progress: Callable[[int], None] | None = None,
              chunksize: int | None = None) -> list[Result]:
    """``[play_one(s) for s in specs]``, on ``executor`` if given; ``progress(k)`` after every
    ``k`` games finished. Games go to the executor in chunks of ``chunksize`` (default
    ``len(specs) // 64``, between 1 and 16) to keep the overhead per game small."""
    specs = list(specs)
    if executor is None:
        results = []
        for s in specs:
            results.append(play_one(s))
            if progress:
                progress(1)
        return results
    if chunksize is None:
        chunksize = max(1, min(16, len(specs) // 64))
    chunks = [specs[i:i + chunksize] for i in range(0, len(specs), chunksize)]
    futures = [executor.submit(_play_chunk, play_one, c) for c in chunks]
    results = []
    for fut in futures:  # in order: the results never depend on who finished first
        part = fut.result()
        results.extend(part)
        if progress:
            progress(len(part))
    return results


@dataclass
class BotSummary:
    """The figures of the bot at one position of the line-up over all games."""

    name: str
    games: int
    wins: int
    ci95: tuple[float, float]
    mean_turns: float
    counters: dict[str, int]

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0


def summarise(bots: Sequence[str], results: Iterable[Result],
              turns_key: str = "turns") -> list[BotSummary]:
    """Per position of the line-up (seats rotated as ``seat_of``): wins, Wilson 95% interval,
    the mean of the seat counter ``turns_key`` (its own turns), and the sums of every counter."""
    n = len(bots)
    wins = [0] * n
    counters: list[dict[str, int]] = [{} for _ in range(n)]
    games = 0
    for g, r in enumerate(results):
        games += 1
        for i in range(n):
            seat = seat_of(i, g, n)
            if r.winner == seat:
                wins[i] += 1
            for k, v in (r.stats[seat] if seat < len(r.stats) else {}).items():
                counters[i][k] = counters[i].get(k, 0) + v
    return [
        BotSummary(name, games, wins[i], wilson_ci(wins[i], games),
                   counters[i].get(turns_key, 0) / games if games else 0.0, counters[i])
        for i, name in enumerate(bots)
    ]


#: schemes a Dask scheduler address may use, and how long to try to reach it
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")
SCHEDULER_TIMEOUT_S = 10


def check_scheduler_address(address: str) -> str:
    """``address`` if it reads ``[SCHEME://]HOST:PORT`` (scheme tcp, tls, ws or wss; port
    1-65535; HOST a name, an IPv4 address or a bracketed IPv6 one), else ``ValueError``.

    >>> check_scheduler_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_scheduler_address("tcp://host")
    Traceback (most recent call last):
    ValueError: expected [tcp|tls|ws|wss]://HOST:PORT such as tcp://127.0.0.1:8786, got 'tcp://host'
    """
    import re

    shape = (r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)"
             r":(?P<port>[0-9]{1,5})")
    hint = f"expected [{'|'.join(SCHEDULER_SCHEMES)}]://HOST:PORT such as tcp://127.0.0.1:8786"
    m = re.fullmatch(shape, address.strip()) if len(address) <= 300 else None
    if m is None:
        shown = address if len(address) <= 60 else address[:60] + "..."
        raise ValueError(f"{hint}, got {shown!r}")
    if m["scheme"] and m["scheme"] not in SCHEDULER_SCHEMES:
        raise ValueError(f"{hint}: unknown scheme {m['scheme']!r}")
    if not 1 <= int(m["port"]) <= 65535:
        raise ValueError(f"{hint}: port {int(m['port'])} is not from 1 to 65535")
    return address.strip()


def open_executor(workers: int = 1, scheduler: str | None = None):
    """A context manager yielding an executor (None: run in this process).

    ``scheduler``: address of a Dask scheduler (needs the optional extra ``dask``; without it
    an ``InputError`` says how to install it). ``workers > 1``: a local process pool.
    """
    import contextlib

    from deduce.core.errors import InputError
    from deduce.core.limits import MAX_WORKERS

    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise InputError("needs Dask: pip install 'deduce[dask]' (or dask[distributed])",
                             where="--scheduler") from None

        @contextlib.contextmanager
        def dask_executor():
            try:
                address = check_scheduler_address(scheduler)
            except ValueError as exc:
                raise InputError(str(exc), where="--scheduler") from None
            try:
                client = Client(address, timeout=f"{SCHEDULER_TIMEOUT_S}s")
            except (OSError, ValueError, TypeError) as exc:
                raise InputError(f"cannot reach the Dask scheduler at {address} (tried for "
                                 f"{SCHEDULER_TIMEOUT_S} s): {exc}", where="--scheduler") from None
            with client:
                yield client.get_executor()

        return dask_executor()
    if not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"expected from 1 to {MAX_WORKERS} workers, not {workers}",
                         where="--workers")
    if workers == 1:
        return contextlib.nullcontext(None)
    import multiprocessing
    import sys
    from concurrent.futures import ProcessPoolExecutor

    # fork on Linux: workers inherit what the parent computed before (e.g. a solved DP)
    fork = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("fork") if fork else None)


# ----------------------------------------------------------------------------- the runner
#: the most bots a ``--bots`` line-up may name (every game checks its own count after)
MAX_LINEUP = 16


@dataclass(frozen=True)
class Match:
    """What a ``selfplay`` command asks for: ``games`` games from the master ``seed``, the
    line-up ``bots`` (canonical names, one per position), ``players`` at the table, the
    ``variant`` (None: the game has none), where to play (``workers`` local processes, or
    the Dask ``scheduler``) and ``setup``: the game's own settings (a case, a start
    record, ...), whatever its ``specs`` and ``summarise`` read."""

    games: int
    seed: int
    bots: tuple[str, ...]
    players: int
    variant: str | None = None
    workers: int = 1
    scheduler: str | None = None
    setup: Any = None


@dataclass(frozen=True)
class Standing:
    """One line-up position over all the games: its ``name``, the games it ``wins``, its own
    ``turns`` summed over the games, and the game's ``figures`` for its row (JSON-ready)."""

    name: str
    wins: int
    turns: int
    figures: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Summary:
    """What a game's ``summarise`` returns: a ``Standing`` per line-up position, the game's
    own top-level JSON keys (``figures``, after the envelope's), and ``notes`` for the
    rendered table only (never in the JSON)."""

    standings: tuple[Standing, ...]
    figures: Mapping[str, Any] = field(default_factory=dict)
    notes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SelfPlayGame:
    """A game's part of self-play; the runner (``run``) does everything else.

    - ``name``: the envelope's ``"game"``; ``bots``: the names ``--bots`` accepts.
    - ``specs(match)``: one picklable spec per game, in game order (seats and seeds from
      ``schedule``); ``InputError`` naming the option for a match the game cannot play.
    - ``play_one(spec)``: a module-level, pure function playing one game.
    - ``summarise(match, results)``: the ``Summary`` of the results, in game order.
    - ``prepare(match)``: optional work done once in this process before the workers start
      (forked workers inherit it); ``label``: the progress bar's.
    """

    name: str
    bots: tuple[str, ...]
    specs: Callable[[Match], list]
    play_one: Callable[[Any], Any]
    summarise: Callable[[Match, list], Summary]
    prepare: Callable[[Match], None] | None = None
    label: str = "self-play"


@dataclass(frozen=True)
class Row:
    """One line-up position's figures, exact (the envelope rounds them to 6 places)."""

    name: str
    win_share: float
    ci95: tuple[float, float]
    mean_turns: float
    figures: Mapping[str, Any]


#: the envelope's keys, in order (``variant`` only where the game has one)
ENVELOPE = ("game", "players", "variant", "games", "seed", "workers", "scheduler",
            "elapsed_s", "bots")
#: the keys every row of ``"bots"`` starts with
ROW_KEYS = ("name", "win_share", "ci95", "mean_turns")


@dataclass(frozen=True)
class Report:
    """A finished match: the game, the match, the game's summary and the wall-clock time."""

    game: SelfPlayGame
    match: Match
    summary: Summary
    elapsed_s: float

    @property
    def rows(self) -> list[Row]:
        """Per line-up position: win share, its Wilson 95% interval, mean own turns."""
        n = self.match.games
        return [Row(s.name, s.wins / n, wilson_ci(s.wins, n), s.turns / n, s.figures)
                for s in self.summary.standings]

    @property
    def envelope(self) -> dict:
        """The JSON of ``selfplay --json``: the envelope's keys, then the game's own."""
        m = self.match
        out: dict[str, Any] = {"game": self.game.name, "players": m.players}
        if m.variant is not None:
            out["variant"] = m.variant
        out.update(games=m.games, seed=m.seed, workers=m.workers, scheduler=m.scheduler,
                   elapsed_s=round(self.elapsed_s, 3))
        out["bots"] = [{"name": r.name, "win_share": round(r.win_share, 6),
                        "ci95": [round(r.ci95[0], 6), round(r.ci95[1], 6)],
                        "mean_turns": round(r.mean_turns, 6), **_own(r.figures, ROW_KEYS)}
                       for r in self.rows]
        out.update(_own(self.summary.figures, ENVELOPE))
        return out


def _own(figures: Mapping[str, Any], taken: Sequence[str]) -> Mapping[str, Any]:
    """``figures``, which must not redefine the envelope's keys ``taken``."""
    clash = set(figures) & set(taken)
    if clash:
        raise ValueError(f"a game's figures redefine the envelope's keys {sorted(clash)}")
    return figures


def run(game: SelfPlayGame, match: Match, progress=None) -> Report:
    """Play ``match`` of ``game`` and sum it up. ``progress(total, label)``: a context
    manager yielding ``advance(k)`` (e.g. ``cli.common.progress_bar``), or None.

    The games' specs are made (and ``prepare`` run) before the workers start; the timing
    covers starting the workers, playing and collecting the results.
    """
    import contextlib
    import time

    specs = game.specs(match)
    if game.prepare is not None:
        game.prepare(match)
    bar = progress(len(specs), game.label) if progress else contextlib.nullcontext(None)
    start = time.perf_counter()
    with open_executor(match.workers, match.scheduler) as executor, bar as advance:
        results = run_games(game.play_one, specs, executor=executor, progress=advance)
    elapsed = time.perf_counter() - start
    return Report(game, match, game.summarise(match, results), elapsed)


#: every game with self-play: its envelope name -> the module whose ``GAME`` it is
REGISTRY = {
    "sherlock13": "deduce.models.sherlock13.selfplay",
    "case-notes": "deduce.models.casenotes.selfplay",
    "detective-story": "deduce.models.detective_story.selfplay",
    "deductions": "deduce.models.deductions.selfplay",
    "irregulars": "deduce.models.irregulars.selfplay",
}


def registered(name: str) -> SelfPlayGame:
    """The ``SelfPlayGame`` registered as ``name`` (its module imported on first use)."""
    import importlib

    return importlib.import_module(REGISTRY[name]).GAME
