"""``deduce s13 table`` on a real terminal (a pseudo-terminal, pexpect): a new record's
setup asked one answer at a time and each wrong answer asked again, the lock taken before
the first question, and names with markup or control characters shown literally."""

from __future__ import annotations

import io
import json

import pytest

from deduce.core.records import RecordLock
from tests.cli.procs import deduce_argv, quiet_env

pexpect = pytest.importorskip("pexpect")


def spawn(*args, cwd):
    argv = deduce_argv() + list(args)
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(cwd), env=quiet_env(), encoding="utf-8",
                          timeout=30, dimensions=(40, 120))
    return child


def finish(child) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_new_record_setup_asks_again_after_each_wrong_answer(tmp_path):
    child = spawn("s13", "table", "NEW.json", cwd=tmp_path)
    steps = [
        ("Variant (standard or expert) [standard]: ", "hard", "unknown variant 'hard'"),
        ("Variant (standard or expert) [standard]: ", "expert", None),
        ("(2-4, comma separated): ", "Ann", "2, 3 or 4 players, not 1"),
        ("(2-4, comma separated): ", "Ann, ann!", "player names must differ"),
        ("(2-4, comma separated): ", "Ann, Ben, Cat", None),
        ("Which player are you (Ann, Ben, Cat): ", "Eve", "unknown player 'Eve'"),
        ("Which player are you (Ann, Ben, Cat): ", "ben", None),
        ("Your hand: 4 cards, first card first (comma separated): ", "sherlock,hudson",
         "with 3 players a hand has 4 cards, not 2"),
        ("Your hand: 4 cards, first card first (comma separated): ",
         "sherlock,sherlock,hudson,baynes", "a card is listed twice: Sherlock Holmes"),
        ("Your hand: 4 cards, first card first (comma separated): ",
         "sherlock,hudson,baynes,morstan", None),
    ]
    for prompt, answer, error in steps:
        child.expect_exact(prompt)
        assert not (tmp_path / "NEW.json").exists()
        child.sendline(answer)
        if error:
            child.expect_exact("Error: NEW.json, field ")
            child.expect_exact(error)
    child.expect_exact("[Ann to play] > ")
    child.sendline("quit")
    assert finish(child) == 0
    saved = json.loads((tmp_path / "NEW.json").read_text())
    assert saved == {"game": "sherlock13", "variant": "expert", "players": ["Ann", "Ben", "Cat"],
                     "me": "Ben", "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes",
                                           "Mary Morstan"], "events": []}


def test_a_second_session_on_a_new_record_is_refused_before_any_question(tmp_path):
    with RecordLock(tmp_path / "NEW.json"):
        child = spawn("s13", "table", "NEW.json", cwd=tmp_path)
        child.expect_exact("error: NEW.json: the record is in use by another deduce session")
        child.expect(pexpect.EOF)
        assert "Variant" not in child.before
        child.close()
        assert child.exitstatus == 2
    assert not (tmp_path / "NEW.json").exists()


def test_names_with_markup_and_control_characters_on_a_terminal(tmp_path):
    names = ["[/bad]", "[bold]x", "\x1b[2J", "B\x07\r"]
    (tmp_path / "m.json").write_text(json.dumps({
        "game": "sherlock13", "variant": "standard", "players": names, "me": names[0],
        "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"],
        "events": [{"actor": names[0], "action": "raise", "icon": "skull", "raised": [names[2]]},
                   {"actor": names[1], "action": "count", "target": names[3], "icon": "book",
                    "count": 1},
                   {"actor": names[2], "action": "accuse", "suspect": "moriarty", "correct": False}]}))
    child = spawn("s13", "table", "m.json", cwd=tmp_path)
    child.logfile_read = log = io.StringIO()
    child.expect_exact("[B\\x07\\x0d to play] > ")
    child.sendline("count [bold]x [/bad] pipe 1")  # out of turn
    child.expect_exact("out of turn: [bold]x acted but it is B\\x07\\x0d's turn")
    child.expect_exact("[B\\x07\\x0d to play] > ")
    child.sendline("count b [bold]x pipe 1")
    child.expect_exact("event 3: B\\x07\\x0d count [bold]x pipe: 1")
    child.expect_exact("[[/bad] to play] > ")
    child.sendline("show")
    child.expect_exact("Best questions for [/bad]'s next turn")
    child.expect_exact("[[/bad] to play] > ")
    child.sendline("quit")
    assert finish(child) == 0
    text = log.getvalue()
    for shown in ("[/bad]", "[bold]x", "\\x1b[2J", "B\\x07\\x0d"):
        assert shown in text, shown
    assert "\x1b[2J" not in text and "\x07" not in text
    assert text.replace("\r\n", "\n").count("\r") == 0  # the terminal's own line ends only
