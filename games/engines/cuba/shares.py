"""Certificates, directors and holding limits (draft VI.3-VI.9), as a rules
library that knows nothing of rounds. Filled by the stock-round part; this
module states the contract the steps will call.

Data (in `state["certificates"]`): per company, per holder, the percentages
of the certificates held, e.g. ``{"MS": {"ipo": [10, 10], "p0": [20, 10],
"pool": [10]}}``. Holders are players (`cash.player(seat)`), ``"ipo"`` (the
initial offering), ``"treasury"`` (the company's own shares) and ``"pool"``
(the bank pool). A director's certificate is the one printed with the larger
percentage (majors 20, minors 40); the FC has none.

Functions to come, all pure (they take and return plain data):

- ``percent(certs, company, holder) -> int``
- ``director(certs, company) -> holder | None``: the holder of the director's
  certificate; ``change_director`` swaps certificates when another player holds
  more (VI.9), ties keep the current director.
- ``certificate_count(certs, seat) -> int``: what counts against the limit
  (commissioners do not; VI.3).
- ``can_buy(certs, company, seat, source, variant) -> str | None``: the reason
  a purchase is refused (certificate limit, 60% holding limit, a sale of the
  same company earlier in this SR), or None.
- ``can_sell(certs, company, seat, ...) -> str | None``: VI.4 (no sale before the
  company has operated; not more than five certificates in the pool; the
  director's certificate only by a change of director).
- ``move(certs, company, source, target, percent) -> certs``: the one way a
  certificate changes hands, so the tests can assert that every company's
  certificates always add up to 100%.
"""
