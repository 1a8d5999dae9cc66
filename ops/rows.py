"""Model instances for the rows the hot paths read and write with their own
statements (games.stream.sql, accounts.tokens; ops.statements runs them):
the one place that leans on Django's internals to do it.

Those prepared statements spare a move the ORM's query building and the
database's planning: with ORM querysets in their place a move took about
twice the CPU (docs/benchmarks.md, "Django and DRF internals").  They can
serve a model instance only by building it as the ORM would.  That needs two things Django does not
document as public: each field's converters from database values (what
the ORM applies when it reads a column; they differ by backend, e.g. JSON
and dates on SQLite) and the instance's ModelState after an insert.  Both
are kept here, small, and tests/games/test_instances.py fails when a Django
upgrade changes what they rely on.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models


@cache
def _converters(model: type[models.Model]) -> list[tuple[Any, list]]:
    """Per concrete field, in order: its column expression and the functions
    `convert(value, expression, connection)` that the ORM applies to it."""
    table = model._meta.db_table
    readers = []
    for field in model._meta.concrete_fields:
        column = field.get_col(table)
        converters = connection.ops.get_db_converters(column)
        readers.append((column, converters + column.get_db_converters(connection)))
    return readers


def from_row(model: type[models.Model], values) -> models.Model:
    """The instance the ORM would read from `values`, the row's columns in
    the order of `model._meta.concrete_fields`."""
    db = connections[DEFAULT_DB_ALIAS]
    values = list(values)
    for i, (column, converters) in enumerate(_converters(model)):
        for convert in converters:
            values[i] = convert(values[i], column, db)
    names = [field.attname for field in model._meta.concrete_fields]
    return model.from_db(db.alias, names, values)


def from_json(model: type[models.Model], columns: dict[str, Any]) -> models.Model:
    """The instance the ORM would read from a row PostgreSQL gave as a JSON
    object (`row_to_json`), keyed by column: each value through its field's
    `to_python`, which reads a date or a time from its ISO text and leaves
    a string, a number or a boolean as it is."""
    db = connections[DEFAULT_DB_ALIAS]
    fields = model._meta.concrete_fields
    values = [field.to_python(columns[field.column]) for field in fields]
    return model.from_db(db.alias, [field.attname for field in fields], values)


@cache
def _by_name(model: type[models.Model]) -> dict[str, tuple[str, Any, list]]:
    """`_converters` by field name: (attname, column, converters)."""
    fields = model._meta.concrete_fields
    return {
        field.name: (field.attname, column, converters)
        for field, (column, converters) in zip(fields, _converters(model), strict=True)
    }


def column_values(model: type[models.Model], names, values) -> dict[str, Any]:
    """Some of a row's columns, by field name (`names`, read in that order),
    as the ORM would read them: {attname: value}."""
    db = connections[DEFAULT_DB_ALIAS]
    by_name = _by_name(model)
    read = {}
    for name, value in zip(names, values, strict=True):
        attname, column, converters = by_name[name]
        for convert in converters:
            value = convert(value, column, db)
        read[attname] = value
    return read


def attach(obj: models.Model, field: str, related: models.Model) -> None:
    """Cache `related` as `obj.<field>` (a foreign key), as select_related
    does: read without a query, and without the checks an assignment makes."""
    obj._meta.get_field(field).set_cached_value(obj, related)


def mark_saved(obj: models.Model, pk: Any) -> None:
    """`obj` as `obj.save()` leaves a new row: its primary key set and its
    state no longer "adding" (so a later save updates, and unique checks
    do not count the row against itself)."""
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS
