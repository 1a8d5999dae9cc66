"""The 18Cuba game page: the moves in words, the map as the control, the
panels an 18xx player expects, the routes drawn before pay or retain."""

from __future__ import annotations

import json
import random
import re
from html import escape, unescape

import pytest

from boards.cuba_panels import encode
from games.engines import base, bots
from games.engines.cuba.data.phases import BY_NUMBER
from games.engines.cuba.play.randomgame import choose
from games.engines.cuba.rules.privates import COMMISSIONERS, CONCESSIONS
from games.models import Game
from games.selectors import viewers
from games.services.moves import check_submit_action_by_id
from games.stream import store

ENGINE = base.get("18cuba")


@pytest.fixture
def cuba(make_game, alice, bob):
    return make_game("18cuba", players=[alice, bob], seed=7, options={"difficulty": "easy"})


def state_of(game: Game):
    game.refresh_from_db()
    return store.load(game, ENGINE).state


def users_by_seat(game: Game) -> dict[int, object]:
    return {seat.index: seat.user for seat in viewers.seats_of(game)}


def play_until(game: Game, wanted, limit: int = 400):
    """Play the game through the move service (cheap bids, then the greedy
    bot) until `wanted(state, seat, legal)` holds; the seat to act then."""
    users = users_by_seat(game)
    rng = random.Random(3)
    for n in range(limit):
        state = state_of(game)
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        if wanted(state, seat, legal):
            return seat
        if any(a["type"] == "bid" for a in legal):
            action = choose(rng, legal)
        else:
            action = bots.choose(ENGINE, state, seat, "greedy", n)[1]
        check_submit_action_by_id(
            game.pk, users[seat], action=action, text=None, expected_seq=game.seq, source="web"
        )
    raise AssertionError("the position was not reached")


def forms(html: str) -> list[dict]:
    """Every move form: its data-action, its action, its number input."""
    out = []
    for m in re.finditer(r'<form [^>]*data-action="([^"]+)".*?</form>', html, re.S):
        body = m.group(0)
        value = re.search(r'name="action" value="([^"]+)"', body)
        number = re.search(
            r'type="number"[^>]*name="num\.(\w+)" min="(-?\d+)" max="(-?\d+)" step="(\d+)"', body
        )
        out.append(
            {
                "type": m.group(1),
                "action": json.loads(unescape(value.group(1))) if value else None,
                "number": number.groups() if number else None,
                "html": body,
            }
        )
    return out


def offered(html: str) -> list[str]:
    """Every action the page's forms can send, a number input's whole range."""
    out = []
    for f in forms(html):
        if f["action"] is None or f["type"].startswith("takeback"):
            continue
        if f["number"]:
            key, low, high, step = f["number"]
            for amount in range(int(low), int(high) + 1, int(step)):
                out.append(json.dumps({**f["action"], key: amount}, sort_keys=True))
        else:
            out.append(json.dumps(f["action"], sort_keys=True))
    return sorted(out)


def legal_of(legal) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in legal)


def page(page_as, user, game) -> str:
    response = page_as(user).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_auction_names_each_lot_and_bids_with_a_number_input(page_as, cuba):
    state = state_of(cuba)
    seat = min(ENGINE.to_act(state))
    legal = ENGINE.legal_actions(state, seat)
    html = page(page_as, users_by_seat(cuba)[seat], cuba)
    auction = re.search(r'<section class="cuba-auction".*?</section>', html, re.S).group(0)
    for c in COMMISSIONERS:
        assert c.name in auction and f"${c.funding}" in auction
    assert "May still bid: alice, bob" in auction or "May still bid: bob, alice" in auction
    moves = re.search(r"<section class=\"moves cuba-moves\".*?</section>", html, re.S).group(0)
    assert "<select" not in moves  # no list of every amount
    bids = [f for f in forms(html) if f["type"] == "bid"]
    amounts = sorted(a["amount"] for a in legal if a["type"] == "bid")
    assert len(bids) == 1
    key, low, high, step = bids[0]["number"]
    assert (key, int(low), int(high), int(step)) == ("amount", amounts[0], amounts[-1], 5)
    assert 'label for="cuba-num-' in bids[0]["html"] and "Bid on C1" in bids[0]["html"]


def test_a_bid_from_the_number_input_is_the_engines_bid_and_a_wrong_one_changes_nothing(
    page_as, cuba
):
    state = state_of(cuba)
    seat = min(ENGINE.to_act(state))
    client = page_as(users_by_seat(cuba)[seat])
    bid = next(
        f for f in forms(page(page_as, users_by_seat(cuba)[seat], cuba)) if f["type"] == "bid"
    )
    template = json.dumps(bid["action"])
    for wrong in ("abc", "3", "99999", ""):
        seq = cuba.seq
        response = client.post(
            f"/games/{cuba.pk}/move/",
            {"seq": seq, "action": template, "num.amount": wrong},
            follow=True,
        )
        assert response.status_code == 200
        cuba.refresh_from_db()
        assert cuba.seq == seq
    client.post(
        f"/games/{cuba.pk}/move/", {"seq": cuba.seq, "action": template, "num.amount": "15"}
    )
    assert state_of(cuba)["round"]["steps"]["auction"]["bid"] == 15


def _every_legal_move_is_offered_with_its_gloss(page_as, game, seat) -> str:
    state = state_of(game)
    legal = ENGINE.legal_actions(state, seat)
    html = page(page_as, users_by_seat(game)[seat], game)
    assert offered(html) == legal_of(legal)
    names = ["alice", "bob"]
    for f in forms(html):
        if f["number"] or f["action"] is None or f["type"] in ("lay", "station", "home"):
            continue
        gloss = ENGINE.gloss(state, seat, f["action"], names)
        if gloss:
            assert unescape(gloss) in unescape(f["html"])
        assert ENGINE.text(f["action"]) in unescape(f["html"])
    return html


def test_every_legal_move_is_a_form_with_the_mails_gloss_through_the_stock_round(page_as, cuba):
    seat = play_until(cuba, lambda st, s, legal: any(a["type"] == "par" for a in legal))
    html = _every_legal_move_is_offered_with_its_gloss(page_as, cuba, seat)
    # a par price is a number input per company, not 21 buttons
    pars = [f for f in forms(html) if f["type"] == "par"]
    assert pars and all(f["number"] and f["number"][0] == "price" for f in pars)


def test_the_map_is_the_control_each_hex_with_lays_leads_to_its_tiles_drawn(page_as, cuba):
    seat = play_until(cuba, lambda st, s, legal: any(a["type"] == "lay" for a in legal))
    html = _every_legal_move_is_offered_with_its_gloss(page_as, cuba, seat)
    legal = ENGINE.legal_actions(state_of(cuba), seat)
    lays: dict[str, list] = {}
    for a in legal:
        if a["type"] == "lay":
            lays.setdefault(a["hex"], []).append(a)
    svg = re.search(r"<svg viewBox=.*?</svg>", html, re.S).group(0)
    for coord, here in lays.items():
        tiles = len({a["tile"] for a in here})
        link = re.search(rf'<a href="#cuba-hex-{coord}" [^>]*aria-label="([^"]+)"', svg)
        assert link, coord
        assert link.group(1).startswith(coord)
        assert f"{tiles} tile{'s' if tiles != 1 else ''} may be laid" in link.group(1)
        panel = re.search(rf'<section id="cuba-hex-{coord}".*?</section>', html, re.S).group(0)
        buttons = re.findall(
            r'<button type="submit" class="tile-button" aria-label="([^"]+)"', panel
        )
        assert len(buttons) == len(here)
        assert panel.count('class="tile-preview') == len(here)
        for a in here:
            # the mail's gloss of each lay rides on its button
            gloss = ENGINE.gloss(state_of(cuba), seat, a, ["alice", "bob"])
            assert unescape(gloss) in unescape(panel)
            assert any(
                f"Lay tile {a['tile']} on" in b
                and f"rotation {a['rotation']}," in b
                and "cost $" in b
                for b in buttons
            )


def test_each_lay_says_what_it_opens_as_the_engine_says_it(page_as, cuba):
    seat = play_until(cuba, lambda st, s, legal: sum(a["type"] == "lay" for a in legal) > 10)
    html = page(page_as, users_by_seat(cuba)[seat], cuba)
    state = state_of(cuba)
    legal = ENGINE.legal_actions(state, seat)
    prospects = ENGINE.prospects(state, seat, legal)
    said = dict(zip(map(encode, legal), prospects, strict=True))
    lays = [f for f in forms(html) if f["type"] == "lay"]
    assert len(lays) == sum(a["type"] == "lay" for a in legal)
    for form in lays:
        opens = said[encode(form["action"])]
        assert opens and opens.startswith(("reaches", "the hex pays")), opens
        assert f'<span class="tile-opens">{escape(opens)}</span>' in form["html"]
        label = unescape(re.search(r'aria-label="([^"]+)"', form["html"]).group(1))
        assert label.endswith(f": {opens}")
    # a move that is not a lay has nothing to open
    assert all(p is None for a, p in zip(legal, prospects, strict=True) if a["type"] != "lay")


def test_routes_are_drawn_per_train_before_the_director_pays_or_retains(page_as, cuba):
    def running(state, seat, legal):
        turn = state["round"]["steps"].get("turn") or {}
        run = turn.get("run") or {}
        return any(a["type"] == "payout" for a in legal) and run.get("routes")

    seat = play_until(cuba, running)
    run = state_of(cuba)["round"]["steps"]["turn"]["run"]
    html = page(page_as, users_by_seat(cuba)[seat], cuba)
    drawn = re.findall(r'<path class="route" d="M[^"]+" style="stroke:(#[0-9a-f]{6})"', html)
    assert len(drawn) == len(run["routes"]) and len(set(drawn)) == len(drawn)
    listed = re.search(r'<section class="cuba-routes".*?</section>', html, re.S).group(0)
    for n, route in enumerate(run["routes"], 1):
        assert re.search(
            rf"Train {n} \({re.escape(route['train'])}.*?\${route['revenue']}", listed
        )
    assert f"income <strong>${run['income']}</strong>" in listed
    exact = run.get("exact", True)
    assert ("exact: false" in listed) != exact
    assert {f["type"] for f in forms(html)} >= {"payout", "retain"}


def test_the_panels_show_market_charters_depot_privates_and_the_round(page_as, cuba, alice):
    seat = play_until(cuba, lambda st, s, legal: st["round"]["kind"] == "operating")
    state = state_of(cuba)
    view = ENGINE.view(state, seat)
    html = page(page_as, alice, cuba)
    market = re.search(r'<section class="cuba-market".*?</section>', html, re.S).group(0)
    for cell in view["market"]:
        if cell["markers"]:
            stack = re.search(rf'data-price="{cell["price"]}">.*?</li></ol>', market, re.S)
            assert stack and re.findall(r'data-company="(\w+)"', stack.group(0)) == cell["markers"]
    acting = view["round"]["entity"]
    charter = re.search(
        rf'<article class="charter acting" data-company="{acting}".*?</article>', html, re.S
    )
    assert charter, acting
    c = view["companies"][acting]
    for text in (f"${c['treasury']}", ", ".join(c["trains"]) or "none", "President"):
        assert text in charter.group(0)
    depot = re.search(r'<section class="cuba-depot".*?</section>', html, re.S).group(0)
    nxt = BY_NUMBER[view["phase"] + 1]
    assert f"Next: phase {nxt.number} when the first {nxt.trigger} train is bought" in depot
    for rusted in nxt.rusts:
        assert rusted in depot
    privates = re.search(r'<section class="cuba-privates".*?</section>', html, re.S).group(0)
    for m in CONCESSIONS:
        assert m.name in privates
    assert f"(OR {view['round']['index']} of {view['round']['of']})" in html
    assert f"{acting} (" in re.search(r'<div class="cuba-now".*?</div>', html, re.S).group(0)


def test_stations_are_chosen_on_the_map_like_tiles(page_as, cuba):
    seat = play_until(
        cuba, lambda st, s, legal: any(a["type"] in ("home", "station") for a in legal)
    )
    html = _every_legal_move_is_offered_with_its_gloss(page_as, cuba, seat)
    legal = ENGINE.legal_actions(state_of(cuba), seat)
    for a in legal:
        if a["type"] not in ("home", "station"):
            continue
        link = re.search(rf'<a href="#cuba-hex-{a["hex"]}" [^>]*aria-label="([^"]+)"', html)
        assert link and "a station may be placed" in link.group(1)
        panel = re.search(rf'<section id="cuba-hex-{a["hex"]}".*?</section>', html, re.S).group(0)
        sent = [f["action"] for f in forms(panel) if f["type"] == a["type"]]
        assert a in sent


# --- stations on the previews of a lay ------------------------------------


def test_a_previews_stations_follow_the_upgrade_into_its_cities():
    from boards.cuba import carried

    laid = {"hex": "D19", "tile": "5", "rotation": 0,
            "stops": [{"type": "city", "slots": 1, "tokens": ["SB"]}]}  # fmt: skip
    assert carried(laid, "619", 3) == (("SB",),)
    # A hex never laid: its stations go to the tile's first city, as the engine puts them.
    printed = {**laid, "tile": None, "rotation": None}
    assert carried(printed, "L66", 3) == (("SB",),)
    # No station, or no upgrade that keeps the track: nothing to draw.
    assert carried({**laid, "stops": [{"type": "city", "slots": 1, "tokens": []}]}, "619", 3) == ()
    assert carried(laid, "619", 1) == ()


def test_a_preview_draws_the_stations_it_keeps_in_their_companys_colours():
    from boards.cuba import TOKEN_COLOURS, tile_preview

    bare = str(tile_preview("619", 3))
    kept = str(tile_preview("619", 3, (("SB",),), (("SB", "red"),)))
    assert 'class="token"' not in bare
    assert re.search(r'<text class="token"[^>]*>SB</text>', kept)
    assert f"fill:{TOKEN_COLOURS['red'][0]}" in kept


@pytest.mark.slow
def test_a_lay_on_a_hex_with_a_station_shows_and_says_the_station_it_keeps(page_as, cuba):
    def station_under_a_lay(state, seat, legal):
        tokens = state["board"]["tokens"]
        return any(a["type"] == "lay" and any(tokens.get(a["hex"]) or []) for a in legal)

    seat = play_until(cuba, station_under_a_lay, limit=200)
    state = state_of(cuba)
    lay = next(
        a for a in ENGINE.legal_actions(state, seat)
        if a["type"] == "lay" and any(state["board"]["tokens"].get(a["hex"]) or [])
    )  # fmt: skip
    stations = [sym for city in state["board"]["tokens"][lay["hex"]] for sym in city]
    html = page_as(users_by_seat(cuba)[seat]).get(f"/games/{cuba.pk}/").content.decode()
    panel = re.search(rf'<section id="cuba-hex-{lay["hex"]}".*?</section>', html, re.S).group(0)
    buttons = re.findall(r'<button[^>]*aria-label="([^"]+)"[^>]*>(.*?)</button>', panel, re.S)
    wanted = f"Lay tile {lay['tile']} on "
    rotation = f", rotation {lay['rotation']},"
    button = next(
        ((unescape(label), inner) for label, inner in buttons
         if unescape(label).startswith(wanted) and rotation in unescape(label)),
        None,
    )  # fmt: skip
    assert button, "the lay is offered in its hex's panel"
    label, picture = button
    assert f"keeping the stations {', '.join(stations)}" in label
    for sym in stations:
        assert re.search(rf'<text class="token"[^>]*>{sym}</text>', picture)
