"""The loopback test sites serve what they claim (tests/sites/)."""

from __future__ import annotations

import gzip
import random
import subprocess
import time
import zlib
from collections.abc import Iterator
from xml.etree import ElementTree

import httpx
import pytest
from protego import Protego

from tests.sites.docsites import SETUP_SCRIPT, DocSite, DocSites
from tests.sites.fixtures import doc_sites, hostile_server, nginx_server
from tests.sites.hostile import (
    BOMB_PREFIX,
    EXPECTED_BUCKETS,
    INTERNAL_HOST,
    RunningHostile,
    bomb_parts,
)
from tests.sites.nginx import RunningServer

__all__ = ["doc_sites", "hostile_server", "nginx_server"]  # fixtures used by name below

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture(scope="module")
def web(nginx_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=nginx_server.base_url(), timeout=10) as client:
        yield client


@pytest.fixture(scope="module")
def hostile(hostile_server: RunningHostile) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=hostile_server.base_url(), timeout=10) as client:
        yield client


def get(client: httpx.Client, host: str, path: str, **headers: str) -> httpx.Response:
    return client.get(path, headers={"Host": host, **headers})


def sitemap_locs(client: httpx.Client, site: DocSite) -> tuple[list[str], list[str]]:
    """(page URLs, lastmods) reachable from /sitemap.xml, following a sitemap index."""
    locs: list[str] = []
    lastmods: list[str] = []
    todo = ["/sitemap.xml"]
    while todo:
        path = todo.pop(0)
        resp = get(client, site.host, path)
        assert resp.status_code == 200, path
        raw = gzip.decompress(resp.content) if path.endswith(".gz") else resp.content
        root = ElementTree.fromstring(raw)
        if root.tag == f"{SM}sitemapindex":
            children = [e.text or "" for e in root.iter(f"{SM}loc")]
            todo += [c.removeprefix(f"http://{site.host}") for c in children]
        else:
            assert root.tag == f"{SM}urlset"
            for url in root.iter(f"{SM}url"):
                locs.append(url.findtext(f"{SM}loc") or "")
                lastmods.append(url.findtext(f"{SM}lastmod") or "")
    return locs, lastmods


# --- doc sites --------------------------------------------------------------------------------


def test_setup_script_is_idempotent_and_fast(doc_sites: DocSites) -> None:
    env = {"WEBCORPUS_TEST_CACHE": str(doc_sites.cache_dir), "PATH": "/usr/sbin:/usr/bin:/bin"}
    started = time.monotonic()
    out = subprocess.run(["bash", str(SETUP_SCRIPT)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "unpacking" not in out.stderr and "downloading" not in out.stderr
    assert time.monotonic() - started < 5


def test_page_counts(doc_sites: DocSites) -> None:
    python, postgres, handbook = doc_sites.python, doc_sites.postgres, doc_sites.handbook
    assert python.html_count > 500 and len(python.robots_excluded) == 30
    assert all("/genindex" in p for p in python.robots_excluded)
    assert postgres.html_count > 1000 and "/" in postgres.pages
    assert postgres.robots_excluded == ()
    assert len(handbook.languages) == 26 and handbook.html_count > 3000
    for site in doc_sites:
        assert site.sitemap_pages == site.pages
        assert len(set(site.pages)) == site.html_count


def test_each_vhost_answers(web: httpx.Client, doc_sites: DocSites) -> None:
    for site in doc_sites:
        resp = get(web, site.host, "/")
        assert resp.status_code == 200, site.host
        assert resp.headers["content-type"].startswith("text/html")
        for alias in site.aliases:
            resp = get(web, alias, "/some/path?x=1")
            assert resp.status_code == 301
            assert resp.headers["location"] == f"http://{site.host}/some/path?x=1"
    assert get(web, "unknown.example", "/").status_code == 404
    home = get(web, doc_sites.postgres.host, "/").text
    assert 'href="/docs/15/index.html"' in home
    root = get(web, doc_sites.handbook.host, "/").text
    for lang in doc_sites.handbook.languages:
        assert f'href="/browse/{lang}/stable/"' in root


def test_redirects_and_directories(web: httpx.Client, doc_sites: DocSites) -> None:
    resp = get(web, doc_sites.handbook.host, "/browse/stable/")
    assert (resp.status_code, resp.headers["location"]) == (301, "/browse/en-US/stable/")
    resp = get(web, doc_sites.handbook.host, "/browse/de-DE/stable/")
    assert resp.status_code == 200 and 'lang="de-DE"' in resp.text
    resp = get(web, doc_sites.postgres.host, "/docs/15")
    assert (resp.status_code, resp.headers["location"]) == (301, "/docs/15/")
    assert get(web, doc_sites.postgres.host, "/docs/15/").status_code == 200


@pytest.mark.parametrize("host", ["docs.python.org", "www.postgresql.org", "debian-handbook.info"])
def test_robots_consistent_with_pages(web: httpx.Client, doc_sites: DocSites, host: str) -> None:
    site = doc_sites[host]
    resp = get(web, host, "/robots.txt")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    robots = Protego.parse(resp.text)
    assert list(robots.sitemaps) == [f"http://{host}/sitemap.xml"]
    blocked = [p for p in site.pages if not robots.can_fetch(site.url(p), "webcorpus")]
    assert blocked == list(site.robots_excluded)


@pytest.mark.parametrize("host", ["docs.python.org", "www.postgresql.org", "debian-handbook.info"])
def test_sitemaps_list_every_page(web: httpx.Client, doc_sites: DocSites, host: str) -> None:
    site = doc_sites[host]
    locs, lastmods = sitemap_locs(web, site)
    assert sorted(locs) == sorted(site.url(p) for p in site.sitemap_pages)
    assert len(locs) == site.html_count
    assert all(len(m) == 25 and m.endswith("+00:00") for m in lastmods)
    # a sample of the listed pages really is served as HTML
    for path in random.Random(host).sample(site.pages, 40):
        resp = get(web, host, path)
        assert resp.status_code == 200, path
        assert resp.headers["content-type"] == "text/html"


def test_conditional_get_and_gzip(web: httpx.Client, doc_sites: DocSites) -> None:
    host, path = doc_sites.python.host, "/library/functions.html"
    first = get(web, host, path)  # httpx asks for gzip by default
    assert first.status_code == 200 and first.headers["content-encoding"] == "gzip"
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert get(web, host, path, **{"If-None-Match": etag}).status_code == 304
    assert get(web, host, path, **{"If-Modified-Since": modified}).status_code == 304
    plain = get(web, host, path, **{"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == first.text
    assert get(web, host, path, **{"If-None-Match": plain.headers["etag"]}).status_code == 304
    assert get(web, host, path, **{"If-None-Match": '"nope"'}).status_code == 200


def test_broken_symlinks_do_not_break_the_server(
    web: httpx.Client, nginx_server: RunningServer, doc_sites: DocSites
) -> None:
    host = doc_sites.python.host
    for path in ("/_static/jquery.js", "/_static/underscore.js"):
        assert get(web, host, path).status_code in {200, 404}
    broken = nginx_server.overlay(host) / "broken.html"
    broken.symlink_to("/nonexistent/target.html")
    try:
        assert get(web, host, "/broken.html").status_code == 404
        assert get(web, host, "/").status_code == 200
    finally:
        nginx_server.reset()


def test_change_and_delete_a_page(
    web: httpx.Client, nginx_server: RunningServer, doc_sites: DocSites
) -> None:
    site = doc_sites.postgres
    path = "/docs/15/tutorial.html"
    pristine_file = site.root / path.lstrip("/")
    pristine = pristine_file.read_bytes()
    before = get(web, site.host, path, **{"Accept-Encoding": "identity"})
    try:
        nginx_server.write_page(
            site.host, path, "<html><body><p>Changed tutorial</p></body></html>"
        )
        after = get(web, site.host, path, **{"Accept-Encoding": "identity"})
        assert after.status_code == 200 and "Changed tutorial" in after.text
        assert after.headers["etag"] != before.headers["etag"]
        resp = get(web, site.host, path, **{"If-None-Match": before.headers["etag"]})
        assert resp.status_code == 200
        nginx_server.delete_page(site.host, "/docs/15/sql.html")
        assert get(web, site.host, "/docs/15/sql.html").status_code == 404
        nginx_server.write_page(site.host, "/docs/15/new-page.html", "<html>new</html>")
        assert get(web, site.host, "/docs/15/new-page.html").status_code == 200
    finally:
        nginx_server.reset()
    assert pristine_file.read_bytes() == pristine
    restored = get(web, site.host, path, **{"Accept-Encoding": "identity"})
    assert restored.headers["etag"] == before.headers["etag"]
    assert get(web, site.host, "/docs/15/sql.html").status_code == 200
    assert get(web, site.host, "/docs/15/new-page.html").status_code == 404


def test_connect_to_strings(nginx_server: RunningServer, doc_sites: DocSites) -> None:
    entries = nginx_server.connect_to(["docs.python.org"], refuse_https=True)
    assert entries[0] == f"docs.python.org:80:127.0.0.1:{nginx_server.port}"
    assert entries[1] == f"docs.python.org:443:127.0.0.1:{nginx_server.refused_port}"
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{nginx_server.refused_port}/", timeout=2)
    assert len(nginx_server.connect_to()) == len(doc_sites.hosts) == 7


# --- hostile site -----------------------------------------------------------------------------


def hget(client: httpx.Client, path: str, **headers: str) -> httpx.Response:
    return client.get(path, headers={"Host": "hostile.example", **headers})


def test_hostile_home_links_every_case(hostile: httpx.Client) -> None:
    home = hget(hostile, "/")
    assert home.status_code == 200
    for path in EXPECTED_BUCKETS:
        if path.startswith("/") and path not in {"/", "/article-1-copy"}:
            assert f'href="{path}"' in home.text, path
    assert 'href="/article-1-copy"' in hget(hostile, "/about").text


def test_hostile_redirects(hostile: httpx.Client, hostile_server: RunningHostile) -> None:
    chain = [
        (r.status_code, r.headers.get("location")) for r in _follow(hostile, "/redirect/chain-1")
    ]
    assert chain == [(301, "/redirect/chain-2"), (302, "/redirect/final"), (200, None)]
    assert hget(hostile, "/redirect/loop-a").headers["location"] == "/redirect/loop-b"
    assert hget(hostile, "/redirect/loop-b").headers["location"] == "/redirect/loop-a"
    assert hget(hostile, "/redirect/to-about").headers["location"] == "/about"
    loopback = hget(hostile, "/redirect/to-loopback").headers["location"]
    assert loopback == f"http://127.0.0.1:{hostile_server.port}/ssrf-target"
    internal = hget(hostile, "/redirect/to-internal").headers["location"]
    assert internal == f"http://{INTERNAL_HOST}/ssrf-target"
    entries = hostile_server.connect_to()
    assert entries == [
        f"hostile.example:80:127.0.0.1:{hostile_server.port}",
        f"{INTERNAL_HOST}:80:127.0.0.2:{hostile_server.port}",
    ]
    # the server also listens on 127.0.0.2, so an SSRF leak is recorded, not lost
    assert hostile_server.internal_listening
    hostile_server.reset()
    httpx.get(f"http://127.0.0.2:{hostile_server.port}/ssrf-target", timeout=5)
    assert len(hostile_server.ssrf_hits()) == 1
    hostile_server.reset()


def _follow(client: httpx.Client, path: str) -> list[httpx.Response]:
    out = [hget(client, path)]
    while out[-1].is_redirect and len(out) < 5:
        out.append(hget(client, out[-1].headers["location"]))
    return out


def test_hostile_statuses(hostile: httpx.Client, hostile_server: RunningHostile) -> None:
    hostile_server.reset()
    for code in (403, 404, 410, 500):
        assert hget(hostile, f"/status/{code}").status_code == code
    assert hget(hostile, "/status/500").status_code == 500  # always
    first = hget(hostile, "/status/503-once")
    assert (first.status_code, first.headers["retry-after"]) == (503, "1")
    assert hget(hostile, "/status/503-once").status_code == 200
    assert hget(hostile, "/nothing-here").status_code == 404


def test_hostile_robots_sitemap_and_noindex(hostile: httpx.Client) -> None:
    robots = Protego.parse(hget(hostile, "/robots.txt").text)
    assert not robots.can_fetch("http://hostile.example/private/secret", "webcorpus")
    assert robots.can_fetch("http://hostile.example/about", "webcorpus")
    assert list(robots.sitemaps) == ["http://hostile.example/sitemap.xml"]
    root = ElementTree.fromstring(hget(hostile, "/sitemap.xml").content)
    assert "http://hostile.example/about" in [e.text for e in root.iter(f"{SM}loc")]
    assert '<meta name="robots" content="noindex">' in hget(hostile, "/noindex-meta").text
    assert hget(hostile, "/noindex-header").headers["x-robots-tag"] == "noindex"


def test_hostile_duplicates_and_conditional_get(hostile: httpx.Client) -> None:
    one, copy = hget(hostile, "/article-1"), hget(hostile, "/article-1-copy")
    assert one.content == copy.content
    canonical = hget(hostile, "/canonical-page").text
    assert '<link rel="canonical" href="/article-2">' in canonical
    assert hget(hostile, "/about", **{"If-None-Match": one.headers["etag"]}).status_code == 200
    assert hget(hostile, "/article-1", **{"If-None-Match": one.headers["etag"]}).status_code == 304
    since = {"If-Modified-Since": one.headers["last-modified"]}
    assert hget(hostile, "/article-1", **since).status_code == 304


def test_hostile_traps(hostile: httpx.Client) -> None:
    assert 'href="/calendar?month=1235"' in hget(hostile, "/calendar?month=1234").text
    deep = "/a" * 12 + "/"
    resp = hget(hostile, deep)
    assert resp.status_code == 200 and 'href="a/"' in resp.text
    assert "Level 12" in resp.text


def test_hostile_non_html(hostile: httpx.Client) -> None:
    pdf = hget(hostile, "/files/report.pdf")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF-")
    png = hget(hostile, "/images/diagram.png")
    assert png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n")


def test_hostile_slow_and_dropped(hostile_server: RunningHostile) -> None:
    url = f"{hostile_server.base_url()}/slow"
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(url, headers={"Host": "hostile.example"}, timeout=httpx.Timeout(5, read=0.5))
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.get(f"{hostile_server.base_url()}/drop", headers={"Host": "hostile.example"})


def test_hostile_huge_and_bomb_headers(hostile: httpx.Client) -> None:
    with hostile.stream("GET", "/huge", headers={"Host": "hostile.example"}) as resp:
        assert int(resp.headers["content-length"]) == 12 * 1024 * 1024
        assert next(resp.iter_raw()).startswith(b"<!DOCTYPE html>")
    with hostile.stream("GET", "/bomb", headers={"Host": "hostile.example"}) as resp:
        assert resp.headers["content-encoding"] == "gzip"
        length = int(resp.headers["content-length"])
        assert 500_000 < length < 2_000_000  # ~1 MB on the wire
        raw = b""
        for chunk in resp.iter_raw():
            raw += chunk
            if len(raw) > 4096:
                break
        inflated = zlib.decompressobj(31).decompress(raw, 10 * 1024 * 1024)
        assert inflated.startswith(BOMB_PREFIX) and len(inflated) > 1024 * 1024


def test_bomb_is_valid_gzip() -> None:
    head, block, trailer, n = bomb_parts(8 * 1024 * 1024)
    data = gzip.decompress(head + block * n + trailer)
    assert data.startswith(BOMB_PREFIX) and len(data) == len(BOMB_PREFIX) + n * 1024 * 1024
    head, block, trailer, n = bomb_parts(1024 * 1024 * 1024)
    ratio = (n * 1024 * 1024) / (len(head) + n * len(block) + len(trailer))
    assert n == 1023 and ratio > 900


def test_canonicals_point_at_the_served_pages(web: httpx.Client, doc_sites: DocSites) -> None:
    page = get(web, doc_sites.python.host, "/library/os.html").text
    assert '<link rel="canonical" href="http://docs.python.org/library/os.html"' in page
    page = get(web, doc_sites.handbook.host, "/browse/fr-FR/stable/apt.html").text
    assert 'rel="canonical" href="http://debian-handbook.info/browse/fr-FR/stable/apt.html"' in page
