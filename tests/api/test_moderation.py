"""Moderators audit and undo; players take back by consent."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.models import Event
from games.services.creation import do_create_game
from games.services.moves import check_submit_action
from tests.support.play import hand, random_move


@pytest.fixture
def game(make_game, alice, bob, carol):
    return make_game(players=[alice, bob, carol], seed=42)


def post(client, path, body):
    return client.post(path, body, format="json")


def test_audit_shows_everything_with_the_chain_check(as_, alice, mo, game):
    card = hand(game, 0)[0]
    check_submit_action(game, alice, action={"type": "commit", "card": card}, expected_seq=1)
    audit = as_(mo).get(f"/api/games/{game.pk}/audit/").json()
    assert audit["chain"] == {
        "version": 2, "valid": True, "problems": [],
        "imported_unverified": False, "unverified": [],
    }  # fmt: skip
    assert audit["events"][0]["payload"]["setup"]["hands"][0]
    assert audit["events"][1]["payload"]["action"] == {"type": "commit", "card": card}
    assert audit["events"][1]["actor"] == "alice" and audit["events"][1]["source"] == "api"
    assert audit["events"][1]["created_at"]
    assert audit["verify"]["matches"] is True and audit["verify"]["salt"] == game.salt


def test_audit_and_undo_are_refused_to_everyone_else(as_, alice, eve, game):
    for user in (alice, eve):
        assert as_(user).get(f"/api/games/{game.pk}/audit/").status_code == 403
        undo = post(as_(user), f"/api/games/{game.pk}/undo/", {"to_seq": 1, "reason": "x"})
        assert undo.status_code == 403
    assert Event.objects.filter(game=game).count() == 1


def test_a_moderator_undo_appends_an_event_with_the_reason(as_, mo, game):
    rng = random.Random(1)
    random_move(game, rng)
    random_move(game, rng)
    response = post(as_(mo), f"/api/games/{game.pk}/undo/", {"to_seq": 2, "reason": "misclick"})
    assert response.status_code == 201 and response.json() == {"seq": 4}
    undo = Event.objects.get(game=game, seq=4)
    assert undo.kind == "undo" and undo.payload == {"to_seq": 2, "reason": "misclick"}
    assert undo.actor == mo and undo.source == "moderator"


def test_takeback_approved_by_every_other_seat_undoes_the_move(as_, alice, bob, carol, game):
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                          expected_seq=1)  # fmt: skip
    path = f"/api/games/{game.pk}/takeback/"
    assert post(as_(alice), path, {"seq": 2}).json() == {"seq": 3}
    assert as_(bob).get(path).json()["takeback"]["waiting_for"] == [1, 2]
    assert post(as_(bob), path, {"seq": 3, "answer": "approve"}).status_code == 201
    assert post(as_(carol), path, {"seq": 4, "answer": "approve"}).status_code == 201
    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["created", "action", "takeback_request", "takeback_answer",
                     "takeback_answer", "undo"]  # fmt: skip
    game.refresh_from_db()
    assert game.to_act == [0, 1, 2] and len(hand(game, 0)) == 2


def test_a_refused_takeback_leaves_the_move(as_, alice, bob, carol, game):
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                          expected_seq=1)  # fmt: skip
    path = f"/api/games/{game.pk}/takeback/"
    post(as_(alice), path, {"seq": 2})
    post(as_(bob), path, {"seq": 3, "answer": "refuse"})
    post(as_(carol), path, {"seq": 4, "answer": "approve"})
    assert not Event.objects.filter(game=game, kind="undo").exists()
    assert len(hand(game, 0)) == 1


def test_a_takeback_lapses_when_the_game_moves_on(as_, alice, bob, carol, game):
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                          expected_seq=1)  # fmt: skip
    path = f"/api/games/{game.pk}/takeback/"
    post(as_(alice), path, {"seq": 2})
    check_submit_action(game, bob, action={"type": "commit", "card": hand(game, 1)[0]},
                          expected_seq=3)  # fmt: skip
    response = post(as_(carol), path, {"seq": 4, "answer": "approve"})
    assert response.status_code == 400 and "no open takeback" in response.json()["detail"]


def test_no_takeback_of_a_move_that_revealed_hidden_cards(as_, alice, bob, carol, game):
    for seq, user in enumerate((alice, bob, carol), start=1):
        seat = seq - 1
        check_submit_action(game, user, action={"type": "commit", "card": hand(game, seat)[0]},
                              expected_seq=seq)  # fmt: skip
    response = post(as_(carol), f"/api/games/{game.pk}/takeback/", {"seq": 4})
    assert response.status_code == 400
    assert "revealed" in response.json()["detail"]


def test_only_your_own_latest_move_can_be_taken_back(as_, alice, bob, game):
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                          expected_seq=1)  # fmt: skip
    response = post(as_(bob), f"/api/games/{game.pk}/takeback/", {"seq": 2})
    assert response.status_code == 400 and "your own move" in response.json()["detail"]


def test_verify_publishes_the_commitment_then_reveals_setup_and_salt(as_, alice, bob, eve):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 1}, seed=9)
    during = as_(eve).get(f"/api/games/{game.pk}/verify/").json()
    assert during["revealed"] is False and "setup" not in during and "salt" not in during
    created = Event.objects.get(game=game, seq=1)
    assert during["commitment"] == created.payload["commitment"]
    rng = random.Random(3)
    while game.status == "active":
        random_move(game, rng)
    after = as_(eve).get(f"/api/games/{game.pk}/verify/").json()
    assert after["revealed"] is True and after["matches"] is True
    body = json.dumps(after["setup"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    recomputed = hashlib.sha256((body + after["salt"]).encode()).hexdigest()
    assert recomputed == during["commitment"]


def test_nothing_leaks_the_seed_or_salt_during_play(as_, alice, game):
    texts = [
        as_(alice).get(f"/api/games/{game.pk}/{path}").content.decode()
        for path in ("", "events/", "verify/", "actions/")
    ]
    for text in texts:
        assert game.salt not in text and f'"seed": {game.seed}' not in text.replace(":", ": ")


def test_spectators_see_the_game_some_moves_late(as_, alice, bob, eve):
    game = do_create_game(title="duel", players=[alice, bob], seed=5, spectator_delay=2)
    rng = random.Random(2)
    for _ in range(3):
        random_move(game, rng)
    spectator = as_(eve).get(f"/api/games/{game.pk}/").json()
    assert spectator["seq"] == 2
    assert [e["seq"] for e in as_(eve).get(f"/api/games/{game.pk}/events/").json()["events"]] == [
        1, 2,
    ]  # fmt: skip
    assert as_(alice).get(f"/api/games/{game.pk}/").json()["seq"] == 4


def test_throttling_answers_429_in_json(as_, alice, throttle_rates):
    throttle_rates(anon="3/min", user="3/min", auth="3/min")
    client = as_(alice)
    codes = [client.get("/api/games/").status_code for _ in range(5)]
    assert codes[:3] == [200, 200, 200] and codes[-1] == 429
    assert client.get("/api/games/").json()["error"] == "throttled"


def test_a_solo_player_takes_back_without_waiting_for_anyone(as_, alice, monkeypatch):
    from tests.support.duel import DUEL

    monkeypatch.setattr(DUEL, "MIN_PLAYERS", 1)
    game = do_create_game(title="duel", players=[alice], seed=6)
    check_submit_action(game, alice, action={"type": "commit", "card": hand(game, 0)[0]},
                          expected_seq=1)  # fmt: skip
    check_submit_action(game, alice, action={"type": "pass"}, expected_seq=2)
    response = post(as_(alice), f"/api/games/{game.pk}/takeback/", {"seq": 3})
    assert response.status_code == 201
    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["created", "action", "action", "takeback_request", "undo"]
    assert Event.objects.get(game=game, kind="undo").payload["to_seq"] == 2
