"""Sherlock 13 self-play: one pure game ``play_one(spec) -> Result`` and the summary of a match.

A game is a ``GameSpec`` (players, variant, the bots in seat order, the seed); seats
rotate and seeds come from ``core.selfplay.schedule``. Every bot plays through its own
``record.Record`` (``bots.py``); ``rules.State`` is the referee. A game still running after
``TURN_CAP`` turns counts as won by nobody.

Per line-up position (``summarise``): games won, its own turns (questions asked plus
accusations), and ``wrong_accusations`` (each one eliminates the bot); the rendered table
also says how many games nobody won (``notes["no_winner"]``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import NamedTuple, Sequence

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.core.selfplay import Match, Result, SelfPlayGame, Standing, Summary, schedule
from deduce.core.selfplay import summarise as by_position
from deduce.models.sherlock13.bots import BOTS, Bot, make_bot
from deduce.models.sherlock13.cards import HAND_SIZE, SUSPECTS
from deduce.models.sherlock13.record import new_record
from deduce.models.sherlock13.rules import VARIANTS, Accuse, ExchangeEvent, State, default_names

#: a game with this many turns (events) and no winner counts as won by nobody
TURN_CAP = 200


class GameSpec(NamedTuple):
    """One game: player count, variant, bots in seat order (names or ``Bot`` objects), seed."""

    players: int
    variant: str
    bots: tuple
    seed: int


def game_specs(players: int, variant: str, bots: Sequence[str | Bot], games: int,
               seed: int) -> list[GameSpec]:
    """The specs of a match: seats rotate (``core.selfplay.lineup``: in game g the bot at
    position i sits at seat (i + g) % players), seeds derived from ``seed`` per game.
    ``InputError`` naming the option for a bad player count, variant, bot or game count."""
    if players not in HAND_SIZE:
        raise InputError(f"Sherlock 13 is played by 2, 3 or 4 players, not {players}", where="--players")
    if variant not in VARIANTS:
        raise InputError(f"expected standard or expert, not {variant!r}", where="--variant")
    if len(bots) != players:
        raise InputError(f"{len(bots)} bots given for {players} players: give one bot per seat",
                         where="--bots")
    if games < 1:
        raise InputError(f"expected at least 1 game, not {games}", where="--games")
    canon = [b if isinstance(b, Bot) else resolve(b, BOTS, "bot", where="--bots") for b in bots]
    return [GameSpec(players, variant, seats, game_seed)
            for seats, game_seed in schedule(canon, games, seed)]


def play_one(spec: GameSpec | tuple) -> Result:
    """Play one game to the end (or ``TURN_CAP`` turns: no winner). Pure: the result
    depends only on ``spec``. Per-seat stats: ``turns`` (own turns taken), ``questions``,
    ``wrong_accusations``."""
    players, variant, bot_names, seed = spec
    deal_rng = random.Random(seed)
    state = State.deal(players, variant, deal_rng)
    names = default_names(players)
    bots = [make_bot(b) for b in bot_names]
    rngs = [random.Random(deal_rng.getrandbits(64)) for _ in range(players)]
    records = [new_record(variant, names, names[s], [SUSPECTS[c] for c in state.start_hands[s]])
               for s in range(players)]
    stats = [{"turns": 0, "questions": 0, "wrong_accusations": 0} for _ in range(players)]
    turns = 0
    while not state.is_over() and turns < TURN_CAP:
        seat = state.current
        action = bots[seat].choose(records[seat], rngs[seat])
        event = state.apply(action)
        turns += 1
        stats[seat]["turns"] += 1
        if isinstance(action, Accuse):
            if not event.correct:
                stats[seat]["wrong_accusations"] += 1
        else:
            stats[seat]["questions"] += 1
        for s, rec in enumerate(records):
            if isinstance(event, ExchangeEvent) and s != event.actor:
                rec.add(replace(event, took=None))
            else:
                rec.add(event)
    return Result(state.winner() if state.is_over() else None, turns, tuple(stats))


def match_specs(match: Match) -> list[GameSpec]:
    """The specs of ``match`` (``game_specs`` of its players, variant, line-up and seed)."""
    return game_specs(match.players, match.variant, match.bots, match.games, match.seed)


def summarise(match: Match, results: Sequence[Result]) -> Summary:
    """Per line-up position: wins, own turns, wrong accusations; games nobody won."""
    rows = by_position(list(match.bots), results)
    return Summary(
        tuple(Standing(r.name, r.wins, r.counters.get("turns", 0),
                       {"wrong_accusations": r.counters.get("wrong_accusations", 0)})
              for r in rows),
        notes={"no_winner": sum(1 for r in results if r.winner is None)})


GAME = SelfPlayGame("sherlock13", tuple(BOTS), match_specs, play_one, summarise)
