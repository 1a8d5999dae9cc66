"""The one write path: create, act (by data or text), typed errors, undo."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.errors import (
    Forbidden,
    GameNotActive,
    InvalidRequest,
    NotASeat,
    NotYourTurn,
    StaleSeq,
)
from games.models import Event
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.services.seats import check_resign
from games.services.undo import check_undo
from games.stream import store
from games.stream.derived import engine_for


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], seed=42, creator=alice)


def state_of(game):
    game.refresh_from_db()
    return store.load(game, engine_for(game)).state


def test_create_game_seats_players_in_order_and_records_the_setup(game, alice, bob):
    assert [s.user for s in game.seats.order_by("index")] == [alice, bob]
    created = Event.objects.get(game=game, seq=1)
    assert created.payload["setup"] == state_of(game)
    assert created.payload["seats"] == [alice.pk, bob.pk]
    assert created.payload["options"] == {"rounds": 3}
    assert len(created.payload["commitment"]) == 64


def test_the_created_event_replays_its_recorded_setup_not_the_seed(game, monkeypatch):
    recorded = state_of(game)
    engine = engine_for(game)
    monkeypatch.setattr(engine, "setup", lambda *a, **k: {"changed": "shuffling code"})
    assert state_of(game) == recorded


def test_same_seed_gives_the_same_setup(alice, bob):
    one = do_create_game(title="duel", players=[alice, bob], seed=1)
    two = do_create_game(title="duel", players=[alice, bob], seed=1)
    assert state_of(one) == state_of(two)
    assert one.salt != two.salt


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"title": "nope"}, "unknown title"),
        ({"players": "one"}, "takes 2-4 players"),
        ({"players": "dup"}, "only one seat"),
        ({"options": {"colour": "red"}}, "unknown option"),
        ({"options": {"rounds": 0}}, "between 1 and"),
        ({"options": ["rounds"]}, "must be an object"),
    ],
)
def test_create_game_rejects_bad_requests(alice, bob, kwargs, message):
    players = {"one": [alice], "dup": [alice, alice]}.get(
        kwargs.pop("players", None), [alice, bob]
    )
    args = {"title": "duel", "players": players, **kwargs}
    with pytest.raises((InvalidRequest, IllegalAction), match=message):
        do_create_game(**args)
    assert not Event.objects.exists()


def test_a_move_by_text_equals_the_move_by_data(game, alice):
    card = state_of(game)["hands"][0][0]
    event = check_submit_action(game, alice, text=f"commit {card}", expected_seq=1)
    assert event.payload["action"] == {"type": "commit", "card": card}
    assert event.source == "api" and event.actor == alice and event.seat == 0


def test_an_illegal_action_changes_nothing(game, alice):
    for bad in [{"type": "commit", "card": 99}, {"type": "fly"}, {"nope": 1}, [], "commit", None]:
        with pytest.raises(IllegalAction):
            check_submit_action(game, alice, action=bad or {}, expected_seq=1)
    with pytest.raises(IllegalAction, match="unknown command"):
        check_submit_action(game, alice, text="dance", expected_seq=1)
    game.refresh_from_db()
    assert game.seq == 1 and Event.objects.filter(game=game).count() == 1


def test_a_stale_seq_is_refused(game, alice):
    card = state_of(game)["hands"][0][0]
    with pytest.raises(StaleSeq) as error:
        check_submit_action(game, alice, action={"type": "commit", "card": card}, expected_seq=0)
    assert error.value.current == 1


def test_someone_without_a_seat_cannot_act(game, charlie):
    with pytest.raises(NotASeat):
        check_submit_action(game, charlie, action={"type": "pass"}, expected_seq=1)


def test_a_seat_that_already_chose_must_wait(game, alice):
    hand = state_of(game)["hands"][0]
    check_submit_action(game, alice, action={"type": "commit", "card": hand[0]}, expected_seq=1)
    with pytest.raises(NotYourTurn):
        check_submit_action(
            game, alice, action={"type": "commit", "card": hand[1]}, expected_seq=2
        )


def test_a_hidden_choice_is_stored_with_its_public_form(game, alice):
    card = state_of(game)["hands"][0][0]
    event = check_submit_action(
        game, alice, action={"type": "commit", "card": card}, expected_seq=1
    )
    assert event.payload == {
        "action": {"type": "commit", "card": card},
        "public": {"type": "commit"},
    }


def test_only_moderators_undo(game, alice):
    with pytest.raises(Forbidden):
        check_undo(game, alice, to_seq=1, reason="please")


@pytest.mark.parametrize(
    ("to_seq", "reason"), [(0, "x"), (2, "x"), (5, "x"), (True, "x"), (1, " ")]
)
def test_undo_needs_a_point_in_the_past_and_a_reason(game, alice, mo, to_seq, reason):
    card = state_of(game)["hands"][0][0]
    check_submit_action(game, alice, action={"type": "commit", "card": card}, expected_seq=1)
    with pytest.raises(InvalidRequest):
        check_undo(game, mo, to_seq=to_seq, reason=reason)


def test_resigning_where_the_title_cannot_go_on_aborts_the_game(game, alice):
    event = check_resign(game, alice, reason="moving house")
    game.refresh_from_db()
    assert event.kind == "resign" and event.payload == {"reason": "moving house", "aborts": True}
    assert game.status == "aborted" and game.to_act == []
    assert game.seats.get(index=0).status == "resigned"
    with pytest.raises(GameNotActive):
        check_submit_action(game, alice, action={"type": "pass"}, expected_seq=2)


def test_a_moderator_undo_of_a_resignation_brings_the_seat_back(game, alice, mo):
    check_resign(game, alice)
    check_undo(game, mo, to_seq=1, reason="resigned by mistake")
    game.refresh_from_db()
    assert game.status == "active" and game.to_act == [0, 1]
    assert game.seats.get(index=0).status == "active"
