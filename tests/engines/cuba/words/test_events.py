"""Every automatic event gets a log line in words: what a move set off
without anyone's decision (`rules/log.py` records it, `words/events.py`
says it, `CubaEngine.effects` / `tell_effects` hand it to the service, the
web log and the mails). Positions from the scripted 2-player easy game and
hand-built operating rounds."""

from __future__ import annotations

import random

import pytest

from games.engines.cuba.play import randomgame
from games.engines.cuba.rules import rolling_stock
from games.engines.cuba.words import events
from games.engines.cuba.words.names import company

from ..rounds.test_or_flow import play_until
from ..stockgame import ENGINE, give, start_major, stock_game
from ..test_scripted_2e_game import play, set_2_before_tss, set_3

NAMES = ["ann", "ben", "cid", "dot"]


def said(state, language="en"):
    return ENGINE.tell_effects(ENGINE.effects(state), NAMES, language=language)


def kinds(state):
    return [e["event"] for e in ENGINE.effects(state)]


def test_vii37_each_trains_route_and_revenue_and_the_sugar_delivered():
    """VII.3.7-8: the run says each train's stops and revenue, the total and
    the cubes a wagon carried from which mill (the scripted game: TSS's
    wagon takes HG's cube to the harbor)."""
    state = play(set_2_before_tss(), 1, "run")
    [run] = [e for e in ENGINE.effects(state) if e["event"] == "run"]
    assert run["company"] == "TSS" and run["revenue"] == 120 and run["sugar"] == 30
    assert run["delivered"] == {"HG": 1}
    assert len(run["trains"]) == 2
    lines = said(state)
    for train, line in zip(run["trains"], lines, strict=False):
        assert line.startswith(f"TSS's {train['train']} runs")
        assert line.endswith(f": ${train['revenue']}")
        assert all(stop in line for stop in train["stops"])
    assert any("Las Tunas (E22)" in line for line in lines)
    total = next(x for x in lines if x.startswith("TSS (FC las Tunas"))
    assert "earns $120" in total and "1 sugar cube" in total and "(HG 1)" in total
    german = said(state, "de")
    assert any("nimmt $120 ein" in line and "Zuckerwürfel" in line for line in german)


def test_vii38_ix2_the_dividend_per_holder_and_the_price_move_and_why():
    """VII.3.8, IX.2: a payout says what each holder received ($12 a share:
    p1 4 shares, p0 3, the treasury 3) and the price move with its reason."""
    state = play(play(set_2_before_tss(), 1, "run"), 1, "payout")
    assert kinds(state)[:2] == ["dividend", "price"]
    lines = said(state)
    tss = company("TSS")
    assert lines[0] == f"{tss} pays out $120: $12 a share (ann $36, ben $48, TSS $36)"
    assert lines[1] == f"{tss}: the share price rises from $70 to $80 (dividend paid)"
    assert said(state, "de")[1].endswith("der Kurs steigt von $70 auf $80 (Dividende gezahlt)")


def test_ix2_retaining_says_what_the_treasury_keeps_and_why_the_price_falls():
    state = play(play(set_2_before_tss(), 1, "run"), 1, "retain")
    lines = said(state)
    assert lines[0] == f"{company('TSS')} keeps $120 in its treasury"
    assert lines[1].endswith("the share price falls from $70 to $60 (no dividend)")


def test_vii312_vii313_the_fcs_income_and_the_export_and_the_phase_it_starts():
    """The last company's pass ends the set: the FC's income (its cities and
    the unshipped cubes, per holder), its price, the train exported to it
    (VII.3.13) and the phase that export starts (VII.3.14), in that order."""
    state = set_3()
    # the scripted game's third set ended with TSS buying the last 2: its
    # turn ended by itself, the FC ran and the first 3 went to the FC
    assert kinds(state) == ["forced", "fc", "price", "export", "phase", "round"]
    assert said(state) == [
        "ben passes (the only move)",
        "The FC earns $10: its 2-train counts $0, 1 unshipped sugar cube $10",
        "FC (Ferrocarril Central): the share price rises from $55 to $60 (dividend paid)",
        "The set of operating rounds ends: the FC takes a 3 from the depot",
        "Phase 3 begins",
        "Stock round 4 begins",
    ]


def test_vii314_rusting_and_obsolescence_are_said_with_their_holders():
    state = stock_game("4")
    start_major(state, "MS", 100)
    give(state, "MS", state["order"][0], 20, 10, 10, 10, 10)
    state["companies"]["MS"]["trains"] = ["3", "4"]
    state["pool"] = ["3"]
    state["phase"] = 5
    for stack in ("2", "3", "4", "5"):
        state["depot"][stack] = 0  # the export takes the first 6: phase 6

    def exported(s):
        return "export" in kinds(s)

    state = play_until(state, exported)
    lines = said(state)
    assert "Phase 6 begins; scrapped: MS 3, bank pool 3" in lines
    event = {"event": "phase", "phase": 7, "rusted": [], "obsolete": [["HG", "4-1n"]]}
    [line] = events.tell([event], NAMES, narrate=lambda a, s: "")
    assert line == "Phase 7 begins; obsolete, now running as: HG 4-1n"


def test_vii39_a_forced_move_is_told_by_its_own_narration_and_said_to_be_the_only_one():
    [line] = events.tell(
        [{"event": "forced", "seat": 1, "action": {"type": "pass"}}],
        NAMES,
        narrate=lambda action, seat: f"{NAMES[seat]} passes",
    )
    assert line == "ben passes (the only move)"
    bought = {"type": "buy_train", "card": "2", "source": "depot", "price": 100}
    effects = [{"event": "forced", "seat": 1, "action": bought}]
    assert ENGINE.tell_effects(effects, NAMES) == ["ben buys a 2 for $100 (the only move)"]
    assert ENGINE.tell_effects(effects, NAMES, language="de") == [
        "ben kauft den 2-Zug für $100 (der einzige mögliche Zug)"
    ]


def test_surplus_cards_the_round_gives_up_alone_are_told_as_forced_moves():
    state = stock_game("4")
    seat = state["order"][0]
    start_major(state, "MS", 100)
    give(state, "MS", seat, 20, 10, 10, 10, 10)
    state["companies"]["MS"]["trains"] = ["4", "4", "4"]
    state["phase"] = 4
    for stack in ("2", "3", "4"):
        state["depot"][stack] = 0
    state = play_until(state, lambda s: "export" in kinds(s))
    assert rolling_stock.over_limit(state) == []
    lines = said(state)
    assert any(
        line.startswith(f"{NAMES[seat]} gives up 4 of MS") and line.endswith("(the only move)")
        for line in lines
    ), lines


def test_a_stock_round_sale_says_the_price_move_and_the_new_director():
    state = stock_game("4", number=2)
    first, second = state["order"][:2]
    start_major(state, "MS", 100)
    give(state, "MS", first, 20, 10)
    give(state, "MS", second, 10, 10)
    state = ENGINE.apply(state, first, {"type": "sell", "company": "MS", "count": 2})
    lines = said(state)
    assert f"{NAMES[second]} becomes the director of MS (FC de Matanzas a Sabanillas)" in lines
    assert lines[-1] == (
        "MS (FC de Matanzas a Sabanillas): the share price falls from $100 to $90 (2 shares sold)"
    )


def test_an_event_nobody_taught_the_words_is_said_by_its_name():
    assert events.tell([{"event": "new_thing"}], NAMES, narrate=lambda a, s: "") == ["new thing"]


def test_the_log_holds_only_the_latest_moves_events_and_the_view_shows_them():
    state = play(set_2_before_tss(), 1, "run")
    assert ENGINE.view(state, None)["log"] == ENGINE.effects(state)
    after = play(state, 1, "payout")
    assert kinds(after)[0] == "dividend"
    assert "run" not in kinds(after)


@pytest.mark.slow  # random whole games, seconds each
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_event_of_random_games_has_its_words(language):
    """Random whole games: every event recorded is said, in both languages,
    with no placeholder left and no raw kind name."""
    met: set[str] = set()
    for seed, players, options in ((1, 4, {}), (2, 3, {"difficulty": "hard"})):
        rng = random.Random(seed)
        state = ENGINE.setup(players, options, seed)
        while not ENGINE.is_over(state):
            seat = min(ENGINE.to_act(state))
            action = randomgame.choose(rng, ENGINE.legal_actions(state, seat))
            state = ENGINE.apply(state, seat, action)
            effects = ENGINE.effects(state)
            lines = ENGINE.tell_effects(effects, NAMES, language=language)
            assert len(lines) >= len(effects)
            for line in lines:
                assert line and "{" not in line and "}" not in line, line
            met |= {e["event"] for e in effects}
    unmet = set(events.TELLERS) | {"run", "forced"}
    assert unmet - met <= {"bank_broken", "funding", "mail", "director", "cubes", "fc_fee"}
