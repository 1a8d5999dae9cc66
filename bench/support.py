"""Shared by the benchmarks: Django set-up, a throwaway database, JSON lines."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_setup(database_url: str | None = "postgres://postgres@127.0.0.1:5432/test") -> None:
    """Configure Django; the benchmarks default to the local PostgreSQL."""
    sys.path.insert(0, str(ROOT))
    if database_url:
        os.environ.setdefault("DATABASE_URL", database_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


@contextlib.contextmanager
def throwaway_database():
    """A fresh, migrated database of its own (never the test suite's)."""
    from django.conf import settings
    from django.test.utils import setup_databases, teardown_databases

    settings.DATABASES["default"]["TEST"]["NAME"] = f"correo_bench_{os.getpid()}"
    old_config = setup_databases(verbosity=0, interactive=False)
    try:
        yield
    finally:
        teardown_databases(old_config, verbosity=0)


def emit(name: str, value: float, unit: str, **context) -> None:
    record = {"bench": name, "value": round(value, 3), "unit": unit, **context}
    print(json.dumps(record), flush=True)
