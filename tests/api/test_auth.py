"""POST /api/auth/register/ and /api/auth/token/."""

from __future__ import annotations

import pytest

from accounts.models import User


@pytest.mark.django_db
def test_register_returns_a_token_that_authenticates(as_):
    response = as_(None).post(
        "/api/auth/register/",
        {"username": "dora", "email": "dora@example.org", "password": "a long passphrase 9"},
        format="json",
    )
    assert response.status_code == 201
    token = response.json()["token"]
    me = as_(None)
    me.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert me.get("/api/games/?mine=1").status_code == 200
    assert User.objects.get(username="dora").check_password("a long passphrase 9")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "dora", "email": "dora@example.org", "password": "123"}, "password"),
        ({"username": "dora", "email": "dora@example.org", "password": "password"}, "password"),
        ({"username": "dora", "email": "not-an-email", "password": "a long pass 9"}, "email"),
        ({"username": "bad name!", "email": "d@x.org", "password": "a long pass 9"}, "username"),
    ],
)
def test_register_validates_every_field(as_, body, field):
    response = as_(None).post("/api/auth/register/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert field in response.json()["fields"]
    assert not User.objects.filter(username="dora").exists()


def test_register_refuses_a_taken_username(as_, alice):
    body = {"username": "Alice", "email": "a2@example.org", "password": "a long passphrase 9"}
    response = as_(None).post("/api/auth/register/", body, format="json")
    assert response.status_code == 400
    assert "taken" in response.json()["detail"]


def test_token_for_the_right_password_only(as_, alice):
    ok = as_(None).post("/api/auth/token/", {"username": "alice", "password": "correct horse 42"})
    assert ok.status_code == 200 and len(ok.json()["token"]) == 40
    wrong = as_(None).post("/api/auth/token/", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 400
    assert wrong.json() == {"error": "invalid", "detail": "wrong username or password",
                            "fields": ["wrong username or password"]}  # fmt: skip


@pytest.mark.django_db
def test_malformed_json_is_a_clear_400(as_):
    response = as_(None).post(
        "/api/auth/token/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "parse_error"


@pytest.mark.django_db
def test_a_password_is_taken_as_typed_spaces_and_all(as_):
    """As the web's forms take it, and as the schema's maxLength counts it:
    a password trimmed before it was judged let 129 characters through."""
    body = {"username": "dora", "email": "dora@example.org", "password": " a long passphrase 9 "}
    assert as_(None).post("/api/auth/register/", body, format="json").status_code == 201
    typed = {"username": "dora", "password": " a long passphrase 9 "}
    assert as_(None).post("/api/auth/token/", typed, format="json").status_code == 200
    trimmed = {"username": "dora", "password": "a long passphrase 9"}
    assert as_(None).post("/api/auth/token/", trimmed, format="json").status_code == 400
    too_long = {"username": "eric", "email": "eric@example.org", "password": "\n" + "x9 " * 43}
    assert len(too_long["password"]) == 130
    assert as_(None).post("/api/auth/register/", too_long, format="json").status_code == 400
    assert not User.objects.filter(username="eric").exists()
