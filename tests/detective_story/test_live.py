"""``deduce story turn``: a turn told by the player. The told world, fed the answers a
player would give for seeded dice, ends every turn in the same case as the sampling world
(on the shipped campaign and on a campaign with fights, wounds, a paragraph's d6, Allies
leaving and healing); the CLI writes the record atomically, or not at all on bad input."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deduce.cli.main import cli
from deduce.core.errors import InputError
from deduce.models.detective_story import combat as C
from deduce.models.detective_story import engine as E
from deduce.models.detective_story import tables as T
from deduce.models.detective_story.bots import RandomPolicy
from deduce.models.detective_story.campaign import new_record
from deduce.models.detective_story.data import load_campaign
from deduce.models.detective_story.live import Answers, play_turn
from deduce.models.detective_story.state import parse_record
from deduce.models.detective_story.worlds import Sampler
from tests.detective_story.conftest import TINY, write_campaign

DATA = load_campaign()

#: the tiny campaign with a fight, wounds, a paragraph's d6, an Ally who leaves, a healer
ROUGH = dict(TINY)
ROUGH["memoirs.toml"] = TINY["memoirs.toml"].replace('''title = "The docks"
effects = [{ test = "Bravery", pass = [{ sm = 1 }], fail = [{ luck = -1 }] }]''', '''title = "The docks"
effects = [{ combat = { name = "A docker", brawn = 6, weaponry = 1 }, win = [{ sm = 1 }], lose = [{ luck = -1 }] }]''').replace('''title = "Violin"
effects = [{ luck = 1 }]''', '''title = "Violin"
effects = [{ d6 = { "1-2" = [{ wound = "watson", level = "wounded" }], "3-4" = [{ leave = "ally" }], "5-6" = [{ wound = "ally", level = "killed" }] } }]''').replace('''title = "Notes"
effects = [{ sm = 1 }]''', '''title = "Notes"
effects = [{ wound = "holmes", level = "wounded" }, { sm = 1 }]''')


class Rerolling(RandomPolicy):
    """Random choices, and a re-roll with Luck half of the time."""

    def reroll(self, w, case, tag, roll, mod, table, k_row) -> bool:
        return w.rng.random() < 0.5


class Recorder(Sampler):
    """The sampling world, writing down what a player would answer for each die."""

    def __init__(self, *args):
        super().__init__(*args)
        self.said: list[str] = []

    def chance(self, case, dist, k, what=None):
        outcome = []
        super().chance(case, dist, lambda w, c, x: outcome.append(x), what)
        x = outcome[0]
        if len(dist) > 1:
            kind = what[0] if what else None
            if kind == "d6":
                self.said.append(str(what[1].index(x) + 1))
            elif kind in ("test", "heal"):
                self.said.append("pass" if x else "fail")
            else:
                self.said.append(str(x))
        return k(self, case, x)

    def roll_2d6(self):
        roll = super().roll_2d6()
        self.rolls.append(roll)
        return roll

    def luck_roll(self, case, tag, mod, with_sm, table, k):
        self.rolls = []
        return super().luck_roll(case, tag, mod, with_sm, table,
                                 lambda w, c, o: self._said("/".join(map(str, self.rolls)), k, c, o))

    def plain_roll(self, case, mod, table, k):
        self.rolls = []
        return super().plain_roll(case, mod, table,
                                  lambda w, c, o: self._said(str(self.rolls[0]), k, c, o))

    def roll_at_most_sm(self, case, offset, k):
        self.rolls = []
        return super().roll_at_most_sm(case, offset,
                                       lambda w, c, o: self._said(str(self.rolls[0]), k, c, o))

    def _said(self, text, k, case, outcome):
        self.said.append(text)
        return k(self, case, outcome)

    def choose(self, case, kind, options, k):
        return super().choose(case, kind, options, lambda w, c, x: self._said(str(x), k, c, x))

    def combat(self, case, setup, k):
        return super().combat(case, setup, lambda w, c, t: self._said(" ".join(t), k, c, t))


def told_equals_sampled(data, adventure, seed):
    """Play a whole case turn by turn with seeded dice; replay each turn from the player's
    answers; the cases must agree after every turn, every answer used."""
    cf = parse_record(new_record(data, adventure, seed=seed), "live", data)
    ctx, case = cf.ctx, cf.case
    rng = random.Random(seed)
    policy = Rerolling()
    kinds = set()
    while not case.over:
        w = Recorder(rng, policy, ctx)
        action = policy.action(w, case, E.legal_actions(ctx, case))
        waited = action == T.WAIT
        sampled = E.take_action(w, ctx, case, action, E.AFTER_ACTION[waited])
        sampled = E.end_turn(E.encounter(w, ctx, sampled, waited, E.AFTER_TURN))
        answers = Answers(w.said)
        told = play_turn(ctx, case, "action", False, action, answers)
        assert told.case == sampled, (action, w.said)
        assert len(answers.used) == len(w.said)
        assert told.luck_spent == w.luck_spent
        kinds.update(a["question"].split(":")[0].split(",")[0] for a in answers.used)
        case = sampled
    return kinds


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), adventure=st.sampled_from(["a001", "a002"]))
def test_a_told_turn_ends_where_the_dice_say_shipped_campaign(seed, adventure):
    told_equals_sampled(DATA, adventure, seed)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31))
def test_a_told_turn_ends_where_the_dice_say_fights_and_wounds(seed, tmp_path):
    data = load_campaign(write_campaign(tmp_path / "rough", ROUGH))
    told_equals_sampled(data, "a001", seed)


def test_every_kind_of_question_comes_up(tmp_path):
    data = load_campaign(write_campaign(tmp_path / "rough", ROUGH))
    kinds = set()
    for seed in range(60):
        kinds |= told_equals_sampled(data, "a001", seed)
    assert {"1d6", "the fight (R009)", "Encounter Matrix (turn 1)", "Explore"} <= kinds
    assert any(k.endswith("test") for k in kinds)


def test_answers_name_the_question_and_the_place():
    cf = parse_record(new_record(DATA, "a001", seed=7), "live", DATA)
    with pytest.raises(InputError, match="needs an answer for: Explore") as e:
        play_turn(cf.ctx, cf.case, "action", False, T.EXPLORE, Answers([]))
    assert e.value.where == "--answer"
    with pytest.raises(InputError, match="dice total from 2 to 12") as e:
        play_turn(cf.ctx, cf.case, "action", False, T.EXPLORE, Answers(["13"]))
    assert e.value.where == "--answer 1"
    with pytest.raises(InputError, match="no Luck left"):
        play_turn(cf.ctx, cf.case._replace(luck=0), "action", False, T.EXPLORE, Answers(["3/9"]))
    asked, warned = [], []
    said = iter(["x", "12", "1", "3", "pass", "3"])
    answers = Answers([], prompt=lambda q: asked.append(q) or next(said), warn=warned.append)
    done = play_turn(cf.ctx, cf.case, "action", False, T.EXPLORE, answers)
    assert [a["answer"] for a in done.answers] == ["12", "1", "3", "pass", "3"]  # "x": again
    assert asked[0] == asked[1] and "dice total" in warned[0]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def fresh(tmp_path):
    path = tmp_path / "case.json"
    assert run("story", "new", "--adventure", "a001", "--seed", 7, path).exit_code == 0
    return path


def test_cli_turn_rewrites_the_record(fresh):
    res = run("story", "turn", fresh, "explore", "-a", "7/9", "-a", "3", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    rec = json.loads(fresh.read_text())
    # 9 + 1 (Explore) = 10: Investigate allowed next turn; one Luck spent; the Encounter
    # Matrix 3 is quiet
    assert doc["luck_spent"] == 1 and rec["luck"] == 3 and doc["luck"] == 3
    assert rec["turn"] == 2 and doc["next_turn"] == 2 and rec["phase"] == "action"
    assert rec["investigate_next"] is True
    assert [a["answer"] for a in doc["answers"]] == ["7/9", "3"]
    assert doc["log"][0] == "turn 1: Explore"
    assert rec["log"][0].startswith("case opened") and rec["log"][1:] == doc["log"]
    res = run("story", "turn", fresh, "investigate", "-a", "8", "-a", "1", "-a", "4")
    assert res.exit_code == 0, res.output
    assert "Turn 2 recorded" in res.output
    assert json.loads(fresh.read_text())["turn"] == 3


def test_cli_action_only_then_the_encounter(fresh):
    res = run("story", "turn", fresh, "wait", "--action-only")
    assert res.exit_code == 0, res.output
    rec = json.loads(fresh.read_text())
    assert (rec["phase"], rec["waited"], rec["turn"]) == ("encounter", True, 1)
    res = run("story", "turn", fresh, "wait")
    assert res.exit_code == 2 and "ACTION" in res.output
    res = run("story", "turn", fresh, "-a", "3", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["log"] == ["encounter: 2d6 3+1 = 4"]
    assert json.loads(fresh.read_text())["phase"] == "action"


def test_cli_bad_input_leaves_the_file_as_it_was(fresh):
    before = fresh.read_bytes()
    for args, where in [(["investigate"], "ACTION"), (["explore"], "--answer"),
                        (["explore", "-a", "7", "-a", "9"], "--answer 2"),
                        (["wait", "-a", "3", "-a", "5"], "left over"),
                        (["flee"], "ACTION"), ([], "ACTION")]:
        res = run("story", "turn", fresh, *args)
        assert res.exit_code == 2, (args, res.output)
        assert where in res.output, (args, res.output)
        assert fresh.read_bytes() == before


def test_cli_refuses_a_finished_case(fresh):
    rec = json.loads(fresh.read_text())
    rec["outcome"] = "time_up"
    fresh.write_text(json.dumps(rec))
    res = run("story", "turn", fresh, "wait", "-a", "3")
    assert res.exit_code == 2 and "story end" in res.output


def test_fight_answers_are_the_fight_terminals():
    setup = C.Setup((C.Fighter("holmes", 6, True), C.Fighter("watson", 6, True)), 6, 7)
    ends = [" ".join(t) for t in C.terminals(setup)]
    assert "won wounded" in ends and "lost watson serious" in ends and "escaped" in ends


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), adventure=st.sampled_from(["a001", "a002"]),
       turns=st.integers(0, 8),
       said=st.lists(st.one_of(
           st.sampled_from(["1", "3", "6", "7", "12", "2/11", "5/5", "pass", "fail", "0", "13",
                            "x", "", "1/2/3", "won wounded", "escaped", "deduction", "fight",
                            "m404", "Brains", "-1", "²", "٣", "٧/١٠", "１２", "⑦", "3²", "+3",
                            " 4 ", "1e1", "7.0", "0x7", "٣/²", "99999999999999999999999"]),
           st.text(max_size=8)), max_size=12))
def test_random_answers_never_cause_a_traceback(seed, adventure, turns, said):
    """Any answers at any point of a case (digits of any script, superscripts, any text):
    the turn is played or refused with InputError."""
    cf = parse_record(new_record(DATA, adventure, seed=seed), "live", DATA)
    ctx, case = cf.ctx, cf.case
    rng = random.Random(seed)
    policy = RandomPolicy()
    for _ in range(turns):  # somewhere into the case
        if case.over:
            return
        w = Sampler(rng, policy, ctx)
        action = policy.action(w, case, E.legal_actions(ctx, case))
        case = E.take_action(w, ctx, case, action, E.AFTER_ACTION[action == T.WAIT])
        case = E.end_turn(E.encounter(w, ctx, case, action == T.WAIT, E.AFTER_TURN))
    if case.over:
        return
    action = rng.choice(E.ALL_ACTIONS)
    try:
        done = play_turn(ctx, case, "action", False, action, Answers(said))
    except InputError:
        return
    assert done.case.turn == case.turn + 1 or done.case.over


def test_the_reroll_hint_comes_before_the_new_roll():
    from deduce.models.detective_story.live import Told
    from deduce.models.detective_story.rules import play_action

    cf = parse_record(new_record(DATA, "a001", seed=7), "live", DATA)
    hints = []
    hint = lambda tag, roll: hints.append((tag, roll)) or "advice"  # noqa: E731
    warned = []
    w = Told(cf.ctx, Answers(["7", "9"], warn=warned.append), hint)
    case, waited = play_action(w, cf.case, T.EXPLORE)
    assert hints == [(T.EXPLORE, 7)] and warned == ["advice"]
    assert case.luck == cf.case.luck - 1 and case.unlock and w.luck_spent == 1  # 9 + 1 = 10
    w = Told(cf.ctx, Answers(["9", "keep"]), hint)
    case, _ = play_action(w, cf.case, T.EXPLORE)
    assert case.luck == cf.case.luck and w.luck_spent == 0 and hints[-1] == (T.EXPLORE, 9)
    w = Told(cf.ctx, Answers(["7/9"]), hint)  # told at once: no hint asked
    case, _ = play_action(w, cf.case, T.EXPLORE)
    assert case.luck == cf.case.luck - 1 and len(hints) == 2


@pytest.fixture
def late(tmp_path):
    path = tmp_path / "late.json"
    assert run("story", "new", "--adventure", "a001", "--seed", 7, path).exit_code == 0
    rec = json.loads(path.read_text())
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    path.write_text(json.dumps(rec))
    return path


def test_table_session_plays_turns_and_saves_each_phase(late):
    # turn 11: Wait, a quiet Encounter Matrix (2 + 1); turn 12: an unknown Action and an
    # Action not allowed now are refused and asked again, then quit
    res = CliRunner().invoke(cli, ["story", "table", str(late)],
                             input="wait\n2\nflee\narrest\nquit\n")
    assert res.exit_code == 2, res.output  # from a pipe: the code of the first refusal
    rec = json.loads(late.read_text())
    assert (rec["turn"], rec["phase"]) == (12, "action")
    assert rec["log"][-2:] == ["turn 11: Wait", "encounter: 2d6 2+1 = 3"]
    assert "Turn 11: P(arrest" in res.output and "Turn 12: P(arrest" in res.output
    assert "'flee'" in res.output  # refused: not an Action
    assert "Attempt Arrest is not allowed now: R007a" in res.output  # refused: no Motive
    assert "Stopped" in res.output and "turn 12 (action)" in res.output


def test_table_session_keeps_the_action_when_the_input_ends(late):
    res = CliRunner().invoke(cli, ["story", "table", str(late)], input="wait\n")
    assert res.exit_code == 0, res.output
    rec = json.loads(late.read_text())
    assert (rec["turn"], rec["phase"], rec["waited"]) == (11, "encounter", True)
    res = CliRunner().invoke(cli, ["story", "table", str(late)], input="2\nquit\n")
    assert res.exit_code == 0, res.output
    assert "on the Encounter Matrix now" in res.output
    rec = json.loads(late.read_text())
    assert (rec["turn"], rec["phase"]) == (12, "action")


def test_table_undo_goes_back_one_phase_at_a_time(late):
    before = json.loads(late.read_text())
    # turn 11: Wait, a quiet Encounter Matrix (2 + 1); at turn 12's Action: undo (back to
    # turn 11's Encounter Matrix); undo at its first question (back to turn 11's Action);
    # undo again: nothing left to undo in the session; quit
    res = CliRunner().invoke(cli, ["story", "table", str(late)],
                             input="wait\n2\nundo\nundo\nundo\nquit\n")
    assert res.exit_code == 2, res.output  # the third undo is refused (as in s13 table)
    assert "Undone: back to turn 11 (encounter)" in res.output
    assert "Undone: back to turn 11 (action)" in res.output
    assert "nothing to undo" in res.output
    after = json.loads(late.read_text())
    assert after == before | {"phase": "action", "waited": False, "log": before["log"]}


def test_table_undo_mid_phase_starts_the_phase_again(late):
    # Investigate 8 (a Location event: its d6 is asked), undo there: the Action starts
    # again; then Wait and a quiet Encounter Matrix
    res = CliRunner().invoke(cli, ["story", "table", str(late)],
                             input="investigate\n8\nkeep\nundo\nwait\n2\nquit\n")
    assert res.exit_code == 0, res.output
    assert "this phase starts again" in res.output
    rec = json.loads(late.read_text())
    assert rec["turn"] == 12 and rec["log"][-2:] == ["turn 11: Wait", "encounter: 2d6 2+1 = 3"]
    assert not any("Investigate" in line for line in rec["log"])
