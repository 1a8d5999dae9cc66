"""The lobby, opening a table, a table's page, invitations on the dashboard
and an invitation mail's landing page; what each viewer is shown."""

from __future__ import annotations

from urllib.parse import quote

from games.models import Game, Invitation, Table
from games.selectors import invite_tokens, tables
from games.services.invitations import check_invite
from games.services.tables import check_create_table, check_join_table
from tests.conftest import make_user


def open_table(host, **options) -> Table:
    options.setdefault("title", "duel")
    options.setdefault("seats", {"min": 2, "max": 3})
    return check_create_table(host, **options)


def text(response) -> str:
    return response.content.decode()


def test_the_lobby_lists_open_tables_to_anyone(page_as, alice, bob):
    duel = open_table(alice)
    havana = open_table(bob, title="havana")
    hidden = open_table(bob, open=False)
    page = text(page_as(None).get("/tables/"))
    assert f"Duel #{duel.pk}" in page or f"#{duel.pk}" in page
    assert f'data-table="{havana.pk}"' in page and f'data-table="{hidden.pk}"' not in page
    assert "Log in" in page and "Take a seat" not in page
    only = text(page_as(None).get("/tables/?title=havana"))
    assert f'data-table="{havana.pk}"' in only and f'data-table="{duel.pk}"' not in only
    mine = text(page_as(bob).get("/tables/"))
    assert "Take a seat at" in mine and "Open a table" in mine


def test_taking_the_last_seat_from_the_lobby_leads_to_the_game(page_as, alice, bob):
    table = open_table(alice, seats=2)
    response = page_as(bob).post(f"/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == "started"
    assert response.status_code == 302 and response.url == f"/games/{table.game_id}/"
    # The host's page, polled, now says so.
    page = text(page_as(alice).get(f"/tables/{table.pk}/", HTTP_HX_REQUEST="true"))
    assert f"/games/{table.game_id}/" in page and "hx-trigger" not in page


def test_opening_a_table_from_the_form(page_as, alice, bob):
    form = text(page_as(alice).get("/"))
    assert 'action="/tables/new/"' in form and "Open the table" in form
    response = page_as(alice).post("/tables/new/", {
        "title": "duel", "min_seats": "2", "max_seats": "3", "seat_order": "joined",
        "duel-rounds": "2", "per_move": "72h", "on_timeout": "skip", "open": "on",
        "public": "on", "invite": "bob", "offer_seats": "on",
    })  # fmt: skip
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    assert table.offer_seats
    assert "Lost seats</dt><dd>offered in the lobby" in text(page_as(alice).get(response.url))
    assert (table.min_seats, table.max_seats, table.options) == (2, 3, {"rounds": 2})
    assert table.clock == {"per_move": "72h", "on_timeout": "skip"}
    assert table.open and table.public and table.seat_order == "joined"
    assert Invitation.objects.get().user == bob


def test_the_form_keeps_what_was_typed_after_a_refusal(page_as, alice):
    typed = {
        "title": "havana", "min_seats": "2", "max_seats": "3", "seat_order": "host",
        "havana-ages": "", "per_move": "forever", "on_timeout": "forfeit",
        "invite": "nobody-yet", "spectator_delay": "7", "public": "on", "offer_seats": "on",
    }  # fmt: skip
    response = page_as(alice).post("/tables/new/", typed)
    page = text(response)
    assert response.status_code == 400 and not Table.objects.exists()
    assert "clock.per_move must be a duration" in page
    assert '<option value="havana" selected>' in page
    assert 'value="forever"' in page and 'value="nobody-yet"' in page
    assert '<option value="host" selected>' in page
    assert '<option value="forfeit" selected>' in page
    assert 'name="spectator_delay" min="0" max="1000" value="7"' in page
    assert 'id="min_seats" name="min_seats" min="1" max="8" size="3" value="2"' in page
    assert 'id="open" name="open">' in page  # left unticked, as sent
    assert 'id="public" name="public" checked>' in page
    assert (
        'id="offer_seats" name="offer_seats" aria-describedby="offer_seats_help" checked>' in page
    )


def test_an_unknown_invitee_opens_nothing(page_as, alice):
    response = page_as(alice).post("/tables/new/", {"title": "duel", "invite": "zed"})
    assert response.status_code == 400 and "no such player: zed" in text(response)
    assert not Table.objects.exists()


def test_a_solo_table_with_a_bot_starts_at_once(page_as, alice):
    form = {"title": "pointcity", "min_seats": "2", "max_seats": "2", "invite": "bot:greedy"}
    response = page_as(alice).post("/tables/new/", form)
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    names = sorted(s.user.username for s in game.seats.all())  # the seats are drawn
    assert names[0] == "alice" and names[1].startswith("bot:greedy:")


def test_the_table_page_shows_each_viewer_what_is_theirs(page_as, alice, bob, carol, eve):
    table = open_table(alice, open=False)
    check_join_table(table.pk, bob, token=invite_tokens.link_token(tables.current_link(table)))
    check_invite(table.pk, alice, usernames=["carol"], emails=["dora@example.net"])
    token = invite_tokens.link_token(tables.current_link(table))
    host = text(page_as(alice).get(f"/tables/{table.pk}/"))
    assert quote(token) in host and "Copy" in host and "Start the game now" in host
    assert "carol, d…@example.net" in host
    player = text(page_as(bob).get(f"/tables/{table.pk}/"))
    assert token not in player and quote(token) not in player
    assert "carol" in player and "Leave the table" in player
    invitee = text(page_as(carol).get(f"/tables/{table.pk}/"))
    assert "Accept and take a seat" in invitee and "d…@example.net" not in invitee
    assert page_as(eve).get(f"/tables/{table.pk}/").status_code == 404
    assert page_as(None).get(f"/tables/{table.pk}/").status_code == 404
    stranger = page_as(eve).get(f"/tables/{table.pk}/", {"token": token})
    assert stranger.status_code == 200
    assert "Take a seat" in text(stranger) and "carol" not in text(stranger)


def test_the_dashboard_lists_invitations_to_answer(page_as, alice, bob):
    table = open_table(alice)
    [invitation] = check_invite(table.pk, alice, usernames=["bob"])
    page = text(page_as(bob).get("/"))
    assert "alice invites you to" in page and f"/invitations/{invitation.pk}/accept/" in page
    response = page_as(bob).post(f"/invitations/{invitation.pk}/accept/")
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    assert "Your tables waiting for players" in text(page_as(bob).get("/"))
    other = open_table(alice)
    [second] = check_invite(other.pk, alice, usernames=["bob"])
    page_as(bob).post(f"/invitations/{second.pk}/decline/")
    second.refresh_from_db()
    assert second.status == "declined"
    assert page_as(bob).post(f"/invitations/{second.pk}/shrug/").status_code == 404


def test_host_acts_on_the_table_page(page_as, alice, bob, carol):
    table = open_table(alice, seats={"min": 2, "max": 4})
    check_join_table(table.pk, bob)
    check_join_table(table.pk, carol)
    page_as(alice).post(f"/tables/{table.pk}/remove/", {"username": "carol"})
    page_as(alice).post(f"/tables/{table.pk}/links/", {"single_use": "on", "hours": "2"})
    assert table.links.filter(single_use=True, expires_at__isnull=False).exists()
    page_as(alice).post(f"/tables/{table.pk}/links/revoke/")
    assert not table.links.filter(revoked_at=None).exists()
    refused = page_as(bob).post(f"/tables/{table.pk}/start/", follow=True)
    assert "only the table&#x27;s host may do this" in text(refused)
    started = page_as(alice).post(f"/tables/{table.pk}/start/")
    table.refresh_from_db()
    assert table.status == "started" and started.url == f"/games/{table.game_id}/"


def test_an_address_invitation_leads_through_sign_up_to_the_seat(page_as, alice):
    table = open_table(alice, open=False)
    [invitation] = check_invite(table.pk, alice, emails=["dora@example.net"])
    token = invite_tokens.invitation_token(invitation)
    landing = text(page_as(None).get(f"/invitations/{token}/"))
    assert "alice invites you to a game of" in landing
    signup_url = f"/accounts/signup/?next=%2Finvitations%2F{quote(token, safe='')}%2F"
    assert signup_url in landing.replace("&amp;", "&")
    visitor = page_as(None)
    form = text(visitor.get(signup_url + "&email=dora%40example.net"))
    assert 'value="dora@example.net"' in form
    signed_up = visitor.post(signup_url, {
        "username": "dora", "email": "dora@example.net", "password1": "a long pass 4827",
        "password2": "a long pass 4827", "next": f"/invitations/{token}/",
    })  # fmt: skip
    assert signed_up.status_code == 302 and signed_up.url == f"/invitations/{token}/"
    seated = visitor.post(f"/invitations/{token}/", {"answer": "accept"})
    assert seated.status_code == 302 and seated.url == f"/tables/{table.pk}/"
    assert "dora" in [s.user.username for s in table.seats.all()]
    again = page_as(None).get(f"/invitations/{token}/")
    assert again.status_code == 404 and "answered or has lapsed" in text(again)
    forged = page_as(None).get(f"/invitations/{token}x/")
    assert forged.status_code == 404 and "not valid" in text(forged)


def test_sign_up_goes_nowhere_but_here(page_as):
    response = page_as(None).post("/accounts/signup/", {
        "username": "dora", "email": "dora@example.net", "password1": "a long pass 4827",
        "password2": "a long pass 4827", "next": "https://evil.example/",
    })  # fmt: skip
    assert response.status_code == 302 and response.url == "/"


def test_declining_an_address_invitation_needs_no_account(page_as, alice):
    table = open_table(alice)
    [invitation] = check_invite(table.pk, alice, emails=["dora@example.net"])
    token = invite_tokens.invitation_token(invitation)
    page_as(None).post(f"/invitations/{token}/", {"answer": "decline"})
    invitation.refresh_from_db()
    assert invitation.status == "declined"


def test_the_table_pages_are_phone_ready_and_labelled(page_as, alice):
    make_user("bob")
    table = open_table(alice)
    for path in ["/tables/", f"/tables/{table.pk}/", "/tables/new/", "/"]:
        page = text(page_as(alice).get(path))
        assert 'name="viewport"' in page
        for field in ("invite", "title", "per_move", "table-invite", "lobby-title"):
            if f'id="{field}"' in page:
                assert f'for="{field}"' in page, (path, field)


def test_blocks_from_the_settings_page(page_as, alice, bob):
    from accounts.models import Block

    page = page_as(alice)
    assert "Blocked players" in text(page.get("/settings/"))
    page.post("/settings/blocks/", {"username": "bob"})
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert "Unblock bob" in text(page.get("/settings/"))
    refused = page.post("/settings/blocks/", {"username": "alice"}, follow=True)
    assert "you cannot block yourself" in text(refused)
    page.post("/settings/blocks/bob/remove/")
    assert not Block.objects.exists()


def test_report_and_rematch_from_the_game_page(page_as, alice, bob, mo):
    from games.models import ModerationItem
    from games.services.abort import check_abort
    from games.services.creation import do_create_game

    game = do_create_game(title="duel", players=[alice, bob])
    page = text(page_as(bob).get(f"/games/{game.pk}/"))
    assert "Report this game to the moderators" in page and "Rematch" not in page
    page_as(bob).post(f"/games/{game.pk}/report/", {"reason": "alice is rude"})
    item = ModerationItem.objects.get()
    assert (item.kind, item.reason, item.reported_by) == ("report", "alice is rude", bob)
    empty = page_as(bob).post(f"/games/{game.pk}/report/", {"reason": ""}, follow=True)
    assert "already" in text(empty) or "needs a reason" in text(empty)
    check_abort(game, mo, reason="over")
    assert "Rematch" in text(page_as(alice).get(f"/games/{game.pk}/"))
    response = page_as(alice).post(f"/games/{game.pk}/rematch/")
    table = Table.objects.get(rematch_of=game)
    assert response.url == f"/tables/{table.pk}/"
    assert Invitation.objects.get(table=table).user == bob
