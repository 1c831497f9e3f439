"""The Deductions rules engine (``deduce.models.deductions.rules``): one test per rule of
the rulebook and per decision of the spec, with exact values, and property tests of
random legal play."""

from __future__ import annotations

import pytest

from deduce.core.errors import InputError
from deduce.models.deductions.rules import (
    Claim,
    Discard,
    Draw,
    MindPalace,
    Reserve,
    Rotate,
    Solve,
    Take,
    action_from_json,
)

ACTIONS = [Draw(), Take((1, 2)), Take((0, 0), (3, 3)), MindPalace(("column", 3)),
           Solve("hound-suspect", ((("Sherlock Holmes",), "Statements"),
                                   (("Writings", "Writings", "Artifacts"), "Knowledge"))),
           Reserve("sign-means"), Rotate("hound-motive", "Knowledge"), Discard("Irene Adler"),
           Claim("diversity", ("a", "b", "c", "d", "e"))]


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_actions_round_trip_through_json(action):
    back = action_from_json(action.to_json())
    assert back == action and back.to_json() == action.to_json()
    assert hash(back) == hash(action)


def test_action_json_takes_aliases_and_names_bad_fields():
    assert action_from_json({"action": "discard", "card": "irene"}) == Discard("Irene Adler")
    with pytest.raises(InputError) as err:
        action_from_json({"action": "take", "cell": [4, 0]})
    assert "field 'cell'" in str(err.value)
    with pytest.raises(InputError) as err:
        action_from_json({"action": "fly"})
    assert "unknown action 'fly'" in str(err.value)


def test_solves_are_equal_by_their_case():
    assert Solve("x", ((("Writings",), "Writings"),)) == Solve("x")
    assert repr(Solve("x", ((("Writings",), "Writings"),))) == "Solve(case='x')"
