"""Hostile input to ``deduce story``: numbers in any script, campaign data and records of
every wrong shape, effects that would multiply, names full of console markup and control
characters, writes that fail. Each is answered with exit 2 (or 0 where valid) and a
message naming the place: never a traceback, never a hang. Fast: late records only."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core.errors import InputError

from .conftest import TINY, write_campaign
from tests.documents import places, with_value


def run(*args, **kwargs):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False, **kwargs)


def refused(res, *words) -> None:
    """Exit 2, every word in the message, no traceback."""
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    for w in words:
        assert w in res.output, (w, res.output)


@pytest.fixture
def fresh(tmp_path):
    """The shipped campaign's a001, seed 7, at turn 1 (no DP is run on it here)."""
    path = tmp_path / "case.json"
    assert run("story", "new", "--adventure", "a001", "--seed", 7, path).exit_code == 0
    return path


@pytest.fixture
def late_tiny(tmp_path, tiny_dir):
    """A tiny-campaign case at turn 11 with the Villain known: its DP takes milliseconds."""
    path = tmp_path / "late.json"
    assert run("story", "new", "--data", tiny_dir, "--adventure", "a001", "--seed", 2,
               path).exit_code == 0
    rec = json.loads(path.read_text())
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True)
    path.write_text(json.dumps(rec))
    return path


def between(path, **changes) -> None:
    """Close the case in ``path`` as won (by hand, then ``story end``)."""
    rec = json.loads(path.read_text())
    rec.update(outcome="arrested", villain="c201", motive=1, turn=9, **changes)
    path.write_text(json.dumps(rec))
    assert run("story", "end", path, "--seed", 1).exit_code == 0


# ----------------------------------------------------------------------------- 1. numbers
def test_dice_answers_are_decimal_digits_of_any_script(fresh):
    before = fresh.read_bytes()
    refused(run("story", "turn", fresh, "wait", "-a", "²"), "--answer 1",
            "expected a dice total from 2 to 12, got '²'")
    refused(run("story", "turn", fresh, "wait", "-a", "٣²"), "--answer 1")
    assert fresh.read_bytes() == before
    res = run("story", "turn", fresh, "wait", "-a", "٢", "--json")  # Arabic-Indic 2: 2+1 quiet
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["log"] == ["turn 1: Wait", "encounter: 2d6 2+1 = 3"]


def test_roll_option_reads_numbers_by_the_same_rule(late_tiny):
    refused(run("story", "advise", late_tiny, "--roll", "investigate=²"), "--roll",
            "from 2 to 12, got '²'")
    refused(run("story", "advise", late_tiny, "--roll", "investigate=1e1"), "--roll")
    res = run("story", "advise", late_tiny, "--roll", "investigate=٣", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["reroll"]["dice"] == 3
    res = run("story", "advise", late_tiny, "--roll", "investigate=5")
    assert "Investigate: dice 5, total 6 -> no further light: P(arrest) keeping" in \
        " ".join(res.output.split())  # the row in words, not its tag


def test_split_option_reads_numbers_by_the_same_rule(late_tiny):
    between(late_tiny, sm=13, allies=[{"id": "m404"}])
    before = late_tiny.read_bytes()
    for bad in ("1,²,1", "1,2,1,0", "1,-2,5", "1, ,3"):
        refused(run("story", "spend", "friend", late_tiny, "--ally", "m404", "--split", bad),
                "--split")
        assert late_tiny.read_bytes() == before
    res = run("story", "spend", "friend", late_tiny, "--ally", "m404", "--split", "١,٢,١",
              "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["friend"]["brawn"] == 6 + 2


# ----------------------------------------------------------------------------- 2. data files
#: one value of every TOML type (datetimes included)
TOML_VALUES = [True, 7, 1.5, "x", [1], {"a": 1}, __import__("datetime").date(2020, 1, 2)]


def test_every_field_of_every_data_file_with_every_wrong_type():
    """Each place of each file of a campaign given a value of each TOML type: loaded, or
    refused with InputError naming the file and the field (never another exception)."""
    import tomllib

    from deduce.models.detective_story.data import parse_campaign

    docs = [(name, tomllib.loads(text)) for name, text in TINY.items()]
    tried = 0
    for f, (name, doc) in enumerate(docs):
        for path in list(places(doc, root=False)):
            key = [k for k in path if isinstance(k, str)][-1]
            for value in TOML_VALUES:
                changed = list(docs)
                changed[f] = (name, with_value(doc, path, value))
                tried += 1
                try:
                    parse_campaign(changed, "fuzzed")
                except InputError as exc:
                    assert name in str(exc) or "campaign" in str(exc), (path, value, str(exc))
                    assert key in str(exc) or key == "id", (path, value, str(exc))
    assert tried > 1000


def test_campaign_files_are_read_by_the_safe_reader(tmp_path):
    files = dict(TINY)
    folder = write_campaign(tmp_path / "bom", files)
    (folder / "campaign.toml").write_bytes(b"\xef\xbb\xbf" + TINY["campaign.toml"].encode())
    assert run("story", "list", "--data", folder, "--json").exit_code == 0  # a BOM is fine
    (folder / "big.toml").write_text("# " + "x" * (4 * 1024 * 1024) + "\n")
    refused(run("story", "list", "--data", folder), "big.toml",
            "more than the cap of 4,194,304 bytes")
    (folder / "big.toml").write_text("n = 1" + "0" * 5000 + "\n")
    refused(run("story", "list", "--data", folder), "big.toml", "integer-string limit")
    (folder / "big.toml").write_text("n = " + "[" * 70 + "]" * 70 + "\n")
    refused(run("story", "list", "--data", folder), "big.toml", "cap of 64 levels")
    (folder / "big.toml").unlink()
    (folder / "pipe.toml").mkdir()
    refused(run("story", "list", "--data", folder), "pipe.toml", "a folder")


def test_data_folder_must_be_a_folder_of_a_few_toml_files(tmp_path):
    import os

    from deduce.models.detective_story.data import MAX_CAMPAIGN_FILES

    (tmp_path / "file.toml").write_text(TINY["campaign.toml"])
    refused(run("story", "list", "--data", tmp_path / "file.toml"), "file.toml")
    os.mkfifo(tmp_path / "fifo")
    refused(run("story", "list", "--data", tmp_path / "fifo"), "fifo",
            "expected a campaign folder of *.toml files, but it is a FIFO")
    (tmp_path / "empty").mkdir()
    refused(run("story", "list", "--data", tmp_path / "empty"), "empty", "no *.toml files")
    many = tmp_path / "many"
    many.mkdir()
    for i in range(10_000):
        os.close(os.open(many / f"f{i:05}.toml", os.O_CREAT | os.O_WRONLY))
    refused(run("story", "list", "--data", many), str(many),
            f"more than the cap of {MAX_CAMPAIGN_FILES} *.toml files")
    # the record's own data folder: the same checks, the record's field named
    case = tmp_path / "case.json"
    assert run("story", "new", "--adventure", "a001", "--seed", 7, case).exit_code == 0
    rec = json.loads(case.read_text())
    for value, words in ((str(tmp_path / "fifo"), ["field 'data'", "FIFO"]),
                         (str(tmp_path / "nowhere"), ["field 'data'", "no such folder"]),
                         (7, ["field 'data'", "expected the campaign folder"])):
        case.write_text(json.dumps(dict(rec, data=value)))
        refused(run("story", "state", case), str(case), *words)


# ----------------------------------------------------------------------------- 2. the record
#: one value of every JSON type
JSON_VALUES = [None, True, 0, -3, 1.5, "x", "", [], [1], {}, {"a": 1}]


def _late_record(data) -> dict:
    """A late record of the shipped a001 with every field in use (bonus, location, an Ally,
    a Friend, a closed channel, visited, gone)."""
    from deduce.models.detective_story.campaign import new_record

    rec = new_record(data, "a001", seed=7)
    rec.update(turn=11, villain="c201", motive=1, sm=1, luck=2, clue_found=True,
               bonus={"action": "Investigate", "value": 1}, location="m430",
               allies=[{"id": "m404", "wounded": False, "addiction": 0, "madness": 0}],
               friends=[{"id": "m404", "brains": 7, "brawn": 8, "bravery": 8,
                         "traits": {"Aware": 1}}],
               seek_closed=["Charisma"], gone=["m410"], visited=["m430"], ruled_out=["c202"])
    return rec


def test_every_field_of_the_record_with_every_wrong_json_type(shipped):
    """Every place of a case record (data, bonus, location and log included) given a value
    of each JSON type, or removed: the record loads (and is rewritten), or InputError
    names the file and the field."""
    from deduce.models.detective_story.state import case_to_record, parse_record, record_campaign

    rec = _late_record(shipped)
    case_to_record(parse_record(rec, "case.json", shipped), parse_record(rec, "r", shipped).case)
    for path in list(places(rec, root=False)):
        for value in JSON_VALUES + [...]:
            bad = with_value(rec, path, value)
            if value is ...:
                parent = bad
                for key in path[:-1]:
                    parent = parent[key]
                del parent[path[-1]]
            try:
                data = shipped if path[0] != "data" else record_campaign(bad, "case.json")
                cf = parse_record(bad, "case.json", data)
                case_to_record(cf, cf.case, log=["a line"])
            except InputError as exc:
                assert str(exc).startswith("case.json: field '"), (path, value, str(exc))
                named = {"villain": ("villain", "motive")}.get(path[0], (path[0],))
                assert any(str(exc).startswith(f"case.json: field '{n}") for n in named), \
                    (path, value, str(exc))


def test_every_field_of_a_record_between_cases_with_every_wrong_json_type(shipped):
    """The same for a record between cases, then every purchase and the next case."""
    import random

    from deduce.models.detective_story import campaign as C
    from deduce.models.detective_story.state import parse_record

    cf = parse_record(_late_record(shipped), "r", shipped)
    rec, _ = C.close_case(cf, cf.case._replace(outcome="arrested", sm=20), random.Random(1))
    uses = [lambda r: C.spend_quality(r, "holmes", "Brains"),
            lambda r: C.spend_trait(r, "watson", "Science"),
            lambda r: C.spend_equipment(r, shipped, random.Random(1)),
            lambda r: C.spend_friend(r, shipped, "m404", (1, 2, 1), "m404"),
            lambda r: C.next_record(r, shipped, "a001", 3)]
    for path in list(places(rec, root=False)):
        for value in JSON_VALUES:
            try:
                checked = C.check_between(with_value(rec, path, value), "case.json", shipped)
            except InputError as exc:
                assert str(exc).startswith("case.json: field '"), (path, value, str(exc))
                continue
            for use in uses:
                try:
                    use(checked)
                except InputError:
                    pass


@pytest.mark.parametrize("field,value,words", [
    ("log", 5, ["field 'log'", "expected a list"]),
    ("log", ["ok", 5], ["field 'log[1]'", "expected a string"]),
    ("data", 7, ["field 'data'"]),
    ("bonus", "x", ["field 'bonus'", "expected an object or null"]),
    ("bonus", {"action": 5, "value": 1}, ["field 'bonus.action'", "expected a string"]),
    ("location", [1], ["field 'location'", "expected a string or null"]),
    ("seed", "x", ["field 'seed'", "expected an integer or null"]),
    ("allies", [{"id": 7}], ["field 'allies[0].id'", "expected a string"]),
    ("ruled_out", [[1]], ["field 'ruled_out[0]'", "expected a villain (a string)"]),
    ("inspector", {"status": "lestrade", "when": 1}, ["field 'inspector.when'", "unknown field"]),
])
def test_wrong_record_fields_through_the_cli(fresh, field, value, words):
    rec = json.loads(fresh.read_text())
    fresh.write_text(json.dumps(dict(rec, **{field: value})))
    before = fresh.read_bytes()
    for args in (["state", fresh], ["turn", fresh, "wait", "-a", "2"]):
        refused(run("story", *args), str(fresh), *words)
    assert fresh.read_bytes() == before


# ----------------------------------------------------------------------------- 3. nesting
def _nested(levels: int) -> str:
    """The effects of a paragraph nested ``levels`` deep, a d6 and a test by turns: the d6's
    faces 1-3 go a level deeper (one list for the three faces) and 4-6 give +2 SM; the
    test's pass goes deeper and its fail costs 1 Luck; the innermost gives +1 SM. Copied
    out face by face, it would be about 3 ** (levels / 2) lists."""
    inner = "[{ sm = 1 }]"
    for k in range(levels - 1, 0, -1):
        inner = (f'[{{ d6 = {{ "1-3" = {inner}, "4-6" = [{{ sm = 2 }}] }} }}]' if k % 2 else
                 f'[{{ test = "Bravery", pass = {inner}, fail = [{{ luck = -1 }}] }}]')
    return inner


def _six_ways(levels: int) -> str:
    """A d6 of d6s ``levels`` deep, every face of each the next level: 6 ** (levels - 1)
    lists copied out."""
    inner = "[{ sm = 1 }]"
    for _ in range(levels - 1):
        inner = f'[{{ d6 = {{ "1-6" = {inner} }} }}]'
    return inner


def _nested_campaign(tmp_path, levels: int, effects=_nested):
    files = dict(TINY)
    files["memoirs.toml"] = TINY["memoirs.toml"].replace(
        'title = "Violin"\neffects = [{ luck = 1 }]',
        f'title = "Violin"\neffects = {effects(levels)}')
    return write_campaign(tmp_path / f"{effects.__name__}{levels}", files)


def _reachable(effects) -> set[int]:
    """The ids of every effect and effect list reachable from ``effects``."""
    from deduce.models.detective_story import effects as fx

    seen, stack = set(), [effects]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, tuple):
            stack.extend(x)
        elif isinstance(x, fx.D6):
            stack.extend(x.faces)
        elif isinstance(x, (fx.Test, fx.Require)):
            stack.extend((x.passed, x.failed))
    return seen


def test_nested_effects_at_the_cap_are_parsed_once_and_shared(tmp_path):
    from deduce.models.detective_story import effects as fx
    from deduce.models.detective_story import engine as E
    from deduce.models.detective_story.data import MAX_EFFECT_DEPTH, load_campaign
    from deduce.models.detective_story.live import Answers, Told
    from deduce.models.detective_story.state import parse_record

    data = load_campaign(_nested_campaign(tmp_path, MAX_EFFECT_DEPTH))
    effects = data.paragraphs["m440"].effects
    # linear: per level its list and its d6 or test (15 levels), the innermost [+1 SM]
    # (the same object as every other [{ sm = 1 }] of the campaign), and the shared
    # [+2 SM] and [-1 Luck] branches (a list and an effect each)
    assert len(_reachable(effects)) == 2 * (MAX_EFFECT_DEPTH - 1) + 2 + 4
    level, plus_two, minus_one = effects, set(), set()
    for _ in range(MAX_EFFECT_DEPTH - 1):
        e = level[0]
        if isinstance(e, fx.D6):
            assert e.faces[0] is e.faces[1] is e.faces[2] and e.faces[3] is e.faces[4] is e.faces[5]
            plus_two.add(id(e.faces[3]))
            level = e.faces[0]
        else:
            minus_one.add(id(e.failed))
            level = e.passed
    assert len(plus_two) == len(minus_one) == 1  # identical subtrees are one object
    assert level is data.paragraphs["m450"].effects  # [{ sm = 1 }] anywhere: one object
    # a player reading it: a face or pass per level, then +1 SM; or a 4 at once: +2 SM
    cf = parse_record(_tiny_record(data), "r", data)
    end = lambda w, c: c  # noqa: E731
    w = Told(cf.ctx, Answers(["1", "pass"] * (MAX_EFFECT_DEPTH // 2)))
    assert E.run_effects(w, cf.ctx, cf.case, effects, end).sm == 1
    assert len(w.answers.used) == MAX_EFFECT_DEPTH - 1
    w = Told(cf.ctx, Answers(["3", "fail"]))
    assert E.run_effects(w, cf.ctx, cf.case, effects, end).luck == cf.case.luck - 1
    w = Told(cf.ctx, Answers(["4"]))
    assert E.run_effects(w, cf.ctx, cf.case, effects, end).sm == 2
    assert w.answers.used[0]["question"] == "1d6, the paragraph's d6"
    # a d6 of d6s: 6 ** 15 lists copied out; here a list and a d6 per level, no question
    data = load_campaign(_nested_campaign(tmp_path, MAX_EFFECT_DEPTH, _six_ways))
    effects = data.paragraphs["m440"].effects
    assert len(_reachable(effects)) == 2 * (MAX_EFFECT_DEPTH - 1) + 2
    w = Told(cf.ctx, Answers([]))
    assert E.run_effects(w, cf.ctx, cf.case, effects, end).sm == 1


def _tiny_record(data) -> dict:
    from deduce.models.detective_story.campaign import new_record

    return new_record(data, "a001", seed=2)


def test_effects_nested_past_the_cap_are_refused_naming_the_cap(tmp_path):
    from deduce.models.detective_story.data import MAX_EFFECT_DEPTH

    folder = _nested_campaign(tmp_path, MAX_EFFECT_DEPTH + 1)
    refused(run("story", "list", "--data", folder), "memoirs.toml", "m440",
            f"effects nested too deeply: more than the cap of {MAX_EFFECT_DEPTH} levels",
            "effects[0].d6.1-3[0]")


# ----------------------------------------------------------------------------- 4. names
def _hostile_campaign(folder):
    """The tiny campaign with console markup and control characters in every name: the
    campaign, the Adventure, a Villain and a Motive, paragraph titles, a character."""
    files = dict(TINY)
    for name, old, new in [
            ("campaign.toml", 'name = "A tiny test campaign"', r'name = "Camp [/bad] \u001b[31mred"'),
            ("adventures.toml", 'name = "The Test Case"', r'name = "The [bold]Test[/] Case \u001b[2J"'),
            ("casebook.toml", 'name = "The Forger"', r'name = "The [/bad] Forger"'),
            ("casebook.toml", 'text = "money"', r'text = "money [/m]"'),
            ("memoirs.toml", 'title = "The docks"', r'title = "[red]Docks[/] \u0007"'),
            ("memoirs.toml", 'title = "Revolver"', r'title = "Revolver [link=x]"'),
            ("memoirs.toml", 'name = "Inspector"', r'name = "Insp[/]ector"')]:
        assert old in files[name], old
        files[name] = files[name].replace(old, new)
    return write_campaign(folder, files)


def literal_output(res, *shown) -> None:
    """Exit 0, every text in ``shown`` in the output as written, no raw control character."""
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())  # lines wrapped at the console's width joined
    for text in shown:
        assert text in flat, (text, res.output)
    assert "\x1b" not in res.output and "\x07" not in res.output


def test_names_with_markup_and_control_characters_are_shown_literally(tmp_path):
    data = _hostile_campaign(tmp_path / "camp [/bad] \x1b[1m")
    adventure = ["[bold]Test[/]", "\\x1b[2J"]
    literal_output(run("story", "list", "--data", data), "Camp [/bad] \\x1b[31mred", *adventure)
    case = tmp_path / "[bold]case \x1b[1m.json"
    literal_output(run("story", "new", "--data", data, "--adventure", "a001", "--seed", 2, case),
                   "[bold]case \\x1b[1m.json", *adventure)
    rec = json.loads(case.read_text())
    assert "\x1b[2J" in rec["log"][0]  # the record keeps the raw names
    rec.update(turn=11, villain="c201", sm=1, luck=2, clue_found=True, equipment=["m413"])
    case.write_text(json.dumps(rec))
    literal_output(run("story", "state", case), "The [/bad] Forger", *adventure)
    literal_output(run("story", "advise", case), "Turn 11")
    # Investigate 7+1: a Location event, the docks: a Bravery test; a quiet Encounter Matrix
    literal_output(run("story", "turn", case, "investigate", "-a", "7", "-a", "pass", "-a", "2"),
                   "read m430 ([red]Docks[/] \\x07)")
    literal_output(run("story", "table", case, input="investigate\n7\nkeep\npass\n2\nquit\n"),
                   "[red]Docks[/] \\x07", "Turn 12")
    rec = json.loads(case.read_text())
    rec.update(outcome="arrested", motive=1, sm=12, allies=[{"id": "m404"}])
    case.write_text(json.dumps(rec))
    literal_output(run("story", "end", case, "--seed", 1), *adventure)
    literal_output(run("story", "spend", "equipment", case, "--seed", 1), "Revolver [link=x]")
    literal_output(run("story", "spend", "friend", case, "--ally", "Insp[/]ector", "--split",
                       "1,2,1"), "Insp[/]ector")
    literal_output(run("story", "next", case, "--adventure", "The [bold]Test[/] Case",
                       "--seed", 1), *adventure)
    # the record's data path, in an error
    rec = json.loads(case.read_text())
    case.write_text(json.dumps(dict(rec, data=str(tmp_path / "no [/bad] \x1b[1m"))))
    refused(run("story", "state", case), "field 'data'", "no [/bad] \\x1b[1m")
    assert "\x1b" not in run("story", "state", case).output


# ----------------------------------------------------------------------------- 5. writes
@pytest.fixture
def disk_full(monkeypatch):
    """Every write fails as on a full disk (``os.fsync`` of ``core.records``: ENOSPC)."""
    import errno

    def fsync(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("deduce.core.records.os.fsync", fsync)


def _unchanged(path, before: bytes) -> None:
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []


def test_one_shot_writers_on_a_full_disk_leave_the_record(late_tiny, disk_full):
    """new --force, turn, end, spend, next: exit 2 naming the file and the reason."""
    reason = f"{late_tiny}: cannot write the file: No space left on device"
    before = late_tiny.read_bytes()
    for args in (["new", "--data", late_tiny.parent / "tiny", "--seed", 1, "--force", late_tiny],
                 ["turn", late_tiny, "wait", "-a", "2"]):
        refused(run("story", *args), reason)
        _unchanged(late_tiny, before)
    rec = json.loads(before)
    late_tiny.write_text(json.dumps(dict(rec, outcome="arrested", motive=1, sm=12)))
    before = late_tiny.read_bytes()
    refused(run("story", "end", late_tiny, "--seed", 1), reason)
    _unchanged(late_tiny, before)


def test_spend_and_next_on_a_full_disk_leave_the_record(late_tiny, monkeypatch):
    between(late_tiny, sm=12)
    before = late_tiny.read_bytes()
    import errno

    def fsync(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("deduce.core.records.os.fsync", fsync)
    reason = f"{late_tiny}: cannot write the file: No space left on device"
    for args in (["spend", "quality", late_tiny, "--quality", "Brains"],
                 ["spend", "trait", late_tiny, "--trait", "Science"],
                 ["spend", "equipment", late_tiny, "--seed", 1],
                 ["next", late_tiny, "--adventure", "a001", "--seed", 1]):
        refused(run("story", *args), reason)
        _unchanged(late_tiny, before)
    out = late_tiny.parent / "next.json"
    refused(run("story", "next", late_tiny, "--adventure", "a001", "--out", out),
            f"{out}: cannot write the file: No space left on device")
    assert not out.exists()
    _unchanged(late_tiny, before)


def test_records_where_no_file_can_be_written(tmp_path, late_tiny):
    """A missing folder, a path under a regular file: exit 2 naming the file and the
    system's reason, nothing written."""
    for path, reason in ((tmp_path / "nowhere" / "case.json", "its folder does not exist"),
                         (late_tiny / "case.json", "a path in it is a file")):
        refused(run("story", "new", "--adventure", "a001", "--seed", 7, path),
                f"{path}: cannot write the file: {reason}")
        assert not path.exists()
    between(late_tiny, sm=2)
    before = late_tiny.read_bytes()
    for path, reason in ((tmp_path / "nowhere" / "next.json", "its folder does not exist"),
                         (late_tiny / "next.json", "a path in it is a file")):
        refused(run("story", "next", late_tiny, "--adventure", "a001", "--out", path),
                f"{path}: cannot write the file: {reason}")
    _unchanged(late_tiny, before)


@pytest.mark.skipif(__import__("os").geteuid() == 0, reason="root writes to read-only folders")
def test_a_record_in_a_read_only_folder(late_tiny):
    before = late_tiny.read_bytes()
    late_tiny.parent.chmod(0o555)
    try:
        refused(run("story", "turn", late_tiny, "wait", "-a", "2"), str(late_tiny),
                "Permission denied")
    finally:
        late_tiny.parent.chmod(0o755)
    assert late_tiny.read_bytes() == before


def test_table_session_refuses_a_phase_it_cannot_save_and_goes_on(late_tiny, disk_full):
    before = late_tiny.read_bytes()
    res = run("story", "table", late_tiny, input="wait\nwait\nquit\n")
    assert res.exit_code == 2, res.output  # from a pipe: the code of the first refusal
    refusal = (f"refused: {late_tiny}: cannot write the file: No space left on device; "
               "nothing was saved, so this is played again")
    assert res.stderr.count(refusal + "\n") == 2, res.stderr
    assert res.stdout.count("Turn 11: P(arrest") == 3  # the Action asked again, then quit
    assert f"Stopped: {late_tiny} is at turn 11 (action)." in " ".join(res.stdout.split())
    _unchanged(late_tiny, before)


# ----------------------------------------------------------------------------- 6. pipes
def _table_through_a_pipe(path, text: str):
    import subprocess

    from tests.cli.procs import deduce_argv, quiet_env

    return subprocess.run(deduce_argv() + ["story", "table", str(path)], input=text,
                          capture_output=True, text=True, env=quiet_env(), timeout=120)


def test_table_from_a_pipe_refuses_in_one_line_and_exits_with_the_first_refusal(late_tiny):
    from deduce.core.limits import MAX_LINE

    # Wait; the Encounter Matrix: ², a line too long, then 2 (2+1: quiet); at turn 12: quit
    res = _table_through_a_pipe(late_tiny, "wait\n²\n" + "7" * (MAX_LINE + 1) + "\n2\nquit\n")
    assert res.returncode == 2, res.stderr
    refusals = [line for line in res.stderr.splitlines() if line.startswith("refused: ")]
    assert refusals == ["refused: expected a dice total from 2 to 12, got '²'",
                        f"refused: line too long: more than the cap of {MAX_LINE:,} characters"]
    assert "Traceback" not in res.stderr
    assert "Encounter Matrix (turn 11): the 2d6 (the engine adds +1) [2-12]" in res.stderr
    rec = json.loads(late_tiny.read_text())
    assert (rec["turn"], rec["phase"]) == (12, "action")
    assert rec["log"][-2:] == ["turn 11: Wait", "encounter: 2d6 2+1 = 3"]


def test_table_from_a_pipe_stops_cleanly_at_the_end_of_the_input(late_tiny):
    res = _table_through_a_pipe(late_tiny, "wait\n")
    assert res.returncode == 0, res.stderr
    assert "refused" not in res.stderr and "Traceback" not in res.stderr
    assert res.stdout.rstrip().endswith("is at turn 11 (encounter).")
    assert json.loads(late_tiny.read_text())["phase"] == "encounter"


# ----------------------------------------------------------------------------- 8. newcomers
def test_new_without_a_seed_records_the_seed_it_drew(tmp_path):
    path = tmp_path / "case.json"
    res = run("story", "new", "--adventure", "a001", path, "--json")
    assert res.exit_code == 0, res.output
    seed = json.loads(path.read_text())["seed"]
    assert isinstance(seed, int) and json.loads(res.stdout)["seed"] == seed
    again = tmp_path / "again.json"
    res = run("story", "new", "--adventure", "a001", again)
    assert res.output.rstrip().endswith(f"seed {json.loads(again.read_text())['seed']}")
    replay = tmp_path / "replay.json"
    assert run("story", "new", "--adventure", "a001", "--seed", seed, replay).exit_code == 0
    assert json.loads(replay.read_text())["equipment"] == json.loads(path.read_text())["equipment"]


def test_a_misspelt_trait_suggests_the_nearest(tmp_path):
    refused(run("story", "new", "--traits", "Awre,Charisma,Tracking", tmp_path / "c.json"),
            "--traits: unknown starting trait 'Awre'; did you mean Aware?")


SNAKE = __import__("re").compile(r"\b[a-z]+_[a-z_]+\b")


def test_no_internal_name_reaches_a_player(tmp_path):
    """Questions and logs of whole cases told turn by turn (fights, wounds, healing, Allies
    leaving, option 3), and the end of each case: words, never an engine's tag."""
    import random

    from deduce.models.detective_story import engine as E
    from deduce.models.detective_story import tables as T
    from deduce.models.detective_story.campaign import close_case, new_record
    from deduce.models.detective_story.data import load_campaign
    from deduce.models.detective_story.live import Answers, play_turn
    from deduce.models.detective_story.state import parse_record
    from tests.detective_story.test_live import ROUGH, Recorder, Rerolling

    data = load_campaign(write_campaign(tmp_path / "rough", ROUGH))
    said, outcomes = [], set()
    for seed in range(40):
        cf = parse_record(new_record(data, "a001", seed=seed), "r", data)
        case, rng, policy = cf.case, random.Random(seed), Rerolling()
        while not case.over:
            w = Recorder(rng, policy, cf.ctx)
            action = policy.action(w, case, E.legal_actions(cf.ctx, case))
            acted = E.take_action(w, cf.ctx, case, action, E.AFTER_ACTION[action == T.WAIT])
            E.encounter(w, cf.ctx, acted, action == T.WAIT, E.AFTER_TURN)
            done = play_turn(cf.ctx, case, "action", False, action, Answers(w.said))
            said += done.log + [a["question"] for a in done.answers]
            case = done.case
        outcomes.add(case.outcome)
        said += close_case(cf, case, random.Random(seed))[0]["log"]
    assert len(outcomes) >= 3 and any("Option 3" in s for s in said)
    assert any("heals" in s for s in said) and any("is Wounded" in s for s in said)
    assert any(s.startswith("1d6, the Motive: ") and s.endswith("(value 2)") for s in said)
    assert [s for s in said if SNAKE.search(s)] == []


def test_end_suggests_spending_only_sm_that_buys_something(fresh):
    rec = json.loads(fresh.read_text())

    def ended(**changes) -> str:
        fresh.write_text(json.dumps(dict(rec, **changes)))
        res = run("story", "end", fresh, "--seed", 1)
        assert res.exit_code == 0, res.output
        return " ".join(res.output.split())

    lost = ended(outcome="lost", sm=3, luck=2)
    assert "story spend" not in lost and f"next: 'deduce story next {fresh} --adventure ID'" in lost
    assert "closed: the Villain escapes justice (lost)" in lost
    few = ended(outcome="arrested", villain="c201", motive=1, sm=2)
    assert "deduce story spend" not in few and "2 SM is too little to buy anything" in few
    assert "Luck 4 + SM 2 = 6 for the next case (R010); 2 SM to spend" in few
    enough = ended(outcome="arrested", villain="c201", motive=1, sm=3)
    assert f"next: 'deduce story spend ... {fresh}' (R010), then" in enough


def test_every_turn_example_of_the_help_works_as_written(tmp_path):
    """``story turn --help`` examples, each on a fresh a001 seed 7 record (an example with
    no ACTION goes on from the one before)."""
    import shlex

    helptext = run("story", "turn", "--help").output
    examples = [line.split() for line in helptext.splitlines()
                if line.strip().startswith("deduce story turn")]
    assert len(examples) >= 4
    case = tmp_path / "case.json"
    for words in examples:
        args = [str(case) if w == "case.json" else w for w in words[1:]]
        if args[3] != "-a":  # an ACTION: a fresh record (else the example before goes on)
            case.unlink(missing_ok=True)
            assert run("story", "new", "--adventure", "a001", "--seed", 7, case).exit_code == 0
        res = run(*args)
        assert res.exit_code == 0, (shlex.join(words), res.output)


def test_effects_that_come_out_in_too_many_ways_are_refused_naming_the_cap(tmp_path):
    """Tests one after another: 2 ** n ways for the advisor to follow; at most the cap."""
    from deduce.models.detective_story.data import MAX_EFFECT_OUTCOMES, load_campaign

    def campaign(n: int):
        test = '{ test = "Bravery", pass = [{ sm = 1 }], fail = [{ luck = -1 }] }'
        return _nested_campaign(tmp_path / str(n), n, lambda n: f"[{', '.join([test] * n)}]")

    n = MAX_EFFECT_OUTCOMES.bit_length() - 1  # 2 ** n == the cap
    assert load_campaign(campaign(n)).paragraphs["m440"].effects[n - 1].name == "Bravery"
    refused(run("story", "list", "--data", campaign(n + 1)), "memoirs.toml", "m440",
            "field 'effects'", f"can come out in more than the cap of {MAX_EFFECT_OUTCOMES} ways")
