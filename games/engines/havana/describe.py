"""Havana in words for a mail: the table as a seat sees it, moves with names.

Cards are named as printed, value first ("2 Protection"); where two cards
share a value the code a player types follows in brackets ("2 Protection
(2p)").  The 2009 building tiles carry no printed names, so a building is its
id as the commands write it (B9) with its VP and cost.  Players are named,
with their seat number where a command needs it ("bob (seat 1)").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import State
from . import data
from .buying import open_buildings
from .order import number

Action = dict[str, Any]

WIDTH = 72
GLOSS_WIDTH = 50
PHASES = {
    "choose": "everyone chooses two cards face down",
    "replace": "everyone picks a new card face down",
    "actions": "actions and buying",
    "over": "game over",
}
COST_NAMES = {"workers": ("worker", "workers"), "pesos": ("peso", "pesos")}


# --- names of things ---------------------------------------------------------


def card(code: str) -> str:
    """A card as printed, "0 Siesta", with the code after it when the value
    alone does not say which card: "2 Protection (2p)"."""
    info = data.CARD_BY_CODE.get(code)
    if info is None:
        return f"card {code}"
    label = f"{info['value']} {info['name']}"
    return label if code == str(info["value"]) else f"{label} ({code})"


def card_name(code: str) -> str:
    info = data.CARD_BY_CODE.get(code)
    return info["name"] if info else f"card {code}"


def cards(codes: Sequence[str]) -> str:
    return ", ".join(card(c) for c in codes) if codes else "none"


def amount(field: str, n: int) -> str:
    if field == "any_colored":
        return f"{n} of any colour"
    one, many = COST_NAMES.get(field, (field, field))
    return f"{n} {one if n == 1 else many}"


def cost(fields: dict[str, int]) -> str:
    """A cost in the data's field order: 1 red, 2 gray, 1 worker."""
    parts = [amount(f, fields[f]) for f in data.ALL_COST_FIELDS if fields.get(f)]
    return ", ".join(parts) if parts else "nothing"


def short_cost(fields: dict[str, int]) -> str:
    """The cost squeezed for a gloss: 1 red 2 gray 1 wk 3 $."""
    short = {"workers": "wk", "pesos": "$", "any_colored": "any"}
    parts = [f"{fields[f]} {short.get(f, f)}" for f in data.ALL_COST_FIELDS if fields.get(f)]
    return " ".join(parts)


def cubes(counts: dict[str, int]) -> str:
    parts = [f"{counts[c]} {c}" for c in data.CUBES if counts.get(c)]
    return ", ".join(parts) if parts else "no cubes"


def cube_list(colours: Sequence[str]) -> str:
    return cubes({c: list(colours).count(c) for c in data.CUBES})


def building_parts(bid: int, table: dict[str, Any]) -> tuple[str, list[str]]:
    """The head and cost parts of a building: ("B9 2 VP:", ["1 yellow", ...]),
    with "needs Architect" last when it does."""
    info = table.get(str(bid))
    if info is None:
        return f"B{bid}", []
    fields = info["cost"]
    parts = [amount(f, fields[f]) for f in data.ALL_COST_FIELDS if fields.get(f)]
    return f"B{bid} {info['vp']} VP:", parts + (["needs Architect"] if info["architect"] else [])


def building(bid: int, table: dict[str, Any]) -> str:
    """A building on one line: B9 2 VP: 1 yellow, 1 worker, 2 pesos."""
    head, parts = building_parts(bid, table)
    return " ".join([head, ", ".join(parts)]) if parts else head


def who(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return str(names[seat])
    return f"seat {seat}"


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
    head = f"You, {name} (seat {index})" if mine else f"{name} (seat {index})"
    if seat["resigned"]:
        return [f"{head}: resigned; {seat['vp']} VP, buildings stay"]
    workers = amount("workers", seat["workers"])
    lines = [f"{head}: {seat['vp']} VP, {amount('pesos', seat['pesos'])}, {workers}"]
    lines += wrap("  Cubes:", [cubes(seat["cubes"])])
    table = view["buildings"]
    built = [f"B{b} ({table[str(b)]['vp']} VP)" for b in seat["buildings"] if str(b) in table]
    lines += wrap("  Buildings:", built or ["none"])
    if seat["cards"]:
        shown = number(seat["cards"]) if len(seat["cards"]) == 2 else None
        head = "  Face up:" if shown is None else f"  Face up, number {shown:02d}:"
        lines += wrap(head, [card(c) for c in seat["cards"]])
    if view["phase"] in ("choose", "replace"):
        lines += _choice_lines(seat, mine)
    if len(seat["hand"]) == len(data.CARDS) and not mine:
        lines.append("  Hand: all 13 cards")
    else:
        lines += wrap("  Hand:", [card(c) for c in seat["hand"]] or ["empty"])
    return lines


def _choice_lines(seat: dict[str, Any], mine: bool) -> list[str]:
    choice = seat.get("choice")
    if choice and "cards" in choice:
        return wrap("  Chosen, face down:", [card(c) for c in choice["cards"]])
    if choice and "card" in choice:
        return wrap("  Chosen, face down:", [f"{card(choice['card'])} on {card(choice['cover'])}"])
    if seat["chosen"]:
        return ["  Has chosen, face down"]
    if seat["resigned"]:
        return []
    return ["  Still to choose" if not mine else "  You still choose"]


def _status(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    phase = PHASES.get(view["phase"], view["phase"])
    lines = [f"Havana, round {view['round']}: {phase}. Goal: {view['target']} VP"]
    end = view["end"]
    if end is not None:
        winners = " and ".join(who(names, s) for s in end["winners"]) or "nobody"
        why = "reached the target" if end["reason"] == "target" else "most VP, buildings ran out"
        lines.append(f"Game over: {winners} won ({why}).")
        return lines
    order = [who(names, s) for s in view["order"]]
    if order:
        lines += wrap("Turn order:", order)
    current = view["current"]
    if current is not None:
        done = [card(c) for c in view["done"]]
        step = "buying" if view["buying"] else "playing cards"
        lines.append(f"Turn: {who(names, current)}, {step}")
        if done:
            lines += wrap("  Done:", done)
    elif view["to_act"]:
        lines += wrap("Waiting for:", [who(names, s) for s in view["to_act"]])
    return lines


def _board(view: dict[str, Any], provisional: bool) -> list[str]:
    table = view["buildings"]
    centre = view["centre"]
    lines = [f"Centre: {amount('pesos', centre['pesos'])}; {cubes(centre['cubes'])}"]
    lines.append(f"Supply: {amount('workers', view['workers_in_supply'])}")
    ends = [bid for row in view["rows"] for bid in (row[:1] + row[-1:]) if row]
    lines.append("For sale (row ends):")
    for bid in dict.fromkeys(ends):
        head, parts = building_parts(bid, table)
        lines += wrap("  " + head, parts)
    if provisional:
        lines.append("  (Costs are provisional, not the printed ones.)")
    for n, row in enumerate(view["rows"], 1):
        inside = [f"B{b}" for b in row[1:-1]]
        lines += wrap(f"Row {n} middle:", inside or ["empty"])
    lines.append(f"Pile: {view['pile_size']} buildings")
    if view["boxed"]:
        lines += wrap("Boxed:", [f"B{b}" for b in view["boxed"]])
    lines.append(f"Bag: {view['bag_size']} cubes")
    return lines


def describe(
    view: dict[str, Any], seat: int | None, names: Sequence[str], provisional: bool
) -> list[str]:
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


# --- moves -------------------------------------------------------------------


def _narrate(action: Action, name: str, names: Sequence[str]) -> str:
    kind = action.get("type")
    if kind == "choose":
        if "cards" not in action:
            return f"{name} has chosen cards, face down"
        pair = " and ".join(card(c) for c in action["cards"])
        return f"{name} chooses {pair}"
    if kind == "replace":
        if "card" not in action:
            return f"{name} has chosen a new card, face down"
        return f"{name} plays {card(action['card'])} on {card(action['cover'])}"
    if kind == "skip":
        code = data.CARD_BY_KEY[action["card"]]["code"]
        return f"{name} skips {card(code)}"
    if kind == "refreshment":
        return f"{name} plays 1 Refreshment: a peso from the centre"
    if kind == "debris":
        return f"{name} plays 2 Debris: all gray cubes from the centre"
    if kind == "conserve":
        return f"{name} plays 3 Conservation: B{action['building']} to the box"
    if kind == "tax":
        taken = sorted(action["take"].items(), key=lambda item: int(item[0]))
        parts = [f"{who(names, int(s))}'s {what}" for s, what in taken]
        return f"{name} plays 3 Tax Collector: {', '.join(parts) or 'nobody to tax'}"
    if kind == "worker":
        return f"{name} plays 4 Worker: workers from the supply"
    if kind == "architect":
        return f"{name} plays 4 Architect: a worker from the supply"
    if kind == "steal_pesos":
        if action["victim"] is None:
            return f"{name} plays 5 Pesos Thief: nobody to rob"
        return f"{name} plays 5 Pesos Thief on {who(names, action['victim'])}"
    if kind == "steal_cubes":
        if action["victim"] is None:
            return f"{name} plays 6 Materials Thief: nobody to rob"
        victim = who(names, action["victim"])
        return f"{name} plays 6 Materials Thief: {cube_list(action['cubes'])} from {victim}"
    if kind == "black_market":
        return f"{name} plays 7 Black Market: cubes from the bag"
    if kind == "pesos":
        return f"{name} plays 8 Pesos: half the centre's pesos"
    if kind == "mama":
        return f"{name} plays 9 Mama: {cube_list(action['cubes'])} from the centre"
    if kind == "buy":
        return f"{name} buys B{action['building']} for {cost(action['pay'])}"
    if kind == "end":
        return f"{name} ends the turn"
    raise ValueError(kind)


def narrate(action: Action, seat: int, names: Sequence[str]) -> str:
    name = who(names, seat)
    try:
        return _narrate(action, name, names)
    except (KeyError, TypeError, ValueError, AttributeError):
        # A malformed or unknown action still gets a line, never a crash.
        kind = action.get("type") if isinstance(action, dict) else None
        return f"{name} moves ({kind})" if isinstance(kind, str) else f"{name} moves"


def _fit(text: str) -> str:
    return text if len(text) <= GLOSS_WIDTH else text[: GLOSS_WIDTH - 3] + "..."


def gloss(state: State, seat: int, action: Action, names: Sequence[str] = ()) -> str | None:
    """The card names behind the codes, a building's VP and cost, a result."""
    kind = action.get("type")
    table = state["buildings"]
    if kind == "choose":
        low, high = action["cards"]
        return _fit(f"{card_name(low)} + {card_name(high)}: number {number([low, high]):02d}")
    if kind == "replace":
        kept = [c for c in state["seats"][seat]["cards"] if c != action["cover"]]
        result = number([*kept, action["card"]])
        over = f"{card_name(action['card'])} over {card_name(action['cover'])}"
        return _fit(f"{over}: number {result:02d}")
    if kind == "skip":
        return _fit(f"skip {card(data.CARD_BY_KEY[action['card']]['code'])}")
    if kind == "conserve":
        info = table[str(action["building"])]
        arch = ", Architect" if info["architect"] else ""
        return _fit(f"box it: {info['vp']} VP{arch}; {short_cost(info['cost'])}")
    if kind == "buy":
        info = table[str(action["building"])]
        total = state["seats"][seat]["vp"] + info["vp"]
        return _fit(f"+{info['vp']} VP: you reach {total} of {state['target']}")
    if kind == "tax":
        taken = list(action["take"].values())
        boxed = [w for w in taken if w != "worker"]
        gone = [f"{cube_list(boxed)} boxed"] if boxed else []
        if "worker" in taken:
            gone.append(f"{amount('workers', taken.count('worker'))} to supply")
        return _fit(f"+1 peso; {', '.join(gone) or 'nobody to tax'}")
    if kind == "steal_pesos":
        victim = action["victim"]
        if victim is None:
            return "5 Pesos Thief: nobody can be robbed"
        n = state["seats"][victim]["pesos"] // 2
        return _fit(f"5 Pesos Thief: {amount('pesos', n)} from {who(names, victim)}")
    if kind == "steal_cubes":
        if action["victim"] is None:
            return "6 Materials Thief: nobody can be robbed"
        held = state["seats"][action["victim"]]["cubes"]
        coloured = sum(held[c] for c in data.COLOURED)
        victim = who(names, action["victim"])
        return _fit(f"{victim} has {coloured} coloured, {held['gray']} gray")
    if kind == "mama":
        return "9 Mama: half the centre's cubes"
    if kind == "black_market":
        first = not state["flags"]["black_market"]
        return f"7 Black Market: {'2 cubes' if first else '1 cube'} from the bag"
    if kind == "worker":
        wanted = 1 if state["flags"]["worker"] else 2
        return f"4 Worker: {amount('workers', min(wanted, state['workers']))}"
    if kind == "refreshment":
        return f"1 Refreshment: {amount('pesos', min(1, state['centre']['pesos']))}"
    if kind == "debris":
        return f"2 Debris: {state['centre']['cubes']['gray']} gray from the centre"
    if kind == "architect":
        return f"4 Architect: {amount('workers', min(1, state['workers']))}, build Architect"
    if kind == "pesos":
        half = (state["centre"]["pesos"] + 1) // 2
        return f"8 Pesos: {amount('pesos', half)} from the centre"
    return None


def move_group(state: State, seat: int, action: Action) -> str | None:
    """Buying lists many payment plans: one heading per building."""
    if action.get("type") != "buy":
        return None
    bid = action["building"]
    if bid not in open_buildings(state):
        return None
    return building(bid, state["buildings"])
