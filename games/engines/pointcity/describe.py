"""Point City in words: a seat's view as mail lines, and the names of the
things on the board (a move's words, in ``moves.py``, name them so too).

``describe`` reads the view alone, so it shows nothing the view hides (the far
side of market cards, the pile below its top card).  Resources keep the
lower-case names a move's line uses; a double-symbol card is "double
energy" (``energy2`` in a ``pay`` list).

Every word a reader sees is marked for translation (``_``, ``ngettext``; the
labels of the resources with ``N_``) and said in the language of the call
(``i18n.speaking`` in ``EngineBase``).  Card names come from ``cards.json`` and
stay as printed; the commands quoted ("civic <id>") stay English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import N_, Words
from .data import RESOURCES, TOKENS, WILD, Token
from .market import BUILDING, SIZE
from .scoring import token_points

WIDTH = 72

_ = Words("pointcity").gettext
ngettext = Words("pointcity").ngettext


# The resources by the words the commands use; the msgids are those words.
RESOURCE_NAMES: dict[str, str] = {
    "community": N_("community"),
    "economy": N_("economy"),
    "energy": N_("energy"),
    "ecology": N_("ecology"),
    "industry": N_("industry"),
    "ingenuity": N_("ingenuity"),
}


# -- small phrases ---------------------------------------------------------------


def resource_name(resource: str) -> str:
    """A resource (or Ingenuity) in the reader's language."""
    return _(RESOURCE_NAMES[resource]) if resource in RESOURCE_NAMES else resource


def _double(resource: str) -> str:
    return _("double {resource}").format(resource=resource_name(resource))


def kind_name(kind: str) -> str:
    """A stock-card kind as read aloud: ``energy2`` is a double energy card."""
    return _double(kind[:-1]) if kind.endswith("2") else resource_name(kind)


def side_name(face: dict[str, Any]) -> str:
    """A resource side from the view: ``{"resource": "energy", "symbols": 2}``."""
    resource = face["resource"]
    return _double(resource) if face["symbols"] == 2 else resource_name(resource)


def _amount(resource: str, n: int) -> str:
    """``2 energy``, or just ``energy`` for one."""
    return f"{n} {resource_name(resource)}" if n > 1 else resource_name(resource)


def cost_text(cost: dict[str, int]) -> str:
    return " + ".join(_amount(r, n) for r, n in sorted(cost.items(), key=_resource_order))


def _resource_order(item: tuple[str, int]) -> int:
    return RESOURCES.index(item[0])


def _building_head(face: dict[str, Any]) -> str:
    """A building side's name, tier, and points or civic, and what it makes."""
    name, tier = face["name"], face["tier"]
    if face["building"] == "civic":
        return _("{name} (tier {tier}, civic: a token)").format(name=name, tier=tier)
    if face["produces"]:
        return _("{name} (tier {tier}, {points} VP, makes {resource})").format(
            name=name, tier=tier, points=face["points"], resource=resource_name(face["produces"])
        )
    return _("{name} (tier {tier}, {points} VP)").format(
        name=name, tier=tier, points=face["points"]
    )


def _building_price(face: dict[str, Any]) -> str:
    return _("for {cost}").format(cost=cost_text(face["cost"]))


def building_text(face: dict[str, Any]) -> str:
    """A building side: name, tier, points or civic, what it makes, its cost."""
    return f"{_building_head(face)} {_building_price(face)}"


def _points(n: int) -> str:
    return ngettext("{count} point", "{count} points", n).format(count=n)


def joined(items: list[str]) -> str:
    """``a and b and c``, in the reader's language."""
    if not items:
        return ""
    text = items[0]
    for item in items[1:]:
        text = _("{left} and {right}").format(left=text, right=item)
    return text


def token_rule(token: Token) -> str:
    """A civic token's scoring rule, short."""
    p = token.params
    points = p["points"]
    if token.kind == "flat":
        return _points(points)
    if token.kind == "per_full_set":
        return _("{points} per set of all five resources").format(points=points)
    if token.kind == "per_pair_set":
        pair = "+".join(resource_name(r) for r in p["resources"])
        return _("{points} per {pair} pair").format(points=points, pair=pair)
    if token.kind == "per_permanent_resource":
        return _("{points} per {resource}").format(
            points=points, resource=resource_name(p["resource"])
        )
    if token.kind == "per_type_with_at_least":
        return _("{points} per resource with {threshold}+").format(
            points=points, threshold=p["threshold"]
        )
    if token.kind == "per_missing_type":
        return _("{points} per resource you lack").format(points=points)
    if token.kind == "per_unspent_ingenuity_card":
        return _("{points} per {wild} card kept").format(points=points, wild=resource_name(WILD))
    return token.text


def counted(items: list[str]) -> str:
    """``["energy", "energy", "ecology"]`` -> "2 energy, ecology" (order kept)."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return ", ".join(f"{n} {item}" if n > 1 else item for item, n in counts.items())


def wrap(head: str, parts: list[str], indent: str = "    ") -> list[str]:
    """``head`` then the parts joined by ", ", broken into lines of WIDTH."""
    lines = [head]
    for i, part in enumerate(parts):
        piece = part + ("," if i < len(parts) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > WIDTH and lines[-1].strip():
            lines.append(indent + piece)
        else:
            lines[-1] += (" " if lines[-1] else "") + piece
    return lines


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("seat {number}").format(number=seat + 1)


# -- describe --------------------------------------------------------------------


def describe(view: dict[str, Any], seat: int | None, names: Sequence[str]) -> list[str]:
    """Me first, then the market, pile and civic tokens, then the others."""
    seats = view["seats"]
    count = len(seats)
    mine = seat is not None and 0 <= seat < count
    me = seats[seat] if seat is not None and mine else None
    lines = _status(view, names)
    others = list(range(count))
    if seat is not None and me is not None:
        lines += _player(me, _("{name} (you)").format(name=seat_name(names, seat)))
        others = [(seat + k) % count for k in range(1, count)]
    lines += _market(view["market"])
    lines += _pile(view)
    lines += _display(view["display"], me, view["phase"] == "over")
    for other in others:
        lines += _player(seats[other], seat_name(names, other))
    if view.get("opponent") is not None:
        lines += _opponent(view)
    if view.get("result") is not None:
        lines += _result(view, names)
    return lines


def _status(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    if view["phase"] == "over":
        return [_("The game is over.")]
    who = seat_name(names, view["current"])
    if view["phase"] == "civic":
        n = view.get("civic_tokens_to_take", 1)
        if n == 1:
            return [_("{who} to choose a civic token for a civic building.").format(who=who)]
        return [
            _("{who} to choose {count} civic tokens for a civic building.").format(
                who=who, count=n
            )
        ]
    if view["flipped"]:
        return [_("{who} to play (has flipped a card).").format(who=who)]
    return [_("{who} to play.").format(who=who)]


def _holdings(player: dict[str, Any]) -> list[str]:
    """The permanent resources and the stock, a line (or more) each."""
    perm = [_amount(r, n) for r, n in player["permanent"].items() if n]
    lines = wrap("  " + _("Permanent:"), perm or [_("nothing yet")])
    stock = counted([kind_name(k) for k in player["stock"]])
    lines += wrap("  " + _("Stock:"), stock.split(", ") if stock else [_("no cards")])
    return lines


def _player(player: dict[str, Any], who: str) -> list[str]:
    score = player["score"]
    turns = player["turns"]
    points = _points(score["total"])
    if player.get("resigned"):
        head = ngettext(
            "{who}: {points}, {turns} turn taken, left the game",
            "{who}: {points}, {turns} turns taken, left the game",
            turns,
        )
    else:
        head = ngettext(
            "{who}: {points}, {turns} turn taken", "{who}: {points}, {turns} turns taken", turns
        )
    lines = [head.format(who=who, points=points, turns=turns)]
    lines += _holdings(player)
    if player["city"]:
        city = [_city_entry(face) for face in player["city"]]
        head = _("City ({points}):").format(points=_points(score["buildings"]))
        lines += wrap("  " + head, city)
    if player["tokens"]:
        worth = {t["token"]: t["points"] for t in score["tokens"]}
        tokens = [
            f"{t['id']} ({token_rule(TOKENS[t['id']])}) = {worth.get(t['id'], 0)}"
            for t in player["tokens"]
        ]
        lines += wrap("  " + _("Civic tokens:"), tokens)
    return lines


def _city_entry(face: dict[str, Any]) -> str:
    name = face["name"]
    if face["building"] == "civic":
        return _("{name} (civic)").format(name=name)
    if face["produces"]:
        return _("{name} ({resource}, {points} VP)").format(
            name=name, resource=resource_name(face["produces"]), points=face["points"]
        )
    return _("{name} ({points} VP)").format(name=name, points=face["points"])


def _cell(space: dict[str, Any]) -> str:
    if space.get("empty"):
        return _("{space} empty").format(space=space["space"])
    if space["side"] == BUILDING:
        return f"{space['space']} *{space['name']}"
    return f"{space['space']} {side_name(space)}"


def _market(market: list[dict[str, Any]]) -> list[str]:
    lines = [_("Market (columns a-d, row 1 on top; * a building):")]
    for row in range(SIZE):
        cells = [_cell(s) for s in market[row * SIZE : (row + 1) * SIZE]]
        line = f"  {' | '.join(cells)}"
        if len(line) <= WIDTH:
            lines.append(line)
        else:
            half = SIZE // 2
            lines += [f"  {' | '.join(cells[:half])} |", f"    {' | '.join(cells[half:])}"]
    for space in market:
        if not space.get("empty") and space["side"] == BUILDING:
            head = f"  {space['space']} {_building_head(space)}"
            price = _building_price(space)
            if len(head) + 1 + len(price) > WIDTH:
                lines += [head, f"      {price}"]
            else:
                lines.append(f"{head} {price}")
    return lines


def _pile(view: dict[str, Any]) -> list[str]:
    pile = view["pile"]
    count = pile["count"]
    if not count:
        head = _("Pile: empty")
    else:
        head = ngettext(
            "Pile: {count} card, the top one shows {side}",
            "Pile: {count} cards, the top one shows {side}",
            count,
        ).format(count=count, side=side_name(pile["top"]))
    rest = _("{discarded} cards discarded, {removed} out of the game").format(
        discarded=view["discard"], removed=view["removed"]
    )
    return [head, f"  {rest}"]


def _display(display: list[dict[str, Any]], me: dict[str, Any] | None, over: bool) -> list[str]:
    if not display:
        return [_("Civic tokens on display: all taken")]
    if over:
        lines = [_("Civic tokens left on display:")]
    else:
        lines = [_("Civic tokens (civic <id> takes one):")]
    for face in display:
        token = TOKENS[face["id"]]
        if me is None:
            line = _("civic {id}: {rule}").format(id=token.id, rule=token_rule(token))
        else:
            ingenuity = sum(1 for k in me["stock"] if k == WILD)
            line = _("civic {id}: {rule} ({points} for you now)").format(
                id=token.id,
                rule=token_rule(token),
                points=token_points(token, me["permanent"], ingenuity),
            )
        lines.append(f"  {line}")
    return lines


def _opponent(view: dict[str, Any]) -> list[str]:
    bot = view["opponent"]
    score = bot["score"]
    level = view.get("level", score.get("level"))
    head = ngettext(
        "The solo opponent ({level} star): {points}",
        "The solo opponent ({level} stars): {points}",
        level if isinstance(level, int) else 2,
    )
    lines = [head.format(level=level, points=_points(score["total"]))]
    scoring = _(
        "Scoring: buildings {buildings}, resources {resources}, tokens {tokens},"
        " {wild} {ingenuity}"
    ).format(
        buildings=score["buildings"],
        resources=score["resources"],
        tokens=score["tokens"],
        wild=resource_name(WILD),
        ingenuity=score["ingenuity"],
    )
    lines.append(f"  {scoring}")
    lines += _holdings(bot)
    if bot["city"]:
        lines += wrap("  " + _("City:"), [_city_entry(face) for face in bot["city"]])
    if bot["tokens"]:
        lines += wrap("  " + _("Civic tokens:"), [str(t["id"]) for t in bot["tokens"]])
    if view["phase"] != "over":
        spaces = joined([str(s) for s in bot["next_spaces"]])
        lines.append("  " + _("Next it takes {spaces}").format(spaces=spaces))
    return lines


def _result(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    result = view["result"]
    lines = []
    if view.get("solo"):
        mine = result["scores"][0]
        them = result.get("opponent", {}).get("score")
        if result["winners"]:
            line = _("{name} beat the solo opponent: {mine} to {them}")
        else:
            line = _("{name} did not beat the solo opponent: {mine} to {them}")
        lines.append(line.format(name=seat_name(names, 0), mine=mine, them=them))
        if view.get("opponent_levels") is not None:
            levels = ", ".join(
                ngettext("{level} star {total}", "{level} stars {total}", lv["level"]).format(
                    level=lv["level"], total=lv["total"]
                )
                for lv in view["opponent_levels"]
            )
            lines.append("  " + _("Opponent by level: {levels}").format(levels=levels))
            lines.append("  " + _("Stars earned: {stars}").format(stars=view.get("stars", 0)))
        return lines
    winners = [seat_name(names, s) for s in result["winners"]]
    if winners:
        line = ngettext("Winner: {names}", "Winners: {names}", len(winners))
        lines.append(line.format(names=joined(winners)))
    else:
        lines.append(_("Winner: nobody"))
    order = sorted(range(len(result["places"])), key=lambda s: (result["places"][s], s))
    lines += wrap(
        "  " + _("Places:"),
        [f"{result['places'][s]}. {seat_name(names, s)} {result['scores'][s]}" for s in order],
    )
    return lines
