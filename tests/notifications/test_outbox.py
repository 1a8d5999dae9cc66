"""The outbox: rows written with the event, one per (game, seq, kind, user)."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.models import Game
from games.services.clocks import check_pause
from games.services.creation import do_create_game
from games.services.moves import check_submit_action, check_submit_action_by_id
from games.services.seats import check_resign
from games.services.undo import check_undo
from games.services.vacation import check_start_vacation
from games.stream import sql
from notifications import outbox
from notifications.models import Notification
from tests.notifications.conftest import new_duel
from tests.support.play import hand

pytestmark = pytest.mark.django_db


def kinds_for(user):
    return [(n.kind, n.seq) for n in Notification.objects.filter(user=user).order_by("id")]


def test_it_tells_every_seat_to_act_when_the_game_starts(alice, bob):
    new_duel(alice, bob)
    assert kinds_for(alice) == [("your_turn", 1)]
    assert kinds_for(bob) == [("your_turn", 1)]


def test_it_tells_a_seat_once_while_it_stays_to_act(alice, bob):
    game = new_duel(alice, bob)
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    # bob is still to act (the commit is simultaneous): no second mail for him
    assert kinds_for(bob) == [("your_turn", 1)]
    check_submit_action(game, bob, text=f"commit {hand(game, 1)[0]}", expected_seq=2)
    # the draw phase: alice draws first
    assert kinds_for(alice) == [("your_turn", 1), ("your_turn", 3)]
    assert kinds_for(bob) == [("your_turn", 1)]
    check_submit_action(game, alice, text="pass", expected_seq=3)
    assert kinds_for(bob) == [("your_turn", 1), ("your_turn", 4)]


@pytest.mark.postgres
def test_a_move_by_id_tells_whose_turn_from_the_players_read_with_the_game(
    alice, bob, monkeypatch
):
    """The API's move reads the players with the game (one statement) and
    the turn mail is built from them: no second read, the same rows."""
    game = new_duel(alice, bob)
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    monkeypatch.setattr(sql, "players", lambda *args: pytest.fail("read the players again"))
    check_submit_action_by_id(game.pk, bob, text=f"commit {hand(game, 1)[0]}", expected_seq=2)
    assert kinds_for(alice) == [("your_turn", 1), ("your_turn", 3)]
    row = Notification.objects.get(user=alice, seq=3)
    assert (row.to_email, row.seat) == (alice.email, 0)


def test_it_tells_everyone_when_the_game_ends(alice, bob):
    game = new_duel(alice, bob)
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    check_submit_action(game, bob, text=f"commit {hand(game, 1)[0]}", expected_seq=2)
    check_submit_action(game, alice, text="pass", expected_seq=3)
    check_submit_action(game, bob, text="pass", expected_seq=4)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert kinds_for(alice)[-1] == ("game_over", 5)
    assert kinds_for(bob)[-1] == ("game_over", 5)


def test_a_resignation_that_aborts_tells_everyone(alice, bob):
    game = new_duel(alice, bob)
    check_resign(game, alice, source="email")
    game.refresh_from_db()
    expected = ("game_over", 2)
    assert kinds_for(alice)[-1] == expected
    assert kinds_for(bob)[-1] == expected
    assert Notification.objects.get(user=bob, kind="game_over").context["status"] == game.status


def test_an_undo_tells_everyone_and_says_whose_turn(alice, bob, mo):
    game = new_duel(alice, bob)
    check_submit_action(game, alice, text=f"commit {hand(game, 0)[0]}", expected_seq=1)
    check_undo(game, mo, to_seq=1, reason="misclick")
    assert kinds_for(alice)[-1] == ("undone", 3)
    assert kinds_for(bob)[-1] == ("undone", 3)
    undone = Notification.objects.get(user=alice, kind="undone")
    assert undone.context == {"to_seq": 1, "reason": "misclick", "by_moderator": True}
    # The undo mail says whose turn it is: no separate "your turn" for it.
    assert not Notification.objects.filter(game=game, seq=3, kind="your_turn").exists()


def test_rows_roll_back_with_the_event(alice, bob):
    def create_then_fail():
        with transaction.atomic():
            new_duel(alice, bob)
            assert Notification.objects.count() == 2
            raise RuntimeError("the transaction fails after the append")

    with pytest.raises(RuntimeError):
        create_then_fail()
    assert Notification.objects.count() == 0


def test_a_player_who_turned_mail_off_gets_no_rows(alice, bob):
    bob.notify_mode = "off"
    bob.save()
    new_duel(alice, bob)
    assert kinds_for(bob) == []


def test_a_digest_player_gets_held_rows_folded_into_one_digest(alice, bob):
    bob.notify_mode = "daily_digest"
    bob.save()
    new_duel(alice, bob)
    new_duel(bob, alice)
    held = Notification.objects.filter(user=bob)
    assert {n.status for n in held} == {"held"}
    from notifications import delivery

    [digest_id] = delivery.collect_digests()
    digest = Notification.objects.get(pk=digest_id)
    assert digest.kind == "digest"
    assert sorted(digest.context["items"]) == sorted(n.pk for n in held)
    assert {n.status for n in Notification.objects.filter(user=bob).exclude(pk=digest_id)} == {
        "digested"
    }
    assert delivery.collect_digests() == []


def test_notify_is_idempotent_for_the_clocks(alice, bob):
    game = new_duel(alice, bob)
    first = outbox.notify(alice, game, "reminder", game.seq, {"due": "tomorrow"})
    again = outbox.notify(alice, game, "reminder", game.seq, {"due": "tomorrow"})
    assert first.pk == again.pk
    assert first.seat == 0
    assert Notification.objects.filter(kind="reminder").count() == 1


def test_notify_refuses_unknown_kinds(alice, bob):
    game = new_duel(alice, bob)
    with pytest.raises(ValueError, match="unknown notification kind"):
        outbox.notify(alice, game, "gossip", game.seq)


def test_a_clock_reminder_becomes_one_mail_per_seat_seq_and_offset(alice, bob):
    from games import hooks
    from games.models import Seat
    from notifications.render import build_message

    game = new_duel(alice, bob)
    seat = Seat.objects.get(game=game, index=0)
    hooks.reminder_due(game, seat, 3600)
    hooks.reminder_due(game, seat, 3600)  # the same reminder again: still one row
    hooks.reminder_due(game, seat, 600)
    reminders = Notification.objects.filter(kind="reminder", user=alice)
    assert [n.context["offset_seconds"] for n in reminders] == [3600, 600]
    message = build_message(reminders[0])
    assert message.subject.startswith(f"[Correo] Duel (test engine) #{game.pk}: reminder")
    assert "commit" in message.body


def test_a_vacation_is_announced_to_the_other_players_by_mail(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):

    do_create_game(title="duel", players=[alice, bob], seed=2, clock={"per_move": "1h"})
    with django_capture_on_commit_callbacks(execute=True):
        check_start_vacation(alice, days=3)
    assert [kind for kind, _ in kinds_for(bob)] == ["your_turn", "clock"]
    assert [kind for kind, _ in kinds_for(alice)] == ["your_turn"]
    notice = next(m for m in mailoutbox if m.to == ["bob@example.org"] and "vacation" in m.subject)
    assert "alice is on vacation until" in notice.body


def test_a_moderator_pause_is_announced_to_every_player(alice, bob, mo):

    game = do_create_game(title="duel", players=[alice, bob], seed=2, clock={"per_move": "1h"})
    check_pause(game, mo, reason="dispute")
    assert Notification.objects.filter(kind="clock", context__clock="pause").count() == 2


def test_notifications_use_only_the_public_side_of_games():
    """games.stream.sql is the game service's own: its statements change with the
    models, and a caller outside games would be broken by that unseen."""
    import ast
    from pathlib import Path

    import notifications

    private = {"games.stream.sql"}
    found = []
    for path in Path(notifications.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                names = {a.name for a in node.names}
            else:
                continue
            found += [(path.name, name) for name in names & private]
    assert found == []
