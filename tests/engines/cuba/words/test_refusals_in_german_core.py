"""18Cuba's refusals from the engine and the rule modules (not the steps):
each keeps its English message and says it in German for a German mail."""

from __future__ import annotations

import pytest

from games.engines import base
from games.engines.base import IllegalAction
from games.engines.cuba.map.laying import Layer, check_lay
from games.engines.cuba.refusals import WORDS, Fault, refusal
from games.engines.cuba.rules import cash, shares
from games.engines.cuba.steps import token as token_step
from games.engines.verbs import Lines

from ..helpers import empty_board, put, token

ENGINE = base.get("18cuba")
MS = Layer("MS", "major", home="B9")


def refused(fn, *args, **kw) -> IllegalAction:
    with pytest.raises(IllegalAction) as exc:
        fn(*args, **kw)
    return exc.value


@pytest.fixture
def game():
    return ENGINE.setup(2, {}, seed=1)


def test_moving_out_of_turn_is_refused_in_german(game):
    seat = next(s for s in (0, 1) if s not in ENGINE.to_act(game))
    exc = refused(ENGINE.apply, game, seat, {"type": "pass"})
    assert exc.message == "it is not your turn"
    assert exc.said("de") == "du bist nicht am Zug"


def test_moving_after_the_game_is_over_is_refused_in_german(game):
    game["end"] = {"reason": "bank_broken"}
    exc = refused(ENGINE.apply, game, 0, {"type": "pass"})
    assert exc.message == "the game is over"
    assert exc.said("de") == "das Spiel ist zu Ende"


def test_an_action_without_a_type_is_refused_in_german_with_its_braces(game):
    seat = min(ENGINE.to_act(game))
    exc = refused(ENGINE.apply, game, seat, {"kind": "pass"})
    assert exc.message == 'an action is an object with a "type", e.g. {"type": "pass"}'
    assert exc.said("de") == 'ein Spielzug ist ein Objekt mit einem "type", z. B. {"type": "pass"}'


def test_an_empty_line_is_refused_in_german(game):
    exc = refused(ENGINE.parse, "   ", game, 0)
    assert exc.message == "a move is a line of text, e.g.: pass"
    assert exc.said("de") == "ein Zug ist eine Textzeile, z. B.: pass"


def test_an_unreadable_station_line_is_refused_in_german():
    # the station step's line, read with its verbs alone (no operating round needed)
    exc = refused(Lines(WORDS, token_step.VERBS).read, "station somewhere", {}, 0)
    assert exc.message == "write a station as: station <hex> [city <n>] [pass <hex> ...]"
    assert (
        exc.said("de") == "schreibe einen Bahnhof so: station <Feld> [city <n>] [pass <Feld> ...]"
    )


def test_a_tile_on_a_hex_that_is_not_on_the_map_is_refused_in_german():
    board = empty_board()
    exc = refused(check_lay, board, MS, "Z99", "57", 0, 1)
    assert exc.message == "there is no hex 'Z99' on the map"
    assert exc.said("de") == "auf der Karte gibt es kein Feld 'Z99'"


def test_plain_track_on_a_city_hex_is_refused_in_german():
    board = empty_board()
    put(board, "B9", "57", 1)
    token(board, "B9", "MS")
    exc = refused(check_lay, board, MS, "C14", "9", 0, 1)
    assert exc.message == "a city hex needs a city tile"
    assert exc.said("de") == "ein Stadtfeld braucht ein Stadtplättchen"


def test_a_share_before_its_phase_is_refused_in_german():
    certs = shares.new_certificates()
    fault = shares.can_buy(certs, "FEC", 0, "ipo", "2e", phase=1, sold_this_round=False)
    assert isinstance(fault, Fault)
    assert fault == "FEC shares are available from phase 4"
    exc = refusal(fault)
    assert exc.message == "FEC shares are available from phase 4"
    assert exc.said("de") == "Aktien von FEC gibt es ab Phase 4"


def test_paying_more_than_one_has_is_refused_in_german():
    ledger = cash.new_ledger(1000, 100, 2)
    exc = refused(cash.transfer, ledger, "p0", cash.BANK, 150)
    assert exc.message == "p0 has $100, not $150"
    assert exc.said("de") == "p0 hat $100, nicht $150"


def test_a_fault_is_still_the_english_sentence_callers_compare():
    fault = Fault("{sym} has no share price", sym="MS")
    assert fault == "MS has no share price" and f"{fault}!" == "MS has no share price!"
    assert refusal("a plain sentence").said("de") == "a plain sentence"
