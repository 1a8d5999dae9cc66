"""The few statements on the hot paths (reading a game, making a move), written once.

Building a query with the ORM costs this server about a third of a
millisecond of CPU, more than PostgreSQL takes to run it, and a move used to
spend most of its time building the same handful of statements.  They never
change shape, so they are written out here.  Table and column names come
from the models' _meta and every value is prepared by its model field, so the
statements follow the models and run on SQLite and PostgreSQL alike.
Everything else uses the ORM.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection, models

from games.models import Game, Seat


def _name(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model: type[models.Model]) -> str:
    return _name(model._meta.db_table)


def _column(model: type[models.Model], field: str) -> str:
    return _name(model._meta.get_field(field).column)


def _prepared(model: type[models.Model], field: str, value: Any) -> Any:
    return model._meta.get_field(field).get_db_prep_save(value, connection)


@cache
def _head_sql() -> str:
    return (
        f"SELECT {_column(Game, 'seq')}, {_column(Game, 'head_hash')} "
        f"FROM {_table(Game)} WHERE {_column(Game, 'id')} = %s"
    )


def head(pk: int) -> tuple[int, str] | None:
    """A game's (seq, head_hash), or None if there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_head_sql(), [pk])
        row = cursor.fetchone()
    return tuple(row) if row else None


@cache
def _game_sql() -> str:
    return f"SELECT * FROM {_table(Game)} WHERE {_column(Game, 'id')} = %s"


def game(pk: int) -> Game | None:
    """The game row as it is now."""
    return next(iter(Game.objects.raw(_game_sql(), [pk])), None)


@cache
def _seat_sql() -> str:
    return (
        f"SELECT {_column(Seat, 'index')} FROM {_table(Seat)} WHERE {_column(Seat, 'game')} = %s "
        f"AND {_column(Seat, 'user')} = %s AND {_column(Seat, 'status')} = %s"
    )


def active_seat(game_id: int, user_id: int) -> int | None:
    """The seat the user plays in the game, if an active one."""
    with connection.cursor() as cursor:
        cursor.execute(_seat_sql(), [game_id, user_id, Seat.Status.ACTIVE])
        row = cursor.fetchone()
    return row[0] if row else None


@cache
def _advance_sql(fields: tuple[str, ...]) -> str:
    assignments = ", ".join(f"{_column(Game, field)} = %s" for field in fields)
    return (
        f"UPDATE {_table(Game)} SET {assignments} "
        f"WHERE {_column(Game, 'id')} = %s AND {_column(Game, 'seq')} = %s"
    )


def advance(pk: int, expected_seq: int, values: dict[str, Any]) -> bool:
    """Set `values` on the game only while its seq is still `expected_seq`."""
    fields = tuple(values)
    params = [_prepared(Game, field, values[field]) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_advance_sql(fields), [*params, pk, expected_seq])
        return cursor.rowcount == 1


@cache
def _insert_sql(model: type[models.Model]) -> str:
    fields = _insert_fields(model)
    columns = ", ".join(_name(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    returning = ""
    if connection.features.can_return_columns_from_insert:
        returning = f" RETURNING {_name(model._meta.pk.column)}"
    return f"INSERT INTO {_table(model)} ({columns}) VALUES ({marks}){returning}"


def _insert_fields(model: type[models.Model]) -> list[models.Field]:
    return [field for field in model._meta.concrete_fields if not field.primary_key]


def insert(obj: models.Model) -> None:
    """Insert a new row for `obj` (what obj.save() does, without the query builder)."""
    model = type(obj)
    params = [
        field.get_db_prep_save(field.pre_save(obj, True), connection)
        for field in _insert_fields(model)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model), params)
        if connection.features.can_return_columns_from_insert:
            obj.pk = cursor.fetchone()[0]
        else:
            obj.pk = connection.ops.last_insert_id(cursor, model._meta.db_table, "id")
    obj._state.adding = False
    obj._state.db = connection.alias


def flag_seats_to_act(game_id: int, to_act: list[int]) -> None:
    """Seat.to_act is true exactly for the seats in `to_act` (rows already right stay)."""
    index, flag = _column(Seat, "index"), _column(Seat, "to_act")
    acting = f"{index} IN ({', '.join(['%s'] * len(to_act))})" if to_act else "1 = 0"
    value = f"CASE WHEN {acting} THEN %s ELSE %s END"
    sql = (
        f"UPDATE {_table(Seat)} SET {flag} = {value} "
        f"WHERE {_column(Seat, 'game')} = %s AND {flag} <> {value}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*to_act, True, False, game_id, *to_act, True, False])
