"""What a reader sees: the mail's lines (`describe`), the one-line forms of
map moves (`notation`), the view (`view`) and the map in it (`mapview`)."""
