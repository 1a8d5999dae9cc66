"""The verify page: a player pastes the head a mail carried and learns
whether the game's history still holds it; a delayed spectator is not told
what lies past their view; junk gets a clear answer, never a 500."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from tests.support.play import random_move
from tests.support.tamper import cut_off


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


def check(client, user, game, pasted: str):
    client.force_login(user)
    return client.get(f"/games/{game.pk}/verify/", {"seen": pasted})


def verdict(response) -> str:
    html = response.content.decode()
    return html.split('data-status="')[1].split('"')[0]


def test_the_line_a_mail_carries_is_checked_as_pasted(client, alice, game):
    line = f"Game #{game.pk} at seq {game.seq}, event-chain head {game.head_hash}"
    answer = check(client, alice, game, line)
    assert answer.status_code == 200 and verdict(answer) == "in_chain"
    upper = f"{game.seq}:{game.head_hash.upper()}"
    assert verdict(check(client, alice, game, upper)) == "in_chain"


def test_a_head_the_history_no_longer_holds_is_said_plainly(client, alice, game):
    head = f"{game.seq}:{game.head_hash}"
    cut_off(game, 5)
    answer = check(client, alice, game, head)
    assert verdict(answer) == "not_in_chain"
    assert "Does not hold" in answer.content.decode()


def test_a_delayed_spectator_is_not_told_what_lies_past_their_view(
    client, make_game, alice, bob, eve
):
    game = play(make_game(players=[alice, bob], spectator_delay=2, options={"rounds": 5}), 4, 8)
    pasted = f"{game.seq}:{game.head_hash}"
    answer = check(client, eve, game, pasted)
    assert verdict(answer) == "beyond_view"
    assert game.head_hash not in answer.content.decode().replace(pasted, "")


@pytest.mark.parametrize("pasted", ["hello", "0:" + "a" * 64, "9:" + "a" * 63, "\x00", "9" * 500])
def test_what_is_not_a_head_gets_a_clear_answer(client, alice, game, pasted):
    answer = check(client, alice, game, pasted)
    assert answer.status_code == 400
    assert "neither" in answer.content.decode()


def test_a_stranger_to_a_private_game_gets_no_verify_page(client, make_game, alice, bob, eve):
    game = make_game(players=[alice, bob], public=False)
    assert check(client, eve, game, "").status_code == 403


def test_the_game_page_links_to_it(client, alice, game):
    client.force_login(alice)
    assert f'href="/games/{game.pk}/verify/"' in client.get(f"/games/{game.pk}/").content.decode()
