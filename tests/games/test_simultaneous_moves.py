"""One rule for simultaneous moves, in the service: a seat's move that names
an older seq is applied when the seat's legal moves are the same now as at
that seq (others acted meanwhile); otherwise it went stale (409)."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from django.db import connection

from games.engines import base
from games.errors import StaleSeq
from games.models import Event, Game
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from games.stream import store
from tests.api.conftest import client_for
from tests.conftest import make_user
from tests.support.play import hand
from tests.support.threads import run_together


@pytest.fixture
def duel(make_game, alice, bob):
    return make_game(players=[alice, bob], seed=5)


def commit(game, user, seat, *, seq):
    card = hand(game, seat)[0]
    return check_submit_action(
        game, user, action={"type": "commit", "card": card}, expected_seq=seq
    )


def test_a_move_at_an_older_seq_applies_when_the_seats_moves_are_unchanged(duel, alice, bob):
    commit(duel, alice, 0, seq=1)
    event = commit(Game.objects.get(pk=duel.pk), bob, 1, seq=1)  # bob's page still at seq 1
    assert (event.seq, event.seat) == (3, 1)


def test_a_move_at_an_older_seq_is_stale_when_the_seats_moves_changed(duel, alice, bob):
    commit(duel, alice, 0, seq=1)
    commit(duel, bob, 1, seq=2)  # both committed: the phase moved on
    with pytest.raises(StaleSeq):
        check_submit_action(duel, alice, text=f"commit {hand(duel, 0)[0]}", expected_seq=1)
    duel.refresh_from_db()
    assert duel.seq == 3


def test_a_seat_cannot_move_twice_by_naming_an_older_seq(duel, alice):
    commit(duel, alice, 0, seq=1)
    with pytest.raises(StaleSeq):
        commit(duel, alice, 0, seq=1)  # her own move changed her moves: none left


def test_a_seq_from_the_future_or_before_the_start_is_stale(duel, alice):
    for seq in (0, -1, 99):
        with pytest.raises(StaleSeq):
            commit(duel, alice, 0, seq=seq)
    assert Event.objects.filter(game=duel).count() == 1


def test_the_api_applies_a_simultaneous_move_posted_at_an_older_seq(duel, alice, bob):
    commit(duel, alice, 0, seq=1)
    card = hand(duel, 1)[0]
    response = client_for(bob).post(
        f"/api/games/{duel.pk}/actions/",
        {"seq": 1, "action": {"type": "commit", "card": card}},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert Event.objects.get(game=duel, seq=3).seat == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_every_seat_of_a_havana_card_choice_posting_at_one_seq_is_applied():
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    game = do_create_game(title="havana", players=players, seed=4)
    engine = base.get("havana")
    state = store.load(game, engine).state
    assert engine.to_act(state) == {0, 1, 2, 3}  # the card choice: everyone at once
    choices = {seat: engine.legal_actions(state, seat)[0] for seat in range(4)}
    start = threading.Barrier(4)
    outcomes: dict[int, str] = {}

    def player(seat: int) -> None:
        try:
            start.wait()
            check_submit_action(
                Game.objects.get(pk=game.pk), players[seat],
                action=choices[seat], expected_seq=game.seq,
            )  # fmt: skip
            outcomes[seat] = "ok"
        except Exception as exc:  # recorded so the assertion shows it
            outcomes[seat] = repr(exc)
        finally:
            connection.close()

    run_together(*(partial(player, seat) for seat in range(4)))

    assert outcomes == dict.fromkeys(range(4), "ok")
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert sorted(e.seat for e in events[1:]) == [0, 1, 2, 3]
    assert store.chain_problems(game, events) == []
