"""Why a suspect is ruled out, or how they can still be the criminal.

``explain_suspect(record, card)``: if no world has ``card`` as the criminal, a minimal set of
events and hand facts that rules it out (``cnf.RecordCNF.explain_not_criminal``), each with
the icon counts that make it work; otherwise one consistent deal with ``card`` as criminal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deduce.models.sherlock13.cards import ICON_MATRIX, ICON_TOTALS, ICONS, SUSPECT_ICONS, SUSPECTS
from deduce.models.sherlock13.record import IconFact, Record, describe_event


@dataclass
class Explanation:
    record: Record
    card: int
    ruled_out: bool
    events: list[int] = field(default_factory=list)
    hand_facts: list[int] = field(default_factory=list)  # indices into record.hand
    world: dict | None = None

    def icon_notes(self) -> list[str]:
        """Per icon the cited events speak of: the deck total, the answers cited, and when
        they (with my cited cards) place every card of the icon in a hand, that conclusion."""
        notes = []
        names = self.record.names
        mine = [self.record.hand[k] for k in self.hand_facts]
        facts = [f for i in self.events for f in self.record.facts_of(i) if isinstance(f, IconFact)]
        for icon in sorted({f.icon for f in facts}):
            bearers = [s for s in SUSPECTS if ICONS[icon] in SUSPECT_ICONS[s]]
            cited = [f for f in facts if f.icon == icon]
            bounds = [f"{names[f.view.seat]} {f.lo if f.lo == f.hi else f'>={f.lo}'}" for f in cited]
            placed = {}
            for f in cited:
                placed[f.view.seat] = max(placed.get(f.view.seat, 0), f.lo)
            in_hands = sum(placed.values()) + sum(ICON_MATRIX[c, icon] for c in mine)
            note = (f"{ICONS[icon]}: {ICON_TOTALS[icon]} in the deck ({', '.join(bearers)}); "
                    f"cited answers: {', '.join(bounds)}")
            if in_hands >= ICON_TOTALS[icon] and not self.record.steps:  # no card moved
                note += f"; so all {ICON_TOTALS[icon]} are in hands and none is the criminal"
            notes.append(note)
        return notes

    def to_json(self) -> dict:
        names = self.record.names
        out = {"suspect": SUSPECTS[self.card], "ruled_out": self.ruled_out}
        if self.ruled_out:
            out["events"] = self.events
            out["event_texts"] = [describe_event(self.record.events[i], names) for i in self.events]
            out["hand_facts"] = [SUSPECTS[self.record.hand[k]] for k in self.hand_facts]
            out["icon_notes"] = self.icon_notes()
        else:
            w = self.world or {}
            out["world"] = {
                "criminal": SUSPECTS[w["criminal"]],
                "hands": {names[s]: [SUSPECTS[c] for c in cards] for s, cards in w["hands"].items()},
            }
            if w.get("sides"):
                out["world"]["face_down"] = {s: SUSPECTS[c] for s, c in w["sides"].items()}
        return out

    def text(self) -> str:
        name = SUSPECTS[self.card]
        names = self.record.names
        if self.ruled_out:
            lines = [f"{name} cannot be the criminal. These facts rule it out (a minimal set:"
                     f" drop any one and {name} is possible again):"]
            for k in self.hand_facts:
                lines.append(f"  hand: I hold {SUSPECTS[self.record.hand[k]]}")
            for i in self.events:
                lines.append(f"  event {i}: {describe_event(self.record.events[i], names)}")
            notes = self.icon_notes()
            if notes:
                lines.append("Icon counts:")
                lines += [f"  {n}" for n in notes]
            return "\n".join(lines)
        w = self.world or {}
        lines = [f"{name} may be the criminal. One deal that fits every event:"]
        for s, cards in w["hands"].items():
            who = f"{names[s]} (me)" if s == self.record.me else names[s]
            lines.append(f"  {who}: {', '.join(SUSPECTS[c] for c in cards)}")
        for side, c in (w.get("sides") or {}).items():
            lines.append(f"  face down {side}: {SUSPECTS[c]}")
        lines.append(f"  criminal: {name}")
        return "\n".join(lines)


def explain_suspect(record: Record, card: int) -> Explanation:
    """Explain ``card``'s status; ``ContradictionError`` if the record itself is contradictory."""
    from deduce.models.sherlock13.advice import contradiction
    from deduce.models.sherlock13.cnf import RecordCNF

    model = RecordCNF(record)
    if not model.is_consistent():
        raise contradiction(record)
    reason = model.explain_not_criminal(card)
    if reason is not None:
        events, hand = reason
        return Explanation(record, card, True, sorted(events), sorted(hand))
    return Explanation(record, card, False, world=model.witness(criminal=card))
