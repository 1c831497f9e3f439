"""The Baker Street Irregulars live table's session: whole engine games entered line by
line (multi, solo, dealt by the program), every entry kind, refusals with their reasons
and the file unchanged, undo, the record read back, a failed write, the cap, the lock."""

from __future__ import annotations

import errno
import json
import random

import pytest

from deduce.core import records
from deduce.core.errors import InputError
from deduce.models.irregulars import rules
from deduce.models.irregulars.table import TableSession, load_record
from tests.irregulars.table_driver import ME, line_of, play_through, start_position


def entries(table) -> list[dict]:
    return json.loads(table.path.read_text())["entries"]


@pytest.fixture
def start(tmp_path):
    """The start of ``rules.new_game(1, 3)`` as Ann sees it: hand E019 E028 E035 E048
    E052; Ben holds E029 E058 E077 E098 E100, Cat E003 E005 E074 E080 E092 (unseen)."""
    path = tmp_path / "start.json"
    path.write_text(json.dumps(start_position(rules.new_game(1, 3))))
    return path


@pytest.fixture
def table(start, tmp_path):
    with TableSession.open(tmp_path / "g.json", source=str(start)) as session:
        yield session


def reveal_inspectors(table, real) -> None:
    for s, name in enumerate(real.names):
        if s != ME:
            reply = table.handle(f"inspector {name} {real.inspectors[s]}")
            assert reply.kind == "accepted", reply.message


@pytest.mark.parametrize("seed, players", [(1, 3), (3, 5)])
def test_a_whole_game_entered_from_the_engines_play_ends_as_the_engine_does(
        tmp_path, seed, players):
    """Every step of a seeded engine game (random choices) typed at the table, what came
    answered from the real game: after every entry the table's observation is the
    engine's, card for card; the end is the engine's end once the Inspectors are shown."""
    real = rules.new_game(seed, players)
    (tmp_path / "s.json").write_text(json.dumps(start_position(real)))
    with TableSession.open(tmp_path / "g.json", source=str(tmp_path / "s.json")) as table:
        n = play_through(table, real, random.Random(seed))
        assert table.prompt() == "game over: show the Inspectors (inspector NAME INSPECTOR)"
        assert table.final_scores() is None
        reveal_inspectors(table, real)
        winner = real.names[real.winner()[0]]
        assert table.prompt() == f"game over: {winner} wins"
        assert table.final_scores() == list(zip(real.names, real.scores()))
        assert len(entries(table)) == n + players - 1
    with TableSession.open(tmp_path / "g.json") as again:  # read back: replayed
        assert again.observation() == real.observation(ME)
        assert again.prompt() == f"game over: {winner} wins"


def test_a_whole_solo_game_with_holmes_played_by_the_table(tmp_path):
    real = rules.new_solo(5)
    (tmp_path / "s.json").write_text(json.dumps(start_position(real)))
    lines: list[str] = []
    with TableSession.open(tmp_path / "g.json", source=str(tmp_path / "s.json")) as table:
        play_through(table, real, random.Random(5), lines)
        assert table.prompt() == f"game over: {real.names[real.winner()[0]]} wins"
        assert table.final_scores() == list(zip(real.names, real.scores()))
    kinds = {line.split()[0] for line in lines}
    assert {"pick", "holmes", "track", "check", "refill", "hand", "resupply", "arrest",
            "tail", "pass"} <= kinds


@pytest.mark.parametrize("mode", ["multi", "solo"])
def test_a_dealt_game_is_the_engines_game(tmp_path, mode):
    """--seed: the program deals (rules.new_game / new_solo) and the entries play on the
    real state; only Holmes's arrests ask for a confirmation."""
    real = rules.new_solo(8) if mode == "solo" else rules.new_game(8, 3)
    players = None if mode == "solo" else "Ann,Ben,Cat"
    lines: list[str] = []
    with TableSession.open(tmp_path / "d.json", seed=8, mode=mode, players=players,
                           me="Ann") as table:
        assert table.observation() == real.observation(ME)
        play_through(table, real, random.Random(8), lines)
        assert table.prompt() == f"game over: {real.names[real.winner()[0]]} wins"
    assert not {"holmes", "track", "check", "refill", "hand", "twist"} & \
        {line.split()[0] for line in lines}
    assert ("ok" in lines) == (mode == "solo")
    saved = json.loads((tmp_path / "d.json").read_text())
    assert saved["seed"] == 8 and saved["setup"] == rules.new_solo(8).observation(ME) \
        if mode == "solo" else saved["setup"] == rules.new_game(8, 3).observation(ME)
    record = load_record(tmp_path / "d.json")
    assert record.replay()[-1].observation(ME) == real.observation(ME)


def test_the_picks_wait_for_every_player_and_each_is_checked(table):
    reply = table.handle("pick E019")
    assert (reply.kind, reply.message) == ("info", "picks so far: you E019; waiting for Ben, Cat")
    assert table.prompt() == "round 1 cycle 1: picks (to enter: Ben, Cat)"
    refused = [table.handle(line).message for line in (
        "reveal Ben E019", "reveal Ben pass", "reveal Ben=E999", "pick E028")]
    assert refused == [
        "E019 cannot be in Ben's hand: it is in your hand",
        "Ben cannot pass the hand: no unseen card costs more than their 13 tokens in its "
        "place",
        "reveal: unknown Evidence card 'E999'; did you mean E097, E098, E099?",
        "Ann's pick is entered already (undo drops the picks so far)"]
    assert entries(table) == []
    reply = table.handle("reveal Ben E029, Cat=E003")
    assert (reply.kind, reply.message) == (
        "info", "picks: waiting for hand CARD, ...")
    assert table.prompt() == "round 1 cycle 1: picks: waiting for hand"
    assert table.handle("tail V11").message == (
        "picks waits for what came: hand CARD, ... (or undo to drop it)")
    assert [table.handle(line).message for line in (
        "hand E019, E005, E074, E080", "hand E005, E074", "twist SIXN")] == [
        "E019 cannot be in your hand: it is yours",
        "your hand holds 4 cards, not 2",
        "this entry reveals no Plot Twist (a new round does)"]
    reply = table.handle("hand E005, E074, E080, E092")
    assert (reply.kind, reply.message) == (
        "accepted", "entry 1: picks: Ann E019, Ben E029, Cat E003; your hand: E005, E074, "
                    "E080, E092")
    assert entries(table) == [{"action": {"action": "picks", "picks": {
        "Ann": "E019", "Ben": "E029", "Cat": "E003"}}, "told": {"hand": [
            "E005", "E074", "E080", "E092"]}}]
    pos = table.position()
    # WIST (no-tailing) and nobody can arrest: straight on to cycle 2
    assert (pos.phase, pos.cycle) == ("investigate", 2)
    assert table.prompt() == "round 1 cycle 2: picks (to enter: Ann, Ben, Cat)"
    assert (pos.bsi["Ann"].available, pos.bsi["Ben"].available) == (11, 12)
    # Cat now holds what Ben held (unseen) less Ben's pick; Ben holds my hand less E019
    assert table.handle("reveal Ben E019").message == (
        "E019 cannot be in Ben's hand: it is yours")
    assert table.handle("reveal Ben E080").message == (
        "E080 cannot be in Ben's hand: it is in your hand")
    assert table.handle("reveal Ben E028").kind == "info"


def test_a_pick_or_an_entry_the_rules_refuse_is_refused_with_the_engines_reason(table):
    assert [table.handle(line).message for line in (
        "pick E005", "take E019", "wiggins V11", "arrest V11", "bogus")] == [
        "pick E005 is not legal for Ann now: 'E005' is not in the hand",
        "take E019 is not legal for Ann now: taking an unchosen card belongs to the bonus "
        "phase, this is the investigate phase",
        "the Wiggins board: tail V11 instead is not legal for Ann now: the Wiggins "
        "board belongs to the arrest phase, this is the investigate phase",
        "arrest V11 with no card is not legal for Ann now: an arrest belongs to the arrest phase, this is "
        "the investigate phase",
        "unknown command 'bogus'; known: pick, pass, reveal, arrest, jump, watson, wiggins, "
        "tail, take, board, resupply, inspector, refill, twist, hand, middle, holmes, track, "
        "check, ok, show, hands, score, best, undo, help, quit (type help)"]
    assert entries(table) == []


@pytest.fixture
def tails(tmp_path):
    """``rules.new_game(2, 3)`` (CARD: the bonus in arresting order; order Ann, Cat,
    Ben), its first cycle entered: Ann E002, Ben E019, Cat E046."""
    (tmp_path / "s.json").write_text(json.dumps(start_position(rules.new_game(2, 3))))
    with TableSession.open(tmp_path / "t.json", source=str(tmp_path / "s.json")) as session:
        session.handle("pick E002")
        reply = session.handle("reveal Ben E019, Cat E046 hand E051, E066, E072, E088")
        assert reply.kind == "accepted", reply.message
        yield session


def test_tails_passes_the_arrest_view_and_undo(tails):
    table = tails
    assert table.prompt() == "round 1 cycle 1: Ann to tail"
    assert table.handle("tail V99").message.startswith("tail: unknown Villain 'V99'")
    reply = table.handle("tail V40")
    assert (reply.kind, reply.message) == ("accepted", "entry 2: Ann: tail V40 (Arthur Pinner)")
    assert table.handle("pass").message == "entry 3: Cat: no tail"
    assert table.prompt() == "round 1 cycle 1: Ben to tail"
    view = table.handle("arrest cat")
    assert view.view == "arrest" and view.data["player"] == "Cat"
    assert [a.villain.id for a in view.data["options"]] == ["V40", "V05", "V22", "V01", "V13"]
    assert view.data["best"] is None
    assert table.handle("undo").message == "undone: entry 3: Cat: no tail"
    assert table.prompt() == "round 1 cycle 1: Cat to tail" and len(entries(table)) == 2
    assert table.handle("undo").message == "undone: entry 2: Ann: tail V40 (Arthur Pinner)"
    table.handle("pass")
    table.handle("pass")
    table.handle("pass")
    assert table.prompt() == "round 1 cycle 2: picks (to enter: Ann, Ben, Cat)"
    table.handle("pick E051")
    assert table.handle("undo").message == "dropped: picks (it was not saved)"
    for _ in range(4):
        assert table.handle("undo").kind == "accepted"
    assert entries(table) == [] and table.handle("undo").message == "nothing to undo"


def test_a_failed_write_changes_nothing_and_the_session_goes_on(table, monkeypatch):
    real, calls = records.os.replace, [0]

    def replace(src, dst, *a, **kw):  # the disk is full for the first write
        calls[0] += 1
        if calls[0] == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    table.handle("pick E019")
    before = table.path.read_text()
    monkeypatch.setattr(records.os, "replace", replace)
    line = "reveal Ben E029, Cat E003 hand E005, E074, E080, E092"
    reply = table.handle(line)
    assert (reply.kind, reply.message) == (
        "refused", f"{table.path}: cannot write the file: No space left on device")
    assert table.path.read_text() == before and table.position().cycle == 1
    assert table.handle("pick E019").kind == "info"
    assert table.handle(line).kind == "accepted"
    assert len(entries(table)) == 1


def test_the_record_reads_back_and_a_bad_record_names_the_field(tails, tmp_path):
    tails.handle("tail V40")
    data = json.loads(tails.path.read_text())
    assert load_record(tails.path).to_json() == data
    tails.close()

    def bad(change, message):
        broken = json.loads(json.dumps(data))
        change(broken)
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(broken))
        with pytest.raises(InputError) as info:
            TableSession.open(path)
        assert str(info.value) == f"{path}: {message}"

    bad(lambda d: d.update(entries={}),
        "field 'entries': expected a list of entries, got an object")
    bad(lambda d: d["entries"][0]["told"].update(hand=["E051"]),
        "field 'entries[0]': the entry cannot be played: your hand holds 4 cards, not 1")
    bad(lambda d: d["entries"][0]["told"].update(bogus=1),
        "field 'entries[0].told.bogus': unknown field (known: refill, twist, hand, middle, "
        "holmes, track, check, ok)")
    bad(lambda d: d["entries"][0]["told"].pop("hand"),
        "field 'entries[0]': the entry does not say what came: hand CARD, ... (the hand you "
        "now hold)")
    bad(lambda d: d["entries"][1]["action"].update(villain="V12"),
        "field 'entries[1]': the entry cannot be played: tail V12 is not legal for Ann now: "
        "'V12' is not a visible Villain")
    bad(lambda d: d["entries"][0]["action"]["picks"].update(Ann="E046"),
        "field 'entries[0]': the entry cannot be played: pick E046 is not legal for Ann now: "
        "'E046' is not in the hand")


def test_the_cap_and_the_lock(table, monkeypatch):
    from deduce.core import table_session as T

    with pytest.raises(InputError, match="the record is in use by another deduce session|"
                                         "already open in this session"):
        TableSession.open(table.path)
    monkeypatch.setattr(T, "MAX_ENTRIES", 0)
    reply = table.handle("inspector Ben lestrade")
    assert (reply.kind, reply.message) == ("refused", "the record holds the cap of 0 entries")


def test_the_inspectors_shown(table):
    assert [table.handle(line).message for line in (
        "inspector Ann lestrade", "inspector Ben gregson")] == [
        "your Inspector is known: gregson", "gregson is your Inspector"]
    assert table.handle("inspector Ben nobody").message.startswith(
        "inspector: unknown Inspector 'nobody'")
    assert table.handle("inspector Ben lestrade").message == \
        "entry 1: Ben's Inspector: lestrade (Inspector Lestrade)"
    assert table.handle("inspector Cat lestrade").message == "lestrade is Ben's Inspector"
    assert table.handle("inspector Ben forrester").message == \
        "Ben's Inspector is shown already: lestrade"


def test_a_dealt_record_edited_by_hand_is_refused(tmp_path):
    with TableSession.open(tmp_path / "d.json", seed=8, mode="solo", me="Ann"):
        pass
    data = json.loads((tmp_path / "d.json").read_text())
    data["setup"]["position"]["villains"][0], data["setup"]["position"]["villains"][1] = \
        data["setup"]["position"]["villains"][1], data["setup"]["position"]["villains"][0]
    (tmp_path / "d.json").write_text(json.dumps(data))
    with pytest.raises(InputError) as info:
        TableSession.open(tmp_path / "d.json")
    assert str(info.value) == f"{tmp_path / 'd.json'}: field 'setup': not the deal of seed 8 " \
                              "(edited by hand?)"


def test_an_arrest_without_cards_takes_a_smallest_set(tmp_path):
    """``arrest V`` alone: the arrest solver's smallest set (the engine lists the smallest
    covers first: the same size)."""
    real = rules.new_solo(5)
    with TableSession.open(tmp_path / "d.json", seed=5, mode="solo", me="Ann") as table:
        rng = random.Random(5)
        while True:
            legal = real.legal_actions()
            arrests = [a for a in legal if isinstance(a, rules.Arrest) and not a.holmes]
            if arrests:
                break
            a = legal[rng.randrange(len(legal))]
            real.apply(a)
            reply = table.handle(line_of(a))
            if reply.kind == "info":
                reply = table.handle("ok")
            assert reply.kind == "accepted", reply.message
        want = arrests[0]
        reply = table.handle(f"arrest {want.villain}")
        assert reply.kind == "accepted", reply.message
        used = table.state.used[ME]
        assert table.state.arrested[ME][-1] == want.villain
        assert len(used) - len(real.used[ME]) == len(want.cards)
