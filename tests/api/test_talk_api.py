"""The table's talk over the API: sending, reading with `after`, and every
refusal as a clear error that changes nothing."""

from __future__ import annotations

import pytest

from accounts.blocks import block, unblock
from games.models import Game
from games.services.creation import do_create_game
from tests.support.consent import consenting


@pytest.fixture
def game(alice, bob, carol):
    return do_create_game(title="duel", players=[alice, bob, carol], options={"rounds": 2}, seed=3)


def post(client, game, body):
    return client.post(f"/api/games/{game.pk}/messages/", body, format="json")


def test_send_and_read_with_after(as_, game, alice, bob, carol):
    sent = post(as_(alice), game, {"to": "table", "text": "hello"})
    assert sent.status_code == 201
    seq = sent.json()["seq"]
    post(as_(bob), game, {"to": 0, "text": "just us"})
    post(as_(carol), game, {"to": "me", "text": "bob bluffs"})
    read = as_(alice).get(f"/api/games/{game.pk}/messages/").json()
    game.refresh_from_db()
    assert read["seq"] == game.seq
    said, just_us, note = read["messages"]
    assert (said["by"], said["to"], said["text"], said["seq"]) == ("alice", "table", "hello", seq)
    assert (just_us["by"], just_us["to"], just_us["text"]) == ("bob", 0, "just us")
    # carol's note: that a message she may not read was sent, no more.
    assert note == {"seq": seq + 2, "created_at": note["created_at"], "private": True}
    later = as_(alice).get(f"/api/games/{game.pk}/messages/?after={seq + 1}").json()
    assert later["messages"] == [note]
    assert as_(carol).get(f"/api/games/{game.pk}/messages/?after={game.seq}").json() == {
        "seq": game.seq, "messages": [],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"to": "table"}, "invalid", 400),
        ({"text": "hi"}, "invalid", 400),
        ({"to": "everyone", "text": "hi"}, "invalid", 400),
        ({"to": 7, "text": "hi"}, "invalid", 400),
        ({"to": 0, "text": "hi"}, "invalid", 400),  # to oneself: a note is "me"
        ({"to": "table", "text": ""}, "invalid", 400),
        ({"to": "table", "text": "a\u0000b"}, "parse_error", 400),
        ({"to": "table", "text": "x" * 2001}, "invalid", 400),
        ({"to": {"seat": 1}, "text": "hi"}, "invalid", 400),
        ({"to": "spectators", "text": "hi"}, "forbidden", 403),
    ],
)
def test_bad_messages_are_refused_clearly_and_change_nothing(as_, game, alice, body, code, status):
    answer = post(as_(alice), game, body)
    assert (answer.status_code, answer.json()["error"]) == (status, code), answer.json()
    assert Game.objects.get(pk=game.pk).seq == game.seq


def test_strangers_and_the_press_setting(as_, alice, bob, eve):
    private = do_create_game(title="duel", players=[alice, bob], public=False)
    assert post(as_(eve), private, {"to": "spectators", "text": "hi"}).status_code == 403
    assert as_(eve).get(f"/api/games/{private.pk}/messages/").status_code == 403
    assert as_(None).get(f"/api/games/{private.pk}/messages/").status_code in (401, 403)
    quiet = do_create_game(title="duel", players=[alice, bob], press="public")
    answer = post(as_(alice), quiet, {"to": 1, "text": "psst"})
    assert (answer.status_code, answer.json()["error"]) == (403, "forbidden")


def test_creation_takes_the_press_setting(as_, alice, bob):
    consenting(alice, bob)  # the older POST /api/games/ seats only who accepted
    made = as_(alice).post(
        "/api/games/", {"title": "duel", "players": ["alice", "bob"], "press": "public",
                        "reveal_private": False}, format="json",
    )  # fmt: skip
    assert made.status_code == 201
    assert (made.json()["press"], made.json()["reveal_private"]) == ("public", False)
    bad = as_(alice).post(
        "/api/games/", {"title": "duel", "players": ["alice", "bob"], "press": "loud"},
        format="json",
    )  # fmt: skip
    assert bad.status_code == 400


def test_over_the_rate_is_a_429_with_retry_after(as_, game, alice, throttle_rates):
    throttle_rates(talk="2/min")
    client = as_(alice)
    assert [post(client, game, {"to": "table", "text": "x"}).status_code for _ in range(2)] == [
        201, 201,
    ]  # fmt: skip
    refused = post(client, game, {"to": "table", "text": "x"})
    assert refused.status_code == 429
    assert refused.json()["error"] == "throttled"
    assert int(refused["Retry-After"]) >= 1


def test_a_delayed_spectator_is_not_told_where_the_stream_stands(as_, alice, bob, charlie):
    from tests.support.play import random_move

    game = do_create_game(title="duel", players=[alice, bob], spectator_delay=1, seed=2)
    import random

    random_move(game, random.Random(1))
    sent = post(as_(charlie), game, {"to": "spectators", "text": "what a move"})
    assert sent.status_code == 201
    assert sent.json() == {"seq": None}


def test_a_reported_message_joins_the_queue_and_a_moderator_hides_it(
    as_, game, alice, bob, carol, mo
):
    said = post(as_(alice), game, {"to": "table", "text": "you are all idiots"}).json()["seq"]
    private = post(as_(alice), game, {"to": 1, "text": "psst"}).json()["seq"]
    report = as_(bob).post(f"/api/games/{game.pk}/messages/{said}/report/", {"reason": "rude"},
                           format="json")  # fmt: skip
    assert report.status_code == 201
    assert (report.json()["message_seq"], report.json()["reported_by"]) == (said, "bob")
    again = as_(bob).post(f"/api/games/{game.pk}/messages/{said}/report/", {"reason": "rude"},
                          format="json")  # fmt: skip
    assert again.status_code == 409
    queue = as_(mo).get("/api/moderation/queue/").json()["items"]
    assert [item["message_seq"] for item in queue] == [said]
    # A message the reporter may not read is no message to them.
    for seq in (private, 1, 999):
        refused = as_(carol).post(
            f"/api/games/{game.pk}/messages/{seq}/report/", {"reason": "x"}, format="json"
        )
        assert refused.status_code == 400, seq
    assert as_(bob).post(f"/api/games/{game.pk}/messages/{said}/hide/", {"reason": "x"},
                         format="json").status_code == 403  # fmt: skip
    hidden = as_(mo).post(f"/api/games/{game.pk}/messages/{said}/hide/",
                          {"reason": "insults"}, format="json")  # fmt: skip
    assert hidden.status_code == 201
    shown = as_(bob).get(f"/api/games/{game.pk}/messages/").json()["messages"]
    assert shown[0] == {"seq": said, "created_at": shown[0]["created_at"], "hidden": True}
    assert "idiots" not in str(as_(bob).get(f"/api/games/{game.pk}/events/").json())
    audit = as_(mo).get(f"/api/games/{game.pk}/audit/").json()
    texts = [e["payload"].get("text") for e in audit["events"] if e["kind"] == "message"]
    assert "you are all idiots" in texts
    assert audit["chain"]["valid"]


def test_a_blocked_players_messages_are_not_shown_to_who_blocked_them(
    as_, game, alice, bob, carol
):
    block(alice, "bob")
    post(as_(bob), game, {"to": "table", "text": "blah"})
    post(as_(bob), game, {"to": 0, "text": "blah privately"})
    assert as_(alice).get(f"/api/games/{game.pk}/messages/").json()["messages"] == []
    assert len(as_(carol).get(f"/api/games/{game.pk}/messages/").json()["messages"]) == 2
    # Private as the block: bob is told nothing, and alice's mutes are her own list.
    assert len(as_(bob).get(f"/api/games/{game.pk}/messages/").json()["messages"]) == 2
    assert as_(alice).get(f"/api/games/{game.pk}/mutes/").json() == {"muted": []}
    unblock(alice, "bob")
    assert len(as_(alice).get(f"/api/games/{game.pk}/messages/").json()["messages"]) == 2


def test_a_muted_seat_and_a_blocked_account_are_both_unheard(as_, game, alice, bob, carol):
    post(as_(bob), game, {"to": "table", "text": "from bob"})
    post(as_(carol), game, {"to": "table", "text": "from carol"})
    block(alice, "bob")
    as_(alice).post(f"/api/games/{game.pk}/mutes/", {"seat": 2}, format="json")
    assert as_(alice).get(f"/api/games/{game.pk}/messages/").json()["messages"] == []
    as_(alice).delete(f"/api/games/{game.pk}/mutes/2/")
    texts = [
        m.get("text") for m in as_(alice).get(f"/api/games/{game.pk}/messages/").json()["messages"]
    ]
    assert texts == ["from carol"]


def test_a_player_mutes_a_seat_for_themselves_only(as_, game, alice, bob, carol):
    post(as_(bob), game, {"to": "table", "text": "blah"})
    post(as_(bob), game, {"to": 0, "text": "blah privately"})
    muted = as_(alice).post(f"/api/games/{game.pk}/mutes/", {"seat": 1}, format="json")
    assert (muted.status_code, muted.json()) == (201, {"muted": [1]})
    assert as_(alice).get(f"/api/games/{game.pk}/messages/").json()["messages"] == []
    assert len(as_(carol).get(f"/api/games/{game.pk}/messages/").json()["messages"]) == 2
    # The record is the record: the events still carry what the muter may read.
    assert "blah privately" in str(as_(alice).get(f"/api/games/{game.pk}/events/").json())
    for bad in (0, 3, 99):
        assert as_(alice).post(f"/api/games/{game.pk}/mutes/", {"seat": bad},
                               format="json").status_code == 400  # fmt: skip
    assert as_(alice).delete(f"/api/games/{game.pk}/mutes/1/").json() == {"muted": []}
    assert len(as_(alice).get(f"/api/games/{game.pk}/messages/").json()["messages"]) == 2
