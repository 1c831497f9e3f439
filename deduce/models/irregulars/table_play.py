"""One entry of the Baker Street Irregulars live table played on the engine: what it
states is forced into the state (``forcing.Guess``, unless the program dealt the game),
the engine plays it and checks every rule, and what chance gave that the entry did not say
is reported as missing (the entry then waits for it).

An entry is an action (``rules`` actions, plus the table's own ``Picks``: every player's
pick of one Investigate cycle, revealed together, and ``Reveal``: another player's
Inspector, shown at the end) and ``told``, what the table says came:

- ``refill``: the Villains drawn into the row, in order (an arrest, or Holmes's);
- ``twist``: the next round's Plot Twist; ``hand``: the hand passed or dealt to me when it
  holds cards I have not seen; ``middle``: the unchosen cards turned face up for the BSI
  Bonus when some were never seen (a 5-player round);
- solo: ``holmes`` Holmes's random pick, ``track`` the card the Holmes Track gives him,
  ``check`` the deck III card a low token supply gives him, ``ok`` the confirmation of
  Holmes's arrest (the table computes it: the engine plays Holmes); a refill told for it
  confirms it too.

Solo, Holmes's pick: the engine draws it with its seeded chance; the table sets the state's
chance seed to the first of 0, 1, 2, ... (at most ``CHANCE_TRIES``) under which the engine
picks the card entered (the card is first forced into his hand), so the engine still plays
the whole cycle (payment, track, token checks, swap, his arrest).

A dealt game (``seeded``): the state is the real one and nothing is forced; told parts
other than ``ok`` are refused (the deal says what comes, and the accepted entry says it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deduce.core.errors import InputError
from deduce.models.irregulars import rules
from deduce.models.irregulars.forcing import Guess
from deduce.models.irregulars.rules import HOLMES_SEAT, TOKEN_CHECK_DECK

CHANCE_TRIES = 400
#: the order the missing parts are asked in; ``FIRST``: asked alone (what follows in the
#: entry depends on them)
ORDER = ("holmes", "track", "check", "refill", "ok", "twist", "hand", "middle")
FIRST = ("holmes", "track", "check")
TOLD_KEYS = ("refill", "twist", "hand", "middle", "holmes", "track", "check")
#: how each told part is typed (in messages)
TOLD_WORDS = {"refill": "refill VILLAIN (the Villain drawn into the row)",
              "twist": "twist PLOT-TWIST (the next round's Plot Twist)",
              "hand": "hand CARD, ... (the hand you now hold)",
              "middle": "middle CARD, ... (the unchosen cards, face up)",
              "holmes": "holmes CARD (Holmes's random pick)",
              "track": "track CARD (the card the Holmes Track gives him)",
              "check": "check CARD (the deck III card he gets: a supply is low)",
              "ok": "ok (to confirm Holmes's arrest)"}


#: the same, short (what a waiting entry says)
TOLD_SHORT = {k: v.split(" (")[0] for k, v in TOLD_WORDS.items()}


@dataclass(frozen=True)
class Picks:
    """Investigate (multi): every player's pick of the cycle, revealed together (None: the
    player could afford no card and passed the whole hand)."""

    picks: dict[str, str | None]

    def to_json(self) -> dict:
        return {"action": "picks", "picks": dict(self.picks)}


@dataclass(frozen=True)
class Reveal:
    """Another player's Inspector, shown (at the end, for the score)."""

    player: str
    inspector: str

    def to_json(self) -> dict:
        return {"action": "inspector", "player": self.player, "inspector": self.inspector}


@dataclass
class Told:
    """What an entry says came (None: not said)."""

    refill: list[str] | None = None
    twist: str | None = None
    hand: list[str] | None = None
    middle: list[str] | None = None
    holmes: str | None = None
    track: str | None = None
    check: str | None = None
    ok: bool = False

    def to_json(self) -> dict:
        out = {k: getattr(self, k) for k in TOLD_KEYS if getattr(self, k) is not None}
        if self.ok:
            out["ok"] = True
        return out

    def merge(self, more: "Told") -> "Told":
        out = Told(**{k: getattr(self, k) for k in TOLD_KEYS}, ok=self.ok or more.ok)
        for key in TOLD_KEYS:
            value = getattr(more, key)
            if value is None:
                continue
            if getattr(out, key) is not None:
                raise InputError(f"{key} is already said for this entry")
            setattr(out, key, value)
        return out

    def given(self) -> list[str]:
        return [k for k in TOLD_KEYS if getattr(self, k) is not None] + (["ok"] if self.ok else [])


@dataclass
class Played:
    """The state after an entry, or what it still waits for (``missing``)."""

    state: Any
    missing: list[str] = field(default_factory=list)
    holmes_arrest: tuple[str, tuple[str, ...]] | None = None


def play(state, action, told: Told, me: int, seeded: bool,
         revealed: dict[str, str] | None = None) -> Played:
    """Play one entry on a copy of ``state`` (see the module docstring); ``InputError``
    with the reason when the rules or what ``me`` has seen refuse it."""
    if state.is_over() and not isinstance(action, Reveal):
        raise InputError("the game is over (undo takes back the last entry)")
    if seeded:
        extra = [k for k in TOLD_KEYS if getattr(told, k) is not None]
        if extra:
            raise InputError(f"the program dealt this game and says what comes: leave out "
                             f"{', '.join(extra)}")
    trial = state.clone()
    if isinstance(action, Reveal):
        return Played(_reveal(trial, action, told, me, revealed or {}, seeded))
    guess = None if seeded else Guess(trial, me)
    solo_pick = trial.solo and isinstance(action, (rules.Pick, rules.PassHand))
    if guess is not None:
        _before(guess, state, action, told, solo_pick)
    if isinstance(action, Picks):
        _picks(trial, action)
    elif solo_pick and guess is not None and told.holmes is not None and state.hands[HOLMES_SEAT]:
        trial = _holmes_pick(trial, action, told.holmes)
        guess.state = trial
    else:
        trial.apply(action)
    played = Played(trial)
    _needs(played, state, told, me, seeded, solo_pick, guess)
    first = [m for m in played.missing if m in FIRST]
    if first:  # what follows depends on them: ask for them first
        played.missing, played.holmes_arrest = first, None
    played.missing.sort(key=ORDER.index)
    if played.missing or guess is None:
        return played
    if told.hand is not None:
        guess.hand_is(told.hand, me, "your hand")
    if told.middle is not None:
        guess.middle_is(told.middle)
    return played


def _reveal(trial, action: Reveal, told: Told, me: int, revealed: dict[str, str],
            seeded: bool):
    """Another player's Inspector shown: it becomes theirs in the state (a guess that gave
    it to someone else gives that player the one guessed here)."""
    if told.given():
        raise InputError("an Inspector shown takes no other part")
    if trial.solo:
        raise InputError("solo: Holmes has no Inspector and yours is known")
    if seeded:
        raise InputError("the program dealt the Inspectors: the score knows them")
    seat = trial.names.index(action.player)
    if seat == me:
        raise InputError(f"your Inspector is known: {trial.inspectors[me]}")
    if action.player in revealed:
        raise InputError(f"{action.player}'s Inspector is shown already: "
                         f"{revealed[action.player]}")
    if action.inspector == trial.inspectors[me]:
        raise InputError(f"{action.inspector} is your Inspector")
    for other, ident in revealed.items():
        if ident == action.inspector:
            raise InputError(f"{ident} is {other}'s Inspector")
    if action.inspector in trial.inspectors:
        holder = trial.inspectors.index(action.inspector)
        trial.inspectors[holder] = trial.inspectors[seat]
    trial.inspectors[seat] = action.inspector
    return trial


def _before(guess: Guess, state, action, told: Told, solo_pick: bool) -> None:
    """Force what the entry states before it is played."""
    st = guess.state
    if isinstance(action, Picks):
        names = st.names
        passes = []
        for name, card in action.picks.items():
            seat = names.index(name)
            if seat == guess.me:
                continue
            if card is None:
                passes.append((seat, name))
            else:
                guess.into_hand(card, seat, f"{name}'s hand")
        for seat, name in passes:
            guess.cannot_afford(seat, name)
    if told.holmes is not None:
        if not solo_pick or not state.hands[HOLMES_SEAT]:
            raise InputError("Holmes picks only after your pick (or pass), from his hand")
        guess.into_hand(told.holmes, HOLMES_SEAT, "Holmes's hand")
    if told.refill:
        guess.villain_tops(told.refill)
    if told.twist is not None:
        guess.twist_top(told.twist)
    draws: dict[int, list[str]] = {}
    if told.track is not None:
        if not solo_pick:
            raise InputError("the Holmes Track gives a card only after a solo pick")
        deck = st.cards.holmes_track[st.cycle - 1]
        if not deck:
            raise InputError(f"the Holmes Track's space of cycle {st.cycle} shows no deck")
        draws[deck] = [told.track]
    if told.check is not None:
        if not solo_pick:
            raise InputError("the token check gives a card only after a solo pick")
        draws.setdefault(TOKEN_CHECK_DECK, []).append(told.check)
    for deck, cards in draws.items():
        guess.deck_tops(deck, cards)


def _picks(trial, action: Picks) -> None:
    """Every pick of the cycle, in the engine's seat order (it checks each)."""
    names = trial.names
    if trial.phase != rules.INVESTIGATE or trial.solo:
        raise InputError(f"the picks belong to the investigate phase, this is the "
                         f"{rules.PUBLIC_PHASE[trial.phase]} phase")
    cycle = trial.cycle
    while trial.phase == rules.INVESTIGATE and trial.cycle == cycle:
        name = names[trial.current_player()]
        card = action.picks[name]
        trial.apply(rules.PassHand() if card is None else rules.Pick(card))


def _holmes_pick(trial, action, card: str):
    """Play the solo pick under the first chance seed with which the engine's Holmes
    picks ``card`` (already in his hand)."""
    before = len(trial.owned[HOLMES_SEAT])
    for seed in range(CHANCE_TRIES):
        t = trial.clone()
        t.chance_seed = seed
        t.apply(action)
        if t.owned[HOLMES_SEAT][before:before + 1] == [card]:
            return t
    raise InputError(f"no chance seed among {CHANCE_TRIES} makes Holmes pick {card} (cap)")


def _needs(played: Played, state, told: Told, me: int, seeded: bool, solo_pick: bool,
           guess: Guess | None) -> None:
    """What chance gave in ``played.state`` that ``told`` leaves unsaid (the missing
    parts), and a refusal of a part the entry has no use for."""
    trial = played.state
    missing = played.missing
    drawn = len(state.villain_deck) - len(trial.villain_deck)
    said = len(told.refill or ())
    if said > drawn:
        raise InputError(f"this entry draws {drawn} Villain{'s' if drawn != 1 else ''} into "
                         f"the row, not {said}")
    if said < drawn and not seeded:
        missing.append("refill")
    twisted = len(trial.twists) < len(state.twists)
    if told.twist is not None and not twisted:
        raise InputError("this entry reveals no Plot Twist (a new round does)")
    if twisted and told.twist is None and not seeded:
        missing.append("twist")
    if solo_pick and state.hands[HOLMES_SEAT] and told.holmes is None and not seeded:
        missing.append("holmes")
    if solo_pick:
        _draws(trial, state, told, seeded, missing)
    new_hand = _new_hand(trial, state, me)
    if told.hand is not None and not new_hand:
        raise InputError("no new hand reaches you with this entry")
    if new_hand and told.hand is None and guess is not None and \
            any(c not in guess.fixed for c in trial.hands[me]):
        missing.append("hand")
    bonus = trial.phase == rules.BONUS and state.phase != rules.BONUS
    if told.middle is not None and not bonus:
        raise InputError("the middle is turned face up when the BSI Bonus begins")
    if bonus and told.middle is None and guess is not None and \
            any(c not in guess.fixed for c in trial.middle):
        missing.append("middle")
    arrested = trial.arrested[HOLMES_SEAT][len(state.arrested[HOLMES_SEAT]):] \
        if trial.solo else []
    if arrested:
        villain = arrested[0]
        used = tuple(c for c in trial.owned[HOLMES_SEAT]
                     if c in trial.used[HOLMES_SEAT] and c not in state.used[HOLMES_SEAT])
        played.holmes_arrest = (villain, used)
        if not told.ok and not told.refill:
            missing.append("ok")
    elif told.ok:
        raise InputError("Holmes arrests nobody with this entry: nothing to confirm")


def _draws(trial, state, told: Told, seeded: bool, missing: list[str]) -> None:
    """Solo: the cards Holmes got from the decks this cycle (the track's first, then the
    token check's) against those told."""
    picked = 1 if state.hands[HOLMES_SEAT] else 0
    extra = trial.owned[HOLMES_SEAT][len(state.owned[HOLMES_SEAT]) + picked:]
    deck = trial.cards.holmes_track[state.cycle - 1]
    track = bool(deck) and bool(state.decks[deck]) and bool(extra)
    check = len(extra) - track > 0
    if told.track is not None and not track:
        raise InputError("the Holmes Track gives Holmes no card this cycle")
    if told.check is not None and not check:
        raise InputError("the token check gives Holmes no card this cycle")
    if seeded:
        return
    if track and told.track is None:
        missing.append("track")
    if check and told.check is None:
        missing.append("check")


def _new_hand(trial, state, me: int) -> bool:
    """Did a hand reach ``me`` (passed, swapped or dealt)?"""
    if trial.phase == rules.BONUS or trial.is_over():
        return False
    if (trial.round, trial.deal) != (state.round, state.deal):
        return True
    return len(trial.packets) > len(state.packets) and bool(trial.hands[me])
