"""The tables' API: open, list (the lobby), join, leave, remove, start; its
refusals in the usual {"error", "detail"} shape."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from games.models import Game, Table

BODY = {"title": "duel", "seats": {"min": 2, "max": 3}, "seat_order": "joined"}


def open_table(client, **changes) -> dict:
    response = client.post("/api/tables/", {**BODY, **changes}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_opening_a_table_answers_with_its_link(as_, alice):
    table = open_table(as_(alice), options={"rounds": 2}, clock={"per_move": "72h"})
    assert table["players"] == ["alice"]
    assert table["status"] == "waiting" and table["game"] is None
    assert table["seats"] == {"min": 2, "max": 3} and table["free"] == 2
    assert table["options"] == {"rounds": 2} and table["clock"] == {"per_move": "72h"}
    assert table["invite_token"] and table["invite_url"].endswith(
        f"/tables/{table['id']}/?token={table['invite_token'].replace(':', '%3A')}"
    )
    assert table["your_seat"] and table["host_is_you"]


def test_a_seat_count_as_a_number(as_, alice):
    table = open_table(as_(alice), seats=2)
    assert table["seats"] == {"min": 2, "max": 2}


@pytest.mark.parametrize(
    "changes",
    [{"title": "chess"}, {"seats": 7}, {"seats": {"min": "2"}}, {"seats": [2, 3]},
     {"seat_order": "age"}, {"spectator_delay": 5000}, {"options": {"rounds": 0}},
     {"options": {"colour": "red"}}, {"clock": {"per_move": "soon"}}],
)  # fmt: skip
def test_a_bad_table_is_refused_in_the_usual_shape(as_, alice, changes):
    response = as_(alice).post("/api/tables/", {**BODY, **changes}, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"error", "detail"}
    assert not Table.objects.exists()


def test_the_lobby_lists_open_tables_with_free_seats_newest_first(as_, alice, bob, carol, eve):
    first = open_table(as_(alice))
    second = open_table(as_(bob), title="havana", seats=2)
    unlisted = open_table(as_(carol), open=False)
    full = open_table(as_(carol), seats=2)
    as_(eve).post(f"/api/tables/{full['id']}/join/", {}, format="json")
    lobby = as_(eve).get("/api/tables/?open=1").json()
    assert [t["id"] for t in lobby["results"]] == [second["id"], first["id"]]
    assert lobby["count"] == 2
    assert "invite_token" not in lobby["results"][0]
    only = as_(eve).get("/api/tables/?open=1&title=havana").json()["results"]
    assert [t["id"] for t in only] == [second["id"]]
    # Without open=1, my own tables are listed too.
    mine = as_(carol).get("/api/tables/").json()["results"]
    assert unlisted["id"] in [t["id"] for t in mine]
    assert unlisted["id"] not in [t["id"] for t in as_(eve).get("/api/tables/").json()["results"]]


def test_the_lobby_is_paginated_and_readable_without_an_account(as_, alice, bob):
    for _ in range(3):
        open_table(as_(alice))
    page = as_(None).get("/api/tables/?open=1&page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert as_(None).get("/api/tables/?page=9").status_code == 404


def test_a_table_asks_for_lost_seats_to_be_offered_only_when_public(as_, alice):
    body = {"title": "duel", "seats": 2, "offer_seats": True}
    made = as_(alice).post("/api/tables/", body, format="json")
    assert made.status_code == 201 and made.json()["offer_seats"] is True
    refused = as_(alice).post("/api/tables/", {**body, "public": False}, format="json")
    assert (
        refused.status_code == 400
        and "offer_seats needs a public game" in refused.json()["detail"]
    )
    plain = as_(alice).post("/api/tables/", {"title": "duel", "seats": 2}, format="json")
    assert plain.json()["offer_seats"] is False


def test_an_empty_yes_or_no_in_the_lobbys_query_is_refused_not_taken_as_no(as_):
    for query in ["open=", "open=perhaps"]:
        response = as_(None).get(f"/api/tables/?{query}")
        assert response.status_code == 400 and response.json()["fields"]["open"], query


def test_joining_fills_the_table_and_the_answer_names_the_game(as_, alice, bob, carol):
    table = open_table(as_(alice), seats=3)
    joined = as_(bob).post(f"/api/tables/{table['id']}/join/", {}, format="json").json()
    assert joined["players"] == ["alice", "bob"] and joined["your_seat"]
    assert joined["invite_token"] is None  # the link is the host's to hand out
    full = as_(carol).post(f"/api/tables/{table['id']}/join/", {}, format="json").json()
    assert full["status"] == "started"
    game = Game.objects.get(pk=full["game"])
    assert [seat.user.username for seat in game.seats.order_by("index")] == [
        "alice", "bob", "carol",
    ]  # fmt: skip
    again = as_(carol).post(f"/api/tables/{table['id']}/join/", {}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "conflict"


def test_the_table_chooses_the_table_talk_its_game_will_have(as_, alice, bob):
    table = open_table(as_(alice), seats=2, press="none", reveal_private=False)
    assert (table["press"], table["reveal_private"]) == ("none", False)
    full = as_(bob).post(f"/api/tables/{table['id']}/join/", {}, format="json").json()
    game = Game.objects.get(pk=full["game"])
    assert (game.press, game.reveal_private) == ("none", False)
    bad = as_(alice).post("/api/tables/", {"title": "duel", "press": "loud"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "invalid"


def test_an_unlisted_table_is_joined_and_seen_only_with_its_link(as_, alice, bob, eve):
    table = open_table(as_(alice), open=False)
    path = f"/api/tables/{table['id']}/"
    assert as_(eve).get(path).status_code == 404
    assert as_(None).get(path).status_code == 404
    refused = as_(bob).post(path + "join/", {}, format="json")
    assert refused.status_code == 404 and refused.json()["error"] == "not_found"
    seen = as_(eve).get(path, {"token": table["invite_token"]})
    assert seen.status_code == 200 and seen.json()["invite_token"] is None
    joined = as_(bob).post(path + "join/", {"token": table["invite_token"]}, format="json")
    assert joined.status_code == 200 and joined.json()["players"] == ["alice", "bob"]
    forged = as_(eve).post(path + "join/", {"token": table["invite_token"] + "x"}, format="json")
    assert forged.status_code == 403 and forged.json()["error"] == "invalid_link"


def test_leave_remove_and_start(as_, alice, bob, carol):
    table = open_table(as_(alice))
    path = f"/api/tables/{table['id']}/"
    as_(bob).post(path + "join/", {}, format="json")
    as_(carol).post(path + "join/", {}, format="json")
    # The third seat filled the table: it started.
    assert as_(alice).get(path).json()["status"] == "started"

    table = open_table(as_(alice))
    path = f"/api/tables/{table['id']}/"
    as_(bob).post(path + "join/", {}, format="json")
    left = as_(bob).post(path + "leave/", format="json")
    assert left.status_code == 200 and left.json()["players"] == ["alice"]
    too_few = as_(alice).post(path + "start/", {}, format="json")
    assert too_few.status_code == 409 and "at least 2" in too_few.json()["detail"]
    as_(bob).post(path + "join/", {}, format="json")
    not_host = as_(bob).post(path + "remove/", {"username": "alice"}, format="json")
    assert not_host.status_code == 403 and not_host.json()["error"] == "forbidden"
    removed = as_(alice).post(path + "remove/", {"username": "bob"}, format="json")
    assert removed.json()["players"] == ["alice"]
    as_(carol).post(path + "join/", {}, format="json")
    started = as_(alice).post(path + "start/", {}, format="json").json()
    assert started["status"] == "started" and started["game"]
    assert as_(carol).get(f"/api/games/{started['game']}/").json()["your_seat"] == 1


def test_the_host_orders_the_seats(as_, alice, bob):
    table = open_table(as_(alice), seat_order="host")
    path = f"/api/tables/{table['id']}/"
    as_(bob).post(path + "join/", {}, format="json")
    started = as_(alice).post(path + "start/", {"order": ["bob", "alice"]}, format="json")
    game = Game.objects.get(pk=started.json()["game"])
    assert [seat.user.username for seat in game.seats.order_by("index")] == ["bob", "alice"]


def test_a_table_that_does_not_exist_is_a_404_in_the_usual_shape(as_, alice):
    for path in ["/api/tables/999999/", "/api/tables/99999999999999999999/join/"]:
        response = (
            as_(alice).post(path, {}, format="json") if "join" in path else (as_(alice).get(path))
        )
        assert response.status_code == 404
        assert response.json() == {"error": "not_found", "detail": "no such resource"}


def test_writing_needs_an_account(as_, alice):
    table = open_table(as_(alice))
    assert as_(None).post("/api/tables/", BODY, format="json").status_code == 401
    joined = as_(None).post(f"/api/tables/{table['id']}/join/", {}, format="json")
    assert joined.status_code == 401


def test_invitations_through_the_api(as_, alice, bob, carol):
    table = open_table(as_(alice), open=False)
    path = f"/api/tables/{table['id']}/"
    invited = as_(alice).post(path + "invite/", {"usernames": ["bob", "carol"]}, format="json")
    assert invited.status_code == 201 and invited.json()["invited"] == ["bob", "carol"]
    [mine] = as_(bob).get("/api/invitations/").json()["invitations"]
    assert (mine["table"], mine["from"], mine["status"]) == (table["id"], "alice", "pending")
    # An invitee sees the unlisted table before answering.
    assert as_(bob).get(path).status_code == 200
    accepted = as_(bob).post(f"/api/invitations/{mine['id']}/accept/", {}, format="json")
    assert accepted.status_code == 200 and accepted.json()["players"] == ["alice", "bob"]
    [hers] = as_(carol).get("/api/invitations/").json()["invitations"]
    declined = as_(carol).post(f"/api/invitations/{hers['id']}/decline/", {}, format="json")
    assert declined.json()["status"] == "declined"
    assert as_(carol).get("/api/invitations/").json()["invitations"] == []
    assert as_(carol).get("/api/invitations/?all=1").json()["invitations"][0]["status"] == (
        "declined"
    )
    again = as_(carol).post(f"/api/invitations/{hers['id']}/accept/", {}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "conflict"
    other = as_(alice).post(f"/api/invitations/{hers['id']}/accept/", {}, format="json")
    assert other.status_code == 404


def test_links_are_made_and_revoked_by_the_host(as_, alice, bob, carol, eve):
    table = open_table(as_(alice), open=False, seats=4)
    path = f"/api/tables/{table['id']}/"
    link = as_(alice).post(path + "links/", {"single_use": True, "expires_in": 3600},
                           format="json").json()  # fmt: skip
    assert link["single_use"] and link["expires_at"]
    assert link["invite_url"].endswith(quote(link["invite_token"]))
    assert as_(bob).post(path + "links/", {}, format="json").status_code == 403
    joined = as_(bob).post(path + "join/", {"token": link["invite_token"]}, format="json")
    assert joined.status_code == 200
    used = as_(carol).post(path + "join/", {"token": link["invite_token"]}, format="json")
    assert used.status_code == 403 and used.json()["error"] == "invalid_link"
    revoked = as_(alice).post(path + "links/revoke/", {}, format="json").json()
    assert revoked == {"revoked": 2}  # every link the table had, the spent one too
    gone = as_(eve).post(path + "join/", {"token": table["invite_token"]}, format="json")
    assert gone.status_code == 403 and "withdrawn" in gone.json()["detail"]


def test_bots_take_seats_through_an_invitation(as_, alice):
    table = open_table(as_(alice), title="havana", seats=2)
    seated = as_(alice).post(f"/api/tables/{table['id']}/invite/", {"usernames": ["bot:random"]},
                             format="json").json()  # fmt: skip
    assert seated["status"] == "started" and seated["players"] == ["alice", "bot:random"]


@pytest.mark.parametrize("query", ["open=%00", "page=0", "page_size=0", "title=" + "x" * 40])
def test_a_bad_lobby_query_is_a_clear_400_for_anyone(as_, alice, query):
    for client in (as_(alice), as_(None)):
        response = client.get(f"/api/tables/?{query}")
        assert response.status_code == 400 and response.json()["error"] == "invalid"
