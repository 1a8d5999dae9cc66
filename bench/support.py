"""Shared by the benchmarks: Django set-up, a throwaway database, JSON lines."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_setup(database_url: str | None = "postgres://postgres@127.0.0.1:5432/test") -> None:
    """Configure Django; the benchmarks default to the local PostgreSQL."""
    sys.path.insert(0, str(ROOT))
    if database_url:
        os.environ.setdefault("DATABASE_URL", database_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # the figures, not the set-up's task logs
    import django

    django.setup()


# A bench that cannot run here exits with this status: `make bench` reports
# it as skipped, with the reason the bench printed, and goes on.
SKIPPED = 3


def skip(reason: str) -> None:
    print(f"{Path(sys.argv[0]).name}: skipped: {reason}", file=sys.stderr, flush=True)
    raise SystemExit(SKIPPED)


@contextlib.contextmanager
def throwaway_database(*, needs_postgresql: bool = False, name: str | None = None,
                       keep: bool = False):  # fmt: skip
    """A fresh, migrated database of its own (never the test suite's),
    `name`d or named by this process; `keep`: left behind, for a profile.

    The benches default to the local PostgreSQL; one that measures a server
    as deployed (gunicorn on PostgreSQL) says so, and any bench whose
    database cannot be reached says that, instead of failing somewhere later.
    """
    from django.conf import settings
    from django.db import OperationalError, connection
    from django.test.utils import setup_databases, teardown_databases

    if needs_postgresql and connection.vendor != "postgresql":
        skip(f"measures the deployed stack on PostgreSQL; DATABASE_URL is {connection.vendor}")
    try:
        connection.ensure_connection()
    except OperationalError as error:
        skip(f"cannot reach the database of DATABASE_URL ({error}); set DATABASE_URL")

    settings.DATABASES["default"]["TEST"]["NAME"] = name or f"correo_bench_{os.getpid()}"
    old_config = setup_databases(verbosity=0, interactive=False)
    try:
        yield
    finally:
        if not keep:
            connection.close()
            teardown_databases(old_config, verbosity=0)


@contextlib.contextmanager
def deployed_redis(db: int = 14):
    """The Redis the stack runs on (REDIS_URL, else the local one) on a
    database of its own, emptied before and after: the broker and cache as
    deployed, not the in-process stand-ins.  Skips when no Redis answers."""
    import redis

    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    url = base.rsplit("/", 1)[0] + f"/{db}"
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.flushdb()
    except redis.RedisError as error:
        skip(f"measures the deployed stack with Redis; none at {url} ({error}); set REDIS_URL")
    try:
        yield url
    finally:
        client.flushdb()


def emit(name: str, value: float, unit: str, **context) -> None:
    record = {"bench": name, "value": round(value, 3), "unit": unit, **context}
    print(json.dumps(record), flush=True)


def database_url() -> str:
    """The URL of the database Django uses now (the throwaway one, inside
    `throwaway_database`)."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def start_gunicorn(
    port: int,
    *,
    without: tuple[str, ...] = (),
    secret_key: str | None = None,
    push: bool = False,
    **env: str,
) -> subprocess.Popen:
    """gunicorn as deployed (deploy/gunicorn.conf.py, DEBUG off) on the
    current database, with throttles out of the way, no worker recycling and
    only warnings logged; `push` starts the push process instead of the
    web; `env` adds settings, `without` drops variables,
    `secret_key` is the server's (give the bench process's own, so that a
    session it made is one the server reads; default: a fresh random key).
    Returns once /api/ping/ answers."""
    secret_key = secret_key or "bench-" + secrets.token_hex(32)
    settings = dict(os.environ, DATABASE_URL=database_url(), DJANGO_DEBUG="0",
                    SECRET_KEY=secret_key, CHAIN_KEY=secrets.token_hex(32),
                    THROTTLE_USER="1000000/min", THROTTLE_ANON="1000000/min",
                    LOG_LEVEL="WARNING", GUNICORN_BIND=f"127.0.0.1:{port}",
                    GUNICORN_MAX_REQUESTS="0")  # fmt: skip
    settings.update(env)
    for name in without:
        settings.pop(name, None)
    # `push`: the push process as deployed (Procfile `push`), ASGI workers.
    app = ["config.asgi", "--worker-class", "uvicorn_worker.UvicornWorker"] if push else [
        "config.wsgi"]  # fmt: skip
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), *app, "-c", "deploy/gunicorn.conf.py"],
        cwd=ROOT, env=settings,
    )  # fmt: skip
    for _ in range(100):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
            conn.request("GET", "/api/ping/")
            conn.getresponse().read()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def start_worker(redis_url: str, queues: str, **env: str) -> subprocess.Popen:
    """A Celery worker as deployed (one process, the solo pool) on the
    current database and `redis_url`, consuming `queues` (comma-separated);
    `env` adds settings.  Its HandOff step drains the mail's hand-off too."""
    settings = dict(os.environ, DATABASE_URL=database_url(), REDIS_URL=redis_url,
                    LOG_LEVEL="WARNING", CELERY_TASK_ALWAYS_EAGER="0", **env)  # fmt: skip
    command = [str(ROOT / ".venv/bin/celery"), "-A", "config", "--quiet", "worker",
               "--pool", "solo", "--concurrency", "1", "--queues", queues,
               "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
               "--without-heartbeat"]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, env=settings, stdout=subprocess.DEVNULL)
