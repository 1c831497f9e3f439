"""A campaign of cases: the starting character (R003, A000), the end of a case (R007 loss,
R010 Luck) and spending Solve Modifier points between cases (R010).

Records are the ``state`` JSON records. ``new_record`` starts a first case; ``end_case``
turns a finished case into the record between cases (``"phase": "between"``, ``"outcome"``
kept, ``"sm"`` is what may be spent); the ``spend_*`` functions spend it (``InputError`` if
unaffordable or not allowed); ``next_record`` starts the next case from it. The ``between``
phase is what keeps a case from being closed twice (R010's Luck counted twice) and a
finished case from being spent or continued before it is closed; ``parse_record`` does not
read it (there is no case to play), ``check_between`` checks such a record instead.

Decisions: a Villain arrested or killed is ruled out of later cases; wounds, Addiction and
Madness heal between cases; Lestrade killed in a case is replaced as if by the loss table's
5; a Watson who went home Seriously Wounded is back for the next case; SM left unspent is
kept until the next case starts, where at most 1 of it goes on (R001) and the rest is lost;
a won case needs its revealed Villain (it is ruled out of later cases); an Inspector killed
is barred for the next two cases (R007 5: "this" case is the one he died in); the loss
table's 5 when Lestrade is already dead kills his replacement; a fourth Friend replaces one
only when the player names which (R010).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.data import Data, shown
from deduce.models.detective_story.state import (
    BETWEEN,
    GAME,
    HOLMES_KILLED,
    OUTCOMES,
    TIME_UP,
    VERSION,
    Case,
    outcome_text,
    CaseFile,
    case_to_record,
    parse_record,
)
from deduce.models.detective_story.worlds import PlainDecisions, Sampler

DEFAULT_TRAITS = ("Aware", "Charisma", "Tracking")


def _roll(rng: random.Random, line: tuple[str, ...]) -> str:
    return line[rng.randint(1, 6) - 1]


def check_traits(traits) -> list[str]:
    names = [resolve(t, T.STARTING_TRAITS, "starting trait", where="--traits") for t in traits]
    if len(names) != T.START_TRAIT_COUNT or len(set(names)) != len(names):
        raise InputError(f"choose {T.START_TRAIT_COUNT} different Traits from: "
                         f"{', '.join(T.STARTING_TRAITS)} (R003)", where="--traits")
    return names


def folder_field(data_dir: str | None) -> str | None:
    """The record's ``data`` field for the campaign folder ``data_dir`` (``--data``): its
    absolute path, so the record finds it from anywhere (None: the shipped campaign)."""
    return str(Path(data_dir).resolve()) if data_dir else None


def new_record(data: Data, adventure: str | None = None, seed: int | None = None,
               traits=DEFAULT_TRAITS, equipment: str | None = None,
               data_dir: str | None = None) -> dict:
    """A first case at turn 1: Holmes 9/5/7 with 3 Traits, 4 Luck, Watson, 1d6 equipment,
    1d6 Adventure (A000) unless given; the Adventure's start rules applied (seeded).
    ``data_dir``: the campaign folder the data came from (None: the shipped campaign)."""
    rng = random.Random(seed)
    adv = data.adventure(adventure) if adventure else data.adventures.get(_roll(rng, data.campaign.first_case))
    if adv is None:
        raise InputError("the campaign's first_case roll names a missing Adventure", where="campaign")
    if equipment:
        equipment = resolve(equipment, [p for p, x in data.paragraphs.items() if x.kind == "equipment"],
                            "equipment", where="--equipment",
                            aliases={x.title: p for p, x in data.paragraphs.items() if x.kind == "equipment"})
    else:
        equipment = _roll(rng, data.campaign.equipment)
    names = check_traits(traits)
    rec = {
        "game": GAME, "version": VERSION, "data": folder_field(data_dir),
        "campaign": data.campaign.id,
        "adventure": adv.id, "first_case": True, "seed": seed, "phase": "action",
        "waited": False, "turn": 1, "sm": 0, "luck": T.START_LUCK, "villain": None,
        "motive": None, "villain_meetings": 0, "bonus": None, "trapped": False,
        "investigate_next": False, "clue_found": False, "seek_closed": [], "location": None,
        "holmes": {"brains": T.HOLMES_START["Brains"], "brawn": T.HOLMES_START["Brawn"],
                   "bravery": T.HOLMES_START["Bravery"], "traits": {n: 1 for n in names},
                   "wounded": False, "addiction": 0, "madness": 0},
        "equipment": [equipment],
        "watson": {"brains": T.WATSON_START["Brains"], "brawn": T.WATSON_START["Brawn"],
                   "bravery": T.WATSON_START["Bravery"], "traits": dict(T.WATSON_TRAITS),
                   "wounded": False, "addiction": 0, "madness": 0},
        "watson_here": True, "allies": [], "friends": [],
        "inspector": {"status": "lestrade", "barred_cases": 0},
        "gone": [], "dead": [], "visited": [], "ruled_out": [], "outcome": None,
        "log": [f"case opened: {adv.id} {adv.name}; equipment {equipment}"],
    }
    return _start(data, rec, rng)


def _start(data: Data, rec: dict, rng: random.Random) -> dict:
    """Apply the Adventure's "start" special rules with seeded dice (a fight there is
    fought the plain way: ``worlds.PlainDecisions``)."""
    cf = parse_record(rec, "new case", data)
    if not any(s.when == "start" for s in cf.ctx.adventure.special):
        return rec
    w = Sampler(rng, PlainDecisions(), cf.ctx, log=True)
    case = E.specials(w, cf.ctx, cf.case, "start", lambda w, c: c)
    return case_to_record(cf, case, log=w.log)


# ----------------------------------------------------------------------------- end of a case


def case_to_close(case: Case, phase: str, time_up: bool = False) -> Case:
    """The case ``deduce story end`` closes: ``case`` once it is over; with ``time_up``, the
    case lost on time, only at turn 12 with no outcome (R007). ``InputError`` (field
    ``time_up``, or ``outcome`` for a case still running) otherwise."""
    if time_up:
        if case.over:
            raise InputError(f"the case is already over ({outcome_text(case.outcome)})",
                             field="time_up")
        if case.turn != T.TURNS:
            raise InputError(f"the record is at turn {case.turn}: a case runs to the end of "
                             f"turn {T.TURNS} (R007)", field="time_up")
        return case._replace(outcome=TIME_UP)
    if not case.over:
        raise InputError(f"the case is still running (turn {case.turn}, phase {phase}); close "
                         "it once it is over (outcome set), or with --time-up once turn "
                         f"{T.TURNS} is played without an arrest", field="outcome")
    return case


def close_case(cf: CaseFile, case: Case, rng: random.Random) -> tuple[dict, tuple | None]:
    """``end_case``, and the loss table's roll as ``(face, result)`` (None if not rolled)."""
    if not case.over:
        raise InputError("the case is not over yet", field="outcome")
    if case.won and case.villain is None:
        raise InputError(f"a won case ({outcome_text(case.outcome)}) needs its revealed Villain",
                         field="villain")
    rec = copy.deepcopy(case_to_record(cf, case))
    log = [f"case closed: {outcome_text(case.outcome)}"]
    roll = None
    insp = dict(rec.get("inspector") or {"status": "lestrade", "barred_cases": 0})
    insp["barred_cases"] = max(0, insp.get("barred_cases", 0) - 1)
    if case.won:
        rec["luck"] = case.luck + case.sm
        rec["ruled_out"] = sorted(set(rec.get("ruled_out", [])) | {case.villain})
        log.append(f"+{case.sm} Luck from the SM (R010)")
    elif case.outcome != HOLMES_KILLED:
        broke = case.sm == 0 and case.luck == 0
        rec["sm"] = 0
        rec["luck"] = case.luck - T.luck_lost_on_defeat(case.luck)
        if broke:
            face = rng.randint(1, 6)
            result = T.LOSS_TABLE[face]
            roll = (face, result)
            log.append(f"lost with no SM and no Luck: loss table 1d6 {face}: "
                       f"{T.LOSS_WORDS[result]}")
            if result == "holmes_killed":
                rec["outcome"] = HOLMES_KILLED
            elif result == "watson_killed":
                rec["watson"] = None
            elif result == "lestrade_killed":
                _inspector_killed(insp)
    inspector = cf.data.campaign.inspector
    if inspector and inspector in case.dead:
        _inspector_killed(insp)
    if "watson" in case.dead:
        rec["watson"] = None
    rec["watson_here"] = bool(rec.get("watson_here")) and rec.get("watson") is not None
    rec["friends"] = [f for f in rec.get("friends", []) if f["id"] not in case.dead]
    rec["inspector"] = insp
    rec["phase"] = BETWEEN
    rec["waited"] = False
    rec["log"] = list(rec.get("log", [])) + log
    return rec, roll


def end_case(cf: CaseFile, case: Case, rng: random.Random) -> dict:
    """The record between cases after ``case`` ended (R007 defeat, R010 Luck).

    Won: Luck += SM (before any is spent); the SM stays to be spent. Lost: SM is lost and
    half the Luck (rounded up); with no SM and no Luck the 1d6 loss table is rolled.
    """
    return close_case(cf, case, rng)[0]


def _inspector_killed(insp: dict) -> None:
    """Lestrade dies: a new Inspector takes his place; the new one dies: no Inspector joins
    for the next two cases (R007 5; ``barred_cases`` counts the cases still barred)."""
    if insp["status"] == "lestrade":
        insp["status"] = "replacement"
    else:
        insp["barred_cases"] = T.INSPECTOR_BAR_CASES - 1


def game_over(rec: dict) -> bool:
    return rec.get("outcome") == HOLMES_KILLED


def _between(rec: dict) -> None:
    if rec.get("outcome") is None:
        raise InputError("SM is spent after a case (R010); this case is still open", field="outcome")
    if rec.get("phase") != BETWEEN:
        raise InputError(f"the case is over ({outcome_text(rec['outcome'])}) but not closed: "
                         "close it first "
                         "(deduce story end), which applies R007/R010", field="phase")
    if game_over(rec):
        raise InputError("Holmes is dead: the game is over", field="outcome")


def check_between(raw, where: str, data: Data) -> dict:
    """``raw``, its names made canonical, if it is a well-formed record between cases, else
    ``InputError`` naming ``where`` and the field. The sheets, friends, equipment and the
    rest are checked by ``parse_record`` on a copy with the closed case's own fields
    cleared."""
    if not isinstance(raw, dict):
        raise InputError("expected a JSON object (a case record)", where=where)
    if raw.get("phase") != BETWEEN:
        if raw.get("outcome") is None:
            msg = f"the case is still running (turn {raw.get('turn')}); it has no outcome yet"
            fld = "outcome"
        else:
            msg = (f"the case is over ({outcome_text(raw.get('outcome'))}) but not closed: run "
                   "'deduce story end' on it first")
            fld = "phase"
        raise InputError(f"field '{fld}': {msg}", where=where, field=fld)
    if raw.get("outcome") not in OUTCOMES:
        raise InputError(f"field 'outcome': a closed case has one of {', '.join(OUTCOMES)}, "
                         f"got {raw.get('outcome')!r}", where=where, field="outcome")
    ruled = raw.get("ruled_out", [])
    if not isinstance(ruled, list):
        raise InputError(f"field 'ruled_out': expected a list, got {shown(ruled)}", where=where,
                         field="ruled_out")
    for i, v in enumerate(ruled):
        if not isinstance(v, str):
            raise InputError(f"field 'ruled_out[{i}]': expected a villain (a string), got "
                             f"{shown(v)}", where=where, field=f"ruled_out[{i}]")
    ruled = sorted({resolve(v, list(data.villains), "villain",
                            where=f"{where}: field 'ruled_out[{i}]'") for i, v in enumerate(ruled)})
    case_fields = ("phase", "outcome", "villain", "motive", "villain_meetings", "watson_here")
    probe = dict(raw, phase="action", outcome=None, villain=None, motive=None,
                 villain_meetings=0, watson_here=False, ruled_out=[])
    checked = dict(parse_record(probe, where, data).record, ruled_out=ruled)
    for key in case_fields:  # the closed case's own fields, as they were
        checked.pop(key, None)
        if key in raw:
            checked[key] = raw[key]
    return checked


def cheapest_purchase(rec: dict) -> int:
    """The SM the cheapest purchase open to the record between cases costs (R010)."""
    costs = [T.EQUIPMENT_COST] + ([T.FRIEND_COST] if rec.get("allies") else [])
    for who, start in (("holmes", T.HOLMES_START), ("watson", T.WATSON_START)):
        sheet = rec.get(who)
        if sheet is None:
            continue
        costs += [T.quality_cost(sheet[q.lower()]) for q in T.QUALITIES
                  if sheet[q.lower()] < start[q] + T.QUALITY_RAISE_CAP]
        levels = sheet.get("traits", {})
        costs += [T.TRAIT_COST[levels.get(t, 0)] for t in T.TRAITS
                  if levels.get(t, 0) < T.MAX_TRAIT and not (who == "holmes" and t == "Medicine")]
    return min(costs)


def _pay(rec: dict, cost: int, what: str) -> None:
    if rec["sm"] < cost:
        raise InputError(f"{what} costs {cost} SM; {rec['sm']} left (R010)", field="sm")
    rec["sm"] -= cost


def _who(rec: dict, who: str) -> dict:
    if who not in ("holmes", "watson") or rec.get(who) is None:
        raise InputError(f"expected holmes or watson (alive), got {who!r}", field="who")
    return rec[who]


def spend_quality(rec: dict, who: str, quality: str) -> dict:
    """+1 to a Quality for half its value in SM (rounded up), at most +4 in a campaign."""
    _between(rec)
    rec = copy.deepcopy(rec)
    q = resolve(quality, T.QUALITIES, "quality", where="quality").lower()
    sheet = _who(rec, who)
    start = (T.HOLMES_START if who == "holmes" else T.WATSON_START)[q.capitalize()]
    if sheet[q] >= start + T.QUALITY_RAISE_CAP:
        raise InputError(f"{who}'s {q} is already +{T.QUALITY_RAISE_CAP} (R010)", field="quality")
    _pay(rec, T.quality_cost(sheet[q]), f"raising {q} from {sheet[q]}")
    sheet[q] += 1
    return rec


def spend_trait(rec: dict, who: str, trait: str) -> dict:
    """Gain a Trait (3 SM) or raise it (1->2: 4 SM, 2->3: 6 SM); never above 3."""
    _between(rec)
    rec = copy.deepcopy(rec)
    name = resolve(trait, T.TRAITS, "trait", where="trait")
    if who == "holmes" and name == "Medicine":
        raise InputError("Holmes may never choose Medicine (R003)", field="trait")
    sheet = _who(rec, who)
    level = sheet.setdefault("traits", {}).get(name, 0)
    if level >= T.MAX_TRAIT:
        raise InputError(f"{name} is already {T.MAX_TRAIT} (R010)", field="trait")
    _pay(rec, T.TRAIT_COST[level], f"{name} {level}->{level + 1}")
    sheet["traits"][name] = level + 1
    return rec


def spend_equipment(rec: dict, data: Data, rng: random.Random) -> dict:
    """5 SM: roll 1d6 on the equipment line."""
    _between(rec)
    rec = copy.deepcopy(rec)
    _pay(rec, T.EQUIPMENT_COST, "equipment")
    rec["equipment"] = list(rec.get("equipment", [])) + [_roll(rng, data.campaign.equipment)]
    return rec


def surviving_allies(rec: dict) -> list[str]:
    """The Allies with Holmes at the end of the case (who may become Friends, R010);
    ``InputError`` (field ``allies``) if there is none."""
    allies = _ally_ids(rec)
    if not allies:
        raise InputError("no Ally was with Holmes at the end of the case", field="allies")
    return allies


def _ally_ids(rec: dict) -> list[str]:
    return [a["id"] for a in rec.get("allies", [])]


def spend_friend(rec: dict, data: Data, cid: str, split: tuple[int, int, int],
                 replace: str | None = None) -> dict:
    """6 SM: a surviving Ally of the case becomes a Friend: +4 Qualities split as
    ``split`` (Brains, Brawn, Bravery), and Aware if missing; at most 3 Friends, so with 3
    the new one replaces the Friend ``replace`` (Watson is not a Friend and stays)."""
    _between(rec)
    rec = copy.deepcopy(rec)
    if cid not in _ally_ids(rec):
        raise InputError(f"{cid} is not a surviving Ally of this case", field="friend")
    friends = rec.get("friends", [])
    if any(f["id"] == cid for f in friends):
        raise InputError(f"{cid} is already a Friend", field="friend")
    if replace is not None:
        if not any(f["id"] == replace for f in friends):
            raise InputError(f"{replace} is not a Friend; Friends: "
                             f"{', '.join(f['id'] for f in friends) or 'none'}", field="replace")
        friends = [f for f in friends if f["id"] != replace]
    if len(friends) >= T.MAX_FRIENDS:
        raise InputError(f"at most {T.MAX_FRIENDS} Friends (R010): name one to replace",
                         field="friend")
    if len(split) != 3 or sum(split) != T.FRIEND_QUALITY_POINTS or min(split) < 0:
        raise InputError(f"split {T.FRIEND_QUALITY_POINTS} points over Brains, Brawn, Bravery",
                         field="split")
    _pay(rec, T.FRIEND_COST, "a Friend")
    s = data.paragraphs[cid].character
    traits = dict(s.traits)
    traits.setdefault("Aware", 1)
    rec["friends"] = friends + [{"id": cid, "brains": s.brains + split[0],
                                 "brawn": s.brawn + split[1], "bravery": s.bravery + split[2],
                                 "traits": traits}]
    return rec


def next_record(rec: dict, data: Data, adventure: str, seed: int | None = None,
                data_dir: str | None = None) -> dict:
    """The next case's record at turn 1 (SM at most 1, Friends along, wounds healed);
    ``data_dir``: the campaign folder given for it (None: the record's ``data`` stays)."""
    _between(rec)
    rng = random.Random(seed)
    adv = data.adventure(adventure)
    out = copy.deepcopy(rec)

    def healed(m: dict | None) -> dict | None:
        return None if m is None else dict(m, wounded=False, addiction=0, madness=0)

    out.update(
        adventure=adv.id, first_case=False, seed=seed, phase="action", waited=False, turn=1,
        sm=min(rec["sm"], T.START_SM_CAP), villain=None, motive=None, villain_meetings=0,
        bonus=None, trapped=False, investigate_next=False, clue_found=False, seek_closed=[],
        location=None, holmes=healed(rec["holmes"]), watson=healed(rec.get("watson")),
        watson_here=rec.get("watson") is not None,
        allies=[{"id": f["id"], "wounded": False, "addiction": 0, "madness": 0}
                for f in rec.get("friends", [])],
        gone=[], dead=[], visited=[], outcome=None,
        log=list(rec.get("log", [])) + [f"case opened: {adv.id} {adv.name}"],
    )
    line, ruled = set(adv.line(T.VILLAIN)), set(out.get("ruled_out", []))
    if line <= ruled:
        ruled -= line  # every Villain of this Adventure has been caught: they all return
    out["ruled_out"] = sorted(ruled)
    out = _start(data, out, rng)
    if data_dir:
        out["data"] = folder_field(data_dir)
    return out
