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

import boards
from games.engines import base
from games.models import Event, Game
from games.services.moves import check_submit_action
from games.stream import store
from tests.support.boards import KINDS, WALK_SEEDS
from tests.support.play import play_until_kind
from web.moves import encode


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


@pytest.mark.parametrize("title", sorted(KINDS))
def test_every_legal_move_of_each_kind_is_offered_on_the_board(
    page_as, make_game, alice, bob, title
):
    """Random moves through the service; the first time each kind of move is
    up for a seat, that seat's page is fetched and checked (and every
    control on it has an accessible name).  A kind the
    engine offers that is not in KINDS fails too: a new verb needs its
    place on the board."""
    players = [alice, bob]
    game = make_game(title, players=players, seed=3)
    engine = base.get(title)
    rng = random.Random(WALK_SEEDS[title])
    checked: set[str] = set()
    for _ in range(150):
        state = store.load(game, engine).state
        if engine.is_over(state) or checked == KINDS[title]:
            break
        for seat in sorted(engine.to_act(state)):
            legal = engine.legal_actions(state, seat)
            fresh = {a["type"] for a in legal} - checked
            if fresh:
                assert fresh <= KINDS[title], f"{title} offers {sorted(fresh)}: not on the board"
                html = page_as(players[seat]).get(f"/games/{game.pk}/").content.decode()
                assert_named(controls(html))
                for kind in fresh:
                    assert_offered(html, legal, kind)
                checked |= fresh
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        check_submit_action(game, players[seat], action=action, expected_seq=game.seq)
        game = Game.objects.get(pk=game.pk)
    assert checked == KINDS[title]


def assert_offered(html: str, legal: list[dict], kind: str) -> None:
    """Every legal move of `kind` is a button on the board, and the list
    below keeps each as a form too."""
    wanted = {encode(a) for a in legal if a["type"] == kind}
    assert values_in(controls(html), kind) == wanted, kind
    listed = html[html.index('<section class="moves"') :]
    assert wanted <= values_in(listed, kind) | {
        unescape(v) for v in re.findall(r'<option value="([^"]+)"', listed)
    }, kind


def assert_named(board: str) -> None:
    """Every button on the board says what it does, every number box has its
    label, and every form names the kind of move it makes."""
    buttons = re.findall(r"<button\b[^>]*>(.*?)</button>", board, re.S)
    assert buttons
    for inner in buttons:
        assert re.sub(r"<[^>]+>", "", inner).strip(), "a button without a name"
    for field in re.findall(r'<input type="number"[^>]*id="([^"]+)"', board):
        assert f'<label for="{field}">' in board
    for form in re.findall(r"<form\b[^>]*>", board):
        assert "data-action=" in form


def test_havana_cards_are_picked_by_name_and_number_and_each_pair_says_its_order(
    page_as, make_game, alice, bob
):
    game = make_game("havana", players=[alice, bob], seed=3)
    game, _seat, user, legal = play_until_kind(game, [alice, bob], "choose")
    board = controls(page_as(user).get(f"/games/{game.pk}/").content.decode())
    for name in ("0 Siesta", "9 Mama", "4 Architect"):
        assert re.search(rf'data-pick="[^"]+">\s*<span class="cell-name">{name}</span>', board)
    sends = re.findall(r'data-key="([^"]+)"[^>]*hidden>Send: ([^<]+)</button>', board)
    assert len(sends) == len([a for a in legal if a["type"] == "choose"])
    assert ("0 1", "Siesta + Refreshment: number 01") in sends


def test_havana_buildings_show_their_cost_beside_the_players_goods(page_as, make_game, alice, bob):
    game = make_game("havana", players=[alice, bob], seed=3)
    game, seat, user, legal = play_until_kind(game, [alice, bob], "buy")
    board = controls(page_as(user).get(f"/games/{game.pk}/").content.decode())
    view = base.get("havana").view(store.load(game, base.get("havana")).state, seat)
    me = next(s for s in view["seats"] if s["seat"] == seat)
    assert f"You have {me['pesos']} pesos, {me['workers']} workers" in board
    bought = next(a for a in legal if a["type"] == "buy")
    assert re.search(rf"Buy B{bought['building']}, paying ", board)


def test_a_send_from_the_board_is_the_move_made(page_as, make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    game, _seat, user, _legal = play_until_kind(game, [alice, bob], "take")
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


def test_the_cancel_cube_is_used_on_the_row_that_holds_the_permit(page_as, make_game, alice, bob):
    game = make_game("estates", players=[alice, bob], seed=3)
    game, seat, user, legal = play_until_kind(game, [alice, bob], "cancel", seed=1)
    board = controls(page_as(user).get(f"/games/{game.pk}/").content.decode())
    view = base.get("estates").view(store.load(game, base.get("estates")).state, seat)
    for action in (a for a in legal if a["type"] == "cancel"):
        row = next(r for r in view["board"] if action["permit"] in map(abs, r["permits"]))
        where = rf'<section class="control-area" id="estates-row-{row["row"]}".*?</section>'
        area = re.search(where, board, re.S)
        assert area and encode(action) in values_in(area.group(0), "cancel")
    assert 'id="estates-more"' not in board


def _permit_row(view: dict, action: dict) -> str:
    row = next(r for r in view["board"] if action["permit"] in map(abs, r["permits"]))
    return f"estates-permits-{row['row']}"


@pytest.mark.parametrize(("title", "kind", "anchor", "seed"), [
    ("estates", "place", lambda view, a: f"estates-lot-{a['lot']}", 3),
    ("estates", "mayor", lambda view, a: f"estates-mayor-{a['row']}", 3),
    ("estates", "cancel", _permit_row, 1),
    ("havana", "buy", lambda view, a: f"havana-building-{a['building']}", 3),
    ("havana", "conserve", lambda view, a: f"havana-building-{a['building']}", 3),
])  # fmt: skip
def test_the_picture_links_each_part_a_move_names_to_its_buttons(
    page_as, make_game, alice, bob, title, kind, anchor, seed
):
    game = make_game(title, players=[alice, bob], seed=3)
    game, seat, user, legal = play_until_kind(game, [alice, bob], kind, seed=seed)
    html = page_as(user).get(f"/games/{game.pk}/").content.decode()
    picture = html[html.index('class="board board-') : html.index("</svg>")]
    board = controls(html)
    linked = set(re.findall(r'<a href="#([^"]+)" class="board-target"', picture))
    engine = base.get(title)
    view = engine.view(store.load(game, engine).state, seat)
    for action in (a for a in legal if a["type"] == kind):
        name = anchor(view, action)
        assert name in linked
        cell = re.search(rf'<li [^>]*id="{name}">.*?</li>', board, re.S)
        assert cell and encode(action) in values_in(cell.group(0), kind)
    # Every link leads to a cell that is there.
    for name in linked:
        assert f'id="{name}"' in board
    # Only the seat to act gets a picture to click; the mail's has no links.
    other = page_as([alice, bob][1 - seat]).get(f"/games/{game.pk}/").content.decode()
    if 1 - seat not in game.to_act:
        assert 'class="board-target"' not in other
    assert 'class="board-target"' not in boards.render(title, view, seat, {0: "a", 1: "b"})
