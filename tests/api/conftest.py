"""API fixtures: alice, bob and carol play; mo moderates; eve is a stranger."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import tokens


def pytest_configure(config):
    """schemathesis's pytest plugin, for test_schema.py: pyproject.toml keeps
    it out of every other pytest process (-p no:schemathesis), each of which
    it would cost about a second to import."""
    import schemathesis.pytest.plugin as plugin

    # Under another name than the blocked entry point's; once only, even when
    # a run loads it itself (-o addopts= ... -p schemathesis).
    if not config.pluginmanager.is_registered(plugin):
        config.pluginmanager.register(plugin, "schemathesis.pytest.plugin")


def client_for(user) -> APIClient:
    """A client with a token of its own (the server keeps only a key's hash,
    so each client is issued a new one)."""
    client = APIClient()
    if user is not None:
        _, key = tokens.issue(user, "test client")
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def as_(db):
    """as_(alice).get(...): a client authenticated as that user (None: anonymous)."""
    return client_for
