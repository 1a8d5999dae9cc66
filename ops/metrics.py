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
  the sweep (service `broker`, operation the task's name).

Several processes (gunicorn workers, Celery, smtpd) on one machine share
counters when `PROMETHEUS_MULTIPROC_DIR` names an empty directory in all of
their environments (the Procfile, smoke test and systemd units set it);
/metrics then adds them up.  Without it each process reports its own.
"""

from __future__ import annotations

import os
import time

from django.db import DatabaseError
from django.db.models import Count
from django.http import HttpResponse
from django.utils import timezone
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
MOVES = Counter(
    "correo_moves_applied", "Moves appended to game streams", ["title", "source", "kind"]
)
REPLAY_SECONDS = Histogram(
    "correo_replay_duration_seconds",
    "Time to rebuild a game state from its snapshot and events",
    ["title"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
NOTIFICATION_FAILURES = Counter(
    "correo_notification_failures",
    "Failed deliveries: transient (retried) or bug (flagged for an operator)",
    ["cause", "kind"],
)
TIMEOUT_FAILURES = Counter(
    "correo_timeout_failures",
    "Timeouts that raised instead of applying (held back and flagged)",
    ["title"],
)
DEGRADED = Counter(
    "correo_degraded",
    "Operations done without an unreachable service (ops.outage)",
    ["service", "operation"],
)

MOVE_KINDS = ("action", "timeout")
BACKLOG_STATUSES = ("pending", "sending")


class DatabaseCollector:
    """Gauges computed from the database when /metrics is scraped."""

    def collect(self):
        ok = GaugeMetricFamily(
            "correo_metrics_database_ok", "1 if the database gauges could be read"
        )
        try:
            backlog, lag = self.read()
        except DatabaseError:
            # The process counters are still worth a scrape while the database is down.
            ok.add_metric([], 0)
            yield ok
            return
        ok.add_metric([], 1)
        yield ok
        yield from backlog
        yield lag

    def read(self):
        from games.models import SweepState
        from notifications.models import Notification

        backlog = GaugeMetricFamily(
            "correo_notification_backlog", "Outbox rows not yet delivered", labels=["status"]
        )
        counts = dict.fromkeys(BACKLOG_STATUSES, 0)
        rows = (
            Notification.objects.filter(status__in=BACKLOG_STATUSES)
            .values_list("status")
            .annotate(n=Count("id"))
            .order_by()
        )
        counts.update(dict(rows))
        for status, count in sorted(counts.items()):
            backlog.add_metric([status], count)
        hooks = GaugeMetricFamily(
            "correo_webhook_backlog", "Webhook notices not yet posted", labels=["status"]
        )
        counts = dict.fromkeys(BACKLOG_STATUSES, 0)
        rows = (
            Notification.objects.filter(webhook_status__in=BACKLOG_STATUSES)
            .values_list("webhook_status")
            .annotate(n=Count("id"))
            .order_by()
        )
        counts.update(dict(rows))
        for status, count in sorted(counts.items()):
            hooks.add_metric([status], count)

        lag = GaugeMetricFamily(
            "correo_sweep_lag_seconds", "Seconds since the sweep last ran", labels=["sweep"]
        )
        now = timezone.now()
        for name, last_run in SweepState.objects.values_list("name", "last_run"):
            lag.add_metric([name], max(0.0, (now - last_run).total_seconds()))
        return (backlog, hooks), lag


def scrape() -> bytes:
    """This process's metrics (or all processes' with PROMETHEUS_MULTIPROC_DIR)
    and the database gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)
    else:
        processes = REGISTRY
    database = CollectorRegistry()
    database.register(DatabaseCollector())
    return generate_latest(processes) + generate_latest(database)


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


def count_move(game, event) -> None:
    """games.hooks.on_committed listener."""
    if event.kind in MOVE_KINDS:
        MOVES.labels(game.title, event.source, event.kind).inc()


def time_replay(title: str, seconds: float) -> None:
    """games.hooks.on_replay listener."""
    REPLAY_SECONDS.labels(title).observe(seconds)


def count_timeout_failure(game, seat: int, error: Exception) -> None:
    """games.hooks.on_timeout_failure listener."""
    TIMEOUT_FAILURES.labels(game.title).inc()


def install() -> None:
    """Called once from ops.apps.OpsConfig.ready()."""
    from games import hooks

    hooks.on_committed(count_move)
    hooks.on_replay(time_replay)
    hooks.on_timeout_failure(count_timeout_failure)


def mark_process_dead(pid: int) -> None:
    """gunicorn child_exit hook: drop a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
