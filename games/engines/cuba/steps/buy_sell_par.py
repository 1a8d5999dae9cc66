"""The stock round's verbs (VI.1-VI.9): sell, buy one certificate, start a
major (par), convert a concession into a minor (first stock round), pass.

One turn (VI.1): any number of sales, one action per company sold, in the
order the player chooses; then at most one purchase, which ends the turn, or
a pass, which ends it too. A pass after a sale only ends the turn; a pass
without a sale counts towards the "all players passed in a row" that ends
the round (`over`).

Actions (every one complete, as `legal` lists them):

    {"type": "sell", "company": "MS", "count": 2}         sell MS 2
    {"type": "buy", "company": "MS", "source": "pool"}     buy MS pool
    {"type": "par", "company": "MS", "price": 80}          par MS 80
    {"type": "convert", "card": "M1", "company": "HG", "price": 70}
                                                           convert M1 HG 70
    {"type": "pass"}                                       pass

The round's data lives in `state["round"]["steps"]["stock"]` (`DATA`):

    passes   passes in a row without a sale; the round ends at one per player
    sold     per player account, the companies they sold this round (VI.5)
    turn     the sales of the acting player's current turn, in order
    floated  majors that reached 50% this round: chartered at its end (VI.8)

Certificates change only through `shares`, money only through `cash`, share
prices only through `market`; the rules' thresholds live there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...base import Action, IllegalAction, State
from ...i18n import N_
from ...verbs import ABSENT, Slot, Verb, line
from ..data import market
from ..data.companies import BY_SYM, FLOAT_PERCENT, in_game, shares_of, symbol
from ..data.variants import BY_ID
from ..refusals import WORDS, Refused, refusal, refuse
from ..rules import cash, log, shares
from ..rules.shares import DIRECTOR_SHARES, MINOR_START_SHARES
from ..words.names import company, fit, money, private, share_gloss
from . import PASS

_ = WORDS.gettext
ngettext = WORDS.ngettext

NAME = "sell or buy shares"
DATA = "stock"

# IV.2: a concession is worth $210 towards the 60% of a minor (VI.7).
CONCESSION_VALUE = 210
CONCESSIONS = tuple(f"M{n}" for n in range(1, 7))

# A purchase line with no source: the first of these the purchase is legal from.
DEFAULT_SOURCES = shares.SOURCES


def new_data() -> dict[str, Any]:
    return {"passes": 0, "sold": {}, "turn": [], "floated": []}


def data(state: State) -> dict[str, Any]:
    steps: dict[str, Any] = state["round"]["steps"]
    out: dict[str, Any] = steps[DATA]
    return out


# -- the step contract --------------------------------------------------------


def active(state: State) -> bool:
    return state["round"]["kind"] == "stock" and DATA in state["round"]["steps"]


def blocking(state: State) -> bool:
    return True


def legal(state: State, seat: int) -> list[Action]:
    if not _acting(state, seat):
        return []
    return [action for listed in _LEGAL.values() for action in listed(state, seat)]


def legal_of(state: State, seat: int, kind: Any) -> list[Action]:
    """The legal moves of one type: a move is checked against these alone
    (a pass no longer lists every buy, sale and start first)."""
    if not _acting(state, seat) or kind not in _LEGAL:
        return []
    return _LEGAL[kind](state, seat)


def _sells(state: State, seat: int) -> list[Action]:
    return [
        {"type": "sell", "company": sym, "count": n}
        for sym in in_game(state["companies"])
        for n in range(1, _units_held(state, sym, seat) + 1)
        if _why_not_sell(state, seat, sym, n) is None
    ]


def _buys(state: State, seat: int) -> list[Action]:
    return [
        {"type": "buy", "company": sym, "source": source}
        for sym in in_game(state["companies"])
        for source in shares.SOURCES
        if _why_not_buy(state, seat, sym, source) is None
    ]


def _pars(state: State, seat: int) -> list[Action]:
    # Only a company nobody has started can be started.  What does not
    # depend on the price is asked once (of the seat, the concession, the
    # company), and of each of the seven prices only what it costs; `apply`
    # asks the same questions in the same order.
    return [
        {"type": "par", "company": sym, "price": price}
        for sym in state["companies"]
        if _unstarted(state, sym) and _why_not_par_company(state, seat, sym) is None
        for price in market.PAR_PRICES
        if _why_not_par_cost(state, seat, price) is None
    ]


def _converts(state: State, seat: int) -> list[Action]:
    if not _first_round(state) or _why_not_convert_limit(state, seat) is not None:
        return []
    unstarted = [sym for sym in state["companies"] if _unstarted(state, sym)]
    return [
        {"type": "convert", "card": card, "company": sym, "price": price}
        for card in CONCESSIONS
        if _why_not_convert_card(state, seat, card) is None
        for sym in unstarted
        if _why_not_convert_company(state, seat, sym) is None
        for price in market.PAR_PRICES
        if _why_not_convert_cost(state, seat, sym, price) is None
    ]


def _passes(state: State, seat: int) -> list[Action]:
    return [{"type": "pass"}] if _why_not_pass(state, seat) is None else []


# Each type's legal moves, in the order `legal` lists them.
_LEGAL = {"sell": _sells, "buy": _buys, "par": _pars, "convert": _converts, "pass": _passes}


def apply(state: State, seat: int, action: Action) -> None:
    if not _acting(state, seat):
        raise refuse("it is not your turn")
    kind = action.get("type")
    if kind == "sell":
        _refuse(_why_not_sell(state, seat, action.get("company"), action.get("count")))
        _sell(state, seat, action["company"], action["count"])
    elif kind == "buy":
        _refuse(_why_not_buy(state, seat, action.get("company"), action.get("source")))
        _buy(state, seat, action["company"], action["source"])
    elif kind == "par":
        _refuse(_why_not_par(state, seat, action.get("company"), action.get("price")))
        _par(state, seat, action["company"], action["price"])
    elif kind == "convert":
        args = (action.get("card"), action.get("company"), action.get("price"))
        _refuse(_why_not_convert(state, seat, *args))
        _convert(state, seat, action["card"], action["company"], action["price"])
    elif kind == "pass":
        _refuse(_why_not_pass(state, seat))
        _pass(state)
    else:
        raise refuse("'{kind}' is not a stock round action", kind=str(kind))


# -- the words of the stock round's moves ------------------------------------------
#
# Words are lower case (the engine folds the line); company symbols are
# matched without regard to case. A purchase without a source buys from the
# first source it is legal from, in the order offering, treasury, pool.

USAGE = {
    "sell": "sell <company> [count], e.g. sell MS 2",
    "buy": "buy <company> [ipo|treasury|pool], e.g. buy MS pool",
    "par": "par <company> <price>, e.g. par MS 80",
    "convert": "convert <concession> <minor> <price>, e.g. convert M1 HG 70",
}
# Where a share comes from, as a narration says it.
SOURCES = {"ipo": N_("the IPO"), "treasury": N_("its treasury"), "pool": N_("the bank pool")}


def _written(kind: str) -> tuple[tuple[str, str, dict[str, str]], ...]:
    """A line of `kind` none of its spellings reads: how it is written."""
    return ((rf"{kind}(?: .*)?", N_("write: {usage}"), {"usage": USAGE[kind]}),)


def _said(kind: str, read: Callable[[str, State], Any]) -> Callable[[str, State], Any]:
    """A word of a `kind` line read, its refusal saying how the line is written."""

    def reading(word: str, state: State) -> Any:
        try:
            return read(word, state)
        except IllegalAction as exc:
            raise _with_usage(exc, USAGE[kind]) from exc

    return reading


def _company_slot(kind: str) -> Slot:
    return Slot(read=_said(kind, lambda word, state: _company(state, word)))


def _price_slot(kind: str) -> Slot:
    return Slot(read=_said(kind, lambda word, state: _number(word)))


def _sell_says(action: Action, who: str, names: Sequence[str]) -> str:
    count = action["count"]
    return ngettext(
        "{who} sells {count} share of {company}", "{who} sells {count} shares of {company}", count
    ).format(who=who, count=count, company=company(action["company"]))


SELL = Verb(
    type="sell",
    fields={
        "company": _company_slot("sell"),
        "count": Slot(
            read=_said("sell", lambda word, state: _number(word) if word else 1), optional=True
        ),
    },
    lines=line("sell {company} {count}"),
    usage=_written("sell"),
    says=_sell_says,
    gloss=lambda state, seat, action, names: share_gloss(state, action),
    group=N_("Sell shares"),
)


def _source(word: str, state: State) -> Any:
    if not word:
        return ABSENT  # the first source the purchase is legal from (`_first_source`)
    if word not in shares.SOURCES:
        raise refuse(
            "shares come from the ipo, a treasury or the pool, not {source}", source=repr(word)
        )
    return word


def _first_source(action: Action, state: State, seat: int) -> Action:
    if "source" in action:
        return action
    try:
        source = _default_source(state, seat, action["company"])
    except IllegalAction as exc:
        raise _with_usage(exc, USAGE["buy"]) from exc
    return {**action, "source": source}


def _buy_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} buys a share of {company} from {source}").format(
        who=who,
        company=company(action["company"]),
        source=_(SOURCES.get(str(action["source"]), N_("the market"))),
    )


BUY = Verb(
    type="buy",
    fields={
        "company": _company_slot("buy"),
        "source": Slot(read=_said("buy", _source), optional=True),
    },
    lines=line("buy {company} {source}"),
    usage=_written("buy"),
    complete=_first_source,
    says=_buy_says,
    gloss=lambda state, seat, action, names: share_gloss(state, action),
    group=N_("Buy shares"),
)


def _par_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} pars {company} at {price}").format(
        who=who, company=company(action["company"]), price=money(action["price"])
    )


def _par_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    # the director's certificate is two shares at the par price
    return _pay(action["company"], DIRECTOR_SHARES * action["price"])


def _pay(sym: str, due: int) -> str | None:
    if sym not in BY_SYM:
        return None
    return fit(_("{name}: pay {amount}").format(name=BY_SYM[sym].name, amount=money(due)))


PAR = Verb(
    type="par",
    fields={"company": _company_slot("par"), "price": _price_slot("par")},
    lines=line("par {company} {price}"),
    usage=_written("par"),
    says=_par_says,
    gloss=_par_gloss,
    group=lambda state, seat, action: _("Par {company}").format(
        company=company(action["company"])
    ),
)


def _convert_says(action: Action, who: str, names: Sequence[str]) -> str:
    return _("{who} converts {card} into {company} at {price}").format(
        who=who,
        card=private(action["card"]),
        company=company(action["company"]),
        price=money(action["price"]),
    )


def _convert_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str | None:
    # the concession pays its value towards the minor's first three shares
    due = max(0, MINOR_START_SHARES * action["price"] - CONCESSION_VALUE)
    return _pay(action["company"], due)


CONVERT = Verb(
    type="convert",
    fields={
        "card": Slot(read=lambda word, state: word.upper()),
        "company": _company_slot("convert"),
        "price": _price_slot("convert"),
    },
    lines=line("convert {card} {company} {price}"),
    usage=_written("convert"),
    says=_convert_says,
    gloss=_convert_gloss,
    group=N_("Convert a concession"),
)

VERBS = (SELL, BUY, PAR, CONVERT, PASS)
ACTIONS = frozenset(verb.type for verb in VERBS)


# A word a line cannot read, and how the move is written, as one sentence.
WITH_USAGE = {
    "there is no company {word} in this game": N_(
        "there is no company {word} in this game (write: {usage})"
    ),
    "{word} is not a number": N_("{word} is not a number (write: {usage})"),
    "shares come from the ipo, a treasury or the pool, not {source}": N_(
        "shares come from the ipo, a treasury or the pool, not {source} (write: {usage})"
    ),
}


def _with_usage(exc: IllegalAction, usage: str) -> IllegalAction:
    template = WITH_USAGE.get(exc.template or "")
    if template is None:  # not one of the lines' own: its English sentence
        return refuse("{reason} (write: {usage})", reason=exc.message, usage=usage)
    return refuse(template, **exc.params, usage=usage)


def _company(state: State, word: str) -> str:
    """The company a line names; `symbol` refuses only a name not in the game."""
    try:
        return symbol(state["companies"], word)
    except IllegalAction:
        raise refuse("there is no company {word} in this game", word=repr(word)) from None


# -- why an action is refused (None: allowed); `legal` and `apply` share them --


def _why_not_sell(state: State, seat: int, sym: Any, count: Any) -> Refused | None:
    if _first_round(state):
        return refuse("no shares may be sold in the first stock round")
    fault = _company_fault(state, sym)
    if fault:
        return fault
    return shares.can_sell(
        state["certificates"], sym, seat, count, operated=state["companies"][sym]["operated"]
    )


def _why_not_buy(state: State, seat: int, sym: Any, source: Any) -> Refused | None:
    fault = _company_fault(state, sym)
    if fault:
        return fault
    certs = state["certificates"]
    reason = shares.can_buy(
        certs,
        sym,
        seat,
        source,
        state["variant"],
        phase=state["phase"],
        sold_this_round=sym in data(state)["sold"].get(cash.player(seat), []),
    )
    if reason:
        return reason
    split = shares_of(BY_SYM[sym])
    if split.director_percent and shares.offered(certs, sym, source) == split.director_percent:
        return refuse(
            "{sym} has not been started: its director's certificate is bought with 'par'", sym=sym
        )
    if state["companies"][sym]["price"] is None:
        return refuse("{sym} has no share price yet", sym=sym)
    price, has = _price(state, sym), state["cash"][cash.player(seat)]
    if has < price:
        return refuse(
            "a {sym} share costs ${price}; you have ${has}", sym=sym, price=price, has=has
        )
    return None


def _why_not_par(state: State, seat: int, sym: Any, price: Any) -> Refused | None:
    return (
        _why_not_par_kind(state, sym)
        or _price_fault(price)
        or _why_not_par_director(state, seat, sym)
        or _why_not_par_cost(state, seat, price)
    )


def _why_not_par_company(state: State, seat: int, sym: str) -> Refused | None:
    """Everything `_why_not_par` asks of a company, whatever its price."""
    return _why_not_par_kind(state, sym) or _why_not_par_director(state, seat, sym)


def _why_not_par_kind(state: State, sym: Any) -> Refused | None:
    fault = _company_fault(state, sym)
    if fault:
        return fault
    kind = BY_SYM[sym].kind
    if kind == "minor":
        return refuse("a minor company is started only by converting a concession in the first SR")
    if kind == "fc":
        return refuse("the FC has no director's certificate; its shares are bought at its price")
    return None


def _price_fault(price: Any) -> Refused | None:
    if price not in market.PAR_PRICES:
        return refuse(
            "the par price is one of {prices}, not {price}",
            prices=", ".join(map(str, market.PAR_PRICES)),
            price=repr(price),
        )
    return None


def _why_not_par_director(state: State, seat: int, sym: str) -> Refused | None:
    certs = state["certificates"]
    if shares.offered(certs, sym, shares.IPO) != shares_of(BY_SYM[sym]).director_percent:
        return refuse("{sym} has been started already", sym=sym)
    reason = shares.can_buy(
        certs, sym, seat, shares.IPO, state["variant"], phase=state["phase"], sold_this_round=False
    )
    return reason or None


def _why_not_par_cost(state: State, seat: int, price: int) -> Refused | None:
    cost, has = DIRECTOR_SHARES * price, state["cash"][cash.player(seat)]
    if has < cost:
        return refuse(
            "the director's certificate at {price} costs ${cost}; you have ${has}",
            price=price,
            cost=cost,
            has=has,
        )
    return None


def _why_not_convert(state: State, seat: int, card: Any, sym: Any, price: Any) -> Refused | None:
    return (
        _why_not_convert_card(state, seat, card)
        or _why_not_convert_company(state, seat, sym)
        or _price_fault(price)
        or _why_not_convert_limit(state, seat)
        or _why_not_convert_cost(state, seat, sym, price)
    )


def _why_not_convert_card(state: State, seat: int, card: Any) -> Refused | None:
    if not _first_round(state):
        return refuse("concessions are converted only in the first stock round")
    private = state["privates"].get(card) if card in CONCESSIONS else None
    if private is None:
        return refuse("{card} is not a concession (M1 to M6)", card=repr(card))
    if private["owner"] != cash.player(seat) or private["out"]:
        return refuse("you do not hold concession {card}", card=str(card))
    if private["minor"] is not None:
        return refuse(
            "concession {card} has been converted into {minor} already",
            card=str(card),
            minor=str(private["minor"]),
        )
    return None


def _why_not_convert_company(state: State, seat: int, sym: Any) -> Refused | None:
    fault = _company_fault(state, sym)
    if fault:
        return fault
    if BY_SYM[sym].kind != "minor":
        return refuse("a concession is converted into a minor company; {sym} is not one", sym=sym)
    director_percent = shares_of(BY_SYM[sym]).director_percent
    if shares.offered(state["certificates"], sym, shares.IPO) != director_percent:
        return refuse("{sym} has been started already", sym=sym)
    return None


def _why_not_convert_limit(state: State, seat: int) -> Refused | None:
    """The minor's 60% is two certificates: room for them under the limit."""
    limit = BY_ID[state["variant"]].certificate_limit
    held = shares.certificate_count(state["certificates"], seat)
    if held + 2 > limit:
        return refuse(
            "you hold {held} certificates; two more would pass the limit of {limit}",
            held=held,
            limit=limit,
        )
    return None


def _why_not_convert_cost(state: State, seat: int, sym: str, price: int) -> Refused | None:
    """What the minor's 60% costs at `price`, less the concession's value."""
    due, has = MINOR_START_SHARES * price - CONCESSION_VALUE, state["cash"][cash.player(seat)]
    if has < due:
        return refuse(
            "starting {sym} at {price} costs ${due} besides the concession; you have ${has}",
            sym=sym,
            price=price,
            due=due,
            has=has,
        )
    return None


def _why_not_pass(state: State, seat: int) -> Refused | None:
    """A player above the certificate limit (a change of director they did
    not make can put them there) must sell down first when they can."""
    limit = BY_ID[state["variant"]].certificate_limit
    held = shares.certificate_count(state["certificates"], seat)
    if held <= limit:
        return None
    can_sell = any(_why_not_sell(state, seat, sym, 1) is None for sym in state["companies"])
    if can_sell:
        return refuse(
            "you hold {held} certificates, above the limit of {limit}: sell first",
            held=held,
            limit=limit,
        )
    return None


# -- what an action does --------------------------------------------------------


def _sell(state: State, seat: int, sym: str, count: int) -> None:
    """VI.4, IX.3: the current price per certificate from the bank, then the
    marker one cell down per certificate (never the FC's in a stock round)."""
    price = _price(state, sym)
    account = cash.player(seat)
    director = shares.director(state["certificates"], sym)
    state["certificates"] = shares.sell(state["certificates"], sym, seat, count, state["order"])
    _new_director(state, sym, director)
    state["cash"] = cash.transfer(state["cash"], cash.BANK, account, count * price)
    if BY_SYM[sym].kind != "fc":
        before = state["companies"][sym]["price"]
        move_marker(state, sym, market.down(before, count))
        log.price(state, sym, before, state["companies"][sym]["price"], "sold", count=count)
    sold = data(state)["sold"]
    sold[account] = sorted({*sold.get(account, []), sym})
    data(state)["turn"].append({"company": sym, "count": count})


def _buy(state: State, seat: int, sym: str, source: str) -> None:
    """One certificate at the current price, paid to the bank from every
    source, a major's treasury included: VI.5 says so in as many words, and
    the draft's text wins over an interpretation (README, "Where a purchase
    price goes", for the tension with VII.3.3 this leaves)."""
    price = _price(state, sym)
    account = cash.player(seat)
    cert = shares.offered(state["certificates"], sym, source)
    assert cert is not None  # `_why_not_buy` found it
    director = shares.director(state["certificates"], sym)
    certs = shares.move(state["certificates"], sym, source, account, cert)
    state["certificates"] = shares.change_director(certs, sym, state["order"])
    _new_director(state, sym, director)
    state["cash"] = cash.transfer(state["cash"], account, cash.BANK, price)
    _float(state, sym)
    _end_turn(state)


def _par(state: State, seat: int, sym: str, price: int) -> None:
    """VI.8: the director's certificate for twice the par price, to the bank;
    the marker on the par cell."""
    cell = market.PAR_CELLS[price]
    account = cash.player(seat)
    director_percent = shares_of(BY_SYM[sym]).director_percent
    state["certificates"] = shares.move(
        state["certificates"], sym, shares.IPO, account, director_percent
    )
    state["cash"] = cash.transfer(state["cash"], account, cash.BANK, DIRECTOR_SHARES * price)
    state["companies"][sym]["par"] = cell
    move_marker(state, sym, cell)
    _float(state, sym)
    _end_turn(state)


def _convert(state: State, seat: int, card: str, sym: str, price: int) -> None:
    """VI.7: three times the par price, $210 of it the concession's value and
    the rest the player's; the minor receives the three prices at once, with
    its two remaining shares in its treasury. This is the turn's purchase."""
    cell = market.PAR_CELLS[price]
    account = cash.player(seat)
    state["certificates"] = shares.inaugurate_minor(state["certificates"], sym, seat)
    ledger = cash.transfer(
        state["cash"], account, cash.BANK, MINOR_START_SHARES * price - CONCESSION_VALUE
    )
    ledger = cash.transfer(_with_account(ledger, sym), cash.BANK, sym, MINOR_START_SHARES * price)
    state["cash"] = ledger
    company = state["companies"][sym]
    company["par"] = cell
    company["floated"] = True
    move_marker(state, sym, cell)
    state["privates"][card]["minor"] = sym
    _end_turn(state)


def _pass(state: State) -> None:
    d = data(state)
    d["passes"] = 0 if d["turn"] else d["passes"] + 1
    _end_turn(state, reset=False)


def _end_turn(state: State, *, reset: bool = True) -> None:
    d = data(state)
    if reset:
        d["passes"] = 0
    d["turn"] = []
    order = state["order"]
    seat = int(state["round"]["entity"][1:])
    state["round"]["entity"] = cash.player(order[(order.index(seat) + 1) % len(order)])


def _float(state: State, sym: str) -> None:
    """VI.8: a major floats once 50% has left its offering (the pool counts)."""
    company = state["companies"][sym]
    if BY_SYM[sym].kind != "major" or company["floated"]:
        return
    if shares.sold_percent(state["certificates"], sym) >= FLOAT_PERCENT:
        company["floated"] = True
        data(state)["floated"].append(sym)
        log.note(state, "floated", company=sym)


def _new_director(state: State, sym: str, before: str | None) -> None:
    """VI.9: a purchase or a sale that hands the directorship on says so."""
    after = shares.director(state["certificates"], sym)
    if before is not None and after is not None and after != before:
        log.note(state, "director", company=sym, account=after)


# -- helpers the round's end uses too ------------------------------------------------


def move_marker(state: State, sym: str, cell: int) -> None:
    """The company's share price and its marker on the chart, kept together."""
    state["market"] = market.place(state["market"], sym, cell)
    state["companies"][sym]["price"] = cell


def _with_account(ledger: cash.Ledger, name: str) -> cash.Ledger:
    return ledger if name in ledger else cash.open_account(ledger, name)


def _acting(state: State, seat: int) -> bool:
    return active(state) and state["round"]["entity"] == cash.player(seat)


def _first_round(state: State) -> bool:
    return int(state["round"]["number"]) == 1


def _price(state: State, sym: str) -> int:
    cell = state["companies"][sym]["price"]
    if cell is None:
        raise refuse("{sym} has no share price yet", sym=sym)
    return market.CELLS[cell].price


def _units_held(state: State, sym: str, seat: int) -> int:
    """Ordinary certificates' worth held, a director's counted as what it is
    worth (a director may sell into it when another player can take it)."""
    return shares.units(sym, shares.percent(state["certificates"], sym, cash.player(seat)))


def _unstarted(state: State, sym: str) -> bool:
    printed = shares_of(BY_SYM[sym]).director_percent
    return bool(printed) and shares.offered(state["certificates"], sym, shares.IPO) == printed


def _company_fault(state: State, sym: Any) -> IllegalAction | None:
    if not isinstance(sym, str) or sym not in state["companies"]:
        return refuse("there is no company {word} in this game", word=repr(sym))
    return None


def _refuse(reason: Refused | None) -> None:
    if reason is not None:
        raise refusal(reason)


def _number(word: str) -> int:
    digits = word.removeprefix("$")
    if not digits.isdigit():
        raise refuse("{word} is not a number", word=repr(word))
    return int(digits)


def _default_source(state: State, seat: int, sym: str) -> str:
    for source in DEFAULT_SOURCES:
        if _why_not_buy(state, seat, sym, source) is None:
            return source
    # Nothing is buyable: name the first source that holds a certificate, so
    # the refusal says why that one is not.
    held = state["certificates"][sym]
    return next((s for s in DEFAULT_SOURCES if s in held), shares.IPO)
