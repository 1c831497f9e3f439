"""Every rule form on a 3 x 3 grid: the CNF's exact count equals an itertools brute force
over a hand-written Python predicate, and the evaluator (evaluate.py) agrees too."""

from __future__ import annotations

import pytest

from deduce.models.casenotes.evaluate import holds, worlds
from deduce.models.casenotes.model import CaseModel
from tests.casenotes.helpers import brute_count, tiny_case

A, B, C = 0, 1, 2

FORMS = [
    ("Ann == cat", lambda w: w.pet[A] == "cat"),
    ("Ann != pos[1]", lambda w: w.pos[A] != 1),
    ('"Bob" == dog', lambda w: w.pet[B] == "dog"),
    ('person["Cy"] == pet[eel]', lambda w: w.pet[C] == "eel"),
    ("An == cat", lambda w: w.pet[A] == "cat"),
    ("person(cat) == Bob", lambda w: w.pet[B] == "cat"),
    ("pet(pos[2]) == dog", lambda w: w.pet[w.person_at(2)] == "dog"),
    ("pos(Ann) == pos(dog) + 1", lambda w: w.pos[A] == w.pos[w.person_with("dog")] + 1),
    ("pos(Ann) < pos(Bob)", lambda w: w.pos[A] < w.pos[B]),
    ("pos(Ann) < pos(Bob) < pos(Cy)", lambda w: w.pos == (1, 2, 3)),
    ("abs(pos(cat) - pos(dog)) == 2",
     lambda w: abs(w.pos[w.person_with("cat")] - w.pos[w.person_with("dog")]) == 2),
    ("pos(Ann) * 2 == pos(Cy) + 1", lambda w: w.pos[A] * 2 == w.pos[C] + 1),
    ("-pos(Ann) == -2", lambda w: w.pos[A] == 2),
    ("pos(cat) >= 2", lambda w: w.pos[w.person_with("cat")] >= 2),
    ("pos[3] > pos(eel)", lambda w: w.pos[w.person_with("eel")] < 3),
    ('hat(Ann) == "red"', lambda w: w.hat[A] == "red"),
    ('hat(pos[1]) == hat(pos[3])', lambda w: w.hat[w.person_at(1)] == w.hat[w.person_at(3)]),
    ('hat(cat) != "blue"', lambda w: w.hat[w.person_with("cat")] != "blue"),
    ("thief == Bob", lambda w: w.thief == B),
    ("thief == pos[2]", lambda w: w.pos[w.thief] == 2),
    ("pet(thief) == cat", lambda w: w.pet[w.thief] == "cat"),
    ("pos(thief) > pos(Ann)", lambda w: w.pos[w.thief] > w.pos[A]),
    ('motive == "debt"', lambda w: w.motive == "debt"),
    ('motive != "env"', lambda w: w.motive != "envy"),
    ('hat(thief) == hat(Ann) and thief != Ann', lambda w: w.hat[w.thief] == w.hat[A] and w.thief != A),
    ('(thief == Ann) == (motive == "envy")', lambda w: (w.thief == A) == (w.motive == "envy")),
    ('(thief == Ann) != (hat(Ann) == "red")', lambda w: (w.thief == A) != (w.hat[A] == "red")),
    ('implies(thief == Ann, motive == "debt")', lambda w: w.thief != A or w.motive == "debt"),
    ("xor(Ann == cat, Bob == dog)", lambda w: (w.pet[A] == "cat") != (w.pet[B] == "dog")),
    ("not (Ann == cat or Bob == cat)", lambda w: w.pet[C] == "cat"),
    ("one_of(Ann, [cat, pos[3]])", lambda w: w.pet[A] == "cat" or w.pos[A] == 3),
    ('one_of(motive, ["debt"])', lambda w: w.motive == "debt"),
    ("pairs([Ann, Bob], [cat, dog])", lambda w: {w.pet[A], w.pet[B]} == {"cat", "dog"}),
    ("pairs([Ann, pos[3]], [cat, dog])",
     lambda w: w.pos[A] != 3 and {w.pet[A], w.pet[w.person_at(3)]} == {"cat", "dog"}),
    ("distinct(Ann, cat, pos[1])",
     lambda w: len({A, w.person_with("cat"), w.person_at(1)}) == 3),
    ("distinct([thief, Bob])", lambda w: w.thief != B),
    ('all(hat(x) == "red" for x in person)', lambda w: w.hat == ("red",) * 3),
    ('any(hat(x) == "blue" and pos(x) > 1 for x in person)',
     lambda w: any(w.hat[p] == "blue" and w.pos[p] > 1 for p in range(3))),
    ('sum(hat(x) == "red" for x in person) == 2', lambda w: w.hat.count("red") == 2),
    ('sum(hat(x) == "red" for x in pet if x != cat) == 1',
     lambda w: sum(w.hat[p] == "red" for p in range(3) if w.pet[p] != "cat") == 1),
    ("sum([Ann == cat, Bob == dog, Cy == eel]) == 1",
     lambda w: [w.pet[A] == "cat", w.pet[B] == "dog", w.pet[C] == "eel"].count(True) == 1),
    ("all(implies(x != y, hat(x) != hat(y)) for x in person for y in person)", lambda w: False),
    ("sum(pos(x) < pos(y) for x in person for y in person if x != y) == 3", lambda w: True),
    ("all(pos(x) != 2 or pet(x) == dog for x in person)", lambda w: w.pet[w.person_at(2)] == "dog"),
    ("True", lambda w: True),
    ("False or thief == Cy", lambda w: w.thief == C),
]


@pytest.fixture(scope="module")
def all_worlds():
    return list(worlds(tiny_case([]).schema))


@pytest.mark.parametrize("rule,pred", FORMS, ids=[f[0] for f in FORMS])
def test_form_count_matches_brute_force(rule, pred, all_worlds):
    case = tiny_case([rule])
    expected = brute_count(pred)
    with CaseModel(case) as model:
        assert model.count_solutions() == (expected, True)
    assert sum(holds(case.notes[0].expr, w) for w in all_worlds) == expected


def test_several_notes_together():
    rules = ["pos(Ann) < pos(Bob)", 'hat(thief) == "red"', "thief != pos[1]", "Cy == dog"]
    preds = [FORMS[8][1], lambda w: w.hat[w.thief] == "red", lambda w: w.pos[w.thief] != 1,
             lambda w: w.pet[C] == "dog"]
    with CaseModel(tiny_case(rules)) as model:
        assert model.count_solutions() == (brute_count(lambda w: all(p(w) for p in preds)), True)
        # any subset of the notes
        assert model.count_solutions(notes=[0, 3]) == \
            (brute_count(lambda w: preds[0](w) and preds[3](w)), True)


def test_count_limit_is_a_lower_bound():
    with CaseModel(tiny_case([])) as model:
        assert model.count_solutions() == (1728, True)
        count, exact = model.count_solutions(limit=5)
        assert not exact and 5 <= count < 1728


def test_solutions_enumerates_each_once():
    with CaseModel(tiny_case(["pos(Ann) < pos(Bob)", 'hat(Ann) == "red"'])) as model:
        sols = list(model.solutions(model.assumptions()))
        assert len(sols) == len(set(sols)) == brute_count(lambda w: w.pos[A] < w.pos[B] and w.hat[A] == "red")
