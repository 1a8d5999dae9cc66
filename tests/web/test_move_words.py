"""The game page's moves say what the turn mail says (each move's gloss
beside its line), and a move whose choices are a run of whole numbers is a
number input bounded by that run."""

from __future__ import annotations

import re
from html import unescape

import pytest

from games.engines import base
from games.models import Event, Game
from games.selectors import narration
from games.services.moves import check_submit_action
from games.stream import store
from notifications import render
from web import moves


def page(client, game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def moves_section(html: str) -> str:
    found = re.search(r'<section class="moves".*?</section>', html, re.S)
    assert found, "the page offers no moves"
    return unescape(found.group(0))


def to_act(game, players):
    seat = min(game.to_act)
    return seat, players[seat]


def test_every_havana_move_on_the_page_carries_the_mails_gloss(page_as, make_game, alice, bob):
    game = make_game("havana", players=[alice, bob], seed=7)
    seat, user = to_act(game, [alice, bob])
    engine = base.get("havana")
    state = store.load(game, engine).state
    mail = [
        render.move_facts(engine, state, seat, a, ["alice", "bob"])
        for a in engine.legal_actions(state, seat)
    ]
    listed = moves_section(page(page_as(user), game))
    assert mail and all(m["gloss"] for m in mail)
    for m in mail:
        assert f"{m['gloss']} ({m['line']})" in listed
    assert "Siesta + " in listed and ": number 0" in listed


def test_the_page_and_the_mail_list_the_same_words_through_one_function(make_game, alice, bob):
    game = make_game("pointcity", players=[alice, bob], seed=3)
    seat = min(game.to_act)
    engine = base.get("pointcity")
    state = store.load(game, engine).state
    for action in engine.legal_actions(state, seat)[:10]:
        assert render.move_facts(engine, state, seat, action, ["alice", "bob"]) == (
            narration.move_words(engine, state, seat, action, ["alice", "bob"])
        )


def bidding(make_game, alice, bob):
    """An Estates game in which the seat after the auctioneer is to bid."""
    game = make_game("estates", players=[alice, bob], seed=4)
    players = [alice, bob]
    engine = base.get("estates")
    for _ in range(6):
        state = store.load(game, engine).state
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        if any(a["type"] == "bid" for a in legal):
            return game, seat, players[seat], legal
        check_submit_action(game, players[seat], action=legal[0], expected_seq=game.seq)
        game = Game.objects.get(pk=game.pk)
    pytest.fail("no bid came up")


def test_a_run_of_bids_is_a_number_input_bounded_by_the_legal_range(
    page_as, make_game, alice, bob
):
    game, _seat, user, legal = bidding(make_game, alice, bob)
    amounts = sorted(a["amount"] for a in legal if a["type"] == "bid")
    html = page(page_as(user), game)
    form = re.search(r'<form[^>]*data-action="bid".*?</form>', html, re.S)
    assert form, "no bid form"
    field = re.search(r'<input type="number"[^>]*>', form.group(0)).group(0)
    assert f'min="{amounts[0]}"' in field and f'max="{amounts[-1]}"' in field
    label = re.search(r'<label for="([^"]+)">([^<]+)</label>', form.group(0))
    assert f'id="{label.group(1)}"' in field
    assert f"({amounts[0]} to {amounts[-1]})" in label.group(2)


def test_a_number_sent_from_the_bid_form_is_the_bid_made(page_as, make_game, alice, bob):
    game, _seat, user, legal = bidding(make_game, alice, bob)
    amounts = sorted(a["amount"] for a in legal if a["type"] == "bid")
    template = moves.number_range([a for a in legal if a["type"] == "bid"])["template"]
    response = page_as(user).post(
        f"/games/{game.pk}/move/",
        {"seq": game.seq, "action": template, "field": "amount", "number": str(amounts[-1])},
    )
    assert response.status_code == 302
    made = Event.objects.get(game=game, seq=game.seq + 1)
    assert made.payload["action"] == {"type": "bid", "amount": amounts[-1]}


@pytest.mark.parametrize("number", ["", "ten", "1.5", "9" * 400])
def test_a_bid_that_is_no_whole_number_is_refused_and_changes_nothing(
    page_as, make_game, alice, bob, number
):
    game, _seat, user, legal = bidding(make_game, alice, bob)
    template = moves.number_range([a for a in legal if a["type"] == "bid"])["template"]
    response = page_as(user).post(
        f"/games/{game.pk}/move/",
        {"seq": game.seq, "action": template, "field": "amount", "number": number},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "whole number" in text or "amount" in text
    assert Event.objects.filter(game=game).count() == game.seq


def test_choices_with_gaps_or_two_varying_fields_stay_a_list():
    assert moves.number_range([{"type": "bid", "amount": n} for n in (1, 2, 4)]) is None
    assert moves.number_range([{"type": "t", "a": n, "b": n} for n in (1, 2, 3)]) is None
    assert moves.number_range([{"type": "bid", "amount": n} for n in (3, 1, 2)]) == {
        "field": "amount",
        "min": 1,
        "max": 3,
        "template": '{"type":"bid"}',
    }
