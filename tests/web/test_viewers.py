"""Who sees what on the game page: spectators (with the delay), the replay."""

from __future__ import annotations

import re

import pytest

import boards
from games.engines import base
from games.services.creation import do_create_game
from games.services.moves import do_submit_action
from games.stream import store


def play(game, moves: int) -> None:
    engine = base.get(game.title)
    for _ in range(moves):
        state = store.load(game, engine).state
        seat = sorted(engine.to_act(state))[0]
        do_submit_action(
            game, seat, actor=None, action=engine.legal_actions(state, seat)[0], text=None,
            expected_seq=game.seq, source="api", kind="action",
        )  # fmt: skip
        game.refresh_from_db()


@pytest.fixture
def delayed(alice, bob):
    game = do_create_game(title="pointcity", players=[alice, bob], seed=5, spectator_delay=2)
    play(game, 4)
    return game


def shown_seq(html: str) -> int:
    return int(re.search(r'data-seq="(\d+)"', html).group(1))


def test_a_spectator_sees_the_delayed_board_and_no_moves(page_as, eve, delayed):
    html = page_as(eve).get(f"/games/{delayed.pk}/").content.decode()
    assert shown_seq(html) < delayed.seq
    assert "data-action=" not in html.replace('data-action="takeback', "")
    assert "behind" in html


def test_a_visitor_sees_a_public_game_too(page_as, delayed):
    assert page_as(None).get(f"/games/{delayed.pk}/").status_code == 200


def test_a_spectator_cannot_replay_past_their_delayed_head(page_as, eve, delayed):
    html = page_as(eve).get(f"/games/{delayed.pk}/", {"at": delayed.seq}).content.decode()
    head = shown_seq(html)
    assert head < delayed.seq
    assert f'max="{head}"' in html
    assert f'value="{delayed.seq}"' not in html


def test_the_replay_shows_the_board_as_my_seat_saw_it_then(page_as, alice, bob, delayed):
    client = page_as(alice)
    engine = base.get("pointcity")
    then = client.get(f"/games/{delayed.pk}/", {"at": 2}).content.decode()
    now = client.get(f"/games/{delayed.pk}/").content.decode()
    assert "Replay: the board" in then and "Replay: the board" not in now
    state = store.load(delayed, engine, head=2).state
    board = boards.render("pointcity", engine.view(state, 0), 0, {0: "alice", 1: "bob"})
    assert board in then and board not in now
    assert "data-action" not in then.split('class="log"')[0].split("board-area")[1]
