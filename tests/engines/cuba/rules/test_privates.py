"""The privates (draft IV.1, IV.2): their data against the draft's tables,
the concessions' abilities and the commissioners' extra tile lay on real
boards."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from games.engines import typed
from games.engines.base import IllegalAction
from games.engines.cuba import setup
from games.engines.cuba.data import variants
from games.engines.cuba.data.tiles import TILES
from games.engines.cuba.map import board, laying, tokens
from games.engines.cuba.refusals import WORDS
from games.engines.cuba.rounds.base import Round
from games.engines.cuba.rules import cash, privates, shares
from games.engines.cuba.state import CubaState, copy_state
from games.engines.cuba.steps import abilities
from games.engines.verbs import Lines

from ..opening import COSTS, FUNDING

# --- the data ------------------------------------------------------------------


def test_the_commissioners_are_the_drafts():
    # IV.1: number, name, function, funding, tile.
    table = [
        ("C1", "Juan Tirry y Lacy", "Marquis de la Cañada", "yellow", "plain"),
        ("C2", "José a. Ferrety", "Sociedad Económica", "yellow", "city"),
        ("C3", "Carlos Pedroso", "Real Consulado", "green", "plain"),
        (
            "C4",
            "Domingo Herrera",
            "Ayuntamiento de la Habana (Havana City Council)",
            "green",
            "city",
        ),
        (
            "C5",
            "Andrés de Zayas",
            "Ayuntamiento de la Habana (Havana City Council)",
            "brown",
            "plain",
        ),
        ("C6", "Francisco Romero", "Real Consulado", "brown", "city"),
    ]
    got = [(c.card, c.name, c.function, c.tile_color, c.tile_kind) for c in privates.COMMISSIONERS]
    assert got == table
    assert {c.card: c.funding for c in privates.COMMISSIONERS} == FUNDING
    assert [c.number for c in privates.COMMISSIONERS] == [1, 2, 3, 4, 5, 6]


def test_the_concessions_are_the_drafts():
    table = [
        ("M1", "Claudio Martínez de Pinillos, Count of Villanueva", None, None),
        ("M2", "Wenceslao de Villaurrutia, secretary", "wagon", "major"),
        ("M3", "Antonio M. de Escovedo, trustee", "machine", "minor"),
        ("M4", "Joaquín de Uriarte, subintendant", "fc_share", None),
        ("M5", "Miguel A. Herrera", "mail", "major"),
        ("M6", "Alfred Cruger, first engineer", "n_train_discount", "minor"),
    ]
    got = [(c.card, c.name, c.ability, c.assign_to) for c in privates.CONCESSIONS]
    assert got == table
    assert {c.card: c.cost for c in privates.CONCESSIONS} == COSTS
    assert privates.CONCESSION_VALUE == 210
    assert privates.N_TRAIN_DISCOUNT == 80
    assert privates.FC_SHARE == 10
    assert privates.WAGON == "1-wagon"


def test_the_cards_are_the_states_privates():
    cards = [c.card for c in privates.COMMISSIONERS] + [c.card for c in privates.CONCESSIONS]
    assert tuple(cards) == setup.PRIVATES


# --- the concessions' abilities ----------------------------------------------------


def game(
    cards: tuple[str, ...] = ("M2", "M3", "M5", "M6"),
    *,
    majors: tuple[str, ...] = ("MS",),
    minors: tuple[str, ...] = ("HG",),
    seat: int = 0,
    converted: bool = True,
) -> dict[str, Any]:
    """A first stock round in which `seat` owns `cards` (exchanged for minors
    unless `converted` is False) and directs `majors` and `minors`; it is
    `seat`'s turn."""
    state: dict[str, Any] = dict(setup.new_game(variants.variant(3, "hard"), seed=1))
    state["round"] = {
        "kind": "stock",
        "number": 1,
        "of": 1,
        "index": 1,
        "entity": cash.player(seat),
        "steps": {},
    }
    for card in cards:
        state["privates"][card].update(owner=cash.player(seat), minor="JU" if converted else None)
    certs = state["certificates"]
    for major in majors:
        certs = shares.move(certs, major, shares.IPO, cash.player(seat), 20)
    for minor in minors:
        certs = shares.inaugurate_minor(certs, minor, seat)
    state["certificates"] = certs
    return state


def test_m2_puts_a_1_wagon_into_a_major_the_player_directs():
    state = game()
    depot = dict(state["depot"])
    privates.assign(state, 0, "M2", "MS")
    assert state["companies"]["MS"]["wagons"] == ["1-wagon"]
    assert state["privates"]["M2"]["company"] == "MS"
    # The wagon is the card's own: the bank's stacks are untouched.
    assert state["depot"] == depot


def test_m5_puts_the_mail_contract_into_a_major_the_player_directs():
    state = game()
    privates.assign(state, 0, "M5", "MS")
    assert state["privates"]["M5"]["company"] == "MS"
    assert privates.mail_contract(state) == "MS"
    assert not state["privates"]["M5"]["out"]


def test_m2_and_m5_go_into_majors_m3_and_m6_into_minors():
    state = game()
    for card, wrong in (("M2", "HG"), ("M5", "HG"), ("M3", "MS"), ("M6", "MS")):
        with pytest.raises(IllegalAction, match=f"{card}'s ability goes into a"):
            privates.assign(state, 0, card, wrong)
    with pytest.raises(IllegalAction, match="goes into a major"):
        privates.assign(state, 0, "M2", "FC")


def test_an_ability_goes_only_into_a_company_the_player_directs():
    state = game()
    state["certificates"] = shares.move(state["certificates"], "CVC", shares.IPO, "p1", 20)
    state["certificates"] = shares.inaugurate_minor(state["certificates"], "DQ", 1)
    with pytest.raises(IllegalAction, match="you do not direct CVC"):
        privates.assign(state, 0, "M2", "CVC")
    with pytest.raises(IllegalAction, match="you do not direct DQ"):
        privates.assign(state, 0, "M6", "DQ")
    with pytest.raises(IllegalAction, match="you do not direct NPP"):
        privates.assign(state, 0, "M5", "NPP")  # nobody directs it yet


def test_an_ability_goes_only_into_a_company_in_the_game():
    # A minor nobody started leaves after the first stock round, and the
    # 2-player easy game has only four majors: neither can take an ability.
    state = game()
    del state["companies"]["DQ"], state["certificates"]["DQ"]
    with pytest.raises(IllegalAction, match="DQ is not in this game"):
        privates.assign(state, 0, "M6", "DQ")
    assert ("M6", "DQ") not in privates.assignable(state, 0)


def test_only_the_owner_assigns_an_ability():
    state = game(seat=0)
    state["certificates"] = shares.move(state["certificates"], "CVC", shares.IPO, "p1", 20)
    state["round"]["entity"] = "p1"
    with pytest.raises(IllegalAction, match="you do not own M2"):
        privates.assign(state, 1, "M2", "CVC")


def test_an_ability_is_used_only_after_the_concession_is_exchanged_for_a_minor():
    state = game(converted=False)
    with pytest.raises(IllegalAction, match="exchange M2 for a minor first"):
        privates.assign(state, 0, "M2", "MS")
    assert privates.assignable(state, 0) == []
    state["privates"]["M2"]["minor"] = "JU"
    privates.assign(state, 0, "M2", "MS")


def test_an_ability_is_used_in_the_owners_stock_round_turn():
    state = game()
    state["round"]["entity"] = "p1"
    with pytest.raises(IllegalAction, match="in your own turn"):
        privates.assign(state, 0, "M2", "MS")
    assert not abilities.active(state)


def test_an_ability_is_used_in_an_or_during_the_turn_of_a_company_the_owner_directs():
    state = game(majors=("MS", "CVC"))
    state["certificates"] = shares.move(state["certificates"], "NPP", shares.IPO, "p1", 20)
    state["round"].update(kind="operating", entity="NPP")
    with pytest.raises(IllegalAction, match="in your own turn"):
        privates.assign(state, 0, "M2", "MS")
    state["round"]["entity"] = "FC"  # no director: nobody's turn
    with pytest.raises(IllegalAction, match="in your own turn"):
        privates.assign(state, 0, "M2", "MS")
    # During CVC's turn its director may put the card into any company they direct.
    state["round"]["entity"] = "CVC"
    privates.assign(state, 0, "M2", "MS")
    assert state["privates"]["M2"]["company"] == "MS"


def test_an_ability_is_put_into_a_company_once():
    state = game(majors=("MS", "CVC"))
    privates.assign(state, 0, "M5", "MS")
    with pytest.raises(IllegalAction, match="M5's ability is in MS already"):
        privates.assign(state, 0, "M5", "CVC")


def test_m1_and_m4_have_no_ability_to_put_into_a_company():
    state = game(("M1", "M4"))
    for card in ("M1", "M4", "C1", "X9"):
        with pytest.raises(IllegalAction, match="has no ability to put into a company"):
            privates.assign(state, 0, card, "MS")


def test_a_major_owns_wagons_up_to_its_train_limit():
    state = game()
    state["phase"] = 5  # train limit 2
    state["companies"]["MS"]["wagons"] = ["2-wagon", "1-wagon"]
    with pytest.raises(IllegalAction, match="MS owns 2 wagons"):
        privates.assign(state, 0, "M2", "MS")
    state["phase"] = 4  # train limit 3
    privates.assign(state, 0, "M2", "MS")
    assert len(state["companies"]["MS"]["wagons"]) == 3


@pytest.mark.parametrize(("phase", "generation"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (7, 3)])
def test_m3_is_exchanged_for_a_machine_of_the_newest_generation_on_sale(phase, generation):
    state = game()
    state["phase"] = phase
    before = dict(state["depot"])
    privates.assign(state, 0, "M3", "HG")
    assert state["companies"]["HG"]["machines"] == [generation]
    stack = f"machine-{generation}"
    assert state["depot"][stack] == before[stack] - 1
    assert {k: v for k, v in state["depot"].items() if k != stack} == {
        k: v for k, v in before.items() if k != stack
    }
    # The card goes back to the box and remembers which space it emptied.
    assert state["privates"]["M3"]["out"]
    assert state["privates"]["M3"]["machine"] == generation
    assert state["privates"]["M3"]["company"] == "HG"
    assert typed.problems(state, CubaState) == []


def test_m3_takes_an_older_generation_when_the_newest_is_sold_out():
    state = game()
    state["phase"] = 5
    state["depot"]["machine-3"] = 0
    privates.assign(state, 0, "M3", "HG")
    assert state["companies"]["HG"]["machines"] == [2]


def test_m3_needs_a_machine_to_be_available():
    state = game()
    state["phase"] = 3
    state["depot"].update({"machine-1": 0, "machine-2": 0})  # the third is not on sale yet
    with pytest.raises(IllegalAction, match="no sugar mill machine is available"):
        privates.assign(state, 0, "M3", "HG")
    assert ("M3", "HG") not in privates.assignable(state, 0)


def test_m3_is_refused_to_a_minor_with_three_machines():
    state = game()
    state["companies"]["HG"]["machines"] = [1, 1, 2]
    with pytest.raises(IllegalAction, match="HG owns 3 machines"):
        privates.assign(state, 0, "M3", "HG")


def test_m6_records_the_n_train_discount_for_the_minor_until_it_is_used():
    state = game(minors=("HG", "JU"))
    privates.assign(state, 0, "M6", "HG")
    assert state["privates"]["M6"]["company"] == "HG"
    assert privates.n_train_discount(state, "JU") == 0
    assert privates.use_n_train_discount(state, "JU") == 0
    assert not state["privates"]["M6"]["out"]
    assert privates.n_train_discount(state, "HG") == 80
    assert privates.use_n_train_discount(state, "HG") == 80
    assert state["privates"]["M6"]["out"]
    assert privates.use_n_train_discount(state, "HG") == 0  # once only


def test_a_card_out_of_the_game_has_no_ability():
    state = game()
    state["privates"]["M2"]["out"] = True  # e.g. unconverted at the end of the first SR
    with pytest.raises(IllegalAction, match="M2 is out of the game"):
        privates.assign(state, 0, "M2", "MS")


def test_assign_offers_every_assignment_and_no_other():
    state = game(majors=("MS", "CVC"), minors=("HG",))
    legal = abilities.legal(state, 0)
    expected = [
        {"type": "assign", "card": card, "company": company}
        for card in ("M2", "M3", "M5", "M6")
        for company in (("CVC", "MS") if card in ("M2", "M5") else ("HG",))
    ]
    assert legal == expected
    for action in legal:
        abilities.apply(copy_state(state), 0, action)  # each one is postable
    assert abilities.legal(game(), 1) == []


def test_the_ability_step_does_not_block_the_round():
    buy = SimpleNamespace(
        NAME="buy",
        ACTIONS=frozenset({"buy"}),
        active=lambda state: True,
        blocking=lambda state: True,
        legal=lambda state, seat: [{"type": "buy"}],
        apply=lambda state, seat, action: state.update(bought=True),
        VERBS=(),
    )
    round_ = Round("test round", (abilities, buy))
    state = game()
    assert abilities.active(state) and not abilities.blocking(state)
    assert {"type": "buy"} in round_.legal(state, 0)
    round_.process(state, 0, {"type": "buy"})
    assert state["bought"]
    round_.process(state, 0, {"type": "assign", "card": "M2", "company": "MS"})
    assert state["companies"]["MS"]["wagons"] == ["1-wagon"]


def test_assign_lines():
    state = game()
    action = {"type": "assign", "card": "M2", "company": "MS"}
    lines = Lines(WORDS, abilities.VERBS)
    assert abilities.ASSIGN.text(action) == "assign M2 MS"
    assert lines.read("assign m2 ms", state, 0) == action
    assert lines.read("assign m6 stsp", state, 0)["company"] == "StSp"
    assert lines.read("pass", state, 0) is None
    with pytest.raises(IllegalAction, match="an assignment reads"):
        lines.read("assign m2", state, 0)


# --- the commissioners' extra lay -----------------------------------------------


def operating(
    cards: tuple[str, ...], company: str = "MS", seat: int = 0, minor: bool = False
) -> dict[str, Any]:
    """An OR of `company`, directed by `seat`, who owns `cards`."""
    state: dict[str, Any] = dict(setup.new_game(variants.variant(4, None), seed=1))
    state["round"] = {
        "kind": "operating",
        "number": 1,
        "of": 1,
        "index": 1,
        "entity": company,
        "steps": {},
    }
    for card in cards:
        state["privates"][card]["owner"] = cash.player(seat)
    certs = state["certificates"]
    if minor:
        certs = shares.inaugurate_minor(certs, company, seat)
    else:
        certs = shares.move(certs, company, shares.IPO, cash.player(seat), 20)
    state["certificates"] = certs
    return state


MS = laying.Layer("MS", "major", home="B9")
MS_FIRST = laying.Layer("MS", "major", home="B9", first_turn=True)


def ms_home(state: dict[str, Any], *, tile: bool) -> None:
    """MS's home station in B9, and its first (normal) lay there if `tile`."""
    b = tokens.home_token(state["board"], "MS", "B9", 0)
    if tile:
        lay = laying.legal_lays(b, MS_FIRST, 1)[0]
        b, _ = laying.lay_tile(b, MS_FIRST, lay["hex"], lay["tile"], lay["rotation"], 1)
    state["board"] = b


def test_a_commissioner_lays_with_its_tile_filter_all_lay_rules_applying():
    state = operating(("C1", "C2"))
    ms_home(state, tile=False)
    lays = privates.commissioner_lays(state, MS_FIRST)
    # First turn: only the home hex, a yellow city tile, so only C2 can lay.
    assert lays
    assert {lay["card"] for lay in lays} == {"C2"}
    expected = laying.legal_lays(state["board"], MS_FIRST, 1, commissioner=2)
    assert [{k: v for k, v in lay.items() if k != "card"} for lay in lays] == expected
    assert all(TILES[lay["tile"]].cities == 1 for lay in lays)


def test_a_plain_commissioner_cannot_lay_a_city_tile():
    state = operating(("C1",))
    ms_home(state, tile=False)
    lay = laying.legal_lays(state["board"], MS_FIRST, 1)[0]
    with pytest.raises(IllegalAction, match="commissioner #1 lays only a yellow plain tile"):
        privates.commissioner_lay(state, "C1", MS_FIRST, lay["hex"], lay["tile"], lay["rotation"])


def test_a_green_commissioner_waits_for_green_tiles():
    state = operating(("C3", "C4"))
    ms_home(state, tile=True)
    plain = laying.legal_lays(state["board"], MS, 1, commissioner=1)[0]
    state["board"], _ = laying.lay_tile(
        state["board"], MS, plain["hex"], plain["tile"], plain["rotation"], 1
    )
    assert privates.commissioner_lays(state, MS) == []
    state["phase"] = 3
    assert {lay["card"] for lay in privates.commissioner_lays(state, MS)} == {"C3", "C4"}


def test_the_extra_lay_pays_the_funding_to_the_owner_and_the_card_goes_back_to_the_box():
    state = operating(("C1",))
    ms_home(state, tile=True)  # the company's normal lay of this OR
    lay = privates.commissioner_lays(state, MS)[0]
    bank, owner = state["cash"]["bank"], state["cash"]["p0"]
    result = privates.commissioner_lay(state, "C1", MS, lay["hex"], lay["tile"], lay["rotation"])
    assert state["board"]["tiles"][lay["hex"]] == [lay["tile"], lay["rotation"]]
    assert state["cash"]["p0"] == owner + 30
    assert state["cash"]["bank"] == bank - 30
    assert state["privates"]["C1"]["out"]
    assert result.cost == lay["cost"]


def test_the_extra_lay_comes_in_addition_to_the_normal_lay_before_or_after_it():
    # After: the normal lay on the home hex, then C1's.
    after = operating(("C1",))
    ms_home(after, tile=True)
    assert privates.commissioner_lays(after, MS)
    # Before: C2 lays the home tile, then the company still has its own lay.
    before = operating(("C2",))
    ms_home(before, tile=False)
    lay = privates.commissioner_lays(before, MS_FIRST)[0]
    privates.commissioner_lay(before, "C2", MS_FIRST, lay["hex"], lay["tile"], lay["rotation"])
    own = laying.legal_lays(before["board"], MS, 1)
    assert own
    before["board"], _ = laying.lay_tile(
        before["board"], MS, own[0]["hex"], own[0]["tile"], own[0]["rotation"], 1
    )
    assert len(before["board"]["tiles"]) == 2


def test_a_commissioner_is_used_once():
    state = operating(("C1",))
    ms_home(state, tile=True)
    first, *_ = privates.commissioner_lays(state, MS)
    privates.commissioner_lay(state, "C1", MS, first["hex"], first["tile"], first["rotation"])
    assert privates.commissioner_lays(state, MS) == []
    with pytest.raises(IllegalAction, match="C1's tile has been laid already"):
        privates.commissioner_lay(state, "C1", MS, "C8", "7", 2)


def test_a_commissioner_lays_only_with_a_company_its_owner_directs():
    state = operating(("C1",), seat=0)
    ms_home(state, tile=True)
    state["privates"]["C1"]["owner"] = "p1"
    assert privates.commissioner_lays(state, MS) == []
    lay = laying.legal_lays(state["board"], MS, 1, commissioner=1)[0]
    with pytest.raises(IllegalAction, match="only with a company its owner directs"):
        privates.commissioner_lay(state, "C1", MS, lay["hex"], lay["tile"], lay["rotation"])
    state["privates"]["C1"]["owner"] = None
    with pytest.raises(IllegalAction, match="nobody owns C1"):
        privates.commissioner_lay(state, "C1", MS, lay["hex"], lay["tile"], lay["rotation"])


def test_a_refused_lay_changes_nothing():
    state = operating(("C1",))
    ms_home(state, tile=True)
    before = {"board": board.copy_board(state["board"]), "cash": dict(state["cash"])}
    with pytest.raises(IllegalAction):
        privates.commissioner_lay(state, "C1", MS, "G24", "7", 0)  # not connected
    assert state["board"] == before["board"] and state["cash"] == before["cash"]
    assert not state["privates"]["C1"]["out"]


def test_a_minor_lays_narrow_track_with_a_commissioner():
    state = operating(("C2", "C1"), company="HG", minor=True)
    state["board"] = tokens.choose_minor_home(state["board"], "HG", "C4")
    hg = laying.Layer("HG", "minor", home="C4")
    # Its mill is a yellow city tile (C2); then narrow plain track (C1).
    mill = next(lay for lay in privates.commissioner_lays(state, hg) if lay["card"] == "C2")
    assert TILES[mill["tile"]].is_mill
    privates.commissioner_lay(state, "C2", hg, mill["hex"], mill["tile"], mill["rotation"])
    track = privates.commissioner_lays(state, hg)
    assert track and {lay["card"] for lay in track} == {"C1"}
    assert all(TILES[lay["tile"]].gauges == {"n"} for lay in track)
    privates.commissioner_lay(
        state, "C1", hg, track[0]["hex"], track[0]["tile"], track[0]["rotation"]
    )
    assert state["cash"]["p0"] == 680 + 35 + 30


def test_the_fc_lays_no_commissioner_tile():
    state = operating(("C1",))
    fc = laying.Layer("FC", "major")
    with pytest.raises(IllegalAction, match="laid by a major or a minor"):
        privates.commissioner_lay(state, "C1", fc, "C8", "7", 2)
