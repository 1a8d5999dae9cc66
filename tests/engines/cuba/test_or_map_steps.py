"""The first four steps of a company's turn in an operating round (draft
VII.3.1-VII.3.6): the home station, issuing and redeeming a share, track
and the commissioners' extra lays, stations."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba import cash, market, shares, turn
from games.engines.cuba.rounds.operating import OPERATING

from .test_engine import ENGINE, opening_for_nothing, play


def first_or():
    """Two players; HG (70) and JU (100) converted, MS parred at 100 and
    floated; the first OR begins with HG, whose director is `a`."""
    state = opening_for_nothing(ENGINE.setup(2, {"difficulty": "hard"}, 1))
    first, second = state["order"]
    state = play(
        state,
        (first, {"type": "choose", "card": "M1"}),
        (second, {"type": "choose", "card": "M2"}),
        (first, {"type": "pass"}),
        (second, {"type": "pass"}),
    )
    [a] = ENGINE.to_act(state)
    b = second if a == first else first
    card = {first: "M1", second: "M2"}
    state = play(
        state,
        (a, {"type": "convert", "card": card[a], "company": "HG", "price": 70}),
        (b, {"type": "convert", "card": card[b], "company": "JU", "price": 100}),
        (a, {"type": "par", "company": "MS", "price": 100}),
        (b, {"type": "buy", "company": "MS", "source": "ipo"}),
        (a, {"type": "buy", "company": "MS", "source": "ipo"}),
        (b, {"type": "buy", "company": "MS", "source": "ipo"}),
        (a, {"type": "pass"}),
        (b, {"type": "pass"}),
    )
    assert state["round"]["entity"] == "HG"
    return state, a, b


def ms_turn():
    """HG on C14 and JU on B11 have laid their mills; MS's first turn."""
    state, a, b = first_or()
    state = play(
        state,
        (a, {"type": "home", "hex": "C14"}),
        (a, {"type": "lay", "hex": "C14", "tile": "L52", "rotation": 0, "fc_passes": []}),
        (b, {"type": "home", "hex": "B11"}),
        (b, {"type": "lay", "hex": "B11", "tile": "L52", "rotation": 2, "fc_passes": []}),
    )
    assert state["round"]["entity"] == "MS"
    return state, a, b


def own_commissioners(state, seat):
    """Every commissioner to `seat` (the auction dealt them round the table)."""
    for card in ("C1", "C2", "C3", "C4", "C5", "C6"):
        state["privates"][card]["owner"] = cash.player(seat)
    return state


def refused(state, seat, action, match=""):
    with pytest.raises(IllegalAction, match=match):
        ENGINE.apply(state, seat, action)


def kinds(state, seat):
    return {a["type"] for a in ENGINE.legal_actions(state, seat)}


def price(state, sym):
    return market.CELLS[state["companies"][sym]["price"]].price


LAY_57 = {"type": "lay", "hex": "B9", "tile": "57", "rotation": 1, "fc_passes": []}
STATION_B11 = {"type": "station", "hex": "B11", "city": 0, "fc_passes": []}


# --- VII.3.2 the home station ------------------------------------------------------


def test_vii32_a_minor_chooses_a_mill_city_not_another_minors():
    state, a, b = first_or()
    homes = ENGINE.legal_actions(state, a)
    assert {"type": "home", "hex": "C14"} in homes
    assert {x["type"] for x in homes} == {"home"}  # the home blocks the turn
    state = play(state, (a, {"type": "home", "hex": "C14"}))
    assert state["companies"]["HG"]["home"] == ["C14", 0]
    assert state["board"]["reserved"]["C14"]["HG"] == 0  # beside CVC's kept home
    # the mill comes with the home tile: no station yet
    assert state["companies"]["HG"]["tokens_placed"] == 0
    state = play(
        state, (a, {"type": "lay", "hex": "C14", "tile": "L52", "rotation": 0, "fc_passes": []})
    )
    assert state["board"]["tokens"]["C14"] == [["HG"]]
    assert state["companies"]["HG"]["tokens_placed"] == 1
    assert state["round"]["entity"] == "JU"
    assert {"type": "home", "hex": "C14"} not in ENGINE.legal_actions(state, b)
    refused(state, b, {"type": "home", "hex": "C14"}, "cannot choose C14")


def test_vii32_a_minor_may_choose_a_majors_home_but_not_havana_or_a_y_city():
    state, a, _ = first_or()
    homes = {x["hex"] for x in ENGINE.legal_actions(state, a)}
    assert "B9" in homes  # MS's home
    assert "B7" not in homes
    refused(state, a, {"type": "home", "hex": "B7"}, "cannot choose B7")


def test_vii32_a_major_is_placed_on_its_printed_home_at_the_start_of_its_first_turn():
    state, a, _ = ms_turn()
    assert state["board"]["tokens"]["B9"] == [["MS"]]
    assert state["companies"]["MS"]["tokens_placed"] == 1
    assert "home" not in kinds(state, a)
    assert cash.total(state["cash"]) == 8000


def test_vii32_the_fec_chooses_any_empty_city_slot():
    state, a, _ = ms_turn()
    # FEC in MS's place: floated, directed by `a`, its first turn
    state["certificates"]["FEC"] = {cash.player(a): [20, 10, 10, 10], shares.IPO: [10] * 5}
    state["companies"]["FEC"].update(floated=True, par=10, price=10)
    state["market"] = market.place(state["market"], "FEC", 10)
    state["cash"] = cash.transfer(cash.open_account(state["cash"], "FEC"), "MS", "FEC", 300)
    state["round"]["steps"]["turn"] = turn.new_turn("FEC")
    state["round"]["entity"] = "FEC"
    homes = OPERATING.legal(state, a)
    assert {"type": "home", "hex": "B11", "city": 0} in homes  # beside JU's mill
    assert {"type": "home", "hex": "E24", "city": 0} in homes  # an empty hex
    assert {"type": "home", "hex": "B7", "city": 1} not in homes  # the FC's
    assert {"type": "home", "hex": "B9", "city": 0} not in homes  # full with MS
    assert all(x["type"] == "home" for x in homes)
    with pytest.raises(IllegalAction, match="cannot choose"):
        OPERATING.process(state, a, {"type": "home", "hex": "B7", "city": 1})
    OPERATING.process(state, a, {"type": "home", "hex": "B11", "city": 0})
    assert state["board"]["tokens"]["B11"] == [["JU", "FEC"]]
    assert state["companies"]["FEC"]["home"] == ["B11", 0]
    assert state["companies"]["FEC"]["tokens_placed"] == 1
    assert state["cash"]["FEC"] == 300  # the home station is free


def test_vii34_a_minor_lays_its_home_tile_first():
    state, a, _ = first_or()
    state = play(state, (a, {"type": "home", "hex": "C14"}))
    assert {x["hex"] for x in ENGINE.legal_actions(state, a) if x["type"] == "lay"} == {"C14"}


# --- VII.3.3 issue and redeem ---------------------------------------------------------


def test_vii33_issue_moves_the_price_down_redeem_does_not():
    state, a, _ = first_or()
    state = play(state, (a, {"type": "home", "hex": "C14"}))
    before = price(state, "HG")
    cell = state["companies"]["HG"]["price"]
    state = play(state, (a, {"type": "issue", "company": "HG"}))
    assert state["cash"]["HG"] == 210 + before
    assert state["certificates"]["HG"][shares.POOL] == [20]
    assert state["certificates"]["HG"][shares.TREASURY] == [20]
    assert state["companies"]["HG"]["price"] == market.down(cell)
    assert state["companies"]["HG"] in state["companies"].values()
    assert "HG" in state["market"][market.down(cell)]
    # redeeming (in a later OR: here the turn record is reset) pays the price
    state["round"]["steps"]["turn"]["issued"] = False
    state["round"]["steps"]["turn"]["stage"] = "home"
    now = price(state, "HG")
    cash_before = state["cash"]["HG"]
    state = play(state, (a, {"type": "redeem", "company": "HG"}))
    assert state["cash"]["HG"] == cash_before - now
    assert state["companies"]["HG"]["price"] == market.down(cell)
    assert shares.POOL not in state["certificates"]["HG"]
    assert cash.total(state["cash"]) == 8000


def test_vii33_one_issue_or_redeem_per_or():
    state, a, _ = first_or()
    state = play(
        state, (a, {"type": "home", "hex": "C14"}), (a, {"type": "issue", "company": "HG"})
    )
    assert not kinds(state, a) & {"issue", "redeem"}
    refused(state, a, {"type": "redeem", "company": "HG"}, "already")


def test_vii33_nothing_to_redeem_from_an_empty_pool_nor_to_issue_from_an_empty_treasury():
    state, a, _ = ms_turn()
    # MS's unsold shares went into its treasury when it floated; the pool is empty
    assert state["certificates"]["MS"][shares.TREASURY] == [10] * 5
    assert "redeem" not in kinds(state, a)
    with pytest.raises(IllegalAction, match="pool holds no MS share"):
        OPERATING.process(state, a, {"type": "redeem", "company": "MS"})
    state["certificates"]["MS"][cash.player(a)] += state["certificates"]["MS"].pop(shares.TREASURY)
    assert not kinds(state, a) & {"issue", "redeem"}
    with pytest.raises(IllegalAction, match="no share left in its treasury"):
        OPERATING.process(state, a, {"type": "issue", "company": "MS"})
    with pytest.raises(IllegalAction, match="pool holds no MS share"):
        OPERATING.process(state, a, {"type": "redeem", "company": "MS"})


def test_vii33_an_issue_keeps_the_pool_limit_of_five_certificates():
    state, a, _ = ms_turn()
    certs = state["certificates"]["MS"]
    certs[shares.POOL] = [10] * 5
    assert "issue" not in kinds(state, a)
    with pytest.raises(IllegalAction, match="pool holds 5"):
        OPERATING.process(state, a, {"type": "issue", "company": "MS"})
    certs[shares.POOL] = [10] * 4
    assert "issue" in kinds(state, a)


def test_vii33_a_minors_issued_share_may_then_be_bought_from_the_pool():
    state, a, b = first_or()
    certs = state["certificates"]
    assert shares.offered(certs, "HG", shares.POOL) is None
    state = play(
        state, (a, {"type": "home", "hex": "C14"}), (a, {"type": "issue", "company": "HG"})
    )
    why = shares.can_buy(
        state["certificates"],
        "HG",
        b,
        shares.POOL,
        state["variant"],
        phase=1,
        sold_this_round=False,
    )
    assert why is None


def test_vii33_the_issue_names_the_operating_company():
    state, a, _ = first_or()
    state = play(state, (a, {"type": "home", "hex": "C14"}))
    refused(state, a, {"type": "issue", "company": "JU"}, "operating company")
    refused(state, a, {"type": "issue"}, "operating company")


# --- VII.3.1 the order of the steps -----------------------------------------------------


def test_vii31_nothing_before_the_home_station():
    state, a, _ = first_or()
    refused(state, a, {"type": "issue", "company": "HG"}, "first place the home station")
    refused(state, a, {"type": "pass"}, "first place the home station")


def test_vii31_no_issue_after_a_lay():
    state, a, _ = ms_turn()
    own_commissioners(state, a)
    assert "issue" in kinds(state, a)
    OPERATING.process(state, a, LAY_57)
    assert "issue" not in kinds(state, a)
    with pytest.raises(IllegalAction, match="before track"):
        OPERATING.process(state, a, {"type": "issue", "company": "MS"})


def test_vii31_no_lay_after_the_station():
    state, a, _ = ms_turn()
    own_commissioners(state, a)
    OPERATING.process(state, a, LAY_57)
    assert any(x.get("card") for x in OPERATING.legal(state, a))
    OPERATING.process(state, a, STATION_B11)
    assert "lay" not in {x["type"] for x in OPERATING.legal(state, a)}
    with pytest.raises(IllegalAction, match="before the station"):
        OPERATING.process(state, a, {**LAY_57, "hex": "C10", "card": "C1"})
    refused(state, a, {**LAY_57, "hex": "C10", "card": "C1"}, "before the station")


def test_vii31_the_station_may_come_without_a_lay_and_then_closes_track():
    state, a, _ = ms_turn()
    OPERATING.process(state, a, LAY_57)
    record = turn.current(state)
    assert record["stage"] == "track"
    OPERATING.process(state, a, STATION_B11)
    assert record["stage"] == "token"


def test_vii31_only_the_director_acts():
    state, _a, b = first_or()
    assert ENGINE.legal_actions(state, b) == []
    refused(state, b, {"type": "home", "hex": "C14"}, "not your turn")
    with pytest.raises(IllegalAction, match="director"):
        OPERATING.process(state, b, {"type": "home", "hex": "C14"})
    state, _a, b = ms_turn()
    with pytest.raises(IllegalAction, match="director"):
        OPERATING.process(state, b, LAY_57)
    with pytest.raises(IllegalAction, match="director"):
        OPERATING.process(state, b, {"type": "issue", "company": "MS"})
