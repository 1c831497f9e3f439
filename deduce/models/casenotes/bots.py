"""Bots for case-notes play (``deduce case play``, ``selfplay``): how to choose the next move.

A bot plays ``rules.State`` as a person does: it is given its observation (the JSON of
``State.observation``) and the legal actions, and returns one of those actions
(``Bot.act``). What its notes allow it asks ``knowledge.CaseOracle``; its random
tie-breaks and guesses come from its own seeded generator. (Bots import nothing from
``rules``: they read an action's ``kind``, ``source``, ``bid`` and ``value``, so
``rules.play_game`` can seat them.)

Strategies (``STRATEGIES``) rank the locations a bot has not visited yet, best first:

- ``informed``: knows every location's notes in advance (no player can: an upper bound on
  play; it still answers only from the notes it has read). It heads for a smallest set of
  locations that, with what it has read, fixes every answer (``check.minimal_sources``),
  and among those (then among the rest) prefers the one whose notes leave the fewest
  answer combinations, then the most fixed grid facts.
- ``fair``: only what a player sees: how many words of a location's name occur in the case
  introduction, the questions and the notes the bot has read (the rulebook's advice: begin
  with the places the introduction mentions); ties at random (seeded).

``Bot.decide`` turns a ranking into a move (``Move``): go to 221B Baker Street when
every answer is unique (or nothing is left to visit: then it guesses); else the best
location, outbidding the pawn there (one token more, at most ``BID_CAP``) only when it is
better than the best free one by the strategy's first criterion (informed: planned versus
not planned; fair: more name words) -- tokens also decide who answers first at 221B, so
they are not spent on a mere preference; else the best free location on foot; else the
Carriage Stop. Cooperative teams pay a token per trip: with one token left, more than one
location still to visit and the Carriage Stop's bonus unclaimed, they take it first
(``Bot.decide_team``). At 221B a bot answers with ``CaseOracle.guess``: the unique
answers when its notes fix them, else a guess consistent with its notes.
"""

from __future__ import annotations

import random
import re
from typing import NamedTuple, Sequence

from deduce.models.casenotes.format import source_name
from deduce.models.casenotes.knowledge import CaseOracle, View
from deduce.models.casenotes.schema import Value

#: The most tokens a bot bids for a contested location.
BID_CAP = 3


class Move(NamedTuple):
    """A move a bot wants: ``kind`` (``visit``, ``stop``, ``221B`` or ``answer``) with
    ``source`` and ``bid`` (a visit) or ``value`` (an answer): matched against the legal
    actions by ``Bot.act``."""

    kind: str
    source: int | None = None
    bid: int = 0
    value: Value | None = None


STOP = Move("stop")
BAKER = Move("221B")
STRATEGIES = ("informed", "fair")
_MIN_WORD = 4
_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)


class Bot:
    """One player: a ranking strategy and its own seeded random tie-breaks."""

    def __init__(self, strategy: str, oracle: CaseOracle, rng: random.Random):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        self.strategy = strategy
        self.oracle = oracle
        self.rng = rng
        self._answers: tuple[Value, ...] = ()

    # ------------------------------------------------------------------ playing
    def act(self, obs: dict, legal: Sequence):
        """The bot's choice among ``legal`` (actions of ``rules.State.legal_actions``) for
        the observation ``obs`` (``rules.State.observation`` of its seat)."""
        move = self.choose(obs)
        for action in legal:
            if action.kind == move.kind and action.source == move.source \
                    and action.bid == move.bid and action.value == move.value:
                return action
        raise AssertionError(f"the bot chose {move}, which is not a legal action")

    def choose(self, obs: dict) -> Move:
        """The move for ``obs``: an answer at 221B (the whole guess drawn at the first
        question), else ``decide`` (competitive) or ``decide_team`` (cooperative)."""
        if obs["phase"] == "answer":
            asked = len(obs["answering"])
            if asked == 0:
                self._answers = self.oracle.guess(frozenset(obs["me"]["notes"]), self.rng)
            return Move("answer", value=self._answers[asked])
        view = View.from_observation(obs)
        return self.decide_team(view) if obs["mode"] == "cooperative" else self.decide(view)

    # ------------------------------------------------------------------ ranking
    def rank(self, known: frozenset[int], candidates: list[int]) -> list[tuple[tuple, int]]:
        """(score, location) for each candidate, best (smallest score) first; ties in a
        random order (the bot's seeded generator)."""
        scored = [(self.score(known, src), self.rng.random(), src) for src in candidates]
        scored.sort()
        return [(score, src) for score, _tie, src in scored]

    def score(self, known: frozenset[int], source: int) -> tuple:
        if self.strategy == "informed":
            after = known | frozenset(self.oracle.notes_at[source])
            planned = source in self.oracle.plan(known)
            return (not planned, round(self.oracle.combinations(after), 9),
                    -self.oracle.fixed_facts(after))
        return (-self._name_hits(known, source),)

    def _name_hits(self, known: frozenset[int], source: int) -> int:
        """How many words of the location's name occur in what the bot has read."""
        case = self.oracle.case
        texts = [case.intro or "", case.title] + [q.text for q in case.questions] + \
            [case.notes[i].text for i in sorted(known)]
        seen = {w for t in texts for w in _words(t)}
        return sum(1 for w in set(_words(source_name(self.oracle.sources[source])))
                   if w in seen)

    # ------------------------------------------------------------------ deciding
    def ready(self, view: View) -> bool:
        """Go to 221B: every answer unique, or nothing left to visit (a guess)."""
        return self.oracle.certain(view.known) or not self._unvisited(view)

    def _unvisited(self, view: View) -> list[int]:
        return [k for k in range(len(self.oracle.sources)) if k not in view.visited]

    def decide(self, view: View) -> Move:
        """Competitive play: 221B, a location (outbidding when worth it), or the Carriage Stop."""
        if self.ready(view):
            return BAKER
        ranked = self.rank(view.known, self._unvisited(view))
        free = [(score, src) for score, src in ranked if src not in view.occupied]
        top_score, top = ranked[0]
        if top in view.occupied:
            bid = view.occupied[top] + 1
            better = not free or top_score[0] < free[0][0][0]
            if better and bid <= min(BID_CAP, view.tokens):
                return Move("visit", top, bid)
        if free:
            return Move("visit", free[0][1])
        return STOP

    def decide_team(self, view: View) -> Move:
        """Cooperative play (a token per trip): 221B when ready or out of tokens; with one
        token left and more than one place still to go, the Carriage Stop first (if
        unclaimed)."""
        unvisited = self._unvisited(view)
        if self.ready(view) or view.tokens <= 0:
            return BAKER
        if view.tokens == 1 and not view.stop_used and self.still_to_visit(view) > 1:
            return STOP
        return Move("visit", self.rank(view.known, unvisited)[0][1])

    def still_to_visit(self, view: View) -> int:
        """How many more locations the bot thinks it needs: the informed bot's plan, or
        every unvisited location."""
        plan = self.oracle.plan(view.known) if self.strategy == "informed" else frozenset()
        return len(plan) if plan else len(self._unvisited(view))


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORDS.findall(text) if len(w) >= _MIN_WORD]
