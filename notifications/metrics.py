"""The notifications' Prometheus counters and gauges (ops.metrics serves them).

- `correo_notification_backlog{status}`: outbox rows still to deliver
  (pending, sending), read from the database at scrape time;
- `correo_webhook_backlog{status}`: webhook notices still to POST (pending,
  sending), read at scrape time: it grows when no worker consumes the
  webhook queue (deploy/README.md);
- `correo_handoff_waiting`: mail a process handed off to the workers and
  no worker has taken yet (the hand-off list's length, read from Redis at
  scrape time, absent while Redis cannot say): near zero while workers
  drain it, growing when none does (notifications.handoff);
- `correo_notification_failures_total{cause,kind}`: failed deliveries, by
  cause: `transient` (retried with backoff), `bug` (not retried; the row
  is flagged `needs_attention` for an operator, notifications.delivery) or
  `webhook` (a webhook POST that failed: one try, notifications.webhooks).
"""

from __future__ import annotations

from prometheus_client import Counter
from prometheus_client.core import GaugeMetricFamily

from ops import metrics

NOTIFICATION_FAILURES = Counter(
    "correo_notification_failures",
    "Failed deliveries: transient (retried) or bug (flagged for an operator)",
    ["cause", "kind"],
)


def backlogs() -> list:
    from notifications.models import Notification

    families = []
    for name, field, help_text in (
        ("correo_notification_backlog", "status", "Outbox rows not yet delivered"),
        ("correo_webhook_backlog", "webhook_status", "Webhook notices not yet posted"),
    ):
        family = GaugeMetricFamily(name, help_text, labels=["status"])
        for status, count in sorted(metrics.counted(Notification.objects, field).items()):
            family.add_metric([status], count)
        families.append(family)
    return families


def handoff_waiting() -> list:
    from notifications import handoff

    count = handoff.waiting()
    if count is None:
        return []
    family = GaugeMetricFamily(
        "correo_handoff_waiting", "Mail handed off to the workers and not yet taken by one"
    )
    family.add_metric([], count)
    return [family]


def install() -> None:
    """Called once from notifications.apps.NotificationsConfig.ready()."""
    metrics.database_gauges(backlogs)
    metrics.shared_gauges(handoff_waiting)
