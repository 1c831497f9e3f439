"""Whole game states drawn from one player's view (determinisations), for the search bot
and the advice: ``Worlds(position, log).sample(rng)`` is a ``rules.State`` that agrees
with everything ``me`` sees and draws everything else at random.

- *With a log* (an observation ``{"position", "log"}``, as the engine writes it): the
  hidden part is ``knowledge.sample_hidden`` (every hand ``me`` has held kept card for
  card; the others' face-down picks drawn for the players the log's ``acted`` names),
  put together with ``rules.State.from_parts``; ``knowledge.read`` runs once, not per
  sample.
- *Without a log* (a bare position): ``me`` has seen only the hand of this cycle
  (``unlogged``): the others' hands are drawn from the unseen cards, as many as mine
  (decision: nobody passed a whole hand but as the sizes need), and a log is made up
  to go with them: the hands ``me`` held earlier in the deal are rebuilt from the drawn
  ones and picks taken from the end of each player's Evidence (the cards acquired
  last), cycles where the sizes need it counting as passes. The made-up log serves only
  the engine's bookkeeping (it decides nothing in the rest of the game). In the
  investigate phase the players before ``me`` in seating order have picked; in the
  arrest and tail phases the players before ``me`` in the arresting order have acted;
  in the bonus, those before ``me`` in the bonus order.

Each sample's later chance (the next deals, Holmes's random picks) is seeded from the
same ``rng``, so a seed fixes the sample whole.
"""

from __future__ import annotations

import random

from deduce.core.errors import InputError
from deduce.models.irregulars.cards import DECKS, EVIDENCE_PER_DECK
from deduce.models.irregulars.hidden import Hidden
from deduce.models.irregulars.log import CycleSeen, RoundLog
from deduce.models.irregulars.position import HAND_SIZE, Position

CYCLES_PER_DEAL = 4
SOLO_PER_DECK = 2


class Worlds:
    """Determinisations of ``position`` (``me``'s view) with ``log`` (None: no log)."""

    def __init__(self, position: Position, log: RoundLog | None, where: str = "<observation>"):
        if log is not None:  # the engine keeps every hand sorted by card id
            import dataclasses

            log = dataclasses.replace(log, cycles=tuple(
                dataclasses.replace(c, hand=tuple(sorted(c.hand))) for c in log.cycles))
        self.position, self.log, self.where = position, log, where
        self.knowledge = None
        if log is not None:
            from deduce.models.irregulars.knowledge import read

            self.knowledge = read(position, log, where)

    @property
    def logged(self) -> bool:
        return self.log is not None

    def sample(self, rng: random.Random):
        """One whole state (``rules.State``) fitting the view, drawn with ``rng``."""
        from deduce.models.irregulars.knowledge import sample_hidden
        from deduce.models.irregulars.rules import State

        if self.log is None:
            log, hidden = unlogged(self.position, rng)
            return State.from_parts(engine_position(self.position), log, hidden,
                                    rng.getrandbits(64))
        else:
            log = self.log
            hidden = sample_hidden(self.position, log, rng, where=self.where,
                                   knowledge=self.knowledge)
        return State.from_parts(self.position, log, hidden, rng.getrandbits(64))


# ----------------------------------------------------------------------------- no log
class NoLog(InputError):
    """A bare position no made-up deal fits (give the observation with its log)."""


def _deal_cycle(position: Position) -> tuple[int, int]:
    if position.solo:
        return (position.cycle - 1) // CYCLES_PER_DEAL + 1, \
            (position.cycle - 1) % CYCLES_PER_DEAL + 1
    return position.round, position.cycle


def engine_position(position: Position) -> Position:
    """The position as the engine writes it: in the 4th cycle's arrest and tail phases
    (multi) the hand is empty (the unchosen cards lie face down in the middle)."""
    import dataclasses

    if not position.solo and position.cycle == CYCLES_PER_DEAL and \
            position.phase in ("arrest", "tail") and position.hand:
        return dataclasses.replace(position, hand=())
    return position


def unlogged(position: Position, rng: random.Random) -> tuple[RoundLog, Hidden]:
    """A made-up log and a hidden part for a bare position (the module docstring), in
    the engine's way of writing a phase (``knowledge``'s docstring: the hands pass at the
    reveal; solo's next deal dealt at once; the 4th cycle's rests in the middle)."""
    cards = position.cards
    ev = cards.evidence_by_id
    players, me = position.players, position.me
    n = len(players)
    seat = players.index(me)
    deal, cycle = _deal_cycle(position)
    phase = position.phase
    drafting = phase == "investigate"
    done = cycle - 1 if drafting else cycle  # cycles of the deal whose picks are revealed
    last = not position.solo and cycle == CYCLES_PER_DEAL and not drafting
    step = 1 if position.solo or _left(position) else -1
    if position.solo and done == CYCLES_PER_DEAL and position.cycle < 19:
        # the next deal is dealt at once: a new deal of one cycle, nothing revealed
        deal, done = deal + 1, 0
    mine_known = tuple(sorted(position.hand))
    size = len(mine_known)
    picking = done  # the 4th cycle: every packet was picked from each cycle
    if not last:
        picking = HAND_SIZE - size
        if not (0 <= picking <= done) or (position.solo and picking != done):
            lo = HAND_SIZE - done
            shown = f"{lo} cards" if position.solo else f"{lo} to {HAND_SIZE} cards"
            raise NoLog(f"a hand of {size} card(s) does not fit cycle {cycle} of the deal "
                        f"without a log ({shown}): give the observation with its log",
                        where="position", field="hand")
    # who picked in each revealed cycle: the last ``picking`` cycles (a bonus: per packet,
    # as its rest's size needs)
    rests: list[list[str]] = []
    picked_in = {(i, s): i >= done - picking for i in range(done) for s in range(n)}
    taken_by: dict[str, str] = {}
    if last and phase == "bonus":
        rests, taken_by = _bonus_rests(position)
        for s in range(n):
            passes = len(rests[s]) - (HAND_SIZE - done)
            for i in range(done):  # the packet s put: held by s - (3 - i) * step in cycle i
                holder = (s - (done - 1 - i) * step) % n
                picked_in[i, holder] = i >= passes
    picks: list[dict[str, str | None]] = [{} for _ in range(done)]
    for s, p in enumerate(players):
        ids = [o.card.id for o in position.evidence[p] if o.card.id != taken_by.get(p)]
        k = sum(picked_in[i, s] for i in range(done))
        got = ids[len(ids) - k:] if k else []
        if len(got) < k:
            raise NoLog(f"{p} owns {len(ids)} Evidence card(s), fewer than the {k} picks "
                        f"the deal so far needs without a log: give the observation with its log",
                        where="position", field=f"evidence.{p}")
        it = iter(got)
        for i in range(done):
            picks[i][p] = next(it) if picked_in[i, s] else None
    # the unseen cards: the deal's own (the draw's quota per deck) first
    per_deck = SOLO_PER_DECK if position.solo else n
    seen = set(position.hand) | {o.card.id for p in players for o in position.evidence[p]}
    quota = {d: per_deck for d in DECKS}
    for c in set(position.hand) | {c for row in picks for c in row.values() if c}:
        quota[ev[c].deck] = max(0, quota[ev[c].deck] - 1)
    first, second = [], []
    for d in DECKS:
        unseen = [c.id for c in cards.deck(d) if c.id not in seen]
        rng.shuffle(unseen)
        first += unseen[:quota[d]]
        second += unseen[quota[d]:]
    rng.shuffle(first)
    rng.shuffle(second)
    pool = first + second

    def draw(k: int) -> list[str]:
        out = pool[:k]
        del pool[:k]
        return sorted(out)

    # each seat's packet now (its contents): mine known, the others drawn
    middle_put: list[list[str]] = []
    hands: list[list[str]] = []
    if last and phase == "bonus":
        middle_put = rests
        hands = [[] for _ in range(n)]
    elif last:
        rest = HAND_SIZE - done
        for s in range(n):
            middle_put.append(sorted(position.hand) if s == seat and position.hand
                              else draw(rest))
        hands = [[] for _ in range(n)]
    else:
        for s in range(n):
            hands.append(list(mine_known) if s == seat else draw(size))
    # backwards: the packet each seat held at the start of each revealed cycle
    later = middle_put if last else hands
    cycles: list[CycleSeen] = []
    if not last:
        cycles.append(CycleSeen(tuple(sorted(hands[seat])), {}))
    for i in range(done - 1, -1, -1):
        row = picks[i]
        held = []
        for s in range(n):
            # the hands passed after cycle i (none after the 4th: they went to the middle)
            src = s if (last and i == done - 1) else (s + step) % n
            got = list(later[src])
            if row[players[s]] is not None:
                got.append(row[players[s]])
            held.append(sorted(got))
        cycles.insert(0, CycleSeen(tuple(held[seat]), dict(row)))
        later = held
    picked: dict[str, str] = {}
    acted: tuple[str, ...] = ()
    if drafting and not position.solo:
        for p in players[:seat]:
            s = players.index(p)
            money = position.bsi[p].available
            affordable = [c for c in hands[s] if ev[c].cost <= money]
            if affordable:
                card = rng.choice(affordable)
                picked[p] = card
                hands[s] = [c for c in hands[s] if c != card]
        acted = tuple(players[:seat])
    elif phase in ("arrest", "tail"):
        acted = tuple(position.order[:position.order.index(me)])
    elif phase == "bonus":
        acted = tuple(_bonus_before(position))
    decks: dict[int, tuple[str, ...]] = {}
    for d in DECKS:
        left = [c for c in pool if ev[c].deck == d]
        keep = len(left) if position.solo else min(
            len(left), max(0, EVIDENCE_PER_DECK - position.round * n))
        decks[d] = tuple(left[:keep])
    log = RoundLog(deal, "left" if step == 1 else "right", (), tuple(cycles), acted,
                   False, ())
    hidden = _hidden(position, rng, {players[s]: tuple(sorted(hands[s])) for s in range(n)
                                     if s != seat}, decks, picked,
                     tuple(c for put in middle_put for c in put))
    return log, hidden


def _bonus_before(position: Position) -> list[str]:
    """The players before ``me`` in the bonus order (most available tokens first, ties by
    the arresting order; in arresting order under ``bonus-in-arresting-order``)."""
    from deduce.models.irregulars.cards import BONUS_IN_ARRESTING_ORDER

    order = list(position.order)
    twist = position.plot_twist
    if twist is None or position.cards.plot_twist_by_id[twist].effect != \
            BONUS_IN_ARRESTING_ORDER:
        order.sort(key=lambda p: -position.bsi[p].available)  # stable: ties keep the order
    return order[:order.index(position.me)]


def _bonus_rests(position: Position) -> tuple[list[list[str]], dict[str, str]]:
    """The bonus phase without a log: the rests put in the middle, seat by seat (the
    cards face up, ``hand``, and the card each player before ``me`` in the bonus order
    took: their last Evidence card, unless they hold a board now: they took it), shared
    out as evenly as the seats go, 1 to 5 cards each; and the cards taken, by player."""
    taken = {}
    for p in _bonus_before(position):
        ids = [o.card.id for o in position.evidence[p]]
        if ids and not position.boards[p]:
            taken[p] = ids[-1]
    cards = sorted(set(position.hand) | set(taken.values()))
    n = len(position.players)
    if not n <= len(cards) <= HAND_SIZE * n:
        raise NoLog(f"the middle holds {len(position.hand)} card(s) and {len(taken)} were "
                    f"taken: a deal of {n} hands leaves {n} to {HAND_SIZE * n}; give the "
                    "observation with its log", where="position", field="hand")
    share, extra = divmod(len(cards), n)
    out, at = [], 0
    for s in range(n):
        k = share + (s < extra)
        out.append(cards[at:at + k])
        at += k
    return out, taken


def _left(position: Position) -> bool:
    from deduce.models.irregulars.knowledge import expected_direction

    return expected_direction(position) == "left"


def _others(position: Position, rng: random.Random):
    """The Villain deck, the other Inspectors and the Plot Twists to come, at random."""
    cards = position.cards
    out_of_deck = set(position.villains) | {v for p in position.players
                                            for v in position.arrested[p]}
    villains = [v.id for v in cards.villains if v.id not in out_of_deck]
    rng.shuffle(villains)
    inspectors = {position.me: position.inspector}
    twists: list[str] = []
    if not position.solo:
        others = [i.id for i in cards.inspectors if i.id != position.inspector]
        dealt = rng.sample(others, len(position.players) - 1)
        inspectors.update(zip([p for p in position.players if p != position.me], dealt))
        inspectors = {p: inspectors[p] for p in position.players}
        twists = [c.id for c in cards.plot_twists if c.id != position.plot_twist]
        rng.shuffle(twists)
        twists = twists[:max(0, len(cards.plot_twists) - position.round)]
    return tuple(villains), inspectors, tuple(twists)


def _hidden(position: Position, rng: random.Random, hands, decks, picked, middle) -> Hidden:
    villains, inspectors, twists = _others(position, rng)
    return Hidden(hands=hands, decks=decks, villain_deck=villains, inspectors=inspectors,
                  plot_twists=twists, picked=picked, middle=middle)
