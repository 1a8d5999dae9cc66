"""18Cuba's board in a mail's words: a seat's view as lines (`describe`).

A move's words (its line, narration, gloss and heading) are declared by the
step that processes it (`steps/`, a `Verb` each); the names of things both
use are in `names.py`.

`describe` reads the view alone (`words/view.py`), and only static data besides
(company, private and hex names), so it can never say more than the view
does. Companies are walked in the printed charter order (`companies.in_game`)
and players in playing order, never in a dict's own order: a view read back
from JSON may hold its keys in another order, and the mail must not change.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from ...i18n import N_, Words
from ..data import trains
from ..data.companies import BY_SYM, in_game
from .names import card_name as _card
from .names import company as _company
from .names import money as _money
from .names import place as _place
from .names import private as _private
from .names import who as _who

_ = Words("cuba").gettext
ngettext = Words("cuba").ngettext


WIDTH = 72
# The depot's stacks as they lie beside the bank (`setup.depot`): a view read
# back from JSON may hold them in any order.
DEPOT_ORDER = (
    *trains.STANDARD_COUNTS,
    *trains.NARROW_COUNTS,
    *(wagon.name for wagon in trains.WAGONS),
    *(f"machine-{m.generation}" for m in trains.MACHINES),
)
ROUND_NAMES = {
    "auction": N_("Commissioners' auction"),
    "concessions": N_("Concession draft"),
    "stock": N_("Stock round"),
    "operating": N_("Operating round"),
}
# Why the game ended (`state["end"]["reason"]`); an unknown one is shown
# with its underscores as spaces.
END_REASONS = {
    "bank_broken": N_("bank broken"),
    "second_8_exported": N_("second 8 exported"),
    "bankruptcy": N_("bankruptcy"),
}


# --- layout ---------------------------------------------------------------


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
    lines.append(_("Players in playing order:") if seat is None else _("Others in playing order:"))
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
        if director:
            parts.append(_("{company} {percent}% (director)").format(company=sym, percent=percent))
        else:
            parts.append(f"{sym} {percent}%")
    return parts or [_("none")]


def _privates(view: dict[str, Any], p: dict[str, Any]) -> list[str]:
    parts = []
    for card in p["privates"]:
        held = view["privates"].get(card, {})
        text = _private(card)
        if held.get("minor"):
            text = _("{card}, became {company}").format(card=text, company=held["minor"])
        elif held.get("out"):
            text = _("{card}, used").format(card=text)
        parts.append(text)
    return parts


def _me(view: dict[str, Any], p: dict[str, Any], names: Sequence[str], limit: int) -> list[str]:
    worth = p["worth"]
    lines = [
        *_wrap(
            _("You ({name}): {cash} cash, {count} of {limit} certificates").format(
                name=names[p["seat"]],
                cash=_money(p["cash"]),
                count=p["certificates"],
                limit=limit,
            )
        ),
        *_pack(_("  Shares:"), _holdings(view, p)),
    ]
    if p["privates"]:
        lines += _pack(_("  Privates:"), _privates(view, p), "; ")
    lines.append(_("  Worth {amount}").format(amount=_money(worth["cash"] + worth["shares"])))
    if view["priority"] == p["seat"]:
        lines.append(_("  You hold the priority deal card."))
    return lines


def _player(
    view: dict[str, Any], p: dict[str, Any], names: Sequence[str], limit: int
) -> list[str]:
    worth = p["worth"]
    if view["priority"] == p["seat"]:
        head = _("{name}: {cash} cash, {count} of {limit} certificates, worth {worth}, priority")
    else:
        head = _("{name}: {cash} cash, {count} of {limit} certificates, worth {worth}")
    text = head.format(
        name=names[p["seat"]],
        cash=_money(p["cash"]),
        count=p["certificates"],
        limit=limit,
        worth=_money(worth["cash"] + worth["shares"]),
    )
    lines = [*_wrap(text), *_pack(_("  Shares:"), _holdings(view, p))]
    if p["privates"]:
        lines += _pack(_("  Privates:"), _privates(view, p), "; ")
    return lines


def _title(view: dict[str, Any]) -> str:
    """The round's heading: its kind, its number, the phase."""
    r = view["round"]
    kind = r["kind"]
    phase = view["phase"]
    if kind == "operating":
        return _("Operating round {number}.{index} (of {of}), phase {phase}").format(
            number=r["number"], index=r["index"], of=r["of"], phase=phase
        )
    if kind == "stock":
        return _("Stock round {number}, phase {phase}").format(number=r["number"], phase=phase)
    title = _(ROUND_NAMES[kind]) if kind in ROUND_NAMES else _("Round")
    return _("{round}, phase {phase}").format(round=title, phase=phase)


def _ended(end: dict[str, Any], names: Sequence[str]) -> list[str]:
    reason = str(end.get("reason", ""))
    if not reason:
        return [_("  The game is over.")]
    said = _(END_REASONS[reason]) if reason in END_REASONS else reason.replace("_", " ")
    lines = [_("  The game is over ({reason}).").format(reason=said)]
    if isinstance(end.get("bankrupt"), int):
        who = _who(f"p{end['bankrupt']}", names)
        lines += _wrap(_("  {name} went bankrupt and ranks last.").format(name=who))
    return lines


def _round(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    r = view["round"]
    kind = r["kind"]
    lines = [_title(view)]
    if view["end"] is not None:
        return [*lines, *_ended(view["end"], names)]
    steps = r["steps"]
    entity = r["entity"]
    if kind == "auction" and "auction" in steps:
        a = steps["auction"]
        lines += _wrap(_("  Up for auction: {card}").format(card=_private(a["card"])))
        if a.get("bid") is not None:
            leader = _who(f"p{a['leader']}", names)
            lines.append(
                _("  High bid {amount} by {name}").format(amount=_money(a["bid"]), name=leader)
            )
        if a.get("passed"):
            passed = ", ".join(_who(f"p{s}", names) for s in a["passed"])
            lines += _wrap(_("  Passed: {names}").format(names=passed))
    elif kind == "concessions" and "concessions" in steps:
        turns = steps["concessions"].get("turns", [])
        if turns:
            waiting = ", ".join(_who(f"p{s}", names) for s in turns)
            lines += _wrap(_("  To choose: {names}").format(names=waiting))
    elif kind == "stock" and "stock" in steps:
        sold = steps["stock"].get("sold", {})
        for s in view["order"]:
            syms = in_game(sold.get(f"p{s}", []))
            if syms:
                lines += _wrap(
                    _("  {name} sold {companies} this round (no rebuy)").format(
                        name=names[s], companies=", ".join(syms)
                    )
                )
    if isinstance(entity, str) and entity in BY_SYM:
        director = view["companies"].get(entity, {}).get("director")
        who = _who(director, names) if director else _("nobody")
        lines += _wrap(
            _("  {company} operates; {name} directs").format(company=_company(entity), name=who)
        )
        turn = steps.get("turn") or {}
        done = _turn_so_far(turn)
        if done:
            lines += _pack(_("  This turn:"), done)
        offer = turn.get("offer")
        if offer:
            seller = view["companies"].get(offer["from"], {}).get("director")
            lines += _wrap(
                _("  Offer: {price} for {company}'s {card}; {name} accepts or refuses").format(
                    price=_money(offer["price"]),
                    company=offer["from"],
                    card=_card(offer["card"]),
                    name=_who(seller, names),
                )
            )
        if turn.get("emergency"):
            lines.append(_("  Emergency financing: the company must buy a train"))
    elif isinstance(entity, str):
        lines.append(_("  To act: {name}").format(name=_who(entity, names)))
    return lines


def _turn_so_far(turn: dict[str, Any]) -> list[str]:
    """What the operating company has done this turn, from its record
    (`rules/turn.py`): the record's stage is the latest step acted in, not the
    next move, so the mail says what is done rather than guess what is next."""
    done = []
    if turn.get("issued"):
        done.append(_("issued or redeemed"))
    if turn.get("laid"):
        done.append(_("laid track"))
    if turn.get("station"):
        done.append(_("placed a station"))
    run = turn.get("run")
    if run is not None:
        done.append(_("ran for {amount}").format(amount=_money(run.get("income", 0))))
    if turn.get("paid") == "payout":
        done.append(_("paid out"))
    elif turn.get("paid") == "retain":
        done.append(_("kept the income"))
    if turn.get("traded_in"):
        done.append(_("traded in a train"))
    return done


# The depot's parts in the order the mail lists them, each with its line.
DEPOT_PARTS = {
    "trains": N_("  Depot trains: {stacks}"),
    "narrow trains": N_("  Depot narrow trains: {stacks}"),
    "wagons": N_("  Depot wagons: {stacks}"),
    "machines": N_("  Depot machines: {stacks}"),
}


def _bank(view: dict[str, Any]) -> list[str]:
    lines = [_("Bank: {amount}").format(amount=_money(view["bank"]))]
    ending = view.get("ending")
    if ending:
        lines.append(
            _("  The bank is broken: the game ends after OR set {set}").format(set=ending["set"])
        )
    stacks: dict[str, list[str]] = {}
    for stack in DEPOT_ORDER:
        left = view["depot"].get(stack, 0)
        if left is None or left:
            part, label = _stack(stack)
            count = _("unlimited") if left is None else f"x{left}"
            stacks.setdefault(part, []).append(f"{label} {count}")
    for part, line in DEPOT_PARTS.items():
        if stacks.get(part):
            lines += _wrap(_(line).format(stacks=", ".join(stacks[part])), "    ")
    if view["pool_trains"]:
        lines += _wrap(
            _("  Bank pool trains: {trains}").format(trains=_counted(view["pool_trains"]))
        )
    return lines


def _generation(generation: Any) -> str:
    """A sugar mill machine by its generation: "gen 2"."""
    return _("gen {generation}").format(generation=generation)


def _stack(stack: str) -> tuple[str, str]:
    """A depot stack's part of the depot and its label ("machine-2" is a
    machine of generation 2, "2n" a narrow train)."""
    if stack.startswith("machine-"):
        return "machines", _generation(stack.split("-")[1])
    if stack.endswith("-wagon"):
        return "wagons", stack
    if stack.endswith("n"):
        return "narrow trains", stack
    return "trains", stack


def _companies(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    lines = [_("Companies:")]
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
        lines += _pack(_("  Not started:"), waiting)
    return lines


def _price(c: dict[str, Any]) -> str:
    if c["price"] is None:
        return _("no price")
    return _("price {amount}").format(amount=_money(c["price"]))


def _charter(sym: str, c: dict[str, Any], names: Sequence[str]) -> list[str]:
    director = _who(c["director"], names) if c["director"] else _("no director")
    state = _("floated") if c["floated"] else _("not floated")
    lines = _wrap(f"  {sym} {c['name']}: {director}, {state}", "    ")
    par = _("par {amount}").format(amount=_money(c["par"])) if c["par"] is not None else None
    ipo = sum(c["certificates"].get("ipo", []))
    pool = sum(c["certificates"].get("pool", []))
    own = sum(c["certificates"].get("treasury", []))
    detail = [
        _price(c),
        par or _("no par"),
        _("cash {amount}").format(amount=_money(c["treasury"])),
    ]
    if ipo:
        detail.append(_("IPO {percent}%").format(percent=ipo))
    if pool:
        detail.append(_("pool {percent}%").format(percent=pool))
    if own:
        detail.append(_("treasury shares {percent}%").format(percent=own))
    lines += _pack("    ", detail)
    if c["trains"]:
        rolling = [_("trains {trains}").format(trains=", ".join(c["trains"]))]
    else:
        rolling = [_("trains none")]
    if c["wagons"]:
        rolling.append(_("wagons {wagons}").format(wagons=_counted(c["wagons"])))
    if c["kind"] == "minor":
        if c["machines"]:
            machines = ", ".join(_generation(g) for g in c["machines"])
            rolling.append(_("machines {machines}").format(machines=machines))
        else:
            rolling.append(_("machines none"))
        if c["cubes"]:
            rolling.append(
                ngettext("{count} sugar cube", "{count} sugar cubes", c["cubes"]).format(
                    count=c["cubes"]
                )
            )
    rolling.append(_("stations {count}").format(count=c["tokens_placed"]))
    if c["home"]:
        rolling.append(_("home {place}").format(place=_place(c["home"][0])))
    lines += _pack("    ", rolling)
    return lines


def _fc(view: dict[str, Any], sym: str, c: dict[str, Any]) -> list[str]:
    train = view["fc_trains"][-1] if view["fc_trains"] else "1"
    ipo = sum(c["certificates"].get("ipo", []))
    parts = [
        _("{company} {name}: no director").format(company=sym, name=c["name"]),
        _price(c),
        _("runs a {train}-train").format(train=train),
    ]
    if ipo:
        parts.append(_("IPO {percent}%").format(percent=ipo))
    return _pack("  ", parts)


def _market(view: dict[str, Any]) -> list[str]:
    """Share prices, highest first; at one price, the top marker first."""
    cells = [
        f"{_money(cell['price'])} {' '.join(cell['markers'])}"
        for cell in reversed(view["market"])
        if cell["markers"]
    ]
    return _pack(_("Market:"), cells or [_("no markers yet")], "; ", "  ")


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
            parts.append(
                _("tile {tile}/{rotation}").format(tile=h["tile"], rotation=h["rotation"])
            )
        if stations:
            parts.append(" ".join(stations))
        entries.append(" ".join(parts))
    if not entries:
        return [_("Map: no track laid yet")]
    return [_("Map (tile/rotation, stations):"), *_pack("  ", entries, "; ", "  ")]
