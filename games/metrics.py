"""The games' Prometheus counters and gauges (ops.metrics serves them).

- `correo_moves_applied_total{title,source,kind}`: actions and timeouts,
  counted once the event is durable (a `games.hooks.on_committed` listener);
- `correo_replay_duration_seconds{title}`: time to rebuild a state from the
  store (snapshot + live events; memo hits are not replays);
- `correo_timeout_failures_total{title}`: timeouts whose policy raised (a
  bug: the seat is held back an hour and the game flagged, games.jobs.timeouts);
- `correo_sweep_lag_seconds{sweep}`: seconds since a sweep last ran
  (`games.models.SweepState`), read at scrape time.
"""

from __future__ import annotations

from django.utils import timezone
from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily

from games import hooks

MOVES = Counter(
    "correo_moves_applied", "Moves appended to game streams", ["title", "source", "kind"]
)
REPLAY_SECONDS = Histogram(
    "correo_replay_duration_seconds",
    "Time to rebuild a game state from its snapshot and events",
    ["title"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
TIMEOUT_FAILURES = Counter(
    "correo_timeout_failures",
    "Timeouts that raised instead of applying (held back and flagged)",
    ["title"],
)

MOVE_KINDS = ("action", "timeout")


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


def sweep_lag() -> list:
    from games.models import SweepState

    lag = GaugeMetricFamily(
        "correo_sweep_lag_seconds", "Seconds since the sweep last ran", labels=["sweep"]
    )
    now = timezone.now()
    for name, last_run in SweepState.objects.values_list("name", "last_run"):
        lag.add_metric([name], max(0.0, (now - last_run).total_seconds()))
    return [lag]


def install() -> None:
    """Called once from games.apps.GamesConfig.ready()."""
    from ops import metrics

    hooks.on_committed(count_move)
    hooks.on_replay(time_replay)
    hooks.on_timeout_failure(count_timeout_failure)
    metrics.database_gauges(sweep_lag)
