"""Game-agnostic self-play: run many pure games over any executor, and summarise them.

A game is a pure, picklable function ``play_one(spec) -> Result`` (a module-level function
of the game's bots module) applied to a picklable ``spec``. ``run_games`` maps it over a
list of specs, in order, on any ``concurrent.futures.Executor`` (a local process pool, a
Dask cluster's ``Client.get_executor()``) or in a plain loop; results come back in spec
order, so a summary depends only on the specs, never on the worker count.

Seats rotate: in game ``g`` the bot at position ``i`` of the line-up sits at seat
``(i + g) % n`` (``seat_of``), and per-game seeds are derived from the master seed and the
game index (``game_seed``), so game ``g`` is the same game whoever plays it where.

>>> wilson_ci(0, 10)[0]
0.0
>>> [round(x, 4) for x in wilson_ci(50, 100)]
[0.4038, 0.5962]
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

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
