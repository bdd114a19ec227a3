"""Crawl the real Python docs (Debian's python3.11-doc) served by nginx on loopback."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import Running, assert_buckets_invariant, make_settings, run_server
from tests.sites.docsites import DocSites
from tests.sites.nginx import RunningServer

pytestmark = pytest.mark.slow


def bucket_urls(srv: Running, job_id: str, bucket: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    offset = 0
    while True:
        page = srv.client.get(
            f"/api/jobs/{job_id}/urls", params={"bucket": bucket, "limit": 1000, "offset": offset}
        ).json()
        out.update({row["url"]: row for row in page["data"]})
        offset += 1000
        if offset >= page["total"]:
            return out


@pytest.fixture(scope="module")
def crawled(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, dict[str, Any]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("docs"), connect_to=nginx_server.connect_to(refuse_https=True)
    )
    with run_server(settings) as srv:
        job = srv.crawl("docs.python.org", budget=2000)
        view = srv.wait(job)
        yield srv, view


def test_budget_200_is_partial(nginx_server: RunningServer, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, connect_to=nginx_server.connect_to(refuse_https=True))
    with run_server(settings) as srv:
        job = srv.crawl("docs.python.org", budget=200)
        view = srv.wait(job)
    assert_buckets_invariant(view)
    assert view["state"] == "partial"
    b = view["coverage"]["buckets"]
    assert b["indexed"]["count"] == 200
    assert view["progress"]["fetched"] == 200
    assert b["budget"]["count"] > 0
    assert b["budget"]["reason"] and len(b["budget"]["sample"]) == 10
    assert b["budget"]["reasons"][0]["reason"] == "budget of 200 pages spent"
    assert view["progress"]["eta"] == {"low_s": 0, "high_s": 0, "confidence": 1.0}


def test_full_crawl_completes_with_every_allowed_page(
    crawled: tuple[Running, dict[str, Any]], doc_sites: DocSites
) -> None:
    srv, view = crawled
    assert_buckets_invariant(view)
    assert view["state"] == "completed", view["coverage"]
    site = doc_sites.python
    expected = {site.url(p) for p in site.allowed_pages}
    indexed = bucket_urls(srv, view["id"], "indexed")
    duplicates = bucket_urls(srv, view["id"], "duplicate")
    missing = expected - set(indexed) - set(duplicates)
    assert not missing, sorted(missing)[:20]
    for url, row in duplicates.items():
        assert row["target"] in indexed, (url, row)
    robots = bucket_urls(srv, view["id"], "robots")
    assert {site.url(p) for p in site.robots_excluded} <= set(robots)
    assert not set(robots) & set(indexed)


def test_markdown_keeps_code_and_tables(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    listing = srv.client.get(
        "/api/content", params={"domain": "python.org", "limit": 100, "sort": "indexed"}
    ).json()
    assert listing["total"] >= 490
    by_url = {}
    offset = 0
    while offset < listing["total"]:
        chunk = srv.client.get(
            "/api/content", params={"domain": "python.org", "limit": 100, "offset": offset}
        ).json()
        by_url.update({p["url"]: p for p in chunk["data"]})
        offset += 100
    tomllib = by_url["http://docs.python.org/library/tomllib.html"]
    md = srv.client.get(f"/api/content/{tomllib['id']}.md")
    assert md.status_code == 200
    assert md.headers["content-type"] == "text/markdown; charset=utf-8"
    text = md.text
    assert text.startswith("---\n")
    front = text.split("---\n")[1]
    for key in (
        "id:",
        "url:",
        "canonical_url:",
        "title:",
        "domain:",
        "locale:",
        "type:",
        "published:",
        "fetched_at:",
        "words:",
    ):
        assert key in front
    assert "```python\nimport tomllib" in text
    # the TOML -> Python conversion table survives as a pipe table with every row
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert any(re.search(r"\|\s*TOML\s*\|\s*Python\s*\|", r) for r in rows), rows[:5]
    assert any("offset date-time" in r and "datetime.datetime" in r for r in rows)
    page = srv.client.get(f"/api/content/{tomllib['id']}").json()
    assert page["markdown"] and page["history"][0]["status"] == 200
    assert page["history"][0]["changed"] is True
    no_md = srv.client.get(f"/api/content/{tomllib['id']}", params={"markdown": "false"}).json()
    assert "markdown" not in no_md and no_md["id"] == tomllib["id"]


def test_refresh_unchanged_then_one_change(
    crawled: tuple[Running, dict[str, Any]], nginx_server: RunningServer, doc_sites: DocSites
) -> None:
    srv, first = crawled
    indexed_before = first["coverage"]["buckets"]["indexed"]["count"]
    job = srv.crawl("docs.python.org", budget=2000, refresh=True)
    view = srv.wait(job)
    assert_buckets_invariant(view)
    b = view["coverage"]["buckets"]
    assert b["indexed"]["count"] == 0, b["indexed"]
    assert b["unchanged"]["count"] >= indexed_before

    site = doc_sites.python
    path = "/library/bisect.html"
    original = (site.root / path.lstrip("/")).read_text("utf-8")
    changed = original.replace("</h1>", "</h1><p>A freshly added paragraph about bisect.</p>", 1)
    assert changed != original
    nginx_server.write_page(site.host, path, changed.encode("utf-8"))
    try:
        job = srv.crawl("docs.python.org", budget=2000, refresh=True)
        view = srv.wait(job)
    finally:
        nginx_server.reset()
    assert_buckets_invariant(view)
    indexed = bucket_urls(srv, view["id"], "indexed")
    assert list(indexed) == [site.url(path)]
    page_id = indexed[site.url(path)]["page_id"]
    page = srv.client.get(f"/api/content/{page_id}").json()
    assert "freshly added paragraph" in page["markdown"]
    history = page["history"]
    assert len(history) == 3
    assert [h["changed"] for h in history] == [True, False, True]
    assert history[0]["content_hash"] != history[1]["content_hash"]
