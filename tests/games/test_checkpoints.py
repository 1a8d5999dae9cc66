"""Checkpoints: signed statements of where each game stood, published outside
the database, catch what the database alone cannot: a history cut short (or
cut short and played on) whose every hash and seal holds."""

from __future__ import annotations

import datetime
import json
import random

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.audit import checkpoint_keys as keys
from games.audit import checkpoints
from games.models import Checkpoint, Game
from tests.api.conftest import client_for
from tests.support.play import random_move
from tests.support.tamper import cut_off


@pytest.fixture(autouse=True)
def log(settings, tmp_path):
    settings.CHECKPOINT_LOG = str(tmp_path / "checkpoints.jsonl")
    settings.CHECKPOINT_FEED_HOLD_SECONDS = 0
    return tmp_path / "checkpoints.jsonl"


def logged(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def play(game: Game, count: int, seed: int) -> Game:
    rng = random.Random(seed)
    for _ in range(count):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        random_move(game, rng)
    game.refresh_from_db()
    return game


def finish(game: Game) -> Game:
    return play(game, 500, seed=5)


def verify(capsys, *sources) -> tuple[int, str]:
    args = [arg for source in sources for arg in ("--checkpoints", str(source))]
    try:
        call_command("verify_games", *args)
    except SystemExit as exit_:
        return exit_.code, capsys.readouterr().out
    return 0, capsys.readouterr().out


@pytest.fixture
def game(make_game, alice, bob):
    return play(make_game(players=[alice, bob], options={"rounds": 5}, seed=3), 6, seed=8)


# --- publishing ---------------------------------------------------------------------


def test_each_game_that_moved_gets_one_signed_checkpoint_in_the_log_and_the_table(game, log):
    assert checkpoints.publish() == 1
    [record] = logged(log)
    assert record["game"] == game.pk and record["seq"] == game.seq == 7
    assert record["head_hash"] == game.head_hash and record["final"] is False
    assert keys.signature_problem(record, keys.public_keys()) is None
    assert checkpoints.record_of(Checkpoint.objects.get()) == record


def test_a_game_that_did_not_move_is_not_checkpointed_again(game, log):
    checkpoints.publish()
    assert checkpoints.publish() == 0
    play(game, 1, seed=9)
    assert checkpoints.publish() == 1
    assert [record["seq"] for record in logged(log)] == [7, 8]


def test_a_game_gets_its_final_checkpoint_as_it_ends(
    game, log, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finish(game)
    assert game.status == Game.Status.FINISHED
    last = logged(log)[-1]
    assert (last["seq"], last["final"]) == (game.seq, True)
    assert Checkpoint.objects.get(game=game, seq=game.seq).final


def test_a_failing_log_postpones_the_final_checkpoint_and_never_the_move(
    game, log, settings, django_capture_on_commit_callbacks
):
    settings.CHECKPOINT_LOG = str(log.parent / "no-such-folder" / "log")
    with django_capture_on_commit_callbacks(execute=True):
        finish(game)
    assert game.status == Game.Status.FINISHED  # the move that ended it stood
    assert not Checkpoint.objects.filter(game=game).exists()
    settings.CHECKPOINT_LOG = str(log)
    assert checkpoints.publish() == 1 and logged(log)[-1]["final"] is True


def test_a_signature_covers_every_field(game, log):
    checkpoints.publish()
    [record] = logged(log)
    for name, other in [("seq", 6), ("head_hash", "0" * 64), ("game", game.pk + 1),
                        ("final", True), ("at", "2020-01-01T00:00:00+00:00")]:  # fmt: skip
        assert keys.signature_problem({**record, name: other}, keys.public_keys())


def test_a_retired_chain_keys_checkpoints_still_check(game, log, settings):
    checkpoints.publish()
    settings.CHAIN_KEYS_RETIRED = [settings.CHAIN_KEY]
    settings.CHAIN_KEY = "a-new-chain-key-of-more-than-thirty-two-characters"
    assert keys.signature_problem(logged(log)[0], keys.public_keys()) is None
    assert keys.current().key_id != logged(log)[0]["key_id"]


def test_a_checkpoint_key_that_is_not_64_hex_digits_stops_the_start():
    from django.core.exceptions import ImproperlyConfigured

    from config.settings import check_checkpoint_key

    check_checkpoint_key("")
    check_checkpoint_key("ab" * 32)
    for bad in ("ab" * 31, "zz" * 32, "ab" * 33):
        with pytest.raises(ImproperlyConfigured):
            check_checkpoint_key(bad)


# --- verify_games --checkpoints ---------------------------------------------------------


def test_a_history_that_still_holds_its_checkpoints_verifies(game, log, capsys):
    checkpoints.publish()
    play(game, 2, seed=9)
    checkpoints.publish()
    assert verify(capsys, log) == (0, "all games verified\n")


def test_a_game_cut_short_is_caught_by_its_checkpoint(game, log, capsys):
    checkpoints.publish()
    cut_off(game, 5)
    code, out = verify(capsys, log)
    assert code == 1
    assert f"game {game.pk} (duel): checkpoints in {log}: the stream ends at seq 5" in out
    assert "says it reached seq 7: events were cut off" in out


def test_a_game_cut_short_and_played_on_is_caught_by_its_checkpoint(game, log, capsys):
    checkpoints.publish()
    cut_off(game, 5)
    play(game, 3, seed=99)  # past seq 7 again, with other events
    assert game.seq >= 7
    code, out = verify(capsys, log)
    assert code == 1 and "the event at seq 7 is not the one a checkpoint" in out
    assert "the history was rewritten" in out


def test_the_table_rolled_back_with_the_game_does_not_unsay_the_log(game, log, capsys):
    checkpoints.publish()
    cut_off(game, 5)
    Checkpoint.objects.all().delete()  # what a restored backup would hold
    checkpoints.publish()  # a new checkpoint of the shorter history
    code, out = verify(capsys, log)
    assert code == 1 and "events were cut off" in out


def test_a_forged_or_garbled_line_in_a_source_is_reported(game, log, capsys, tmp_path):
    checkpoints.publish()
    [record] = logged(log)
    forged = tmp_path / "forged.jsonl"
    forged.write_text(
        json.dumps({**record, "seq": 3}) + "\nnot json\n" + json.dumps(record) + "\n"
    )
    code, out = verify(capsys, forged)
    assert code == 1
    prefix = f"game {game.pk} (duel): checkpoints in {forged}"
    assert f"{prefix}: line 1: signature does not hold" in out
    assert f"checkpoints in {forged}: line 2: not a checkpoint record" in out


def test_a_checkpoint_of_a_game_the_database_lost_is_reported(game, log, capsys):
    checkpoints.publish()
    [record] = logged(log)
    signer = keys.current()
    ghost = {**record, "game": game.pk + 1000}
    ghost["signature"] = signer.sign(ghost)
    log.write_text(json.dumps(ghost) + "\n")
    code, out = verify(capsys, log)
    assert code == 1 and "checkpointed, but the game is not in the database" in out


def test_a_missing_source_is_a_clear_error(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no such file"):
        call_command("verify_games", "--checkpoints", str(tmp_path / "nowhere"))


# --- the feed -------------------------------------------------------------------------


def feed(user, **query) -> dict:
    answer = client_for(user).get("/api/checkpoints/", query)
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_the_feed_lists_public_games_checkpoints_with_the_keys_that_check_them(game, eve):
    checkpoints.publish()
    page = feed(eve)
    [record] = page["checkpoints"]
    assert (record["game"], record["seq"]) == (game.pk, game.seq)
    assert keys.signature_problem(record, page["keys"]) is None
    assert page["next"] == f"{record['at']}/{game.pk}/{game.seq}"
    assert feed(eve, since=page["next"])["checkpoints"] == []


def test_the_feed_pages_by_its_cursor_without_losing_or_repeating_one(make_game, alice, bob, eve):
    games = [make_game(players=[alice, bob], seed=n) for n in range(5)]
    checkpoints.publish()  # one chunk: the same time on every record
    seen, since = [], None
    while True:
        page = feed(eve, limit=2, **({"since": since} if since else {}))
        if not page["checkpoints"]:
            break
        seen += [(r["game"], r["seq"]) for r in page["checkpoints"]]
        since = page["next"]
    assert seen == [(g.pk, 1) for g in games]


def test_a_private_games_checkpoints_are_not_in_the_feed(make_game, alice, bob, eve, log):
    private = make_game(players=[alice, bob], public=False, options={"rounds": 1})
    checkpoints.publish()
    assert logged(log)[0]["game"] == private.pk  # the operator's log has it
    assert feed(eve)["checkpoints"] == []
    finish(private)
    checkpoints.publish()
    assert logged(log)[-1]["final"] is True
    assert feed(eve)["checkpoints"] == []
    assert feed(alice)["checkpoints"] == []  # the feed is everyone's; verify/?seen= is hers


def test_a_delayed_spectator_learns_nothing_of_the_real_head_from_the_feed(
    make_game, alice, bob, eve
):
    game = play(make_game(players=[alice, bob], spectator_delay=2, options={"rounds": 3}), 4, 8)
    checkpoints.publish()
    assert Checkpoint.objects.filter(game=game).exists()
    assert feed(eve)["checkpoints"] == []
    finish(game)
    checkpoints.publish()
    listed = feed(eve)["checkpoints"]
    assert [(r["seq"], r["final"]) for r in listed] == [(game.seq, True)]


def test_the_feed_holds_back_its_newest_minute(game, eve, settings):
    settings.CHECKPOINT_FEED_HOLD_SECONDS = 60
    checkpoints.publish()
    assert feed(eve)["checkpoints"] == []
    Checkpoint.objects.update(at=timezone.now() - datetime.timedelta(seconds=61))
    assert len(feed(eve)["checkpoints"]) == 1


def test_the_feed_is_for_accounts(game):
    checkpoints.publish()
    assert client_for(None).get("/api/checkpoints/").status_code in (401, 403)


@pytest.mark.parametrize(
    "since",
    ["x", "2026-01-01T00:00:00/1/1", "2026-01-01T00:00:00+00:00/1",
     "2026-01-01T00:00:00+00:00/a/1", "2026-01-01T00:00:00+00:00/1/-1", "9" * 81, "\x00",
     "2026-13-01T00:00:00+00:00/1/1", "2026-01-01T00:00:00+00:00/" + "9" * 20 + "/1"],
)  # fmt: skip
def test_a_bad_cursor_is_a_clear_400(eve, since):
    answer = client_for(eve).get("/api/checkpoints/", {"since": since})
    assert answer.status_code == 400, answer.content


@pytest.mark.parametrize("limit", ["0", "1001", "x", "-5"])
def test_a_bad_limit_is_a_clear_400(eve, limit):
    assert client_for(eve).get("/api/checkpoints/", {"limit": limit}).status_code == 400
