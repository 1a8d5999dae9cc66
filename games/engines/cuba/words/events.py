"""The automatic events of a move in words: one line each (a dividend with
many holders is still one line), said from the event alone, so the web log,
the mails and the page say them alike (`CubaEngine.tell_effects`).

The events are recorded where the rules act (`rules/log.py`):

    round       kind, number, index, of        a round (or the next OR) begins
    sold        card, account, price           a commissioner's auction is won
    order       seats                          the playing order dealt anew
    floated     company                        50% sold (VI.8)
    director    company, account               a purchase or sale changed it (VI.9)
    capital     company, amount, shares        the float's capital (VI.8)
    price       company, before, after, why    a marker moved, or could not
                (count)                        ("dividend", "no_dividend", "sold",
                                                "issued", "sold_out")
    home        company, hex                   a major's printed home station
    mail        company, amount                the mail contract (#5)
    funding     card, account, amount          a commissioner's tile laid
    fc_fee      company, passes, fee           FC tokens passed, $20 each
    run         company, trains, revenue,      each train's stops and revenue,
                sugar, delivered, income       cubes delivered from which mills
    dividend    company, revenue, per_share,   paid out, per holder
                paid
    retained    company, revenue               kept in the treasury
    cubes       company, cubes, income         a minor's cubes at its mill
    fc          revenue, cities, range,        the FC's turn (VII.3.12)
                cubes, per_share, paid, fees
    phase       phase, rusted, obsolete        a phase begins (VII.3.14)
    export      card                           the set's train to the FC
    forced      seat, action                   a move that was the only one
    bank_broken round, set                     the bank ran out (IX.1)
    end         reason, (bankrupt)             the game is over

An event of a kind this module does not know is said by its name, never
dropped (a newer engine's event in an older page).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...i18n import N_
from .names import WORDS, company, money, place, private, seat_name, who

_ = WORDS.gettext
ngettext = WORDS.ngettext

Event = dict[str, Any]
Narrate = Callable[[dict[str, Any], int], str]

ROUNDS = {
    "auction": N_("The commissioners' auction begins"),
    "concessions": N_("The concession draft begins"),
}
# Why a share price moved, after the move itself.
WHY = {
    "dividend": N_("dividend paid"),
    "no_dividend": N_("no dividend"),
    "issued": N_("a share issued"),
    "sold_out": N_("sold out"),
}
END = {
    "bank_broken": N_("The game is over: the bank has run out of money."),
    "second_8_exported": N_("The game is over: the second 8 has gone to the FC."),
    "bankruptcy": N_("The game is over: {name} is bankrupt and ranks last."),
}


def tell(events: Sequence[Event], names: Sequence[str], narrate: Narrate) -> list[str]:
    """The events' lines, in order: one per event, but a run says each
    train on a line of its own. `narrate` says a forced move as the move's
    own narration does (the engine's verbs)."""
    out: list[str] = []
    for event in events:
        kind = str(event.get("event", ""))
        if kind == "forced":
            out.append(
                _("{move} (the only move)").format(
                    move=narrate(event["action"], int(event["seat"]))
                )
            )
        elif kind == "run":
            out += _run(event, names)
        else:
            teller = TELLERS.get(kind)
            out.append(teller(event, names) if teller is not None else kind.replace("_", " "))
    return out


def _round(e: Event, names: Sequence[str]) -> str:
    kind = e["kind"]
    if kind == "stock":
        return _("Stock round {number} begins").format(number=e["number"])
    if kind == "operating":
        return _("Operating round {number}.{index} (of {of}) begins").format(
            number=e["number"], index=e["index"], of=e["of"]
        )
    return _(ROUNDS[kind]) if kind in ROUNDS else str(kind)


def _sold(e: Event, names: Sequence[str]) -> str:
    return _("{name} buys {card} for {price}").format(
        name=who(e["account"], names), card=private(e["card"]), price=money(e["price"])
    )


def _order(e: Event, names: Sequence[str]) -> str:
    seats = ", ".join(seat_name(names, int(s)) for s in e["seats"])
    return _("New playing order: {seats}").format(seats=seats)


def _floated(e: Event, names: Sequence[str]) -> str:
    return _("{company} floats: half of its shares are sold").format(company=company(e["company"]))


def _director(e: Event, names: Sequence[str]) -> str:
    return _("{name} becomes the director of {company}").format(
        name=who(e["account"], names), company=company(e["company"])
    )


def _capital(e: Event, names: Sequence[str]) -> str:
    return ngettext(
        "{company} receives {amount} from the bank: par for {shares} share sold",
        "{company} receives {amount} from the bank: par for {shares} shares sold",
        int(e["shares"]),
    ).format(company=company(e["company"]), amount=money(e["amount"]), shares=e["shares"])


def _price(e: Event, names: Sequence[str]) -> str:
    before, after = int(e["before"]), int(e["after"])
    why = str(e.get("why", ""))
    if why == "sold":
        count = int(e.get("count", 1))
        reason = ngettext("{count} share sold", "{count} shares sold", count).format(count=count)
    else:
        reason = _(WHY[why]) if why in WHY else why.replace("_", " ")
    name = company(e["company"])
    if after > before:
        text = _("{company}: the share price rises from {before} to {after} ({why})")
    elif after < before:
        text = _("{company}: the share price falls from {before} to {after} ({why})")
    else:
        text = _("{company}: the share price stays at {before} ({why})")
    return text.format(company=name, before=money(before), after=money(after), why=reason)


def _home(e: Event, names: Sequence[str]) -> str:
    return _("{company} places its home station in {place}").format(
        company=company(e["company"]), place=place(e["hex"])
    )


def _mail(e: Event, names: Sequence[str]) -> str:
    return _("{company} receives {amount} from its mail contract").format(
        company=company(e["company"]), amount=money(e["amount"])
    )


def _funding(e: Event, names: Sequence[str]) -> str:
    return _("{name} receives {amount} from the bank for {card}'s tile").format(
        name=who(e["account"], names), amount=money(e["amount"]), card=private(e["card"])
    )


def _fc_fee(e: Event, names: Sequence[str]) -> str:
    passes = int(e["passes"])
    return ngettext(
        "{company} pays the FC {fee} to pass {passes} FC token",
        "{company} pays the FC {fee} to pass {passes} FC tokens",
        passes,
    ).format(company=company(e["company"]), fee=money(e["fee"]), passes=passes)


def _stops(hexes: Sequence[str]) -> str:
    return " - ".join(place(h) for h in hexes)


def _run(e: Event, names: Sequence[str]) -> list[str]:
    """A line per train that ran, then the revenue (the sugar delivered, a
    minor's machines)."""
    sym = company(e["company"])
    trains = e.get("trains") or []
    if not trains:
        return [_("{company} runs no train and earns nothing").format(company=sym)]
    lines = [
        _("{company}'s {card} runs {stops}: {revenue}").format(
            company=e["company"],
            card=t["train"],
            stops=_stops(t["stops"]),
            revenue=money(t["revenue"]),
        )
        for t in trains
    ]
    line = _("{company} earns {revenue}").format(company=sym, revenue=money(e["revenue"]))
    delivered = e.get("delivered") or {}
    if e.get("sugar"):
        cubes = sum(int(n) for n in delivered.values())
        mills = ", ".join(f"{mill} {n}" for mill, n in sorted(delivered.items()))
        line += ngettext(
            ", {sugar} of it for {cubes} sugar cube delivered from the mills ({mills})",
            ", {sugar} of it for {cubes} sugar cubes delivered from the mills ({mills})",
            cubes,
        ).format(cubes=cubes, mills=mills, sugar=money(e["sugar"]))
    bonus = int(e.get("income", 0)) - int(e.get("revenue", 0))
    if bonus > 0:
        line += _("; its machines add {bonus}: income {income}").format(
            bonus=money(bonus), income=money(e["income"])
        )
    return [*lines, line]


def _holders(paid: dict[str, int], names: Sequence[str]) -> str:
    return ", ".join(f"{who(account, names)} {money(amount)}" for account, amount in paid.items())


def _dividend(e: Event, names: Sequence[str]) -> str:
    paid = e.get("paid") or {}
    sym = company(e["company"])
    if not paid:
        return _("{company} pays out {revenue}: {per_share} a share, to no player").format(
            company=sym, revenue=money(e["revenue"]), per_share=money(e["per_share"])
        )
    return _("{company} pays out {revenue}: {per_share} a share ({holders})").format(
        company=sym,
        revenue=money(e["revenue"]),
        per_share=money(e["per_share"]),
        holders=_holders(paid, names),
    )


def _retained(e: Event, names: Sequence[str]) -> str:
    return _("{company} keeps {revenue} in its treasury").format(
        company=company(e["company"]), revenue=money(e["revenue"])
    )


def _cubes(e: Event, names: Sequence[str]) -> str:
    cubes = int(e["cubes"])
    return ngettext(
        "{company} puts {cubes} sugar cube at its mill (income {income})",
        "{company} puts {cubes} sugar cubes at its mill (income {income})",
        cubes,
    ).format(company=company(e["company"]), cubes=cubes, income=money(e["income"]))


def _fc(e: Event, names: Sequence[str]) -> str:
    cities = " + ".join(money(c) for c in e.get("cities") or []) or money(0)
    cubes = int(e.get("cubes", 0))
    said = {"revenue": money(e["revenue"]), "range": e["range"], "cities": cities}
    if cubes:
        line = ngettext(
            "The FC earns {revenue}: its {range}-train counts {cities}, "
            "{cubes} unshipped sugar cube {sugar}",
            "The FC earns {revenue}: its {range}-train counts {cities}, "
            "{cubes} unshipped sugar cubes {sugar}",
            cubes,
        ).format(**said, cubes=cubes, sugar=money(10 * cubes))
    else:
        line = _("The FC earns {revenue}: its {range}-train counts {cities}").format(**said)
    paid = e.get("paid") or {}
    if paid:
        line += _("; {per_share} a share ({holders})").format(
            per_share=money(e["per_share"]), holders=_holders(paid, names)
        )
    if e.get("fees"):
        line += _("; the fees in its treasury, {fees}, go back to the bank").format(
            fees=money(e["fees"])
        )
    return line


def _phase(e: Event, names: Sequence[str]) -> str:
    line = _("Phase {phase} begins").format(phase=e["phase"])
    rusted = e.get("rusted") or []
    if rusted:
        line += _("; scrapped: {cards}").format(cards=_held(rusted, names))
    obsolete = e.get("obsolete") or []
    if obsolete:
        line += _("; obsolete, now running as: {cards}").format(cards=_held(obsolete, names))
    return line


def _held(cards: Sequence[Sequence[str]], names: Sequence[str]) -> str:
    """[["MS", "2"], ["MS", "2"], ["pool", "2"]] -> "MS 2 x2, bank pool 2"."""
    counted: dict[tuple[str, str], int] = {}
    for holder, card in cards:
        counted[(str(holder), str(card))] = counted.get((str(holder), str(card)), 0) + 1
    out = []
    for (holder, card), n in counted.items():
        where = _("bank pool") if holder == "pool" else holder
        out.append(f"{where} {card}" + (f" x{n}" if n > 1 else ""))
    return ", ".join(out)


def _export(e: Event, names: Sequence[str]) -> str:
    return _("The set of operating rounds ends: the FC takes a {card} from the depot").format(
        card=e["card"]
    )


def _bank_broken(e: Event, names: Sequence[str]) -> str:
    return _("The bank has run out of money: the game ends after operating rounds {set}").format(
        set=e["set"]
    )


def _end(e: Event, names: Sequence[str]) -> str:
    reason = str(e.get("reason", ""))
    if reason not in END:
        return _("The game is over ({reason}).").format(reason=reason.replace("_", " "))
    bankrupt = e.get("bankrupt")
    name = seat_name(names, int(bankrupt)) if isinstance(bankrupt, int) else ""
    return _(END[reason]).format(name=name)


TELLERS: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "round": _round,
    "sold": _sold,
    "order": _order,
    "floated": _floated,
    "director": _director,
    "capital": _capital,
    "price": _price,
    "home": _home,
    "mail": _mail,
    "funding": _funding,
    "fc_fee": _fc_fee,
    "dividend": _dividend,
    "retained": _retained,
    "cubes": _cubes,
    "fc": _fc,
    "phase": _phase,
    "export": _export,
    "bank_broken": _bank_broken,
    "end": _end,
}
