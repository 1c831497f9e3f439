"""What one player has seen of the current deal of Evidence (a round in the multiplayer
game, a deal of 4 cycles in solo): the hands that passed through their hands and every
revealed pick. It is the part of a player's observation the position does not hold; hand
tracking (``knowledge``) and the bots' redeterminisation read it.

JSON (``RoundLog.to_json``)::

    {"deal": 2,                       # the round (multi) or the deal (solo, 1-5)
     "direction": "left",             # where hands pass: left (clockwise) or right
     "gone": ["E003", "E018"],        # Evidence seen leaving play in earlier deals
     "cycles": [{"hand": ["E014", "E077", "E031", "E052", "E090"],
                 "picks": {"Ann": "E031", "Ben": "E040", "Cat": null}},
                {"hand": ["E011", "E058", "E060", "E099"], "picks": {}}],
     "twists": ["SIXN"]}              # optional: the Plot Twists of earlier rounds

``cycles[i].hand`` is the hand ``me`` held at the start of cycle ``i + 1`` of the deal;
``picks`` the cards each player took that cycle, once revealed (``null``: the player could
afford no card and passed the whole hand; a player missing: not revealed yet, so the last
cycle of a log may have no picks). In solo, Holmes's hand is seen when the hands are
swapped: it is ``me``'s next ``hand``, and his pick is his entry in ``picks``.
``twists`` (optional, multi; absent: none known) lists the Plot Twists revealed in the
earlier rounds, oldest first (the current one is the position's ``plot_twist``); the
sampler of hidden state draws the twists to come from the others (``to_json`` writes the
field only when it is not empty).

Two optional keys say where the current phase stands, public facts a position cannot hold:
``"acted"``, the players who have acted in the current phase, in order (investigate: who
has picked or passed; arrest, tail, bonus: who has had their turn, a player with nothing to
do counting as having had it; ``[]``: nobody yet; absent (``None``): not said, as in a log
written by hand: then the players before ``me`` in the phase's order have acted), and ``"final": true`` in the final
Arrest Phase after the 4th round's BSI Bonus (its position reads round 4, cycle 4, phase
arrest, like the 4th cycle's own Arrest Phase).

``parse_log`` checks it against the position it goes with (``where`` names the file in
messages): every id an Evidence card of the set, at most ``CYCLES_PER_DEAL`` cycles, the
hands of ``HAND_SIZE`` cards or fewer, each pick a player's, ``twists`` distinct Plot
Twists of the set (at most ``ROUNDS - 1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from deduce.core.fields import FieldReader
from deduce.core.names import resolve
from deduce.core.records import check_fields, json_kind
from deduce.models.irregulars.cards import EVIDENCE_CARDS, CardSet

DIRECTIONS = ("left", "right")
CYCLES_PER_DEAL = 4
HAND_SIZE = 5
LOG_KEYS = ("deal", "direction", "gone", "cycles")
OPTIONAL_KEYS = ("acted", "final", "twists")
EARLIER_TWISTS = 3  # rounds before the last
MAX_DEALS = 5


@dataclass(frozen=True)
class CycleSeen:
    """One cycle of a deal as ``me`` saw it: the hand held at its start and the revealed
    picks (player -> card id, or None for a player who passed the whole hand)."""

    hand: tuple[str, ...]
    picks: Mapping[str, str | None]

    def to_json(self) -> dict:
        return {"hand": list(self.hand), "picks": dict(self.picks)}


@dataclass(frozen=True)
class RoundLog:
    deal: int
    direction: str
    gone: tuple[str, ...] = ()
    cycles: tuple[CycleSeen, ...] = ()
    acted: tuple[str, ...] | None = None
    final: bool = False
    twists: tuple[str, ...] = ()

    def to_json(self) -> dict:
        out = {"deal": self.deal, "direction": self.direction, "gone": list(self.gone),
               "cycles": [c.to_json() for c in self.cycles]}
        if self.acted is not None:
            out["acted"] = list(self.acted)
        if self.final:
            out["final"] = True
        if self.twists:
            out["twists"] = list(self.twists)
        return out

    def seen(self) -> set[str]:
        """Every card id this log shows (hands, picks, cards gone)."""
        out = set(self.gone)
        for c in self.cycles:
            out.update(c.hand)
            out.update(v for v in c.picks.values() if v is not None)
        return out


def parse_log(data: Any, cards: CardSet, players: tuple[str, ...],
              where: str = "<log>", path: str = "log") -> RoundLog:
    """Check the parsed JSON ``data`` of a log (see the module docstring); errors name
    ``where`` and the field path under ``path``."""
    r = FieldReader(where)
    table = r.table(data, "deal, direction, gone and cycles", path)
    check_fields(table, LOG_KEYS, OPTIONAL_KEYS, fail=lambda m, k: r.fail(m, f"{path}.{k}"))
    deal = r.whole(table["deal"], 1, MAX_DEALS, "the deal", f"{path}.deal")
    direction = r.name(table["direction"], lambda t, where: resolve(
        t, DIRECTIONS, "direction", where=where), "left or right", f"{path}.direction")

    def card(value: Any, at: str) -> str:
        text = r.string(value, "an Evidence id", at)
        if text not in cards.evidence_by_id:
            raise r.fail(f"unknown Evidence id {text!r}", at)
        return text

    gone = tuple(card(v, f"{path}.gone[{i}]") for i, v in enumerate(
        r.listed(table["gone"], "Evidence ids", f"{path}.gone", EVIDENCE_CARDS)))
    cycles = []
    rows = r.listed(table["cycles"], "cycles", f"{path}.cycles", CYCLES_PER_DEAL)
    for i, row in enumerate(rows):
        at = f"{path}.cycles[{i}]"
        row = r.table(row, "hand and picks", at)
        check_fields(row, ("hand", "picks"), fail=lambda m, k, at=at: r.fail(m, f"{at}.{k}"))
        hand = tuple(card(v, f"{at}.hand[{j}]") for j, v in enumerate(
            r.listed(row["hand"], "Evidence ids", f"{at}.hand", HAND_SIZE)))
        picks = {}
        for name, v in r.table(row["picks"], "player: card id or null", f"{at}.picks").items():
            if name not in players:
                raise r.fail(f"{name!r} is not a player (players: {', '.join(players)})",
                             f"{at}.picks.{name}")
            picks[name] = None if v is None else card(v, f"{at}.picks.{name}")
        cycles.append(CycleSeen(hand, picks))
    acted: list[str] | None = None if table.get("acted") is None else []
    for i, name in enumerate(r.listed(table.get("acted") or [], "player names", f"{path}.acted",
                                      len(players))):
        at = f"{path}.acted[{i}]"
        if r.string(name, "a player name", at) not in players:
            raise r.fail(f"{name!r} is not a player (players: {', '.join(players)})", at)
        if name in acted:
            raise r.fail(f"{name!r} is listed twice", at)
        acted.append(name)
    final = table.get("final", False)
    if not isinstance(final, bool):
        raise r.fail(f"expected true or false, got {json_kind(final)}", f"{path}.final")
    twists = []
    for i, v in enumerate(r.listed(table.get("twists", []), "Plot Twist ids", f"{path}.twists",
                                   EARLIER_TWISTS)):
        text = r.string(v, "a Plot Twist id", f"{path}.twists[{i}]")
        if text not in cards.plot_twist_by_id:
            raise r.fail(f"unknown Plot Twist id {text!r}", f"{path}.twists[{i}]")
        if text in twists:
            raise r.fail(f"{text} is listed twice", f"{path}.twists[{i}]")
        twists.append(text)
    return RoundLog(deal, direction, gone, tuple(cycles), None if acted is None else tuple(acted),
                    final, tuple(twists))
