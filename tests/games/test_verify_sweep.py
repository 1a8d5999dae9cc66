"""verify_games --jobs (several processes) and --incremental (only the games
changed since they were last found clean, with a look back at the head
they were found clean at)."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engines.base import canonical_json
from games.models import Game, VerifiedHead
from games.services.creation import do_create_game
from tests.support.play import random_move
from tests.support.tamper import cut_off, triggers_disabled

# The processes --jobs forks read the games through their own connections:
# the games must be committed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
def games(alice, bob):
    made = []
    for seed in range(5):
        game = do_create_game(title="duel", players=[alice, bob], options={"rounds": 5}, seed=seed)
        rng = random.Random(seed)
        for _ in range(6):
            random_move(game, rng)
        made.append(Game.objects.get(pk=game.pk))
    return made


def verify(capsys, *args) -> tuple[int, str]:
    try:
        call_command("verify_games", *args)
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


def altered(game: Game, seq: int) -> None:
    """An event's payload changed in place, under an unchanged head."""
    from django.db import connection

    event = game.events.get(seq=seq)
    forged = canonical_json(dict(event.payload, forged=True))
    with triggers_disabled(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET payload = %s WHERE game_id = %s AND seq = %s",
            [forged, game.pk, seq],
        )


def test_jobs_find_the_same_problems_as_one_process(games, capsys):
    altered(games[1], 3)
    altered(games[4], 2)
    one = verify(capsys)
    two = verify(capsys, "--jobs", "2")
    assert one[0] == two[0] == 1
    lines = sorted(line for line in one[1].splitlines() if line.startswith("game "))
    assert lines == sorted(line for line in two[1].splitlines() if line.startswith("game "))
    assert {f"game {games[1].pk} (duel)", f"game {games[4].pk} (duel)"} == {
        line.split(":")[0] for line in lines
    }


def test_jobs_pass_intact_games(games, capsys):
    assert verify(capsys, "--jobs", "3") == (0, "all games verified\n")


def test_an_incremental_run_checks_only_the_games_changed_since_they_were_found_clean(
    games, capsys
):
    code, out = verify(capsys, "--incremental")
    assert code == 0 and "5 game(s) changed since" in out
    assert VerifiedHead.objects.count() == 5
    code, out = verify(capsys, "--incremental")
    assert code == 0 and "0 game(s) changed since" in out
    random_move(games[2], random.Random(1))
    code, out = verify(capsys, "--incremental")
    assert code == 0 and "1 game(s) changed since" in out
    head = VerifiedHead.objects.get(game=games[2])
    games[2].refresh_from_db()
    assert (head.seq, head.head_hash) == (games[2].seq, games[2].head_hash)


def test_an_incremental_run_reports_a_stream_cut_back_behind_its_verified_head(games, capsys):
    verify(capsys, "--incremental")
    head = games[3].seq
    cut_off(games[3], head - 2)  # every hash of what is left holds
    code, out = verify(capsys, "--incremental")
    assert code == 1
    assert (
        f"game {games[3].pk} (duel): the stream ends at seq {head - 2}, but it was "
        f"verified clean up to seq {head}" in out
    )
    # A game found wrong is not remembered as clean: the next run says it again.
    assert VerifiedHead.objects.get(game=games[3]).seq == head
    assert verify(capsys, "--incremental")[0] == 1


def test_an_event_rewritten_under_an_unchanged_head_is_left_to_a_whole_run(games, capsys):
    """What incremental gives up, as its help says: the whole run finds it."""
    verify(capsys, "--incremental")
    altered(games[0], 2)
    assert verify(capsys, "--incremental")[0] == 0
    code, out = verify(capsys)
    assert code == 1 and f"game {games[0].pk} (duel): seq 2: hash does not match" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--jobs", "0"], "--jobs takes a number of processes from 1 to 64"),
        (["--jobs", "65"], "--jobs takes a number of processes from 1 to 64"),
        (["--incremental", "--read-only"], "cannot run --read-only"),
    ],
)
def test_bad_options_are_refused_clearly_and_remember_nothing(games, args, says):
    with pytest.raises(CommandError, match=says):
        call_command("verify_games", *args)
    assert not VerifiedHead.objects.exists()
