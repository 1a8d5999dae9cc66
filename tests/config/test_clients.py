"""Who a client is: the address the deployed proxy chain vouches for, never
one the client wrote into X-Forwarded-For itself (ops.clients)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from ops.clients import client_address
from tests.config.test_settings import ROOT

# (proxies in front, the socket's address, X-Forwarded-For as received, the client)
CASES = [
    (0, "192.0.2.1", None, "192.0.2.1"),
    (0, "192.0.2.1", "6.6.6.6", "192.0.2.1"),  # no proxy: the header is the client's own words
    (1, "127.0.0.1", "198.51.100.7", "198.51.100.7"),  # nginx overwrote it
    (1, "127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # a proxy that appends
    (1, "127.0.0.1", None, "127.0.0.1"),  # reached without the proxy (loopback only)
    (2, "10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.1", "198.51.100.7"),
    (2, "10.0.0.2", "198.51.100.7", "198.51.100.7"),  # came in past the outer proxy
]


@pytest.mark.parametrize(("proxies", "remote", "forwarded", "client"), CASES)
def test_the_client_is_the_entry_our_proxies_wrote(rf, settings, proxies, remote, forwarded,
                                                  client):  # fmt: skip
    settings.CORREO_TRUSTED_PROXIES = proxies
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = rf.get("/", REMOTE_ADDR=remote, **headers)
    assert client_address(request) == client


@pytest.mark.parametrize(("proxies", "remote", "forwarded", "client"), CASES)
def test_drf_is_told_the_same_number_and_agrees(rf, settings, proxies, remote, forwarded, client):
    settings.CORREO_TRUSTED_PROXIES = proxies
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = rf.get("/", REMOTE_ADDR=remote, **headers)
    assert proxies == api_settings.NUM_PROXIES
    assert BaseThrottle().get_ident(request) == client_address(request) == client


@pytest.mark.parametrize(
    ("env", "expected"), [({}, "0 0"), ({"CORREO_TRUSTED_PROXIES": "1"}, "1 1")]
)
def test_one_setting_from_the_environment_no_proxy_by_default(env, expected):
    environment = {k: v for k, v in os.environ.items() if k != "CORREO_TRUSTED_PROXIES"}
    environment.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings "
         "as s; print(s.CORREO_TRUSTED_PROXIES, s.REST_FRAMEWORK['NUM_PROXIES'])"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert shown.stdout.strip() == expected, shown.stderr
