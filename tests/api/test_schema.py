"""The OpenAPI schema, and schemathesis against it: no input gives a 5xx, and
every response conforms to the schema."""

from __future__ import annotations

import pytest
import schemathesis
from django.contrib.staticfiles import finders
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from accounts import tokens
from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


@pytest.mark.django_db
def test_the_schema_documents_every_endpoint_of_the_contract(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in [
        "/api/auth/register/", "/api/auth/token/", "/api/titles/", "/api/games/",
        "/api/games/{id}/", "/api/games/{id}/actions/", "/api/games/{id}/events/",
        "/api/games/{id}/audit/", "/api/games/{id}/undo/", "/api/games/{id}/takeback/",
        "/api/games/{id}/verify/", "/api/games/{id}/export/", "/api/games/import/",
        "/api/tables/", "/api/tables/{id}/", "/api/tables/{id}/join/", "/api/tables/{id}/leave/",
        "/api/tables/{id}/start/", "/api/tables/{id}/remove/", "/api/tables/{id}/invite/",
        "/api/invitations/", "/api/invitations/{id}/accept/", "/api/invitations/{id}/decline/",
        "/api/games/{id}/rematch/", "/api/blocks/", "/api/games/{id}/orders/",
    ]:  # fmt: skip
        assert path in paths, path
    assert client.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_the_docs_page_loads_swagger_ui_from_our_static_files_not_a_cdn(client):
    page = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    for cdn in ("cdn.jsdelivr.net", "unpkg.com", "cdnjs", "@latest"):
        assert cdn not in page
    # the file is among the static files runserver serves and collectstatic copies
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")


@pytest.mark.django_db
def test_redoc_loads_from_our_static_files_not_a_cdn(client):
    page = client.get("/api/redoc/").content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in page
    for cdn in ("cdn.jsdelivr.net", "unpkg.com", "cdnjs", "@latest"):
        assert cdn not in page
    assert finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")


@pytest.mark.django_db
def test_a_games_result_is_described_in_its_one_shape(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    detail = paths["/api/games/{id}/"]["get"]["responses"]["200"]["content"]
    result = detail["application/json"]["schema"]["properties"]["result"]
    assert result["nullable"] is True
    assert set(result["required"]) == {"winners", "places", "scores", "ended_by", "breakdown"}
    assert set(result["properties"]) == {*result["required"], "opponent"}


@pytest.fixture
def game_one(make_game, alice, bob):
    """A game of alice's, and her token."""
    return make_game(players=[alice, bob], seed=1), tokens.issue(alice)[1]


@pytest.fixture
def connection_kept():
    """The WSGI handler closes the database connection after each request
    when it is inside a transaction, as the test's is: Django's test client
    keeps it open by the same means, so the requests see the test's rows and
    everything is rolled back at the end, without a flush of every table."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def rates_out_of_reach(throttle_rates):
    """Rates no operation's examples reach, set once per operation: setting
    them empties the cache, a round trip per example otherwise."""
    throttle_rates(anon="100000/min", user="100000/min", auth="100000/min")


@pytest.mark.slow
@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_input_breaks_the_api(case, game_one, connection_kept, rates_out_of_reach):
    game, key = game_one
    if case.path.startswith("/api/games/{id}/") and case.path_parameters.get("id") == 1:
        # Generated ids are small more often than not: the first names the
        # real game (whose own id depends on what the database made before).
        case.path_parameters["id"] = game.pk
    case.call_and_validate(
        headers={"Authorization": f"Token {key}"},
        # Passwords, usernames and moves have rules a schema cannot express
        # (validators, game state): a schema-valid request may be refused.
        excluded_checks=[schemathesis.checks.positive_data_acceptance],
    )
