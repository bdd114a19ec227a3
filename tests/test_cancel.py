"""Cancel a running crawl: it ends `cancelled`, its unfetched URLs in `stoppedEarly`."""

from __future__ import annotations

import time
from pathlib import Path

from tests.server import assert_buckets_invariant, make_settings, run_server
from tests.sites.nginx import RunningServer
from tests.sites.static import SLOW, serve_site


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


def test_cancel_while_the_job_waits_for_its_embeddings(
    nginx_server: RunningServer, tmp_path: Path
) -> None:
    """Every page fetched, chunks still waiting for vectors: a cancel now ends the job at once
    (it used to be accepted, then ignored until the backlog was empty)."""
    settings = make_settings(
        tmp_path, connect_to=nginx_server.connect_to(refuse_https=True), embeddings=True
    )
    with run_server(settings) as srv:
        job = srv.crawl("docs.python.org", budget=40)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            view = srv.client.get(f"/api/jobs/{job}").json()
            if view["progress"]["pending"] == 0 and view["progress"]["indexed"] >= 30:
                break
            time.sleep(0.1)
        assert view["state"] == "running" and view["progress"]["embedding_backlog"] > 200
        r = srv.client.post(f"/api/jobs/{job}/cancel", headers=srv.auth)
        assert r.status_code == 202
        view = srv.wait(job, timeout=20)
    assert view["state"] == "cancelled"
    assert view["progress"]["embedding_backlog"] > 0  # it did not wait for the vectors
    assert_buckets_invariant(view)


def test_cancel_while_the_sitemaps_are_read(tmp_path: Path) -> None:
    """A sitemap index of ten children taking a second each: a cancel ends the job without
    reading the rest (the heartbeat notices a cancel within a second)."""
    children = [f"/sitemaps/{i}.xml" for i in range(10)]
    urlset = (
        "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
        "<url><loc>http://maps.test/a.html</loc></url></urlset>"
    )
    index = "".join(f"<sitemap><loc>http://maps.test{c}</loc></sitemap>" for c in children)
    pages = {
        "/robots.txt": "User-agent: *\nAllow: /\n",
        "/": "<html><body><p>Home</p></body></html>",
        "/sitemap.xml": "<?xml version='1.0'?><sitemapindex "
        f"xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{index}</sitemapindex>",
        **{c: f"{SLOW}1.0:{urlset}" for c in children},
    }
    with (
        serve_site(pages, host="maps.test") as site,
        run_server(make_settings(tmp_path, connect_to=site.connect_to())) as srv,
    ):
        job = srv.crawl("maps.test")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and children[0] not in site.hits:
            time.sleep(0.05)
        r = srv.client.post(f"/api/jobs/{job}/cancel", headers=srv.auth)
        assert r.status_code == 202
        view = srv.wait(job, timeout=60)
        read = [c for c in children if c in site.hits]
    assert view["state"] == "cancelled", view
    assert len(read) <= 4, read  # ten without the check
    assert_buckets_invariant(view)
