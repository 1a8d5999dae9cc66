"""The boards you click: for each title and each kind of move, the board on
the game page offers every legal move of that kind as a button (in a form
with data-action, or a pick that fills one), with an accessible name, and
the move list below still has them all."""

from __future__ import annotations

import json
import random
import re
from html import unescape

import pytest

from games.engines import base
from games.models import Event, Game
from games.services.moves import check_submit_action
from games.stream import store
from web.moves import encode

# The move kinds each title's board must offer, and a seed whose random
# play reaches each soon.
KINDS = {
    "havana": ("choose", "replace", "buy", "pesos", "end"),
    "pointcity": ("take", "draw", "flip"),
    "estates": ("auction", "bid", "pass", "place", "give", "keep"),
}


def play_until(game: Game, users: list, kind: str, seed: int = 3, limit: int = 120):
    """Random legal moves (seeded) through the service until the seat to
    act may make a move of `kind`: that seat, its user and its moves."""
    engine = base.get(game.title)
    rng = random.Random(seed)
    for _ in range(limit):
        state = store.load(game, engine).state
        if engine.is_over(state):
            break
        for seat in sorted(engine.to_act(state)):
            legal = engine.legal_actions(state, seat)
            if any(a["type"] == kind for a in legal):
                return game, seat, users[seat], legal
        seat = rng.choice(sorted(engine.to_act(state)))
        legal = engine.legal_actions(state, seat)
        # Ending a turn early keeps the game moving to the next kinds.
        check_submit_action(game, users[seat], action=rng.choice(legal), expected_seq=game.seq)
        game = Game.objects.get(pk=game.pk)
    pytest.fail(f"no {kind} move came up")


def controls(html: str) -> str:
    found = re.search(r'<section class="board-controls".*?</section>\s*(?=<section class="moves")',
                      html, re.S)  # fmt: skip
    assert found, "the page has no board controls"
    return found.group(0)


def values_in(part: str, kind: str) -> set[str]:
    """Each action value the board's forms of `kind` can send."""
    out = set()
    for form in re.findall(rf'<form[^>]*data-action="{kind}".*?</form>', part, re.S):
        out |= {unescape(v) for v in re.findall(r'name="action" value="([^"]+)"', form)}
        number = re.search(r'<input type="number"[^>]*min="(\d+)" max="(\d+)"', form)
        if number:
            field = re.search(r'name="field" value="([^"]+)"', form).group(1)
            template = json.loads(unescape(re.search(r'name="action" value="([^"]+)"', form)[1]))
            out.discard(encode(template))
            out |= {
                encode({**template, field: n}) for n in range(int(number[1]), int(number[2]) + 1)
            }
    return out


CASES = [(title, kind) for title, kinds in KINDS.items() for kind in kinds]


@pytest.mark.parametrize(("title", "kind"), CASES)
def test_every_legal_move_of_each_kind_is_offered_on_the_board(
    page_as, make_game, alice, bob, title, kind
):
    game = make_game(title, players=[alice, bob], seed=3)
    game, _seat, user, legal = play_until(game, [alice, bob], kind)
    html = page_as(user).get(f"/games/{game.pk}/").content.decode()
    board = controls(html)
    wanted = {encode(a) for a in legal if a["type"] == kind}
    assert values_in(board, kind) == wanted
    # The list below keeps every legal move as a form too.
    listed = html[html.index('<section class="moves"') :]
    assert {encode(a) for a in legal if a["type"] == kind} <= values_in(listed, kind) | {
        unescape(v) for v in re.findall(r'<option value="([^"]+)"', listed)
    }


@pytest.mark.parametrize("title", sorted(KINDS))
def test_every_control_on_the_board_has_an_accessible_name(page_as, make_game, alice, bob, title):
    game = make_game(title, players=[alice, bob], seed=3)
    for kind in KINDS[title][:2]:
        game, _seat, user, _legal = play_until(game, [alice, bob], kind)
        board = controls(page_as(user).get(f"/games/{game.pk}/").content.decode())
        buttons = re.findall(r"<button\b[^>]*>(.*?)</button>", board, re.S)
        assert buttons
        for inner in buttons:
            assert re.sub(r"<[^>]+>", "", inner).strip(), "a button without a name"
        for field in re.findall(r'<input type="number"[^>]*id="([^"]+)"', board):
            assert f'<label for="{field}">' in board
        # Every submit sits in a form that names the kind of move it makes.
        for form in re.findall(r"<form\b[^>]*>", board):
            assert "data-action=" in form


def test_havana_cards_are_picked_by_name_and_number_and_each_pair_says_its_order(
    page_as, make_game, alice, bob
):
    game = make_game("havana", players=[alice, bob], seed=3)
    game, _seat, user, legal = play_until(game, [alice, bob], "choose")
    board = controls(page_as(user).get(f"/games/{game.pk}/").content.decode())
    for name in ("0 Siesta", "9 Mama", "4 Architect"):
        assert re.search(rf'data-pick="[^"]+">\s*<span class="cell-name">{name}</span>', board)
    sends = re.findall(r'data-key="([^"]+)"[^>]*hidden>Send: ([^<]+)</button>', board)
    assert len(sends) == len([a for a in legal if a["type"] == "choose"])
    assert ("0 1", "Siesta + Refreshment: number 01") in sends


def test_havana_buildings_show_their_cost_beside_the_players_goods(page_as, make_game, alice, bob):
    game = make_game("havana", players=[alice, bob], seed=3)
    game, seat, user, legal = play_until(game, [alice, bob], "buy")
    board = controls(page_as(user).get(f"/games/{game.pk}/").content.decode())
    view = base.get("havana").view(store.load(game, base.get("havana")).state, seat)
    me = next(s for s in view["seats"] if s["seat"] == seat)
    assert f"You have {me['pesos']} pesos, {me['workers']} workers" in board
    bought = next(a for a in legal if a["type"] == "buy")
    assert re.search(rf"Buy B{bought['building']}, paying ", board)


def test_a_send_from_the_board_is_the_move_made(page_as, make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    game, _seat, user, _legal = play_until(game, [alice, bob], "take")
    client = page_as(user)
    board = controls(client.get(f"/games/{game.pk}/").content.decode())
    key, value = re.search(r'name="action" value="([^"]+)" data-key="([^"]+)"', board).group(2, 1)
    response = client.post(f"/games/{game.pk}/move/", {"seq": game.seq, "action": unescape(value)})
    assert response.status_code == 302
    made = Event.objects.get(game=game, seq=game.seq + 1).payload["action"]
    assert made == json.loads(unescape(value)) and " ".join(made["spaces"]) == key


def test_a_spectator_and_a_seat_not_to_act_get_no_controls(page_as, make_game, alice, bob, eve):
    game = make_game("pointcity", players=[alice, bob], seed=3, public=True)
    waiting = [alice, bob][1 - min(game.to_act)]
    for user in (waiting, eve, None):
        assert (
            'class="board-controls"'
            not in page_as(user).get(f"/games/{game.pk}/").content.decode()
        )
