"""The password-reset form does the same work whether or not the address has
an account, so its time cannot tell (an attacker measured 18 ms against 9 ms
when the request looked the address up and wrote the mail's row itself).

Counted, not timed, so that it cannot flake: every SQL statement and every
task the request sends must be the same for both addresses, and none may
read the accounts.  Then a real Celery worker on the real Redis does the
lookup, and only the real account gets a mail.  The time itself is in
`make bench` (bench/bench_reset.py).
"""

from __future__ import annotations

import re
import threading

import pytest
from celery.signals import before_task_publish
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from notifications.models import Notification

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def ask(email: str) -> tuple[int, list[str], list[tuple[str, object]]]:
    """The reset form posted for `email`: the status, the request's SQL with
    the address taken out, and the tasks it sent with theirs."""
    sent = []
    requesting = threading.get_ident()

    def record(sender=None, body=None, headers=None, **kwargs):
        # The worker runs in a thread of this process and may already be
        # publishing what it does with an earlier request's task: only the
        # request's own publishes count.
        if threading.get_ident() == requesting:
            sent.append((headers["task"], body[0]))

    before_task_publish.connect(record, weak=False)
    try:
        with CaptureQueriesContext(connection) as queries:
            response = Client().post("/accounts/password_reset/", {"email": email})
    finally:
        before_task_publish.disconnect(record)
    statements = [re.sub(re.escape(email), "<email>", str(q["sql"]), flags=re.I)
                  for q in queries.captured_queries]  # fmt: skip
    tasks = [(name, [("<email>" if a == email else a) for a in args]) for name, args in sent]
    return response.status_code, statements, tasks


def test_a_known_and_an_unknown_address_cost_the_request_the_same(worker, sink, alice):
    unknown = ask("nobody@example.org")
    known = ask("alice@example.org")
    assert known == unknown
    status, statements, tasks = known
    assert status == 302
    assert not any("accounts_user" in sql for sql in statements)  # no lookup in the request
    assert tasks == [("notifications.password_reset", ["<email>"])]

    # The worker looks the addresses up, in the order asked (one queue, one
    # process): once alice's mail is out, nobody's request was done with.
    sink.wait_for(lambda m: "alice@example.org" in m.envelope_to)
    assert [m.envelope_to for m in sink.messages] == [["alice@example.org"]]
    assert list(Notification.objects.values_list("to_email", flat=True)) == ["alice@example.org"]
