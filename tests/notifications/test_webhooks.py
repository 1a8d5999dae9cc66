"""Webhooks: the POST goes to the address that was checked and nowhere else,
ends by its deadline, stops for a hook that keeps failing, and is sent once.

Every target is a real HTTP listener on loopback (tests/support/hooks.py);
only DNS and the internet are stood in for (a resolver that answers
differently on each call, a connect that refuses any address off loopback).
"""

from __future__ import annotations

import socket
import time

import pytest
from django.utils import timezone

from notifications import tasks
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.notifications.conftest import new_duel
from tests.support.hooks import Drip, Internet, Rebinding, ipv6_available, listening

pytestmark = pytest.mark.django_db


def hook_only(user, url: str) -> None:
    """`user` wants no game mail, only the webhook."""
    user.webhook_url, user.notify_mode = url, "off"
    user.save()


def turn_of(user) -> Notification:
    return Notification.objects.filter(user=user, kind="your_turn").latest("id")


@pytest.fixture
def internet(monkeypatch):
    """No test reaches the internet: connects off loopback are refused and recorded."""
    stand_in = Internet(socket.socket.connect)

    def connect(sock, address):  # a function, so that it binds to each socket
        return stand_in.connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return stand_in


@pytest.fixture
def checked(settings):
    """The address check on, as deployed (the conftest lets tests reach loopback)."""
    settings.NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE = False
    settings.CORREO_WEBHOOK_DEADLINE_SECONDS = 2


# --- the address that was checked is the address connected to ----------------------


def test_a_rebinding_name_cannot_steer_the_post_into_our_network(
    alice, bob, checked, internet, monkeypatch
):
    """The name answers a public address when checked and 127.0.0.1 after: the
    POST must go to the public one (refused here by the stand-in internet)
    and the listener on 127.0.0.1 must see nothing."""
    resolver = Rebinding(socket.getaddrinfo, "hook.rebind.test", "93.184.216.34", "127.0.0.1")
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    with listening(every_address=True) as inside:
        hook_only(alice, f"http://hook.rebind.test:{inside.port}/hook")
        new_duel(alice, bob)
        n = turn_of(alice)
        assert tasks.deliver_webhook(n.pk) == "failed"
    assert inside.seen == []
    assert resolver.calls == 1  # resolved once: the check's answer is the connection's
    assert [address[0] for address in internet.tried] == ["93.184.216.34"]
    n.refresh_from_db()
    assert n.webhook_status == "failed" and "93.184.216.34" in n.webhook_error


def test_a_name_with_one_private_address_among_public_ones_is_refused(
    alice, bob, checked, internet, monkeypatch
):
    real = socket.getaddrinfo

    def mixed(host, port, *args, **kwargs):
        if host != "mixed.test":
            return real(host, port, *args, **kwargs)
        return real("93.184.216.34", port, *args, **kwargs) + real("127.0.0.1", port, *args,
                                                                    **kwargs)  # fmt: skip

    monkeypatch.setattr(socket, "getaddrinfo", mixed)
    with listening(every_address=True) as inside:
        hook_only(alice, f"http://mixed.test:{inside.port}/hook")
        new_duel(alice, bob)
        assert tasks.deliver_webhook(turn_of(alice).pk) == "failed"
    assert inside.seen == [] and internet.tried == []


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "0x7f000001", "127.1", "0.0.0.0",
     "0", "localhost", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::]"],
)  # fmt: skip
def test_every_spelling_of_this_machine_is_refused(alice, bob, checked, internet, host):
    """Real resolution, a real listener on every local address: nothing reaches it."""
    with listening(every_address=True) as inside:
        hook_only(alice, f"http://{host}:{inside.port}/hook")
        new_duel(alice, bob)
        n = turn_of(alice)
        assert tasks.deliver_webhook(n.pk) == "failed"
    assert inside.seen == [] and internet.tried == []
    n.refresh_from_db()
    assert "not a public address" in n.webhook_error


@pytest.mark.skipif(not ipv6_available(), reason="no IPv6 loopback here")
def test_an_ipv6_hook_is_posted_to_its_address_with_a_bracketed_host(alice, bob):
    """Private addresses are allowed here (the conftest): the pinned
    connection speaks IPv6 as well."""
    with listening(every_address=True) as hook:
        hook_only(alice, f"http://[::1]:{hook.port}/hook")
        new_duel(alice, bob)
        n = turn_of(alice)
        assert tasks.deliver_webhook(n.pk) == "sent"
    [seen] = hook.seen
    assert seen.headers["Host"] == f"[::1]:{hook.port}"


@pytest.mark.parametrize(
    ("address", "allowed"),
    [
        ("93.184.216.34", True),
        ("2606:2800:220:1:248:1893:25c8:1946", True),
        ("::ffff:93.184.216.34", True),
        ("127.0.0.1", False), ("10.0.0.1", False), ("172.16.0.1", False),
        ("192.168.1.1", False), ("169.254.169.254", False), ("100.64.0.1", False),
        ("0.0.0.0", False), ("255.255.255.255", False), ("224.0.0.1", False),
        ("::1", False), ("::", False), ("fe80::1", False), ("fc00::1", False),
        ("ff02::1", False),
        ("::ffff:127.0.0.1", False), ("::ffff:10.0.0.1", False),
        # IPv6 addresses that carry an IPv4 one a gateway may translate into our network
        ("::127.0.0.1", False),  # IPv4-compatible
        ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1
        ("2002:a00:1::", False),  # 6to4 of 10.0.0.1
        ("64:ff9b::7f00:1", False),  # NAT64 of 127.0.0.1
        ("64:ff9b::a9fe:a9fe", False),  # NAT64 of the cloud metadata address
        ("64:ff9b:1::a00:1", False),  # local-use NAT64 of 10.0.0.1
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", False),  # Teredo
    ],
)  # fmt: skip
def test_which_addresses_may_be_posted_to(address, allowed):
    from notifications import webhook_http

    assert webhook_http.address_allowed(address) is allowed


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_is_never_followed(alice, bob, code):
    """Private addresses are allowed here (the conftest), so only the redirect
    policy stops the second hop."""
    with listening() as inside:
        target = f"http://127.0.0.1:{inside.port}/internal"
        with listening(code, location=target) as outside:
            hook_only(alice, f"http://127.0.0.1:{outside.port}/hook")
            new_duel(alice, bob)
            n = turn_of(alice)
            assert tasks.deliver_webhook(n.pk) == "failed"
            assert [seen.path for seen in outside.seen] == ["/hook"]
    assert inside.seen == []
    n.refresh_from_db()
    assert n.webhook_sent_at is None
    assert f"redirect to {target} not followed" in n.webhook_error


def test_tls_goes_to_the_pinned_address_with_the_name_for_sni_host_and_certificate(
    alice, bob, monkeypatch, tmp_path
):
    """hook.test resolves (stand-in DNS) to a TLS listener on loopback whose
    certificate names hook.test: the handshake names it (SNI), the certificate
    is checked against it, and so is the Host header; a name the certificate
    does not carry is refused before anything is sent."""
    from tests.support.hooks import make_certificate, tls_server_context

    cert, key = make_certificate(tmp_path, "hook.test")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the test's authority, as the system's
    real = socket.getaddrinfo

    def local(host, port, *args, **kwargs):
        if host in ("hook.test", "other.test"):
            host = "127.0.0.1"
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", local)
    sni: list = []
    with listening(tls=tls_server_context(cert, key, sni)) as hook:
        hook_only(alice, f"https://hook.test:{hook.port}/in")
        new_duel(alice, bob)
        assert tasks.deliver_webhook(turn_of(alice).pk) == "sent"
        [seen] = hook.seen
        assert seen.headers["Host"] == f"hook.test:{hook.port}"
        assert sni == ["hook.test"]
        assert seen.json()["kind"] == "your_turn"

        hook_only(alice, f"https://other.test:{hook.port}/in")
        new_duel(alice, bob)
        n = turn_of(alice)
        assert tasks.deliver_webhook(n.pk) == "failed"
        assert len(hook.seen) == 1
    n.refresh_from_db()
    assert "certificate" in n.webhook_error.lower()


# --- a total deadline ---------------------------------------------------------------


@pytest.mark.parametrize("where", ["status", "headers"])
def test_a_dripping_target_is_cut_off_at_the_deadline(alice, bob, settings, where):
    """A byte every 0.25 s never trips a read timeout; the deadline (1 s for
    connect, send and the whole answer) ends the POST all the same."""
    settings.CORREO_WEBHOOK_DEADLINE_SECONDS = 1
    with Drip(every=0.25, seconds=8, where=where) as drip:
        hook_only(alice, f"http://127.0.0.1:{drip.port}/hook")
        new_duel(alice, bob)
        n = turn_of(alice)
        started = time.monotonic()
        result = tasks.deliver_webhook(n.pk)
        took = time.monotonic() - started
        assert len(drip.requests) == 1  # it was posted, and then given up on
    assert result == "failed"
    assert took < 1.8, f"the POST took {took:.1f}s against a deadline of 1s"
    n.refresh_from_db()
    assert "deadline" in n.webhook_error


def test_a_tls_handshake_that_never_ends_is_cut_off_too(settings):
    """The target takes the connection and never answers the TLS hello."""
    from notifications import webhook_http

    settings.CORREO_WEBHOOK_DEADLINE_SECONDS = 1
    with Drip(every=0.25, seconds=8) as silent:
        started = time.monotonic()
        outcome = webhook_http.post(f"https://127.0.0.1:{silent.port}/", b"{}",
                                    allow_private=True)  # fmt: skip
        took = time.monotonic() - started
    assert not outcome.ok and "deadline" in outcome.detail
    assert took < 1.8


def test_the_deadline_is_a_setting(settings):
    from notifications import webhook_http

    settings.CORREO_WEBHOOK_DEADLINE_SECONDS = 0.5
    with Drip(every=0.1, seconds=5) as drip:
        started = time.monotonic()
        outcome = webhook_http.post(f"http://127.0.0.1:{drip.port}/", b"{}", allow_private=True)
        took = time.monotonic() - started
    assert not outcome.ok and "deadline" in outcome.detail
    assert 0.4 < took < 1.2


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:6379/", "http://10.0.0.1/x", "http://[::1]/", "http://localhost/",
     "ftp://example.org/", "http://169.254.169.254/latest/meta-data/", "http:///nohost",
     "http://example.org:99999/"],
)  # fmt: skip
def test_urls_refused_before_any_connection(url, internet):
    from notifications import webhook_http

    outcome = webhook_http.post(url, b"{}", allow_private=False)
    assert not outcome.ok and outcome.address is None
    assert internet.tried == []


# --- at most once in the normal path ----------------------------------------------


def test_the_webhook_gets_the_notice_as_json(alice, bob):
    with listening() as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook?room=7")
        game = new_duel(alice, bob)
        assert tasks.deliver_webhook(turn_of(alice).pk) == "sent"
    [seen] = hook.seen
    assert (seen.method, seen.path) == ("POST", "/hook?room=7")
    assert seen.headers["Content-Type"] == "application/json"
    assert seen.headers["Host"] == f"127.0.0.1:{hook.port}"
    payload = seen.json()
    assert payload["kind"] == "your_turn" and payload["your_turn"] is True
    assert payload["game"] == game.pk and payload["user"] == "alice"
    assert payload["moves"] and payload["text"].startswith("[Correo] Duel")


def test_a_notice_is_posted_once_however_often_it_is_queued(alice, bob):
    with listening() as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        new_duel(alice, bob)
        n = turn_of(alice)
        results = [tasks.deliver_webhook(n.pk) for _ in range(3)]
    assert results == ["sent", "nothing", "nothing"]
    assert len(hook.seen) == 1
    assert hook.seen[0].json()["id"] == n.pk  # the receiver's key for a resend after a crash
    n.refresh_from_db()
    assert n.webhook_status == "sent" and n.webhook_sent_at is not None


def test_a_player_with_mail_gets_the_webhook_from_its_own_task(alice, bob, sink):
    """The mail task sends mail only: the webhook is a task of its own, on
    its own queue, so a slow hook never holds a mail."""
    with listening() as hook:
        alice.webhook_url = f"http://127.0.0.1:{hook.port}/hook"
        alice.save()
        new_duel(alice, bob)
        n = turn_of(alice)
        assert n.status == "pending" and n.webhook_status == "pending"
        assert tasks.deliver(n.pk) == "sent"
        assert hook.seen == []
        assert tasks.deliver_webhook(n.pk) == "sent"
        assert len(hook.seen) == 1
    assert len(sink.to("alice@example.org")) == 1


def test_kinds_outside_the_game_have_no_webhook(alice):
    from notifications.outbox import notify_password_reset

    alice.webhook_url = "https://chat.example/hook"
    alice.save()
    row = notify_password_reset(alice)
    assert row.webhook_status == ""


# --- the circuit breaker ------------------------------------------------------------


def failing_notices(alice, bob, count: int) -> list[int]:
    for _ in range(count):
        new_duel(alice, bob)
    return list(
        Notification.objects.filter(user=alice, kind="your_turn")
        .order_by("id")
        .values_list("id", flat=True)
    )


def paused_mails():
    return Notification.objects.filter(kind="webhook_paused")


def test_a_hook_that_keeps_failing_is_paused_and_its_owner_told_once(
    alice, bob, settings, sink, client
):
    from notifications import delivery

    settings.CORREO_WEBHOOK_FAILURES_TO_PAUSE = 3
    with listening(500) as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        ids = failing_notices(alice, bob, 5)
        results = [tasks.deliver_webhook(pk) for pk in ids]
        assert results == ["failed", "failed", "failed", "paused", "paused"]
        assert len(hook.seen) == 3  # nothing is posted while paused
    statuses = list(Notification.objects.filter(pk__in=ids).order_by("id")
                    .values_list("webhook_status", flat=True))  # fmt: skip
    assert statuses == ["failed", "failed", "failed", "skipped", "skipped"]

    [told] = paused_mails()  # once, though two more notices met the pause
    assert told.user == alice and told.status == "pending"  # a mail although game mail is off
    assert delivery.deliver(told.pk) == "sent"
    [mail] = sink.to("alice@example.org")
    assert mail["Subject"] == "[Correo] your webhook is paused"
    body = mail.get_body(("plain",)).get_content()
    assert f"http://127.0.0.1:{hook.port}/hook" in body
    assert "3 times in a row" in body and "HTTP 500" in body
    assert "https://correo.test/settings/" in body

    client.force_login(alice)
    page = client.get("/settings/").content.decode()
    assert "Your webhook is paused" in page and "HTTP 500" in page
    assert 'action="/settings/webhook/resume/"' in page


def test_the_paused_mail_speaks_german_to_a_german_player(alice, bob, settings, sink):
    from notifications import delivery

    settings.CORREO_WEBHOOK_FAILURES_TO_PAUSE = 1
    alice.language = "de"
    with listening(500) as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        [pk] = failing_notices(alice, bob, 1)
        assert tasks.deliver_webhook(pk) == "failed"
    [told] = paused_mails()
    assert delivery.deliver(told.pk) == "sent"
    [mail] = sink.to("alice@example.org")
    assert mail["Subject"] == "[Correo] dein Webhook ist pausiert"
    body = mail.get_body(("plain",)).get_content()
    assert "Hallo alice" in body and "1-mal hintereinander" in body


def test_a_success_between_failures_starts_the_count_again(alice, bob, settings):
    settings.CORREO_WEBHOOK_FAILURES_TO_PAUSE = 2
    with listening(500) as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        first, second, third, fourth = failing_notices(alice, bob, 4)
        assert tasks.deliver_webhook(first) == "failed"
        hook.status = 204
        assert tasks.deliver_webhook(second) == "sent"
        hook.status = 500
        assert tasks.deliver_webhook(third) == "failed"  # the first in a row again
        assert not paused_mails().exists()
        assert tasks.deliver_webhook(fourth) == "failed"  # the second: paused now
    assert paused_mails().count() == 1


@pytest.mark.parametrize("door", ["settings page", "resume button", "api"])
def test_saving_the_url_again_or_the_resume_button_unpauses(alice, bob, settings, client, door):
    settings.CORREO_WEBHOOK_FAILURES_TO_PAUSE = 1
    with listening(500) as hook:
        url = f"http://127.0.0.1:{hook.port}/hook"
        hook_only(alice, url)
        first = failing_notices(alice, bob, 1)[-1]
        assert tasks.deliver_webhook(first) == "failed"
        second = failing_notices(alice, bob, 1)[-1]
        assert tasks.deliver_webhook(second) == "paused"
        assert len(hook.seen) == 1

        client.force_login(alice)
        if door == "settings page":
            form = {"notify_mode": "off", "webhook_url": url, "language": "en"}
            assert client.post("/settings/", form).status_code == 302
        elif door == "resume button":
            assert client.post("/settings/webhook/resume/").status_code == 302
        else:
            response = client_for(alice).patch("/api/auth/me/", {"webhook_url": url},
                                               format="json")  # fmt: skip
            assert response.status_code == 200
        assert "Your webhook is paused" not in client.get("/settings/").content.decode()
        hook.status = 204
        third = failing_notices(alice, bob, 1)[-1]
        assert tasks.deliver_webhook(third) == "sent"
        assert len(hook.seen) == 2


def test_the_resume_button_needs_a_login_and_a_post(client, alice):
    assert client.post("/settings/webhook/resume/").status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get("/settings/webhook/resume/").status_code == 405


def test_changing_another_preference_keeps_the_pause(alice, bob, settings):
    """Changing any other preference keeps the pause (only the URL is a fresh start)."""
    settings.CORREO_WEBHOOK_FAILURES_TO_PAUSE = 1
    with listening(500) as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        first = failing_notices(alice, bob, 1)[-1]
        assert tasks.deliver_webhook(first) == "failed"
        response = client_for(alice).patch("/api/auth/me/", {"language": "de"}, format="json")
        assert response.status_code == 200
        second = failing_notices(alice, bob, 1)[-1]
        assert tasks.deliver_webhook(second) == "paused"
    assert len(hook.seen) == 1


# --- the sweep (without a broker: the worker tests run it against Redis) ------------


def test_the_sweep_finds_webhook_notices_that_were_never_queued(alice, bob, settings):
    from notifications import webhooks

    with listening() as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        new_duel(alice, bob)  # not a transactional test: nothing was queued on commit
        n = turn_of(alice)
        assert webhooks.sweep() == [n.pk]
        assert tasks.sweep_webhooks() == 1  # eager here: delivered at once
        assert len(hook.seen) == 1
        assert webhooks.sweep() == []
        assert tasks.sweep_webhooks() == 0
    assert len(hook.seen) == 1


def test_a_webhook_left_sending_by_a_dead_worker_goes_out_after_the_lease(alice, bob, settings):
    from notifications import webhooks

    with listening() as hook:
        hook_only(alice, f"http://127.0.0.1:{hook.port}/hook")
        new_duel(alice, bob)
        n = turn_of(alice)
        assert webhooks.claim(n.pk) is not None  # and the worker died here
        assert webhooks.sweep() == []  # the claim is fresh
        Notification.objects.filter(pk=n.pk).update(
            webhook_claimed_at=timezone.now() - timezone.timedelta(hours=1)
        )
        assert webhooks.sweep() == [n.pk]
        assert tasks.deliver_webhook(n.pk) == "sent"
    assert [seen.json()["id"] for seen in hook.seen] == [n.pk]


# --- the embedded default -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_webhook_is_posted_when_the_event_commits(alice, bob, sink):
    """The embedded default runs tasks eagerly: mail and webhook go at commit."""
    with listening() as hook:
        alice.webhook_url = f"http://127.0.0.1:{hook.port}/hook"
        alice.save()
        new_duel(alice, bob)
        assert [seen.json()["kind"] for seen in hook.seen] == ["your_turn"]
    assert len(sink.to("alice@example.org")) == 1
    assert Notification.objects.get(user=alice).webhook_status == "sent"
