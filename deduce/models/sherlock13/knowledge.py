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
    masks = (1 << _combos(u, h)).sum(axis=1)
    hands = np.arange(len(masks))[:, None]
    used = masks.copy()
    for _ in range(k - 1):  # extend every partial deal by each disjoint next hand
        row, nxt = np.nonzero((used[:, None] & masks[None, :]) == 0)
        hands = np.column_stack([hands[row], nxt])
        used = used[row] | masks[nxt]
    rest = ((1 << u) - 1) & ~used
    criminal = np.log2(rest).round().astype(np.int64)
    return hands, criminal


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

    def deal_count(self, criminal: int, hands: dict[int, list[int]],
                   sides: dict[str, int] | None = None) -> int:  # pragma: no cover - abstract
        """Consistent worlds with this deal (other seats' hand sets; orders counted in expert)."""
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
        self.combo_cards = unknown[_combos(u, h)]  # (m, h) card indices, ascending
        m = len(self.combo_cards)
        if record.variant == "expert":
            orders = _orders(h)
            row_combo = np.repeat(np.arange(m), len(orders))
            row_slots = self.combo_cards[:, orders].reshape(-1, h)
        else:
            row_combo, row_slots = np.arange(m), self.combo_cards

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

        # per seat: the (combo, order) rows that fit its facts, filtered fact by fact
        self.rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # seat -> (combo ids, slots)
        self.score: dict[int, np.ndarray] = {}
        for s in self.others:
            combo_ids, slots = row_combo, row_slots
            for f in facts:
                if isinstance(f, IconFact) and f.view.seat == s:
                    keep = _fact_mask(f, {s: slots}, [], {}, None, record.variant, len(slots))
                    combo_ids, slots = combo_ids[keep], slots[keep]
            self.rows[s] = (combo_ids, slots)
            self.score[s] = np.bincount(combo_ids, minlength=m).astype(float)

        # deals with a non-zero count only
        deal_hands, deal_crim = _deal_table(u, h, len(self.others))
        weight = self.crim_ok_pos[deal_crim]
        for j, s in enumerate(self.others):
            weight = weight * self.score[s][deal_hands[:, j]]
        live = np.flatnonzero(weight)
        self.deal_hands, self.deal_crim, self.weight = deal_hands[live], deal_crim[live], weight[live]
        self.total = int(round(self.weight.sum()))
        crim = np.zeros(N_CARDS)
        crim[unknown] = np.bincount(self.deal_crim, weights=self.weight, minlength=u)
        self.criminal = crim
        member = np.zeros((m, N_CARDS))
        np.put_along_axis(member, self.combo_cards, 1.0, axis=1)
        self.holders = {
            s: np.bincount(self.deal_hands[:, j], weights=self.weight, minlength=m) @ member
            for j, s in enumerate(self.others)
        }
        self.face_down = {}
        self._cache: dict = {}

    def deal_count(self, criminal, hands, sides=None) -> int:
        pos = np.searchsorted(self.unknown, criminal)
        if pos >= len(self.unknown) or self.unknown[pos] != criminal:
            return 0
        index = {frozenset(int(c) for c in row): i for i, row in enumerate(self.combo_cards)}
        count = self.crim_ok_pos[pos]
        for s in self.others:
            i = index.get(frozenset(hands[s]))
            count = 0 if i is None else count * self.score[s][i]
        return int(round(count))

    # -- answers at my next turn
    def _answer_counts(self, seat: int) -> np.ndarray:
        """(rows, icons): each fitting row's answer count per icon at my next turn."""
        key = ("counts", seat)
        if key not in self._cache:
            view = self.record.next_turn_views()[seat]
            slots = self.rows[seat][1]
            cols = _answer_columns(view, self.combo_cards.shape[1], self.record.variant)
            self._cache[key] = ICON[slots[:, cols]].sum(axis=1)
        return self._cache[key]

    def _answer_split(self, seat: int) -> np.ndarray:
        """(m, icons, h+1): per combo and icon, how many fitting orders give each answer."""
        key = ("split", seat)
        if key not in self._cache:
            m, h = self.combo_cards.shape
            k = N_ICONS * (h + 1)
            counts = self._answer_counts(seat)  # (rows, icons)
            idx = (self.rows[seat][0][:, None] * k + np.arange(N_ICONS) * (h + 1) + counts).ravel()
            self._cache[key] = np.bincount(idx, minlength=m * k).reshape(m, N_ICONS, h + 1).astype(float)
        return self._cache[key]

    def _cavity(self, seat: int) -> np.ndarray:
        """(m, u): worlds by (seat's combo, criminal position), without the seat's own score."""
        key = ("cavity", seat)
        if key not in self._cache:
            j = self.others.index(seat)
            w = self.crim_ok_pos[self.deal_crim]
            for i, s in enumerate(self.others):
                if s != seat:
                    w = w * self.score[s][self.deal_hands[:, i]]
            m, u = len(self.combo_cards), len(self.unknown)
            flat = np.bincount(self.deal_hands[:, j] * u + self.deal_crim, weights=w, minlength=m * u)
            self._cache[key] = flat.reshape(m, u)
        return self._cache[key]

    def joint(self, q: Question) -> np.ndarray:
        if q.action == "count":
            pos = self._count_joints(q.target)[q.icon]
        elif q.action == "raise":
            pos = self._raise_joints()[q.icon]
        else:
            raise ValueError(f"no {q.action} question with {self.record.n} players")
        out = np.zeros((pos.shape[0], N_CARDS))
        out[:, self.unknown] = pos
        return out

    def _count_joints(self, seat: int) -> np.ndarray:
        """(icons, h+1, u): worlds by (icon asked, count answered, criminal position)."""
        key = ("count", seat)
        if key not in self._cache:
            self._cache[key] = np.einsum("mia,mu->iau", self._answer_split(seat), self._cavity(seat))
        return self._cache[key]

    def _raise_joints(self) -> np.ndarray:
        """(icons, 2^k, u): worlds by (icon, pattern of raised hands with the first other
        seat as the highest bit, criminal position)."""
        if "raise" in self._cache:
            return self._cache["raise"]
        k, u = len(self.others), len(self.unknown)
        patterns, d = 1 << k, len(self.deal_crim)
        ups = {s: self._answer_split(s) for s in self.others}
        if self.record.variant == "standard":  # each hand has one answer: code the pattern
            code = np.zeros((d, N_ICONS), dtype=np.int64)
            for j, s in enumerate(self.others):
                up = ups[s][:, :, 1:].sum(axis=2) > 0  # (m, icons)
                code = code * 2 + up[self.deal_hands[:, j]]
            idx = (np.arange(N_ICONS) * patterns + code) * u + self.deal_crim[:, None]
            weights = np.broadcast_to(self.weight[:, None], idx.shape)
        else:
            table = np.broadcast_to(self.crim_ok_pos[self.deal_crim][:, None, None], (d, N_ICONS, 1))
            for j, s in enumerate(self.others):
                split = ups[s]
                two = np.stack([split[:, :, 0], split[:, :, 1:].sum(axis=2)], axis=2)  # (m, icons, 2)
                per_deal = two[self.deal_hands[:, j]]  # (D, icons, 2)
                table = (table[:, :, :, None] * per_deal[:, :, None, :]).reshape(d, N_ICONS, -1)
            idx = (np.arange(N_ICONS)[:, None] * patterns + np.arange(patterns)) * u
            idx = idx[None, :, :] + self.deal_crim[:, None, None]
            weights = table
        flat = np.bincount(idx.ravel(), weights=weights.ravel(), minlength=N_ICONS * patterns * u)
        self._cache["raise"] = flat.reshape(N_ICONS, patterns, u)
        return self._cache["raise"]


@cache
def _two_player_rows(variant: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows of a 2-player world over 8 unknown positions: (left, criminal, right) and the
    opponent's starting slots (every order in expert, ascending in standard)."""
    trip = np.array(list(permutations(range(8), 3)), dtype=np.int64)
    rest = np.array([[p for p in range(8) if p not in t] for t in trip], dtype=np.int64)
    if variant != "expert":
        return trip, rest
    orders = _orders(HAND_SIZE[2])
    deal = np.repeat(np.arange(len(trip)), len(orders))
    return trip[deal], rest[deal[:, None], np.tile(orders, (len(trip), 1))]


class _EnumeratedWorlds(Worlds):
    """2 players: every (deal, opponent order) row, kept while it fits every fact."""

    def __init__(self, record: Record, facts: list[Fact]):
        self.record = record
        me, opp, h = record.me, 1 - record.me, HAND_SIZE[2]
        unknown = np.array([c for c in range(N_CARDS) if c not in record.hand], dtype=np.int64)
        trip, opp_pos = _two_player_rows(record.variant)
        crim = unknown[trip[:, 1]]
        sides = {"left": unknown[trip[:, 0]], "right": unknown[trip[:, 2]]}
        opp_slots = unknown[opp_pos]
        cheap_first = sorted(facts, key=lambda f: isinstance(f, (IconFact, HoldsFact)))
        for f in cheap_first:
            rows = len(crim)
            seat_slots = {opp: opp_slots, me: np.broadcast_to(np.array(record.hand), (rows, h))}
            keep = _fact_mask(f, seat_slots, record.steps, sides, crim, record.variant, rows)
            crim, opp_slots = crim[keep], opp_slots[keep]
            sides = {s: v[keep] for s, v in sides.items()}
        rows = len(crim)
        self.crim, self.sides = crim, sides
        self.seat_slots = {opp: opp_slots, me: np.broadcast_to(np.array(record.hand), (rows, h))}
        self.steps = record.steps
        self.total = rows
        self.criminal = np.bincount(crim, minlength=N_CARDS).astype(float)
        now = _slots_at(record.view_now(opp), opp_slots, self.steps, sides)
        self.holders = {opp: np.bincount(now.ravel(), minlength=N_CARDS).astype(float)}
        self.face_down = {s: np.bincount(sides[s], minlength=N_CARDS).astype(float)
                          for s in SIDES if s not in record.turns.open_sides}

    def deal_count(self, criminal, hands, sides=None) -> int:
        opp = 1 - self.record.me
        match = (self.crim == criminal) & (self.sides["left"] == sides["left"]) & (
            self.sides["right"] == sides["right"])
        held = np.sort(self.seat_slots[opp], axis=1)
        match &= (held == np.sort(np.asarray(hands[opp]))).all(axis=1)
        return int(match.sum())

    def joint(self, q: Question) -> np.ndarray:
        if q.action == "exchange":
            answer, size = self.sides[q.side], N_CARDS
        elif q.action == "count":
            view = self.record.next_turn_views()[q.target]
            answer = _icon_counts(view, self.seat_slots[q.target], self.steps, self.sides,
                                  self.record.variant, q.icon)
            size = HAND_SIZE[2] + 1
        else:
            raise ValueError("no raise question with 2 players")
        flat = np.bincount(answer * N_CARDS + self.crim, minlength=size * N_CARDS)
        return flat.reshape(size, N_CARDS).astype(float)
