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
