"""Fixtures of the account tests: the real SMTP sink the notices go to,
Celery in-process (deliveries run when a request commits), and clients
holding a token or a session."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.notifications.conftest import eager_celery, mail_settings, sink  # noqa: F401

PASSWORD = "correct horse 42"


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def log_in(username: str, password: str = PASSWORD, name: str = "") -> str:
    """A new token the way a client gets one: username and password over HTTP."""
    body = {"username": username, "password": password}
    if name:
        body["name"] = name
    response = APIClient().post("/api/auth/token/", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


@pytest.fixture
def browser(db):
    """browser(alice): a session-authenticated Django client."""

    def client_for(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return client_for
