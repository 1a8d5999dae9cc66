"""Thin page views: read through `web.pages`, write through the game service."""
