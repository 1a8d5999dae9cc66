"""18Cuba's automatic events reach the record, the web log and the mails:
the service stores what a move set off without a decision with the move's
event (`effects`), and every place that tells a game's events says them after
the move's own line (`games.selectors.narration.effect_lines`)."""

from __future__ import annotations

import random

import pytest

from games.engines import base
from games.engines.cuba.play.randomgame import choose
from games.models import Event
from games.selectors import narration, viewers, visibility
from games.services.creation import do_create_game
from games.services.moves import do_submit_action
from games.stream import store
from notifications import render
from web.pages import log_lines

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob"]


def _play_until_a_run(game, users, engine):
    """Random moves through the service until one sets off a train's run."""
    rng = random.Random(7)
    for _ in range(2000):
        game.refresh_from_db()
        state = store.load(game, engine).state
        assert engine.result(state) is None, "the game ended before any train ran"
        seat = min(engine.to_act(state))
        action = choose(rng, engine.legal_actions(state, seat))
        event = do_submit_action(
            game, seat, actor=users[seat], action=action, text=None, expected_seq=game.seq,
            source="api", kind="action",
        )  # fmt: skip
        effects = event.payload.get("effects") or []
        if any(e["event"] == "run" and e["trains"] for e in effects):
            return event
    raise AssertionError("no train ran")


def test_a_moves_automatic_events_are_stored_with_it_and_told_in_the_log_and_the_mail(alice, bob):
    engine = base.get("18cuba")
    users = [alice, bob]
    game = do_create_game(title="18cuba", players=users, options={"difficulty": "hard"}, seed=7)
    event = _play_until_a_run(game, users, engine)
    game.refresh_from_db()
    state = store.load(game, engine, head=event.seq).state
    assert event.payload["effects"] == engine.effects(state)

    seen = visibility.event_for(
        Event.objects.get(game=game, seq=event.seq), 0, reveal_all=False,
        chain_version=game.chain_version,
    )  # fmt: skip
    told = narration.effect_lines(engine, seen, NAMES)
    assert told == engine.tell_effects(event.payload["effects"], NAMES)
    assert any("'s " in line and " runs " in line for line in told)
    assert any(" earns $" in line for line in told)

    # the mail's "since your last turn": the move's line, then what it set off
    lines = render.since_lines(game, engine, 1, event.seq - 1, event.seq, NAMES)
    assert lines == [narration.event_line(engine, seen, NAMES), *told]

    # the web log: each move with its automatic events beneath
    viewer = viewers.Viewer(seat=0, moderator=False, head=game.seq)
    rows = log_lines(game, viewer, engine, dict(enumerate(NAMES)), up_to=game.seq, last=5)
    row = next(r for r in rows if r["seq"] == event.seq)
    assert row["effects"] == told
    # an event without automatic consequences has none
    assert all(isinstance(r["effects"], list) for r in rows)
