"""The rolling-stock library: buying trains, wagons and machines, trade-ins and
the phase changes they trigger (draft VII.3.9, VII.3.11, VII.3.13-14)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.engines.base import IllegalAction
from games.engines.cuba import setup
from games.engines.cuba.data import trains, variants
from games.engines.cuba.data.phases import PHASES
from games.engines.cuba.rules import cash, rolling_stock
from games.engines.cuba.rules.rolling_stock import (
    buy,
    buy_machine,
    depot_offers,
    discard,
    export_to_fc,
    machine_bonus,
    machine_price,
    over_limit,
    pool_offers,
    purchase_fault,
    start_phase,
    surplus,
    trade_in,
    trade_in_price,
)

State = dict[str, Any]
MAJORS = ("Oe", "MS", "CVC", "NPP", "SdC", "TSS", "StSp", "FEC")
MINORS = ("HG", "JU", "HY", "DQ", "CO", "SB")


def game(variant: str = "4", treasury: int = 1000, seed: int = 1) -> State:
    """A game whose companies have all floated with `treasury` from the bank."""
    chosen = variants.BY_ID[variant]
    part = ("east", "west")[seed % 2] if chosen.partial_map else None
    state: Any = setup.new_game(chosen, seed, part)
    for sym in (*MAJORS, *MINORS):
        if sym not in state["companies"]:
            continue
        state["companies"][sym]["floated"] = True
        state["cash"] = cash.open_account(state["cash"], sym)
        state["cash"] = cash.transfer(state["cash"], cash.BANK, sym, treasury)
    return state


def empty(state: State, *stacks: str) -> State:
    for stack in stacks:
        state["depot"][stack] = 0
    return state


def names(offers: list[rolling_stock.Offer]) -> list[str]:
    return [o.card for o in offers]


# --- ascending order, kinds, availability -------------------------------------


def test_standard_trains_are_bought_in_ascending_order():
    state = game()
    assert [n for n in names(depot_offers(state, "MS")) if n[0].isdigit()] == ["2"]
    with pytest.raises(IllegalAction, match="ascending order"):
        buy(state, "MS", "3")
    empty(state, "2")
    assert [n for n in names(depot_offers(state, "MS")) if n[0].isdigit()] == ["3", "3+"]
    buy(state, "MS", "3+")
    assert state["companies"]["MS"]["trains"] == ["3+"]


def test_the_8_and_the_4d_come_off_one_unlimited_stack():
    state = empty(game(), "2", "3", "4", "5", "6")
    assert [n for n in names(depot_offers(state, "MS")) if n[0].isdigit()] == ["8", "4D"]
    buy(state, "MS", "4D")
    buy(state, "CVC", "8")
    assert state["depot"]["8/4D"] is None


def test_minors_buy_only_n_trains_and_machines():
    state = game()
    assert set(names(depot_offers(state, "HG"))) == {"2n", "machine-1"}
    with pytest.raises(IllegalAction, match="minor company and buys only n-trains"):
        buy(state, "HG", "2")
    state["phase"] = 2
    with pytest.raises(IllegalAction, match="minor company"):
        buy(state, "HG", "1-wagon")


def test_majors_buy_only_standard_trains_and_wagons():
    state = game()
    state["phase"] = 2
    assert set(names(depot_offers(state, "MS"))) == {"2", "1-wagon"}
    with pytest.raises(IllegalAction, match="major company and buys only standard"):
        buy(state, "MS", "2n")
    with pytest.raises(IllegalAction, match="only minor companies buy machines"):
        buy_machine(state, "MS", 1)


def test_the_fc_buys_nothing():
    state = game()
    assert purchase_fault(state, "FC", "2") is not None


@pytest.mark.parametrize("card", trains.NARROW, ids=lambda t: t.name)
def test_n_trains_go_on_sale_in_their_phase(card):
    state = game()
    state["phase"] = card.available_from_phase - 1
    assert card.name not in names(depot_offers(state, "HG"))
    state["phase"] = card.available_from_phase
    assert card.name in names(depot_offers(state, "HG"))


def test_n_trains_go_on_sale_as_the_phase_table_says():
    on_sale = {"2n": 1, "3n": 3, "4n": 4, "5n": 5}  # the table's "2n available" lines
    assert {t.name: t.available_from_phase for t in trains.NARROW} == on_sale


@pytest.mark.parametrize("wagon", trains.WAGONS, ids=lambda w: w.name)
def test_wagons_go_on_sale_in_the_phase_the_table_gives(wagon):
    started = next(p.number for p in PHASES if p.wagons == wagon.name)
    state = game()
    state["phase"] = started - 1
    assert wagon.name not in names(depot_offers(state, "MS"))
    state["phase"] = started
    assert wagon.name in names(depot_offers(state, "MS"))


def test_an_obsolete_or_scrapped_n_type_is_no_longer_sold():
    state = game()
    state["phase"] = 5
    assert "3n" not in names(depot_offers(state, "HG"))
    state["phase"] = 4
    assert "2n" not in names(depot_offers(state, "HG"))
    state["phase"] = 7
    assert set(names(depot_offers(state, "HG"))) & {"2n", "3n", "4n"} == set()


def test_a_purchase_pays_the_printed_price_to_the_bank():
    state = game()
    bank = state["cash"]["bank"]
    changes = buy(state, "MS", "2")
    assert changes.paid == trains.BY_NAME["2"].price
    assert state["cash"]["MS"] == 1000 - changes.paid
    assert state["cash"]["bank"] == bank + changes.paid
    assert state["depot"]["2"] == trains.STANDARD_COUNTS["2"]["4"] - 1


def test_a_company_must_afford_the_train():
    state = game(treasury=50)
    with pytest.raises(IllegalAction, match=r"MS has \$50 and the 2 costs \$100"):
        buy(state, "MS", "2")


def test_an_unfloated_company_buys_nothing():
    state = game()
    state["companies"]["MS"]["floated"] = False
    with pytest.raises(IllegalAction, match="has not floated"):
        buy(state, "MS", "2")


# --- phases --------------------------------------------------------------------


@pytest.mark.parametrize("ph", PHASES[1:], ids=lambda p: f"phase{p.number}")
def test_the_first_train_of_a_type_starts_its_phase(ph):
    stacks = list(trains.STANDARD_COUNTS)
    state = empty(game(), *stacks[: stacks.index(ph.trigger)])
    state["phase"] = ph.number - 1
    card = next(t.name for t in trains.STANDARD if t.stack == ph.trigger)
    changes = buy(state, "MS", card)
    assert state["phase"] == ph.number
    assert changes.phases == [ph.number]
    changes = buy(state, "CVC", card)
    assert changes.phases == []


def test_the_first_4_scraps_the_2_and_2n_trains_of_companies_and_the_pool():
    state = empty(game(), "2", "3")
    state["phase"] = 3
    state["companies"]["CVC"]["trains"] = ["2", "3"]
    state["companies"]["HG"]["trains"] = ["2n", "3n"]
    state["pool"] = ["2", "2n", "3+"]
    changes = buy(state, "MS", "4")
    assert state["companies"]["CVC"]["trains"] == ["3"]
    assert state["companies"]["HG"]["trains"] == ["3n"]
    assert state["pool"] == ["3+"]
    assert sorted(changes.rusted) == [("CVC", "2"), ("HG", "2n"), ("pool", "2"), ("pool", "2n")]


def test_the_first_5_turns_3n_trains_into_3_1n():
    state = empty(game(), "2", "3", "4")
    state["phase"] = 4
    state["companies"]["HG"]["trains"] = ["3n", "4n"]
    state["pool"] = ["3n"]
    changes = buy(state, "MS", "5")
    assert state["companies"]["HG"]["trains"] == ["3-1n", "4n"]
    assert state["pool"] == ["3-1n"]
    assert sorted(changes.obsolete) == [("HG", "3-1n"), ("pool", "3-1n")]


def test_the_first_6_scraps_3_trains_3n_trains_and_3_1n_trains():
    state = empty(game(), "2", "3", "4", "5")
    state["phase"] = 5
    state["companies"]["CVC"]["trains"] = ["3+", "5"]
    state["companies"]["HG"]["trains"] = ["3-1n", "4n"]
    state["pool"] = ["3", "3-1n", "4"]
    buy(state, "MS", "6")
    assert state["companies"]["CVC"]["trains"] == ["5"]
    assert state["companies"]["HG"]["trains"] == ["4n"]
    assert state["pool"] == ["4"]


def test_the_first_8_or_4d_scraps_4_trains_and_turns_4n_obsolete():
    state = empty(game(), "2", "3", "4", "5", "6")
    state["phase"] = 6
    state["companies"]["CVC"]["trains"] = ["4+", "6"]
    state["companies"]["HG"]["trains"] = ["4n", "5n"]
    buy(state, "MS", "4D")
    assert state["phase"] == 7
    assert state["companies"]["CVC"]["trains"] == ["6"]
    assert state["companies"]["HG"]["trains"] == ["4-1n", "5n"]


def test_a_company_at_its_train_limit_may_not_buy_even_if_the_purchase_would_scrap_its_trains():
    state = empty(game(), "2", "3")
    state["phase"] = 3
    state["companies"]["MS"]["trains"] = ["2", "2", "3", "3"]
    with pytest.raises(IllegalAction, match="MS owns 4 trains, its limit in phase 3"):
        buy(state, "MS", "4")


def test_a_major_with_a_3_and_a_4_may_buy_the_first_5_and_returns_one():
    """The draft's example (VII.3.9): limit 3 before, 2 after the sale."""
    state = empty(game(), "2", "3", "4")
    state["phase"] = 4
    state["companies"]["MS"]["trains"] = ["3", "4"]
    bank = state["cash"]["bank"]
    buy(state, "MS", "5")
    assert state["companies"]["MS"]["trains"] == ["3", "4", "5"]
    assert over_limit(state) == [("MS", "trains")]
    changes = discard(state, "MS", "4")  # the director's choice, not the cheapest
    assert changes.to_pool == [("MS", "4")]
    assert state["companies"]["MS"]["trains"] == ["3", "5"] and over_limit(state) == []
    assert state["pool"] == ["4"]
    # No compensation: the bank got the price and paid nothing back.
    assert state["cash"]["bank"] == bank + trains.BY_NAME["5"].price


def test_vii39_surplus_trains_stay_until_the_director_chooses_the_default_is_the_cheapest():
    state = game()
    state["companies"]["MS"]["trains"] = ["4+", "4", "3", "3"]
    state["companies"]["CVC"]["trains"] = ["4", "3+", "4"]
    state["phase"] = 4
    start_phase(state, 5)
    # the charters' printed order: MS before CVC
    assert over_limit(state) == [("MS", "trains"), ("CVC", "trains")]
    assert state["companies"]["MS"]["trains"] == ["4+", "4", "3", "3"]
    assert state["pool"] == []
    # a director who lets the clock run out gives up the cheapest, the oldest first
    assert surplus(["4+", "4", "3", "3"]) == "3" and surplus(["4", "3+", "4"]) == "3+"
    with pytest.raises(IllegalAction, match="within its train limit"):
        discard(state, "HG", "2n")
    with pytest.raises(IllegalAction, match="no surplus '5'"):
        discard(state, "MS", "5")


def test_vii39_surplus_wagons_over_the_new_limit_go_to_the_pool():
    state = game()
    state["phase"] = 4
    state["companies"]["MS"]["wagons"] = ["2-wagon", "1-wagon", "2-wagon"]
    start_phase(state, 5)
    assert over_limit(state) == [("MS", "wagons")]
    with pytest.raises(IllegalAction, match="no surplus"):
        discard(state, "MS", "3")  # its trains are within the limit
    discard(state, "MS", "2-wagon")
    assert state["companies"]["MS"]["wagons"] == ["1-wagon", "2-wagon"]
    assert state["pool"] == ["2-wagon"]


def test_the_train_limit_of_minors_is_2_throughout():
    state = game()
    state["companies"]["HG"]["trains"] = ["2n", "2n"]
    with pytest.raises(IllegalAction, match="HG owns 2 trains"):
        buy(state, "HG", "2n")
    state["phase"] = 7
    state["companies"]["HG"]["trains"] = ["5n", "5n"]
    with pytest.raises(IllegalAction, match="HG owns 2 trains"):
        buy(state, "HG", "5n")


@pytest.mark.parametrize(("phase", "limit"), [(1, 4), (3, 4), (4, 3), (5, 2), (7, 2)])
def test_the_train_limit_of_majors_follows_the_phase(phase, limit):
    state = game()
    state["phase"] = phase
    assert rolling_stock.train_limit(state, "MS") == limit


def test_a_major_owns_wagons_up_to_its_train_limit():
    state = game()
    state["phase"] = 5
    state["companies"]["MS"]["wagons"] = ["1-wagon", "2-wagon"]
    with pytest.raises(IllegalAction, match="MS owns 2 wagons"):
        buy(state, "MS", "1-wagon")
    state["companies"]["MS"]["wagons"] = ["1-wagon"]
    buy(state, "MS", "1-wagon")


def test_a_1_wagon_is_never_scrapped():
    state = game()
    state["phase"] = 5
    state["companies"]["MS"]["wagons"] = ["1-wagon"]
    start_phase(state, 6)
    start_phase(state, 7)
    assert state["companies"]["MS"]["wagons"] == ["1-wagon"]


# --- the pool --------------------------------------------------------------------


def test_pool_trains_are_bought_at_face_value():
    state = game()
    state["phase"] = 5
    state["pool"] = ["3-1n", "4"]
    assert {o.card: o.price for o in pool_offers(state, "HG")} == {"3-1n": 90}
    assert {o.card: o.price for o in pool_offers(state, "MS")} == {"4": 300}
    buy(state, "HG", "3-1n", "pool")
    assert state["cash"]["HG"] == 1000 - 90
    assert state["companies"]["HG"]["trains"] == ["3-1n"]
    assert state["pool"] == ["4"]


def test_a_pool_train_ignores_the_ascending_order_and_starts_no_phase():
    state = game()
    state["phase"] = 2
    state["pool"] = ["3"]
    changes = buy(state, "MS", "3", "pool")
    assert changes.phases == [] and state["phase"] == 2
    assert state["depot"]["3"] == trains.STANDARD_COUNTS["3"]["4"]


def test_only_cards_in_the_pool_are_bought_from_it():
    state = game()
    with pytest.raises(IllegalAction, match="no 2 in the bank pool"):
        buy(state, "MS", "2", "pool")


# --- trade-in --------------------------------------------------------------------


def test_a_2n_is_traded_in_for_a_3n_at_half_its_value():
    """The draft's example: the 3n costs $140 instead of $180."""
    state = game()
    state["phase"] = 3
    state["companies"]["HG"]["trains"] = ["2n"]
    assert trade_in_price(state, "HG", "2n") == 140
    changes = trade_in(state, "HG", "2n", traded_this_or=False)
    assert changes.paid == 140 and changes.discarded == ["2n"]
    assert state["companies"]["HG"]["trains"] == ["3n"]
    assert state["cash"]["HG"] == 860


def test_an_obsolete_n_train_credits_half_of_its_halved_value():
    """The draft's example: a 3-1n is worth $90 and credits $45."""
    state = game()
    state["phase"] = 5
    assert rolling_stock.value("3-1n") == 90
    state["companies"]["HG"]["trains"] = ["3-1n"]
    assert trade_in_price(state, "HG", "3-1n") == trains.BY_NAME["4n"].price - 45
    trade_in(state, "HG", "3-1n", traded_this_or=False)
    assert state["companies"]["HG"]["trains"] == ["4n"]


def test_a_company_trades_in_once_per_or():
    state = game()
    state["phase"] = 3
    state["companies"]["HG"]["trains"] = ["2n"]
    with pytest.raises(IllegalAction, match="traded in a train this operating round"):
        trade_in(state, "HG", "2n", traded_this_or=True)


def test_a_trade_in_never_skips_a_type():
    state = game()
    state["phase"] = 4
    state["companies"]["HG"]["trains"] = ["2n"]
    empty(state, "3n")
    with pytest.raises(IllegalAction, match="no 3n is on sale"):
        trade_in(state, "HG", "2n", traded_this_or=False)


def test_a_5n_has_no_type_to_be_traded_in_for():
    state = game()
    state["phase"] = 7
    state["companies"]["HG"]["trains"] = ["5n"]
    with pytest.raises(IllegalAction, match="no n-train type after the 5n"):
        trade_in(state, "HG", "5n", traded_this_or=False)


def test_a_minor_at_its_limit_may_trade_in():
    state = game()
    state["phase"] = 4
    state["companies"]["HG"]["trains"] = ["3n", "3n"]
    trade_in(state, "HG", "3n", traded_this_or=False)
    assert state["companies"]["HG"]["trains"] == ["4n", "3n"]


def test_m6_takes_80_off_the_first_n_train_its_minor_buys():
    state = game()
    state["privates"]["M6"]["company"] = "HG"
    assert buy(state, "HG", "2n").paid == trains.BY_NAME["2n"].price - 80
    assert state["privates"]["M6"]["out"]
    assert buy(state, "HG", "2n").paid == trains.BY_NAME["2n"].price


# --- machines --------------------------------------------------------------------


def test_machines_of_a_generation_go_on_sale_in_its_phase():
    state = game()
    assert [o.card for o in depot_offers(state, "HG") if o.card.startswith("machine")] == [
        "machine-1"
    ]
    with pytest.raises(IllegalAction, match="generation 2 is on sale in phase 1"):
        buy_machine(state, "HG", 2)
    state["phase"] = 5
    offered = [o.card for o in depot_offers(state, "HG") if o.card.startswith("machine")]
    assert offered == ["machine-1", "machine-2", "machine-3"]


@pytest.mark.parametrize("generation", [1, 2, 3])
def test_machine_prices_climb_the_ladder_from_the_cheap_end(generation):
    machine = rolling_stock.MACHINE_BY_GENERATION[generation]
    state = game(treasury=5000)
    state["phase"] = 5
    paid = []
    buyers = [sym for sym in MINORS for _ in range(3)]
    for sym in buyers[: machine.count]:
        paid.append(buy_machine(state, sym, generation).paid)
    each = machine.count // 4
    assert paid == [price for price in machine.prices for _ in range(each)]
    assert state["depot"][f"machine-{generation}"] == 0


def test_the_first_three_machines_of_the_first_generation_are_cheaper_than_the_rest():
    state = game()
    paid = [buy_machine(state, sym, 1).paid for sym in ("HG", "JU", "HY", "DQ")]
    assert paid[:3] == [25, 25, 25] and paid[3] > 25


def test_m3s_machine_comes_off_the_dear_end():
    state = game()
    state["depot"]["machine-1"] -= 1
    state["privates"]["M3"]["machine"] = 1
    assert machine_price(state, 1) == 25


def test_a_minor_owns_at_most_3_machines():
    state = game()
    for _ in range(3):
        buy_machine(state, "HG", 1)
    with pytest.raises(IllegalAction, match="HG owns 3 machines"):
        buy_machine(state, "HG", 1)


def test_machines_add_10_20_and_40_to_a_minors_income():
    assert machine_bonus({"machines": [1, 2, 3]}) == 70
    assert machine_bonus({"machines": [1, 1]}) == 20


def test_machines_are_never_scrapped():
    state = game()
    state["companies"]["HG"]["machines"] = [1, 2]
    for number in range(2, 8):
        start_phase(state, number)
    assert state["companies"]["HG"]["machines"] == [1, 2]


# --- export ----------------------------------------------------------------------


def test_the_export_takes_the_top_card_and_an_8_never_a_4d():
    state = game()
    export_to_fc(state)
    assert state["fc_trains"] == ["2"] and state["phase"] == 2
    empty(state, "2", "3", "4", "5", "6")
    changes = export_to_fc(state)
    assert state["fc_trains"] == ["2", "8"]
    assert changes.phases == [3, 4, 5, 6, 7]


# --- a seeded random playout -----------------------------------------------------


def _counts(state: State, out: Counter[str]) -> Counter[str]:
    """Every card by depot stack: left in the depot, held, in the pool, out."""
    seen: Counter[str] = Counter()
    for stack, left in state["depot"].items():
        if left is not None:
            seen[stack] += left
    for charter in state["companies"].values():
        for name in (*charter["trains"], *charter["wagons"]):
            if name != trains.FC_TRAIN.name:
                seen[rolling_stock.stack_of(name)] += 1
        for generation in charter["machines"]:
            seen[rolling_stock.machine_stack(generation)] += 1
    for name in (*state["pool"], *state["fc_trains"]):
        seen[rolling_stock.stack_of(name)] += 1
    seen.update(out)
    return Counter({k: v for k, v in seen.items() if k != "8/4D"})


def _scrapped(changes: rolling_stock.Changes, out: Counter[str]) -> None:
    for _, name in changes.rusted:
        out[rolling_stock.stack_of(name)] += 1
    for name in changes.discarded:
        out[rolling_stock.stack_of(name)] += 1


def _limits_hold(state: State) -> None:
    for sym, charter in state["companies"].items():
        limit = rolling_stock.train_limit(state, sym)
        if limit is not None:
            assert len(charter["trains"]) <= limit, (sym, charter["trains"])
            assert len(charter["wagons"]) <= limit, (sym, charter["wagons"])
        assert len(charter["machines"]) <= trains.MAX_MACHINES_PER_MINOR


def _discard_surplus(state: State, rng: random.Random) -> None:
    """Each director over the limit gives up cards of their choice (here a
    random one) until every company is within it."""
    while over := over_limit(state):
        sym, key = over[0]
        discard(state, sym, rng.choice(state["companies"][sym][key]))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(len(variants.VARIANT_IDS)))
def test_random_rolling_stock_through_every_phase_conserves_money_and_cards(seed):
    rng = random.Random(seed)
    variant = variants.VARIANT_IDS[seed % len(variants.VARIANT_IDS)]
    state = game(variant, treasury=300, seed=seed)
    companies = [s for s in (*MAJORS, *MINORS) if s in state["companies"]]
    initial = _counts(state, Counter())
    out: Counter[str] = Counter()
    traded: set[str] = set()
    moves = 0
    kinds: Counter[str] = Counter()
    for step in range(2000):
        if state["phase"] == 7 and moves > 80:
            break
        if step % 25 == 0:
            traded.clear()  # a new OR
            if rng.random() < 0.3:
                _scrapped(export_to_fc(state), out)
                _discard_surplus(state, rng)
        sym = rng.choice(companies)
        if rng.random() < 0.3 and state["cash"]["bank"] > 300:
            state["cash"] = cash.transfer(state["cash"], cash.BANK, sym, rng.choice([100, 300]))
        options: list[tuple[str, Any]] = []
        options += [("buy", o) for o in depot_offers(state, sym) + pool_offers(state, sym)]
        if rolling_stock.kind_of(sym) == "minor" and sym not in traded:
            options += [("trade", o) for o in rolling_stock.trade_in_offers(state, sym)]
        rng.shuffle(options)
        for what, offer in options:
            if what == "trade":
                changes = trade_in(state, sym, offer.card, traded_this_or=False)
                traded.add(sym)
            elif offer.card.startswith("machine-"):
                if rolling_stock.machine_fault(state, sym, int(offer.card[-1])):
                    continue
                changes = buy_machine(state, sym, int(offer.card[-1]))
            elif purchase_fault(state, sym, offer.card, offer.source):
                continue
            else:
                changes = buy(state, sym, offer.card, offer.source)
            moves += 1
            kinds[what if what == "trade" else offer.source] += 1
            _scrapped(changes, out)
            _discard_surplus(state, rng)
            break
        assert cash.total(state["cash"]) == 8000
        assert _counts(state, out) == initial
        _limits_hold(state)
    assert state["phase"] == 7
    assert out["2"] > 0 and out["3"] > 0
    # The playout reached the trade-ins and the pool, not only the depot.
    assert kinds["trade"] > 0 and kinds["pool"] > 0


def test_pool_wagons_go_to_majors_at_face_value_within_the_limit():
    state = game()
    state["phase"] = 5
    state["pool"] = ["2-wagon"]
    assert pool_offers(state, "HG") == []
    state["companies"]["MS"]["wagons"] = ["1-wagon", "1-wagon"]
    with pytest.raises(IllegalAction, match="MS owns 2 wagons"):
        buy(state, "MS", "2-wagon", "pool")
    state["companies"]["MS"]["wagons"] = ["1-wagon"]
    assert buy(state, "MS", "2-wagon", "pool").paid == trains.WAGONS[1].price
    assert state["pool"] == []
