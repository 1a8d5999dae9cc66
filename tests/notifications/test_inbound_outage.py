"""No inbound mail is lost when the database goes away, at any door.

Each door runs as its own process (the SMTP listener, the MTA pipe command,
gunicorn for the HTTP and anymail doors) and reaches the test database only
through a proxy that the test cuts and restores.  The database is cut once
before a mail arrives, and once in the middle of its processing: the door is
held at the game row (the test locks it) after it has read the mail, checked
it and started writing, and the proxy drops its connection there.  Each time
the door answers so that its sender tries again and nothing is left behind;
once the database is back the same mail is applied once, and sent yet again
it is a duplicate.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import smtplib
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.conf import settings as django_settings
from django.db import connection

from games.models import Event, Game
from notifications.addresses import reply_address
from notifications.models import InboundMessage, Notification
from tests.notifications.conftest import free_port, new_duel, reply_mail
from tests.support.dbproxy import DatabaseProxy
from tests.support.play import hand
from tests.support.waiting import wait_until

# slow: waits out a database outage.
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-for-tests"
HOOK = "hook:secret"


def admin_connection(**options) -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"],
                           password=db.get("PASSWORD") or None, dbname=db["NAME"],
                           **options)  # fmt: skip


def backends(query: str) -> int:
    """Backends of the test database other than this test's own, matching `query`."""
    connection.ensure_connection()
    own = connection.connection.info.backend_pid
    with admin_connection(autocommit=True) as admin:
        sql = ("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
               "AND backend_type = 'client backend' AND pid <> pg_backend_pid() "
               "AND pid <> %s AND ")  # fmt: skip
        return admin.execute(sql + query, [own]).fetchone()[0]


@contextlib.contextmanager
def game_row_locked(game: Game):
    """Hold the game's row: a door that reaches its move waits there."""
    with admin_connection() as lock:
        lock.execute(f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE", [game.pk])
        try:
            yield lock
        finally:
            lock.rollback()


def door_environment(proxy: DatabaseProxy, smtp_sink_port: int) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": proxy.database_url(),
        "REDIS_URL": "",  # Celery runs eagerly: the answer is mailed from the door itself
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_sink_port}",
        "SECRET_KEY": django_settings.SECRET_KEY,  # reply addresses are signed with it
        "REPLY_DOMAIN": "play.correo.test",
        "DEFAULT_FROM_EMAIL": "Correo <correo@correo.test>",
        "INBOUND_EMAIL_SECRET": SECRET,
        "ANYMAIL_WEBHOOK_SECRET": HOOK,
        "CORREO_EXTRA_ENGINES": "tests.support.duel:DUEL",
        "CORREO_EMBEDDED_SWEEP": "0",
        "CONN_MAX_AGE": "60",  # a kept connection is one the cut drops
        "LOG_LEVEL": "WARNING",
    }


def wait_for_port(port: int, process: subprocess.Popen) -> None:
    def listening() -> bool:
        assert process.poll() is None, "the door's process exited"
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    wait_until(listening, timeout=30)


class SmtpDoor:
    retry, done = 451, 250

    def __init__(self, env) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "smtpd", "--port", str(self.port)], cwd=ROOT, env=env
        )
        wait_for_port(self.port, self.process)

    def send(self, raw: bytes, to: str) -> int:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=60) as client:
            try:
                client.sendmail("alice@example.org", [to], raw)
            except smtplib.SMTPDataError as error:
                return error.smtp_code
        return 250

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)


class PipeDoor:
    retry, done = 75, 0

    def __init__(self, env) -> None:
        self.env = env

    def send(self, raw: bytes, to: str) -> int:
        command = [sys.executable, "manage.py", "receive_email", "--recipient", to]
        return subprocess.run(command, cwd=ROOT, env=self.env, input=raw, timeout=60,
                              capture_output=True).returncode  # fmt: skip

    def stop(self) -> None:
        pass


class HttpDoor:
    retry, done = 503, 200
    path = "/api/inbound/email/"

    def __init__(self, env) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
                   f"127.0.0.1:{self.port}", "--workers", "1", "--timeout", "60"]  # fmt: skip
        self.process = subprocess.Popen(command, cwd=ROOT, env=env)
        wait_for_port(self.port, self.process)

    def request(self, raw: bytes, to: str) -> urllib.request.Request:
        url = f"http://127.0.0.1:{self.port}{self.path}?recipient={to}"
        return urllib.request.Request(url, data=raw, method="POST", headers={
            "Authorization": f"Bearer {SECRET}", "Content-Type": "message/rfc822"})  # fmt: skip

    def send(self, raw: bytes, to: str) -> int:
        try:
            with urllib.request.urlopen(self.request(raw, to), timeout=60) as response:
                return response.status
        except urllib.error.HTTPError as error:
            answer = error
        if answer.code == 503:  # says when to come back, and that nothing was recorded
            assert int(answer.headers["Retry-After"]) > 0
            assert json.loads(answer.read())["status"] == "retry"
        return answer.code

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)


class AnymailDoor(HttpDoor):
    path = "/anymail/postmark/inbound/"

    def request(self, raw: bytes, to: str) -> urllib.request.Request:
        body = json.dumps({"RawEmail": raw.decode(), "Headers": [], "OriginalRecipient": to})
        url = f"http://127.0.0.1:{self.port}{self.path}"
        auth = base64.b64encode(HOOK.encode()).decode()
        return urllib.request.Request(url, data=body.encode(), method="POST", headers={
            "Authorization": f"Basic {auth}", "Content-Type": "application/json"})  # fmt: skip


DOORS = {"smtpd": SmtpDoor, "receive_email": PipeDoor, "http": HttpDoor, "anymail": AnymailDoor}


@pytest.fixture
def proxy():
    proxy = DatabaseProxy.for_test_database()
    yield proxy
    proxy.close()


@pytest.mark.parametrize("name", DOORS)
def test_a_database_outage_makes_the_sender_retry_and_the_retry_applies_once(
    name, proxy, sink, alice, bob
):
    game = new_duel(alice, bob)
    to = reply_address(game.pk, 0, alice.pk)
    raw = reply_mail(alice, game, 0, f"commit {hand(game, 0)[0]}", message_id="<m1@client>")
    door = DOORS[name](door_environment(proxy, sink.port))
    try:
        # the database is gone before the mail arrives
        proxy.cut()
        assert door.send(raw, to) == door.retry
        proxy.restore()

        # the database goes away while the door is writing the move
        with game_row_locked(game) as lock, ThreadPoolExecutor(1) as pool:
            answer = pool.submit(door.send, raw, to)
            wait_until(lambda: backends("wait_event_type = 'Lock'") == 1, timeout=30)
            proxy.cut()
            lock.rollback()
            assert answer.result(timeout=60) == door.retry
        wait_until(lambda: backends("true") == 0, timeout=30)  # its transaction is gone
        game.refresh_from_db()
        assert game.seq == 1
        assert InboundMessage.objects.count() == 0
        assert not Notification.objects.filter(kind="reply").exists()

        # the database is back: the sender's retry is applied, once
        proxy.restore()
        assert door.send(raw, to) == door.done
        assert door.send(raw, to) == door.done
    finally:
        door.stop()
    assert Event.objects.filter(game=game, source="email").count() == 1
    record = InboundMessage.objects.get()
    assert (record.message_id, record.status) == ("<m1@client>", "applied")
    answer = sink.wait_for(lambda m: m["In-Reply-To"] == "<m1@client>")
    assert "done" in answer["Subject"]
    assert [m["In-Reply-To"] for m in sink.messages].count("<m1@client>") == 1
