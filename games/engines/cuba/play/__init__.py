"""Play without people: random legal building (`simulate`) and whole random
games (`randomgame`), for the tests, the benchmarks and the golden
recordings; no game on the server uses them."""
