import json

from deduce.models.sherlock13.cards import suspect_index
from deduce.models.sherlock13.explain import explain_suspect
from deduce.models.sherlock13.knowledge import count_worlds
from deduce.models.sherlock13.record import parse_record

RECORD = {
    "game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"], "me": "Ann",
    "hand": ["Inspector Bradstreet", "John H. Watson", "Mary Morstan"],
    "events": [
        {"actor": "Ann", "action": "raise", "icon": "necklace", "raised": ["Cat", "Dan"]},
        {"actor": "Ben", "action": "raise", "icon": "light bulb", "raised": ["Cat", "Dan"]},
        {"actor": "Cat", "action": "raise", "icon": "skull", "raised": ["Dan"]},
        {"actor": "Dan", "action": "count", "target": "Cat", "icon": "skull", "count": 2},
    ],
}


def test_skull_count_rules_out_moriarty():
    rec = parse_record(json.loads(json.dumps(RECORD)))
    e = explain_suspect(rec, suspect_index("moriarty"))
    assert e.ruled_out and (e.events, e.hand_facts) == ([2, 3], [])
    assert e.icon_notes() == [
        "skull: 3 in the deck (James Moriarty, Irene Adler, Sebastian Moran); cited answers: "
        "Ann 0, Ben 0, Dan >=1, Cat 2; so all 3 are in hands and none is the criminal"]
    # minimal: without either event Moriarty is possible again (checked by the counter)
    for keep in ({2}, {3}):
        assert count_worlds(rec, events=keep).criminal[suspect_index("moriarty")] > 0


def test_necklace_and_my_card_rule_out_adler():
    rec = parse_record(json.loads(json.dumps(RECORD)))
    e = explain_suspect(rec, suspect_index("adler"))
    assert (e.events, e.hand_facts) == ([0], [2])  # Ann's raise, and I hold Mary Morstan
    assert "none is the criminal" in e.icon_notes()[0]


def test_possible_suspect_gets_a_consistent_deal():
    rec = parse_record(json.loads(json.dumps(RECORD)))
    e = explain_suspect(rec, suspect_index("lestrade"))
    assert not e.ruled_out
    w = e.world
    assert w["criminal"] == suspect_index("lestrade")
    hands = {s: sorted(c) for s, c in w["hands"].items()}
    worlds = count_worlds(rec)
    assert worlds.deal_count(w["criminal"], {s: hands[s] for s in (1, 2, 3)}) == 1
