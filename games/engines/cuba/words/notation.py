"""One-line text forms of lays, stations and routes (for email commands later).

    lay 57 on B9 rot 1            lay 9 on B13 rot 1 pass B11
    lay 57 on B9 rot 1 with C2    (a commissioner's extra lay, IV.1)
    station B11                   station B7 city 1 pass B11 C14
    run B7:e4-s1 B9:e1-s0 B9:e4-s0 B11:e1-s0

``parse_*(text_*(x)) == x`` for every value the ``legal_*`` functions list.
Parsing checks only the form; the rules are checked by ``check_lay`` etc.
"""

from __future__ import annotations

import re
from typing import Any

from ..refusals import refuse

_LAY = re.compile(
    r"^lay\s+(\S+)\s+on\s+([A-Za-z]\d+)\s+rot\s+([0-5])(?:\s+with\s+([Cc][1-6]))?"
    r"((?:\s+pass(?:\s+[A-Za-z]\d+)+)?)$"
)
_STATION = re.compile(
    r"^station\s+([A-Za-z]\d+)(?:\s+city\s+(\d))?((?:\s+pass(?:\s+[A-Za-z]\d+)+)?)$"
)


def _passes_text(passes: list[str]) -> str:
    return f" pass {' '.join(passes)}" if passes else ""


def _passes(group: str) -> list[str]:
    words = group.split()
    return [w.upper() for w in words[1:]] if words else []


def lay_text(lay: dict[str, Any]) -> str:
    text = f"lay {lay['tile']} on {lay['hex']} rot {lay['rotation']}"
    if lay.get("card"):
        text += f" with {lay['card']}"
    return text + _passes_text(lay.get("fc_passes", []))


def parse_lay(text: str) -> dict[str, Any]:
    m = _LAY.match(" ".join(str(text).split()))
    if not m:
        raise refuse(
            "write a lay as: lay <tile> on <hex> rot <0-5> [with <commissioner>] [pass <hex> ...]"
        )
    tile, coord, rot, card, passes = m.groups()
    # tile names are upper case ("L44"); a mail line may not be
    lay = {"hex": coord.upper(), "tile": tile.upper(), "rotation": int(rot)}
    lay["fc_passes"] = _passes(passes)
    if card:
        lay["card"] = card.upper()
    return lay


def token_text(token: dict[str, Any]) -> str:
    city = f" city {token['city']}" if token["city"] else ""
    return f"station {token['hex']}{city}" + _passes_text(token.get("fc_passes", []))


def parse_token(text: str) -> dict[str, Any]:
    m = _STATION.match(" ".join(str(text).split()))
    if not m:
        raise refuse("write a station as: station <hex> [city <n>] [pass <hex> ...]")
    coord, city, passes = m.groups()
    return {"hex": coord.upper(), "city": int(city or 0), "fc_passes": _passes(passes)}


def route_text(paths: list[str]) -> str:
    return "run " + " ".join(paths)


def parse_route(text: str) -> list[str]:
    words = str(text).split()
    if len(words) < 2 or words[0] != "run":
        raise refuse("write a route as: run <track piece> <track piece> ...")
    return words[1:]
