"""The rules of the map (draft IV, VII.3.4-7): the board in the state, the
track networks, upgrades, tile lays, stations, routes and the optimiser.
Pure functions over the board; they know nothing of rounds."""
