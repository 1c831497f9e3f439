"""Sherlock 13 bots and self-play: legal play, termination, determinism, rotation, the
opponents' views, and the ``deduce s13 selfplay`` command."""

import json
import random
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from deduce.cli.main import cli
from deduce.core.errors import InputError
from deduce.core.info import expected_bits
from deduce.core.selfplay import game_seed
from deduce.models.sherlock13.bots import (
    BOTS,
    Decision,
    InfoGainBot,
    expected_top,
    make_bot,
    mutual_bits,
    opponent_views,
    public_view,
)
from deduce.models.sherlock13.cards import SUSPECTS
from deduce.models.sherlock13.knowledge import count_worlds, questions_for
from deduce.models.sherlock13.record import new_record, parse_record
from deduce.models.sherlock13.rules import Accuse, ExchangeEvent, State, default_names
from deduce.models.sherlock13.selfplay import TURN_CAP, GameSpec, game_specs, play_one

from .simulate import random_game

VARIANTS = [(n, v) for n in (2, 3, 4) for v in ("standard", "expert")]


def _records(state: State) -> list:
    names = default_names(state.n)
    return [new_record(state.variant, names, names[s], [SUSPECTS[c] for c in state.start_hands[s]])
            for s in range(state.n)]


def _play_checked(n: int, variant: str, bots: list[str], seed: int):
    """Play like ``play_one``, asserting every chosen action is legal for the referee."""
    rng = random.Random(seed)
    state = State.deal(n, variant, rng)
    players = [make_bot(b) for b in bots]
    records = _records(state)
    while not state.is_over() and len(state.events) < TURN_CAP:
        seat = state.current
        action = players[seat].choose(records[seat], rng)
        legal = state.legal_actions()
        assert action in legal, (action, seat)
        if isinstance(action, Accuse) and players[seat].name in ("random", "tracker"):
            assert Decision(records[seat]).certain  # these two accuse only when certain
        event = state.apply(action)
        for s, rec in enumerate(records):
            rec.add(replace(event, took=None) if isinstance(event, ExchangeEvent) and s != event.actor
                    else event)
    return state


# ----------------------------------------------------------------------------- play
@pytest.mark.parametrize("n, variant", VARIANTS)
def test_bots_play_only_legal_actions(n, variant):
    lineups = {2: [["infogain", "tracker"], ["random", "infogain"]],
               3: [["infogain", "tracker", "random"]],
               4: [["infogain", "tracker", "random", "random"]]}[n]
    for k, bots in enumerate(lineups):
        state = _play_checked(n, variant, bots, seed=100 + k)
        assert state.is_over()


@pytest.mark.parametrize("n, variant", VARIANTS)
def test_every_game_ends_with_a_winner_under_the_cap(n, variant):
    names = list(BOTS)
    for seed in range(3):
        bots = [names[(seed + i) % 3] for i in range(n)]
        result = play_one(GameSpec(n, variant, tuple(bots), game_seed(seed, n)))
        assert result.winner is not None and 0 <= result.winner < n
        assert result.turns < TURN_CAP
        assert sum(s["turns"] for s in result.stats) == result.turns
        for i, s in enumerate(result.stats):  # a turn is a question or an accusation
            right = s["turns"] - s["questions"] - s["wrong_accusations"]
            assert right in ((0, 1) if i == result.winner else (0,))


def test_play_one_is_pure_and_deterministic():
    spec = GameSpec(4, "standard", ("infogain", "tracker", "random", "random"), 12345)
    assert play_one(spec) == play_one(spec)
    specs = game_specs(3, "expert", ["infogain", "random", "tracker"], 6, seed=9)
    assert [play_one(s) for s in specs] == [play_one(s) for s in specs]


def test_game_specs_rotate_seats_and_check_their_input():
    specs = game_specs(4, "standard", ["InfoGain", "rand", "tracker", "random"], 5, seed=1)
    assert specs[0].bots == ("infogain", "random", "tracker", "random")
    assert specs[1].bots == ("random", "infogain", "random", "tracker")
    assert [s.bots.index("infogain") for s in specs] == [0, 1, 2, 3, 0]
    assert len({s.seed for s in specs}) == 5
    with pytest.raises(InputError, match="--bots"):
        game_specs(4, "standard", ["infogain", "random"], 5, seed=1)
    with pytest.raises(InputError, match="--bots.*known"):
        game_specs(2, "standard", ["infogain", "sherlock"], 5, seed=1)
    with pytest.raises(InputError, match="--players"):
        game_specs(5, "standard", ["random"] * 5, 5, seed=1)


def test_configured_bots_are_copied_per_game():
    bot = InfoGainBot(threshold=0.4)
    copy = make_bot(bot)
    assert copy == bot and copy is not bot


# ----------------------------------------------------------------------------- measures
def test_vectorised_measures_match_the_core_ones():
    for seed in range(6):
        st = random_game(4, "standard" if seed % 2 else "expert", seed, max_events=6)
        rec = parse_record(st.record(st.current)) if not st.is_over() else None
        if rec is None:
            continue
        worlds = count_worlds(rec)
        joints = [worlds.joint(q) for q in questions_for(rec)]
        assert np.allclose(mutual_bits(joints), [expected_bits(j) for j in joints], atol=1e-9)
        tops = expected_top(joints)
        assert np.all(tops >= worlds.criminal.max() / worlds.total - 1e-12) and np.all(tops <= 1 + 1e-12)


@pytest.mark.parametrize("n, variant", [(3, "standard"), (3, "expert"), (4, "standard"), (4, "expert")])
def test_public_view_is_each_players_own_analysis(n, variant):
    """Counting from the public facts with one hand known gives that player's analysis."""
    for seed in range(5):
        st = random_game(n, variant, seed, max_events=9)
        names = default_names(n)
        records = [parse_record(st.record(s, names)) for s in range(n)]
        for seat, rec in enumerate(records):
            mine = count_worlds(rec)
            assert mine.total > 0
            for other in range(n):  # what I compute of seat `other` holding its real hand
                got = public_view(records[seat], other, st.start_hands[other])
                want = count_worlds(records[other]).criminal
                assert np.allclose(got / got.sum(), want / want.sum())


@pytest.mark.parametrize("n, seed", [(3, 1), (3, 4), (4, 3)])
def test_opponent_views_by_brute_force(n, seed):
    """certain/top: over my worlds (enumerated, replayed on the engine), the opponent's own
    analysis (``count_worlds`` of their record) with the hand they hold in that world."""
    from collections import Counter

    from .simulate import all_worlds, consistent

    st = random_game(n, "standard", seed, max_events=7, accuse_rate=0.1)
    if st.is_over():
        pytest.skip("game over")
    names = default_names(n)
    me = st.current
    rec = parse_record(st.record(me, names))
    worlds = [hands for crim, hands, sides in all_worlds(n, "standard", me, st.start_hands[me])
              if consistent("standard", hands, crim, sides, st.events, me)]
    views = opponent_views(rec)
    assert set(views) == {s for s in range(n) if s != me and s not in rec.turns.eliminated}
    for o, v in views.items():
        held = Counter(tuple(sorted(hands[o])) for hands in worlds)
        certain = top = 0.0
        for hand, k in held.items():
            theirs = new_record("standard", names, names[o], [SUSPECTS[c] for c in hand])
            for e in st.events:
                theirs.add(e)
            crim = count_worlds(theirs).criminal
            certain += k * (np.count_nonzero(crim) == 1)
            top += k * crim.max() / crim.sum()
        assert v.certain == pytest.approx(certain / len(worlds))
        assert v.top == pytest.approx(top / len(worlds))


# ----------------------------------------------------------------------------- CLI
def _run(args):
    return CliRunner().invoke(cli, ["s13", "selfplay", *args])


def test_cli_json_has_the_spec_keys_and_is_deterministic():
    args = ["--players", "3", "--bots", "infogain,tracker,random", "--games", "6", "--seed", "5", "--json"]
    first = _run(args + ["--workers", "1"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert list(data) == ["game", "players", "variant", "games", "seed", "workers", "scheduler",
                          "elapsed_s", "bots"]
    assert data["scheduler"] is None
    assert data["game"] == "sherlock13" and data["players"] == 3 and data["games"] == 6
    assert [b["name"] for b in data["bots"]] == ["infogain", "tracker", "random"]
    for b in data["bots"]:
        assert list(b) == ["name", "win_share", "ci95", "mean_turns", "wrong_accusations"]
        assert b["ci95"][0] <= b["win_share"] <= b["ci95"][1]
    assert sum(b["win_share"] for b in data["bots"]) == pytest.approx(1.0)
    second = json.loads(_run(args + ["--workers", "2"]).output)
    for d in (data, second):
        d.pop("elapsed_s"), d.pop("workers")
    assert data == second


@pytest.mark.parametrize("args, option", [
    (["--bots", "infogain,moriarty,random,random"], "--bots"),
    (["--bots", "infogain,random,random"], "--bots"),
    (["--players", "3", "--bots", "infogain,random,random,random"], "--bots"),
    (["--players", "6"], "--players"),
    (["--variant", "easy"], "--variant"),
])
def test_cli_bad_input_exits_2_naming_the_option(args, option):
    result = _run(args + ["--games", "2", "--json"])
    assert result.exit_code == 2
    assert option in result.output
    assert "Traceback" not in result.output


def test_cli_table_output():
    result = _run(["--players", "2", "--bots", "tracker,random", "--games", "3"])
    assert result.exit_code == 0, result.output
    assert "tracker" in result.output and "Win share" in result.output
