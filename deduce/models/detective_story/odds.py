"""Exact odds of what an Action can bring this turn, from the case state alone.

``action_odds(ctx, case, action)`` gives, for an Action with a 2d6 table (R007a-e), the
modifier (with its parts and caps) and the probability of every row of the table; Rest
gives its Medicine rolls (R007f); Wait and escaping a trap give the Encounter Matrix only.
``encounter_odds`` is the Encounter Matrix this turn (R008): P(an event), after Wait too,
and the vertical die's columns; ``state_report`` adds who the Villain may be
(``knowledge``).

>>> from deduce.models.detective_story.tables import EXPLORE_TABLE
>>> dict(row_odds(EXPLORE_TABLE, 0))["2"]  # only a natural 2
0.027777777777777776
"""

from __future__ import annotations

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.knowledge import villain_candidates
from deduce.models.detective_story.state import Case, Context


def rows_label(row: T.Row) -> str:
    if row.hi is None:
        return f"{row.lo}+"
    return str(row.lo) if row.lo == row.hi else f"{row.lo}-{row.hi}"


def row_odds(table, mod: int) -> list[tuple[str, float]]:
    """``[(rows label, p), ...]`` of 2d6 + ``mod`` on ``table`` (every row, 0 if unreachable)."""
    acc = {rows_label(r): 0.0 for r in table}
    for s, p in E.TWO_D6:
        acc[rows_label(T.row_for(table, s + mod))] += p
    return list(acc.items())


def action_odds(ctx: Context, case: Case, action: str) -> dict:
    """What ``action`` can bring: modifier parts and each row's probability (JSON-ready)."""
    out: dict = {"action": action}
    if action in T.ACTION_TABLES:
        table = T.ACTION_TABLES[action]
        mod, parts = E.action_modifier(ctx, case, action)
        out["modifier"] = mod
        out["modifier_parts"] = [{"why": why, "value": n} for why, n in parts]
        texts = T.OUTCOME_TEXT[action]
        out["rows"] = [{"rows": label, "outcome": row.outcome, "text": texts[row.outcome], "p": p}
                       for (label, p), row in zip(row_odds(table, mod), table)]
    elif action == T.REST:
        out["heals"] = rest_odds(ctx, case)
    waited = action == T.WAIT
    out["encounter"] = encounter_odds(ctx, case, waited)
    return out


def rest_odds(ctx: Context, case: Case) -> list[dict]:
    """Each Medicine roll a healer could make now: target number and P(success)."""
    healers = []
    if case.watson is not None and ctx.watson is not None and ctx.watson.trait("Medicine"):
        healers.append(("Watson", ctx.watson.trait("Medicine")))
    healers += [(ctx.sheets[c].name, ctx.sheets[c].trait("Medicine")) for c, _ in case.allies
                if ctx.sheets[c].trait("Medicine")]
    needs = []
    for key, sheet, h in ctx.members(case):
        name = sheet.name
        if h[0]:
            needs.append((name, "Wounded", T.HEAL_WOUND))
        if h[1]:
            needs.append((name, f"Addiction {h[1]}", T.HEAL_ADDICTION))
        if h[2]:
            needs.append((name, f"Madness {h[2]}", T.HEAL_MADNESS))
    return [{"healer": hn, "patient": who, "condition": what, "target": target,
             "p": E.p_2d6_at_least(target - med)}
            for hn, med in healers for who, what, target in needs]


def encounter_odds(ctx: Context, case: Case, waited: bool = False) -> dict:
    """R008 this turn: P(an encounter) and the vertical die's columns."""
    band = T.band_for(min(case.turn, T.TURNS))
    bonus = T.WAIT_ENCOUNTER_BONUS if waited else 0
    return {"event_on": band.event_on, "bonus": bonus,
            "p_event": E.p_2d6_at_least(band.event_on - bonus),
            "p_event_after_wait": E.p_2d6_at_least(band.event_on - T.WAIT_ENCOUNTER_BONUS),
            "vertical_modifier": E.vertical_modifier(ctx, case),
            "columns": [{"column": col or "none", "p": p} for p, col in E.encounter_columns(ctx, case)]}


def state_report(ctx: Context, case: Case, phase: str = "action", waited: bool = False) -> dict:
    """Everything ``deduce story state`` shows, JSON-ready."""
    value = ctx.motive_value(case)
    members = []
    for key, sheet, h in ctx.members(case):
        members.append({"who": key, "name": sheet.name, "brains": sheet.brains,
                        "brawn": ctx.quality(sheet, h, "Brawn"), "bravery": sheet.bravery,
                        "traits": dict(sheet.traits), "wounded": bool(h[0]),
                        "addiction": h[1], "madness": h[2]})
    status = E.action_status(ctx, case)
    legal = [a for a, ok, _ in status if ok]
    return {
        "adventure": {"id": ctx.adventure.id, "name": ctx.adventure.name,
                      "london": ctx.adventure.london},
        "turn": case.turn, "phase": phase, "waited": waited, "outcome": case.outcome,
        "sm": case.sm, "motive_value": value, "can_arrest": ctx.can_arrest(case),
        "luck": case.luck,
        "bonus": {"action": case.bonus_action, "value": case.bonus} if case.bonus_action else None,
        "trapped": case.trapped, "investigate_allowed_by_event": case.unlock,
        "clue_found": case.clue, "seek_closed": sorted(case.blocked),
        "party": members,
        "villain": villain_candidates(ctx, case),
        "actions": [{"action": a, "legal": ok, "why_not": why} for a, ok, why in status
                    if a != T.ESCAPE_TRAP or case.trapped],
        "odds": [action_odds(ctx, case, a) for a in legal] if phase == "action" and not case.over else [],
        "encounter": encounter_odds(ctx, case, waited) if not case.over else None,
    }
