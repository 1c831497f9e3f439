"""Every command that draws a progress bar or a spinner, or asks questions, run as a
person runs it: the installed ``deduce`` under a pseudo-terminal (``pexpect``) and through
pipes, with what is left on the screen read back as a terminal shows it.

On a terminal the bar or spinner is drawn on stderr and erased when done; through a pipe
none of it is written; what stays (tables, figures) is the same both ways.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pexpect
import pytest

from deduce.puzzles import puzzle_path
from tests.cli.procs import deduce_argv, quiet_env

WIDTH, HEIGHT = 120, 40
WAIT = 60  # seconds: generous, never a synchronisation
DEMO = str(puzzle_path("sherlock13", "demo-4p.json"))
BAD = ("Traceback", "lost sys.stderr", "[bold", "[dim", "[green", "[red", "[/", "[progress")

_CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07]*\x07|\x1b[()][0-9A-B]")


def screen(raw: str, width: int = WIDTH) -> list[str]:
    """What a terminal ``width`` columns wide shows after ``raw`` (scrollback included),
    one string per row, trailing blanks dropped. Understands what rich and click write:
    text, CR, LF, cursor up (CSI n A), erase line (CSI 2 K) and erase to its end (CSI K);
    colours and cursor hiding change no text."""
    rows: dict[int, list[str]] = {}
    row = col = pos = 0
    for m in _CSI.finditer(raw + "\x1b[0m"):  # the last escape ends the last text
        for ch in raw[pos:m.start()]:
            if ch == "\r":
                col = 0
            elif ch == "\n":
                row, col = row + 1, 0
            elif ch >= " ":
                if col >= width:  # deferred wrap, as xterm does
                    row, col = row + 1, 0
                line = rows.setdefault(row, [])
                line.extend(" " * (col + 1 - len(line)))
                line[col] = ch
                col += 1
        pos = m.end()
        arg, op = m.group(1) or "", m.group(2)
        if op == "A":
            row = max(0, row - int(arg or 1))
        elif op == "K":
            del rows.setdefault(row, [])[0 if arg == "2" else col:]
    text = ["".join(rows.get(r, [])).rstrip() for r in range(max(rows, default=-1) + 1)]
    while text and not text[-1]:
        text.pop()
    return text


def test_screen_keeps_what_a_terminal_shows():
    raw = ("\x1b[?25l\r\x1b[2Kbar 1/2\r\x1b[2Kbar 2/2\r\n\x1b[?25h\r\x1b[1A\x1b[2K"
           "\x1b[1mTitle\x1b[0m\r\n" + "x" * (WIDTH + 3) + "\r\nabc\rX\x1b[K\r\n")
    assert screen(raw) == ["Title", "x" * WIDTH, "xxx", "X"]


def spawn(args: list[str], cwd, stdout=None) -> pexpect.spawn:
    """``deduce ARGS`` under a pseudo-terminal of WIDTH x HEIGHT in ``cwd`` (with
    ``stdout``, a file path, stdout goes there: ``deduce ARGS > FILE`` typed in a
    terminal); everything it writes on the terminal is kept in ``child.raw``."""
    argv = deduce_argv() + [str(a) for a in args]
    if stdout is not None:
        argv = ["sh", "-c", 'exec "$@" > "$0"', str(stdout), *argv]
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(cwd), env=quiet_env(),
                          dimensions=(HEIGHT, WIDTH), encoding="utf-8", timeout=WAIT)
    child.raw = io.StringIO()
    child.logfile_read = child.raw
    return child


def finish(child: pexpect.spawn) -> tuple[int, str]:
    """Wait for the end of ``child``: (exit code, everything it wrote)."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.raw.getvalue()


def on_terminal(args: list[str], cwd, stdout=None) -> tuple[list[str], str]:
    """Run a command that asks nothing under a terminal: (the screen after it, the raw
    output); it must exit 0 with nothing a person should never see."""
    code, raw = finish(spawn(args, cwd, stdout))
    assert code == 0, raw
    clean(raw)
    return screen(raw), raw


def through_pipes(args: list[str], cwd, stdin: str = "") -> subprocess.CompletedProcess:
    """Run ``deduce ARGS`` with stdin, stdout and stderr pipes (text)."""
    return subprocess.run(deduce_argv() + [str(a) for a in args], cwd=str(cwd), input=stdin,
                          capture_output=True, text=True, env=quiet_env(), timeout=WAIT)


def piped(args: list[str], cwd, stdin: str = "") -> list[str]:
    """stdout of a pipe run that must exit 0 with an empty stderr, as rows."""
    res = through_pipes(args, cwd, stdin)
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    clean(res.stdout)
    return [line.rstrip() for line in res.stdout.splitlines()]


def clean(text: str) -> None:
    """No traceback, no lost stderr, none of our own markup shown as literal brackets."""
    for bad in BAD:
        assert bad not in text, (bad, text[-2000:])


def drawn(raw: str, text: str) -> bool:
    """Whether ``text`` was written at some point (a spinner since erased, say)."""
    return text in _CSI.sub("", raw)


def bar_drawn(raw: str, label: str, total: int) -> bool:
    """Whether a progress bar ``label`` was drawn up to ``total`` of ``total``."""
    return re.search(rf"{label} [━╺╸ ]+ +{total}/{total}\b", _CSI.sub("", raw)) is not None


@pytest.fixture(scope="module")
def late_record(tmp_path_factory):
    """A Detective Story record at turn 11 (the Villain known, no Motive yet): its DP
    solves in well under a second."""
    from deduce.models.detective_story.campaign import new_record
    from deduce.models.detective_story.data import load_campaign

    rec = new_record(load_campaign(None), "a001", seed=7)
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    path = tmp_path_factory.mktemp("late") / "late.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


@pytest.fixture
def late(tmp_path, late_record):
    """A fresh copy of ``late_record`` in ``tmp_path``."""
    return Path(shutil.copy(late_record, tmp_path / "case.json"))


# ------------------------------------------------------------------------- progress bars
S13_SELFPLAY = ["s13", "selfplay", "--games", 20, "--seed", 1]
S13_TABLE = [
    "Sherlock 13 self-play: 20 games, 4 players, standard, seed 1",
    "┏━━━┳━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓",
    "┃ # ┃ Bot      ┃ Win share ┃  95% interval ┃ Mean turns ┃ Wrong accusations ┃",
    "┡━━━╇━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩",
    "│ 1 │ infogain │     40.0% │ 21.9% – 61.3% │       3.20 │                 8 │",
    "│ 2 │ random   │      0.0% │  0.0% – 16.1% │       3.85 │                 0 │",
    "│ 3 │ random   │     20.0% │  8.1% – 41.6% │       4.10 │                 0 │",
    "│ 4 │ random   │     40.0% │ 21.9% – 61.3% │       4.15 │                 0 │",
    "└───┴──────────┴───────────┴───────────────┴────────────┴───────────────────┘",
]
S13_FOOT = r"\d+\.\d s on {} workers?; games without a winner: 0\. Mean turns: the bot's own " \
           r"turns per game\."


def test_s13_selfplay_bar_on_a_terminal_none_through_a_pipe(tmp_path):
    shown, raw = on_terminal(S13_SELFPLAY, tmp_path)
    assert bar_drawn(raw, "self-play", 20)
    assert shown[:-1] == S13_TABLE  # the bar is gone: the table alone is left
    assert re.fullmatch(S13_FOOT.format(1), shown[-1])
    pipe = piped(S13_SELFPLAY, tmp_path)  # stderr empty: no bar
    assert pipe[:-1] == S13_TABLE and re.fullmatch(S13_FOOT.format(1), pipe[-1])


def test_s13_selfplay_on_two_workers_on_a_terminal_plays_the_same_games(tmp_path):
    shown, raw = on_terminal(S13_SELFPLAY + ["--workers", 2], tmp_path)
    assert bar_drawn(raw, "self-play", 20)
    assert shown[:-1] == S13_TABLE and re.fullmatch(S13_FOOT.format(2), shown[-1])


def _s13_figures(doc: dict) -> list[tuple]:
    return [(b["name"], b["win_share"], b["mean_turns"], b["wrong_accusations"])
            for b in doc["bots"]]


S13_FIGURES = [("infogain", 0.4, 3.2, 8), ("random", 0.0, 3.85, 0), ("random", 0.2, 4.1, 0),
               ("random", 0.4, 4.15, 0)]


def test_s13_selfplay_json_on_a_terminal_is_pure_json(tmp_path):
    shown, raw = on_terminal(S13_SELFPLAY + ["--json"], tmp_path)
    assert bar_drawn(raw, "self-play", 20)  # on stderr, and erased: the JSON alone is left
    doc = json.loads("\n".join(shown))
    assert _s13_figures(doc) == S13_FIGURES and (doc["games"], doc["seed"]) == (20, 1)
    # `deduce ... --json > FILE` typed in a terminal: the bar on the terminal, FILE pure JSON
    shown, raw = on_terminal(S13_SELFPLAY + ["--json"], tmp_path, stdout=tmp_path / "out.json")
    assert bar_drawn(raw, "self-play", 20) and shown == []
    assert _s13_figures(json.loads((tmp_path / "out.json").read_text())) == S13_FIGURES


CASE_SELFPLAY = ["case", "selfplay", "kew-orchid", "--games", 20]
CASE_TABLE = [
    "The Orchid of Kew: 20 competitive games, 3 bots, seed 0",
    "",
    " #  strategy  wins  share  95% CI  shared  elim.  round  tokens  places",
    " ──────────────────────────────────────────────────────────────────────",
    " 0  informed    16  80.0%  58-92%       7      0   9.00    1.85    8.15",
    " 1  fair         0   0.0%   0-16%       0      0      -    0.05    9.00",
    " 2  informed    11  55.0%  34-74%       7      0   9.00    1.10    8.40",
    "",
]
CASE_FOOT = r"Mean rounds 9\.00; ends: solved: 20; no winner: 0\. \d+\.\d s on 1 worker\."


@pytest.mark.slow  # 20 games twice: about 4 s
def test_case_selfplay_bar_on_a_terminal_none_through_a_pipe(tmp_path):
    shown, raw = on_terminal(CASE_SELFPLAY, tmp_path)
    assert bar_drawn(raw, "self-play", 20)
    assert shown[:-1] == CASE_TABLE and re.fullmatch(CASE_FOOT, shown[-1])
    pipe = piped(CASE_SELFPLAY, tmp_path)
    assert pipe[:-1] == CASE_TABLE and re.fullmatch(CASE_FOOT, pipe[-1])


STORY_SELFPLAY = ["story", "selfplay", "--policy", "random", "--cases", 200, "--seed", 1]
STORY_TABLE = [
    "      Self-play: random, 200 cases, seed 1",
    "┏━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
    "┃                   ┃                          ┃",
    "┡━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━┩",
    "│ arrest rate       │  19.0% (95% 14.2%-25.0%) │",
    "│ mean turns        │                    11.59 │",
    "│ Holmes killed     │                        1 │",
    "│ party deaths      │                        2 │",
    "│ Luck spent (mean) │                     0.00 │",
    "│   arrested        │                       38 │",
    "│   holmes_killed   │                        1 │",
    "│   holmes_wounded  │                        9 │",
    "│   time_up         │                      152 │",
    "└───────────────────┴──────────────────────────┘",
]


def test_story_selfplay_bar_on_a_terminal_none_through_a_pipe(tmp_path):
    shown, raw = on_terminal(STORY_SELFPLAY, tmp_path)
    assert bar_drawn(raw, "cases", 200)
    assert shown == STORY_TABLE
    assert piped(STORY_SELFPLAY, tmp_path) == STORY_TABLE


def test_story_selfplay_json_on_a_terminal_is_pure_json(tmp_path):
    shown, raw = on_terminal(STORY_SELFPLAY + ["--json"], tmp_path)
    assert bar_drawn(raw, "cases", 200)
    doc = json.loads("\n".join(shown))
    assert (doc["cases"], doc["wins"], doc["arrest_rate"], doc["mean_turns"], doc["deaths"],
            doc["party_deaths"]) == (200, 38, 0.19, 11.585, 1, 2)
    assert doc["outcomes"] == {"arrested": 38, "holmes_killed": 1, "holmes_wounded": 9,
                               "time_up": 152}


# ---------------------------------------------------------------- analyses and the demo
def test_s13_analyze_looks_the_same_on_a_terminal_and_through_a_pipe(tmp_path):
    shown, _ = on_terminal(["s13", "analyze", DEMO], tmp_path)
    assert shown == piped(["s13", "analyze", DEMO], tmp_path)
    assert shown[0] == "Clue sheet (probability that each place holds the card)"
    assert "│ Inspector Hopkins     │ badge, pipe, eye            │    ✗     │   ✗    │   ✗    " \
           "│   ✗    │  ✔ 100%  │" in shown
    assert "Criminal (2 consistent worlds, 0.00 bits left)" in shown
    assert "│ Inspector Hopkins │ 1.000 │ ██████████████████████████████ │" in shown
    assert shown[-1] == "No questions: I have no next turn (the game is over: Dan wins)."
    assert not any(line.startswith("Accus") for line in shown)  # no accuse advice: game over


def test_demo_compact_looks_the_same_on_a_terminal_and_through_a_pipe(tmp_path):
    shown, _ = on_terminal(["demo", "--compact"], tmp_path)
    assert shown == piped(["demo", "--compact"], tmp_path)
    assert shown[0] == ("Sherlock 13, 4 players, standard variant, seen by Ann (hand: Inspector "
                        "Bradstreet, John H. Watson, Mary Morstan).")
    assert shown[2] == f"{' before the first turn ':─^{WIDTH}}"
    assert shown[-3:] == [f"{' after event 11: Dan accuse Inspector Hopkins: right ':─^{WIDTH}}",
                          "Game over: Dan wins.",
                          "2 worlds; criminal: Inspector Hopkins 1.00"]


def test_the_full_demo_ends_on_a_terminal(tmp_path):
    shown, _ = on_terminal(["demo"], tmp_path)
    assert shown.count("Game over: Dan wins.") == 1
    assert shown[-1] == "No questions: I have no next turn (the game is over: Dan wins)."
    last_step = shown[shown.index("Game over: Dan wins."):]
    assert not any(line.startswith("Accus") for line in last_step)  # no advice: game over


def test_case_explain_bar_on_a_terminal_none_through_a_pipe(tmp_path):
    args = ["case", "explain", "lantern-street"]
    shown, raw = on_terminal(args, tmp_path)
    assert bar_drawn(raw, "explaining", 171)  # the total is known after the first step
    assert drawn(raw, "explaining ") and drawn(raw, " 0/?")  # and unknown before it
    pipe = piped(args, tmp_path)
    assert shown[:-1] == pipe[:-1]  # all but the timing line
    assert shown[:2] == ["The Lantern Street Pawnshop: 72 steps from all notes",
                         "After each step that changes it, the grid: a solved cell (yellow: "
                         "solved by this step), ?n: n values left (?n*: fewer"]
    assert shown[-2] == ("The whole solution follows in 72 steps, hardest cost 161, no step "
                         "needs two notes or more (total cost 5,310).")
    for lines in (shown, pipe):
        assert re.fullmatch(r"first step after \d+\.\d\d s, all in \d+\.\d\d s", lines[-1])


# ---------------------------------------------------------------------------- spinners
LATE_ADVICE = [("Seek Information", "0.9%"), ("Investigate", "0.5%"), ("Rest", "0.0%"),
               ("Wait", "0.0%")]


def advice_rows(lines: list[str]) -> list[tuple[str, str]]:
    """(Action, P(arrest)) of each row of the advice tables in ``lines``."""
    return [(m[1], m[2]) for line in lines
            if (m := re.fullmatch(r"│ (\S.*?) +│ +(\d+\.\d%) │", line))]


def test_story_advise_spinner_on_a_terminal_none_through_a_pipe(tmp_path, late):
    shown, raw = on_terminal(["story", "advise", late], tmp_path)
    assert drawn(raw, "Solving the case for every SM and Luck")
    assert drawn(raw, "solving turn 11 (from turn 12 back to")  # the DP turn by turn
    assert shown[0] == "Turn 11: P(arrest by the end of turn 12)"
    assert advice_rows(shown) == LATE_ADVICE
    assert piped(["story", "advise", late], tmp_path) == shown
    doc = json.loads("\n".join(piped(["story", "advise", late, "--json"], tmp_path)))
    assert [(a["action"], f"{100 * a['p_arrest']:.1f}%") for a in doc["actions"]] == LATE_ADVICE
    assert doc["best"] == "Seek Information"


# ------------------------------------------------------------------------------ prompts
def wait(child: pexpect.spawn, prompt) -> list[str]:
    """Wait for ``prompt`` (a regex, or ``pexpect.EOF``): the screen rows written before it
    (since the last one waited for)."""
    child.expect(prompt)
    return screen(child.before)


def say(child: pexpect.spawn, text: str, then) -> list[str]:
    """Type ``text`` and Enter at the question just waited for, then ``wait`` for ``then``:
    the rows written in between, the echo of ``text`` first (an empty line echoes none)."""
    child.sendline(text)
    return wait(child, then)


def events(path: Path) -> int:
    return len(json.loads(path.read_text(encoding="utf-8"))["events"])


TURN = r"\[(Ann|Ben|Cat|Dan) to play\] > "
FRESH = ["16,800 worlds; criminal: John H. Watson 0.10, James Moriarty 0.10, Irene Adler 0.10, "
         "Mycroft Holmes 0.10, Mary Morstan", "0.10 (+5 more)",
         "best question: raise necklace (0.32 bits)"]
RAISED = ["ok event 0: Ann raise skull (raised: Cat)",
          "560 worlds; criminal: James Moriarty 0.25, Irene Adler 0.25, Sebastian Moran 0.25, "
          "John H. Watson 0.04, Mycroft Holmes", "0.04 (+5 more)",
          "best question: raise necklace (0.84 bits)"]


def test_s13_table_on_a_terminal_asks_for_a_new_record_then_plays(tmp_path):
    path = tmp_path / "new.json"
    child = spawn(["s13", "table", "new.json"], tmp_path)
    wait(child, r"Variant.*: ")
    say(child, "standard", r"Players.*: ")
    say(child, "Ann,Ben,Cat,Dan", r"player are you.*: ")
    say(child, "Ann", r"hand.*: ")
    shown = say(child, "sherlock,hudson,baynes", TURN)
    assert shown[-4:] == ["new.json: 0 events. Type help for commands."] + FRESH
    assert child.match[1] == "Ann" and events(path) == 0  # created before the first entry
    assert say(child, "raise Ann skull Cat", TURN) == ["raise Ann skull Cat"] + RAISED
    assert child.match[1] == "Ben" and events(path) == 1  # saved before the ok
    shown = say(child, "count Ann Ben skull 1", TURN)  # refused: the session goes on
    assert len(shown) == 2 and shown[1].startswith("refused: ")
    assert shown[1].endswith("out of turn: Ann acted but it is Ben's turn")
    assert child.match[1] == "Ben" and events(path) == 1  # the record as it was
    shown = say(child, "undo", TURN)
    assert shown == ["undo", "ok undone: Ann raise skull (raised: Cat)"] + FRESH
    assert child.match[1] == "Ann" and events(path) == 0
    shown = say(child, "show", TURN)
    assert shown[1] == "Clue sheet (probability that each place holds the card)"
    assert "│ Mrs. Hudson           │ pipe, necklace              │  ✔ mine  │  ✗  │  ✗  │  ✗  " \
           "│    ✗     │" in shown
    assert "Criminal (16,800 consistent worlds, 3.32 bits left)" in shown
    assert "│ 1 │ raise necklace   │         0.322 │" in shown
    assert say(child, "quit", pexpect.EOF) == ["quit", "bye: the record is saved"]
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    assert events(path) == 0


def test_s13_table_on_a_terminal_leaves_on_ctrl_d_as_on_quit(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({
        "game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"],
        "me": "Ann", "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"],
        "events": []}), encoding="utf-8")
    child = spawn(["s13", "table", path], tmp_path)
    wait(child, TURN)
    child.sendeof()
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    assert screen(raw)[-2:] == ["[Ann to play] >", "bye: the record is saved"]  # on its line


def test_s13_table_through_a_pipe_answers_line_by_line(tmp_path):
    setup = ["--variant", "standard", "--players", "Ann,Ben,Cat,Dan", "--me", "Ann",
             "--hand", "sherlock,hudson,baynes"]
    res = through_pipes(["s13", "table", "new.json", *setup], tmp_path,
                        "raise Ann skull Cat\ncount Ann Ben skull 1\nbest\nundo\nquit\n")
    clean(res.stdout + res.stderr)
    assert res.returncode == 2  # that of the first refusal
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    assert lines[0] == "ok: event 0: Ann raise skull (raised: Cat)"
    assert lines[1] == "Best questions for Ann's next turn"
    assert "│ 1 │ raise necklace       │         0.843 │" in lines
    assert lines[-1] == "ok: undone: Ann raise skull (raised: Cat)"
    assert res.stderr.startswith("refused: ") and res.stderr.count("\n") == 1
    assert "out of turn: Ann acted but it is Ben's turn" in res.stderr
    assert events(tmp_path / "new.json") == 0


def record(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


ACTION = r"Action \(or undo, quit\) \[Seek Information\]: "
ANY_ACTION = r"Action \(or undo, quit\) \[\w[\w ]*\]: "
ENCOUNTER = r"Encounter Matrix \(turn 11\): the 2d6 \[2-12\]: "
DICE = r"\[[^\]]*\]: "  # a die's question: the answers it takes in brackets
SEEK_9_THEN_2 = ["turn 11: Seek Information", "Seek Information: rolled 9, spends 1 Luck to roll "
                 "again", "Seek Information: 2d6 2+1 = 3", "Seek Information: the Villain: "
                 "Villain event", "Silas Crane: option 2"]
TURN_12_ADVICE = [("Seek Information", "0.0%"), ("Rest", "0.0%"), ("Wait", "0.0%"),
                  ("Investigate", "0.0%")]


def test_story_table_on_a_terminal_plays_saves_and_undoes(tmp_path, late):
    before = record(late)
    child = spawn(["story", "table", late], tmp_path)
    shown = wait(child, ACTION)
    assert shown[0] == "Turn 11: P(arrest by the end of turn 12)"
    assert advice_rows(shown) == LATE_ADVICE
    say(child, "", r"Seek Information: the 2d6 .*" + DICE)  # Enter: the best Action
    shown = say(child, "9", r"Seek Information: the new 2d6 .*" + DICE)
    assert shown == ["9", "  Seek Information: dice 9, total 10 -> a witness: 1d6 1-2 Location, "
                     "3-4 Character, 5-6 Clue event: P(arrest) keeping",
                     "0.3%, re-rolling 0.5%: spend 1 Luck and roll again"]
    shown = say(child, "2", ENCOUNTER)  # the Luck spent: the new roll
    assert shown == ["2"] + [f"  {line}" for line in SEEK_9_THEN_2] + [
        "Action done; on the Encounter Matrix now. P(arrest by turn 12) = 1.0%"]
    rec = record(late)  # saved after the Action
    assert (rec["turn"], rec["phase"], rec["sm"], rec["luck"]) == (11, "encounter", 0, 1)
    assert rec["log"][1:] == SEEK_9_THEN_2
    shown = say(child, "2", ANY_ACTION)
    assert shown[:4] == ["2", "  encounter: 2d6 2+0 = 2", "Saved: turn 12, SM 0, Luck 1.",
                         "Turn 12: P(arrest by the end of turn 12)"]
    assert advice_rows(shown) == TURN_12_ADVICE
    rec = record(late)  # saved after the Encounter Matrix
    assert (rec["turn"], rec["phase"]) == (12, "action")
    assert rec["log"][1:] == SEEK_9_THEN_2 + ["encounter: 2d6 2+0 = 2"]
    assert say(child, "undo", ENCOUNTER) == [
        "undo", "Undone: back to turn 11 (encounter), SM 0, Luck 1.",
        "Action done; on the Encounter Matrix now. P(arrest by turn 12) = 1.0%"]
    assert (record(late)["turn"], record(late)["phase"]) == (11, "encounter")
    shown = say(child, "undo", ACTION)  # at the phase's first question: the phase before
    assert shown[:2] == ["undo", "Undone: back to turn 11 (action), SM 1, Luck 2."]
    assert advice_rows(shown) == LATE_ADVICE
    assert record(late) == before | {"phase": "action", "waited": False}
    assert say(child, "quit", pexpect.EOF) == ["quit", f"Stopped: {late} is at turn 11 (action)."]
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    assert drawn(raw, "Solving the whole case for every SM and Luck (once)")


def test_story_table_through_a_pipe_answers_line_by_line(tmp_path, late):
    res = through_pipes(["story", "table", late], tmp_path, "\n9\n2\n2\nquit\n")
    clean(res.stdout + res.stderr)
    assert res.returncode == 0, res.stderr
    assert "Solving" not in res.stderr  # no spinner: the questions alone are on stderr
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    assert advice_rows(lines) == LATE_ADVICE + TURN_12_ADVICE
    assert [f"  {line}" for line in SEEK_9_THEN_2] + [
        "Action done; on the Encounter Matrix now. P(arrest by turn 12) = 1.0%",
        "  encounter: 2d6 2+0 = 2", "Saved: turn 12, SM 0, Luck 1."] == lines[9:17]
    assert lines[-1] == f"Stopped: {late} is at turn 12 (action)."
    rec = record(late)
    assert (rec["turn"], rec["phase"], rec["sm"], rec["luck"]) == (12, "action", 0, 1)


INVESTIGATE = [  # the questions of an Investigate at turn 11 of late_record, and the answers
    (r"Investigate: the 2d6 \(natural total; the engine adds \+2\) " + DICE, "8"),
    (r"1d6, the Clue line " + DICE, "3"),
    (ENCOUNTER, "9"),
    (r"1d6, the Encounter Matrix's column " + DICE, "4"),
    (r"1d6, the Holmes line " + DICE, "3"),
    (r"Bravery test: pass on 2d6 <= 7 " + DICE, "4"),
]
INVESTIGATED = [
    "  turn 11: Investigate", "  Investigate: 2d6 8+2 = 10",
    "  Investigate: important information: Clue event",
    "  1d6, the Clue line: 3 -> m422 (Tar on the boot-scraper)",
    "  read m422 (Tar on the boot-scraper)", "  encounter: 2d6 9+0 = 9",
    "  1d6, the Encounter Matrix's column: 4 -> a Holmes event",
    "  Encounter Matrix: a Holmes event",
    "  1d6, the Holmes line: 3 -> m443 (A seven-per-cent solution)",
    "  read m443 (A seven-per-cent solution)", "  Bravery test: pass on 2d6 <= 7: 4 -> passed",
    "Turn 11 recorded; now turn 12: SM 2, Luck 3.",
]


def test_story_turn_asks_on_a_terminal_what_answers_give_through_a_pipe(tmp_path, late):
    told = Path(shutil.copy(late, tmp_path / "told.json"))
    child = spawn(["story", "turn", late, "investigate"], tmp_path)
    wait(child, INVESTIGATE[0][0])
    for (_, text), (then, _) in zip(INVESTIGATE, INVESTIGATE[1:]):
        assert say(child, text, then) == [text]
    assert say(child, INVESTIGATE[-1][1], pexpect.EOF) == [INVESTIGATE[-1][1]] + INVESTIGATED
    code, raw = finish(child)
    assert code == 0
    clean(raw)
    answers = [arg for _, text in INVESTIGATE for arg in ("-a", text)]
    assert piped(["story", "turn", told, "investigate", *answers], tmp_path) == INVESTIGATED
    assert record(late) == record(told)  # the same record, asked or told
    assert (record(late)["turn"], record(late)["phase"]) == (12, "action")


def test_story_turn_stopped_at_a_question_writes_nothing(tmp_path, late):
    before = late.read_bytes()
    child = spawn(["story", "turn", late, "investigate"], tmp_path)
    say(child, INVESTIGATE[0][1], INVESTIGATE[1][0])
    child.sendeof()  # Ctrl-D at the second question
    code, raw = finish(child)
    assert code == 1
    clean(raw)
    shown = " ".join(screen(raw)[-2:])  # the long path wraps the line
    assert shown.endswith(f"stopped: {late} is unchanged (nothing of this turn was written)")
    assert late.read_bytes() == before
