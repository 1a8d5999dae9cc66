"""The worked examples of havana-action-cards.md, one test each."""

from __future__ import annotations

from games.engines.havana import ENGINE

from .helpers import PETER, SARAH, TOBIAS, VANESSA, act, centre, give, start, table


def test_vanessa_must_take_all_four_debris():
    state = table()
    centre(state, gray=4, red=1)
    start(state, {VANESSA: ["2d", "0"]}, order=[VANESSA, SARAH, TOBIAS, PETER], turn=VANESSA)
    assert ENGINE.legal_actions(state, VANESSA) == [{"type": "debris"}]  # no skip: mandatory
    after = act(state, VANESSA, {"type": "debris"})
    assert after["seats"][VANESSA]["cubes"]["gray"] == 4
    assert after["centre"]["cubes"]["gray"] == 0
    assert after["centre"]["cubes"]["red"] == 1


def test_sarahs_conservation_blocks_tobias_and_vanessa():
    state = table()
    cards = {SARAH: ["3c", "0"], TOBIAS: ["3c", "1"], VANESSA: ["3c", "2d"], PETER: ["9", "8"]}
    start(state, cards, order=[SARAH, TOBIAS, VANESSA, PETER], turn=SARAH)
    leftmost_upper = state["rows"][0][0]
    state = act(state, SARAH, {"type": "conserve", "building": leftmost_upper})
    assert leftmost_upper in state["boxed"]
    assert leftmost_upper not in state["rows"][0]
    state = act(state, SARAH, {"type": "end"})
    assert state["order"][state["turn"]] == TOBIAS
    tobias_conservation = [
        a
        for a in ENGINE.legal_actions(state, TOBIAS)
        if a["type"] == "conserve" or a.get("card") == "conservation"
    ]
    assert tobias_conservation == [{"type": "skip", "card": "conservation"}]
    state = act(state, TOBIAS, {"type": "skip", "card": "conservation"})
    state = act(state, TOBIAS, {"type": "skip", "card": "refreshment"})
    state = act(state, TOBIAS, {"type": "end"})
    assert not any(a["type"] == "conserve" for a in ENGINE.legal_actions(state, VANESSA))


def test_peters_tax_collector_hits_only_tobias_and_sarah():
    state = table()
    for person in (VANESSA, SARAH, TOBIAS):
        give(state, person, workers=1, red=1)
    start(state, {PETER: ["3t", "0"]}, order=[VANESSA, PETER, TOBIAS, SARAH], turn=PETER)
    options = ENGINE.legal_actions(state, PETER)
    assert options
    assert all(set(a["take"]) == {str(TOBIAS), str(SARAH)} for a in options)
    # Peter chooses: a worker from Tobias, a cube from Sarah.
    action = {"type": "tax", "take": {str(TOBIAS): "worker", str(SARAH): "red"}}
    assert action in options
    supply, pesos = state["workers"], state["seats"][PETER]["pesos"]
    after = act(state, PETER, action)
    assert after["seats"][PETER]["pesos"] == pesos + 1  # from the stock, not the centre
    assert after["seats"][TOBIAS]["workers"] == 0
    assert after["workers"] == supply + 1  # workers return to the stock
    assert after["seats"][SARAH]["cubes"]["red"] == 0
    assert after["removed"]["red"] == 1  # materials go to the box
    assert after["seats"][VANESSA]["workers"] == 1
    assert after["seats"][VANESSA]["cubes"]["red"] == 1


def test_vanessas_pesos_thief_takes_3_of_7_from_tobias():
    state = table()
    give(state, TOBIAS, pesos=7)
    give(state, PETER, pesos=4)
    give(state, SARAH, pesos=9)
    start(state, {VANESSA: ["5", "0"]}, order=[SARAH, VANESSA, PETER, TOBIAS], turn=VANESSA)
    victims = {a["victim"] for a in ENGINE.legal_actions(state, VANESSA)}
    assert victims == {PETER, TOBIAS}  # Sarah has already played
    after = act(state, VANESSA, {"type": "steal_pesos", "victim": TOBIAS})
    assert after["seats"][TOBIAS]["pesos"] == 4
    assert after["seats"][VANESSA]["pesos"] == 3


def test_tobias_materials_thief_takes_two_from_sarah_with_four_coloured():
    state = table()
    give(state, SARAH, yellow=1, brown=1, red=2, gray=3)
    start(state, {TOBIAS: ["6", "0"]}, order=[VANESSA, TOBIAS, SARAH, PETER], turn=TOBIAS)
    from_sarah = [a for a in ENGINE.legal_actions(state, TOBIAS) if a["victim"] == SARAH]
    assert all(len(a["cubes"]) == 2 for a in from_sarah)
    choice = {"type": "steal_cubes", "victim": SARAH, "cubes": ["brown", "gray"]}
    assert choice in from_sarah
    after = act(state, TOBIAS, choice)
    assert after["seats"][TOBIAS]["cubes"]["brown"] == 1
    assert after["seats"][TOBIAS]["cubes"]["gray"] == 1
    assert after["seats"][SARAH]["cubes"] == {
        "red": 2,
        "yellow": 1,
        "blue": 0,
        "brown": 0,
        "gray": 2,
    }


def test_vanessa_and_sarah_take_pesos_10_then_5_then_3():
    state = table()
    centre(state, pesos=10)
    start(state, {VANESSA: ["8", "0"], SARAH: ["8", "2p"]}, order=[VANESSA, SARAH, TOBIAS, PETER])
    state = act(state, VANESSA, {"type": "pesos"})
    assert state["seats"][VANESSA]["pesos"] == 5
    state = act(state, VANESSA, {"type": "end"})
    state = act(state, SARAH, {"type": "pesos"})
    assert state["seats"][SARAH]["pesos"] == 3
    assert state["centre"]["pesos"] == 2


def test_peters_mama_with_six_coloured_and_five_gray_takes_three_and_three():
    state = table()
    centre(state, brown=1, yellow=2, red=3, gray=5)
    start(state, {PETER: ["9", "0"]}, order=[PETER, VANESSA, SARAH, TOBIAS], turn=PETER)
    options = ENGINE.legal_actions(state, PETER)
    assert all(a["cubes"].count("gray") == 3 and len(a["cubes"]) == 6 for a in options)
    choice = {"type": "mama", "cubes": ["yellow", "yellow", "brown", "gray", "gray", "gray"]}
    assert choice in options
    after = act(state, PETER, choice)
    assert after["seats"][PETER]["cubes"] == {
        "red": 0,
        "yellow": 2,
        "blue": 0,
        "brown": 1,
        "gray": 3,
    }
    assert after["centre"]["cubes"] == {"red": 3, "yellow": 0, "blue": 0, "brown": 0, "gray": 2}
