"""VII.3.6: a major places one station per OR, after its track.

It pays $40, $60, $80 for its first, second and third station beyond the
free home (`tokens.token_cost`), and holds only as many stations as its
treasury allows (`tokens.tokens_available`: two, a third at 30% or less in
the treasury, a fourth when none is left). The station must be reachable
(`tokens.check_token`); FC tokens passed on the way cost $20 each into the
FC's treasury, for the station alone (`turn.pay_fc_passes`). Minors have no stations
beyond their mill. Only stations the company can pay for are listed or
accepted.

Action `{"type": "station", "hex", "city", "fc_passes"}`; its line
"station B11", "station B7 city 1 pass B11" (`STATION`). Not blocking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import N_
from ...verbs import ABSENT, Slot, Verb, line
from ..data.companies import BY_SYM
from ..map import laying, tokens
from ..refusals import WORDS, refuse
from ..rules import cash, shares, turn
from ..words.names import fc_fees, place, printed_name
from ..words.notation import FC_PASSES, HEX

_ = WORDS.gettext

NAME = "place a station"

State = dict[str, Any]
Action = dict[str, Any]


def _may_place(state: State) -> str | None:
    """The operating company when it may still place its station this OR."""
    record = turn.current(state)
    if record is None or not turn.open_at(state, "token") or record["station"]:
        return None
    sym = str(record["company"])
    if BY_SYM[sym].kind != "major":
        return None
    placed = state["companies"][sym]["tokens_placed"]
    treasury = shares.percent(state["certificates"], sym, shares.TREASURY)
    if placed < 1 or placed >= tokens.tokens_available(treasury):
        return None
    return sym


def active(state: State) -> bool:
    # active for the whole turn, so that a late or impossible station is
    # refused with the reason; `legal` offers one only while it may be placed
    return turn.current(state) is not None


def blocking(state: State) -> bool:
    return False


def _cost(state: State, sym: str) -> int:
    return tokens.token_cost(state["companies"][sym]["tokens_placed"] - 1)


def _cash(state: State, sym: str) -> int:
    return int(state["cash"].get(sym, 0))


def legal(state: State, seat: int) -> list[Action]:
    sym = _may_place(state)
    if sym is None or not turn.is_director(state, seat):
        return []
    cost = _cost(state, sym)
    options = tokens.legal_tokens(state["board"], sym, fc_paid=turn.fc_paid(state, "token"))
    return [
        {"type": "station", **o}
        for o in options
        if cost + laying.FC_FEE * len(o["fc_passes"]) <= _cash(state, sym)
    ]


def apply(state: State, seat: int, action: Action) -> None:
    record = turn.current(state)
    if record is None or not turn.open_at(state, "token"):
        raise refuse("a station is placed after the track and before the run")
    sym = str(record["company"])
    if not turn.is_director(state, seat):
        raise refuse("only the director of {sym} places its stations", sym=sym)
    if set(action) != {"type", "hex", "city", "fc_passes"}:
        raise refuse(
            "a station is {example}",
            example='{"type": "station", "hex": "B11", "city": 0, "fc_passes": []}',
        )
    if BY_SYM[sym].kind != "major":
        raise refuse("only major companies place stations beyond their home")
    if record["station"]:
        raise refuse("{sym} has placed its station in this OR already", sym=sym)
    if _may_place(state) is None:
        raise refuse("{sym} has no station token left for its treasury holding", sym=sym)
    coord, city, passes = action["hex"], action["city"], action["fc_passes"]
    fee = tokens.check_token(
        state["board"], sym, coord, city, fc_paid=turn.fc_paid(state, "token"), fc_new=passes
    )
    cost = _cost(state, sym)
    if cost + fee > _cash(state, sym):
        raise refuse(
            "{sym} has ${cash}, not the ${cost} it costs",
            sym=sym,
            cash=_cash(state, sym),
            cost=cost + fee,
        )
    state["cash"] = cash.transfer(state["cash"], sym, cash.BANK, cost)
    turn.pay_fc_passes(state, "token", list(passes))
    state["board"] = tokens.place_token(state["board"], sym, coord, city)
    state["companies"][sym]["tokens_placed"] += 1
    record["station"] = True
    turn.reach(state, "token")


# --- the words of a station ------------------------------------------------------------


def _station_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} places a station in {place}").format(
        who=who, place=place(action["hex"])
    ) + fc_fees(action)


STATION = Verb(
    type="station",
    fields={
        "hex": HEX,
        # the hex's first city is no words
        "city": Slot(
            pattern=r"city \d",
            write=lambda city: f"city {city}" if city and city is not ABSENT else "",
            read=lambda words, state: int(words.split()[1]) if words else 0,
            optional=True,
        ),
        "fc_passes": FC_PASSES,
    },
    lines=line("station {hex} {city} {fc_passes}"),
    usage=(
        (r"station(?: .*)?", N_("write a station as: station <hex> [city <n>] [pass <hex> ...]")),
    ),
    says=_station_says,
    gloss=lambda state, seat, action, names: printed_name(action["hex"]),
    group=N_("Stations"),
)

VERBS = (STATION,)
ACTIONS = frozenset(verb.type for verb in VERBS)
