"""Certificates change hands, never appear or vanish: every company's stay 100%."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from games.engines.cuba.data.companies import BY_SYM, shares_of
from games.engines.cuba.rules import shares

ORDER = [0, 1, 2, 3]


def buy(certs, company, seat, source="ipo"):
    assert (
        shares.can_buy(certs, company, seat, source, "4", phase=4, sold_this_round=False) is None
    )
    certs = shares.move(certs, company, source, f"p{seat}", shares.offered(certs, company, source))
    return shares.change_director(certs, company, ORDER)


def holding(**holders):
    """Certificates of MS only, from a per-holder list."""
    return {"MS": {h: sorted(p, reverse=True) for h, p in holders.items() if p}}


def test_iii2_every_certificate_starts_in_the_initial_offering():
    certs = shares.new_certificates()
    assert set(certs) == set(BY_SYM)
    assert certs["MS"] == {"ipo": [20, 10, 10, 10, 10, 10, 10, 10, 10]}
    assert certs["HG"] == {"ipo": [40, 20, 20, 20]}
    assert certs["FC"] == {"ipo": [10] * 10}
    assert all(sum(c["ipo"]) == 100 for c in certs.values())


def test_vi3_certificate_limit_counts_every_share_but_commissioners():
    certs = shares.new_certificates(["MS", "HG", "FC"])
    certs = buy(certs, "MS", 0)
    certs = buy(certs, "MS", 0)
    certs = shares.inaugurate_minor(certs, "HG", 0)
    certs = shares.move(certs, "FC", "ipo", "p0", 10)
    # The director's 20% and 40% count one each; commissioners are not certificates.
    assert shares.certificate_count(certs, 0) == 5
    assert shares.certificate_count(certs, 1) == 0


def test_vi3_no_purchase_beyond_the_certificate_limit():
    certs = shares.new_certificates()
    seat = 0
    for sym in ("Oe", "MS", "CVC", "NPP", "SdC", "TSS", "StSp"):
        for _ in range(3):
            certs = shares.move(certs, sym, "ipo", "p0", shares.offered(certs, sym, "ipo"))
    assert shares.certificate_count(certs, seat) == 21
    reason = shares.can_buy(certs, "FC", seat, "ipo", "5", phase=1, sold_this_round=False)
    assert reason == "you hold 21 certificates, the limit is 17"
    assert shares.can_buy(certs, "FC", seat, "ipo", "2c", phase=1, sold_this_round=False) is None


def test_vi5_nobody_owns_more_than_sixty_percent():
    certs = holding(ipo=[10] * 4, p0=[20, 10, 10, 10, 10])
    assert "60%" in shares.can_buy(certs, "MS", 0, "ipo", "4", phase=1, sold_this_round=False)
    certs = holding(ipo=[10] * 5, p0=[20, 10, 10, 10])
    assert shares.can_buy(certs, "MS", 0, "ipo", "4", phase=1, sold_this_round=False) is None


def test_vi5_no_purchase_after_selling_the_company_in_the_same_round():
    certs = holding(ipo=[10] * 5, p0=[20, 10], pool=[10, 10])
    reason = shares.can_buy(certs, "MS", 0, "pool", "4", phase=1, sold_this_round=True)
    assert "in this stock round" in reason


def test_vi5_minor_shares_never_come_out_of_a_treasury_and_start_only_by_concession():
    certs = shares.new_certificates(["HG"])
    assert "concession" in shares.can_buy(
        certs, "HG", 1, "ipo", "4", phase=1, sold_this_round=False
    )
    certs = shares.inaugurate_minor(certs, "HG", 0)
    assert certs["HG"] == {"p0": [40, 20], "treasury": [20, 20]}
    reason = shares.can_buy(certs, "HG", 1, "treasury", "4", phase=1, sold_this_round=False)
    assert reason == "no minor shares may be bought out of a company's treasury"
    certs = shares.move(certs, "HG", "treasury", "pool", 20)  # issued (VII.3.3)
    assert shares.can_buy(certs, "HG", 1, "pool", "4", phase=1, sold_this_round=False) is None


def test_vi5_major_shares_come_from_offering_treasury_or_pool():
    certs = holding(p0=[20, 10, 10], p1=[10], treasury=[10] * 4, pool=[10])
    for source in ("treasury", "pool"):
        assert shares.can_buy(certs, "MS", 1, source, "4", phase=1, sold_this_round=False) is None
    assert "no MS certificate in the initial offering" in shares.can_buy(
        certs, "MS", 1, "ipo", "4", phase=1, sold_this_round=False
    )
    assert "not 'p0'" in shares.can_buy(certs, "MS", 1, "p0", "4", phase=1, sold_this_round=False)


def test_iv4_fec_shares_only_from_phase_four():
    certs = shares.new_certificates(["FEC"])
    reason = shares.can_buy(certs, "FEC", 0, "ipo", "4", phase=3, sold_this_round=False)
    assert reason == "FEC shares are available from phase 4"
    assert shares.can_buy(certs, "FEC", 0, "ipo", "4", phase=4, sold_this_round=False) is None


def test_vi8_the_first_certificate_sold_is_the_directors_and_fifty_percent_floats():
    certs = shares.new_certificates(["MS"])
    assert shares.offered(certs, "MS", "ipo") == 20
    certs = buy(certs, "MS", 1)
    assert shares.director(certs, "MS") == "p1"
    assert shares.offered(certs, "MS", "ipo") == 10
    for seat in (0, 2, 0):
        certs = buy(certs, "MS", seat)
    assert shares.sold_percent(certs, "MS") == 50
    certs = shares.move(certs, "MS", "p0", "pool", 10)  # a sale does not unfloat
    assert shares.sold_percent(certs, "MS") == 50


def test_vi8_remaining_offering_goes_to_the_treasury_at_the_charter():
    certs = holding(ipo=[10] * 5, p0=[20, 10], p1=[10, 10])
    assert shares.charter(certs, "MS")["MS"] == {
        "treasury": [10] * 5,
        "p0": [20, 10],
        "p1": [10, 10],
    }
    with pytest.raises(IllegalAction, match="no director"):
        shares.charter(shares.new_certificates(["MS"]), "MS")


def test_iv5_the_fc_has_no_director():
    certs = shares.new_certificates(["FC"])
    for seat in (0, 0, 0, 1):
        certs = buy(certs, "FC", seat)
    assert shares.director(certs, "FC") is None
    assert certs["FC"] == {"ipo": [10] * 6, "p0": [10] * 3, "p1": [10]}


def test_vi4_no_sale_before_the_company_has_operated():
    certs = holding(ipo=[10] * 6, p0=[20, 10], p1=[10])
    assert "not operated" in shares.can_sell(certs, "MS", 1, 1, operated=False)
    assert shares.can_sell(certs, "MS", 1, 1, operated=True) is None


def test_vi4_the_pool_holds_at_most_five_certificates_after_a_sale():
    certs = holding(p0=[20, 10, 10, 10], p1=[10], pool=[10] * 3)
    assert shares.can_sell(certs, "MS", 0, 2, operated=True) is None
    assert "above 5" in shares.can_sell(certs, "MS", 0, 3, operated=True)
    assert "above 5" not in (shares.can_sell(certs, "MS", 1, 1, operated=True) or "")


def test_vi4_no_more_than_one_holds():
    certs = holding(ipo=[10] * 6, p0=[20, 10], p1=[10])
    assert "you hold 10%" in shares.can_sell(certs, "MS", 1, 2, operated=True)
    assert "one certificate or more" in shares.can_sell(certs, "MS", 1, 0, operated=True)


def test_vi4_directors_certificate_only_by_a_change_of_director():
    certs = holding(p0=[20, 10], p1=[10, 10], ipo=[10] * 4)
    # p0 sells down to 10%: p1's 20% takes the director's certificate.
    assert shares.can_sell(certs, "MS", 0, 2, operated=True) is None
    sold = shares.sell(certs, "MS", 0, 2, ORDER)
    assert sold["MS"] == {"p0": [10], "p1": [20], "ipo": [10] * 4, "pool": [10, 10]}
    # Only 10% elsewhere: the director's certificate stays, so no dipping into it.
    small = holding(p0=[20, 10], p1=[10], ipo=[10] * 5)
    assert "never be sold" in shares.can_sell(small, "MS", 0, 2, operated=True)
    # Selling ordinary shares down to a tie keeps the director.
    tie = shares.sell(holding(p0=[20, 10], p1=[10, 10], ipo=[10] * 5), "MS", 0, 1, ORDER)
    assert shares.director(tie, "MS") == "p0"
    with pytest.raises(IllegalAction, match="bank pool or a treasury"):
        shares.move(certs, "MS", "p0", "pool", 20)


def test_vi9_more_shares_take_the_directorship_and_percentages_are_kept():
    certs = holding(p0=[20], p1=[10, 10], ipo=[10] * 6)
    certs = buy(certs, "MS", 1)
    assert certs["MS"]["p1"] == [20, 10]
    assert certs["MS"]["p0"] == [10, 10]
    assert shares.director(certs, "MS") == "p1"


def test_vi9_equal_holdings_keep_the_director():
    certs = holding(p0=[20, 10], p1=[10, 10, 10], ipo=[10] * 3)
    assert shares.change_director(certs, "MS", ORDER) == certs


def test_vi9_equal_challengers_go_by_playing_order_after_the_director():
    certs = holding(p2=[20], p0=[10, 10, 10], p3=[10, 10, 10], ipo=[10])
    assert shares.director(shares.change_director(certs, "MS", [0, 1, 2, 3]), "MS") == "p3"
    assert shares.director(shares.change_director(certs, "MS", [2, 0, 1, 3]), "MS") == "p0"


def test_vi9_minor_director_passes_forty_percent_for_two_shares():
    certs = {"HG": {"p0": [40], "p1": [20, 20, 20]}}
    out = shares.change_director(certs, "HG", ORDER)
    assert out["HG"] == {"p0": [20, 20], "p1": [40, 20]}


def test_move_never_mutates_and_refuses_what_is_not_there():
    certs = holding(ipo=[20] + [10] * 8)
    before = {"MS": {"ipo": list(certs["MS"]["ipo"])}}
    shares.move(certs, "MS", "ipo", "p0", 20)
    assert certs == before
    with pytest.raises(IllegalAction, match="holds no 10%"):
        shares.move(certs, "MS", "pool", "p0", 10)
    with pytest.raises(IllegalAction, match="no holder"):
        shares.move(certs, "MS", "ipo", "bank", 10)
    with pytest.raises(IllegalAction, match="no company"):
        shares.move(certs, "XX", "ipo", "p0", 10)


PLAYERS = 4
COMPANIES = ["MS", "HG", "FC"]
action = st.tuples(
    # Weighted towards trading, so that directors change hands often.
    st.sampled_from(["buy"] * 4 + ["sell"] * 3 + ["charter"] * 2 + ["minor", "issue", "redeem"]),
    st.sampled_from(COMPANIES),
    st.integers(0, PLAYERS - 1),
    st.sampled_from(["ipo", "treasury", "pool"]),
    st.integers(1, 3),
)


def apply_legal(certs, kind, company, seat, source, count):
    """One random action, if the rules allow it; None when they do not."""
    if kind == "buy":
        if shares.can_buy(certs, company, seat, source, "5", phase=4, sold_this_round=False):
            return None
        cert = shares.offered(certs, company, source)
        certs = shares.move(certs, company, source, f"p{seat}", cert)
        return shares.change_director(certs, company, ORDER)
    if kind == "sell":
        if shares.can_sell(certs, company, seat, count, operated=True):
            return None
        return shares.sell(certs, company, seat, count, ORDER)
    if kind == "minor":
        if company != "HG" or shares.director(certs, "HG") is not None:
            return None
        return shares.inaugurate_minor(certs, "HG", seat)
    if kind == "charter":
        if company != "MS" or shares.sold_percent(certs, "MS") < 50 or "ipo" not in certs["MS"]:
            return None
        return shares.charter(certs, "MS")
    ordinary = shares_of(BY_SYM[company]).ordinary_percent
    source, target = ("treasury", "pool") if kind == "issue" else ("pool", "treasury")
    if ordinary not in certs[company].get(source, []):
        return None
    if kind == "issue" and len(certs[company].get("pool", [])) >= shares.POOL_LIMIT:
        return None
    return shares.move(certs, company, source, target, ordinary)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(action, max_size=80))
def test_every_company_always_holds_one_hundred_percent(actions):
    certs = shares.new_certificates(COMPANIES)
    for act in actions:
        after = apply_legal(certs, *act)
        if after is None:
            continue
        certs = after
        for sym, holders in certs.items():
            assert sum(sum(p) for p in holders.values()) == 100, (sym, holders)
            assert all(p and all(x > 0 for x in p) for p in holders.values())
            assert len(holders.get("pool", [])) <= shares.POOL_LIMIT
            boss = shares.director(certs, sym)
            for seat in range(PLAYERS):
                mine = shares.percent(certs, sym, f"p{seat}")
                assert mine <= shares.HOLDING_LIMIT
                if boss is not None:
                    assert mine <= shares.percent(certs, sym, boss)
        for seat in range(PLAYERS):
            assert shares.certificate_count(certs, seat) <= 17


def test_a_price_is_per_ordinary_share_10_percent_of_a_major_20_of_a_minor():
    assert shares.units("MS", 20) == 2  # a major's director's certificate
    assert shares.units("FC", 10) == 1
    assert shares.units("HG", 60) == 3  # a minor's director plus one share: 3x par (VI.7)
