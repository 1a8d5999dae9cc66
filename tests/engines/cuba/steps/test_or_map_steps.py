"""The first four steps of a company's turn in an operating round (draft
VII.3.1-VII.3.6): the home station, issuing and redeeming a share, track
and the commissioners' extra lays, stations."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba.data import market
from games.engines.cuba.rounds.operating import OPERATING
from games.engines.cuba.rules import cash, shares, turn

from ..helpers import empty_board, put, token
from ..test_engine import ENGINE, play, through_first_stock_round


def first_or():
    """Two players; HG (70) and JU (100) converted, MS parred at 100 and
    floated; the first OR begins with HG, whose director is `a`."""

    def buys(a, b):
        ms = {"type": "buy", "company": "MS", "source": "ipo"}
        return [(b, ms), (a, ms), (b, ms), (a, {"type": "pass"}), (b, {"type": "pass"})]

    state, a, b = through_first_stock_round(buys)
    assert state["round"]["entity"] == "HG"
    return state, a, b


def ms_turn():
    """HG on C14 and JU on B11 have laid their mills; MS's first turn."""
    state, a, b = first_or()
    state = play(
        state,
        (a, {"type": "home", "hex": "C14"}),
        (a, {"type": "lay", "hex": "C14", "tile": "L52", "rotation": 0, "fc_passes": []}),
    )
    state = rest_of_turn(state, "HG")
    state = play(
        state,
        (b, {"type": "home", "hex": "B11"}),
        (b, {"type": "lay", "hex": "B11", "tile": "L52", "rotation": 2, "fc_passes": []}),
    )
    state = rest_of_turn(state, "JU")
    assert state["round"]["entity"] == "MS"
    return state, a, b


def rest_of_turn(state, sym):
    """`sym`'s director plays the default moves (run, retain, the cheapest
    train it must buy) until its turn is over."""
    while state["round"]["entity"] == sym:
        [seat] = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.timeout_action(state, seat))
    return state


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
    state = rest_of_turn(state, "HG")  # it runs, retains, buys its train
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
    with pytest.raises(IllegalAction, match="city number"):
        OPERATING.process(state, a, {"type": "home", "hex": "B11", "city": False})
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


# --- VII.3.4-5 track ---------------------------------------------------------------


def test_vii34_one_own_lay_per_or_plus_the_commissioners():
    state, a, _ = ms_turn()
    own_commissioners(state, a)
    # first turn: every lay, the commissioners' too, goes on the home first
    assert {x["hex"] for x in OPERATING.legal(state, a) if x["type"] == "lay"} == {"B9"}
    OPERATING.process(state, a, LAY_57)
    lays = [x for x in OPERATING.legal(state, a) if x["type"] == "lay"]
    assert lays and all(x["card"] == "C1" for x in lays)  # the yellow plain card
    own = {k: v for k, v in lays[0].items() if k != "card"}
    with pytest.raises(IllegalAction, match="own lay in this OR already"):
        OPERATING.process(state, a, own)
    owner = cash.player(a)
    before = state["cash"][owner]
    OPERATING.process(state, a, lays[0])
    assert state["privates"]["C1"]["out"] is True
    assert state["cash"][owner] > before  # the card's funding to its owner
    assert state["board"]["tiles"][lays[0]["hex"]] == [lays[0]["tile"], lays[0]["rotation"]]
    with pytest.raises(IllegalAction, match="C1's tile has been laid already"):
        OPERATING.process(state, a, lays[0])


def test_vii34_a_commissioners_lay_may_come_before_the_own_lay():
    state, a, _ = ms_turn()
    own_commissioners(state, a)
    OPERATING.process(state, a, {**LAY_57, "card": "C2"})  # yellow city: the home tile
    assert turn.current(state)["laid"] is False
    own = [x for x in OPERATING.legal(state, a) if x["type"] == "lay" and "card" not in x]
    assert own
    OPERATING.process(state, a, own[0])
    assert turn.current(state)["laid"] is True


def test_vii34_a_commissioner_lays_only_for_a_company_its_owner_directs():
    state, a, b = ms_turn()
    own_commissioners(state, b)
    assert all("card" not in x for x in OPERATING.legal(state, a) if x["type"] == "lay")
    with pytest.raises(IllegalAction, match="only with a company its owner directs"):
        OPERATING.process(state, a, {**LAY_57, "card": "C2"})


def fc_blocked(state):
    """MS on a 57 in B9; Cardenas (B11) green and full with CVC and the FC,
    so MS passes the FC token there to build on toward B13 and B15."""
    board = empty_board()
    put(board, "B9", "57", 1)
    token(board, "B9", "MS")
    put(board, "B11", "14", 0)  # sides 0, 1, 3, 4
    board["tokens"]["B11"] = [["CVC", "FC"]]
    state["board"] = board
    state["phase"] = 3
    state["companies"]["MS"]["operated"] = True  # not its first turn
    return state


def test_vii34_the_terrain_cost_to_the_bank_and_20_per_fc_token_once_per_turn():
    state, a, _ = ms_turn()
    fc_blocked(own_commissioners(state, a))
    b13 = {"type": "lay", "hex": "B13", "tile": "9", "rotation": 1, "fc_passes": ["B11"]}
    assert b13 in OPERATING.legal(state, a)
    with pytest.raises(IllegalAction, match="not connected"):
        OPERATING.process(state, a, {**b13, "fc_passes": []})
    bank, ms = state["cash"]["bank"], state["cash"]["MS"]
    OPERATING.process(state, a, b13)
    assert state["cash"]["MS"] == ms - 10 - 20  # sugar cane, one FC token
    assert state["cash"]["bank"] == bank + 10
    assert state["cash"]["FC"] == 20  # into the FC's treasury (VII.3.12)
    assert turn.current(state)["fc_paid"]["track"] == ["B11"]
    # a later lay this turn passes B11 without paying again
    later = [x for x in OPERATING.legal(state, a) if x.get("card") == "C1"]
    assert later and all(x["fc_passes"] == [] for x in later)
    b15 = next(x for x in later if x["hex"] == "B15")
    OPERATING.process(state, a, b15)
    assert state["cash"]["FC"] == 20
    assert cash.total(state["cash"]) == 8000


def test_vii34_a_fc_pass_that_is_not_needed_is_refused():
    state, a, _ = ms_turn()
    fc_blocked(state)
    ok = next(x for x in OPERATING.legal(state, a) if x.get("hex") == "B9" and x["type"] == "lay")
    with pytest.raises(IllegalAction, match="not needed"):
        OPERATING.process(state, a, {**ok, "fc_passes": ["B11"]})


def test_vii34_only_lays_the_company_can_pay_for():
    state, a, _ = ms_turn()
    fc_blocked(state)
    b13 = {"type": "lay", "hex": "B13", "tile": "9", "rotation": 1, "fc_passes": ["B11"]}
    state["cash"] = cash.transfer(state["cash"], "MS", "bank", state["cash"]["MS"] - 29)
    assert b13 not in OPERATING.legal(state, a)
    with pytest.raises(IllegalAction, match=r"MS has \$29, not the \$30"):
        OPERATING.process(state, a, b13)


def test_vii34_a_minor_pays_nothing_and_passes_no_fc_token():
    state, a, _ = first_or()
    state = play(state, (a, {"type": "home", "hex": "C14"}))
    lay = {"type": "lay", "hex": "C14", "tile": "L52", "rotation": 0, "fc_passes": ["B7"]}
    refused(state, a, lay, "only major companies may pay")


def test_vii34_the_track_step_does_not_block():
    state, a, _ = ms_turn()
    offered = kinds(state, a)
    assert "lay" in offered
    later = offered - {"issue", "lay"}  # the run, or the end of the turn
    assert later
    assert not {"home", "station"} & later
    OPERATING.process(state, a, next(x for x in OPERATING.legal(state, a) if x["type"] in later))
    assert turn.STAGES.index(turn.current(state)["stage"]) > turn.STAGES.index("token")


# --- VII.3.6 stations ------------------------------------------------------------


def test_vii36_one_station_per_or_at_40_60_80():
    state, a, _ = ms_turn()
    OPERATING.process(state, a, LAY_57)
    ms = state["cash"]["MS"]
    assert STATION_B11 in OPERATING.legal(state, a)
    OPERATING.process(state, a, STATION_B11)
    assert state["cash"]["MS"] == ms - 40
    assert state["board"]["tokens"]["B11"] == [["JU", "MS"]]
    assert state["companies"]["MS"]["tokens_placed"] == 2
    assert "station" not in {x["type"] for x in OPERATING.legal(state, a)}
    with pytest.raises(IllegalAction, match="station in this OR already"):
        OPERATING.process(state, a, STATION_B11)
    # the next stations cost 60 and 80, once the treasury allows them
    state["certificates"]["MS"].pop(shares.TREASURY)
    for placed, cost in ((2, 60), (3, 80)):
        state["companies"]["MS"]["tokens_placed"] = placed
        state["board"]["tokens"]["B11"] = [["JU"]]
        turn.current(state)["station"] = False
        ms = state["cash"]["MS"]
        OPERATING.process(state, a, STATION_B11)
        assert state["cash"]["MS"] == ms - cost


def test_vii36_more_stations_only_as_the_treasury_empties():
    state, a, _ = ms_turn()
    OPERATING.process(state, a, LAY_57)
    state["companies"]["MS"]["tokens_placed"] = 2  # home and one more: all 50% allow
    assert state["certificates"]["MS"][shares.TREASURY] == [10] * 5
    assert STATION_B11 not in OPERATING.legal(state, a)
    with pytest.raises(IllegalAction, match="no station token left"):
        OPERATING.process(state, a, STATION_B11)
    state["certificates"]["MS"][shares.TREASURY] = [10] * 3
    assert STATION_B11 in OPERATING.legal(state, a)


def test_vii36_minors_place_no_station():
    state, a, _ = first_or()
    state = play(state, (a, {"type": "home", "hex": "C14"}))
    assert "station" not in kinds(state, a)
    refused(state, a, {"type": "station", "hex": "B9", "city": 0, "fc_passes": []}, "only major")


def test_iv5_a_station_past_an_fc_token_paid_for_laying_pays_again():
    state, a, _ = ms_turn()
    fc_blocked(own_commissioners(state, a))
    b13 = {"type": "lay", "hex": "B13", "tile": "9", "rotation": 1, "fc_passes": ["B11"]}
    OPERATING.process(state, a, b13)
    put(state["board"], "B15", "7", 0)  # sides 1 (B13) and 0 (C14)
    put(state["board"], "C14", "57", 3)  # sides 3 (B15) and 0
    station = {"type": "station", "hex": "C14", "city": 0, "fc_passes": ["B11"]}
    assert station in OPERATING.legal(state, a)
    assert {**station, "fc_passes": []} not in OPERATING.legal(state, a)
    ms = state["cash"]["MS"]
    OPERATING.process(state, a, station)
    assert state["cash"]["MS"] == ms - 40 - 20  # "for each of these possibilities"
    assert state["cash"]["FC"] == 40


# --- the protocol ---------------------------------------------------------------------


def positions():
    state, a, _ = first_or()
    yield state, a
    yield play(state, (a, {"type": "home", "hex": "C14"})), a
    state, a, _ = ms_turn()
    yield own_commissioners(state, a), a
    OPERATING.process(state, a, LAY_57)
    yield state, a
    state, a, _ = ms_turn()
    yield fc_blocked(own_commissioners(state, a)), a


def test_every_legal_action_has_a_line_that_parses_back_to_it():
    seen = set()
    for state, seat in positions():
        for action in ENGINE.legal_actions(state, seat):
            line = ENGINE.text(action)
            assert ENGINE.parse(line, state, seat) == action, line
            assert ENGINE.parse(line.upper(), state, seat) == action, line
            seen.add(action["type"])
    assert {"home", "issue", "lay", "station"} <= seen


def test_the_fecs_home_line_names_the_city():
    assert ENGINE.text({"type": "home", "hex": "B7", "city": 1}) == "home B7 city 1"
    assert ENGINE.text({"type": "home", "hex": "B9"}) == "home B9"
    lay = {**LAY_57, "card": "C3", "fc_passes": ["B11"]}
    assert ENGINE.text(lay) == "lay 57 on B9 rot 1 with C3 pass B11"


BAD = [
    {"type": "home"},
    {"type": "home", "hex": 7},
    {"type": "home", "hex": ["C14"]},
    {"type": "home", "hex": "Z99"},
    {"type": "home", "hex": "C14", "extra": 1},
    {"type": "issue", "company": ["HG"]},
    {"type": "redeem", "company": None},
    {"type": "lay"},
    {"type": "lay", "hex": 1, "tile": "57", "rotation": 1, "fc_passes": []},
    {"type": "lay", "hex": "B9", "tile": None, "rotation": 1, "fc_passes": []},
    {"type": "lay", "hex": "B9", "tile": "57", "rotation": -1, "fc_passes": []},
    {"type": "lay", "hex": "B9", "tile": "57", "rotation": True, "fc_passes": []},
    {"type": "lay", "hex": "B9", "tile": "57", "rotation": 1, "fc_passes": "B11"},
    {"type": "lay", "hex": "B9", "tile": "57", "rotation": 1, "fc_passes": [3]},
    {"type": "lay", "hex": "B9", "tile": "57", "rotation": 1, "fc_passes": [], "card": "C9"},
    {"type": "lay", "hex": "B9", "tile": "57", "rotation": 1, "fc_passes": [], "card": 3},
    {"type": "lay", "hex": "B9", "tile": "nope", "rotation": 1, "fc_passes": []},
    {"type": "station", "hex": "B11", "city": -1, "fc_passes": []},
    {"type": "station", "hex": "B11", "city": "0", "fc_passes": []},
    {"type": "station", "hex": None, "city": 0, "fc_passes": []},
    {"type": "station", "hex": "B11", "city": 0, "fc_passes": None},
    {"type": "station", "hex": "B11"},
]


@pytest.mark.parametrize("action", BAD, ids=repr)
def test_bad_input_is_refused_with_a_sentence(action):
    for state, seat in positions():
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)


@pytest.mark.parametrize(
    "line",
    ["home", "home c14 city x", "lay 57 on b9", "lay 57 on b9 rot 7", "station", "issue hg"],
)
def test_bad_lines_are_refused(line):
    for state, seat in positions():
        with pytest.raises(IllegalAction):
            ENGINE.parse(line, state, seat)
