"""Certificates, directors and holding limits (draft VI.3-VI.9, IV.3-IV.5), as
a rules library that knows nothing of rounds: the steps call it, and nothing
else changes who holds a certificate.

Data (in `state["certificates"]`): per company, per holder, the percentages
of the certificates held, largest first, e.g. ``{"MS": {"ipo": [10, 10],
"p0": [20, 10], "pool": [10]}}``. Holders are players (`cash.player(seat)`),
``"ipo"`` (the initial offering; for the FC its space on the map board),
``"treasury"`` (the company's own shares, on its charter) and ``"pool"`` (the
bank pool). A holder with no certificate is left out, so equal holdings are
equal data. A director's certificate is the one printed with the larger
percentage (majors 20, minors 40); the FC has none.

All functions are pure: they never change their input and return new data.
Rule violations raise `IllegalAction` with a sentence for the player; the
``can_*`` functions return that sentence instead (None: allowed).

- ``new_certificates(companies)``: every certificate in its company's initial
  offering (III.2: the stacks on the table, the FC's on the map board).
- ``percent``, ``director``, ``certificate_count``, ``sold_percent``.
- ``offered(certs, company, source)``: the certificate a buyer takes from a
  source (the director's first, VI.8).
- ``can_buy(certs, company, seat, source, variant, *, phase, sold_this_round)``
  (VI.3, VI.5) and ``can_sell(certs, company, seat, count, *, operated)``
  (VI.4): the reason a purchase or a sale is refused, or None. Money is not
  theirs to check: the price belongs to the market.
- ``move(certs, company, source, target, percent)``: the one way a certificate
  changes hands; every other change is made of moves, so each company's
  certificates always add up to 100%.
- ``sell(certs, company, seat, count, order)``: a player's sale into the
  pool, through their director's certificate if they must (VI.4, VI.9).
- ``change_director(certs, company, order)`` (VI.9): after every purchase and
  sale; `order` is the seats in playing order, for ties.
- ``inaugurate_minor`` (VI.7) and ``charter`` (VI.8): the shares a company
  keeps in its treasury.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...i18n import N_
from ..data.companies import BY_SYM, FC, MAJORS, MINORS, Company, shares_of
from ..data.variants import BY_ID
from ..refusals import reason, refuse
from .cash import player

Certificates = dict[str, dict[str, list[int]]]

IPO = "ipo"
TREASURY = "treasury"
POOL = "pool"
SOURCES = (IPO, TREASURY, POOL)
HOLDING_LIMIT = 60  # VI.5, IV.4: a player may own up to 60% of a company
POOL_LIMIT = 5  # VI.4: certificates of one company in the pool after a sale
# VI.7: the 40% director's certificate and a 20% share, three share prices.
MINOR_START_SHARES = 3
# VI.8: the 20% director's certificate costs twice the par price.
DIRECTOR_SHARES = 2
# Whole sentences, one for each place, so that each reads right in German.
NO_CERTIFICATE_IN = {
    IPO: N_("there is no {company} certificate in the initial offering"),
    TREASURY: N_("there is no {company} certificate in the treasury"),
    POOL: N_("there is no {company} certificate in the bank pool"),
}

_PLAYER = re.compile(r"p(0|[1-9][0-9]?)")


def new_certificates(companies: Iterable[str] | None = None) -> Certificates:
    """Every company's certificates in its initial offering (all by default)."""
    syms = [c.sym for c in (*MAJORS, *MINORS, FC)] if companies is None else list(companies)
    certs: Certificates = {}
    for sym in syms:
        split = shares_of(_company(sym))
        printed = [split.director_percent] if split.director_percent else []
        certs[sym] = {IPO: printed + [split.ordinary_percent] * split.ordinary_count}
    return certs


def percent(certs: Certificates, company: str, holder: str) -> int:
    return sum(_held(certs, company).get(holder, []))


def director(certs: Certificates, company: str) -> str | None:
    """The player holding the director's certificate; None before it is sold
    and for the FC."""
    printed = shares_of(_company(company)).director_percent
    for holder, held in _held(certs, company).items():
        if printed and printed in held and holder not in SOURCES:
            return holder
    return None


def units(company: str, percent_held: int) -> int:
    """How many ordinary shares' worth a percentage is: a price is per
    ordinary share (10% of a major or the FC, 20% of a minor, whose 60%
    opens at three times its par, VI.7), so this is what a holding is paid,
    valued and sold by."""
    return percent_held // shares_of(_company(company)).ordinary_percent


def certificate_count(certs: Certificates, seat: int) -> int:
    """What counts against the certificate limit (VI.3): every share
    certificate, a director's as one. Commissioners and concessions are not
    certificates and are not held here."""
    holder = player(seat)
    return sum(len(held.get(holder, [])) for held in certs.values())


def sold_percent(certs: Certificates, company: str) -> int:
    """The percentage that has left the initial offering; shares sold back into
    the pool still count (VI.8), so this is what the float is measured by."""
    return 100 - percent(certs, company, IPO)


def offered(certs: Certificates, company: str, source: str) -> int | None:
    """The certificate a buyer takes from `source`: the director's while it is
    there ("the first available certificate", VI.8), else an ordinary one."""
    split = shares_of(_company(company))
    held = _held(certs, company).get(source, [])
    if split.director_percent and split.director_percent in held:
        return split.director_percent
    return split.ordinary_percent if split.ordinary_percent in held else None


def can_buy(
    certs: Certificates,
    company: str,
    seat: int,
    source: str,
    variant: str,
    *,
    phase: int,
    sold_this_round: bool,
) -> str | None:
    """Why `seat` may not buy a certificate of `company` from `source` now.

    `sold_this_round`: the player sold shares of this company in this stock
    round (VI.5). Whether the player can pay is the caller's check.
    """
    info = _company(company)
    if source not in SOURCES:
        return reason(
            N_(
                "shares are bought from the initial offering, a treasury or the pool, not {source}"
            ),
            source=repr(source),
        )
    if phase < info.available_from_phase:
        return reason(
            N_("{company} shares are available from phase {available_from_phase}"),
            company=company,
            available_from_phase=info.available_from_phase,
        )
    if info.kind == "minor" and source == TREASURY:
        return reason(N_("no minor shares may be bought out of a company's treasury"))
    cert = offered(certs, company, source)
    if cert is None:
        return reason(NO_CERTIFICATE_IN[source], company=company)
    if info.kind == "minor" and cert == shares_of(info).director_percent:
        return reason(
            N_(
                "a minor company is started only by exchanging a concession "
                "in the first stock round"
            )
        )
    if sold_this_round:
        return reason(
            N_(
                "you sold {company} shares in this stock round; "
                "you may buy them again from the next"
            ),
            company=company,
        )
    limit = BY_ID[variant].certificate_limit
    if certificate_count(certs, seat) + 1 > limit:
        return reason(
            N_("you hold {count} certificates, the limit is {limit}"),
            count=certificate_count(certs, seat),
            limit=limit,
        )
    held = percent(certs, company, player(seat))
    if held + cert > HOLDING_LIMIT:
        return reason(
            N_("you hold {held}% of {company}; nobody may own more than {HOLDING_LIMIT}%"),
            held=held,
            company=company,
            HOLDING_LIMIT=HOLDING_LIMIT,
        )
    return None


def can_sell(
    certs: Certificates, company: str, seat: int, count: int, *, operated: bool
) -> str | None:
    """Why `seat` may not sell `count` ordinary certificates of `company` into
    the pool now (VI.4).

    A director who sells into their director's certificate hands it to the
    player who then holds the most, who must hold at least its percentage
    (VI.4, VI.9); `sell` makes that exchange.
    """
    info = _company(company)
    split = shares_of(info)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return reason(N_("sell one certificate or more, not {count}"), count=repr(count))
    if not operated:
        return reason(
            N_("{company} has not operated yet; its shares may be sold once it has"),
            company=company,
        )
    holder = player(seat)
    held = percent(certs, company, holder)
    if count * split.ordinary_percent > held:
        return reason(
            N_("you hold {held}% of {company}, not {wanted}%"),
            held=held,
            company=company,
            wanted=count * split.ordinary_percent,
        )
    in_pool = len(_held(certs, company).get(POOL, []))
    if in_pool + count > POOL_LIMIT:
        return reason(
            N_(
                "the pool holds {count} {company} certificates; "
                "a sale may not bring it above {limit}"
            ),
            count=in_pool,
            company=company,
            limit=POOL_LIMIT,
        )
    if count > _ordinary_count(certs, company, holder):
        # The seller then keeps less than the director's certificate, so a
        # player holding at least its percentage holds more and takes it.
        best = max(
            (percent(certs, company, h) for h in _players(certs, company, holder)), default=0
        )
        if best < split.director_percent:
            return reason(
                N_(
                    "the director's certificate can never be sold to the bank: another player "
                    "must hold at least {percent}% to take it over"
                ),
                percent=split.director_percent,
            )
    return None


def move(
    certs: Certificates, company: str, source: str, target: str, percent: int
) -> Certificates:
    """New certificates with one certificate of `percent` moved from source to
    target. The director's certificate never goes to the pool or a treasury:
    it is sold only with the company's start and passes only between players."""
    held = _held(certs, company)
    for holder in (source, target):
        if holder not in SOURCES and not _PLAYER.fullmatch(holder):
            raise refuse("there is no holder {holder}", holder=repr(holder))
    if source == target:
        raise refuse("a certificate must change hands")
    if percent not in held.get(source, []):
        raise refuse(
            # xgettext:no-python-format ("% c" is not a %-directive here)
            "the {place} holds no {percent}% certificate of {company}",
            place=_place(source),
            percent=percent,
            company=company,
        )
    printed = shares_of(_company(company)).director_percent
    if percent == printed and target in (POOL, TREASURY):
        raise refuse("a director's certificate can never go to the bank pool or a treasury")
    out = {sym: {h: list(p) for h, p in holders.items()} for sym, holders in certs.items()}
    out[company][source].remove(percent)
    if not out[company][source]:
        del out[company][source]
    out[company][target] = sorted([*out[company].get(target, []), percent], reverse=True)
    return out


def sell(
    certs: Certificates, company: str, seat: int, count: int, order: Sequence[int]
) -> Certificates:
    """`seat` sells `count` ordinary certificates into the pool; the director's
    certificate changes hands first if they must sell into it, and after the
    sale as `change_director` says. The caller has asked `can_sell`."""
    holder = player(seat)
    split = shares_of(_company(company))
    if count > _ordinary_count(certs, company, holder):
        if director(certs, company) != holder:
            raise refuse(
                "you hold fewer than {count} {company} certificates", count=count, company=company
            )
        heir = _successor(certs, company, order, holder)
        if heir is None:
            raise refuse("nobody can take over the director's certificate")
        certs = _exchange(certs, company, holder, heir)
    for _ in range(count):
        certs = move(certs, company, holder, POOL, split.ordinary_percent)
    return change_director(certs, company, order)


def change_director(certs: Certificates, company: str, order: Sequence[int]) -> Certificates:
    """VI.9: the player holding more than the director becomes director (ties
    keep the director; among equal challengers the first in playing order
    after the director wins) and gives the old director ordinary certificates
    worth the director's certificate, so every holding keeps its percentage."""
    current = director(certs, company)
    if current is None:
        return certs
    heir = _successor(certs, company, order, current)
    if heir is None or percent(certs, company, heir) <= percent(certs, company, current):
        return certs
    return _exchange(certs, company, current, heir)


def inaugurate_minor(certs: Certificates, company: str, seat: int) -> Certificates:
    """VI.7: a converted concession gives its player the 40% director's
    certificate and a 20% share; the two others go into the minor's treasury."""
    info = _company(company)
    split = shares_of(info)
    if info.kind != "minor":
        raise refuse("{company} is not a minor company", company=company)
    if (
        director(certs, company) is not None
        or offered(certs, company, IPO) != split.director_percent
    ):
        raise refuse("{company} has been started already", company=company)
    certs = move(certs, company, IPO, player(seat), split.director_percent)
    certs = move(certs, company, IPO, player(seat), split.ordinary_percent)
    return charter(certs, company)


def charter(certs: Certificates, company: str) -> Certificates:
    """The certificates left in the initial offering go onto the charter: the
    company's treasury (VI.7; VI.8 at the end of the stock round it floats)."""
    if director(certs, company) is None:
        raise refuse("{company} has no director yet", company=company)
    for cert in list(_held(certs, company).get(IPO, [])):
        certs = move(certs, company, IPO, TREASURY, cert)
    return certs


def _exchange(certs: Certificates, company: str, old: str, new: str) -> Certificates:
    split = shares_of(_company(company))
    certs = move(certs, company, old, new, split.director_percent)
    for _ in range(split.director_percent // split.ordinary_percent):
        certs = move(certs, company, new, old, split.ordinary_percent)
    return certs


def _successor(
    certs: Certificates, company: str, order: Sequence[int], current: str
) -> str | None:
    """The player with the most shares other than `current`; among equals the
    first in playing order after `current` (VI.9)."""
    seats = list(order)
    seat_of_current = int(current[1:])  # a director is always a player
    start = seats.index(seat_of_current) + 1 if seat_of_current in seats else 0
    best: str | None = None
    for seat in seats[start:] + seats[:start]:
        candidate = player(seat)
        if candidate == current:
            continue
        if best is None or percent(certs, company, candidate) > percent(certs, company, best):
            best = candidate
    if best is None or percent(certs, company, best) == 0:
        return None
    return best


def _players(certs: Certificates, company: str, but: str) -> list[str]:
    return [h for h in _held(certs, company) if h not in SOURCES and h != but]


def _ordinary_count(certs: Certificates, company: str, holder: str) -> int:
    ordinary = shares_of(_company(company)).ordinary_percent
    return _held(certs, company).get(holder, []).count(ordinary)


def _held(certs: Certificates, company: str) -> dict[str, list[int]]:
    _company(company)
    if company not in certs:
        raise refuse("{company} is not in this game", company=company)
    return certs[company]


def _company(sym: str) -> Company:
    if sym not in BY_SYM:
        raise refuse("there is no company {sym}", sym=repr(sym))
    return BY_SYM[sym]


def _place(source: str) -> str:
    return {IPO: "initial offering", TREASURY: "treasury", POOL: "bank pool"}.get(source, source)
