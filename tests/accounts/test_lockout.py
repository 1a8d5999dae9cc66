"""Failed log-ins counted per account name, whatever the address
(accounts.lockout, in the backend every log-in goes through), on the real
Redis: every door, growing waits, a success starting afresh."""

from __future__ import annotations

import itertools

import pytest
from django.core.cache import cache
from django.test import Client

from accounts import lockout
from accounts.models import User
from tests.notifications.conftest import free_port

pytestmark = [pytest.mark.redis, pytest.mark.django_db]

RIGHT, WRONG = "correct horse 42", "not the password"
ADDRESSES = (f"10.{i // 250}.{i % 250}.1" for i in itertools.count())


@pytest.fixture(autouse=True)
def short_waits(settings):
    settings.CORREO_LOGIN_FAILURES_ALLOWED = 3
    settings.CORREO_LOGIN_DELAY_SECONDS = 30
    settings.CORREO_LOGIN_DELAY_MAX_SECONDS = 120


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(lockout, "now", lambda: now[0])
    return now


class Door:
    """One way in: its path, and what it answers a wrong and a right password."""

    def __init__(self, path: str, wrong: int, right: int, json: bool = False) -> None:
        self.path, self.wrong, self.right, self.json = path, wrong, right, json

    def __repr__(self) -> str:
        return self.path

    def post(self, username: str, password: str):
        """From an address never seen before: only the name can be counted."""
        client = Client(REMOTE_ADDR=next(ADDRESSES))
        body = {"username": username, "password": password}
        if self.json:
            return client.post(self.path, body, content_type="application/json")
        return client.post(self.path, {**body, "next": "/"})


DOORS = [
    Door("/api/auth/token/", wrong=400, right=200, json=True),
    Door("/accounts/login/", wrong=200, right=302),
    Door("/admin/login/", wrong=200, right=302),
]


@pytest.fixture
def alice(db):
    # Staff, so that the admin's log-in lets her in too.
    return User.objects.create_user("alice", "alice@example.org", RIGHT, is_staff=True)


@pytest.mark.parametrize("door", DOORS, ids=repr)
def test_failures_make_the_name_wait_whatever_the_address(door, alice, clock):
    assert [door.post("alice", WRONG).status_code for _ in range(3)] == [door.wrong] * 3
    refused = door.post("alice", RIGHT)  # the right password, during the wait
    assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert "_auth_user_id" not in refused.client.session
    if not door.json:
        assert "Too many failed log-ins for this account" in refused.content.decode()

    clock[0] += 30
    assert door.post("alice", WRONG).status_code == door.wrong  # one guess, then...
    again = door.post("alice", RIGHT)
    assert again.status_code == 429 and again["Retry-After"] == "60"  # ...twice the wait

    clock[0] += 60
    assert door.post("alice", RIGHT).status_code == door.right
    assert lockout.failures(lockout.LOGIN, "alice") == 0  # a success starts afresh
    assert [door.post("alice", WRONG).status_code for _ in range(3)] == [door.wrong] * 3


def test_the_doors_share_one_count(alice, clock):
    api, page, admin = DOORS
    assert api.post("alice", WRONG).status_code == 400
    assert page.post("alice", WRONG).status_code == 200
    assert admin.post("alice", WRONG).status_code == 200
    assert api.post("alice", RIGHT).status_code == 429


def test_the_api_says_why_in_its_error_shape(alice, clock):
    api = DOORS[0]
    for _ in range(3):
        api.post("alice", WRONG)
    body = api.post("alice", RIGHT).json()
    assert body["error"] == "throttled"
    assert "Too many failed log-ins for this account" in body["detail"]


def test_the_wait_doubles_up_to_its_longest_and_is_never_a_lock():
    waits = [lockout.delay_after(failures) for failures in range(1, 9)]
    assert waits == [0, 0, 30, 60, 120, 120, 120, 120]
    assert lockout.delay_after(10**6) == 120


def test_names_without_an_account_wait_alike(alice, clock):
    """The lock must not tell which names exist."""
    api = DOORS[0]
    answers = {}
    for name in ("alice", "nobody"):
        assert [api.post(name, WRONG).status_code for _ in range(3)] == [400] * 3
        refused = api.post(name, RIGHT)
        answers[name] = (refused.status_code, refused["Retry-After"], refused.json())
    assert answers["alice"] == answers["nobody"]


def test_every_spelling_of_a_name_counts_for_it(alice, clock):
    api = DOORS[0]
    for name in ("ALICE", "Alice", "\uff21\uff4c\uff49\uff43\uff45"):  # the last in full width
        assert api.post(name, WRONG).status_code == 400
    assert api.post("alice", RIGHT).status_code == 429


def test_one_try_of_a_name_at_a_time(alice, clock):
    """Tries sent together the moment a wait ends get one guess, not one each:
    while a try of alice's runs, another is refused (and another name's is not)."""
    api = DOORS[0]
    with lockout.attempt(lockout.LOGIN, "alice") as running:
        refused = api.post("alice", RIGHT)
        assert refused.status_code == 429 and refused["Retry-After"] == "1"
        assert api.post("bob", WRONG).status_code == 400
        running.succeeded = True
    assert api.post("alice", RIGHT).status_code == 200


def test_the_counts_live_in_redis_for_every_process(alice, clock, settings):
    import redis

    for _ in range(2):
        DOORS[0].post("alice", WRONG)
    server = redis.Redis.from_url(settings.REDIS_URL)
    stored = cache.make_key(lockout.key(lockout.LOGIN, "alice"))
    assert 86_000 < server.ttl(stored) <= 86_400  # forgotten after a quiet day
    assert b"alice" not in server.get(stored)  # the cache holds no names


def test_with_redis_down_each_process_still_counts(alice, clock, settings):
    """The documented choice: no Redis, the counts go on in the process's own
    memory (ops.cache), rather than every log-in failing."""
    location = settings.CACHES["default"]
    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings.CACHES = {"default": {**location, "LOCATION": down}}
    api = DOORS[0]
    assert [api.post("alice", WRONG).status_code for _ in range(3)] == [400] * 3
    assert api.post("alice", RIGHT).status_code == 429
    clock[0] += 30
    assert api.post("alice", RIGHT).status_code == 200


@pytest.fixture
def eager():
    """The reset request's task runs in-process (no worker in these tests)."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def ask_reset(email: str):
    return Client(REMOTE_ADDR=next(ADDRESSES)).post("/accounts/password_reset/", {"email": email})


def test_reset_requests_for_an_address_wait_after_the_allowed(alice, clock, eager, settings):
    for email in ("alice@example.org", "nobody@example.org"):  # an account or not, alike
        assert [ask_reset(email).status_code for _ in range(3)] == [302] * 3
        refused = ask_reset(email.upper())
        assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert ask_reset("bob@example.org").status_code == 302
    clock[0] += 30
    assert ask_reset("alice@example.org").status_code == 302
