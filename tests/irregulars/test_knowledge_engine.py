"""``knowledge`` against the real engine (``rules.py``, from the "rules" branch; skipped
until it is merged): in random games of 2 to 5 players and solo, at random states, every
seat's knowledge holds the real hidden hands among the possible ones, and every sampled
``Hidden`` rebuilds a state with ``State.from_parts`` (the two agree on how a position
and its log are written)."""

from __future__ import annotations

import random

import pytest

from deduce.models.irregulars import knowledge as K
from deduce.models.irregulars.log import parse_log
from deduce.models.irregulars.position import parse_position

rules = pytest.importorskip("deduce.models.irregulars.rules")


def check(state, seat: int, rng: random.Random) -> str:
    obs = state.observation(seat)
    pos = parse_position(obs["position"], "p")
    log = parse_log(obs["log"], pos.cards, pos.players, "l")
    k = K.read(pos, log)
    real = state.hidden(seat)
    for h in k.holdings:
        if h.holder == "middle":
            truth = set(real.middle) - set(pos.hand)
        else:
            truth = set(real.hands.get(h.holder, ())) | (
                {real.picked[h.holder]} if h.holder in real.picked else set())
        assert set(h.certain) <= truth <= set(h.certain) | set(h.possible)
        assert len(truth) == h.cards
    rules.State.from_parts(pos, log, K.sample_hidden(pos, log, rng, knowledge=k))
    return k.stage


@pytest.mark.parametrize("game", [(0, 3), (1, 5), (2, 2), (3, 4), (4, "solo")])
def test_engine_observations(game):
    seed, players = game
    st = rules.new_solo(seed) if players == "solo" else rules.new_game(seed, players=players)
    rng = random.Random(seed)
    stages = set()
    while not st.is_over():
        if rng.random() < 0.2:
            for s in ([0] if players == "solo" else range(st.n)):
                stages.add(check(st, s, rng))
        st.apply(rng.choice(st.legal_actions()))
    assert {"drafting", "passed"} <= stages
