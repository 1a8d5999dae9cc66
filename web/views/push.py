"""The game page's server push: a stream of server-sent events saying only
where the game stands for this viewer (web.push publishes, this listens).

Served by the push process (Procfile `push`: gunicorn with uvicorn's ASGI
workers), where an open stream is a coroutine waiting on a queue: no CPU
while nobody moves.  Under WSGI (the web process, `make run`) it answers
204 at once, which tells the page's EventSource not to come back: the page
keeps polling.
"""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from games.errors import Forbidden, NotFound
from games.selectors import viewers
from notifications import pacing
from web import push


async def stream(request: HttpRequest, pk: int) -> HttpResponse:
    if not isinstance(request, ASGIRequest) or not settings.CORREO_PUSH:
        return HttpResponse(status=204)
    user = await request.auser()
    # A stream lasts as long as its page: it keeps no database connection
    # (the session's was opened in this request's own thread), and its reads
    # go through the event loop's few shared threads, so a thousand pages
    # opening at once never ask the database for a thousand connections.
    await sync_to_async(_close_connection)()
    try:
        head, delayed, seated = await _read_head(pk, user)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from exc
    response = StreamingHttpResponse(
        _events(pk, user, head, delayed, seated), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx hands each event on at once
    return response


def _close_connection() -> None:
    connection.close()  # this thread's: looked up in it, not in the loop's


async def _read_head(pk: int, user) -> tuple[int, bool, bool]:
    return await sync_to_async(_head, thread_sensitive=False)(pk, user)


def _head(pk: int, user) -> tuple[int, bool, bool]:
    """The seq this viewer sees now, whether they see the game late, and
    whether they hold a seat (and so are "at the table" while it is open).

    Run in one of the event loop's shared threads; its connection is closed
    at once (one is made again for the few events that need a read)."""
    try:
        viewer = viewers.viewer_of(viewers.game(pk), user)
        return viewer.head, viewer.delayed, viewer.seat is not None
    finally:
        connection.close()


async def _events(pk: int, user, head: int, delayed: bool, seated: bool):
    queue = push.hub.listen(pk)
    try:
        await _at_the_table(pk, user, seated)
        yield f"retry: {settings.CORREO_PUSH_RETRY_MS}\n\n"
        yield _said(pk, head)
        while True:
            await _at_the_table(pk, user, seated)
            try:
                seq = await asyncio.wait_for(queue.get(), settings.CORREO_PUSH_HEARTBEAT_SECONDS)
            except TimeoutError:
                yield ": still here\n\n"  # keeps proxies from closing an idle stream
                continue
            if seq == push.CLOSED:
                return
            if delayed:
                # Told only of their own head, which moves with moves alone:
                # the published seq would tell how far the game has gone.
                seq, delayed, seated = await _read_head(pk, user)
            if seq > head:
                head = seq
                yield _said(pk, head)
    finally:
        push.hub.forget(pk, queue)


async def _at_the_table(pk: int, user, seated: bool) -> None:
    """The page no longer polls while its stream is open: the stream says
    that its player is at the table (notifications.pacing), at the start
    and with every event or heartbeat."""
    if seated:
        await sync_to_async(pacing.seen, thread_sensitive=False)(pk, user.pk)


def _said(pk: int, seq: int) -> str:
    return f"data: {json.dumps({'game': pk, 'seq': seq})}\n\n"
