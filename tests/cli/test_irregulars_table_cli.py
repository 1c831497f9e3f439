"""``deduce irregulars table`` as a person runs it: through pipes (one line per entry,
refusals on stderr, the exit code of the first refusal) and on a terminal (prompts, a
compact view after each entry, a new record's start asked answer by answer, Ctrl-D); the
one-shot commands given a table record; the README's session, as printed."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from deduce.models.irregulars import rules
from tests.cli.test_terminal import clean, finish, piped, screen, spawn, through_pipes
from tests.irregulars.table_driver import start_position

PROMPT = r"\[([^\]\x1b\n]*)\] > "
README = Path(__file__).parents[2] / "README.md"


def entries(path) -> list[dict]:
    return json.loads(path.read_text())["entries"]


def start(tmp_path, seed: int = 1) -> None:
    """start.json: the start of ``rules.new_game(seed, 3)`` as Ann sees it."""
    (tmp_path / "start.json").write_text(json.dumps(start_position(rules.new_game(seed, 3))))


def test_through_a_pipe_entries_wait_refusals_and_undo(tmp_path):
    start(tmp_path)
    res = through_pipes(["irregulars", "table", "g.json", "--from", "start.json"], tmp_path,
                        "pick E019\nreveal Ben E029, Cat E003\nreveal Ben E005\n"
                        "hand E005, E074, E080, E092\nundo\n"
                        "pick E019\nreveal Ben E029, Cat E003 hand E005, E074, E080, E092\n"
                        "quit\npick E005\n")
    clean(res.stdout + res.stderr)
    assert res.returncode == 2
    assert res.stdout.splitlines() == [
        "picks so far: you E019; waiting for Ben, Cat",
        "picks: waiting for hand CARD, ...",
        "ok: entry 1: picks: Ann E019, Ben E029, Cat E003; your hand: E005, E074, E080, E092",
        "ok: undone: entry 1: picks: Ann E019, Ben E029, Cat E003; your hand: E005, E074, "
        "E080, E092",
        "picks so far: you E019; waiting for Ben, Cat",
        "ok: entry 1: picks: Ann E019, Ben E029, Cat E003; your hand: E005, E074, E080, E092"]
    assert res.stderr.splitlines() == [
        "refused: picks waits for what came: hand CARD, ... (or undo to drop it)"]
    assert len(entries(tmp_path / "g.json")) == 1


def test_a_new_record_needs_its_start_and_an_existing_one_ignores_it(tmp_path):
    res = through_pipes(["irregulars", "table", "n.json"], tmp_path, "quit\n")
    assert res.returncode == 2 and not (tmp_path / "n.json").exists()
    assert res.stderr == (
        "error: n.json: the record does not exist yet: give --from POSITION (a start), or "
        "--seed S with --players and --me (solo: --mode solo --me), or start it on a "
        "terminal to type the table in\n")
    res = through_pipes(["irregulars", "table", "n.json", "--from", "sample"], tmp_path, "")
    assert res.returncode == 2 and res.stderr.startswith(
        "error: sample: a table starts at the start of a game (round 1, cycle 1, investigate, "
        "nothing drafted): it is round 2, cycle 3, arrest phase")
    start(tmp_path)
    assert through_pipes(["irregulars", "table", "n.json", "--from", "start.json"], tmp_path,
                         "").returncode == 0
    res = through_pipes(["irregulars", "table", "n.json", "--seed", "3"], tmp_path, "")
    assert res.returncode == 0 and res.stderr == (
        "note: n.json exists, so --seed (for a new record) is ignored: entries go on from its "
        "last entry\n")


def test_on_a_terminal_entries_refusals_undo_show_and_ctrl_d(tmp_path):
    start(tmp_path, 2)
    child = spawn(["irregulars", "table", "g.json", "--from", "start.json"], tmp_path)
    child.expect(PROMPT)
    assert child.match[1] == "round 1 cycle 1: picks (to enter: Ann, Ben, Cat)"
    child.sendline("pick E002")
    child.expect(PROMPT)
    assert child.match[1] == "round 1 cycle 1: picks (to enter: Ben, Cat)"
    child.sendline("reveal Ben E019, Cat E046 hand E051, E066, E072, E088")
    child.expect(PROMPT)
    assert child.match[1] == "round 1 cycle 1: Ann to tail"
    assert len(entries(tmp_path / "g.json")) == 1  # saved before the ok
    child.sendline("tail V77")
    child.expect(PROMPT)
    child.sendline("tail V40")
    child.expect(PROMPT)
    assert child.match[1] == "round 1 cycle 1: Cat to tail"
    child.sendline("undo")
    child.expect(PROMPT)
    child.sendline("show")
    child.expect(PROMPT)
    child.sendeof()
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    shown = screen(raw)
    assert "ok entry 1: picks: Ann E002, Ben E019, Cat E046; your hand: E051, E066, E072, " \
           "E088" in shown
    assert "Row: V40, V05, V22, V01, V13; my hand: E051, E066, E072, E088" in shown
    assert "refused: tail: unknown Villain 'V77'; did you mean V17, V27, V37?" in shown
    assert "ok undone: entry 2: Ann: tail V40 (Arthur Pinner)" in shown
    assert "round 1, cycle 1, tail phase; Plot Twist CARD The Cardboard Box " \
           "(bonus-in-arresting-order)" in shown
    assert "│ Ann (me) │ 12 (1 spent) │ 1: E002           │ -        │ -      │" in shown
    assert shown[-1] == "bye: the record is saved"
    assert len(entries(tmp_path / "g.json")) == 1


def test_on_a_terminal_a_typed_start_asks_again_after_a_wrong_answer(tmp_path):
    real = rules.new_solo(4)
    pos = real.observation(0)["position"]
    child = spawn(["irregulars", "table", "new.json", "--mode", "solo"], tmp_path)
    answers = [("Your name: ", "Ann", None),
               ("Your Inspector (an id or a name): ", "nobody", "unknown Inspector"),
               ("Your Inspector (an id or a name): ", pos["inspector"], None),
               ("The 5 Villains in the row (ids or names, comma separated): ", "V01, V01",
                "5 Villains, got 2"),
               ("The 5 Villains in the row (ids or names, comma separated): ",
                ", ".join(pos["villains"]), None),
               ("Your hand (5 Evidence ids or names, comma separated): ",
                ", ".join(pos["hand"]), None)]
    for prompt, answer, error in answers:
        child.expect_exact(prompt)
        assert not (tmp_path / "new.json").exists()
        child.sendline(answer)
        if error:
            child.expect_exact("Error: new.json: field ")
            child.expect_exact(error)
    child.expect(PROMPT)
    assert child.match[1] == "cycle 1: your pick"
    child.sendline("quit")
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    saved = json.loads((tmp_path / "new.json").read_text())
    assert saved["seed"] is None and saved["entries"] == []
    assert saved["setup"]["position"] == pos


def test_names_are_shown_literally(tmp_path):
    names = ["[bold]A", "B\x1b[2J", "C\x07"]
    res = through_pipes(["irregulars", "table", "g.json", "--seed", "1", "--players",
                         ",".join(names), "--me", "[bold]A"], tmp_path, "pick E019\nshow\n")
    assert res.returncode == 0, res.stderr
    assert "\x1b[2J" not in res.stdout and "\x07" not in res.stdout
    lines = res.stdout.splitlines()
    assert "Players (arresting order: C\\x07, B\\x1b[2J, [bold]A)" in [
        line.rstrip() for line in lines]
    assert "picks so far: you E019; waiting for B\\x1b[2J, C\\x07" in lines
    assert any(line.startswith("│ [bold]A (me) ") for line in lines)


def test_a_second_session_is_refused_at_once(tmp_path):
    from deduce.core.records import RecordLock

    start(tmp_path)
    assert through_pipes(["irregulars", "table", "g.json", "--from", "start.json"], tmp_path,
                         "").returncode == 0
    before = (tmp_path / "g.json").read_text()
    with RecordLock(tmp_path / "g.json"):
        res = through_pipes(["irregulars", "table", "g.json"], tmp_path, "pick E019\n")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == (f"error: g.json: the record is in use by another deduce session "
                          f"(process {os.getpid()}): finish that session first (one writer "
                          "per record)\n")
    assert (tmp_path / "g.json").read_text() == before


def test_the_one_shot_commands_read_a_table_record(tmp_path):
    """arrest, score and hands given a record answer for its observation now, as they do
    for the same observation written out."""
    start(tmp_path, 2)
    piped(["irregulars", "table", "g.json", "--from", "start.json"], tmp_path,
          "pick E002\nreveal Ben E019, Cat E046 hand E051, E066, E072, E088\ntail V40\n")
    from deduce.models.irregulars.table import current_observation

    obs = current_observation(tmp_path / "g.json")
    (tmp_path / "obs.json").write_text(json.dumps(obs))
    (tmp_path / "pos.json").write_text(json.dumps(obs["position"]))
    for command, other in (("arrest", "pos.json"), ("score", "pos.json"),
                           ("hands", "obs.json")):
        got = piped(["irregulars", command, "g.json", "--json"], tmp_path)
        assert got == piped(["irregulars", command, other, "--json"], tmp_path)
    hands = json.loads("\n".join(piped(["irregulars", "hands", "g.json", "--json"], tmp_path)))
    assert (hands["me"], hands["phase"], hands["cycle"]) == ("Ann", "tail", 1)
    assert [h["holder"] for h in hands["holdings"]] == ["Ben", "Cat"]
    assert hands["holdings"][0]["certain"] == ["E003", "E032", "E037", "E038"]


def _readme_session() -> tuple[list[str], str, list[str]]:
    """The README's session: the command that makes the record, the piped lines, the
    output, as printed."""
    text = README.read_text()
    block = text.split("<!-- table session -->")[1].split("```")[1]
    rows = block.strip("\n").splitlines()
    made = rows[0].removeprefix("$ ").split()
    piped_cmd = rows[1].removeprefix("$ ")
    typed = re.search(r"printf '([^']*)'", piped_cmd)[1]
    return made, typed.replace("\\n", "\n"), rows[2:]


def test_the_readme_session_runs_as_printed(tmp_path):
    made, typed, output = _readme_session()
    assert made[:3] == ["deduce", "irregulars", "table"]
    assert through_pipes(made[1:], tmp_path, "").returncode == 0
    assert piped(["irregulars", "table", made[3]], tmp_path, typed) == output


def test_best_is_the_advise_commands_view_of_the_record(tmp_path):
    """``best`` at the table says what ``deduce irregulars advise RECORD`` says (same
    rollouts and seed: the same ranking), and asks nothing of the record."""
    made = ["irregulars", "table", "s.json", "--seed", "7", "--mode", "solo", "--me", "Ann"]
    assert through_pipes(made, tmp_path, "").returncode == 0
    before = (tmp_path / "s.json").read_text()
    res = through_pipes(["irregulars", "table", "s.json"], tmp_path, "best\n")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "s.json").read_text() == before
    advice = json.loads(through_pipes(["irregulars", "advise", "s.json", "--json"], tmp_path,
                                      "").stdout)
    ranked = [a["action"]["card"] for a in advice["actions"]]
    assert len(ranked) == 5  # the five cards of Ann's first hand
    clean(res.stdout)
    shown = res.stdout.split("Best:")[0]
    positions = [shown.index(f"({card}:") for card in ranked]
    assert positions == sorted(positions)  # the table lists them in the advice's order
    assert f"{advice['best']['p_win']:.1%}" in shown
