"""What the player's observations still allow: who the Villain may be, and the Motive.

The hidden parts of a solo case are the Villain (until the Villain line's d6 reveals one,
R005a) and the Motive (until the 1d6 on the Villain's motives reveals it). What the
player has seen narrows them: the Adventure's Villain line less the Villains ruled out in
earlier cases (their faces are rolled again), the Villain once revealed, the Motive once
revealed. The rules engine draws the reveals from these distributions and ``odds``
shows them, so both read them from here.

Only the campaign data is needed (``data``, ``tables``), so ``state`` builds its
``Context`` from it.

>>> from deduce.models.detective_story.data import load_campaign
>>> a001 = load_campaign().adventures["a001"]
>>> villain_distribution(a001, frozenset({"c201"}))  # c201's two faces are rolled again
((0.25, 'c202'), (0.25, 'c204'), (0.5, 'c205'))
"""

from __future__ import annotations

from deduce.core.errors import InputError
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.data import Adventure, Villain


def villain_distribution(adventure: Adventure, ruled_out: frozenset) -> tuple:
    """``((probability, villain id), ...)``: the Villain line's d6 weighted by faces; faces
    of ruled-out Villains are rolled again (``InputError`` if every one is ruled out)."""
    faces = [v for v in adventure.line(T.VILLAIN) if v not in ruled_out]
    if not faces:
        raise InputError(f"every Villain of {adventure.id} is ruled out", field="ruled_out")
    counts: dict[str, int] = {}
    for v in faces:
        counts[v] = counts.get(v, 0) + 1
    return tuple((n / len(faces), v) for v, n in counts.items())


def motive_distribution(villain: Villain) -> tuple:
    """``((probability, motive index), ...)``: the 1d6 on ``villain``'s motives."""
    return tuple((len(m.faces) / 6, i) for i, m in enumerate(villain.motives))


def villain_candidates(ctx, case) -> list[dict]:
    """Who the Villain of ``case`` (a ``state.Case`` in the ``state.Context`` ``ctx``) may
    be, JSON-ready: before the reveal, the Villain line (``ctx.villain_dist``); after it,
    the one Villain, with the Motive (or the Motives still possible and their odds)."""
    data = ctx.data
    if case.villain is None:
        return [{"id": vid, "name": data.villains[vid].name, "p": p,
                 "sm_modifier": data.villains[vid].sm_modifier}
                for p, vid in ctx.villain_dist]
    v = data.villains[case.villain]
    if case.motive >= 0:
        m = v.motives[case.motive]
        motives = [{"motive": case.motive + 1, "text": m.text, "value": m.value, "p": 1.0}]
    else:
        motives = [{"motive": i + 1, "text": v.motives[i].text, "value": v.motives[i].value,
                    "p": p} for p, i in motive_distribution(v)]
    return [{"id": v.id, "name": v.name, "p": 1.0, "sm_modifier": v.sm_modifier,
             "brains": v.sheet.brains, "motives": motives}]
