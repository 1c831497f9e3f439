"""What one player (``me``) knows of the hands of the current deal, exactly, and one draw
of everything they cannot see (``sample_hidden``), from a position and ``me``'s log.

**The model.** A deal (a round in the multiplayer game, 4 cycles in solo) is dealt at
random from the round's draw: as many cards from each of the 5 decks as there are players
(2 per deck in solo), shuffled, 5 to each seat. Hands pass left (to the next name in
``players``) in rounds 1 and 3, right in 2 and 4 (the ``reverse-passing`` twist flips it;
with 2 seats both are the same); in solo the two hands are swapped each cycle. So the
hand a player holds in a cycle is the hand dealt to a known seat less the picks revealed
from it since (``deal.packet_of``): a hand ``me`` has held is known card for card, for
good; a hand never seen holds, besides nothing known, as many unknown cards as were dealt
less the picks revealed from it. Its unknown cards are unseen cards of the draw, and

- the unseen cards of a deck are exchangeable (every Evidence of deck ``d`` not seen
  anywhere: owned by anyone, in ``me``'s hands, picked, gone; the "candidates"): the
  draw's unseen part of deck ``d`` is a uniform subset of them, of the size the draw's
  count leaves, and the unknown places of the unseen hands hold those cards uniformly;
- the picks are treated as given: a revealed pick says the card was in that hand then,
  nothing about the player's choice or the rest of the hand.

So every completion of the deal fitting the log is equally likely and the chances are
products of a hypergeometric and a multinomial share (``deal``'s docstring): exact
counting, in closed form, with no SAT model (there is nothing to search once the seen
hands are fixed; tests hold it equal to enumerating every deal on small universes).
Chances are ``Fraction``s, turned into floats only in the JSON.

**Reading the position (decisions).** The log's cycles are those of the deal so far
(solo: the deal is ``(cycle - 1) // 4 + 1``, its cycle ``(cycle - 1) % 4 + 1``). Two ways
of writing the phases after a reveal are read, the engine's (``rules.py``: the hands pass
as the picks are revealed) and the table's (the rests lie by their players until the next
Investigate Phase); ``Knowledge.stage`` says which one a position is in:

- ``drafting`` (investigate): ``hand`` is the log's last hand, none of its picks revealed
  but ``me``'s own face-down pick, which may show (then ``hand`` lacks it). The hands
  reported are the others' at the start of the cycle: their face-down picks are unknown
  (the sampler draws them);
- ``passed`` (arrest, tail; the engine's way): the cycle's picks revealed and the hands
  passed at once, so the log already shows the next cycle's hand (``cycle + 1`` cycles,
  the last without picks) and ``hand`` is it; in solo after a deal's 4th cycle the next
  deal is dealt at once (the log is of deal + 1, one cycle);
- ``rests`` (arrest, tail; the table's way; and solo's resupply choice): ``cycle`` cycles,
  the last with every pick; each rest still lies by the player who picked from it and
  ``hand`` is ``me``'s rest;
- ``to-middle`` (multi, arrest and tail of the 4th cycle): the rests went face down to
  the middle: the others hold nothing and the middle is reported as one more holder;
  ``hand`` is empty (the engine) or ``me``'s unchosen card(s);
- ``over`` (the bonus; the final Arrest Phase, the log's ``final`` when it has one): the
  middle is face up (``hand``) or taken and nobody holds a hidden card; the log is still
  checked (every card known to have reached the middle is face up or owned).

**Checks.** A log that does not go with the position is an ``InputError`` naming the
field (``log.deal``, ``log.direction``, ``log.cycles`` and its picks; e.g. ``me``'s pick
not in ``me``'s hand of that cycle, a revealed pick not among the picker's Evidence, the
position's hand not the log's). Observations that no deal fits (a card in two hands, a
hand that does not follow from an earlier sight of it, more cards of a deck than the draw
holds, ...) are a ``ContradictionError`` (exit 3) naming a small set of conflicting
fields; its ``conflict`` indexes ``observation_fields(position, log)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable

from deduce.core.errors import ContradictionError, InputError
from deduce.core.fields import FieldReader
from deduce.models.irregulars.cards import DECK_NUMERALS, DECKS, EVIDENCE_PER_DECK
from deduce.models.irregulars.deal import Conflict, DealLog, Tracking, track
from deduce.models.irregulars.hidden import Hidden
from deduce.models.irregulars.log import CYCLES_PER_DEAL, RoundLog
from deduce.models.irregulars.position import (
    ARREST,
    BONUS,
    HAND_SIZE,
    INVESTIGATE,
    SOLO_CYCLES,
    TAIL,
    Position,
)

LEFT, RIGHT = "left", "right"
SOLO_PER_DECK = 2
MIDDLE_NAME = "middle"
REVERSE = "reverse-passing"


class HandsContradiction(ContradictionError):
    """No deal fits the observations; ``fields`` names them (``conflict`` indexes
    ``observation_fields``)."""

    def __init__(self, message: str, conflict: list[int], fields: list[str]):
        self.fields = list(fields)
        super().__init__(message, conflict)

    def to_json(self) -> dict:
        return {**super().to_json(), "fields": self.fields}


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Holding:
    """What one holder (a player, or ``middle``) has now: ``cards`` in all, ``certain``
    (sorted ids) for sure, and every other card it may hold with its exact chance."""

    holder: str
    cards: int
    certain: tuple[str, ...]
    possible: dict[str, Fraction]
    deck_of: dict[str, int]

    @property
    def known(self) -> bool:
        """Every card of the holding is known."""
        return len(self.certain) == self.cards

    def by_deck(self) -> list[dict]:
        """The possible cards grouped by deck: every unseen card of a deck has the same
        chance in one holding (exchangeability), so this says it all."""
        rows: dict[int, list[str]] = {}
        for card in self.possible:
            rows.setdefault(self.deck_of[card], []).append(card)
        out = []
        for d in sorted(rows):
            chances = {self.possible[c] for c in rows[d]}
            each = chances.pop() if len(chances) == 1 else None
            out.append({"deck": d, "cards": len(rows[d]),
                        "p_each": None if each is None else float(each),
                        "expected": float(sum(self.possible[c] for c in rows[d]))})
        return out

    def to_json(self) -> dict:
        return {"holder": self.holder, "cards": self.cards, "known": self.known,
                "certain": list(self.certain),
                "possible": [{"card": c, "p": float(p), "exact": str(p)}
                             for c, p in self.possible.items()],
                "by_deck": self.by_deck()}


@dataclass(frozen=True)
class DeckState:
    """One Evidence deck: its cards not seen anywhere (``unseen``), how many of them are
    in the deal's unknown places (``in_deal``) and in the deck itself (``in_deck``)."""

    deck: int
    unseen: tuple[str, ...]
    in_deal: int
    in_deck: int

    def to_json(self) -> dict:
        return {"deck": self.deck, "numeral": DECK_NUMERALS[self.deck],
                "unseen": len(self.unseen), "in_deal": self.in_deal, "in_deck": self.in_deck}


@dataclass(frozen=True)
class Knowledge:
    """``me``'s exact knowledge of the deal's hands now (see the module docstring).

    ``holdings``: every other player in seating order (``players`` less ``me``), then the
    middle when the deal's rests lie face down there. ``worlds``: how many completions of
    the deal fit, all equally likely."""

    me: str
    mode: str
    deal: int
    cycle: int
    phase: str
    direction: str
    holdings: tuple[Holding, ...]
    decks: tuple[DeckState, ...]
    worlds: int
    tracking: Tracking
    holder_of: dict[int, str]  # packet -> holder name (player or middle)
    stage: str = "drafting"

    def holding(self, holder: str) -> Holding:
        for h in self.holdings:
            if h.holder == holder:
                return h
        raise KeyError(holder)

    def to_json(self) -> dict:
        return {"me": self.me, "mode": self.mode, "deal": self.deal, "cycle": self.cycle,
                "phase": self.phase, "stage": self.stage, "direction": self.direction,
                "holdings": [h.to_json() for h in self.holdings],
                "decks": [d.to_json() for d in self.decks], "worlds": self.worlds}


# ----------------------------------------------------------------------------- reading
def deal_of(position: Position) -> tuple[int, int]:
    """The position's deal and its cycle within the deal (multi: the round and cycle)."""
    if position.solo:
        return (position.cycle - 1) // CYCLES_PER_DEAL + 1, (position.cycle - 1) % CYCLES_PER_DEAL + 1
    return position.round, position.cycle


def expected_direction(position: Position) -> str:
    """Where hands pass this round (multi): left in rounds 1 and 3, right in 2 and 4,
    flipped by a ``reverse-passing`` Plot Twist."""
    left = position.round % 2 == 1
    twist = position.plot_twist
    if twist is not None and position.cards.plot_twist_by_id[twist].effect == REVERSE:
        left = not left
    return LEFT if left else RIGHT


def observation_fields(position: Position, log: RoundLog) -> list[str]:
    """Every observation a contradiction may name, in a fixed order: the position's hand
    and Evidence, then the log's cards gone, each cycle's hand and its picks."""
    out = [f"position.hand[{i}]" for i in range(len(position.hand))]
    out += [f"position.evidence.{p}[{i}]" for p in position.players
            for i in range(len(position.evidence[p]))]
    out += [f"log.gone[{i}]" for i in range(len(log.gone))]
    for i, c in enumerate(log.cycles):
        out.append(f"log.cycles[{i}].hand")
        out += [f"log.cycles[{i}].picks.{p}" for p in position.players if p in c.picks]
    return out


def read(position: Position, log: RoundLog, where: str = "<observation>") -> Knowledge:
    """``me``'s knowledge of the deal's hands (see the module docstring): ``InputError``
    naming the field when the log does not go with the position, ``HandsContradiction``
    when no deal fits."""
    r = FieldReader(where)
    players, me = position.players, position.me
    seat = {p: i for i, p in enumerate(players)}
    deal, cycle = deal_of(position)
    stage = _stage(r, position, log, deal, cycle)
    if not position.solo and len(players) > 2 and log.direction != expected_direction(position):
        flipped = expected_direction(position) != (LEFT if position.round % 2 else RIGHT)
        raise r.fail(f"hands pass {expected_direction(position)} in round {position.round}"
                     + (f" ({REVERSE})" if flipped else ""), "log.direction")
    phase = position.phase
    over = stage == OVER  # the bonus, or the final Arrest Phase: nothing hidden is left
    to_middle = stage == TO_MIDDLE
    _check_cycles(r, position, log)
    _check_hand(r, position, log, stage)

    picked = {(i, p): c for i, cyc in enumerate(log.cycles) for p, c in cyc.picks.items()}
    # the picks of this deal are in their picker's Evidence (checked); the rest of the
    # Evidence, and the cards gone, were seen outside the deal
    outside: dict[str, str] = {}
    for i, card in enumerate(log.gone):
        if card in outside:
            raise r.fail(f"{card} is listed twice", f"log.gone[{i}]")
        outside[card] = f"log.gone[{i}]"
    logged = {(p, c) for (_, p), c in picked.items() if c is not None}
    for p in players:
        for i, o in enumerate(position.evidence[p]):
            f = f"position.evidence.{p}[{i}]"
            if o.card.id in outside:
                _contradiction(position, log, f"{o.card.id} is gone and owned by {p}",
                               [outside[o.card.id], f])
            if (p, o.card.id) not in logged and not over:
                outside[o.card.id] = f
    for i, card in enumerate(position.hand):
        if card in outside:
            _contradiction(position, log, f"{card} is in the hand and gone",
                           [f"position.hand[{i}]", outside[card]])

    cards = position.cards
    deck_of = {c.id: c.deck for c in cards.evidence}
    seen = set(log.seen()) | set(position.hand) | {
        o.card.id for p in players for o in position.evidence[p]}
    candidates = {d: tuple(c.id for c in cards.deck(d) if c.id not in seen) for d in DECKS}
    per_deck = SOLO_PER_DECK if position.solo else len(players)
    dlog = DealLog(
        seats=len(players), me=seat[me], step=1 if log.direction == LEFT else -1,
        hand_size=HAND_SIZE, per_deck=per_deck,
        hands=tuple(c.hand for c in log.cycles),
        picks=tuple({seat[p]: v for p, v in c.picks.items()} for c in log.cycles),
        deck_of=deck_of, candidates=candidates,
        hand_fields=tuple(f"log.cycles[{i}].hand" for i in range(len(log.cycles))),
        pick_fields=tuple({seat[p]: f"log.cycles[{i}].picks.{p}" for p in players}
                          for i in range(len(log.cycles))),
        outside=outside,
        outside_cap=None if position.solo or over else (position.round - 1) * per_deck,
        revealed=over)
    try:
        tracking = track(dlog, to_middle=to_middle or over)
    except Conflict as exc:
        _contradiction(position, log, str(exc), exc.fields)
    if phase == BONUS:
        _check_middle(position, log, tracking)
    return _knowledge(position, log, deal, cycle, tracking, stage)


#: how a position and its log stand (``_stage``)
DRAFTING, RESTS, PASSED, TO_MIDDLE, OVER = "drafting", "rests", "passed", "to-middle", "over"


def _complete(position: Position, cycle) -> bool:
    return all(p in cycle.picks for p in position.players)


def _stage(r: FieldReader, position: Position, log: RoundLog, deal: int, cycle: int) -> str:
    """Where the position's phase stands in the log (decisions in the module docstring):
    ``drafting`` (the last logged hand is being drafted: picks not revealed, ``me``'s own
    face-down pick may show), ``rests`` (the last cycle's picks revealed, the rests not
    passed yet), ``passed`` (the engine's way: revealed and passed at once, the next
    cycle's hands logged, solo: or the next deal dealt), ``to-middle`` (multi, the 4th
    cycle's rests face down in the middle), ``over`` (the bonus, the final Arrest Phase)."""
    n_logged = len(log.cycles)
    done = bool(log.cycles) and _complete(position, log.cycles[-1])
    phase = position.phase
    final = bool(getattr(log, "final", False))
    solo = position.solo
    new_deal = (solo and cycle == CYCLES_PER_DEAL and phase in (ARREST, TAIL)
                and log.deal == deal + 1 and position.cycle < SOLO_CYCLES)
    if log.deal != deal and not new_deal:
        raise r.fail(f"the log is of deal {log.deal}; the position is in deal {deal}"
                     + ("" if solo else " (its round)"), "log.deal")
    if new_deal:
        want, stage = (1, False), PASSED
    elif phase == BONUS or final:
        want, stage = (CYCLES_PER_DEAL, True), OVER
    elif phase == INVESTIGATE:
        # solo: a resupply choice may wait between the picks and the swap
        want, stage = (cycle, done if solo else False), RESTS if (solo and done) else DRAFTING
    elif n_logged == cycle + 1 and cycle < CYCLES_PER_DEAL:
        want, stage = (cycle + 1, False), PASSED
    else:
        last = cycle == CYCLES_PER_DEAL and not solo
        want, stage = (cycle, True), TO_MIDDLE if last else RESTS
    if n_logged != want[0]:
        passed = phase in (ARREST, TAIL) and cycle < CYCLES_PER_DEAL
        raise r.fail(f"{n_logged} cycles; the position ({phase} phase of cycle {cycle} of the "
                     f"deal) goes with {want[0]}"
                     + (f" (or {cycle + 1}: the hands passed)" if passed else ""), "log.cycles")
    if done != want[1]:
        at = f"log.cycles[{n_logged - 1}].picks"
        if want[1]:
            missing = [p for p in position.players if p not in log.cycles[-1].picks]
            raise r.fail(f"no pick for {', '.join(missing)}: every pick of a finished cycle "
                         "is revealed (null: passed the whole hand)", at)
        raise r.fail(f"the picks of the cycle being drafted are not revealed yet (the "
                     f"position is in the {phase} phase)", at)
    return stage


def _check_cycles(r: FieldReader, position: Position, log: RoundLog) -> None:
    """The picks: all revealed in every finished cycle, none in a cycle being drafted;
    ``me``'s in ``me``'s hand; each in its picker's Evidence; no card twice in a hand."""
    players, me = position.players, position.me
    owned = {p: {o.card.id for o in position.evidence[p]} for p in players}
    for i, cyc in enumerate(log.cycles):
        at = f"log.cycles[{i}]"
        for j, card in enumerate(cyc.hand):
            if card in cyc.hand[:j]:
                raise r.fail(f"{card} is listed twice", f"{at}.hand[{j}]")
        drafting = i == len(log.cycles) - 1 and not _complete(position, cyc)
        if drafting and set(cyc.picks) - {me}:
            raise r.fail("the picks of the cycle being drafted are not revealed yet (only "
                         f"{me}'s own face-down pick may show)", f"{at}.picks")
        if not drafting:
            missing = [p for p in players if p not in cyc.picks]
            if missing:
                raise r.fail(f"no pick for {', '.join(missing)}: every pick of a finished "
                             "cycle is revealed (null: passed the whole hand)", f"{at}.picks")
        for p in players:
            card = cyc.picks.get(p)
            f = f"{at}.picks.{p}"
            if p not in cyc.picks:
                continue
            if card is None:
                if position.solo and p != me:
                    raise r.fail("Holmes always takes a card (solo)", f)
                continue
            if p == me and card not in cyc.hand:
                raise r.fail(f"{card} is not in {me}'s hand of that cycle ({at}.hand)", f)
            if card not in owned[p] and not drafting:
                raise r.fail(f"{card} is not among {p}'s Evidence (position.evidence.{p})", f)


def _check_hand(r: FieldReader, position: Position, log: RoundLog, stage: str) -> None:
    """The position's hand is the log's last hand less ``me``'s pick (face down or
    revealed); with the rests in the middle also empty; not checked once the deal is over
    (the bonus reads the face-up middle)."""
    if stage == OVER:
        return
    cyc = log.cycles[-1]
    at = f"log.cycles[{len(log.cycles) - 1}].hand"
    rest = set(cyc.hand) - {cyc.picks.get(position.me)}
    hand = set(position.hand)
    if hand != rest and not (stage == TO_MIDDLE and not hand):
        what = ("this cycle's hand" if stage in (DRAFTING, PASSED)
                else "the rest of this cycle's hand")
        if position.me in cyc.picks:
            what += f" less {position.me}'s pick"
        raise r.fail(f"the position's hand ({', '.join(position.hand) or 'empty'}) is not "
                     f"{what} in the log ({', '.join(sorted(rest)) or 'empty'}"
                     f"{', or empty' if stage == TO_MIDDLE else ''})", at)


def _check_middle(position: Position, log: RoundLog, tracking: Tracking) -> None:
    """Bonus phase: every card known to have reached the middle is face up or taken."""
    face_up = set(position.hand)
    owned = {o.card.id for p in position.players for o in position.evidence[p]}
    for packet in tracking.packets:
        for card in packet.known:
            if card not in face_up and card not in owned:
                sights = [i for i, c in enumerate(log.cycles) if card in c.hand]
                _contradiction(position, log, f"{card} reached the middle but is neither face "
                               "up nor owned", [f"log.cycles[{sights[-1]}].hand", "position.hand"])


def _contradiction(position: Position, log: RoundLog, message: str, fields: list[str]):
    names = observation_fields(position, log)
    index = {f: i for i, f in enumerate(names)}
    # a whole position.hand: each of its entries
    conflict = sorted({i for f in fields for i in (
        [index[f]] if f in index else [index[g] for g in names if g.startswith(f + "[")])})
    raise HandsContradiction(f"no deal fits the observations: {message} "
                             f"(conflicting: {', '.join(fields)})", conflict, fields)


def _knowledge(position: Position, log: RoundLog, deal: int, cycle: int, tracking: Tracking,
               stage: str) -> Knowledge:
    to_middle = stage == TO_MIDDLE
    players, me = position.players, position.me
    deck_of = dict(tracking.deck_of)
    holdings = []
    holder_of: dict[int, str] = {}
    for s, p in enumerate(players):
        if p == me:
            continue
        packet = next((k for k in tracking.packets if k.holder == s), None)
        if packet is None or stage == OVER:
            holdings.append(Holding(p, 0, (), {}, deck_of))
            continue
        holder_of[packet.index] = p
        holdings.append(Holding(p, packet.size, packet.known,
                                tracking.possible(packet.index), deck_of))
    if to_middle:
        known = tuple(sorted(c for k in tracking.packets for c in k.known
                             if c not in position.hand))
        possible = {}
        for d in sorted(tracking.candidates):
            for card in tracking.candidates[d]:
                q = tracking.draw_chance(card)
                if q and tracking.slots:
                    possible[card] = q
        holdings.append(Holding(MIDDLE_NAME, len(known) + tracking.slots, known,
                                dict(sorted(possible.items())), deck_of))
        for k in tracking.packets:
            holder_of[k.index] = MIDDLE_NAME
    decks = []
    for d in DECKS:
        unseen = tracking.candidates.get(d, ())
        k = tracking.in_draw.get(d, 0)
        left = len(unseen) - k if position.solo else min(
            len(unseen) - k, EVIDENCE_PER_DECK - position.round * len(players))
        decks.append(DeckState(d, unseen, k, left))
    return Knowledge(me, position.mode, deal, cycle, position.phase, log.direction,
                     tuple(holdings), tuple(decks), tracking.worlds(), tracking, holder_of,
                     stage)


# ----------------------------------------------------------------------------- sampling
def sample_hidden(position: Position, log: RoundLog, rng: random.Random,
                  drafted: Iterable[str] | None = None, where: str = "<observation>",
                  knowledge: Knowledge | None = None) -> Hidden:
    """One determinisation of all ``me`` cannot see, drawn from exactly the distribution
    of ``read`` (the seen hands are kept card for card, never resampled):

    - ``hands``: each other player's hand (solo: Holmes's): the known cards plus the
      unknown places filled by a uniform draw of the unseen cards (per deck, the count
      ``read`` gives), shuffled into the places. Empty for everybody once the rests are in
      the middle;
    - ``middle`` (multi, from the 4th cycle's reveal to the round's end): the rests as
      put face down, seat by seat, each sorted (``_put``; as the engine keeps it, also in
      the bonus phase when they lie face up);
    - ``picked`` (a hand being drafted, multi): the face-down picks of the players in
      ``drafted`` (default: the log's ``acted`` when the log says it, as the engine's does,
      else the players before ``me`` in seating order, the engine's order of picking),
      each a uniform card of their hand among those they can afford (none affordable: no
      entry, they pass the whole hand); the card is removed from their hand;
    - ``decks``: the unseen cards of each deck not drawn into the hands, in random order
      (multi: as many as the deck holds, 20 less the player count per round so far; any
      more are unseen discards, left out; solo: all of them);
    - ``villain_deck``: every Villain neither visible nor arrested, in random order;
    - ``inspectors``: ``me``'s, and random distinct others for the other players (solo:
      ``me``'s only);
    - ``plot_twists`` (multi): the Plot Twists still in their deck (12 less the round),
      drawn at random from the 11 but the current one, in random order (decision: the
      twists of earlier rounds are in neither the position nor the log, so this is the
      exact distribution given them; a log field for them would sharpen it).
    """
    k = knowledge or read(position, log, where)
    t = k.tracking
    chosen: list[str] = []
    leftover: list[str] = []  # unseen cards out of the decks (unseen discards)
    decks: dict[int, tuple[str, ...]] = {}
    for d in DECKS:
        pool = list(t.candidates.get(d, ()))
        rng.shuffle(pool)
        n = t.in_draw.get(d, 0)
        chosen += pool[:n]
        state = next(s for s in k.decks if s.deck == d)
        decks[d] = tuple(pool[n:n + state.in_deck])
        leftover += pool[n + state.in_deck:]
    rng.shuffle(chosen)
    contents: dict[int, list[str]] = {}
    at = 0
    for packet in t.packets:
        contents[packet.index] = list(packet.known) + chosen[at:at + packet.unknown]
        at += packet.unknown
    hands: dict[str, tuple[str, ...]] = {p: () for p in position.players if p != position.me}
    for index, name in k.holder_of.items():
        if name != MIDDLE_NAME:
            hands[name] = tuple(sorted(contents[index]))
    middle: list[str] = []
    if k.stage in (TO_MIDDLE, OVER):
        rng.shuffle(leftover)
        middle = _put(position, log, k, contents, leftover)
    picked: dict[str, str] = {}
    if k.stage == DRAFTING and not position.solo:
        if drafted is None:
            # the log's ``acted`` says who has picked; not said: the engine's order
            drafted = log.acted if log.acted is not None else \
                position.players[:position.players.index(position.me)]
        cost = position.cards.evidence_by_id
        for p in drafted:
            if p == position.me or p not in hands:
                continue
            affordable = sorted(c for c in hands[p] if cost[c].cost <= position.bsi[p].available)
            if affordable:
                card = rng.choice(affordable)
                picked[p] = card
                hands[p] = tuple(c for c in hands[p] if c != card)
    cards = position.cards
    out_of_deck = set(position.villains) | {v for p in position.players
                                            for v in position.arrested[p]}
    villains = [v.id for v in cards.villains if v.id not in out_of_deck]
    rng.shuffle(villains)
    inspectors = {position.me: position.inspector}
    if not position.solo:
        others = [i.id for i in cards.inspectors if i.id != position.inspector]
        dealt = rng.sample(others, len(position.players) - 1)
        inspectors.update(zip([p for p in position.players if p != position.me], dealt))
        inspectors = {p: inspectors[p] for p in position.players}
    twists: list[str] = []
    if not position.solo:
        twists = [c.id for c in cards.plot_twists if c.id != position.plot_twist]
        rng.shuffle(twists)
        twists = twists[:len(cards.plot_twists) - position.round]
    return Hidden(hands=hands, decks=decks, villain_deck=tuple(villains),
                  inspectors=inspectors, plot_twists=tuple(twists), picked=picked,
                  middle=tuple(middle))


def _put(position: Position, log: RoundLog, k: Knowledge, contents: dict[int, list[str]],
         leftover: list[str]) -> list[str]:
    """The middle as put face down in the 4th cycle: seat by seat, each seat's rest
    sorted (``me``'s left out when the position's hand still shows it). Once the deal is
    over a rest never seen (5 players) is made of the face-up cards and the cards taken
    from the middle that no seen rest explains (each player's last Evidence when it is no
    pick of this deal: the bonus takes append to the Evidence), then, for the cards
    discarded after the last bonus that nothing records, of unseen cards out of the decks
    (``leftover``, in random order)."""
    from deduce.models.irregulars.deal import packet_of

    n, step = len(position.players), 1 if log.direction == LEFT else -1
    me = position.players.index(position.me)
    taken = {}
    for i, cyc in enumerate(log.cycles):
        for p, card in cyc.picks.items():
            if card is not None:
                j = packet_of(position.players.index(p), i + 1, n, step)
                taken[j] = taken.get(j, 0) + 1
    known = {c for packet in k.tracking.packets for c in packet.known}
    picks = {c for cyc in log.cycles for c in cyc.picks.values() if c is not None}
    spare = [c for c in position.hand if c not in known]
    if k.stage == OVER:
        spare += [position.evidence[p][-1].card.id for p in position.players
                  if position.evidence[p] and position.evidence[p][-1].card.id not in picks
                  and position.evidence[p][-1].card.id not in known]
    out: list[str] = []
    for s in range(n):
        packet = k.tracking.packets[packet_of(s, CYCLES_PER_DEAL, n, step)]
        if s == me and position.hand and k.stage == TO_MIDDLE:
            continue
        rest = list(contents[packet.index])
        if k.stage == OVER and not packet.seen:
            size = HAND_SIZE - taken.get(packet.index, 0)
            rest, spare = spare[:size], spare[size:]
            short = size - len(rest)
            rest, leftover[:] = rest + leftover[:short], leftover[short:]
        out += sorted(rest)
    return out


# ----------------------------------------------------------------------------- files
OBSERVATION_KEYS = ("position", "log")
SAMPLE_OBSERVATION = "sample-observation.json"


def load_observation(path: str | Path) -> tuple[Position, RoundLog, str]:
    """Read an observation file ``{"position": {...}, "log": {...}}`` (what the engine's
    ``State.observation`` writes): the position checked by ``parse_position`` (its errors
    name ``FILE: position: field ...``), the log by ``parse_log`` (``FILE: field
    'log....'``). ``sample`` or ``sample-observation``, when no file has that name, is
    the shipped sample (3 players, round 1, cycle 3). Returns the position, the log and the name to use in messages."""
    from deduce.core.records import check_fields, json_kind, read_json
    from deduce.models.irregulars.log import parse_log
    from deduce.models.irregulars.position import SAMPLE, parse_position

    from deduce.puzzles import named_sample

    path = named_sample(path, "irregulars", {SAMPLE: SAMPLE_OBSERVATION,
                                             "sample-observation": SAMPLE_OBSERVATION})
    where = str(path)
    data = read_json(path)
    r = FieldReader(where)
    if not isinstance(data, dict):
        raise InputError("an observation is a JSON object {\"position\": ..., \"log\": ...}, "
                         f"got {json_kind(data)}", where=where)
    check_fields(data, OBSERVATION_KEYS, fail=r.fail)
    position = parse_position(data["position"], f"{where}: position", base=Path(path).parent)
    log = parse_log(data["log"], position.cards, position.players, where, "log")
    return position, log, where
