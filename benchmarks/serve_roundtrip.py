"""``deduce serve``: the round trip of one entry (POST the entry -> the updated view back)
for the 4-player standard demo game, through the real server over HTTP.

Starts the server (uvicorn in a thread, on a free port, loopback), makes a record from
the page's form, then ``--runs`` times enters the demo's 12 events as the page's script
posts them (``X-Deduce-Fetch``: the answer is JSON with the new view's HTML) and takes
them back with 12 undos, on one kept-alive connection as a browser uses. Prints the
median and 95th percentile of the entry round trip (wall clock, as a player waits for
it) and the process CPU time per round trip (server and client are in this process).

Baseline, in the same process: the terminal session's own step alone
(``TableSession.handle("raise Ann necklace Cat Dan")`` and ``undo``: parse, check, count
the worlds, save atomically), with no HTTP and no HTML. The difference is what the web
layer adds.

With ``--browser`` (needs the system's chromium and chromedriver) also the page's own
round trip in headless Chromium at 360 x 800: from the Enter button's click to the new
view swapped in and the next frame drawn (measured in the page: ``performance.now()``,
a ``MutationObserver`` and ``requestAnimationFrame``), the chips tapped before (untimed),
one run of the 12 entries.

Target (issue 15): median round trip <= 100 ms.

    python benchmarks/serve_roundtrip.py [--runs 5] [--browser]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.models.sherlock13.table import TableSession  # noqa: E402
from deduce.puzzles import puzzle_path  # noqa: E402
from deduce.web.serve import Running  # noqa: E402
from deduce.web.tables import Tables  # noqa: E402
from tests.web.helpers import event_fields, setup_fields  # noqa: E402

FETCH = {"X-Deduce-Fetch": "1", "Content-Type": "application/x-www-form-urlencoded"}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line_of(event: dict) -> str:
    """The terminal's entry line for a demo event."""
    a = event["action"]
    if a == "raise":
        return f"raise {event['actor']} {event['icon']} {' '.join(event['raised'])}"
    if a == "count":
        return f"count {event['actor']} {event['target']} {event['icon']} {event['count']}"
    return f"accuse {event['actor']} \"{event['suspect']}\" {'right' if event['correct'] else 'wrong'}"


def http_round_trips(record: dict, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of every entry's round trip over HTTP."""
    folder = Path(tempfile.mkdtemp(prefix="deduce-bench-"))
    tables = Tables(folder)
    running = Running.local(tables)
    port = running.port
    conn = http.client.HTTPConnection("127.0.0.1", port)

    def post(path: str, fields) -> tuple[int, dict | None]:
        conn.request("POST", path, body=urlencode(fields, doseq=True), headers=FETCH)
        answer = conn.getresponse()
        body = answer.read()
        return answer.status, json.loads(body) if path != "/new" else None

    try:
        status, _ = post("/new", setup_fields(record, "bench"))
        assert status in (200, 303), status
        conn.request("GET", "/r/bench/version")
        version = json.loads(conn.getresponse().read())["version"]
        walls, cpus = [], []
        for _ in range(runs):
            for event in record["events"]:
                fields = [("version", version), ("op", "enter"), *event_fields(event, record["players"])]
                w, c = time.perf_counter(), time.process_time()
                status, answer = post("/r/bench/act", fields)
                walls.append(time.perf_counter() - w)
                cpus.append(time.process_time() - c)
                assert status == 200 and answer["kind"] == "accepted", answer["message"]
                version = answer["version"]
            for _ in record["events"]:
                status, answer = post("/r/bench/act", {"version": version, "op": "undo"})
                assert status == 200, answer["message"]
                version = answer["version"]
        return walls, cpus
    finally:
        conn.close()
        running.stop()
        tables.close()


def session_steps(record: dict, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of the terminal session's ``handle`` for every entry."""
    folder = Path(tempfile.mkdtemp(prefix="deduce-bench-"))
    walls, cpus = [], []
    with TableSession.open(folder / "g.json", variant=record["variant"], players=record["players"],
                           me=record["me"], hand=record["hand"]) as session:
        for _ in range(runs):
            for event in record["events"]:
                w, c = time.perf_counter(), time.process_time()
                reply = session.handle(line_of(event))
                walls.append(time.perf_counter() - w)
                cpus.append(time.process_time() - c)
                assert reply.kind == "accepted", reply.message
            for _ in record["events"]:
                assert session.handle("undo").kind == "accepted"
    return walls, cpus


#: in the page: click Enter, answer the milliseconds until the live part is swapped and drawn
TIMED_CLICK = """
var done = arguments[arguments.length - 1];
var live = document.getElementById('live');
var start = performance.now();
var seen = new MutationObserver(function () {
  seen.disconnect();
  requestAnimationFrame(function () { done(performance.now() - start); });
});
seen.observe(live, {childList: true});
document.getElementById('enter').click();
"""


def browser_round_trips(record: dict) -> list[float]:
    """Seconds from Enter's click to the updated view drawn, for each demo entry."""
    import shutil

    from selenium.webdriver.common.by import By

    from tests.web.test_browser import phone_browser, tap

    folder = Path(tempfile.mkdtemp(prefix="deduce-bench-"))
    tables = Tables(folder)
    running = Running.local(tables)
    port = running.port
    driver, profile = phone_browser()
    try:
        tables.create("sherlock13", "bench", _form(setup_fields(record, "bench")))
        driver.get(f"http://127.0.0.1:{port}/r/bench")
        times = []
        for event in record["events"]:
            for key, value in event_fields(event, record["players"]):
                tap(driver, f"{key}-{value}")
            times.append(driver.execute_async_script(TIMED_CLICK) / 1000)
            assert "accepted" in driver.find_element(By.ID, "notice").get_attribute("class")
        return times
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        running.stop()
        tables.close()


def _form(fields: dict):
    from deduce.web.forms import Form

    return Form.parse(urlencode(fields, doseq=True).encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--browser", action="store_true", help="also time the page in Chromium")
    args = ap.parse_args()
    record = json.loads(Path(puzzle_path("sherlock13", "demo-4p.json")).read_text(encoding="utf-8"))
    n = args.runs * len(record["events"])
    print(f"4-player standard demo game, {len(record['events'])} entries x {args.runs} runs "
          f"= {n} round trips each")
    print(f"{'path':<34}{'median':>10}{'p95':>10}{'CPU median':>12}")
    for label, (walls, cpus) in (("HTTP: POST entry -> new view", http_round_trips(record, args.runs)),
                                 ("baseline: TableSession.handle", session_steps(record, args.runs))):
        print(f"{label:<34}{1000 * statistics.median(walls):>8.1f}ms{1000 * quantile(walls, 0.95):>8.1f}ms"
              f"{1000 * statistics.median(cpus):>10.1f}ms")
    if args.browser:
        walls = browser_round_trips(record)
        print(f"{'Chromium: Enter -> view drawn':<34}{1000 * statistics.median(walls):>8.1f}ms"
              f"{1000 * quantile(walls, 0.95):>8.1f}ms{'(1 run)':>12}")


if __name__ == "__main__":
    main()
