"""Rules engine of a case (R001-R009), written once for several worlds.

Every rule is a function ``f(w, ctx, case, ..., k)`` in continuation-passing style: instead
of returning, it calls ``k(w, case, ...)`` with what happened. The world ``w`` (a
``World``: the typed interface below) decides what a chance node or a decision means:

- ``worlds.Sampler`` rolls seeded dice (``random.Random``, the only source of chance) and
  asks a policy; the continuation returns the case, so a turn is played once
  (``rules.State`` plays a case this way);
- ``live.Told`` asks the player what the table's dice showed and what they chose;
- ``advice.Tracer`` follows every outcome and records the phase as an expression (weighted
  ends of the phase, decisions kept as nodes) that the advisor's DP evaluates per turn;
- ``advice.Expect`` and ``naive.Naive`` sum over every outcome with its exact probability and
  maximise over decisions; the continuation returns P(case won).

The world interface is the ``World`` protocol below: one method per kind of node.

SM and Luck are only changed through ``add_sm``/``add_luck`` and only read through the world,
so the tracer can run a case whose SM and Luck are symbolic (``advice.Lin``) and the advisor
gets the answer for every SM and Luck at once. A case's fields are read by name only
(``case.villain``, never ``case[i]``, unpacking or iteration) and changed through
``_replace``: the advisor traces a phase once for every mode that agrees on the fields it
read or wrote (``dp.trace.Probe`` notes them).

A turn: ``take_action`` (its continuation ``AFTER_ACTION[waited]``) then ``encounter`` (its
continuation ``AFTER_TURN``) then ``end_turn``.

Decisions where the rulebook is silent or ambiguous (also in the README):

- Luck re-rolls are modelled (advice, bots) on the roll that shapes a turn, the Action's
  2d6. The Encounter Matrix and the rolls inside events are played as they fall (a player
  may of course spend Luck on them: the record is theirs to edit).
- Totals below a table's lowest row read as that row; the Encounter Matrix's empty cell
  (turns 9-12, face 6) is no encounter; vertical faces below 1 read as 1; -1 (Motive
  revealed) and -2 (can Attempt Arrest) do not add up.
- "Can Attempt Arrest" (R008, R005a) means Villain and Motive known and SM >= Motive value;
  the Attempt Arrest Action itself only needs Villain and Motive known (R007a).
- Revealing the Villain is not an encounter; the second encounter with the revealed
  Villain reveals the Motive (option 1) unless it is known already; the Motive is the
  1d6 rolled on the Villain's motives at that moment.
- Seek Information needs the Motive unrevealed and (a Clue event or the Villain revealed).
  It is one Action; the +1 comes from one channel Trait the group has and has not closed
  (the first in the rulebook's order: Charisma, Disguise, Thief, History); a 4 closes the
  Trait used ("you may not Seek Information using the chosen Trait again"), if any.
- The +1 of Investigate 7, Seek Information 7, Research 8-9 and Attempt Arrest 12 applies
  to the same Action next turn only and grows by 1 if the same row comes up again;
  Investigate allowed by Explore 9-10 or an event applies to next turn only.
- Locations are visited, not stayed at: Holmes works from 221B Baker Street and each
  Location event is a visit within the turn, so Investigate 8 is always a Location event
  (the group is never "at a Location other than 221B" when it Investigates). Keeping a
  location between turns would double the advisor's state for one row of one table.
- Research 3: one Trait is drawn uniformly from the group's Traits; each Ally having it
  leaves on 1d6 1-2.
- Attempt Arrest 4: a random Ally; Watson only if there is no Ally; nobody: only the Luck.
- Option 3: the player picks where to start (Deduction, Hide/Follow, Fight); a failed
  Deduction goes on to Hide/Follow, a failed Hide/Follow to Fight (if the Villain can be
  fought), and if all fail the Villain's ``escape`` effects apply. Deduction succeeds if
  Holmes's Brains + SM > 2d6 + the Villain's Brains.
- Combat (``combat.py``): see there. The advisor and the bots send Holmes or Watson to
  face the one opponent (R009a lets the player pick who fights; Allies watch). A wounded
  opponent ends the fight; a Villain in an option 3 fight is arrested when Wounded or
  worse (killed: the case is won, no arrest);
  killing an unfriendly character costs 1 Luck and the case goes on. The Wounded -2 is the
  strike modifier and the Brawn band uses unwounded Brawn (not counted twice).
- A Villain killed counts as a won case ("ends successfully"), like an arrest.
- An escape from a fight skips its win/lose effects, reads the campaign's escape paragraph
  and the event goes on.
- A replacement Inspector killed costs 3 Luck on top of R009b's 1d3.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import groupby
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from deduce.core.errors import InputError
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import effects as fx
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.knowledge import motive_distribution
from deduce.models.detective_story.state import (
    ARRESTED,
    outcome_text,
    HOLMES_KILLED,
    HOLMES_WOUNDED,
    LOST,
    TIME_UP,
    VILLAIN_KILLED,
    Case,
    Context,
)

#: a continuation: ``k(w, case, ...)`` goes on with what happened (what it returns is the
#: world's business: the case for a sampler, P(win) for the exact worlds)
K = Callable[..., Any]
#: a chance node's outcomes: ``((probability, outcome), ...)``
Dist = Sequence[tuple[float, Any]]


@runtime_checkable
class World(Protocol):
    """What the rules ask of a world (see the module docstring for each call's contract).

    ``worlds.Sampler``, ``live.Told``, ``advice.Tracer``, ``advice.Expect`` and
    ``naive.Naive`` implement it; every rule function takes one as ``w``.
    """

    def note(self, text: str) -> None:
        """Something that happened, in words (a sampler's or a told turn's log)."""

    def chance(self, case: Case, dist: Dist, k: K, what: tuple | None = None) -> Any:
        """A chance node: ``k(w, case, outcome)`` for an outcome of ``dist``.

        ``what`` says what is rolled, for a player who tells the dice (``live.Told``):
        ``("d6", outcome of each face, what the die is for)``, with a fourth part
        ``{outcome: its name}`` where an outcome is no id or line; ``("test", fx.Test)``;
        ``("heal", (healer, member, 2d6 needed))``; ``("1d3", member)``; ``("ally",)`` or
        ``("trait",)`` (drawn at random).
        """

    def choose(self, case: Case, kind: str, options: Sequence[str], k: K) -> Any:
        """A decision of the player: ``k(w, case, option)``."""

    def luck_roll(self, case: Case, tag: str, mod: int, with_sm: bool, table, k: K) -> Any:
        """An Action's 2d6 (+ ``mod``, + SM if ``with_sm``) that 1 Luck may re-roll
        (R003): ``k(w, case, outcome of the table's row)``."""

    def plain_roll(self, case: Case, mod: int, table, k: K) -> Any:
        """The Encounter Matrix 2d6 (+ ``mod``): ``k(w, case, outcome of the row)``."""

    def sm_at_least(self, case: Case, value: int, k_yes: K, k_no: K) -> Any:
        """``k_yes(w, case)`` if SM >= ``value``, else ``k_no(w, case)``."""

    def roll_at_most_sm(self, case: Case, offset: int, k: K) -> Any:
        """2d6 against SM + ``offset``: ``k(w, case, passed)``."""

    def combat(self, case: Case, setup: C.Setup, k: K) -> Any:
        """A fight (R009): ``k(w, case, terminal)`` with one of ``combat.terminals``."""

    def tail(self, key: tuple, case: Case, k: K, f: Callable[..., Any]) -> Any:
        """The last thing of a phase, ``f(w, case, k)`` (``key`` names it for a tracer)."""

    def finish(self, phase: "Phase", case: Case) -> Any:
        """The end of a phase (``Phase(w, case)`` calls it)."""


# ----------------------------------------------------------------------------- dice
TWO_D6 = tuple((s, (6 - abs(s - 7)) / 36) for s in range(2, 13))
D6 = tuple((1 / 6, f) for f in range(1, 7))


def p_2d6_at_most(x: int) -> float:
    return sum(p for s, p in TWO_D6 if s <= x)


def p_2d6_at_least(x: int) -> float:
    return sum(p for s, p in TWO_D6 if s >= x)


# ----------------------------------------------------------------------------- phases
class Phase:
    """The continuation at the end of a phase: the world decides what it returns."""

    __slots__ = ("key",)

    def __init__(self, key: tuple):
        self.key = key

    def __call__(self, w: World, case: Case):
        return w.finish(self, case)

    def __repr__(self) -> str:
        return f"Phase{self.key}"


AFTER_ACTION = {False: Phase(("action", False)), True: Phase(("action", True))}
AFTER_TURN = Phase(("turn",))

# ----------------------------------------------------------------------------- actions
ALL_ACTIONS = T.ACTIONS + (T.ESCAPE_TRAP,)


def base_action(action: str) -> str:
    return action


def seek_channel(ctx: Context, case: Case) -> str | None:
    """The channel Trait Seek Information uses now (None: no open channel in the group)."""
    for ch in T.SEEK_CHANNELS:
        if ch not in case.blocked and ctx.group_trait(case, ch):
            return ch
    return None


def action_status(ctx: Context, case: Case) -> list[tuple[str, bool, str]]:
    """``(action, legal, why)`` for every Action, citing the rule."""
    if case.over:
        return [(a, False, f"the case is over ({outcome_text(case.outcome)})")
                for a in ALL_ACTIONS]
    if case.trapped:
        return [(a, a == T.ESCAPE_TRAP, "R007a/c/d: caught in an enemy trap, this turn is "
                 "spent escaping" if a != T.ESCAPE_TRAP else "R007a/c/d: this turn is spent "
                 "escaping the trap (then the Encounter Matrix)") for a in ALL_ACTIONS]
    known, motive = case.villain is not None, case.motive >= 0
    out = []
    for a in ALL_ACTIONS:
        b = base_action(a)
        if a == T.ESCAPE_TRAP:
            out.append((a, False, "only after an enemy trap"))
            continue
        if b in ctx.adventure.forbidden:
            out.append((a, False, f"R007: {ctx.adventure.id} does not allow {b}"))
            continue
        if b == T.ATTEMPT_ARREST:
            ok, why = known and motive, "R007a: needs the Villain and the Motive revealed"
        elif b == T.EXPLORE:
            ok, why = not known, "R007b: only while no Villain is revealed"
        elif b == T.INVESTIGATE:
            ok = case.unlock or (known and not motive)
            why = "R007c: needs an event (or Explore 9-10) allowing it, or the Villain revealed without the Motive"
        elif b == T.SEEK:
            ok = not motive and (case.clue or known)
            why = "R007d: needs a Clue event or the Villain revealed, and no Motive yet"
        elif b == T.RESEARCH:
            ok, why = motive, "R007e: needs the Motive revealed"
        elif b == T.REST:
            ok = case.watson is not None or any(ctx.sheets[c].trait("Medicine") for c, _ in case.allies)
            why = "R007f: needs Watson or another character with Medicine present"
        else:
            ok, why = True, ""
        out.append((a, ok, "" if ok else why))
    return out


def legal_actions(ctx: Context, case: Case) -> list[str]:
    return [a for a, ok, _ in action_status(ctx, case) if ok]


def action_modifier(ctx: Context, case: Case, action: str) -> tuple[int, list[tuple[str, int]]]:
    """The total added to the Action's 2d6 and its parts ``[(why, amount), ...]``."""
    b = base_action(action)
    parts: list[tuple[str, int]] = []
    if b == T.ATTEMPT_ARREST:
        parts += [("SM", case.sm), ("turn", T.arrest_turn_modifier(case.turn))]
    elif b == T.EXPLORE:
        parts += [(f"{t} (max {cap})", min(cap, ctx.group_trait(case, t))) for t, cap in T.EXPLORE_TRAITS]
    elif b == T.INVESTIGATE:
        parts += [(f"{t} (max {cap})", min(cap, ctx.group_trait(case, t))) for t, cap in T.INVESTIGATE_TRAITS]
        if not ctx.adventure.london:
            parts += [(f"{t} outside London (max {cap})", min(cap, ctx.group_trait(case, t)))
                      for t, cap in T.INVESTIGATE_OUTSIDE_LONDON]
    elif b == T.SEEK:
        ch = seek_channel(ctx, case)
        parts.append((f"{ch} (channel)" if ch else "no open channel Trait",
                      T.SEEK_CHANNEL_BONUS if ch else 0))
    elif b == T.RESEARCH:
        parts += [("SM", case.sm), ("turn", T.research_turn_modifier(case.turn))]
    if case.bonus_action == b and case.bonus:
        parts.append(("bonus from last turn", case.bonus))
    parts = [(why, n) for why, n in parts if n]
    return sum(n for _, n in parts), parts


def roll_modifier(ctx: Context, case: Case, action: str) -> tuple[int, bool]:
    """``(modifier without SM, whether SM is added)``: Attempt Arrest and Research add SM."""
    with_sm = action in (T.ATTEMPT_ARREST, T.RESEARCH)
    mod, parts = action_modifier(ctx, case._replace(sm=0) if with_sm else case, action)
    return mod, with_sm


def check_action(ctx: Context, case: Case, action: str) -> None:
    for a, ok, why in action_status(ctx, case):
        if a == action:
            if not ok:
                raise InputError(f"{action} is not allowed now: {why}", field="action")
            return
    raise InputError(f"unknown action {action!r}", field="action")


# ----------------------------------------------------------------------------- small steps
def _plus(x, n: int):
    """``max(0, x + n)`` for an int, or the same on a symbolic value (``advice.Lin``)."""
    return max(0, x + n) if type(x) is int else x.plus(n)


def add_sm(case: Case, n: int) -> Case:
    return case._replace(sm=_plus(case.sm, n))


def add_luck(case: Case, n: int) -> Case:
    return case._replace(luck=_plus(case.luck, n))


def _set_health(case: Case, member: str, health: tuple) -> Case:
    if member == "holmes":
        return case._replace(holmes=health)
    if member == "watson":
        return case._replace(watson=health)
    return case._replace(allies=tuple(sorted((c, health if c == member else h) for c, h in case.allies)))


def health_of(case: Case, member: str) -> tuple:
    if member == "holmes":
        return case.holmes
    if member == "watson":
        return case.watson
    return dict(case.allies)[member]


def _remove(case: Case, member: str, killed: bool) -> Case:
    if member == "watson":
        case = case._replace(watson=None)
    else:
        case = case._replace(allies=tuple(a for a in case.allies if a[0] != member),
                             gone=case.gone | {member})
    return case._replace(dead=case.dead | {member}) if killed else case


def hurt(w: World, ctx: Context, case: Case, member: str, level: str, k):
    """``member`` suffers ``level`` (wounded, serious, killed/death) (R009b)."""
    if level == "wounded":
        h = health_of(case, member)
        if not h[0]:
            w.note(f"{ctx.name_of(member)} is Wounded")
            return k(w, _set_health(case, member, (1,) + tuple(h[1:])))
        level = "serious"
    if member == "holmes":
        w.note("Holmes is " + ("killed" if level != "serious" else "Seriously Wounded: the case is lost"))
        return k(w, case._replace(outcome=HOLMES_WOUNDED if level == "serious" else HOLMES_KILLED))
    if level == "serious":
        w.note(f"{ctx.name_of(member)} is Seriously Wounded and leaves the case")
        loss = T.WATSON_SERIOUS_LUCK if member == "watson" else T.ALLY_SERIOUS_LUCK
        return k(w, add_luck(_remove(case, member, False), -loss))
    w.note(f"{ctx.name_of(member)} is killed")
    case = _remove(case, member, True)
    if member == ctx.inspector and ctx.inspector_replaced:
        case = add_luck(case, -T.INSPECTOR_KILLED_LUCK)
    return w.chance(case, ((1 / 3, 1), (1 / 3, 2), (1 / 3, 3)),
                    lambda w, c, n: k(w, add_luck(c, -n)), what=("1d3", member))


def random_ally(w: World, case: Case, k, none):
    """Pick a random Ally (uniform); ``none(w, case)`` if there is none."""
    if not case.allies:
        return none(w, case)
    n = len(case.allies)
    return w.chance(case, tuple((1 / n, c) for c, _ in case.allies), k, what=("ally",))


def test_probability(ctx: Context, case: Case, t: fx.Test) -> float:
    """P(success) of a Quality or Trait roll (R004)."""
    if t.quality:
        return p_2d6_at_most(ctx.quality(ctx.holmes, case.holmes, t.name) + t.modifier)
    return p_2d6_at_least(t.target - ctx.group_trait(case, t.name, t.holmes_only))


def requirement_met(ctx: Context, case: Case, r: fx.Require) -> bool:
    if r.quality:
        return ctx.group_quality(case, r.name) >= r.total
    return ctx.group_trait(case, r.name) >= r.total


def _yes_no(p: float) -> tuple:
    if p >= 1.0:
        return ((1.0, True),)
    if p <= 0.0:
        return ((1.0, False),)
    return ((p, True), (1 - p, False))


# ----------------------------------------------------------------------------- effects
def run_effects(w: World, ctx: Context, case: Case, effects: fx.Effects, k, start: int = 0):
    """Apply ``effects[start:]`` in order, then ``k(w, case)`` (stops once the case is over)."""
    for i in range(start, len(effects)):
        if case.outcome is not None:
            break
        e = effects[i]
        t = type(e)
        if t is fx.SM:
            case = add_sm(case, e.n)
        elif t is fx.Luck:
            case = add_luck(case, e.n)
        elif t is fx.Unlock:
            case = case._replace(unlock=True)
        elif t is fx.Arrest:
            w.note("the Villain is arrested")
            case = case._replace(outcome=ARRESTED)
        elif t is fx.LoseCase:
            w.note("the Villain escapes justice: the case is lost")
            case = case._replace(outcome=LOST)
        elif t is fx.Afflict:
            case = _afflict(case, e)
        elif t is fx.Join:
            case = _join(w, ctx, case, e.character)
        elif t is fx.Require:
            sub = e.passed if requirement_met(ctx, case, e) else e.failed
            if sub:
                return run_effects(w, ctx, case, sub,
                                   lambda w, c, i=i: run_effects(w, ctx, c, effects, k, i + 1))
        else:
            rest = (lambda w, c, i=i: run_effects(w, ctx, c, effects, k, i + 1))
            return _branch(w, ctx, case, e, rest)
    return k(w, case)


def _afflict(case: Case, e: fx.Afflict) -> Case:
    if e.who == "watson" and case.watson is None:
        return case
    h = case.holmes if e.who == "holmes" else case.watson
    i = 1 if e.kind == "Addiction" else 2
    h = tuple(min(T.MAX_TRAIT, v + e.levels) if j == i else v for j, v in enumerate(h))
    return _set_health(case, e.who, h)


def _join(w: World, ctx: Context, case: Case, cid: str) -> Case:
    if cid in case.gone or cid in ctx.barred or any(c == cid for c, _ in case.allies):
        return case
    w.note(f"{ctx.sheets[cid].name} joins as an Ally")
    return case._replace(allies=tuple(sorted(case.allies + ((cid, (0, 0, 0)),))))


def _branch(w: World, ctx: Context, case: Case, e, rest):
    t = type(e)
    if t is fx.Test:
        p = test_probability(ctx, case, e)
        return w.chance(case, _yes_no(p), lambda w, c, ok: run_effects(
            w, ctx, c, e.passed if ok else e.failed, rest), what=("test", e))
    if t is fx.D6:
        groups = [(f, list(g)) for f, g in groupby(range(6), key=lambda i: e.faces[i])]
        dist = tuple((len(g) / 6, f) for f, g in groups)
        return w.chance(case, dist, lambda w, c, sub: run_effects(w, ctx, c, sub, rest),
                        what=("d6", e.faces, "the paragraph's d6"))
    if t is fx.Leave:
        return random_ally(w, case, lambda w, c, cid: rest(w, _remove(c, cid, False)), rest)
    if t is fx.Wound:
        if e.who == "ally":
            return random_ally(w, case, lambda w, c, cid: hurt(w, ctx, c, cid, e.level, rest), rest)
        if e.who == "watson" and case.watson is None:
            return rest(w, case)
        return hurt(w, ctx, case, e.who, e.level, rest)
    if t is fx.Reveal:
        if e.what == "villain":
            return reveal_villain(w, ctx, case, rest) if case.villain is None else rest(w, case)
        return reveal_motive(w, ctx, case, rest)
    if t is fx.Goto:
        return read(w, ctx, case, e.target, rest)
    if t is fx.Combat:
        return fight(w, ctx, case, e.opponent, e.won, e.lost, rest)
    raise TypeError(f"unknown effect {e!r}")


# ----------------------------------------------------------------------------- paragraphs
def read(w: World, ctx: Context, case: Case, pid: str, k, line: str | None = None):
    """Read Memoirs paragraph ``pid`` (reached through ``line`` if from an Adventure line)."""
    return w.tail(("read", pid, line), case, k, lambda w, c, k2: _read(w, ctx, c, pid, k2, line))


def _read(w: World, ctx: Context, case: Case, pid: str, k, line: str | None):
    p = ctx.data.paragraphs[pid]
    w.note(f"read {pid} ({p.title})")
    if line == T.CLUE:
        case = case._replace(clue=True)
    if p.once or p.revisit:
        if pid in case.visited:
            if p.once:
                w.note(f"{pid} can only happen once: no effect")
                return k(w, case)
            w.note(f"{pid} found again (R008): 1d6 4-6 +1 SM")
            return w.chance(case, ((0.5, 0), (0.5, 1)), lambda w, c, n: k(w, add_sm(c, n)),
                            what=("d6", (0, 0, 0, 1, 1, 1), "found again, 4-6: +1 SM",
                                  {0: "no SM", 1: "+1 SM"}))
        case = case._replace(visited=case.visited | {pid})
    return run_effects(w, ctx, case, p.effects, k)


def line_event(w: World, ctx: Context, case: Case, line: str, k):
    """Roll 1d6 on the Adventure's ``line`` and resolve the event (R006, R008)."""
    return w.tail(("line", line), case, k, lambda w, c, k2: _line_event(w, ctx, c, line, k2))


def _line_event(w: World, ctx: Context, case: Case, line: str, k):
    if line == T.VILLAIN:
        return villain_event(w, ctx, case, k)
    if line == T.WATSON and case.watson is None:
        w.note("a Watson event, but Watson is not with you: no effect")
        return k(w, case)
    return _line(w, ctx, case, line, k)


def _line(w: World, ctx: Context, case: Case, line: str, k):
    ids = ctx.adventure.line(line)
    counts: dict[str, int] = {}
    for pid in ids:
        counts[pid] = counts.get(pid, 0) + 1
    return w.chance(case, tuple((n / 6, pid) for pid, n in counts.items()),
                    lambda w, c, pid: read(w, ctx, c, pid, k, line),
                    what=("d6", ids, f"the {line.capitalize()} line"))


def holmes_or_watson(w: World, ctx: Context, case: Case, k):
    """1d6: 1-3 a Holmes event, 4-6 a Watson event."""
    return w.chance(case, ((0.5, T.HOLMES), (0.5, T.WATSON)),
                    lambda w, c, line: line_event(w, ctx, c, line, k),
                    what=("d6", (T.HOLMES,) * 3 + (T.WATSON,) * 3, "Holmes or Watson"))


# ----------------------------------------------------------------------------- the Villain
def specials(w: World, ctx: Context, case: Case, when: str, k):
    """The Adventure's special rules for ``when`` (start, reveal, motive), then ``k(w, case)``
    (rules marked for the first case only are skipped in later cases)."""
    effects = tuple(e for s in ctx.adventure.special if s.when == when
                    and (ctx.first_case or not s.first_case_only) for e in s.effects)
    return run_effects(w, ctx, case, effects, k) if effects else k(w, case)


def reveal_villain(w: World, ctx: Context, case: Case, k):
    """Roll the Villain line (R005a): the Villain's SM modifier applies, then special rules."""
    def revealed(w: World, c, vid):
        v = ctx.data.villains[vid]
        w.note(f"the Villain is revealed: {vid} ({v.name})")
        c = add_sm(c._replace(villain=vid, meetings=0), v.sm_modifier)
        return specials(w, ctx, c, "reveal", k)
    return w.chance(case, ctx.villain_dist, revealed,
                    what=("d6", ctx.adventure.line(T.VILLAIN), "the Villain line"))


def reveal_motive(w: World, ctx: Context, case: Case, k):
    """Reveal the Motive: 1d6 on the Villain's motives, option 1, then special rules."""
    if case.villain is None or case.motive >= 0:
        return k(w, case)
    v = ctx.data.villains[case.villain]

    def revealed(w: World, c, i):
        w.note(f"the Motive is revealed: {v.motives[i].text} (value {v.motives[i].value})")
        c = c._replace(motive=i)
        return run_effects(w, ctx, c, v.option1[1], lambda w, c2: specials(w, ctx, c2, "motive", k))
    faces = tuple(next(i for i, m in enumerate(v.motives) if f in m.faces) for f in range(1, 7))
    return w.chance(case, motive_distribution(v), revealed,
                    what=("d6", faces, "the Motive",
                          {i: f"{m.text} (value {m.value})" for i, m in enumerate(v.motives)}))


def villain_event(w: World, ctx: Context, case: Case, k):
    """A Villain event (R005a-b): reveal one, or meet the revealed one (option 1, 2 or 3)."""
    if case.villain is None:
        return reveal_villain(w, ctx, case, k)
    return w.tail(("villain",), case, k, lambda w, c, k2: _meet(w, ctx, c, k2))


def _meet(w: World, ctx: Context, case: Case, k):
    second = case.meetings >= 1
    case = case._replace(meetings=min(2, case.meetings + 1))
    if case.motive < 0 and second:
        return reveal_motive(w, ctx, case, k)
    value = ctx.motive_value(case)
    if value is None:
        return option2(w, ctx, case, k)
    return w.sm_at_least(case, value, lambda w, c: option3(w, ctx, c, k),
                         lambda w, c: option2(w, ctx, c, k))


def option2(w: World, ctx: Context, case: Case, k):
    v = ctx.data.villains[case.villain]
    w.note(f"{v.name}: option 2")
    return run_effects(w, ctx, case, v.option2[1], k)


O3_CHOICES = ("deduction", "hide_follow", "fight")
#: option 3's choices in words (the player may type either)
O3_WORDS = {"deduction": "Deduction", "hide_follow": "Hide/Follow", "fight": "Fight"}
#: the decisions of ``w.choose`` in words
CHOICE_WORDS = {"option3": "Option 3 (face to face, R005b)"}


def choice_text(kind: str, choice: str | None = None) -> str:
    """A decision (and what was chosen) in words: ``Option 3 (face to face, R005b):
    Hide/Follow``."""
    text = CHOICE_WORDS.get(kind, kind)
    return text if choice is None else f"{text}: {O3_WORDS.get(choice, choice)}"


def option3(w: World, ctx: Context, case: Case, k):
    """Face to face (R005b option 3): choose where to start."""
    v = ctx.data.villains[case.villain]
    w.note(f"{v.name}: option 3")
    starts = O3_CHOICES if v.option3.fight else O3_CHOICES[:2]
    return w.choose(case, "option3", starts, lambda w, c, s: _o3(w, ctx, c, s, k))


def deduction_probability(ctx: Context, case: Case) -> float:
    """P(Holmes's Brains + SM > 2d6 + the Villain's Brains)."""
    v = ctx.data.villains[case.villain]
    return p_2d6_at_most(ctx.holmes.brains + case.sm - v.sheet.brains - 1)


def _o3(w: World, ctx: Context, case: Case, step: str, k):
    v = ctx.data.villains[case.villain]
    o3 = v.option3
    if step == "deduction":  # Brains + SM > 2d6 + Villain's Brains
        return w.roll_at_most_sm(
            case, ctx.holmes.brains - v.sheet.brains - 1,
            lambda w, c, ok: _arrest(w, ctx, c, "deduction", k) if ok
            else _o3(w, ctx, c, "hide_follow", k))
    if step == "hide_follow":
        return w.chance(
            case, _yes_no(test_probability(ctx, case, o3.hide_follow)),
            lambda w, c, ok: _arrest(w, ctx, c, "hide_follow", k) if ok
            else (_o3(w, ctx, c, "fight", k) if o3.fight else _villain_escapes(w, ctx, c, k)),
            what=("test", o3.hide_follow))
    opponent = fx.Opponent(v.name, v.sheet.brawn, v.sheet.trait("Weaponry"), True)
    return fight(w, ctx, case, opponent, None, None, k)


def _arrest(w: World, ctx: Context, case: Case, how: str, k):
    v = ctx.data.villains[case.villain]
    w.note(f"{v.name} is arrested ({O3_WORDS[how]})")
    return run_effects(w, ctx, case, v.option3.reward(how),
                       lambda w, c: k(w, c if c.over else c._replace(outcome=ARRESTED)))


def _villain_escapes(w: World, ctx: Context, case: Case, k):
    v = ctx.data.villains[case.villain]
    w.note(f"{v.name} slips away")
    return run_effects(w, ctx, case, v.option3.escape, k)


# ----------------------------------------------------------------------------- combat
def combat_setup(ctx: Context, case: Case, opponent: fx.Opponent) -> C.Setup:
    """The fight as the advisor and the bots play it: Holmes or Watson faces the opponent
    each round (R009a lets the player choose who fights; Allies watch)."""
    fighters = []
    for key, sheet, h in ctx.members(case)[:2]:
        strike = sheet.brawn + T.strike_modifier(sheet.brawn, sheet.trait("Weaponry"),
                                                 wounded=bool(h[0]), addiction=h[1], madness=h[2])
        fighters.append(C.Fighter(key, strike, key in ("holmes", "watson")))
    opp = opponent.brawn + T.strike_modifier(opponent.brawn, opponent.weaponry)
    escape_at = ctx.holmes.bravery + ctx.group_trait(case, "Running")
    return C.Setup(tuple(fighters), opp, escape_at)


def fight(w: World, ctx: Context, case: Case, opponent: fx.Opponent, won, lost, k):
    """R009: a fight; ``won``/``lost`` effects (``None``: the option 3 fight with the Villain)."""
    w.note(f"combat with {opponent.name}")
    setup = combat_setup(ctx, case, opponent)

    def after(w: World, c, t):
        if t[0] == C.ESCAPED:
            w.note("escaped from the fight")
            then = k if won is not None else (lambda w, c2: _villain_escapes(w, ctx, c2, k))
            return read(w, ctx, c, ctx.data.campaign.escape, then)
        if t[0] == C.WON:
            w.note(f"{opponent.name} is {T.LEVEL_WORDS[t[1]]}")
            if won is None:  # the Villain
                if t[1] == "death":
                    return k(w, add_luck(c, -T.ENEMY_KILLED_LUCK)._replace(outcome=VILLAIN_KILLED))
                return _arrest(w, ctx, c, "fight", k)
            if t[1] == "death":
                c = add_luck(c, -T.ENEMY_KILLED_LUCK)
            return run_effects(w, ctx, c, won, k)
        member, level = t[1], t[2]
        then = ((lambda w, c2: run_effects(w, ctx, c2, lost, k)) if lost is not None
                else (lambda w, c2: _villain_escapes(w, ctx, c2, k)))
        return hurt(w, ctx, c, member, level, then)

    return w.combat(case, setup, after)


# ----------------------------------------------------------------------------- a turn
def take_action(w: World, ctx: Context, case: Case, action: str, k):
    """Play ``action`` (legal: see ``check_action``) and continue with ``k(w, case)``."""
    if action in (T.ESCAPE_TRAP, T.WAIT, T.REST):
        case = _start_action(case)
        return rest(w, ctx, case, k) if action == T.REST else k(w, case)
    case, mod, with_sm, table, k_row = action_roll(ctx, case, action, k)
    return w.luck_roll(case, action, mod, with_sm, table, k_row)


def _start_action(case: Case) -> Case:
    """Last turn's bonus, Investigate permission and trap are used up when an Action starts."""
    return case._replace(bonus_action=None, bonus=0, unlock=False, trapped=False)


def action_roll(ctx: Context, case: Case, action: str, k):
    """For an Action with a 2d6 table: ``(case as the dice are rolled, modifier without SM,
    whether SM is added, table, row continuation k_row(w, case, outcome))``."""
    mod, with_sm = roll_modifier(ctx, case, action)
    carried = case.bonus if case.bonus_action == action else 0
    channel = seek_channel(ctx, case) if action == T.SEEK else None
    return (_start_action(case), mod, with_sm, T.ACTION_TABLES[action],
            lambda w, c, outcome: _row(w, ctx, c, action, outcome, carried, channel, k))


def _row(w: World, ctx: Context, case: Case, action: str, outcome: str, carried: int,
         channel: str | None, k):
    b = base_action(action)
    w.note(f"{action}: {T.OUTCOME_TEXT[b][outcome]}")
    if outcome == "nothing":
        return k(w, case)
    if outcome == "trap":
        return k(w, case._replace(trapped=True))
    if outcome == "bonus":
        return k(w, case._replace(bonus_action=b, bonus=carried + 1))
    if outcome == "villain":
        return villain_event(w, ctx, case, k)
    if outcome == "clue":
        return line_event(w, ctx, case, T.CLUE, k)
    if outcome == "holmes_or_watson":
        return holmes_or_watson(w, ctx, case, k)
    if outcome == "sm":
        return k(w, add_sm(case, 1))
    if outcome == "lose_luck":
        return k(w, add_luck(case, -1))
    if b == T.ATTEMPT_ARREST:
        return _arrest_row(w, ctx, case, outcome, k)
    if b == T.EXPLORE:
        if outcome == "lost":
            return read(w, ctx, case, ctx.data.campaign.baker_street, k)
        if outcome == "ally_leaves":
            return random_ally(w, case, lambda w, c, cid: k(w, _remove(c, cid, False)), k)
        if outcome == "character":
            return line_event(w, ctx, case, T.CHARACTER, k)
        return k(w, case._replace(unlock=True))  # unlock_investigate
    if b == T.INVESTIGATE:  # location
        return line_event(w, ctx, case, T.LOCATION, k)
    if b == T.SEEK:
        if outcome == "channel_blocked":
            return k(w, case._replace(blocked=case.blocked | {channel}) if channel else case)
        if outcome == "witness":
            return w.chance(case, ((1 / 3, T.LOCATION), (1 / 3, T.CHARACTER), (1 / 3, T.CLUE)),
                            lambda w, c, line: line_event(w, ctx, c, line, k),
                            what=("d6", (T.LOCATION,) * 2 + (T.CHARACTER,) * 2 + (T.CLUE,) * 2,
                                  "the witness's line"))
        if case.villain is None:  # motive, with no Villain revealed: no effect
            return k(w, case)
        return reveal_motive(w, ctx, add_luck(case, 1), k)
    # Research
    if outcome == "breakthrough":
        return k(w, add_sm(add_luck(case, 1), 1))
    if outcome == "sm2":
        return k(w, add_sm(case, 2))
    return allies_may_leave(w, ctx, case, k)


def _arrest_row(w: World, ctx: Context, case: Case, outcome: str, k):
    if outcome == "holmes_killed":
        return k(w, case._replace(outcome=HOLMES_KILLED))
    if outcome == "ally_killed":
        case = add_luck(case, -T.ARREST_ALLY_KILLED_LUCK)
        if case.allies:
            return random_ally(w, case, lambda w, c, cid: hurt(w, ctx, c, cid, "killed", k), k)
        if case.watson is not None:
            return hurt(w, ctx, case, "watson", "killed", k)
        return k(w, case)
    if outcome in ("outwitted", "confrontation"):
        case = add_sm(case, -1 if outcome == "outwitted" else 1)
        return option2(w, ctx, case, k)
    return option3(w, ctx, case, k)  # option3


def allies_may_leave(w: World, ctx: Context, case: Case, k):
    """R007e 3: a random Trait of the group; each Ally with it leaves on 1d6 1-2."""
    traits = sorted({t for _, s, _ in ctx.members(case) for t, lv in s.traits if lv})
    if not traits or not case.allies:
        return k(w, case)

    def each(w: World, c, holders, i):
        if i == len(holders):
            return k(w, c)
        return w.chance(c, ((1 / 3, True), (2 / 3, False)), lambda w, c2, leaves: each(
            w, _remove(c2, holders[i], False) if leaves else c2, holders, i + 1),
            what=("d6", (True, True, False, False, False, False), "the Ally leaves on 1-2"))

    def drawn(w: World, c, trait):
        holders = [cid for cid, _ in c.allies if ctx.sheets[cid].trait(trait)]
        return each(w, c, holders, 0)

    return w.chance(case, tuple((1 / len(traits), t) for t in traits), drawn, what=("trait",))


def rest(w: World, ctx: Context, case: Case, k):
    """R007f: each character with Medicine heals in turn (Watson first) until a roll fails."""
    healers = ([("watson", ctx.watson.trait("Medicine"))] if case.watson is not None and ctx.watson else [])
    healers += [(cid, ctx.sheets[cid].trait("Medicine")) for cid, _ in case.allies
                if ctx.sheets[cid].trait("Medicine")]
    healers = [(h, m) for h, m in healers if m > 0]
    return _heal(w, ctx, case, healers, 0, k)


def _next_target(case: Case):
    members = [("holmes", case.holmes)] + ([("watson", case.watson)] if case.watson else [])
    members += list(case.allies)
    for idx, target in ((0, T.HEAL_WOUND), (1, T.HEAL_ADDICTION), (2, T.HEAL_MADNESS)):
        for m, h in members:
            if h[idx]:
                return m, idx, target
    return None


def _heal(w: World, ctx: Context, case: Case, healers: list, i: int, k):
    nxt = _next_target(case)
    if nxt is None or i >= len(healers):
        return k(w, case)
    member, idx, target = nxt
    healer, medicine = healers[i]
    if healer != "watson" and healer not in dict(case.allies):
        return _heal(w, ctx, case, healers, i + 1, k)
    p = p_2d6_at_least(target - medicine)

    def rolled(w: World, c, ok):
        if not ok:
            return _heal(w, ctx, c, healers, i + 1, k)
        h = list(health_of(c, member))
        h[idx] -= 1
        w.note(f"{ctx.name_of(healer)} heals {ctx.name_of(member)}")
        return _heal(w, ctx, _set_health(c, member, tuple(h)), healers, i, k)

    return w.chance(case, _yes_no(p), rolled, what=("heal", (healer, member, target - medicine)))


def vertical_modifier(ctx: Context, case: Case) -> int:
    if ctx.can_arrest(case):
        return T.CAN_ARREST_VERTICAL
    return T.MOTIVE_VERTICAL if case.motive >= 0 else 0


def encounter_table(turn: int) -> tuple[T.Row, ...]:
    on = T.band_for(turn).event_on
    return (T.Row(2, on - 1, "quiet"), T.Row(on, None, "event"))


def encounter(w: World, ctx: Context, case: Case, waited: bool, k):
    """R008: 2d6 (+1 after Wait) against the turn band; an event: 1d6 (vertical modifiers)."""
    if case.over:
        return k(w, case)
    mod, table, k_row = encounter_roll(ctx, case, waited, k)
    return w.plain_roll(case, mod, table, k_row)


def encounter_roll(ctx: Context, case: Case, waited: bool, k):
    """``(modifier, table, row continuation)`` of the Encounter Matrix 2d6."""
    mod = T.WAIT_ENCOUNTER_BONUS if waited else 0
    return (mod, encounter_table(case.turn),
            lambda w, c, outcome: _encounter_event(w, ctx, c, k) if outcome == "event" else k(w, c))


def columns_for(turn: int, vm: int) -> tuple:
    """``((probability, column or None), ...)`` of the vertical d6 with modifier ``vm``."""
    acc: dict = {}
    for f in range(1, 7):
        col = T.encounter_column(turn, f, vm)
        acc[col] = acc.get(col, 0) + 1 / 6
    return tuple((p, col) for col, p in acc.items())


@lru_cache(maxsize=None)
def column_faces(turn: int, vm: int) -> tuple:
    """The ``what`` of the vertical d6: ``("d6", column of each face)``."""
    return ("d6", tuple(T.encounter_column(turn, f, vm) for f in range(1, 7)),
            "the Encounter Matrix's column" + (f" ({vm:+d})" if vm else ""))


def encounter_columns(ctx: Context, case: Case) -> tuple:
    """The vertical d6's columns this turn (a case with a concrete SM)."""
    return columns_for(case.turn, vertical_modifier(ctx, case))


def _encounter_event(w: World, ctx: Context, case: Case, k):
    def column(w: World, c, col):
        if col is None:
            w.note("Encounter Matrix: no encounter")
            return k(w, c)
        w.note(f"Encounter Matrix: {T.LINE_WORDS[col]}")
        return line_event(w, ctx, c, col, k)

    value = ctx.motive_value(case)
    if value is None:
        return w.chance(case, columns_for(case.turn, 0), column, what=column_faces(case.turn, 0))
    return w.sm_at_least(
        case, value,
        lambda w, c: w.chance(c, columns_for(c.turn, T.CAN_ARREST_VERTICAL), column,
                              what=column_faces(c.turn, T.CAN_ARREST_VERTICAL)),
        lambda w, c: w.chance(c, columns_for(c.turn, T.MOTIVE_VERTICAL), column,
                              what=column_faces(c.turn, T.MOTIVE_VERTICAL)))


def end_turn(case: Case) -> Case:
    """Next turn, or the case lost when turn 12 ends without an arrest."""
    if case.over:
        return case
    if case.turn >= T.TURNS:
        return case._replace(outcome=TIME_UP)
    return case._replace(turn=case.turn + 1)
