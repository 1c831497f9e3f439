"""Baker Street Irregulars self-play: one pure game ``play_one(spec)`` and the summary of
a match (``GAME``, the game's part of the one runner ``core.selfplay``).

A game is a ``GameSpec``: the bots in seat order, the game's seed and the mode. Multi
(2-5 players): seats rotate and seeds come from ``core.selfplay.schedule`` (in game ``g``
the bot at position ``i`` of the line-up sits at seat ``(i + g) % n``); the deal is
``rules.new_game(seed, players)``. Solo (``Match.variant`` ``solo``, one bot): the bot
plays ``rules.new_solo(seed)`` against Holmes. Each seat's bot gets its own
``random.Random`` drawn from the seed, so a game depends only on its spec, whatever the
workers. A seat with one legal action plays it without asking its bot. ``ACTION_CAP``
actions is a safety net (no game of the shipped set comes near it).

Per game (``GameResult``): the winning seat (multi: the rules' tiebreakers leave one;
solo: seat 1 is Holmes), the actions played, and per seat its own actions and points. Per
line-up position (``summarise``): the games it won, its own actions (``mean_turns``) and
its points per game (``mean_points``); solo adds Holmes's points per game
(``{"holmes": {"mean_points"}}``). The envelope's ``variant`` is the mode (``multi`` or
``solo``; ``solo`` has ``players`` 1: the one bot at the table with Holmes).
"""

from __future__ import annotations

import random
from typing import NamedTuple, Sequence

from deduce.core.errors import InputError
from deduce.core.selfplay import Match, SelfPlayGame, Standing, Summary, schedule, seat_of
from deduce.models.irregulars.bots import BOTS, make_bot
from deduce.models.irregulars.position import MAX_PLAYERS, MIN_PLAYERS, MODES, MULTI, SOLO

#: safety net: a game still going after this many actions ends as it stands
ACTION_CAP = 5_000


class GameSpec(NamedTuple):
    """One game: the bots in seat order (canonical names), the seed and the mode."""

    bots: tuple[str, ...]
    seed: int
    mode: str = MULTI


class GameResult(NamedTuple):
    """One finished game: the winning seat, the actions played, and per seat its own
    actions and its points (solo: seat 0 the bot, seat 1 Holmes)."""

    winner: int
    actions: int
    own_actions: tuple[int, ...]
    points: tuple[int, ...]


def game_specs(players: int, bots: Sequence[str], games: int, seed: int,
               mode: str = MULTI) -> list[GameSpec]:
    """The specs of a match; ``InputError`` naming the option for a bad mode, player
    count, line-up or game count."""
    if mode not in MODES:
        raise InputError(f"expected multi or solo, not {mode!r}", where="--mode")
    if games < 1:
        raise InputError(f"expected at least 1 game, not {games}", where="--games")
    for b in bots:
        if b not in BOTS:
            raise InputError(f"unknown bot {b!r} (one of {', '.join(BOTS)})", where="--bots")
    if mode == SOLO:
        if len(bots) != 1:
            raise InputError(f"{len(bots)} bots given for solo: give the one bot that plays "
                             "against Holmes", where="--bots")
        return [GameSpec(seats, game_seed, SOLO)
                for seats, game_seed in schedule(list(bots), games, seed)]
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"Baker Street Irregulars is played by {MIN_PLAYERS} to "
                         f"{MAX_PLAYERS} players, not {players}", where="--players")
    if len(bots) != players:
        raise InputError(f"{len(bots)} bots given for {players} players: give one bot per "
                         "seat", where="--bots")
    return [GameSpec(seats, game_seed) for seats, game_seed in schedule(list(bots), games, seed)]


def play_one(spec: GameSpec | tuple) -> GameResult:
    """Play one game to its end. Pure: the result depends only on ``spec``."""
    from deduce.models.irregulars.rules import new_game, new_solo

    bot_names, seed, mode = spec
    state = new_solo(seed) if mode == SOLO else new_game(seed, players=len(bot_names))
    seeder = random.Random(seed ^ 0x5EED)
    rngs = [random.Random(seeder.getrandbits(64)) for _ in bot_names]
    bots = [make_bot(b) for b in bot_names]
    own = [0] * state.num_players()
    actions = 0
    while not state.is_over() and actions < ACTION_CAP:
        seat = state.current_player()
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else bots[seat].decide(
            state.observation(seat), legal, rngs[seat])
        state.apply(action)
        own[seat] += 1
        actions += 1
    scores = tuple(state.scores())
    winner = state.winner()
    if winner is None:  # the cap: the most points, the first seat of them
        winner = [scores.index(max(scores))]
    return GameResult(winner[0], actions, tuple(own), scores)


def match_specs(match: Match) -> list[GameSpec]:
    """The specs of ``match`` (its mode is its ``variant``: None for multi)."""
    return game_specs(match.players, match.bots, match.games, match.seed,
                      match.variant or MULTI)


def summarise(match: Match, results: Sequence[GameResult]) -> Summary:
    """Per line-up position: games won, own actions and ``mean_points``; solo adds
    Holmes's ``mean_points``."""
    games = len(results)
    mode = match.variant or MULTI
    n = 1 if mode == SOLO else len(match.bots)
    standings = []
    for i, name in enumerate(match.bots):
        seats = [0 if mode == SOLO else seat_of(i, g, n) for g in range(games)]
        wins = sum(1 for r, s in zip(results, seats) if r.winner == s)
        turns = sum(r.own_actions[s] for r, s in zip(results, seats))
        points = sum(r.points[s] for r, s in zip(results, seats))
        standings.append(Standing(name, wins, turns,
                                  {"mean_points": round(points / games, 6) if games else 0.0}))
    figures: dict = {}
    if mode == SOLO:
        holmes = sum(r.points[1] for r in results)
        figures["holmes"] = {"mean_points": round(holmes / games, 6) if games else 0.0}
    return Summary(tuple(standings), figures,
                   notes={"mean_game_actions": sum(r.actions for r in results) / games
                          if games else 0.0})


GAME = SelfPlayGame("irregulars", BOTS, match_specs, play_one, summarise)
