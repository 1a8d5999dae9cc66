"""The rate limits and log-in defences as deployed, attacked from outside:
the real nginx site (deploy/nginx) in front of real gunicorn, on the real
Redis and PostgreSQL, with the proxy setting the deploy files give."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.conftest import make_user
from tests.support.proxy import nginx_in_front
from tests.support.server import web_server

# slow: starts nginx and gunicorn.
pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
RIGHT, WRONG = "correct horse 42", "not the password"


def deployed_proxies() -> str:
    text = (DEPLOY / "systemd" / "correo.env.example").read_text()
    return re.search(r"^CORREO_TRUSTED_PROXIES=(\d+)$", text, re.M).group(1)


@pytest.fixture
def stack(tmp_path):
    """start(**env): gunicorn with `env` behind nginx; both stop after the test."""
    with contextlib.ExitStack() as stack:

        def start(**env: str):
            env.setdefault("CORREO_TRUSTED_PROXIES", deployed_proxies())
            server = stack.enter_context(web_server(tmp_path, **env))
            return stack.enter_context(nginx_in_front(tmp_path / "nginx", server.port))

        yield start


def token(proxy, username: str, password: str, address: str):
    """POST /api/auth/token/ from `address`, or so the client claims."""
    return proxy.call("POST", "/api/auth/token/", headers={"X-Forwarded-For": address},
                      body={"username": username, "password": password})  # fmt: skip


def test_a_rotating_forwarded_for_still_meets_the_auth_rate(stack):
    """41 guesses, each claiming another address and trying another name (so
    that only the per-address rate can stop them): the 6th is refused."""
    proxy = stack(THROTTLE_AUTH="5/day")
    statuses = [token(proxy, f"guess{i}", WRONG, f"198.51.100.{i}").status for i in range(41)]
    assert statuses == [400] * 5 + [429] * 36


def test_one_name_waits_after_its_failures_whatever_the_address(stack):
    victim = make_user("victim")
    hasher = PBKDF2PasswordHasher()
    hasher.iterations = 1000  # the server's hashers know it; the test's only know MD5
    victim.password = hasher.encode(RIGHT, hasher.salt())
    victim.save(update_fields=["password"])
    proxy = stack(THROTTLE_AUTH="1000/min", CORREO_LOGIN_FAILURES_ALLOWED="3",
                  CORREO_LOGIN_DELAY_SECONDS="2", CORREO_LOGIN_DELAY_MAX_SECONDS="60")  # fmt: skip
    addresses = (f"203.0.113.{i}" for i in range(1, 200))

    assert [token(proxy, "victim", WRONG, next(addresses)).status for _ in range(3)] == [400] * 3
    refused = token(proxy, "victim", RIGHT, next(addresses))  # the right password, too
    assert refused.status == 429 and refused.body["error"] == "throttled"
    assert 1 <= int(refused.headers["Retry-After"]) <= 2
    assert token(proxy, "Victim", WRONG, next(addresses)).status == 429  # any spelling

    time.sleep(2.1)
    assert token(proxy, "victim", WRONG, next(addresses)).status == 400  # one more guess...
    doubled = token(proxy, "victim", RIGHT, next(addresses))
    assert doubled.status == 429 and 3 <= int(doubled.headers["Retry-After"]) <= 4  # ...waits 4 s

    time.sleep(4.1)
    assert token(proxy, "victim", RIGHT, next(addresses)).status == 200
    # The success started the name afresh.
    assert token(proxy, "victim", WRONG, next(addresses)).status == 400


def test_the_admin_answers_only_on_the_internal_server(stack):
    proxy = stack()
    assert proxy.call("GET", "/api/ping/").status == 200
    # However the path is spelt, nginx matches the normalised one.
    for path in ("/admin/", "/admin/login/", "//admin/login/", "/%61dmin/login/",
                 "/static/../admin/login/"):  # fmt: skip
        assert proxy.call("GET", path).status == 404, path  # Django would say 200 or 302
    assert proxy.call("GET", "/admin/login/", port=proxy.internal).status == 200
    assert proxy.call("GET", "/api/ping/", port=proxy.internal).status == 404  # admin only
