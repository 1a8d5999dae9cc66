"""Work a request hands on to others, done after its response is written.

Two things a move does after its commit only tell others about it: the
hand-off of its outbox rows to the workers (notifications.handoff) and
the push to open game pages (web.push).  Each is a round trip to Redis
that the player who moved need not wait for.  So inside a request they wait
for the response to be closed, which the WSGI server does once it has sent
the bytes.  A process that dies in between loses neither: the outbox rows
are durable and the outbox sweep queues them after
NOTIFICATIONS_SWEEP_GRACE (late, never lost, never twice: a row is claimed
before it is sent), and a page whose push never came finds the move by its
poll.  Outside a request (workers, beat, commands) the work is done at
once, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from functools import partial

log = logging.getLogger(__name__)

_pending: ContextVar[list[Callable[[], object]] | None] = ContextVar(
    "publish_after_response", default=None
)


def run(work: Callable[[], object]) -> None:
    """Do `work` once the current response is written; at once outside a
    request.  `work` must not raise."""
    pending = _pending.get()
    if pending is None:
        work()
    else:
        pending.append(work)


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
        try:
            publish()  # each logs its own failures; this is a last guard
        except Exception:
            log.exception("work after the response failed")
