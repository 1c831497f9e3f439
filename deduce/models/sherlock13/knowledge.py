"""Exact counting of the hidden worlds consistent with one player's record (numpy).

A world is fixed at the deal (spec): the criminal, every other player's starting hand (in
the expert variant with its starting order) and, with 2 players, the two face-down side
cards. All consistent worlds are equally likely, so every probability is a ratio of counts.

How it counts (never the cross product of hands):

* 3-4 players: every fact is about one player's cards, so given the deal the players'
  hidden orders are independent. For each other seat we score every possible hand (a
  ``combo`` of the unknown cards) by how many starting orders fit that seat's facts, then a
  deal's count is ``criminal_ok * prod(seat scores)``. The deals are a fixed table over
  positions in the unknown cards (16,800 rows with 4 players), so a whole analysis is a few
  gathers and ``bincount``s.
* 2 players: exchanges move the side cards into the opponent's hand, so the opponent's
  score depends on the sides; there are only 336 deals (x 120 orders in expert), so the
  worlds are enumerated row by row, vectorised.

Both produce a ``Worlds`` object with the same questions: ``total``, ``criminal`` counts,
``holders`` (cards held now), ``face_down`` and ``joint(question)``: the joint count of
(answer, criminal) for a question I could ask on my next turn. ``cnf.RecordCNF`` answers the
possibility questions independently; tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations

import numpy as np

from deduce.models.sherlock13.cards import HAND_SIZE, ICON_MATRIX, N_CARDS, N_ICONS
from deduce.models.sherlock13.record import (
    CriminalFact,
    ExchangeStep,
    Fact,
    HoldsFact,
    IconFact,
    Record,
    SideFact,
    View,
)
from deduce.models.sherlock13.rules import SIDES

ICON = np.asarray(ICON_MATRIX, dtype=np.int64)


# ----------------------------------------------------------------------------- questions
@dataclass(frozen=True)
class Question:
    """A question I may ask: ``raise`` (icon), ``count`` (target, icon) or ``exchange`` (side)."""

    action: str
    icon: int | None = None
    target: int | None = None
    side: str | None = None


def questions_for(record: Record) -> list[Question]:
    """Every question legal on my next turn (none if I have no next turn)."""
    if record.next_turn_views() is None:
        return []
    qs: list[Question] = []
    if record.n >= 3:
        qs += [Question("raise", icon=i) for i in range(N_ICONS)]
    else:
        qs += [Question("exchange", side=s) for s in SIDES if s not in record.turns.open_sides]
    qs += [Question("count", icon=i, target=t) for t in range(record.n) if t != record.me
           for i in range(N_ICONS)]
    return qs


# ----------------------------------------------------------------------------- hands
def _answer_columns(view: View, h: int, variant: str) -> list[int]:
    """Slot columns a hand answers with at ``view`` (expert: all but slot (rotation-1) % h)."""
    if variant != "expert":
        return list(range(h))
    last = (view.rotation - 1) % h
    return [k for k in range(h) if k != last]


def _slots_at(view: View, slots0: np.ndarray, steps: list[ExchangeStep],
              side_cards: dict[str, np.ndarray]) -> np.ndarray:
    """Slot contents (rows x h) of ``view.seat``'s hand after its exchanges before ``view``."""
    slots = slots0
    for st in steps:
        if st.seat == view.seat and st.epoch < view.epoch:
            slots = np.where(slots == st.revealed, side_cards[st.side][:, None], slots)
    return slots


def _icon_counts(view: View, slots0, steps, side_cards, variant: str, icon: int) -> np.ndarray:
    slots = _slots_at(view, slots0, steps, side_cards)
    cols = _answer_columns(view, slots.shape[1], variant)
    return ICON[slots[:, cols], icon].sum(axis=1)


def _fact_mask(fact: Fact, seat_slots: dict[int, np.ndarray], steps, side_cards,
               crim: np.ndarray | None, variant: str, rows: int) -> np.ndarray:
    """Boolean (rows,) mask of the worlds in which ``fact`` holds."""
    if isinstance(fact, IconFact):
        c = _icon_counts(fact.view, seat_slots[fact.view.seat], steps, side_cards, variant, fact.icon)
        return (c >= fact.lo) & (c <= fact.hi)
    if isinstance(fact, HoldsFact):
        slots = _slots_at(fact.view, seat_slots[fact.view.seat], steps, side_cards)
        return (slots == fact.card).any(axis=1)
    if isinstance(fact, SideFact):
        return side_cards[fact.side] == fact.card
    if isinstance(fact, CriminalFact):
        return (crim == fact.card) if fact.is_criminal else (crim != fact.card)
    raise TypeError(f"unknown fact {fact!r}")


# ----------------------------------------------------------------------------- tables
@cache
def _combos(u: int, h: int) -> np.ndarray:
    """All h-subsets of range(u), ascending, as an (m, h) array."""
    return np.array(list(combinations(range(u), h)), dtype=np.int64)


@cache
def _orders(h: int) -> np.ndarray:
    """All permutations of range(h), as an (h!, h) array."""
    return np.array(list(permutations(range(h))), dtype=np.int64)


@cache
def _deal_table(u: int, h: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals of u unknown positions: one criminal and k hands of h, as combo indices.

    Returns ``(hands, criminal)``: ``hands[d, j]`` is the combo index (into ``_combos(u, h)``)
    of the j-th other seat, ``criminal[d]`` the criminal's position. u == k*h + 1.
    """
    combos = _combos(u, h)
    masks = (1 << combos).sum(axis=1)
    index = {int(m): i for i, m in enumerate(masks)}
    full = (1 << u) - 1
    rows: list[tuple[int, ...]] = []
    crim: list[int] = []

    def rec(used: int, chosen: tuple[int, ...]):
        if len(chosen) == k:
            rest = full & ~used
            rows.append(chosen)
            crim.append(rest.bit_length() - 1)
            return
        for m, i in index.items():
            if not m & used:
                rec(used | m, chosen + (i,))

    rec(0, ())
    hands = np.array(rows, dtype=np.int64).reshape(-1, k)
    return hands, np.array(crim, dtype=np.int64)


# ----------------------------------------------------------------------------- worlds
class Worlds:
    """The consistent worlds of a record, counted. All counts are exact integers (as floats).

    ``total``: number of worlds. ``criminal``: (13,) counts. ``holders``: seat -> (13,)
    counts of worlds where the seat holds each card now. ``face_down``: closed side -> (13,)
    counts. ``joint(q)``: (answers, 13) counts of (public answer to ``q``, criminal).
    """

    total: int
    criminal: np.ndarray
    holders: dict[int, np.ndarray]
    face_down: dict[str, np.ndarray]

    def joint(self, q: Question) -> np.ndarray:  # pragma: no cover - abstract
        raise TypeError("abstract")


def count_worlds(record: Record, events: set[int] | None = None) -> Worlds:
    """Count the worlds consistent with ``record`` (only the facts of ``events`` if given)."""
    facts = [f for i, f in record.facts if events is None or i in events]
    if record.n == 2:
        return _EnumeratedWorlds(record, facts)
    return _FactoredWorlds(record, facts)


class _FactoredWorlds(Worlds):
    """3-4 players: per-seat hand scores combined over a fixed deal table."""

    def __init__(self, record: Record, facts: list[Fact]):
        self.record = record
        n, h, me = record.n, HAND_SIZE[record.n], record.me
        self.others = [s for s in range(n) if s != me]
        unknown = np.array([c for c in range(N_CARDS) if c not in record.hand], dtype=np.int64)
        self.unknown = unknown
        u = len(unknown)
        combos_pos = _combos(u, h)
        self.combo_cards = unknown[combos_pos]  # (m, h) card indices, ascending
        m = len(combos_pos)
        expert = record.variant == "expert"
        if expert:
            orders = _orders(h)
            self.row_combo = np.repeat(np.arange(m), len(orders))
            self.row_slots = self.combo_cards[:, orders].reshape(-1, h)
        else:
            self.row_combo = np.arange(m)
            self.row_slots = self.combo_cards
        rows = len(self.row_combo)

        # my own facts are checked against my known hand
        mine_ok = all(
            bool(_fact_mask(f, {me: np.array([record.hand])}, [], {}, None, record.variant, 1)[0])
            for f in facts if isinstance(f, IconFact) and f.view.seat == me
        )
        crim_ok = np.full(N_CARDS, 1.0 if mine_ok else 0.0)
        crim_ok[list(record.hand)] = 0.0
        for f in facts:
            if isinstance(f, CriminalFact):
                keep = np.zeros(N_CARDS) if f.is_criminal else np.ones(N_CARDS)
                keep[f.card] = 1.0 - keep[f.card]
                crim_ok *= keep
        self.crim_ok_pos = crim_ok[unknown]

        # per seat: which (combo, order) rows fit its facts
        self.row_ok: dict[int, np.ndarray] = {}
        self.score: dict[int, np.ndarray] = {}
        for s in self.others:
            ok = np.ones(rows, dtype=bool)
            for f in facts:
                if isinstance(f, IconFact) and f.view.seat == s:
                    ok &= _fact_mask(f, {s: self.row_slots}, [], {}, None, record.variant, rows)
            self.row_ok[s] = ok
            self.score[s] = np.bincount(self.row_combo, weights=ok, minlength=m)

        deal_hands, deal_crim = _deal_table(u, h, len(self.others))
        self.deal_hands, self.deal_crim = deal_hands, deal_crim
        self.seat_factor = {s: self.score[s][deal_hands[:, j]] for j, s in enumerate(self.others)}
        weight = self.crim_ok_pos[deal_crim]
        for s in self.others:
            weight = weight * self.seat_factor[s]
        self.weight = weight
        self.total = int(round(weight.sum()))
        crim = np.zeros(N_CARDS)
        crim[unknown] = np.bincount(deal_crim, weights=weight, minlength=u)
        self.criminal = crim
        member = np.zeros((m, N_CARDS))
        np.put_along_axis(member, self.combo_cards, 1.0, axis=1)
        self.member = member
        self.holders = {
            s: np.bincount(deal_hands[:, j], weights=weight, minlength=m) @ member
            for j, s in enumerate(self.others)
        }
        self.face_down = {}

    # -- answers at my next turn
    def _answer_split(self, seat: int, icon: int, view: View) -> np.ndarray:
        """(m, h+1): per combo, how many fitting orders give each answer count at ``view``."""
        h = self.row_slots.shape[1]
        cols = _answer_columns(view, h, self.record.variant)
        counts = ICON[self.row_slots[:, cols], icon].sum(axis=1)
        m = len(self.combo_cards)
        idx = self.row_combo * (h + 1) + counts
        return np.bincount(idx, weights=self.row_ok[seat], minlength=m * (h + 1)).reshape(m, h + 1)

    def _cavity(self, seat: int) -> np.ndarray:
        """(m, u): worlds by (seat's combo, criminal position), without the seat's own score."""
        j = self.others.index(seat)
        w = self.crim_ok_pos[self.deal_crim]
        for s in self.others:
            if s != seat:
                w = w * self.seat_factor[s]
        m, u = len(self.combo_cards), len(self.unknown)
        flat = np.bincount(self.deal_hands[:, j] * u + self.deal_crim, weights=w, minlength=m * u)
        return flat.reshape(m, u)

    def joint(self, q: Question) -> np.ndarray:
        views = self.record.next_turn_views()
        u = len(self.unknown)
        if q.action == "count":
            split = self._answer_split(q.target, q.icon, views[q.target])  # (m, A)
            pos = split.T @ self._cavity(q.target)  # (A, u)
        elif q.action == "raise":
            pos = self._raise_joint(q.icon, views)
        else:
            raise ValueError(f"no {q.action} question with {self.record.n} players")
        out = np.zeros((pos.shape[0], N_CARDS))
        out[:, self.unknown] = pos
        return out

    def _raise_joint(self, icon: int, views: dict[int, View]) -> np.ndarray:
        """(2^k, u): worlds by (pattern of raised hands, criminal position)."""
        k, u = len(self.others), len(self.unknown)
        table = self.crim_ok_pos[self.deal_crim][:, None]  # (D, 1)
        for j, s in enumerate(self.others):
            split = self._answer_split(s, icon, views[s])
            two = np.stack([split[:, 0], split[:, 1:].sum(axis=1)], axis=1)  # (m, 2): down, up
            per_deal = two[self.deal_hands[:, j]]  # (D, 2)
            table = (table[:, :, None] * per_deal[:, None, :]).reshape(len(table), -1)
        patterns = table.shape[1]
        idx = self.deal_crim[:, None] * patterns + np.arange(patterns)
        flat = np.bincount(idx.ravel(), weights=table.ravel(), minlength=u * patterns)
        return flat.reshape(u, patterns).T


class _EnumeratedWorlds(Worlds):
    """2 players: every (deal, opponent order) row evaluated against every fact."""

    def __init__(self, record: Record, facts: list[Fact]):
        self.record = record
        me, opp, h = record.me, 1 - record.me, HAND_SIZE[2]
        unknown = np.array([c for c in range(N_CARDS) if c not in record.hand], dtype=np.int64)
        trip = np.array(list(permutations(range(len(unknown)), 3)), dtype=np.int64)  # left, crim, right
        rest = np.array([[p for p in range(len(unknown)) if p not in t] for t in trip], dtype=np.int64)
        if record.variant == "expert":
            orders = _orders(h)
            deal = np.repeat(np.arange(len(trip)), len(orders))
            opp_pos = rest[deal[:, None], np.tile(orders, (len(trip), 1))]
        else:
            deal = np.arange(len(trip))
            opp_pos = rest
        rows = len(deal)
        self.crim = unknown[trip[deal, 1]]
        self.sides = {"left": unknown[trip[deal, 0]], "right": unknown[trip[deal, 2]]}
        self.seat_slots = {opp: unknown[opp_pos], me: np.tile(np.array(record.hand), (rows, 1))}
        self.steps = record.steps
        ok = np.ones(rows, dtype=bool)
        for f in facts:
            ok &= _fact_mask(f, self.seat_slots, self.steps, self.sides, self.crim, record.variant, rows)
        self.ok = ok.astype(float)
        self.total = int(self.ok.sum())
        self.criminal = np.bincount(self.crim, weights=self.ok, minlength=N_CARDS)
        now = _slots_at(record.view_now(opp), self.seat_slots[opp], self.steps, self.sides)
        self.holders = {opp: sum(np.bincount(now[:, k], weights=self.ok, minlength=N_CARDS)
                                 for k in range(h))}
        self.face_down = {s: np.bincount(self.sides[s], weights=self.ok, minlength=N_CARDS)
                          for s in SIDES if s not in record.turns.open_sides}

    def joint(self, q: Question) -> np.ndarray:
        if q.action == "exchange":
            answer = self.sides[q.side]
            size = N_CARDS
        elif q.action == "count":
            view = self.record.next_turn_views()[q.target]
            answer = _icon_counts(view, self.seat_slots[q.target], self.steps, self.sides,
                                  self.record.variant, q.icon)
            size = HAND_SIZE[2] + 1
        else:
            raise ValueError("no raise question with 2 players")
        flat = np.bincount(answer * N_CARDS + self.crim, weights=self.ok, minlength=size * N_CARDS)
        return flat.reshape(size, N_CARDS)
