"""18Cuba (API name ``18cuba``): the geography part.

This package so far holds the map, the tiles, track laying, station tokens,
routes and the revenue optimiser as a pure library.  Companies and
rounds come later; until the engine is complete the package defines
no ``ENGINE`` (the registry in ``games.engines.base`` reads it lazily).

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
* ``rounds``    the round base and the rounds; ``steps`` one module per verb group

README.md gives the layout and the reasons for it.
"""

from __future__ import annotations
