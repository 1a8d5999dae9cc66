"""Golden mails: for each title, a fixed game at a few positions renders
exactly the committed text and HTML of its turn mail's game part, so any
change to what a player reads is a visible diff here.  Reviewed by eye once;
`UPDATE_GOLDEN=1` rewrites them after a deliberate change.

Game ids and the reply address's signature vary from run to run and are
written as ID and SIGNATURE; the rest is fixed by the seed and the moves.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engines import base
from games.services.creation import do_create_game
from games.services.moves import do_submit_action
from games.stream import store
from notifications import render
from notifications.addresses import reply_address
from tests.conftest import make_user

GOLDEN = Path(__file__).parent / "golden_mails"
NAMES = ["alice", "bob", "carol", "dave"]
# (title, players, options, positions: moves played before each mail)
GAMES = [
    ("havana", 3, {}, [0, 7, 40]),
    ("estates", 3, {}, [0, 9, 40]),
    ("pointcity", 2, {}, [0, 5, 12]),
    ("18cuba", 4, {}, [0, 12, 90]),
]
# What a view's raw keys and values look like: never in a title's own words.
RAW = re.compile(r'"\w+":|\{"|\btrue\b|\bfalse\b|\bNone\b')


def advance(game, users, moves: int, rng: random.Random) -> None:
    engine = base.get(game.title)
    for _ in range(moves):
        game.refresh_from_db()
        state = store.load(game, engine).state
        if engine.result(state) is not None:
            return
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        do_submit_action(
            game, seat, actor=users[seat], action=action, text=None, expected_seq=game.seq,
            source="api", kind="action",
        )  # fmt: skip


def game_part(game, seat: int, since: int) -> dict[str, str]:
    game.refresh_from_db()
    facts = render.game_facts(game, seat, game.seq, since=since)
    address = reply_address(game.pk, seat, game.seats.get(index=seat).user_id)
    for move in facts["moves"]:
        move["mailto"] = render.mailto(address, "Re: your turn", move["line"])
    parts = {
        kind: render_to_string(f"notifications/emails/_game.{kind}", {"game": facts})
        for kind in ("txt", "html")
    }
    return {kind: normalised(text, game.pk) for kind, text in parts.items()}


def normalised(text: str, game_id: int) -> str:
    text = re.sub(rf"#{game_id}\b", "#ID", text)
    text = re.sub(rf"/games/{game_id}/", "/games/ID/", text)
    return re.sub(r"play\+[0-9a-z-]+@", "play+SIGNATURE@", text)


@pytest.mark.parametrize(("title", "players", "options", "positions"), GAMES)
def test_turn_mails_read_as_committed(db, title, players, options, positions, subtests):
    users = [make_user(name) for name in NAMES[:players]]
    game = do_create_game(title=title, players=users, options=options, seed=11)
    rng, played = random.Random(11), 0
    for position in positions:
        advance(game, users, position - played, rng)
        played = position
        game.refresh_from_db()
        engine = base.get(title)
        state = store.load(game, engine).state
        seat = min(engine.to_act(state) or {0})
        parts = game_part(game, seat, since=max(1, game.seq - players))
        if position == positions[1]:  # and once in German, the title's words too
            with translation.override("de"):
                german = game_part(game, seat, since=max(1, game.seq - players))
            parts.update({f"de.{kind}": text for kind, text in german.items()})
        for kind, text in parts.items():
            with subtests.test(position=position, kind=kind):
                path = GOLDEN / f"{title}-{position}.{kind}"
                if os.environ.get("UPDATE_GOLDEN"):
                    GOLDEN.mkdir(exist_ok=True)
                    path.write_text(text)
                assert text == path.read_text(), f"{path.name} changed (UPDATE_GOLDEN=1)"
                body = re.split("Your legal moves|Deine möglichen Züge", text, maxsplit=1)[0]
                assert not RAW.search(body), RAW.search(body)
                if kind.endswith("txt"):
                    too_long = [line for line in body.splitlines() if len(line) > 76]
                    assert not too_long, too_long
