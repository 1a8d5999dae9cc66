"""API fixtures: alice, bob and carol play; mo moderates; eve is a stranger."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def as_(db):
    """as_(alice).get(...): a client authenticated as that user (None: anonymous)."""
    return client_for


@pytest.fixture
def throttle_rates(monkeypatch):
    """Set throttle rates for a test (DRF reads them once, at import)."""
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    def set_rates(**rates):
        cache.clear()
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)

    return set_rates


@pytest.fixture(autouse=True)
def generous_throttles(throttle_rates):
    throttle_rates(anon="10000/min", user="100000/min", auth="10000/min")
