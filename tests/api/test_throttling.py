"""Rate limits: counted per client in fixed windows, answered 429 with Retry-After."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache

from ops.throttling import FixedWindowRateThrottle, Leases, leases
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
    leases.forget_all()
    throttle = Counted()
    request = rf.get("/")
    assert all(throttle.allow_request(request, None) for _ in range(1000))
    assert not throttle.allow_request(request, None)
    counted = cache.get("throttle_test_1:10")  # 600 s is minute 10
    assert isinstance(counted, int) and counted >= 1000


class Process:
    """A web process of its own: its leases apart, the counter shared."""

    def __init__(self, rate: str) -> None:
        self.leases = Leases()
        self.round_trips = 0
        process = self

        class Throttle(Counted):
            leases = self.leases

            def count(self, key: str, amount: int = 1) -> int:
                process.round_trips += 1
                return super().count(key, amount)

        Throttle.rate = rate
        self.throttle = Throttle()

    def request(self, rf) -> bool:
        return self.throttle.allow_request(rf.get("/"), None)


def test_processes_together_never_admit_more_than_the_rate(rf, clock):
    """However a client spreads its requests over the processes (here at
    random, then all to one), the window admits at most its rate, and a
    lease left unused elsewhere refuses it at most a fiftieth early per
    process."""
    cache.clear()
    processes = [Process("1000/min") for _ in range(4)]
    chooser = random.Random(7)
    admitted = sum(chooser.choice(processes).request(rf) for _ in range(1500))
    assert 1000 - 3 * 20 <= admitted <= 1000
    assert not any(process.request(rf) for process in processes for _ in range(50))


def test_a_busy_client_costs_redis_a_round_trip_in_many_requests(rf, clock):
    cache.clear()
    process = Process("1200/min")
    assert all(process.request(rf) for _ in range(600))
    assert process.round_trips < 600 / 10


def test_a_spent_window_refuses_without_asking_redis_again(rf, clock):
    """A flood over the rate costs Redis nothing more: the counter only
    grows within a window, so once it says spent the process knows."""
    cache.clear()
    process = Process("3/min")
    assert [process.request(rf) for _ in range(4)] == [True, True, True, False]
    asked = process.round_trips
    assert not any(process.request(rf) for _ in range(100))
    assert process.round_trips == asked
    clock[0] = 660.0  # the next window starts afresh
    assert process.request(rf)


def test_a_small_rate_is_counted_one_request_at_a_time(rf, clock):
    """Below fifty a minute a lease is one request: each process asks the
    counter every time, so no budget is ever stranded in another."""
    cache.clear()
    first, second = Process("3/min"), Process("3/min")
    assert [first.request(rf), second.request(rf), first.request(rf)] == [True, True, True]
    assert not second.request(rf) and not first.request(rf)
    assert first.round_trips == 3 and second.round_trips == 2


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
