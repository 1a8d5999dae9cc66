"""GET /metrics: requests, moves applied, replay time, backlog and sweep lag."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from accounts import tokens
from games.models import SweepState
from games.services.creation import do_create_game
from games.stream import store
from games.stream.derived import engine_for
from tests.support.play import random_move


def scrape(client) -> dict:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_requests_are_counted_by_route(client, db):
    before = scrape(client)
    client.get("/api/ping/")
    client.get("/api/ping/")
    after = scrape(client)
    labels = {"method": "GET", "route": "api/ping/", "status": "200"}
    assert (
        value(after, "correo_http_requests_total", **labels)
        - value(before, "correo_http_requests_total", **labels)
        == 2
    )
    count = "correo_http_request_duration_seconds_count"
    assert value(after, count, method="GET", route="api/ping/") >= 2


@pytest.mark.django_db(transaction=True)
def test_moves_applied_are_counted_once_committed(client, alice, bob):
    import random

    game = do_create_game(title="duel", players=[alice, bob], seed=3)
    labels = {"title": "duel", "source": "api", "kind": "action"}
    before = value(scrape(client), "correo_moves_applied_total", **labels)
    rng = random.Random(1)
    for _ in range(3):
        random_move(game, rng)
    after = value(scrape(client), "correo_moves_applied_total", **labels)
    assert after - before == 3


def test_a_replay_is_timed(client, db, alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], seed=4)
    before = value(scrape(client), "correo_replay_duration_seconds_count", title="duel")
    store.load(game, engine_for(game), use_snapshots=False)
    after = value(scrape(client), "correo_replay_duration_seconds_count", title="duel")
    assert after == before + 1


def test_backlog_and_sweep_lag_are_read_from_the_database(client, db, alice, bob, settings):
    from notifications.models import Notification

    settings.CELERY_TASK_ALWAYS_EAGER = False
    Notification.objects.create(key="k1", kind="your_turn", to_email="a@example.org")
    Notification.objects.create(key="k2", kind="your_turn", to_email="b@example.org")
    Notification.objects.create(
        key="k3", kind="your_turn", to_email="c@example.org", status="sent"
    )
    SweepState.objects.update_or_create(
        name="deadlines",
        defaults={"last_run": timezone.now() - datetime.timedelta(seconds=90)},
    )
    samples = scrape(client)
    assert value(samples, "correo_notification_backlog", status="pending") == 2
    assert value(samples, "correo_notification_backlog", status="sending") == 0
    lag = value(samples, "correo_sweep_lag_seconds", sweep="deadlines")
    assert 89 <= lag < 120


def test_the_webhook_backlog_is_read_from_the_database(client, db):
    from notifications.models import Notification

    for key, status in (("k1", "pending"), ("k2", "pending"), ("k3", "sending"), ("k4", "sent")):
        Notification.objects.create(key=key, kind="your_turn", to_email="", status="skipped",
                                    webhook_status=status)  # fmt: skip
    samples = scrape(client)
    assert value(samples, "correo_webhook_backlog", status="pending") == 2
    assert value(samples, "correo_webhook_backlog", status="sending") == 1
    assert value(samples, "correo_notification_backlog", status="pending") == 0


def test_metrics_need_no_token_but_a_game_id_never_becomes_a_label(client, db, alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], seed=5)
    _, key = tokens.issue(alice)
    client.get(f"/api/games/{game.pk}/", HTTP_AUTHORIZATION=f"Token {key}")
    text = client.get("/metrics").content.decode()
    assert 'route="api/games/<int:pk>/"' in text
    assert f"/api/games/{game.pk}/" not in text


def test_a_scrape_by_ip_address_is_answered_whatever_allowed_hosts_says(client, db):
    response = client.get("/metrics", HTTP_HOST="10.1.2.3:8000")
    assert response.status_code == 200
    assert b"correo_notification_backlog" in response.content
    assert client.get("/api/ping/", HTTP_HOST="10.1.2.3:8000").status_code == 400


def test_a_database_outage_still_leaves_the_process_counters(client, db, monkeypatch):
    from django.db import OperationalError

    from ops import metrics

    def down(self):
        raise OperationalError("connection refused")

    client.get("/api/ping/")
    monkeypatch.setattr(metrics.DatabaseCollector, "read", down)
    samples = scrape(client)
    assert value(samples, "correo_metrics_database_ok") == 0
    assert not any(name == "correo_notification_backlog" for name, _ in samples)
    assert any(name == "correo_http_requests_total" for name, _ in samples)


def test_the_database_gauges_say_they_were_read(client, db):
    assert value(scrape(client), "correo_metrics_database_ok") == 1
