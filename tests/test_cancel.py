"""Cancel a running crawl: it ends `cancelled`, its unfetched URLs in `stoppedEarly`."""

from __future__ import annotations

import time
from pathlib import Path

from tests.server import assert_buckets_invariant, make_settings, run_server
from tests.sites.nginx import RunningServer


def test_cancel_running_job(nginx_server: RunningServer, tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path,
        connect_to=nginx_server.connect_to(refuse_https=True),
        crawl_delay_s=0.2,
        host_concurrency=1,
        adaptive_delay=False,
    )
    with run_server(settings) as srv:
        job = srv.crawl("www.postgresql.org", budget=500)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            view = srv.client.get(f"/api/jobs/{job}").json()
            if view["state"] == "running" and view["progress"]["indexed"] >= 3:
                break
            time.sleep(0.2)
        r = srv.client.post(f"/api/jobs/{job}/cancel", headers=srv.auth)
        assert r.status_code == 202
        assert r.json()["cancel_requested"] is True
        view = srv.wait(job, timeout=60)
    assert view["state"] == "cancelled"
    assert_buckets_invariant(view)
    buckets = view["coverage"]["buckets"]
    assert buckets["stoppedEarly"]["count"] > 0
    assert buckets["stoppedEarly"]["reasons"][0]["reason"] == "the job was cancelled"
    assert buckets["indexed"]["count"] < 100
