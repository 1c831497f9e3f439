"""The ``greedy`` Baker Street Irregulars bot: one-step scoring of every legal action from
what one seat sees, no look-ahead. It reads either an observation (``view_of``: the
position JSON and its log, what the bot interface gives) or, in the search's rollouts, the
engine's state directly (``state_view``: the same figures without writing an observation);
both give the same ``View``, so the same decision (a test holds them equal).

**The potential** of a set of unused Evidence (``Scorer.potential``): for each visible
Villain, the icons it still misses (``missing``): its icons no unused card shows, less the
allowance I would have (1 for my tail on it, or for a tail I may still place when I tail
nothing and have a token; 1 more for a Holmes board I hold); a Villain missing more icons
than the cards I may still acquire (``View.acquisitions``) is out of reach. The potential
is the best ``points * DECAY ** missing`` plus ``SPREAD`` times their sum, plus
``FRESH`` per distinct icon shown (the Villains still to come need icons too).

**Decisions** (``decide``; ``rank`` scores every legal action, best first, ties in the
legal order):

- *Pick*: the card that most raises the potential, plus ``OBJECTIVE_WEIGHT`` times what it
  adds to my best Inspector objective, less its cost at ``COST_WEIGHT`` per token scaled
  by the share of the round's picks still to come (tokens left at a round's end come
  back unspent: only the bonus order and the last tiebreak count them). Solo: a pick that
  leaves me at 2 tokens or fewer while Holmes has more gives Holmes a card of deck III
  (``HOLMES_GIFT`` points against it).
- *Arrest*: whenever possible, the best arrest (``arrest.best_arrest``'s order: the most
  points, then the fewest cards), without the Holmes board when it serves as well, with
  the cover that leaves the highest potential. Boards in my arrest turn: Wiggins moves my
  tail when that makes a Villain worth more arrestable now; with no arrest, on the
  board's last phase (the 4th cycle's Arrest Phase, or the final one) Wiggins moves the
  tail to a strictly nearer Villain and the Holmes board (jump) or Watson moves me up:
  free, since an unused board goes back at the bonus.
- *Tail*: the nearest Villain (fewest icons missing with the tail), ties by points, then
  the row order.
- *Bonus*: the card that helps most (potential and objective); when none helps, a board
  (Holmes, then Wiggins while tailing, then Watson); with no board, the best card anyway.
- *Solo resupply*: keep the tail when its Villain is at most ``KEEP_TAIL`` icons away.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, Sequence

from deduce.models.irregulars.cards import (
    COLOURS,
    NO_BSI_BONUS,
    NO_TAILING,
    TYPES,
    CardSet,
    Evidence,
    Objective,
    load_cards,
)
from deduce.models.irregulars.covers import POP
from deduce.models.irregulars.rules import (
    Arrest,
    Jump,
    NoTail,
    PassHand,
    Pick,
    Resupply,
    Tail,
    TakeBoard,
    TakeCard,
    Watson,
    Wiggins,
)

#: a Villain's worth falls by this factor per icon it still misses
DECAY = 0.55
#: weight of the other Villains' worth in the potential (the best counts fully)
SPREAD = 0.2
#: worth of each distinct icon my unused cards show (for the Villains to come)
FRESH = 0.15
#: weight of an objective point gained now
OBJECTIVE_WEIGHT = 0.8
#: points per token spent, at the start of a round (scaled by the picks still to come)
COST_WEIGHT = 0.35
#: solo: a pick that gives Holmes a card of deck III (my tokens at 2 or fewer)
HOLMES_GIFT = 2.0
LOW_TOKENS = 2
#: bonus: a card must add this much to be taken before a board
HELPS = 0.05
#: bonus: what each board is worth when no card helps
BOARD_ORDER = ("holmes", "wiggins", "watson")
#: solo resupply: keep the tail when its Villain misses at most this many icons
KEEP_TAIL = 2
ROUNDS, CYCLES, SOLO_CYCLES = 4, 4, 19
_DECAY = [DECAY ** m for m in range(10)]


@functools.lru_cache(maxsize=8)
def cards_named(field: str | None) -> CardSet:
    """The card set an observation's ``cards`` field names (read once)."""
    return load_cards(field)


@dataclass(frozen=True)
class View:
    """What the greedy reads of one seat's view. ``kind`` is the decision (``pick``,
    ``arrest``, ``tail``, ``bonus``, ``resupply``); ``hand`` my hand (bonus: the middle's
    cards); ``final`` the 4th round's last Arrest Phase."""

    cards: CardSet
    solo: bool
    round: int
    cycle: int
    phase: str
    final: bool
    hand: tuple[str, ...]
    owned: tuple[str, ...]
    unused: tuple[str, ...]
    available: int
    tail: str | None
    row: tuple[str, ...]
    boards: tuple[str, ...]
    inspector: str | None
    first: bool
    effect: str | None
    holmes_available: int = 99

    def acquisitions(self, after: bool = True) -> int:
        """The Evidence cards I may still acquire before the game's last arrest (picks and
        bonus cards), not counting the current decision's card when ``after``."""
        if self.solo:
            left = SOLO_CYCLES - self.cycle + (self.phase == "investigate")
            return max(0, left - after)
        if self.final:
            return 0
        bonus_now = self.effect != NO_BSI_BONUS
        if self.phase == "investigate":
            now = CYCLES - self.cycle + 1 + bonus_now
        elif self.phase == "bonus":
            now = 1
        else:
            now = CYCLES - self.cycle + bonus_now
        return max(0, now + (ROUNDS - self.round) * (CYCLES + 1) - after)

    def can_tail(self) -> bool:
        """A tail I may still place (none now, a token, tailing allowed)."""
        return self.tail is None and self.available > 0 and (
            self.effect != NO_TAILING or self.phase == "bonus" or self.solo)


def view_of(observation: dict, cards: CardSet | None = None) -> View:
    """The ``View`` of an observation ``{"position", "log"}`` (as the engine writes it)."""
    pos = observation["position"]
    log = observation.get("log") or {}
    cards = cards or cards_named(pos.get("cards"))
    me = pos["me"]
    mine = pos["evidence"][me]
    twist = pos.get("plot_twist")
    effect = cards.plot_twist_by_id[twist].effect if twist else None
    solo = pos["mode"] == "solo"
    holmes = pos["bsi"]["Holmes"]["available"] if solo else 99
    return View(cards, solo, pos["round"], pos["cycle"], pos["phase"],
                bool(log.get("final")), tuple(pos["hand"]), tuple(o["card"] for o in mine),
                tuple(o["card"] for o in mine if not o["used"]), pos["bsi"][me]["available"],
                pos["tailing"][me], tuple(pos["villains"]), tuple(pos["boards"][me]),
                pos["inspector"], pos["order"][0] == me, effect, holmes)


def state_view(state, seat: int) -> View:
    """The ``View`` of ``seat`` in an engine ``rules.State`` (the same as ``view_of`` of
    its observation, without writing one)."""
    phase = state.phase
    public = {"reset": "investigate", "final": "arrest", "over": "arrest"}.get(phase, phase)
    used = state.used[seat]
    owned = state.owned[seat]
    effect = state._effect()
    return View(state.cards, state.solo, state.round, state.cycle, public,
                phase == "final", tuple(state.middle if phase == "bonus" else state.hands[seat]),
                tuple(owned), tuple(c for c in owned if c not in used) if used else tuple(owned),
                state.available[seat], state.tailing[seat], tuple(state.row),
                tuple(state.boards[seat]), state.inspectors[seat], state.order[0] == seat,
                effect, state.available[1] if state.solo else 99)


class Scorer:
    """The greedy's figures for one view: each visible Villain's mask and points, the
    potential of a set of shown icons, the best objective of a set of owned cards."""

    def __init__(self, view: View):
        self.view = view
        cards = view.cards
        ev = cards.evidence_by_id
        self.ev = ev
        vil = cards.villain_by_id
        self.row = [(v, vil[v].mask, vil[v].points) for v in view.row]
        self.shown = 0
        for c in view.unused:
            self.shown |= ev[c].mask
        self.board = 1 if "holmes" in view.boards else 0
        self.inspector = (cards.inspector_by_id[view.inspector]
                          if view.inspector is not None else None)
        self._counts: Tally | None = None

    def allow(self, villain: str, tail: str | None, can_tail: bool) -> int:
        return self.board + (1 if tail == villain or (tail is None and can_tail) else 0)

    def missing(self, shown: int, villain: str, mask: int, tail: str | None,
                can_tail: bool) -> int:
        """Icons of the Villain still missing with ``shown`` (the allowance counted)."""
        m = POP[mask & ~shown] - self.allow(villain, tail, can_tail)
        return m if m > 0 else 0

    def potential(self, shown: int, reach: int, tail: str | None = None,
                  can_tail: bool | None = None) -> float:
        """The module docstring's potential of the icons ``shown`` with ``reach`` cards
        still to acquire (``tail`` and ``can_tail`` default to the view's)."""
        view = self.view
        if can_tail is None:
            tail, can_tail = view.tail, view.can_tail()
        best = total = 0.0
        board = self.board
        for v, mask, points in self.row:
            m = POP[mask & ~shown] - board - (1 if tail == v or (tail is None and can_tail)
                                              else 0)
            if m < 0:
                m = 0
            if m > reach:
                continue
            w = points * _DECAY[m]
            total += w
            if w > best:
                best = w
        return best + SPREAD * total + FRESH * POP[shown]

    @property
    def counts(self) -> "Tally":
        if self._counts is None:
            self._counts = Tally([self.ev[c] for c in self.view.owned])
        return self._counts

    def objective_gain(self, card: str) -> int:
        """What owning ``card`` too adds to my best objective (0 without an Inspector)."""
        if self.inspector is None:
            return 0
        return self.counts.gain(self.inspector.objectives, self.ev[card])

    def card_gain(self, card: str, reach: int) -> float:
        """What owning ``card`` adds: the potential and the objective."""
        mask = self.ev[card].mask
        gain = self.potential(self.shown | mask, reach) - self.potential(self.shown, reach)
        return gain + OBJECTIVE_WEIGHT * self.objective_gain(card)


class Tally:
    """Counts of a set of Evidence cards by type, colour, icon and story: each objective's
    value (``score.objective_value``'s counting) and its value with one card more, fast."""

    def __init__(self, cards: Sequence[Evidence]):
        self.of: dict[tuple[str, str], int] = {}
        of = self.of
        for c in cards:
            for key in (("type", c.type), ("colour", c.colour), ("story", c.story),
                        *(("icon", i) for i in c.icons)):
                of[key] = of.get(key, 0) + 1

    def value(self, o: Objective, card: Evidence | None = None) -> int:
        """``o``'s points for the cards (and ``card`` too, when given)."""
        of = self.of
        kind = o.each
        if kind in ("type", "colour"):
            n = of.get((kind, o.value), 0) + (card is not None and getattr(card, kind) == o.value)
        elif kind == "icon":
            n = of.get(("icon", o.value), 0) + (card is not None and o.value in card.icons)
        elif kind == "story-pair":
            n = sum(k // 2 for (what, _), k in of.items() if what == "story")
            if card is not None and of.get(("story", card.story), 0) % 2:
                n += 1
        else:
            what, names = ("type", TYPES) if kind == "type-set" else ("colour", COLOURS)
            extra = None if card is None else getattr(card, what)
            n = min(of.get((what, x), 0) + (x == extra) for x in names)
        return n * o.points

    def gain(self, objectives: Sequence[Objective], card: Evidence) -> int:
        """The best objective with ``card`` less the best without it."""
        return (max(self.value(o, card) for o in objectives)
                - max(self.value(o) for o in objectives))


def _cost_weight(view: View) -> float:
    if view.solo:
        return COST_WEIGHT * 0.5
    return COST_WEIGHT * (CYCLES - view.cycle) / (CYCLES - 1) + 0.01


def rank(view: View, legal: Sequence[Any]) -> list[tuple[float, Any]]:
    """``(score, action)`` for every legal action, best first (ties keep ``legal``'s
    order)."""
    scores = score_actions(view, legal)
    order = sorted(range(len(legal)), key=lambda i: -scores[i])
    return [(scores[i], legal[i]) for i in order]


def score_actions(view: View, legal: Sequence[Any]) -> list[float]:
    """The greedy's score of each of ``legal`` (higher is better)."""
    kind = type(legal[0])
    scorer = Scorer(view)
    if kind in (Pick, PassHand):
        return [_pick_score(view, scorer, a) for a in legal]
    if kind in (TakeCard, TakeBoard):
        return _bonus_scores(view, scorer, legal)
    if kind in (Tail, NoTail):
        return _tail_scores(view, scorer, legal)
    if kind is Resupply:
        return _resupply_scores(view, scorer, legal)
    return _arrest_scores(view, scorer, legal)


def _pick_score(view: View, scorer: Scorer, action: Any) -> float:
    if isinstance(action, PassHand):
        return 0.0
    card = scorer.ev[action.card]
    score = scorer.card_gain(action.card, view.acquisitions()) - _cost_weight(view) * card.cost
    if view.solo and view.available - card.cost <= LOW_TOKENS < view.holmes_available:
        score -= HOLMES_GIFT
    return score


def _bonus_scores(view: View, scorer: Scorer, legal: Sequence[Any]) -> list[float]:
    """A card scores what it adds; a board, when no card adds ``HELPS``, just above them
    (in ``BOARD_ORDER``; Wiggins last while I tail nothing), else below every card."""
    reach = view.acquisitions()
    gains = [scorer.card_gain(a.card, reach) if isinstance(a, TakeCard) else None
             for a in legal]
    best = max((g for g in gains if g is not None), default=None)
    helps = best is not None and best >= HELPS
    top = HELPS if best is None else max(HELPS, best)
    out = []
    for a, g in zip(legal, gains):
        if g is not None:
            out.append(g)
            continue
        place = BOARD_ORDER.index(a.board)
        if a.board == "wiggins" and view.tail is None:
            place = len(BOARD_ORDER)
        out.append(-100.0 - place if helps else top + 1.0 - 0.1 * place)
    return out


def _tail_scores(view: View, scorer: Scorer, legal: Sequence[Any]) -> list[float]:
    out = []
    for a in legal:
        if isinstance(a, NoTail):
            out.append(-100.0)
            continue
        vil = view.cards.villain_by_id[a.villain]
        m = scorer.missing(scorer.shown, a.villain, vil.mask, a.villain, False)
        out.append(-10.0 * m + 0.01 * vil.points)
    return out


def _resupply_scores(view: View, scorer: Scorer, legal: Sequence[Any]) -> list[float]:
    near = False
    if view.tail is not None and view.tail in view.row:
        vil = view.cards.villain_by_id[view.tail]
        near = scorer.missing(scorer.shown, view.tail, vil.mask, view.tail, False) <= KEEP_TAIL
    return [1.0 if a.keep_tail == near else 0.0 for a in legal]


def last_board_phase(view: View) -> bool:
    """The last Arrest Phase a board held now can serve in (it goes back at the bonus)."""
    return view.final or (view.round < ROUNDS and view.cycle == CYCLES)


def _arrest_scores(view: View, scorer: Scorer, legal: Sequence[Any]) -> list[float]:
    ev, vil = scorer.ev, view.cards.villain_by_id
    reach = view.acquisitions()
    best_points = max((vil[a.villain].points for a in legal if isinstance(a, Arrest)),
                      default=0)
    out = []
    for a in legal:
        if isinstance(a, Arrest):
            left = 0
            cards = set(a.cards)
            for c in view.unused:
                if c not in cards:
                    left |= ev[c].mask
            after = scorer.potential(left, reach, None, view.available > 0)
            out.append(1000.0 + 10.0 * vil[a.villain].points - len(a.cards)
                       - 0.5 * a.holmes + 0.001 * after)
        elif isinstance(a, Wiggins):
            out.append(_wiggins_score(view, scorer, a, best_points))
        elif isinstance(a, (Jump, Watson)):
            out.append(1.0 - 0.1 * isinstance(a, Jump) if last_board_phase(view) else -1.0)
        else:  # NoArrest
            out.append(0.0)
    return out


def _wiggins_score(view: View, scorer: Scorer, action: Wiggins, best_points: int) -> float:
    """Moving the tail: worth an arrest now (above the best without it), else on the
    board's last phase a strictly nearer Villain."""
    vil = view.cards.villain_by_id
    target = vil[action.villain]
    m_new = scorer.missing(scorer.shown, action.villain, target.mask, action.villain, False)
    if m_new == 0 and target.points > best_points:
        return 2000.0 + target.points
    if not last_board_phase(view) or view.tail not in vil:
        return -1.0
    cur = vil[view.tail]
    m_cur = scorer.missing(scorer.shown, view.tail, cur.mask, view.tail, False)
    return 2.0 + 0.01 * target.points if m_new < m_cur else -1.0


class GreedyBot:
    """The greedy policy (module docstring): deterministic, the ``rng`` is not used."""

    name = "greedy"

    def __init__(self, cards: CardSet | None = None):
        self.cards = cards

    def decide(self, observation: dict, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        return rank(view_of(observation, self.cards), legal)[0][1]

    def decide_state(self, state, legal: Sequence[Any] | None = None) -> Any:
        """The same decision from the engine's state (the rollouts' fast path)."""
        legal = state.legal_actions() if legal is None else legal
        if len(legal) == 1:
            return legal[0]
        return rank(state_view(state, state.current_player()), legal)[0][1]
