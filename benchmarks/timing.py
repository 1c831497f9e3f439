"""What every benchmark script shares: the median wall-clock time of a few runs."""

from __future__ import annotations

import statistics
import time


def median_time(fn, runs: int) -> tuple[float, object]:
    """``(median seconds of runs calls of fn(), the last call's result)``."""
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result
