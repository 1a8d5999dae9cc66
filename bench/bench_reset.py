"""The password-reset form's time, for an address with an account and one
without, served by gunicorn as deployed (DEBUG off, Redis the broker and
the cache).

    .venv/bin/python bench/bench_reset.py [--requests N]

An attacker measured 18 ms against 9 ms when the request looked the
address up and wrote the mail's row itself, which told who has an account.
The request now hands any address to a worker (notifications.outbox.
ask_password_reset), so the two should be alike:

- `auth.reset_ms.known.median` / `.unknown.median` (and p95): N posts of
  each, interleaved so that the machine's moods fall on both alike;
- `auth.reset_ms.difference`: known median minus unknown median; target
  within 1 ms (or a tenth of the median, whichever is larger).

No worker runs: the requests only queue; the queue is emptied at the end.
The per-address waits (accounts.lockout) are set out of the way.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import time
from urllib.parse import urlencode

from support import deployed_redis, django_setup, emit, start_gunicorn, throwaway_database

django_setup()

from accounts.models import User  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8934"))
# The Redis database it empties before and after (the benches' 14 by default).
REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", "14"))


class Visitor:
    """A browser on the reset form: its CSRF cookie and token, one connection."""

    def __init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.conn.request("GET", "/accounts/password_reset/")
        response = self.conn.getresponse()
        page = response.read().decode()
        cookie = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie", "")).group(1)
        self.cookie = f"csrftoken={cookie}"
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def ask(self, email: str) -> float:
        body = urlencode({"email": email, "csrfmiddlewaretoken": self.token})
        headers = {"Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded"}
        started = time.perf_counter()
        self.conn.request("POST", "/accounts/password_reset/", body=body, headers=headers)
        response = self.conn.getresponse()
        response.read()
        took = time.perf_counter() - started
        if response.status != 302:
            raise RuntimeError(f"the reset form answered {response.status}")
        return took * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with deployed_redis(REDIS_DB) as redis_url, throwaway_database(needs_postgresql=True):
        User.objects.create_user("known", "known@example.org", "a long passphrase 9")
        server = start_gunicorn(
            PORT, WEB_WORKERS="1", REDIS_URL=redis_url, THROTTLE_AUTH="1000000/min",
            CORREO_LOGIN_FAILURES_ALLOWED="1000000",
        )  # fmt: skip
        try:
            visitor = Visitor()
            for _ in range(20):  # warm both paths
                visitor.ask("known@example.org")
                visitor.ask("unknown@example.org")
            took: dict[str, list[float]] = {"known": [], "unknown": []}
            for _ in range(args.requests):
                took["known"].append(visitor.ask("known@example.org"))
                took["unknown"].append(visitor.ask("unknown@example.org"))
        finally:
            server.terminate()
            server.wait(timeout=10)
    medians = {}
    for which, times in took.items():
        times.sort()
        medians[which] = statistics.median(times)
        emit(f"auth.reset_ms.{which}.median", medians[which], "ms", requests=len(times))
        emit(f"auth.reset_ms.{which}.p95", times[int(len(times) * 0.95)], "ms",
             requests=len(times))  # fmt: skip
    difference = medians["known"] - medians["unknown"]
    bound = max(1.0, medians["unknown"] / 10)
    emit("auth.reset_ms.difference", difference, "ms", target=round(bound, 3),
         met=abs(difference) <= bound, before="18 ms against 9 ms")  # fmt: skip


if __name__ == "__main__":
    main()
