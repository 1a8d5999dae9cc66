"""The deployed settings plus one bench-only endpoint (bench/floor/urls.py).

BENCH_DROP_MIDDLEWARE (comma-separated dotted paths) leaves middleware out,
to measure what one costs or saves against the same build, back to back:
e.g. ops.after_response.PublishAfterResponseMiddleware, without
which a move's mail is published at its commit, before the answer."""

import os

from config.settings import *  # noqa: F403
from config.settings import MIDDLEWARE

ROOT_URLCONF = "bench.floor.urls"

_dropped = {name for name in os.environ.get("BENCH_DROP_MIDDLEWARE", "").split(",") if name}
if unknown := _dropped - set(MIDDLEWARE):
    raise ValueError(f"BENCH_DROP_MIDDLEWARE names no middleware in use: {sorted(unknown)}")
MIDDLEWARE = [name for name in MIDDLEWARE if name not in _dropped]
