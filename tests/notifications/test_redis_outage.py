"""Redis down takes nothing down: the API as deployed (gunicorn) goes on
serving moves and reads while its Redis (cache and broker) is away or hangs,
says so in /healthz, its log and its metrics, and once Redis is back every
notification written meanwhile goes out exactly once.

The web process reaches Redis through a door the test shuts, jams and opens
(tests/support/door.py); the Celery worker and this process keep their own
connection, as a worker on another machine would.
"""

from __future__ import annotations

import re
import time

import pytest

from accounts import tokens
from notifications import tasks
from notifications.models import Notification
from tests.support.consent import consenting
from tests.support.door import redis_door, through
from tests.support.server import web_server
from tests.support.waiting import wait_until

# slow: waits out Redis timeouts with real workers.
pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]


@pytest.fixture
def door():
    door = redis_door()
    yield door
    door.shut()


def token(user) -> str:
    return tokens.issue(user)[1]


def metric(text: str, name: str, **labels) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    match = re.search(rf"^{name}\{{{re.escape(wanted)}\}} (\S+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def outage_warnings(web) -> list[str]:
    return [
        line["message"]
        for line in web.log_lines()
        if line.get("logger") == "ops.outage" and line.get("level") == "WARNING"
    ]


def statuses() -> dict[str, int]:
    counts: dict[str, int] = {}
    for status in Notification.objects.values_list("status", flat=True):
        counts[status] = counts.get(status, 0) + 1
    return counts


def test_play_goes_on_without_redis_and_every_mail_goes_out_once_it_is_back(
    worker, sink, door, alice, bob, tmp_path, settings
):
    keys = {"alice": token(alice), "bob": token(bob)}
    consenting(alice, bob)
    consenting(bob, alice)
    door.open()
    with web_server(
        tmp_path, REDIS_URL=through(door), NOTIFICATIONS_QUEUE=settings.NOTIFICATIONS_QUEUE,
        CORREO_REDIS_RETRY_SECONDS="1",
    ) as web:  # fmt: skip

        def ok(method, path, who, body=None, status=200):
            answer = web.call(method, path, keys[who], body)
            assert answer.status == status, (method, path, answer.status, answer.body)
            assert answer.seconds < 3, (method, path, answer.seconds)
            return answer.body

        def play(game_id: int, who: str, seq: int, text: str) -> int:
            return ok("POST", f"/api/games/{game_id}/actions/", who,
                      {"seq": seq, "text": text}, 201)["seq"]  # fmt: skip

        def card(game_id: int, who: str) -> int:
            return ok("GET", f"/api/games/{game_id}/", who)["view"]["hand"][0]

        # Redis is there: the web process has its connections to it.
        new = {"title": "duel", "players": ["alice", "bob"], "options": {"rounds": 2}}
        first = ok("POST", "/api/games/", "alice", new, 201)["id"]
        wait_until(lambda: statuses() == {"sent": 2})

        door.shut()  # Redis is gone, for the web process
        ok("GET", "/api/games/", "alice")
        seq = play(first, "alice", 1, f"commit {card(first, 'alice')}")
        seq = play(first, "bob", seq, f"commit {card(first, 'bob')}")  # alice draws next
        ok("GET", f"/api/games/{first}/events/", "bob")
        seq = play(first, "alice", seq, "pass")  # bob draws next
        second = ok("POST", "/api/games/", "bob", new, 201)["id"]
        ok("GET", f"/api/games/{second}/actions/", "bob")
        ok("GET", "/api/games/?mine=1", "bob")

        health = web.call("GET", "/healthz")
        assert health.status == 200, health.body
        assert health.body["status"] == "degraded" and health.body["ok"] is False
        assert health.body["database"]["ok"] is True
        assert health.body["broker"]["ok"] is False and health.body["cache"]["ok"] is False
        counters = web.text("/metrics")
        # the throttles counted their windows in this process's memory
        assert metric(counters, "correo_degraded_total", service="cache", operation="count") > 0
        # the mail waits in the outbox: its hand-off to the workers failed
        waiting = {"service": "handoff", "operation": "notifications.deliver"}
        assert metric(counters, "correo_degraded_total", **waiting) == 4
        assert statuses() == {"sent": 2, "pending": 4}  # in the outbox, for the sweep
        assert len(sink.messages) == 2
        said = outage_warnings(web)
        # One for the cache, one for the hand-off, one for the pages' push: not one a request.
        assert len(said) == 3, said
        assert any(m.startswith("cache unreachable") for m in said)
        assert any(m.startswith("handoff unreachable") for m in said)
        assert any(m.startswith("push unreachable") for m in said)

        door.open()  # Redis is back
        wait_until(lambda: web.call("GET", "/healthz").body["status"] == "ok")
        time.sleep(1.1)  # the web process's pause after the failure runs out
        play(first, "bob", seq, "pass")  # round 2: alice comes to act again
        assert tasks.sweep_outbox() >= 4  # beat's sweep queues what waited
        # 2 before, 4 during, 1 after.  Alice's older turn mail goes too if
        # it is sent before her newer one is written; once the newer exists,
        # only it goes and tells it all (notifications.pacing).  Either way,
        # nothing waits and nothing is lost.
        settled = ({"sent": 7}, {"sent": 6, "skipped": 1})
        wait_until(lambda: statuses() in settled)
        counters = web.text("/metrics")
        assert metric(counters, "correo_degraded_total", **waiting) == 4  # the last one went

    time.sleep(0.3)  # anything queued twice has had its chance to go out twice
    rows = Notification.objects.filter(status=Notification.Status.SENT)
    expected = sorted(f"<correo.{row.pk}.{row.kind}@play.correo.test>" for row in rows)
    assert sorted(message["Message-ID"] for message in sink.messages) == expected


def test_a_hanging_redis_holds_up_one_request_for_its_timeouts_and_no_other(
    door, alice, bob, tmp_path, settings
):
    keys = {"alice": token(alice), "bob": token(bob)}
    consenting(alice, bob)
    door.jam()  # Redis takes connections and never answers
    with web_server(
        tmp_path, REDIS_URL=through(door), CORREO_REDIS_TIMEOUT="0.5",
        CORREO_REDIS_RETRY_SECONDS="60",
    ) as web:  # fmt: skip
        new = {"title": "duel", "players": ["alice", "bob"]}
        created = web.call("POST", "/api/games/", keys["alice"], new)
        assert created.status == 201, created.body
        game = created.body["id"]
        later = [web.call("GET", f"/api/games/{game}/", keys[who]) for who in ("alice", "bob")]
        hand = later[0].body["view"]["hand"]
        move = {"seq": 1, "text": f"commit {hand[0]}"}
        later.append(web.call("POST", f"/api/games/{game}/actions/", keys["alice"], move))
        later.append(web.call("GET", "/api/games/", keys["bob"]))
        assert [answer.status for answer in later] == [200, 200, 201, 200]
        # The cache's timeout, then the hand-off's and the push's, paid
        # once: by the creation, or by the request after it on the same
        # worker, since the hand-off follows the creation's answer
        # (ops.after_response).  Redis is left alone after that.
        answers = [created, *later]
        assert sum(answer.seconds for answer in answers) < 0.5 + 1.5 + 1 + 1
        health = web.call("GET", "/healthz")
        assert health.status == 200 and health.body["status"] == "degraded"
        assert health.seconds < 0.5 + 0.5 + 1
    assert statuses() == {"pending": 2}
