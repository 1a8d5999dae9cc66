"""The release gate: `verify_games --status active --read-only` stops a
release when an active game no longer replays, and writes nothing."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection

from games.audit import release_gate as gate
from games.audit import verification
from games.engines.base import canonical_json
from games.models import Event, Game, Seat, Snapshot
from games.services.creation import do_create_game
from games.stream import chain
from tests.support.play import random_move
from tests.support.rows import rows_of
from tests.support.tamper import triggers_disabled
from tests.support.threads import run_together

GATE = ["verify_games", "--status", "active", "--read-only"]


def played(players, seed: int) -> Game:
    game = do_create_game(title="duel", players=players, options={"rounds": 5}, seed=seed)
    rng = random.Random(seed)
    for _ in range(6):
        random_move(game, rng)
    game.refresh_from_db()
    return game


def broken(game: Game) -> Game:
    """The game's last move replaced by an illegal one, its hash recomputed:
    what a change of the rules does to a stored game."""
    last = game.events.get(seq=game.seq)
    last.payload = {"action": {"type": "commit", "card": 999}}
    rehashed = chain.compute_hash(last, game.chain_version)
    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET payload = %s, hash = %s WHERE game_id = %s AND seq = %s",
            [canonical_json(last.payload), rehashed, game.pk, last.seq],
        )
    return game


def everything() -> dict:
    """Every row the gate could touch."""
    return rows_of(Game, Seat, Event, Snapshot)


def run(capsys, *arguments: str) -> tuple[int, str]:
    try:
        call_command(*arguments)
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


@pytest.fixture
def finished(alice, bob):
    """A duel played to its end."""
    game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 1}, seed=5)
    rng = random.Random(5)
    while game.status == Game.Status.ACTIVE:
        random_move(game, rng)
        game.refresh_from_db()
    return game


@pytest.mark.django_db(transaction=True)
def test_the_gate_passes_good_active_games_and_writes_nothing(alice, bob, capsys):
    played([alice, bob], 1), played([bob, alice], 2)
    before = everything()
    assert run(capsys, *GATE) == (0, "all games verified\n")
    assert everything() == before


@pytest.mark.django_db(transaction=True)
def test_the_gate_fails_on_an_active_game_that_no_longer_replays(alice, bob, capsys):
    played([alice, bob], 1)
    game = broken(played([bob, alice], 2))
    before = everything()
    code, out = run(capsys, *GATE)
    assert code == 1
    assert f"game {game.pk} (duel): no longer replays: IllegalAction" in out
    assert everything() == before


def test_the_gate_looks_only_at_active_games(alice, bob, finished, capsys):
    game = broken(finished)
    assert run(capsys, *GATE) == (0, "all games verified\n")
    code, out = run(capsys, "verify_games")
    assert code == 1 and f"game {game.pk} (duel)" in out


@pytest.mark.django_db(transaction=True)
def test_a_read_only_session_refuses_every_write_and_is_lifted_after(alice):
    users = type(alice).objects.filter(pk=alice.pk)
    with gate.read_only(), pytest.raises(DatabaseError):
        users.update(first_name="Alice")
    assert users.update(first_name="Alice") == 1  # writable again afterwards


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_read_only_gate_leaves_nothing_in_the_session_for_a_pooler_to_hand_on(alice):
    """Behind PgBouncer in transaction mode a session setting stays on the
    server connection for whichever client gets it next (every write of a
    live web process would fail) and need not follow the gate's own next
    statement: the gate is read-only by its transaction, not its session."""

    def show(name: str) -> str:
        with connection.cursor() as cursor:
            cursor.execute(f"SHOW {name}")
            return cursor.fetchone()[0]

    with gate.read_only():
        assert show("transaction_read_only") == "on"
        assert show("default_transaction_read_only") == "off"  # nothing for the next client
        assert connection.in_atomic_block  # one transaction: one server connection throughout
    assert show("transaction_read_only") == "off"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_landing_while_the_gate_reads_is_not_a_problem(alice, bob, monkeypatch, capsys):
    """The gate runs while the old release still serves: a move that lands
    after it read a game row and before it read the game's events must not
    look like a stream that disagrees with its row (the cluster test found
    it did: "game row says head 45, the stream ends at 46")."""
    game = played([alice, bob], seed=11)
    rng = random.Random(11)
    read_events = verification.stored

    def move_elsewhere():
        try:
            random_move(Game.objects.get(pk=game.pk), rng)
        finally:
            connection.close()  # the thread's own connection

    def a_move_lands_first(games):
        run_together(move_elsewhere)
        return read_events(games)

    monkeypatch.setattr(verification, "stored", a_move_lands_first)
    call_command(*GATE)
    assert "all games verified" in capsys.readouterr().out
    assert Game.objects.get(pk=game.pk).seq == game.seq + 1  # the move did land meanwhile
