"""Structured logs: one JSON object per line, each with a request id and a game id.

`RequestContextMiddleware` binds the request id (the caller's `X-Request-ID`
when it looks sane, else a fresh one, echoed back in the response) and the
game id (the `pk` of a `/api/games/<pk>/...` route) to context variables for
the duration of a request, and writes one access line when it ends.  Celery
tasks get their task id as request id (`bind_task_context`).
`ContextFilter` copies both onto every record; `JsonFormatter` writes them.
Set `LOG_FORMAT=text` for plain lines while developing.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import time
import uuid
from contextvars import ContextVar

request_id_var: ContextVar[str | None] = ContextVar("correo_request_id", default=None)
game_id_var: ContextVar[int | None] = ContextVar("correo_game_id", default=None)

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
# Attributes every LogRecord has; anything else was passed with `extra=`.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}

access_logger = logging.getLogger("correo.access")


class ContextFilter(logging.Filter):
    """Puts `request_id` and `game_id` on every record (None outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get()
        if getattr(record, "game_id", None) is None:
            record.game_id = game_id_var.get()
        return True


class JsonFormatter(logging.Formatter):
    """One compact JSON object per line; `extra=` fields are kept."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "game_id": getattr(record, "game_id", None),
            "process": record.process,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s [req=%(request_id)s game=%(game_id)s] %(message)s"
        )


def logging_config(level: str = "INFO", fmt: str = "json") -> dict:
    """The LOGGING dict for settings.py."""
    formatter = "ops.logging.JsonFormatter" if fmt == "json" else "ops.logging.TextFormatter"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "ops.logging.ContextFilter"}},
        "formatters": {"main": {"()": formatter}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["context"],
                "formatter": "main",
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Our access line replaces runserver's own.
            "django.server": {"level": "WARNING"},
        },
    }


def new_request_id(offered: str | None = None) -> str:
    if offered and _SANE_REQUEST_ID.match(offered):
        return offered
    return uuid.uuid4().hex


def route_of(request) -> str:
    match = getattr(request, "resolver_match", None)
    return match.route if match is not None else "unmatched"


class RequestContextMiddleware:
    """Binds request id and game id for the request; one access log line at the end."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        # Not reset on the way out: Django logs 4xx/5xx after the middleware
        # returns; `clear_context` runs on request_finished.
        request_id_var.set(new_request_id(request.headers.get(REQUEST_ID_HEADER)))
        game_id_var.set(None)
        started = time.perf_counter()
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id_var.get()
        access_logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "route": route_of(request),
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            },
        )
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        pk = view_kwargs.get("pk")
        if pk is not None and request.path.startswith("/api/games/"):
            game_id_var.set(int(pk))


def clear_context(*args, **kwargs) -> None:
    """request_finished (and celery task_postrun): nothing leaks into the next line."""
    request_id_var.set(None)
    game_id_var.set(None)


def bind_task_context(task_id=None, task=None, *args, **kwargs) -> None:
    """celery task_prerun: the task id is the request id of everything it logs."""
    request_id_var.set(task_id)
    game_id_var.set(None)
