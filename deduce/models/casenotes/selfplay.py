"""Case-notes self-play (``deduce case selfplay``): many games of ``play.play_game`` and
their figures; ``GAME`` is its part of the one runner (``core.selfplay``).

Seats rotate as in ``core.selfplay``: in game ``g`` the strategy at position ``i`` of the
line-up sits at seat ``(i + g) % bots``, so every position takes every seat (and the first
Start Player, drawn with the game's seed, falls on every position) equally often; game
``g``'s seed is ``core.selfplay.game_seed(seed, g)``. A game depends only on its spec, so
the figures are the same whatever the workers.

Each process keeps one ``CaseOracle`` per case (``_oracle``) for all the games it plays:
what a set of notes implies is the same in every game, so later games mostly read memos.

Figures (``summarise``), competitive mode, per line-up position: games won (a shared win
counts for each winner) with the Wilson 95% interval, of which shared, eliminations, the
mean round of its answer at 221B (games where it answered), tokens spent and locations
visited per game; per game: rounds and how it ended. Cooperative mode: the team's solved
share with its interval, the mean score of solved games, perfect games (the best score of
``play.best_score``), tokens spent, rounds and ends.

In the runner's envelope (``match_summary``) each line-up position is a row of ``"bots"``
(in cooperative mode too: the team's result is each position's), named by its strategy,
``mean_turns`` being the rounds it was in the game (to its answer at 221B, else to the
game's end); the figures above follow: ``"case"`` (the title), ``"mode"``,
``"strategies"``, ``"mean_rounds"``, ``"ends"``, and ``"no_winner"`` or ``"team"``.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import NamedTuple

from deduce.core.errors import InputError
from deduce.core.selfplay import Match, SelfPlayGame, Standing, Summary, schedule, seat_of, wilson_ci
from deduce.models.casenotes.bots import STRATEGIES
from deduce.models.casenotes.knowledge import CaseOracle
from deduce.models.casenotes.format import Case
from deduce.models.casenotes.rules import MODES, play_game


class GameSpec(NamedTuple):
    """One game: the case (pickled with the spec, so Dask workers need no file), its key
    (``_oracle``'s cache), the mode, the strategy of each seat, the seed, the tokens."""

    case: Case
    case_key: str
    mode: str
    seats: tuple[str, ...]
    seed: int
    tokens: int | None


class Outcome(NamedTuple):
    """What ``summarise`` needs of one game: how it ended, its rounds, and per seat
    ``(status, spent, visited, answered_round)``; cooperative: the team's score (None: not
    solved) and the best score."""

    end: str
    rounds: int
    seats: tuple[tuple[str, int, int, int | None], ...]
    score: int | None = None
    best_score: int | None = None
    tokens_spent: int = 0


def game_specs(case: Case, mode: str, strategies: list[str], bots: int, games: int, seed: int,
               tokens: int | None = None) -> list[GameSpec]:
    """The games of a match: line-up position ``i`` plays ``strategies[i % len]``; seats
    rotate per game. ``InputError`` naming the option for a bad count or mode."""
    if games < 1:
        raise InputError(f"expected at least 1 game, not {games}", where="--games")
    if not 1 <= bots <= 7:
        raise InputError(f"the game takes 1 to 7 bots, not {bots}", where="--bots")
    if mode not in MODES:
        raise InputError(f"expected competitive or cooperative, not {mode!r}", where="--mode")
    positions = positions_of(strategies, bots)
    key = hashlib.sha256(pickle.dumps(case)).hexdigest()
    return [GameSpec(case, key, mode, seats, game_seed, tokens)
            for seats, game_seed in schedule(positions, games, seed)]


def positions_of(strategies: list[str], bots: int) -> list[str]:
    """The strategy at each line-up position: ``strategies`` cycled over ``bots``."""
    return [strategies[i % len(strategies)] for i in range(bots)]


_ORACLES: dict[str, CaseOracle] = {}


def _oracle(spec: GameSpec) -> CaseOracle:
    """This process's oracle for the spec's case (the last few cases kept)."""
    oracle = _ORACLES.get(spec.case_key)
    if oracle is None:
        while len(_ORACLES) >= 4:
            _ORACLES.pop(next(iter(_ORACLES))).close()
        oracle = _ORACLES[spec.case_key] = CaseOracle(spec.case)
    return oracle


def play_one(spec: GameSpec) -> Outcome:
    """Play the game of ``spec`` (pure: the outcome depends only on the spec)."""
    r = play_game(spec.case, len(spec.seats), spec.seed, spec.mode, list(spec.seats),
                  spec.tokens, oracle=_oracle(spec))
    seats = tuple((s.status, s.spent, len(s.visited), s.answered_round) for s in r.seats)
    if r.cooperative is None:
        return Outcome(r.end, r.rounds, seats)
    co = r.cooperative
    return Outcome(r.end, r.rounds, seats, co["score"], co["best_score"], co["tokens_spent"])


def summarise(mode: str, positions: list[str], outcomes: list[Outcome]) -> dict:
    """The figures of a match (JSON-ready; see the module docstring)."""
    n, games = len(positions), len(outcomes)
    ends: dict[str, int] = {}
    for o in outcomes:
        ends[o.end] = ends.get(o.end, 0) + 1
    out = {"games": games, "mean_rounds": _mean([o.rounds for o in outcomes]),
           "ends": dict(sorted(ends.items()))}
    if mode == "cooperative":
        solved = [o for o in outcomes if o.score is not None]
        lo, hi = wilson_ci(len(solved), games)
        out["team"] = {
            "solved": len(solved), "solved_share": _round(len(solved) / games),
            "ci95": [_round(lo), _round(hi)],
            "mean_score": _mean([o.score for o in solved]) if solved else None,
            "perfect": sum(1 for o in solved if o.score == o.best_score),
            "best_score": outcomes[0].best_score,
            "mean_tokens_spent": _mean([o.tokens_spent for o in outcomes]),
        }
        return out
    rows = []
    for i, name in enumerate(positions):
        mine = [(o, o.seats[seat_of(i, g, n)]) for g, o in enumerate(outcomes)]
        won = [o for o, s in mine if s[0] == "won"]
        shared = sum(1 for o in won if sum(s[0] == "won" for s in o.seats) > 1)
        lo, hi = wilson_ci(len(won), games)
        answered = [s[3] for _, s in mine if s[3] is not None]
        rows.append({
            "position": i, "strategy": name, "wins": len(won), "shared_wins": shared,
            "win_share": _round(len(won) / games), "ci95": [_round(lo), _round(hi)],
            "eliminated": sum(1 for _, s in mine if s[0] == "eliminated"),
            "mean_answer_round": _mean(answered) if answered else None,
            "mean_tokens_spent": _mean([s[1] for _, s in mine]),
            "mean_locations": _mean([s[2] for _, s in mine]),
        })
    out["bots"] = rows
    out["no_winner"] = sum(1 for o in outcomes if not any(s[0] == "won" for s in o.seats))
    return out


class CaseSetup(NamedTuple):
    """A match's own settings (``Match.setup``): the case, the mode, the starting tokens
    (None: as ``play.play_game``)."""

    case: Case
    mode: str = "competitive"
    tokens: int | None = None


def match_specs(match: Match) -> list[GameSpec]:
    """The specs of ``match``: its line-up (one strategy per position) at a table of
    ``match.players`` bots."""
    c = match.setup
    return game_specs(c.case, c.mode, list(match.bots), match.players, match.games,
                      match.seed, c.tokens)


def match_summary(match: Match, outcomes: list[Outcome]) -> Summary:
    """``summarise``'s figures as the runner's ``Summary`` (see the module docstring)."""
    mode, positions = match.setup.mode, list(match.bots)
    figures = summarise(mode, positions, outcomes)
    del figures["games"]
    rows = figures.pop("bots", None)
    n = len(positions)
    standings = []
    for i, name in enumerate(positions):
        mine = [(o, o.seats[seat_of(i, g, n)]) for g, o in enumerate(outcomes)]
        turns = sum(o.rounds if s[3] is None else s[3] for o, s in mine)
        if rows is None:  # cooperative: the team's result is every position's
            row = {"position": i, "strategy": name}
            wins = figures["team"]["solved"]
        else:
            row = {k: v for k, v in rows[i].items() if k not in ("win_share", "ci95")}
            wins = row["wins"]
        standings.append(Standing(name, wins, turns, row))
    return Summary(tuple(standings), {"case": match.setup.case.title, "mode": mode,
                                      "strategies": positions, **figures})


GAME = SelfPlayGame("case-notes", tuple(STRATEGIES), match_specs, play_one, match_summary)


def _mean(values: list) -> float:
    return _round(sum(values) / len(values)) if values else 0.0


def _round(x: float) -> float:
    return round(x, 6)
