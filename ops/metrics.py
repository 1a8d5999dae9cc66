"""Prometheus metrics at /metrics (prometheus-client).

- `correo_http_requests_total{method,route,status}` and
  `correo_http_request_duration_seconds{method,route}`: every request, by URL
  pattern (not by path, so a game id never becomes a label value);
- `correo_moves_applied_total{title,source,kind}`: actions and timeouts,
  counted once the event is durable (a `games.hooks.on_committed` listener);
- `correo_replay_duration_seconds{title}`: time to rebuild a state from the
  store (snapshot + live events; memo hits are not replays);
- `correo_notification_backlog{status}`: outbox rows still to deliver
  (pending, sending), read from the database at scrape time;
- `correo_webhook_backlog{status}`: webhook notices still to POST (pending,
  sending), read at scrape time: it grows when no worker consumes the
  webhook queue (deploy/README.md);
- `correo_notification_failures_total{cause,kind}`: failed deliveries, by
  cause: `transient` (retried with backoff), `bug` (not retried; the row
  is flagged `needs_attention` for an operator, notifications.delivery) or
  `webhook` (a webhook POST that failed: one try, notifications.webhooks);
- `correo_sweep_lag_seconds{sweep}`: seconds since a sweep last ran
  (`games.models.SweepState`), read at scrape time;
- `correo_timeout_failures_total{title}`: timeouts whose policy raised (a
  bug: the seat is held back an hour and the game flagged, `games.jobs.timeouts`);
- `correo_degraded_total{service,operation}`: operations done without an
  unreachable Redis (`ops.outage`): cache operations served from the
  per-process memory (service `cache`), notifications left in the outbox for
  the sweep (service `handoff` or `broker`, operation the task's name).

The counters of a concern live with it (games.metrics, notifications.metrics);
this module holds the request counters, the outage counter, /metrics itself
and the gauges read at scrape time, which each app adds when it is ready:
from the database with `database_gauges(reader)`, from Redis with
`shared_gauges(reader)`.

Several processes (gunicorn workers, Celery, smtpd) on one machine share
counters when `PROMETHEUS_MULTIPROC_DIR` names an empty directory in all of
their environments (the Procfile, smoke test and systemd units set it);
/metrics then adds them up.  Without it each process reports its own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable

from django.db import DatabaseError
from django.db.models import Count
from django.http import HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from ops.logging import route_of

REQUESTS = Counter("correo_http_requests", "HTTP requests answered", ["method", "route", "status"])
REQUEST_SECONDS = Histogram(
    "correo_http_request_duration_seconds",
    "Time to answer an HTTP request",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
DEGRADED = Counter(
    "correo_degraded",
    "Operations done without an unreachable service (ops.outage)",
    ["service", "operation"],
)

BACKLOG_STATUSES = ("pending", "sending")

# Readers of gauges computed at scrape time, each a function that returns
# metric families; the apps add theirs when they are ready: from the
# database (database_gauges), or from elsewhere (shared_gauges).
_READERS: list[Callable[[], Iterable]] = []
_SHARED_READERS: list[Callable[[], Iterable]] = []


def database_gauges(reader: Callable[[], Iterable]) -> None:
    """Read `reader()`'s gauges from the database at every scrape."""
    if reader not in _READERS:
        _READERS.append(reader)


def shared_gauges(reader: Callable[[], Iterable]) -> None:
    """Read `reader()`'s gauges from a store other than the database (Redis)
    at every scrape, whatever the database's state: the reader answers its
    store's failure itself, by giving nothing."""
    if reader not in _SHARED_READERS:
        _SHARED_READERS.append(reader)


class SharedCollector:
    """The gauges `shared_gauges` registered."""

    def collect(self):
        for reader in _SHARED_READERS:
            yield from reader()


class DatabaseCollector:
    """Gauges computed from the database when /metrics is scraped: all of
    them or, while the database is down, none but the one that says so."""

    def collect(self):
        ok = GaugeMetricFamily(
            "correo_metrics_database_ok", "1 if the database gauges could be read"
        )
        try:
            families = self.read()
        except DatabaseError:
            # The process counters are still worth a scrape while the database is down.
            ok.add_metric([], 0)
            yield ok
            return
        ok.add_metric([], 1)
        yield ok
        yield from families

    def read(self) -> list:
        return [family for reader in _READERS for family in reader()]


def counted(query, field: str, statuses=BACKLOG_STATUSES) -> dict[str, int]:
    """How many rows of `query` have each of `statuses` in `field` (0 for none)."""
    counts = dict.fromkeys(statuses, 0)
    rows = query.filter(**{f"{field}__in": statuses}).values_list(field).annotate(n=Count("id"))
    counts.update(dict(rows.order_by()))
    return counts


def scrape() -> bytes:
    """This process's metrics (or all processes' with PROMETHEUS_MULTIPROC_DIR)
    and the gauges computed at scrape time."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)
    else:
        processes = REGISTRY
    computed = CollectorRegistry()
    computed.register(DatabaseCollector())
    computed.register(SharedCollector())
    return generate_latest(processes) + generate_latest(computed)


def metrics_view(request):
    """GET /metrics in the Prometheus text format (keep it off the public proxy)."""
    return HttpResponse(scrape(), content_type=CONTENT_TYPE_LATEST)


class MetricsMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.path == "/metrics":
            # Answered here, before the Host check: Prometheus scrapes pods by
            # IP address, which ALLOWED_HOSTS cannot list.  Keep it off the proxy.
            return metrics_view(request)
        started = time.perf_counter()
        response = self.get_response(request)
        route = route_of(request)
        REQUESTS.labels(request.method, route, str(response.status_code)).inc()
        REQUEST_SECONDS.labels(request.method, route).observe(time.perf_counter() - started)
        return response


def mark_process_dead(pid: int) -> None:
    """gunicorn child_exit hook: drop a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
