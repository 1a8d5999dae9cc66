"""Web fixtures: a browser-like Django client logged in as a given user."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def page_as(db):
    """page_as(alice).get("/"): a session-authenticated client (None: a visitor)."""

    def client_for(user) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return client_for
