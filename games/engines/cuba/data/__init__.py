"""What is printed, as frozen data validated when it is imported: the map
and its tiles (`map.json`, `tiles.json`), the charters, the trains, the
phases, the market and the variants. Imports nothing of the title but
`refusals`."""
