"""Time rules the services apply: a game's clock options, the deadline a
move sets, and each player's vacation budget."""
