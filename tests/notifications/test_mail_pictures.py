"""Every title's board drawn into its turn mails as a picture, all through
games the greedy bots play: the renderer never refuses a board the game page draws, and
the picture follows the game.

The rest of the suite sends mails without pictures but where a test is
marked `mail_pictures` (tests/conftest.py), since drawing one is the
costliest part of a mail.
"""

from __future__ import annotations

import random
from email import message_from_bytes
from email.policy import default

import pytest
from django.test import override_settings

from games.engines import bots
from games.models import Event
from games.services.creation import do_create_game
from games.services.moves import do_submit_action
from games.stream import store
from games.stream.derived import engine_for
from notifications import render
from notifications.models import Notification
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

TITLES = ["havana", "18cuba", "pointcity", "estates"]
# Moves a game is played by the greedy bots: 18Cuba's map changes only
# once its companies run, after the auction and a stock round (at move 82).
MOVES = {"18cuba": 120}
LOOKS = 4  # turn mails drawn along the way


def picture(notification: Notification) -> bytes | None:
    """The picture in the notification's mail.  Only these are drawn: the
    mails the moves send on the way go without (tests/conftest.py)."""
    with override_settings(NOTIFICATIONS_BOARD_IMAGE=True):
        message = render.build_message(notification).message()
    mail = message_from_bytes(message.as_bytes(), policy=default)
    found = [part for part in mail.walk() if part.get_content_type() == "image/png"]
    return found[0].get_content() if found else None


@pytest.mark.parametrize("title", TITLES)
def test_every_turn_mail_of_a_bots_game_carries_its_board(title):
    players = [make_user(f"{title}-{n}") for n in range(2)]
    game = do_create_game(title=title, players=players, seed=7)
    engine, rng = engine_for(game), random.Random(7)
    moves = MOVES.get(title, 40)
    looked_at = sorted(rng.sample(range(moves // 2, moves), LOOKS))
    pictures = []
    for step in range(moves):
        game.refresh_from_db()
        state = store.load(game, engine).state
        if not engine.to_act(state):
            break
        if step in looked_at:
            turn = Notification.objects.filter(game=game, kind="your_turn").order_by("-id")[0]
            drawn = picture(turn)
            assert drawn is not None, f"no picture at seq {game.seq}"
            assert drawn.startswith(b"\x89PNG\r\n\x1a\n")
            assert int.from_bytes(drawn[16:20], "big") == 900  # IHDR width
            pictures.append(drawn)
        seat = min(engine.to_act(state))
        _, action = bots.choose(engine, state, seat, "greedy", step)
        do_submit_action(game, seat, actor=None, action=action, text=None, expected_seq=game.seq,
                         source="api", kind=Event.Kind.ACTION)  # fmt: skip
    assert len(pictures) == LOOKS
    assert len(set(pictures)) > 1, "the picture did not follow the game"
