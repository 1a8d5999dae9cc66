"""The deployed settings plus one bench-only endpoint (bench/floor/urls.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.floor.urls"
