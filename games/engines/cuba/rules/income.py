"""Who operates when and what a company's income does (draft VII.1, VII.3.8,
VII.3.12, IX.1-IX.2, the end in IX): a rules library over the plain-JSON
state that no round calls yet.

- ``operating_order(state)``: minors ascending by share price, majors
  descending, a shared cell top marker first, the FC last.
- ``pay_out(state, sym, revenue)`` / ``retain(state, sym, revenue)``: a major's
  or a minor's income to its shareholders or its treasury, and the marker's
  move right or left.
- ``minor_income``, ``cubes_for``, ``produce_cubes``: a minor's machines' bonus
  and the sugar cubes its income puts at its mill.
- ``fc_income``, ``fc_train_range``, ``operate_fc``: the FC's income, always
  paid out, its marker one space up, the unshipped cubes taken off.
- ``pay_fc_fee(state, company, passes)``: $20 per FC token passed, into the
  FC's treasury.

The functions that change the state change the one they are given (as the
steps do, on the copy `apply` hands them) and return a record for the log.
Every dollar moves by `cash.transfer`; the bank may go below zero (the
"piece of paper" of IX.1), and `Dividend.broke_bank` marks the payment that
emptied it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..data import market, trains
from ..data.companies import BY_SYM, FC, Company
from ..refusals import refuse
from . import cash, log, shares

State = Any

FC_FEE = 20  # per FC token passed (IV.5, VII.3.7, VII.3.12)
FC_CUBE_VALUE = 10  # per unshipped sugar cube in the FC's income (VII.3.12)
# A minor's income from which it puts 1, 2, 3 cubes at its mill (the gamedata:
# 0-29 none, 30-79 one, 80-150 two, 151 and more three).
CUBE_THRESHOLDS = (30, 80, 151)

Kind = Literal["payout", "retain"]


@dataclass(frozen=True)
class Dividend:
    """What one company's income did, for the log and the tests."""

    company: str
    kind: Kind
    revenue: int
    per_share: int  # per ordinary certificate: 10% of a major or the FC, 20% of a minor
    paid: dict[str, int] = field(default_factory=dict)  # account -> dollars from the bank
    retained: int = 0  # into the company's treasury
    price_before: int = 0  # market cells
    price_after: int = 0
    broke_bank: bool = False  # this payment emptied the bank (IX.1)


def operating_order(state: State) -> list[str]:
    """VII.1: the floated companies in the game, minors in ascending order of
    share price, then majors in descending order, then the FC. On a shared
    cell the marker on top runs first, in both directions (the draft says so
    for each); `market.by_price` keeps that order."""
    floated = [sym for sym, c in state["companies"].items() if c["floated"]]
    stacks = state["market"]
    minors = market.by_price(stacks, _of_kind(floated, "minor"), descending=False)
    majors = market.by_price(stacks, _of_kind(floated, "major"), descending=True)
    fc = [FC.sym] if FC.sym in floated else []
    return [*minors, *majors, *fc]


def units(sym: str) -> int:
    """How many ordinary certificates' worth a company's 100% is: ten for a
    major and the FC, five for a minor (whose price is per 20% share)."""
    return shares.units(sym, 100)


def dividend_per_share(sym: str, revenue: int) -> int:
    """The dividend per ordinary certificate, rounded down. Revenues are
    multiples of $10 (every stop, cube, fee and bonus is), so this divides
    evenly for every company; the odd dollars of any other revenue stay
    with the company (see `pay_out`)."""
    _check_amount(revenue)
    return revenue // units(sym)


def pay_out(state: State, sym: str, revenue: int) -> Dividend:
    """VII.3.8, IX.2: a major or a minor pays its whole revenue out. Each
    player receives the dividend per share for each share's worth held; the
    shares in the company's treasury pay the company; those in the bank pool
    (and an offering) pay the bank, which keeps the money. The marker moves
    one space right on a dividend above $0, else one space left."""
    _operating(state, sym, ("major", "minor"))
    per_share = dividend_per_share(sym, revenue)
    before = _bank(state)
    paid = _pay_holders(state, sym, per_share, treasury_to=sym)
    # The director collected the whole revenue from the bank (VII.3.8);
    # what cannot be split into whole dollars per share stays in the treasury.
    odd = revenue - per_share * units(sym)
    if odd:
        _transfer(state, cash.BANK, sym, odd)
        paid[sym] = paid.get(sym, 0) + odd
    log.note(state, "dividend", company=sym, revenue=revenue, per_share=per_share, paid=paid)
    move = market.right if per_share > 0 else market.left
    cell_before, cell_after = _move(state, sym, move)
    log.price(state, sym, cell_before, cell_after, "dividend" if per_share else "no_dividend")
    return Dividend(
        sym,
        "payout",
        revenue,
        per_share,
        paid,
        0,
        cell_before,
        cell_after,
        _broke(before, state),
    )


def retain(state: State, sym: str, revenue: int) -> Dividend:
    """VII.3.8, IX.2: the whole revenue into the company's treasury; the
    marker moves one space left."""
    _operating(state, sym, ("major", "minor"))
    _check_amount(revenue)
    before = _bank(state)
    _transfer(state, cash.BANK, sym, revenue)
    if revenue:
        log.note(state, "retained", company=sym, revenue=revenue)
    cell_before, cell_after = _move(state, sym, market.left)
    log.price(state, sym, cell_before, cell_after, "no_dividend")
    return Dividend(
        sym, "retain", revenue, 0, {}, revenue, cell_before, cell_after, _broke(before, state)
    )


def minor_income(route_revenue: int, machines: Iterable[int]) -> int:
    """A minor's income: its train's route plus each machine's bonus
    (VII.3.11). A minor whose train earns nothing gets no bonus: the machines
    process the cane its train brings to the mill."""
    _check_amount(route_revenue)
    if route_revenue == 0:
        return 0
    return route_revenue + trains.machines_bonus(machines)


def cubes_for(income: int) -> int:
    """The sugar cubes a minor's income produces (the gamedata's thresholds),
    counted on its income with the machines' bonus (VII.3.7 "according to
    their income"; VII.3.11 adds the bonus to the income)."""
    _check_amount(income)
    return sum(1 for threshold in CUBE_THRESHOLDS if income >= threshold)


def produce_cubes(state: State, sym: str, income: int) -> int:
    """Put the cubes of `income` at the minor's mill, whether it paid out or
    retained (VII.3.8); returns how many."""
    _operating(state, sym, ("minor",))
    made = cubes_for(income)
    state["companies"][sym]["cubes"] += made
    if made:
        log.note(state, "cubes", company=sym, cubes=made, income=income)
    return made


def unshipped_cubes(state: State) -> int:
    """The cubes waiting at the minors' mills."""
    return sum(
        c["cubes"] for sym, c in state["companies"].items() if _company(sym).kind == "minor"
    )


def fc_train_range(state: State) -> int:
    """The cities the FC's train counts: the topmost card of its stack (the
    newest export), the preprinted 1-train before the first (VII.3.12)."""
    stack = state["fc_trains"]
    card = trains.BY_NAME[stack[-1]] if stack else trains.FC_TRAIN
    return card.distance


def fc_income(city_revenues: Sequence[int], train_range: int, cubes: int) -> int:
    """VII.3.12: the cities with FC tokens, as many as the train's range (the
    best ones), plus $10 per unshipped cube. `city_revenues`: the current
    revenue of each city holding an FC token (the map's business)."""
    if train_range < 0:
        raise ValueError(f"a train range is at least 0, not {train_range}")
    for amount in (*city_revenues, cubes):
        _check_amount(amount)
    best = sorted(city_revenues, reverse=True)[:train_range]
    return sum(best) + FC_CUBE_VALUE * cubes


def operate_fc(state: State, city_revenues: Sequence[int], train_range: int) -> Dividend:
    """The FC's turn (VII.3.12, IX.2): its income is always paid out, to the
    players holding its shares; the shares still on the map board (its
    offering) and in the pool pay the bank, which keeps the money, and so are
    the odd dollars. The money in its treasury (the fees) goes back to the
    bank. The unshipped cubes are taken off the mills: the FC has carried
    them. The marker moves one space diagonally up on a dividend above $0
    and stays on $0."""
    _operating(state, FC.sym, ("fc",))
    cubes = unshipped_cubes(state)
    income = fc_income(city_revenues, train_range, cubes)
    per_share = dividend_per_share(FC.sym, income)
    before = _bank(state)
    held = state["cash"].get(FC.sym, 0)
    if held:
        _transfer(state, FC.sym, cash.BANK, held)
    paid = _pay_holders(state, FC.sym, per_share, treasury_to=None)
    log.note(
        state,
        "fc",
        revenue=income,
        cities=sorted(city_revenues, reverse=True)[:train_range],
        range=train_range,
        cubes=cubes,
        per_share=per_share,
        paid=paid,
        fees=held,
    )
    for sym, charter in state["companies"].items():
        if _company(sym).kind == "minor":
            charter["cubes"] = 0
    move = market.up if per_share > 0 else _stay
    cell_before, cell_after = _move(state, FC.sym, move)
    log.price(state, FC.sym, cell_before, cell_after, "dividend" if per_share else "no_dividend")
    return Dividend(
        FC.sym,
        "payout",
        income,
        per_share,
        paid,
        0,
        cell_before,
        cell_after,
        _broke(before, state),
    )


def pay_fc_fee(state: State, company: str, passes: int) -> int:
    """A major pays $20 per FC token it passes, into the FC's treasury
    (VII.3.12), which goes back to the bank when the FC operates; returns the
    fee. The company must have the money (the fee is voluntary: the caller
    offers only what it can pay)."""
    info = _company(company)
    if info.kind != "major":
        raise refuse("only a major company may pay to pass an FC token")
    if not isinstance(passes, int) or isinstance(passes, bool) or passes < 0:
        raise refuse("pass no FC token or more, not {passes}", passes=repr(passes))
    fee = FC_FEE * passes
    if fee:
        state["cash"] = _with_account(state["cash"], FC.sym)
        _transfer(state, company, FC.sym, fee)
        log.note(state, "fc_fee", company=company, passes=passes, fee=fee)
    return fee


def _pay_holders(
    state: State, sym: str, per_share: int, *, treasury_to: str | None
) -> dict[str, int]:
    """The bank pays each player, and the company for its treasury shares
    when `treasury_to` names it, `per_share` per ordinary certificate's worth."""
    paid: dict[str, int] = {}
    for holder, held in sorted(state["certificates"][sym].items()):
        if holder in (shares.IPO, shares.POOL):
            continue
        payee = treasury_to if holder == shares.TREASURY else holder
        if payee is None:
            continue
        amount = shares.units(sym, sum(held)) * per_share
        if amount:
            _transfer(state, cash.BANK, payee, amount)
            paid[payee] = paid.get(payee, 0) + amount
    return paid


def _move(state: State, sym: str, how: Any) -> tuple[int, int]:
    before = state["companies"][sym]["price"]
    after = how(before)
    state["market"] = market.place(state["market"], sym, after)
    state["companies"][sym]["price"] = after
    return before, after


def _stay(index: int) -> int:
    return index


def _transfer(state: State, payer: str, payee: str, amount: int) -> None:
    ledger = _with_account(state["cash"], payee)
    state["cash"] = cash.transfer(ledger, payer, payee, amount)


def _with_account(ledger: cash.Ledger, name: str) -> cash.Ledger:
    return ledger if name in ledger else cash.open_account(ledger, name)


def _bank(state: State) -> int:
    return int(state["cash"][cash.BANK])


def _broke(before: int, state: State) -> bool:
    return before > 0 and cash.bank_broken(state["cash"])


def _operating(state: State, sym: str, kinds: tuple[str, ...]) -> None:
    info = _company(sym)
    if info.kind not in kinds:
        raise refuse("{sym} is not a {kinds} company", sym=sym, kinds=" or ".join(kinds))
    charter = state["companies"].get(sym)
    if charter is None or not charter["floated"] or charter["price"] is None:
        raise refuse("{sym} does not operate in this game now", sym=sym)


def _check_amount(amount: Any) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise refuse("an income is a whole number of dollars, not {amount}", amount=repr(amount))


def _of_kind(syms: Iterable[str], kind: str) -> list[str]:
    return [s for s in syms if _company(s).kind == kind]


def _company(sym: str) -> Company:
    if sym not in BY_SYM:
        raise refuse("there is no company {sym}", sym=repr(sym))
    return BY_SYM[sym]
