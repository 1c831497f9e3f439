"""The best sequence of arrests for the rest of the game from a player's unused Evidence
(``deduce irregulars arrest POSITION --plan``).

What is planned: at most one arrest per remaining Arrest Phase (``phases_left``), among the
Villains visible now, each of the player's unused Evidence cards used once; the tail counts
for the Villain the player tails now (all its icons but one), the Holmes board's ignore at
most once and only if the player holds it. Maximised: the Villain points secured; then the
fewest cards spent; then not using the board. What is not planned (unknown from the
position): the Villains that refill the row, the cards still to draft, future tails, and
the other players (or Holmes) arresting a Villain first.

Decision: exact by CP-SAT (imported when a plan is asked): a card-to-Villain assignment
with, per Villain, the icons left out (at most its allowance) is a small integer model
(cards x 5 Villains), and CP-SAT proves the optimum at once, where an exact search of our
own over the assignments would need its own bounds to stay fast with 30 cards or more.
Tests hold it equal to brute force over every assignment on small cases.

Remaining Arrest Phases (``phases_left``): multi, 4 per round (one per cycle) and one final
Arrest Phase after round 4's BSI Bonus: in round ``r`` cycle ``c``, the arrest phase of this
cycle counts while the position is before or in it (``investigate``, ``arrest``: the
position is ``me``'s decision point, so in ``arrest`` the player has not acted yet), then
``4 - c`` more this round (none after its ``bonus``), ``4 x (4 - r)`` in later rounds, and
the final one. Solo: one per cycle of the 19, no final one.

Order of the planned arrests (decision): the one using the Holmes board first (the board
returns at the round's end), then by points (most first: they are the ones others may take
first), then the row's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from deduce.models.irregulars.arrest import HOLMES_BOARD, TAIL
from deduce.models.irregulars.cards import ICON_BIT, ICONS, Evidence, Villain
from deduce.models.irregulars.position import (
    ARREST,
    BOARDS,
    CYCLES,
    INVESTIGATE,
    ROUNDS,
    SOLO_CYCLES,
    Position,
)


@dataclass(frozen=True)
class PlannedArrest:
    villain: Villain
    cards: tuple[Evidence, ...]
    uses: tuple[str, ...]

    def to_json(self) -> dict:
        return {"villain": self.villain.id, "points": self.villain.points,
                "cards": [c.id for c in self.cards], "uses": list(self.uses)}


@dataclass(frozen=True)
class Plan:
    player: str
    phases_left: int
    arrests: tuple[PlannedArrest, ...]

    @property
    def points(self) -> int:
        return sum(a.villain.points for a in self.arrests)

    @property
    def cards_used(self) -> int:
        return sum(len(a.cards) for a in self.arrests)

    def to_json(self) -> dict:
        """``{"player", "phases_left", "points", "cards_used", "arrests": [{"villain",
        "points", "cards", "uses"}, ...]}`` (arrests in the order to make them)."""
        return {"player": self.player, "phases_left": self.phases_left,
                "points": self.points, "cards_used": self.cards_used,
                "arrests": [a.to_json() for a in self.arrests]}


def phases_left(position: Position) -> int:
    """The Arrest Phases still to come for a player at ``position`` (module docstring)."""
    this = 1 if position.phase in (INVESTIGATE, ARREST) else 0
    if position.solo:
        return SOLO_CYCLES - position.cycle + this
    if position.phase not in (INVESTIGATE, ARREST, "tail"):  # the bonus: the round is over
        this_round = 0
    else:
        this_round = CYCLES - position.cycle + this
    return this_round + CYCLES * (ROUNDS - position.round) + 1


def best_plan(cards: Sequence[Evidence], villains: Sequence[Villain], tailed: str | None,
              board: bool, phases: int) -> tuple[int, int, list[tuple[int, list[int], bool]]]:
    """The optimum: ``(points, cards used, [(villain index, card indices, board used)])``
    over ``villains`` (the row) with the unused Evidence ``cards``, the tail on ``tailed``,
    the Holmes board when ``board``, at most ``phases`` arrests."""
    if phases <= 0 or not villains:
        return 0, 0, []
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    arrest = [m.NewBoolVar(f"a{v}") for v in range(len(villains))]
    use = {(i, v): m.NewBoolVar(f"x{i}_{v}") for i in range(len(cards))
           for v, villain in enumerate(villains) if cards[i].mask & villain.mask}
    ignore = [m.NewBoolVar(f"h{v}") for v in range(len(villains))]
    for i in range(len(cards)):
        m.Add(sum(use[i, v] for v in range(len(villains)) if (i, v) in use) <= 1)
    for (i, v), x in use.items():
        m.AddImplication(x, arrest[v])
    for v, villain in enumerate(villains):
        left_out = []
        for icon in ICONS:
            if villain.mask & ICON_BIT[icon]:
                skip = m.NewBoolVar(f"s{v}_{icon}")
                left_out.append(skip)
                m.Add(sum(use[i, v] for i in range(len(cards)) if (i, v) in use
                          and cards[i].mask & ICON_BIT[icon]) + skip >= arrest[v])
        m.Add(sum(left_out) <= int(villain.id == tailed) + ignore[v])
        m.AddImplication(ignore[v], arrest[v])
    m.Add(sum(ignore) <= int(board))
    m.Add(sum(arrest) <= phases)
    weight = 2 * len(cards) + 2  # one point outweighs every card and the board
    m.Maximize(weight * sum(v.points * a for v, a in zip(villains, arrest))
               - 2 * sum(use.values()) - sum(ignore))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    status = solver.Solve(m)
    if status != cp_model.OPTIMAL:  # pragma: no cover - a model this small is always solved
        raise RuntimeError(f"CP-SAT ended with status {solver.StatusName(status)}")
    chosen = []
    for v in range(len(villains)):
        if solver.Value(arrest[v]):
            idx = [i for i in range(len(cards)) if (i, v) in use and solver.Value(use[i, v])]
            chosen.append((v, idx, bool(solver.Value(ignore[v]))))
    points = sum(villains[v].points for v, _, _ in chosen)
    return points, sum(len(idx) for _, idx, _ in chosen), chosen


def plan(position: Position, player: str) -> Plan:
    """The best plan for ``player`` at ``position`` (module docstring)."""
    by_id = position.cards.villain_by_id
    villains = [by_id[v] for v in position.villains]
    cards = position.unused(player)
    tailed = position.tailing[player]
    board = BOARDS[0] in position.boards[player]
    phases = phases_left(position)
    _, _, chosen = best_plan(cards, villains, tailed, board, phases)
    chosen.sort(key=lambda c: (not c[2], -villains[c[0]].points, c[0]))
    out = []
    for v, idx, ignored in chosen:
        uses = ((TAIL,) if villains[v].id == tailed else ()) + \
            ((HOLMES_BOARD,) if ignored else ())
        out.append(PlannedArrest(villains[v], tuple(cards[i] for i in idx), uses))
    return Plan(player, phases, tuple(out))
