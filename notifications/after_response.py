"""A request's outbox rows are handed to the broker after its response is
written, not before.

The rows are durable once the request's transaction commits; the publish
that hands them to a worker is a round trip to the broker (a few
milliseconds) that the player who moved need not wait for.  So inside a
request the publish waits for the response to be closed, which the WSGI
server does once it has sent the bytes.  A process that dies in between
leaves the rows pending, and the outbox sweep queues them after
NOTIFICATIONS_SWEEP_GRACE: late, never lost, never twice (a row is claimed
before it is sent).  Outside a request (workers, beat, commands) the
publish happens at commit, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from functools import partial

_pending: ContextVar[list[Callable[[], object]] | None] = ContextVar(
    "publish_after_response", default=None
)


def later(publish: Callable[[], object]) -> bool:
    """Keep `publish` for after the current response; False outside a request."""
    pending = _pending.get()
    if pending is None:
        return False
    pending.append(publish)
    return True


class PublishAfterResponseMiddleware:
    """Its closer runs after the access line is written, so the line's
    duration is what the client waited."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        pending: list[Callable[[], object]] = []
        token = _pending.set(pending)
        try:
            response = self.get_response(request)
        finally:
            _pending.reset(token)
        if pending:
            # Django runs a response's closers from close(), which the server
            # calls after writing the body; there is no public hook later
            # than that (request_finished fires there too, but knows no response).
            response._resource_closers.append(partial(_publish_all, pending))
        return response


def _publish_all(pending: list[Callable[[], object]]) -> None:
    for publish in pending:
        publish()  # notifications.tasks.enqueue: never raises, logs a failure
