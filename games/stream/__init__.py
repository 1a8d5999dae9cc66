"""The event stream: appending events (optimistic, hash-chained, sealed),
loading a game's state (snapshot + replay), and what a viewer may be shown
of the chain.  Everything that writes or reads events goes through here;
nothing here knows the doors (API, mail, timers) or the services above."""
