"""ops.rows, the adapter on Django's internals: what it relies on is
still there and still behaves, so that a Django upgrade that changes it
fails here, by name, instead of somewhere on the move path."""

from __future__ import annotations

import datetime
import inspect

import django
import pytest
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.db.models.expressions import Col
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import Event, Game, Seat, Snapshot
from games.services.moves import do_submit_action
from games.stream import sql, store
from games.stream.derived import engine_for
from notifications.models import Notification
from ops import rows as instances

pytestmark = pytest.mark.django_db

# The Django feature release the adapter was last checked and measured on.
CHECKED_ON = (5, 2)


def test_the_adapter_was_checked_on_this_django():
    assert django.VERSION[:2] == CHECKED_ON, (
        f"Django {django.get_version()}: ops.rows leans on Django's internals and "
        f"was checked on {CHECKED_ON}.  Run this file, run bench/bench_internals.py and "
        'compare with docs/benchmarks.md ("Django and DRF internals"); then move CHECKED_ON.'
    )


def test_the_internals_it_calls_have_the_shape_it_calls_them_with():
    def parameters(function) -> list[str]:
        return [name for name in inspect.signature(function).parameters if name != "self"]

    assert parameters(connection.ops.get_db_converters) == ["expression"]
    assert parameters(models.Field.get_col)[:2] == ["alias", "output_field"]
    assert parameters(Col.get_db_converters) == ["connection"]
    assert parameters(Game.from_db) == ["db", "field_names", "values"]
    column = Game._meta.get_field("result").get_col(Game._meta.db_table)
    assert isinstance(column, Col)
    for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
        assert len(inspect.signature(convert).parameters) == 3  # (value, expression, connection)


@pytest.fixture
def game(make_game, alice, bob):
    game = make_game(players=[alice, bob], seed=5)
    # Every kind of column the hot reads meet: JSON (dicts, lists, null),
    # dates, booleans, text, integers.
    Game.objects.filter(pk=game.pk).update(
        result={"winners": [0], "scores": [3, 1]}, deadline=datetime.datetime(2030, 1, 2,
        tzinfo=datetime.UTC), paused=True,
    )  # fmt: skip
    return Game.objects.get(pk=game.pk)


def raw_row(model: type[models.Model], pk) -> tuple:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {sql._select(model)} FROM {connection.ops.quote_name(model._meta.db_table)} "
            f"WHERE {connection.ops.quote_name(model._meta.pk.column)} = %s",
            [pk],
        )
        return cursor.fetchone()


@pytest.mark.parametrize("model", [Game, Event, User, Seat, Snapshot, Notification])
def test_an_instance_from_a_row_is_the_one_the_orm_reads(game, model):
    if model is Snapshot:
        store.save_snapshot(game, engine_for(game), 1, game.head_hash, {"a": [1]})
    orm = model.objects.order_by("pk").first()
    built = instances.from_row(model, raw_row(model, orm.pk))
    assert type(built) is model
    for field in model._meta.concrete_fields:
        ours, theirs = getattr(built, field.attname), getattr(orm, field.attname)
        assert (ours, type(ours)) == (theirs, type(theirs)), field.attname
    assert (built._state.adding, built._state.db) == (False, "default")
    assert built.get_deferred_fields() == set()


def test_an_instance_from_a_row_saves_as_an_update(game):
    built = instances.from_row(Game, raw_row(Game, game.pk))
    with CaptureQueriesContext(connection) as queries:
        built.save(update_fields=["paused"])
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
    built.refresh_from_db()
    assert built.paused is True


def test_a_row_marked_saved_is_one_the_orm_knows_as_written(game, alice):
    def notice():
        return Notification(key="same", kind="your_turn", user=alice, to_email=alice.email,
                            game=game, seq=1)  # fmt: skip

    written = notice()
    assert sql.insert_new(written, "key")
    assert (written._state.adding, written._state.db) == (False, "default")
    # Django's unique checks skip the row itself only for a row it knows is
    # written: a row still "adding" would clash with its own key.
    written.validate_unique()
    with pytest.raises(ValidationError):
        notice().validate_unique()
    with CaptureQueriesContext(connection) as queries:
        written.save()
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
    assert Notification.objects.filter(key="same").count() == 1


def test_a_table_read_in_one_statement_is_the_one_the_orm_reads(game):
    Seat.objects.filter(game=game, index=1).update(status=Seat.Status.REPLACED)
    orm = list(Seat.objects.filter(game=game).select_related("game", "user").order_by("index"))
    with CaptureQueriesContext(connection) as queries:
        built_game, seats = sql.table(game.pk)
        users = [(seat.user.username, seat.game is built_game) for seat in seats]
    assert len(queries.captured_queries) == 1
    assert users == [(seat.user.username, True) for seat in orm]
    for built, theirs in [(built_game, orm[0].game), *zip(seats, orm, strict=True)]:
        for field in type(built)._meta.concrete_fields:
            assert getattr(built, field.attname) == getattr(theirs, field.attname), field.attname
    assert sql.table(game.pk + 1000) is None


def test_events_told_are_the_ones_the_orm_reads_with_their_actors(game):
    engine = engine_for(game)
    state = store.load(game, engine).state
    seat = sorted(engine.to_act(state))[0]
    action = engine.legal_actions(state, seat)[0]
    mover = Seat.objects.get(game=game, index=seat).user
    do_submit_action(game, seat, actor=mover, action=action, text=None,
                     expected_seq=game.seq, source="api", kind=Event.Kind.ACTION)  # fmt: skip
    orm = list(Event.objects.filter(game=game).select_related("actor").order_by("seq"))
    told = sql.events_told(game.pk, 0, game.seq, 10)
    assert [(e.seq, e.actor and e.actor.username) for e in told] == [
        (e.seq, e.actor and e.actor.username) for e in orm
    ]
    assert told[0].actor is None and told[-1].actor.username == mover.username
    for built, theirs in zip(told, orm, strict=True):
        for field in Event._meta.concrete_fields:
            assert getattr(built, field.attname) == getattr(theirs, field.attname), field.attname
    assert [e.seq for e in sql.events_told(game.pk, 0, game.seq, 1)] == [1]
    assert [e.seq for e in sql.events_told(game.pk, 1, game.seq, 9)] == [2]
    assert sql.events_told(game.pk, 0, game.seq, 0) == []
    assert sql.events_told(game.pk, 0, game.seq, -1) == []
