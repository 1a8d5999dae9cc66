"""The Estates in words for a mail: a seat's view, a move, a legal move's gloss.

``describe`` reads the view alone, so it can show nothing the view hides:
other seats' cheques and stashes stay "hidden" until the game is over.
Cubes are named by their company and pips ("sienna 5"), the companies by
the names in data.json with their colour once, beside the certificates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import Words
from .board import requirement
from .data import CUBE_COMPANY, CUBE_VALUE, DATA, ROWS, parse_lot
from .pieces import display_slot, mayor_moves

_ = Words("estates").gettext

View = dict[str, Any]
State = dict[str, Any]
Action = dict[str, Any]

WIDTH = 72
ROMAN = {1: "I", 2: "II", 3: "III"}
COLOURS: dict[str, str] = DATA["company_colours"]
SPECIAL_NAMES = {
    "permit1": "permit I",
    "permit2": "permit II",
    "permit3": "permit III",
    "cancel": "cancel cube",
    "mayor": "mayor",
}
ENDED = {
    "two_rows_complete": "two rows complete",
    "no_numbered_roof": "no numbered roof left",
    "nothing_to_build": "nothing left to build",
    "nothing_to_choose": "nothing left to choose",
    "two_round_wins": "two round wins",
    "resignation": "resignation",
}


def cube_name(cube: str) -> str:
    """ "sienna-5" -> "sienna 5"."""
    return f"{CUBE_COMPANY[cube]} {CUBE_VALUE[cube]}"


def piece_name(piece: dict[str, Any]) -> str:
    """A piece in an auction or the last turn, as the table calls it."""
    kind = piece.get("kind")
    if kind == "cube" and "cube" in piece:
        return f"the {cube_name(piece['cube'])} cube"
    if kind == "roof":
        value = piece.get("value")
        return "a roof" if value is None else f"roof {value}" if value else "a blank roof"
    if kind == "permit":
        return f"permit {ROMAN.get(piece.get('value', 0), '?')}"
    if kind == "cancel":
        return "the cancel cube"
    if kind == "mayor":
        return "the mayor"
    return "the piece"


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "nobody"


def _wrap(head: str, items: Sequence[str], sep: str = ", ", indent: str = "  ") -> list[str]:
    """``head`` then the items, over as many lines of WIDTH as they need."""
    lines: list[str] = []
    line = head
    for n, item in enumerate(items):
        piece = item + (sep.rstrip() if n < len(items) - 1 else "")
        candidate = f"{line} {piece}" if line.strip() else line + piece
        if len(candidate) > WIDTH and line.strip():
            lines.append(line)
            candidate = indent + piece
        line = candidate
    lines.append(line)
    return lines


def _signed(change: int) -> str:
    return f"+{change}" if change > 0 else str(change)


# -- describe --------------------------------------------------------------


def _mine(view: View, seat: int | None, names: Sequence[str]) -> list[str]:
    you = view.get("you")
    if seat is None or not you:
        return [_("You watch: every player's cheques are hidden.")]
    who = names[seat]
    stash = you["stash"]
    lines = [f"{who} (you): {you['cheques']} cheques in hand, {stash} stashed"]
    held = _certificates(view, seat)
    lines += _wrap("Your certificates:", held) if held else ["Your certificates: none yet"]
    return lines


def _certificates(view: View, seat: int) -> list[str]:
    return [
        f"{company} ({COLOURS[company]})"
        for company, holder in view["certificates"].items()
        if holder == seat
    ]


def _building(lot: dict[str, Any], names: Sequence[str], view: View) -> str:
    floors = "/".join(cube_name(c) for c in lot["floors"])
    roof = "no roof" if lot["roof"] is None else f"roof {lot['roof']}"
    holder = view["certificates"].get(CUBE_COMPANY[lot["floors"][-1]])
    owner = names[holder] if holder is not None else "no owner"
    return f"{lot['lot']} {floors} {roof} ({owner})"


def _row(row: dict[str, Any], names: Sequence[str], view: View) -> list[str]:
    head = f"Row {row['row']}: {row['developed']} of {row['requirement']} lots built"
    if row["complete"]:
        head += ", complete"
    if row["mayor"]:
        head += ", mayor (x2)"
    lines = [head]
    if row["permits"]:
        permits = ", ".join(f"{ROMAN[abs(p)]} {_signed(p)}" for p in row["permits"])
        word = "permit" if len(row["permits"]) == 1 else "permits"
        lines.append(f"  {word} {permits} on {row['permit_lot']}")
    built = [_building(lot, names, view) for lot in row["lots"] if lot["floors"]]
    lines += _wrap("  ", built, sep="; ", indent="    ") if built else []
    singles = [
        lot["lot"] for lot in row["lots"] if lot["single"] and lot["in_play"] and not lot["floors"]
    ]
    if singles:
        lines.append(f"  one floor only: {', '.join(singles)}")
    return lines


def _board(view: View, names: Sequence[str]) -> list[str]:
    lines = ["Board (floors bottom up; owner of the top floor in brackets):"]
    for row in view["board"]:
        lines += _row(row, names, view)
    return lines


def _supply(view: View) -> list[str]:
    lines = ["Display (auction a cube from either end):"]
    for n, row in enumerate(view["display"], start=1):
        cubes = [cube_name(c) for c in row]
        lines += _wrap(f"  row{n}:", cubes, indent="        ") if cubes else [f"  row{n}: empty"]
    if not any(view["display"]):
        lines = ["Display: no cubes left"]
    left, numbered = view["roofs_left"], view["numbered_roofs_left"]
    roofs = f"Roofs: {left} face down" if left else "Roofs: none left"
    if left != numbered:
        roofs += f", {numbered} numbered and {left - numbered} blank"
    if view["blank_roofs_discarded"]:
        roofs += f"; {view['blank_roofs_discarded']} blank turned over"
    lines.append(roofs)
    status = view["specials"]
    supply = [SPECIAL_NAMES[k] for k, v in status.items() if v == "supply"]
    gone = [SPECIAL_NAMES[k] for k, v in status.items() if v == "gone"]
    lines += _wrap("Specials in the supply:", supply) if supply else []
    if view["mayor"] is not None and mayor_moves(view["edition"]):
        lines.append(f"The mayor stands at row {view['mayor']} (up for auction too)")
    elif view["mayor"] is not None:
        lines.append(f"The mayor stands at row {view['mayor']}")
    lines += _wrap("Out of the game:", gone) if gone else []
    return lines


def _auction(view: View, names: Sequence[str]) -> list[str]:
    auction = view["auction"]
    if auction is None:
        return []
    auctioneer = _name(names, auction["auctioneer"])
    lines = [f"Auction: {auctioneer} auctions {piece_name(auction['piece'])}"]
    bids = [
        f"{_name(names, s)} {'passed' if amount is None else amount}"
        for s, amount in auction["bids"]
    ]
    if bids:
        lines += _wrap("  bids:", bids)
    if auction["high_bidder"] is not None:
        lines.append(f"  high bid {auction['high']} by {_name(names, auction['high_bidder'])}")
    waiting = [_name(names, s) for s in auction["waiting_for"]]
    if waiting:
        lines += _wrap("  still to bid:", waiting)
    phase = view["phase"]
    if phase == "resolve":
        high = _name(names, auction["high_bidder"])
        lines.append(f"  {auctioneer} decides: give to {high} or keep")
    elif phase == "place":
        lines.append(f"  {_name(names, view['recipient'])} now places it")
    return lines


def _last(view: View, names: Sequence[str]) -> list[str]:
    last = view.get("last")
    if not last:
        return []
    if last.get("blank_roof"):
        return [f"Last turn: {_name(names, last.get('seat'))} turned over a blank roof"]
    who = _name(names, last.get("auctioneer"))
    text = f"Last turn: {who} auctioned {piece_name(last.get('piece', {}))}"
    bids = [b for b in last.get("bids", []) if b[1] is not None]
    if bids:
        seat, amount = bids[-1]
        verb = "gave it to" if last.get("decision") == "give" else "kept it over"
        text += f"; {verb} {_name(names, seat)} at {amount}"
    else:
        text += "; nobody bid"
    used = last.get("used", {})
    recipient = _name(names, last.get("recipient"))
    return _wrap(text + ";", [f"{recipient} {_use(used)}"], indent="  ")


def _use(used: Action) -> str:
    kind = used.get("type")
    if kind == "place":
        return f"placed it on {used.get('lot')}"
    if kind == "cancel":
        return f"cancelled permit {ROMAN.get(used.get('permit', 0), '?')}"
    if kind == "mayor":
        return f"put the mayor at row {used.get('row')}"
    if kind == "house":
        return "had left; the house used it"
    return "discarded it"


def _opponents(view: View, seat: int | None, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    cheques = view.get("cheques")
    for other in range(view["players"]):
        if other == seat:
            continue
        who = names[other]
        money = "cheques hidden" if cheques is None else f"{cheques[other]} cheques"
        if other in view["resigned"]:
            money += ", left the game"
        lines.append(f"{who}: {money}")
        held = _certificates(view, other)
        lines += _wrap("  certificates:", held) if held else ["  certificates: none"]
    free = [f"{c} ({COLOURS[c]})" for c, h in view["certificates"].items() if h is None]
    lines += _wrap("Nobody holds:", free) if free else []
    return lines


def _rounds(view: View, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    for scored in view["round_results"]:
        scores = [f"{names[s]} {scored['scores'][s]}" for s in range(view["players"])]
        lines += _wrap(f"Round {scored['round']} scores:", scores)
        winners = ", ".join(names[s] for s in scored["winners"])
        lines.append(f"  won by {winners} ({scored['reason']})")
    return lines


def _result(view: View, names: Sequence[str]) -> list[str]:
    result = view.get("result")
    if not result:
        return []
    order = sorted(range(view["players"]), key=lambda s: (result["places"][s], s))
    final = [f"{result['places'][s]}. {names[s]} {result['scores'][s]}" for s in order]
    winners = " and ".join(names[s] for s in result["winners"])
    return [
        f"Game over ({ENDED.get(result['ended_by'], 'ended')}): {winners} won",
        *_wrap("Final:", final),
    ]


def _now(view: View, names: Sequence[str]) -> list[str]:
    phase = view["phase"]
    acting = ", ".join(_name(names, s) for s in view["to_act"])
    doing = {
        "start": "chooses a piece to auction",
        "bid": "bids or passes",
        "resolve": "gives or keeps",
        "place": "places the piece",
    }
    # Once over, the result's lines say so.
    return [f"Now: {acting} {doing[phase]}"] if phase in doing else []


def describe(view: View, seat: int | None, names: Sequence[str]) -> list[str]:
    head = f"{view['title']}, round {view['round']} of {view['rounds']}"
    lines = [head, *_mine(view, seat, names), *_now(view, names)]
    lines += _result(view, names)
    lines += _auction(view, names)
    lines += _last(view, names)
    lines += _board(view, names)
    lines += _supply(view)
    lines += _opponents(view, seat, names)
    lines += _rounds(view, names)
    return lines


# -- narrate ----------------------------------------------------------------


def _choice(action: Action) -> str:
    piece = action.get("piece")
    if piece == "cube":
        slot = display_slot(action.get("at"))
        if slot is None:
            return "a cube"
        end = "left" if slot[1] == 0 else "right"
        return f"the display row {slot[0] + 1} {end}-end cube"
    if piece == "roof":
        return "a roof"
    return f"the {SPECIAL_NAMES.get(str(piece), 'piece')}"


def narrate(action: Action, seat: int, names: Sequence[str]) -> str:
    who = _name(names, seat)
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "auction":
        # Only the seat's own form holds the stash; the public form never does.
        stash = "stashes a cheque, " if action.get("stash") else ""
        return f"{who} {stash}auctions {_choice(action)}"
    if kind == "bid":
        return f"{who} bids {action.get('amount')}"
    if kind == "pass":
        return f"{who} passes"
    if kind == "give":
        return f"{who} gives the piece to the high bidder"
    if kind == "keep":
        return f"{who} keeps the piece and pays the high bidder"
    if kind == "place":
        return f"{who} places it on lot {action.get('lot')}"
    if kind == "cancel":
        return f"{who} cancels permit {ROMAN.get(action.get('permit', 0), '?')}"
    if kind == "mayor":
        return f"{who} puts the mayor at row {action.get('row')}"
    if kind == "discard":
        return f"{who} discards the piece"
    return f"{who} moves"


# -- gloss ------------------------------------------------------------------


def _auction_gloss(state: State, action: Action) -> str | None:
    piece = action.get("piece")
    if piece == "cube":
        slot = display_slot(action.get("at"))
        if slot is None or not state["display"][slot[0]]:
            return None
        cube = state["display"][slot[0]][slot[1]]
        return f"{cube_name(cube)} cube ({COLOURS[CUBE_COMPANY[cube]]})"
    if piece == "roof":
        left = len(state["roofs"])
        numbered = sum(1 for v in state["roofs"] if v)
        blank = f", {left - numbered} blank" if left != numbered else ""
        return f"a face-down roof ({left} left{blank})"
    if piece == "cancel":
        return "cancel cube: removes a placed permit"
    if piece == "mayor":
        return "mayor: doubles one row's score"
    if isinstance(piece, str) and piece in SPECIAL_NAMES:
        value = int(piece[-1])
        lots = "1 lot" if value == 1 else f"{value} lots"
        return f"{SPECIAL_NAMES[piece]}: a row {lots} longer or shorter"
    return None


def _placing(state: State) -> dict[str, Any]:
    return state["auction"]["piece"] if state.get("auction") else {}


def _place_gloss(state: State, action: Action) -> str | None:
    where = parse_lot(action.get("lot"))
    if where is None:
        return None
    r, n = where
    row = state["board"][r]
    piece = _placing(state)
    kind = piece.get("kind")
    if kind == "cube":
        below = row["floors"][n]
        on = f" on {cube_name(below[-1])}" if below else ": new building"
        return f"{cube_name(piece['cube'])}{on}"
    if kind == "roof":
        floors, roof = row["floors"][n], piece.get("value") or 0
        worth = sum(CUBE_VALUE[c] for c in floors) + roof
        height = f" ({len(floors)} floors)" if len(floors) > 1 else ""
        return f"roof {roof} on {cube_name(floors[-1])}{height}: worth {worth}"
    if kind == "permit":
        return f"row {ROWS[r]}: {requirement(row)} -> {n} lots"
    return None


def gloss(state: State, seat: int, action: Action) -> str | None:
    kind = action.get("type")
    if kind == "auction":
        return _auction_gloss(state, action)
    auction = state.get("auction")
    if auction is None:
        return None
    piece = piece_name(auction["piece"])
    if kind == "bid":
        if auction["high_bidder"] is None:
            return f"first bid for {piece}"
        return f"for {piece}, over {auction['high']}"
    if kind == "pass":
        return f"no bid for {piece}"
    if kind in ("give", "keep"):
        price = auction["high"]
        if kind == "give":
            return f"sell {piece} for {price}"
        return f"pay {price}, keep {piece}"
    if kind == "place":
        return _place_gloss(state, action)
    if kind == "cancel":
        for r, row in enumerate(state["board"]):
            for change in row["permits"]:
                if abs(change) == action.get("permit"):
                    return f"row {ROWS[r]}: {requirement(row)} -> {requirement(row) - change} lots"
        return None
    if kind == "mayor":
        row = action.get("row")
        mayor = state.get("mayor")
        if mayor is not None:
            return f"mayor from row {ROWS[mayor]} to row {row}: x2"
        return f"row {row} scores double"
    if kind == "discard":
        return f"{piece} leaves the game" if auction["piece"].get("kind") != "cube" else None
    return None
