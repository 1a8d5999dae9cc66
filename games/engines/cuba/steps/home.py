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

from typing import Any

from ..data.companies import BY_SYM
from ..map import tokens
from ..refusals import refuse
from ..rules import turn

NAME = "place the home station"
ACTIONS = frozenset({"home"})

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


def text(action: Action) -> str:
    city = action.get("city")
    return f"home {action['hex']}" + (f" city {city}" if city is not None else "")


def parse(words: list[str], state: State, seat: int) -> Action | None:
    sym = _unsettled(state)
    if not words or words[0] != "home" or sym is None:
        return None
    if len(words) == 2 and BY_SYM[sym].kind == "minor":
        return {"type": "home", "hex": words[1].upper()}
    if len(words) == 2:
        return {"type": "home", "hex": words[1].upper(), "city": 0}
    if len(words) == 4 and words[2] == "city" and words[3].isdigit():
        return {"type": "home", "hex": words[1].upper(), "city": int(words[3])}
    raise refuse("write a home as: home <hex> (the FEC: home <hex> city <n>)")
