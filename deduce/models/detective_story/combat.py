"""Combat (R009): one opponent against the group, round by round, with escapes.

A fight is a small Markov decision process. Its state is ``(stunned, opp_stunned)``: which
of our fighters and whether the opponent have been Stunned (once per combat; later Stuns
have no effect). Each round we choose a champion (one of ours faces the one opponent); both
strike Brawn + 1d6 + modifiers; the lower total suffers the R009a result for the difference
(a tie, or "Unhurt", changes nothing). A Wounded or worse result ends the fight (decision:
"continues until one side ... is wounded or killed"). After a round that did not end it, we
may try to escape: one Bravery roll for the whole group by Holmes, 2d6 minus the group's
Running levels <= Bravery (decision: the group escapes together).

Terminal outcomes (``Terminal``): ``("won", level)``, ``("lost", member, level)``,
``("escaped",)``. ``solve`` returns the value of entering the fight and the optimal
stationary plan, given the value of each terminal outcome; rounds that change nothing are
self-loops, handled exactly by normalisation (value = gains / (1 - p_loop)).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import NamedTuple

from deduce.models.detective_story import tables as T

WON, LOST, ESCAPED = "won", "lost", "escaped"


class Fighter(NamedTuple):
    key: str  # "holmes", "watson" or a character id
    strike: int  # Brawn + R009a modifiers (not counting a Stun)
    holmes_or_watson: bool


class Setup(NamedTuple):
    fighters: tuple[Fighter, ...]
    opponent: int  # the opponent's Brawn + modifiers
    escape_at: int  # an escape succeeds on 2d6 <= this (Bravery + the group's Running)

    @property
    def p_escape(self) -> float:
        return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= self.escape_at) / 36


def terminals(setup: Setup) -> list[tuple]:
    """Every terminal outcome of a fight with ``setup``."""
    out: list[tuple] = [(WON, lv) for lv in ("wounded", "serious", "death")]
    for f in setup.fighters:
        levels = ("wounded", "serious") if f.holmes_or_watson else ("wounded", "serious", "death")
        out += [(LOST, f.key, lv) for lv in levels]
    out.append((ESCAPED,))
    return out


@lru_cache(maxsize=4096)
def round_distribution(ours: int, theirs: int, hw: bool, our_stun: bool,
                       their_stun: bool) -> tuple[tuple[str, str, float], ...]:
    """``((side, result, p), ...)`` of one round; side "us"/"opp" is who suffers ``result``
    (``stunned``, ``wounded``, ``serious``, ``death``); a round that changes nothing has side
    ``"loop"``."""
    acc: dict[tuple[str, str], float] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            diff = (ours + a - our_stun) - (theirs + b - their_stun)
            if diff > 0:
                res, side = T.combat_result(diff, False), "opp"
                if res == "stunned" and their_stun:
                    side, res = "loop", ""
            elif diff < 0:
                res, side = T.combat_result(-diff, hw), "us"
                if res == "unhurt" or (res == "stunned" and our_stun):
                    side, res = "loop", ""
            else:
                side, res = "loop", ""
            acc[(side, res)] = acc.get((side, res), 0.0) + 1 / 36
    return tuple((s, r, p) for (s, r), p in acc.items())


State = tuple  # (frozenset of stunned fighter keys, opponent stunned)
START: State = (frozenset(), False)


def _step(setup: Setup, x: State, f: Fighter):
    """Split a round from ``x`` with champion ``f``: (terminal probs, next-state probs, p_loop)."""
    stunned, opp = x
    term: dict[tuple, float] = {}
    nxt: dict[State, float] = {}
    loop = 0.0
    for side, res, p in round_distribution(f.strike, setup.opponent, f.holmes_or_watson,
                                           f.key in stunned, opp):
        if side == "loop":
            loop += p
        elif res == "stunned":
            y = (stunned, True) if side == "opp" else (stunned | {f.key}, opp)
            nxt[y] = nxt.get(y, 0.0) + p
        else:
            t = (WON, res) if side == "opp" else (LOST, f.key, res)
            term[t] = term.get(t, 0.0) + p
    return term, nxt, loop


@lru_cache(maxsize=1024)
def skeleton(setup: Setup) -> tuple:
    """The fight's states reachable from ``START``, each after every state it can lead to,
    with per champion ``(key, terminal probs, next-state probs, p_loop)``."""
    order: list = []
    seen: set = set()

    def visit(x: State) -> None:
        if x in seen:
            return
        seen.add(x)
        cands = []
        for f in setup.fighters:
            term, nxt, loop = _step(setup, x, f)
            for y in nxt:
                visit(y)
            cands.append((f.key, tuple(term.items()), tuple(nxt.items()), loop))
        order.append((x, tuple(cands)))

    visit(START)
    return tuple(order)


def solve(setup: Setup, value: dict) -> tuple:
    """The value of entering the fight and the optimal plan ``{state: (champion key, escape)}``,
    given ``value[terminal]`` for every terminal outcome.

    Values may be floats or numpy arrays (one fight solved for many situations at once,
    elementwise); the plan is only returned for floats (``None`` otherwise). Each state
    chooses the (champion, escape) pair with the best value after a round there; ties go to
    the first champion and to fighting on.
    """
    import numpy as np

    scalar = all(not isinstance(v, np.ndarray) for v in value.values())
    if not scalar:
        return _solve_arrays(setup, value, np), None
    W: dict[State, object] = {}
    U: dict[State, object] = {}
    plan: dict[State, tuple[str, bool]] = {}
    ve = value[(ESCAPED,)]
    pe = setup.p_escape
    for x, cands in skeleton(setup):
        best_w = best_u = best = None
        for key, term, nxt, loop in cands:
            gain = 0.0
            for t, p in term:
                gain = gain + p * value[t]
            for y, p in nxt:
                gain = gain + p * W[y]
            u0 = gain / (1 - loop) if loop < 1 - 1e-15 else 0.0 * gain
            den = 1 - loop * (1 - pe)
            u1 = (gain + loop * pe * ve) / den if den > 1e-15 else ve + 0.0 * gain
            w1 = pe * ve + (1 - pe) * u1
            for w, u, esc in ((u0, u0, False), (w1, u1, True)):
                if best_w is None:
                    best_w, best_u, best = w, u, (key, esc)
                elif scalar:
                    if (w, u) > (best_w, best_u):
                        best_w, best_u, best = w, u, (key, esc)
                else:
                    better = w > best_w
                    best_w = np.where(better, w, best_w)
                    best_u = np.where(better, u, best_u)
        W[x], U[x] = best_w, best_u
        if scalar:
            plan[x] = best
    return U[START], (plan if scalar else None)


def _solve_arrays(setup: Setup, value: dict, np):
    """``solve`` for array values: every state's candidates (champion, escape) at once,
    elementwise the best (value after a round, then value on entry), the first of equals:
    the same choice as the scalar version. Situations with equal terminal values are
    solved once (they are many: values saturate in SM and Luck)."""
    terms = list(value)
    shape = np.broadcast_shapes(*(np.shape(v) for v in value.values()))
    flat = np.stack([np.broadcast_to(value[t], shape) for t in terms]).reshape(len(terms), -1)
    weights = np.random.default_rng(len(terms)).random(len(terms))
    _, first, inverse = np.unique(weights @ flat, return_index=True, return_inverse=True)
    if len(first) < 0.7 * flat.shape[1]:
        cols = flat[:, first]
        if np.array_equal(cols[:, inverse], flat):  # no two different situations merged
            return solve_columns(setup, terms, cols, np)[inverse].reshape(shape)
    return solve_columns(setup, terms, flat, np).reshape(shape)


def solve_columns(setup: Setup, terms: list, VT, np):
    """The value on entry of the fight for each column of ``VT`` (terminal, situation):
    row i holds the values of terminal ``terms[i]``. Elementwise ``solve``: per state the
    best value after a round ``W`` (fight on: ``u0``; try to escape: ``w1``) and, among the
    (champion, escape) pairs that reach it, the best value on entry ``U`` (``u0``; ``u1``
    after an escape try)."""
    ve = VT[terms.index((ESCAPED,))]
    pe = setup.p_escape
    escape_gain = pe * ve  # what an escape try adds, whichever champion
    W: dict = {}
    U: dict = {}
    for x, P, nxt, (keep, stay, loop_escape, den, by_den) in _matrices(setup, tuple(terms)):
        gain = P @ VT  # (candidates, situations)
        for i, y, p in nxt:
            gain[i] += p * W[y]
        with np.errstate(divide="ignore", invalid="ignore"):
            u0 = gain / keep if stay is None else np.where(stay, gain / keep, 0.0)
            u1 = (gain + loop_escape * ve) / den
            if by_den is not None:
                u1 = np.where(by_den, u1, ve)
        w1 = escape_gain + (1 - pe) * u1
        top = np.maximum(u0.max(axis=0), w1.max(axis=0))
        # the best after a round, and among those the best on entry (the scalar tie-break):
        # a champion fighting on whose u0 is the top enters at the top
        on_entry = np.where(w1 == top, u1, -np.inf).max(axis=0)
        U[x] = np.maximum(np.where((u0 == top).any(axis=0), top, -np.inf), on_entry)
        W[x] = top
    return U[START]


@lru_cache(maxsize=1024)
def _matrices(setup: Setup, terms: tuple) -> tuple:
    """Per fight state (in ``skeleton`` order): the terminal probabilities of each
    champion as a matrix over ``terms``, the moves to other states ``(champion index,
    state, p)``, and per champion (columns) what ``solve_columns`` divides and adds:
    ``(1 - p_loop, whether a round can change anything (None: for every champion), p_loop
    * p_escape, 1 - p_loop * (1 - p_escape), whether that is above 0 (None: for every
    champion))``."""
    import numpy as np

    tindex = {t: i for i, t in enumerate(terms)}
    pe = setup.p_escape
    out = []
    for x, cands in skeleton(setup):
        P = np.zeros((len(cands), len(terms)))
        for i, (_, term, _, _) in enumerate(cands):
            for t, p in term:
                P[i, tindex[t]] += p
        lp = np.array([loop for _, _, _, loop in cands])[:, None]
        nxt = tuple((i, y, p) for i, (_, _, ys, _) in enumerate(cands) for y, p in ys)
        stay, den = lp < 1 - 1e-15, 1 - lp * (1 - pe)
        by_den = den > 1e-15
        out.append((x, P, nxt, (1 - lp, None if stay.all() else stay, lp * pe, den,
                                None if by_den.all() else by_den)))
    return tuple(out)


def simulate(setup: Setup, plan, rng: random.Random) -> tuple:
    """Fight round by round with seeded dice; ``plan(state) -> (champion key, escape)``."""
    fighters = {f.key: f for f in setup.fighters}
    x: State = START
    while True:
        champ, _ = plan(x)
        f = fighters[champ]
        stunned, opp = x
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        diff = (f.strike + a - (f.key in stunned)) - (setup.opponent + b - opp)
        if diff > 0:
            res = T.combat_result(diff, False)
            if res != "stunned":
                return (WON, res)
            x = (stunned, True)
        elif diff < 0:
            res = T.combat_result(-diff, f.holmes_or_watson)
            if res not in ("unhurt", "stunned"):
                return (LOST, f.key, res)
            if res == "stunned":
                x = (stunned | {f.key}, opp)
        if plan(x)[1] and rng.randint(1, 6) + rng.randint(1, 6) <= setup.escape_at:
            return (ESCAPED,)
