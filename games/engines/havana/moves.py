"""Havana's moves: each action type declared once, with all its words.

A verb's declaration (``games.engines.verbs``) holds its fields, the line a
player types (the engine's ``text`` writes it and ``parse`` reads it back,
so the two agree by construction), looser spellings, its narration, its
gloss and its heading in a mail.  Seats are named by their number in a
line (0 is the first seat) because ``text`` sees only the action, not the
players' names.  Cards are typed by code (0, 1, 2p, 2d, 3c, 3t, 4w, 4a,
5-9) or by key (siesta, debris, black-market, ...); buildings as B<id>.
The things a move names are named as ``describe`` names them on the
board (printed card names, "B9 2 VP: ...").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..base import IllegalAction, State
from ..i18n import N_, Words
from ..verbs import Moves, Slot, Verb, line
from . import data
from .buying import open_buildings
from .describe import (
    amount,
    building,
    card,
    card_name,
    cost,
    cube_list,
    face,
    short_cost,
    who,
)
from .order import arrange, number

Action = dict[str, Any]

_words = Words("havana")
_ = _words.gettext
ngettext = _words.ngettext
pgettext = _words.pgettext
refuse = _words.refuse

GLOSS_WIDTH = 50
# What a payment names per field, and the words read back as each field.
PAY_NAMES = {"workers": "worker", "pesos": "peso"}
PAY_PARSE = {
    "red": "red",
    "yellow": "yellow",
    "blue": "blue",
    "brown": "brown",
    "gray": "gray",
    "grey": "gray",
    "worker": "workers",
    "workers": "workers",
    "peso": "pesos",
    "pesos": "pesos",
}
WORDS = r"\S+(?: \S+)*"  # one or more words


def _fit(text: str) -> str:
    return text if len(text) <= GLOSS_WIDTH else text[: GLOSS_WIDTH - 3] + "..."


# --- the fields: how each is typed and read back ------------------------------


def _card(token: str, state: State | None = None) -> str:
    if token in data.CARD_BY_CODE:
        return token
    if token in data.CARD_BY_KEY:
        return data.CARD_BY_KEY[token]["code"]
    same = [c for c in data.CARDS if str(c["value"]) == token]
    if same:
        # Each shared value has two cards (2p/2d, 3c/3t, 4w/4a).
        names = [f"{c['code']} ({c['key']})" for c in same]
        raise refuse(
            "card {token} is ambiguous: write {first} or {second}",
            token=token,
            first=", ".join(names[:-1]),
            second=names[-1],
        )
    raise refuse("unknown card {token}", token=repr(token))


def _seat(token: str, state: State) -> int:
    if token.isdigit() and int(token) < state["players"]:
        return int(token)
    last = state["players"] - 1
    raise refuse(
        "unknown seat {token}: name a seat by its number, 0 to {last}",
        token=repr(token),
        last=last,
    )


def _building(token: str, state: State | None = None) -> int:
    match = re.fullmatch(r"b?(\d+)", token)
    if not match:
        raise refuse("unknown building {token}: write it as B<number>, e.g. B7", token=repr(token))
    return int(match.group(1))


def _colours(words: str, state: State | None = None) -> list[str]:
    out = []
    for token in words.split():
        colour = "gray" if token == "grey" else token
        if colour not in data.CUBES:
            raise refuse("unknown cube colour {token}", token=repr(token))
        out.append(colour)
    return sorted(out, key=data.CUBES.index)


def _victim(token: str, state: State) -> int | None:
    return None if token == "nobody" else _seat(token, state)


def _write_victim(victim: int | None) -> str:
    return "nobody" if victim is None else str(victim)


def _take(words: str, state: State) -> dict[str, str]:
    rest = words.split()
    if len(rest) % 2:
        raise refuse(
            "tax takes pairs: a seat and worker or a cube colour, e.g. tax 1 worker 3 red"
        )
    take = {}
    for seat_token, what in zip(rest[::2], rest[1::2], strict=True):
        what = "gray" if what == "grey" else what
        if what != "worker" and what not in data.CUBES:
            raise refuse("tax takes a worker or a cube colour, not {what}", what=repr(what))
        take[str(_seat(seat_token, state))] = what
    return take


def _write_take(take: dict[str, str]) -> str:
    return " ".join(f"{s} {what}" for s, what in sorted(take.items(), key=lambda i: int(i[0])))


def _pay(words: str, state: State | None = None) -> dict[str, int]:
    pay: dict[str, int] = {}
    for token in words.split():
        match = re.fullmatch(r"(\d*)([a-z]+)", token)
        if not match or match.group(2) not in PAY_PARSE:
            example = "red 2yellow 5gray worker 3pesos"
            raise refuse(
                "cannot read payment {token}: write e.g. {example}",
                token=repr(token),
                example=example,
            )
        field = PAY_PARSE[match.group(2)]
        pay[field] = pay.get(field, 0) + int(match.group(1) or 1)
    return {f: pay[f] for f in data.COST_FIELDS if pay.get(f)}


def _amount(field: str, n: int) -> str:
    name = PAY_NAMES.get(field, field)
    if n == 1:
        return name
    return f"{n}{name}s" if field in PAY_NAMES else f"{n}{name}"


def _write_pay(pay: dict[str, int]) -> str:
    return " ".join(_amount(f, pay[f]) for f in data.COST_FIELDS if pay.get(f))


CARD = Slot(read=_card)
# A card skipped is kept by its key; any way of typing the card reads.
SKIPPED = Slot(read=lambda token, state: data.CARD_BY_CODE[_card(token)]["key"])
TWO_CARDS = Slot(
    pattern=r"\S+ \S+",
    write=" ".join,
    read=lambda words, state: arrange([_card(w) for w in words.split()]),
)
BUILDING = Slot(write=lambda bid: f"B{bid}", read=_building)
VICTIM = Slot(write=_write_victim, read=_victim)
CUBES = Slot(pattern=WORDS, write=" ".join, read=_colours, optional=True)
TAKE = Slot(pattern=WORDS, write=_write_take, read=_take, optional=True)
PAY = Slot(pattern=WORDS, write=_write_pay, read=_pay, optional=True)


# --- the cards played without a choice -----------------------------------------


def _played(code: str, what: str) -> Any:
    """A card that needs no choice: "Vanessa plays 1 Refreshment: ..."."""

    def says(action: Action, name: str, names: Sequence[str]) -> str:
        return _(what).format(name=name, card=face(code))

    return says


def _refreshment_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    return _fit(f"{face('1')}: {amount('pesos', min(1, state['centre']['pesos']))}")


REFRESHMENT = Verb(
    type="refreshment",
    fields={},
    lines=line("refreshment"),
    says=_played("1", N_("{name} plays {card}: a peso from the centre")),
    gloss=_refreshment_gloss,
    group=None,
)


def _debris_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    return _fit(
        _("{card}: {count} gray from the centre").format(
            card=face("2d"), count=state["centre"]["cubes"]["gray"]
        )
    )


DEBRIS = Verb(
    type="debris",
    fields={},
    lines=line("debris"),
    says=_played("2d", N_("{name} plays {card}: all gray cubes from the centre")),
    gloss=_debris_gloss,
    group=None,
)


def _worker_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    wanted = 1 if state["flags"]["worker"] else 2
    return _fit(f"{face('4w')}: {amount('workers', min(wanted, state['workers']))}")


WORKER = Verb(
    type="worker",
    fields={},
    lines=line("worker"),
    says=_played("4w", N_("{name} plays {card}: workers from the supply")),
    gloss=_worker_gloss,
    group=None,
)


def _architect_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    workers = amount("workers", min(1, state["workers"]))
    return _fit(_("{card}: {workers}, build Architect").format(card=face("4a"), workers=workers))


ARCHITECT = Verb(
    type="architect",
    fields={},
    lines=line("architect"),
    says=_played("4a", N_("{name} plays {card}: a worker from the supply")),
    gloss=_architect_gloss,
    group=None,
)


def _black_market_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    count = 1 if state["flags"]["black_market"] else 2
    return _fit(
        ngettext(
            "{card}: {count} cube from the bag", "{card}: {count} cubes from the bag", count
        ).format(card=face("7"), count=count)
    )


BLACK_MARKET = Verb(
    type="black_market",
    fields={},
    lines=line("black market", "black-market"),
    says=_played("7", N_("{name} plays {card}: cubes from the bag")),
    gloss=_black_market_gloss,
    group=None,
)


def _pesos_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    half = (state["centre"]["pesos"] + 1) // 2
    return _fit(
        _("{card}: {pesos} from the centre").format(card=face("8"), pesos=amount("pesos", half))
    )


PESOS = Verb(
    type="pesos",
    fields={},
    lines=line("pesos"),
    says=_played("8", N_("{name} plays {card}: half the centre's pesos")),
    gloss=_pesos_gloss,
    group=None,
)


# --- choosing cards -------------------------------------------------------------


def _choose_says(action: Action, name: str, names: Sequence[str]) -> str:
    if "cards" not in action:  # the public form: chosen face down
        return _("{name} has chosen cards, face down").format(name=name)
    first, second = (card(c) for c in action["cards"])
    return _("{name} chooses {first} and {second}").format(name=name, first=first, second=second)


def _choose_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    low, high = action["cards"]
    return _fit(
        _("{first} + {second}: number {number}").format(
            first=card_name(low), second=card_name(high), number=f"{number([low, high]):02d}"
        )
    )


CHOOSE = Verb(
    type="choose",
    fields={"cards": TWO_CARDS},
    lines=line("choose {cards}"),
    says=_choose_says,
    gloss=_choose_gloss,
    group=None,
)


def _replace_says(action: Action, name: str, names: Sequence[str]) -> str:
    if "card" not in action:  # the public form: chosen face down
        return _("{name} has chosen a new card, face down").format(name=name)
    return _("{name} plays {card} on {cover}").format(
        name=name, card=card(action["card"]), cover=card(action["cover"])
    )


def _replace_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    kept = [c for c in state["seats"][seat]["cards"] if c != action["cover"]]
    result = number([*kept, action["card"]])
    return _fit(
        _("{card} over {cover}: number {number}").format(
            card=card_name(action["card"]),
            cover=card_name(action["cover"]),
            number=f"{result:02d}",
        )
    )


REPLACE = Verb(
    type="replace",
    fields={"card": CARD, "cover": CARD},
    lines=line("play {card} on {cover}"),
    says=_replace_says,
    gloss=_replace_gloss,
    group=None,
)


# --- the cards with a choice -----------------------------------------------------


def _skip_says(action: Action, name: str, names: Sequence[str]) -> str:
    code = data.CARD_BY_KEY[action["card"]]["code"]
    return _("{name} skips {card}").format(name=name, card=card(code))


def _skip_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    return _fit(_("skip {card}").format(card=card(data.CARD_BY_KEY[action["card"]]["code"])))


SKIP = Verb(
    type="skip",
    fields={"card": SKIPPED},
    lines=line("skip {card}"),
    says=_skip_says,
    gloss=_skip_gloss,
    group=None,
)


def _conserve_says(action: Action, name: str, names: Sequence[str]) -> str:
    return _("{name} plays {card}: {building} to the box").format(
        name=name, card=face("3c"), building=f"B{action['building']}"
    )


def _conserve_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    info = state["buildings"][str(action["building"])]
    if info["architect"]:
        text = _("box it: {vp} VP, Architect; {cost}")
    else:
        text = _("box it: {vp} VP; {cost}")
    return _fit(text.format(vp=info["vp"], cost=short_cost(info["cost"])))


CONSERVE = Verb(
    type="conserve",
    fields={"building": BUILDING},
    lines=line("conserve {building}"),
    says=_conserve_says,
    gloss=_conserve_gloss,
    group=None,
)


def _taxed(what: str) -> str:
    """What the Tax Collector took from one seat, as the narration names it
    after "Sarah's": a worker or a cube's colour."""
    taken = {
        "worker": pgettext("taxed", "worker"),
        "red": pgettext("taxed", "red"),
        "yellow": pgettext("taxed", "yellow"),
        "blue": pgettext("taxed", "blue"),
        "brown": pgettext("taxed", "brown"),
        "gray": pgettext("taxed", "gray"),
    }
    return taken.get(what, what)


def _tax_says(action: Action, name: str, names: Sequence[str]) -> str:
    taken = sorted(action["take"].items(), key=lambda item: int(item[0]))
    parts = [
        _("{who}'s {what}").format(who=who(names, int(s)), what=_taxed(what)) for s, what in taken
    ]
    return _("{name} plays {card}: {taken}").format(
        name=name, card=face("3t"), taken=", ".join(parts) or _("nobody to tax")
    )


def _tax_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    taken = list(action["take"].values())
    boxed = [w for w in taken if w != "worker"]
    gone = [_("{cubes} boxed").format(cubes=cube_list(boxed))] if boxed else []
    if "worker" in taken:
        workers = amount("workers", taken.count("worker"))
        gone.append(_("{workers} to supply").format(workers=workers))
    return _fit(_("+1 peso; {taken}").format(taken=", ".join(gone) or _("nobody to tax")))


TAX = Verb(
    type="tax",
    fields={"take": TAKE},
    lines=line("tax {take}"),
    says=_tax_says,
    gloss=_tax_gloss,
    group=None,
)


# A steal the parser cannot read: what to write instead.
STEAL_USAGE = N_("write steal pesos <seat> or steal cubes <seat> <colours>")


def _steal_pesos_says(action: Action, name: str, names: Sequence[str]) -> str:
    if action["victim"] is None:
        return _("{name} plays {card}: nobody to rob").format(name=name, card=face("5"))
    return _("{name} plays {card} on {victim}").format(
        name=name, card=face("5"), victim=who(names, action["victim"])
    )


def _steal_pesos_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    victim = action["victim"]
    if victim is None:
        return _("{card}: nobody can be robbed").format(card=face("5"))
    n = state["seats"][victim]["pesos"] // 2
    return _fit(
        _("{card}: {pesos} from {victim}").format(
            card=face("5"), pesos=amount("pesos", n), victim=who(names, victim)
        )
    )


STEAL_PESOS = Verb(
    type="steal_pesos",
    fields={"victim": VICTIM},
    lines=line("steal pesos {victim}"),
    usage=((r"steal pesos \S+ .+", N_("steal pesos takes only a seat number")),),
    says=_steal_pesos_says,
    gloss=_steal_pesos_gloss,
    group=None,
)


def _steal_cubes_says(action: Action, name: str, names: Sequence[str]) -> str:
    if action["victim"] is None:
        return _("{name} plays {card}: nobody to rob").format(name=name, card=face("6"))
    return _("{name} plays {card}: {cubes} from {victim}").format(
        name=name,
        card=face("6"),
        cubes=cube_list(action["cubes"]),
        victim=who(names, action["victim"]),
    )


def _steal_cubes_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    if action["victim"] is None:
        return _("{card}: nobody can be robbed").format(card=face("6"))
    held = state["seats"][action["victim"]]["cubes"]
    coloured = sum(held[c] for c in data.COLOURED)
    victim = who(names, action["victim"])
    return _fit(
        _("{victim} has {coloured} coloured, {gray} gray").format(
            victim=victim, coloured=coloured, gray=held["gray"]
        )
    )


STEAL_CUBES = Verb(
    type="steal_cubes",
    fields={"victim": VICTIM, "cubes": CUBES},
    lines=line("steal cubes {victim} {cubes}", "steal materials {victim} {cubes}"),
    usage=((r"steal(?: .*)?", STEAL_USAGE),),
    says=_steal_cubes_says,
    gloss=_steal_cubes_gloss,
    group=None,
)


def _mama_says(action: Action, name: str, names: Sequence[str]) -> str:
    return _("{name} plays {card}: {cubes} from the centre").format(
        name=name, card=face("9"), cubes=cube_list(action["cubes"])
    )


def _mama_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    return _fit(_("{card}: half the centre's cubes").format(card=face("9")))


MAMA = Verb(
    type="mama",
    fields={"cubes": CUBES},
    lines=line("mama {cubes}"),
    says=_mama_says,
    gloss=_mama_gloss,
    group=None,
)


# --- buying -------------------------------------------------------------------------


def _buy_says(action: Action, name: str, names: Sequence[str]) -> str:
    return _("{name} buys {building} for {cost}").format(
        name=name, building=f"B{action['building']}", cost=cost(action["pay"])
    )


def _buy_gloss(state: State, seat: int, action: Action, names: Sequence[str]) -> str:
    info = state["buildings"][str(action["building"])]
    total = state["seats"][seat]["vp"] + info["vp"]
    return _fit(
        _("+{vp} VP: you reach {total} of {target}").format(
            vp=info["vp"], total=total, target=state["target"]
        )
    )


def _buy_group(state: State, seat: int, action: Action) -> str | None:
    """Buying lists many payment plans: one heading per building."""
    bid = action["building"]
    if bid not in open_buildings(state):
        return None
    return building(bid, state["buildings"])


BUY = Verb(
    type="buy",
    fields={"building": BUILDING, "pay": PAY},
    lines=line("buy {building} pay {pay}", "buy {building} {pay}"),
    says=_buy_says,
    gloss=_buy_gloss,
    group=_buy_group,
)

END = Verb(
    type="end",
    fields={},
    lines=line("end turn", "(?:end|done|pass)(?: turn)?"),
    says=N_("{name} ends the turn"),
    gloss=None,
    group=None,
)


# --- the title's moves ----------------------------------------------------------------


def _normalise(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def _unread(text: Any) -> IllegalAction:
    if not isinstance(text, str):
        return refuse("a command must be text")
    if not _normalise(text):
        return refuse("empty command")
    return refuse(
        "cannot read {line}; reply 'help' for the list of moves", line=repr(text.strip())
    )


MOVES = Moves(
    _words,
    [
        REFRESHMENT,
        DEBRIS,
        WORKER,
        ARCHITECT,
        BLACK_MARKET,
        PESOS,
        CHOOSE,
        REPLACE,
        SKIP,
        CONSERVE,
        TAX,
        STEAL_PESOS,
        STEAL_CUBES,
        MAMA,
        BUY,
        END,
    ],
    normalise=_normalise,
    unread=_unread,
    name=who,
    actor="name",
)
