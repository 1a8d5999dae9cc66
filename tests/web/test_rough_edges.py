"""A first evening's rough edges, each kept mended: the mail's base URL is
checked at start-up, the site has a favicon, dates read as dates, options
read as words, and Back/Forward never shows an older game."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core import checks
from django.template import Context, Template

from notifications.checks import base_url


@pytest.mark.parametrize(
    ("given", "url", "hosts", "warning"),
    [
        (False, "http://127.0.0.1:8000", ["127.0.0.1"], "notifications.W001"),
        (True, "correo.example.org", ["*"], "notifications.W002"),
        (True, "ftp://correo.example.org", ["*"], "notifications.W002"),
        (True, "https://correo.example.org", ["127.0.0.1"], "notifications.W003"),
        (True, "https://correo.example.org/", [".example.org"], None),
        (True, "http://127.0.0.1:8123", ["127.0.0.1", "localhost"], None),
    ],
)
def test_a_missing_or_wrong_base_url_is_a_start_up_warning(settings, given, url, hosts, warning):
    settings.CORREO_BASE_URL_GIVEN = given
    settings.CORREO_BASE_URL = url
    settings.ALLOWED_HOSTS = hosts
    found = [w.id for w in base_url()]
    assert found == ([warning] if warning else [])
    # Registered with Django's checks, so `runserver` and `check` say it.
    assert base_url in checks.registry.registry.get_checks()


def test_make_run_gives_the_mails_the_port_it_serves_on():
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert "CORREO_BASE_URL=$${CORREO_BASE_URL:-http://127.0.0.1:$(PORT)}" in run
    assert "runserver 127.0.0.1:$(PORT)" in run


def test_every_page_links_a_favicon_from_our_static_files(page_as, db):
    html = page_as(None).get("/").content.decode()
    link = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
    assert link and link.group(1).endswith("web/favicon.svg")
    assert finders.find("web/favicon.svg")


@pytest.mark.parametrize(
    "value",
    ["2026-11-27T05:25:41.123+00:00", datetime(2026, 11, 27, 5, 25, 41, tzinfo=UTC)],
)
def test_an_instant_reads_as_a_date_and_a_time_not_glued_digits(value):
    html = Template("{% load when %}{% when value %}").render(Context({"value": value}))
    stamp = "2026-11-27T05:25:41.123000" if isinstance(value, str) else "2026-11-27T05:25:41"
    assert html == f'<time datetime="{stamp}+00:00" data-local>27 Nov 2026, 05:25 UTC</time>'


def test_the_dashboard_dates_its_games_in_words(page_as, make_game, alice, bob):
    make_game("havana", players=[alice, bob], seed=7)
    html = page_as(alice).get("/").content.decode()
    stamp = re.search(r"<time datetime=\"[^\"]+\" data-local>([^<]+)</time>", html)
    assert stamp and re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC", stamp.group(1))
    assert not re.search(r"\d{4}-\d\d-\d{4}:\d\d", html)


def test_options_are_labelled_in_words_and_still_send_their_names(page_as, alice):
    html = page_as(alice).get("/tables/new/").content.decode()
    assert '<label for="18cuba-map_part">Map part</label>' in html
    assert "Map_part" not in html
    assert '<option value="neue-heimat" selected>Neue heimat</option>' in html


def test_the_game_page_and_its_partial_are_never_kept_for_back_and_forward(
    page_as, make_game, alice, bob
):
    game = make_game("havana", players=[alice, bob], seed=7)
    client = page_as(alice)
    for response in (
        client.get(f"/games/{game.pk}/"),
        client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true"),
        client.get(f"/games/{game.pk}/live/?etag=old"),
    ):
        assert "no-store" in response["Cache-Control"]
    html = client.get(f"/games/{game.pk}/").content.decode()
    # htmx keeps no snapshots of earlier states to show on Back.
    assert '"historyCacheSize": 0' in html and '"refreshOnHistoryMiss": true' in html
