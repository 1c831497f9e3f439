"""The DP by recursion: the value of each (turn, mode) from the next turn's, computed on
demand and kept in the memo (``memo.Memo``).

A turn: the start (the best legal Action, ``start``), each Action (its table rows, the
+1 row for every carried bonus at once, the Luck re-roll choice: ``action``), the
Encounter phase after it for a tuple of flag labels at once (``encounter``), which reads
the next turn's start for each label (``start_rows``). Values are flat (S*L) arrays over
every SM and Luck (``grid``). The sweep computes the same values a whole turn at a time;
this is what it is checked against and what computes anything it did not cover.

How deep it goes: each turn nests a fixed number of calls (start, Action, Encounter
phase, an event line, the next turn's start: about 20 frames) plus the depth of the
engine's phases when they are first traced. Measured from a fresh case of the shipped
campaign (a001 and a002, the whole case by this recursion alone): at most 240 frames of
the program's stack (63 when the sweep fills the memo), well within Python's default
limit of 1000, which nothing here changes.
"""

from __future__ import annotations

from functools import reduce

import numpy as np

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.compile import Compiler
from deduce.models.detective_story.dp.grid import CAN_SPEND, L, SL, at, shift_luck
from deduce.models.detective_story.dp.memo import Memo, cell
from deduce.models.detective_story.dp.modes import (
    NO_FLAGS,
    TRAPPED,
    UNLOCKED,
    Flags,
    with_flags,
)
from deduce.models.detective_story.dp.phases import Phases
from deduce.models.detective_story.dp.rolls import RollOdds, outcomes_of
from deduce.models.detective_story.state import Case, Context


def terminal(case: Case) -> float:
    """P(win) of a case that is over: 1 if won, else 0."""
    return 1.0 if case.won else 0.0


class Recursion:
    """The DP of one case context over the memo ``memo``; ``phases`` its compiled phases,
    ``compiler`` what values them, ``odds`` its Action tables' odds.

    Keys: ``t`` the turn, ``key`` a mode key, ``f`` last turn's flags (``modes.Flags``).
    """

    def __init__(self, ctx: Context, memo: Memo, phases: Phases, compiler: Compiler,
                 odds: RollOdds, partial: bool = False):
        self.ctx = ctx
        self.memo = memo
        #: the memo is filled by the reachable-only sweep (``memo.Rows``: the cells it
        #: reached only): read it through ``start_value``, ``action_value``,
        #: ``encounter_value`` (``memo.cell``), which ask ``fallback`` for a cell it does
        #: not know; nothing is computed on it
        self.partial = partial
        self._fallback = None
        self.phases = phases
        self.compiler = compiler
        self.odds = odds
        self.encounter_calls = 0  # Encounter phases valued here (the sweep values its own)
        self._legal: dict = {}
        self._labels: dict = {}
        self._label_sets: dict = {}  # each distinct flag labels tuple, one object
        self._plans: dict = {}
        self._starts: dict = {}
        self._start_modes: dict = {}  # each distinct start mode, one object

    @property
    def fallback(self) -> "Recursion":
        """The plain recursion over a memo of its own (sharing this one's compiled phases):
        what values a cell a partial memo does not know."""
        if self._fallback is None:
            self._fallback = Recursion(self.ctx, Memo(), self.phases, self.compiler, self.odds)
        return self._fallback

    # -- one cell (SM, Luck): what the solver's readers call
    def start_value(self, t: int, key: Case, f: Flags, sm: int, luck: int,
                    fallback: bool = True) -> float:
        """P(win) at the start of turn ``t`` from ``key`` with flags ``f`` at ``sm`` and
        ``luck``. On a partial memo a cell it does not know is valued by ``fallback``
        (``fallback`` False: NaN)."""
        if not self.partial:
            return at(self.start(t, key, f), sm, luck)
        v = self.memo.start.get((t, self.start_mode(with_flags(key, f))))
        x = cell(v, 0, sm, luck) if v is not None else float("nan")
        if x != x and fallback:
            x = at(self.fallback.start(t, key, f), sm, luck)
        return x

    def action_value(self, t: int, key: Case, action: str, case: Case, sm: int, luck: int,
                     fallback: bool = True) -> float:
        """P(win) of ``action`` at turn ``t`` from ``key`` with the flags of ``case``, at
        ``sm`` and ``luck`` (``action_at`` at one cell; a partial memo as ``start_value``)."""
        if not self.partial:
            return at(self.action_at(t, key, action, case), sm, luck)
        if action in (T.ESCAPE_TRAP, T.WAIT):
            return self.encounter_value(t, key, action == T.WAIT, NO_FLAGS, sm, luck, fallback)
        carried = case.bonus if case.bonus_action == action else 0
        q = self.memo.action.get((t, key, action))
        x = cell(q, carried, sm, luck) if q is not None else float("nan")
        if x != x and fallback:
            x = at(self.fallback.action_at(t, key, action, case), sm, luck)
        return x

    def encounter_value(self, t: int, key: Case, waited: bool, f: Flags, sm: int, luck: int,
                        fallback: bool = True) -> float:
        """P(win) of turn ``t``'s Encounter phase from ``key`` (after Wait if ``waited``)
        after an Action that left flags ``f``, at ``sm`` and ``luck`` (a partial memo as
        ``start_value``)."""
        if not self.partial:
            return at(self.encounter(t, key, waited, (f,))[0], sm, luck)
        both = self.memo.encounter_all.get((t, key))
        x = float("nan")
        if both is not None:
            if waited:
                if f == NO_FLAGS:
                    x = cell(both[1], 0, sm, luck)
            else:
                every = self.flag_labels(t, key)
                if f in every:
                    x = cell(both[0], every.index(f), sm, luck)
        if x != x and fallback:
            x = at(self.fallback.encounter(t, key, waited, (f,))[0], sm, luck)
        return x

    def legal(self, case: Case) -> list[str]:
        """``engine.legal_actions`` of ``case`` (kept)."""
        out = self._legal.get(case)
        if out is None:
            out = self._legal[case] = E.legal_actions(self.ctx, case)
        return out

    def start_mode(self, mode: Case) -> Case:
        """``mode`` without the flags that cannot matter at the start of its turn."""
        if mode.trapped:
            return mode._replace(bonus_action=None, bonus=0, unlock=False)
        if mode.unlock and mode.villain is not None and mode.motive < 0:
            mode = mode._replace(unlock=False)  # Investigate is allowed anyway
        if mode.bonus_action and mode.bonus_action not in self.legal(mode):
            mode = mode._replace(bonus_action=None, bonus=0)
        return mode

    def turn_start(self, key: Case, f: Flags) -> tuple:
        """``(start mode, legal Actions, the Action carrying a bonus or None)`` of a turn's
        start from ``key`` with flags ``f`` (kept)."""
        hit = self._starts.get((key, f))
        if hit is None:
            vk = self.start_mode(with_flags(key, f))
            vk = self._start_modes.setdefault(vk, vk)  # many (key, flags) share one
            legal = tuple(self.legal(vk))
            bonus = vk.bonus_action if vk.bonus and vk.bonus_action in legal else None
            hit = self._starts[(key, f)] = (vk, legal, bonus)
        return hit

    # -- the start of a turn
    def start_rows(self, t: int, key: Case, labels: tuple) -> np.ndarray:
        """Start of turn ``t`` for each flag in ``labels``: (labels, S*L). The bonus values
        of one Action are one array operation: max(the Action with each bonus, the best
        other Action). Kept in ``memo.start_rows`` (recent ones only)."""
        vk = (t, key, labels)
        out = self.memo.start_rows.get(vk)
        if out is not None:
            return out
        out = np.empty((len(labels), SL))
        self.memo.keep_rows(vk, out)
        for a, unlock, pos, cs in self._plan(labels):
            if a is None:
                out[pos] = self.start(t, key, labels[pos])
                continue
            base = with_flags(key, Flags(None, 0, False, unlock))
            if a in self.legal(base):
                q = self.action(t, key, a, max(cs) + 1)
                out[pos] = np.maximum(q[cs], self.best_other(t, key, a, base))
            else:
                out[pos] = self.start(t, key, Flags(None, 0, False, unlock))
        return out

    def _plan(self, labels: tuple) -> tuple:
        """``labels`` grouped for ``start_rows``: ``(action, unlock, positions, bonuses)``
        per run of one Action's bonus values, ``(None, _, position, _)`` per other flag."""
        plan = self._plans.get(labels)
        if plan is None:
            runs: dict = {}
            singles = []
            for i, f in enumerate(labels):
                if f.bonus_action is None or f.trapped:
                    singles.append((None, f.unlock, i, None))
                else:
                    pos, cs = runs.setdefault((f.bonus_action, f.unlock), ([], []))
                    pos.append(i)
                    cs.append(f.bonus)
            plan = self._plans[labels] = tuple(singles) + tuple(
                (a, u, pos, cs) for (a, u), (pos, cs) in runs.items())
        return plan

    def start(self, t: int, key: Case, f: Flags):
        """Start of turn ``t`` from ``key`` with flags ``f``: the best legal Action, (S*L)."""
        vk = self.start_mode(with_flags(key, f))
        out = self.memo.start.get((t, vk))
        if out is None:
            out = reduce(np.maximum, [self.action_at(t, key, a, vk) for a in self.legal(vk)])
            self.memo.start[(t, vk)] = out
        return out

    def best_other(self, t: int, key: Case, action: str, base: Case):
        """The best legal Action other than ``action`` at ``base`` (no bonus): (S*L), or
        0.0 if there is none."""
        ok = (t, base, action)
        out = self.memo.best_other.get(ok)
        if out is None:
            values = [self.action_at(t, key, b, base) for b in self.legal(base) if b != action]
            out = self.memo.best_other[ok] = reduce(np.maximum, values) if values else 0.0
        return out

    # -- an Action
    def action_at(self, t: int, key: Case, action: str, case: Case):
        """``action`` at turn ``t`` from ``key`` with the flags of ``case``: (S*L)."""
        if action in (T.ESCAPE_TRAP, T.WAIT):
            return self.encounter(t, key, action == T.WAIT, (NO_FLAGS,))[0]
        carried = case.bonus if case.bonus_action == action else 0
        q = self.action(t, key, action, carried + 1)
        return q[carried] if q.ndim == 2 else q

    def action(self, t: int, key: Case, action: str, need: int = 1) -> np.ndarray:
        """``action`` at turn ``t``: (S*L), or (bonus, S*L) for an Action with a cumulative
        +1 row (at least ``need`` bonus values; a case at turn t carries less than t)."""
        qk = (t, key, action)
        out = self.memo.action.get(qk)
        if out is None or (out.ndim == 2 and out.shape[0] < need):
            out = self._action(t, key, action, max(need, min(t, self.carried_bound(key, action))))
            if not isinstance(out, np.ndarray):  # a constant (every path ends the case)
                out = np.full(SL, float(out))
            self.memo.action[qk] = out
        return out

    def carried_bound(self, key: Case, action: str) -> int:
        """More than the largest bonus ``action`` can carry into a turn: the +1 row stops
        being reachable once the bonus lifts every 2d6 total past it (with the turn
        modifier of any earlier turn: it only grows with the turn)."""
        if action not in T.ACTION_TABLES:
            return 1
        _, mod, with_sm, table, _ = self.phases.action_parts(1, key, action)
        return 1 + max((c + 1 for c in self.odds.bonus_grows(table, mod, with_sm, T.TURNS)),
                       default=0)

    def _after_action(self, t: int):
        return lambda target: self.encounter(t, target.key, False, (target.flags,))[0]

    def _action(self, t: int, key: Case, action: str, n_bonus: int):
        if action not in T.ACTION_TABLES:  # Rest: the healing rolls, then the Encounter phase
            return self.compiler.evaluate(self.phases.rest(key, action), self._after_action(t))
        _, mod, with_sm, table, _ = self.phases.action_parts(t, key, action)
        outcomes = outcomes_of(table)
        lumps = self.phases.action_rows(t, key, action)
        if "bonus" not in outcomes:
            n_bonus = 1
        probs = self.odds.bonus_probs(table, mod, with_sm, n_bonus)
        get = self._after_action(t)
        pairs = []
        for j, o in enumerate(outcomes):
            p = probs[:, :, j]
            if not p.any():
                continue
            p = np.repeat(p, L, axis=1) if with_sm else p  # (bonus, S*L or 1)
            if o == "bonus":  # the same mode, with next turn's bonus c + 1
                grows = list(self.odds.bonus_grows(table, mod, with_sm, n_bonus))
                vals = np.zeros((n_bonus, SL))
                vals[grows] = self.encounter(t, key, False, tuple(
                    Flags(action, c + 1, False, False) for c in grows))
                pairs.append((p, vals))
            else:
                pairs.append((p, self.compiler.evaluate(lumps[o], get)))
        keep = sum(p * v for p, v in pairs)
        again = sum(p * shift_luck(v) for p, v in pairs)
        best = sum(p * np.maximum(v, again) for p, v in pairs)
        out = np.where(CAN_SPEND, best, keep)
        out = np.broadcast_to(out, (n_bonus, SL))
        return out if "bonus" in outcomes else out[0]

    # -- the Encounter phase
    def encounter(self, t: int, key: Case, waited: bool, labels: tuple) -> np.ndarray:
        """The Encounter phase of turn ``t`` (after Wait if ``waited``) for each flag in
        ``labels`` (the flags the Action left for next turn): (labels, S*L). It is valued
        for every flag an Action at ``key`` can leave (``flag_labels``), after Wait and
        not, from one valuation of each event line, and sliced."""
        wk = (t, key, waited, labels)
        out = self.memo.encounter.get(wk)
        if out is None:
            every = self.flag_labels(t, key)
            if (waited and labels == (NO_FLAGS,)) or (not waited and labels != every
                                                      and all(f in every for f in labels)):
                at_once = self._encounter_all(t, key)[waited]
                rows = [every.index(f) for f in labels]
                contiguous = rows == list(range(rows[0], rows[0] + len(rows)))
                out = at_once[rows[0]:rows[0] + len(rows)] if contiguous else at_once[rows]
            elif not waited and labels == every:
                out = self._encounter_all(t, key)[False]
            else:  # a flag no Action leaves here (a hand-edited record): on its own
                out = self._encounter(t, key, waited, labels, None)
            self.memo.encounter[wk] = out
        return out

    def _encounter_all(self, t: int, key: Case) -> tuple:
        """The Encounter phase for every flag of ``flag_labels`` (not after Wait) and, after
        Wait, for no flag: each event line valued once for both."""
        ek = (t, key)
        both = self.memo.encounter_all.get(ek)
        if both is None:
            every = self.flag_labels(t, key)
            get = self._next_turn(t, every)
            lines: dict = {}

            def line_value(line):
                v = lines.get(line)
                if v is None:
                    v = lines[line] = self._line(key, line, get)
                return v

            wait = self._encounter(t, key, True, (NO_FLAGS,), lambda ln: line_value(ln)[:1])
            both = self.memo.encounter_all[ek] = (
                self._encounter(t, key, False, every, line_value, get), wait)
        return both

    def _line(self, key: Case, line: str, get):
        """An event ``line`` read at the start of the Encounter phase (``get``: the next
        turn's values, see ``_next_turn``)."""
        return self.compiler.evaluate(self.phases.line(key, line), get)

    def _next_turn(self, t: int, labels: tuple):
        """``get`` for the end of turn ``t``: next turn's start for each flag label (an event
        that allowed Investigate adds it to every label)."""
        if t >= T.TURNS:
            zero = np.zeros((len(labels), SL))
            return lambda target: zero
        unlocked = tuple(f._replace(unlock=True) for f in labels)
        return lambda target: self.start_rows(t + 1, target.key,
                                              unlocked if target.flags.unlock else labels)

    def flag_labels(self, t: int, key: Case) -> tuple:
        """Every flag an Action at turn ``t`` from ``key`` can leave for next turn: none,
        Investigate allowed, trapped, and each bonus a +1 row can grow to."""
        fk = (t, key)
        out = self._labels.get(fk)
        if out is None:
            out = [NO_FLAGS, UNLOCKED, TRAPPED]
            for a in T.ACTION_TABLES:
                if a not in self.legal(key) and a not in self.legal(with_flags(key, UNLOCKED)):
                    continue
                _, mod, with_sm, table, _ = self.phases.action_parts(t, key, a)
                out += [Flags(a, c + 1, False, False)
                        for c in self.odds.bonus_grows(table, mod, with_sm, t)]
            out = tuple(out)  # one object per distinct tuple (a few dozen for a case's
            out = self._labels[fk] = self._label_sets.setdefault(out, out)  # many keys)
        return out

    def _encounter(self, t: int, key: Case, waited: bool, labels: tuple, refs, get=None):
        """The Encounter phase for ``labels``; ``refs(line)``: each event line's values
        (None: valued here for ``labels``); ``get``: see ``_next_turn``."""
        self.encounter_calls += 1
        lump = self.phases.encounter(key, t, waited)
        get = get or self._next_turn(t, labels)
        if refs is None:
            refs = lambda line: self._line(key, line, get)  # noqa: E731
        value = self.compiler.evaluate(lump, get, refs=refs)
        return np.ascontiguousarray(np.broadcast_to(value, (len(labels), SL)))
