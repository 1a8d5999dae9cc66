"""The privates of 18Cuba (draft IV.1, IV.2): the six railroad commissioners
and the six concessions as static data, and the rules of their abilities as a
library the steps call.

- Commissioners lay one extra tile with a company their owner directs, in
  the operating round's track step (`commissioner_lays`, `commissioner_lay`):
  the funding is paid to the owner and the card goes back to the box.
- Concessions are drafted in the opening (`steps.concession`) and exchanged
  for a minor in the first stock round; four of them then show an ability on
  their back that the owner puts into a company (`assignable`, `assign`):
  #2 a 1-wagon and #5 the mail contract into a major, #3 a sugar mill machine
  and #6 an $80 n-train discount into a minor. #4's FC share comes with the
  card when it is chosen (`take_concession`).

The functions taking a state change it in place, as a step's `apply` does:
the engine plays every move on its own copy and throws it away when a rule
refuses the move. Terrain costs and FC fees of a commissioner's lay are the
laying company's, paid by the caller as for its normal lay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...i18n import N_
from ..data.companies import BY_SYM, FC
from ..data.phases import phase as phase_of
from ..data.trains import MACHINES, MAX_MACHINES_PER_MINOR, WAGONS
from ..map.laying import COMMISSIONER_TILES, Layer, LayResult, check_lay, legal_lays
from ..map.laying import apply_lay as _apply_lay
from ..refusals import reason, refusal, refuse
from . import cash, log, shares

State = dict[str, Any]
Ability = Literal["wagon", "machine", "fc_share", "mail", "n_train_discount"]


@dataclass(frozen=True)
class Commissioner:
    """A member of the Railroad Commission (IV.1): one extra tile lay."""

    card: str  # "C1"
    number: int
    name: str
    function: str  # the body the member sat for
    funding: int  # paid by the bank to the owner when the tile is laid

    @property
    def tile_color(self) -> str:
        return COMMISSIONER_TILES[self.number][0]

    @property
    def tile_kind(self) -> str:
        """ "plain" (sugar field tiles included) or "city" (never a Y city)."""
        return COMMISSIONER_TILES[self.number][1]


@dataclass(frozen=True)
class Concession:
    """A concession of the Royal Development Board (IV.2): $210 towards a
    minor's 60%, most with an ability for a player, a major or a minor."""

    card: str  # "M1"
    number: int
    name: str
    cost: int
    ability: Ability | None
    text: str  # the ability as the card words it

    @property
    def assign_to(self) -> Literal["major", "minor"] | None:
        """The kind of company the ability is put into; None for #1 and #4."""
        if self.ability in ("wagon", "mail"):
            return "major"
        if self.ability in ("machine", "n_train_discount"):
            return "minor"
        return None


HAVANA_COUNCIL = "Ayuntamiento de la Habana (Havana City Council)"
COMMISSIONERS: tuple[Commissioner, ...] = (
    Commissioner("C1", 1, "Juan Tirry y Lacy", "Marquis de la Cañada", 30),
    Commissioner("C2", 2, "José a. Ferrety", "Sociedad Económica", 35),
    Commissioner("C3", 3, "Carlos Pedroso", "Real Consulado", 40),
    Commissioner("C4", 4, "Domingo Herrera", HAVANA_COUNCIL, 50),
    Commissioner("C5", 5, "Andrés de Zayas", HAVANA_COUNCIL, 70),
    Commissioner("C6", 6, "Francisco Romero", "Real Consulado", 80),
)

CONCESSIONS: tuple[Concession, ...] = (
    Concession("M1", 1, "Claudio Martínez de Pinillos, Count of Villanueva", 120, None, ""),
    Concession(
        "M2",
        2,
        "Wenceslao de Villaurrutia, secretary",
        140,
        "wagon",
        "+1-wagon; must be assigned to a major company",
    ),
    Concession(
        "M3",
        3,
        "Antonio M. de Escovedo, trustee",
        150,
        "machine",
        "may be exchanged at any time for one sugar mill machine, if available, "
        "for a minor company; taken from the most expensive space",
    ),
    Concession("M4", 4, "Joaquín de Uriarte, subintendant", 170, "fc_share", "+10% FC share"),
    Concession(
        "M5",
        5,
        "Miguel A. Herrera",
        180,
        "mail",
        "mail contract; must be assigned to a major company, which earns +10/20/30/40 "
        "at the start of its turn in an OR",
    ),
    Concession(
        "M6",
        6,
        "Alfred Cruger, first engineer",
        200,
        "n_train_discount",
        "$80 discount on an n-train for a minor company",
    ),
)

COMMISSIONER_BY_CARD: dict[str, Commissioner] = {c.card: c for c in COMMISSIONERS}
CONCESSION_BY_CARD: dict[str, Concession] = {c.card: c for c in CONCESSIONS}

CONCESSION_VALUE = 210  # what a concession pays towards a minor's 60% (IV.2, VI.7)
FC_SHARE = 10  # #4's certificate, out of the FC's offering
N_TRAIN_DISCOUNT = 80  # #6
WAGON = WAGONS[0].name  # #2 brings a 1-wagon


# --- the concession draft ----------------------------------------------------


def take_concession(state: State, seat: int, card: Any) -> None:
    """`seat` chooses `card` in the draft (VI.6): pays its cost to the bank and
    owns it; #4 brings a 10% FC share out of the FC's offering.

    The FC share counts against the certificate limit from then on, like any
    share certificate (VI.3); it cannot break it here, since the draft comes
    before anybody holds a certificate and a player takes #4 at most once.
    """
    info = CONCESSION_BY_CARD.get(card) if isinstance(card, str) else None
    if info is None:
        raise refuse("there is no concession {card}: choose one of M1-M6", card=repr(card))
    private = state["privates"][card]
    if private["owner"] is not None or private["out"]:
        raise refuse("{card} has been chosen already", card=card)
    account = cash.player(seat)
    if state["cash"][account] < info.cost:
        raise refuse(
            "{card} costs ${cost}; you have ${cash}",
            card=card,
            cost=info.cost,
            cash=state["cash"][account],
        )
    state["cash"] = cash.transfer(state["cash"], account, cash.BANK, info.cost)
    private["owner"] = account
    if info.ability == "fc_share":
        state["certificates"] = shares.move(
            state["certificates"], FC.sym, shares.IPO, account, FC_SHARE
        )


# --- the concessions' abilities ----------------------------------------------


def acting_player(state: State) -> str | None:
    """Whose turn it is: the round's entity if a player, else the director of
    the company operating (None for the FC, which has no director)."""
    entity = state["round"]["entity"]
    if not isinstance(entity, str):
        return None
    if entity in BY_SYM:
        return shares.director(state["certificates"], entity)
    return entity


def assign_fault(state: State, seat: int, card: Any, company: Any) -> str | None:
    """Why `seat` may not put `card`'s ability into `company` now (None: may).

    Used in the owner's own turn (a stock round turn, or the turn of a company
    they direct in an OR), after the concession has been exchanged for a minor
    (the benefit is on the back of the card), once per card.
    """
    fault = _card_fault(state, seat, card)
    if fault is not None:
        return fault
    return _company_fault(state, seat, CONCESSION_BY_CARD[card], company)


def _company_fault(state: State, seat: int, info: Any, company: Any) -> str | None:
    """The part of `assign_fault` that depends on the company, for a card
    that has no fault of its own."""
    account = cash.player(seat)
    card = info.card
    target = BY_SYM.get(company) if isinstance(company, str) else None
    if target is None or target.kind != info.assign_to:
        return reason(
            N_("{card}'s ability goes into a {assign_to} company"),
            card=card,
            assign_to=info.assign_to,
        )
    if target.sym not in state["companies"]:
        return reason(N_("{sym} is not in this game"), sym=target.sym)
    if shares.director(state["certificates"], target.sym) != account:
        return reason(N_("you do not direct {sym}"), sym=target.sym)
    charter = state["companies"][target.sym]
    if info.ability == "wagon":
        limit = phase_of(state["phase"]).major_train_limit
        if len(charter["wagons"]) >= limit:
            return reason(
                N_("{sym} owns {limit} wagons, as many as a major may own now"),
                sym=target.sym,
                limit=limit,
            )
    if info.ability == "machine":
        if len(charter["machines"]) >= MAX_MACHINES_PER_MINOR:
            return reason(
                N_("{sym} owns {MAX_MACHINES_PER_MINOR} machines, the most a minor may own"),
                sym=target.sym,
                MAX_MACHINES_PER_MINOR=MAX_MACHINES_PER_MINOR,
            )
        if machine_for_exchange(state) is None:
            return reason(N_("no sugar mill machine is available"))
    return None


def _card_fault(state: State, seat: int, card: Any) -> str | None:
    """The part of `assign_fault` that does not depend on the company."""
    info = CONCESSION_BY_CARD.get(card) if isinstance(card, str) else None
    if info is None or info.assign_to is None:
        return reason(
            N_("{card} has no ability to put into a company: only M2, M3, M5 and M6 do"), card=card
        )
    private = state["privates"][card]
    account = cash.player(seat)
    if private["owner"] != account:
        return reason(N_("you do not own {card}"), card=card)
    if private["out"]:
        return reason(N_("{card} is out of the game"), card=card)
    if private["company"] is not None:
        return reason(
            N_("{card}'s ability is in {company} already"), card=card, company=private["company"]
        )
    if private["minor"] is None:
        return reason(
            N_("exchange {card} for a minor first: its ability is on the back of the card"),
            card=card,
        )
    if acting_player(state) != account:
        return reason(
            N_(
                "an ability is used in your own turn (in an operating round, "
                "the turn of a company you direct)"
            )
        )
    return None


def assignable(state: State, seat: int) -> list[tuple[str, str]]:
    """Every (card, company) `seat` may assign now.  Asked at every step
    (whether the ability step is open), so the card's own faults are asked
    once per card, not once per company."""
    account = cash.player(seat)
    return [
        (info.card, sym)
        for info in CONCESSIONS
        # A card the seat does not own is the usual case, refused here
        # without building the sentence `_card_fault` would give it.
        if info.assign_to is not None
        and state["privates"][info.card]["owner"] == account
        and _card_fault(state, seat, info.card) is None
        for sym in sorted(state["companies"])
        if _company_fault(state, seat, info, sym) is None
    ]


def assign(state: State, seat: int, card: Any, company: Any) -> None:
    """Put the card's ability into the company (IV.2).

    #2: the card's own 1-wagon joins the major (the depot's stack is not
    touched). #5: the major holds the mail contract, which the operating
    round pays. #3: the best machine available, out of the depot; the card
    goes back to the box. #6: the minor holds the discount until it buys an
    n-train (`use_n_train_discount`).
    """
    fault = assign_fault(state, seat, card, company)
    if fault:
        raise refusal(fault)
    info = CONCESSION_BY_CARD[card]
    private = state["privates"][card]
    private["company"] = company
    charter = state["companies"][company]
    if info.ability == "wagon":
        charter["wagons"].append(WAGON)
    elif info.ability == "machine":
        generation = machine_for_exchange(state)
        assert generation is not None  # assign_fault said one is available
        state["depot"][_machine_stack(generation)] -= 1
        charter["machines"].append(generation)
        private["machine"] = generation
        private["out"] = True


def machine_for_exchange(state: State) -> int | None:
    """The generation #3 is exchanged for: the newest one on sale in this
    phase with a machine left, else the next older one with a machine left
    ("if available"); None when none is."""
    on_sale = [m for m in MACHINES if m.available_from_phase <= state["phase"]]
    for machine in sorted(on_sale, key=lambda m: -m.generation):
        if (state["depot"].get(_machine_stack(machine.generation)) or 0) > 0:
            return machine.generation
    return None


def _machine_stack(generation: int) -> str:
    return f"machine-{generation}"


def n_train_discount(state: State, company: str) -> int:
    """What #6 takes off the price of an n-train `company` buys now."""
    private = state["privates"]["M6"]
    return N_TRAIN_DISCOUNT if private["company"] == company and not private["out"] else 0


def use_n_train_discount(state: State, company: str) -> int:
    """The discount for the n-train `company` is buying; the card is spent."""
    discount = n_train_discount(state, company)
    if discount:
        state["privates"]["M6"]["out"] = True
    return discount


def mail_contract(state: State) -> str | None:
    """The major holding #5's mail contract."""
    return state["privates"]["M5"]["company"]


# IV.2: "+10/20/30/40" at the start of the company's turn; which amount when
# is missing from the draft and the data. We step it with the tile colours
# (yellow, green, brown, gray phases), the one four-step ladder the game has:
# provisional, see README "The mail contract".
MAIL_INCOME_BY_PHASE = {1: 10, 2: 10, 3: 20, 4: 20, 5: 30, 6: 30, 7: 40}


def collect_mail(state: State, company: str) -> int:
    """The bank pays the mail contract's income to `company` if it holds #5
    (at the start of its turn in an OR); returns the amount."""
    if mail_contract(state) != company:
        return 0
    amount = MAIL_INCOME_BY_PHASE[state["phase"]]
    state["cash"] = cash.transfer(state["cash"], cash.BANK, company, amount)
    log.note(state, "mail", company=company, amount=amount)
    return amount


# --- the commissioners' extra lay --------------------------------------------


def commissioner_fault(state: State, card: Any, who: Layer) -> str | None:
    """Why the owner of `card` may not lay its tile with `who` (None: may)."""
    info = COMMISSIONER_BY_CARD.get(card) if isinstance(card, str) else None
    if info is None:
        return reason(N_("there is no commissioner {card}: C1-C6"), card=repr(card))
    private = state["privates"][card]
    if private["out"]:
        return reason(N_("{card}'s tile has been laid already"), card=card)
    if private["owner"] is None:
        return reason(N_("nobody owns {card}"), card=card)
    if who.sym not in BY_SYM or BY_SYM[who.sym].kind not in ("major", "minor"):
        return reason(N_("{card}'s tile is laid by a major or a minor company"), card=card)
    if shares.director(state["certificates"], who.sym) != private["owner"]:
        return reason(N_("{card}'s tile is laid only with a company its owner directs"), card=card)
    return None


def commissioner_lays(state: State, who: Layer, *, fc_paid: Any = ()) -> list[dict[str, Any]]:
    """Every extra lay `who` may make with a commissioner of its director:
    `laying.legal_lays` with the card's tile filter, each with its "card"."""
    out: list[dict[str, Any]] = []
    for info in COMMISSIONERS:
        if commissioner_fault(state, info.card, who) is not None:
            continue
        for lay in legal_lays(
            state["board"], who, state["phase"], fc_paid=fc_paid, commissioner=info.number
        ):
            out.append({"card": info.card, **lay})
    return out


def commissioner_lay(
    state: State,
    card: str,
    who: Layer,
    coord: str,
    tile: str,
    rotation: int,
    *,
    fc_paid: Any = (),
    fc_new: Any = (),
) -> LayResult:
    """Lay `card`'s tile with `who`, in addition to its normal lay (IV.1,
    VII.3.4-5: before or after it; it does not use the company's own lay).

    Every lay rule applies, with the card's tile filter. As soon as the tile
    is down the bank pays the funding to the card's owner and the card goes
    back to the box. The caller pays the returned terrain cost and FC fees
    as for the company's own lay.
    """
    fault = commissioner_fault(state, card, who)
    if fault:
        raise refusal(fault)
    info = COMMISSIONER_BY_CARD[card]
    result = check_lay(
        state["board"],
        who,
        coord,
        tile,
        rotation,
        state["phase"],
        fc_paid=fc_paid,
        fc_new=fc_new,
        commissioner=info.number,
    )
    private = state["privates"][card]
    state["board"] = _apply_lay(state["board"], who, coord, tile, rotation)
    state["cash"] = cash.transfer(state["cash"], cash.BANK, private["owner"], info.funding)
    log.note(state, "funding", card=card, account=private["owner"], amount=info.funding)
    private["out"] = True
    return result
