"""The few statements on the hot paths (reading a game, making a move), written once.

Building a query with the ORM costs this server about a third of a
millisecond of CPU, more than PostgreSQL takes to run it, and a move used to
spend most of its time building the same handful of statements.  They never
change shape, so they are written out here.  Table and column names come
from the models' _meta and every value is prepared as its model field would
prepare it (`_savers`), so the statements follow the models and run on SQLite and PostgreSQL alike.
What they read comes back as model instances built by ops.rows, the
small adapter that leans on Django's internals to build them as the ORM
would (docs/benchmarks.md, "Django and DRF internals": what that saves).
Everything else uses the ORM.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction

from games.fields import from_text
from games.hooks import Row
from games.models import Event, Game, Seat, Snapshot
from ops import rows as instances
from ops import statements

# The statements below name tables and columns through ops.statements, under
# short private names (this module's own `table` reads a game and its seats).
_name, _table, _column, _select = (
    statements.quote,
    statements.table,
    statements.column,
    statements.select,
)


def _db():
    """This thread's connection itself: each attribute read through the
    `connection` proxy costs a lookup, and the hot paths make dozens."""
    return connections[DEFAULT_DB_ALIAS]


def _prepared(model: type[models.Model], values: dict[str, Any]) -> list[Any]:
    db = _db()
    savers = _savers_by_name(model, db.vendor)
    return [_prepare(savers[name], value, db) for name, value in values.items()]


@cache
def _head_sql() -> str:
    return (
        f"SELECT {_column(Game, 'seq')}, {_column(Game, 'head_hash')} "
        f"FROM {_table(Game)} WHERE {_column(Game, 'id')} = %s"
    )


def head(pk: int) -> tuple[int, str] | None:
    """A game's (seq, head_hash), or None if there is no such game."""
    with statements.cursor() as cursor:
        cursor.execute(_head_sql(), [pk])
        row = cursor.fetchone()
    return tuple(row) if row else None


@cache
def _game_sql(with_players: bool = False, lateral: bool = False) -> str:
    game, seat, event = _table(Game), _table(Seat), _table(Event)
    game_id = f"{game}.{_column(Game, 'id')}"
    players = f", {_players_json_sql(game_id)}" if with_players else ""
    at_head = (
        f"{event}.{_column(Event, 'game')} = {game_id} "
        f"AND {event}.{_column(Event, 'seq')} = {game}.{_column(Game, 'seq')}"
    )
    if lateral:
        # On PostgreSQL the head event is looked up by its (game, seq) key
        # in a subquery of its own: as a plain join, a planner without
        # statistics (a new or fast-growing table) scans the game's whole
        # stream for the seq, a read that grows with every move.  LIMIT
        # keeps the planner from folding the subquery back into a join.
        head = f"{_select(Event, 'head')}, {_between_json_sql(game)}"
        head_join = (
            f"LEFT JOIN LATERAL (SELECT {_select(Event)} FROM {event} WHERE {at_head} LIMIT 1) "
            "AS head ON TRUE"
        )
    else:
        head, head_join = _select(Event), f"LEFT JOIN {event} ON {at_head}"
    return (
        f"SELECT {_select(Game)}, {seat}.{_column(Seat, 'index')}, {head}{players} "
        f"FROM {game} LEFT JOIN {seat} ON {seat}.{_column(Seat, 'game')} = {game_id} "
        f"AND {seat}.{_column(Seat, 'user')} = %s AND {seat}.{_column(Seat, 'status')} = %s "
        f"{head_join} WHERE {game_id} = %s"
    )


# At most this many events between a process's state and the head come
# with the game's read; a process further behind reads them on their own.
BETWEEN_LIMIT = 16


def _between_json_sql(game: str) -> str:
    """The events after the seq given as the statement's first parameter and
    before the head of the game row `game` (SQL), as one JSON array of
    objects keyed by column, in seq order; NULL when there are none."""
    event = _table(Event)
    seq = _column(Event, "seq")
    return (
        f"(SELECT CAST(json_agg(row_to_json(since) ORDER BY since.{seq}) AS text) "
        f"FROM (SELECT {_select(Event)} FROM {event} "
        f"WHERE {event}.{_column(Event, 'game')} = {game}.{_column(Game, 'id')} "
        f"AND {event}.{seq} > %s AND {event}.{seq} < {game}.{_column(Game, 'seq')} "
        f"ORDER BY {event}.{seq} LIMIT {BETWEEN_LIMIT}) AS since)"
    )


def game(
    pk: int, user_id: int | None = None, *, with_players: bool = False, after: int | None = None
) -> Game | None:
    """The game row as it is now, read with what a move needs.

    `player_seat`: the seat the user plays (None: no active seat).
    The event at the game's head and, on PostgreSQL, the events after seq
    `after` before it (`events_after(row, after)`): so that a process whose
    state stands at `after` (the other workers made the last moves) catches
    up without another read (`store.load`).

    `with_players`, on PostgreSQL: the players too, as one JSON text that
    `players_of(row)` reads only when asked.  Most moves hand the turn on,
    and the mail that says so names players: a second round trip otherwise.
    """
    postgresql = _db().vendor == "postgresql"
    with_players = with_players and postgresql
    params = [user_id, Seat.Status.ACTIVE, pk]
    if postgresql:
        params.insert(0, after)
    rows = statements.rows(_game_sql(with_players, postgresql), params)
    if not rows:
        return None
    width = len(Game._meta.concrete_fields)
    row = instances.from_row(Game, rows[0][:width])
    row.player_seat = rows[0][width]
    head_end = width + 1 + len(Event._meta.concrete_fields)
    row.head_event_values = rows[0][width + 1 : head_end]
    if postgresql:
        row.between_read = (after, rows[0][head_end])
    if with_players:
        row.players_read = rows[0][-1] or "[]"
    return row


def head_event(game: Game) -> Event | None:
    """The head event read with `game` by `game()`, if it was; built only on
    demand, since only a worker that is behind needs it."""
    values = getattr(game, "head_event_values", None)
    return None if values is None else instances.from_row(Event, values)


def events_after(game: Game, after: int) -> list[Event] | None:
    """The game's events after seq `after` up to its head, from what its read
    brought (`game(..., after=after)`, or the head event alone when `after`
    is the seq before it); None when the read did not bring them all."""
    head = head_event(game)
    if head is None or head.seq != game.seq or after >= game.seq:
        return None
    if after == game.seq - 1:
        return [head]
    asked, between = getattr(game, "between_read", (None, None))
    if asked != after or between is None:
        return None
    events = [instances.from_json(Event, columns) for columns in from_text(between)]
    return [*events, head] if len(events) == game.seq - after - 1 else None


@cache
def _events_sql() -> str:
    game, seq = _column(Event, "game"), _column(Event, "seq")
    return (
        f"SELECT {_select(Event)} FROM {_table(Event)} "
        f"WHERE {game} = %s AND {seq} > %s AND {seq} <= %s ORDER BY {seq}"
    )


def events_between(game_id: int, after: int, upto: int) -> list[Event]:
    """The game's events after seq `after` up to seq `upto`, in order."""
    return [
        instances.from_row(Event, row)
        for row in statements.rows(_events_sql(), [game_id, after, upto])
    ]


@cache
def _told_sql() -> str:
    user = get_user_model()
    event, users = _table(Event), _table(user)
    game, seq = f"{event}.{_column(Event, 'game')}", f"{event}.{_column(Event, 'seq')}"
    return (
        f"SELECT {_select(Event)}, {_select(user)} FROM {event} LEFT JOIN {users} "
        f"ON {users}.{_name(user._meta.pk.column)} = {event}.{_column(Event, 'actor')} "
        f"WHERE {game} = %s AND {seq} > %s AND {seq} <= %s ORDER BY {seq} LIMIT %s"
    )


def events_told(game_id: int, after: int, upto: int, limit: int) -> list[Event]:
    """At most `limit` of the game's events after seq `after` up to `upto`,
    in order, each with its actor (None for the system's)."""
    user = get_user_model()
    width = len(Event._meta.concrete_fields)
    told = []
    for row in statements.rows(_told_sql(), [game_id, after, upto, max(limit, 0)]):
        event = instances.from_row(Event, row[:width])
        actor = None if event.actor_id is None else instances.from_row(user, row[width:])
        instances.attach(event, "actor", actor)
        told.append(event)
    return told


@cache
def _table_sql() -> str:
    user = get_user_model()
    game, seat, users = _table(Game), _table(Seat), _table(user)
    return (
        f"SELECT {_select(Seat)}, {_select(Game)}, {_select(user)} FROM {seat} "
        f"JOIN {game} ON {game}.{_column(Game, 'id')} = {seat}.{_column(Seat, 'game')} "
        f"JOIN {users} ON {users}.{_name(user._meta.pk.column)} = {seat}.{_column(Seat, 'user')} "
        f"WHERE {seat}.{_column(Seat, 'game')} = %s ORDER BY {seat}.{_column(Seat, 'index')}"
    )


def table(pk: int) -> tuple[Game, list[Seat]] | None:
    """A game and all its seats (replaced ones too) with their users, in
    seat order, read in one statement so that they agree; None if the game
    has no seats.  Every seat's `game` is the one Game instance."""
    rows = statements.rows(_table_sql(), [pk])
    if not rows:
        return None
    user = get_user_model()
    seat_width, game_width = len(Seat._meta.concrete_fields), len(Game._meta.concrete_fields)
    game = instances.from_row(Game, rows[0][seat_width : seat_width + game_width])
    seats = []
    for row in rows:
        seat = instances.from_row(Seat, row[:seat_width])
        instances.attach(seat, "game", game)
        instances.attach(seat, "user", instances.from_row(user, row[seat_width + game_width :]))
        seats.append(seat)
    return game, seats


@cache
def _seat_sql() -> str:
    return (
        f"SELECT {_column(Seat, 'index')} FROM {_table(Seat)} WHERE {_column(Seat, 'game')} = %s "
        f"AND {_column(Seat, 'user')} = %s AND {_column(Seat, 'status')} = %s"
    )


def active_seat(game_id: int, user_id: int) -> int | None:
    """The seat the user plays in the game, if an active one."""
    with statements.cursor() as cursor:
        cursor.execute(_seat_sql(), [game_id, user_id, Seat.Status.ACTIVE])
        row = cursor.fetchone()
    return row[0] if row else None


@dataclass(frozen=True)
class Player:
    """Who plays a seat: the seat's index and status, and the user."""

    index: int
    status: str
    user: Any


@cache
def _players_sql(count: int | None) -> str:
    user = get_user_model()
    users, seats = _table(user), _table(Seat)
    chosen = ""
    if count is not None:
        marks = ", ".join(["%s"] * count) if count else "NULL"
        chosen = f"AND {seats}.{_column(Seat, 'index')} IN ({marks}) "
    return (
        f"SELECT {_select(user)}, {seats}.{_column(Seat, 'index')}, "
        f"{seats}.{_column(Seat, 'status')} FROM {users} JOIN {seats} "
        f"ON {seats}.{_column(Seat, 'user')} = {users}.{_name(user._meta.pk.column)} "
        f"WHERE {seats}.{_column(Seat, 'game')} = %s {chosen}"
        f"AND {seats}.{_column(Seat, 'status')} <> %s ORDER BY {seats}.{_column(Seat, 'index')}"
    )


def players(game_id: int, indexes=None) -> list[Player]:
    """The game's seats but replaced ones (or just `indexes`) with their users."""
    chosen = None if indexes is None else sorted(indexes)
    sql = _players_sql(None if chosen is None else len(chosen))
    rows = statements.rows(sql, [game_id, *(chosen or []), Seat.Status.REPLACED])
    user = get_user_model()
    return [Player(row[-2], row[-1], instances.from_row(user, row[:-2])) for row in rows]


def _players_json_sql(game_id: str) -> str:
    """`players`' rows for the game `game_id` (SQL) as one JSON array of
    [user row as an object, seat index, seat status], in seat order."""
    user = get_user_model()
    # Aliases of their own: the statement around this joins the seats too.
    index = f"seated.{_column(Seat, 'index')}"
    return (
        f"(SELECT CAST(json_agg(json_build_array(row_to_json(player), {index}, "
        f"seated.{_column(Seat, 'status')}) ORDER BY {index}) AS text) "
        f"FROM {_table(Seat)} AS seated JOIN {_table(user)} AS player "
        f"ON seated.{_column(Seat, 'user')} = player.{_name(user._meta.pk.column)} "
        f"WHERE seated.{_column(Seat, 'game')} = {game_id} "
        f"AND seated.{_column(Seat, 'status')} <> '{Seat.Status.REPLACED}')"
    )


def players_of(game: Game, indexes=None) -> list[Player]:
    """`players(game.pk, indexes)`, from what the game's read brought where
    it did (`game(..., with_players=True)`), else read now."""
    read = getattr(game, "players_read", None)
    if read is None:
        return players(game.pk, indexes)
    chosen = None if indexes is None else set(indexes)
    return [
        Player(index, status, instances.from_json(get_user_model(), columns))
        for columns, index, status in from_text(read)
        if chosen is None or index in chosen
    ]


@cache
def _advance_sql(fields: tuple[str, ...]) -> str:
    assignments = ", ".join(f"{_column(Game, field)} = %s" for field in fields)
    return (
        f"UPDATE {_table(Game)} SET {assignments} "
        f"WHERE {_column(Game, 'id')} = %s AND {_column(Game, 'seq')} = %s"
    )


def _advance_params(pk: int, expected_seq: int, values: dict[str, Any]) -> list[Any]:
    return [*_prepared(Game, values), pk, expected_seq]


def advance(pk: int, expected_seq: int, values: dict[str, Any]) -> bool:
    """Set `values` on the game only while its seq is still `expected_seq`."""
    with statements.cursor() as cursor:
        cursor.execute(_advance_sql(tuple(values)), _advance_params(pk, expected_seq, values))
        return cursor.rowcount == 1


# Game columns that appends never write and other writers set under the
# row's lock: the append reads them back as it leaves the row, so what
# follows the commit sees them as of its own event, not as of the read
# before it (games.services.orders: a standing order written during a move
# fires after it).
READ_BACK = ("orders_written",)


@dataclass
class Appended:
    rows: list[Row]  # the new rows written (one whose unique value exists is skipped)
    read_back: dict[str, Any]  # READ_BACK's columns as the append left the game


def append(
    event: Event,
    expected_seq: int,
    values: dict[str, Any],
    to_act: list | None,
    rows: list[Row] = (),
) -> Appended | None:
    """Advance the game to `event` (as `advance`), insert the event, flag the
    seats in `to_act` (if given) and insert the new `rows`: all or nothing.

    None if the game's seq had moved on.  On PostgreSQL this is one
    statement, atomic without a transaction; elsewhere it is several, in a
    transaction.
    """
    if _db().vendor != "postgresql":
        with transaction.atomic():
            if not advance(event.game_id, expected_seq, values):
                return None
            insert(event)
            if to_act is not None:
                flag_seats_to_act(event.game_id, to_act)
            written = [row for row in rows if insert_new(row.instance, row.unique)]
            return Appended(written, _read_back(event.game_id))
    shape = tuple((type(row.instance), row.unique) for row in rows)
    flagged = None if to_act is None else len(to_act)
    params = _advance_params(event.game_id, expected_seq, values)
    if to_act is not None:
        params += _flag_params(to_act, [])
    for row in rows:
        params += _new_values(row.instance)
    params += _new_values(event)
    with statements.cursor() as cursor:
        cursor.execute(_append_sql(tuple(values), flagged, shape), params)
        event_id, *row_ids = cursor.fetchone()
    if event_id is None:
        return None
    instances.mark_saved(event, event_id)
    row_ids, read = row_ids[: len(rows)], row_ids[len(rows) :]
    written = []
    for row, pk in zip(rows, row_ids, strict=True):
        if pk is not None:
            instances.mark_saved(row.instance, pk)
            written.append(row)
    return Appended(written, instances.column_values(Game, READ_BACK, read))


@cache
def _read_back_sql() -> str:
    columns = ", ".join(_column(Game, name) for name in READ_BACK)
    return f"SELECT {columns} FROM {_table(Game)} WHERE {_column(Game, 'id')} = %s"


def _read_back(game_id: int) -> dict[str, Any]:
    return instances.column_values(
        Game, READ_BACK, statements.rows(_read_back_sql(), [game_id])[0]
    )


@cache
def _insert_after_move_sql(model: type[models.Model], unique: tuple[str, ...] = ()) -> str:
    """INSERT of one new row, made only if the `moved` step advanced the game."""
    return (
        f"INSERT INTO {_table(model)} ({_insert_columns(model)}) "
        f"SELECT {_cast_marks(model)} FROM moved{_skipping(model, unique)} "
        f"RETURNING {_name(model._meta.pk.column)} AS id"
    )


@cache
def _insert_sql(model: type[models.Model], unique: tuple[str, ...] = ()) -> str:
    """INSERT of one new row; given `unique` fields, skipped where a row
    with the same values exists."""
    marks = ", ".join(["%s"] * len(_insert_fields(model)))
    returning = ""
    if connection.features.can_return_columns_from_insert:
        returning = f" RETURNING {_name(model._meta.pk.column)}"
    return (
        f"INSERT INTO {_table(model)} ({_insert_columns(model)}) VALUES ({marks})"
        f"{_skipping(model, unique)}{returning}"
    )


def _skipping(model: type[models.Model], unique: tuple[str, ...]) -> str:
    if not unique:
        return ""
    return f" ON CONFLICT ({', '.join(_column(model, field) for field in unique)}) DO NOTHING"


@cache
def _insert_fields(model: type[models.Model]) -> list[models.Field]:
    return [field for field in model._meta.concrete_fields if not field.primary_key]


@cache
def _insert_columns(model: type[models.Model]) -> str:
    return ", ".join(_name(field.column) for field in _insert_fields(model))


@cache
def _cast_marks(model: type[models.Model]) -> str:
    """Placeholders for a new row, cast to the columns' types (for INSERT ... SELECT)."""
    return ", ".join(f"CAST(%s AS {field.db_type(connection)})" for field in _insert_fields(model))


def _new_values(obj: models.Model) -> list[Any]:
    """A new row's values, as the model's fields prepare them for saving."""
    db = _db()
    values = []
    for saver in _savers(type(obj), db.vendor):
        field = saver.field
        # A plain field's pre_save only reads the attribute; others (auto_now) set it.
        value = getattr(obj, field.attname) if saver.kind else field.pre_save(obj, True)
        values.append(_prepare(saver, value, db))
    return values


def _prepare(saver: _Saver, value: Any, db) -> Any:
    """`value` as `field.get_db_prep_save` gives it, by its type where that is enough."""
    if saver.kind is None or type(value) is not saver.kind:
        return saver.field.get_db_prep_save(value, db)
    return value if saver.wrap is None else saver.wrap(value)


# The field classes whose get_db_prep_save gives back a value of one exact
# type unchanged (an integer column wraps it in the driver's integer type of
# the column, on PostgreSQL): an append prepares some forty values, and the
# field's own path for each took more of a move's time than its statement's
# parameters needed.  Subclasses are not here: they may prepare otherwise
# (JSONTextField is a TextField).
_PLAIN: dict[type[models.Field], type] = {
    models.IntegerField: int, models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int, models.SmallIntegerField: int,
    models.BigIntegerField: int, models.PositiveBigIntegerField: int,
    models.AutoField: int, models.BigAutoField: int, models.SmallAutoField: int,
    models.CharField: str, models.TextField: str, models.BooleanField: bool,
}  # fmt: skip


class _Saver(NamedTuple):
    """How a value of one field goes into a statement: as it is when its
    type is `kind` (None: always through the field), in `wrap` if an
    integer column's driver type asks for one.  A foreign key saves as its
    target's column."""

    field: models.Field
    kind: type | None
    wrap: Any


@cache
def _savers_by_name(model: type[models.Model], vendor: str) -> dict[str, _Saver]:
    """Every concrete field's saver, by field name; `vendor` keys the cache,
    since the integer wrappers are the backend's."""
    wrappers = getattr(_db().ops, "integerfield_type_map", {})
    savers = {}
    for field in model._meta.concrete_fields:
        target = field.target_field if field.is_relation else field
        kind = _PLAIN.get(type(target))
        if field.is_relation and not isinstance(field, models.ForeignKey):
            kind = None
        if type(field).pre_save is not models.Field.pre_save:
            kind = None  # it sets the value itself (auto_now and the like)
        wrap = wrappers.get(target.get_internal_type()) if kind is int else None
        savers[field.name] = _Saver(field, kind, wrap)
    return savers


@cache
def _savers(model: type[models.Model], vendor: str) -> list[_Saver]:
    """The savers of `model`'s insert fields, in their order."""
    by_name = _savers_by_name(model, vendor)
    return [by_name[field.name] for field in _insert_fields(model)]


def insert(obj: models.Model) -> None:
    """Insert a new row for `obj` (what obj.save() does, without the query builder)."""
    model, db = type(obj), _db()
    with statements.cursor() as cursor:
        cursor.execute(_insert_sql(model), _new_values(obj))
        if db.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = db.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)
    instances.mark_saved(obj, pk)


def insert_new(obj: models.Model, unique: str) -> bool:
    """Insert `obj` unless a row with its `unique` value exists; True if it was
    inserted.  The database skips the duplicate, so no savepoint is needed."""
    with statements.cursor() as cursor:
        cursor.execute(_insert_sql(type(obj), (unique,)), _new_values(obj))
        row = cursor.fetchone()
    if row is None:
        return False
    instances.mark_saved(obj, row[0])
    return True


@cache
def _append_sql(fields: tuple[str, ...], flagged: int | None, rows: tuple) -> str:
    """`append`'s statement for these game fields, this many seats to flag
    (None: no flags) and these (model, unique field) rows."""
    read_back = ", ".join(_column(Game, name) for name in READ_BACK)
    parts = [f"moved AS ({_advance_sql(fields)} RETURNING {_column(Game, 'id')}, {read_back})"]
    if flagged is not None:
        game_id = f"(SELECT {_column(Game, 'id')} FROM moved)"
        parts.append(f"flagged AS ({_flags_statement(flagged, game_id)})")
    for i, (model, unique) in enumerate(rows):
        parts.append(f"row{i} AS ({_insert_after_move_sql(model, (unique,))})")
    parts.append(f"appended AS ({_insert_after_move_sql(Event)})")
    names = ["appended"] + [f"row{i}" for i in range(len(rows))]
    ids = ", ".join(f"(SELECT id FROM {name})" for name in names)
    kept = ", ".join(f"(SELECT {_column(Game, name)} FROM moved)" for name in READ_BACK)
    return f"WITH {', '.join(parts)} SELECT {ids}, {kept}"


@cache
def _prune_snapshots_sql() -> str:
    game, seq = _column(Snapshot, "game"), _column(Snapshot, "seq")
    return f"DELETE FROM {_table(Snapshot)} WHERE {game} = %s AND {seq} <= %s"


def save_snapshot(snapshot: Snapshot, prune_upto: int) -> None:
    """Insert `snapshot` (unless its game already has one at its seq) and drop
    the game's snapshots up to seq `prune_upto`: one statement on PostgreSQL."""
    prune, insert = _prune_snapshots_sql(), _insert_sql(Snapshot, ("game", "seq"))
    params = [snapshot.game_id, prune_upto, *_new_values(snapshot)]
    with statements.cursor() as cursor:
        if _db().vendor == "postgresql":
            cursor.execute(f"WITH pruned AS ({prune}) {insert}", params)
        else:
            cursor.execute(prune, params[:2])
            cursor.execute(insert, params[2:])


@cache
def _flags_statement(count: int, game_id: str) -> str:
    """UPDATE setting the flags of the game `game_id` (SQL) with `count` seats
    to act; its values come from `_flag_params`."""
    index, flag = _column(Seat, "index"), _column(Seat, "to_act")
    acting = f"{index} IN ({', '.join(['%s'] * count)})" if count else "1 = 0"
    value = f"CASE WHEN {acting} THEN %s ELSE %s END"
    return (
        f"UPDATE {_table(Seat)} SET {flag} = {value} "
        f"WHERE {_column(Seat, 'game')} = {game_id} AND {flag} <> {value}"
    )


def _flag_params(to_act: list[int], game_params: list[Any]) -> list[Any]:
    value_params = [*to_act, True, False]
    return [*value_params, *game_params, *value_params]


def flag_seats_to_act(game_id: int, to_act: list[int]) -> None:
    """Seat.to_act is true exactly for the seats in `to_act` (rows already right stay)."""
    with statements.cursor() as cursor:
        cursor.execute(_flags_statement(len(to_act), "%s"), _flag_params(to_act, [game_id]))
