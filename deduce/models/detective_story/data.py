"""The campaign data format (TOML) for what the three booklets hold, its loader and checks.

A campaign is a folder of ``*.toml`` files; their top-level tables are merged (the shipped
campaign splits them into ``campaign.toml``, ``adventures.toml``, ``casebook.toml`` and
``memoirs.toml``). Keys:

``[campaign]`` (exactly one)
    ``id``, ``name``, ``text``; ``baker_street`` (paragraph read when you return to 221B,
    R007b 3-4), ``escape`` (paragraph read after escaping a fight, R009a), optional
    ``end_of_case`` and ``start`` (story paragraphs), optional ``inspector`` (the character
    paragraph of Inspector Lestrade, R007), ``first_case`` (6 Adventure ids: the 1d6 of
    A000) and ``equipment`` (6 equipment paragraphs: the 1d6 of A000 and R010). The two
    rolls default to the rulebook's (``tables.FIRST_CASE_ROLL``, ``tables.EQUIPMENT_ROLL``).

``[[adventure]]``
    ``id`` (``a`` + digits), ``name``, ``text``, ``london`` (bool), the six d6 lines
    ``villain`` (Casebook ids), ``character``, ``holmes``, ``watson``, ``clue``,
    ``location`` (Memoirs ids), each exactly 6 entries (face 1 first; repeat an id to
    weight it); optional ``forbidden`` (Actions not available in this Adventure) and
    ``[[adventure.special]]`` rules: ``when`` (start, reveal, motive), ``first_case_only``
    (bool), ``text``, ``effects``.

``[[villain]]``
    ``id`` (``c`` + digits), ``name``, ``text``, ``brains``, ``brawn``, ``bravery``,
    ``traits`` (``{Weaponry = 1}``), ``sm_modifier`` (added to SM on reveal, R005a),
    ``motives`` (``[{faces = "1-3", text = "...", value = 5}, ...]``: the 1d6 rolled when
    the Motive is revealed; the faces cover 1-6 once; ``value`` is the SM needed to
    arrest), ``option1`` / ``option2`` (``{text, effects}``: Motive revealed; SM below the
    Motive value, R005b), ``option3`` (``text``, ``hide_follow = {test = "Tracking",
    target = 9}`` or a Quality test, ``fight`` (bool: can the Villain be fought),
    ``escape`` (effects when every choice fails), ``rewards = {deduction = [...],
    hide_follow = [...], fight = [...]}`` (effects on an arrest by that choice)).

``[[paragraph]]`` (Memoirs)
    ``id`` (``m`` + digits), ``kind`` (character, clue, location, event, equipment,
    story), ``title``, ``text``, ``effects``; a character also has ``character = {name,
    brains, brawn, bravery, traits, friendly}``; equipment has ``grants`` (Trait levels
    added to Holmes, e.g. ``{Weaponry = 1}``); ``once = true``: only the first reading in a
    case has effects; ``revisit = true``: a Clue found again gives 1d6 4-6: +1 SM instead
    (R008).

Effects (a list of inline tables, each with one verb key)::

    {sm = 1}  {luck = -1}
    {test = "Charisma", target = 7, holmes_only = false, pass = [...], fail = [...]}
    {test = "Brains", modifier = -1, pass = [...], fail = [...]}        # 2d6 <= Quality
    {require = "Science", total = 1, pass = [...], fail = [...]}        # group, no roll
    {require = "Brawn", total = 15, pass = [...], fail = [...]}         # group total
    {d6 = {"1-3" = [...], "4-6" = [...]}}
    {join = "self"}  {join = "m410"}  {leave = "ally"}
    {wound = "holmes" | "watson" | "ally", level = "wounded" | "serious" | "killed"}
    {afflict = "Addiction" | "Madness", who = "holmes" | "watson", levels = 1}
    {reveal = "villain" | "motive"}  {unlock = "Investigate"}
    {goto = "m405"}                                  # only as the last effect of a list
    {combat = "self" | {name = "...", brawn = 7, weaponry = 1}, win = [...], lose = [...]}
    {arrest = true}  {lose_case = true}

Names of Traits and Qualities are matched case-insensitively (``names.resolve``).

Caps (exit 2 naming the cap): at most ``MAX_CAMPAIGN_FILES`` ``*.toml`` files in a folder
(files whose name starts with ``.`` are not read), each read by ``core.records.read_toml``
(``MAX_FILE_BYTES``, nesting, integer limit; a UTF-8 BOM is fine); effects nested at
most ``MAX_EFFECT_DEPTH`` deep (a ``test``, ``require``, ``d6`` or ``combat`` inside
another's branch is one level more); the effects of one entry (and the special rules of
an Adventure at one moment) coming out in at most ``MAX_EFFECT_OUTCOMES`` ways
(``effect_outcomes``). Every effect table is parsed once: a ``d6`` key
covering several faces (``"1-6"``) gives each face the same effects, and identical effects
anywhere in the campaign are one shared object (so loading, checking and comparing them
is linear in the files, however the branches nest).

Checks on load (``load_campaign``): unknown keys and wrong types, ids, line lengths, d6
faces, every reference between paragraphs (a dangling one is an ``InputError`` naming the
file, the paragraph id and the field, e.g. ``memoirs.toml: m405: field 'effects[1].goto':
unknown paragraph 'm999'``), ``goto`` cycles (errors) and paragraphs no Adventure line,
campaign entry or effect leads to (``Data.warnings``). References form a graph rooted
at the node ``"campaign"`` (checked in plain Python; ``Data.graph``: a networkx ``DiGraph``
made when first asked).
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from deduce.core.errors import InputError
from deduce.core.names import resolve
from deduce.models.detective_story import effects as fx
from deduce.models.detective_story import tables as T

#: the most ``*.toml`` files a campaign folder may hold
MAX_CAMPAIGN_FILES = 100
#: the deepest nesting of effects (a branch of a test, require, d6 or combat is one level)
MAX_EFFECT_DEPTH = 16
#: the most ways the effects of one entry may come out (``effect_outcomes``): the advisor
#: follows every way, so tests one after another (2 ** n ways) would make it exponential
MAX_EFFECT_OUTCOMES = 64

KINDS = ("character", "clue", "location", "event", "equipment", "story")
WHEN = ("start", "reveal", "motive")
_ID = {"adventure": re.compile(r"^a\d{3,4}$"), "villain": re.compile(r"^c\d{3,4}$"),
       "paragraph": re.compile(r"^m\d{3,4}$")}


# ----------------------------------------------------------------------------- model
@dataclass(frozen=True)
class Sheet:
    """A character's Qualities and Traits (``traits``: sorted (name, level) pairs)."""

    name: str
    brains: int
    brawn: int
    bravery: int
    traits: tuple[tuple[str, int], ...] = ()
    friendly: bool = True

    def trait(self, name: str) -> int:
        for t, level in self.traits:
            if t == name:
                return level
        return 0

    def quality(self, name: str) -> int:
        return {"Brains": self.brains, "Brawn": self.brawn, "Bravery": self.bravery}[name]

    def to_json(self) -> dict:
        return {"name": self.name, "brains": self.brains, "brawn": self.brawn,
                "bravery": self.bravery, "traits": dict(self.traits)}


@dataclass(frozen=True)
class Paragraph:
    id: str
    kind: str
    title: str
    text: str
    effects: fx.Effects
    character: Sheet | None
    grants: tuple[tuple[str, int], ...]
    once: bool
    revisit: bool
    source: str


@dataclass(frozen=True)
class Motive:
    faces: tuple[int, ...]
    text: str
    value: int


@dataclass(frozen=True)
class Option3:
    text: str
    hide_follow: fx.Test
    fight: bool
    escape: fx.Effects
    rewards: tuple[tuple[str, fx.Effects], ...]

    def reward(self, choice: str) -> fx.Effects:
        return dict(self.rewards).get(choice, ())


@dataclass(frozen=True)
class Villain:
    id: str
    name: str
    text: str
    sheet: Sheet
    sm_modifier: int
    motives: tuple[Motive, ...]
    option1: tuple[str, fx.Effects]
    option2: tuple[str, fx.Effects]
    option3: Option3
    source: str

    def motive_for_face(self, face: int) -> int:
        return next(i for i, m in enumerate(self.motives) if face in m.faces)


@dataclass(frozen=True)
class Special:
    when: str
    first_case_only: bool
    text: str
    effects: fx.Effects


@dataclass(frozen=True)
class Adventure:
    id: str
    name: str
    text: str
    london: bool
    lines: tuple[tuple[str, tuple[str, ...]], ...]
    forbidden: tuple[str, ...]
    special: tuple[Special, ...]
    source: str

    def line(self, name: str) -> tuple[str, ...]:
        return dict(self.lines)[name]


@dataclass(frozen=True)
class Campaign:
    id: str
    name: str
    text: str
    baker_street: str
    escape: str
    end_of_case: str | None
    start: str | None
    inspector: str | None
    first_case: tuple[str, ...]
    equipment: tuple[str, ...]


@dataclass
class Data:
    """A loaded, checked campaign."""

    campaign: Campaign
    adventures: dict[str, Adventure]
    villains: dict[str, Villain]
    paragraphs: dict[str, Paragraph]
    source: str
    warnings: list[str] = field(default_factory=list)
    _graph: Any = field(default=None, repr=False, compare=False)
    #: a hash of the campaign files' parsed content (``core.cache.digest_key``): equal for
    #: equal campaigns wherever they are read from (the solved-case cache's key)
    digest: str = ""

    @property
    def graph(self):
        """The reference graph, a networkx ``DiGraph`` rooted at ``"campaign"``
        (``graph.build_graph``), made when first asked."""
        if self._graph is None:
            from deduce.models.detective_story.graph import build_graph

            self._graph = build_graph(self)
        return self._graph

    def adventure(self, text: str, where: str = "--adventure") -> Adventure:
        """The Adventure named by id or name (aliases as ``names.resolve``)."""
        by_name = {a.name: a.id for a in self.adventures.values()}
        hit = resolve(text, list(self.adventures) + list(by_name), "adventure", where=where)
        return self.adventures[by_name.get(hit, hit)]


# ----------------------------------------------------------------------------- reading
class _Ctx:
    """Where we are (file and entry id) and the ids known, for errors and references."""

    def __init__(self, where: str, ids: dict[str, set[str]], pid: str | None = None):
        self.where, self.ids, self.pid = where, ids, pid
        self.pool: dict = ids.setdefault("pool", {})  # shared by every entry: see ``_intern``

    def bad(self, path: str, message: str) -> InputError:
        return InputError(f"field '{path}': {message}", where=self.where, field=path)

    def keys(self, table: dict, allowed: tuple[str, ...], path: str) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else f"; expected one of {', '.join(allowed)}"
                raise self.bad(_join(path, key), f"unknown field{hint}")

    def get(self, table: dict, key: str, kind: type, path: str, default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.bad(_join(path, key), "missing")
            return default
        value = table[key]
        ok = (type(value) is int) if kind is int else isinstance(value, kind)
        if not ok:
            raise self.bad(_join(path, key), f"expected {_kind_name(kind)}, got {shown(value)}")
        return value

    def ref(self, value: Any, group: str, path: str) -> str:
        if not isinstance(value, str):
            raise self.bad(path, f"expected a {group} id, got {shown(value)}")
        if value not in self.ids[group]:
            known = sorted(self.ids[group])
            close = difflib.get_close_matches(value, known, n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            noun = {"paragraph": "paragraph", "villain": "villain", "adventure": "adventure"}[group]
            raise self.bad(path, f"unknown {noun} {shown(value)}{hint}")
        return value

    def name(self, value: Any, choices: tuple[str, ...], kind: str, path: str) -> str:
        if not isinstance(value, str):
            raise self.bad(path, f"expected a {kind} name, got {shown(value)}")
        try:
            return resolve(value, choices, kind)
        except InputError as exc:
            raise self.bad(path, str(exc)) from None


def shown(value: Any, width: int = 60) -> str:
    """``repr(value)``, cut to ``width`` characters (a wrong value may be a whole table)."""
    text = repr(value)
    return text if len(text) <= width else text[:width] + "..."


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _kind_name(kind: type) -> str:
    return {int: "an integer", str: "a string", bool: "true or false", list: "a list",
            dict: "a table"}.get(kind, kind.__name__)


def _trait_levels(ctx: _Ctx, value: Any, path: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, dict):
        raise ctx.bad(path, f"expected a table of Trait levels, got {shown(value)}")
    out: dict[str, int] = {}
    for key, level in value.items():
        name = ctx.name(key, T.TRAITS, "trait", _join(path, key))
        if type(level) is not int or not 1 <= level <= T.MAX_TRAIT:
            raise ctx.bad(_join(path, key), f"a Trait level is 1-{T.MAX_TRAIT}, got {shown(level)}")
        out[name] = level
    return tuple(sorted(out.items()))


def _quality(ctx: _Ctx, table: dict, key: str, path: str) -> int:
    value = ctx.get(table, key, int, path)
    if not 1 <= value <= 20:
        raise ctx.bad(_join(path, key), f"a Quality is 1-20, got {value}")
    return value


def _sheet(ctx: _Ctx, value: Any, path: str) -> Sheet:
    if not isinstance(value, dict):
        raise ctx.bad(path, f"expected a table, got {shown(value)}")
    ctx.keys(value, ("name", "brains", "brawn", "bravery", "traits", "friendly"), path)
    return Sheet(ctx.get(value, "name", str, path), _quality(ctx, value, "brains", path),
                 _quality(ctx, value, "brawn", path), _quality(ctx, value, "bravery", path),
                 _trait_levels(ctx, value.get("traits", {}), _join(path, "traits")),
                 ctx.get(value, "friendly", bool, path, True))


def _faces(ctx: _Ctx, value: Any, path: str) -> tuple[int, ...]:
    if type(value) is int:
        faces = (value,)
    elif isinstance(value, str) and re.fullmatch(r"\s*[1-6]\s*(-\s*[1-6]\s*)?", value):
        lo, _, hi = value.partition("-")
        faces = tuple(range(int(lo), int(hi or lo) + 1))
    else:
        faces = ()
    if not faces or any(not 1 <= f <= 6 for f in faces):
        raise ctx.bad(path, f"expected d6 faces such as \"1-3\" or 4, got {shown(value)}")
    return faces


# ----------------------------------------------------------------------------- effects
_VERBS = {
    "sm": (), "luck": (), "arrest": (), "lose_case": (), "leave": (), "reveal": (),
    "unlock": (), "goto": (), "join": (), "d6": (),
    "test": ("target", "modifier", "holmes_only", "pass", "fail"),
    "require": ("total", "pass", "fail"),
    "wound": ("level",),
    "afflict": ("who", "levels"),
    "combat": ("win", "lose"),
}


def parse_effects(ctx: _Ctx, value: Any, path: str, depth: int = 1) -> fx.Effects:
    """A list of effect tables -> a tuple of effects (``InputError`` naming the field).
    ``depth``: how deep this list is nested in effects (at most ``MAX_EFFECT_DEPTH``)."""
    if depth > MAX_EFFECT_DEPTH:
        raise ctx.bad(path, f"effects nested too deeply: more than the cap of "
                      f"{MAX_EFFECT_DEPTH} levels of test, require, d6 and combat branches "
                      "inside one another")
    if not isinstance(value, list):
        raise ctx.bad(path, f"expected a list of effects, got {shown(value)}")
    out = []
    for i, item in enumerate(value):
        p = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise ctx.bad(p, f"expected an effect table such as {{sm = 1}}, got {shown(item)}")
        verbs = [k for k in item if k in _VERBS]
        if len(verbs) != 1:
            raise ctx.bad(p, f"an effect has exactly one of {', '.join(_VERBS)}; got "
                          f"{shown(sorted(item))}")
        verb = verbs[0]
        ctx.keys(item, (verb,) + _VERBS[verb], p)
        effect = _intern(ctx, _effect(ctx, verb, item, p, depth))
        if isinstance(effect, fx.Goto) and i != len(value) - 1:
            raise ctx.bad(f"{p}.goto", "goto must be the last effect of its list")
        out.append(effect)
    effects = _intern(ctx, tuple(out))
    if depth == 1:
        _check_outcomes(ctx, effects, path)
    return effects


def effect_outcomes(effects: fx.Effects, memo: dict | None = None) -> int:
    """How many ways ``effects`` can come out, as the advisor follows them: a test's pass
    and fail, a d6's different faces, a fight won, lost or escaped, add up inside the
    effect, and effects one after another multiply; a requirement takes one of its two
    branches. Counted once per shared list (``memo``: id -> count) and capped just past
    ``MAX_EFFECT_OUTCOMES``, so linear in the effects."""
    memo = {} if memo is None else memo
    key = id(effects)
    if key in memo:
        return memo[key]
    n = 1
    for e in effects:
        if isinstance(e, fx.Test):
            n *= effect_outcomes(e.passed, memo) + effect_outcomes(e.failed, memo)
        elif isinstance(e, fx.Require):
            n *= max(effect_outcomes(e.passed, memo), effect_outcomes(e.failed, memo))
        elif isinstance(e, fx.D6):
            distinct = {id(f): f for f in e.faces}.values()
            n *= sum(effect_outcomes(f, memo) for f in distinct)
        elif isinstance(e, fx.Combat):
            n *= effect_outcomes(e.won, memo) + effect_outcomes(e.lost, memo) + 1
        n = min(n, MAX_EFFECT_OUTCOMES + 1)
    memo[key] = n
    return n


def _check_outcomes(ctx: _Ctx, effects: fx.Effects, path: str) -> None:
    if effect_outcomes(effects, ctx.ids.setdefault("outcomes", {})) > MAX_EFFECT_OUTCOMES:
        raise ctx.bad(path, f"these effects can come out in more than the cap of "
                      f"{MAX_EFFECT_OUTCOMES} ways (tests, d6s and fights one after another "
                      "multiply their outcomes, and the advisor follows every way)")


def _intern(ctx: _Ctx, obj):
    """The one shared object equal to ``obj`` (an effect, or a tuple of effects, whose parts
    are shared already): keyed by the type and the parts' identities, so nothing is hashed
    or compared deeply, and equal effects are the same object (compared at once)."""
    if isinstance(obj, tuple):
        key = (tuple, tuple(map(id, obj)))
    else:
        key = (type(obj),) + tuple(_part_key(getattr(obj, f)) for f in obj.__dataclass_fields__)
    return ctx.pool.setdefault(key, obj)


def _part_key(value):
    if isinstance(value, tuple):  # effects, or the faces of a d6 (tuples of effects)
        return (tuple, tuple(map(id, value)))
    if isinstance(value, (fx.Opponent, str, int, bool, type(None))):
        return (type(value), value)
    return id(value)


def _branches(ctx: _Ctx, item: dict, path: str, depth: int) -> tuple[fx.Effects, fx.Effects]:
    return (parse_effects(ctx, item.get("pass", []), _join(path, "pass"), depth + 1),
            parse_effects(ctx, item.get("fail", []), _join(path, "fail"), depth + 1))


def _effect(ctx: _Ctx, verb: str, item: dict, p: str, depth: int = 1):
    v = item[verb]
    vp = _join(p, verb)
    if verb in ("sm", "luck"):
        n = ctx.get(item, verb, int, p)
        if not -20 <= n <= 20:
            raise ctx.bad(vp, f"expected a change between -20 and 20, got {n}")
        return fx.SM(n) if verb == "sm" else fx.Luck(n)
    if verb in ("arrest", "lose_case"):
        if v is not True:
            raise ctx.bad(vp, "expected true")
        return fx.Arrest() if verb == "arrest" else fx.LoseCase()
    if verb == "leave":
        if v != "ally":
            raise ctx.bad(vp, f"expected \"ally\", got {shown(v)}")
        return fx.Leave()
    if verb == "reveal":
        if v not in ("villain", "motive"):
            raise ctx.bad(vp, f"expected \"villain\" or \"motive\", got {shown(v)}")
        return fx.Reveal(v)
    if verb == "unlock":
        ctx.name(v, (T.INVESTIGATE,), "action", vp)
        return fx.Unlock()
    if verb == "goto":
        return fx.Goto(ctx.ref(v, "paragraph", vp))
    if verb == "join":
        target = ctx.pid if v == "self" else ctx.ref(v, "paragraph", vp)
        if target is None or target not in ctx.ids["character"]:
            raise ctx.bad(vp, f"{shown(v)} is not a paragraph with a character sheet")
        return fx.Join(target)
    if verb == "d6":
        if not isinstance(v, dict) or not v:
            raise ctx.bad(vp, "expected a table of faces, e.g. {\"1-3\" = [...], \"4-6\" = [...]}")
        faces: list[fx.Effects | None] = [None] * 6
        for key, effects in v.items():
            covered = _faces(ctx, key, _join(vp, key))
            for f in covered:
                if faces[f - 1] is not None:
                    raise ctx.bad(_join(vp, key), f"face {f} is given twice")
            parsed = parse_effects(ctx, effects, _join(vp, key), depth + 1)  # once per key
            for f in covered:
                faces[f - 1] = parsed
        missing = [str(i + 1) for i, f in enumerate(faces) if f is None]
        if missing:
            raise ctx.bad(vp, f"faces {', '.join(missing)} have no effects (use [] for none)")
        return fx.D6(tuple(faces))
    if verb == "test":
        name = ctx.name(v, T.QUALITIES + T.TRAITS, "Quality or Trait", vp)
        quality = name in T.QUALITIES
        passed, failed = _branches(ctx, item, p, depth)
        if quality:
            if "target" in item or "holmes_only" in item:
                raise ctx.bad(_join(p, "target" if "target" in item else "holmes_only"),
                              "a Quality roll has a modifier, not a target (R004)")
            mod = ctx.get(item, "modifier", int, p, 0)
            return fx.Test(name, True, 0, mod, True, passed, failed)
        if "modifier" in item:
            raise ctx.bad(_join(p, "modifier"), "a Trait roll has a target, not a modifier (R004)")
        target = ctx.get(item, "target", int, p)
        if not 2 <= target <= 20:
            raise ctx.bad(_join(p, "target"), f"expected a target of 2-20, got {target}")
        return fx.Test(name, False, target, 0, ctx.get(item, "holmes_only", bool, p, False),
                       passed, failed)
    if verb == "require":
        name = ctx.name(v, T.QUALITIES + T.TRAITS, "Quality or Trait", vp)
        quality = name in T.QUALITIES
        total = ctx.get(item, "total", int, p, ... if quality else 1)
        if not 1 <= total <= 60:
            raise ctx.bad(_join(p, "total"), f"expected 1-60, got {total}")
        passed, failed = _branches(ctx, item, p, depth)
        return fx.Require(name, quality, total, passed, failed)
    if verb == "wound":
        if v not in ("holmes", "watson", "ally"):
            raise ctx.bad(vp, f"expected holmes, watson or ally, got {shown(v)}")
        level = ctx.get(item, "level", str, p, "wounded")
        if level not in ("wounded", "serious", "killed"):
            raise ctx.bad(_join(p, "level"),
                          f"expected wounded, serious or killed, got {shown(level)}")
        return fx.Wound(v, level)
    if verb == "afflict":
        kind = ctx.name(v, ("Addiction", "Madness"), "affliction", vp)
        who = ctx.get(item, "who", str, p, "holmes")
        if who not in ("holmes", "watson"):
            raise ctx.bad(_join(p, "who"), f"expected holmes or watson, got {shown(who)}")
        levels = ctx.get(item, "levels", int, p, 1)
        if not 1 <= levels <= T.MAX_TRAIT:
            raise ctx.bad(_join(p, "levels"), f"expected 1-{T.MAX_TRAIT}, got {levels}")
        return fx.Afflict(who, kind, levels)
    # combat
    if v == "self":
        sheet = ctx.ids["sheets"].get(ctx.pid)
        if sheet is None:
            raise ctx.bad(vp, "\"self\" needs a paragraph with a character sheet")
        opponent = fx.Opponent(sheet.name, sheet.brawn, sheet.trait("Weaponry"), False)
    elif isinstance(v, dict):
        ctx.keys(v, ("name", "brawn", "weaponry"), vp)
        opponent = fx.Opponent(ctx.get(v, "name", str, vp), _quality(ctx, v, "brawn", vp),
                               ctx.get(v, "weaponry", int, vp, 0), False)
        if not 0 <= opponent.weaponry <= T.MAX_TRAIT:
            raise ctx.bad(_join(vp, "weaponry"), f"expected 0-{T.MAX_TRAIT}")
    else:
        raise ctx.bad(vp, f"expected \"self\" or {{name, brawn, weaponry}}, got {shown(v)}")
    return fx.Combat(opponent, parse_effects(ctx, item.get("win", []), _join(p, "win"), depth + 1),
                     parse_effects(ctx, item.get("lose", []), _join(p, "lose"), depth + 1))


# ----------------------------------------------------------------------------- entries
def _paragraph(ctx: _Ctx, t: dict, source: str) -> Paragraph:
    ctx.keys(t, ("id", "kind", "title", "text", "effects", "character", "grants", "once",
                 "revisit"), "")
    kind = ctx.get(t, "kind", str, "")
    if kind not in KINDS:
        raise ctx.bad("kind", f"expected one of {', '.join(KINDS)}, got {shown(kind)}")
    sheet = _sheet(ctx, t["character"], "character") if "character" in t else None
    if kind == "character" and sheet is None:
        raise ctx.bad("character", "missing: a character paragraph needs a character sheet")
    grants = _trait_levels(ctx, t.get("grants", {}), "grants")
    if grants and kind != "equipment":
        raise ctx.bad("grants", "only equipment grants Traits")
    return Paragraph(t["id"], kind, ctx.get(t, "title", str, ""), ctx.get(t, "text", str, "", ""),
                     parse_effects(ctx, t.get("effects", []), "effects"), sheet, grants,
                     ctx.get(t, "once", bool, "", False), ctx.get(t, "revisit", bool, "", False),
                     source)


def _villain(ctx: _Ctx, t: dict, source: str) -> Villain:
    ctx.keys(t, ("id", "name", "text", "brains", "brawn", "bravery", "traits", "sm_modifier",
                 "motives", "option1", "option2", "option3"), "")
    sheet = Sheet(ctx.get(t, "name", str, ""), _quality(ctx, t, "brains", ""),
                  _quality(ctx, t, "brawn", ""), _quality(ctx, t, "bravery", ""),
                  _trait_levels(ctx, t.get("traits", {}), "traits"), False)
    sm_mod = ctx.get(t, "sm_modifier", int, "", 0)
    if not -10 <= sm_mod <= 10:
        raise ctx.bad("sm_modifier", f"expected -10 to 10, got {sm_mod}")
    motives_raw = ctx.get(t, "motives", list, "")
    motives, seen = [], set()
    for i, m in enumerate(motives_raw):
        p = f"motives[{i}]"
        if not isinstance(m, dict):
            raise ctx.bad(p, f"expected {{faces, text, value}}, got {shown(m)}")
        ctx.keys(m, ("faces", "text", "value"), p)
        faces = _faces(ctx, m.get("faces"), _join(p, "faces"))
        if seen & set(faces):
            raise ctx.bad(_join(p, "faces"), f"face {min(seen & set(faces))} is given twice")
        seen |= set(faces)
        value = ctx.get(m, "value", int, p)
        if not 1 <= value <= 30:
            raise ctx.bad(_join(p, "value"), f"a Motive value is 1-30, got {value}")
        motives.append(Motive(faces, ctx.get(m, "text", str, p, ""), value))
    if seen != set(range(1, 7)):
        raise ctx.bad("motives", f"the Motives' faces must cover 1-6 once; missing "
                      f"{', '.join(str(f) for f in sorted(set(range(1, 7)) - seen))}")
    options = []
    for key in ("option1", "option2"):
        o = ctx.get(t, key, dict, "")
        ctx.keys(o, ("text", "effects"), key)
        options.append((ctx.get(o, "text", str, key, ""),
                        parse_effects(ctx, o.get("effects", []), _join(key, "effects"))))
    o3 = ctx.get(t, "option3", dict, "")
    ctx.keys(o3, ("text", "hide_follow", "fight", "escape", "rewards"), "option3")
    hf_raw = ctx.get(o3, "hide_follow", dict, "option3")
    ctx.keys(hf_raw, ("test", "target", "modifier", "holmes_only"), "option3.hide_follow")
    if "test" not in hf_raw:
        raise ctx.bad("option3.hide_follow.test", "missing")
    hide = _effect(ctx, "test", hf_raw, "option3.hide_follow")
    rewards_raw = ctx.get(o3, "rewards", dict, "option3", {})
    ctx.keys(rewards_raw, ("deduction", "hide_follow", "fight"), "option3.rewards")
    rewards = tuple((k, parse_effects(ctx, v, f"option3.rewards.{k}"))
                    for k, v in rewards_raw.items())
    option3 = Option3(ctx.get(o3, "text", str, "option3", ""), hide,
                      ctx.get(o3, "fight", bool, "option3", True),
                      parse_effects(ctx, o3.get("escape", []), "option3.escape"), rewards)
    return Villain(t["id"], sheet.name, ctx.get(t, "text", str, "", ""), sheet, sm_mod,
                   tuple(motives), options[0], options[1], option3, source)


def _adventure(ctx: _Ctx, t: dict, source: str) -> Adventure:
    ctx.keys(t, ("id", "name", "text", "london") + T.LINES + ("forbidden", "special"), "")
    lines = []
    for line in T.LINES:
        ids = ctx.get(t, line, list, "")
        if len(ids) != 6:
            raise ctx.bad(line, f"a line has exactly 6 entries (d6 faces 1-6), got {len(ids)}")
        group = "villain" if line == T.VILLAIN else "paragraph"
        lines.append((line, tuple(ctx.ref(x, group, f"{line}[{i}]") for i, x in enumerate(ids))))
    forbidden = tuple(ctx.name(a, T.ACTIONS, "action", f"forbidden[{i}]")
                      for i, a in enumerate(ctx.get(t, "forbidden", list, "", [])))
    special = []
    for i, s in enumerate(ctx.get(t, "special", list, "", [])):
        p = f"special[{i}]"
        if not isinstance(s, dict):
            raise ctx.bad(p, f"expected a table, got {shown(s)}")
        ctx.keys(s, ("when", "first_case_only", "text", "effects"), p)
        when = ctx.get(s, "when", str, p)
        if when not in WHEN:
            raise ctx.bad(_join(p, "when"), f"expected one of {', '.join(WHEN)}, got {shown(when)}")
        special.append(Special(when, ctx.get(s, "first_case_only", bool, p, False),
                               ctx.get(s, "text", str, p, ""),
                               parse_effects(ctx, s.get("effects", []), _join(p, "effects"))))
    memo = ctx.ids.setdefault("outcomes", {})
    for when in WHEN:  # the special rules of one moment are read one after another
        ways = 1
        for s in special:
            if s.when == when:
                ways = min(ways * effect_outcomes(s.effects, memo), MAX_EFFECT_OUTCOMES + 1)
        if ways > MAX_EFFECT_OUTCOMES:
            raise ctx.bad("special", f"the special rules read at {when} can come out in more "
                          f"than the cap of {MAX_EFFECT_OUTCOMES} ways (their tests, d6s and "
                          "fights multiply their outcomes)")
    return Adventure(t["id"], ctx.get(t, "name", str, ""), ctx.get(t, "text", str, "", ""),
                     ctx.get(t, "london", bool, ""), tuple(lines), forbidden, tuple(special), source)


def _campaign(ctx: _Ctx, t: dict) -> Campaign:
    ctx.keys(t, ("id", "name", "text", "baker_street", "escape", "end_of_case", "start",
                 "inspector", "first_case", "equipment"), "")

    def para(key: str, required: bool = True) -> str | None:
        if key not in t and not required:
            return None
        return ctx.ref(ctx.get(t, key, str, ""), "paragraph", key)

    def six(key: str, default: tuple[str, ...], group: str) -> tuple[str, ...]:
        ids = ctx.get(t, key, list, "", list(default))
        if len(ids) != 6:
            raise ctx.bad(key, f"a d6 line has exactly 6 entries, got {len(ids)}")
        return tuple(ctx.ref(x, group, f"{key}[{i}]") for i, x in enumerate(ids))

    inspector = para("inspector", False)
    if inspector is not None and inspector not in ctx.ids["character"]:
        raise ctx.bad("inspector", f"{shown(inspector)} is not a paragraph with a character sheet")
    return Campaign(ctx.get(t, "id", str, ""), ctx.get(t, "name", str, ""),
                    ctx.get(t, "text", str, "", ""), para("baker_street"), para("escape"),
                    para("end_of_case", False), para("start", False), inspector,
                    six("first_case", T.FIRST_CASE_ROLL, "adventure"),
                    six("equipment", T.EQUIPMENT_ROLL, "paragraph"))


# ----------------------------------------------------------------------------- loading
def campaign_files(folder: str | Path) -> list[Path]:
    """The ``*.toml`` files of the campaign folder ``folder``, sorted by name (at most
    ``MAX_CAMPAIGN_FILES``; names starting with ``.`` skipped); ``InputError`` naming the
    folder when it is missing, is not a folder, cannot be listed or holds none or too many."""
    import stat

    folder = Path(folder)
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        raise InputError("no such folder", where=str(folder)) from None
    except OSError as exc:
        raise InputError(f"cannot read the folder: {exc.strerror or exc}",
                         where=str(folder)) from None
    if not stat.S_ISDIR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else \
            "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "not a folder"
        raise InputError(f"expected a campaign folder of *.toml files, but it is {kind}",
                         where=str(folder))
    files = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".toml") and not entry.name.startswith("."):
                    files.append(folder / entry.name)
                    if len(files) > MAX_CAMPAIGN_FILES:
                        raise InputError(f"more than the cap of {MAX_CAMPAIGN_FILES} *.toml "
                                         "files in a campaign folder", where=str(folder))
    except OSError as exc:
        raise InputError(f"cannot read the folder: {exc.strerror or exc}",
                         where=str(folder)) from None
    if not files:
        raise InputError("no *.toml files here (a campaign is a folder of *.toml files)",
                         where=str(folder))
    return sorted(files)


def _read_folder(folder: Path) -> list[tuple[str, dict]]:
    """``(file name, parsed TOML)`` of every campaign file (``core.records.read_toml``:
    regular files only, size and nesting caps, BOM accepted)."""
    from deduce.core.records import read_toml

    return [(f.name, read_toml(f)) for f in campaign_files(folder)]


def load_campaign(folder: str | Path | None = None) -> Data:
    """Load and check the campaign in ``folder`` (default: the shipped sample campaign).

    Raises ``InputError`` (exit 2) naming the file, the entry id and the field at fault.
    """
    from deduce.puzzles import puzzle_path

    path = Path(folder) if folder is not None else puzzle_path("detective_story")
    return _load_cached(str(path.resolve()), _stamp(path))


def _stamp(path: Path) -> tuple:
    """What the cache checks: each file's name, modification time and size."""
    out = []
    for f in campaign_files(path):
        try:
            st = os.stat(f)
        except OSError:
            continue  # gone meanwhile: reading it says so
        out.append((f.name, st.st_mtime_ns, st.st_size))
    return tuple(out)


@lru_cache(maxsize=8)
def _load_cached(path: str, stamp: tuple) -> Data:
    return parse_campaign(_read_folder(Path(path)), path)


def parse_campaign(files: list[tuple[str, dict]], source: str = "<memory>") -> Data:
    """Check and build a campaign from parsed TOML documents ``[(file name, document)]``."""
    entries: dict[str, list[tuple[str, int, dict]]] = {"adventure": [], "villain": [],
                                                         "paragraph": []}
    campaign_raw: tuple[str, dict] | None = None
    for name, doc in files:
        for key, value in doc.items():
            if key == "campaign":
                if not isinstance(value, dict):
                    raise InputError("field 'campaign': expected a table", where=name, field="campaign")
                if campaign_raw is not None:
                    raise InputError("field 'campaign': given twice", where=name, field="campaign")
                campaign_raw = (name, value)
            elif key in entries:
                if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
                    raise InputError(f"field '{key}': expected [[{key}]] tables", where=name, field=key)
                entries[key] += [(name, i, x) for i, x in enumerate(value)]
            else:
                close = difflib.get_close_matches(key, ["campaign", *entries], n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise InputError(f"field '{key}': unknown table{hint}", where=name, field=key)
    if campaign_raw is None:
        raise InputError("field 'campaign': missing (one [campaign] table is needed)",
                         where=source, field="campaign")

    ids: dict[str, Any] = {g: set() for g in entries}
    for group, items in entries.items():
        for fname, i, t in items:
            pid = t.get("id")
            where = f"{fname}: {group}[{i}]"
            if not isinstance(pid, str) or not _ID[group].match(pid):
                raise InputError(f"field 'id': expected an id like {_ID[group].pattern[2:-1]}, "
                                 f"got {shown(pid)}", where=where, field="id")
            if any(pid in s for s in ids.values() if isinstance(s, set)):
                raise InputError(f"field 'id': {pid} is used twice", where=f"{fname}: {pid}", field="id")
            ids[group].add(pid)
    # character sheets first: joins and "combat = self" refer to them
    ids["character"], ids["sheets"] = set(), {}
    for fname, _, t in entries["paragraph"]:
        if "character" in t:
            ctx = _Ctx(f"{fname}: {t['id']}", ids, t["id"])
            ids["sheets"][t["id"]] = _sheet(ctx, t["character"], "character")
            ids["character"].add(t["id"])

    paragraphs = {t["id"]: _paragraph(_Ctx(f"{f}: {t['id']}", ids, t["id"]), t, f)
                  for f, _, t in entries["paragraph"]}
    villains = {t["id"]: _villain(_Ctx(f"{f}: {t['id']}", ids, t["id"]), t, f)
                for f, _, t in entries["villain"]}
    adventures = {t["id"]: _adventure(_Ctx(f"{f}: {t['id']}", ids, t["id"]), t, f)
                  for f, _, t in entries["adventure"]}
    cname, craw = campaign_raw
    campaign = _campaign(_Ctx(f"{cname}: campaign", ids), craw)
    for i, pid in enumerate(campaign.equipment):
        if paragraphs[pid].kind != "equipment":
            raise InputError(f"field 'equipment[{i}]': {pid} is not an equipment paragraph",
                             where=f"{cname}: campaign", field=f"equipment[{i}]")
    from deduce.core.cache import digest_key

    data = Data(campaign, adventures, villains, paragraphs, source, digest=digest_key(files))
    from deduce.models.detective_story.graph import check_graph

    data.warnings = check_graph(data)
    return data
