"""What every page view shares: turning the service's refusals into a message
on a fresh page, never an error page."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from games.engines.base import IllegalAction
from games.errors import Forbidden, NotASeat, NotFound, ServiceError, in_words

T = TypeVar("T")


def attempt(request: HttpRequest, write: Callable[[], T], done: str) -> T | None:
    """Run a service command; its refusal (an illegal move, a stale seq, not
    your turn) becomes an error message, its success `done`."""
    try:
        result = write()
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except (IllegalAction, ServiceError) as exc:
        messages.error(request, in_words(exc))
        return None
    messages.success(request, done)
    return result


def readable(read: Callable[[], T]) -> T:
    """A read that may name a missing or private game: a 404 or 403 page."""
    try:
        return read()
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except (Forbidden, NotASeat) as exc:
        raise PermissionDenied(exc.message) from exc


def int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
