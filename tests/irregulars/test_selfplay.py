"""Baker Street Irregulars self-play: the specs and their checks, the summary (multi and
solo with Holmes's points), and the same games whatever the workers."""

from __future__ import annotations

import pytest

from deduce.core.errors import InputError
from deduce.core.selfplay import REGISTRY, Match, registered, run
from deduce.models.irregulars.selfplay import GAME, GameResult, game_specs, play_one, summarise


def test_registered_with_the_one_runner():
    assert REGISTRY["irregulars"] == "deduce.models.irregulars.selfplay"
    assert registered("irregulars") is GAME and "random" in GAME.bots


@pytest.mark.parametrize("players, bots, mode, games, message", [
    (6, ("random",) * 6, "multi", 1,
     "--players: Baker Street Irregulars is played by 2 to 5 players, not 6"),
    (3, ("random",) * 2, "multi", 1, "--bots: 2 bots given for 3 players: give one bot per seat"),
    (2, ("random", "clever"), "multi", 1, "--bots: unknown bot 'clever' (one of random, greedy, search)"),
    (1, ("random", "random"), "solo", 1,
     "--bots: 2 bots given for solo: give the one bot that plays against Holmes"),
    (2, ("random",) * 2, "multi", 0, "--games: expected at least 1 game, not 0"),
    (2, ("random",) * 2, "duel", 1, "--mode: expected multi or solo, not 'duel'"),
])
def test_a_match_the_game_cannot_play_is_refused(players, bots, mode, games, message):
    with pytest.raises(InputError) as exc:
        game_specs(players, bots, games, 1, mode)
    assert str(exc.value) == message


def test_a_game_depends_only_on_its_spec():
    spec = game_specs(4, ("random",) * 4, 1, 5)[0]
    one = play_one(spec)
    assert play_one(spec) == one and one.actions == sum(one.own_actions)
    assert one.points[one.winner] == max(one.points)
    solo = play_one(game_specs(1, ("random",), 1, 5, "solo")[0])
    assert len(solo.points) == 2 and solo.winner == (0 if solo.points[0] > solo.points[1]
                                                     else 1)


def test_the_summary_per_position_and_holmes_s_points_in_solo():
    match = Match(2, 0, ("random", "random"), 2, variant="multi")
    results = [GameResult(0, 100, (50, 50), (40, 30)),   # game 0: position 0 at seat 0
               GameResult(0, 90, (44, 46), (20, 35))]    # game 1: position 1 at seat 0
    summary = summarise(match, results)
    assert [(s.wins, s.turns) for s in summary.standings] == [(1, 96), (1, 94)]
    assert [s.figures["mean_points"] for s in summary.standings] == [37.5, 25.0]
    solo = summarise(Match(2, 0, ("random",), 1, variant="solo"),
                     [GameResult(1, 40, (39, 0), (30, 50)), GameResult(0, 40, (40, 0), (60, 50))])
    assert solo.standings[0].wins == 1 and solo.standings[0].figures["mean_points"] == 45.0
    assert solo.figures == {"holmes": {"mean_points": 50.0}}


@pytest.mark.parametrize("mode, bots, players", [("multi", ("random",) * 3, 3),
                                                 ("solo", ("random",), 1)])
def test_the_same_games_on_one_or_two_workers(mode, bots, players):
    one = run(GAME, Match(4, 3, bots, players, variant=mode)).envelope
    two = run(GAME, Match(4, 3, bots, players, variant=mode, workers=2)).envelope
    assert one["bots"] == two["bots"] and (one["workers"], two["workers"]) == (1, 2)
    assert one["variant"] == mode
    assert list(one["bots"][0]) == ["name", "win_share", "ci95", "mean_turns", "mean_points"]
    if mode == "solo":
        assert one["holmes"] == two["holmes"]
