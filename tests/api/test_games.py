"""The games endpoints: create, list, detail, actions, events."""

from __future__ import annotations

import pytest

from games.models import Event, Game
from games.services.creation import do_create_game
from tests.conftest import make_user
from tests.support.consent import consenting
from tests.support.play import hand


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], seed=42, creator=alice)


def commit(as_, user, game, card, seq):
    return as_(user).post(
        f"/api/games/{game.pk}/actions/",
        {"seq": seq, "action": {"type": "commit", "card": card}},
        format="json",
    )


# --- create ---------------------------------------------------------------


def test_create_starts_a_game_with_players_in_seat_order(as_, alice, bob, carol):
    consenting(alice, bob, carol)
    response = as_(alice).post(
        "/api/games/",
        {"title": "duel", "players": ["bob", "alice", "carol"], "options": {"rounds": 2}},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert [p["username"] for p in body["players"]] == ["bob", "alice", "carol"]
    assert body["your_seat"] == 1 and body["seq"] == 1 and body["status"] == "active"
    assert body["to_act"] == [0, 1, 2]
    assert len(body["view"]["hand"]) == 2
    assert Game.objects.get(pk=body["id"]).options == {"rounds": 2}


def test_the_creator_must_play_unless_a_moderator(as_, alice, bob, mo):
    body = {"title": "duel", "players": ["alice", "bob"]}
    consenting(bob, alice)
    assert as_(bob).post("/api/games/", body, format="json").status_code == 201
    stranger = as_(mo).post("/api/games/", body, format="json")
    assert stranger.status_code == 201
    carol_tries = as_(None).post("/api/games/", body, format="json")
    assert carol_tries.status_code == 401


def test_only_players_who_accepted_an_invitation_from_the_creator_are_seated(
    as_, alice, bob, carol
):
    """Nobody is seated without consent: the older door seats a person only
    if they accepted an invitation from its creator; bots need none."""
    body = {"title": "havana", "players": ["alice", "bob", "bot:greedy"]}
    refused = as_(alice).post("/api/games/", body, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"] == "no_consent"
    assert "bob never accepted an invitation from you" in refused.json()["detail"]
    consenting(carol, bob)  # bob agreed to play with carol, not with alice
    assert as_(alice).post("/api/games/", body, format="json").status_code == 403
    consenting(alice, bob)
    assert as_(alice).post("/api/games/", body, format="json").status_code == 201
    alone = {"title": "havana", "players": ["alice", "bot:random"]}
    assert as_(alice).post("/api/games/", alone, format="json").status_code == 201


def test_an_invitation_accepted_through_the_api_is_consent(as_, alice, bob):
    table = as_(alice).post("/api/tables/", {"title": "duel", "seats": 3}, format="json").json()
    as_(alice).post(f"/api/tables/{table['id']}/invite/", {"usernames": ["bob"]}, format="json")
    [invitation] = as_(bob).get("/api/invitations/").json()["invitations"]
    as_(bob).post(f"/api/invitations/{invitation['id']}/accept/", {}, format="json")
    body = {"title": "duel", "players": ["alice", "bob"]}
    assert as_(alice).post("/api/games/", body, format="json").status_code == 201


def test_a_stranger_cannot_create_a_game_for_others(as_, alice, bob, eve):
    response = as_(eve).post(
        "/api/games/", {"title": "duel", "players": ["alice", "bob"]}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"title": "chess", "players": ["alice", "bob"]}, "unknown title"),
        ({"title": "duel", "players": ["alice", "zed"]}, "no such player: zed"),
        ({"title": "duel", "players": ["alice"]}, "takes 2-4 players"),
        ({"title": "duel", "players": ["alice", "alice"]}, "only one seat"),
        ({"title": "duel", "players": ["alice", "bob"], "options": {"x": 1}}, "unknown option"),
        ({"title": "duel", "players": "alice"}, "players"),
        ({"title": "duel"}, "players"),
    ],
)
def test_create_rejects_bad_requests_clearly(as_, alice, bob, body, needle):
    consenting(alice, bob)
    response = as_(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert needle in response.json()["detail"]
    assert not Game.objects.exists()


# --- list -----------------------------------------------------------------


def test_list_filters_mine_and_to_act(as_, alice, bob, carol, game):
    other = do_create_game(title="duel", players=[bob, carol], seed=1)
    private = do_create_game(title="duel", players=[bob, carol], seed=2, public=False)
    commit(as_, alice, game, hand(game, 0)[0], 1)

    def ids(user, query=""):
        return {g["id"] for g in as_(user).get(f"/api/games/{query}").json()["results"]}

    assert ids(alice) == {game.pk, other.pk}
    assert ids(alice, "?mine=1") == {game.pk}
    assert ids(alice, "?to_act=1") == set()
    assert ids(bob, "?to_act=1") == {game.pk, other.pk, private.pk}


def test_list_is_paginated(as_, alice, bob):
    for seed in range(30):
        do_create_game(title="duel", players=[alice, bob], seed=seed)
    first = as_(alice).get("/api/games/?mine=1").json()
    assert first["count"] == 30 and len(first["results"]) == 25 and first["next"]
    second = as_(alice).get("/api/games/?mine=1&page=2").json()
    assert len(second["results"]) == 5 and second["next"] is None


# --- detail ---------------------------------------------------------------


def test_detail_shows_each_seat_its_own_view(as_, alice, bob, eve, game):
    alice_view = as_(alice).get(f"/api/games/{game.pk}/").json()
    assert alice_view["view"]["hand"] == hand(game, 0)
    assert as_(bob).get(f"/api/games/{game.pk}/").json()["view"]["hand"] == hand(game, 1)
    stranger = as_(eve).get(f"/api/games/{game.pk}/").json()
    assert "hand" not in stranger["view"] and stranger["your_seat"] is None
    assert alice_view["head_hash"] == Event.objects.get(game=game, seq=1).hash


def test_the_second_seat_at_a_head_reads_only_the_head(
    as_, alice, bob, game, django_assert_num_queries
):
    """What every viewer at a head is shown alike (pinned notes, the open
    takeback) is read once for all of them, and the reads of one game for
    one viewer take the seats from the rows kept at the head: after the
    first seat's detail, the second seat's detail, actions and log each
    read the head and nothing else of the game."""
    first, second = as_(alice), as_(bob)
    second.get("/api/titles/")  # bob's token, looked up once
    assert first.get(f"/api/games/{game.pk}/").status_code == 200
    for path in ("", "actions/"):
        with django_assert_num_queries(1):
            assert second.get(f"/api/games/{game.pk}/{path}").status_code == 200
    with django_assert_num_queries(2):  # the head, then the events themselves
        assert second.get(f"/api/games/{game.pk}/events/").status_code == 200


def test_a_private_game_is_refused_to_strangers(as_, alice, bob, eve):
    game = do_create_game(title="duel", players=[alice, bob], seed=1, public=False)
    assert as_(eve).get(f"/api/games/{game.pk}/").status_code == 403
    assert as_(eve).get(f"/api/games/{game.pk}/events/").status_code == 403
    assert as_(alice).get(f"/api/games/{game.pk}/").status_code == 200


def test_detail_carries_an_etag_and_answers_304_until_the_game_moves(as_, alice, game):
    first = as_(alice).get(f"/api/games/{game.pk}/")
    etag = first.headers["ETag"]
    again = as_(alice).get(f"/api/games/{game.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    commit(as_, alice, game, hand(game, 0)[0], 1)
    moved = as_(alice).get(f"/api/games/{game.pk}/", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


def test_unknown_games_and_paths_are_json_404s(as_, alice):
    for path in ("/api/games/999/", "/api/games/999/actions/", "/api/nothing/"):
        response = as_(alice).get(path)
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"


def test_a_wrong_method_is_a_json_405(as_, alice, game):
    response = as_(alice).delete(f"/api/games/{game.pk}/")
    assert response.status_code == 405
    assert response.json()["error"] == "method_not_allowed"


# --- actions --------------------------------------------------------------


def test_legal_actions_come_with_their_email_text(as_, alice, game):
    body = as_(alice).get(f"/api/games/{game.pk}/actions/").json()
    assert body["seq"] == 1 and body["seat"] == 0
    assert body["actions"] == [
        {"action": {"type": "commit", "card": c}, "text": f"commit {c}"} for c in hand(game, 0)
    ]


def test_a_stranger_has_no_actions(as_, eve, game):
    response = as_(eve).get(f"/api/games/{game.pk}/actions/")
    assert response.status_code == 403 and response.json()["error"] == "not_a_seat"


def test_submit_by_action_and_by_text(as_, alice, bob, game):
    first = commit(as_, alice, game, hand(game, 0)[0], 1)
    assert first.status_code == 201 and first.json() == {"seq": 2}
    card = hand(game, 1)[0]
    second = as_(bob).post(
        f"/api/games/{game.pk}/actions/", {"seq": 2, "text": f"commit {card}"}, format="json"
    )
    assert second.status_code == 201 and second.json() == {"seq": 3}
    stored = Event.objects.get(game=game, seq=3).payload["action"]
    assert stored == {"type": "commit", "card": card}


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"seq": 1, "action": {"type": "commit", "card": 99}}, 400, "illegal_action"),
        ({"seq": 1, "text": "fly away"}, 400, "illegal_action"),
        ({"seq": 1, "action": {"type": "commit"}, "text": "pass"}, 400, "invalid"),
        ({"seq": 1}, 400, "invalid"),
        ({"seq": "one", "text": "pass"}, 400, "invalid"),
        ({"seq": 0, "text": "pass"}, 409, "stale_seq"),
        ({"seq": 1, "action": ["commit"]}, 400, "invalid"),
        ({"seq": 1, "action": {"type": 5}}, 400, "illegal_action"),
    ],
)
def test_bad_moves_get_clear_errors_and_change_nothing(as_, alice, game, body, status, error):
    response = as_(alice).post(f"/api/games/{game.pk}/actions/", body, format="json")
    assert response.status_code == status
    assert response.json()["error"] == error and response.json()["detail"]
    assert Event.objects.filter(game=game).count() == 1


def test_a_stale_write_gets_409_with_the_current_seq(as_, alice, bob, game):
    commit(as_, alice, game, hand(game, 0)[0], 1)
    commit(as_, bob, game, hand(game, 1)[0], 2)  # both committed: alice's choices are gone
    response = commit(as_, alice, game, hand(game, 0)[0], 1)
    assert response.status_code == 409
    assert response.json()["seq"] == 3


def test_a_non_seat_gets_403_and_a_waiting_seat_409(as_, alice, eve, game):
    assert commit(as_, eve, game, 1, 1).status_code == 403
    commit(as_, alice, game, hand(game, 0)[0], 1)
    waiting = commit(as_, alice, game, hand(game, 0)[0], 2)
    assert waiting.status_code == 409 and waiting.json()["error"] == "not_your_turn"


def test_a_huge_body_is_refused(as_, alice, game, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = {"seq": 1, "text": "x" * 20_000}
    response = as_(alice).post(f"/api/games/{game.pk}/actions/", body, format="json")
    assert response.status_code == 413
    assert response.json()["error"] == "too_large"
    assert Event.objects.filter(game=game).count() == 1


# --- events ---------------------------------------------------------------


def test_events_page_with_after_and_hide_other_seats_choices(as_, alice, bob, game):
    mine = hand(game, 0)[0]
    commit(as_, alice, game, mine, 1)
    alice_log = as_(alice).get(f"/api/games/{game.pk}/events/").json()
    bob_log = as_(bob).get(f"/api/games/{game.pk}/events/?after=1").json()
    assert [e["seq"] for e in alice_log["events"]] == [1, 2]
    assert alice_log["events"][1]["payload"]["action"] == {"type": "commit", "card": mine}
    assert [e["seq"] for e in bob_log["events"]] == [2]
    assert bob_log["events"][0]["payload"]["action"] == {"type": "commit"}
    assert bob_log["events"][0]["actor"] == "alice"
    assert "setup" not in alice_log["events"][0]["payload"]
    assert "commitment" in alice_log["events"][0]["payload"]
    limited = as_(alice).get(f"/api/games/{game.pk}/events/?limit=1").json()
    assert [e["seq"] for e in limited["events"]] == [1] and limited["more"] is True


def test_events_reject_bad_paging(as_, alice, game):
    response = as_(alice).get(f"/api/games/{game.pk}/events/?after=-1")
    assert response.status_code == 400 and response.json()["error"] == "invalid"


def test_an_18cuba_setup_the_player_count_does_not_have_is_refused_clearly(as_, db):
    users = [make_user(name) for name in ("cu1", "cu2", "cu3")]
    consenting(*users)
    response = as_(users[0]).post(
        "/api/games/",
        {
            "title": "18cuba",
            "players": [u.username for u in users],
            "options": {"difficulty": "challenging"},
        },
        format="json",
    )
    assert response.status_code == 400
    assert "no challenging game for 3 players" in str(response.json())
