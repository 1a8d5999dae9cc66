"""Token authentication remembers a token for a few seconds, and no longer."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import ApiToken


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_recent_token_is_not_looked_up_again(alice, django_assert_num_queries):
    client = client_with(tokens.issue(alice)[1])
    assert client.get("/api/vacation/").status_code == 200
    # the vacation budget reads the vacations only: no token or user query
    with django_assert_num_queries(2):
        assert client.get("/api/vacation/").status_code == 200


def test_a_deleted_token_stops_working_when_the_memory_is_off(alice, settings):
    settings.CORREO_TOKEN_CACHE_SECONDS = 0
    token, key = tokens.issue(alice)
    client = client_with(key)
    assert client.get("/api/vacation/").status_code == 200
    ApiToken.objects.filter(pk=token.pk).delete()
    assert client.get("/api/vacation/").status_code == 401


def test_a_deleted_token_is_remembered_no_longer_than_the_setting(alice, settings, monkeypatch):
    """A row deleted behind this process's back (by another process) is
    trusted until the memory's few seconds are up, no longer."""
    import accounts.authentication as auth

    settings.CORREO_TOKEN_CACHE_SECONDS = 10
    clock = [1000.0]
    monkeypatch.setattr(auth.time, "monotonic", lambda: clock[0])
    token, key = tokens.issue(alice)
    client = client_with(key)
    assert client.get("/api/vacation/").status_code == 200
    ApiToken.objects.filter(pk=token.pk).delete()
    clock[0] += 9
    assert client.get("/api/vacation/").status_code == 200
    clock[0] += 2
    assert client.get("/api/vacation/").status_code == 401


@pytest.mark.django_db
def test_a_wrong_token_is_refused():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert client.get("/api/vacation/").status_code == 401
