"""Rate limits: counted per client in fixed windows, answered 429 with Retry-After."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from ops.throttling import FixedWindowRateThrottle
from tests.notifications.conftest import free_port


@pytest.fixture
def clock(monkeypatch):
    """The throttles' time, set by the test (seconds)."""
    now = [600.0]
    monkeypatch.setattr(FixedWindowRateThrottle, "timer", lambda self: now[0])
    return now


def codes(client, path: str, times: int) -> list[int]:
    return [client.get(path).status_code for _ in range(times)]


def test_a_user_over_the_rate_waits_for_the_next_window(as_, alice, throttle_rates, clock):
    throttle_rates(user="3/min", anon="3/min")
    client = as_(alice)
    assert codes(client, "/api/games/", 3) == [200, 200, 200]
    clock[0] = 630.0
    refused = client.get("/api/games/")
    assert refused.status_code == 429 and refused.json()["error"] == "throttled"
    assert refused["Retry-After"] == "30"  # the window runs 600 to 660
    clock[0] = 660.0
    assert codes(client, "/api/games/", 3) == [200, 200, 200]
    assert codes(client, "/api/games/", 1) == [429]


def test_each_user_has_a_window_of_their_own(as_, alice, bob, throttle_rates, clock):
    throttle_rates(user="2/min", anon="2/min")
    assert codes(as_(alice), "/api/games/", 3) == [200, 200, 429]
    assert codes(as_(bob), "/api/games/", 2) == [200, 200]


def test_logins_have_their_own_scope(as_, alice, throttle_rates, clock):
    throttle_rates(user="100/min", anon="100/min", auth="2/min")
    anonymous = as_(None)
    body = {"username": "alice", "password": "wrong password"}
    statuses = [anonymous.post("/api/auth/token/", body, format="json").status_code
                for _ in range(3)]  # fmt: skip
    assert statuses[:2] == [400, 400] and statuses[2] == 429
    assert codes(as_(alice), "/api/games/", 1) == [200]  # the user scope is untouched


class Counted(FixedWindowRateThrottle):
    rate = "1000/min"

    def get_cache_key(self, request, view):
        return "throttle_test_1"


def test_a_window_is_one_counter_however_high_the_rate(rf, clock):
    cache.clear()
    throttle = Counted()
    request = rf.get("/")
    assert all(throttle.allow_request(request, None) for _ in range(1000))
    assert not throttle.allow_request(request, None)
    assert cache.get("throttle_test_1:10") == 1001  # 600 s is minute 10


@pytest.mark.redis
def test_with_redis_down_each_process_still_counts_and_nothing_fails(
    as_, alice, throttle_rates, clock, settings
):
    throttle_rates(user="3/min", anon="3/min")
    cache = settings.CACHES["default"]
    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings.CACHES = {"default": {**cache, "LOCATION": down}}
    client = as_(alice)
    assert codes(client, "/api/games/", 4) == [200, 200, 200, 429]
    clock[0] = 660.0
    assert codes(client, "/api/games/", 1) == [200]


@pytest.mark.parametrize("proxies", [0, 1])
def test_a_forwarded_for_of_the_clients_own_choosing_buys_no_fresh_budget(
    client, db, throttle_rates, clock, settings, proxies
):
    """Each guess claims another address, at the page's door and the API's
    in turn; with no proxy the header is ignored, behind one only its last
    entry (the proxy's own, deploy/nginx) counts."""
    settings.CORREO_TRUSTED_PROXIES = proxies
    throttle_rates(auth="3/min")
    body = {"username": "alice", "password": "wrong password"}
    statuses = []
    for i in range(8):
        claimed = f"198.51.100.{i}" if proxies == 0 else f"198.51.100.{i}, 203.0.113.9"
        if i % 2:
            answer = client.post("/api/auth/token/", body, content_type="application/json",
                                 HTTP_X_FORWARDED_FOR=claimed)  # fmt: skip
        else:
            answer = client.post("/accounts/login/", body, HTTP_X_FORWARDED_FOR=claimed)
        statuses.append(answer.status_code)
    assert statuses == [200, 400, 200] + [429] * 5
