"""The Lost Diaries' rules as they apply to case notes: the play engine (``State``).

Each note source is a Location; a player visiting it reads every note of that source.
Notes without a source are known to everyone from the start. 221B Baker Street checks a
player's answers against the case's (``Setup.truth``: the referee's hidden state).

Competitive mode (rulebook "Playing the Game"), round after round:

- Visiting phase: from the Start Player clockwise, each player whose pawn is not placed
  takes a turn: a free Location on foot (bid 0) or by carriage (any tokens they have); an
  occupied one only by placing more tokens than the pawn there, which is displaced (its
  owner takes back its tokens but one, and chooses again when its turn comes round); the
  Carriage Stop or 221B (any number of pawns). The phase ends when every pawn is placed;
  the last player to place a pawn, unless at 221B, becomes the Start Player. The first
  Start Player is drawn from the ``random.Random`` the state is made with (its only chance).
- Investigation phase: tokens on Locations go to the supply; each player reads its
  Location's notes; the Carriage Stop gives +3 tokens. At 221B players answer in order of
  tokens (most first; ties together, in seat order, each unaware of the others' answers):
  all answers right wins (ties can share the win), any wrong answer eliminates. The game
  ends with a winner, when everyone is eliminated, or when a player left alone by
  eliminations has used its extra rounds (as many as its tokens, at most 4). Every player
  starts with 10 tokens (``tokens`` overrides).
- Safety cap: ``players * locations + 5`` rounds.

Cooperative mode (rulebook "Cooperative and Solo Game Mode"): the players are one team with
one pawn and shared notes; each round one player (in turn, from seat 0) chooses where the
team goes. Every trip costs 1 token (our Locations all allow walking), 221B one less (0);
the Carriage Stop's +3 comes only the first time. The team starts with "the highest number
printed on a Location card minus 3" tokens (``cooperative_budget``; ``tokens``
overrides). A wrong answer ends the game lost. Score (rulebook): tokens left plus
unclaimed bonuses (the Carriage Stop's 3 if never visited); police tokens do not exist here.
Safety cap: ``locations + 5`` rounds.

Moves (``Action``): ``visit`` (a location index and a bid), ``stop`` (the Carriage Stop),
``221B``; a player at 221B then answers the questions one by one (``answer`` moves, each a
value of the next question; with no questions, every cell of the grid is asked). So every
decision has a short list of ``legal_actions()``, and ``apply`` refuses anything else with
``InputError``. ``observation(player)`` is what that player sees, as JSON.

``play_game`` seats bots (``bots.Bot``) at a ``State`` and plays it out: pure and
deterministic for its arguments (seeded ``random.Random`` generators: one for the Start
Player, one per bot for its tie-breaks and guesses). Cooperative benchmark: the fewest
tokens a team needs is one per Location of the minimal source set
(``check.minimal_sources``), 221B free; ``best_score`` is the score of that perfect game
(visiting the Carriage Stop costs a token and forfeits its unclaimed 3, so it only helps
when the budget is short: then the best is start + 2 - needed; null when even that cannot
pay for the trips).
"""

from __future__ import annotations

import copy
import functools
import random
from dataclasses import dataclass, field

from deduce.core.errors import InputError
from deduce.models.casenotes.bots import Bot
from deduce.models.casenotes.format import Case, load_case, source_number
from deduce.models.casenotes.knowledge import CaseOracle
from deduce.models.casenotes.schema import Value

START_TOKENS = 10
STOP_BONUS = 3
ALONE_ROUNDS = 4
MODES = ("competitive", "cooperative")
#: The rulebook's player counts (1: solo, cooperative or a lone competitor).
MAX_PLAYERS = 7
KINDS = ("visit", "stop", "221B", "answer")
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


# ---------------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Action:
    """``kind``: ``"visit"`` (``source`` index, ``bid`` tokens: 0 on foot), ``"stop"`` (the
    Carriage Stop), ``"221B"`` (go and answer) or ``"answer"`` (``value``: the answer to
    the next question)."""

    kind: str
    source: int | None = None
    bid: int = 0
    value: Value | None = None

    def to_json(self) -> dict:
        """``{"action": kind}`` plus ``"location"`` and ``"bid"`` for a visit, ``"value"``
        for an answer."""
        if self.kind == "visit":
            return {"action": "visit", "location": self.source, "bid": self.bid}
        if self.kind == "answer":
            return {"action": "answer", "value": self.value}
        return {"action": self.kind}

    @classmethod
    def from_json(cls, data) -> "Action":
        """The action of ``to_json``'s object; ``InputError`` naming the field otherwise
        (whether it is legal is ``State.apply``'s question)."""
        if not isinstance(data, dict) or data.get("action") not in KINDS:
            raise InputError(f"expected an action object with \"action\" one of "
                             f"{', '.join(KINDS)}", field="action")
        kind = data["action"]
        if kind == "visit":
            where, bid = data.get("location"), data.get("bid", 0)
            for name, v in (("location", where), ("bid", bid)):
                if not _whole(v):
                    raise InputError(f"a visit's {name} is a whole number, not {v!r}", field=name)
            return cls("visit", where, bid)
        if kind == "answer":
            value = data.get("value")
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise InputError(f"an answer's value is a string or a number, not {value!r}",
                                 field="value")
            return cls("answer", value=value)
        return cls(kind)


STOP = Action("stop")
BAKER = Action("221B")


@functools.lru_cache(maxsize=1 << 16)
def visit(source: int, bid: int = 0) -> Action:
    """The visit action (one object per location and bid: ``legal_actions`` lists many)."""
    return Action("visit", source, bid)


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


# ---------------------------------------------------------------------------------- setup
@dataclass(frozen=True)
class Setup:
    """What the rules need of a case: the locations and their notes, the questions with
    their possible answers, the truth 221B checks, and the cooperative budget."""

    title: str
    sources: tuple[str, ...]
    notes_at: tuple[tuple[int, ...], ...]
    free_notes: frozenset[int]
    labels: tuple[str, ...]
    domains: tuple[tuple[Value, ...], ...]
    truth: tuple[Value, ...]
    budget: int

    @classmethod
    def of(cls, oracle: CaseOracle) -> "Setup":
        """The setup of ``oracle``'s case (its truth is solved here: ``CaseContradiction``
        when the notes cannot all hold)."""
        truth = oracle.truth
        return cls(oracle.case.title, tuple(oracle.sources),
                   tuple(tuple(n) for n in oracle.notes_at), oracle.free_notes,
                   tuple(oracle.labels), tuple(tuple(lits) for lits in oracle.answer_lits),
                   truth, cooperative_budget(oracle.case))


def cooperative_budget(case: Case) -> int:
    """Tokens a cooperative team starts with: the highest Location number minus 3 (see the
    module docstring)."""
    numbers = [n for n in map(source_number, case.sources) if n is not None]
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


@dataclass
class Seat:
    """One player's (or the cooperative team's) state: tokens, the notes read, where it
    has been, how it ended."""

    tokens: int
    known: set[int]
    visited: set[int] = field(default_factory=set)
    status: str = "playing"  # "playing", "won" or "eliminated"
    spent: int = 0
    gained: int = 0
    answered_round: int | None = None
    answers: tuple[Value, ...] | None = None
    correct: int | None = None


# ---------------------------------------------------------------------------------- state
class State:
    """One game in progress (both modes): whose move, what each player knows, the log.

    ``log`` is the public course of play: per round ``{"round", "start_player", "moves":
    [{"seat", "action", "location", "bid", "displaces"}] (in turn order), "answers":
    [{"seat", "correct", "of", "won"}]}`` (in cooperative play ``start_player`` is the
    player who chose).
    """

    def __init__(self, setup: Setup, players: int, rng: random.Random,
                 mode: str = "competitive", tokens: int | None = None):
        if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
            raise InputError(f"the game takes 1 to {MAX_PLAYERS} players, not {players!r}")
        if mode not in MODES:
            raise InputError(f"expected competitive or cooperative, not {mode!r}")
        if tokens is not None and not _whole(tokens):
            raise InputError(f"the tokens at the start are a whole number, not {tokens!r}")
        self.setup = setup
        self.mode = mode
        self.n = players
        coop = mode == "cooperative"
        self.start_tokens = tokens if tokens is not None else (
            setup.budget if coop else START_TOKENS)
        self.seats = [Seat(self.start_tokens, set(setup.free_notes)) for _ in range(players)]
        self.team = Seat(self.start_tokens, set(setup.free_notes)) if coop else None
        self.cap = len(setup.sources) + 5 if coop else players * len(setup.sources) + 5
        self.log: list[dict] = []
        self.round = 0
        self.start = 0 if coop else rng.randrange(players)
        self.phase = "visit"  # "visit", "answer" or "over"
        self.end: str | None = None
        self.stop_claimed = False  # cooperative: the Carriage Stop's bonus is taken
        self._alone_left: int | None = None
        self._to_move: int | None = None
        self._placed: dict[int, Action] = {}
        self._holder: dict[int, int] = {}  # location -> seat whose pawn is on it
        self._order: list[int] = []  # placements of this round, in turn order
        self._last = 0  # the last seat to place a pawn this round
        self._next_start = 0  # the next round's Start Player (competitive)
        self._groups: list[list[int]] = []
        self._group: list[int] = []
        self._answering = 0
        self._partial: list[Value] = []
        self._begin_round()

    # ------------------------------------------------------------------ queries
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int | None:
        """The seat to move (None when the game is over)."""
        return self._to_move

    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> list[int]:
        """The seats that solved the case (ties share; cooperative: every seat)."""
        return [k for k in range(self.n) if self._me(k).status == "won"]

    def winner(self) -> int | None:
        """The one winner, or None (no winner, or a shared win: see ``winners``)."""
        won = self.winners()
        return won[0] if len(won) == 1 else None

    @property
    def rounds(self) -> int:
        """Rounds played (the current one included)."""
        return self.round

    def score(self) -> int | None:
        """Cooperative: the rulebook score (tokens left plus the Carriage Stop's 3 when
        never visited), None unless solved."""
        if self.team is None or self.team.status != "won":
            return None
        return self.team.tokens + (0 if self.stop_claimed else STOP_BONUS)

    def clone(self) -> "State":
        return copy.deepcopy(self)

    def _me(self, seat: int) -> Seat:
        """A seat's own state (the team's in cooperative play)."""
        return self.team if self.team is not None else self.seats[seat]

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a fixed order (empty when over)."""
        if self.phase == "over":
            return []
        if self.phase == "answer":
            return [Action("answer", value=v) for v in self.setup.domains[len(self._partial)]]
        me = self._me(self._to_move)
        if self.team is not None:
            trips = [visit(k) for k in range(len(self.setup.sources))] + [STOP]
            return (trips if me.tokens >= 1 else []) + [BAKER]
        acts = []
        for src in range(len(self.setup.sources)):
            acts += [visit(src, bid) for bid in range(self._min_bid(src), me.tokens + 1)]
        return acts + [STOP, BAKER]

    def _min_bid(self, source: int) -> int:
        held = self._holder.get(source)
        return 0 if held is None else self._placed[held].bid + 1

    def refusal(self, action) -> str | None:
        """Why ``action`` is not legal now (None when it is)."""
        if self.phase == "over":
            return "the game is over"
        if not isinstance(action, Action) or action.kind not in KINDS:
            return f"not an action: {action!r}"
        if self.phase == "answer":
            if action.kind != "answer":
                return "a player at 221B Baker Street answers the questions now"
            q = len(self._partial)
            v = action.value
            if not isinstance(v, (str, int)) or isinstance(v, bool) \
                    or v not in self.setup.domains[q]:
                return f"{v!r} is not a possible answer to {self.setup.labels[q]!r}"
            return None
        if action.kind == "answer":
            return "answers are given at 221B Baker Street, after the visiting phase"
        if action.kind != "visit":
            if action.source is not None or action.bid != 0 or action.value is not None:
                return f"{action.kind} takes no location, bid or value"
            if action.kind == "stop" and self.team is not None and self.team.tokens < 1:
                return "a trip to the Carriage Stop costs a token, and the team has none"
            return None
        return self._visit_refusal(action)

    def _visit_refusal(self, action: Action) -> str | None:
        src, bid = action.source, action.bid
        if not isinstance(src, int) or isinstance(src, bool) \
                or not 0 <= src < len(self.setup.sources):
            return f"no location {src!r}: the case has {len(self.setup.sources)}"
        if action.value is not None:
            return "a visit takes no value"
        if not isinstance(bid, int) or isinstance(bid, bool) or bid < 0:
            return f"a bid is a whole number of tokens, not {bid!r}"
        me = self._me(self._to_move)
        if self.team is not None:
            if bid != 0:
                return "a cooperative trip costs one token: there is no bid"
            if me.tokens < 1:
                return "a trip costs a token, and the team has none"
            return None
        if bid > me.tokens:
            return f"a bid of {bid} tokens, but seat {self._to_move} has {me.tokens}"
        if bid < self._min_bid(src):
            return f"a bid must exceed the {self._min_bid(src) - 1} tokens on the location"
        return None

    # ------------------------------------------------------------------ play
    def apply(self, action: Action) -> None:
        """Play ``action`` for the player to move; ``InputError`` if it is not legal."""
        why = self.refusal(action)
        if why is not None:
            raise InputError(why, field="action")
        seat = self._to_move
        if self.phase == "answer":
            self._partial.append(action.value)
            if len(self._partial) == len(self.setup.labels):
                self._check(seat, tuple(self._partial))
                self._answering += 1
                self._ask()
        elif self.team is not None:
            self._cooperative_move(seat, action)
        else:
            self._competitive_move(seat, action)

    def _begin_round(self) -> None:
        self.round += 1
        if self.team is not None:
            self.start = (self.round - 1) % self.n
        self.log.append({"round": self.round, "start_player": self.start, "moves": [],
                         "answers": []})
        self.phase = "visit"
        self._placed, self._holder, self._order = {}, {}, []
        self._to_move = self.start
        if self.team is None and self._me(self.start).status != "playing":
            self._to_move = self._next_unplaced(self.start)

    def _move_json(self, seat: int, action: Action, displaces: int | None = None) -> dict:
        where = self.setup.sources[action.source] if action.kind == "visit" else None
        return {"seat": seat, "action": action.kind, "location": where, "bid": action.bid,
                "displaces": displaces}

    # -- competitive
    def _competitive_move(self, seat: int, action: Action) -> None:
        me = self.seats[seat]
        other = self._holder.get(action.source) if action.kind == "visit" else None
        if action.kind == "visit":
            if other is not None:
                back = max(self._placed[other].bid - 1, 0)
                self.seats[other].tokens += back
                self.seats[other].spent -= back
                del self._placed[other]
                self._order.remove(other)
            me.tokens -= action.bid
            me.spent += action.bid
            self._holder[action.source] = seat
        self._placed[seat] = action
        self._order.append(seat)
        self.log[-1]["moves"].append(self._move_json(seat, action, other))
        self._last = seat
        playing = [k for k in range(self.n) if self.seats[k].status == "playing"]
        if len(self._placed) < len(playing):
            self._to_move = self._next_unplaced(seat)
            return
        self._investigate()

    def _next_unplaced(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` still playing without a pawn placed."""
        for step in range(1, self.n + 1):
            k = (seat + step) % self.n
            if self.seats[k].status == "playing" and k not in self._placed:
                return k
        raise AssertionError("every pawn is placed")

    def _investigate(self) -> None:
        """The investigation phase: notes read, the Carriage Stop's tokens, then 221B."""
        placed = self._placed
        self._next_start = self.start if placed[self._last].kind == "221B" else self._last
        for seat, action in sorted(placed.items()):
            me = self.seats[seat]
            if action.kind == "visit":
                self._read(me, action.source)
            elif action.kind == "stop":
                me.tokens += STOP_BONUS
                me.gained += STOP_BONUS
        at_221b = [k for k, a in placed.items() if a.kind == "221B"]
        self._groups = [sorted(k for k in at_221b if self.seats[k].tokens == t)
                        for t in sorted({self.seats[k].tokens for k in at_221b}, reverse=True)]
        self._group, self._answering = [], 0
        self._ask()

    def _read(self, me: Seat, source: int) -> None:
        me.visited.add(source)
        me.known.update(self.setup.notes_at[source])

    def _ask(self) -> None:
        """Give the move to the next seat of the current 221B group, the next group (unless
        this one had a winner), or end the round."""
        while True:
            if self._answering < len(self._group):
                seat = self._group[self._answering]
                if self.setup.labels:
                    self.phase, self._to_move, self._partial = "answer", seat, []
                    return
                self._check(seat, ())
                self._answering += 1
                continue
            won = any(self._me(k).status == "won" for k in self._group)
            if won or not self._groups:
                self._end_round()
                return
            self._group, self._answering = self._groups.pop(0), 0

    def _check(self, seat: int, answers: tuple[Value, ...]) -> None:
        """Seat ``seat`` (or the team speaking through it) answers at 221B."""
        me = self._me(seat)
        truth = self.setup.truth
        me.answers = answers
        me.correct = sum(a == t for a, t in zip(answers, truth))
        me.answered_round = self.round
        won = me.correct == len(truth)
        me.status = "won" if won else "eliminated"
        self.log[-1]["answers"].append({"seat": seat, "correct": me.correct, "of": len(truth),
                                        "won": won})

    def _end_round(self) -> None:
        if self.team is not None:
            self._end_cooperative_round()
            return
        start = self._next_start
        playing = [k for k, s in enumerate(self.seats) if s.status == "playing"]
        if any(s.status == "won" for s in self.seats):
            return self._over("solved")
        if not playing:
            return self._over("all eliminated")
        if len(playing) == 1 and self.n > 1:
            if self._alone_left is None:
                self._alone_left = min(self.seats[playing[0]].tokens, ALONE_ROUNDS)
            else:
                self._alone_left -= 1
            if self._alone_left <= 0:
                return self._over("alone, out of rounds")
        if self.seats[start].status != "playing":
            start = self._next_playing(start)
        if self.round == self.cap:
            return self._over("round cap")
        self.start = start
        self._begin_round()

    def _next_playing(self, seat: int) -> int:
        for step in range(1, self.n + 1):
            k = (seat + step) % self.n
            if self.seats[k].status == "playing":
                return k
        return seat

    def _over(self, end: str) -> None:
        self.phase, self.end, self._to_move = "over", end, None
        if self.team is not None:  # every seat shows the team's state
            team = self.team
            self.seats = [Seat(team.tokens, set(team.known), set(team.visited), team.status,
                               team.spent, team.gained, team.answered_round, team.answers,
                               team.correct) for _ in range(self.n)]

    # -- cooperative
    def _cooperative_move(self, seat: int, action: Action) -> None:
        team = self.team
        self.log[-1]["moves"].append(self._move_json(seat, action))
        self._placed, self._order = {seat: action}, [seat]
        if action.kind == "221B":
            self._groups, self._group, self._answering = [], [seat], 0
            self._ask()
            return
        team.tokens -= 1
        team.spent += 1
        if action.kind == "stop":
            if not self.stop_claimed:
                team.tokens += STOP_BONUS
                team.gained += STOP_BONUS
                self.stop_claimed = True
        else:
            self._read(team, action.source)
        self._end_round()

    def _end_cooperative_round(self) -> None:
        if self.team.answered_round is not None:
            return self._over("solved" if self.team.status == "won" else "wrong answer")
        if self.round == self.cap:
            return self._over("round cap")
        self._begin_round()

    # ------------------------------------------------------------------ observations
    def observation(self, player: int) -> dict:
        """What ``player`` sees, as JSON (``json.loads(json.dumps(obs)) == obs``):

        ``{"game": "case-notes", "mode", "players", "player", "round", "phase":
        "visit"|"answer"|"over", "to_move": seat | null, "start_player", "me": {"tokens",
        "notes": [i] (read, sorted), "visited": [location], "status", "answers": [value] |
        null, "correct"},
        "answering": [value] (my answers so far while I answer at 221B), "seats":
        [{"seat", "status", "tokens", "visited", "correct"}] (public: pawns are seen,
        tokens are on the table, a failed player says how many answers were right),
        "pawns": [{"seat", "action", "location", "bid"}] (this round's, in turn order),
        "carriage_stop_used" (cooperative: the bonus is claimed), "winners", "end"}``.
        Locations are indices of ``setup.sources``, answers values of ``setup.domains``
        (the questions are ``setup.labels``). The notes another player read, and the
        answers of those still at 221B, are not in it."""
        if not isinstance(player, int) or not 0 <= player < self.n:
            raise InputError(f"no player {player!r}: seats 0 to {self.n - 1}")
        me = self._me(player)
        return {
            "game": "case-notes", "mode": self.mode, "players": self.n, "player": player,
            "round": self.round, "phase": self.phase, "to_move": self._to_move,
            "start_player": self.start,
            "me": {"tokens": me.tokens, "notes": sorted(me.known), "visited": sorted(me.visited),
                   "status": me.status,
                   "answers": None if me.answers is None else list(me.answers),
                   "correct": me.correct},
            "answering": list(self._partial) if self._to_move == player
            and self.phase == "answer" else [],
            "seats": [self._public(k) for k in range(self.n)],
            "pawns": [{"seat": k, "action": self._placed[k].kind,
                       "location": self._placed[k].source, "bid": self._placed[k].bid}
                      for k in self._order],
            "carriage_stop_used": self.stop_claimed,
            "winners": self.winners(), "end": self.end,
        }

    def _public(self, seat: int) -> dict:
        s = self._me(seat)
        return {"seat": seat, "status": s.status, "tokens": s.tokens,
                "visited": sorted(s.visited),
                "correct": s.correct if s.status == "eliminated" else None}


def new_game(seed: int, case: str = "lantern-street", players: int = 3,
             mode: str = "competitive") -> State:
    """A game of a shipped case (or a case file), the first Start Player drawn from
    ``random.Random(seed)``."""
    return State(Setup.of(CaseOracle(load_case(case))), players, random.Random(seed), mode)


# ---------------------------------------------------------------------------------- games
@dataclass
class PlayReport:
    """A finished game; ``to_json`` documents the keys."""

    case: Case
    mode: str
    seed: int
    strategies: list[str]
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
        "carriage_stop_used", "score", "best_score", "outcome"}``."""
        out = {
            "case": self.case.title, "mode": self.mode, "seed": self.seed,
            "strategies": list(self.strategies), "rounds": self.rounds,
            "winners": self.winners, "end": self.end,
            "bots": [self._seat_json(k, s) for k, s in enumerate(self.seats)],
            "truth": dict(zip(self.labels, self.truth)),
            "log": self.log,
        }
        if self.cooperative is not None:
            out["cooperative"] = self.cooperative
        return out

    def _seat_json(self, k: int, s: Seat) -> dict:
        return {"seat": k, "strategy": self.strategies[k], "status": s.status,
                "tokens": s.tokens, "spent": s.spent, "gained": s.gained,
                "visited": [self.sources[v] for v in sorted(s.visited)],
                "answered_round": s.answered_round,
                "answers": None if s.answers is None else dict(zip(self.labels, s.answers)),
                "correct": s.correct}


def play_game(case: Case, bots: int, seed: int, mode: str = "competitive",
              strategies: list[str] | None = None, tokens: int | None = None,
              oracle: CaseOracle | None = None) -> PlayReport:
    """One game of ``bots`` bots (strategies cycled over the seats; default ``informed``),
    each choosing from the legal actions through its own observation. ``oracle``: a
    ``CaseOracle`` of ``case`` to use (and keep: its memos serve the next games, as in
    ``selfplay``); by default one made and closed for this game. The game is the same
    either way."""
    names = strategies or ["informed"]
    lineup = [names[k % len(names)] for k in range(bots)]
    own = oracle is None
    oracle = CaseOracle(case) if own else oracle
    try:
        state = State(Setup.of(oracle), bots, random.Random(seed), mode, tokens)
        players = [Bot(name, oracle, random.Random(seed * 1_000_003 + k))
                   for k, name in enumerate(lineup)]
        while not state.is_over():
            k = state.current_player()
            state.apply(players[k].act(state.observation(k), state.legal_actions()))
        cooperative = None
        if state.team is not None:
            cooperative = _cooperative_figures(state, oracle.locations_needed())
        return PlayReport(case, mode, seed, lineup, state.seats, state.rounds, state.winners(),
                          state.log, list(state.setup.labels), state.setup.truth,
                          list(state.setup.sources), state.end, cooperative)
    finally:
        if own:
            oracle.close()


def _cooperative_figures(state: State, needed: int | None) -> dict:
    """How a finished cooperative game compares with a perfect one (``PlayReport``)."""
    team, start, score = state.team, state.start_tokens, state.score()
    return {"tokens_start": start, "tokens_spent": team.spent, "tokens_needed": needed,
            "carriage_stop_used": team.gained > 0, "score": score,
            "best_score": None if needed is None else best_score(start, needed),
            "outcome": outcome(score)}
