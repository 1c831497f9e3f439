"""``deduce deductions selfplay`` and ``deduce deductions advise`` as a person runs them:
through click, through pipes and under a pseudo-terminal (the progress bar drawn on the
terminal, none through a pipe, the same table left either way)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.models.deductions.advice import advise
from deduce.models.deductions.position import load_position
from tests.cli.test_terminal import bar_drawn, on_terminal, piped
from tests.deductions.test_bots import position

SELFPLAY = ["deductions", "selfplay", "--bots", "greedy,random,random", "--games", 6,
            "--seed", 2]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def write(tmp_path, doc, name="game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_selfplay_json_is_the_one_envelope():
    res = run(*SELFPLAY, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert list(doc) == ["game", "players", "games", "seed", "workers", "scheduler",
                         "elapsed_s", "bots"]
    assert (doc["game"], doc["players"], doc["games"], doc["seed"]) == ("deductions", 3, 6, 2)
    assert [b["name"] for b in doc["bots"]] == ["greedy", "random", "random"]
    for b in doc["bots"]:
        assert list(b) == ["name", "win_share", "ci95", "mean_turns", "mean_points"]
        assert b["ci95"][0] <= b["win_share"] <= b["ci95"][1]


def test_selfplay_refuses_a_bad_line_up():
    res = run("deductions", "selfplay", "--players", 3, "--bots", "greedy,random")
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1] == \
        "error: --bots: 2 bots given for 3 players: give one bot per seat"
    res = run("deductions", "selfplay", "--players", 2, "--bots", "greedy,clever")
    assert res.exit_code == 2 and "Traceback" not in res.output and "clever" in res.output


TITLE = "Deductions self-play: 6 games, 3 players, seed 2"
HEAD = re.compile(r"┃ # ┃ Bot +┃ Win share ┃ +95% interval ┃ Mean turns ┃ Mean points ┃")
ROW = r"│ {} │ {} +│ +\d+\.\d% │ +\d+\.\d% – +\d+\.\d% │ +\d+\.\d\d │ +\d+\.\d\d │"
FOOT = r"\d+\.\d s on 1 worker; shared wins: \d+; turns per game: \d+\.\d\."


def test_selfplay_bar_on_a_terminal_none_through_a_pipe(tmp_path):
    shown, raw = on_terminal(SELFPLAY, tmp_path)
    assert bar_drawn(raw, "self-play", 6)
    # the bar is gone: the table alone is left (title, 3 head lines, 3 bots, its end, a foot)
    assert shown[0] == TITLE and HEAD.fullmatch(shown[2]) and len(shown) == 9
    for i, name in enumerate(["greedy", "random", "random"], start=1):
        assert re.fullmatch(ROW.format(i, name), shown[3 + i]), shown[3 + i]
    assert re.fullmatch(FOOT, shown[-1])
    pipe = piped(SELFPLAY, tmp_path)  # no bar: stderr stays empty; the same games
    assert pipe[:-1] == shown[:-1] and re.fullmatch(FOOT, pipe[-1])


def test_advise_json_ranks_every_legal_action(tmp_path):
    path = write(tmp_path, position("investigate"))
    res = run("deductions", "advise", path, "--rollouts", 4, "--seed", 3, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert list(doc) == ["best", "actions"]
    assert list(doc["best"]) == ["action", "p_win", "stderr", "rollouts", "why"]
    ranked = [a["p_win"] for a in doc["actions"]]
    assert ranked == sorted(ranked, reverse=True)
    assert {k: doc["best"][k] for k in ("action", "p_win", "stderr", "rollouts")} \
        == doc["actions"][0]
    assert all(a["rollouts"] == 4 for a in doc["actions"])
    kinds = {a["action"]["action"] for a in doc["actions"]}
    assert kinds == {"take", "mind_palace"}
    again = run("deductions", "advise", path, "--rollouts", 4, "--seed", 3, "--json")
    assert json.loads(again.output) == doc  # the same seed, the same advice


def test_advise_for_a_person_shows_the_table_and_why(tmp_path):
    path = write(tmp_path, position(), "ann's [bold]game.json")
    res = run("deductions", "advise", path, "--rollouts", 2)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == f"Advice for {path}"  # the file name as it is, markup and all
    assert lines[2].split("┃")[1:-1] == [" # ", " Action                               ",
                                         " Chance to win ", " ± s.e. ", " Rollouts "]
    advice = advise(load_position(path), 2, 0)
    assert len([l for l in lines if l.startswith("│") and l[1:4].strip()]) == len(advice.estimates)
    shown = " ".join(res.output.split("Best: ", 1)[1].split())
    assert shown == advice.why


def test_advise_refuses_another_player_s_turn_and_a_bad_rollout_count(tmp_path):
    doc = position()
    doc["to_play"] = "Ben"
    doc["turn"] = None
    del doc["turn"]
    res = run("deductions", "advise", write(tmp_path, doc), "--json")
    assert res.exit_code == 2
    assert "it is Ben's turn, not Ann's: advice is for me on my turn" in res.output
    res = run("deductions", "advise", write(tmp_path, position()), "--rollouts", "²")
    assert res.exit_code == 2 and "expected a whole number from 1 to 1,000" in res.output
    res = run("deductions", "advise", str(tmp_path / "missing.json"))
    assert res.exit_code == 2 and "Traceback" not in res.output
