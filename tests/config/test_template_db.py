"""The migrated template the test workers copy is rebuilt whenever a
migration changes (tests/support/template_db.py)."""

from __future__ import annotations

from tests.support import template_db


def test_the_template_digest_changes_with_any_migration_file(tmp_path, monkeypatch):
    migrations = tmp_path / "app" / "migrations"
    migrations.mkdir(parents=True)
    (migrations / "0001_initial.py").write_text("operations = []\n")
    monkeypatch.setattr(template_db, "ROOT", tmp_path)
    first = template_db.migrations_digest()

    (migrations / "0001_initial.py").write_text("operations = ['changed']\n")
    edited = template_db.migrations_digest()
    (migrations / "0002_more.py").write_text("operations = []\n")
    added = template_db.migrations_digest()

    assert len({first, edited, added}) == 3
    assert template_db.migrations_digest() == added  # and is stable


def test_the_digest_reads_the_projects_own_migrations():
    assert list(template_db.ROOT.glob("games/migrations/0001_*.py"))
