"""The event store: gapless optimistic appends, the hash chain, immutability."""

from __future__ import annotations

import random
import threading
from functools import partial
from itertools import pairwise

import pytest
from django.db import DatabaseError, connection, transaction

from games.errors import StaleSeq
from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.stream import chain, store
from games.stream.derived import engine_for
from tests.support.play import random_move, users_by_seat
from tests.support.threads import run_together


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], options={"rounds": 4}, seed=7)


def events_of(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game).order_by("seq"))


def test_created_event_opens_the_stream_at_seq_1(game):
    (created,) = events_of(game)
    assert (created.seq, created.kind, created.prev_hash) == (1, "created", chain.GENESIS_HASH)
    assert game.seq == 1 and game.head_hash == created.hash


def test_appends_are_gapless_and_chained(game):
    rng = random.Random(1)
    for _ in range(8):
        random_move(game, rng)
    events = events_of(game)
    assert [e.seq for e in events] == list(range(1, 10))
    assert store.chain_problems(game, events) == []
    assert all(later.prev_hash == earlier.hash for earlier, later in pairwise(events))
    game.refresh_from_db()
    assert game.head_hash == events[-1].hash


def test_append_with_a_stale_seq_is_refused_and_changes_nothing(game, alice):
    with pytest.raises(StaleSeq):
        store.append(
            game, expected_seq=0, kind="note", source="system", payload={},
            head_hash=chain.GENESIS_HASH,
        )  # fmt: skip
    assert len(events_of(game)) == 1


def test_chain_check_finds_an_altered_payload(game):
    random_move(game, random.Random(3))
    events = events_of(game)
    events[1].payload = {"action": {"type": "commit", "card": 99}}
    altered = "seq 2: hash does not match its content (altered?)"
    assert store.chain_problems(game, events) == [altered]


def test_chain_check_finds_a_missing_event(game):
    rng = random.Random(4)
    random_move(game, rng)
    random_move(game, rng)
    events = events_of(game)
    assert store.chain_problems(game, [events[0], events[2]]) == ["seq 2 missing (found 3)"]


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
def test_twenty_writers_at_the_same_seq_each_seat_moves_exactly_once(duel_engine):
    from tests.conftest import make_user

    players = [make_user("alice"), make_user("bob")]
    game = do_create_game(title="duel", players=players, seed=11)
    state = store.load(game, duel_engine).state
    start = threading.Barrier(20)
    outcomes: list[str] = []

    def writer(i: int) -> None:
        seat = i % 2
        card = state["hands"][seat][0]
        try:
            start.wait()
            check_submit_action(
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

    run_together(*(partial(writer, i) for i in range(20)))

    # The commit is simultaneous: the seat that lost the race to seq 1 still
    # chose from the same moves, so its move follows; a seat's other writers
    # find their choice gone (games.services.moves, the simultaneous rule).
    assert sorted(outcomes) == ["ok"] * 2 + ["stale"] * 18
    events = events_of(game)
    assert [e.seq for e in events] == [1, 2, 3]
    assert sorted(e.seat for e in events[1:]) == [0, 1]
    assert store.chain_problems(game, events) == []
    game.refresh_from_db()
    assert game.seq == 3


def test_seats_to_act_mirror_the_state(game, alice, bob):
    assert sorted(game.seats.filter(to_act=True).values_list("index", flat=True)) == [0, 1]
    seat_users = users_by_seat(game)
    state = store.load(game, engine_for(game)).state
    card = state["hands"][0][0]
    check_submit_action(
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


def note(game: Game) -> Event:
    return store.append(
        game, expected_seq=game.seq, kind="note", source="system", payload={},
        head_hash=game.head_hash,
    )  # fmt: skip


def test_append_listeners_run_only_for_the_games_they_accept(game, monkeypatch):
    from games import hooks

    calls = []
    hook = hooks.Hook()
    hook.register(lambda g, e, b: calls.append(("any", e.seq)))
    hook.register(lambda g, e, b: calls.append(("clocked", e.seq)), only_if=lambda g: g.clock)
    monkeypatch.setattr(hooks, "append", hook)
    note(game)
    Game.objects.filter(pk=game.pk).update(clock={"per_move": 3600})
    game.refresh_from_db()
    note(game)
    assert calls == [("any", 2), ("any", 3), ("clocked", 3)]


def statements_of(work) -> list[str]:
    seen = []

    def record(execute, sql, params, many, context):
        seen.append(sql.split()[0].upper())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        work()
    return seen


@pytest.mark.postgres
def test_an_append_no_listener_must_join_is_one_statement(game):
    assert statements_of(lambda: note(game)) == ["WITH"]


@pytest.mark.postgres
def test_a_clocked_games_append_has_its_transaction_for_the_deadlines(alice, bob):
    clocked = do_create_game(
        title="duel", players=[alice, bob], options={"rounds": 4}, seed=7,
        clock={"per_move": "1d"},
    )  # fmt: skip
    statements = statements_of(lambda: note(clocked))
    assert statements[0] == "SAVEPOINT" and "WITH" in statements  # inside the test's transaction


@pytest.mark.postgres
def test_an_append_with_listeners_that_write_has_its_transaction(game, monkeypatch):
    from games import hooks

    monkeypatch.setattr(hooks.append, "listeners", [lambda g, e, b: None])
    assert statements_of(lambda: note(game))[0] == "SAVEPOINT"  # inside the test's transaction


def row_listener(rows):
    def listener(game, event, before):
        return rows(game, event)

    return listener


def test_rows_are_planned_with_the_game_as_the_event_leaves_it(game, monkeypatch, alice):
    from games import hooks
    from notifications.models import Notification

    planned, written = [], []

    def rows(after, event):
        planned.append((after.seq, after.head_hash == event.hash, game.seq))
        mail = Notification(key=f"k{event.seq}", kind="your_turn", user=alice, game=after,
                            seq=event.seq)  # fmt: skip
        return [hooks.Row(mail, "key", written=written.append)]

    monkeypatch.setattr(hooks.rows, "listeners", [row_listener(rows)])
    event = note(game)
    assert planned == [(2, True, 1)]  # `game` itself moved only once the event was written
    assert [row.key for row in written] == ["k2"] and written[0].pk is not None
    assert Notification.objects.get(key="k2").seq == event.seq == game.seq


def test_rows_of_a_refused_append_are_not_written(game, monkeypatch, alice):
    from games import hooks
    from notifications.models import Notification

    written = []
    mail = Notification(key="stale", kind="your_turn", user=alice, game=game, seq=2)
    rows = [hooks.Row(mail, "key", written.append)]
    monkeypatch.setattr(hooks.rows, "listeners", [row_listener(lambda g, e: rows)])
    with pytest.raises(StaleSeq):
        store.append(
            game, expected_seq=0, kind="note", source="system", payload={},
            head_hash=chain.GENESIS_HASH,
        )  # fmt: skip
    assert written == [] and not Notification.objects.filter(key="stale").exists()
    assert game.seq == 1


def test_committed_listeners_hear_of_an_event_once_it_commits(
    game, monkeypatch, django_capture_on_commit_callbacks
):
    from games import hooks

    heard = []
    monkeypatch.setattr(hooks.committed, "listeners", [lambda g, e: heard.append(e.seq)])
    with django_capture_on_commit_callbacks() as callbacks:
        note(game)
    assert heard == []  # the test's transaction has not committed
    for callback in callbacks:
        callback()
    assert heard == [2]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_bad_row_undoes_the_whole_one_statement_append(alice, bob, monkeypatch):
    from games import hooks
    from notifications.models import Notification

    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 4}, seed=7)
    # No key: the row cannot be written, so neither may the event be.
    bad = Notification(key=None, kind="your_turn", user=alice, game=game, seq=2)
    monkeypatch.setattr(
        hooks.rows, "listeners", [row_listener(lambda g, e: [hooks.Row(bad, "key")])]
    )
    assert not connection.in_atomic_block
    with pytest.raises(DatabaseError):
        note(game)
    row = Game.objects.get(pk=game.pk)
    assert (row.seq, row.head_hash) == (1, game.head_hash)
    assert [e.seq for e in events_of(game)] == [1]
    assert not Notification.objects.filter(seq=2).exists()


def test_a_row_written_on_its_own_follows_the_appends_rule(game, alice):
    from games.hooks import Row
    from notifications.models import Notification

    written = []

    def row(kind):
        notice = Notification(key="own", kind=kind, user=alice, game=game, seq=1, context={})
        return Row(notice, unique="key", written=written.append)

    first, duplicate = row("your_turn"), row("game_over")
    assert store.write_new(first) is True
    assert written == [first.instance] and first.instance.pk is not None
    assert store.write_new(duplicate) is False  # skipped, and the transaction goes on
    assert written == [first.instance] and duplicate.instance.pk is None
    assert list(Notification.objects.filter(key="own").values_list("kind", flat=True)) == [
        "your_turn"
    ]
