"""VII.3.2: the home station, settled at the start of a company's first turn.

- A major other than the FEC is put on its printed home automatically
  (`auto`): the free station, whether the hex has a tile or not.
- A minor chooses its mill city (`tokens.minor_home_options`): any untiled
  city but Havana, a Y city or another minor's; its mill (the station) is
  put down later with its home tile (`laying.apply_lay`).
- The FEC chooses any empty city slot (`tokens.fec_home_options`); its home
  station is free like every major's.

The step blocks until the home is settled, so nothing else happens in the
turn before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import N_
from ...verbs import ABSENT, Slot, Verb, line
from ..data.companies import BY_SYM
from ..map import tokens
from ..refusals import WORDS, refuse
from ..rules import log, turn
from ..words.names import place, printed_name

_ = WORDS.gettext

NAME = "place the home station"

State = dict[str, Any]
Action = dict[str, Any]


def _unsettled(state: State) -> str | None:
    """The operating company when its home is still to be settled."""
    sym = turn.company(state)
    if sym is None or not turn.open_at(state, "home"):
        return None
    charter = state["companies"][sym]
    if BY_SYM[sym].kind == "minor":
        return sym if charter["home"] is None else None
    return sym if charter["tokens_placed"] == 0 else None


def _chooses(sym: str) -> bool:
    """Does the director choose this home (a minor, the FEC)?"""
    return BY_SYM[sym].home is None


def active(state: State) -> bool:
    sym = _unsettled(state)
    return sym is not None and (not _chooses(sym) or bool(_options(state, sym)))


def blocking(state: State) -> bool:
    return True


def auto(state: State) -> bool:
    """A major's printed home station, free (VII.3.2)."""
    sym = _unsettled(state)
    if sym is None or _chooses(sym):
        return False
    home = BY_SYM[sym].home
    assert home is not None
    state["board"] = tokens.home_token(state["board"], sym, home[0], home[1])
    state["companies"][sym]["tokens_placed"] = 1
    turn.reach(state, "home")
    log.note(state, "home", company=sym, hex=home[0])
    return True


def _options(state: State, sym: str) -> list[Action]:
    board = state["board"]
    if BY_SYM[sym].kind == "minor":
        return [{"type": "home", "hex": c} for c in tokens.minor_home_options(board)]
    return [{"type": "home", **o} for o in tokens.fec_home_options(board)]


def legal(state: State, seat: int) -> list[Action]:
    sym = _unsettled(state)
    if sym is None or not _chooses(sym) or not turn.is_director(state, seat):
        return []
    return _options(state, sym)


def apply(state: State, seat: int, action: Action) -> None:
    sym = _unsettled(state)
    if sym is None or not _chooses(sym):
        raise refuse("no home station is to be chosen now")
    if not turn.is_director(state, seat):
        raise refuse("only the director of {sym} chooses its home", sym=sym)
    minor = BY_SYM[sym].kind == "minor"
    keys = {"type", "hex"} if minor else {"type", "hex", "city"}
    if set(action) != keys:
        example = '"hex": "B9"' if minor else '"hex": "B9", "city": 0'
        raise refuse("a home is {example}", example=f'{{"type": "home", {example}}}')
    city_ok = minor or (isinstance(action["city"], int) and not isinstance(action["city"], bool))
    if not isinstance(action["hex"], str) or not city_ok:
        raise refuse("a home names a hex such as B9 (and for the FEC a city number)")
    if action not in _options(state, sym):
        if minor:
            raise refuse("{sym} cannot choose {hex} as its home", sym=sym, hex=action["hex"])
        raise refuse(
            "{sym} cannot choose {hex} city {city} as its home",
            sym=sym,
            hex=action["hex"],
            city=action["city"],
        )
    coord = action["hex"]
    if minor:
        state["board"] = tokens.choose_minor_home(state["board"], sym, coord)
        state["companies"][sym]["home"] = [coord, 0]
    else:
        city = action["city"]
        state["board"] = tokens.place_token(state["board"], sym, coord, city)
        state["companies"][sym]["home"] = [coord, city]
        state["companies"][sym]["tokens_placed"] = 1
    turn.reach(state, "home")


# --- the words of a home --------------------------------------------------------


def _home_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} places the home station in {place}").format(
        who=who, place=place(action["hex"])
    )


def _fec_city(action: Action, state: State, seat: int) -> Action:
    """The FEC's home without a city is in the hex's first (`home B11`)."""
    sym = _unsettled(state)
    if "city" not in action and sym is not None and BY_SYM[sym].kind != "minor":
        return {**action, "city": 0}
    return action


HOME = Verb(
    type="home",
    fields={
        "hex": Slot(read=lambda word, state: word.upper()),
        # a minor's home is a hex; the FEC's a city in it
        "city": Slot(
            pattern="city [0-9]+",
            write=lambda city: "" if city is ABSENT else f"city {city}",
            read=lambda words, state: int(words.split()[1]) if words else ABSENT,
            optional=True,
        ),
    },
    lines=line("home {hex} {city}"),
    usage=((r"home(?: .*)?", N_("write a home as: home <hex> (the FEC: home <hex> city <n>)")),),
    complete=_fec_city,
    says=_home_says,
    gloss=lambda state, seat, action, names: printed_name(action["hex"]),
    group=N_("Home station"),
)

VERBS = (HOME,)
ACTIONS = frozenset(verb.type for verb in VERBS)
