"""Correo behind PgBouncer in transaction pooling (docs/scaling.md).

A real PgBouncer (Debian's) in front of the test's PostgreSQL, with a pool of
two server connections so that clients take turns on them: what an operator
must turn off there (server-side cursors; prepared statements without
PgBouncer's max_prepared_statements) is shown to break with the setting on
and to work with it off, through Correo's own code paths.  What Correo never
does that a pooler would break is checked in the sources.  The release gate
leaves nothing in the session (tests/games/test_release_gate.py), and
`make cluster-test` runs the whole stack through PgBouncer under failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

# slow: starts PgBouncer.
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def pgbouncer():
    """PgBouncer in transaction mode, two server connections per pool, in front
    of the PostgreSQL of DATABASE_URL: `with pgbouncer() as url` starts a
    fresh one (nothing left on its server connections by an earlier client)
    and gives its URL without a database."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("needs PostgreSQL")  # the postgres mark fails instead when CI=true
    program = shutil.which("pgbouncer")
    if program is None:
        message = "needs PgBouncer (apt-get install pgbouncer; .ci/run installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    db = settings.DATABASES["default"]
    user = db["USER"] or "postgres"

    @contextlib.contextmanager
    def start():
        port = free_port()
        folder = Path(tempfile.mkdtemp(prefix="correo-pgbouncer-"))
        (folder / "users.txt").write_text(f'"{user}" ""\n')
        (folder / "pgbouncer.ini").write_text(
            f"[databases]\n* = host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432}\n"
            f"[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {folder / 'users.txt'}\npool_mode = transaction\n"
            "default_pool_size = 2\n"
        )
        # PgBouncer refuses to run as root; it reads its files first, then switches.
        command = [program, *(["-u", "nobody"] if os.geteuid() == 0 else []), "pgbouncer.ini"]
        process = subprocess.Popen(
            command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    if process.poll() is not None:
                        pytest.fail(f"pgbouncer exited: {process.stderr.read().decode()[-500:]}")
                    time.sleep(0.05)
            yield f"postgres://{user}@127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=10)
            shutil.rmtree(folder)

    return start


def run_django(code: str, pooler: str, **env: str) -> dict:
    """`code` in a process of its own with Correo's settings on the test
    database through `pooler`; it prints one JSON object, which is returned."""
    url = f"{pooler}/{connection.settings_dict['NAME']}"
    environment = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=url)
    environment.pop("TEST_DATABASE_NAME", None)
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# QuerySet.iterator() (the sweep's reminders, the bots' sweep, verify_games)
# reads through a server-side cursor unless told not to; between its first
# FETCH and the next, another client's transaction takes the server
# connection the cursor lives on (PgBouncer hands out the one used last).
ITERATE = """
import json, os, psycopg
from django.contrib.contenttypes.models import ContentType
from django.db import connection
other = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
other.execute("BEGIN"); connection.cursor().execute("SELECT 1"); other.execute("COMMIT")
expected = ContentType.objects.count()
rows, error = [], None
try:
    them = ContentType.objects.order_by("pk").iterator(chunk_size=2)
    rows.append(next(them))
    other.execute("BEGIN"); other.execute("SELECT 1")
    rows += list(them)
except Exception as exc:
    error = repr(exc)
print(json.dumps({"all_rows": len(rows) == expected > 2, "error": error}))
"""


@pytest.mark.django_db
def test_server_side_cursors_must_be_off_behind_transaction_pooling(pgbouncer):
    with pgbouncer() as pooler:
        broken = run_django(ITERATE, pooler, DB_SERVER_SIDE_CURSORS="1")
    assert broken["error"] and "does not exist" in broken["error"], broken
    with pgbouncer() as pooler:
        working = run_django(ITERATE, pooler, DB_SERVER_SIDE_CURSORS="0")
    assert working == {"all_rows": True, "error": None}


# The hot statements of a move go through games.stream.sql, which prepares them on
# the connection; another process of Correo (with the same settings) names
# its own the same way (_pg3_0, _pg3_1, ...), on whichever server connection
# it is handed.
PREPARE = """
import json, os, psycopg
from django.conf import settings
from ops import statements
other = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
prepare = settings.CORREO_PREPARED_STATEMENTS
errors = []
def ours(n):
    with statements.cursor() as cursor:
        cursor.execute(f"SELECT {n}")
        return cursor.fetchone()[0]
for step in range(3):
    for run in (lambda: ours(step), lambda: other.execute(f"SELECT {step}", prepare=prepare)):
        try:
            run()
        except Exception as exc:
            errors.append(repr(exc))
print(json.dumps({"errors": errors}))
"""


@pytest.mark.django_db
def test_prepared_statements_must_be_off_behind_pgbouncer_without_max_prepared_statements(
    pgbouncer,
):
    with pgbouncer() as pooler:
        broken = run_django(PREPARE, pooler, DB_PREPARED_STATEMENTS="1")
    assert any("prepared statement" in error for error in broken["errors"]), broken
    with pgbouncer() as pooler:
        assert run_django(PREPARE, pooler, DB_PREPARED_STATEMENTS="0") == {"errors": []}


# What a pooler in transaction mode cannot carry from one transaction to the
# next: a session's advisory locks, settings, listeners, held cursors and
# statements prepared by name.  Correo's code (migrations included: they ran
# through PgBouncer in the cluster test) uses none of them; the release gate's
# read-only mode is a transaction's.
SESSION_STATE = re.compile(
    r"pg_(try_)?advisory_(un)?lock(_shared)?\(|set_config\([^)]*false"  # session-level calls
    r"|[\"'](SET SESSION|SET (?!LOCAL|TRANSACTION|CONSTRAINTS)\w+"  # a statement's start
    r"|LISTEN|UNLISTEN|PREPARE|DECLARE)\b"
    r"|WITH HOLD"
)


def test_nothing_in_correo_keeps_state_in_the_database_session():
    found = []
    for folder in ("accounts", "config", "games", "notifications", "web"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if SESSION_STATE.search(line) and not line.lstrip().startswith("#"):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
