"""Storage: schema, migrations and repositories behind one interface per backend."""

from __future__ import annotations

from webcorpus.config import Settings
from webcorpus.store.sqlite.store import ConflictError, SQLiteStore

Store = SQLiteStore

__all__ = ["ConflictError", "SQLiteStore", "Store", "open_store"]


def open_store(settings: Settings) -> SQLiteStore:
    url = settings.effective_database_url
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        raise NotImplementedError("the PostgreSQL backend is not built yet; use SQLite")
    return SQLiteStore(settings.sqlite_path if not settings.database_url else _sqlite_path(url))


def _sqlite_path(url: str):  # type: ignore[no-untyped-def]
    from pathlib import Path

    return Path(url.removeprefix("sqlite:///"))
