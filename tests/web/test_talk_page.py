"""The talk box under the board: sending from the page, the words escaped,
its own poll, and a refusal that keeps the words in the box."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Event, Table
from games.services.creation import do_create_game
from games.services.tables import check_join_table
from games.services.talk import check_send_message

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob):
    return do_create_game(title="duel", players=[alice, bob], seed=1)


def test_the_box_is_under_the_board_with_labelled_fields(page_as, alice, game):
    html = page_as(alice).get(f"/games/{game.pk}/").content.decode()
    assert html.index('class="board-area"') < html.index('id="talk"')
    for field in ('<label for="talk-to">', '<label for="talk-text">', 'value="table"',
                  'value="1"', 'value="me"'):  # fmt: skip
        assert field in html
    # The game's redraw keeps what is being typed.
    assert 'id="talk-text" name="text" rows="2" hx-preserve="true"' in html


def test_a_message_sent_from_the_page_is_escaped_everywhere_it_shows(page_as, alice, bob, game):
    words = '<script>alert("x")</script> & <b>bold</b>'
    answer = page_as(alice).post(f"/games/{game.pk}/talk/", {"to": "table", "text": words}, **HTMX)
    assert answer.status_code == 200
    event = Event.objects.get(game=game, kind="message")
    assert (event.payload["text"], event.payload["via"]) == (words, "web")
    for html in (answer.content.decode(),
                 page_as(bob).get(f"/games/{game.pk}/").content.decode(),
                 page_as(bob).get(f"/games/{game.pk}/talk/").content.decode()):  # fmt: skip
        assert "<script>alert" not in html and "<b>bold" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold" in html


def test_the_list_polls_on_its_own_and_is_empty_until_something_is_said(page_as, alice, bob, game):
    client = page_as(bob)
    game.refresh_from_db()
    assert client.get(f"/games/{game.pk}/talk/?seq={game.seq}", **HTMX).status_code == 204
    check_send_message(game, alice, to=1, text="between us", source="api")
    fresh = client.get(f"/games/{game.pk}/talk/?seq={game.seq}", **HTMX)
    assert fresh.status_code == 200
    assert "alice to bob, privately: between us" in fresh.content.decode()


def test_a_refused_message_keeps_its_words_and_says_why(page_as, alice, game, settings):
    settings.CORREO_MESSAGE_LENGTH = 5
    answer = page_as(alice).post(f"/games/{game.pk}/talk/", {"to": "table", "text": "too long"},
                                 **HTMX)  # fmt: skip
    html = answer.content.decode()
    assert 'role="alert"' in html and "at most 5 characters" in html
    assert ">too long</textarea>" in html
    assert not Event.objects.filter(game=game, kind="message").exists()


def test_a_visitor_reads_the_table_but_has_no_form(page_as, alice, game):
    check_send_message(game, alice, to="table", text="welcome", source="api")
    html = page_as(None).get(f"/games/{game.pk}/").content.decode()
    assert "alice to the table: welcome" in html
    assert 'id="talk-text"' not in html
    assert (
        page_as(None).post(f"/games/{game.pk}/talk/", {"to": "table", "text": "x"}).status_code
        == 302
    )


def test_report_hide_and_mute_from_the_box(page_as, alice, bob, mo, game):
    said = check_send_message(game, bob, to="table", text="rude words", source="api").seq
    reported = page_as(alice).post(f"/games/{game.pk}/talk/{said}/",
                                   {"act": "report", "reason": "rude"}, **HTMX)  # fmt: skip
    assert "Your report went to the moderators." in reported.content.decode()
    from games.models import ModerationItem

    assert ModerationItem.objects.get().message_seq == said
    # Only a moderator hides; a player's try is refused in words, nothing written.
    tried = page_as(alice).post(f"/games/{game.pk}/talk/{said}/",
                                {"act": "hide", "reason": "x"}, **HTMX)  # fmt: skip
    assert 'role="alert"' in tried.content.decode()
    hidden = page_as(mo).post(f"/games/{game.pk}/talk/{said}/",
                              {"act": "hide", "reason": "insults"}, **HTMX)  # fmt: skip
    assert "The message is hidden." in hidden.content.decode()
    assert "rude words" not in page_as(alice).get(f"/games/{game.pk}/").content.decode()
    check_send_message(game, bob, to="table", text="chatter", source="api")
    muted = page_as(alice).post(f"/games/{game.pk}/talk/mute/", {"seat": "1", "mute": "1"},
                                **HTMX)  # fmt: skip
    html = muted.content.decode()
    assert "chatter" not in html and 'aria-pressed="true"' in html
    assert "chatter" in page_as(mo).get(f"/games/{game.pk}/").content.decode()


def test_the_table_form_sets_the_table_talk_its_game_will_have(page_as, alice, bob):
    client = page_as(alice)
    form = client.get("/").content.decode()
    assert '<label for="press">' in form and '<label for="reveal_private">' in form
    opened = {"title": "duel", "min_seats": "2", "max_seats": "2", "open": "on",
              "press": "public"}  # fmt: skip
    client.post(reverse("web:new-table"), opened)
    table = Table.objects.latest("pk")
    assert (table.press, table.reveal_private) == ("public", False)
    check_join_table(table.pk, bob)  # the table is full: its game starts
    table.refresh_from_db()
    assert (table.game.press, table.game.reveal_private) == ("public", False)
    answer = client.post(reverse("web:new-table"), {**opened, "press": "loud"})
    assert Table.objects.latest("pk") == table  # refused, nothing made
    assert answer.status_code == 400
    assert "press must be full, public or none" in answer.content.decode()
