"""Server push: an open game page hears "game N is at seq S" the moment it is.

After each commit (games.hooks.on_committed) the process that wrote the
event (a web process, or a worker: a timeout, a bot, a mail) publishes the
game and its seq: on Redis, on one channel that every web process
subscribes to once and hands on to its own open pages (`Hub`); without
Redis (the embedded default) to this process's own pages.  A message carries
the game and the seq only, never state: each page then fetches its own
view through the readers it always used, so what a viewer may see is still
decided in one place (web.views.push tells a delayed spectator only of
their own head).

Nothing here is needed to play: a publish that fails is logged and counted
(ops.outage) and kept to be sent when Redis is back (`Held`), and the pages
keep their 5-second poll as the fallback whenever their stream is not open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from functools import partial
from urllib.parse import urlparse

import redis
from django.conf import settings
from redis import asyncio as aioredis

from ops import after_response, outage, redis_clients

log = logging.getLogger(__name__)

# A page needs only the newest seq: a listener holds one, the latest.
CLOSED = -1  # told to a listener when its stream must end (Redis went away)
RECONNECT_SECONDS = 2.0


def channel() -> str:
    """One channel per Redis database: pub/sub is server-wide, and two
    deployments (or test lanes) on one server must not hear each other."""
    path = urlparse(settings.REDIS_URL).path.strip("/") or "0"
    return f"correo:moved:{path}"


def publish_committed(game, event) -> None:
    """The hooks.on_committed listener (web.apps): in a request, once its
    answer is written (the mover need not wait for Redis)."""
    after_response.run(partial(publish, game.pk, event.seq))


def publish(game_id: int, seq: int) -> None:
    """Tell every open page of the game where it stands; never raises."""
    if not settings.REDIS_URL:
        hub.deliver_threadsafe(game_id, seq)
        return
    held.add(game_id, seq)
    held.send()


class Held:
    """The newest seq of each game this process could not publish yet.

    A page whose stream is open does not poll, so a publish lost while Redis
    was away (or while the outage breaker left it alone, for
    CORREO_REDIS_RETRY_SECONDS after a failure) would leave it showing an old
    position until the game's next move.  What could not be sent is kept here
    and sent with the next publish that reaches Redis, or by a timer once the
    breaker lets it try again; only the newest seq of a game matters."""

    LIMIT = 10_000  # games; beyond it the oldest are dropped (their pages reload on the next move)

    def __init__(self) -> None:
        self.seqs: dict[int, int] = {}
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None

    def add(self, game_id: int, seq: int) -> None:
        with self.lock:
            self._put(game_id, seq)

    def _put(self, game_id: int, seq: int) -> None:
        """(Under the lock.)  The newer seq, moved to the newest end."""
        self.seqs[game_id] = max(seq, self.seqs.pop(game_id, seq))
        while len(self.seqs) > self.LIMIT:
            del self.seqs[next(iter(self.seqs))]

    def send(self) -> None:
        """Publish everything held, unless Redis is being left alone; what
        fails stays held, and a timer tries again."""
        down = outage.of("push", settings.REDIS_URL)
        with self.lock:
            batch, self.seqs = self.seqs, {}
        if not batch:
            return
        if down.skipping():
            down.skipped("publish")
            self._keep(batch, down)
            return
        try:
            with redis_clients.client(settings.REDIS_URL).pipeline(transaction=False) as pipe:
                for game_id, seq in batch.items():
                    pipe.publish(channel(), f"{game_id} {seq}")
                pipe.execute()
        except redis.RedisError as error:
            down.failed("publish", error, "open pages are told when it is back")
            self._keep(batch, down)
        except Exception:  # a push is never worth a failed request
            log.exception("push of %d game(s) failed", len(batch))
        else:
            down.reached()

    def _keep(self, batch: dict[int, int], down: outage.Outage) -> None:
        with self.lock:
            for game_id, seq in batch.items():
                self._put(game_id, seq)
            pending = self.timer is not None and self.timer.is_alive()
            if pending and self.timer is not threading.current_thread():
                return  # that timer will try; the one running now schedules the next
            delay = max(down.down_until - time.monotonic(), 0.0) + 0.05
            self.timer = threading.Timer(delay, self.send)
            self.timer.daemon = True
            self.timer.start()


held = Held()


class Hub:
    """This process's open streams, by game, fed from one subscription."""

    def __init__(self) -> None:
        self.listeners: dict[int, set[asyncio.Queue]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.reader: asyncio.Task | None = None
        self.healthy = True

    def listen(self, game_id: int) -> asyncio.Queue:
        """A queue that receives the game's seqs (call on the event loop)."""
        self.loop = asyncio.get_running_loop()
        if settings.REDIS_URL and (self.reader is None or self.reader.done()):
            self.reader = self.loop.create_task(self._read())
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)
        self.listeners.setdefault(game_id, set()).add(queue)
        return queue

    def forget(self, game_id: int, queue: asyncio.Queue) -> None:
        found = self.listeners.get(game_id)
        if found is not None:
            found.discard(queue)
            if not found:
                del self.listeners[game_id]

    def count(self) -> int:
        return sum(len(queues) for queues in self.listeners.values())

    def deliver(self, game_id: int, seq: int) -> None:
        for queue in list(self.listeners.get(game_id, ())):
            _put_latest(queue, seq)

    def deliver_threadsafe(self, game_id: int, seq: int) -> None:
        """`deliver` from any thread (a sync view's commit in this process)."""
        loop = self.loop
        if loop is not None and not loop.is_closed() and self.listeners.get(game_id):
            loop.call_soon_threadsafe(self.deliver, game_id, seq)

    def close_all(self) -> None:
        for queues in list(self.listeners.values()):
            for queue in list(queues):
                _put_latest(queue, CLOSED)

    async def _read(self) -> None:
        """Subscribe once for the process; if Redis goes away, every open
        stream is ended (its page falls back to polling and reconnects
        later) and the subscription is tried again."""
        while True:
            client = aioredis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=settings.CORREO_REDIS_TIMEOUT
            )
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(channel())
                    if not self.healthy:
                        # Streams opened while Redis was away were told a
                        # head and may have missed moves published before
                        # this subscription: ended, their pages reconnect
                        # and read where the game stands now.
                        self.close_all()
                    self.healthy = True
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._dispatch(message.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis down, or a connection dropped
                self.healthy = False
                log.warning("push subscription lost: %s", error)
                self.close_all()
            finally:
                await client.aclose()
            if not self.listeners:
                return  # nobody listens: the next listener starts it again
            await asyncio.sleep(RECONNECT_SECONDS)

    def _dispatch(self, data) -> None:
        try:
            game_id, seq = (int(part) for part in bytes(data).decode().split())
        except (TypeError, ValueError):
            return
        self.deliver(game_id, seq)


def _put_latest(queue: asyncio.Queue, seq: int) -> None:
    """Only the newest seq matters: an unread older one is replaced."""
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(seq)


hub = Hub()
