"""The case state: an immutable ``Case`` (what changes turn by turn), a ``Context`` (what is
fixed for the whole case) and the JSON record a player keeps and updates by hand.

Record (``deduce story new`` writes it; every field is checked on load, an error names the
file and the field, exit 2)::

    {"game": "detective-story", "version": 1,
     "data": null,                     # campaign folder (null: the shipped campaign)
     "campaign": "fogbound", "adventure": "a001", "first_case": true, "seed": 7,
     "phase": "action",                # "action": choose an Action; "encounter": the Action
     "waited": false,                  #   is done, roll on the Encounter Matrix (Wait: +1)
     "turn": 1, "sm": 0, "luck": 4,
     "villain": null,                  # Casebook id once revealed
     "motive": null,                   # 1-based position in the Villain's motives once revealed
     "villain_meetings": 0,            # encounters with the revealed Villain (R005a)
     "bonus": null,                    # {"action": "Investigate", "value": 1}: +value next turn
     "trapped": false,                 # this turn is spent escaping a trap
     "investigate_next": false,        # Investigate allowed this turn by an event or Explore
     "clue_found": false, "seek_closed": [],   # Seek Information channels closed (R007d 4)
     "location": null,                 # a note: the last Location visited (null: 221B)
     "holmes": {"brains": 9, "brawn": 5, "bravery": 7, "traits": {"Aware": 1, ...},
                "wounded": false, "addiction": 0, "madness": 0},
     "equipment": ["m415"],            # Traits granted are added to Holmes's
     "watson": {"brains": 6, ..., "wounded": false, ...},   # null: Watson is dead
     "watson_here": true,              # false: he went home this case (R009b)
     "allies": [{"id": "m405", "wounded": false, "addiction": 0, "madness": 0}],
     "friends": [],                    # permanent companions: {"id", "brains", "brawn",
                                       #   "bravery", "traits"} (R010)
     "inspector": {"status": "lestrade", "barred_cases": 0},
     "gone": [], "dead": [],           # characters who left / were killed this case
     "visited": [],                    # "once" and "revisit" paragraphs already read
     "ruled_out": [],                  # Villains that cannot be this case's (e.g. arrested)
     "outcome": null, "log": []}

``Case`` holds only what the rules need (Health of Holmes, Watson and each Ally as
``(wounded, addiction, madness)``), so equal situations compare equal for the advisor's
memo. The record's ``location`` is the player's note of the last Location visited; the
rules engine does not keep a location between turns (see ``engine``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from deduce.core.errors import InputError
from deduce.core.games import refuse_other_game
from deduce.core.names import resolve
from deduce.core.records import read_json
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.data import Adventure, Data, Sheet, shown
from deduce.models.detective_story.knowledge import villain_distribution

GAME = "detective-story"
VERSION = 1
PHASES = ("action", "encounter")
#: the ``phase`` of a record between cases (its case closed by ``campaign.close_case``)
BETWEEN = "between"

#: outcomes of a case; the first two are wins
ARRESTED, VILLAIN_KILLED = "arrested", "villain_killed"
TIME_UP, HOLMES_WOUNDED, HOLMES_KILLED, LOST = "time_up", "holmes_wounded", "holmes_killed", "lost"
WON = (ARRESTED, VILLAIN_KILLED)
OUTCOMES = (ARRESTED, VILLAIN_KILLED, TIME_UP, HOLMES_WOUNDED, HOLMES_KILLED, LOST)
#: an outcome in words, for people (the record and JSON keep the tags above)
OUTCOME_WORDS = {ARRESTED: "the Villain is arrested", VILLAIN_KILLED: "the Villain is killed",
                 TIME_UP: "time is up (turn 12 ended without an arrest)",
                 HOLMES_WOUNDED: "Holmes is Seriously Wounded", HOLMES_KILLED: "Holmes is killed",
                 LOST: "the Villain escapes justice"}


def outcome_text(outcome: str | None) -> str:
    """``outcome`` in words (``time_up`` -> ``time is up (turn 12 ended without an arrest)``)."""
    return OUTCOME_WORDS.get(outcome, str(outcome))

Health = tuple  # (wounded 0/1, addiction level, madness level)
HEALTHY: Health = (0, 0, 0)


class Case(NamedTuple):
    """What changes during a case (hashable; equal situations are equal tuples)."""

    turn: int
    sm: int
    luck: int
    villain: str | None = None
    motive: int = -1  # 0-based index in the Villain's motives; -1: not revealed
    meetings: int = 0  # encounters with the revealed Villain, capped at 2
    bonus_action: str | None = None
    bonus: int = 0
    trapped: bool = False
    unlock: bool = False  # Investigate allowed this turn
    clue: bool = False
    blocked: frozenset = frozenset()
    holmes: Health = HEALTHY
    watson: Health | None = HEALTHY
    allies: tuple = ()  # sorted ((character id, Health), ...)
    gone: frozenset = frozenset()  # may not join again this case
    visited: frozenset = frozenset()
    dead: frozenset = frozenset()  # killed this case ("watson" or character ids)
    outcome: str | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def won(self) -> bool:
        return self.outcome in WON


@dataclass
class Context:
    """What is fixed for a case: the data, the Adventure, the character sheets."""

    data: Data
    adventure: Adventure
    holmes: Sheet  # with the equipment's Traits
    watson: Sheet | None  # None: Watson is dead (campaign)
    sheets: dict[str, Sheet]  # character id -> sheet (friends and the Inspector overridden)
    first_case: bool = True
    ruled_out: frozenset = frozenset()
    barred: frozenset = frozenset()  # characters who may not join (R007 5)
    inspector_replaced: bool = False  # Lestrade is dead: his paragraph is the new Inspector
    villain_dist: tuple = field(default=())  # ((probability, villain id), ...)

    @property
    def inspector(self) -> str | None:
        return self.data.campaign.inspector

    def name_of(self, member: str) -> str:
        """A member of the group in words: Holmes, Watson, or an Ally's name and id."""
        if member in ("holmes", "watson"):
            return member.capitalize()
        sheet = self.sheets.get(member)
        return f"{sheet.name} ({member})" if sheet else member

    def __post_init__(self):
        if not self.villain_dist:
            self.villain_dist = villain_distribution(self.adventure, self.ruled_out)
        self._traits = lru_cache(maxsize=None)(self._group_traits)

    # -- the group (R004, R005a: Holmes, Watson and the Allies present)
    def members(self, case: Case) -> list[tuple[str, Sheet, Health]]:
        out = [("holmes", self.holmes, case.holmes)]
        if case.watson is not None and self.watson is not None:
            out.append(("watson", self.watson, case.watson))
        out += [(cid, self.sheets[cid], h) for cid, h in case.allies]
        return out

    def _group_traits(self, watson: bool, allies: tuple[str, ...]) -> dict[str, int]:
        sheets = [self.holmes] + ([self.watson] if watson and self.watson else [])
        sheets += [self.sheets[c] for c in allies]
        levels: dict[str, int] = {}
        for s in sheets:
            for t, lv in s.traits:
                levels[t] = levels.get(t, 0) + lv
        return levels

    def group_trait(self, case: Case, name: str, holmes_only: bool = False) -> int:
        """Levels of Trait ``name`` in the group (or Holmes's own)."""
        if name in ("Addiction", "Madness"):
            i = 1 if name == "Addiction" else 2
            return sum(h[i] for _, _, h in self.members(case)[: 1 if holmes_only else None])
        if holmes_only:
            return self.holmes.trait(name)
        return self._traits(case.watson is not None, tuple(c for c, _ in case.allies)).get(name, 0)

    def quality(self, sheet: Sheet, health: Health, name: str) -> int:
        """A Quality as it stands (Wounded: Brawn -2 for the rest of the case, R009b)."""
        return sheet.quality(name) - (2 if name == "Brawn" and health[0] else 0)

    def group_quality(self, case: Case, name: str) -> int:
        return sum(self.quality(s, h, name) for _, s, h in self.members(case))

    # -- the Villain
    def motive_value(self, case: Case) -> int | None:
        if case.villain is None or case.motive < 0:
            return None
        return self.data.villains[case.villain].motives[case.motive].value

    def can_arrest(self, case: Case) -> bool:
        """R005a: the Villain and Motive are known and SM reaches the Motive value."""
        value = self.motive_value(case)
        return value is not None and case.sm >= value


def merge_traits(base: dict[str, int], grants: list[tuple[str, int]]) -> tuple:
    levels = dict(base)
    for t, lv in grants:
        levels[t] = min(T.MAX_TRAIT, levels.get(t, 0) + lv)
    return tuple(sorted(levels.items()))


# ----------------------------------------------------------------------------- the record
@dataclass
class CaseFile:
    """A loaded record: the context, the case, the phase and the rest of the record."""

    data: Data
    ctx: Context
    case: Case
    phase: str
    waited: bool
    record: dict[str, Any]  # as read, names canonical (campaign-level fields come from here)


_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
               dict: "an object", type(None): "null"}


def _type_name(kind: type) -> str:
    return _TYPE_NAMES.get(kind, kind.__name__)


def data_folder(raw: Any, where: str) -> str | None:
    """The record's campaign folder: its ``data`` field (a path; null or missing: the
    shipped campaign); ``InputError`` naming the field otherwise."""
    value = raw.get("data") if isinstance(raw, dict) else None
    if value is None or (isinstance(value, str) and value.strip()):
        return value
    raise InputError(f"field 'data': expected the campaign folder (a path) or null, got "
                     f"{shown(value)}", where=where, field="data")


def record_campaign(raw: Any, where: str, data_dir: str | None = None) -> Data:
    """The campaign of the record ``raw`` read from ``where``: ``data_dir`` (``--data``) if
    given, else the record's ``data`` folder (an error loading it names the field), else
    the shipped campaign."""
    from deduce.models.detective_story.data import load_campaign

    if data_dir is not None:
        return load_campaign(data_dir)
    folder = data_folder(raw, where)
    try:
        return load_campaign(folder)
    except InputError as exc:
        if folder is None:
            raise
        raise InputError(f"field 'data': {exc}", where=where, field="data") from None


def read_record(path: str, data_dir: str | None = None) -> tuple[Any, Data]:
    """The raw record in the file ``path`` (``core.records.read_json``) and its campaign
    (``record_campaign``); nothing of the record itself is checked yet."""
    raw = read_json(path)
    return raw, record_campaign(raw, path, data_dir)


def load_case(path: str, data_dir: str | None = None) -> CaseFile:
    """The case record in the file ``path``, checked against its campaign (``data_dir``,
    else the record's ``data`` folder, else the shipped campaign). A record between cases
    is refused: it has no case to play."""
    raw = read_json(path)
    if isinstance(raw, dict) and raw.get("phase") == BETWEEN:
        raise InputError("field 'phase': the record is between cases (its case was closed by "
                         "'deduce story end'): spend its SM with 'deduce story spend' or start "
                         "the next case with 'deduce story next'", where=path, field="phase")
    return parse_record(raw, path, record_campaign(raw, path, data_dir))


class _R:
    """Field checks of a record, each error naming the file and the field."""

    def __init__(self, raw: dict, where: str):
        self.raw, self.where = raw, where

    def bad(self, fld: str, message: str) -> InputError:
        return InputError(f"field '{fld}': {message}", where=self.where, field=fld)

    def get(self, key: str, kind: type, default: Any = ..., table: dict | None = None,
            prefix: str = "") -> Any:
        t = self.raw if table is None else table
        fld = f"{prefix}{key}"
        if key not in t:
            if default is ...:
                raise self.bad(fld, "missing")
            return default
        v = t[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not any((type(v) is int) if k is int else isinstance(v, k) for k in kinds):
            raise self.bad(fld, f"expected {' or '.join(map(_type_name, kinds))}, got {shown(v)}")
        return v

    def known(self, table: dict, allowed: tuple[str, ...], prefix: str) -> None:
        """Every key of ``table`` (the record's table at ``prefix``) is in ``allowed``."""
        for k in table:
            if k not in allowed:
                raise self.bad(f"{prefix}{k}",
                               f"unknown field; expected one of {', '.join(allowed)}")

    def count(self, key: str, lo: int, hi: int, default: Any = ..., table=None, prefix="") -> int:
        v = self.get(key, int, default, table, prefix)
        if not lo <= v <= hi:
            raise self.bad(f"{prefix}{key}", f"expected {lo}-{hi}, got {v}")
        return v

    def name(self, value: Any, known: list[str], kind: str, fld: str,
             aliases: dict | None = None) -> str:
        """The canonical id ``value`` (a string: an id or an alias) stands for."""
        if not isinstance(value, str):
            raise self.bad(fld, f"expected a {kind} (a string), got {shown(value)}")
        return resolve(value, known, kind, where=f"{self.where}: field '{fld}'", aliases=aliases)

    def ids(self, key: str, known: list[str], kind: str, default: Any = ()) -> list[str]:
        vals = self.get(key, list, list(default))
        return [self.name(v, known, kind, f"{key}[{i}]") for i, v in enumerate(vals)]


#: the keys a case record may have (other games read it to recognise one)
RECORD_FIELDS = ("game", "version", "data", "campaign", "adventure", "first_case", "seed",
                 "phase", "waited", "turn", "sm", "luck", "villain", "motive",
                 "villain_meetings", "bonus", "trapped", "investigate_next", "clue_found",
                 "seek_closed", "location", "holmes", "equipment", "watson", "watson_here",
                 "allies", "friends", "inspector", "gone", "dead", "visited", "ruled_out",
                 "outcome", "log")
_MEMBER = ("brains", "brawn", "bravery", "traits", "wounded", "addiction", "madness")


def _sheet(r: _R, t: dict, prefix: str, name: str) -> Sheet:
    q = [r.count(k, 1, 20, table=t, prefix=prefix) for k in ("brains", "brawn", "bravery")]
    traits = r.get("traits", dict, {}, t, prefix)
    levels = {}
    for k, v in traits.items():
        tn = resolve(k, T.TRAITS, "trait", where=f"{r.where}: field '{prefix}traits.{k}'")
        if type(v) is not int or not 1 <= v <= T.MAX_TRAIT:
            raise r.bad(f"{prefix}traits.{k}", f"expected a level 1-{T.MAX_TRAIT}, got {shown(v)}")
        levels[tn] = v
    return Sheet(name, *q, tuple(sorted(levels.items())))


def _health(r: _R, t: dict, prefix: str) -> Health:
    return (int(r.get("wounded", bool, False, t, prefix)),
            r.count("addiction", 0, T.MAX_TRAIT, 0, t, prefix),
            r.count("madness", 0, T.MAX_TRAIT, 0, t, prefix))


def _member_table(r: _R, key: str, allowed: tuple[str, ...]) -> dict | None:
    t = r.raw.get(key)
    if t is None:
        return None
    if not isinstance(t, dict):
        raise r.bad(key, f"expected an object, got {shown(t)}")
    for k in t:
        if k not in allowed:
            raise r.bad(f"{key}.{k}", f"unknown field; expected one of {', '.join(allowed)}")
    return t


def parse_record(raw: Any, where: str, data: Data) -> CaseFile:
    """Check a record against ``data`` and build its ``Context`` and ``Case``."""
    if not isinstance(raw, dict):
        raise InputError("expected a JSON object (a case record)", where=where)
    refuse_other_game(raw, GAME, where)
    r = _R(raw, where)
    for k in raw:
        if k not in RECORD_FIELDS:
            import difflib

            close = difflib.get_close_matches(k, RECORD_FIELDS, n=1)
            raise r.bad(k, "unknown field" + (f"; did you mean '{close[0]}'?" if close else ""))
    if raw.get("game") != GAME:
        raise r.bad("game", f"expected {GAME!r}, got {shown(raw.get('game'))}")
    if r.get("version", int, VERSION) != VERSION:
        raise r.bad("version", f"this deduce reads version {VERSION}")
    camp = r.get("campaign", str, data.campaign.id)
    if camp != data.campaign.id:
        raise r.bad("campaign", f"the record is for campaign {camp!r} but the data is "
                    f"{data.campaign.id!r}; pass --data with its folder")
    adventure = data.adventure(r.get("adventure", str), where=f"{where}: field 'adventure'")
    phase = r.get("phase", str, "action")
    if phase not in PHASES:
        raise r.bad("phase", f"expected action or encounter, got {shown(phase)}")
    villains = list(data.villains)
    villain = raw.get("villain")
    if villain is not None:
        villain = r.name(villain, villains, "villain", "villain",
                         aliases={v.name: k for k, v in data.villains.items()})
        if villain not in adventure.line(T.VILLAIN):
            raise r.bad("villain", f"{villain} is not on the Villain line of {adventure.id}")
    motive = raw.get("motive")
    if motive is not None:
        if villain is None:
            raise r.bad("motive", "a Motive needs a revealed Villain")
        n = len(data.villains[villain].motives)
        if type(motive) is not int or not 1 <= motive <= n:
            raise r.bad("motive", f"expected a Motive number 1-{n}, got {shown(motive)}")
    bonus = r.get("bonus", (dict, type(None)), None)
    bonus_action, bonus_value = None, 0
    if bonus:
        r.known(bonus, ("action", "value"), "bonus.")
        bonus_action = r.name(r.get("action", str, table=bonus, prefix="bonus."),
                              [T.ATTEMPT_ARREST, T.INVESTIGATE, T.SEEK, T.RESEARCH], "action",
                              "bonus.action")
        bonus_value = r.count("value", 1, 12, table=bonus, prefix="bonus.")
    characters = sorted(p for p, para in data.paragraphs.items() if para.character is not None)

    holmes_t = _member_table(r, "holmes", _MEMBER)
    if holmes_t is None:
        raise r.bad("holmes", "missing")
    holmes_base = _sheet(r, holmes_t, "holmes.", "Sherlock Holmes")
    if holmes_base.trait("Medicine"):
        raise r.bad("holmes.traits.Medicine", "Holmes may never have Medicine (R003)")
    equipment = r.ids("equipment", [p for p, x in data.paragraphs.items() if x.kind == "equipment"],
                      "equipment")
    grants = [g for e in equipment for g in data.paragraphs[e].grants]
    holmes = Sheet("Sherlock Holmes", holmes_base.brains, holmes_base.brawn, holmes_base.bravery,
                   merge_traits(dict(holmes_base.traits), grants))
    watson_t = _member_table(r, "watson", _MEMBER)
    watson_sheet = (_sheet(r, watson_t, "watson.", "Dr. John Watson") if watson_t is not None
                    else None)
    watson_here = r.get("watson_here", bool, watson_t is not None)
    if watson_here and watson_t is None:
        raise r.bad("watson_here", "Watson is dead (watson is null)")

    sheets = {c: data.paragraphs[c].character for c in characters}
    insp = r.get("inspector", dict, {"status": "lestrade", "barred_cases": 0})
    r.known(insp, ("status", "barred_cases"), "inspector.")
    status = insp.get("status", "lestrade")
    if status not in ("lestrade", "replacement"):
        raise r.bad("inspector.status", f"expected lestrade or replacement, got {shown(status)}")
    barred_cases = r.count("barred_cases", 0, T.INSPECTOR_BAR_CASES, 0, insp, "inspector.")
    barred = set()
    if data.campaign.inspector:
        if status == "replacement":
            sheets[data.campaign.inspector] = Sheet(
                "the new Inspector", *T.NEW_INSPECTOR.values(),
                tuple(sorted(T.NEW_INSPECTOR_TRAITS.items())))
        if barred_cases:
            barred.add(data.campaign.inspector)
    friends = list(r.get("friends", list, []))
    for i, f in enumerate(friends):  # a Friend's own sheet wins (the new Inspector's too)
        if not isinstance(f, dict):
            raise r.bad(f"friends[{i}]", "expected an object such as {\"id\": \"m404\", ...}")
        r.known(f, ("id", "brains", "brawn", "bravery", "traits"), f"friends[{i}].")
        cid = r.name(r.get("id", str, table=f, prefix=f"friends[{i}]."), characters,
                     "character", f"friends[{i}].id")
        sheets[cid] = _sheet(r, f, f"friends[{i}].", sheets[cid].name)
        friends[i] = dict(f, id=cid)

    allies, ally_rows = [], []
    for i, a in enumerate(r.get("allies", list, [])):
        if not isinstance(a, dict):
            raise r.bad(f"allies[{i}]", "expected a table such as {\"id\": \"m405\"}")
        for k in a:
            if k not in ("id", "wounded", "addiction", "madness"):
                raise r.bad(f"allies[{i}].{k}", "unknown field")
        cid = r.name(r.get("id", str, table=a, prefix=f"allies[{i}]."), characters,
                     "character", f"allies[{i}].id", aliases={s.name: c for c, s in sheets.items()})
        if not sheets[cid].friendly:
            raise r.bad(f"allies[{i}].id", f"{cid} ({sheets[cid].name}) is not friendly")
        allies.append((cid, _health(r, a, f"allies[{i}].")))
        ally_rows.append(dict(a, id=cid))
    if len({c for c, _ in allies}) != len(allies):
        raise r.bad("allies", "an Ally is listed twice")
    paragraphs = list(data.paragraphs)
    location = r.get("location", (str, type(None)), None)
    if location is not None and location not in data.paragraphs:
        raise r.bad("location", f"unknown paragraph {shown(location)}")
    data_folder(raw, where)
    if r.get("seed", (int, type(None)), None) is not None and raw["seed"] < 0:
        raise r.bad("seed", f"expected a seed of 0 or more, or null, got {raw['seed']}")
    for i, line in enumerate(r.get("log", list, [])):
        if not isinstance(line, str):
            raise r.bad(f"log[{i}]", f"expected a string (a line of the case's log), got "
                        f"{shown(line)}")
    case = Case(
        turn=r.count("turn", 1, T.TURNS),
        sm=r.count("sm", 0, 99),
        luck=r.count("luck", 0, 99),
        villain=villain,
        motive=motive - 1 if motive is not None else -1,
        meetings=r.count("villain_meetings", 0, 99, 0) if villain else 0,
        bonus_action=bonus_action,
        bonus=bonus_value,
        trapped=r.get("trapped", bool, False),
        unlock=r.get("investigate_next", bool, False),
        clue=r.get("clue_found", bool, False),
        blocked=frozenset(r.ids("seek_closed", list(T.SEEK_CHANNELS), "channel")),
        holmes=_health(r, holmes_t, "holmes."),
        watson=_health(r, watson_t, "watson.") if watson_here else None,
        allies=tuple(sorted(allies)),
        gone=frozenset(r.ids("gone", characters, "character")),
        visited=frozenset(r.ids("visited", paragraphs, "paragraph")),
        dead=frozenset(r.ids("dead", characters + ["watson"], "character")),
        outcome=_outcome(r),
    )
    case = case._replace(meetings=min(case.meetings, 2))
    ruled_out = frozenset(r.ids("ruled_out", villains, "villain"))
    if villain in ruled_out:
        raise r.bad("ruled_out", f"{villain} is this case's revealed Villain")
    first_case = r.get("first_case", bool, True)
    try:  # every Villain of the line ruled out
        ctx = Context(data, adventure, holmes, watson_sheet, sheets, first_case, ruled_out,
                      frozenset(barred), status == "replacement")
    except InputError as exc:
        raise InputError(str(exc), where=where, field="ruled_out") from None
    # the record as read, its names canonical (an alias typed by hand is written back as the id)
    record = dict(raw, equipment=equipment, friends=friends, allies=ally_rows,
                  seek_closed=sorted(case.blocked), gone=sorted(case.gone),
                  dead=sorted(case.dead), visited=sorted(case.visited), ruled_out=sorted(ruled_out))
    if villain is not None:
        record["villain"] = villain
    if bonus_action is not None:
        record["bonus"] = {"action": bonus_action, "value": bonus_value}
    return CaseFile(data, ctx, case, phase, r.get("waited", bool, False) if phase == "encounter"
                    else False, record)


def _outcome(r: _R) -> str | None:
    v = r.raw.get("outcome")
    if v is not None and v not in OUTCOMES:
        raise r.bad("outcome", f"expected null or one of {', '.join(OUTCOMES)}, got {shown(v)}")
    return v


def case_to_record(cf: CaseFile, case: Case, phase: str = "action", waited: bool = False,
                   location: str | None = ..., log: list | None = None) -> dict:
    """The record of ``case`` (campaign-level fields copied from ``cf.record``)."""
    rec = dict(cf.record)

    def member(h: Health, base: dict) -> dict:
        out = {k: base[k] for k in ("brains", "brawn", "bravery", "traits") if k in base}
        out.update(wounded=bool(h[0]), addiction=h[1], madness=h[2])
        return out

    rec.update(
        phase=phase, waited=waited if phase == "encounter" else False,
        turn=min(case.turn, T.TURNS), sm=case.sm, luck=case.luck, villain=case.villain,
        motive=case.motive + 1 if case.motive >= 0 else None,
        villain_meetings=case.meetings,
        bonus={"action": case.bonus_action, "value": case.bonus} if case.bonus_action else None,
        trapped=case.trapped, investigate_next=case.unlock, clue_found=case.clue,
        seek_closed=sorted(case.blocked),
        holmes=member(case.holmes, cf.record["holmes"]),
        watson=(None if cf.record.get("watson") is None or "watson" in case.dead else
                member(case.watson or HEALTHY, cf.record["watson"])),
        watson_here=case.watson is not None,
        allies=[{"id": c, "wounded": bool(h[0]), "addiction": h[1], "madness": h[2]}
                for c, h in case.allies],
        gone=sorted(case.gone), dead=sorted(case.dead), visited=sorted(case.visited),
        outcome=case.outcome,
    )
    if location is not ...:
        rec["location"] = location
    if log is not None:
        rec["log"] = list(cf.record.get("log", [])) + log
    return rec
