"""Settings come from the environment; production refuses the development keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import (
    DEVELOPMENT_CHAIN_KEY,
    DEVELOPMENT_SECRET_KEY,
    check_chain_key,
    check_secret_key,
)

ROOT = Path(__file__).resolve().parents[2]
SECRETS = ("SECRET_KEY", "CHAIN_KEY", "DJANGO_DEBUG")


def start_django(**env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in SECRETS}
    environment.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_server_refuses_debug_off_with_the_development_secret():
    started = start_django(DJANGO_DEBUG="0")
    assert started.returncode != 0
    assert "Refusing to start" in started.stderr


def test_the_server_refuses_debug_off_without_a_chain_key():
    started = start_django(DJANGO_DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="correo.example")
    assert started.returncode != 0
    assert "CHAIN_KEY" in started.stderr


def test_the_server_starts_with_debug_off_and_real_secrets():
    started = start_django(
        DJANGO_DEBUG="0", SECRET_KEY="x" * 50, CHAIN_KEY="y" * 50, ALLOWED_HOSTS="correo.example"
    )
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "started"


def test_check_secret_key_allows_the_development_key_only_in_debug():
    check_secret_key(True, DEVELOPMENT_SECRET_KEY)
    with pytest.raises(ImproperlyConfigured):
        check_secret_key(False, DEVELOPMENT_SECRET_KEY)


def test_check_chain_key_wants_a_long_key_of_its_own_once_debug_is_off():
    check_chain_key(True, DEVELOPMENT_CHAIN_KEY)
    check_chain_key(False, "k" * 32)
    for weak in (DEVELOPMENT_CHAIN_KEY, "k" * 31):
        with pytest.raises(ImproperlyConfigured):
            check_chain_key(False, weak)


def test_what_an_operator_sets_behind_pgbouncer_in_transaction_mode():
    """docs/scaling.md: no server-side cursors and no prepared statements
    (PgBouncer older than 1.21), and the sweeps' interval, from the environment."""
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "db = s.DATABASES['default']; "
        "print(json.dumps([db['DISABLE_SERVER_SIDE_CURSORS'], "
        "db.get('OPTIONS', {}).get('prepare_threshold'), "
        "s.CELERY_BEAT_SCHEDULE['notifications-sweep-outbox']['schedule'], "
        "s.CELERY_BEAT_SCHEDULE['notifications-sweep-webhooks']['schedule']]))"
    )

    def settings_with(**env: str) -> list:
        environment = {k: v for k, v in os.environ.items() if k not in SECRETS}
        environment.update(env, DJANGO_SETTINGS_MODULE="config.settings",
                           DATABASE_URL="postgres://correo@10.0.0.1:6432/correo")  # fmt: skip
        shown = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                               capture_output=True, text=True, timeout=60)  # fmt: skip
        assert shown.returncode == 0, shown.stderr
        return json.loads(shown.stdout.strip().splitlines()[-1])

    assert settings_with() == [False, 2**31 - 1, 60.0, 60.0]
    assert settings_with(
        DB_SERVER_SIDE_CURSORS="0", DB_PREPARED_STATEMENTS="0", NOTIFICATIONS_SWEEP_INTERVAL="10"
    ) == [True, None, 10.0, 10.0]
