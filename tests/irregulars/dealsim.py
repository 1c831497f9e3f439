"""A small simulator of Baker Street Irregulars' deals for the knowledge tests, written
from the spec alone (independent of ``rules.py``): earlier rounds (or solo deals) leave
owned and gone cards, then the current deal is drawn, dealt and drafted at random (random
affordable picks, a null pick when nothing is affordable) up to a position, in any phase.
It gives the position JSON, ``me``'s log JSON and the truth (what each holder has now).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from deduce.models.irregulars.cards import DECKS, shipped_cards

CARDS = shipped_cards()
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")
REVERSE = [t.id for t in CARDS.plot_twists if t.effect == "reverse-passing"]
OTHER_TWISTS = [t.id for t in CARDS.plot_twists if t.effect != "reverse-passing"]


@dataclass
class Dealt:
    position: dict
    log: dict
    truth: dict  # holder (player or "middle") -> set of card ids now
    me: str


def simulate(rng: random.Random, players: int = 3, round_: int = 1, cycle: int = 1,
             phase: str = "investigate", solo: bool = False, me: int = 0,
             reverse: bool = False, rich: bool = False, engine: bool = False) -> Dealt:
    """One random deal up to (round_, cycle, phase); solo: ``cycle`` is 1-19, ``players``
    and ``round_`` are ignored. ``rich``: few tokens, so null picks happen. ``engine``: the
    engine's way of writing it (``me``'s face-down pick may show while drafting; the hands
    pass as the picks are revealed; solo: a new deal right after a deal's 4th cycle)."""
    names = ["Ann", "Holmes"] if solo else list(NAMES[:players])
    n = len(names)
    me_name = names[0 if solo else me]
    decks = {d: [c.id for c in CARDS.deck(d)] for d in DECKS}
    for d in DECKS:
        rng.shuffle(decks[d])
    cost = {c.id: c.cost for c in CARDS.evidence}
    owned: dict[str, list[str]] = {p: [] for p in names}
    gone: list[str] = []
    per_deck = 2 if solo else n
    if solo:
        deal, dcycle = (cycle - 1) // 4 + 1, (cycle - 1) % 4 + 1
        earlier = deal - 1
    else:
        deal, dcycle = round_, cycle
        earlier = round_ - 1
    for _ in range(earlier):  # an earlier round or deal: every card ends owned or gone
        draw = [decks[d].pop() for d in DECKS for _ in range(per_deck)]
        rng.shuffle(draw)
        for i, card in enumerate(draw):
            if i % 5 == 4:
                gone.append(card)
            else:
                owned[names[i // 5]].append(card)
    if solo and cycle > 1 and rng.random() < 0.5:  # a Holmes Track draw
        d = rng.choice(DECKS)
        owned["Holmes"].append(decks[d].pop())
    tokens = {p: rng.randint(0, 4) if rich else 13 for p in names}
    spent = {p: 0 for p in names}
    draw = [decks[d].pop() for d in DECKS for _ in range(per_deck)]
    rng.shuffle(draw)
    packets = [draw[5 * i:5 * i + 5] for i in range(n)]
    left = (round_ % 2 == 1) != reverse
    step = 1 if (left or solo) else -1
    twist = None
    if not solo:
        pool = list(OTHER_TWISTS)
        rng.shuffle(pool)
        twist = rng.choice(REVERSE) if reverse else pool.pop()
    cycles = []
    at = {j: j for j in range(n)}  # packet -> seat
    for c in range(1, dcycle + 1):
        holding = {at[j]: j for j in range(n)}
        mine = packets[holding[names.index(me_name)]]
        entry = {"hand": list(mine), "picks": {}}
        cycles.append(entry)
        if c == dcycle and phase == "investigate":
            mine_now = [x for x in mine if cost[x] <= tokens[me_name] - spent[me_name]]
            if engine and not solo and mine_now and rng.random() < 0.5:
                x = rng.choice(mine_now)
                mine.remove(x)
                entry["picks"] = {me_name: x}
            break
        for s, p in enumerate(names):
            packet = packets[holding[s]]
            if p == "Holmes":
                card = rng.choice(packet)
            else:
                ok = [x for x in packet if cost[x] <= tokens[p] - spent[p]]
                card = rng.choice(ok) if ok else None
            if card is not None:
                packet.remove(card)
                owned[p].append(card)
                spent[p] += min(cost[card], tokens[p] - spent[p])
            entry["picks"][p] = card
        if c < dcycle or (engine and phase != "investigate" and c < 4):
            at = {j: (at[j] + step) % n for j in range(n)}
        if engine and c == dcycle and phase != "investigate":
            if c < 4:
                holding = {at[j]: j for j in range(n)}
                cycles.append({"hand": list(packets[holding[names.index(me_name)]]),
                               "picks": {}})
            elif solo:  # the deal is over: the last cards are discarded, a new deal dealt
                gone += sorted(x for pk in packets for x in pk)
                draw = [decks[d].pop() for d in DECKS for _ in range(per_deck)]
                rng.shuffle(draw)
                packets = [draw[5 * i:5 * i + 5] for i in range(n)]
                at = {j: j for j in range(n)}
                cycles = [{"hand": list(packets[0]), "picks": {}}]
                deal += 1
    truth: dict[str, set] = {}
    last = dcycle == 4
    hand: list[str]
    me_packet = packets[{at[j]: j for j in range(n)}[names.index(me_name)]]
    if phase == "investigate" or not last or solo:
        for j in range(n):
            truth[names[at[j]]] = set(packets[j])
        hand = list(me_packet)
    else:
        middle = [x for j in range(n) for x in packets[j]]
        for p in names:
            truth[p] = set()
        hand = list(me_packet) if rng.random() < 0.5 else []
        if phase == "bonus":
            for p in names[:rng.randint(0, n - 1)]:
                if p != me_name and middle:
                    card = rng.choice(middle)
                    middle.remove(card)
                    owned[p].append(card)
            hand = list(middle)
            truth["middle"] = set()
        else:
            truth["middle"] = set(middle) - set(hand)
    rng.shuffle(hand)
    del truth[me_name]
    villains = [v.id for v in CARDS.villains]
    rng.shuffle(villains)
    order = list(names)
    rng.shuffle(order)
    position = {
        "game": "irregulars", "cards": "shipped", "mode": "solo" if solo else "multi",
        "players": names, "me": me_name, "round": 1 if solo else round_, "cycle": cycle,
        "phase": phase, "hand": hand,
        "evidence": {p: [{"card": x, "used": False} for x in owned[p]] for p in names},
        "bsi": {p: {"available": 13 - spent[p] - (13 - tokens[p]), "spent": spent[p] + 13 - tokens[p]}
                for p in names},
        "tailing": {p: None for p in names}, "villains": villains[:5],
        "arrested": {p: [] for p in names},
        "order": ["Holmes", me_name] if solo else order,
        "boards": {p: [] for p in names}, "inspector": CARDS.inspectors[0].id,
    }
    if twist:
        position["plot_twist"] = twist
    log = {"deal": deal, "direction": "left" if step == 1 else "right", "gone": gone,
           "cycles": cycles}
    return Dealt(position, log, truth, me_name)
