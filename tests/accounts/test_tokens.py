"""API tokens: several per account, named, listed without their keys,
revoked one by one or by logging out, stored as hashes, expiring unless
used, and revoked honestly across processes."""

from __future__ import annotations

import datetime
import hashlib
import time

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import token_memory, tokens
from accounts.models import ApiToken
from tests.accounts.conftest import log_in, token_client
from tests.support.server import web_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db


def age(key: str, **delta) -> None:
    """Make the token's last use (or making) lie `delta` in the past."""
    when = timezone.now() - datetime.timedelta(**delta)
    ApiToken.objects.filter(digest=tokens.digest(key)).update(created=when, last_used=when)
    token_memory.forget_all()  # as another process, or this one seconds later, would


def updates_of_tokens(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith('UPDATE "accounts_apitoken"')]


# --- issued, stored, listed ---------------------------------------------------------


def test_the_database_holds_a_hash_of_the_key_not_the_key(alice):
    key = log_in("alice")
    assert len(key) == 40 and int(key, 16) >= 0  # as rest_framework.authtoken's keys
    [row] = ApiToken.objects.filter(user=alice).values()
    assert row["digest"] == hashlib.sha256(key.encode()).hexdigest()
    assert row["prefix"] == key[:8]
    assert not any(key in str(value) for value in row.values())
    with connection.cursor() as cursor:  # nor anywhere in the row as stored
        cursor.execute("SELECT * FROM accounts_apitoken")
        assert key not in repr(cursor.fetchall())


def test_an_account_holds_several_named_tokens_and_lists_them_without_keys(alice, bob):
    laptop = log_in("alice", name="laptop")
    script = log_in("alice", name="nightly script")
    log_in("bob", name="bob's")
    response = token_client(script).get("/api/auth/tokens/")
    assert response.status_code == 200
    listed = response.json()["tokens"]
    assert [(t["name"], t["prefix"], t["current"]) for t in listed] == [
        ("nightly script", script[:8], True),
        ("laptop", laptop[:8], False),
    ]
    body = response.content.decode()
    assert laptop not in body and script not in body and "digest" not in body
    script_row = listed[0]
    assert script_row["last_used"] is not None  # this very request used it
    assert listed[1]["last_used"] is None  # never used
    created = datetime.datetime.fromisoformat(listed[1]["created"])
    expires = datetime.datetime.fromisoformat(listed[1]["expires"])
    assert expires - created == datetime.timedelta(days=90)


def test_register_and_log_in_return_a_token_as_before(alice):
    response = APIClient().post("/api/auth/register/", {
        "username": "dora", "email": "dora@example.org", "password": "a long passphrase 9",
        "name": "phone",
    }, format="json")  # fmt: skip
    assert response.status_code == 201 and set(response.json()) == {"token"}
    dora = token_client(response.json()["token"])
    assert [t["name"] for t in dora.get("/api/auth/tokens/").json()["tokens"]] == ["phone"]
    # Each log-in issues a token of its own; the earlier ones keep working.
    first, second = log_in("alice"), log_in("alice")
    assert first != second
    assert token_client(first).get("/api/auth/me/").status_code == 200
    assert token_client(second).get("/api/auth/me/").status_code == 200


def test_issuing_past_the_limit_revokes_the_least_recently_used(alice, monkeypatch):
    monkeypatch.setattr(tokens, "MAX_PER_USER", 3)
    keys = [log_in("alice", name=f"run {n}") for n in range(3)]
    assert token_client(keys[0]).get("/api/auth/me/").status_code == 200  # the oldest, used
    newest = log_in("alice", name="run 3")
    names = {t.name for t in ApiToken.objects.filter(user=alice)}
    assert names == {"run 0", "run 2", "run 3"}
    assert token_client(keys[1]).get("/api/auth/me/").status_code == 401
    assert token_client(newest).get("/api/auth/me/").status_code == 200


# --- revoked ---------------------------------------------------------------------


def test_a_revoked_token_stops_at_once_and_the_others_go_on(alice):
    laptop, script = log_in("alice", name="laptop"), log_in("alice", name="script")
    owner, leaked = token_client(laptop), token_client(script)
    assert leaked.get("/api/auth/me/").status_code == 200  # remembered for a few seconds
    [row] = [t for t in owner.get("/api/auth/tokens/").json()["tokens"] if t["name"] == "script"]
    response = owner.delete(f"/api/auth/tokens/{row['id']}/")
    assert response.status_code == 204
    assert leaked.get("/api/auth/me/").status_code == 401
    assert owner.get("/api/auth/me/").status_code == 200
    assert owner.delete(f"/api/auth/tokens/{row['id']}/").status_code == 404  # gone already


def test_nobody_revokes_another_accounts_token(alice, bob):
    bobs = log_in("bob")
    bobs_id = ApiToken.objects.get(user__username="bob").pk
    response = token_client(log_in("alice")).delete(f"/api/auth/tokens/{bobs_id}/")
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert token_client(bobs).get("/api/auth/me/").status_code == 200


def test_logging_out_revokes_the_token_that_asks_and_no_other(alice, client):
    laptop, script = log_in("alice", name="laptop"), log_in("alice", name="script")
    leaving = token_client(script)
    assert leaving.get("/api/auth/me/").status_code == 200
    assert leaving.delete("/api/auth/token/").status_code == 204
    assert leaving.get("/api/auth/me/").status_code == 401
    assert leaving.delete("/api/auth/token/").status_code == 401
    assert token_client(laptop).get("/api/auth/me/").status_code == 200
    # A session has no token to log out of, and revokes none.
    client.force_login(alice)
    assert client.delete("/api/auth/token/").status_code == 401
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_staff_revoke_tokens_in_the_admin_which_shows_no_key(alice, admin_client):
    key, other = log_in("alice", name="laptop"), log_in("alice", name="phone")
    client = token_client(key)
    assert client.get("/api/auth/me/").status_code == 200  # remembered
    page = admin_client.get("/admin/accounts/apitoken/").content.decode()
    assert "laptop" in page and key[:8] in page and key not in page
    laptop = ApiToken.objects.get(name="laptop")
    response = admin_client.post("/admin/accounts/apitoken/", {
        "action": "delete_selected", "_selected_action": [laptop.pk], "post": "yes",
    })  # fmt: skip
    assert response.status_code == 302
    assert client.get("/api/auth/me/").status_code == 401
    assert token_client(other).get("/api/auth/me/").status_code == 200
    detail = admin_client.get(f"/admin/accounts/apitoken/{ApiToken.objects.get().pk}/change/")
    assert detail.status_code == 200 and "digest" not in detail.content.decode()


def test_a_lookup_that_began_before_a_revocation_is_not_remembered(alice, monkeypatch):
    """Another request revokes the tokens while this one is reading its row:
    this request may still pass (it read the row before), but its reading
    must not be remembered as valid for the memory's seconds."""
    key = log_in("alice")
    reading = tokens.find

    def find_while_revoked(found_key):
        row = reading(found_key)
        tokens.revoke_all(alice)  # lands between the read and the memory
        return row

    monkeypatch.setattr(tokens, "find", find_while_revoked)
    client = token_client(key)
    client.get("/api/auth/me/")
    monkeypatch.setattr(tokens, "find", reading)
    assert client.get("/api/auth/me/").status_code == 401


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_a_token_is_found_with_its_user_in_one_statement_as_the_orm_reads_them(alice):
    """The lookup a request makes when this process does not remember its
    token is one prepared statement; what it gives must be what the ORM
    gives, field for field, the user included."""
    key = log_in("alice")
    with CaptureQueriesContext(connection) as queries:
        found = tokens.find(key)
        user = found.user
    assert len(queries) == 1
    orm = ApiToken.objects.select_related("user").get(digest=tokens.digest(key))
    assert fields(found) == fields(orm) and fields(user) == fields(orm.user)
    assert user.username == "alice"
    assert tokens.find("0" * tokens.KEY_LENGTH) is None
    age(key, days=400)
    assert tokens.find(key) is None  # expired: as good as absent


# --- expiry ------------------------------------------------------------------------


def test_a_token_unused_for_the_ttl_expires(alice, settings):
    settings.CORREO_TOKEN_TTL_DAYS = 30
    key = log_in("alice")
    age(key, days=29, hours=23)
    assert token_client(key).get("/api/auth/me/").status_code == 200  # renewed by this use
    age(key, days=30, minutes=1)
    response = token_client(key).get("/api/auth/me/")
    assert response.status_code == 401 and "expired" in response.json()["detail"]
    other = token_client(log_in("alice"))
    assert [t["name"] for t in other.get("/api/auth/tokens/").json()["tokens"]] == [""]


def test_use_renews_a_token_but_writes_its_row_at_most_once_a_quarter_hour(alice):
    key = log_in("alice")
    client = token_client(key)
    with CaptureQueriesContext(connection) as first:
        assert client.get("/api/auth/me/").status_code == 200
    assert len(updates_of_tokens(first)) == 1  # the first use is recorded
    used = ApiToken.objects.get(user=alice).last_used
    for _ in range(3):
        token_memory.forget_all()  # each a lookup, as in a busy fleet of processes
        with CaptureQueriesContext(connection) as again:
            assert client.get("/api/auth/me/").status_code == 200
        assert updates_of_tokens(again) == []
    assert ApiToken.objects.get(user=alice).last_used == used
    age(key, minutes=16)
    with CaptureQueriesContext(connection) as later:
        assert client.get("/api/auth/me/").status_code == 200
    assert len(updates_of_tokens(later)) == 1
    renewed = ApiToken.objects.get(user=alice)
    assert timezone.now() - renewed.last_used < datetime.timedelta(minutes=1)
    assert renewed.expires - timezone.now() > datetime.timedelta(days=89, hours=23)


def test_the_memory_does_not_outlive_the_token(alice, settings, monkeypatch):
    """A token seconds from its expiry is remembered only until then."""
    settings.CORREO_TOKEN_CACHE_SECONDS = 60
    monkeypatch.setattr(tokens, "touch", lambda token: None)  # no renewal: the memory alone
    key = log_in("alice")
    age(key, days=90, seconds=-30)  # 30 s of life left
    clock = [1000.0]
    monkeypatch.setattr(token_memory.time, "monotonic", lambda: clock[0])
    client = token_client(key)
    assert client.get("/api/auth/me/").status_code == 200
    # Time passes (the row says so; the memory's clock is the monkeypatched one).
    past = timezone.now() - datetime.timedelta(days=91)
    ApiToken.objects.filter(user=alice).update(created=past, last_used=past)
    clock[0] += 29
    assert client.get("/api/auth/me/").status_code == 200  # remembered, within its life
    clock[0] += 2
    assert client.get("/api/auth/me/").status_code == 401


# --- across processes ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_another_process_refuses_a_revoked_token_within_the_memory_time(alice, tmp_path):
    """gunicorn remembers the token; revoked here, it is refused there
    within CORREO_TOKEN_CACHE_SECONDS, and never accepted again."""
    key = tokens.issue(alice)[1]
    with web_server(tmp_path, CORREO_TOKEN_CACHE_SECONDS="2") as server:
        assert server.call("GET", "/api/auth/me/", key).status == 200
        assert server.call("GET", "/api/auth/me/", key).status == 200  # from its memory
        revoked = time.monotonic()
        tokens.revoke_all(alice)
        wait_until(lambda: server.call("GET", "/api/auth/me/", key).status == 401, timeout=10)
        assert time.monotonic() - revoked < 2 + 3  # its memory, and a slow machine
        for _ in range(5):
            assert server.call("GET", "/api/auth/me/", key).status == 401


# --- the migration from rest_framework.authtoken --------------------------------------

BEFORE = [("accounts", "0005_bots")]
AFTER = [("accounts", "0006_api_tokens")]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_keys_of_rest_framework_authtoken_keep_working_and_leave_the_database(alice):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old_key = "0123456789abcdef0123456789abcdef01234567"
    created = timezone.now() - datetime.timedelta(days=400)
    with connection.cursor() as cursor:
        # authtoken's table as its migrations left it.
        cursor.execute(
            'CREATE TABLE authtoken_token ("key" varchar(40) PRIMARY KEY, '
            "created timestamp with time zone NOT NULL, user_id bigint NOT NULL "
            "REFERENCES accounts_user (id) DEFERRABLE INITIALLY DEFERRED)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)", [old_key, created, alice.pk]
        )
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM authtoken_token")
            assert cursor.fetchone() == (0,)  # no key left in the clear
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS authtoken_token")
        # Back to the newest schema (the later migrations were undone on the way
        # down), which the rest of the test and of the session read.
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

    token = ApiToken.objects.get(user=alice)
    assert token.digest == hashlib.sha256(old_key.encode()).hexdigest()
    assert token.created == created and token.prefix == old_key[:8]
    # 400 days old, but counted as used at the migration: a whole TTL to go.
    assert token.expires - timezone.now() > datetime.timedelta(days=89)
    response = token_client(old_key).get("/api/auth/me/")
    assert response.status_code == 200 and response.json()["username"] == "alice"
