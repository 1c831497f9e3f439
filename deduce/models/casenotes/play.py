"""``deduce case play``: self-play of a case with The Lost Diaries' rules, as they apply to notes.

Each note source is a Location; a bot visiting it reads every note of that source. Notes
without a source are known to everyone from the start. Bots (``bots.py``) see only their
own notes; 221B Baker Street checks a bot's answers against the case's (``CaseOracle.truth``).

Competitive mode (rulebook "Playing the Game"), round after round:

- Visiting phase: from the Start Player clockwise, each bot whose pawn is not placed takes a
  turn: a free Location on foot (0 tokens); an occupied one only by placing more tokens
  than the pawn there, which is displaced (its owner takes back its tokens but one, and
  chooses again when its turn comes round); the Carriage Stop or 221B (any number of
  pawns). The phase ends when every pawn is placed; the last bot to place its pawn, unless
  at 221B, becomes the Start Player. The first Start Player is drawn with the seed.
- Investigation phase: tokens on Locations go to the supply; each bot reads its Location's
  notes; the Carriage Stop gives +3 tokens. At 221B bots answer in order of tokens (most
  first; ties together): all answers right wins (ties can share the win), any wrong
  answer eliminates. A bot whose notes leave answers open guesses, question by question,
  an answer consistent with its notes and its earlier choices, drawn with its own seeded
  generator (``CaseOracle.guess``). The game ends with a winner, when everyone is eliminated, or when a
  bot left alone by eliminations has used its extra rounds (as many as its tokens, at most
  4). Every bot starts with 10 tokens (``--tokens``).
- Safety cap: ``bots * locations + 5`` rounds (a bot always moves on, so only a case whose
  notes never settle the answers could come near it).

Cooperative mode (rulebook "Cooperative and Solo Game Mode"): the bots are one team with one
pawn and shared notes; each round one bot (in turn) chooses where the team goes. Every trip
costs 1 token (our Locations all allow walking), 221B one less (0); the Carriage Stop's +3
comes only the first time. The team starts with "the highest number printed on a Location
card minus 3" tokens: the highest number in the source names ("Location 11: ..."), else
the number of sources, minus 3 (``--tokens`` overrides). A wrong answer ends the game
lost. Score (rulebook): tokens left plus unclaimed bonuses (the Carriage Stop's 3 if never
visited); police tokens do not exist here.

Cooperative benchmark: the fewest tokens a team needs is one per Location of the minimal
source set (``check.minimal_sources``), 221B free; ``best_score`` is the score of that
perfect game (visiting the Carriage Stop costs a token and forfeits its unclaimed 3, so it
only helps when the budget is short: then the best is start + 2 - needed; null when even
that cannot pay for the trips).

``play_game`` is pure and deterministic for its arguments (seeded ``random.Random``
generators: one for the Start Player, one per bot for tie-breaks).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from deduce.models.casenotes.bots import Action, Bot, CaseOracle, View
from deduce.models.casenotes.format import Case
from deduce.models.casenotes.schema import Value

START_TOKENS = 10
STOP_BONUS = 3
ALONE_ROUNDS = 4
MODES = ("competitive", "cooperative")
#: The rulebook's cooperative scale: score -> outcome (7 and more: the last line).
SCALE = (
    "Just in time, justice has prevailed.",
    "Elementary.",
    "The Baker Street Irregulars could learn from you.",
    "Scotland Yard, as always, has arrived late.",
    'You are in the news: "Extra, extra, read all about it: mystery solved!"',
    "You have an appointment at the Diogenes Club, Mycroft Holmes wishes to receive you.",
    "Great Scott! Watson and Holmes are proud, they would not have done it better.",
    "Fascinating! Conan Doyle himself wants to publish your adventures.",
)


@dataclass
class Seat:
    """One bot's state: tokens, the notes it has read, where it has been, how it ended."""

    strategy: str
    tokens: int
    known: set[int]
    visited: set[int] = field(default_factory=set)
    status: str = "playing"  # "playing", "won" or "eliminated"
    spent: int = 0
    gained: int = 0
    answered_round: int | None = None
    answers: tuple[Value, ...] | None = None
    correct: int | None = None

    def view(self, occupied: dict[int, int], stop_used: bool = False) -> View:
        return View(self.tokens, frozenset(self.known), frozenset(self.visited), dict(occupied),
                    stop_used)


@dataclass
class PlayReport:
    """A finished game; ``to_json`` documents the keys."""

    case: Case
    mode: str
    seed: int
    seats: list[Seat]
    rounds: int
    winners: list[int]
    log: list[dict]
    labels: list[str]
    truth: tuple[Value, ...]
    sources: list[str]
    end: str
    cooperative: dict | None = None

    def to_json(self) -> dict:
        """``{"case", "mode", "seed", "strategies", "rounds", "winners": [seat], "end",
        "bots": [{"seat", "strategy", "status", "tokens", "spent", "gained", "visited":
        [location], "answered_round", "answers": {question: answer} | null, "correct"}],
        "truth": {question: answer}, "log": [{"round", "start_player", "moves": [{"seat",
        "action": "visit"|"stop"|"221B", "location", "bid", "displaces": seat | null}] (in
        turn order), "answers": [{"seat", "correct", "of", "won"}]}]}``, plus
        ``"cooperative"`` in that mode: ``{"tokens_start", "tokens_spent", "tokens_needed",
        "score", "best_score", "outcome"}``."""
        out = {
            "case": self.case.title, "mode": self.mode, "seed": self.seed,
            "strategies": [s.strategy for s in self.seats], "rounds": self.rounds,
            "winners": self.winners, "end": self.end,
            "bots": [self._seat_json(k, s) for k, s in enumerate(self.seats)],
            "truth": dict(zip(self.labels, self.truth)),
            "log": self.log,
        }
        if self.cooperative is not None:
            out["cooperative"] = self.cooperative
        return out

    def _seat_json(self, k: int, s: Seat) -> dict:
        return {"seat": k, "strategy": s.strategy, "status": s.status, "tokens": s.tokens,
                "spent": s.spent, "gained": s.gained,
                "visited": [self.sources[v] for v in sorted(s.visited)],
                "answered_round": s.answered_round,
                "answers": None if s.answers is None else dict(zip(self.labels, s.answers)),
                "correct": s.correct}


# ---------------------------------------------------------------------------------- entry
def play_game(case: Case, bots: int, seed: int, mode: str = "competitive",
              strategies: list[str] | None = None, tokens: int | None = None,
              oracle: CaseOracle | None = None) -> PlayReport:
    """One game of ``bots`` bots (strategies cycled over the seats; default ``informed``).
    ``oracle``: a ``CaseOracle`` of ``case`` to use (and keep: its memos serve the next
    games, as in ``selfplay``); by default one made and closed for this game. The game is
    the same either way."""
    if bots < 1:
        raise ValueError("at least one bot")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    names = strategies or ["informed"]
    lineup = [names[k % len(names)] for k in range(bots)]
    own = oracle is None
    oracle = CaseOracle(case) if own else oracle
    try:
        game = _Game(case, oracle, lineup, seed, tokens)
        return game.run_cooperative() if mode == "cooperative" else game.run_competitive()
    finally:
        if own:
            oracle.close()


def cooperative_budget(case: Case) -> int:
    """Tokens a cooperative team starts with: the highest Location number minus 3 (see the
    module docstring)."""
    numbers = [int(m.group()) for src in case.sources for m in [re.search(r"\d+", src)] if m]
    return max(max(numbers, default=len(case.sources)) - 3, 0)


def best_score(start: int, needed: int) -> int | None:
    """The rulebook score of a perfect cooperative game (see the module docstring)."""
    if needed <= start:
        return start - needed + STOP_BONUS
    if needed <= start + STOP_BONUS - 1:
        return start + STOP_BONUS - 1 - needed
    return None


def outcome(score: int | None) -> str:
    """The rulebook's words for a cooperative score (None: the case was not solved)."""
    if score is None:
        return "Not solved."
    return SCALE[min(score, len(SCALE) - 1)]


# ---------------------------------------------------------------------------------- the game
class _Game:
    def __init__(self, case: Case, oracle: CaseOracle, lineup: list[str], seed: int,
                 tokens: int | None):
        self.case = case
        self.oracle = oracle
        self.seed = seed
        self.rng = random.Random(seed)
        self.start_tokens = tokens
        start = START_TOKENS if tokens is None else tokens
        self.seats = [Seat(name, start, set(oracle.free_notes)) for name in lineup]
        self.bots = [Bot(name, oracle, random.Random(seed * 1_000_003 + k))
                     for k, name in enumerate(lineup)]
        self.log: list[dict] = []

    def report(self, mode: str, rounds: int, end: str, cooperative: dict | None = None) -> PlayReport:
        winners = [k for k, s in enumerate(self.seats) if s.status == "won"]
        return PlayReport(self.case, mode, self.seed, self.seats, rounds, winners, self.log,
                          self.oracle.labels, self.oracle.truth, self.oracle.sources, end,
                          cooperative)

    # ------------------------------------------------------------------ competitive
    def run_competitive(self) -> PlayReport:
        n = len(self.seats)
        start = self.rng.randrange(n)
        cap = n * len(self.oracle.sources) + 5
        alone_left: int | None = None
        for rnd in range(1, cap + 1):
            entry = {"round": rnd, "start_player": start, "moves": [], "answers": []}
            self.log.append(entry)
            placed, start = self._visiting_phase(start, entry)
            self._investigate(placed, rnd, entry)
            playing = [k for k, s in enumerate(self.seats) if s.status == "playing"]
            if any(s.status == "won" for s in self.seats):
                return self.report("competitive", rnd, "solved")
            if not playing:
                return self.report("competitive", rnd, "all eliminated")
            if len(playing) == 1 and n > 1:
                if alone_left is None:
                    alone_left = min(self.seats[playing[0]].tokens, ALONE_ROUNDS)
                else:
                    alone_left -= 1
                if alone_left <= 0:
                    return self.report("competitive", rnd, "alone, out of rounds")
            if self.seats[start].status != "playing":
                start = self._next_playing(start)
        return self.report("competitive", cap, "round cap")

    def _next_playing(self, seat: int) -> int:
        n = len(self.seats)
        for step in range(1, n + 1):
            k = (seat + step) % n
            if self.seats[k].status == "playing":
                return k
        return seat

    def _visiting_phase(self, start: int, entry: dict) -> tuple[dict[int, Action], int]:
        """Every playing bot places its pawn (rulebook order and displacement); returns the
        placements and the next Start Player."""
        n = len(self.seats)
        placed: dict[int, Action] = {}
        holder: dict[int, int] = {}  # location -> seat whose pawn is on it
        playing = [k for k in range(n) if self.seats[k].status == "playing"]
        seat, last = start, start
        while len(placed) < len(playing):
            if self.seats[seat].status == "playing" and seat not in placed:
                occupied = {src: placed[k].bid for src, k in holder.items()}
                action = self.bots[seat].decide(self.seats[seat].view(occupied))
                self._place(seat, action, placed, holder, entry)
                last = seat
            seat = (seat + 1) % n
        next_start = start if placed[last].kind == "221B" else last
        return placed, next_start

    def _place(self, seat: int, action: Action, placed: dict[int, Action],
               holder: dict[int, int], entry: dict) -> None:
        me = self.seats[seat]
        other = holder.get(action.source) if action.kind == "visit" else None
        if action.kind == "visit":
            if other is not None:
                bid = placed[other].bid
                if action.bid <= bid:
                    raise AssertionError("a bid must exceed the tokens on the location")
                back = max(bid - 1, 0)
                self.seats[other].tokens += back
                self.seats[other].spent -= back
                del placed[other]
            if action.bid > me.tokens:
                raise AssertionError("a bot cannot bid tokens it does not have")
            me.tokens -= action.bid
            me.spent += action.bid
            holder[action.source] = seat
        placed[seat] = action
        entry["moves"].append(self._move_json(seat, action, other))

    def _move_json(self, seat: int, action: Action, displaces: int | None = None) -> dict:
        where = self.oracle.sources[action.source] if action.kind == "visit" else None
        return {"seat": seat, "action": action.kind, "location": where, "bid": action.bid,
                "displaces": displaces}

    def _investigate(self, placed: dict[int, Action], rnd: int, entry: dict) -> None:
        for seat, action in sorted(placed.items()):
            me = self.seats[seat]
            if action.kind == "visit":
                self._read(me, action.source)
            elif action.kind == "stop":
                me.tokens += STOP_BONUS
                me.gained += STOP_BONUS
        at_221b = [k for k, a in placed.items() if a.kind == "221B"]
        self._answer(at_221b, rnd, entry)

    def _read(self, me: Seat, source: int) -> None:
        me.visited.add(source)
        me.known.update(self.oracle.notes_at[source])

    def _answer(self, seats: list[int], rnd: int, entry: dict) -> None:
        """221B in order of tokens, ties together; stops after a group with a winner."""
        for tokens in sorted({self.seats[k].tokens for k in seats}, reverse=True):
            group = sorted(k for k in seats if self.seats[k].tokens == tokens)
            for k in group:
                self._check(k, rnd, entry)
            if any(self.seats[k].status == "won" for k in group):
                return

    def _check(self, seat: int, rnd: int, entry: dict, me: Seat | None = None) -> bool:
        """Seat ``seat`` (or the team ``me`` speaking through it) answers at 221B."""
        me = me or self.seats[seat]
        me.answers = self.oracle.guess(frozenset(me.known), self.bots[seat].rng)
        me.correct = sum(a == t for a, t in zip(me.answers, self.oracle.truth))
        me.answered_round = rnd
        won = me.correct == len(self.oracle.truth)
        me.status = "won" if won else "eliminated"
        entry["answers"].append({"seat": seat, "correct": me.correct,
                                 "of": len(self.oracle.truth), "won": won})
        return won

    # ------------------------------------------------------------------ cooperative
    def run_cooperative(self) -> PlayReport:
        start = cooperative_budget(self.case) if self.start_tokens is None else self.start_tokens
        team = Seat("team", start, set(self.oracle.free_notes))
        n = len(self.seats)
        cap = len(self.oracle.sources) + 5
        for rnd in range(1, cap + 1):
            proposer = (rnd - 1) % n
            entry = {"round": rnd, "start_player": proposer, "moves": [], "answers": []}
            self.log.append(entry)
            action = self.bots[proposer].decide_team(team.view({}, team.gained > 0))
            entry["moves"].append(self._move_json(proposer, action))
            if action.kind == "221B":
                won = self._check(proposer, rnd, entry, team)
                score = team.tokens + (0 if team.gained else STOP_BONUS) if won else None
                return self._coop_report(team, start, rnd, score, "solved" if won else "wrong answer")
            self._travel(team, action)
        return self._coop_report(team, start, cap, None, "round cap")

    def _travel(self, team: Seat, action: Action) -> None:
        """One cooperative trip: a token, then the Location's notes or the Carriage Stop."""
        team.tokens -= 1
        team.spent += 1
        if action.kind == "stop":
            team.tokens += STOP_BONUS
            team.gained += STOP_BONUS
        else:
            self._read(team, action.source)

    def _coop_report(self, team: Seat, start: int, rounds: int, score: int | None,
                     end: str) -> PlayReport:
        """Every seat shows the team's state; ``cooperative`` compares with a perfect game."""
        for s in self.seats:
            s.tokens, s.known, s.visited = team.tokens, set(team.known), set(team.visited)
            s.spent, s.gained, s.status = team.spent, team.gained, team.status
            s.answers, s.correct, s.answered_round = team.answers, team.correct, team.answered_round
        needed = self.oracle.locations_needed()
        coop = {"tokens_start": start, "tokens_spent": team.spent, "tokens_needed": needed,
                "carriage_stop_used": team.gained > 0, "score": score,
                "best_score": None if needed is None else best_score(start, needed),
                "outcome": outcome(score)}
        return self.report("cooperative", rounds, end, coop)
