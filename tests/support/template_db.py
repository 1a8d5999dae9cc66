"""One migrated test database for the whole run, copied for each worker.

Every pytest-xdist worker used to build its own test database by running
every migration, all of them at once on a two-core machine: ten seconds or
more of each worker's first test.  On PostgreSQL a database can be created
as a copy of another (CREATE DATABASE ... TEMPLATE), which takes a fraction
of a second.  So the first worker to arrive migrates a template, the others
wait for it under a file lock, and each copies it into its own database.

The template's name carries a digest of every migration file and of the
Django version, so a changed migration builds a new template (and drops
the stale ones) rather than reusing a schema that no longer matches.  It is
built under another name and renamed only when complete, so a run killed
half-way never leaves a half-migrated template behind to be copied.
"""

from __future__ import annotations

import fcntl
import hashlib
import tempfile
from contextlib import contextmanager
from pathlib import Path

import django
from django.core.management import call_command
from django.db import connections

ROOT = Path(__file__).resolve().parents[2]


def migrations_digest() -> str:
    """A short digest of the schema every migration builds."""
    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@contextmanager
def _locked(name: str):
    """Held by one process of this machine at a time, per template."""
    path = Path(tempfile.gettempdir()) / f"correo-{name}.lock"
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _databases(cursor, pattern: str) -> set[str]:
    cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [pattern])
    return {name for (name,) in cursor.fetchall()}


def _migrate_into(connection, name: str) -> None:
    """Run every migration into database `name`, as Django's test runner
    does for a test database (run_syncdb for apps without migrations)."""
    saved = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        call_command("migrate", verbosity=0, interactive=False, run_syncdb=True)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = saved


def copy_for_worker(alias: str = "default") -> str:
    """Give this process its test database as a copy of the run's template,
    building the template first if no process has; returns the copy's name.
    The copy replaces any database of that name a killed run left behind."""
    connection = connections[alias]
    q = connection.ops.quote_name
    worker_db = connection.creation._get_test_db_name()
    named = connection.settings_dict["TEST"].get("NAME")
    base = (named or f"test_{connection.settings_dict['NAME']}").rsplit("_gw", 1)[0]
    template = f"{base}_tpl_{migrations_digest()}"
    with _locked(template), connection._nodb_cursor() as cursor:
        if template not in _databases(cursor, template):
            building = f"{template}_building"
            for stale in _databases(cursor, f"{base}\\_tpl\\_%"):
                cursor.execute(f"DROP DATABASE IF EXISTS {q(stale)} WITH (FORCE)")
            cursor.execute(f"CREATE DATABASE {q(building)}")
            _migrate_into(connection, building)
            cursor.execute(f"ALTER DATABASE {q(building)} RENAME TO {q(template)}")
        cursor.execute(f"DROP DATABASE IF EXISTS {q(worker_db)} WITH (FORCE)")
        cursor.execute(f"CREATE DATABASE {q(worker_db)} TEMPLATE {q(template)}")
    return worker_db


def drop(name: str, alias: str = "default") -> None:
    """Drop a worker's copy at the end of its run."""
    connections.close_all()
    connection = connections[alias]
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)} WITH (FORCE)")
