"""Everything one player cannot see, in one value: with a position and its log it fixes a
whole game state (``rules.State.from_parts``). The real state has one; a bot or the advice
samples one from its own knowledge (``knowledge.sample_hidden``), never from the real
state.

- ``hands``: the hand each other player holds now (multi), or Holmes's (solo);
- ``picked``: the cards other players have picked this cycle but not revealed yet (a
  player missing has not picked);
- ``middle``: the unchosen cards put face down in the middle in the round's last cycle;
- ``decks``: what is left of each Evidence deck (1-5), top first;
- ``villain_deck``: the Villains not in sight, top first;
- ``inspectors``: every player's Inspector (``me``'s as in the position);
- ``plot_twists``: the Plot Twists still to come, top first (multi).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Hidden:
    hands: dict[str, tuple[str, ...]]
    decks: dict[int, tuple[str, ...]]
    villain_deck: tuple[str, ...]
    inspectors: dict[str, str]
    plot_twists: tuple[str, ...] = ()
    picked: dict[str, str] = field(default_factory=dict)
    middle: tuple[str, ...] = ()
