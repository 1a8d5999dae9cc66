"""Trains, wagons and machines changing hands, and the phase changes they
trigger (draft VII.3.9, VII.3.11, VII.3.13-14 and the phase table), as a
library the operating round's train step will call.

Every purchase has a `*_fault` that returns the sentence refusing it (None:
legal) and a doer that raises `IllegalAction` with that sentence or changes
the state in place, as a step's `apply` does (the engine plays every move on
its own copy), and returns a `Changes` saying what else moved: the phases
started, the cards scrapped, turned or sent to the pool. Money moves only by
`cash.transfer`, so the bank's 8,000 is conserved.

Cards are named as in `trains.BY_NAME` ("3+", "4D"); an obsolete n-train is
held under the name it runs as ("3-1n"). Wagons are named as in
`trains.WAGONS`, machines are their generation, depot stacks are keyed as in
`setup.depot`. The rules decisions are in the README ("Trains, phases and
rolling stock (library)").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Literal

from ...i18n import N_
from ..data.companies import BY_SYM, in_game
from ..data.phases import BY_TRIGGER
from ..data.phases import phase as phase_of
from ..data.trains import (
    BY_NAME,
    MACHINE_BY_GENERATION,
    MACHINES,
    MAX_MACHINES_PER_MINOR,
    MINOR_TRAIN_LIMIT,
    NARROW,
    STANDARD,
    STANDARD_COUNTS,
    WAGONS,
    TrainCard,
    Wagon,
    machines_bonus,
)
from ..refusals import reason, refusal, refuse
from . import cash, log
from .privates import n_train_discount, use_n_train_discount

State = dict[str, Any]
Source = Literal["depot", "pool"]

WAGON_BY_NAME: dict[str, Wagon] = {w.name: w for w in WAGONS}
# An obsolete n-train is the same card turned over.
OBSOLETE: dict[str, TrainCard] = {t.obsolete_as: t for t in NARROW if t.obsolete_as}
# The type an n-train is traded in for: the next one, never skipping one.
NEXT_NARROW: dict[str, str] = {a.name: b.name for a, b in pairwise(NARROW)}
STANDARD_STACKS: tuple[str, ...] = tuple(STANDARD_COUNTS)
# Every card a mail line may name, by its name in lower case (`card_named`).
_CARDS = {name.lower(): name for name in [*BY_NAME, *OBSOLETE, *WAGON_BY_NAME]}


@dataclass
class Changes:
    """What a purchase or an export did besides the card bought."""

    paid: int = 0
    phases: list[int] = field(default_factory=list)  # phases started, in order
    rusted: list[tuple[str, str]] = field(default_factory=list)  # (holder, card); "pool"
    obsolete: list[tuple[str, str]] = field(default_factory=list)  # (holder, new name)
    to_pool: list[tuple[str, str]] = field(default_factory=list)  # (company, card)
    discarded: list[str] = field(default_factory=list)  # n-trains traded in


# --- cards -------------------------------------------------------------------


def train_card(name: str) -> TrainCard:
    """The printed card behind a held name ("3-1n" is the 3n turned over)."""
    return OBSOLETE.get(name) or BY_NAME[name]


def card_named(word: str) -> str:
    """The train or wagon a mail line names, in any case ("2N" is the 2n)."""
    if word.lower() not in _CARDS:
        raise refuse("there is no train or wagon {card}", card=repr(word))
    return _CARDS[word.lower()]


def is_train(name: str) -> bool:
    return name in BY_NAME or name in OBSOLETE


def value(name: str) -> int:
    """A train's or wagon's face value: an obsolete n-train is worth half."""
    if name in WAGON_BY_NAME:
        return WAGON_BY_NAME[name].price
    if name in OBSOLETE:
        return OBSOLETE[name].price // 2
    return BY_NAME[name].price


def stack_of(name: str) -> str:
    """The depot key a card was drawn from (`setup.depot`)."""
    if name in WAGON_BY_NAME:
        return name
    return train_card(name).stack


def kind_of(company: str) -> str:
    return BY_SYM[company].kind


def train_limit(state: State, company: str) -> int | None:
    """Trains (and, for a major, wagons) the company may own now; None: no limit
    (the FC's stack of exported trains)."""
    kind = kind_of(company)
    if kind == "minor":
        return MINOR_TRAIN_LIMIT
    if kind == "major":
        return phase_of(state["phase"]).major_train_limit
    return None


def top_standard_stack(state: State) -> str | None:
    """The standard stack on sale: the first one not empty (VII.3.9: new
    standard trains are bought in ascending order)."""
    for stack in STANDARD_STACKS:
        left = state["depot"].get(stack)
        if left is None or left > 0:
            return stack
    return None


def narrow_on_sale(state: State, card: TrainCard) -> bool:
    """An n-train type is sold from its phase (the table) until it turns
    obsolete or is scrapped: a new card is never sold turned over."""
    p = state["phase"]
    if card.available_from_phase > p:
        return False
    for gone in (card.rusts_in_phase, card.obsolete_in_phase):
        if gone is not None and gone <= p:
            return False
    return (state["depot"].get(card.name) or 0) > 0


# --- what may be bought --------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    card: str  # train or wagon name; "machine-<generation>" for a machine
    source: Source
    price: int


def depot_offers(state: State, company: str) -> list[Offer]:
    """What the company may buy from the bank now, at the printed price
    (money and train limit aside: see `purchase_fault`). Majors: the standard
    trains of the top stack and the wagons on sale; minors: the n-trains on
    sale and the machines (`machine_offers`)."""
    kind = kind_of(company)
    offers: list[Offer] = []
    if kind == "major":
        top = top_standard_stack(state)
        offers += [Offer(t.name, "depot", t.price) for t in STANDARD if t.stack == top]
        for wagon in WAGONS:
            if wagon_on_sale(state, wagon):
                offers.append(Offer(wagon.name, "depot", wagon.price))
    elif kind == "minor":
        offers += [Offer(t.name, "depot", t.price) for t in NARROW if narrow_on_sale(state, t)]
        offers += machine_offers(state, company)
    return offers


def wagon_on_sale(state: State, wagon: Wagon) -> bool:
    on_sale = wagon.available_from_phase <= state["phase"]
    return on_sale and (state["depot"].get(wagon.name) or 0) > 0


def pool_offers(state: State, company: str) -> list[Offer]:
    """The pool's cards of the company's kind, each name once, at face value."""
    kind = kind_of(company)
    seen: list[Offer] = []
    for name in dict.fromkeys(state["pool"]):
        if _fits(kind, name):
            seen.append(Offer(name, "pool", value(name)))
    return seen


def _fits(kind: str, name: str) -> bool:
    """Minors own only n-trains; majors only standard trains and wagons."""
    if name in WAGON_BY_NAME:
        return kind == "major"
    if not is_train(name):
        return False
    gauge = train_card(name).gauge
    return (kind == "major" and gauge == "standard") or (kind == "minor" and gauge == "narrow")


def purchase_fault(state: State, company: str, card: str, source: Source = "depot") -> str | None:
    """Why the company may not buy this train or wagon now; None: it may."""
    fault = _owner_fault(state, company)
    if fault:
        return fault
    kind = kind_of(company)
    if not isinstance(card, str) or not (is_train(card) or card in WAGON_BY_NAME):
        return reason(N_("there is no train or wagon {card}"), card=repr(card))
    if not _fits(kind, card):
        what = "n-trains and machines" if kind == "minor" else "standard trains and wagons"
        return reason(
            N_("{company} is a {kind} company and buys only {what}"),
            company=company,
            kind=kind,
            what=what,
        )
    if source == "pool":
        if card not in state["pool"]:
            return reason(N_("there is no {card} in the bank pool"), card=card)
    elif source == "depot":
        fault = _depot_fault(state, company, card)
        if fault:
            return fault
    else:
        return reason(
            N_("trains are bought from the bank or the bank pool, not {source}"),
            source=repr(source),
        )
    fault = _limit_fault(state, company, card)
    if fault:
        return fault
    price = purchase_price(state, company, card, source)
    if state["cash"][company] < price:
        return reason(
            N_("{company} has ${cash} and the {card} costs ${price}"),
            company=company,
            cash=state["cash"][company],
            card=card,
            price=price,
        )
    return None


def _owner_fault(state: State, company: str) -> str | None:
    if not isinstance(company, str) or company not in BY_SYM:
        return reason(N_("there is no company {company}"), company=repr(company))
    if company not in state["companies"]:
        return reason(N_("{company} is not in this game"), company=company)
    if kind_of(company) == "fc":
        return reason(N_("the FC buys no trains: it receives the exported ones"))
    if not state["companies"][company]["floated"] or company not in state["cash"]:
        return reason(N_("{company} has not floated"), company=company)
    return None


def _depot_fault(state: State, company: str, card: str) -> str | None:
    if card in WAGON_BY_NAME:
        if not wagon_on_sale(state, WAGON_BY_NAME[card]):
            return reason(
                N_("no {card} is on sale in phase {phase}"), card=card, phase=state["phase"]
            )
        return None
    printed = train_card(card)
    if card in OBSOLETE:
        return reason(N_("the bank sells no {card}: new cards are not turned over"), card=card)
    if printed.gauge == "standard":
        top = top_standard_stack(state)
        if printed.stack != top:
            return reason(
                N_("standard trains are bought in ascending order: the {top} stack is on sale"),
                top=top,
            )
        return None
    if not narrow_on_sale(state, printed):
        return reason(N_("no {card} is on sale in phase {phase}"), card=card, phase=state["phase"])
    return None


def _limit_fault(state: State, company: str, card: str) -> str | None:
    # VII.3.9: a company at its limit may not buy even when the purchase
    # would scrap some of its trains; the limit is checked before the sale.
    limit = train_limit(state, company)
    assert limit is not None
    charter = state["companies"][company]
    held = charter["wagons"] if card in WAGON_BY_NAME else charter["trains"]
    what = "wagons" if card in WAGON_BY_NAME else "trains"
    if len(held) >= limit:
        return reason(
            N_("{company} owns {count} {what}, its limit in phase {phase}"),
            company=company,
            count=len(held),
            what=what,
            phase=state["phase"],
        )
    return None


def purchase_price(state: State, company: str, card: str, source: Source = "depot") -> int:
    """The printed price (depot) or the face value (pool), less #6's discount
    on the first n-train the minor holding it buys."""
    return max(0, value(card) - _discount(state, company, card))


def _discount(state: State, company: str, card: str) -> int:
    if not is_train(card) or train_card(card).gauge != "narrow":
        return 0
    return n_train_discount(state, company)


def buy(state: State, company: str, card: str, source: Source = "depot") -> Changes:
    """The company buys a train or wagon from the bank or the pool: the money
    goes to the bank, the card to the company, and a new standard type starts
    its phase with every consequence (`start_phase`)."""
    fault = purchase_fault(state, company, card, source)
    if fault:
        raise refusal(fault)
    price = purchase_price(state, company, card, source)
    if _discount(state, company, card):
        use_n_train_discount(state, company)
    state["cash"] = cash.transfer(state["cash"], company, cash.BANK, price)
    charter = state["companies"][company]
    if source == "pool":
        state["pool"].remove(card)
    else:
        _draw(state, stack_of(card))
    (charter["wagons"] if card in WAGON_BY_NAME else charter["trains"]).append(card)
    changes = Changes(paid=price)
    if source == "depot" and is_train(card):
        _trigger(state, stack_of(card), changes)
    return changes


def _draw(state: State, stack: str) -> None:
    if state["depot"][stack] is not None:
        state["depot"][stack] -= 1


def _trigger(state: State, stack: str, changes: Changes) -> None:
    """The first card of a standard stack starts its phase (VII.3.14)."""
    started = BY_TRIGGER.get(stack)
    if started is None:
        return
    while state["phase"] < started.number:
        start_phase(state, state["phase"] + 1, changes)


# --- phase changes -------------------------------------------------------------


def start_phase(state: State, number: int, changes: Changes | None = None) -> Changes:
    """Start phase `number` with the table's consequences: trains scrapped
    (from the companies and the pool, out of the game) and n-trains turned
    obsolete. A major left over its new limit keeps its cards until its
    director chooses which go to the pool (`over_limit`, `discard`; the
    operating round asks at once). What goes on sale follows from
    `state["phase"]`."""
    changes = changes if changes is not None else Changes()
    ph = phase_of(number)
    state["phase"] = number
    changes.phases.append(number)
    rusted_before, obsolete_before = len(changes.rusted), len(changes.obsolete)
    scrapped = set(ph.rusts) | {
        t.obsolete_as for t in NARROW if t.name in ph.rusts and t.obsolete_as
    }
    turned = {t.name: t.obsolete_as for t in NARROW if t.name in ph.obsolete and t.obsolete_as}
    holders: list[tuple[str, list[str]]] = [
        (sym, state["companies"][sym]["trains"]) for sym in in_game(state["companies"])
    ]
    holders.append(("pool", state["pool"]))
    for holder, cards in holders:
        kept: list[str] = []
        for name in cards:
            if name in scrapped:
                changes.rusted.append((holder, name))
            elif name in turned:
                kept.append(turned[name])
                changes.obsolete.append((holder, turned[name]))
            else:
                kept.append(name)
        cards[:] = kept
    log.note(
        state,
        "phase",
        phase=number,
        rusted=[list(p) for p in changes.rusted[rusted_before:]],
        obsolete=[list(p) for p in changes.obsolete[obsolete_before:]],
    )
    return changes


# --- surplus cards after a phase change (VII.3.9) ---------------------------------

SurplusKind = Literal["trains", "wagons"]


def over_limit(state: State) -> list[tuple[str, SurplusKind]]:
    """The majors holding more trains, or more wagons, than the phase allows
    (only a phase change puts one there: every purchase checks the limit
    first), as (company, "trains" | "wagons"), in the printed order of the
    charters: the order in which their directors choose."""
    # Asked at every step of every round (whether the surplus step is
    # open), so the phase's limit is looked up once, not once per company.
    limit = phase_of(state["phase"]).major_train_limit
    out: list[tuple[str, SurplusKind]] = []
    if limit is None:
        return out
    for sym in in_game(state["companies"]):
        if kind_of(sym) != "major":
            continue
        charter = state["companies"][sym]
        kinds: tuple[SurplusKind, ...] = ("trains", "wagons")
        out += [(sym, key) for key in kinds if len(charter[key]) > limit]
    return out


def discard_fault(state: State, company: str, card: str) -> str | None:
    """Why `company` may not give up `card` to the pool now; None: it may.
    Only a company over its limit gives up a card, and only of the kind it
    holds too many of ("Trains that are surplus as the result of a phase
    change go into the bank pool", VII.3.9)."""
    if not isinstance(company, str) or company not in state["companies"]:
        return reason(N_("there is no company {company}"), company=repr(company))
    over = [key for sym, key in over_limit(state) if sym == company]
    if not over:
        return reason(N_("{company} is within its train limit"), company=company)
    held = [c for key in over for c in state["companies"][company][key]]
    if not isinstance(card, str) or card not in held:
        return reason(
            N_("{company} has no surplus {card} to give up"), company=company, card=repr(card)
        )
    return None


def discard(state: State, company: str, card: str) -> Changes:
    """The company gives `card` to the bank pool, without compensation."""
    fault = discard_fault(state, company, card)
    if fault:
        raise refusal(fault)
    charter = state["companies"][company]
    key = "wagons" if card in WAGON_BY_NAME else "trains"
    charter[key].remove(card)
    state["pool"].append(card)
    return Changes(to_pool=[(company, card)])


def surplus(cards: list[str]) -> str:
    """The card a director who lets the clock run out gives up: the
    cheapest, the oldest of equals (what the engine took for them before
    the choice was theirs)."""
    return min(enumerate(cards), key=lambda ic: (value(ic[1]), ic[0]))[1]


def export_to_fc(state: State) -> Changes:
    """The end of a set of ORs (VII.3.13): the top standard card goes to the
    FC's stack (an 8, never a 4D; a "3" stack gives a 3) and may start a phase."""
    stack = top_standard_stack(state)
    if stack is None:
        raise refuse("no standard train is left to export")
    card = next(t.name for t in STANDARD if t.stack == stack)
    _draw(state, stack)
    state["fc_trains"].append(card)
    log.note(state, "export", card=card)
    changes = Changes()
    _trigger(state, stack, changes)
    return changes


# --- n-train trade-in ----------------------------------------------------------


def trade_in_price(state: State, company: str, old: str) -> int:
    """The next type's price less half the old train's value (VII.3.9; an
    obsolete train is worth half, so a 3-1n credits a quarter of 180)."""
    new = BY_NAME[NEXT_NARROW[train_card(old).name]]
    return max(0, new.price - value(old) // 2 - _discount(state, company, new.name))


def trade_in_fault(state: State, company: str, old: str, *, traded_this_or: bool) -> str | None:
    """Why the minor may not trade `old` in for the next n-train type now.
    `traded_this_or`: the company has traded in this OR already (the train
    step keeps that)."""
    fault = _owner_fault(state, company)
    if fault:
        return fault
    if kind_of(company) != "minor":
        return reason(N_("only minors own n-trains to trade in"))
    if traded_this_or:
        return reason(
            N_("{company} has traded in a train this operating round already"), company=company
        )
    if not isinstance(old, str) or old not in state["companies"][company]["trains"]:
        return reason(N_("{company} owns no {old}"), company=company, old=old)
    base = train_card(old).name
    if base not in NEXT_NARROW:
        return reason(N_("there is no n-train type after the {base}"), base=base)
    new = BY_NAME[NEXT_NARROW[base]]
    if not narrow_on_sale(state, new):
        return reason(
            N_("no {name} is on sale in the bank, and no type may be skipped"), name=new.name
        )
    price = trade_in_price(state, company, old)
    if state["cash"][company] < price:
        return reason(
            N_("{company} has ${cash} and the {name} costs ${price}"),
            company=company,
            cash=state["cash"][company],
            name=new.name,
            price=price,
        )
    return None


def trade_in(state: State, company: str, old: str, *, traded_this_or: bool) -> Changes:
    """The old n-train leaves the game; the next type comes from the depot.
    The train count does not change, so a minor at its limit may trade in."""
    fault = trade_in_fault(state, company, old, traded_this_or=traded_this_or)
    if fault:
        raise refusal(fault)
    new = NEXT_NARROW[train_card(old).name]
    price = trade_in_price(state, company, old)
    if _discount(state, company, new):
        use_n_train_discount(state, company)
    state["cash"] = cash.transfer(state["cash"], company, cash.BANK, price)
    trains = state["companies"][company]["trains"]
    trains[trains.index(old)] = new
    _draw(state, new)
    return Changes(paid=price, discarded=[old])


def trade_in_offers(state: State, company: str) -> list[Offer]:
    """Each of the minor's trains it may trade in now, priced (the card is the
    old train; the new one is `NEXT_NARROW`)."""
    return [
        Offer(old, "depot", trade_in_price(state, company, old))
        for old in dict.fromkeys(state["companies"][company]["trains"])
        if trade_in_fault(state, company, old, traded_this_or=False) is None
    ]


# --- machines ------------------------------------------------------------------


def machine_stack(generation: int) -> str:
    return f"machine-{generation}"


def machine_price(state: State, generation: int) -> int:
    """The price of the generation's next machine (VII.3.11). The spaces are
    sold from the cheap end; the four prices share them evenly (12: three
    each, so "the first three are cheaper"; 8: two; 4: one). #3 took its
    machine from the dear end, which does not move the cheap end."""
    machine = MACHINE_BY_GENERATION[generation]
    left = state["depot"][machine_stack(generation)]
    from_m3 = 1 if state["privates"]["M3"]["machine"] == generation else 0
    sold = machine.count - left - from_m3
    per_price = machine.count // len(machine.prices)
    return machine.prices[min(sold // per_price, len(machine.prices) - 1)]


def machine_on_sale(state: State, generation: int) -> bool:
    machine = MACHINE_BY_GENERATION.get(generation)
    return (
        machine is not None
        and machine.available_from_phase <= state["phase"]
        and (state["depot"].get(machine_stack(generation)) or 0) > 0
    )


def machine_offers(state: State, company: str) -> list[Offer]:
    return [
        Offer(machine_stack(m.generation), "depot", machine_price(state, m.generation))
        for m in MACHINES
        if machine_on_sale(state, m.generation)
    ]


def machine_fault(state: State, company: str, generation: int) -> str | None:
    fault = _owner_fault(state, company)
    if fault:
        return fault
    if kind_of(company) != "minor":
        return reason(N_("only minor companies buy machines"))
    if not isinstance(generation, int) or generation not in MACHINE_BY_GENERATION:
        return reason(
            N_("there is no machine generation {generation}"), generation=repr(generation)
        )
    if not machine_on_sale(state, generation):
        return reason(
            N_("no machine of generation {generation} is on sale in phase {phase}"),
            generation=generation,
            phase=state["phase"],
        )
    held = len(state["companies"][company]["machines"])
    if held >= MAX_MACHINES_PER_MINOR:
        return reason(
            N_("{company} owns {held} machines, the most a minor may own"),
            company=company,
            held=held,
        )
    price = machine_price(state, generation)
    if state["cash"][company] < price:
        return reason(
            N_("{company} has ${cash} and the machine costs ${price}"),
            company=company,
            cash=state["cash"][company],
            price=price,
        )
    return None


def buy_machine(state: State, company: str, generation: int) -> Changes:
    fault = machine_fault(state, company, generation)
    if fault:
        raise refusal(fault)
    price = machine_price(state, generation)
    state["cash"] = cash.transfer(state["cash"], company, cash.BANK, price)
    state["depot"][machine_stack(generation)] -= 1
    state["companies"][company]["machines"].append(generation)
    return Changes(paid=price)


def machine_bonus(charter: Any) -> int:
    """What a minor's machines add to its income (+10/+20/+40 per generation)."""
    return machines_bonus(charter["machines"])
