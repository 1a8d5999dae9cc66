"""A player is told inside the game what is provisional: the game detail,
the game page and every mail of the game say it in one sentence."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.html import escape

from games.engines import base
from games.selectors import provisional
from games.services.creation import do_create_game
from notifications import render
from notifications.models import Notification


@pytest.mark.parametrize(
    ("title", "flagged"),
    # The Estates / Neue Heimat: the default edition (Neue Heimat) decides.
    [("havana", True), ("18cuba", True), ("pointcity", True), ("estates", True)],
)
def test_the_game_detail_says_what_is_provisional(as_, alice, bob, title, flagged):
    game = do_create_game(title=title, players=[alice, bob], seed=1)
    detail = as_(alice).get(f"/api/games/{game.pk}/").json()
    assert detail["provisional_data"] is flagged
    assert (detail["provisional_note"] is not None) is flagged
    assert detail["provisional_note"] == provisional.note(base.get(title))


def test_the_page_and_every_mail_of_a_havana_game_say_it(client, alice, bob):
    game = do_create_game(title="havana", players=[alice, bob], seed=1)
    note = provisional.note(base.get("havana"))
    assert "Havana's 36 printed cards" in note
    client.force_login(alice)
    assert escape(note) in client.get(f"/games/{game.pk}/").content.decode()
    message = render.build_message(Notification.objects.filter(game=game, user=alice).first())
    assert note in message.body and escape(note) in message.alternatives[0][0]


def test_a_german_mail_says_it_in_german(alice, bob):
    alice.language = "de"
    alice.save()
    game = do_create_game(title="havana", players=[alice, bob], seed=1)
    message = render.build_message(Notification.objects.filter(game=game, user=alice).first())
    with translation.override("de"):
        german = provisional.note(base.get("havana"))
    assert german.startswith("Die Baukosten") and german in message.body


def test_a_title_without_provisional_data_has_no_note(alice, bob):
    game = do_create_game(
        title="estates", players=[alice, bob], options={"edition": "the-estates"}, seed=1
    )
    message = render.build_message(Notification.objects.filter(game=game).first())
    assert "provisional" not in message.body


@pytest.mark.parametrize(("title", "parts"), [("havana", ["buildings"]), ("pointcity", ["cards"])])
def test_the_view_of_every_seat_carries_the_flag(as_, alice, bob, title, parts):
    game = do_create_game(title=title, players=[alice, bob], seed=1)
    for user in (alice, bob):
        view = as_(user).get(f"/api/games/{game.pk}/").json()["view"]
        assert view["provisional"] == parts == base.get(title).provisional(game.options)


def test_the_note_says_each_provisional_part_once():
    class Both(type(base.get("havana"))):
        def provisional(self, options):
            return ["buildings", "buildings", "unknown"]

    note = provisional.note(Both())
    assert note.count("Havana's 36 printed cards") == 1
    assert note.endswith("it may differ from the printed game.")


# --- The Estates / Neue Heimat: what is provisional depends on the edition ---

ESTATES_EDITIONS = [("neue-heimat", ["white_lots", "roof_values"]), ("the-estates", [])]


def test_the_titles_list_flags_estates_since_some_of_its_games_have_provisional_data(client):
    titles = {t["name"]: t for t in client.get("/api/titles/").json()["titles"]}
    assert titles["estates"]["provisional_data"] is True


@pytest.mark.parametrize(("edition", "keys"), ESTATES_EDITIONS)
def test_an_estates_game_detail_flags_only_neue_heimats_copied_lots_and_roofs(
    as_, alice, bob, edition, keys
):
    game = do_create_game(
        title="estates", players=[alice, bob], options={"edition": edition}, seed=1
    )
    detail = as_(alice).get(f"/api/games/{game.pk}/").json()
    assert detail["provisional_data"] is bool(keys)
    note = detail["provisional_note"]
    if keys:
        assert "one-floor lots" in note and "1 to 5" in note
        assert note == provisional.note(base.get("estates"), {"edition": edition})
    else:
        assert note is None


@pytest.mark.parametrize(("edition", "keys"), ESTATES_EDITIONS)
def test_the_estates_view_of_every_seat_carries_the_editions_flag(as_, alice, bob, edition, keys):
    game = do_create_game(
        title="estates", players=[alice, bob], options={"edition": edition}, seed=1
    )
    for user in (alice, bob):
        assert as_(user).get(f"/api/games/{game.pk}/").json()["view"]["provisional"] == keys


@pytest.mark.parametrize(("edition", "keys"), ESTATES_EDITIONS)
def test_an_estates_mail_footer_says_what_is_provisional_in_neue_heimat_only(
    alice, bob, edition, keys
):
    game = do_create_game(
        title="estates", players=[alice, bob], options={"edition": edition}, seed=1
    )
    message = render.build_message(Notification.objects.filter(game=game).first())
    html = message.alternatives[0][0]
    lots = "Neue Heimat's five one-floor lots are placed as on The Estates board"
    roofs = "Neue Heimat's 12 numbered roofs are taken to be 1 to 6 twice"
    if keys:
        note = provisional.note(base.get("estates"), {"edition": edition})
        assert note in message.body and escape(note) in html
        assert message.body.count(lots) == 1 and message.body.count(roofs) == 1
    else:
        assert lots not in message.body and roofs not in message.body
        assert "provisional" not in message.body


def test_a_german_neue_heimat_mail_says_both_sentences_in_german(alice, bob):
    for user in (alice, bob):
        user.language = "de"
        user.save()
    game = do_create_game(
        title="estates", players=[alice, bob], options={"edition": "neue-heimat"}, seed=1
    )
    message = render.build_message(Notification.objects.filter(game=game).first())
    with translation.override("de"):
        german = provisional.note(base.get("estates"), {"edition": "neue-heimat"})
    assert german.startswith("Die fünf Bauplätze für nur ein Stockwerk")
    assert "zweimal 1 bis 6" in german and german in message.body
