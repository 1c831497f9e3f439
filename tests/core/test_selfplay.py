"""The game-agnostic self-play runner: Wilson intervals, seeds, seat rotation, executors."""

import contextlib
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace

import pytest

from deduce.core.errors import InputError
from deduce.core.selfplay import (
    REGISTRY,
    Match,
    Result,
    SelfPlayGame,
    Standing,
    Summary,
    game_seed,
    lineup,
    open_executor,
    registered,
    run,
    run_games,
    schedule,
    seat_of,
    summarise,
    wilson_ci,
)


# ----------------------------------------------------------------------------- Wilson
@pytest.mark.parametrize("wins, n, lo, hi", [
    (50, 100, 0.40383, 0.59617),   # p = 1/2: symmetric (values: roots of the score quadratic)
    (0, 10, 0.0, 0.27754),         # no success: upper bound z^2 / (n + z^2)
    (10, 10, 0.72246, 1.0),
    (1, 10, 0.01788, 0.40415),
    (305, 1000, 0.27726, 0.33424),
    (81, 263, 0.25529, 0.36621),
])
def test_wilson_interval_known_values(wins, n, lo, hi):
    got = wilson_ci(wins, n)
    assert got[0] == pytest.approx(lo, abs=1e-5)
    assert got[1] == pytest.approx(hi, abs=1e-5)


def test_wilson_interval_contains_the_share_and_shrinks():
    for wins, n in [(3, 7), (30, 70), (300, 700)]:
        lo, hi = wilson_ci(wins, n)
        assert lo < wins / n < hi
    assert wilson_ci(300, 700)[1] - wilson_ci(300, 700)[0] < wilson_ci(30, 70)[1] - wilson_ci(30, 70)[0]
    assert wilson_ci(0, 0) == (0.0, 1.0)


# ----------------------------------------------------------------------------- seeds and seats
def test_game_seeds_are_fixed_by_master_seed_and_index():
    seeds = [game_seed(7, g) for g in range(200)]
    assert seeds == [game_seed(7, g) for g in range(200)]
    assert len(set(seeds)) == 200
    assert seeds != [game_seed(8, g) for g in range(200)]
    assert all(0 <= s < 2**63 for s in seeds)


def test_seats_rotate_across_games():
    bots = ["a", "b", "c", "d"]
    assert lineup(bots, 0) == ["a", "b", "c", "d"]
    assert lineup(bots, 1) == ["d", "a", "b", "c"]  # bot 0 now sits at seat 1
    for g in range(8):
        seats = lineup(bots, g)
        for i, b in enumerate(bots):
            assert seats[seat_of(i, g, 4)] == b
    # over N games every bot takes every seat once
    assert {lineup(bots, g).index("a") for g in range(4)} == {0, 1, 2, 3}


def test_summarise_maps_seats_back_to_positions():
    # game 0: position 0 at seat 0 wins; game 1: position 0 sits at seat 1 and wins
    results = [Result(0, 5, ({"turns": 2, "wrong_accusations": 0}, {"turns": 3, "wrong_accusations": 1})),
               Result(1, 7, ({"turns": 4, "wrong_accusations": 1}, {"turns": 3, "wrong_accusations": 0})),
               Result(None, 200, ({"turns": 100}, {"turns": 100}))]
    rows = summarise(["x", "y"], results)
    assert [r.wins for r in rows] == [2, 0]
    assert rows[0].games == 3 and rows[0].win_share == pytest.approx(2 / 3)
    assert rows[0].mean_turns == pytest.approx((2 + 3 + 100) / 3)
    assert rows[0].counters["wrong_accusations"] == 0
    assert rows[1].counters["wrong_accusations"] == 2
    assert rows[0].ci95 == wilson_ci(2, 3)


# ----------------------------------------------------------------------------- running
def toy_game(spec):
    """A pure, picklable toy game: the winner and length follow from the seed alone."""
    players, seed = spec
    return Result(seed % players, seed % 11, tuple({"turns": seed % 5} for _ in range(players)))


def test_run_games_is_the_same_on_any_executor():
    specs = [(3, game_seed(1, g)) for g in range(40)]
    serial = run_games(toy_game, specs)
    assert serial == [toy_game(s) for s in specs]
    with ThreadPoolExecutor(3) as ex:
        assert run_games(toy_game, specs, executor=ex, chunksize=3) == serial
    with ProcessPoolExecutor(2) as ex:
        assert run_games(toy_game, specs, executor=ex) == serial


def test_progress_counts_every_game():
    done = []
    specs = [(2, g) for g in range(25)]
    run_games(toy_game, specs, progress=done.append)
    assert sum(done) == 25
    done.clear()
    with ThreadPoolExecutor(2) as ex:
        run_games(toy_game, specs, executor=ex, progress=done.append, chunksize=4)
    assert sum(done) == 25


# ----------------------------------------------------------------------------- the runner
def toy_specs(match):
    return [(match.players, seed) for _, seed in schedule(match.bots, match.games, match.seed)]


def toy_summary(match, results):
    rows = summarise(list(match.bots), results)
    return Summary(tuple(Standing(r.name, r.wins, r.counters.get("turns", 0), {"k": i})
                         for i, r in enumerate(rows)), {"extra": len(results)}, {"note": 1})


TOY = SelfPlayGame("toy", ("a", "b"), toy_specs, toy_game, toy_summary)


def test_run_gives_one_envelope_and_the_same_games_on_any_workers():
    match = Match(30, 4, ("a", "b", "a"), 3)
    ticks = []

    @contextlib.contextmanager
    def progress(total, label):
        ticks.append((total, label))
        yield ticks.append

    one = run(TOY, match, progress)
    assert ticks[0] == (30, "self-play") and sum(ticks[1:]) == 30
    assert run(TOY, replace(match, workers=2)).summary == one.summary
    doc = one.envelope
    assert list(doc) == ["game", "players", "games", "seed", "workers", "scheduler",
                         "elapsed_s", "bots", "extra"]
    assert (doc["game"], doc["players"], doc["games"], doc["extra"]) == ("toy", 3, 30, 30)
    wins = [s.wins for s in one.summary.standings]
    assert [b["win_share"] for b in doc["bots"]] == [round(w / 30, 6) for w in wins]
    assert [b["ci95"] for b in doc["bots"]] == [[round(x, 6) for x in wilson_ci(w, 30)]
                                              for w in wins]
    assert [list(b) for b in doc["bots"]] == [["name", "win_share", "ci95", "mean_turns", "k"]] * 3
    assert list(run(TOY, replace(match, variant="expert")).envelope)[:4] == [
        "game", "players", "variant", "games"]


def test_a_game_s_figures_may_not_redefine_the_envelope():
    bad = replace(TOY, summarise=lambda match, results: Summary((), {"seed": 1}))
    with pytest.raises(ValueError, match="redefine the envelope's keys"):
        run(bad, Match(2, 0, ("a",), 1)).envelope


def test_every_registered_game_is_found_under_its_name():
    for name in REGISTRY:
        game = registered(name)
        assert game.name == name and game.bots


def test_open_executor_choices():
    with open_executor(1) as ex:
        assert ex is None
    with open_executor(2) as ex:
        assert isinstance(ex, ProcessPoolExecutor)
    with pytest.raises(InputError, match="--workers"):
        open_executor(0)


def test_scheduler_needs_dask(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were missing
    with pytest.raises(InputError, match="--scheduler.*dask"):
        open_executor(1, "tcp://127.0.0.1:8786")


@pytest.mark.slow
def test_selfplay_on_a_dask_cluster_gives_the_same_results():
    """Both games' self-play on a real (local, two-process) Dask cluster through the CLI:
    the same results as in one process."""
    import json

    distributed = pytest.importorskip("distributed")
    from click.testing import CliRunner

    from deduce.cli.main import cli
    from tests.envelopes import played

    def run(*args):
        res = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        return json.loads(res.output)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        s13 = ("s13", "selfplay", "--games", 24, "--seed", 4, "--json")
        here, there = run(*s13), run(*s13, "--scheduler", address)
        assert there["scheduler"] == address and here["scheduler"] is None
        assert here["bots"] == there["bots"]
        story = ("story", "selfplay", "--policy", "greedy", "--cases", 60, "--seed", 2, "--json")
        assert played(run(*story)) == played(run(*story, "--scheduler", address))
