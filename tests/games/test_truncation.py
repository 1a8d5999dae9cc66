"""Cutting the newest events off a game and moving its row back leaves a
shorter chain whose every hash and seal holds.  What was written beside the
events (snapshots, the outbox) and what the players were shown remember the
longer one: verify_games reads the first, `verify/?seen=SEQ:HASH` lets a
player check the second, and neither tells a viewer what their view hides."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Game
from games.services.creation import do_create_game
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.support.play import random_move
from tests.support.tamper import cut_off

HEX = "0123456789abcdef" * 4


def verify(capsys) -> tuple[int, str]:
    try:
        call_command("verify_games")
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


def play(game: Game, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        game.refresh_from_db()
        random_move(game, rng)
    game.refresh_from_db()


@pytest.fixture
def played(alice, bob, settings):
    """Eight moves of a duel, a snapshot every other event, mail for each turn."""
    settings.CORREO_SNAPSHOT_EVERY = 2
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 5}, seed=3)
    play(game, 8, seed=8)
    assert game.seq == 9
    return game


def seen(user, game: Game, value: str) -> dict:
    answer = client_for(user).get(f"/api/games/{game.pk}/verify/", {"seen": value})
    assert answer.status_code == 200, answer.content
    return answer.json()["seen"]


# --- verify_games -------------------------------------------------------------------


def test_a_game_cut_short_is_reported_by_what_was_written_beside_its_events(played, capsys):
    assert verify(capsys) == (0, "all games verified\n")
    mailed = sorted(set(Notification.objects.filter(game=played, seq__gt=5).values_list(
        "seq", flat=True
    )))  # fmt: skip
    assert mailed == list(range(mailed[0], 10))
    cut_off(played, 5)
    code, out = verify(capsys)
    assert code == 1
    prefix = f"game {played.pk} (duel): "
    assert f"{prefix}a snapshot at seq 8 lies past the head 5 (events cut off the end?)" in out
    assert f"{prefix}notifications were written for seq {mailed[0]}-9, past the head 5" in out
    # The chain itself holds: only the traces tell.
    assert "seal" not in out and "hash does not match" not in out


def test_a_game_cut_short_and_played_on_is_reported_by_its_snapshots(played, capsys):
    cut_off(played, 5)
    play(played, 1, seed=99)  # seq 6 again, another event (another nonce, at least)
    code, out = verify(capsys)
    assert code == 1
    assert (
        f"game {played.pk} (duel): a snapshot at seq 6 was taken at another event than the "
        "chain has there" in out
    )


def test_a_snapshot_past_the_head_alone_is_reported(played, capsys):
    """Without the outbox's help (a player with mail off, rows swept away)."""
    Notification.objects.all().delete()
    cut_off(played, 7)
    code, out = verify(capsys)
    assert code == 1 and "a snapshot at seq 8 lies past the head 7" in out


# --- verify/?seen=SEQ:HASH ------------------------------------------------------------


def test_a_player_learns_that_the_head_they_were_shown_is_gone(played, alice):
    head = f"{played.seq}:{played.head_hash}"
    assert seen(alice, played, head) == {
        "seq": played.seq, "hash": played.head_hash, "status": "in_chain",
        "chain_hash": played.head_hash,
    }  # fmt: skip
    cut_off(played, 5)
    assert seen(alice, played, head)["status"] == "not_in_chain"
    play(played, 4, seed=99)  # back at seq 9, with other events
    answer = seen(alice, played, head)
    assert answer["status"] == "not_in_chain"
    assert answer["chain_hash"] == played.head_hash != answer["hash"]


def test_an_uppercase_hash_is_the_same_hash(played, alice):
    answer = seen(alice, played, f"{played.seq}:{played.head_hash.upper()}")
    assert answer["status"] == "in_chain" and answer["hash"] == played.head_hash


@pytest.mark.parametrize(
    "value",
    ["9", "abc", f"0:{HEX}", f"-1:{HEX}", f"9:{HEX[:63]}", f"9:{HEX}0", f"9:{'g' * 64}",
     f"99999999999:{HEX}", f"4294967296:{HEX}", f"9:{HEX}:1", f" 9:{HEX}", f"9:{HEX}\n",
     "\x00", f"9\x00:{HEX}", f"\u0669:{HEX}"],
)  # fmt: skip
def test_a_bad_seen_is_a_clear_400(played, alice, value):
    for user in (alice, None):
        answer = client_for(user).get(f"/api/games/{played.pk}/verify/", {"seen": value})
        assert answer.status_code == 400, answer.content
        assert answer.json()["error"] == "invalid"


def test_a_stranger_to_a_private_game_learns_nothing(alice, bob, eve):
    game = do_create_game(title="duel", players=[alice, bob], public=False, seed=2)
    answer = client_for(eve).get(f"/api/games/{game.pk}/verify/", {"seen": f"1:{HEX}"})
    assert answer.status_code == 403


@pytest.fixture
def delayed(alice, bob):
    """A public game whose spectators see it two moves late."""
    game = do_create_game(
        title="duel", players=[alice, bob], options={"rounds": 5}, seed=3, spectator_delay=2
    )
    play(game, 6, seed=8)
    return game


def test_a_delayed_spectator_is_not_told_about_seqs_past_their_head(delayed, alice, eve):
    head = delayed.spectator_seq
    assert head < delayed.seq
    hashes = dict(delayed.events.values_list("seq", "hash"))
    # What is theirs to see, they may check.
    assert seen(eve, delayed, f"{head}:{hashes[head]}")["status"] == "in_chain"
    assert seen(eve, delayed, f"{head}:{HEX}")["status"] == "not_in_chain"
    # Past it, the answer is the same whatever the game holds there, whether
    # it got there at all, and whether the hash is right.
    answers = [
        seen(eve, delayed, value)
        for value in (f"{delayed.seq}:{delayed.head_hash}", f"{delayed.seq}:{HEX}",
                      f"{head + 1}:{hashes[head + 1]}", f"{delayed.seq + 50}:{HEX}")
    ]  # fmt: skip
    assert {answer["status"] for answer in answers} == {"beyond_view"}
    assert {answer["chain_hash"] for answer in answers} == {None}
    # A player of the same game is not delayed.
    assert seen(alice, delayed, f"{delayed.seq}:{delayed.head_hash}")["status"] == "in_chain"


def test_a_version_1_hash_is_compared_only_for_those_who_see_everything(
    alice, bob, mo, monkeypatch
):
    """A version-1 hash covers what the view hides: a comparison would be a
    test of every candidate (docs/guarantees.md, "Fair play")."""
    monkeypatch.setattr(Game._meta.get_field("chain_version"), "default", 1)
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 5}, seed=3)
    assert game.chain_version == 1
    value = f"1:{game.events.get(seq=1).hash}"
    for user in (alice, None):
        assert seen(user, game, value) == {
            "seq": 1,
            "hash": value[2:],
            "status": "hidden",
            "chain_hash": None,
        }
    assert seen(mo, game, value)["status"] == "in_chain"
