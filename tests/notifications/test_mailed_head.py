"""The head a mail carried is the players' anchor against a game cut short:
delivered through a real SMTP conversation, read from the footer, checked
with `verify/?seen=SEQ:HASH`, and remembered by the outbox for verify_games."""

from __future__ import annotations

import random
import re

import pytest
from django.core.management import call_command

from notifications import delivery
from notifications.models import Notification
from tests.api.conftest import client_for
from tests.notifications.conftest import new_duel
from tests.support.play import random_move
from tests.support.tamper import cut_off

pytestmark = pytest.mark.django_db
FOOTER = re.compile(r"Game #(\d+) at seq (\d+), event-chain head ([0-9a-f]{64})")


def mailed_head(sink, address: str) -> tuple[int, int, str]:
    """The game, seq and head hash in the footer of the last mail to `address`."""
    body = sink.to(address)[-1].get_body(("plain",)).get_content()
    game, seq, head = FOOTER.search(body).groups()
    return int(game), int(seq), head


def test_a_player_checks_the_head_a_mail_carried_after_the_game_was_cut_short(
    alice, bob, sink, capsys
):
    game = new_duel(alice, bob, rounds=5)
    rng = random.Random(3)
    for _ in range(6):
        game.refresh_from_db()
        random_move(game, rng)
        for row in Notification.objects.filter(status="pending"):
            delivery.deliver(row.pk)
    game.refresh_from_db()
    game_id, seq, head = mailed_head(sink, "alice@example.org")
    assert game_id == game.pk and seq > 3
    path = f"/api/games/{game.pk}/verify/"
    answer = client_for(alice).get(path, {"seen": f"{seq}:{head}"}).json()["seen"]
    assert answer["status"] == "in_chain"

    cut_off(game, 3)

    answer = client_for(alice).get(path, {"seen": f"{seq}:{head}"}).json()["seen"]
    assert answer["status"] == "not_in_chain"
    with pytest.raises(SystemExit):
        call_command("verify_games")
    out = capsys.readouterr().out
    assert f"game {game.pk} (duel): notifications were written for seq" in out
    assert "past the head 3" in out
