"""The Estates in words for a mail: a seat's view.

``describe`` reads the view alone, so it can show nothing the view hides:
other seats' cheques and stashes stay "hidden" until the game is over.
Things are named as ``names.py`` names them (the moves too); the companies
with their colour once, beside the certificates.  The last turn's use of
the piece is said as its move recalls it (``moves.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import N_, Words
from .data import CUBE_COMPANY
from .moves import recalled
from .names import COLOURS, ROMAN, SPECIAL_NAMES, cube_name, piece_name, seat_name
from .pieces import mayor_moves

_ = Words("estates").gettext
ngettext = Words("estates").ngettext


View = dict[str, Any]

WIDTH = 72
ENDED = {
    "two_rows_complete": N_("two rows complete"),
    "no_numbered_roof": N_("no numbered roof left"),
    "nothing_to_build": N_("nothing left to build"),
    "nothing_to_choose": N_("nothing left to choose"),
    "two_round_wins": N_("two round wins"),
    "resignation": N_("resignation"),
}
# Why a round ended, as rounds.py and leaving.py record it in the state (so
# in English); translated where a round's result is shown.
ROUND_ENDS = (
    N_("two rows complete"),
    N_("no numbered roof left"),
    N_("no floor cube left and every building roofed"),
    N_("nothing left to choose"),
    N_("resignation"),
)


def _company(company: str) -> str:
    """ "sienna (red)": a company with its colour."""
    return _("{company} ({colour})").format(company=company, colour=_(COLOURS[company]))


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
    cheques = you["cheques"]
    # The English says "cheques" whatever the count; German has two forms.
    mine = ngettext(
        "{who} (you): {cheques} cheque in hand, {stash} stashed",
        "{who} (you): {cheques} cheques in hand, {stash} stashed",
        cheques,
    )
    lines = [mine.format(who=names[seat], cheques=cheques, stash=you["stash"])]
    held = _certificates(view, seat)
    if held:
        lines += _wrap(_("Your certificates:"), held)
    else:
        lines.append(_("Your certificates: none yet"))
    return lines


def _certificates(view: View, seat: int) -> list[str]:
    return [
        _company(company) for company, holder in view["certificates"].items() if holder == seat
    ]


def _building(lot: dict[str, Any], names: Sequence[str], view: View) -> str:
    floors = "/".join(cube_name(c) for c in lot["floors"])
    holder = view["certificates"].get(CUBE_COMPANY[lot["floors"][-1]])
    owner = names[holder] if holder is not None else _("no owner")
    if lot["roof"] is None:
        text = _("{lot} {floors} no roof ({owner})")
    else:
        text = _("{lot} {floors} roof {roof} ({owner})")
    return text.format(lot=lot["lot"], floors=floors, roof=lot["roof"], owner=owner)


def _row(row: dict[str, Any], names: Sequence[str], view: View) -> list[str]:
    required = row["requirement"]
    head = ngettext(
        "Row {row}: {developed} of {requirement} lots built",
        "Row {row}: {developed} of {requirement} lots built",
        required,
    ).format(row=row["row"], developed=row["developed"], requirement=required)
    if row["complete"]:
        head += _(", complete")
    if row["mayor"]:
        head += _(", mayor (x2)")
    lines = [head]
    if row["permits"]:
        permits = ", ".join(f"{ROMAN[abs(p)]} {_signed(p)}" for p in row["permits"])
        on = ngettext(
            "  permit {permits} on {lot}", "  permits {permits} on {lot}", len(row["permits"])
        )
        lines.append(on.format(permits=permits, lot=row["permit_lot"]))
    built = [_building(lot, names, view) for lot in row["lots"] if lot["floors"]]
    lines += _wrap("  ", built, sep="; ", indent="    ") if built else []
    singles = [
        lot["lot"] for lot in row["lots"] if lot["single"] and lot["in_play"] and not lot["floors"]
    ]
    if singles:
        lines.append(_("  one floor only: {lots}").format(lots=", ".join(singles)))
    return lines


def _board(view: View, names: Sequence[str]) -> list[str]:
    lines = [_("Board (floors bottom up; owner of the top floor in brackets):")]
    for row in view["board"]:
        lines += _row(row, names, view)
    return lines


def _supply(view: View) -> list[str]:
    lines = [_("Display (auction a cube from either end):")]
    for n, row in enumerate(view["display"], start=1):
        # "row1" is the name a move line uses ("auction cube row1-left").
        cubes = [cube_name(c) for c in row]
        if cubes:
            lines += _wrap(f"  row{n}:", cubes, indent="        ")
        else:
            lines.append(_("  row{n}: empty").format(n=n))
    if not any(view["display"]):
        lines = [_("Display: no cubes left")]
    left, numbered = view["roofs_left"], view["numbered_roofs_left"]
    roofs = _("Roofs: {left} face down").format(left=left) if left else _("Roofs: none left")
    if left != numbered:
        roofs += _(", {numbered} numbered and {blank} blank").format(
            numbered=numbered, blank=left - numbered
        )
    if view["blank_roofs_discarded"]:
        blank = view["blank_roofs_discarded"]
        turned = ngettext("; {blank} blank turned over", "; {blank} blank turned over", blank)
        roofs += turned.format(blank=blank)
    lines.append(roofs)
    status = view["specials"]
    supply = [_(SPECIAL_NAMES[k]) for k, v in status.items() if v == "supply"]
    gone = [_(SPECIAL_NAMES[k]) for k, v in status.items() if v == "gone"]
    lines += _wrap(_("Specials in the supply:"), supply) if supply else []
    if view["mayor"] is not None and mayor_moves(view["edition"]):
        lines.append(
            _("The mayor stands at row {row} (up for auction too)").format(row=view["mayor"])
        )
    elif view["mayor"] is not None:
        lines.append(_("The mayor stands at row {row}").format(row=view["mayor"]))
    lines += _wrap(_("Out of the game:"), gone) if gone else []
    return lines


def _auction(view: View, names: Sequence[str]) -> list[str]:
    auction = view["auction"]
    if auction is None:
        return []
    auctioneer = seat_name(names, auction["auctioneer"])
    lines = [
        _("Auction: {auctioneer} auctions {piece}").format(
            auctioneer=auctioneer, piece=piece_name(auction["piece"])
        )
    ]
    bids = [
        _("{who} passed").format(who=seat_name(names, s))
        if amount is None
        else f"{seat_name(names, s)} {amount}"
        for s, amount in auction["bids"]
    ]
    if bids:
        lines += _wrap(_("  bids:"), bids)
    if auction["high_bidder"] is not None:
        lines.append(
            _("  high bid {high} by {who}").format(
                high=auction["high"], who=seat_name(names, auction["high_bidder"])
            )
        )
    waiting = [seat_name(names, s) for s in auction["waiting_for"]]
    if waiting:
        lines += _wrap(_("  still to bid:"), waiting)
    phase = view["phase"]
    if phase == "resolve":
        high = seat_name(names, auction["high_bidder"])
        lines.append(
            _("  {auctioneer} decides: give to {high} or keep").format(
                auctioneer=auctioneer, high=high
            )
        )
    elif phase == "place":
        lines.append(_("  {who} now places it").format(who=seat_name(names, view["recipient"])))
    return lines


def _last(view: View, names: Sequence[str]) -> list[str]:
    last = view.get("last")
    if not last:
        return []
    if last.get("blank_roof"):
        return [
            _("Last turn: {who} turned over a blank roof").format(
                who=seat_name(names, last.get("seat"))
            )
        ]
    who = seat_name(names, last.get("auctioneer"))
    text = _("Last turn: {who} auctioned {piece}").format(
        who=who, piece=piece_name(last.get("piece", {}))
    )
    bids = [b for b in last.get("bids", []) if b[1] is not None]
    if bids:
        seat, amount = bids[-1]
        if last.get("decision") == "give":
            sold = _("; gave it to {who} at {amount}")
        else:
            sold = _("; kept it over {who} at {amount}")
        sold = sold.format(who=seat_name(names, seat), amount=amount)
    else:
        sold = _("; nobody bid")
    used = recalled(last["used"], seat_name(names, last.get("recipient")))
    if len(text + sold) < WIDTH:
        return _wrap(text + sold + ";", [used], indent="  ")
    # Too long for one line (German, or long names): the sale on the next.
    return [text + ";", *_wrap("  " + sold.lstrip("; ") + ";", [used], indent="  ")]


def _opponents(view: View, seat: int | None, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    cheques = view.get("cheques")
    for other in range(view["players"]):
        if other == seat:
            continue
        who = names[other]
        if cheques is None:
            money = _("{who}: cheques hidden").format(who=who)
        else:
            # The English says "cheques" whatever the count; German has two forms.
            count = cheques[other]
            money = ngettext("{who}: {count} cheque", "{who}: {count} cheques", count)
            money = money.format(who=who, count=count)
        if other in view["resigned"]:
            money += _(", left the game")
        lines.append(money)
        held = _certificates(view, other)
        lines += _wrap(_("  certificates:"), held) if held else [_("  certificates: none")]
    free = [_company(c) for c, h in view["certificates"].items() if h is None]
    lines += _wrap(_("Nobody holds:"), free) if free else []
    return lines


def _rounds(view: View, names: Sequence[str]) -> list[str]:
    lines: list[str] = []
    for scored in view["round_results"]:
        scores = [f"{names[s]} {scored['scores'][s]}" for s in range(view["players"])]
        lines += _wrap(_("Round {round} scores:").format(round=scored["round"]), scores)
        winners = ", ".join(names[s] for s in scored["winners"])
        lines.append(
            _("  won by {winners} ({reason})").format(winners=winners, reason=_(scored["reason"]))
        )
    return lines


def _result(view: View, names: Sequence[str]) -> list[str]:
    result = view.get("result")
    if not result:
        return []
    order = sorted(range(view["players"]), key=lambda s: (result["places"][s], s))
    final = [f"{result['places'][s]}. {names[s]} {result['scores'][s]}" for s in order]
    winners = _(" and ").join(names[s] for s in result["winners"])
    reason = _(ENDED[result["ended_by"]]) if result["ended_by"] in ENDED else _("ended")
    over = ngettext(
        "Game over ({reason}): {winners} won",
        "Game over ({reason}): {winners} won",
        len(result["winners"]),
    )
    return [over.format(reason=reason, winners=winners), *_wrap(_("Final:"), final)]


def _now(view: View, names: Sequence[str]) -> list[str]:
    phase = view["phase"]
    acting = ", ".join(seat_name(names, s) for s in view["to_act"])
    doing = {
        "start": N_("Now: {who} chooses a piece to auction"),
        "bid": N_("Now: {who} bids or passes"),
        "resolve": N_("Now: {who} gives or keeps"),
        "place": N_("Now: {who} places the piece"),
    }
    # Once over, the result's lines say so.
    return [_(doing[phase]).format(who=acting)] if phase in doing else []


def describe(view: View, seat: int | None, names: Sequence[str]) -> list[str]:
    head = _("{title}, round {round} of {rounds}").format(
        title=view["title"], round=view["round"], rounds=view["rounds"]
    )
    lines = [head, *_mine(view, seat, names), *_now(view, names)]
    lines += _result(view, names)
    lines += _auction(view, names)
    lines += _last(view, names)
    lines += _board(view, names)
    lines += _supply(view)
    lines += _opponents(view, seat, names)
    lines += _rounds(view, names)
    return lines
