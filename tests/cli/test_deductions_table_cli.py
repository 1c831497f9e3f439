"""``deduce deductions table`` as a person runs it: through pipes (one line per entry,
refusals on stderr, the exit code of the first refusal) and on a terminal (prompts, a
compact view after each entry, a new record's setup asked answer by answer, Ctrl-D)."""

from __future__ import annotations

import json

from tests.cli.test_terminal import clean, finish, piped, screen, spawn, through_pipes
from tests.deductions.test_table import POSITION

PROMPT = r"\[([^\]\x1b\n]*)\] > "


def start(tmp_path) -> None:
    (tmp_path / "pos.json").write_text(json.dumps(POSITION))


def entries(path) -> list[dict]:
    return json.loads(path.read_text())["entries"]


def test_through_a_pipe(tmp_path):
    start(tmp_path)
    res = through_pipes(["deductions", "table", "g.json", "--from", "pos.json"], tmp_path,
                        "draw writings\ntake e9\ntake a1\nrefill knowledge\nundo\n"
                        "take a1 refill knowledge\npay hound-suspect-2\nquit\ndraw x\n")
    clean(res.stdout + res.stderr)
    assert res.returncode == 2
    assert res.stdout.splitlines() == [
        "ok: entry 1: Ann draws Writings",
        "take a1: waiting for refill CARD",
        "ok: entry 2: Ann takes Writings from a1; dealt Knowledge",
        "ok: undone: entry 2: Ann takes Writings from a1; dealt Knowledge",
        "ok: entry 2: Ann takes Writings from a1; dealt Knowledge",
        # Ben's pay, in deductions_view.pay_view
        "A Bearded Butler (hound-suspect-2): Red Herring, The Hound of the Baskervilles, "
        "Suspect, 1 point",
        "Cost: 2 Statements, 2 Knowledge",
        "Due after Ben's 0 discounts: 2 Statements, 2 Knowledge",
        "Ben's pool (0): empty",
        "Not affordable: short by 4 clue cards (of the suits you like)."]
    assert res.stderr.splitlines() == [
        "refused: take: expected a cell such as b3 (column a-d, row 1-4), got 'e9'"]
    assert len(entries(tmp_path / "g.json")) == 2


def test_the_views_are_the_one_shot_commands_views(tmp_path):
    """patterns, pay, pay CASE and odds at the table draw what ``deduce deductions
    patterns|pay|odds`` draw for the same position (Ann, me, is to play), but that the
    table's pay asks for one case as ``pay CASE``."""
    start(tmp_path)
    table = piped(["deductions", "table", "g.json", "--from", "pos.json"], tmp_path,
                  "patterns\npay\npay hound-suspect-2\nodds\n")
    one_shot = [row for args in (["patterns"], ["pay", "--all"], ["pay", "hound-suspect-2"],
                                 ["odds"])
                for row in piped(["deductions", args[0], "pos.json", *args[1:]], tmp_path)]
    hint = "short N: N more clue cards needed. {}: the payment of one case."
    assert one_shot.count(hint.format("deduce deductions pay POSITION CASE")) == 1
    assert table == [hint.format("pay CASE") if row == hint.format(
        "deduce deductions pay POSITION CASE") else row for row in one_shot]
    assert table[:6] == ["Clue grid (columns a-d, rows 1-4 from the top)",
                         "    a     b     c     d",
                         "1  Wri   Wri   Wri   Wri",
                         "2  P&T   Kno*  Art   Kno",
                         "3  Wri   Sta   Sta   Kno",
                         "4  Kno   Wri   Sta   Kno"]
    assert "Cases within Ann's reach, best first" in table
    assert "Affordable, spending 3 cards:" in table
    assert "Clue deck: 39 cards (face down, any order)" in table


def test_a_new_record_needs_its_setup_and_an_existing_one_ignores_it(tmp_path):
    res = through_pipes(["deductions", "table", "n.json"], tmp_path, "quit\n")
    assert res.returncode == 2 and not (tmp_path / "n.json").exists()
    assert res.stderr == ("error: n.json: the record does not exist yet: give --from POSITION, "
                          "or --seed S with --players and --me, or start it on a terminal to "
                          "type the table in\n")
    start(tmp_path)
    assert through_pipes(["deductions", "table", "n.json", "--from", "pos.json"], tmp_path,
                         "draw writings\n").returncode == 0
    res = through_pipes(["deductions", "table", "n.json", "--from", "pos.json"], tmp_path,
                        "undo\n")
    assert res.returncode == 0 and res.stdout == "ok: undone: entry 1: Ann draws Writings\n"
    assert res.stderr == ("note: n.json exists, so --from (for a new record) is ignored: "
                          "entries go on from its last entry\n")


def test_on_a_terminal_entries_refusals_undo_show_and_ctrl_d(tmp_path):
    start(tmp_path)
    child = spawn(["deductions", "table", "g.json", "--from", "pos.json"], tmp_path)
    child.expect(PROMPT)
    assert child.match[1] == "Ann to play: start"
    child.sendline("draw writings")
    child.expect(PROMPT)
    assert child.match[1] == "Ann to play: investigate"
    assert len(entries(tmp_path / "g.json")) == 1  # saved before the ok
    child.sendline("take a9")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(PROMPT)
    assert child.match[1] == "Ann to play: start"
    child.sendline("show")
    child.expect(PROMPT)
    child.sendeof()
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    shown = screen(raw)
    assert "ok entry 1: Ann draws Writings" in shown
    assert "refused: take: expected a row in 'a9' from 1 to 4, got '9'" in shown
    assert "ok undone: entry 1: Ann draws Writings" in shown
    assert "1  Wri   Wri   Wri   Wri" in shown  # deductions_view.grid_table
    assert "Ann (me): 0 points; pool 5: Statements, Sherlock Holmes, Knowledge x2, Dr. John " \
           "Watson" in shown
    assert "  solved: -; milestones: -; reserved: -" in shown
    assert shown[-1] == "bye: the record is saved"
    assert entries(tmp_path / "g.json") == []


def test_on_a_terminal_a_typed_setup_asks_again_after_a_wrong_answer(tmp_path):
    child = spawn(["deductions", "table", "new.json"], tmp_path)
    answers = [
        ("Players in seating order (2-4, comma separated): ", "Ann", "1 players"),
        ("Players in seating order (2-4, comma separated): ", "Ann, Ben", None),
        ("Which player are you (Ann, Ben): ", "ben", None),
        ("Who plays first (Ann, Ben) [Ann]: ", "", None),
        ("Grid row 1, columns a-d (4 cards, comma separated): ", "irene, irene, writings, writings",
         "one Irene Adler too many"),
    ]
    rows = POSITION["grid"]
    answers += [(f"Grid row {i + 1}, columns a-d (4 cards, comma separated): ",
                 ", ".join(row), None) for i, row in enumerate(rows)]
    answers += [("Solutions shown, the pile's top first (4 case ids or names, comma "
                 "separated): ", ", ".join(POSITION["display"]["solutions"]), None),
                ("Red Herrings shown, the pile's top first (4 case ids or names, comma "
                 "separated): ", ", ".join(POSITION["display"]["red_herrings"]), None),
                ("Ann's pool (cards, comma separated; Enter: empty): ", "", None),
                ("Ben's pool (cards, comma separated; Enter: empty): ", "sherlock", None)]
    for prompt, answer, error in answers:
        child.expect_exact(prompt)
        assert not (tmp_path / "new.json").exists()
        child.sendline(answer)
        if error:
            child.expect_exact("Error: new.json: field ")
            child.expect_exact(error)
    child.expect(PROMPT)
    assert child.match[1] == "Ann to play: start"
    child.sendline("quit")
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    saved = json.loads((tmp_path / "new.json").read_text())
    assert saved["seed"] is None and saved["entries"] == []
    assert saved["setup"]["me"] == "Ben" and saved["setup"]["pools"] == {
        "Ann": [], "Ben": ["Sherlock Holmes"]}
    assert saved["setup"]["grid"] == rows


def test_a_dealt_game_is_shown_to_lay_out(tmp_path):
    res = through_pipes(["deductions", "table", "d.json", "--seed", "7", "--players",
                         "Ann,Ben,Cat", "--me", "Cat"], tmp_path, "draw\nshow\n")
    clean(res.stdout + res.stderr)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "The deal of seed 7: lay it out as shown."
    assert lines[1] == "Ann to play: start"
    assert lines[3].startswith("1  ") and lines[2] == "    a     b     c     d  "
    assert any(line.startswith("ok: entry 1: Ann draws ") for line in lines)
    saved = json.loads((tmp_path / "d.json").read_text())
    assert saved["seed"] == 7 and saved["setup"]["me"] == "Cat"
    assert len(saved["entries"]) == 1


def test_names_with_markup_and_control_characters_are_shown_literally(tmp_path):
    pos = json.loads(json.dumps(POSITION))
    names = {"Ann": "[bold]A", "Ben": "B\x1b[2J", "Cat": "C\x07"}
    pos["players"] = [names[p] for p in pos["players"]]
    pos["me"] = pos["to_play"] = names["Ann"]
    for key in ("pools", "solved", "milestones", "reserved"):
        pos[key] = {names[p]: v for p, v in pos[key].items()}
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    res = through_pipes(["deductions", "table", "g.json", "--from", "pos.json"], tmp_path,
                        "draw writings\ntake a1 refill knowledge\nshow\n")
    assert res.returncode == 0, res.stderr
    assert "\x1b[2J" not in res.stdout and "\x07" not in res.stdout
    lines = res.stdout.splitlines()
    assert lines[:2] == ["ok: entry 1: [bold]A draws Writings",
                         "ok: entry 2: [bold]A takes Writings from a1; dealt Knowledge"]
    assert lines[2] == "B\\x1b[2J to play: start"
    assert "C\\x07: 0 points; pool 0: -" in lines


def test_a_second_session_is_refused_at_once(tmp_path):
    from deduce.core.records import RecordLock

    start(tmp_path)
    assert through_pipes(["deductions", "table", "g.json", "--from", "pos.json"], tmp_path,
                         "").returncode == 0
    before = (tmp_path / "g.json").read_text()
    import os

    with RecordLock(tmp_path / "g.json"):
        res = through_pipes(["deductions", "table", "g.json"], tmp_path, "draw writings\n")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == (f"error: g.json: the record is in use by another deduce session "
                          f"(process {os.getpid()}): finish that session first (one writer "
                          "per record)\n")
    assert (tmp_path / "g.json").read_text() == before


def test_best_is_the_advise_commands_view(tmp_path):
    """``best`` at the table (me to play) draws ``deduce deductions advise``'s view of
    the same position with the same seed (five actions here: all of them are shown)."""
    start(tmp_path)
    table = piped(["deductions", "table", "g.json", "--from", "pos.json"], tmp_path, "best\n")
    one_shot = piped(["deductions", "advise", "pos.json"], tmp_path)
    assert one_shot[0] == "Advice for pos.json"
    assert table == one_shot[1:]
    actions = [row.split("│")[2].strip() for row in table if row[2:3].isdigit()]
    assert actions == ["obtain clues", "solve The Convict on the Tors (hound-suspect-1)",
                       "solve A Bearded Butler (hound-suspect-2)",
                       "solve A Dog Lash Tied in a Loop (speckled-means-2)",
                       "solve A Pearl Sent Every Year (sign-motive-1)"]
    why = " ".join(table[table.index(next(r for r in table if r.startswith("Best:"))):])
    assert why == ("Best: Obtain clues: the clues are worth more than solving now. Estimated "
                   "chance to win 41% ± 1 over 32 rollouts; next best, solve The Convict on the "
                   "Tors (hound-suspect-1): 38%.")


def test_the_help_examples_of_a_dealt_game_run_as_printed(tmp_path):
    """The --help (and README) examples: lay out the deal of seed 7, then enter a draw and
    a propped take through a pipe."""
    made = through_pipes(["deductions", "table", "game.json", "--seed", "7", "--players",
                          "Ann,Ben,Cat", "--me", "Ann"], tmp_path, "")
    assert made.returncode == 0, made.stderr
    assert piped(["deductions", "table", "game.json"], tmp_path,
                 "draw writings\ntake b1 prop a1\n") == [
        "ok: entry 1: Ann draws Writings",
        "ok: entry 2: Ann takes Statements from b1, a prop over a1; dealt Writings"]
    assert len(entries(tmp_path / "game.json")) == 2
