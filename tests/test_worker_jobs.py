"""A worker runs crawls of different domains side by side (``worker_jobs``), never the same job
twice."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import sqlean

from tests.server import FINAL, Running, assert_buckets_invariant, make_settings, run_server
from tests.sites.nginx import RunningServer
from webcorpus.crawl.worker import Worker
from webcorpus.services.clock import now_iso
from webcorpus.services.crawls import parse_crawl_body, start_crawl
from webcorpus.store import SQLiteStore, open_store


def _slow_settings(nginx: RunningServer, tmp_path: Path, **overrides: Any) -> Any:
    """One request at a time per host, 0.2 s apart: a 60-page crawl takes at least 12 s."""
    return make_settings(
        tmp_path,
        connect_to=nginx.connect_to(refuse_https=True),
        crawl_delay_s=0.2,
        host_concurrency=1,
        adaptive_delay=False,
        **overrides,
    )


def _state(srv: Running, job: str) -> dict[str, Any]:
    return dict(srv.client.get(f"/api/jobs/{job}").json())


def _wait_running(srv: Running, job: str, indexed: int = 2) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = _state(srv, job)
        if view["state"] == "running" and view["progress"]["indexed"] >= indexed:
            return
        assert view["state"] not in FINAL, view["state"]
        time.sleep(0.1)
    raise AssertionError(f"job {job} did not start")


def _cancel(srv: Running, job: str) -> dict[str, Any]:
    r = srv.client.post(f"/api/jobs/{job}/cancel", headers=srv.auth)
    assert r.status_code in (200, 202), r.text
    return srv.wait(job, timeout=60)


def test_a_slow_crawl_does_not_hold_back_another_domain(
    nginx_server: RunningServer, tmp_path: Path
) -> None:
    with run_server(_slow_settings(nginx_server, tmp_path)) as srv:
        slow = srv.crawl("www.postgresql.org", budget=60)
        _wait_running(srv, slow)
        quick = srv.crawl("docs.python.org", budget=5)
        done = srv.wait(quick, timeout=60)
        slow_view = _state(srv, slow)
        assert done["state"] == "partial"  # 5 pages of ~500
        assert done["progress"]["indexed"] >= 3
        assert slow_view["state"] == "running", "the quick crawl had to wait for the slow one"
        assert slow_view["progress"]["indexed"] < 60
        ended = _cancel(srv, slow)
    assert_buckets_invariant(done)
    assert ended["state"] == "cancelled"
    assert_buckets_invariant(ended)


def test_one_job_per_worker_when_configured(nginx_server: RunningServer, tmp_path: Path) -> None:
    with run_server(_slow_settings(nginx_server, tmp_path, worker_jobs=1)) as srv:
        slow = srv.crawl("www.postgresql.org", budget=60)
        _wait_running(srv, slow)
        queued = srv.crawl("docs.python.org", budget=5)
        time.sleep(2.5)  # a free slot is taken within one loop turn; two seconds at most
        assert _state(srv, queued)["state"] == "queued"
        _cancel(srv, slow)
        done = srv.wait(queued, timeout=60)
    assert done["state"] == "partial"
    assert done["progress"]["indexed"] >= 3
    assert_buckets_invariant(done)


def test_a_worker_never_leases_a_job_it_runs_already(tmp_path: Path) -> None:
    """A late renewal lets a running job's lease expire; its own worker must not take it again."""
    store_settings = make_settings(tmp_path)
    store = open_store(store_settings)
    job = start_crawl(store, parse_crawl_body({"domain": "example.com"}, store_settings), None)
    first = store.lease_job("host:1:aa", 60, now_iso())
    assert first is not None and first.id == job.id
    store.expire_leases("host:1:aa")
    assert store.lease_job("host:1:aa", 60, now_iso(), exclude=[job.id]) is None
    again = store.lease_job("host:1:aa", 60, now_iso())
    assert again is not None and again.id == job.id and again.resumes == 1


class _LockedOnceStore(SQLiteStore):
    """The real store, whose first lease attempt meets a database locked past its busy timeout
    (a long write from another process, a VACUUM)."""

    locked = 1

    def lease_job(self, *args: Any, **kwargs: Any) -> Any:
        if self.locked:
            self.locked -= 1
            raise sqlean.OperationalError("database is locked")
        return super().lease_job(*args, **kwargs)


def test_a_database_error_does_not_stop_the_worker(
    nginx_server: RunningServer, tmp_path: Path
) -> None:
    """The worker used to end on the first exception of its loop, leaving every later crawl
    queued for ever while the API went on accepting them."""
    settings = make_settings(tmp_path, connect_to=nginx_server.connect_to(refuse_https=True))
    store = _LockedOnceStore(settings.sqlite_path)
    job = start_crawl(
        store, parse_crawl_body({"domain": "postgresql.org", "budget": 20}, settings), None
    )

    async def scenario() -> str:
        worker = Worker(settings, store, processes=1)
        task = asyncio.create_task(worker.run())
        deadline = time.monotonic() + 120
        try:
            while time.monotonic() < deadline:
                record = store.get_job(job.id)
                assert record is not None
                if record.state in FINAL:
                    return record.state
                assert not task.done(), "the worker loop ended"
                await asyncio.sleep(0.2)
            raise AssertionError("the job did not end")
        finally:
            worker.stop()
            await task

    assert asyncio.run(scenario()) == "partial"
    assert store.locked == 0  # the fault happened
    store.close()
