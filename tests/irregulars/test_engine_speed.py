"""The engine's shortcuts (helper "ispeed") against the plain ways: the squeeze tables
built bit by bit, the arrest turn's reach test before any cover is listed, the Picks
looked up, a listed Arrest applied without its checks, the player names checked once."""

from __future__ import annotations

import random

import pytest

from deduce.core.errors import InputError
from deduce.models.irregulars import covers, rules
from deduce.models.irregulars.rules import (
    ARREST,
    ARREST_CHOICES,
    FINAL,
    HOLMES_BOARD,
    INVESTIGATE,
    NO_ARREST,
    Arrest,
    PassHand,
    Pick,
    new_game,
    new_solo,
)


def test_every_squeeze_table_is_the_definition():
    for villain in range(1 << 9):
        bits = [b for b in range(9) if villain >> b & 1]
        expected = [sum(1 << i for i, b in enumerate(bits) if m >> b & 1)
                    for m in range(1 << 9)]
        covers._SQUEEZE.pop(villain, None)
        assert covers.squeezed(villain) == expected


def plain_arrests(state: rules.State, p: int) -> list:
    """The arrest turn's Arrest actions as the module docstring says them: every visible
    Villain in row order, without and then with the Holmes board, the capped covers of
    ``naive_arrest_covers`` (brute force over every subset), no reach test first."""
    unused = [c for c in state.owned[p] if c not in state.used[p]]
    masks = [state.cards.evidence_by_id[c].mask for c in unused]
    board = HOLMES_BOARD in state.boards[p]
    out = []
    for v in state.row:
        mask = state.cards.villain_by_id[v].mask
        allowed = 1 if state.tailing[p] == v else 0
        for holmes, extra in ((False, 0), (True, 1)):
            if holmes and not board:
                continue
            found = covers.naive_arrest_covers(masks, mask, allowed + extra, ARREST_CHOICES)
            for cover in (found[1] if found else []):
                out.append((v, tuple(unused[i] for i in cover), holmes))
    return out


@pytest.mark.parametrize("players", [2, 4, 5])
def test_every_listed_turn_is_the_plain_definition_in_random_games(players):
    checked = {"arrest": 0, "pick": 0}
    for seed in range(4):
        state = new_game(seed, players)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            p = state.current_player()
            if state.phase in (ARREST, FINAL):
                listed = [(a.villain, a.cards, a.holmes) for a in legal
                          if isinstance(a, Arrest)]
                assert listed == plain_arrests(state, p)
                assert NO_ARREST in legal
                checked["arrest"] += 1
            elif state.phase == INVESTIGATE:
                cost = {c.id: c.cost for c in state.cards.evidence}
                plain = [Pick(c) for c in state.hands[p] if cost[c] <= state.available[p]]
                assert legal == (plain or [PassHand()])
                checked["pick"] += 1
            state.apply(rng.choice(legal))
    assert checked["arrest"] > 20 and checked["pick"] > 100


def test_a_listed_arrest_and_the_same_arrest_made_anew_play_alike():
    done = 0
    for seed in range(12):
        state = new_game(seed, 3)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            action = rng.choice(legal)
            if isinstance(action, Arrest):
                twin = state.clone()
                anew = Arrest(action.villain, tuple(action.cards), action.holmes)
                assert anew is not action
                state.apply(action)
                twin.apply(anew)
                assert twin.chance_seed == state.chance_seed
                for seat in range(state.n):
                    assert twin.observation(seat) == state.observation(seat)
                    assert twin.hidden(seat) == state.hidden(seat)
                done += 1
            else:
                state.apply(action)
    assert done >= 10


def test_an_arrest_not_listed_is_still_checked():
    for seed in range(40):
        state = new_game(seed, 3)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            arrests = [a for a in legal if isinstance(a, Arrest) and a.cards]
            if arrests:
                a = arrests[0]
                with pytest.raises(InputError, match="miss"):
                    state.apply(Arrest(a.villain, a.cards[:-1], a.holmes))
                assert state.legal_actions() == legal
                return
            state.apply(rng.choice(legal))
    raise AssertionError("no arrest in 40 games")  # pragma: no cover


def test_player_names_are_checked_every_time_even_once_remembered():
    assert new_game(1, 3, names=["Ann", "Bob", "Cy"]).names == ("Ann", "Bob", "Cy")
    assert new_game(2, 3, names=("Ann", "Bob", "Cy")).names == ("Ann", "Bob", "Cy")
    for bad in (["Ann", "ann", "Cy"], ["Ann", "", "Cy"], ["Ann", 7, "Cy"]):
        for _ in range(2):
            with pytest.raises(InputError):
                new_game(1, 3, names=bad)
    with pytest.raises(InputError):
        new_solo(1, name="Holmes")
    assert new_solo(1, name="Zoe").names == ("Zoe", "Holmes")
