"""Who is asking: the client's address as the deployed proxy chain says.

A client can send any `X-Forwarded-For` it likes; only the entries our own
proxies appended can be believed.  `CORREO_TRUSTED_PROXIES` says how many
proxies stand in front of gunicorn (0 for `make run`, 1 behind the nginx of
deploy/nginx, which overwrites the header with the address it saw), so the
client is the entry that many places from the right, and without proxies
the socket's own address.  DRF's `NUM_PROXIES` is set to the same number
(config.settings), and every place that wants an address asks here, so the
throttles and anything else agree on who a client is.
"""

from __future__ import annotations

from django.conf import settings


def client_address(request) -> str:
    """The address of the client, never one the client chose itself."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = settings.CORREO_TRUSTED_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = forwarded.split(",")
    # Fewer entries than proxies: the request skipped the outer ones, so the
    # leftmost is what the first proxy it met saw (as DRF reads it).
    return hops[-min(proxies, len(hops))].strip()
