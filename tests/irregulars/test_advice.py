"""The advice (``advice``, ``explain``): every legal choice ranked by the chance to win,
the rollout caps, seeded, the bare position said to be so, the words of the best choice
read from the position, and the refusals (not my decision, a file neither a position nor
an observation)."""

from __future__ import annotations

import json

import pytest

from deduce.core.errors import InputError
from deduce.models.irregulars import advice as adv
from deduce.models.irregulars.advice import advise, load_view, per_action
from deduce.models.irregulars.explain import describe, passed_words
from deduce.models.irregulars.rules import Arrest, NoArrest, Pick
from tests.irregulars.helpers import data, position


def test_the_sample_s_choices_are_every_arrest_and_declining():
    view = load_view("sample")
    assert view.log is None
    a = advise(view, 4, 1)
    kinds = {(type(e.action).__name__, getattr(e.action, "villain", None),
              getattr(e.action, "holmes", None)) for e in a.estimates}
    # Ann tails V07 and holds the Holmes board: V07 either way, V21 either way, V12 with it
    assert kinds == {("Arrest", "V07", False), ("Arrest", "V07", True),
                     ("Arrest", "V21", False), ("Arrest", "V21", True),
                     ("Arrest", "V12", True), ("NoArrest", None, None)}
    wins = [e.p_win for e in a.estimates]
    assert wins == sorted(wins, reverse=True)
    assert all(e.rollouts == 4 and 0 <= e.stderr <= 0.5 for e in a.estimates)
    doc = a.to_json()
    assert list(doc) == ["seed", "rollouts", "seen", "best", "actions"]
    assert (doc["seed"], doc["rollouts"], doc["seen"]) == (1, 4, "hand")
    assert list(doc["best"]) == ["action", "words", "p_win", "stderr", "rollouts", "why"]
    assert {k: v for k, v in doc["best"].items() if k != "why"} == doc["actions"][0]
    assert adv.NO_LOG in a.why
    assert advise(view, 4, 1).to_json() == doc  # the same seed, the same advice
    json.dumps(doc)


def test_the_rollouts_are_capped():
    assert per_action(32, 3) == 32
    assert per_action(500, 6) == adv.TOTAL_ROLLOUTS // 6
    assert per_action(500, 100) == adv.MIN_ROLLOUTS
    with pytest.raises(InputError) as exc:
        per_action(adv.MAX_ROLLOUTS + 1, 2)
    assert str(exc.value) == f"--rollouts: expected from 1 to {adv.MAX_ROLLOUTS} rollouts, " \
                             f"not {adv.MAX_ROLLOUTS + 1}"


def test_an_observation_keeps_its_log_and_ranks_the_picks():
    view = load_view("sample-observation")
    assert view.log is not None
    a = advise(view, 3, 2)
    assert a.logged and a.to_json()["seen"] == "log"
    assert {type(e.action) for e in a.estimates} == {Pick}
    assert {e.action.card for e in a.estimates} == {
        c for c in view.position.hand
        if view.position.cards.evidence_by_id[c].cost <= view.position.bsi["Ann"].available}
    assert adv.NO_LOG not in a.why


def test_the_words_of_an_arrest_and_a_pick():
    pos = position()
    arrest = Arrest("V07", ("E006", "E022"), True)
    assert describe(pos, arrest) == ("Arrests Dr. Grimesby Roylott (V07) now with your "
                                     "tail and the Holmes board: 6 points, using 2 cards "
                                     "(E006, E022)")
    assert describe(pos, NoArrest()) == "No arrest"
    pick = position(phase="investigate", hand=["E031", "E034", "E038"])
    words = describe(pick, Pick("E031"))
    assert words.startswith("Pick E031: ")


def test_a_card_passed_that_cannot_help_the_next_player():
    # Ann passes left to Ben in round 1: a card whose icons Ben's unused cards all show
    pos = position(round=1, phase="investigate", plot_twist=None)
    ben = {i for o in pos.evidence["Ben"] if not o.used for i in o.card.icons}
    hand = [c.id for c in pos.cards.evidence if set(c.icons) <= ben and c.id not in {
        o.card.id for p in pos.players for o in pos.evidence[p]}][:1]
    other = next(c.id for c in pos.cards.evidence if not set(c.icons) <= ben and c.id not in {
        o.card.id for p in pos.players for o in pos.evidence[p]})
    pos = position(round=1, phase="investigate", hand=hand + [other])
    said = passed_words(pos, other)
    assert said is not None and said.startswith(f"the {' and '.join(pos.cards.by_id[hand[0]].icons)}"
                                                f" you pass ({hand[0]}) cannot help Ben")
    assert passed_words(pos, hand[0]) is None


def test_not_my_decision_and_bad_files_are_refused(tmp_path):
    doc = data(order=["Cat", "Ben", "Ann"], phase="tail")
    doc["tailing"]["Ann"] = "V07"
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError) as exc:
        advise(load_view(str(path)), 2, 0)
    assert "Ann has nothing to decide in the tail phase here" in str(exc.value) and exc.value.field == "phase"
    path.write_text("[1]")
    with pytest.raises(InputError) as exc:
        load_view(str(path))
    assert "expected a position or an observation" in str(exc.value)
    path.write_text(json.dumps({"position": data()}))
    with pytest.raises(InputError) as exc:
        load_view(str(path))
    assert "log" in str(exc.value)
