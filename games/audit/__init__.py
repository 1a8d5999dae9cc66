"""Whole games checked or moved: verify_games, the golden games, the release
gate, and the export/import document."""
