"""JSON log lines carry the request id and the game id."""

from __future__ import annotations

import json
import logging

import pytest

from accounts import tokens
from games.services.creation import do_create_game
from ops import logging as correo_logging


@pytest.fixture
def captured():
    """The records the console handler would format, formatted as JSON."""
    lines: list[dict] = []
    formatter = correo_logging.JsonFormatter()

    class Collect(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(formatter.format(record)))

    correo_logging.clear_context()  # whatever an earlier test's request left behind
    handler = Collect()
    handler.addFilter(correo_logging.ContextFilter())
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.INFO)  # other tests may have raised it
    root.addHandler(handler)
    yield lines
    root.removeHandler(handler)
    root.setLevel(level)


def test_a_record_outside_a_request_has_null_ids(captured):
    logging.getLogger("correo.test").warning("hello %s", "world", extra={"answer": 42})
    (line,) = [x for x in captured if x["logger"] == "correo.test"]
    assert line["message"] == "hello world"
    assert line["level"] == "WARNING"
    assert line["request_id"] is None
    assert line["game_id"] is None
    assert line["answer"] == 42


def test_a_refused_request_is_logged_with_its_ids_after_the_middleware(client, db, captured):
    client.get("/api/games/5/", HTTP_X_REQUEST_ID="req-401")
    (refusal,) = [x for x in captured if x["logger"] == "django.request"]
    assert refusal["request_id"] == "req-401"
    assert refusal["game_id"] == 5


def test_the_access_line_names_request_and_game(client, db, alice, bob, captured):
    game = do_create_game(title="duel", players=[alice, bob], seed=1)
    _, key = tokens.issue(alice)
    response = client.get(
        f"/api/games/{game.pk}/",
        HTTP_AUTHORIZATION=f"Token {key}",
        HTTP_X_REQUEST_ID="req-123",
    )
    assert response.status_code == 200
    assert response["X-Request-ID"] == "req-123"
    (access,) = [x for x in captured if x["logger"] == "correo.access"]
    assert access["request_id"] == "req-123"
    assert access["game_id"] == game.pk
    assert access["status"] == 200
    assert access["route"] == "api/games/<int:pk>/"
    assert access["duration_ms"] >= 0


def test_every_line_of_a_request_shares_its_generated_id(client, db, captured):
    response = client.get("/api/ping/", HTTP_X_REQUEST_ID="not a sane id!")
    request_id = response["X-Request-ID"]
    assert request_id != "not a sane id!"
    assert len(request_id) == 32
    lines = [x for x in captured if x["request_id"] == request_id]
    assert lines
    assert all(x["game_id"] is None for x in lines)
    # nothing leaks into the next line after the request
    logging.getLogger("correo.test").info("after")
    assert captured[-1]["request_id"] is None


def test_a_failing_view_is_logged_with_its_ids(client, db, alice, captured, monkeypatch):
    from games.api import views

    _, key = tokens.issue(alice)

    def explode(self, request, pk):
        raise RuntimeError("boom")

    monkeypatch.setattr(views.GameDetailView, "get", explode)
    client.raise_request_exception = False
    response = client.get(
        "/api/games/77/", HTTP_AUTHORIZATION=f"Token {key}", HTTP_X_REQUEST_ID="req-boom"
    )
    assert response.status_code == 500
    errors = [x for x in captured if x["level"] == "ERROR"]
    assert errors
    assert all(x["request_id"] == "req-boom" and x["game_id"] == 77 for x in errors)
    assert any("boom" in x.get("exc_info", "") for x in errors)


def test_celery_tasks_log_under_their_task_id(captured):
    correo_logging.bind_task_context(task_id="task-9")
    try:
        logging.getLogger("correo.test").info("in a task")
    finally:
        correo_logging.clear_context()
    assert captured[-1]["request_id"] == "task-9"


def test_settings_install_the_json_formatter():
    from django.conf import settings

    handler = settings.LOGGING["handlers"]["console"]
    assert handler["filters"] == ["context"]
    assert settings.LOGGING["formatters"]["main"]["()"] == "ops.logging.JsonFormatter"
    assert settings.MIDDLEWARE[0] == "ops.logging.RequestContextMiddleware"
