"""Havana's refusals in a German mail: each kind of refused move or line says
the same thing in German (``said("de")``) while its message stays English."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.havana import ENGINE

from .helpers import SARAH, VANESSA, act, give, start, table


def refused(state, seat: int, line: str) -> IllegalAction:
    """The refusal of `line` as a mail plays it: read it, then apply it."""
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, ENGINE.parse(line, state, seat))
    return caught.value


def refused_action(state, seat: int, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, action)
    return caught.value


def buying(cards=("0", "2p"), **resources):
    """Vanessa to act, her cards doing nothing: she is buying at once."""
    spec = {101: {"cost": {"blue": 1}}}
    state = table(2, spec=spec)
    state["rows"] = [[101, 1, 2], [3, 4, 5]]
    give(state, VANESSA, **resources)
    return start(state, {VANESSA: list(cards), SARAH: ["9", "8"]}, order=[VANESSA, SARAH])


def says(exc: IllegalAction, english: str, german: str) -> None:
    assert exc.message == english
    assert exc.said("en") == english
    assert exc.said("de") == german


def test_an_action_card_once_the_actions_are_done():
    exc = refused(buying(), VANESSA, "debris")
    says(
        exc,
        "'debris' is not possible now: your actions are done; buy or end turn",
        "'debris' geht jetzt nicht: deine Aktionen sind erledigt; "
        "kauf ein Gebäude (buy) oder beende den Zug (end turn)",
    )


def test_choosing_cards_while_the_actions_are_played():
    state = start(table(2), {VANESSA: ["2d", "9"]}, order=[VANESSA, SARAH])
    exc = refused(state, VANESSA, "choose 1 5")
    says(exc, "'choose 1 5' is not a legal move now", "'choose 1 5' ist jetzt kein möglicher Zug")


def test_a_building_the_player_cannot_pay_for():
    exc = refused(buying(gray=4), VANESSA, "buy B101 pay blue")
    says(
        exc,
        "'buy B101 pay blue' is not a legal move now",
        "'buy B101 pay blue' ist jetzt kein möglicher Zug",
    )


def test_a_move_out_of_turn():
    exc = refused(buying(), SARAH, "end turn")
    says(exc, "it is not your turn to act", "du bist nicht am Zug")


def test_a_move_after_the_game_is_over():
    state = table(2, spec={101: {"vp": 2, "cost": {"gray": 1}}})
    state["rows"][0][0] = 101
    state["seats"][VANESSA]["vp"] = 23
    give(state, VANESSA, gray=1)
    start(state, {VANESSA: ["0", "2p"]}, order=[VANESSA, SARAH])
    over = act(state, VANESSA, {"type": "buy", "building": 101, "pay": {"gray": 1}})
    exc = refused(over, SARAH, "end turn")
    says(exc, "the game is over", "das Spiel ist zu Ende")


def test_a_line_that_is_no_command():
    exc = refused(buying(), VANESSA, "I buy the blue one")
    says(
        exc,
        "cannot read 'I buy the blue one'; reply 'help' for the list of moves",
        "'I buy the blue one' ist nicht lesbar; antworte mit 'help' für die Liste der Züge",
    )


def test_an_empty_command():
    exc = refused(buying(), VANESSA, "  ")
    says(exc, "empty command", "leerer Befehl")


def test_a_cube_colour_written_in_german():
    exc = refused(buying(), VANESSA, "mama rot")
    says(
        exc,
        "unknown cube colour 'rot'",
        "unbekannte Würfelfarbe 'rot': "
        "schreib die Farben englisch (red, yellow, blue, brown, gray)",
    )


def test_a_seat_that_is_not_at_the_table():
    exc = refused(buying(), VANESSA, "tax 5 red")
    says(
        exc,
        "unknown seat '5': name a seat by its number, 0 to 1",
        "unbekannter Platz '5': nenne einen Platz mit seiner Nummer, 0 bis 1",
    )


def test_a_building_not_written_as_b_and_a_number():
    exc = refused(buying(), VANESSA, "buy villa")
    says(
        exc,
        "unknown building 'villa': write it as B<number>, e.g. B7",
        "unbekanntes Gebäude 'villa': schreib es als B<Nummer>, z. B. B7",
    )


def test_a_payment_that_cannot_be_read():
    exc = refused(buying(), VANESSA, "buy B101 pay blau")
    says(
        exc,
        "cannot read payment 'blau': write e.g. red 2yellow 5gray worker 3pesos",
        "Zahlung 'blau' ist nicht lesbar: schreib z. B. red 2yellow 5gray worker 3pesos",
    )


def test_a_card_named_by_a_value_two_cards_share():
    state = table(2)
    exc = refused(state, VANESSA, "choose 2 5")
    says(
        exc,
        "card 2 is ambiguous: write 2p (protection) or 2d (debris)",
        "Karte 2 ist nicht eindeutig: schreib 2p (protection) oder 2d (debris)",
    )


def test_an_unknown_card():
    exc = refused(table(2), VANESSA, "choose joker 5")
    says(exc, "unknown card 'joker'", "unbekannte Karte 'joker'")


def test_a_tax_line_without_pairs():
    exc = refused(buying(), VANESSA, "tax 1")
    says(
        exc,
        "tax takes pairs: a seat and worker or a cube colour, e.g. tax 1 worker 3 red",
        "tax braucht Paare: eine Platznummer und worker oder eine Würfelfarbe, "
        "z. B. tax 1 worker 3 red",
    )


def test_a_steal_line_without_pesos_or_cubes():
    exc = refused(buying(), VANESSA, "steal 1")
    says(
        exc,
        "write steal pesos <seat> or steal cubes <seat> <colours>",
        "schreib steal pesos <Platz> oder steal cubes <Platz> <Farben>",
    )


def test_an_action_that_is_not_an_object_with_a_type():
    exc = refused_action(buying(), VANESSA, {"kind": "end"})
    says(
        exc,
        "an action must be an object with a 'type'",
        "eine Aktion muss ein Objekt mit 'type' sein",
    )


def test_an_action_that_is_not_plain_json():
    exc = refused_action(buying(), VANESSA, {"type": "end", "when": {1, 2}})
    says(
        exc,
        "an action must be plain JSON data",
        "eine Aktion muss aus einfachen JSON-Daten bestehen",
    )


def test_ages_that_do_not_match_the_seats():
    with pytest.raises(IllegalAction) as caught:
        ENGINE.setup(3, {"ages": [30, 40]}, seed=1)
    says(
        caught.value,
        "option ages must list one age per seat (3 numbers)",
        "die Option ages braucht ein Alter pro Platz (3 Zahlen)",
    )


def test_a_refusal_keeps_what_a_mail_needs_to_say_it_again():
    exc = refused(buying(), SARAH, "end turn")
    assert exc.kept() == {
        "template": "it is not your turn to act",
        "params": {},
        "domain": "havana",
    }
    exc = refused(buying(), VANESSA, "debris")
    assert exc.kept()["params"] == {"line": "debris"}
