"""The stock round (draft VI, IX.3), one test per rule, played through the
engine (which accepts only what `legal_actions` lists)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.data import market, variants
from games.engines.cuba.map import tokens
from games.engines.cuba.rounds.stock import STOCK
from games.engines.cuba.rules import cash, shares
from games.engines.cuba.steps import buy_sell_par

from ..stockgame import (
    ENGINE,
    check_of_type,
    give,
    play,
    seat_to_act,
    start_major,
    stock_game,
    to_seat,
)

PRICE = {c.price: c.index for c in market.CELLS}


def price_of(state, sym):
    return market.CELLS[state["companies"][sym]["price"]].price


def money(state, seat):
    return state["cash"][cash.player(seat)]


def legal(state):
    return ENGINE.legal_actions(state, seat_to_act(state))


def refused(state, action, match):
    with pytest.raises(IllegalAction, match=match):
        play(state, action)
    assert action not in legal(state)


def second_round(variant="4", seed=1):
    """SR 2 with MS started at 100 and operated, its director the first player."""
    state = stock_game(variant, seed, number=2)
    start_major(state, "MS", 100)
    return state


def my_concession(state):
    """The first concession the acting player holds."""
    mine = cash.player(seat_to_act(state))
    return next(c for c, p in state["privates"].items() if p["owner"] == mine)


def everyone_passes(state):
    """Every player passes and the round's end rules run; the operating
    round that follows is not begun, so that what is checked is what the
    stock round did (an OR moves prices and money of its own)."""
    for _ in state["order"][1:]:
        state = play(state, {"type": "pass"})
    state = ENGINE.copy_state(state)
    STOCK.process(state, seat_to_act(state), {"type": "pass"})
    assert STOCK.over(state)
    STOCK.finish(state)
    return state


# -- turns (VI.1, VI.2) --------------------------------------------------------


def test_vi2_the_lowest_playing_order_card_starts():
    for seed in range(4):
        state = stock_game("4", seed)
        assert seat_to_act(state) == state["order"][0]
        assert state["round"]["kind"] == "stock"


def test_vi1_a_purchase_ends_the_turn():
    state = stock_game()
    first, second = state["order"][:2]
    state = play(state, "par MS 80")
    assert seat_to_act(state) == second
    assert shares.director(state["certificates"], "MS") == cash.player(first)


def test_vi1_sell_any_number_of_companies_then_buy_one_certificate():
    state = second_round()
    start_major(state, "CVC", 90)
    seat = state["order"][0]
    give(state, "MS", seat, 20, 10, 10)
    give(state, "CVC", seat, 20, 10, 10)
    give(state, "CVC", state["order"][1], 10, 10)
    give(state, "MS", state["order"][1], 10, 10)
    state = play(state, "sell CVC 1")
    state = play(state, "sell MS 1")
    assert seat_to_act(state) == seat
    assert buy_sell_par.data(state)["turn"] == [
        {"company": "CVC", "count": 1},
        {"company": "MS", "count": 1},
    ]
    state = play(state, "buy FC ipo")
    assert seat_to_act(state) == state["order"][1]
    assert buy_sell_par.data(state)["turn"] == []


def test_vi1_a_pass_after_a_sale_ends_the_turn_but_is_not_a_pass():
    state = second_round()
    seat = state["order"][0]
    give(state, "MS", seat, 20, 10)
    give(state, "MS", state["order"][1], 10)
    state = play(state, "sell MS 1")
    state = play(state, "pass")
    assert seat_to_act(state) == state["order"][1]
    assert buy_sell_par.data(state)["passes"] == 0


def test_vi1_the_round_ends_when_all_players_have_passed_in_a_row():
    state = stock_game()
    n = len(state["order"])
    for _ in range(n - 1):
        state = play(state, "pass")
    state = play(state, "par MS 80")  # breaks the row: it starts again
    for _ in range(n - 1):
        state = play(state, "pass")
        assert state["round"]["kind"] == "stock"
    state = play(state, "pass")
    # the stock round is over: operating rounds follow
    assert (state["round"]["kind"], state["round"]["number"]) != ("stock", 1)


def test_vi1_a_player_who_passed_may_act_again_later():
    state = stock_game()
    first = state["order"][0]
    state = play(state, "pass")
    state = play(state, "par MS 80")
    for _ in state["order"][2:]:
        state = play(state, "pass")
    assert seat_to_act(state) == first
    state = play(state, "buy MS ipo")
    assert shares.percent(state["certificates"], "MS", cash.player(first)) == 10


# -- actions, text and parse ----------------------------------------------------


def test_legal_lists_every_sell_count_source_par_price_and_conversion():
    state = stock_game("4", 1)
    acts = legal(state)
    pars = {a["price"] for a in acts if a["type"] == "par" and a["company"] == "MS"}
    assert pars == set(market.PAR_PRICES)
    assert {a["company"] for a in acts if a["type"] == "par"} == {
        "Oe", "MS", "CVC", "NPP", "SdC", "TSS", "StSp"
    }  # fmt: skip
    converts = [a for a in acts if a["type"] == "convert"]
    card = my_concession(state)
    assert {(a["card"], a["company"]) for a in converts} == {
        (card, m) for m in ("HG", "JU", "HY", "DQ", "CO", "SB")
    }
    state = second_round()
    seat = state["order"][0]
    give(state, "MS", seat, 20, 10, 10)
    give(state, "MS", state["order"][1], 10, 10)
    give(state, "MS", seat, 10, source="ipo")
    state["certificates"] = shares.charter(state["certificates"], "MS")
    give(state, "MS", state["order"][2], 10, source="treasury")
    state["certificates"] = shares.sell(state["certificates"], "MS", state["order"][2], 1, [0])
    acts = legal(state)
    # 20+10+10+10 = 50%: five units; the fourth goes through the director's
    # certificate (the next player holds 20%), a fifth would make six in the pool.
    assert state["certificates"]["MS"]["pool"] == [10]
    assert [a["count"] for a in acts if a["type"] == "sell" and a["company"] == "MS"] == [
        1,
        2,
        3,
        4,
    ]
    state["round"]["entity"] = cash.player(state["order"][3])
    acts = legal(state)
    assert {a["source"] for a in acts if a["type"] == "buy" and a["company"] == "MS"} == {
        "treasury",
        "pool",
    }


@pytest.mark.slow
def test_every_legal_action_is_accepted_and_every_mail_line_parses_back():
    state = second_round()
    give(state, "MS", state["order"][0], 20, 10, 10)
    give(state, "MS", state["order"][1], 10, 10)
    for s in (stock_game("2h", 3), stock_game("4", 2), state):
        seat = seat_to_act(s)
        for action in legal(s):
            line = ENGINE.text(action)
            assert ENGINE.parse(line, s, seat) == action, line
            ENGINE.apply(s, seat, action)


@pytest.mark.parametrize("line", ["par stsp 80", "PAR StSp 80", "par STSP $80"])
def test_company_symbols_are_read_without_regard_to_case(line):
    state = stock_game()
    assert ENGINE.parse(line, state, seat_to_act(state)) == {
        "type": "par",
        "company": "StSp",
        "price": 80,
    }


def test_mail_lines_for_every_verb():
    state = stock_game()
    seat = seat_to_act(state)
    assert ENGINE.parse("convert m1 hg 70", state, seat) == {
        "type": "convert",
        "card": "M1",
        "company": "HG",
        "price": 70,
    }
    assert ENGINE.parse("sell oe", state, seat) == {"type": "sell", "company": "Oe", "count": 1}
    assert ENGINE.parse("sell sdc 3", state, seat) == {
        "type": "sell",
        "company": "SdC",
        "count": 3,
    }
    assert ENGINE.parse("pass", state, seat) == {"type": "pass"}
    with pytest.raises(IllegalAction, match="no company 'xx'"):
        ENGINE.parse("buy xx", state, seat)
    with pytest.raises(IllegalAction, match="write: par <company> <price>"):
        ENGINE.parse("par MS", state, seat)


def test_buy_without_a_source_takes_the_offering_then_the_treasury_then_the_pool():
    state = second_round()
    a, b, c, _ = state["order"]
    give(state, "MS", b, 20, 10, 10, 10)
    assert ENGINE.parse("buy MS", state, a)["source"] == "ipo"
    state["certificates"] = shares.charter(state["certificates"], "MS")
    state["cash"] = cash.open_account(state["cash"], "MS")
    give(state, "MS", c, 10, 10, 10, 10, source="treasury")
    state["certificates"] = shares.move(state["certificates"], "MS", cash.player(c), "pool", 10)
    assert ENGINE.parse("buy MS", state, a)["source"] == "treasury"
    give(state, "MS", c, 10, source="treasury")
    assert ENGINE.parse("buy MS", state, a)["source"] == "pool"
    state = play(state, "buy MS")
    assert "pool" not in state["certificates"]["MS"]


# -- selling (VI.4, IX.3) -------------------------------------------------------


def test_vi4_no_sale_in_the_first_stock_round():
    state = stock_game()
    seat = state["order"][0]
    start_major(state, "MS", 100, operated=True)  # even a company that had operated
    give(state, "MS", seat, 20, 10)
    give(state, "FC", seat, 10)
    state["companies"]["FC"]["operated"] = True
    refused(state, {"type": "sell", "company": "MS", "count": 1}, "first stock round")
    refused(state, {"type": "sell", "company": "FC", "count": 1}, "first stock round")


def test_vi4_no_sale_of_a_company_that_has_not_operated():
    state = second_round()
    start_major(state, "CVC", 90, operated=False)
    give(state, "CVC", state["order"][0], 20, 10)
    refused(state, {"type": "sell", "company": "CVC", "count": 1}, "has not operated")


def test_ix3_each_share_sold_moves_the_price_one_cell_down_and_is_paid_at_the_old_price():
    state = second_round()
    seat = state["order"][0]
    give(state, "MS", seat, 20, 10, 10, 10)
    bank, before = state["cash"]["bank"], money(state, seat)
    state = play(state, "sell MS 3")
    assert money(state, seat) == before + 3 * 100
    assert state["cash"]["bank"] == bank - 300
    assert price_of(state, "MS") == market.CELLS[PRICE[100] - 3].price == 85
    assert state["certificates"]["MS"]["pool"] == [10, 10, 10]


def test_vii312_fc_shares_may_be_sold_once_the_fc_has_operated():
    """VII.3.12 says what a sale of FC shares does to its price, so they can
    be sold; VI.4 allows it once the company has operated, and the FC's own
    run at the end of each OR is its operation."""
    from ..rounds.test_or_flow import play_set

    state = stock_game("4")
    seat = state["order"][0]
    give(state, "FC", seat, 10, 10)
    assert not state["companies"]["FC"]["operated"]
    state = play_set(state)  # SR 1, then the OR in which the FC runs
    assert state["round"]["kind"] == "stock" and state["round"]["number"] == 2
    assert state["companies"]["FC"]["operated"]
    to_seat(state, seat)
    assert {"type": "sell", "company": "FC", "count": 2} in legal(state)
    price, before = price_of(state, "FC"), money(state, seat)
    state = play(state, "sell FC 2")
    assert money(state, seat) == before + 2 * price
    assert price_of(state, "FC") == price  # VII.3.12: a sale does not move it
    assert state["certificates"]["FC"]["pool"] == [10, 10]


def test_ix3_the_fc_price_never_changes_in_a_stock_round():
    state = second_round()
    seat = state["order"][0]
    state["companies"]["FC"]["operated"] = True
    buy_sell_par.move_marker(state, "FC", PRICE[75])
    give(state, "FC", seat, 10, 10)
    before = money(state, seat)
    state = play(state, "sell FC 2")
    assert price_of(state, "FC") == 75
    assert money(state, seat) == before + 150


def test_vi4_the_directors_certificate_is_never_sold_to_the_bank():
    state = second_round()
    first, second = state["order"][:2]
    give(state, "MS", first, 20, 10)
    give(state, "MS", second, 10)
    refused(state, {"type": "sell", "company": "MS", "count": 2}, "can never be sold")
    give(state, "MS", second, 10)  # now 20%: it may take the director's certificate
    state = play(state, "sell MS 2")
    certs = state["certificates"]["MS"]
    assert shares.director(state["certificates"], "MS") == cash.player(second)
    assert certs[cash.player(second)] == [20]
    assert certs[cash.player(first)] == [10]
    assert certs["pool"] == [10, 10]


def test_vi4_a_sale_may_not_bring_the_pool_above_five_certificates():
    state = second_round()
    seat = state["order"][0]
    give(state, "MS", seat, 20, 10, 10, 10)
    give(state, "MS", state["order"][1], 10, 10, 10, 10)
    for _ in range(4):
        state["certificates"] = shares.move(
            state["certificates"], "MS", cash.player(state["order"][1]), "pool", 10
        )
    refused(state, {"type": "sell", "company": "MS", "count": 2}, "above 5")
    state = play(state, "sell MS 1")
    assert len(state["certificates"]["MS"]["pool"]) == 5


def test_vi9_a_sale_hands_the_directorship_to_the_next_in_playing_order_on_a_tie():
    state = second_round()
    a, b, c, _ = state["order"]
    give(state, "MS", a, 20, 10, 10)
    give(state, "MS", b, 10, 10)
    give(state, "MS", c, 10, 10)
    state = play(state, "sell MS 3")
    # b and c both hold 20%: b comes first after a in playing order.
    assert shares.director(state["certificates"], "MS") == cash.player(b)


def test_vi9_a_purchase_that_passes_the_director_takes_the_directorship():
    state = stock_game()
    a, b = state["order"][:2]
    to_seat(state, b)
    give(state, "MS", a, 20)
    start_major(state, "MS", 70, operated=False)
    state["companies"]["MS"]["floated"] = False
    give(state, "MS", b, 10, 10)
    state = play(state, "buy MS ipo")
    assert shares.director(state["certificates"], "MS") == cash.player(b)
    assert state["certificates"]["MS"][cash.player(a)] == [10, 10]


# -- buying (VI.5, VI.8, IV.4, IV.5) --------------------------------------------


def test_vi8_par_buys_the_directors_certificate_for_twice_the_price():
    state = stock_game()
    seat = seat_to_act(state)
    before, bank = money(state, seat), state["cash"]["bank"]
    state = play(state, "par CVC 95")
    assert state["certificates"]["CVC"][cash.player(seat)] == [20]
    assert money(state, seat) == before - 190
    assert state["cash"]["bank"] == bank + 190
    company = state["companies"]["CVC"]
    assert company["par"] == company["price"] == PRICE[95]
    assert state["market"][PRICE[95]] == ["CVC"]


def test_vi8_par_prices_are_70_to_100():
    state = stock_game()
    for price in (65, 105, "80"):
        refused(state, {"type": "par", "company": "MS", "price": price}, "par price is one of")


def test_vi8_a_majors_first_certificate_is_the_directors():
    state = stock_game()
    refused(state, {"type": "buy", "company": "MS", "source": "ipo"}, "bought with 'par'")


def test_vi5_a_started_company_may_not_be_parred_again():
    state = stock_game()
    state = play(state, "par MS 80")
    refused(state, {"type": "par", "company": "MS", "price": 90}, "started already")


def test_vi5_ordinary_shares_cost_the_current_price_paid_to_the_bank():
    state = second_round()
    seat = seat_to_act(state)
    give(state, "MS", state["order"][1], 20)
    before, bank = money(state, seat), state["cash"]["bank"]
    state = play(state, "buy MS ipo")
    assert money(state, seat) == before - 100
    assert state["cash"]["bank"] == bank + 100


def test_vi5_the_purchase_price_of_a_treasury_share_is_paid_to_the_bank():
    """VI.5: "The purchase price is paid to the bank", also for a share
    bought from a major's treasury (the company receives nothing; the
    README and the view's provisional notes say what this leaves open)."""
    state = second_round()
    seat = seat_to_act(state)
    give(state, "MS", state["order"][1], 20, 10, 10, 10)
    state["certificates"] = shares.charter(state["certificates"], "MS")
    state["cash"] = cash.open_account(state["cash"], "MS")
    before, bank = money(state, seat), state["cash"]["bank"]
    state = play(state, "buy MS treasury")
    assert money(state, seat) == before - 100
    assert state["cash"]["MS"] == 0
    assert state["cash"]["bank"] == bank + 100
    assert state["certificates"]["MS"][cash.player(seat)] == [10]
    assert any("VI.5" in note for note in ENGINE.view(state, seat)["provisional"])


def test_vi5_a_pool_share_is_paid_to_the_bank():
    state = second_round()
    give(state, "MS", state["order"][1], 20, 10, 10, 10, 10)
    state["certificates"] = shares.move(
        state["certificates"], "MS", cash.player(state["order"][1]), "pool", 10
    )
    bank = state["cash"]["bank"]
    state = play(state, "buy MS pool")
    assert state["cash"]["bank"] == bank + 100


def test_vi5_no_minor_share_out_of_a_minors_treasury():
    state = stock_game()
    state = play(state, {"type": "convert", "card": "M1", "company": "HG", "price": 70})
    assert state["certificates"]["HG"]["treasury"] == [20, 20]
    refused(state, {"type": "buy", "company": "HG", "source": "treasury"}, "treasury")


def test_vi5_fc_shares_from_its_offering_and_the_pool_at_its_price_from_the_first_round():
    state = stock_game()
    seat = seat_to_act(state)
    before = money(state, seat)
    state = play(state, "buy FC")
    assert state["certificates"]["FC"][cash.player(seat)] == [10]
    assert money(state, seat) == before - 50
    state = stock_game(number=2)
    give(state, "FC", state["order"][1], 10)
    state["certificates"] = shares.move(
        state["certificates"], "FC", cash.player(state["order"][1]), "pool", 10
    )
    buy_sell_par.move_marker(state, "FC", PRICE[60])
    before = money(state, state["order"][0])
    state = play(state, "buy FC pool")
    assert money(state, state["order"][0]) == before - 60


def test_vi5_nobody_owns_more_than_sixty_percent():
    state = second_round()
    seat = seat_to_act(state)
    give(state, "MS", seat, 20, 10, 10, 10, 10)
    refused(state, {"type": "buy", "company": "MS", "source": "ipo"}, "60%")


def test_vi3_no_purchase_beyond_the_certificate_limit():
    state = stock_game("6", 1)
    seat = seat_to_act(state)
    limit = variants.BY_ID["6"].certificate_limit
    for sym in ("Oe", "CVC", "NPP", "SdC", "TSS"):
        give(state, sym, seat, 20, 10, 10)
    assert shares.certificate_count(state["certificates"], seat) == limit
    refused(state, {"type": "buy", "company": "FC", "source": "ipo"}, "the limit is 15")
    refused(state, {"type": "par", "company": "MS", "price": 70}, "the limit is 15")


def test_vi5_no_purchase_of_a_company_sold_in_this_round():
    state = second_round()
    a, b = state["order"][:2]
    give(state, "MS", a, 20, 10, 10)
    give(state, "MS", b, 10)
    state = play(state, "sell MS 1")
    refused(state, {"type": "buy", "company": "MS", "source": "pool"}, "you sold MS")
    refused(state, {"type": "buy", "company": "MS", "source": "ipo"}, "you sold MS")
    state = play(state, "pass")
    assert {"type": "buy", "company": "MS", "source": "pool"} in legal(state)  # others may


def test_vi5_only_with_sufficient_cash():
    state = stock_game()
    seat = seat_to_act(state)
    has = money(state, seat)
    state["cash"] = cash.transfer(state["cash"], cash.player(seat), "bank", has - 179)
    refused(state, {"type": "par", "company": "MS", "price": 90}, "costs \\$180; you have \\$179")
    state = play(state, "par MS 85")
    assert money(state, seat) == 9


def test_iv4_fec_shares_only_from_phase_four():
    state = stock_game()
    refused(state, {"type": "par", "company": "FEC", "price": 70}, "from phase 4")
    state["phase"] = 4
    state = play(state, "par FEC 70")
    assert state["companies"]["FEC"]["price"] == PRICE[70]


def test_vi8_a_major_floats_once_fifty_percent_is_sold_the_pool_counting():
    state = second_round()
    start_major(state, "CVC", 80, operated=False)
    state["companies"]["CVC"]["floated"] = False
    b = state["order"][2]
    give(state, "CVC", b, 20, 10, 10)
    state["certificates"] = shares.move(state["certificates"], "CVC", cash.player(b), "pool", 10)
    assert shares.sold_percent(state["certificates"], "CVC") == 40
    assert state["certificates"]["CVC"][cash.player(b)] == [20, 10]
    state = play(state, "pass")
    state = play(state, "buy CVC ipo")
    assert state["companies"]["CVC"]["floated"]
    assert buy_sell_par.data(state)["floated"] == ["CVC"]


# -- converting a concession (VI.7) ---------------------------------------------


def test_vi7_a_concession_becomes_a_minors_sixty_percent_for_three_prices_less_210():
    state = stock_game()
    seat = seat_to_act(state)
    card = my_concession(state)
    before, bank = money(state, seat), state["cash"]["bank"]
    state = play(state, f"convert {card} JU 85")
    certs = state["certificates"]["JU"]
    assert certs[cash.player(seat)] == [40, 20]
    assert certs["treasury"] == [20, 20]
    assert money(state, seat) == before - (3 * 85 - 210)
    assert state["cash"]["JU"] == 3 * 85  # at once, not at the end of the round
    assert state["cash"]["bank"] == bank + (3 * 85 - 210) - 3 * 85
    company = state["companies"]["JU"]
    assert company["par"] == company["price"] == PRICE[85]
    assert company["floated"]
    assert state["privates"][card]["minor"] == "JU"
    assert state["privates"][card]["owner"] == cash.player(seat)


def test_vi7_a_conversion_is_the_turns_one_purchase():
    state = stock_game()
    card = my_concession(state)
    state = play(state, f"convert {card} HG 70")
    assert seat_to_act(state) == state["order"][1]
    assert buy_sell_par.data(state)["passes"] == 0


def test_vi7_conversion_only_in_the_first_stock_round():
    state = stock_game(number=2)
    card = my_concession(state)
    action = {"type": "convert", "card": card, "company": "HG", "price": 70}
    refused(state, action, "only in the first stock round")


def test_vi7_only_an_own_concession_into_a_minor_nobody_started():
    state = stock_game()
    seat = seat_to_act(state)
    mine = next(c for c, p in state["privates"].items() if p["owner"] == cash.player(seat))
    other = next(
        c for c, p in state["privates"].items() if p["owner"] not in (None, cash.player(seat))
    )
    refused(state, {"type": "convert", "card": other, "company": "HG", "price": 70}, "not hold")
    refused(state, {"type": "convert", "card": mine, "company": "MS", "price": 70}, "not one")
    refused(state, {"type": "convert", "card": "C1", "company": "HG", "price": 70}, "concession")
    state = play(state, f"convert {mine} HG 70")
    nxt = seat_to_act(state)
    theirs = next(c for c, p in state["privates"].items() if p["owner"] == cash.player(nxt))
    action = {"type": "convert", "card": theirs, "company": "HG", "price": 70}
    refused(state, action, "started already")


def test_vi7_the_price_beyond_the_concession_is_paid_in_cash():
    state = stock_game()
    seat = seat_to_act(state)
    card = my_concession(state)
    state["cash"] = cash.transfer(state["cash"], cash.player(seat), "bank", money(state, seat))
    state["cash"] = cash.transfer(state["cash"], "bank", cash.player(seat), 44)
    action = {"type": "convert", "card": card, "company": "HG", "price": 85}
    refused(state, action, "costs \\$45 besides the concession; you have \\$44")
    state = play(state, f"convert {card} HG 80")  # $30 beyond the $210
    assert money(state, seat) == 14


# -- the end of the round (VI.2, VI.6, VI.8, IX.3) ------------------------------


def test_vi8_capital_is_par_per_share_sold_not_ten_times_par():
    state = stock_game()
    state = play(state, "par NPP 90")  # a: 20%
    state = play(state, "buy NPP ipo")  # b
    state = play(state, "buy NPP ipo")  # c: 40% sold, not floated
    state = play(state, "pass")
    state = play(state, "buy NPP ipo")  # a: 50%, floats
    state = play(state, "buy NPP ipo")  # b: 60%
    assert state["companies"]["NPP"]["floated"]
    assert "NPP" not in state["cash"]  # capital comes at the end of the round
    state = everyone_passes(state)
    # Six 10% units sold at par 90 = 540 (IV.4's ten times par would be 900).
    assert state["cash"]["NPP"] == 6 * 90
    assert state["certificates"]["NPP"]["treasury"] == [10] * 4
    assert "ipo" not in state["certificates"]["NPP"]


def test_vi8_a_major_that_has_not_floated_keeps_its_offering():
    state = stock_game()
    state = play(state, "par NPP 90")
    state = play(state, "buy NPP ipo")
    state = everyone_passes(state)
    assert not state["companies"]["NPP"]["floated"]
    assert "NPP" not in state["cash"]
    assert state["certificates"]["NPP"]["ipo"] == [10] * 7


def test_vii36_fourth_station_only_when_no_share_remains_in_the_treasury():
    """VI.8 says 10%, VII.3.6 says none: the stations' own section wins."""
    state = stock_game("3h", 1)
    a, b, c = state["order"]
    for seat, pcts in ((a, [20, 10, 10, 10, 10]), (b, [10, 10]), (c, [10])):
        give(state, "MS", seat, *pcts)
    start_major(state, "MS", 70, operated=False)
    state["companies"]["MS"]["floated"] = True
    buy_sell_par.data(state)["floated"].append("MS")
    state = everyone_passes(state)
    treasury = shares.percent(state["certificates"], "MS", "treasury")
    assert treasury == 10
    assert tokens.tokens_available(treasury) == 3
    assert tokens.tokens_available(0) == 4


def test_ix3_sold_out_companies_rise_one_cell_at_the_end_but_not_the_fc():
    state = second_round()
    a, b, c, d = state["order"]
    give(state, "MS", a, 20, 10, 10, 10, 10)
    give(state, "MS", b, 10, 10, 10, 10)
    start_major(state, "CVC", 80)
    give(state, "CVC", a, 20, 10, 10)
    give(state, "CVC", c, 10, 10, 10, 10, 10)
    give(state, "CVC", d, 10)  # the offering holds none, but the pool one:
    state["certificates"] = shares.move(state["certificates"], "CVC", cash.player(d), "pool", 10)
    for seat in (a, b, c, d):
        give(state, "FC", seat, 10, 10)
    give(state, "FC", a, 10, 10)  # FC sold out too
    state = everyone_passes(state)
    assert price_of(state, "MS") == 105
    assert price_of(state, "CVC") == 80
    assert price_of(state, "FC") == 50


def test_ix1_companies_rising_together_keep_their_stack_order():
    state = second_round()
    a, b = state["order"][:2]
    start_major(state, "CVC", 100)  # under MS on 100
    assert state["market"][PRICE[100]] == ["MS", "CVC"]
    for sym in ("MS", "CVC"):
        give(state, sym, a, 20, 10, 10, 10, 10)
        give(state, sym, b, 10, 10, 10, 10)
    start_major(state, "SdC", 105)
    state = everyone_passes(state)
    assert state["market"][PRICE[105]] == ["SdC", "MS", "CVC"]


def test_vi2_new_playing_order_least_money_first_ties_in_the_old_order():
    state = stock_game("5", 4)
    old = list(state["order"])
    amounts = [300, 100, 300, 50, 100]  # by old position
    for seat, amount in zip(old, amounts, strict=True):
        state["cash"] = cash.transfer(state["cash"], cash.player(seat), "bank", money(state, seat))
        state["cash"] = cash.transfer(state["cash"], "bank", cash.player(seat), amount)
    state = everyone_passes(state)
    assert state["order"] == [old[3], old[1], old[4], old[0], old[2]]
    assert state["priority"] == old[3]


def test_vi6_unconverted_concessions_are_out_after_the_first_stock_round():
    state = stock_game("4", 1)
    card = my_concession(state)
    state = play(state, f"convert {card} CO 70")
    state = everyone_passes(state)
    for c in buy_sell_par.CONCESSIONS:
        assert state["privates"][c]["out"] is (c != card)
    assert state["privates"][card]["minor"] == "CO"


def test_iv3_minors_nobody_started_in_the_first_stock_round_leave_the_game():
    state = stock_game("4", 1)
    card = my_concession(state)
    state = play(state, f"convert {card} DQ 75")
    state = everyone_passes(state)
    minors = {"HG", "JU", "HY", "DQ", "CO", "SB"}
    assert minors & set(state["companies"]) == {"DQ"}
    assert minors & set(state["certificates"]) == {"DQ"}
    assert cash.total(state["cash"]) == 8000


def test_the_minors_stay_after_a_later_stock_round():
    state = stock_game("4", 1, number=2)
    state = everyone_passes(state)
    assert {"HG", "JU", "HY", "DQ", "CO", "SB"} <= set(state["companies"])


# -- a change of director can put a player above the limit ----------------------


def test_vi3_a_player_above_the_limit_after_a_change_of_director_must_sell_first():
    state = second_round("6", 2)
    a, b = state["order"][:2]
    limit = variants.BY_ID["6"].certificate_limit
    start_major(state, "CVC", 80)
    give(state, "CVC", a, 20)
    for sym in ("Oe", "NPP", "SdC", "TSS"):
        start_major(state, sym, 70)
        give(state, sym, a, 20, 10, 10)
    give(state, "MS", a, 20, 10)
    assert shares.certificate_count(state["certificates"], a) == limit
    give(state, "CVC", b, 10)
    to_seat(state, b)
    state = play(state, "buy CVC ipo")  # b's 20% equals a's: no change
    assert shares.director(state["certificates"], "CVC") == cash.player(a)
    state["companies"]["CVC"]["floated"] = True
    to_seat(state, b)
    state = play(state, "buy CVC ipo")  # 30% > 20%: a gets two 10% for the 20%
    assert shares.certificate_count(state["certificates"], a) == limit + 1
    to_seat(state, a)
    refused(state, {"type": "pass"}, "above the limit of 15: sell first")
    state = play(state, "sell MS 1")
    state = play(state, "pass")


@pytest.mark.parametrize("variant", ["2e", "4"])
def test_a_stock_move_is_checked_against_the_moves_of_its_own_type(variant):
    rng = random.Random(variant)
    state = stock_game(variant, 0)
    for _ in range(60):
        if STOCK.over(state):
            break
        seat = int(state["round"]["entity"][1:])
        check_of_type(state, seat)
        check_of_type(state, (seat + 1) % state["players"])  # not to act: none at all
        legal = STOCK.legal(state, seat)
        kind = rng.choice(sorted({a["type"] for a in legal} - {"pass"}) or ["pass"])
        STOCK.process(state, seat, rng.choice([a for a in legal if a["type"] == kind]))
