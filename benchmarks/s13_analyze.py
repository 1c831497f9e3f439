"""Sherlock 13: full analysis (posterior, holders, every suggestion) of a 10-event record.

Prints, per variant, the median time of the exact counter (``advice.analyze``) and of a
naive path run in the same process: enumerate every world of the pysat model with blocking
clauses (``cnf.RecordCNF.enumerate_worlds``), then tally the posterior, the holders and the
expected bits of every question world by world. Also times ``deduce s13 analyze`` end to
end as a subprocess, and checks that the analyze path does not import ortools.

    python benchmarks/s13_analyze.py [--runs 7] [--naive-runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deduce.core.info import expected_bits  # noqa: E402
from deduce.models.sherlock13.advice import analyze  # noqa: E402
from deduce.models.sherlock13.cards import ICON_MATRIX, N_CARDS  # noqa: E402
from deduce.models.sherlock13.cnf import RecordCNF  # noqa: E402
from deduce.models.sherlock13.knowledge import (  # noqa: E402
    _answer_columns,
    _slots_at,
    questions_for,
)
from deduce.models.sherlock13.record import parse_record  # noqa: E402
from deduce.models.sherlock13.rules import Accuse, State  # noqa: E402
from timing import median_time  # noqa: E402

CASES = [(4, "standard"), (4, "expert"), (3, "expert"), (2, "expert")]


def ten_event_record(n: int, variant: str, seed: int):
    """A record of 10 random questions (no accusation), seen by the player to move next."""
    import random

    rng = random.Random(seed)
    st = State.deal(n, variant, rng)
    while len(st.events) < 10:
        st.apply(rng.choice([a for a in st.legal_actions() if not isinstance(a, Accuse)]))
    return parse_record(st.record(st.current)), st.record(st.current)


def naive_analysis(record) -> dict:
    """Posterior, holders and suggestion bits by enumerating the CNF's models one by one."""
    import numpy as np

    model = RecordCNF(record)
    worlds = list(model.enumerate_worlds())
    model.close()
    crim = Counter(w["criminal"] for w in worlds)
    holders = defaultdict(Counter)
    views = record.next_turn_views()
    questions = questions_for(record)
    joints = {q: defaultdict(Counter) for q in questions}
    for w in worlds:
        slots = {s: np.array([hand]) for s, hand in w["hands"].items()}
        sides = {s: np.array([c]) for s, c in (w.get("sides") or {}).items()}
        for s in w["hands"]:
            if s != record.me:
                now = _slots_at(record.view_now(s), slots[s], record.steps, sides)[0]
                for c in now:
                    holders[s][int(c)] += 1
        for q in questions:
            if q.action == "exchange":
                answer = w["sides"][q.side]
            else:
                def count(seat, icon):
                    v = views[seat]
                    cards = _slots_at(v, slots[seat], record.steps, sides)[0]
                    cols = _answer_columns(v, len(cards), record.variant)
                    return int(sum(ICON_MATRIX[cards[k], icon] for k in cols))
                if q.action == "count":
                    answer = count(q.target, q.icon)
                else:
                    answer = tuple(count(s, q.icon) > 0 for s in range(record.n) if s != record.me)
            joints[q][answer][w["criminal"]] += 1
    bits = {}
    for q, table in joints.items():
        rows = [[table[a][c] for c in range(N_CARDS)] for a in table]
        bits[q] = expected_bits(np.array(rows, dtype=float)) if rows else 0.0
    return {"worlds": len(worlds), "criminal": crim, "holders": holders, "bits": bits}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15, help="timed runs of the exact path per record")
    ap.add_argument("--naive-runs", type=int, default=3, help="timed runs of the naive path per record")
    ap.add_argument("--seeds", type=int, default=5, help="random 10-event records per variant")
    args = ap.parse_args()
    print(f"10-event records, {args.seeds} per variant (seeds 1..{args.seeds}); medians over runs, "
          "then the median over records")
    print(f"{'case':<14} {'worlds':>14} {'exact (ms)':>11} {'naive (ms)':>11} {'ratio':>8}")
    for n, variant in CASES:
        fast_times, slow_times, counts = [], [], []
        for seed in range(1, args.seeds + 1):
            record, _ = ten_event_record(n, variant, seed)
            exact = analyze(record)  # warm caches (deal tables) once, as a running tool would
            fast_times.append(median_time(lambda: analyze(record), args.runs)[0])
            naive = naive_analysis(record)
            assert naive["worlds"] == exact.total, (naive["worlds"], exact.total)
            for s in exact.suggestions:
                assert abs(naive["bits"][s.question] - s.expected_bits) < 1e-9
            slow_times.append(median_time(lambda: naive_analysis(record), args.naive_runs)[0])
            counts.append(exact.total)
        fast, slow = statistics.median(fast_times), statistics.median(slow_times)
        print(f"{n}p {variant:<11} {min(counts):>6}-{max(counts):<7} {fast * 1e3:>11.2f} "
              f"{slow * 1e3:>11.1f} {slow / fast:>7.0f}x")
    _, data = ten_event_record(4, "standard", 1)
    fresh = parse_record({**data, "events": []})
    fast = median_time(lambda: analyze(fresh), args.runs)[0]
    slow = median_time(lambda: naive_analysis(fresh), 1)[0]
    print(f"4p standard, no event (16800 worlds): exact {fast * 1e3:.2f} ms, naive "
          f"{slow * 1e3:.0f} ms, {slow / fast:.0f}x")
    record, data = ten_event_record(4, "standard", 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(data))
        cmd = [sys.executable, "-m", "deduce.cli.main", "s13", "analyze", str(path), "--json"]
        probe = [sys.executable, "-c",
                 "import sys, runpy; sys.argv=['deduce','s13','analyze',%r,'--json'];"
                 "import deduce.cli.main as m\n"
                 "try: m.main()\nexcept SystemExit: pass\n"
                 "print('ortools imported' if 'ortools' in sys.modules else 'ortools not imported',"
                 " file=sys.stderr)" % str(path)]
        end_to_end = median_time(lambda: subprocess.run(cmd, check=True, capture_output=True), 5)[0]
        note = subprocess.run(probe, capture_output=True, text=True).stderr.strip().splitlines()[-1]
    print(f"deduce s13 analyze --json (4p standard, end to end, new process): "
          f"{end_to_end * 1e3:.0f} ms median of 5; {note}")


if __name__ == "__main__":
    main()
