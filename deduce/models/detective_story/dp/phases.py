"""The phases of a turn, each compiled once per mode (``compile.Lump``) and traced once
per *shape*.

Events never read the turn, so a phase is compiled per mode key (``modes.ModeKeys.key``)
and, for the Encounter phase, per band of the Encounter Matrix: an Action's rows (one lump
per row outcome, the +1 row left to the caller), Rest's healing rolls, the Encounter
phase after Wait or not (event lines as ``trace.Ref``), and each event line on its own.
A phase's trace is kept with the fields of the mode it read or wrote (``trace.Probe``)
and serves every mode that agrees on them (``Phases._traced``); only the compiling, which
resolves each leaf to its mode's memo key, is per mode.
"""

from __future__ import annotations

from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.dp.compile import Compiler, Lump
from deduce.models.detective_story.dp.modes import probe
from deduce.models.detective_story.dp.rolls import outcomes_of
from deduce.models.detective_story.dp.trace import Tracer
from deduce.models.detective_story.state import Case, Context


def turn_class(t: int) -> tuple:
    """What an Action roll reads of the turn (R007a, R007e): turns of one class roll
    alike (turns 1-2, 3-4, 5-8 and 9-12 with the shipped tables)."""
    return T.arrest_turn_modifier(t), T.research_turn_modifier(t)


class Phases:
    """The compiled phases of one case context (kept for the life of the solver)."""

    def __init__(self, ctx: Context, tracer: Tracer, compiler: Compiler):
        self.ctx = ctx
        self.tracer = tracer
        self.compiler = compiler
        self.rests: dict = {}  # (key, action) -> Lump
        self.rows: dict = {}  # (key, action) -> {row outcome: Lump}
        self.encounters: dict = {}  # (key, band, waited) -> Lump (event lines as ``Ref``)
        self.lines: dict = {}  # (key, line) -> Lump
        self.parts: dict = {}  # (key, action, turn class) -> ``action_parts``
        self.shapes: dict = {}  # ``_traced``: kind -> {fields: {their values: Expr}} (a
        # sweep empties it once its phases are compiled: a002's traces held 16 MB when
        # they were 4,090)

    def _compiled(self, memo: dict, k, key: Case, t: int, phase, kind: tuple,
                  refs: bool = False) -> Lump:
        """``phase(w, case)`` from ``probe(key, t)``, compiled once per ``k`` in ``memo``
        (traced once per ``kind`` and values of the fields it reads: ``_traced``)."""
        lump = memo.get(k)
        if lump is None:
            start = probe(key, t)
            lump = memo[k] = self.compiler.compile(self._traced(kind, phase, start, refs),
                                                   start)
        return lump

    def _traced(self, kind: tuple, phase, start: Case, refs: bool = False):
        """The expression of ``phase`` (``kind`` names it: a phase and what its closure
        holds) from ``start``, traced only if no start of the same kind that agreed with
        this one on every field its trace read or wrote was traced before
        (``Tracer.trace_fields``): most modes differ only in fields a phase never reads (a
        fresh a001 solve traces 1,429 of its 20,488 phases; an Action row's kind holds
        what its continuation holds besides its start, ``action_rows``)."""
        shapes = self.shapes.setdefault(kind, {})
        for fields, exprs in shapes.items():
            expr = exprs.get(tuple([start[i] for i in fields]))
            if expr is not None:
                return expr
        expr, fields = self.tracer.trace_fields(phase, start, refs)
        shapes.setdefault(fields, {})[tuple([start[i] for i in fields])] = expr
        return expr

    def rest(self, key: Case, action: str) -> Lump:
        """Rest (no table): the healing rolls, up to the Encounter phase."""
        return self._compiled(self.rests, (key, action), key, 0, lambda w, c: E.take_action(
            w, self.ctx, c, action, E.AFTER_ACTION[False]), ("rest", action))

    def action_parts(self, t: int, key: Case, action: str) -> tuple:
        """``engine.action_roll`` of ``action`` at turn ``t`` from ``key`` (symbolic SM/Luck):
        ``(case as rolled, modifier, with SM, table, row continuation)``, kept per *turn
        class* (``turn_class``): the case as rolled is that of the class's first turn
        asked (callers read it without its turn)."""
        k = (key, action, turn_class(t))
        out = self.parts.get(k)
        if out is None:
            out = self.parts[k] = E.action_roll(self.ctx, probe(key, t), action,
                                                E.AFTER_ACTION[False])
        return out

    def action_rows(self, t: int, key: Case, action: str) -> dict:
        """``{outcome: Lump}`` of an Action's table rows up to the Encounter phase, from
        the case as rolled (``action_parts`` at turn ``t``, kept per (key, Action): the
        rows do not read the turn), for each outcome but the +1 row. A row's kind holds
        what its continuation holds besides the case it starts from
        (``engine.action_roll``): the channel Seek Information uses, read from the case
        before the roll (the carried bonus only matters to the +1 row). (Keying it by
        the fields the roll read instead made a fresh a001 solve trace 2,552 rows where
        758 differ in what they read, each group the very same expression.)"""
        rk = (key, action)
        lumps = self.rows.get(rk)
        if lumps is None:
            lumps = self.rows[rk] = {}
            cleared, _, _, table, k_row = self.action_parts(t, key, action)
            held = E.seek_channel(self.ctx, probe(key, t)) if action == T.SEEK else None
            start = Case._make(cleared._replace(turn=0))
            ends: dict = {}  # the rows' leaves from one start (``Compiler.compile``)
            for o in outcomes_of(table):
                if o != "bonus":
                    expr = self._traced(("row", action, o, held),
                                        lambda w, c, o=o: k_row(w, c, o), start)
                    lumps[o] = self.compiler.compile(expr, start, ends)
        return lumps

    def line(self, key: Case, line: str) -> Lump:
        """An event ``line`` read at the start of the Encounter phase, to the turn's end."""
        return self._compiled(self.lines, (key, line), key, 0, lambda w, c: E.line_event(
            w, self.ctx, c, line, E.AFTER_TURN), ("line", line))

    def encounter(self, key: Case, t: int, waited: bool) -> Lump:
        """The Encounter phase of turn ``t``'s band from ``key`` (event lines as ``Ref``)."""
        band = T.band_for(t)
        return self._compiled(self.encounters, (key, band, waited), key, t,
                              lambda w, c: E.encounter(w, self.ctx, c, waited, E.AFTER_TURN),
                              ("encounter", band, waited), refs=True)
