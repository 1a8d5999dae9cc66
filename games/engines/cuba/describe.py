"""18Cuba in words, for a mail: a seat's view as lines (`describe`), a move
with names (`narrate`), a few words after a cryptic move line (`gloss`) and
the heading a legal move is listed under (`move_group`).

`describe` reads the view alone (`view.py`), and only static data besides
(company, private and hex names), so it can never say more than the view
does. Companies are walked in the printed charter order (`companies.in_game`)
and players in playing order, never in a dict's own order: a view read back
from JSON may hold its keys in another order, and the mail must not change.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from ..base import Action, State
from . import market, trains
from .companies import BY_SYM, in_game
from .hexes import HEXES
from .privates import COMMISSIONER_BY_CARD, CONCESSION_BY_CARD, CONCESSION_VALUE
from .steps.buy_sell_par import DIRECTOR_SHARES, MINOR_START_SHARES

WIDTH = 72
GLOSS_WIDTH = 50
SOURCES = {"ipo": "the IPO", "treasury": "its treasury", "pool": "the bank pool"}
# The depot's stacks as they lie beside the bank (`setup.depot`): a view read
# back from JSON may hold them in any order.
DEPOT_ORDER = (
    *trains.STANDARD_COUNTS,
    *trains.NARROW_COUNTS,
    *(wagon.name for wagon in trains.WAGONS),
    *(f"machine-{m.generation}" for m in trains.MACHINES),
)
ROUND_NAMES = {
    "auction": "Commissioners' auction",
    "concessions": "Concession draft",
    "stock": "Stock round",
    "operating": "Operating round",
}


# --- small namers -------------------------------------------------------


def _who(account: Any, names: Sequence[str]) -> str:
    """A player account ("p1") by the player's name; anything else as is."""
    if isinstance(account, str) and account[:1] == "p" and account[1:].isdigit():
        seat = int(account[1:])
        if 0 <= seat < len(names):
            return names[seat]
    return str(account)


def _company(sym: Any) -> str:
    """ "MS (FC de Matanzas a Sabanillas)", or the bare word if unknown."""
    company = BY_SYM.get(sym) if isinstance(sym, str) else None
    return f"{sym} ({company.name})" if company else str(sym)


def _private(card: Any) -> str:
    """A commissioner or concession by its number and printed name."""
    if card in COMMISSIONER_BY_CARD:
        return f"{card} {COMMISSIONER_BY_CARD[card].name}"
    if card in CONCESSION_BY_CARD:
        return f"{card} {_short(CONCESSION_BY_CARD[card].name)}"
    return str(card)


def _short(name: str) -> str:
    """A concession's holder without the title after the comma."""
    return name.split(",")[0]


# What an unnamed hex is, as the map prints it (cities all have names).
HEX_KINDS = {"sugar": "sugar field", "harbor": "harbor", "blank": "plain"}


def _place(coord: Any) -> str:
    """A hex by its printed name and coordinate: "Havana (B7)"; an unnamed
    one by its kind: "B13 (sugar field)"."""
    h = HEXES.get(coord) if isinstance(coord, str) else None
    if h is None:
        return str(coord)
    if not h.name:
        kind = HEX_KINDS.get(h.kind)
        return f"{coord} ({kind})" if kind else str(coord)
    return f"{h.name} ({coord})"


def _money(amount: Any) -> str:
    return f"${amount}"


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(
        text, WIDTH, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False
    )


def _pack(head: str, items: Sequence[str], sep: str = ", ", indent: str = "    ") -> list[str]:
    """`head` and the items on as few lines as fit, never splitting an item
    ("JU 20%" stays on one line); an item longer than a line is wrapped."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else "")
        joined = f"{line} {piece}" if line.strip() and not line.endswith(" ") else line + piece
        if len(joined) <= WIDTH or line == head:
            line = joined
        else:
            lines.append(line)
            line = indent + piece
    lines.append(line)
    return [part for text in lines for part in _wrap(text, indent)]


def _fit(text: str, width: int = GLOSS_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _counted(items: Sequence[str]) -> str:
    """["2-wagon", "2-wagon", "1-wagon"] -> "2-wagon x2, 1-wagon"."""
    seen: dict[str, int] = {}
    for item in items:
        seen[item] = seen.get(item, 0) + 1
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in seen.items())


# --- describe -----------------------------------------------------------


def describe(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    players = {p["seat"]: p for p in view["players"]}
    limit = view["certificate_limit"]
    if seat is not None and seat in players:
        lines += _me(view, players[seat], names, limit)
    lines += _round(view, names)
    lines += _bank(view)
    lines += _companies(view, names)
    lines += _market(view)
    lines += _map(view)
    lines.append("Players in playing order:" if seat is None else "Others in playing order:")
    for s in view["order"]:
        if s != seat and s in players:
            lines += _player(view, players[s], names, limit)
    return lines


def _holdings(view: dict[str, Any], p: dict[str, Any]) -> list[str]:
    account = f"p{p['seat']}"
    parts = []
    for sym in in_game(p["shares"]):
        percent = sum(p["shares"][sym])
        director = view["companies"].get(sym, {}).get("director") == account
        parts.append(f"{sym} {percent}%" + (" (director)" if director else ""))
    return parts or ["none"]


def _privates(view: dict[str, Any], p: dict[str, Any]) -> list[str]:
    parts = []
    for card in p["privates"]:
        held = view["privates"].get(card, {})
        text = _private(card)
        if held.get("minor"):
            text += f", became {held['minor']}"
        elif held.get("out"):
            text += ", used"
        parts.append(text)
    return parts


def _me(view: dict[str, Any], p: dict[str, Any], names: Sequence[str], limit: int) -> list[str]:
    worth = p["worth"]
    lines = [
        f"You ({names[p['seat']]}): {_money(p['cash'])} cash, "
        f"{p['certificates']} of {limit} certificates",
        *_pack("  Shares:", _holdings(view, p)),
    ]
    if p["privates"]:
        lines += _pack("  Privates:", _privates(view, p), "; ")
    lines.append(f"  Worth {_money(worth['cash'] + worth['shares'])}")
    if view["priority"] == p["seat"]:
        lines.append("  You hold the priority deal card.")
    return lines


def _player(
    view: dict[str, Any], p: dict[str, Any], names: Sequence[str], limit: int
) -> list[str]:
    worth = p["worth"]
    priority = ", priority" if view["priority"] == p["seat"] else ""
    lines = [
        f"{names[p['seat']]}: {_money(p['cash'])} cash, {p['certificates']} of {limit} "
        f"certificates, worth {_money(worth['cash'] + worth['shares'])}{priority}",
        *_pack("  Shares:", _holdings(view, p)),
    ]
    if p["privates"]:
        lines += _pack("  Privates:", _privates(view, p), "; ")
    return lines


def _round(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    r = view["round"]
    kind = r["kind"]
    title = ROUND_NAMES.get(kind, "Round")
    if kind == "operating":
        title += f" {r['number']}.{r['index']} (of {r['of']})"
    elif kind == "stock":
        title += f" {r['number']}"
    lines = [f"{title}, phase {view['phase']}"]
    if view["end"] is not None:
        reason = str(view["end"].get("reason", "")).replace("_", " ")
        return [*lines, f"  The game is over ({reason})." if reason else "  The game is over."]
    steps = r["steps"]
    entity = r["entity"]
    if kind == "auction" and "auction" in steps:
        a = steps["auction"]
        line = f"  Up for auction: {_private(a['card'])}"
        lines += _wrap(line)
        if a.get("bid") is not None:
            leader = _who(f"p{a['leader']}", names)
            lines.append(f"  High bid {_money(a['bid'])} by {leader}")
        if a.get("passed"):
            passed = ", ".join(_who(f"p{s}", names) for s in a["passed"])
            lines += _wrap(f"  Passed: {passed}")
    elif kind == "concessions" and "concessions" in steps:
        turns = steps["concessions"].get("turns", [])
        if turns:
            lines += _wrap("  To choose: " + ", ".join(_who(f"p{s}", names) for s in turns))
    elif kind == "stock" and "stock" in steps:
        sold = steps["stock"].get("sold", {})
        for s in view["order"]:
            syms = in_game(sold.get(f"p{s}", []))
            if syms:
                lines += _wrap(f"  {names[s]} sold {', '.join(syms)} this round (no rebuy)")
    if isinstance(entity, str) and entity in BY_SYM:
        director = view["companies"].get(entity, {}).get("director")
        who = _who(director, names) if director else "nobody"
        lines += _wrap(f"  {_company(entity)} operates; {who} directs")
        turn = steps.get("turn") or {}
        done = _turn_so_far(turn)
        if done:
            lines += _pack("  This turn:", done)
        offer = turn.get("offer")
        if offer:
            seller = view["companies"].get(offer["from"], {}).get("director")
            lines += _wrap(
                f"  Offer: {_money(offer['price'])} for {offer['from']}'s "
                f"{offer['card']}; {_who(seller, names)} accepts or refuses"
            )
        if turn.get("emergency"):
            lines.append("  Emergency financing: the company must buy a train")
    elif isinstance(entity, str):
        lines.append(f"  To act: {_who(entity, names)}")
    return lines


def _turn_so_far(turn: dict[str, Any]) -> list[str]:
    """What the operating company has done this turn, from its record
    (`turn.py`): the record's stage is the latest step acted in, not the
    next move, so the mail says what is done rather than guess what is next."""
    done = []
    if turn.get("issued"):
        done.append("issued or redeemed")
    if turn.get("laid"):
        done.append("laid track")
    if turn.get("station"):
        done.append("placed a station")
    run = turn.get("run")
    if run is not None:
        done.append(f"ran for {_money(run.get('income', 0))}")
    if turn.get("paid") == "payout":
        done.append("paid out")
    elif turn.get("paid") == "retain":
        done.append("kept the income")
    if turn.get("traded_in"):
        done.append("traded in a train")
    return done


def _bank(view: dict[str, Any]) -> list[str]:
    lines = [f"Bank: {_money(view['bank'])}"]
    ending = view.get("ending")
    if ending:
        lines.append(f"  The bank is broken: the game ends after OR set {ending['set']}")
    stacks: dict[str, list[str]] = {}
    for stack in DEPOT_ORDER:
        left = view["depot"].get(stack, 0)
        if left is None or left:
            part, label = _stack(stack)
            count = "unlimited" if left is None else f"x{left}"
            stacks.setdefault(part, []).append(f"{label} {count}")
    for part in ("trains", "narrow trains", "wagons", "machines"):
        if stacks.get(part):
            lines += _wrap(f"  Depot {part}: {', '.join(stacks[part])}", "    ")
    if view["pool_trains"]:
        lines += _wrap(f"  Bank pool trains: {_counted(view['pool_trains'])}")
    return lines


def _stack(stack: str) -> tuple[str, str]:
    """A depot stack's part of the depot and its label ("machine-2" is a
    machine of generation 2, "2n" a narrow train)."""
    if stack.startswith("machine-"):
        return "machines", f"gen {stack.split('-')[1]}"
    if stack.endswith("-wagon"):
        return "wagons", stack
    if stack.endswith("n"):
        return "narrow trains", stack
    return "trains", stack


def _companies(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    lines = ["Companies:"]
    waiting = []
    for sym in in_game(view["companies"]):
        c = view["companies"][sym]
        if c["kind"] == "fc":
            lines += _fc(view, sym, c)
        elif c["par"] is None and c["director"] is None:
            waiting.append(sym)
        else:
            lines += _charter(sym, c, names)
    if waiting:
        lines += _pack("  Not started:", waiting)
    return lines


def _charter(sym: str, c: dict[str, Any], names: Sequence[str]) -> list[str]:
    director = _who(c["director"], names) if c["director"] else "no director"
    state = "floated" if c["floated"] else "not floated"
    lines = _wrap(f"  {sym} {c['name']}: {director}, {state}", "    ")
    price = f"price {_money(c['price'])}" if c["price"] is not None else "no price"
    par = f"par {_money(c['par'])}" if c["par"] is not None else "no par"
    ipo = sum(c["certificates"].get("ipo", []))
    pool = sum(c["certificates"].get("pool", []))
    own = sum(c["certificates"].get("treasury", []))
    held = [f"IPO {ipo}%" if ipo else "", f"pool {pool}%" if pool else ""]
    held.append(f"treasury shares {own}%" if own else "")
    detail = [price, par, f"cash {_money(c['treasury'])}", *(h for h in held if h)]
    lines += _pack("    ", detail)
    rolling = [f"trains {', '.join(c['trains']) or 'none'}"]
    if c["wagons"]:
        rolling.append(f"wagons {_counted(c['wagons'])}")
    if c["kind"] == "minor":
        machines = ", ".join(f"gen {g}" for g in c["machines"])
        rolling.append(f"machines {machines or 'none'}")
        if c["cubes"]:
            rolling.append(f"{c['cubes']} sugar cubes")
    rolling.append(f"stations {c['tokens_placed']}")
    if c["home"]:
        rolling.append(f"home {_place(c['home'][0])}")
    lines += _pack("    ", rolling)
    return lines


def _fc(view: dict[str, Any], sym: str, c: dict[str, Any]) -> list[str]:
    train = view["fc_trains"][-1] if view["fc_trains"] else "1"
    ipo = sum(c["certificates"].get("ipo", []))
    price = f"price {_money(c['price'])}" if c["price"] is not None else "no price"
    parts = [f"{sym} {c['name']}: no director", price, f"runs a {train}-train"]
    if ipo:
        parts.append(f"IPO {ipo}%")
    return _pack("  ", parts)


def _market(view: dict[str, Any]) -> list[str]:
    """Share prices, highest first; at one price, the top marker first."""
    cells = [
        f"{_money(cell['price'])} {' '.join(cell['markers'])}"
        for cell in reversed(view["market"])
        if cell["markers"]
    ]
    return _pack("Market:", cells or ["no markers yet"], "; ", "  ")


def _map(view: dict[str, Any]) -> list[str]:
    """Only the hexes that changed: a tile laid or a station placed."""
    entries = []
    for h in view["map"]["hexes"]:
        if not h["in_play"] or h["edge"]:
            continue
        stations = [t for s in h["stops"] for t in s.get("tokens", [])]
        if h["tile"] is None and not stations:
            continue
        place = f"{h['name']} {h['hex']}" if h["name"] else h["hex"]
        parts = [place]
        if h["tile"] is not None:
            parts.append(f"tile {h['tile']}/{h['rotation']}")
        if stations:
            parts.append(" ".join(stations))
        entries.append(" ".join(parts))
    if not entries:
        return ["Map: no track laid yet"]
    return ["Map (tile/rotation, stations):", *_pack("  ", entries, "; ", "  ")]


# --- narrate ------------------------------------------------------------


def narrate(action: Action, seat: int, names: Sequence[str]) -> str:
    who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    kind = action.get("type") if isinstance(action, dict) else None
    get = action.get if isinstance(action, dict) else (lambda _k, _d=None: None)
    says = {
        "pass": lambda: "passes",
        "bid": lambda: f"bids {_money(get('amount'))} for {_private(get('card'))}",
        "choose": lambda: f"chooses concession {_private(get('card'))}",
        "sell": lambda: f"sells {_shares(get('count'))} of {_company(get('company'))}",
        "buy": lambda: (
            f"buys a share of {_company(get('company'))} "
            f"from {SOURCES.get(str(get('source')), 'the market')}"
        ),
        "par": lambda: f"pars {_company(get('company'))} at {_money(get('price'))}",
        "convert": lambda: (
            f"converts {_private(get('card'))} into {_company(get('company'))} "
            f"at {_money(get('price'))}"
        ),
        "assign": lambda: f"assigns {_private(get('card'))} to {_company(get('company'))}",
        "home": lambda: f"places the home station in {_place(get('hex'))}",
        "issue": lambda: "issues a share from the treasury",
        "redeem": lambda: "redeems a share into the treasury",
        "lay": lambda: _lay_words(action),
        "station": lambda: f"places a station in {_place(get('hex'))}" + _fc_fees(action),
        "run": lambda: "runs the best routes" if get("routes") is None else "runs own routes",
        "payout": lambda: "pays the income out",
        "retain": lambda: "keeps the income in the treasury",
        "buy_train": lambda: (
            f"buys a {get('card')}"
            + (" from the bank pool" if get("source") == "pool" else "")
            + (f" for {_money(get('price'))}" if get("price") is not None else "")
        ),
        "trade": lambda: f"trades in for a {get('card')}",
        "offer": lambda: (
            f"offers {_money(get('price'))} for {_company(get('from'))}'s {get('card')}"
        ),
        "accept": lambda: "accepts the offer",
        "refuse": lambda: "refuses the offer",
        "contribute": lambda: f"contributes {_money(get('amount'))} to the train",
        "emergency_issue": lambda: "issues shares in an emergency",
        "emergency_sell": lambda: (
            f"sells {_shares(get('count'))} of {_company(get('company'))} in an emergency"
        ),
        "bankrupt": lambda: "goes bankrupt",
        "buy_machine": lambda: f"buys a generation {get('generation')} sugar mill machine",
    }
    try:
        return f"{who} {says[str(kind)]()}"
    except Exception:
        return f"{who} makes a move ({str(kind or 'move').replace('_', ' ')})"


def _shares(count: Any) -> str:
    return "1 share" if count == 1 else f"{count} shares"


def _lay_words(action: Action) -> str:
    text = f"lays tile {action['tile']} in {_place(action['hex'])}, rotation {action['rotation']}"
    if action.get("card"):
        text += f", with {_private(action['card'])}"
    return text + _fc_fees(action)


def _fc_fees(action: Action) -> str:
    passes = action.get("fc_passes") or []
    return f", passing the FC in {' '.join(passes)}" if passes else ""


# --- gloss and move_group -----------------------------------------------


def gloss(state: State, seat: int, action: Action) -> str | None:
    kind = action.get("type")
    sym = str(action.get("company"))
    name = BY_SYM[sym].name if sym in BY_SYM else None
    if kind == "lay":
        h = HEXES.get(action["hex"])
        # the line already names the hex: say what it is
        kind = HEX_KINDS.get(h.kind, "") if h is not None else ""
        where = h.name if h is not None and h.name else kind.capitalize() or action["hex"]
        text = f"{where}: tile {action['tile']}, rotation {action['rotation']}"
        if action.get("card"):
            text += f", by {action['card']}"
        return _fit(text)
    if kind in ("station", "home"):
        h = HEXES.get(action["hex"])
        return h.name if h is not None and h.name else None
    if kind == "par" and name:
        # the director's certificate is two shares at the par price
        return _fit(f"{name}: pay {_money(DIRECTOR_SHARES * action['price'])}")
    if kind == "convert" and name:
        # the concession pays its value towards the minor's first three shares
        due = max(0, MINOR_START_SHARES * action["price"] - CONCESSION_VALUE)
        return _fit(f"{name}: pay {_money(due)}")
    if kind in ("buy", "sell", "emergency_sell") and name:
        ipo = action.get("source") == "ipo"
        price = _share_price(state, sym, "par" if ipo else "price")
        if price is None:
            price = _share_price(state, sym, "price")
        return _fit(f"{name}: {_money(price)} a share" if price is not None else name)
    if kind == "assign" and name:
        return _fit(f"{_private(action['card'])} to {sym}")
    if kind in ("bid", "choose"):
        return _fit(_private(action["card"]))
    if kind in ("buy_train", "trade") and isinstance(action.get("price"), int):
        source = "bank pool" if action.get("source") == "pool" else "depot"
        return _fit(f"{action['card']} from the {source} for {_money(action['price'])}")
    if kind == "offer":
        return _fit(BY_SYM[action["from"]].name) if action.get("from") in BY_SYM else None
    return None


def _share_price(state: State, sym: str, which: str) -> int | None:
    cell = state["companies"].get(sym, {}).get(which)
    return None if cell is None else market.CELLS[cell].price


# Headings in the order a mail lists them; a move with none goes last.
_GROUPS = {
    "bid": "Bids",
    "choose": "Concessions",
    "convert": "Convert a concession",
    "assign": "Assign an ability",
    "home": "Home station",
    "issue": "Issue or redeem",
    "redeem": "Issue or redeem",
    "station": "Stations",
    "run": "Run",
    "payout": "Income",
    "retain": "Income",
    "buy_train": "Trains",
    "trade": "Trains",
    "offer": "Trains",
    "accept": "Offer",
    "refuse": "Offer",
    "buy_machine": "Machines",
    "contribute": "Emergency",
    "emergency_issue": "Emergency",
    "emergency_sell": "Emergency",
    "bankrupt": "Emergency",
    "pass": "Pass",
}


def move_group(state: State, seat: int, action: Action) -> str | None:
    """Track by hex, shares by company and kind: a stock round lists dozens
    of par prices and a track step hundreds of lays."""
    kind = action.get("type")
    if kind == "lay":
        return f"Track: {_place(action['hex'])}"
    if kind == "par":
        return f"Par {_company(action['company'])}"
    if kind in ("buy", "sell"):
        return "Buy shares" if kind == "buy" else "Sell shares"
    return _GROUPS.get(str(kind))
