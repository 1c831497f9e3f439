"""The advice in words: a short name for each choice (``action_words``) and why the best
one is best (``explain``): what it does for me now, read from the position alone.

- an arrest: the Villain, its points, the cards, the tail and the Holmes board it uses
  ("arrests Col. Sebastian Moran (V02) now with your tail: 8 points");
- a pick or a bonus card: the Villain it brings closest (icons of it my unused cards
  show, before and after: "completes 3 of Moriarty's icons", "shows every icon of Moran:
  arrestable"), what it adds to my best Inspector objective, and in a multiplayer pick
  the cards I pass on to the next player: one that cannot help them (they show its icons
  already: "the skull you pass cannot help Ben: he owns one");
- a tail: the Villain and the icons it still needs with the tail;
- a board, a board use, declining: what it does.
"""

from __future__ import annotations

from typing import Any, Sequence

from deduce.models.irregulars.cards import mask_icons
from deduce.models.irregulars.rules import (
    Arrest,
    Jump,
    NoArrest,
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

BOARD_WORDS = {"holmes": "jump to the front of the arresting order, or ignore one icon "
                         "in an arrest",
               "watson": "move up one place in the arresting order",
               "wiggins": "switch the Villain you tail"}


def _villain(position, ident: str) -> str:
    v = position.cards.villain_by_id[ident]
    return f"{v.name} ({v.id})"


def _card(position, ident: str) -> str:
    c = position.cards.evidence_by_id[ident]
    return f"{c.name} ({c.id}: {', '.join(c.icons)}, cost {c.cost})"


def action_words(position, action: Any) -> str:
    """A short name of ``action`` for a person."""
    if isinstance(action, Pick):
        return f"pick {_card(position, action.card)}"
    if isinstance(action, TakeCard):
        return f"take {_card(position, action.card)}"
    if isinstance(action, Arrest):
        extra = " and the Holmes board" if action.holmes else ""
        return (f"arrest {_villain(position, action.villain)} with "
                f"{', '.join(action.cards)}{extra}")
    if isinstance(action, Tail):
        return f"tail {_villain(position, action.villain)}"
    if isinstance(action, Wiggins):
        return f"Wiggins board: tail {_villain(position, action.villain)} instead"
    if isinstance(action, TakeBoard):
        return f"take the {action.board.capitalize()} board"
    if isinstance(action, Resupply):
        return ("resupply, keeping the tail (12 tokens)" if action.keep_tail
                else "resupply, taking the tailing token back (13 tokens)")
    return {PassHand: "pass the whole hand (no card affordable)", NoArrest: "no arrest",
            NoTail: "no tail", Jump: "Holmes board: jump to the front of the order",
            Watson: "Watson board: up one place in the order"}[type(action)]


def _shown(cards: Sequence) -> int:
    shown = 0
    for c in cards:
        shown |= c.mask
    return shown


def _allow(position, player: str, villain: str) -> int:
    tail = position.tailing[player]
    can_tail = tail is None and position.bsi[player].available > 0
    return ("holmes" in position.boards[player]) + (tail == villain or can_tail)


def card_effect(position, card_id: str) -> str:
    """What owning the card does for me: the Villain it brings closest, my objective."""
    from deduce.models.irregulars.greedy import Tally

    me = position.me
    cards = position.cards
    card = cards.evidence_by_id[card_id]
    before = _shown(position.unused(me))
    after = before | card.mask
    parts = []
    best = None
    for v in position.villains:
        vil = cards.villain_by_id[v]
        gain = (vil.mask & after & ~before).bit_count()
        if gain:
            key = (gain, vil.points)
            if best is None or key > best[0]:
                best = (key, vil)
    if best is not None:
        vil = best[1]
        have = (vil.mask & after).bit_count()
        total = vil.mask.bit_count()
        need = max(0, total - have - _allow(position, me, vil.id))
        gain = best[0][0]
        state = ("arrestable" if need == 0 else
                 f"{need} icon{'s' * (need != 1)} still missing")
        parts.append(f"shows {gain} new icon{'s' * (gain != 1)} of {vil.name} ({vil.points} "
                     f"points): {have} of {total} icons shown, {state}")
    else:
        parts.append("shows no icon a visible Villain still needs")
    inspector = cards.inspector_by_id[position.inspector]
    tally = Tally(position.owned(me))
    now = max(tally.value(o) for o in inspector.objectives)
    then = [tally.value(o, card) for o in inspector.objectives]
    if max(then) > now:
        k = then.index(max(then))
        parts.append(f"+{max(then) - now} for your objective "
                     f"\"{inspector.objectives[k].words()}\"")
    return "; ".join(parts)


def _next_player(position) -> str | None:
    """Who gets the hand I pass (multi, not in the round's last cycle)."""
    from deduce.models.irregulars.knowledge import expected_direction

    if position.solo or position.cycle >= 4:
        return None
    players = position.players
    step = 1 if expected_direction(position) == "left" else -1
    return players[(players.index(position.me) + step) % len(players)]


def passed_words(position, card_id: str) -> str | None:
    """A card I pass with the pick ``card_id`` that cannot help the next player (they
    show its icons already), in words; None when there is none."""
    nxt = _next_player(position)
    if nxt is None:
        return None
    theirs = _shown(position.unused(nxt))
    ev = position.cards.evidence_by_id
    for c in position.hand:
        if c == card_id:
            continue
        mask = ev[c].mask
        if mask & ~theirs == 0:
            icons = mask_icons(mask)
            return (f"the {' and '.join(icons)} you pass ({c}) cannot help {nxt}: their "
                    f"unused Evidence shows {'it' if len(icons) == 1 else 'both'} already")
    return None


def describe(position, action: Any) -> str:
    """``action_words`` and what the choice does for me now."""
    cards = position.cards
    me = position.me
    if isinstance(action, Arrest):
        vil = cards.villain_by_id[action.villain]
        uses = []
        if position.tailing[me] == action.villain:
            uses.append("your tail")
        if action.holmes:
            uses.append("the Holmes board")
        how = f" with {' and '.join(uses)}" if uses else ""
        return (f"Arrests {vil.name} ({vil.id}) now{how}: {vil.points} points, "
                f"using {len(action.cards)} card{'s' * (len(action.cards) != 1)} "
                f"({', '.join(action.cards)})")
    if isinstance(action, (Pick, TakeCard)):
        verb = "Pick" if isinstance(action, Pick) else "Take"
        text = f"{verb} {action.card}: {card_effect(position, action.card)}"
        if isinstance(action, Pick):
            passed = passed_words(position, action.card)
            if passed:
                text += f"; {passed}"
        return text
    if isinstance(action, Tail):
        vil = cards.villain_by_id[action.villain]
        shown = _shown(position.unused(me))
        need = max(0, (vil.mask & ~shown).bit_count() - 1
                   - ("holmes" in position.boards[me]))
        return (f"Tails {vil.name} ({vil.id}, {vil.points} points): with the tail "
                f"{need} icon{'s' * (need != 1)} still missing")
    if isinstance(action, TakeBoard):
        return (f"Takes the {action.board.capitalize()} board: next round, "
                f"{BOARD_WORDS[action.board]}")
    words = action_words(position, action)
    return words[0].upper() + words[1:]


def explain(position, ranked: Sequence[Any]) -> str:
    """Why the best of ``ranked`` (``advice.Estimate``s, best first) is best, in words."""
    best = ranked[0]
    text = (f"{describe(position, best.action)}. Estimated chance to win "
            f"{100 * best.p_win:.0f}% ± {100 * best.stderr:.0f} over {best.rollouts} rollouts")
    if len(ranked) > 1:
        nxt = ranked[1]
        text += f"; next best, {nxt.words}: {100 * nxt.p_win:.0f}%"
    return text + "."
