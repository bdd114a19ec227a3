"""Storage: schema, migrations and repositories behind one interface per backend."""

from __future__ import annotations

from webcorpus.config import Settings
from webcorpus.store.sqlite.store import ConflictError, SQLiteStore

Store = SQLiteStore

__all__ = ["ConflictError", "SQLiteStore", "Store", "open_store"]


def open_store(settings: Settings) -> SQLiteStore:
    url = settings.effective_database_url  # Settings accepts only SQLite URLs for now
    return SQLiteStore(settings.sqlite_path if not settings.database_url else _sqlite_path(url))


def _sqlite_path(url: str):  # type: ignore[no-untyped-def]
    from pathlib import Path

    return Path(url.removeprefix("sqlite:///"))
