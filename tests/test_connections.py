"""SQLite connections do not pile up: one per live thread, closed when their thread is gone."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from tests.server import make_settings, run_server
from tests.sites.nginx import RunningServer
from webcorpus.config import Settings
from webcorpus.store.sqlite.db import ConnectionPool, migrate


def open_files(path: Path) -> int:
    """File descriptors of this process on the database, its WAL and shared-memory files."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        count += target.startswith(str(path))
    return count


def test_connections_of_ended_threads_are_closed(tmp_path: Path) -> None:
    db = tmp_path / "pool.db"
    pool = ConnectionPool(db)
    migrate(pool.get())
    baseline = open_files(db)

    def use() -> None:
        pool.get().execute("SELECT count(*) FROM schema_version").fetchone()

    for _ in range(8):
        t = threading.Thread(target=use)
        t.start()
        t.join()
    last = threading.Thread(target=use)  # opening a connection closes the orphans
    last.start()
    last.join()
    assert open_files(db) <= baseline + 3  # one connection: database, WAL, shared memory

    def use_and_release() -> None:
        use()
        pool.release()

    before = open_files(db)
    t = threading.Thread(target=use_and_release)
    t.start()
    t.join()
    assert open_files(db) <= before  # released at once, not at the next opening
    pool.close()
    assert open_files(db) == 0


def test_finished_jobs_leave_no_connection_behind(
    nginx_server: RunningServer, tmp_path: Path
) -> None:
    """Each job runs its writes on a thread of its own; its connection (an open file and up to
    64 MiB of cache) must go with it, or a long-running service runs out of both."""
    settings = make_settings(tmp_path, connect_to=nginx_server.connect_to(refuse_https=True))
    with run_server(settings) as srv:
        db = settings.sqlite_path
        counts = []
        for _ in range(6):
            view = srv.wait(srv.crawl("www.postgresql.org", budget=2), timeout=120)
            assert view["state"] == "partial"
            counts.append(open_files(db))
    # Other threads (the API's) come and go: one connection's files of slack, not one per job.
    assert counts[-1] <= counts[0] + 3, counts


def test_the_api_runs_its_blocking_work_on_the_configured_threads(tmp_path: Path) -> None:
    """WEBCORPUS_API_THREADS caps the threads that run requests' database work (and so the
    connections they open); 0 means two per CPU, at least four."""
    from anyio import to_thread
    from fastapi.testclient import TestClient

    from webcorpus.api.app import api_threads, create_app

    def limit(settings: Settings) -> int:
        with TestClient(create_app(settings, run_worker=False)) as client:
            assert client.get("/api/content").status_code == 200
            portal = client.portal
            assert portal is not None
            return int(portal.call(lambda: to_thread.current_default_thread_limiter().total_tokens))

    assert limit(make_settings(tmp_path / "three", api_threads=3)) == 3
    default = make_settings(tmp_path / "default")
    assert api_threads(default) == max(4, 2 * (os.cpu_count() or 1))
    assert limit(default) == api_threads(default)
