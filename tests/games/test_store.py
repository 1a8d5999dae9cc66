"""The event store: gapless optimistic appends, the hash chain, immutability."""

from __future__ import annotations

import random
import threading
from itertools import pairwise

import pytest
from django.db import DatabaseError, connection, transaction

from games import service, store
from games.errors import StaleSeq
from games.models import Event, Game
from tests.support.play import random_move, users_by_seat


@pytest.fixture
def game(alice, bob):
    return service.create_game(title="duel", players=[alice, bob], options={"rounds": 4}, seed=7)


def events_of(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game).order_by("seq"))


def test_created_event_opens_the_stream_at_seq_1(game):
    (created,) = events_of(game)
    assert (created.seq, created.kind, created.prev_hash) == (1, "created", store.GENESIS_HASH)
    assert game.seq == 1 and game.head_hash == created.hash


def test_appends_are_gapless_and_chained(game):
    rng = random.Random(1)
    for _ in range(8):
        random_move(game, rng)
    events = events_of(game)
    assert [e.seq for e in events] == list(range(1, 10))
    assert store.chain_problems(events) == []
    assert all(later.prev_hash == earlier.hash for earlier, later in pairwise(events))
    game.refresh_from_db()
    assert game.head_hash == events[-1].hash


def test_append_with_a_stale_seq_is_refused_and_changes_nothing(game, alice):
    with pytest.raises(StaleSeq):
        store.append(
            game, expected_seq=0, kind="note", source="system", payload={},
            head_hash=store.GENESIS_HASH,
        )  # fmt: skip
    assert len(events_of(game)) == 1


def test_chain_check_finds_an_altered_payload(game):
    random_move(game, random.Random(3))
    events = events_of(game)
    events[1].payload = {"action": {"type": "commit", "card": 99}}
    assert store.chain_problems(events) == ["seq 2: hash does not match its content (altered?)"]


def test_chain_check_finds_a_missing_event(game):
    rng = random.Random(4)
    random_move(game, rng)
    random_move(game, rng)
    events = events_of(game)
    assert store.chain_problems([events[0], events[2]]) == ["seq 2 missing (found 3)"]


def test_the_model_refuses_to_update_or_delete_events(game):
    event = events_of(game)[0]
    with pytest.raises(TypeError, match="immutable"):
        event.save()
    with pytest.raises(TypeError, match="immutable"):
        event.delete()
    with pytest.raises(TypeError, match="immutable"):
        Event.objects.filter(game=game).update(kind="note")
    with pytest.raises(TypeError, match="immutable"):
        Event.objects.filter(game=game).delete()


@pytest.mark.postgres
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_event SET kind = 'note' WHERE game_id = %s",
        "DELETE FROM games_event WHERE game_id = %s",
    ],
)
def test_raw_sql_cannot_change_events_on_postgresql(game, sql):
    with (
        pytest.raises(DatabaseError, match="immutable"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [game.pk])
    assert len(events_of(game)) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_writers_at_the_same_seq_exactly_one_wins(duel_engine):
    from tests.conftest import make_user

    players = [make_user("alice"), make_user("bob")]
    game = service.create_game(title="duel", players=players, seed=11)
    state = store.load(game, duel_engine).state
    start = threading.Barrier(20)
    outcomes: list[str] = []

    def writer(i: int) -> None:
        seat = i % 2
        card = state["hands"][seat][0]
        try:
            start.wait()
            service.submit_action(
                Game.objects.get(pk=game.pk), players[seat],
                action={"type": "commit", "card": card}, expected_seq=1,
            )  # fmt: skip
            outcomes.append("ok")
        except StaleSeq:
            outcomes.append("stale")
        except Exception as exc:  # recorded so the assertion shows it
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["ok"] + ["stale"] * 19
    events = events_of(game)
    assert [e.seq for e in events] == [1, 2]
    assert store.chain_problems(events) == []
    game.refresh_from_db()
    assert game.seq == 2


def test_seats_to_act_mirror_the_state(game, alice, bob):
    assert sorted(game.seats.filter(to_act=True).values_list("index", flat=True)) == [0, 1]
    seat_users = users_by_seat(game)
    state = store.load(game, service.engine_for(game)).state
    card = state["hands"][0][0]
    service.submit_action(
        game, seat_users[0], action={"type": "commit", "card": card}, expected_seq=1
    )
    assert list(game.seats.filter(to_act=True).values_list("index", flat=True)) == [1]
    assert game.to_act == [1]


def test_append_listeners_run_inside_the_events_transaction(game, monkeypatch):
    from games import hooks

    seen = []

    def listener(game_, event, before):
        seen.append((event.seq, event.kind, transaction.get_connection().in_atomic_block))
        if event.kind == "note":
            raise RuntimeError("listener failed")

    monkeypatch.setattr(hooks.append, "listeners", [listener])
    with pytest.raises(RuntimeError):
        store.append(
            game, expected_seq=1, kind="note", source="system", payload={},
            head_hash=game.head_hash,
        )  # fmt: skip
    assert seen == [(2, "note", True)]
    assert [e.seq for e in events_of(game)] == [1]  # the failed listener rolled the event back
