"""Shared fixtures: the test engine, named people, a game factory
(make_game), and the PostgreSQL guard.

alice, bob and carol play; charlie holds no seat; eve is a stranger; mo is a
moderator.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

from games.engines import base
from tests.support.duel import DUEL

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# Turn mails go at once in the processes a test starts (a worker, a web
# server) as in this one (the `mail_unpaced` fixture): only the tests of
# notifications.pacing pace them, each setting its own times.
os.environ.setdefault("CORREO_PRESENCE_SECONDS", "0")
os.environ.setdefault("CORREO_COALESCE_SECONDS", "0")

# The property tests' profiles, registered here and nowhere else.  Each test
# keeps its own number of examples (@settings(max_examples=...)), chosen for
# what it searches; all of them are marked slow, so `make check` draws none.
#   ci:  the same examples on every run, so a red build is about the change
#        being tested and reproduces; no database of examples, and a failure
#        prints the blob that replays it (@reproduce_failure).
#   dev: new examples on every run, to keep finding new cases; failures are
#        remembered in .hypothesis/ (not in git) and tried first next time.
# Neither has a deadline: the machines are shared, and a deadline would time
# the neighbours, not the code.  HYPOTHESIS_PROFILE (or --hypothesis-profile)
# picks one; otherwise CI=true picks ci, and anything else dev.
hypothesis_settings.register_profile(
    "ci", derandomize=True, database=None, print_blob=True, deadline=None
)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if IN_CI else "dev")
)


def using_postgresql() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") and not using_postgresql():
        message = "needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/test"
        if IN_CI:
            pytest.fail(f"CI=true but the database is not PostgreSQL; {message}")
        pytest.skip(message)
    if item.get_closest_marker("redis") and not settings.REDIS_URL:
        message = "needs Redis: set REDIS_URL=redis://127.0.0.1:6379/0"
        if IN_CI:
            pytest.fail(f"CI=true but REDIS_URL is not set; {message}")
        pytest.skip(message)


def _copies_a_template(config) -> bool:
    """On PostgreSQL each worker copies one migrated template
    (tests/support/template_db.py) unless asked to keep, recreate or not
    migrate its database, which pytest-django's own way then does."""
    options = ("reuse_db", "create_db", "nomigrations")
    return using_postgresql() and not any(config.getvalue(option) for option in options)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    request, django_db_modify_db_settings_parallel_suffix, django_db_blocker
):
    if not _copies_a_template(request.config):
        yield
        return
    from tests.support import template_db

    with django_db_blocker.unblock():
        copy = template_db.copy_for_worker()
    yield
    with django_db_blocker.unblock():
        template_db.drop(copy)


@pytest.fixture(scope="session")
def django_db_keepdb(request, django_db_modify_db_settings) -> bool:
    """The copy is the test database: Django must neither recreate nor drop
    it (its drop comes after the run, above)."""
    return _copies_a_template(request.config) or bool(request.config.getvalue("reuse_db"))


@pytest.fixture(autouse=True, scope="session")
def flush_deletes_the_rows_a_test_left(request):
    """A transactional test is emptied after it by Django's flush: one
    TRUNCATE of every table, then post_migrate writing the content types
    and permissions back row by row.  PostgreSQL makes each truncated table
    and index a new file, so that cost a tenth of a second and more per
    test, nearly all of it for tables the test never wrote.  Here one query
    finds the tables that hold rows, and those rows are deleted in one
    transaction (Django's foreign keys are deferrable, so in any order).
    The content types and permissions are left as they are, and so the
    post_migrate signal, whose only receivers write them, is not sent.
    Resetting sequences (reset_sequences=True) still truncates every table
    and sends it, as only TRUNCATE restarts them.

    The event table refuses both DELETE and TRUNCATE (games migrations 0002
    and 0009); the flush lifts that for itself, inside its own transaction,
    as only the table's owner can."""
    if not request.config.pluginmanager.hasplugin("django") or not using_postgresql():
        yield  # the engines' tests, run as plain Python (-p no:django)
        return
    from django.core.management.commands.flush import Command as Flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    honest_sql, honest_execute = DatabaseOperations.sql_flush, DatabaseOperations.execute_sql_flush
    guards = ("games_event_immutable", "games_event_no_truncate")

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return honest_sql(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        held = _tables_with_rows(self.connection, [t for t in tables if t not in REWRITTEN])
        deletes = [f"DELETE FROM {self.quote_name(table)}" for table in held]
        return ["SET CONSTRAINTS ALL DEFERRED", *deletes] if deletes else []

    def execute_sql_flush(self, sql_list):
        if not sql_list:
            return
        honest_execute(
            self,
            [
                *(f"ALTER TABLE games_event DISABLE TRIGGER {guard}" for guard in guards),
                *sql_list,
                *(f"ALTER TABLE games_event ENABLE TRIGGER {guard}" for guard in guards),
            ],
        )

    honest_handle = Flush.handle

    def handle(self, **options):
        if not options.get("reset_sequences", True):
            options["inhibit_post_migrate"] = True
        return honest_handle(self, **options)

    operations = DatabaseOperations
    operations.sql_flush, operations.execute_sql_flush = sql_flush, execute_sql_flush
    Flush.handle = handle
    yield
    operations.sql_flush, operations.execute_sql_flush = honest_sql, honest_execute
    Flush.handle = honest_handle


# What post_migrate writes back after every flush, the same every time.
REWRITTEN = frozenset({"django_content_type", "auth_permission"})


def _tables_with_rows(connection, tables) -> list[str]:
    quote = connection.ops.quote_name
    probes = " UNION ALL ".join(
        f"SELECT %s::text WHERE EXISTS (SELECT FROM {quote(table)})" for table in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(probes, list(tables))
        return [name for (name,) in cursor.fetchall()]


@pytest.fixture(autouse=True, scope="session")
def duel_engine():
    base.register(DUEL)
    yield DUEL
    base.unregister(DUEL.NAME)


def make_user(username: str, **extra):
    from accounts.models import User

    return User.objects.create_user(
        username=username, email=f"{username}@example.org", password="correct horse 42", **extra
    )


@pytest.fixture
def make_game(db):
    """make_game(players=[alice, bob], seed=5, options={"rounds": 2}): a game
    created and started through the real creation service, as a request to
    create one would.  The title is the test engine, duel, unless named; the
    seed is fixed, 1 unless given, so a test deals the same game on every
    run; the other keywords are the service's own (options, clock, creator,
    public, spectator_delay, source).  A module whose tests share one game
    keeps a thin `game` fixture that calls this with its particulars."""
    # Imported here: the engines' tests run without Django (-p no:django).
    from games.services.creation import do_create_game

    def make(title: str = "duel", *, players: list, seed: int = 1, **service_options):
        return do_create_game(title=title, players=list(players), seed=seed, **service_options)

    return make


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def charlie(db):
    return make_user("charlie")


@pytest.fixture
def carol(db):
    return make_user("carol")


@pytest.fixture
def eve(db):
    return make_user("eve")


@pytest.fixture
def mo(db):
    return make_user("mo", is_moderator=True)


@pytest.fixture(autouse=True)
def fast_password_hashing(request):
    # Real hashing costs ~0.3 s a user; the tests are not about it.  Engine
    # tests may run without the Django plugin (-p no:django): nothing to do then.
    if not request.config.pluginmanager.hasplugin("django"):
        return
    request.getfixturevalue("settings").PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher"
    ]


@pytest.fixture(autouse=True)
def celery_in_process(request):
    """Tasks run in-process unless a test is marked `redis` (and then a real
    worker consumes them); nothing is left queued in the real Redis.

    Notifications wait in the outbox, as they do in production until a
    worker takes them, unless the test is marked `mail`: delivering each at
    once rendered a mail for every move of every test, a tenth of the
    suite's time for tests that never read one.  The rows are still written
    with their events; only the hand-over to the worker waits."""
    if request.node.get_closest_marker("redis") or not request.config.pluginmanager.hasplugin(
        "django"
    ):
        yield
        return
    from config.celery import app
    from notifications import tasks

    if not request.node.get_closest_marker("mail"):
        request.getfixturevalue("monkeypatch").setattr(tasks, "enqueue", _held)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


def _held(task, notification_id: int) -> bool:
    return False  # not handed over: the outbox sweep would queue it


@pytest.fixture(autouse=True)
def bots_left_no_timer(request):
    """A bot's paced move waits in a timer when Celery runs eagerly
    (games.tasks.queue_bot, CORREO_BOT_PACE_SECONDS): one a test left behind
    would play after it, against rows that are gone, and once the worker's
    database is dropped it logged a traceback to a closed stream.  A test
    that waits for a bot waits inside it; what is still waiting at its end
    is called off."""
    yield
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from games import tasks
    from tests.support.threads import call_off

    call_off(tasks._play_in_thread)


@pytest.fixture(autouse=True)
def forget_tokens_and_states():
    """Each test starts with empty token and state memories (rows are rolled
    back between tests, so ids come round again), and with every service
    counted as reachable."""
    modules = __import__("sys").modules
    for module in ("accounts.token_memory", "games.stream.store", "ops.outage"):
        if module in modules:
            modules[module].forget_all()


# Rates no test reaches unless it sets its own (the browser tests log in
# through the form many times a minute from one address).
GENEROUS_RATES = {"anon": "10000/min", "user": "100000/min", "auth": "10000/min",
                  "password": "10000/min", "create": "10000/min", "talk": "10000/min"}  # fmt: skip


@pytest.fixture
def throttle_rates(monkeypatch):
    """Set throttle rates for a test (DRF reads them once, at import); a
    scope the test does not name keeps a generous rate."""
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    from ops.throttling import leases

    def set_rates(**rates):
        cache.clear()
        leases.forget_all()  # this process's share of windows the clear emptied
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", GENEROUS_RATES | rates)

    return set_rates


@pytest.fixture(autouse=True)
def mail_pictures(request):
    """Mails go without the board's picture unless a test is marked
    `mail_pictures`.  Drawing one takes the renderer 50-120 ms, and mails
    are built wherever a test moves a game, so the pictures cost about a
    twelfth of the whole suite's CPU.  tests/notifications/test_mail_pictures.py
    draws every title's board into turn mails of bots' games, and the smoke
    test's deployed stack sends them as production does."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    if request.node.get_closest_marker("mail_pictures") is None:
        request.getfixturevalue("settings").NOTIFICATIONS_BOARD_IMAGE = False


@pytest.fixture(autouse=True)
def mail_unpaced(request):
    """Turn mails go at once unless a test paces them itself
    (notifications.pacing): tests of other things read every mail."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    settings.CORREO_PRESENCE_SECONDS = 0
    settings.CORREO_COALESCE_SECONDS = 0


@pytest.fixture(autouse=True)
def generous_throttles(request):
    """Every scope at a rate no test reaches unless it sets its own; the
    counters (and accounts.lockout's) start empty."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    request.getfixturevalue("throttle_rates")()
