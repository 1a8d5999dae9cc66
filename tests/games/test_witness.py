"""A witness mirrors the checkpoint feed over HTTP, from a live server, and
reports a server that contradicts what it published: a history that went
back or diverged, a signature its pinned keys do not check."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts import tokens
from games.audit import checkpoints
from games.models import Checkpoint, Game
from tests.support.play import random_move
from tests.support.tamper import cut_off

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_hold(settings, tmp_path):
    settings.CHECKPOINT_FEED_HOLD_SECONDS = 0
    settings.CHECKPOINT_LOG = str(tmp_path / "log.jsonl")


def play(game: Game, count: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(count):
        game.refresh_from_db()
        random_move(game, rng)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(make_game, alice, bob):
    return play(make_game(players=[alice, bob], options={"rounds": 5}, seed=3), 6, seed=8)


@pytest.fixture
def witness(live_server, eve, tmp_path, capsys):
    mirror = tmp_path / "mirror.jsonl"
    _, key = tokens.issue(eve, "witness")

    def run(*extra) -> tuple[int, str]:
        url = f"{live_server.url}/api/checkpoints/"
        try:
            call_command(
                "witness_checkpoints", url, "--mirror", str(mirror), "--token", key, *extra
            )
        except SystemExit as exit_:
            return exit_.code, capsys.readouterr().out
        return 0, capsys.readouterr().out

    run.mirror = mirror
    return run


def test_a_witness_mirrors_the_feed_and_the_database_verifies_against_its_mirror(
    game, witness, capsys
):
    checkpoints.publish()
    assert witness() == (0, "1 checkpoint(s) mirrored, 0 contradiction(s)\n")
    play(game, 1, seed=9)
    checkpoints.publish()
    assert witness() == (0, "1 checkpoint(s) mirrored, 0 contradiction(s)\n")
    assert [json.loads(line)["seq"] for line in witness.mirror.read_text().splitlines()] == [7, 8]
    call_command("verify_games", "--checkpoints", str(witness.mirror))
    assert capsys.readouterr().out == "all games verified\n"


def test_a_server_that_went_back_is_reported(game, witness):
    checkpoints.publish()
    witness()
    cut_off(game, 5)
    Checkpoint.objects.all().delete()  # restored from a backup older than the checkpoint
    play(game, 1, seed=99)
    checkpoints.publish()  # seq 6, after the witness saw seq 7
    code, out = witness()
    assert code == 1
    assert f"game {game.pk}: a checkpoint at seq 6 after one at seq 7: the server went back" in out


def test_a_server_whose_history_diverged_is_reported(game, witness):
    checkpoints.publish()
    witness()
    cut_off(game, 5)
    Checkpoint.objects.all().delete()
    play(game, 2, seed=99)  # seq 7 again, another event
    checkpoints.publish()
    code, out = witness()
    assert code == 1 and f"game {game.pk}: seq 7 was published with head" in out
    assert "the history diverged" in out
    # What contradicts the mirror is not mirrored.
    assert len(witness.mirror.read_text().splitlines()) == 1


def test_a_key_the_witness_did_not_pin_is_not_believed(game, witness):
    checkpoints.publish()
    stranger = "ab" * 32
    code, out = witness("--key", f"{'0' * 16}:{stranger}")
    assert code == 1 and "which is not one of the known keys" in out
    assert not witness.mirror.exists() or witness.mirror.read_text() == ""


def test_an_unreadable_feed_is_a_clear_error(witness, tmp_path):
    with pytest.raises(CommandError, match="the feed could not be read"):
        call_command(
            "witness_checkpoints", "http://127.0.0.1:9/api/checkpoints/",
            "--mirror", str(tmp_path / "m.jsonl"),
        )  # fmt: skip
    with pytest.raises(CommandError, match="KEY_ID:PUBLIC_HEX"):
        witness("--key", "nonsense")
