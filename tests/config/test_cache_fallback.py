"""The cache while its Redis is away or hangs: served from the process's own
memory, said once, counted, and back on Redis as soon as it answers."""

from __future__ import annotations

import logging
import time
import uuid

import pytest
import redis
from django.conf import settings as django_settings
from prometheus_client import REGISTRY

from ops.cache import FallbackRedisCache
from tests.support.door import Door, redis_door, through

pytestmark = pytest.mark.redis


@pytest.fixture
def door():
    door = redis_door()
    yield door
    door.shut()


def behind(door: Door, timeout: float = 0.3) -> FallbackRedisCache:
    """A cache like the settings' whose Redis is reached through the door."""
    url = through(door)
    options = {"socket_connect_timeout": timeout, "socket_timeout": timeout}
    return FallbackRedisCache(url, {"OPTIONS": options, "KEY_PREFIX": uuid.uuid4().hex})


def degraded(operation: str) -> float:
    labels = {"service": "cache", "operation": operation}
    return REGISTRY.get_sample_value("correo_degraded_total", labels) or 0.0


def outage_warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "ops.outage" and r.levelno == logging.WARNING
    ]


def test_with_redis_down_the_cache_serves_from_memory_says_so_once_and_counts(
    door, settings, caplog
):
    settings.CORREO_REDIS_RETRY_SECONDS = 60
    cache = behind(door)  # the door is shut: connection refused
    before = degraded("incr")
    cache.set("hits", 1)
    assert cache.get("hits") == 1
    assert cache.add("hits", 5) is False
    for _ in range(50):
        cache.incr("hits")
    assert cache.get("hits") == 51
    assert degraded("incr") - before == 50
    [said] = outage_warnings(caplog)
    assert said.startswith("cache unreachable (ConnectionError")


def test_the_cache_is_back_on_redis_once_it_answers_again(door, settings):
    settings.CORREO_REDIS_RETRY_SECONDS = 0.2
    cache = behind(door)
    door.open()
    cache.set("where", "redis")
    door.shut()
    assert cache.get("where") is None  # this process's memory never held it
    cache.set("where", "memory")
    assert cache.get("where") == "memory"
    door.open()
    assert cache.get("where") == "memory"  # Redis is left alone for a while...
    time.sleep(0.25)
    assert cache.get("where") == "redis"  # ...then asked again
    direct = redis.Redis.from_url(django_settings.REDIS_URL)
    assert direct.exists(cache.make_key("where")) == 1


def test_a_hanging_redis_costs_one_operation_its_timeout_and_the_next_ones_nothing(door, settings):
    settings.CORREO_REDIS_RETRY_SECONDS = 60
    door.jam()  # connections are taken and never answered
    cache = behind(door, timeout=0.3)
    started = time.monotonic()
    assert cache.get_or_set("answer", 42) == 42
    first = time.monotonic() - started
    started = time.monotonic()
    for _ in range(100):
        assert cache.get("answer") == 42
    rest = time.monotonic() - started
    assert 0.3 <= first < 1.5
    assert rest < 0.1


def test_a_window_counter_takes_one_round_trip_and_expires_with_its_window(door, settings):
    settings.CORREO_REDIS_RETRY_SECONDS = 60
    door.open()
    cache = behind(door)
    direct = redis.Redis.from_url(django_settings.REDIS_URL)
    cache.get("warm")  # the pool's connection made (its handshake is not counted)
    sent = []
    real = redis.connection.Connection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(command)
        return real(self, command, check_health)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redis.connection.Connection, "send_packed_command", counted)
        assert [cache.count("window", 30) for _ in range(3)] == [1, 2, 3]
    assert len(sent) == 3  # one pipeline each, where incr and add took two or three
    assert cache.get("window") == 3  # what incr and get see too
    assert 0 < direct.ttl(cache.make_key("window")) <= 30


def test_with_redis_down_a_window_counter_counts_in_memory(door, settings):
    settings.CORREO_REDIS_RETRY_SECONDS = 60
    cache = behind(door)  # shut
    before = degraded("count")
    assert [cache.count("window", 30) for _ in range(3)] == [1, 2, 3]
    assert degraded("count") - before == 3  # each served from memory, counted
    assert cache.get("window") == 3
