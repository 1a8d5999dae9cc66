"""The moderators' endpoints: each act through the API, what players see of
it, and the refusals to everyone else."""

from __future__ import annotations

import json

import pytest

from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from tests.api.conftest import client_for
from tests.support.play import hand


@pytest.fixture
def game(make_game, alice, bob):
    return make_game(players=[alice, bob], options={"rounds": 2}, seed=5, clock={"per_move": "1h"})


def post(client, path, body):
    return client.post(path, body, format="json")


def seq_of(game) -> int:
    return Game.objects.values_list("seq", flat=True).get(pk=game.pk)


ACTS = {
    "replace-seat": {"seat": 1, "username": "charlie", "reason": "bob left"},
    "force-resign": {"seat": 1, "reason": "bob left"},
    "abort": {"reason": "a broken game"},
    "note": {"text": "be kind"},
    "lock": {"reason": "a dispute"},
}


@pytest.mark.parametrize("act", ACTS)
def test_a_moderator_act_through_the_api_is_an_event_with_actor_and_reason(
    as_, mo, charlie, game, act
):
    response = post(as_(mo), f"/api/games/{game.pk}/{act}/", ACTS[act])
    assert response.status_code == 201 and response.json() == {"seq": 2}
    event = Event.objects.get(game=game, seq=2)
    assert (event.actor, event.source) == (mo, "moderator")
    assert event.payload["reason"] in (ACTS[act].get("reason"), ACTS[act].get("text"))


@pytest.mark.parametrize("act", [*ACTS, "unlock"])
def test_a_moderator_act_by_a_player_or_a_stranger_is_a_403(as_, alice, eve, charlie, game, act):
    body = ACTS.get(act, {"reason": "x"})
    for user in (alice, eve):
        response = post(as_(user), f"/api/games/{game.pk}/{act}/", body)
        assert response.status_code == 403 and response.json()["error"] == "forbidden"
    assert post(as_(None), f"/api/games/{game.pk}/{act}/", body).status_code == 401
    assert seq_of(game) == 1


def test_after_a_replacement_the_new_player_sees_the_seat_and_the_old_one_does_not(
    as_, bob, charlie, mo, game
):
    bobs_hand = as_(bob).get(f"/api/games/{game.pk}/").json()["view"]
    post(as_(mo), f"/api/games/{game.pk}/replace-seat/", ACTS["replace-seat"])
    mine = as_(charlie).get(f"/api/games/{game.pk}/").json()
    assert mine["your_seat"] == 1 and mine["view"] == bobs_hand
    assert [p["username"] for p in mine["players"]] == ["alice", "charlie"]
    old = as_(bob).get(f"/api/games/{game.pk}/").json()
    assert old["your_seat"] is None and old["view"] != bobs_hand
    move = {"seq": 2, "action": {"type": "commit", "card": hand(game, 1)[0]}}
    refused = post(as_(bob), f"/api/games/{game.pk}/actions/", move)
    assert refused.status_code == 403 and refused.json()["error"] == "not_a_seat"
    assert as_(bob).get(f"/api/games/{game.pk}/actions/").status_code == 403
    assert post(as_(charlie), f"/api/games/{game.pk}/actions/", move).status_code == 201


def test_an_old_player_of_a_private_game_loses_sight_of_it(as_, alice, bob, charlie, mo):
    game = do_create_game(title="duel", players=[alice, bob], seed=5, public=False)
    post(as_(mo), f"/api/games/{game.pk}/replace-seat/", ACTS["replace-seat"])
    assert as_(bob).get(f"/api/games/{game.pk}/").status_code == 403
    assert as_(bob).get(f"/api/games/{game.pk}/events/").status_code == 403


def test_players_see_the_abort_reason_in_the_game(as_, alice, mo, game):
    post(as_(mo), f"/api/games/{game.pk}/abort/", {"reason": "a broken setup"})
    detail = as_(alice).get(f"/api/games/{game.pk}/").json()
    assert (detail["status"], detail["abort_reason"]) == ("aborted", "a broken setup")
    page = as_(alice).get(f"/games/{game.pk}/")
    assert b"a broken setup" in page.content


def test_a_pinned_note_is_in_the_events_the_detail_and_the_page(as_, alice, mo, game):
    post(as_(mo), f"/api/games/{game.pk}/note/", {"text": "be kind to each other"})
    events = as_(alice).get(f"/api/games/{game.pk}/events/").json()["events"]
    assert events[-1]["kind"] == "note" and events[-1]["actor"] == "mo"
    assert events[-1]["payload"] == {"note": "pinned", "reason": "be kind to each other"}
    detail = as_(alice).get(f"/api/games/{game.pk}/").json()
    assert [note["text"] for note in detail["notes"]] == ["be kind to each other"]
    assert b"be kind to each other" in as_(alice).get(f"/games/{game.pk}/").content


def test_a_locked_game_refuses_moves_with_a_clear_error(as_, alice, mo, game):
    post(as_(mo), f"/api/games/{game.pk}/lock/", {"reason": "a dispute"})
    assert as_(alice).get(f"/api/games/{game.pk}/").json()["locked"] is True
    move = {"seq": 2, "action": {"type": "commit", "card": hand(game, 0)[0]}}
    refused = post(as_(alice), f"/api/games/{game.pk}/actions/", move)
    assert refused.status_code == 409 and refused.json()["error"] == "game_locked"
    assert "locked" in refused.json()["detail"]
    assert seq_of(game) == 2
    assert post(as_(mo), f"/api/games/{game.pk}/unlock/", {"reason": "ok"}).status_code == 201
    move["seq"] = 3
    assert post(as_(alice), f"/api/games/{game.pk}/actions/", move).status_code == 201


def test_the_moderator_endpoints_are_in_the_openapi_schema(as_):
    paths = as_(None).get("/api/schema/?format=json").json()["paths"]
    for act in (*ACTS, "unlock", "report"):
        assert "post" in paths[f"/api/games/{{id}}/{act}/"]
    assert "post" in paths["/api/users/{username}/suspend/"]
    assert "post" in paths["/api/users/{username}/unsuspend/"]
    assert "get" in paths["/api/moderation/queue/"]
    assert "post" in paths["/api/moderation/queue/{item}/take/"]
    assert "post" in paths["/api/moderation/queue/{item}/close/"]


def test_a_stale_move_of_the_new_player_is_still_a_409(as_, alice, charlie, mo, game):
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                        expected_seq=1)  # fmt: skip
    post(as_(mo), f"/api/games/{game.pk}/replace-seat/", ACTS["replace-seat"])
    move = {"seq": 3, "action": {"type": "commit", "card": hand(game, 1)[0]}}
    assert post(as_(charlie), f"/api/games/{game.pk}/actions/", move).status_code == 201
    # The same move again names a seq before his own: his choices changed since.
    assert post(as_(charlie), f"/api/games/{game.pk}/actions/", move).status_code == 409


def test_the_old_player_gets_no_move_forms_and_a_posted_move_is_refused(
    client, bob, charlie, mo, game
):
    replaced = post(client_for(mo), f"/api/games/{game.pk}/replace-seat/", ACTS["replace-seat"])
    assert replaced.status_code == 201
    client.force_login(charlie)
    assert "data-action" in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(bob)
    assert "data-action" not in client.get(f"/games/{game.pk}/").content.decode()
    card = hand(game, 1)[0]
    client.post(f"/games/{game.pk}/move/",
                {"seq": 2, "action": json.dumps({"type": "commit", "card": card})})  # fmt: skip
    assert seq_of(game) == 2
