"""timeout_action: the documented default at each kind of decision point."""

from __future__ import annotations

from games.engines.havana import ENGINE

from .helpers import SARAH, VANESSA, act, give, start, table


def test_phase_zero_timeout_picks_the_lowest_pair():
    state = ENGINE.setup(2, {}, 1)
    assert ENGINE.timeout_action(state, VANESSA) == {"type": "choose", "cards": ["0", "1"]}


def test_phase_three_timeout_picks_the_lowest_resulting_number():
    state = start(table(2), {VANESSA: ["5", "9"], SARAH: ["0", "2p"]}, order=[VANESSA, SARAH])
    for seat in (VANESSA, VANESSA, VANESSA, SARAH):
        state = act(state, seat, ENGINE.timeout_action(state, seat))
    assert state["phase"] == "replace"
    # Vanessa holds 5 and 9: covering the 9 with her 0 makes 05.
    assert ENGINE.timeout_action(state, VANESSA) == {"type": "replace", "card": "0", "cover": "9"}


def test_timeout_skips_an_optional_card_before_anything_else():
    state = start(table(2), {VANESSA: ["1", "8"]}, order=[VANESSA, SARAH])
    assert ENGINE.timeout_action(state, VANESSA) == {"type": "skip", "card": "refreshment"}


def test_timeout_never_buys_and_ends_the_turn():
    state = table(2)
    give(state, VANESSA, gray=5, red=3, pesos=10)
    state = start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    assert any(a["type"] == "buy" for a in ENGINE.legal_actions(state, VANESSA))
    assert ENGINE.timeout_action(state, VANESSA) == {"type": "end"}
