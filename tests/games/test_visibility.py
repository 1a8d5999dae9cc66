"""Redaction of the event log: nobody sees another seat's hidden choice or the
resolved setup while the game runs."""

from __future__ import annotations

import random

import pytest

from games.models import Event
from games.selectors import visibility
from games.services.creation import do_create_game
from games.stream.derived import engine_for
from tests.support.play import current_state, random_move


def log_as_seen_by(game, seat, *, reveal_all=False) -> list[dict]:
    events = Event.objects.filter(game=game).order_by("seq")
    return [
        visibility.event_for(e, seat, reveal_all=reveal_all, chain_version=game.chain_version)
        for e in events
    ]


@pytest.mark.parametrize("seed", range(5))
def test_no_seat_ever_receives_another_seats_hidden_choice(alice, bob, charlie, seed):
    game = do_create_game(
        title="duel", players=[alice, bob, charlie], options={"rounds": 3}, seed=seed
    )
    engine = engine_for(game)
    rng = random.Random(seed)
    while game.status == "active":
        random_move(game, rng)
        state = current_state(game)
        for viewer in (0, 1, 2, None):
            received = log_as_seen_by(game, viewer)
            assert "setup" not in received[0]["payload"]
            for event in received[1:]:
                if event["seat"] != viewer:
                    assert "card" not in event["payload"]["action"]
                assert "public" not in event["payload"]
            view = engine.view(state, viewer)
            assert "deck" not in view and "hands" not in view
            assert all(isinstance(flag, bool) for flag in view["committed"])
            own_hand = None if viewer is None else state["hands"][viewer]
            assert view.get("hand") == own_hand


def test_a_seat_sees_its_own_choice_and_the_end_reveals_everything(alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 1}, seed=4)
    rng = random.Random(4)
    event = random_move(game, rng)
    own = log_as_seen_by(game, event.seat)[-1]
    other = log_as_seen_by(game, 1 - event.seat)[-1]
    assert own["payload"]["action"] == event.payload["action"]
    assert other["payload"]["action"] == {"type": "commit"}
    audit = log_as_seen_by(game, None, reveal_all=True)
    assert audit[0]["payload"]["setup"] == Event.objects.get(game=game, seq=1).payload["setup"]
    assert audit[-1]["payload"]["action"] == event.payload["action"]
