"""18Cuba's steps and rounds refuse in words a mail can say in German: for
each kind of refusal a real illegal move or unreadable line, its German
(`said("de")`) and its English (`message`, what the API and the other tests
compare), unchanged.

The moves are handed to the round the way the engine's `why_not` does, so
the refusal is the step's own; the engine's own refusals (not your turn as
a whole, game over) are the engine's tests'."""

from __future__ import annotations

from typing import Any

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.rounds import flow
from games.engines.cuba.rules import cash

from ..opening import ENGINE, new, to_act
from ..stockgame import seat_to_act, stock_game


def refused(state: Any, seat: int, action: dict[str, Any]) -> IllegalAction:
    probe = ENGINE.copy_state(state)
    with pytest.raises(IllegalAction) as caught:
        flow.current(probe).process(probe, seat, action)
    return caught.value


def unreadable(state: Any, seat: int, line: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.parse(line, state, seat)
    return caught.value


def test_a_bid_out_of_turn():
    state = new()
    other = next(s for s in state["order"] if s != to_act(state))
    exc = refused(state, other, {"type": "bid", "card": "C1", "amount": 0})
    assert exc.message == "it is not your turn to bid"
    assert exc.said("de") == "du bist nicht an der Reihe zu bieten"


def test_a_bid_that_is_not_a_multiple_of_5():
    state = new()
    exc = refused(state, to_act(state), {"type": "bid", "card": "C1", "amount": 7})
    assert exc.message == "bids are multiples of $5: $7 is not"
    assert exc.said("de") == "Gebote sind Vielfache von $5: $7 ist keines"


def test_a_bid_above_the_bidders_cash():
    state = new()
    seat = to_act(state)
    money = state["cash"][cash.player(seat)]
    exc = refused(state, seat, {"type": "bid", "card": "C1", "amount": money + 5})
    assert exc.message == f"you have ${money}; you cannot bid ${money + 5}"
    assert exc.said("de") == f"du hast ${money}; du kannst nicht ${money + 5} bieten"


def test_a_concession_chosen_during_the_auction():
    state = new()
    exc = refused(state, to_act(state), {"type": "choose", "card": "M1"})
    assert exc.message == "'choose' is not possible now: first bid for the commissioner"
    assert exc.said("de") == "'choose' ist jetzt nicht möglich: zuerst für den Kommissar bieten"


def test_a_line_the_auction_does_not_know():
    state = new()
    exc = unreadable(state, to_act(state), "choose M3")
    assert exc.message == "'choose m3' is not a move of the commissioner auction now"
    assert exc.said("de") == (
        "'choose m3' ist jetzt kein Spielzug der Versteigerung der Kommissare"
    )


def test_a_bid_line_without_an_amount():
    state = new()
    exc = unreadable(state, to_act(state), "bid C1 lots")
    assert exc.message == "a bid reads: bid C1 35"
    assert exc.said("de") == "ein Gebot lautet: bid C1 35"


def test_a_purchase_of_a_company_not_in_the_game():
    state = stock_game()
    exc = unreadable(state, seat_to_act(state), "buy XX")
    usage = "buy <company> [ipo|treasury|pool], e.g. buy MS pool"
    assert exc.message == f"there is no company 'xx' in this game (write: {usage})"
    assert exc.said("de") == f"in diesem Spiel gibt es keine Gesellschaft 'xx' (schreibe: {usage})"


def test_a_sale_in_the_first_stock_round():
    state = stock_game()
    exc = refused(state, seat_to_act(state), {"type": "sell", "company": "MS", "count": 1})
    assert exc.message == "no shares may be sold in the first stock round"
    assert exc.said("de") == "in der ersten Aktienrunde dürfen keine Aktien verkauft werden"


def test_a_par_price_the_market_does_not_have():
    state = stock_game()
    exc = refused(state, seat_to_act(state), {"type": "par", "company": "MS", "price": 72})
    assert exc.message == "the par price is one of 70, 75, 80, 85, 90, 95, 100, not 72"
    assert exc.said("de") == "der Startkurs ist einer von 70, 75, 80, 85, 90, 95, 100, nicht 72"


def test_a_directors_certificate_the_player_cannot_pay_for():
    state = stock_game()
    seat = seat_to_act(state)
    state["cash"] = cash.transfer(
        state["cash"], cash.player(seat), cash.BANK, state["cash"][cash.player(seat)] - 100
    )
    exc = refused(state, seat, {"type": "par", "company": "MS", "price": 100})
    assert exc.message == "the director's certificate at 100 costs $200; you have $100"
    assert exc.said("de") == "das Direktorzertifikat zu 100 kostet $200; du hast $100"


def test_the_english_of_a_refusal_is_its_message_in_english():
    state = new()
    exc = refused(state, to_act(state), {"type": "bid", "card": "C1", "amount": 7})
    assert exc.said("en") == exc.message
