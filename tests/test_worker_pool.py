"""The crawl worker's processing processes: started before the first job, replaced when one
dies (OOM killer, a crash in a C extension) without losing a page."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from tests.server import assert_buckets_invariant, make_settings, run_server
from tests.sites.docsites import DocSites
from tests.sites.nginx import RunningServer
from tests.test_crawl_docs import bucket_urls
from webcorpus.crawl.processing import (
    PageCrashedProcessing,
    ProcessingPool,
    ProcessingTimeout,
    ProcessingUnavailable,
)
from webcorpus.crawl.worker import default_processes


def _pool_processes() -> set[int]:
    """Children of this process started by multiprocessing's spawn (not its resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"spawn_main" in cmdline:
            found.add(int(entry.name))
    return found


def test_pool_is_up_before_the_first_crawl(tmp_path: Path) -> None:
    expected = default_processes()
    before = _pool_processes()
    with run_server(make_settings(tmp_path)) as srv:
        deadline = time.monotonic() + 30
        while len(_pool_processes() - before) < expected and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(_pool_processes() - before) == expected
        assert srv.client.get("/api/content").json()["data"] == []  # no crawl was asked for


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _nothing() -> None:
    """As an initializer: unpickling it imports this module in the fresh process before it says
    ready, so a task's time limit does not pay for that import."""


def _square(x: int) -> int:
    return x * x


def _broken_setup() -> None:
    raise ImportError("no module named 'a_missing_dependency'")


def test_a_process_that_cannot_set_up_blames_no_page() -> None:
    async def scenario() -> None:
        pool = ProcessingPool(1, initializer=_broken_setup)
        try:
            with pytest.raises(ProcessingUnavailable, match="a_missing_dependency"):
                await pool.run(_square, 3)
            start = time.monotonic()
            with pytest.raises(ProcessingUnavailable, match="a_missing_dependency"):
                await pool.run(_square, 4)  # at once: no second start-up per waiting page
            assert time.monotonic() - start < 0.5
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_crawl_whose_processing_cannot_start_fails_with_the_cause(
    nginx_server: RunningServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not `completed` with every page a fetchError "killed its process twice": the job fails,
    says why, and its URLs wait in stoppedEarly."""
    monkeypatch.setattr("webcorpus.crawl.worker.warm", _broken_setup)
    settings = make_settings(tmp_path, connect_to=nginx_server.connect_to(refuse_https=True))
    with run_server(settings) as srv:
        view = srv.wait(srv.crawl("www.postgresql.org", budget=20), timeout=120)
    assert view["state"] == "failed"
    assert "a_missing_dependency" in view["error"]
    buckets = view["coverage"]["buckets"]
    assert buckets["fetchError"]["count"] == 0 and buckets["indexed"]["count"] == 0
    assert buckets["stoppedEarly"]["count"] > 0
    assert_buckets_invariant(view)


def test_a_task_that_kills_its_process_is_blamed_and_the_pool_recovers() -> None:
    async def scenario() -> None:
        pool = ProcessingPool(1, initializer=_nothing)
        try:
            assert await pool.run(_square, 3) == 9
            with pytest.raises(PageCrashedProcessing):
                await pool.run(_die)
            assert pool.restarts == 2  # a fresh process after each death
            assert await pool.run(_square, 4) == 16
            assert pool.restarts == 2
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_task_past_the_time_limit_is_stopped_and_its_process_replaced() -> None:
    async def scenario() -> None:
        pool = ProcessingPool(1, initializer=_nothing, timeout_s=1.0)
        try:
            with pytest.raises(ProcessingTimeout):
                await pool.run(time.sleep, 30)
            assert await pool.run(_square, 5) == 25
            assert pool.restarts == 1
        finally:
            pool.shutdown()

    started = time.monotonic()
    asyncio.run(scenario())
    assert time.monotonic() - started < 20


@pytest.mark.slow
def test_a_killed_processing_process_loses_no_page(
    nginx_server: RunningServer, doc_sites: DocSites, tmp_path: Path
) -> None:
    settings = make_settings(tmp_path, connect_to=nginx_server.connect_to(refuse_https=True))
    before = _pool_processes()
    with run_server(settings) as srv:
        job = srv.crawl("docs.python.org", budget=2000)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            view = srv.client.get(f"/api/jobs/{job}").json()
            if view["progress"]["indexed"] >= 30:
                break
            time.sleep(0.1)
        victims = _pool_processes() - before
        assert victims, "no processing process found"
        os.kill(min(victims), signal.SIGKILL)  # as the OOM killer would
        view = srv.wait(job, timeout=600)
        assert_buckets_invariant(view)
        assert view["state"] == "completed", view["coverage"]
        site = doc_sites.python
        expected = {site.url(p) for p in site.allowed_pages}
        indexed = bucket_urls(srv, job, "indexed")
        duplicates = bucket_urls(srv, job, "duplicate")
        assert not expected - set(indexed) - set(duplicates)
        errors = bucket_urls(srv, job, "fetchError")
        assert not [r for r in errors.values() if "process" in (r["reason"] or "")]
        later = srv.wait(srv.crawl("www.postgresql.org", budget=20), timeout=120)
        assert later["progress"]["indexed"] >= 15  # later crawls get working processes too
        assert_buckets_invariant(later)
