"""The hands of one deal of a drafting game, tracked exactly from one seat's view.

A deal: ``seats`` packets ("hands") of ``hand_size`` cards are dealt at random from a
draw of ``per_deck`` cards from each deck. Each cycle every seat takes one card of the
packet it holds (or none: it passes the packet whole) and the packets move ``step``
seats on (+1: to the next seat, "left"; -1: "right"). Packet ``j`` starts at seat ``j``
and is at seat ``(j + (c - 1) * step) % seats`` in cycle ``c`` (1-based).

What the seat ``me`` knows (a ``DealLog``): the packet it held at the start of each cycle
(``hands``), every revealed pick (``picks``; a cycle's picks are all revealed or none),
the cards of each deck not seen anywhere (``candidates``) and the cards seen outside this
deal (``outside``, for the checks). Every observation carries the field that states it,
so that a contradiction names a small set of fields.

The model (Baker Street Irregulars, ``knowledge``'s docstring says why it fits):

- the unseen cards of a deck are exchangeable: the part of the draw not seen yet is, for
  each deck ``d``, a uniform ``k_d``-subset of the deck's candidates, ``k_d`` being
  ``per_deck`` less the deck's cards known to be in the draw;
- the deal is uniform, so given the draw the unknown cards fill the unknown places
  ("slots") of the packets never seen uniformly at random;
- the picks are treated as given: a pick tells that the card was in that packet then and
  left it, nothing about the rest of the packet (no model of the players' choices).

Then every completion of the deal consistent with the log is equally likely, and the
posterior factorises: card ``x`` of deck ``d`` unseen is in unseen packet ``j`` with
probability ``k_d / |U_d| * m_j / M`` (``m_j`` the packet's unknown slots, ``M`` their
sum). That is why the counting is exact and closed-form, with no SAT model: the constraints
are one cardinality per deck and one per packet, independent of each other once the seen
packets are fixed (``worlds`` counts the completions: the product of the per-deck
binomials and the multinomial of the slots). Tests hold it equal to enumerating every
deal on small universes.

A log no deal fits raises ``Conflict`` with a small conflicting set of fields (each
field alone is consistent; the set is irredundant: dropping any field of it leaves a
log some deal fits, for the kinds of conflict listed in ``track``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

#: the holder of the packets once the deal's last cycle sent them to the middle
MIDDLE = None


class Conflict(Exception):
    """No deal fits the log: ``fields`` is a small set of observations that cannot all hold."""

    def __init__(self, message: str, fields: list[str]):
        self.fields = list(dict.fromkeys(fields))
        super().__init__(message)


@dataclass(frozen=True)
class DealLog:
    """What ``me`` saw of a deal (see the module docstring). ``picks[i]`` maps a seat to
    its pick of cycle ``i + 1`` (None: passed the packet whole); the last cycle may have
    no picks (not revealed yet), every other cycle has one per seat. ``deck_of`` gives the
    deck of every card mentioned; ``hand_fields[i]`` and ``pick_fields[i][seat]`` name
    the observations."""

    seats: int
    me: int
    step: int
    hand_size: int
    per_deck: int
    hands: tuple[tuple[str, ...], ...]
    picks: tuple[Mapping[int, str | None], ...]
    deck_of: Mapping[str, int]
    candidates: Mapping[int, tuple[str, ...]]
    hand_fields: tuple[str, ...] = ()
    pick_fields: tuple[Mapping[int, str], ...] = ()
    outside: Mapping[str, str] = field(default_factory=dict)
    #: the deck's cards seen outside the deal may not exceed this (None: no bound)
    outside_cap: int | None = None
    #: the deal is over and its rest face up: no unknown places are left to fill
    revealed: bool = False

    def hand_field(self, i: int) -> str:
        return self.hand_fields[i] if self.hand_fields else f"cycles[{i}].hand"

    def pick_field(self, i: int, seat: int) -> str:
        return self.pick_fields[i][seat] if self.pick_fields else f"cycles[{i}].picks.{seat}"


def packet_at(packet: int, cycle: int, seats: int, step: int) -> int:
    """The seat holding ``packet`` in ``cycle`` (1-based)."""
    return (packet + (cycle - 1) * step) % seats


def packet_of(seat: int, cycle: int, seats: int, step: int) -> int:
    """The packet ``seat`` holds in ``cycle``."""
    return (seat - (cycle - 1) * step) % seats


@dataclass(frozen=True)
class Packet:
    """One packet now: ``holder`` (a seat, or ``MIDDLE``), the cards known to be in it
    (``known``, sorted) and how many unknown cards it holds (``unknown``: 0 for a packet
    ``me`` has held)."""

    index: int
    holder: int | None
    known: tuple[str, ...]
    unknown: int
    seen: bool

    @property
    def size(self) -> int:
        return len(self.known) + self.unknown


@dataclass(frozen=True)
class Tracking:
    """The exact state of knowledge of a deal (see the module docstring).

    ``in_draw[d]`` (``k_d``): how many unseen cards of deck ``d`` are in the deal's unknown
    slots; ``candidates[d]``: the deck's unseen cards; ``slots``: ``M``."""

    packets: tuple[Packet, ...]
    in_draw: dict[int, int]
    candidates: dict[int, tuple[str, ...]]
    deck_of: Mapping[str, int]

    @property
    def slots(self) -> int:
        return sum(p.unknown for p in self.packets)

    def draw_chance(self, card: str) -> Fraction:
        """The chance that the unseen ``card`` is in the deal's unknown slots."""
        d = self.deck_of[card]
        pool = self.candidates.get(d, ())
        if card not in pool:
            return Fraction(0)
        return Fraction(self.in_draw[d], len(pool))

    def chance(self, card: str, packet: int) -> Fraction:
        """The exact chance that ``card`` is in ``packet`` now."""
        p = self.packets[packet]
        if card in p.known:
            return Fraction(1)
        if not p.unknown:
            return Fraction(0)
        return self.draw_chance(card) * Fraction(p.unknown, self.slots)

    def possible(self, packet: int) -> dict[str, Fraction]:
        """Every unseen card with its chance (0 < p) of being in ``packet`` now, by id."""
        p = self.packets[packet]
        out = {}
        if p.unknown:
            for d in sorted(self.candidates):
                for card in self.candidates[d]:
                    q = self.chance(card, packet)
                    if q:
                        out[card] = q
        return dict(sorted(out.items()))

    def worlds(self) -> int:
        """How many completions of the deal fit the log (unseen draw cards and their
        places), all equally likely."""
        count = 1
        for d, k in self.in_draw.items():
            count *= math.comb(len(self.candidates.get(d, ())), k)
        count *= math.factorial(self.slots)
        for p in self.packets:
            count //= math.factorial(p.unknown)
        return count


def track(log: DealLog, to_middle: bool = False) -> Tracking:
    """The packets now (after every logged pick, where the last logged cycle had them;
    ``to_middle``: the deal is over, every packet's rest lies in the middle).

    ``Conflict`` when no deal fits, checked in this order, each with its fields:
    a card picked twice (the two picks); a card in two packets, or in the deal and seen
    outside it (the two observations); a card picked before ``me`` saw its packet and still
    in it (the pick, the hand); a seen packet of the wrong size (the hand and the picks
    that fix its size); a pick or a later sight of a packet that does not follow from an
    earlier sight (those sights and the picks between); more cards of a deck known in the
    draw than it holds; more cards of a deck seen outside the deal than can have left
    it (``outside_cap``) or than leave room for the draw."""
    n, h = log.seats, log.hand_size
    for i, hand in enumerate(log.hands):  # what one sight alone rules out
        f = log.hand_field(i)
        if not h - i <= len(set(hand)) <= h:
            raise Conflict(f"the hand seen in cycle {i + 1} has {len(set(hand))} cards; "
                           f"{h} were dealt and at most {i} taken since", [f])
        per = defaultdict(int)
        for card in set(hand):
            per[log.deck_of[card]] += 1
        for d, k in sorted(per.items()):
            if k > log.per_deck:
                raise Conflict(f"the hand seen in cycle {i + 1} has {k} cards of deck {d}; "
                               f"the draw has {log.per_deck}", [f])
    events: dict[int, list] = defaultdict(list)  # packet -> [(cycle, order, kind, ...)]
    for i, hand in enumerate(log.hands):
        events[packet_of(log.me, i + 1, n, log.step)].append(
            (i + 1, 0, "seen", frozenset(hand), log.hand_field(i)))
    picked_by: dict[str, str] = {}
    for i, picks in enumerate(log.picks):
        for seat in sorted(picks):
            card, f = picks[seat], log.pick_field(i, seat)
            if card is not None:
                if card in picked_by:
                    raise Conflict(f"{card} is picked twice", [picked_by[card], f])
                picked_by[card] = f
            events[packet_of(seat, i + 1, n, log.step)].append((i + 1, 1, "pick", card, f))
    for evs in events.values():
        evs.sort(key=lambda e: (e[0], e[1]))

    # which packet each card of the deal was in, and the field that says so
    home: dict[str, tuple[int, str]] = {}

    def place(card: str, packet: int, f: str) -> None:
        if card in log.outside:
            raise Conflict(f"{card} is in this deal and seen outside it", [f, log.outside[card]])
        if card in home and home[card][0] != packet:
            raise Conflict(f"{card} is in two hands of the deal", [home[card][1], f])
        home.setdefault(card, (packet, f))

    for j in range(n):
        for ev in events[j]:
            if ev[2] == "seen":
                for card in sorted(ev[3]):
                    place(card, j, ev[4])
            elif ev[3] is not None:
                place(ev[3], j, ev[4])

    packets = []
    last = len(log.hands)
    known_draw: dict[str, str] = {}
    for j in range(n):
        contents, unknown, seen = _replay(j, events[j], h)
        for card, (packet, f) in home.items():
            if packet == j:
                known_draw[card] = f
        holder = MIDDLE if to_middle else packet_at(j, max(last, 1), n, log.step)
        packets.append(Packet(j, holder, tuple(sorted(contents)),
                              0 if log.revealed else unknown, seen))

    in_draw = _in_draw(log, known_draw)
    slots = sum(p.unknown for p in packets)
    if not log.revealed and slots != sum(in_draw.values()):  # only when hand_size * seats != decks * per_deck
        raise ValueError("the deal's sizes do not add up: hand_size * seats must be "
                         "the number of decks * per_deck")
    candidates = {d: tuple(sorted(log.candidates.get(d, ()))) for d in in_draw}
    return Tracking(tuple(packets), in_draw, candidates, log.deck_of)


def _replay(j: int, evs: list, h: int) -> tuple[set[str], int, bool]:
    """Packet ``j``'s events in cycle order: its cards now and its unknown slots."""
    sights = [e for e in evs if e[2] == "seen"]
    picks = [e for e in evs if e[2] == "pick"]
    if not sights:
        taken = sum(1 for e in picks if e[3] is not None)
        return set(), h - taken, False
    c0, _, _, first, f0 = sights[0]
    for c, _, _, cards, f in sights:  # each sight against the picks before it
        earlier = [e for e in picks if e[0] < c]
        for e in earlier:
            if e[3] is not None and e[3] in cards:
                raise Conflict(f"{e[3]} was picked in cycle {e[0]} and is still in the hand "
                               f"seen in cycle {c}", [e[4], f])
        if len(cards) + sum(1 for e in earlier if e[3] is not None) != h:
            raise Conflict(*_size_conflict(cards, earlier, h, c, f))
    contents = set(first)
    prev, prev_f = (c0, first), f0
    for e in evs:
        if e[0] < c0 or e is sights[0]:
            continue
        if e[2] == "pick":
            if e[3] is not None:
                if e[3] not in contents:
                    raise Conflict(f"{e[3]}, picked in cycle {e[0]}, was not in that hand "
                                   f"(seen in cycle {prev[0]})", [prev_f, e[4]])
                contents.discard(e[3])
            continue
        c1, seen, f1 = e[0], e[3], e[4]
        for card in sorted(seen - contents):
            took = [p for p in picks if p[3] == card and prev[0] <= p[0] < c1]
            if took:
                raise Conflict(f"{card} was picked in cycle {took[0][0]} and is still in the "
                               f"hand seen in cycle {c1}", [took[0][4], f1])
            raise Conflict(f"{card} is in the hand seen in cycle {c1} but not in the same "
                           f"hand seen in cycle {prev[0]}", [prev_f, f1])
        for card in sorted(contents - seen):
            passes = [p[4] for p in picks if p[3] is None and prev[0] <= p[0] < c1]
            raise Conflict(f"{card} left the hand between cycles {prev[0]} and {c1} but "
                           "nobody picked it", [prev_f, f1, *passes])
        prev, prev_f = (c1, seen), f1
    return contents, 0, True


def _size_conflict(first, before, h: int, c0: int, f0: str) -> tuple[str, list[str]]:
    """A seen packet of the wrong size: the hand and the fewest picks that fix it."""
    taken = [e for e in before if e[3] is not None]
    passed = [e for e in before if e[3] is None]
    size = len(first) + len(taken)
    if size > h:
        keep = taken[:h - len(first) + 1] if len(first) <= h else []
        return (f"the hand seen in cycle {c0} has {len(first)} cards and {len(taken)} were "
                f"picked from it before: more than the {h} dealt", [f0] + [e[4] for e in keep])
    keep = passed[:len(first) + len(before) - h + 1]
    return (f"the hand seen in cycle {c0} has {len(first)} cards, {h} dealt less "
            f"{len(taken)} picked from it before", [f0] + [e[4] for e in keep])


def _in_draw(log: DealLog, known_draw: Mapping[str, str]) -> dict[int, int]:
    """``k_d`` per deck, with the count checks."""
    decks = sorted(set(log.candidates) | {log.deck_of[c] for c in known_draw}
                   | {log.deck_of[c] for c in log.outside})
    out = {}
    for d in decks:
        mine = {c: f for c, f in known_draw.items() if log.deck_of[c] == d}
        if len(mine) > log.per_deck:
            raise Conflict(f"more than {log.per_deck} cards of deck {d} in this deal",
                           _fewest_fields(mine, log.per_deck + 1))
        k = 0 if log.revealed else log.per_deck - len(mine)
        away = {c: f for c, f in log.outside.items() if log.deck_of[c] == d}
        cap = log.outside_cap
        if cap is not None and len(away) > cap:
            raise Conflict(f"{len(away)} cards of deck {d} seen out of play before this "
                           f"deal; at most {cap} can have left it", sorted(away.values())[:cap + 1])
        pool = len(log.candidates.get(d, ()))
        if k > pool:
            raise Conflict(f"deck {d}: {k} unseen cards of this deal but only {pool} cards "
                           "of the deck unseen", sorted(away.values())[:len(away) - (k - pool) + 1]
                           if away else sorted(mine.values()))
        out[d] = k
    return out


def _fewest_fields(cards: Mapping[str, str], need: int) -> list[str]:
    """Few fields that together name ``need`` of ``cards`` (greedy, then irredundant)."""
    by_field: dict[str, set[str]] = defaultdict(set)
    for c, f in cards.items():
        by_field[f].add(c)
    chosen: list[str] = []
    got: set[str] = set()
    for f in sorted(by_field, key=lambda f: (-len(by_field[f]), f)):
        if len(got) >= need:
            break
        chosen.append(f)
        got |= by_field[f]
    for f in list(chosen):
        rest = set().union(*(by_field[g] for g in chosen if g != f))
        if len(rest) >= need:
            chosen.remove(f)
    return chosen
