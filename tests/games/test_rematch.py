"""A rematch: the same players (each asked again), title, options and
clock, the seats rotated by default."""

from __future__ import annotations

import pytest

from games.errors import Conflict, InvalidRequest, NotASeat
from games.models import Invitation, Table
from games.services.abort import check_abort
from games.services.creation import do_create_game
from games.services.invitations import check_accept_invitation, check_decline_invitation
from games.services.rematch import check_rematch
from tests.api.conftest import client_for


def ended(*players, mo, **options):
    game = do_create_game(title="duel", players=list(players), options={"rounds": 2},
                          clock={"per_move": "72h"}, spectator_delay=2, **options)  # fmt: skip
    check_abort(game, mo, reason="a short game")
    return game


def names(game) -> list[str]:
    return [seat.user.username for seat in game.seats.order_by("index")]


def test_a_rematch_asks_each_player_again_and_rotates_the_seats(alice, bob, carol, mo):
    game = ended(alice, bob, carol, mo=mo)
    table = check_rematch(game, bob)
    assert (table.host, table.rematch_of, table.open) == (bob, game, False)
    assert (table.options, table.spectator_delay) == ({"rounds": 2}, 2)
    assert table.clock["per_move"] == 259200
    invited = Invitation.objects.filter(table=table)
    assert sorted(i.user.username for i in invited) == ["alice", "carol"]
    for invitation in invited:
        check_accept_invitation(invitation.pk, invitation.user)
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    assert names(table.game) == ["bob", "carol", "alice"]
    assert table.game.clock["per_move"] == 259200


def test_the_seats_may_be_kept(alice, bob, mo):
    game = ended(alice, bob, mo=mo)
    table = check_rematch(game, alice, order="keep")
    check_accept_invitation(Invitation.objects.get(table=table).pk, bob)
    table.refresh_from_db()
    assert names(table.game) == ["alice", "bob"]


def test_a_declined_rematch_does_not_start(alice, bob, mo):
    game = ended(alice, bob, mo=mo)
    table = check_rematch(game, alice)
    check_decline_invitation(Invitation.objects.get(table=table).pk, bob)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.game is None


def test_only_a_player_of_an_ended_game_asks(alice, bob, eve, mo):
    running = do_create_game(title="duel", players=[alice, bob])
    with pytest.raises(Conflict):
        check_rematch(running, alice)
    game = ended(alice, bob, mo=mo)
    with pytest.raises(NotASeat):
        check_rematch(game, eve)
    with pytest.raises(InvalidRequest):
        check_rematch(game, alice, order="alphabetical")


def test_bots_come_back_without_being_asked(alice, mo):
    from accounts.bots import Wanted

    game = do_create_game(title="havana", players=[alice, Wanted("greedy")])
    check_abort(game, mo, reason="over")
    table = check_rematch(game, alice)
    table.refresh_from_db()
    assert table.status == Table.Status.STARTED
    assert names(table.game)[0].startswith("bot:greedy") and names(table.game)[1] == "alice"


def test_the_rematch_through_the_api(alice, bob, mo):
    as_ = client_for
    game = ended(alice, bob, mo=mo)
    response = as_(alice).post(f"/api/games/{game.pk}/rematch/", {}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["players"] == ["alice"] and body["invited"] == ["bob"]
    refused = as_(alice).post(f"/api/games/{game.pk}/rematch/", {"order": "x"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == "invalid"
