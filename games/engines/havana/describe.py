"""Havana in words for a mail: the table as a seat sees it, and the names
of the things on it (a move's words, in ``moves.py``, name them so too).

Cards are named as printed, value first ("2 Protection"); where two cards
share a value the code a player types follows in brackets ("2 Protection
(2p)").  The 2009 building tiles carry no printed names, so a building is its
id as a move's line writes it (B9) with its VP and cost.  Players are named,
with their seat number where a move's line needs it ("bob (seat 1)").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import N_, Words
from . import data
from .order import number

_words = Words("havana")
_ = _words.gettext
ngettext = _words.ngettext
pgettext = _words.pgettext


WIDTH = 72
PHASES = {
    "choose": N_("everyone chooses two cards face down"),
    "replace": N_("everyone picks a new card face down"),
    "actions": N_("actions and buying"),
    "over": N_("game over"),
}
# The cubes by the colour a command names them with.
COLOURS = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "blue": N_("blue"),
    "brown": N_("brown"),
    "gray": N_("gray"),
}
# The action cards as cards.json prints them (the English edition).  A
# language keeps a name unless the German edition's name is sourced in
# docs/sources/gamedata/havana.json (see README.md, "German").
CARD_NAMES = (
    N_("Siesta"),
    N_("Refreshment"),
    N_("Protection"),
    N_("Debris"),
    N_("Conservation"),
    N_("Tax Collector"),
    N_("Worker"),
    N_("Architect"),
    N_("Pesos Thief"),
    N_("Materials Thief"),
    N_("Black Market"),
    N_("Pesos"),
    N_("Mama"),
)


# --- names of things ---------------------------------------------------------


def card_name(code: str) -> str:
    info = data.CARD_BY_CODE.get(code)
    return _(info["name"]) if info else _("card {code}").format(code=code)


def face(code: str) -> str:
    """A card as printed, value first, without its code: "3 Tax Collector"."""
    return f"{data.CARD_BY_CODE[code]['value']} {card_name(code)}"


def card(code: str) -> str:
    """A card as printed, "0 Siesta", with the code after it when the value
    alone does not say which card: "2 Protection (2p)"."""
    if code not in data.CARD_BY_CODE:
        return card_name(code)
    label = face(code)
    return label if code == str(data.CARD_BY_CODE[code]["value"]) else f"{label} ({code})"


def cards(codes: Sequence[str]) -> str:
    return ", ".join(card(c) for c in codes) if codes else _("none")


def colour(name: str) -> str:
    return _(COLOURS[name]) if name in COLOURS else name


def amount(field: str, n: int) -> str:
    if field == "any_colored":
        return _("{count} of any colour").format(count=n)
    if field == "workers":
        return ngettext("{count} worker", "{count} workers", n).format(count=n)
    if field == "pesos":
        return ngettext("{count} peso", "{count} pesos", n).format(count=n)
    return f"{n} {colour(field)}"


def cost(fields: dict[str, int]) -> str:
    """A cost in the data's field order: 1 red, 2 gray, 1 worker."""
    parts = [amount(f, fields[f]) for f in data.ALL_COST_FIELDS if fields.get(f)]
    return ", ".join(parts) if parts else _("nothing")


def short_cost(fields: dict[str, int]) -> str:
    """The cost squeezed for a gloss: 1 red 2 gray 1 wk 3 $."""
    short = {
        "workers": pgettext("short for workers", "wk"),
        "pesos": pgettext("short for pesos", "$"),
        "any_colored": pgettext("short for any colour", "any"),
    }
    parts = [
        f"{fields[f]} {short.get(f) or colour(f)}" for f in data.ALL_COST_FIELDS if fields.get(f)
    ]
    return " ".join(parts)


def cubes(counts: dict[str, int]) -> str:
    parts = [f"{counts[c]} {colour(c)}" for c in data.CUBES if counts.get(c)]
    return ", ".join(parts) if parts else _("no cubes")


def cube_list(colours: Sequence[str]) -> str:
    return cubes({c: list(colours).count(c) for c in data.CUBES})


def vp(count: int) -> str:
    """Victory points after a number: "4 VP"."""
    return _("{count} VP").format(count=count)


def building_parts(bid: int, table: dict[str, Any]) -> tuple[str, list[str]]:
    """The head and cost parts of a building: ("B9 2 VP:", ["1 yellow", ...]),
    with "needs Architect" last when it does."""
    info = table.get(str(bid))
    if info is None:
        return f"B{bid}", []
    fields = info["cost"]
    parts = [amount(f, fields[f]) for f in data.ALL_COST_FIELDS if fields.get(f)]
    needs = [_("needs Architect")] if info["architect"] else []
    return f"B{bid} {vp(info['vp'])}:", parts + needs


def building(bid: int, table: dict[str, Any]) -> str:
    """A building on one line: B9 2 VP: 1 yellow, 1 worker, 2 pesos."""
    head, parts = building_parts(bid, table)
    return " ".join([head, ", ".join(parts)]) if parts else head


def who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return str(names[seat])
    return _("seat {seat}").format(seat=seat)


def both(names: Sequence[str]) -> str:
    """Names joined as a sentence says them: "Sarah and Tobias"."""
    joined = names[0]
    for name in names[1:]:
        joined = _("{left} and {right}").format(left=joined, right=name)
    return joined


# --- layout ------------------------------------------------------------------


def wrap(head: str, items: Sequence[str], indent: str = "  ") -> list[str]:
    """`head` then the items joined by commas, continued on indented lines."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > WIDTH and line.strip():
            lines.append(line)
            line = indent + "  " + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return lines


def _seat_lines(view: dict[str, Any], index: int, names: Sequence[str], mine: bool) -> list[str]:
    seat = view["seats"][index]
    name = who(names, index)
    if mine:
        head = _("You, {name} (seat {seat})").format(name=name, seat=index)
    else:
        head = _("{name} (seat {seat})").format(name=name, seat=index)
    if seat["resigned"]:
        return [_("{head}: resigned; {vp} VP, buildings stay").format(head=head, vp=seat["vp"])]
    pesos, workers = amount("pesos", seat["pesos"]), amount("workers", seat["workers"])
    lines = [
        _("{head}: {vp} VP, {pesos}, {workers}").format(
            head=head, vp=seat["vp"], pesos=pesos, workers=workers
        )
    ]
    lines += wrap("  " + _("Cubes:"), [cubes(seat["cubes"])])
    table = view["buildings"]
    built = [f"B{b} ({vp(table[str(b)]['vp'])})" for b in seat["buildings"] if str(b) in table]
    lines += wrap("  " + _("Buildings:"), built or [_("none")])
    if seat["cards"]:
        shown = number(seat["cards"]) if len(seat["cards"]) == 2 else None
        if shown is None:
            head = _("Face up:")
        else:
            head = _("Face up, number {number}:").format(number=f"{shown:02d}")
        lines += wrap("  " + head, [card(c) for c in seat["cards"]])
    if view["phase"] in ("choose", "replace"):
        lines += _choice_lines(seat, mine)
    if len(seat["hand"]) == len(data.CARDS) and not mine:
        lines.append("  " + _("Hand: all 13 cards"))
    else:
        lines += wrap("  " + _("Hand:"), [card(c) for c in seat["hand"]] or [_("empty")])
    return lines


def _choice_lines(seat: dict[str, Any], mine: bool) -> list[str]:
    choice = seat.get("choice")
    chosen = "  " + _("Chosen, face down:")
    if choice and "cards" in choice:
        return wrap(chosen, [card(c) for c in choice["cards"]])
    if choice and "card" in choice:
        on = _("{card} on {cover}").format(card=card(choice["card"]), cover=card(choice["cover"]))
        return wrap(chosen, [on])
    if seat["chosen"]:
        return ["  " + _("Has chosen, face down")]
    if seat["resigned"]:
        return []
    return ["  " + (_("Still to choose") if not mine else _("You still choose"))]


def _status(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    phase = _(PHASES[view["phase"]]) if view["phase"] in PHASES else view["phase"]
    lines = [
        _("Havana, round {round}: {phase}. Goal: {target} VP").format(
            round=view["round"], phase=phase, target=view["target"]
        )
    ]
    end = view["end"]
    if end is not None:
        winners = [who(names, s) for s in end["winners"]]
        if end["reason"] == "target":
            why = _("reached the target")
        else:
            why = _("most VP, buildings ran out")
        said = both(winners) if winners else _("nobody")
        line = ngettext(
            "Game over: {winners} won ({why}).",
            "Game over: {winners} won ({why}).",
            max(1, len(winners)),
        )
        lines.append(line.format(winners=said, why=why))
        return lines
    order = [who(names, s) for s in view["order"]]
    if order:
        lines += wrap(_("Turn order:"), order)
    current = view["current"]
    if current is not None:
        done = [card(c) for c in view["done"]]
        if view["buying"]:
            lines.append(_("Turn: {name}, buying").format(name=who(names, current)))
        else:
            lines.append(_("Turn: {name}, playing cards").format(name=who(names, current)))
        if done:
            lines += wrap("  " + _("Done:"), done)
    elif view["to_act"]:
        lines += wrap(_("Waiting for:"), [who(names, s) for s in view["to_act"]])
    return lines


def _board(view: dict[str, Any], provisional: bool) -> list[str]:
    table = view["buildings"]
    centre = view["centre"]
    lines = [
        _("Centre: {pesos}; {cubes}").format(
            pesos=amount("pesos", centre["pesos"]), cubes=cubes(centre["cubes"])
        )
    ]
    workers = amount("workers", view["workers_in_supply"])
    lines.append(_("Supply: {workers}").format(workers=workers))
    ends = [bid for row in view["rows"] for bid in (row[:1] + row[-1:]) if row]
    lines.append(_("For sale (row ends):"))
    for bid in dict.fromkeys(ends):
        head, parts = building_parts(bid, table)
        lines += wrap("  " + head, parts)
    if provisional:
        lines.append("  " + _("(Costs are provisional, not the printed ones.)"))
    for n, row in enumerate(view["rows"], 1):
        inside = [f"B{b}" for b in row[1:-1]]
        lines += wrap(_("Row {row} middle:").format(row=n), inside or [_("empty")])
    lines.append(_("Pile: {count} buildings").format(count=view["pile_size"]))
    if view["boxed"]:
        lines += wrap(_("Boxed:"), [f"B{b}" for b in view["boxed"]])
    lines.append(_("Bag: {count} cubes").format(count=view["bag_size"]))
    return lines


def describe(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    provisional = bool(view.get("provisional"))
    lines = _status(view, names)
    count = len(view["seats"])
    me = seat if isinstance(seat, int) and 0 <= seat < count else None
    if me is not None:
        lines += _seat_lines(view, me, names, mine=True)
    lines += _board(view, provisional)
    start = 0 if me is None else me + 1
    for step in range(count):
        other = (start + step) % count
        if other != me:
            lines += _seat_lines(view, other, names, mine=False)
    return lines
