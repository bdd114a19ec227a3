"""A hand-written site on a private suffix (acme.test), served by a server whose limits are raised
from their defaults: citations, filters on such a domain, limits taken from the settings."""

from __future__ import annotations

import os
import signal
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import Running, assert_buckets_invariant, make_settings, run_server
from tests.sites.static import REDIRECT, SLOW, StaticSite, serve_site
from webcorpus.render.screenshots import find_chromium

DOMAIN = "acme.test"
NAV = (
    '<nav><a href="/">Home</a> <a href="/docs/install.html">Install</a> '
    '<a href="/blog/post1.html">Blog</a> <a href="/docs/usage.html">Usage</a></nav>'
)
PROSE = (
    "Acme Widgets keep a queue of jobs in a single table and let workers lease them one at a "
    "time. Each worker renews its lease while it runs, and a job whose lease lapses goes back "
    "to the queue for another worker to take. "
)


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang='en'><head><title>{title}</title>"
        f"<link rel='stylesheet' href='/style.css'></head><body>{NAV}"
        f"<main><h1>{title}</h1>{body}</main><footer>Acme Corp</footer></body></html>"
    )


PAGES = {
    "/robots.txt": ("User-agent: *\nDisallow: /private/\nSitemap: http://acme.test/sitemap.xml\n"),
    "/sitemap.xml": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>http://acme.test/</loc></url>"
        "<url><loc>http://acme.test/docs/usage.html</loc></url></urlset>"
    ),
    "/": _page(
        "Acme Widgets",
        f"<p>{PROSE * 3}</p><p>Start with the <a href='/docs/install.html'>install guide</a>.</p>"
        # the browser asks for these too; our fetcher refuses them (SSRF guard, no such host)
        "<img src='http://10.0.0.1/secret.png' alt=''><img src='http://intranet.invalid/x.png'>"
        "<img src='/private/logo.png' alt=''>",  # robots.txt disallows it: never asked for
    ),
    "/style.css": "body { background: #fde; font-family: sans-serif }",
    "/docs/install.html": _page(
        "Install", f"<p>{PROSE * 4}</p><pre><code>pip install acme</code></pre>"
    ),
    "/docs/usage.html": _page("Usage", f"<p>{PROSE * 4}</p>"),
    "/blog/post1.html": _page(
        "Why we lease jobs",
        f"<p>{PROSE * 3}</p><p>See <a href='/docs/install.html'>how to install it</a>.</p>",
    ),
}


@pytest.fixture(scope="module")
def site() -> Iterator[StaticSite]:
    with serve_site(PAGES, host=DOMAIN) as running:
        yield running


@pytest.fixture(scope="module")
def crawled(
    site: StaticSite, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, dict[str, Any]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("small"),
        connect_to=site.connect_to(),
        worker_processes=1,
        # limits raised from their defaults: HTTP must follow the settings, not its own bounds
        content_limit=150,
        search_limit=60,
        bundle_limit=600,
        max_q_chars=1500,
    )
    with run_server(settings) as srv:
        view = srv.wait(srv.crawl(DOMAIN), timeout=120)
        yield srv, view


def top_left_pixel(png: bytes) -> tuple[int, int, int]:
    """RGB of a PNG's first pixel (8-bit RGB or RGBA, as Chromium writes them)."""
    width, _height, depth, color = struct.unpack(">IIBB", png[16:26])
    assert depth == 8 and color in (2, 6), (depth, color)
    data, pos = b"", 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        if png[pos + 4 : pos + 8] == b"IDAT":
            data += png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    row = zlib.decompressobj().decompress(data, 1 + width * 4)
    # The first pixel of the first row predicts from nothing (left, up and up-left are zero), so
    # every filter type leaves its bytes as they are.
    r, g, b = row[1:4]
    return r, g, b


def _by_path(srv: Running) -> dict[str, dict[str, Any]]:
    pages = srv.client.get("/api/content", params={"limit": 100}).json()["data"]
    return {p["url"].split(DOMAIN, 1)[1]: p for p in pages}


def test_the_site_is_crawled(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, view = crawled
    assert view["state"] == "completed", view
    assert set(_by_path(srv)) == {"/", "/docs/install.html", "/docs/usage.html", "/blog/post1.html"}


def test_a_body_link_counts_even_when_the_nav_links_the_same_page_first(
    crawled: tuple[Running, dict[str, Any]],
) -> None:
    """Every page's navigation links the install guide before its body does; the two pages
    whose body cites it still count as citing it."""
    srv, _ = crawled
    install = _by_path(srv)["/docs/install.html"]
    assert install["metrics"]["inlinks_body"] == 2
    page = srv.client.get(f"/api/content/{install['id']}", params={"markdown": "false"}).json()
    citing = sorted(c["url"].split(DOMAIN, 1)[1] for c in page["cited_by"])
    assert citing == ["/", "/blog/post1.html"]
    usage = _by_path(srv)["/docs/usage.html"]  # linked from the navigation only
    assert usage["metrics"]["inlinks_body"] == 0


def test_a_private_suffix_domain_filters_lists_search_and_facets(
    crawled: tuple[Running, dict[str, Any]],
) -> None:
    """The service crawls names under special-use suffixes (WEBCORPUS_ALLOW_PRIVATE_SUFFIXES, for
    intranets and tests); its filters take the same names."""
    srv, _ = crawled
    listed = srv.client.get("/api/content", params={"domain": "ACME.test"})
    assert listed.status_code == 200, listed.text
    assert listed.json()["total"] == 4
    assert listed.json()["filters"]["applied"]["domain"] == [DOMAIN]
    found = srv.client.get("/api/search", params={"q": "lease", "mode": "text", "domain": DOMAIN})
    assert found.status_code == 200, found.text
    assert found.json()["data"] and all(DOMAIN in h["url"] for h in found.json()["data"])
    facets = srv.client.get("/api/facets", params={"domain": DOMAIN})
    assert facets.status_code == 200, facets.text
    assert facets.json()["pages"] == 4


def test_http_limits_follow_the_settings(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    get = srv.client.get
    assert get("/api/content", params={"limit": 150}).status_code == 200
    assert get("/api/content", params={"limit": 151}).status_code == 400
    search = {"q": "lease", "mode": "text"}
    assert get("/api/search", params={**search, "limit": 60}).status_code == 200
    assert get("/api/search", params={**search, "limit": 61}).status_code == 400
    long_q = ("lease the job " * 120)[:1500]
    assert get("/api/search", params={"q": long_q, "mode": "text"}).status_code == 200
    assert get("/api/content", params={"q": long_q}).status_code == 200
    assert get("/api/search", params={"q": long_q + "x", "mode": "text"}).status_code == 400
    bundle = f"/api/domains/{DOMAIN}/content.md"
    assert get(bundle, params={"limit": 600}).status_code == 200
    assert get(bundle, params={"limit": 601}).status_code == 400


def test_screenshots_of_the_homepage_and_the_most_cited_page(
    crawled: tuple[Running, dict[str, Any]], site: StaticSite
) -> None:
    """Chromium renders the pages, every request it makes answered by our fetcher (so through
    the host-resolution override to this site; the private and unknown image hosts refused)."""
    srv, first = crawled
    assert "screenshots" not in first  # a crawl without shots
    before = len(site.hits)
    r = srv.client.post(
        "/api/crawl", json={"domain": DOMAIN, "budget": 2, "shots": 6}, headers=srv.auth
    )
    assert r.status_code == 202, r.text
    view = srv.wait(r.json()["job_id"], timeout=180)
    assert view["state"] in ("completed", "partial"), view
    assert view["params"]["shots"] == 2  # capped at the budget
    assert view["screenshots"] == {"requested": 2, "taken": 2, "failed": []}, view["screenshots"]
    pages = _by_path(srv)
    for path in ("/", "/docs/install.html"):  # the homepage, then the most cited page
        pid = pages[path]["id"]
        page = srv.client.get(f"/api/content/{pid}", params={"markdown": "false"}).json()
        (shot,) = page["screenshots"]
        assert shot["url"] == f"/api/content/{pid}/screenshot.png"
        assert (shot["width"], shot["height"]) == (1280, 800) and shot["taken_at"]
        png = srv.client.get(shot["url"])
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png.content[16:24]) == (1280, 800)
        assert top_left_pixel(png.content) == (0xFF, 0xDD, 0xEE)  # the stylesheet's background
    assert "/style.css" in site.hits[before:]
    assert "/private/logo.png" not in site.hits
    usage = pages["/docs/usage.html"]["id"]
    missing = srv.client.get(f"/api/content/{usage}/screenshot.png")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_without_a_browser_the_crawl_ends_and_says_why_there_are_no_screenshots(
    site: StaticSite, tmp_path: Path
) -> None:
    settings = make_settings(
        tmp_path, connect_to=site.connect_to(), chromium_path=tmp_path / "no-chromium"
    )
    with run_server(settings) as srv:
        view = srv.wait(srv.crawl(DOMAIN, shots=1), timeout=120)
    assert view["state"] == "completed", view
    report = view["screenshots"]
    assert report["taken"] == 0 and "WEBCORPUS_CHROMIUM_PATH" in report["error"], report


def test_jobs_filter_on_the_normalized_root_domain(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, view = crawled
    for typed in ("ACME.test", "www.acme.test", "acme.test."):
        body = srv.client.get("/api/jobs", params={"domain": typed}).json()
        assert body["filters"]["applied"]["domain"] == DOMAIN, typed
        assert view["id"] in [j["id"] for j in body["data"]], typed
    bad = srv.client.get("/api/jobs", params={"domain": "not a domain!!"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["param"] == "domain"


def test_every_list_names_its_sort(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, view = crawled
    for path in ("/api/jobs", f"/api/jobs/{view['id']}/urls", "/api/facets", "/api/content"):
        body = srv.client.get(path).json()
        assert isinstance(body.get("sort"), str) and body["sort"], (path, body.keys())


def test_sitemap_times_are_rfc3339(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    record = srv.client.get(f"/api/domains/{DOMAIN}").json()
    sitemaps = record["sitemaps"]
    assert [s["url"] for s in sitemaps] == ["http://acme.test/sitemap.xml"], sitemaps
    assert sitemaps[0]["last_modified"] == "2026-11-03T08:00:00Z"  # sent as an HTTP date


def test_repeated_list_parameters_are_joined_and_others_refused(
    crawled: tuple[Running, dict[str, Any]],
) -> None:
    srv, _ = crawled
    joined = srv.client.get("/api/content?type=docs,blog&locale=en").json()
    repeated = srv.client.get("/api/content?type=docs&type=blog&locale=en").json()
    assert repeated["filters"]["applied"] == joined["filters"]["applied"]
    assert repeated["filters"]["applied"]["type"] == ["docs", "blog"]
    assert [p["id"] for p in repeated["data"]] == [p["id"] for p in joined["data"]]
    r = srv.client.get("/api/content?limit=5&limit=10")
    assert r.status_code == 400 and r.json()["errors"] == [
        {"param": "limit", "message": "given more than once"}
    ]
    assert r.headers["x-webcorpus-version"]
    r = srv.client.get("/api/search?q=lease&q=queue&mode=text")
    assert r.status_code == 400 and r.json()["errors"][0]["param"] == "q"
    # a parameter the API does not know is never an error, given once or twice
    r = srv.client.get("/api/content?utm_source=a&utm_source=b&type=docs&type=blog")
    assert r.status_code == 200 and r.json()["filters"]["unrecognized"] == ["utm_source"]
    assert r.json()["filters"]["applied"]["type"] == ["docs", "blog"]


def test_the_homepage_is_found_through_its_redirect(tmp_path: Path) -> None:
    """The entry URL redirects (/ -> /en/): the page it leads to is the homepage, shot first."""
    pages = {
        "/robots.txt": "User-agent: *\nAllow: /\n",
        "/": f"{REDIRECT}/en/",
        "/en/": _page("Welcome", f"<p>{PROSE}</p><a href='/en/b.html'>b</a>"),
        "/en/a.html": _page("A", f"<p>{PROSE}</p><a href='/en/b.html'>b</a>"),
        "/en/b.html": _page("B", f"<p>{PROSE}</p><a href='/en/a.html'>a</a>"),
    }
    with serve_site(pages, host="redirecting.test") as site:
        settings = make_settings(tmp_path, connect_to=site.connect_to())
        with run_server(settings) as srv:
            view = srv.wait(srv.crawl("redirecting.test", shots=1), timeout=120)
            assert view["screenshots"] == {"requested": 1, "taken": 1, "failed": []}, view
            listed = srv.client.get("/api/content").json()["data"]
            shot = {p["url"].split(".test", 1)[1] for p in listed if _has_shot(srv, p["id"])}
    assert shot == {"/en/"}


def _has_shot(srv: Running, page_id: str) -> bool:
    page = srv.client.get(f"/api/content/{page_id}", params={"markdown": "false"}).json()
    return bool(page["screenshots"])


def test_a_browser_that_dies_does_not_fail_the_crawl(site: StaticSite, tmp_path: Path) -> None:
    """Chromium killed while it renders the first screenshot's page: the crawl still ends
    completed, the job view saying what stopped the screenshots."""
    pidfile = tmp_path / "chromium.pid"
    wrapper = tmp_path / "dying-chromium"
    wrapper.write_text(f'#!/bin/sh\necho $$ > {pidfile}\nexec {find_chromium(None)} "$@"\n')
    wrapper.chmod(0o755)
    stop = threading.Event()

    def kill_when_rendering() -> None:
        """Kill the browser at its first subresource request (a page's stylesheet): only the
        browser asks for it, so it dies mid-shot however fast this machine renders."""
        while not stop.is_set() and not pidfile.exists():
            time.sleep(0.01)
        seen = len(site.hits)
        while not stop.is_set():
            if "/style.css" in site.hits[seen:]:
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
                return
            time.sleep(0.005)

    killer = threading.Thread(target=kill_when_rendering, daemon=True)
    killer.start()
    settings = make_settings(tmp_path, connect_to=site.connect_to(), chromium_path=wrapper)
    try:
        with run_server(settings) as srv:
            view = srv.wait(srv.crawl(DOMAIN, shots=4), timeout=180)
    finally:
        stop.set()
        killer.join(5)
    assert view["state"] == "completed" and view["error"] is None, view
    report = view["screenshots"]
    assert report.get("error") and report["taken"] < 4, report


def test_a_slow_sitemap_is_read_before_the_pages(tmp_path: Path) -> None:
    """The sitemaps are read before any page is fetched, however slow: the pages only they list
    are crawled, and their lastmod dates the pages that state no date (a page fetched before
    its sitemap entry was read would have none)."""
    urlset = "".join(
        f"<url><loc>http://slow.test/{p}</loc><lastmod>2026-01-15</lastmod></url>"
        for p in ("", "a.html", "b.html")
    )
    pages = {
        "/robots.txt": "User-agent: *\nAllow: /\n",
        "/": _page("Welcome", f"<p>{PROSE}</p>"),  # its links (the nav) all answer 404
        "/sitemap.xml": f"{SLOW}1.0:<?xml version='1.0'?>"
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urlset}</urlset>',
        "/a.html": _page("A", f"<p>{PROSE} Alpha.</p>"),
        "/b.html": _page("B", f"<p>{PROSE} Beta.</p>"),
    }
    with serve_site(pages, host="slow.test") as site:
        settings = make_settings(tmp_path, connect_to=site.connect_to())
        with run_server(settings) as srv:
            view = srv.wait(srv.crawl("slow.test"), timeout=120)
            listed = srv.client.get("/api/content").json()["data"]
    assert view["state"] == "completed", view
    assert view["progress"]["indexed"] == 3, view["coverage"]["buckets"]
    assert_buckets_invariant(view)
    assert {p["url"]: p["facets"]["published"] for p in listed} == {
        f"http://slow.test/{p}": "2026-01-15" for p in ("", "a.html", "b.html")
    }


def test_a_site_that_never_answers_fails_with_the_reason(tmp_path: Path) -> None:
    """Nothing reached (no entry point answered): `failed` with why, not `completed` with 0."""
    with run_server(make_settings(tmp_path)) as srv:
        view = srv.wait(srv.crawl("nowhere.test", budget=5))
    assert view["state"] == "failed", view
    assert view["error"].startswith("no entry point answered"), view["error"]
    assert "nowhere.test" in view["error"]
    assert view["coverage"]["buckets"]["fetchError"]["count"] >= 1
    assert view["progress"]["indexed"] == 0
    assert_buckets_invariant(view)
