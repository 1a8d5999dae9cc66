"""18Cuba as a registered title: options, the protocol's per-title parts
(timeouts, views, lines), and the end at the first operating round."""

from __future__ import annotations

import random

import pytest

from games.engines import base
from games.engines.base import IllegalAction
from games.engines.cuba.data import variants

ENGINE = base.get("18cuba")


def play(state, *actions):
    """Each (seat, action) must be the seat's turn and a legal move."""
    for seat, action in actions:
        assert seat in ENGINE.to_act(state), (seat, action, state["round"])
        assert action in ENGINE.legal_actions(state, seat), (seat, action)
        state = ENGINE.apply(state, seat, action)
    return state


def test_18cuba_is_registered_with_its_options():
    assert ENGINE.NAME == "18cuba" and (ENGINE.MIN_PLAYERS, ENGINE.MAX_PLAYERS) == (2, 6)
    assert ENGINE.OPTIONS["difficulty"]["choices"] == ["easy", "hard", "challenging"]
    assert ENGINE.OPTIONS["map_part"]["choices"] == ["east", "west"]
    assert ENGINE.PROVISIONAL_DATA is True


@pytest.mark.parametrize(
    ("players", "options", "variant"),
    [
        (2, {}, "2e"),
        (2, {"difficulty": "hard"}, "2h"),
        (2, {"difficulty": "challenging"}, "2c"),
        (3, {"difficulty": "easy"}, "3e"),
        (3, {"difficulty": "hard"}, "3h"),
        (4, {"difficulty": "challenging"}, "4"),  # ignored from 4 players
        (5, {}, "5"),
        (6, {}, "6"),
    ],
)
def test_the_player_count_and_difficulty_choose_the_setup(players, options, variant):
    state = ENGINE.setup(players, options, 1)
    assert state["variant"] == variant
    view = ENGINE.view(state, None)
    assert view["certificate_limit"] == variants.BY_ID[variant].certificate_limit
    assert all(p["cash"] == variants.BY_ID[variant].starting_cash for p in view["players"])


def test_a_challenging_three_player_game_is_refused():
    with pytest.raises(IllegalAction, match="no challenging game for 3 players"):
        ENGINE.setup(3, {"difficulty": "challenging"}, 1)


@pytest.mark.parametrize(
    ("part", "majors"),
    [("east", {"NPP", "TSS", "SdC", "FEC"}), ("west", {"Oe", "MS", "CVC", "StSp"})],
)
def test_the_two_player_easy_game_is_played_on_the_chosen_part(part, majors):
    state = ENGINE.setup(2, {"map_part": part}, 1)
    view = ENGINE.view(state, 0)
    assert view["map"]["part"] == part
    assert {s for s, c in view["companies"].items() if c["kind"] == "major"} == majors
    assert len(view["provisional"]) > 1  # the edge tiles are provisional too


def test_the_map_part_is_ignored_outside_the_two_player_easy_game():
    state = ENGINE.setup(2, {"difficulty": "hard", "map_part": "west"}, 1)
    assert state["board"]["part"] is None


def test_the_opener_of_an_auction_times_out_with_the_minimum_bid_the_others_pass():
    state = ENGINE.setup(3, {}, 2)
    [opener] = ENGINE.to_act(state)
    assert ENGINE.skip_action(state, opener) is None  # the opener may not pass
    bid = ENGINE.timeout_action(state, opener)
    assert bid == {"type": "bid", "card": "C1", "amount": 0}
    state = ENGINE.apply(state, opener, bid)
    [next_seat] = ENGINE.to_act(state)
    assert ENGINE.timeout_action(state, next_seat) == {"type": "pass"}
    assert ENGINE.skip_action(state, next_seat) == {"type": "pass"}


def test_every_seat_and_every_spectator_get_the_same_view():
    state = ENGINE.setup(4, {}, 3)
    rng = random.Random(3)
    for _ in range(30):
        views = [ENGINE.view(state, seat) for seat in (None, 0, 1, 2, 3)]
        assert all(v == views[0] for v in views)
        [seat] = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


# Through the opening, the first stock rounds and operating rounds.
MOVES_PARSED = 400


@pytest.mark.slow
@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.id)
def test_every_legal_move_has_a_line_that_parses_back_to_it(variant):
    options = {"difficulty": variant.difficulty or "easy"}
    state = ENGINE.setup(variant.players, options, 11)
    rng = random.Random(variant.id)
    for _ in range(MOVES_PARSED):
        if ENGINE.is_over(state):
            break
        [seat] = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        for action in legal:
            assert ENGINE.parse(ENGINE.text(action), state, seat) == action
        # Mostly cheap moves, so that the stock round is reached with money.
        cheap = [a for a in legal if a["type"] != "bid" or a["amount"] <= 10]
        state = ENGINE.apply(state, seat, rng.choice(cheap or legal))


def test_takeback_is_allowed_for_every_move():
    state = ENGINE.setup(2, {}, 1)
    [seat] = ENGINE.to_act(state)
    action = ENGINE.legal_actions(state, seat)[0]
    assert ENGINE.takeback_allowed(state, seat, action, ENGINE.apply(state, seat, action))


def opening_for_nothing(state):
    """Every commissioner goes to its opener for $0, the others passing."""
    while state["round"]["kind"] == "auction":
        [seat] = ENGINE.to_act(state)
        card = state["round"]["steps"]["auction"]["card"]
        bid = {"type": "bid", "card": card, "amount": 0}
        action = bid if bid in ENGINE.legal_actions(state, seat) else {"type": "pass"}
        state = play(state, (seat, action))
    return state


def through_first_stock_round(tail=None):
    """A 2-player hard game (seed 1) through its first stock round: M1 and
    M2 drafted, converted into HG (70, by the SR's starter) and JU (100, by
    the other), MS parred at 100 by the starter; then `tail(starter,
    other)`'s moves (by default both pass). Returns (state, starter, other)."""
    state = opening_for_nothing(ENGINE.setup(2, {"difficulty": "hard"}, 1))
    first, second = state["order"]
    state = play(
        state,
        (first, {"type": "choose", "card": "M1"}),
        (second, {"type": "choose", "card": "M2"}),
        (first, {"type": "pass"}),
        (second, {"type": "pass"}),
    )
    [starter] = ENGINE.to_act(state)
    other = second if starter == first else first
    card = {first: "M1", second: "M2"}
    state = play(
        state,
        (starter, {"type": "convert", "card": card[starter], "company": "HG", "price": 70}),
        (other, {"type": "convert", "card": card[other], "company": "JU", "price": 100}),
        (starter, {"type": "par", "company": "MS", "price": 100}),
    )
    if tail is None:
        moves = [(other, {"type": "pass"}), (starter, {"type": "pass"})]
    else:
        moves = tail(starter, other)
    return play(state, *moves), starter, other


def test_vii1_the_first_stock_round_is_followed_by_operating_rounds():
    state, starter, _ = through_first_stock_round()
    assert ENGINE.result(state) is None
    # the cheaper minor operates first (VII.1), its director to act
    assert state["round"]["kind"] == "operating"
    assert state["round"]["entity"] == "HG"
    assert ENGINE.to_act(state) == {starter}


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.id)
def test_the_opening_sequence_of_every_variant(variant):
    """Auction of C1..C6, each opened in turn round the dealt order; the draft
    with as many turns per player as the variant deals; then the first SR."""
    options = {"difficulty": variant.difficulty or "easy"}
    state = ENGINE.setup(variant.players, options, 7)
    dealt = list(state["order"])
    state = opening_for_nothing(state)
    for k in range(1, 7):
        opener = dealt[(k - 1) % variant.players]
        assert state["privates"][f"C{k}"]["owner"] == f"p{opener}"
    assert state["round"]["kind"] == "concessions"
    turns = []
    while state["round"]["kind"] == "concessions":
        [seat] = ENGINE.to_act(state)
        turns.append(seat)
        state = play(state, (seat, {"type": "pass"}))
    assert turns == state["order"] * variant.concessions_per_player
    assert state["round"]["kind"] == "stock" and state["round"]["number"] == 1
    assert ENGINE.to_act(state) == {state["order"][0]}
    assert all(state["privates"][f"M{n}"]["out"] for n in range(1, 7))


def test_a_copy_shares_the_moves_log_and_no_call_writes_into_the_one_it_was_given():
    """The copy `apply` plays on shares the state's log (every move starts
    a new one); `why_not` plays the move on such a copy to find its
    refusal, and a move that is legal after all sets off effects there.
    Neither may add to the log of the state it was handed."""
    rng = random.Random(3)
    state = ENGINE.setup(3, {}, 3)
    noted = 0
    for _ in range(400):
        if ENGINE.result(state) is not None:
            break
        seat = min(ENGINE.to_act(state))
        action = rng.choice(ENGINE.legal_actions(state, seat))
        log = list(state.get("log", []))
        if "log" in state:
            assert ENGINE.copy_state(state)["log"] is state["log"]
        ENGINE.why_not(state, seat, action)
        after = ENGINE.apply(state, seat, action)
        assert state.get("log", []) == log
        noted += bool(after["log"])
        state = after
    assert noted > 10, noted  # moves that set something off were among them
