"""Point City in words: a seat's view as mail lines, moves narrated and glossed.

``describe`` reads the view alone, so it shows nothing the view hides (the far
side of market cards, the pile below its top card).  ``gloss`` gets the state
but only ever names what the market and the display show face up.  Resources
keep the lower-case names the commands use; a double-symbol card is "double
energy" (``energy2`` in a ``pay`` list).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import Action, State
from .data import CARDS, RESOURCES, TOKENS, WILD, Token
from .market import BUILDING, INDEX, NAMES, SIZE
from .payment import permanent
from .scoring import ingenuity_cards, token_points

WIDTH = 72


# -- small phrases ---------------------------------------------------------------


def kind_name(kind: str) -> str:
    """A stock-card kind as read aloud: ``energy2`` is a double energy card."""
    return f"double {kind[:-1]}" if kind.endswith("2") else kind


def side_name(face: dict[str, Any]) -> str:
    """A resource side from the view: ``{"resource": "energy", "symbols": 2}``."""
    resource = face["resource"]
    return f"double {resource}" if face["symbols"] == 2 else resource


def cost_text(cost: dict[str, int]) -> str:
    parts = [f"{n} {r}" if n > 1 else r for r, n in sorted(cost.items(), key=_resource_order)]
    return " + ".join(parts)


def _resource_order(item: tuple[str, int]) -> int:
    return RESOURCES.index(item[0])


def building_text(face: dict[str, Any]) -> str:
    """A building side: name, tier, points or civic, what it makes, its cost."""
    if face["building"] == "civic":
        does = "civic: a token"
    else:
        does = f"{face['points']} VP"
        if face["produces"]:
            does += f", makes {face['produces']}"
    return f"{face['name']} (tier {face['tier']}, {does}) for {cost_text(face['cost'])}"


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def token_rule(token: Token) -> str:
    """A civic token's scoring rule, short."""
    p = token.params
    points = p["points"]
    if token.kind == "flat":
        return _points(points)
    if token.kind == "per_full_set":
        return f"{points} per set of all five resources"
    if token.kind == "per_pair_set":
        return f"{points} per {'+'.join(p['resources'])} pair"
    if token.kind == "per_permanent_resource":
        return f"{points} per {p['resource']}"
    if token.kind == "per_type_with_at_least":
        return f"{points} per resource with {p['threshold']}+"
    if token.kind == "per_missing_type":
        return f"{points} per resource you lack"
    if token.kind == "per_unspent_ingenuity_card":
        return f"{points} per {WILD} card kept"
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


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


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
        lines += _player(me, f"{_name(names, seat)} (you)")
        others = [(seat + k) % count for k in range(1, count)]
    lines += _market(view["market"])
    lines += _pile(view)
    lines += _display(view["display"], me, view["phase"] == "over")
    for other in others:
        lines += _player(seats[other], _name(names, other))
    if view.get("opponent") is not None:
        lines += _opponent(view)
    if view.get("result") is not None:
        lines += _result(view, names)
    return lines


def _status(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    if view["phase"] == "over":
        return ["The game is over."]
    who = _name(names, view["current"])
    if view["phase"] == "civic":
        n = view.get("civic_tokens_to_take", 1)
        tokens = "a civic token" if n == 1 else f"{n} civic tokens"
        return [f"{who} to choose {tokens} for a civic building."]
    done = " (has flipped a card)" if view["flipped"] else ""
    return [f"{who} to play{done}."]


def _player(player: dict[str, Any], who: str) -> list[str]:
    score = player["score"]
    left = ", left the game" if player.get("resigned") else ""
    turns = player["turns"]
    lines = [f"{who}: {_points(score['total'])}, {turns} turn{'s' * (turns != 1)} taken{left}"]
    perm = [f"{n} {r}" if n > 1 else r for r, n in player["permanent"].items() if n]
    lines += wrap("  Permanent:", perm or ["nothing yet"])
    stock = counted([kind_name(k) for k in player["stock"]])
    lines += wrap("  Stock:", stock.split(", ") if stock else ["no cards"])
    if player["city"]:
        city = [_city_entry(face) for face in player["city"]]
        lines += wrap(f"  City ({_points(score['buildings'])}):", city)
    if player["tokens"]:
        worth = {t["token"]: t["points"] for t in score["tokens"]}
        tokens = [
            f"{t['id']} ({token_rule(TOKENS[t['id']])}) = {worth.get(t['id'], 0)}"
            for t in player["tokens"]
        ]
        lines += wrap("  Civic tokens:", tokens)
    return lines


def _city_entry(face: dict[str, Any]) -> str:
    if face["building"] == "civic":
        return f"{face['name']} (civic)"
    if face["produces"]:
        return f"{face['name']} ({face['produces']}, {face['points']} VP)"
    return f"{face['name']} ({face['points']} VP)"


def _cell(space: dict[str, Any]) -> str:
    if space.get("empty"):
        return f"{space['space']} empty"
    if space["side"] == BUILDING:
        return f"{space['space']} *{space['name']}"
    return f"{space['space']} {side_name(space)}"


def _market(market: list[dict[str, Any]]) -> list[str]:
    lines = ["Market (columns a-d, row 1 on top; * a building):"]
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
            line = f"  {space['space']} {building_text(space)}"
            if len(line) > WIDTH:
                head, cost = line.split(") for ")
                lines += [f"{head})", f"      for {cost}"]
            else:
                lines.append(line)
    return lines


def _pile(view: dict[str, Any]) -> list[str]:
    pile = view["pile"]
    if not pile["count"]:
        head = "Pile: empty"
    else:
        cards = "1 card" if pile["count"] == 1 else f"{pile['count']} cards"
        head = f"Pile: {cards}, the top one shows {side_name(pile['top'])}"
    return [head, f"  {view['discard']} cards discarded, {view['removed']} out of the game"]


def _display(display: list[dict[str, Any]], me: dict[str, Any] | None, over: bool) -> list[str]:
    if not display:
        return ["Civic tokens on display: all taken"]
    lines = ["Civic tokens left on display:" if over else "Civic tokens (civic <id> takes one):"]
    for face in display:
        token = TOKENS[face["id"]]
        line = f"  civic {token.id}: {token_rule(token)}"
        if me is not None:
            ingenuity = sum(1 for k in me["stock"] if k == WILD)
            line += f" ({token_points(token, me['permanent'], ingenuity)} for you now)"
        lines.append(line)
    return lines


def _opponent(view: dict[str, Any]) -> list[str]:
    bot = view["opponent"]
    score = bot["score"]
    level = view.get("level", score.get("level"))
    lines = [f"The solo opponent ({level} stars): {_points(score['total'])}"]
    lines.append(
        f"  Scoring: buildings {score['buildings']}, resources {score['resources']},"
        f" tokens {score['tokens']}, {WILD} {score['ingenuity']}"
    )
    perm = [f"{n} {r}" if n > 1 else r for r, n in bot["permanent"].items() if n]
    lines += wrap("  Permanent:", perm or ["nothing yet"])
    stock = counted([kind_name(k) for k in bot["stock"]])
    lines += wrap("  Stock:", stock.split(", ") if stock else ["no cards"])
    if bot["city"]:
        lines += wrap("  City:", [_city_entry(face) for face in bot["city"]])
    if bot["tokens"]:
        lines += wrap("  Civic tokens:", [str(t["id"]) for t in bot["tokens"]])
    if view["phase"] != "over":
        lines.append(f"  Next it takes {' and '.join(bot['next_spaces'])}")
    return lines


def _result(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    result = view["result"]
    lines = []
    if view.get("solo"):
        mine = result["scores"][0]
        them = result.get("opponent", {}).get("score")
        beat = "beat" if result["winners"] else "did not beat"
        lines.append(f"{_name(names, 0)} {beat} the solo opponent: {mine} to {them}")
        if view.get("opponent_levels") is not None:
            levels = ", ".join(
                f"{lv['level']} star{'s' * (lv['level'] != 1)} {lv['total']}"
                for lv in view["opponent_levels"]
            )
            lines.append(f"  Opponent by level: {levels}")
            lines.append(f"  Stars earned: {view.get('stars', 0)}")
        return lines
    winners = [_name(names, s) for s in result["winners"]]
    lines.append(f"Winner{'s' * (len(winners) > 1)}: {' and '.join(winners) or 'nobody'}")
    order = sorted(range(len(result["places"])), key=lambda s: (result["places"][s], s))
    lines += wrap(
        "  Places:",
        [f"{result['places'][s]}. {_name(names, s)} {result['scores'][s]}" for s in order],
    )
    return lines


# -- narrate, gloss, move_group ----------------------------------------------------


def narrate(action: Action, seat: int, names: Sequence[str]) -> str:
    who = _name(names, seat)
    kind = action.get("type")
    if kind == "flip":
        return f"{who} flips {action.get('space', 'a card')} to its building side"
    if kind == "draw":
        return f"{who} draws the top two cards of the pile"
    if kind == "take":
        spaces = action.get("spaces") or []
        pay = action.get("pay") or []
        where = " and ".join(str(s) for s in spaces) or "two market cards"
        if not pay:
            return f"{who} takes {where}"
        paid = counted([kind_name(str(k)) for k in pay])
        line = f"{who} takes {where}, paying {paid}"
        if len(line) <= WIDTH:
            return line
        # A long payment keeps within a phone's width: in the pay command's
        # words, else as a count (stocks are open, so nothing is lost for good).
        line = f"{who} takes {' '.join(spaces)}, paying {counted([str(k) for k in pay])}"
        return line if len(line) <= WIDTH else f"{who} takes {where}, paying {len(pay)} cards"
    if kind == "civic":
        token_id = action.get("token")
        token = TOKENS.get(token_id) if isinstance(token_id, int) else None
        if token is None:
            return f"{who} takes a civic token"
        return f"{who} takes civic token {token.id} ({token_rule(token)})"
    if kind == "pass":
        return f"{who} passes: no draft is possible"
    return f"{who} moves"


def _space_gloss(slot: dict[str, Any] | None) -> str:
    if slot is None:
        return "nothing"
    card = CARDS[slot["card"]]
    if slot["side"] == BUILDING:
        if card.building == "civic":
            return f"{card.name} (civic)"
        return f"{card.name} {card.points} VP"
    return kind_name(card.stock_kind)


def gloss(state: State, seat: int, action: Action) -> str | None:
    kind = action.get("type")
    market = state["market"]
    if kind == "take":
        got = " + ".join(_space_gloss(market[INDEX[s]]) for s in action["spaces"])
        return got if len(got) <= 50 else got[:47] + "..."
    if kind == "flip":
        slot = market[INDEX[action["space"]]]
        return f"{_space_gloss(slot)} card; its building is unseen"
    if kind == "draw" and state["pile"]:
        return f"top card: {kind_name(CARDS[state['pile'][0]].stock_kind)}, then one unseen"
    if kind == "civic":
        token = TOKENS[action["token"]]
        player = state["seats"][seat]
        now = token_points(token, permanent(player["city"]), ingenuity_cards(player["stock"]))
        return token_rule(token) if token.kind == "flat" else f"{token_rule(token)}: {now} now"
    return None


def move_group(state: State, seat: int, action: Action) -> str | None:
    """Takes by row (a vertical pair by both its rows); flips together."""
    kind = action.get("type")
    if kind == "take":
        rows = sorted({NAMES.index(s) // SIZE + 1 for s in action["spaces"]})
        if len(rows) == 1:
            return f"Take from row {rows[0]}"
        return f"Take from rows {rows[0]}-{rows[1]}"
    if kind == "flip":
        return "Flip a card"
    return None
