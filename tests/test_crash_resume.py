"""kill -9 the server mid-crawl, start it again: the jobs resume and end; nothing is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server import FINAL, assert_buckets_invariant, free_port
from tests.sites.nginx import RunningServer

pytestmark = pytest.mark.slow


def wait_up(base: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "webcorpus serve exited"
        try:
            if httpx.get(f"{base}/api/openapi.json", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("server did not come up")


def post_crawl(base: str, key: str, domain: str, budget: int) -> str:
    r = httpx.post(
        f"{base}/api/crawl",
        json={"domain": domain, "budget": budget},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert r.status_code == 202, r.text
    return str(r.json()["job_id"])


def wait_final(base: str, job_id: str, deadline: float) -> dict[str, Any]:
    """The job's view once it has ended, or its last view when ``deadline`` passes."""
    while True:
        view: dict[str, Any] = httpx.get(f"{base}/api/jobs/{job_id}").json()
        if view["state"] in FINAL or time.monotonic() >= deadline:
            return view
        time.sleep(0.5)


def test_kill_and_restart_resumes(nginx_server: RunningServer, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "WEBCORPUS_DATA_DIR": str(tmp_path / "data"),
        "WEBCORPUS_CONNECT_TO": ",".join(nginx_server.connect_to(refuse_https=True)),
        "WEBCORPUS_CONNECT_TO_ONLY": "true",
        "WEBCORPUS_CRAWL_DELAY_S": "0",
        "WEBCORPUS_HOST_CONCURRENCY": "4",
        "WEBCORPUS_JOB_LEASE_S": "6",
        "WEBCORPUS_EMBEDDINGS": "false",
    }
    cli = [sys.executable, "-m", "webcorpus.cli"]
    key = subprocess.run(
        [*cli, "keys", "create", "crash-test"], env=env, check=True, capture_output=True, text=True
    ).stdout.strip()
    assert key.startswith("wck_")
    port = free_port()
    env["WEBCORPUS_PORT"] = str(port)
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("ab")
    proc = subprocess.Popen([*cli, "serve"], env=env, stdout=log, stderr=log)
    try:
        wait_up(base, proc)
        job_id = post_crawl(base, key, "www.postgresql.org", 400)
        # A second company, crawled side by side by the same worker.
        other_id = post_crawl(base, key, "docs.python.org", 300)
        deadline = time.monotonic() + 120
        before = 0
        while time.monotonic() < deadline:
            view = httpx.get(f"{base}/api/jobs/{job_id}").json()
            other = httpx.get(f"{base}/api/jobs/{other_id}").json()
            before = view["progress"]["indexed"]
            if before >= 40 and other["progress"]["indexed"] >= 1:
                break
            time.sleep(0.2)
        assert before >= 40 and view["state"] == "running"
        assert other["state"] == "running"
        other_before = other["progress"]["indexed"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

        proc = subprocess.Popen([*cli, "serve"], env=env, stdout=log, stderr=log)
        wait_up(base, proc)
        deadline = time.monotonic() + 300
        view = wait_final(base, job_id, deadline)
        assert view["state"] == "partial", view["state"]
        assert view["resumes"] >= 1
        assert_buckets_invariant(view)
        buckets = view["coverage"]["buckets"]
        assert buckets["indexed"]["count"] >= before
        assert view["progress"]["fetched"] <= 400 + 16  # at most the in-flight fetches redone
        listed = httpx.get(f"{base}/api/content", params={"domain": "postgresql.org"}).json()
        assert listed["total"] == buckets["indexed"]["count"]

        other = wait_final(base, other_id, deadline)
        assert other["state"] == "partial", other["state"]
        assert other["resumes"] >= 1
        assert_buckets_invariant(other)
        assert other["coverage"]["buckets"]["indexed"]["count"] >= other_before
        assert other["progress"]["fetched"] <= 300 + 16
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
