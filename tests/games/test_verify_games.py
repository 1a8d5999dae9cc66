"""manage.py verify_games: finds altered events and streams that no longer replay."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.db import connection

from games.engines.base import canonical_json
from games.models import Game, Snapshot
from games.services.creation import do_create_game
from games.services.undo import check_undo
from games.stream import chain
from games.stream.derived import engine_for
from tests.support.play import random_move
from tests.support.tamper import triggers_disabled


@pytest.fixture
def played(alice, bob):
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 5}, seed=3)
    rng = random.Random(8)
    for _ in range(6):
        random_move(game, rng)
    return game


def tamper(game, seq: int, payload: str, new_hash: str | None = None) -> None:
    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET payload = %s WHERE game_id = %s AND seq = %s",
            [payload, game.pk, seq],
        )
        if new_hash:
            cursor.execute(
                "UPDATE games_event SET hash = %s WHERE game_id = %s AND seq = %s",
                [new_hash, game.pk, seq],
            )


def run_verify(capsys) -> tuple[int, str]:
    try:
        call_command("verify_games")
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


def test_verify_games_passes_intact_games(played, capsys):
    assert run_verify(capsys) == (0, "all games verified\n")


def test_verify_games_detects_an_altered_payload(played, capsys):
    event = played.events.get(seq=3)
    forged = dict(event.payload, action={"type": "pass"})
    tamper(played, 3, canonical_json(forged))
    code, out = run_verify(capsys)
    assert code == 1
    assert f"game {played.pk} (duel): seq 3: hash does not match its content" in out


def test_verify_games_detects_a_stream_that_no_longer_replays(played, capsys):
    """A forger who also recomputes the hash of the last event cannot make an
    illegal move replay."""
    last = played.events.get(seq=played.seq)
    last.payload = {"action": {"type": "commit", "card": 999}}
    rehashed = chain.compute_hash(last, played.chain_version)
    tamper(played, last.seq, canonical_json(last.payload), rehashed)
    played.refresh_from_db()
    code, out = run_verify(capsys)
    assert code == 1
    assert "no longer replays: IllegalAction" in out


def test_verify_games_detects_seat_flags_out_of_step(played, capsys):
    played.seats.update(to_act=False)
    code, out = run_verify(capsys)
    assert code == 1
    assert "seats flagged to act [] differ from the replay's" in out


def test_verify_games_detects_spectators_put_ahead_of_their_delay(alice, bob, capsys):
    game = do_create_game(title="duel", players=[alice, bob], seed=3, spectator_delay=2)
    rng = random.Random(8)
    for _ in range(4):
        random_move(game, rng)
    assert run_verify(capsys) == (0, "all games verified\n")
    Game.objects.filter(pk=game.pk).update(spectator_seq=game.seq)
    code, out = run_verify(capsys)
    assert code == 1
    assert f"game row puts the spectators at seq {game.seq}, the stream at 3" in out


@pytest.fixture
def snapshotted(alice, bob, mo, settings):
    """A game with a snapshot every other event, one undo among them."""
    settings.CORREO_SNAPSHOT_EVERY = 2
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 5}, seed=4)
    rng = random.Random(9)
    for _ in range(5):
        random_move(game, rng)
    check_undo(game, mo, to_seq=4, reason="a test")
    game.refresh_from_db()
    for _ in range(4):
        random_move(game, rng)
    assert game.snapshots.count() >= 3
    return game


def test_verify_games_passes_a_game_with_snapshots_and_an_undo(snapshotted, capsys):
    assert run_verify(capsys) == (0, "all games verified\n")


def test_verify_games_finds_a_rule_change_that_the_snapshots_do_not_share(
    snapshotted, capsys, monkeypatch
):
    """The engine's VERSION is unchanged, but a commit now scores one more:
    the snapshots written before the change tell (the golden games' check)."""
    engine = engine_for(snapshotted)
    honest = engine.apply

    def altered(state, seat, action):
        after = honest(state, seat, action)
        if action["type"] == "commit":
            after["scores"] = [s + 1 for s in after["scores"]]
        return after

    monkeypatch.setattr(engine, "apply", altered)
    code, out = run_verify(capsys)
    assert code == 1
    assert f"game {snapshotted.pk} (duel): snapshot at seq " in out
    assert "differs from a full replay" in out


def test_verify_games_reports_a_payload_that_is_no_json_instead_of_failing(played, capsys):
    tamper(played, 3, '{"action": ')
    code, out = run_verify(capsys)
    assert code == 1
    assert f"game {played.pk} (duel): seq 3: the payload is not a JSON object" in out


def test_a_snapshot_written_in_another_key_order_still_agrees(snapshotted, capsys):
    """Snapshots are compared as written first; one whose keys stand in
    another order (an older build wrote it) agrees by its canonical form."""
    snapshot = snapshotted.snapshots.order_by("-seq").first()
    reordered = dict(reversed(list(snapshot.state.items())))
    Snapshot.objects.filter(pk=snapshot.pk).update(state=reordered)
    stored = Snapshot.objects.get(pk=snapshot.pk).state
    assert stored == snapshot.state and list(stored) != list(snapshot.state)
    assert run_verify(capsys) == (0, "all games verified\n")
