"""18Cuba (API name ``18cuba``), from the commissioners' auction to the
final ranking.

Modules, by folder (README.md gives the layout and the reasons for it):

* ``engine``  the protocol wired to the rounds; ``state`` the typed state
  and its copy; ``setup`` a new game; ``scoring`` the result; ``refusals``
* ``data/``   what is printed: the map and tiles (``map.json``,
  ``tiles.json``), companies, trains, phases, market, variants
* ``map/``    the map's rules: board, graph, upgrades, laying, tokens,
  routes, optimiser
* ``rules/``  cash, shares, privates, rolling stock, emergency financing,
  income, the operating company's turn
* ``steps/``  one module per verb group, each declaring its moves' words;
  ``rounds/`` the rounds, lists of steps
* ``words/``  the board in a mail's lines, the names of things, map notation,
  the view and the map view
* ``play/``   random building and random games, for tests and benchmarks
"""

from __future__ import annotations

from .engine import CubaEngine

ENGINE = CubaEngine()

__all__ = ["ENGINE", "CubaEngine"]
