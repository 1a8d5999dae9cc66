"""A scripted 2-player easy game of 18Cuba on the eastern half of the map,
from the commissioners' auction to the broken bank, every move a mail line
(`ENGINE.parse` then `ENGINE.apply`), the way two people would play it.

The first four sets are written move by move: the auction and the draft, the
two concessions converted into the minors HG (p0) and JU (p1), the major TSS
parred by p1 at $80 and floated with p0's help, the mills laid towards sugar
fields, commissioners' extra lays, stations, machines, the first trains
(phase 2), TSS's wagon (#2's) carrying HG's cube to the harbor, the trade-in
of a 2n and the FC's export of the first 3 (phase 3). From there a small
fixed policy plays both seats (`policy_line`) in stretches, each ending with
assertions: the 2s and 2ns rust in phase 4, phase 5 comes, and the bank
breaks. Money is conserved after every move.

Expected prices are computed from the chart (`market.CELLS`: a dividend
moves the marker one space right, two cells on the track; none moves it one
space left) and expected money from the rules, not copied from a run.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engines.base import get
from games.engines.cuba.data import market, variants
from games.engines.cuba.rules import cash
from games.engines.cuba.rules.income import CUBE_THRESHOLDS

ENGINE = get("18cuba")
SEED = 1
OPTIONS = {"difficulty": "easy", "map_part": "east"}
Script = list[tuple[int, str]]
State = dict[str, Any]

# The cell of each par price: 70 is cell 4, 80 cell 6 (prices 50, 55, 60, ...).
CELL = {p: i for i, p in enumerate(c.price for c in market.CELLS) if p <= 100}


def price(state: State, sym: str) -> int:
    return market.CELLS[state["companies"][sym]["price"]].price


def right(p: int) -> int:
    """The price after a dividend, read off the chart: one space right."""
    return market.CELLS[CELL[p] + 2].price


def left(p: int) -> int:
    """The price after no dividend: one space left."""
    return market.CELLS[CELL[p] - 2].price


def play(state: State, seat: int, line: str) -> State:
    """One move as a player mails it; the bank's money is conserved."""
    assert seat in ENGINE.to_act(state), f"seat {seat} is not to act for {line!r}"
    action = ENGINE.parse(line, state, seat)
    after = ENGINE.apply(state, seat, action)
    assert cash.total(after["cash"]) == variants.BANK, line
    return after


def play_script(state: State, script: Script) -> State:
    for seat, line in script:
        state = play(state, seat, line)
    return state


def money(state: State) -> dict[str, int]:
    return {k: v for k, v in state["cash"].items() if k != cash.BANK}


# --- the opening -----------------------------------------------------------

AUCTION: Script = [
    (1, "bid C1 20"),  # the starter of the first card must bid
    (0, "bid C1 25"),
    (1, "pass"),
    (0, "bid C2 20"),
    (1, "bid C2 30"),
    (0, "pass"),
    (1, "bid C3 30"),
    (0, "pass"),
    (0, "bid C4 40"),
    (1, "bid C4 45"),
    (0, "bid C4 50"),
    (1, "pass"),
    (1, "bid C5 55"),
    (0, "pass"),
    (0, "bid C6 60"),
    (1, "pass"),
]
DRAFT: Script = [
    (0, "choose M3"),  # the machine, for p0's minor
    (1, "choose M2"),  # the extra 1-wagon, for p1's major
]
STOCK_ROUND_1: Script = [
    (0, "convert M3 HG 70"),  # 60% of a minor at 70 is 3 x 70 = the concession's $210
    (1, "convert M2 JU 70"),
    (0, "pass"),
    (1, "par TSS 80"),  # the 20% director's certificate: $160
    (0, "assign M3 HG"),  # #3 becomes a first-generation machine of HG
    (0, "buy TSS ipo"),
    (1, "buy TSS ipo"),
    (0, "buy TSS ipo"),  # 50% sold: TSS floats
    (1, "pass"),
    (0, "pass"),
]


@cache
def opening() -> State:
    state = ENGINE.setup(2, OPTIONS, SEED)
    return play_script(state, AUCTION + DRAFT + STOCK_ROUND_1)


# --- set 1 (one OR, phase 1) -----------------------------------------------

OR_1: Script = [
    # HG: its mill in Santa Clara's neighbour E22 (TSS's home: the mill tile
    # has two slots), narrow gauge to the sugar field D21, standard gauge to
    # the Y city E24 and the harbor D23.
    (0, "home E22"),
    (0, "lay L53 on E22 rot 4"),
    (0, "lay L49 on D21 rot 0 with C1"),  # C1's extra lay: $30 to p0
    # (the run of $0 and the one 2n it must own are forced)
    (0, "machine 1"),
    (0, "pass"),
    (1, "home D19"),
    (1, "lay L52 on D19 rot 2"),
    (1, "assign M2 TSS"),  # #2's 1-wagon goes to TSS
    (1, "pass"),
    # TSS: home station placed by itself in E22.
    (1, "lay 202 on E24 rot 1"),
    (1, "station E24"),  # $40
    # (no trains: $0 retained; the first 2-train is forced and starts phase 2)
    (1, "buy 2"),
    (1, "pass"),
]


@cache
def set_1() -> State:
    return play_script(opening(), OR_1)


# --- sets 2 and 3 (one OR each, phase 2) ----------------------------------

STOCK_ROUND_2: Script = [
    (1, "buy TSS treasury"),
    (0, "buy TSS treasury"),
    (1, "pass"),
    (0, "pass"),
]
OR_2_HG_AND_JU: Script = [
    (0, "run"),
    (0, "payout"),
    (0, "machine 1"),  # HG's third machine: the turn ends by itself
    (1, "lay L49 on C18 rot 0"),
    (1, "run"),
    (1, "payout"),
    (1, "machine 1"),
    (1, "pass"),
]
OR_2_TSS: Script = [
    (1, "run"),
    (1, "payout"),
    (1, "buy 2"),
    (1, "pass"),
]
STOCK_ROUND_3: Script = STOCK_ROUND_2
OR_3: Script = [
    (0, "run"),
    (0, "payout"),
    (0, "pass"),
    (1, "run"),
    (1, "payout"),
    (1, "machine 1"),
    (1, "pass"),
    (1, "run"),
    (1, "payout"),
    # the last 2; TSS is at its limit of four trains, and with the $11 left
    # (its treasury shares were paid to the bank, VI.5) it can buy nothing
    # else: its turn ends by itself
    (1, "buy 2"),
]


@cache
def set_2_before_tss() -> State:
    return play_script(set_1(), STOCK_ROUND_2 + OR_2_HG_AND_JU)


@cache
def set_3() -> State:
    state = play_script(set_2_before_tss(), OR_2_TSS)
    return play_script(state, STOCK_ROUND_3 + OR_3)


# --- set 4 (two ORs, phase 3: green) ---------------------------------------

STOCK_ROUND_4: Script = [
    # p1 leaves TSS's last treasury share to TSS, which issues it for the
    # money a buyer's price would not bring it (VI.5: that goes to the bank)
    (1, "pass"),
    (0, "buy FC ipo"),
    (1, "pass"),
    (0, "pass"),
]
OR_4_1: Script = [
    (0, "lay L66 on E22 rot 4 with C4"),  # a commissioner's green upgrade
    (0, "lay L64 on D21 rot 0"),
    (0, "run"),
    (0, "payout"),
    (0, "trade 2n"),  # the 2n for a 3n, before the 4s rust it
    (0, "pass"),
    (1, "lay L64 on C18 rot 0 with C3"),
    (1, "lay L66 on D19 rot 5"),
    (1, "run"),
    (1, "payout"),
    (1, "machine 2"),  # the second generation is on sale from phase 3
    (1, "issue"),  # TSS's last treasury share into the pool, for its price
    (1, "lay 57 on F21 rot 0 with C2"),
    (1, "lay 622 on E24 rot 1"),
    (1, "station F21"),  # the second station beyond the home: $60
    (1, "run"),
    (1, "payout"),
    (1, "pass"),
]


@cache
def set_4_first_or() -> State:
    return play_script(set_3(), STOCK_ROUND_4 + OR_4_1)


# --- the driven stretches ----------------------------------------------------


def policy_line(state: State, seat: int) -> str:
    """The fixed policy of the driven stretches, the same for both seats:
    stock rounds pass; a company lays the first own lay the engine lists,
    places the first station listed, runs the optimum, pays out, buys the
    cheapest train from the bank whenever one is listed (so phases advance),
    a 1-wagon if it has no wagon, a minor the first machine listed, then
    passes; an offer is refused; anything else (emergency financing) is the
    engine's timeout move. Deterministic: it reads only the legal moves."""
    legal = ENGINE.legal_actions(state, seat)
    by: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by.setdefault(action["type"], []).append(action)

    def line(action: dict[str, Any]) -> str:
        return str(ENGINE.text(action))

    for kind in ("home", "payout", "refuse"):
        if kind in by:
            return line(by[kind][0])
    own_lays = [a for a in by.get("lay", []) if "card" not in a]
    if own_lays:
        return line(own_lays[0])
    for kind in ("station", "run"):
        if kind in by:
            return line(by[kind][0])
    buys = by.get("buy_train", [])
    trains = [a for a in buys if a["source"] == "depot" and "wagon" not in a["card"]]
    if trains:
        return line(min(trains, key=lambda a: a["price"]))
    operating = state["round"]["steps"].get("turn", {}).get("company")
    wagons = [a for a in buys if "wagon" in a["card"]]
    if wagons and operating and not state["companies"][operating]["wagons"]:
        return line(wagons[0])
    if "buy_machine" in by:
        return line(by["buy_machine"][0])
    if "pass" in by:
        return line(by["pass"][0])
    return line(ENGINE.timeout_action(state, seat))


def drive(state: State, until: Any, limit: int = 2000) -> State:
    """Play the policy until `until(state)` holds (or the game ends)."""
    for _ in range(limit):
        if until(state) or ENGINE.is_over(state):
            return state
        seat = min(ENGINE.to_act(state))
        state = play(state, seat, policy_line(state, seat))
    raise AssertionError("the stretch did not reach its goal")


@cache
def phase_4() -> State:
    return drive(set_4_first_or(), lambda s: s["phase"] >= 4)


@cache
def phase_5() -> State:
    return drive(phase_4(), lambda s: s["phase"] >= 5)


@cache
def the_end() -> State:
    return drive(phase_5(), lambda s: False)


def trains_of(state: State) -> list[str]:
    return [t for c in state["companies"].values() for t in c["trains"]]


# --- the tests ---------------------------------------------------------------


def test_vi6_the_auction_and_the_draft_set_the_cash_and_the_playing_order() -> None:
    state = play_script(ENGINE.setup(2, OPTIONS, SEED), AUCTION + DRAFT)
    start = variants.variant(2, "easy").starting_cash
    # p0 won C1 (25), C4 (50), C6 (60) and paid M3 (150);
    # p1 won C2 (30), C3 (30), C5 (55) and paid M2 (140).
    assert money(state) == {"p0": start - 135 - 150, "p1": start - 115 - 140}
    owners = {card: p["owner"] for card, p in state["privates"].items()}
    assert [owners[c] for c in ("C1", "C2", "C3", "C4", "C5", "C6")] == [
        "p0",
        "p1",
        "p1",
        "p0",
        "p1",
        "p0",
    ]
    assert owners["M3"] == "p0" and owners["M2"] == "p1"
    # the concessions nobody chose leave the game
    assert all(state["privates"][c]["out"] for c in ("M1", "M4", "M5", "M6"))


def test_vi7_concessions_become_minors_and_a_major_floats_at_half_sold() -> None:
    state = opening()
    assert state["round"]["kind"] == "operating"
    # the concession's $210 is the minor's treasury; its 60% is three 20% shares at 70
    assert state["cash"]["HG"] == 210 and state["cash"]["JU"] == 210
    assert state["certificates"]["HG"]["p0"] == [40, 20]
    assert price(state, "HG") == price(state, "JU") == 70
    # TSS: five 10% shares at $80 sold, the treasury gets them at the float
    assert state["cash"]["TSS"] == 5 * 80
    assert state["companies"]["HG"]["machines"] == [1]  # #3's machine
    start = variants.variant(2, "easy").starting_cash
    assert money(state)["p1"] == start - 115 - 140 - 160 - 80
    assert money(state)["p0"] == start - 135 - 150 - 80 - 80


def test_vii3_the_first_or_lays_mills_and_the_first_2_train_starts_phase_2() -> None:
    before = opening()
    state = set_1()
    tiles = state["board"]["tiles"]
    assert tiles["E22"] == ["L53", 4] and tiles["D19"] == ["L52", 2]
    assert tiles["D21"] == ["L49", 0] and tiles["E24"] == ["202", 1]
    assert state["board"]["tokens"]["E22"] == [["HG", "TSS"]]
    assert state["board"]["tokens"]["E24"] == [["TSS"]]
    # C1's funding to p0 as its tile went down; the card is back in the box
    assert money(state)["p0"] == money(before)["p0"] + 30
    assert state["privates"]["C1"]["out"]
    # each minor bought the 2n it had to own ($80); HG a machine ($25)
    assert state["companies"]["HG"]["trains"] == ["2n"] == state["companies"]["JU"]["trains"]
    assert state["cash"]["HG"] == 210 - 80 - 25
    # TSS: station $40, two 2-trains at $100; #2's wagon
    assert state["companies"]["TSS"]["trains"] == ["2", "2"]
    assert state["companies"]["TSS"]["wagons"] == ["1-wagon"]
    assert state["cash"]["TSS"] == 400 - 40 - 200
    assert state["phase"] == 2
    # every company without a train ran $0 and moved left; the minors too
    assert price(state, "TSS") == left(80) == 70
    # the FC took the top card at the end of the set: six 2s, two sold, one exported
    assert state["depot"]["2"] == 3 and state["fc_trains"] == ["2"]
    assert state["round"]["kind"] == "stock" and state["round"]["number"] == 2


def test_ix2_a_minors_dividend_and_its_cube() -> None:
    state = set_2_before_tss()
    # HG: 2n D21 (field 20) - E22 (mill 10) = 30, + 2 machines x 10 = income 50
    hg = state["companies"]["HG"]
    assert len(hg["machines"]) == 3
    assert state["cash"]["HG"] == (210 - 80 - 25) + 2 * 10 - 25
    # $0 in the first OR (no train yet): left; then this dividend: right
    assert price(state, "HG") == right(left(70)) == 70
    # an income of 50 makes one cube at HG's mill, which waits for a wagon
    # (the income reaches the first threshold of the cube table, not the second)
    assert CUBE_THRESHOLDS[0] <= 50 < CUBE_THRESHOLDS[1]
    assert hg["cubes"] == 1


def test_vii37_a_majors_wagon_delivers_a_minors_cube_to_the_harbor() -> None:
    before = set_2_before_tss()
    state = play(before, 1, "run")
    run = state["round"]["steps"]["turn"]["run"]
    carrying = [r for r in run["routes"] if r["wagon"] == 1]
    assert len(carrying) == 1
    assert "E22.0" in carrying[0]["stops"] and "D23.0" in carrying[0]["stops"]
    assert run["sugar"] == 30  # one cube delivered: $30
    assert state["companies"]["HG"]["cubes"] == 0
    assert run["revenue"] == 120
    paid = play(state, 1, "payout")
    # $12 a share: p1 holds 4, p0 3, the treasury 3
    assert money(paid)["p1"] - money(state)["p1"] == 48
    assert money(paid)["p0"] - money(state)["p0"] == 36
    assert paid["cash"]["TSS"] - state["cash"]["TSS"] == 36
    assert price(paid, "TSS") == right(70) == 80


def test_vii13_the_fcs_export_of_the_first_3_starts_phase_3() -> None:
    state = set_3()
    assert state["depot"]["2"] == 0
    assert state["fc_trains"] == ["2", "2", "3"]
    assert state["phase"] == 3
    assert state["companies"]["TSS"]["trains"] == ["2", "2", "2", "2"]
    # two dividends in a row from 70: 80, then 90
    assert price(state, "TSS") == right(right(70)) == 90


def test_vii3_the_green_phase_upgrades_trades_in_and_two_ors_per_set() -> None:
    state = set_4_first_or()
    tiles = state["board"]["tiles"]
    assert tiles["E22"] == ["L66", 4] and tiles["E24"] == ["622", 1]
    assert tiles["F21"] == ["57", 0]
    assert state["board"]["tokens"]["F21"] == [["TSS"]]
    assert state["companies"]["HG"]["trains"] == ["3n"]
    assert state["companies"]["JU"]["machines"][-1] == 2
    assert state["round"]["kind"] == "operating"
    assert (state["round"]["index"], state["round"]["of"]) == (2, 2)
    # every commissioner has laid its tile and gone back to the box
    assert all(state["privates"][c]["out"] for c in ("C1", "C2", "C3", "C4"))


def test_vii314_phase_4_rusts_the_2_and_2n_trains() -> None:
    state = phase_4()
    assert state["phase"] == 4
    # the 3s ran out and the FC's export of the first 4 started the phase
    assert state["depot"]["3"] == 0 and state["fc_trains"][-1] == "4"
    assert "2" not in trains_of(state) and "2n" not in trains_of(state)
    assert state["companies"]["TSS"]["trains"] == []  # all four of its 2s
    assert state["companies"]["JU"]["trains"] == []
    assert state["companies"]["HG"]["trains"] == ["3n"]  # the traded-in 2n saved
    assert state["companies"]["TSS"]["wagons"] == ["1-wagon"]  # wagons do not rust


def test_vii39_a_major_whose_trains_rusted_runs_nothing_and_must_buy_one() -> None:
    start = phase_4()
    # dividends every OR took TSS up the chart (its issue one cell down)
    assert price(start, "TSS") == 260
    state = drive(start, lambda s: bool(s["companies"]["TSS"]["trains"]))
    assert state["companies"]["TSS"]["trains"] == ["4"]  # the cheapest train left
    # its run of $0 was retained: one space left (260 -> 240)
    cell = start["companies"]["TSS"]["price"]
    assert price(state, "TSS") == market.CELLS[market.left(cell)].price == 240


def test_vii314_phase_5_makes_3n_trains_obsolete() -> None:
    state = phase_5()
    assert state["phase"] == 5
    assert state["fc_trains"][-1] == "5"
    # the 3ns are turned over: they run one stop fewer (3-1n)
    assert "3n" not in trains_of(state)
    assert state["companies"]["HG"]["trains"] == ["3-1n", "3-1n"]
    assert state["companies"]["TSS"]["trains"] == ["4"]  # bought after its 2s rusted


def test_ix1_the_game_ends_when_the_bank_breaks_and_ix2_scores_cash_and_shares() -> None:
    state = the_end()
    assert ENGINE.is_over(state)
    result = ENGINE.result(state)
    assert result is not None
    assert result["ended_by"] == "bank_broken"
    # the bank ran out in the last set of ORs, which was played to its end
    assert state["cash"][cash.BANK] < 0
    assert state["ending"] == {"round": "operating", "set": state["round"]["number"]}
    last = state["round"]
    assert last["kind"] == "operating" and last["index"] == last["of"] == 3
    for seat in range(2):
        holder = cash.player(seat)
        shares_value = 0
        for sym, held in state["certificates"].items():
            percent = sum(held.get(holder, []))
            if percent:
                per = 20 if sym in ("HG", "JU") else 10
                shares_value += percent // per * price(state, sym)
        expected = {"cash": state["cash"][holder], "shares": shares_value}
        assert result["breakdown"][seat] == expected
        assert result["scores"][seat] == expected["cash"] + expected["shares"]
    best = max(result["scores"])
    assert result["winners"] == [s for s in range(2) if result["scores"][s] == best]
