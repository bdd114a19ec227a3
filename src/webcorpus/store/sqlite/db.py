"""SQLite connections and migrations for the embedded default.

SQLite comes from ``sqlean.py``: it bundles a current SQLite (FTS5 contentless-delete tables need
3.43+) with extension loading enabled, which many system Pythons lack.
"""

from __future__ import annotations

import contextlib
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import sqlean as sqlite3

Connection = Any  # sqlean.Connection; sqlean ships no type information


def connect(path: Path | str) -> Connection:
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA cache_size=-65536")
    conn.execute("PRAGMA temp_store=MEMORY")
    return conn


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("webcorpus.store.sqlite") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


def migrate(conn: Connection) -> int:
    """Apply pending migrations in order; returns the schema version."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        current = row[0] or 0
        for version, sql in _migrations():
            if version <= current:
                continue
            for statement in _split(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version(version) VALUES (?)", (version,))
            current = version
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return int(current)


def _split(sql: str) -> list[str]:
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]


class ConnectionPool:
    """One connection per thread; SQLite serializes writers, WAL lets readers run alongside.

    Threads come and go (a crawl job's database thread, the API's worker threads), and each
    connection holds an open file and up to 64 MiB of page cache: a connection is closed when its
    thread calls :meth:`release`, or else once its thread has ended, when the next one opens.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._all: dict[threading.Thread, Connection] = {}
        self._lock = threading.Lock()

    def get(self) -> Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            self._local.conn = conn
            with self._lock:
                self._close_orphans()
                self._all[threading.current_thread()] = conn
        return conn

    def release(self) -> None:
        """Close the calling thread's connection (it gets a new one if it asks again)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            return
        self._local.conn = None
        with self._lock:
            self._all.pop(threading.current_thread(), None)
        with contextlib.suppress(Exception):
            conn.close()

    def _close_orphans(self) -> None:
        for thread in [t for t in self._all if not t.is_alive()]:
            with contextlib.suppress(Exception):
                self._all.pop(thread).close()

    def close(self) -> None:
        with self._lock:
            for conn in self._all.values():
                with contextlib.suppress(Exception):
                    conn.close()
            self._all.clear()
        self._local = threading.local()
