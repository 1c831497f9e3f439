"""Making a guessed engine state agree with what is entered at the table (the live table,
``table.py``, when the program did not deal the game).

The table runs the real engine (``rules.State``) on a *concrete* state: what ``me`` sees is
exact, and everything ``me`` cannot see (the other hands, the deck orders, the Villain
deck, the Plot Twists to come, the unseen discards) is one guess consistent with every
entry so far. Before an entry is played, the facts it states are forced into the guess:
a revealed pick into its picker's hand, a refill to the top of the Villain deck, a Plot
Twist to the top of its deck, a Holmes Track card to the top of its Evidence deck; after
it, the hand passed or dealt to ``me`` and the face-up middle of a BSI Bonus. The engine
then checks every rule; this module only moves unseen cards.

**Exchangeability (the model).** Two cards ``me`` has not seen may swap places when the
swap keeps what ``me`` knows true: the cards of the current deal (the hands, the middle)
are a draw of so many cards of each deck (``knowledge``'s model), so two unseen cards may
swap if both are in the deal, both out of it (deck piles, unseen discards), or of the same
deck. Forcing card ``c`` into a holder is a swap with an unseen card of the holder, or,
when ``c`` lies outside the deal and no unseen card of the holder is of its deck, a chain
of two swaps through an unseen card of ``c``'s deck elsewhere in the deal. When no swap
fits, the fact contradicts what ``me`` has seen and is refused with the reason (e.g. the
card is in a hand that passed ``me``, or owned, or the deal holds no more unseen cards of
that deck). A swap renames the two cards everywhere (hands, the round's packet history,
the middle, piles, discards), so the engine's own record of the deal stays whole.

``Guess`` holds a state, ``me``'s seat and the cards that must not move: those ``me`` has
seen (owned by anyone, in ``me``'s hand or log, gone face up) and those already forced.
"""

from __future__ import annotations

from typing import Iterable

from deduce.core.errors import InputError


class Guess:
    """Forcing facts into ``state`` (changed in place) for seat ``me``."""

    def __init__(self, state, me: int):
        self.state = state
        self.me = me
        self.fixed: set[str] = seen_by(state, me)

    # -- where a card is
    def where(self, card: str) -> tuple:
        """``("hand", seat)``, ``("middle",)``, ``("deck", d, index)``, ``("owned",
        seat)``, ``("discard",)`` or ``("nowhere",)``."""
        st = self.state
        for s, hand in enumerate(st.hands):
            if card in hand:
                return ("hand", s)
        if card in st.middle:
            return ("middle",)
        for d, pile in st.decks.items():
            if card in pile:
                return ("deck", d, pile.index(card))
        for s, owned in enumerate(st.owned):
            if card in owned:
                return ("owned", s)
        if card in st.discard:
            return ("discard",)
        return ("nowhere",)

    def in_deal(self, card: str) -> bool:
        return self.where(card)[0] in ("hand", "middle")

    def deck(self, card: str) -> int:
        return self.state.cards.evidence_by_id[card].deck

    def placed(self, card: str) -> str:
        """Where a card ``me`` has seen is, in words (for a refusal)."""
        st = self.state
        names = st.names
        at = self.where(card)
        if at[0] == "hand":
            return ("in your hand" if at[1] == self.me else
                    f"in {names[at[1]]}'s hand (you saw it there)")
        if at[0] == "owned":
            return "yours" if at[1] == self.me else f"owned by {names[at[1]]}"
        if at[0] == "middle":
            return "in the middle (you saw it go there)"
        if at[0] == "deck":
            return f"placed on deck {at[1]} by an earlier entry"
        return "out of play (seen discarded)"

    def unseen(self, cards: Iterable[str]) -> list[str]:
        return [c for c in cards if c not in self.fixed]

    # -- swapping
    def swap(self, a: str, b: str) -> None:
        """Exchange the places of the unseen cards ``a`` and ``b`` everywhere."""
        if a == b:
            return
        st = self.state
        rename = {a: b, b: a}

        def sub(cards):
            return [rename.get(c, c) for c in cards]

        st.hands = [sorted(sub(h)) for h in st.hands]
        st.middle = sorted(sub(st.middle))
        st.middle_put = tuple(tuple(sorted(sub(p))) for p in st.middle_put)
        st.packets = [tuple(tuple(sorted(sub(h))) for h in packet) for packet in st.packets]
        st.decks = {d: sub(p) for d, p in st.decks.items()}
        st.discard = sub(st.discard)
        st._legal = None

    def exchangeable(self, a: str, b: str) -> bool:
        return self.in_deal(a) == self.in_deal(b) or self.deck(a) == self.deck(b)

    def _bring(self, card: str, slots: list[str], holder: str) -> None:
        """Swap ``card`` into one of ``slots`` (unseen cards of the holder); a chain
        through another unseen card of the deal when it must."""
        if card in self.fixed:
            raise InputError(f"{card} cannot be {holder}: it is {self.placed(card)}")
        if not slots:
            raise InputError(f"{card} cannot be {holder}: every card there is known to you")
        at = self.where(card)
        if at[0] in ("owned", "nowhere"):
            raise InputError(f"{card} cannot be {holder}: it is {self.placed(card)}")
        for z in slots:
            if self.exchangeable(card, z):
                self.swap(card, z)
                self.fixed.add(card)
                return
        # card outside the deal, the holder in it with no unseen card of card's deck
        d = self.deck(card)
        st = self.state
        deal = [c for h in st.hands for c in h] + list(st.middle)
        for y in self.unseen(deal):
            if self.deck(y) == d and y not in slots:
                z = slots[0]
                self.swap(card, z)  # card in the holder, z outside
                self.swap(z, y)     # z into y's place in the deal, y outside
                self.fixed.add(card)
                return
        raise InputError(f"{card} cannot be {holder}: the deal holds no more unseen cards "
                         f"of deck {d}")

    # -- facts
    def into_hand(self, card: str, seat: int, who: str) -> None:
        """``card`` is in ``seat``'s hand (``who``: the holder in words)."""
        if card in self.state.hands[seat]:
            self.fixed.add(card)
            return
        self._bring(card, self.unseen(self.state.hands[seat]), f"in {who}")

    def hand_is(self, cards: list[str], seat: int, who: str) -> None:
        """``seat``'s hand is exactly ``cards``."""
        hand = self.state.hands[seat]
        if len(cards) != len(hand):
            raise InputError(f"{who} holds {len(hand)} card{'s' if len(hand) != 1 else ''}, "
                             f"not {len(cards)}")
        wanted = set(cards)
        for card in cards:
            self.into_hand(card, seat, who)
            hand = self.state.hands[seat]
        known = sorted(c for c in self.state.hands[seat] if c not in wanted)
        if known:
            raise InputError(f"{who} holds {', '.join(known)} (you have seen "
                             f"{'it' if len(known) == 1 else 'them'} pass)")

    def middle_is(self, cards: list[str]) -> None:
        """The middle is exactly ``cards`` (the unchosen cards, face up)."""
        st = self.state
        if len(cards) != len(st.middle):
            raise InputError(f"the middle holds {len(st.middle)} cards, not {len(cards)}")
        for card in cards:
            if card not in st.middle:
                self._bring(card, self.unseen(st.middle), "in the middle")
            self.fixed.add(card)
        known = sorted(set(st.middle) - set(cards))
        if known:
            raise InputError(f"the middle holds {', '.join(known)} (you saw it go there)")

    def cannot_afford(self, seat: int, who: str) -> None:
        """``seat`` passed its hand: no card of it is affordable."""
        st = self.state
        money = st.available[seat]
        cost = {c.id: c.cost for c in st.cards.evidence}
        for x in list(st.hands[seat]):
            if cost[x] <= money:
                if x in self.fixed:
                    raise InputError(f"{who} cannot pass the hand: it holds {x} (cost "
                                     f"{cost[x]}) with {money} tokens available")
                others = [c for h in st.hands for c in h if c not in st.hands[seat]]
                pool = self.unseen([c for p in st.decks.values() for c in p] + others
                                   + list(st.discard) + list(st.middle))
                y = next((y for y in pool if cost[y] > money and self.exchangeable(x, y)),
                         None)
                if y is None:
                    raise InputError(f"{who} cannot pass the hand: no unseen card costs more "
                                     f"than their {money} tokens in its place")
                self.swap(x, y)
        self.fixed.update(st.hands[seat])

    def deck_tops(self, deck: int, cards: list[str]) -> None:
        """The next cards drawn from Evidence ``deck`` are ``cards``, in order."""
        st = self.state
        for i, card in enumerate(cards):
            if self.deck(card) != deck:
                raise InputError(f"{card} is of deck {self.deck(card)}, not of deck {deck}")
            pile = st.decks[deck]
            if card not in pile:
                if card in self.fixed:
                    raise InputError(f"{card} cannot come from deck {deck}: it is "
                                     f"{self.placed(card)}")
                free = [c for c in self.unseen(pile) if c not in cards]
                if not free:
                    raise InputError(f"deck {deck} has no unseen card left to draw {card} from")
                self.swap(card, free[-1])
                pile = st.decks[deck]
            pile.remove(card)
            pile.insert(len(pile) - i, card)
            self.fixed.add(card)

    def villain_tops(self, villains: list[str]) -> None:
        """The next Villains drawn are ``villains``, in order."""
        st = self.state
        deck = st.villain_deck
        for i, v in enumerate(villains):
            if v not in deck:
                raise InputError(f"{v} cannot be drawn: {self.villain_place(v)}")
            deck.remove(v)
            deck.insert(len(deck) - i, v)

    def villain_place(self, v: str) -> str:
        st = self.state
        if v in st.row:
            return "it is in the row"
        for s, arrested in enumerate(st.arrested):
            if v in arrested:
                return f"{st.names[s]} arrested it"
        return "it is not in the Villain deck"

    def twist_top(self, twist: str) -> None:
        st = self.state
        if twist not in st.twists:
            why = ("it is the current Plot Twist" if twist == st.twist else
                   "it was revealed in an earlier round" if twist in st.past_twists else
                   "it is not in the Plot Twist deck")
            raise InputError(f"{twist} cannot be the next Plot Twist: {why}")
        st.twists.remove(twist)
        st.twists.append(twist)


def seen_by(state, me: int) -> set[str]:
    """Every Evidence card ``me`` has seen in ``state``: owned by anyone, in ``me``'s hand,
    the cards gone face up, every hand and pick of ``me``'s log of the deal, and the
    middle once it is face up."""
    out = {c for owned in state.owned for c in owned}
    out.update(state.hands[me])
    out.update(state.gone)
    log = state.log(me)
    out.update(log.seen())
    if state.phase == "bonus":
        out.update(state.middle)
    return out
