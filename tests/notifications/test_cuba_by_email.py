"""18Cuba by mail: the opening auction, the concession draft, the first
stock round and the first set of operating rounds answered by replies,
through the one inbound parser."""

from __future__ import annotations

import random

import pytest

from games.engines import base
from games.engines.cuba.play.randomgame import choose
from games.services.creation import do_create_game
from games.stream import store
from games.stream.derived import engine_for
from notifications import inbound
from tests.notifications.conftest import reply_mail

pytestmark = pytest.mark.django_db


def test_the_opening_and_the_first_operating_rounds_of_18cuba_are_played_by_email(alice, bob):
    game = do_create_game(title="18cuba", players=[alice, bob], options={"difficulty": "hard"},
                          seed=5)  # fmt: skip
    engine = base.get("18cuba")
    users = [alice, bob]
    rng = random.Random(5)
    kinds, moves = set(), set()
    for _ in range(600):
        game.refresh_from_db()
        state = store.load(game, engine_for(game)).state
        if game.status != "active" or state["round"]["number"] > 2:
            break
        [seat] = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        # Mostly cheap moves, so that players reach the stock round with money.
        cheap = [a for a in legal if a["type"] != "bid" or a["amount"] <= 10]
        action = choose(rng, cheap)
        line = engine.text(action)
        outcome = inbound.receive(reply_mail(users[seat], game, seat, line), door="test")
        assert outcome.status == "applied", (line, outcome)
        kinds.add(state["round"]["kind"])
        moves.add(action["type"])
    game.refresh_from_db()
    assert kinds >= {"auction", "concessions", "stock", "operating"}
    assert moves >= {"home", "lay", "run", "buy_train", "pass"}
    # two sets of operating rounds have been played and a third SR begun
    assert game.status == "active" and state["round"]["number"] == 3
