"""18Cuba (API name ``18cuba``).

The game plays from the commissioners' auction through the concession draft
and the stock rounds; the operating rounds are not built yet, so a game ends
when it reaches its first one, with the final totals as they stand
(``rounds/operating.py``).

Modules, by concern:

* ``hexes``     the grid, neighbours, barriers, preprinted hexes (``map.json``)
* ``tiles``     tile faces, rotations, the physical manifest (``tiles.json``)
* ``board``     the map part of the state (laid tiles, tokens, supply)
* ``graph``     the track network of a gauge and what a company reaches
* ``upgrades``  which tile may replace which
* ``laying``    tile lay and upgrade rules, legal lays
* ``tokens``    station tokens and homes
* ``routes``    route enumeration and validation
* ``optimiser`` the exact best revenue of a company's trains and wagons
* ``mapview``   the map as drawable data
* ``companies`` ``trains`` ``phases`` ``market`` ``variants``  static data
* ``cash``      every transfer of money; ``shares`` certificates and directors
* ``state``     the typed state and its copy
* ``privates``  the commissioners and concessions and their abilities
* ``rounds``    the round base and the rounds; ``steps`` one module per verb group
* ``engine``    the protocol wired to the rounds; ``view`` ``scoring``

README.md gives the layout and the reasons for it.
"""

from __future__ import annotations

from .engine import CubaEngine

ENGINE = CubaEngine()

__all__ = ["ENGINE", "CubaEngine"]
