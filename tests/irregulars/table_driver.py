"""Test helper: a whole game played by the engine (random bots, seeded), entered at the
live table line by line as a player would type it, answering what the table waits for
from the real game; the table's observation is compared with the engine's after every
entry."""

from __future__ import annotations

import json
import random

from deduce.models.irregulars import rules
from deduce.models.irregulars.rules import HOLMES_SEAT

ME = 0


def start_position(real) -> dict:
    return real.observation(ME)["position"]


def what_came(key: str, before, real) -> str:
    """The part ``key`` (refill, twist, hand, ...) as typed, from the real game."""
    h = HOLMES_SEAT
    if key == "refill":
        return "refill " + ", ".join(v for v in real.row if v not in before.row)
    if key == "twist":
        return f"twist {real.twist}"
    if key == "hand":
        return "hand " + ", ".join(real.hands[ME])
    if key == "middle":
        return "middle " + ", ".join(real.middle)
    if key == "ok":
        return "ok"
    got = real.owned[h][len(before.owned[h]):]
    picked = bool(before.hands[h])
    if key == "holmes":
        return f"holmes {got[0]}"
    extra = got[picked:]
    deck = before.cards.holmes_track[before.cycle - 1]
    track = bool(deck) and bool(before.decks[deck])
    if key == "track":
        return f"track {extra[0]}"
    return f"check {extra[track]}"


def line_of(action) -> str:
    if isinstance(action, rules.Pick):
        return f"pick {action.card}"
    if isinstance(action, (rules.PassHand, rules.NoArrest, rules.NoTail)):
        return "pass"
    if isinstance(action, rules.Arrest):
        return (f"arrest {action.villain} with {', '.join(action.cards)}"
                + (" ignore" if action.holmes else ""))
    if isinstance(action, rules.Jump):
        return "jump"
    if isinstance(action, rules.Watson):
        return "watson"
    if isinstance(action, rules.Wiggins):
        return f"wiggins {action.villain}"
    if isinstance(action, rules.Tail):
        return f"tail {action.villain}"
    if isinstance(action, rules.TakeCard):
        return f"take {action.card}"
    if isinstance(action, rules.TakeBoard):
        return f"board {action.board}"
    return f"resupply {'keep' if action.keep_tail else 'back'}"


def play_through(session, real, rng: random.Random, lines: list[str] | None = None,
                 check=True) -> int:
    """Play ``real`` to its end with random choices, entering each step in ``session``;
    returns the number of entries. ``lines`` collects every line typed."""
    typed = lines if lines is not None else []

    def send(line: str):
        typed.append(line)
        return session.handle(line)

    while not real.is_over():
        before = real.clone()
        if real.phase == rules.INVESTIGATE and not real.solo:
            picks = {}
            while real.phase == rules.INVESTIGATE and real.cycle == before.cycle \
                    and real.round == before.round:
                seat = real.current_player()
                legal = real.legal_actions()
                a = legal[rng.randrange(len(legal))]
                picks[seat] = None if isinstance(a, rules.PassHand) else a.card
                real.apply(a)
            names = real.names
            first = send("pass" if picks[ME] is None else f"pick {picks[ME]}")
            assert first.kind == "info", first.message
            others = ", ".join(f"{names[s]} {'pass' if c is None else c}"
                               for s, c in sorted(picks.items()) if s != ME)
            reply = send(f"reveal {others}")
        else:
            legal = real.legal_actions()
            a = legal[rng.randrange(len(legal))]
            real.apply(a)
            reply = send(line_of(a))
        while reply.kind == "info" and session.pending is not None:
            reply = send(what_came(session.pending.missing[0], before, real))
        assert reply.kind == "accepted", (reply.message, typed[-3:])
        if check:
            assert session.observation() == real.observation(ME), typed[-3:]
    return len(session.record.entries)


def dump(lines: list[str]) -> str:
    return json.dumps(lines)
