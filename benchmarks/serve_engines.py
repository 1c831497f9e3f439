"""``deduce serve``: the round trip of one entry (POST the entry form -> the updated view
back) on the Deductions and Baker Street Irregulars pages, through the real server over
HTTP (uvicorn in a thread, loopback, one kept-alive connection, as the page's script
posts: ``X-Deduce-Fetch``, JSON with the new view's HTML).

The games: Deductions, 3 players dealt with seed 7, the first 46 entries the page tests
play (``tests/web/test_deductions_page.py``: draws, takes, Mind Palaces, solves, Irene
and Mycroft); Baker Street Irregulars, 3 players dealt with seed 7, 30 entries
(``tests/web/test_irregulars_page.py``: every Investigate cycle's picks in one form,
arrests, tails, passes). The forms are found first by a terminal session (untimed).

Baseline, in the same process: the terminal session's own ``handle`` of the same lines
(parse, the engine's checks, the save), with no HTTP and no HTML. Prints per game the
median and 95th percentile of the wall clock and the median process CPU time.

    python benchmarks/serve_engines.py
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.web.serve import Running  # noqa: E402
from deduce.web.tables import Tables  # noqa: E402

FETCH = {"X-Deduce-Fetch": "1", "Content-Type": "application/x-www-form-urlencoded"}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def deductions_script(folder: Path):
    """The new-record form and (entry form, terminal lines) per entry, with the CPU of
    the terminal session's handle per entry (the baseline)."""
    from deduce.models.deductions.table import TableSession
    from tests.web.test_deductions_page import choose, dealt_fields, form_and_line

    steps, base = [], []
    with TableSession.open(folder / "ref-d.json", seed=7, players=["Ann", "Ben", "Cat"], me="Ann") as ref:
        for i in range(46):
            form, line = form_and_line(ref, choose(ref, i))
            c = time.process_time()
            assert ref.handle(line).kind == "accepted"
            base.append(time.process_time() - c)
            steps.append((form, [line]))
    return dealt_fields("bench"), steps, base


def irregulars_script(folder: Path):
    from deduce.models.irregulars import rules
    from deduce.models.irregulars.table import TableSession
    from tests.web.test_irregulars_page import action_step, dealt_fields, picks_step

    steps, base = [], []
    with TableSession.open(folder / "ref-i.json", seed=7, players=["Ann", "Ben", "Cat"], me="Ann") as ref:
        for i in range(30):
            if ref.state.phase == rules.INVESTIGATE:
                c = time.process_time()
                form, lines, reply = picks_step(ref)  # tries cards: the CPU is an upper bound
            else:
                form, line = action_step(ref, i)
                lines = [line]
                c = time.process_time()
                reply = ref.handle(line)
            base.append(time.process_time() - c)
            assert reply.kind == "accepted", reply.message
            steps.append((form, lines))
    return dealt_fields("bench"), steps, base


def round_trips(new: dict, steps) -> tuple[list[float], list[float]]:
    folder = Path(tempfile.mkdtemp(prefix="deduce-bench-"))
    tables = Tables(folder)
    running = Running.local(tables)
    port = running.port
    conn = http.client.HTTPConnection("127.0.0.1", port)

    def post(path: str, fields) -> tuple[int, bytes]:
        conn.request("POST", path, body=urlencode(fields, doseq=True), headers=FETCH)
        answer = conn.getresponse()
        return answer.status, answer.read()

    try:
        status, _ = post("/new", new)
        assert status in (200, 303), status
        conn.request("GET", "/r/bench/version")
        version = json.loads(conn.getresponse().read())["version"]
        walls, cpus = [], []
        for form, _ in steps:
            w, c = time.perf_counter(), time.process_time()
            status, body = post("/r/bench/act", {"version": version, **form})
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
            answer = json.loads(body)
            assert status == 200 and answer["kind"] == "accepted", answer["message"]
            version = answer["version"]
        return walls, cpus
    finally:
        conn.close()
        running.stop()
        tables.close()


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="deduce-bench-"))
    print(f"{'path':<44}{'median':>10}{'p95':>10}{'CPU median':>12}")
    for game, script in (("Deductions", deductions_script), ("Irregulars", irregulars_script)):
        new, steps, base = script(folder)
        walls, cpus = round_trips(new, steps)
        print(f"{game + f': HTTP POST entry -> new view ({len(steps)})':<44}"
              f"{1000 * statistics.median(walls):>8.1f}ms{1000 * quantile(walls, 0.95):>8.1f}ms"
              f"{1000 * statistics.median(cpus):>10.1f}ms")
        print(f"{game + ': baseline TableSession.handle':<44}{'':>10}{'':>10}"
              f"{1000 * statistics.median(base):>10.1f}ms")


if __name__ == "__main__":
    main()
