"""Deductions self-play: the specs and their checks, the summary (shared wins count for
each winner, points per game), and the same games whatever the workers."""

from __future__ import annotations

import pytest

from deduce.core.errors import InputError
from deduce.core.selfplay import REGISTRY, Match, registered, run
from deduce.models.deductions.selfplay import GAME, GameResult, game_specs, play_one, summarise


def test_registered_with_the_one_runner():
    assert REGISTRY["deductions"] == "deduce.models.deductions.selfplay"
    assert registered("deductions") is GAME and GAME.bots == ("random", "greedy", "search")


@pytest.mark.parametrize("players, bots, games, message", [
    (5, ("random",) * 5, 1, "--players: Deductions is played by 2 to 4 players, not 5"),
    (3, ("random", "greedy"), 1, "--bots: 2 bots given for 3 players: give one bot per seat"),
    (2, ("random", "clever"), 1, "--bots: unknown bot 'clever' (one of random, greedy, search)"),
    (2, ("random", "random"), 0, "--games: expected at least 1 game, not 0"),
])
def test_a_match_the_game_cannot_play_is_refused(players, bots, games, message):
    with pytest.raises(InputError) as exc:
        game_specs(players, bots, games, 1)
    assert str(exc.value) == message


def test_seats_rotate_and_seeds_differ():
    specs = game_specs(3, ("search", "greedy", "random"), 4, 9)
    assert [s.bots for s in specs] == [("search", "greedy", "random"),
                                       ("random", "search", "greedy"),
                                       ("greedy", "random", "search"),
                                       ("search", "greedy", "random")]
    assert len({s.seed for s in specs}) == 4 and specs == game_specs(3, ("search", "greedy", "random"), 4, 9)


def test_a_shared_win_counts_for_each_winner_and_points_are_per_game():
    match = Match(2, 0, ("greedy", "random"), 2)
    results = [GameResult((0,), 30, (15, 15), (16, 9)),      # game 0: greedy at seat 0 wins
               GameResult((0, 1), 40, (20, 20), (15, 15))]   # game 1: a tie: both win
    summary = summarise(match, results)
    assert [(s.name, s.wins, s.turns) for s in summary.standings] == [("greedy", 2, 35),
                                                                      ("random", 1, 35)]
    assert [s.figures["mean_points"] for s in summary.standings] == [15.5, 12.0]
    assert summary.notes == {"shared": 1, "mean_game_turns": 35.0}


def test_a_game_depends_only_on_its_spec():
    spec = game_specs(3, ("greedy", "random", "random"), 1, 5)[0]
    one = play_one(spec)
    assert play_one(spec) == one
    assert one.turns == sum(one.own_turns) and one.winners
    assert all(one.points[w] == max(one.points) for w in one.winners)


def test_the_same_games_on_one_or_two_workers():
    match = Match(4, 3, ("random", "greedy", "random"), 3)
    one = run(GAME, match).envelope
    two = run(GAME, Match(4, 3, ("random", "greedy", "random"), 3, workers=2)).envelope
    assert one["bots"] == two["bots"] and (one["workers"], two["workers"]) == (1, 2)
    assert [b["name"] for b in one["bots"]] == ["random", "greedy", "random"]
    assert list(one["bots"][0]) == ["name", "win_share", "ci95", "mean_turns", "mean_points"]
