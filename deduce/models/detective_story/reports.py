"""What the ``deduce story`` commands report, as JSON-ready documents (the keys are the
commands' contracts, listed in their ``--help``); the CLI prints them with ``--json`` and
renders the same facts for people (``cli/story_view.py``). ``state``'s document is
``odds.state_report``.
"""

from __future__ import annotations

from deduce.core.errors import InputError
from deduce.models.detective_story.campaign import game_over
from deduce.models.detective_story.data import Adventure, Data
from deduce.models.detective_story.live import Turn
from deduce.models.detective_story.state import Case, CaseFile


def adventure_list(data: Data) -> list[dict]:
    """``story list``: ``[{"id", "name"}, ...]``."""
    return [{"id": a.id, "name": a.name} for a in data.adventures.values()]


# ----------------------------------------------------------------------------- advice
def check_reroll(cf: CaseFile) -> None:
    """A re-roll is advised for the Action's roll: ``InputError`` naming ``--roll`` unless
    the record is at the start of its turn."""
    if cf.phase != "action":
        raise InputError("the record's Action is done (phase encounter): a re-roll is "
                         "advised for the Action's roll", where="--roll")


def reroll_for(cf: CaseFile, action: str, roll: int, solver):
    """``advice.reroll_advice`` on the natural 2d6 ``roll`` just rolled for ``action`` at
    the start of the record's turn (``check_reroll``); ``InputError`` naming ``--roll``
    if the roll does not fit."""
    from deduce.models.detective_story.advice import reroll_advice  # numpy: only when asked

    check_reroll(cf)
    try:
        return reroll_advice(cf.ctx, cf.case, action, roll, solver=solver)
    except InputError as exc:
        raise InputError(str(exc), where="--roll") from None


def advice_document(cf: CaseFile, advice, reroll=None) -> dict:
    """``story advise``: the advice's JSON, with ``p_arrest`` after the Action or once the
    case is over, and ``reroll`` when a roll was asked about."""
    doc = advice.to_json()
    if cf.phase != "action" or cf.case.over:
        doc["p_arrest"] = advice.p_win
    if reroll is not None:
        doc["reroll"] = reroll.to_json()
    return doc


# ----------------------------------------------------------------------------- a turn
def turn_document(path: str, turn: int, action: str | None, done: Turn, record: dict) -> dict:
    """``story turn``: turn ``turn`` of the record in ``path`` played (``done``), the record
    written (``record``)."""
    c = done.case
    return {"file": path, "turn": turn, "action": action, "log": done.log,
            "answers": done.answers, "luck_spent": done.luck_spent, "phase": done.phase,
            "next_turn": None if c.over else record["turn"], "sm": c.sm, "luck": c.luck,
            "outcome": c.outcome}


# ----------------------------------------------------------------------------- between cases
def end_document(path: str, case: Case, record: dict, roll: tuple | None, seed: int) -> dict:
    """``story end``: ``case`` closed into the record between cases ``record`` (``roll``:
    the loss table's ``(face, result)``, if rolled)."""
    return {
        "file": path, "adventure": record["adventure"], "outcome": case.outcome,
        "won": case.won, "sm_at_end": case.sm, "sm_to_spend": record["sm"],
        "luck_at_end": case.luck, "luck_next": record["luck"],
        "loss_roll": {"die": roll[0], "result": roll[1]} if roll else None,
        "game_over": game_over(record), "watson_alive": record.get("watson") is not None,
        "inspector": record["inspector"], "ruled_out": record.get("ruled_out", []), "seed": seed,
    }


def purchase_document(path: str, before: dict, after: dict, bought: str, what: str,
                      **extra) -> dict:
    """``story spend``: what was bought (``bought``: quality, trait, equipment, friend;
    ``what``: in words), its cost and the SM left, then the purchase's own keys."""
    return {"file": path, "bought": bought, "what": what,
            "cost": before["sm"] - after["sm"], "sm_before": before["sm"],
            "sm_left": after["sm"], **extra}


def quality_purchase(path: str, before: dict, after: dict, who: str, quality: str) -> dict:
    """``spend quality``: also who, quality, from, to."""
    q = quality.lower()
    return purchase_document(path, before, after, "quality",
                             f"{who.capitalize()} {quality} {before[who][q]} -> {after[who][q]}",
                             who=who, quality=quality,
                             **{"from": before[who][q], "to": after[who][q]})


def trait_purchase(path: str, before: dict, after: dict, who: str, trait: str) -> dict:
    """``spend trait``: also who, trait, from, to (levels; 0: not held)."""
    lv = before[who].get("traits", {}).get(trait, 0)
    return purchase_document(path, before, after, "trait",
                             f"{who.capitalize()} {trait} {lv} -> {lv + 1}",
                             who=who, trait=trait, **{"from": lv, "to": lv + 1})


def equipment_purchase(path: str, before: dict, after: dict, data: Data, seed: int) -> dict:
    """``spend equipment``: also equipment (paragraph id), title, seed."""
    got = after["equipment"][-1]
    title = data.paragraphs[got].title
    return purchase_document(path, before, after, "equipment",
                             f"equipment {got} {title} (seed {seed})",
                             equipment=got, title=title, seed=seed)


def friend_purchase(path: str, before: dict, after: dict, data: Data, cid: str,
                    replace: str | None) -> dict:
    """``spend friend``: also friend (id, name, brains, brawn, bravery, traits), replaced."""
    sheet = dict(after["friends"][-1], name=data.paragraphs[cid].character.name)
    what = f"{sheet['name']} ({cid}) a Friend" + (f" in place of {replace}" if replace else "")
    return purchase_document(path, before, after, "friend", what, friend=sheet,
                             replaced=replace)


def next_document(path: str, source: str, adventure: Adventure, before: dict, record: dict,
                  seed: int) -> dict:
    """``story next``: the next case written to ``path`` from the record between cases
    ``before`` (read from ``source``); ``sm_forfeited``: the SM not carried over (R001)."""
    return {"file": path, "from": source, "adventure": adventure.id, "name": adventure.name,
            "turn": record["turn"], "sm": record["sm"],
            "sm_forfeited": before["sm"] - record["sm"], "luck": record["luck"],
            "watson_alive": record.get("watson") is not None,
            "friends": [f["id"] for f in record.get("friends", [])],
            "equipment": record.get("equipment", []), "seed": seed}
