"""The runtime under every app: metrics, logs, outages of Redis and what
degrades with them, health, the cache, rate limits, request parsers, the
embedded default's in-process services, and who a client is.  It knows no
game rules; config/ wires it in (settings, urls)."""
