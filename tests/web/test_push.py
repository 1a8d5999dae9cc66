"""Server push: the stream says only where the game stands for its viewer,
the moment an event commits; a spectator who sees the game late hears only
of their own head; under WSGI the stream answers 204 and the page polls."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections
from django.test import AsyncClient

from games.models import Game
from games.services.creation import do_create_game
from games.services.talk import check_send_message
from tests.support.play import random_move
from web import push


def events_of(chunks: list[str]) -> list[dict]:
    return [json.loads(c[len("data: ") :]) for c in chunks if c.startswith("data: ")]


async def _read(iterator, count: int, timeout: float = 5.0) -> list[str]:
    got = []
    while len(got) < count:
        chunk = await asyncio.wait_for(anext(iterator), timeout)
        got.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
    return got


def run_apart(scenario):
    """Run the async `scenario` to its end from a thread of its own.

    A browser test earlier on this worker leaves Playwright's loop running in
    the main thread, where async_to_sync refuses to start; a fresh thread has
    no loop, whichever tests ran before.  Its connections close with it, so
    none outlives the test database."""

    def run():
        try:
            return async_to_sync(scenario)()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def listen_while(user, game, act, *, expect: int, settle: float = 0.0) -> list[dict]:
    """Open `user`'s stream of `game`, read its opening, run `act` (sync,
    committing for real), and return the events read after it."""

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(user)
        response = await client.get(f"/games/{game.pk}/stream/")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        chunks = aiter(response.streaming_content)
        opening = await _read(chunks, 2)
        await sync_to_async(act)()
        later = []
        if expect:
            later = await _read(chunks, expect)
        if settle:
            with contextlib.suppress(TimeoutError):
                later += await _read(chunks, 1, timeout=settle)
        # The view's reads ran in a thread of their own: its connection goes too.
        await sync_to_async(connections.close_all)()
        return events_of(opening), events_of(later)

    return run_apart(scenario)


@pytest.fixture(autouse=True)
def in_process(settings):
    """The embedded default's in-process hub (no Redis); the Redis path has
    its own test below."""
    settings.REDIS_URL = ""
    settings.CORREO_PUSH = True


@pytest.mark.django_db(transaction=True)
def test_a_move_is_pushed_to_an_open_page_as_the_game_and_its_seq(alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], seed=3)
    opening, later = listen_while(bob, game, lambda: random_move(game, random.Random(1)),
                                  expect=1)  # fmt: skip
    assert opening == [{"game": game.pk, "seq": 1}]
    assert later == [{"game": game.pk, "seq": 2}]


@pytest.mark.django_db(transaction=True)
def test_a_delayed_spectator_hears_only_of_their_own_head(alice, bob, charlie):
    game = do_create_game(title="duel", players=[alice, bob], seed=3, spectator_delay=2)
    rng = random.Random(1)
    random_move(game, rng)
    game.refresh_from_db()
    before = game.spectator_seq

    def talk_and_one_move():
        check_send_message(game, alice, to="table", text="hi", source="api")
        random_move(Game.objects.get(pk=game.pk), rng)

    opening, later = listen_while(charlie, game, talk_and_one_move, expect=0, settle=1.0)
    assert opening == [{"game": game.pk, "seq": before}]
    game.refresh_from_db()
    # Their head did not move (two moves behind), so they heard nothing, not
    # even that something was said.
    assert game.spectator_seq == before and later == []


@pytest.mark.django_db(transaction=True)
def test_a_stranger_to_a_private_game_gets_no_stream(alice, bob, eve):
    game = do_create_game(title="duel", players=[alice, bob], public=False)

    async def ask():
        client = AsyncClient()
        await client.aforce_login(eve)
        return (await client.get(f"/games/{game.pk}/stream/")).status_code

    assert run_apart(ask) == 403


def test_under_wsgi_the_stream_answers_204_and_the_page_polls(client, alice, bob, db):
    game = do_create_game(title="duel", players=[alice, bob])
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/stream/").status_code == 204
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'data-stream="/games/{game.pk}/stream/"' in page
    assert 'hx-trigger="every 5s, correo:moved"' in page


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_through_redis_a_commit_elsewhere_reaches_the_page(alice, bob, settings):
    from django.conf import settings as live

    settings.REDIS_URL = live.CACHES["default"]["LOCATION"]
    game = do_create_game(title="duel", players=[alice, bob], seed=3)

    def elsewhere():
        # A worker's commit: published on Redis, heard by this process's hub.
        time.sleep(0.3)  # the hub's subscription is made as the stream opens
        random_move(game, random.Random(1))

    _, later = listen_while(bob, game, elsewhere, expect=1)
    assert later == [{"game": game.pk, "seq": 2}]


@pytest.mark.django_db(transaction=True)
def test_an_open_stream_says_its_player_is_at_the_table(alice, bob, charlie, settings):
    from notifications import pacing

    settings.CORREO_PRESENCE_SECONDS = 180
    game = do_create_game(title="duel", players=[alice, bob], seed=3)
    listen_while(alice, game, lambda: None, expect=0)
    listen_while(charlie, game, lambda: None, expect=0)
    assert pacing.last_seen(game.pk, alice.pk) is not None
    assert pacing.last_seen(game.pk, charlie.pk) is None


def _heard(pubsub, seconds: float) -> list[str]:
    got, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        message = pubsub.get_message(timeout=0.05)
        if message and message["type"] == "message":
            got.append(message["data"].decode())
    return got


@pytest.fixture
def redis_lanes(settings, monkeypatch):
    """The live Redis lane and an address in the same database where nothing
    listens (a refused connection, as when Redis is down)."""
    from django.conf import settings as live

    from ops import outage

    url = live.CACHES["default"]["LOCATION"]
    database = url.rsplit("/", 1)[1]
    outage.forget_all()  # an earlier test's failure must not keep the breaker open
    monkeypatch.setattr(push, "held", push.Held())  # nor its seqs and timer linger
    yield url, f"redis://127.0.0.1:1/{database}"
    outage.forget_all()


@pytest.fixture
def listener(redis_lanes, settings):
    """A subscriber of the push channel on the live Redis (the channel is
    named after the database, so REDIS_URL names the live one meanwhile)."""
    live, _ = redis_lanes
    settings.REDIS_URL = live
    client = redis.Redis.from_url(live)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(push.channel())
    yield pubsub
    pubsub.close()
    client.close()


@pytest.mark.redis
def test_a_push_that_could_not_be_published_is_sent_when_redis_is_back(
    redis_lanes, listener, settings
):
    """A page with its stream open does not poll: a move whose publish found
    Redis away must still reach it once Redis answers, by a timer when no
    other move comes (the cluster test saw pages stuck on an old position)."""
    live, dead = redis_lanes
    settings.CORREO_REDIS_RETRY_SECONDS = 0.3
    settings.REDIS_URL = dead
    push.publish(7001, 5)
    push.publish(7001, 6)  # only the newest seq of a game is kept
    assert push.held.seqs == {7001: 6}
    settings.REDIS_URL = live  # Redis is back at the address the timer tries
    assert _heard(listener, 1.5) == ["7001 6"]
    assert push.held.seqs == {}


@pytest.mark.redis
def test_the_next_publish_that_reaches_redis_sends_what_was_held(redis_lanes, listener, settings):
    live, dead = redis_lanes
    settings.CORREO_REDIS_RETRY_SECONDS = 60  # no timer within the test
    settings.REDIS_URL = dead
    push.publish(7002, 3)
    push.publish(7003, 9)  # the breaker is open: skipped, and held too
    settings.REDIS_URL = live
    push.publish(7004, 1)
    assert sorted(_heard(listener, 0.5)) == ["7002 3", "7003 9", "7004 1"]
    assert push.held.seqs == {}


def test_what_is_held_is_bounded(monkeypatch):
    monkeypatch.setattr(push.Held, "LIMIT", 3)
    kept = push.Held()
    for game_id in range(5):
        kept.add(game_id, 1)
    assert list(kept.seqs) == [2, 3, 4]


@pytest.mark.redis
def test_streams_opened_while_redis_was_away_are_ended_once_it_is_back(redis_lanes, settings):
    """They were told a head when they opened, and moves published before
    the subscription came back never reached them: ended, their pages
    reconnect and read the game as it stands."""
    live, dead = redis_lanes
    settings.REDIS_URL = dead
    hub = push.Hub()

    async def scenario():
        hub.listen(7005)  # opened before: ended when the subscription was lost
        await asyncio.sleep(0.3)  # the first subscription is refused
        assert not hub.healthy
        queue = hub.listen(7005)  # opened while Redis is away
        settings.REDIS_URL = live
        try:
            return await asyncio.wait_for(queue.get(), push.RECONNECT_SECONDS + 3)
        finally:
            hub.reader.cancel()

    assert run_apart(scenario) == push.CLOSED


@pytest.mark.redis
def test_a_retry_that_finds_redis_still_away_tries_again(redis_lanes, listener, settings):
    live, dead = redis_lanes
    settings.CORREO_REDIS_RETRY_SECONDS = 0.2
    settings.REDIS_URL = dead
    push.publish(7006, 4)
    assert _heard(listener, 0.6) == []  # the timer's first tries found it away too
    settings.REDIS_URL = live
    assert _heard(listener, 1.5) == ["7006 4"]
