"""What a reader sees: the board in a mail's lines (`describe`), the names
of things a mail uses (`names`), how the map's things are written in a move
line (`notation`), the view (`view`) and the map in it (`mapview`). A move's
own words are declared by its step (`steps/`)."""
