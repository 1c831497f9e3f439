"""``deduce story end / spend / next``: a campaign between cases, through click (R007 loss,
R010 spending and Luck, R001 the SM a case starts with). Fast: no DP, no self-play."""

from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def story_json(*args):
    res = run("story", *args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def read(path) -> dict:
    return json.loads(path.read_text())


def edit(path, **changes) -> None:
    rec = read(path)
    rec.update(changes)
    path.write_text(json.dumps(rec))


@pytest.fixture
def case_file(tmp_path, tiny_dir):
    """A fresh tiny-campaign case at turn 1 (the record remembers its data folder)."""
    path = tmp_path / "case.json"
    res = run("story", "new", "--data", tiny_dir, "--adventure", "a001", "--seed", 2, path)
    assert res.exit_code == 0, res.output
    return path


def closed(path, **changes) -> dict:
    """Set the case's end by hand (as a player does), then ``deduce story end``."""
    edit(path, **changes)
    return story_json("end", path, "--seed", 1)


def won(path, sm: int, luck: int = 0, **changes) -> dict:
    return closed(path, outcome="arrested", villain="c201", motive=1, turn=9, sm=sm,
                  luck=luck, **changes)


def assert_refused(path, res, *words) -> None:
    assert res.exit_code == 2, res.output
    for w in words:
        assert w in res.output, (w, res.output)
    assert "Traceback" not in res.output


# ----------------------------------------------------------------------------- end
def test_end_refuses_a_running_case_and_leaves_it(case_file):
    before = case_file.read_bytes()
    res = run("story", "end", case_file)
    assert_refused(case_file, res, str(case_file), "field 'outcome'", "still running")
    assert case_file.read_bytes() == before
    res = run("story", "end", case_file, "--time-up")  # turn 1: not the end of turn 12
    assert_refused(case_file, res, "--time-up", "turn 1")
    assert case_file.read_bytes() == before


def test_won_case_sm_becomes_luck_and_stays_to_spend(case_file):
    doc = won(case_file, sm=7, luck=0)
    # R010: the Luck gained equals the SM at the end of the case (nothing spent yet)
    assert doc["luck_next"] == 7 and doc["sm_to_spend"] == 7
    assert (doc["outcome"], doc["won"], doc["game_over"], doc["loss_roll"]) == (
        "arrested", True, False, None)
    rec = read(case_file)
    assert rec["phase"] == "between" and rec["luck"] == 7 and rec["sm"] == 7
    assert rec["ruled_out"] == ["c201"]  # arrested: not the Villain of a later case


def test_won_case_luck_is_added_to_the_luck_left(case_file):
    doc = won(case_file, sm=5, luck=3)
    assert (doc["luck_at_end"], doc["sm_at_end"], doc["luck_next"]) == (3, 5, 3 + 5)


def test_closing_twice_is_refused(case_file):
    won(case_file, sm=4, luck=2)
    before = case_file.read_bytes()
    res = run("story", "end", case_file)
    assert_refused(case_file, res, str(case_file), "field 'phase'", "between cases")
    assert case_file.read_bytes() == before  # the Luck of R010 is not counted twice


def test_won_case_needs_its_villain(case_file):
    edit(case_file, outcome="arrested", sm=3)
    before = case_file.read_bytes()
    res = run("story", "end", case_file)
    assert_refused(case_file, res, str(case_file), "field 'villain'")
    assert case_file.read_bytes() == before


@pytest.mark.parametrize("sm,luck,luck_next", [(3, 5, 2), (0, 4, 2), (6, 1, 0), (2, 0, 0)])
def test_lost_case_loses_sm_and_half_the_luck_rounded_up(case_file, sm, luck, luck_next):
    doc = closed(case_file, outcome="time_up", turn=12, sm=sm, luck=luck)
    assert luck_next == luck - math.ceil(luck / 2)
    assert (doc["sm_to_spend"], doc["luck_next"], doc["loss_roll"]) == (0, luck_next, None)
    assert doc["won"] is False and read(case_file)["sm"] == 0


def test_time_up_closes_a_case_at_turn_12(case_file):
    edit(case_file, turn=12, sm=2, luck=3)
    doc = story_json("end", case_file, "--time-up", "--seed", 4)
    assert (doc["outcome"], doc["sm_to_spend"], doc["luck_next"], doc["seed"]) == ("time_up", 0, 1, 4)


def _seed_for(face: int) -> int:
    """A seed whose first 1d6 (the loss table's roll) is ``face``."""
    return next(s for s in range(1000) if random.Random(s).randint(1, 6) == face)


@pytest.mark.parametrize("face", [1, 3, 5, 6])
def test_lost_with_nothing_left_rolls_the_loss_table(tmp_path, tiny_dir, face):
    path = tmp_path / "case.json"
    assert run("story", "new", "--data", tiny_dir, "--adventure", "a001", path).exit_code == 0
    edit(path, outcome="lost", turn=8, sm=0, luck=0)
    seed = _seed_for(face)
    doc = story_json("end", path, "--seed", seed)
    result = {1: "holmes_killed", 3: "watson_killed", 5: "lestrade_killed", 6: "nothing"}[face]
    assert doc["loss_roll"] == {"die": face, "result": result} and doc["seed"] == seed
    rec = read(path)
    assert doc["game_over"] is (face == 1) and (rec["outcome"] == "holmes_killed") is (face == 1)
    assert doc["watson_alive"] is (face != 3) and (rec["watson"] is None) is (face == 3)
    assert rec["inspector"]["status"] == ("replacement" if face == 5 else "lestrade")
    if face == 1:  # the game is over: nothing more to spend or play
        res = run("story", "next", path, "--adventure", "a001")
        assert_refused(path, res, str(path), "field 'outcome'", "game is over")
        res = run("story", "spend", "trait", path, "--trait", "Science")
        assert_refused(path, res, "game is over")
    else:  # Watson dead or not, the next case loads
        nxt = story_json("next", path, "--adventure", "a001", "--seed", 3)
        assert nxt["watson_alive"] is (face != 3)
        assert story_json("state", path)["turn"] == 1


# ----------------------------------------------------------------------------- spend
@pytest.mark.parametrize("who,quality,value", [("holmes", "Brains", 9), ("holmes", "brawn", 5),
                                               ("holmes", "BRAV", 7), ("watson", "Brawn", 6)])
def test_quality_costs_half_its_value_rounded_up(case_file, who, quality, value):
    won(case_file, sm=9)
    doc = story_json("spend", "quality", case_file, "--who", who, "--quality", quality)
    q = doc["quality"].lower()
    assert (doc["from"], doc["to"]) == (value, value + 1)
    assert doc["cost"] == math.ceil(value / 2) and doc["sm_left"] == 9 - math.ceil(value / 2)
    rec = read(case_file)
    assert rec[who][q] == value + 1 and rec["sm"] == doc["sm_left"]
    assert rec["luck"] == 9  # Luck was counted when the case closed, before spending


def test_quality_raise_is_capped_at_plus_4(case_file):
    won(case_file, sm=20)
    for brawn in (5, 6, 7, 8):
        assert story_json("spend", "quality", case_file, "--quality", "Brawn")["to"] == brawn + 1
    before = case_file.read_bytes()
    res = run("story", "spend", "quality", case_file, "--quality", "Brawn")
    assert_refused(case_file, res, str(case_file), "holmes.brawn", "+4")
    assert case_file.read_bytes() == before
    assert read(case_file)["sm"] == 20 - (3 + 3 + 4 + 4)


def test_trait_costs_3_4_6_and_stops_at_3(case_file):
    won(case_file, sm=20)
    costs = [story_json("spend", "trait", case_file, "--trait", "science")["cost"] for _ in range(3)]
    assert costs == [3, 4, 6] and read(case_file)["holmes"]["traits"]["Science"] == 3
    before = case_file.read_bytes()
    assert_refused(case_file, run("story", "spend", "trait", case_file, "--trait", "Science"),
                   "already 3")
    assert_refused(case_file, run("story", "spend", "trait", case_file, "--trait", "Medicine"),
                   "Medicine")  # Holmes never (R003); Watson may
    assert case_file.read_bytes() == before
    doc = story_json("spend", "trait", case_file, "--who", "watson", "--trait", "Medicine")
    assert (doc["from"], doc["to"], doc["cost"], doc["sm_left"]) == (2, 3, 6, 1)


def test_equipment_is_rolled_for_5_sm(case_file):
    won(case_file, sm=6)
    doc = story_json("spend", "equipment", case_file, "--seed", 9)
    assert (doc["cost"], doc["sm_left"], doc["equipment"], doc["seed"]) == (5, 1, "m413", 9)
    assert read(case_file)["equipment"][-1] == "m413"


@pytest.mark.parametrize("purchase", [
    ("quality", "--quality", "Brains"),        # 5 SM
    ("trait", "--trait", "Science"),           # 3 SM
    ("equipment", "--seed", "1"),              # 5 SM
    ("friend", "--ally", "m404", "--split", "1,1,2"),  # 6 SM
])
def test_unaffordable_purchase_changes_nothing(case_file, purchase):
    won(case_file, sm=2, allies=[{"id": "m404"}])
    before = case_file.read_bytes()
    res = run("story", "spend", purchase[0], case_file, *purchase[1:])
    assert_refused(case_file, res, str(case_file), "field 'sm'", "2 left")
    assert case_file.read_bytes() == before


def test_spending_needs_a_closed_case(case_file):
    before = case_file.read_bytes()
    res = run("story", "spend", "trait", case_file, "--trait", "Science")
    assert_refused(case_file, res, str(case_file), "field 'outcome'")
    edit(case_file, outcome="arrested", villain="c201", sm=5)  # over but not closed yet
    before = case_file.read_bytes()
    res = run("story", "spend", "trait", case_file, "--trait", "Science")
    assert_refused(case_file, res, str(case_file), "field 'phase'", "deduce story end")
    assert case_file.read_bytes() == before


def test_a_surviving_ally_becomes_a_friend(case_file):
    won(case_file, sm=13, allies=[{"id": "m404", "wounded": True}, {"id": "m410"}])
    for bad, where in ((("--ally", "m999", "--split", "1,1,2"), "--ally"),
                       (("--ally", "m404", "--split", "2,2,2"), "--split"),
                       (("--ally", "m404", "--split", "4,0"), "--split")):
        before = case_file.read_bytes()
        assert_refused(case_file, run("story", "spend", "friend", case_file, *bad), where)
        assert case_file.read_bytes() == before
    doc = story_json("spend", "friend", case_file, "--ally", "Inspector", "--split", "1,2,1")
    assert (doc["cost"], doc["sm_left"], doc["replaced"]) == (6, 7, None)
    # m404: 6/6/7 with Tracking 1, +1/+2/+1 and Aware
    assert {k: doc["friend"][k] for k in ("id", "brains", "brawn", "bravery", "traits")} == {
        "id": "m404", "brains": 7, "brawn": 8, "bravery": 8,
        "traits": {"Tracking": 1, "Aware": 1}}
    nxt = story_json("next", case_file, "--adventure", "a001", "--seed", 1)
    assert nxt["friends"] == ["m404"]
    state = story_json("state", case_file)
    inspector = next(m for m in state["party"] if m["name"] == "Inspector")
    assert (inspector["brawn"], inspector["wounded"]) == (8, False)  # healed between cases


def test_a_fourth_friend_replaces_one(tmp_path):
    from tests.detective_story.conftest import TINY, write_campaign

    files = dict(TINY)
    files["memoirs.toml"] += "".join(f'''
[[paragraph]]
id = "{pid}"
kind = "character"
title = "{name}"
character = {{ name = "{name}", brains = 5, brawn = 5, bravery = 5 }}
''' for pid, name in (("m411", "A cabman"), ("m412", "A nurse")))
    folder = write_campaign(tmp_path / "four", files)
    path = tmp_path / "case.json"
    assert run("story", "new", "--data", folder, "--adventure", "a001", path).exit_code == 0
    friends = [{"id": c, "brains": 5, "brawn": 5, "bravery": 5, "traits": {"Aware": 1}}
               for c in ("m404", "m410", "m411")]
    won(path, sm=12, friends=friends, allies=[{"id": c} for c in ("m404", "m410", "m411", "m412")])
    before = path.read_bytes()
    res = run("story", "spend", "friend", path, "--ally", "nurse", "--split", "4,0,0")
    assert_refused(path, res, "at most 3 Friends")
    assert path.read_bytes() == before
    doc = story_json("spend", "friend", path, "--ally", "m412", "--split", "4,0,0",
                     "--replace", "cabman")
    assert doc["replaced"] == "m411" and doc["sm_left"] == 6 and doc["friend"]["brains"] == 9
    assert [f["id"] for f in read(path)["friends"]] == ["m404", "m410", "m412"]


# ----------------------------------------------------------------------------- next
def test_next_starts_a_case_at_turn_1_with_at_most_1_sm(case_file):
    won(case_file, sm=5, luck=1)
    doc = story_json("next", case_file, "--adventure", "The Test Case", "--seed", 6)
    assert (doc["turn"], doc["sm"], doc["sm_forfeited"], doc["luck"]) == (1, 1, 4, 6)
    state = story_json("state", case_file)
    assert state["turn"] == 1 and state["sm"] <= 1 and state["outcome"] is None  # R001
    rec = read(case_file)
    assert rec["first_case"] is False and rec["seed"] == 6 and rec["phase"] == "action"
    assert "c201" in rec["ruled_out"]  # arrested last case
    assert {v["id"] for v in state["villain"]} == {"c202"}


def test_next_with_out_leaves_the_record_between_cases(case_file, tmp_path):
    won(case_file, sm=0)
    before = case_file.read_bytes()
    new = tmp_path / "case2.json"
    doc = story_json("next", case_file, "--adventure", "a001", "--out", new)
    assert doc["file"] == str(new) and doc["sm"] == 0
    assert case_file.read_bytes() == before
    assert story_json("state", new)["turn"] == 1
    res = run("story", "next", case_file, "--adventure", "a001", "--out", new)
    assert_refused(new, res, "--force")


def test_next_refuses_a_record_not_between_cases(case_file):
    before = case_file.read_bytes()
    assert_refused(case_file, run("story", "next", case_file, "--adventure", "a001"),
                   str(case_file), "field 'outcome'", "still running")
    assert case_file.read_bytes() == before
    edit(case_file, outcome="time_up", turn=12)
    before = case_file.read_bytes()
    assert_refused(case_file, run("story", "next", case_file, "--adventure", "a001"),
                   str(case_file), "field 'phase'", "deduce story end")
    assert case_file.read_bytes() == before


def test_between_record_is_checked_like_a_case_record(case_file):
    won(case_file, sm=6)
    edit(case_file, holmes=dict(read(case_file)["holmes"], brains="nine"))
    before = case_file.read_bytes()
    res = run("story", "spend", "quality", case_file, "--quality", "Brains")
    assert_refused(case_file, res, str(case_file), "holmes.brains")
    assert case_file.read_bytes() == before
    assert_refused(case_file, run("story", "state", case_file), "field 'phase'", "between cases")


def test_inspector_killed_is_barred_for_the_next_two_cases(shipped):
    """R007 5: Lestrade killed -> a new Inspector; the new one killed -> no Inspector joins
    this case or the next two (this case is the one he died in)."""
    from deduce.models.detective_story.campaign import end_case, new_record, next_record

    from tests.detective_story.conftest import load_case

    rec = new_record(shipped, "a001", seed=3)
    barred = []
    for n in range(5):
        cf = load_case(shipped, rec)
        case = cf.case._replace(outcome="time_up", sm=1, luck=2,
                                dead=frozenset({"m404"}) if n < 2 else frozenset())
        between = end_case(cf, case, random.Random(n))
        rec = next_record(between, shipped, "a001", seed=n)
        ctx = load_case(shipped, rec).ctx
        barred.append((rec["inspector"]["status"], "m404" in ctx.barred))
    assert barred == [("replacement", False), ("replacement", True), ("replacement", True),
                      ("replacement", False), ("replacement", False)]


# ----------------------------------------------------------------------------- a campaign
def test_full_loop_new_end_spend_next(tmp_path, tiny_dir):
    path = tmp_path / "campaign.json"
    res = run("story", "new", "--data", tiny_dir, "--adventure", "a001", "--seed", 11, path)
    assert res.exit_code == 0, res.output
    # the case is played by hand: the record edited to an arrest at turn 10
    edit(path, turn=10, villain="c202", motive=1, villain_meetings=2, clue_found=True, sm=8,
         luck=2, outcome="arrested", allies=[{"id": "m410"}])
    human = run("story", "end", path, "--seed", 5)
    assert human.exit_code == 0 and "arrested" in human.output and "10" in human.output
    rec = read(path)
    assert (rec["sm"], rec["luck"], rec["ruled_out"]) == (8, 10, ["c202"])
    human = run("story", "spend", "quality", path, "--quality", "Brains")  # 9 -> 10: 5 SM
    assert human.exit_code == 0 and "5 SM" in human.output and "3 SM left" in human.output
    assert story_json("spend", "trait", path, "--trait", "Science")["sm_left"] == 0
    assert_refused(path, run("story", "spend", "trait", path, "--trait", "Thief"), "0 left")
    human = run("story", "next", path, "--adventure", "a001", "--seed", 12)
    assert human.exit_code == 0, human.output
    state = story_json("state", path)
    holmes = next(m for m in state["party"] if m["name"] == "Sherlock Holmes")
    assert (state["turn"], state["sm"], state["luck"], state["outcome"]) == (1, 0, 10, None)
    assert holmes["brains"] == 10 and holmes["traits"]["Science"] == 1
    assert [v["id"] for v in state["villain"]] == ["c201"]  # c202 was arrested
    # the second case is lost with nothing left: the loss table is rolled
    edit(path, turn=12, sm=0, luck=0)
    doc = story_json("end", path, "--time-up", "--seed", _seed_for(6))
    assert doc["loss_roll"] == {"die": 6, "result": "nothing"} and not doc["game_over"]
    assert story_json("next", path, "--adventure", "a001", "--seed", 13)["luck"] == 0
