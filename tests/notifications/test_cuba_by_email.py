"""18Cuba by mail: the opening auction, the concession draft and the first
stock round answered by replies, through the one inbound parser."""

from __future__ import annotations

import random

import pytest

from games import store
from games.engines import base
from games.services.common import engine_for
from games.services.creation import do_create_game
from notifications import inbound
from tests.notifications.conftest import reply_mail

pytestmark = pytest.mark.django_db


def test_the_opening_of_18cuba_is_played_by_email(alice, bob):
    game = do_create_game(title="18cuba", players=[alice, bob], options={"difficulty": "hard"},
                          seed=5)  # fmt: skip
    engine = base.get("18cuba")
    users = [alice, bob]
    rng = random.Random(5)
    kinds = set()
    for _ in range(400):
        game.refresh_from_db()
        state = store.load(game, engine_for(game)).state
        if game.status != "active" or state["round"]["number"] > 1:
            break
        [seat] = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        # Mostly cheap moves, so that players reach the stock round with money.
        cheap = [a for a in legal if a["type"] != "bid" or a["amount"] <= 10]
        line = engine.text(rng.choice(cheap))
        outcome = inbound.receive(reply_mail(users[seat], game, seat, line), door="test")
        assert outcome.status == "applied", (line, outcome)
        kinds.add(state["round"]["kind"])
    game.refresh_from_db()
    assert kinds >= {"auction", "concessions", "stock"}
    # the first set of operating rounds has been played and a second SR begun
    assert game.status == "active" and state["round"]["number"] == 2
