"""Deductions self-play: one pure game ``play_one(spec)`` and the summary of a match
(``GAME``, the game's part of the one runner ``core.selfplay``).

A game is a ``GameSpec``: the bots in seat order and the game's seed (seats rotate and
seeds come from ``core.selfplay.schedule``: in game ``g`` the bot at position ``i`` of the
line-up sits at seat ``(i + g) % n``, seat 0 plays first). The deal is
``rules.new_game(seed, players)``; each seat's bot gets its own ``random.Random`` drawn from
the seed, so a game depends only on its spec, whatever the workers. A game ends as the
engine says (the final round after 15 points, or its ``ROUND_CAP``); ``ACTION_CAP``
actions more is a safety net that ends it with the scores as they stand.

Per game (``GameResult``): the winners (a tie the tiebreakers leave: every tied seat),
the turns played, and per seat its own turns and points. Per line-up position
(``summarise``): the games it won (a shared win counts for each winner), its own turns and
its points per game (``mean_points``); the rendered table also says how many games were
shared (``notes["shared"]``).
"""

from __future__ import annotations

import random
from typing import NamedTuple, Sequence

from deduce.core.errors import InputError
from deduce.core.selfplay import Match, SelfPlayGame, Standing, Summary, schedule, seat_of
from deduce.models.deductions.bots import BOTS, make_bot
from deduce.models.deductions.position import MAX_PLAYERS, MIN_PLAYERS

#: safety net: a game still going after this many actions ends as it stands
ACTION_CAP = 20_000


class GameSpec(NamedTuple):
    """One game: the bots in seat order (canonical names) and the seed."""

    bots: tuple[str, ...]
    seed: int


class GameResult(NamedTuple):
    """One finished game: the winning seats (all tied ones), the turns played, and per
    seat its own turns and its points."""

    winners: tuple[int, ...]
    turns: int
    own_turns: tuple[int, ...]
    points: tuple[int, ...]


def game_specs(players: int, bots: Sequence[str], games: int, seed: int) -> list[GameSpec]:
    """The specs of a match (seats rotate, seeds per game from ``seed``); ``InputError``
    naming the option for a bad player count, line-up or game count."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"Deductions is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players}", where="--players")
    if len(bots) != players:
        raise InputError(f"{len(bots)} bots given for {players} players: give one bot per seat",
                         where="--bots")
    if games < 1:
        raise InputError(f"expected at least 1 game, not {games}", where="--games")
    for b in bots:
        if b not in BOTS:
            raise InputError(f"unknown bot {b!r} (one of {', '.join(BOTS)})", where="--bots")
    return [GameSpec(seats, game_seed) for seats, game_seed in schedule(list(bots), games, seed)]


def play_one(spec: GameSpec | tuple) -> GameResult:
    """Play one game to its end. Pure: the result depends only on ``spec``."""
    from deduce.models.deductions.rules import new_game

    bot_names, seed = spec
    n = len(bot_names)
    state = new_game(seed, players=n)
    seeder = random.Random(seed ^ 0x5EED)
    rngs = [random.Random(seeder.getrandbits(64)) for _ in range(n)]
    bots = [make_bot(b) for b in bot_names]
    own = [0] * n
    for _ in range(ACTION_CAP):
        if state.is_over():
            break
        seat = state.current_player()
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else bots[seat].decide(
            state.observation(seat), legal, rngs[seat])
        before = state.turns
        state.apply(action)
        own[seat] += state.turns - before
    winners = state.winner() or _leaders(state)
    return GameResult(tuple(winners), state.turns, tuple(own),
                      tuple(state.points(s) for s in range(n)))


def _leaders(state) -> list[int]:
    """The seats with the most points (a game stopped by ``ACTION_CAP``)."""
    points = [state.points(s) for s in range(state.num_players())]
    return [s for s, p in enumerate(points) if p == max(points)]


def match_specs(match: Match) -> list[GameSpec]:
    """The specs of ``match`` (its players, line-up, games and seed)."""
    return game_specs(match.players, match.bots, match.games, match.seed)


def summarise(match: Match, results: Sequence[GameResult]) -> Summary:
    """Per line-up position: games won (shared wins count for each winner), own turns and
    ``mean_points``; ``notes["shared"]``: games won by more than one seat."""
    n, games = len(match.bots), len(results)
    standings = []
    for i, name in enumerate(match.bots):
        seats = [seat_of(i, g, n) for g in range(games)]
        wins = sum(1 for r, s in zip(results, seats) if s in r.winners)
        turns = sum(r.own_turns[s] for r, s in zip(results, seats))
        points = sum(r.points[s] for r, s in zip(results, seats))
        standings.append(Standing(name, wins, turns,
                                  {"mean_points": round(points / games, 6) if games else 0.0}))
    return Summary(tuple(standings),
                   notes={"shared": sum(1 for r in results if len(r.winners) > 1),
                          "mean_game_turns": sum(r.turns for r in results) / games if games else 0.0})


GAME = SelfPlayGame("deductions", BOTS, match_specs, play_one, summarise)
