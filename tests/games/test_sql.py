"""The hand-written hot statements behave exactly like the ORM they replace."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.hooks import Row
from games.models import Event, Game, Seat, Snapshot
from games.stream import sql
from notifications.models import Notification
from ops import statements


@pytest.fixture
def game(make_game, alice, bob, carol):
    return make_game(players=[alice, bob, carol], seed=3)


def flags(game: Game) -> dict[int, bool]:
    return dict(Seat.objects.filter(game=game).values_list("index", "to_act"))


def test_head_is_seq_and_hash_or_none(game):
    assert sql.head(game.pk) == (game.seq, game.head_hash)
    assert sql.head(game.pk + 1000) is None


def test_game_reads_the_row_as_the_orm_does(game):
    row = sql.game(game.pk)
    orm = Game.objects.get(pk=game.pk)
    names = [f.attname for f in Game._meta.concrete_fields]
    assert [getattr(row, n) for n in names] == [getattr(orm, n) for n in names]
    assert sql.game(game.pk + 1000) is None
    assert sql.head_event(Game.objects.get(pk=game.pk)) is None  # not read with it


def test_game_brings_the_head_event(game):
    event = sql.head_event(sql.game(game.pk))
    assert (event.pk, event.seq, event.hash) == Event.objects.values_list("pk", "seq", "hash").get(
        game=game, seq=game.seq
    )


@pytest.mark.postgres
def test_the_head_event_is_read_by_its_key_however_long_the_stream(game):
    """A plain join let a planner without statistics (a test database, a
    table that just grew) read every event of the game to find the head's:
    a move's read that grew with the game."""
    for _ in range(40):
        event = next_event(game)
        sql.append(event, game.seq, {"seq": event.seq, "head_hash": event.hash}, None)
        game.seq, game.head_hash = event.seq, event.hash
    query = "EXPLAIN (ANALYZE, FORMAT JSON) " + sql._game_sql(True, True)
    with connection.cursor() as cursor:
        cursor.execute(query, [38, None, Seat.Status.ACTIVE, game.pk])
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    nodes = plan_nodes(plan[0]["Plan"])
    events_read = [
        node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
        for node in nodes
        if node.get("Relation Name") == "games_event"
    ]
    # The two events between seq 38 and the head, and the head.
    assert sorted(events_read) == [1, 2]
    assert sql.head_event(sql.game(game.pk)).seq == game.seq == 41


def plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", ()):
        yield from plan_nodes(child)


def test_the_query_log_holds_each_statement_with_its_parameters(game):
    """Each run of a statement (on PostgreSQL the first prepares it, the
    next run the prepared one) is in Django's log by its text."""
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            sql.head(game.pk)
        assert statements.rows("SELECT %s", ["logged"]) == [("logged",)]
    said = [query["sql"] for query in queries]
    assert len(said) == 4 and all(f"= {game.pk}" in text for text in said[:3])
    assert said[3] == "SELECT 'logged'"


def test_game_brings_the_seat_the_user_plays(game, bob, eve):
    assert sql.game(game.pk, bob.pk).player_seat == 1
    assert sql.game(game.pk, eve.pk).player_seat is None
    Seat.objects.filter(game=game, user=bob).update(status=Seat.Status.RESIGNED)
    assert sql.game(game.pk, bob.pk).player_seat is None


def test_active_seat_ignores_strangers_and_resigned_seats(game, alice, bob, eve):
    assert sql.active_seat(game.pk, bob.pk) == 1
    assert sql.active_seat(game.pk, eve.pk) is None
    Seat.objects.filter(game=game, user=bob).update(status=Seat.Status.RESIGNED)
    assert sql.active_seat(game.pk, bob.pk) is None


def test_advance_writes_only_at_the_expected_seq(game):
    when = timezone.now() + datetime.timedelta(hours=1)
    values = {"seq": game.seq + 1, "head_hash": "f" * 64, "updated_at": when, "to_act": [2]}
    assert not sql.advance(game.pk, game.seq - 1, values)
    assert Game.objects.get(pk=game.pk).seq == game.seq
    assert sql.advance(game.pk, game.seq, values)
    row = Game.objects.get(pk=game.pk)
    assert (row.seq, row.head_hash, row.updated_at, row.to_act) == (
        game.seq + 1, "f" * 64, when, [2],
    )  # fmt: skip


def test_insert_saves_a_new_row_with_its_id(game):
    event = Event(
        game=game, seq=game.seq + 1, kind="note", source="system", payload={"b": 1, "a": [2]},
        created_at=timezone.now(), prev_hash=game.head_hash, hash="e" * 64,
    )  # fmt: skip
    sql.insert(event)
    assert event.pk is not None and not event._state.adding
    stored = Event.objects.get(pk=event.pk)
    assert (stored.seq, stored.payload, stored.created_at) == (
        event.seq, {"b": 1, "a": [2]}, event.created_at,
    )  # fmt: skip
    assert list(stored.payload) == ["b", "a"]  # key order survives, as with save()


@pytest.mark.parametrize("to_act", [[], [0], [1, 2], [0, 1, 2]])
def test_flag_seats_to_act_marks_exactly_those_seats(game, to_act):
    sql.flag_seats_to_act(game.pk, [0, 1])
    sql.flag_seats_to_act(game.pk, to_act)
    assert flags(game) == {index: index in to_act for index in range(3)}


def next_event(game: Game) -> Event:
    return Event(
        game=game, seq=game.seq + 1, kind="note", source="system", payload={"z": 0, "a": None},
        created_at=timezone.now(), prev_hash=game.head_hash, hash="a" * 64,
    )  # fmt: skip


def test_append_advances_inserts_and_flags_in_one_go(game):
    event = next_event(game)
    values = {"seq": event.seq, "head_hash": event.hash, "to_act": [2]}
    assert sql.append(event, game.seq, values, [2]).rows == []
    row = Game.objects.get(pk=game.pk)
    assert (row.seq, row.head_hash, row.to_act) == (event.seq, event.hash, [2])
    stored = Event.objects.get(pk=event.pk)
    assert (stored.seq, stored.kind, stored.seat, stored.payload) == (
        event.seq, "note", None, {"z": 0, "a": None},
    )  # fmt: skip
    assert flags(game) == {0: False, 1: False, 2: True}


def test_append_without_flags_leaves_the_seats(game):
    before = flags(game)
    event = next_event(game)
    values = {"seq": event.seq, "head_hash": event.hash}
    assert sql.append(event, game.seq, values, None).rows == []
    assert flags(game) == before


def test_append_at_a_stale_seq_writes_nothing(game):
    before = flags(game)
    event = next_event(game)
    values = {"seq": event.seq, "head_hash": event.hash, "to_act": [2]}
    mail = notification(game, "stale")
    assert sql.append(event, game.seq - 1, values, [2], [Row(mail, "key")]) is None
    assert event.pk is None and mail.pk is None
    assert not Notification.objects.filter(key="stale").exists()
    assert Game.objects.get(pk=game.pk).seq == game.seq
    assert Event.objects.filter(game=game).count() == game.seq
    assert flags(game) == before


def test_append_reads_back_what_another_writer_set_since_the_game_was_read(game):
    event = next_event(game)
    values = {"seq": event.seq, "head_hash": event.hash}
    assert sql.append(event, game.seq, values, None).read_back == {"orders_written": False}
    Game.objects.filter(pk=game.pk).update(orders_written=True)
    game.seq = event.seq
    later = next_event(game)
    appended = sql.append(later, game.seq, {"seq": later.seq}, None)
    assert appended.read_back == {"orders_written": True}


@pytest.mark.postgres
def test_a_moves_read_brings_the_players_as_players_would_read_them(game, monkeypatch):
    """The players come in the game's own statement, built only when asked
    for, field for field as the ORM reads them (a log-in time and a date
    read from their JSON text)."""
    first = game.seats.order_by("index").first().user
    type(first).objects.filter(pk=first.pk).update(last_login=timezone.now(), bot="")
    row = sql.game(game.pk, first.pk, with_players=True)
    assert row.player_seat == 0 and isinstance(row.players_read, str)
    assert sql.head_event(row).seq == game.seq  # the head event is read as before
    expected = sql.players(game.pk)
    monkeypatch.setattr(sql, "players", lambda *args: pytest.fail("read the players again"))
    got = sql.players_of(row)
    assert [(p.index, p.status) for p in got] == [(p.index, p.status) for p in expected]
    names = [field.attname for field in type(first)._meta.concrete_fields]
    for mine, theirs in zip(got, expected, strict=True):
        assert [getattr(mine.user, n) for n in names] == [getattr(theirs.user, n) for n in names]
        assert not mine.user._state.adding
    assert got[0].user.last_login is not None
    assert [p.index for p in sql.players_of(row, [2, 0])] == [0, 2]
    assert sql.players_of(row, []) == []


@pytest.mark.postgres
def test_a_replaced_seat_is_left_out_of_the_players_read_with_the_game(game):
    Seat.objects.filter(game=game, index=1).update(status=Seat.Status.REPLACED)
    row = sql.game(game.pk, with_players=True)
    assert [p.index for p in sql.players_of(row)] == [p.index for p in sql.players(game.pk)]
    assert [p.index for p in sql.players_of(row)] == [0, 2]


def test_without_the_players_read_with_it_players_of_reads_them(game):
    row = sql.game(game.pk)
    assert getattr(row, "players_read", None) is None
    assert [p.index for p in sql.players_of(row, [2, 0])] == [0, 2]


def notification(game: Game, key: str) -> Notification:
    return Notification(
        key=key, kind="your_turn", user=game.created_by or game.seats.first().user, game=game,
        seq=game.seq + 1, context={"n": 1},
    )  # fmt: skip


def test_append_writes_the_new_rows_with_the_event(game):
    first, second = notification(game, "first"), notification(game, "second")
    event = next_event(game)
    rows = [Row(first, "key"), Row(second, "key")]
    written = sql.append(event, game.seq, {"seq": event.seq}, None, rows).rows
    assert written == rows
    stored = Notification.objects.filter(key__in=["first", "second"]).order_by("pk")
    assert [(n.pk, n.key, n.context) for n in stored] == [
        (first.pk, "first", {"n": 1}), (second.pk, "second", {"n": 1}),
    ]  # fmt: skip


def test_append_skips_a_row_whose_unique_value_exists(game):
    sql.insert(notification(game, "taken"))
    again, fresh = notification(game, "taken"), notification(game, "fresh")
    event = next_event(game)
    written = sql.append(
        event, game.seq, {"seq": event.seq}, None, [Row(again, "key"), Row(fresh, "key")]
    ).rows
    assert [row.instance for row in written] == [fresh]
    assert again.pk is None and event.pk is not None
    assert Notification.objects.filter(key__in=["fresh", "taken"]).count() == 2


def test_events_between_reads_events_as_the_orm_does(game):
    for _ in range(3):
        sql.append(next_event(game), game.seq, {"seq": game.seq + 1}, None)
        game.seq += 1
    read = sql.events_between(game.pk, 1, 3)
    orm = list(Event.objects.filter(game=game, seq__in=[2, 3]).order_by("seq"))
    names = [f.attname for f in Event._meta.concrete_fields]
    assert [[getattr(e, n) for n in names] for e in read] == [
        [getattr(e, n) for n in names] for e in orm
    ]


def append_events(game: Game, moves: int) -> None:
    for _ in range(moves):
        event = next_event(game)
        sql.append(event, game.seq, {"seq": event.seq, "head_hash": event.hash}, None)
        game.seq, game.head_hash = event.seq, event.hash


@pytest.mark.postgres
def test_a_read_asked_for_the_events_after_a_seq_brings_them_as_the_orm_reads_them(game):
    """A process whose state stands a few events behind catches up from the
    game's own read: every field as the ORM reads it."""
    append_events(game, 4)
    row = sql.game(game.pk, after=2)
    orm = list(Event.objects.filter(game=game, seq__gt=2).order_by("seq"))
    names = [f.attname for f in Event._meta.concrete_fields]
    with CaptureQueriesContext(connection) as queries:
        read = sql.events_after(row, 2)
    assert len(queries) == 0
    assert [[getattr(e, n) for n in names] for e in read] == [
        [getattr(e, n) for n in names] for e in orm
    ]
    assert [e.seq for e in read] == [3, 4, 5]


def test_the_events_after_another_seq_than_the_read_asked_for_are_not_claimed(game):
    append_events(game, 4)
    row = sql.game(game.pk, after=2)
    assert sql.events_after(row, 1) is None
    assert sql.events_after(row, game.seq) is None  # nothing after the head
    assert [e.seq for e in sql.events_after(row, game.seq - 1)] == [game.seq]  # the head alone
    assert sql.events_after(Game.objects.get(pk=game.pk), game.seq - 1) is None  # not read with it


@pytest.mark.postgres
def test_a_read_further_behind_than_its_limit_brings_no_partial_stream(game):
    append_events(game, sql.BETWEEN_LIMIT + 2)
    assert sql.events_after(sql.game(game.pk, after=1), 1) is None
    within = game.seq - sql.BETWEEN_LIMIT - 1
    assert len(sql.events_after(sql.game(game.pk, after=within), within)) == game.seq - within


@pytest.mark.postgres
def test_a_row_refreshed_since_its_read_claims_no_events(game):
    append_events(game, 3)
    row = sql.game(game.pk, after=1)
    append_events(game, 1)
    row.refresh_from_db()
    assert sql.events_after(row, 1) is None


def test_players_are_the_seats_with_their_users_in_order(game, alice, bob, carol):
    assert [(p.index, p.status, p.user) for p in sql.players(game.pk)] == [
        (0, "active", alice), (1, "active", bob), (2, "active", carol),
    ]  # fmt: skip
    assert [p.user.email for p in sql.players(game.pk, {2})] == [carol.email]
    assert sql.players(game.pk, []) == []
    Seat.objects.filter(game=game, index=1).update(status=Seat.Status.REPLACED)
    assert [p.index for p in sql.players(game.pk)] == [0, 2]


def test_insert_new_skips_a_duplicate_without_spoiling_the_transaction(game, alice):
    from notifications.models import Notification

    def row(kind):
        return Notification(key="k1", kind=kind, user=alice, game=game, seq=1, context={})

    first = row("your_turn")
    assert sql.insert_new(first, "key")
    assert first.pk is not None and first.created_at is not None
    duplicate = row("game_over")
    assert not sql.insert_new(duplicate, "key")
    assert duplicate.pk is None
    # The transaction goes on: the skipped row raised nothing.
    assert list(Notification.objects.filter(key="k1").values_list("kind", flat=True)) == [
        "your_turn"
    ]


def prepared_statements() -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


# Each test reads players with a count of seats no other test asks for, so
# that what earlier tests prepared on the connection cannot decide it.
@pytest.mark.postgres
def test_the_hot_statements_are_prepared_once_per_connection(game):
    sql.players(game.pk, range(6))
    sql.players(game.pk, range(6))
    mine = [s for s in prepared_statements() if "IN ($2, $3, $4, $5, $6, $7)" in s]
    assert len(mine) == 1 and mine[0].startswith('SELECT "accounts_user"')


@pytest.mark.postgres
def test_preparing_can_be_turned_off_for_poolers(game, settings):
    settings.CORREO_PREPARED_STATEMENTS = False
    assert [p.index for p in sql.players(game.pk, range(7))] == [0, 1, 2]
    assert not [s for s in prepared_statements() if "IN ($2, $3, $4, $5, $6, $7, $8)" in s]


def snapshot(game: Game, seq: int, state: dict) -> Snapshot:
    return Snapshot(game=game, seq=seq, engine_version=1, event_hash="h" * 64, state=state)


def test_save_snapshot_inserts_keeps_the_first_and_prunes_older_ones(game):
    for seq in (2, 4, 6):
        sql.save_snapshot(snapshot(game, seq, {"at": seq}), prune_upto=0)
    sql.save_snapshot(snapshot(game, 6, {"at": "again"}), prune_upto=3)
    stored = Snapshot.objects.filter(game=game).order_by("seq")
    assert [(s.seq, s.state) for s in stored] == [(4, {"at": 4}), (6, {"at": 6})]
    assert stored[0].created_at is not None


def prepared_by_the_fields(obj) -> list:
    return [
        f.get_db_prep_save(f.pre_save(obj, True), connection)
        for f in sql._insert_fields(type(obj))
    ]


def typed(values: list) -> list:
    """Each value with its type; psycopg's JSON wrappers, which do not
    compare, by what they wrap."""
    return [(type(value), getattr(value, "obj", value)) for value in values]


def test_a_new_rows_values_are_prepared_as_its_fields_prepare_them(game, alice, monkeypatch):
    """Integer, text and flag columns are prepared by type (sql._savers);
    every value must come out as the field's own get_db_prep_save gives it,
    type included (the driver's integer wrappers on PostgreSQL): enum
    members, None, strings of digits, foreign keys and JSON alike."""
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # auto_now columns agree
    event = Event(game=game, seq=7, kind=Event.Kind.ACTION, seat=2, actor=alice, source="api",
                  payload={"type": "pass", "n": [1, None]}, created_at=now, prev_hash="a" * 64,
                  hash="b" * 64, nonce="", key_id="k1", mac="c" * 64)  # fmt: skip
    bare = Event(game=game, seq=0, kind="note", seat=None, actor=None, source="moderator",
                 payload={}, created_at=now, prev_hash="", hash="", nonce="123")  # fmt: skip
    mail = Notification(key="1:2:your_turn:3", kind=Notification.Kind.YOUR_TURN, user=alice,
                        to_email="a@example.org", game=game, seq=3, seat=0, context={},
                        status="pending", webhook_status="")  # fmt: skip
    other = Notification(key="x", kind="digest", user=alice, to_email="", game=None,
                         seq=None, seat=None, context={"n": 10**20},
                         status=Notification.Status.HELD)  # fmt: skip
    snapshot = Snapshot(game=game, seq=12, engine_version=1, event_hash="d" * 64,
                        state={"k": True})  # fmt: skip
    for obj in (event, bare, mail, other, snapshot):
        assert typed(sql._new_values(obj)) == typed(prepared_by_the_fields(obj)), obj
    kinds = [kind for _, kind, _ in sql._savers(Event, connection.vendor)]
    assert int in kinds and str in kinds  # the fast way is taken for some columns
    # The game's advance: the columns an append sets, by name.
    values = {"seq": 9, "head_hash": "e" * 64, "updated_at": now, "status": Game.Status.ACTIVE,
              "to_act": [1], "result": None, "deadline": None, "spectator_seq": 4,
              "spectator_at": now, "orders_written": True}  # fmt: skip
    by_fields = [
        Game._meta.get_field(k).get_db_prep_save(v, connection) for k, v in values.items()
    ]
    assert typed(sql._prepared(Game, values)) == typed(by_fields)
