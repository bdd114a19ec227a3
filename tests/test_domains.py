"""GET /api/domains/<root_domain>: the domain record, on real crawls of the loopback doc sites."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server import Running, make_settings, run_server
from tests.sites.docsites import DocSites
from tests.sites.nginx import RunningServer
from webcorpus.store.models import BUCKETS

pytestmark = pytest.mark.slow

PG_BUDGET = 60


@pytest.fixture(scope="module")
def pg(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, dict[str, Any]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("dom-pg"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
    )
    with run_server(settings) as srv:
        view = srv.wait(srv.crawl("postgresql.org", budget=PG_BUDGET))
        yield srv, view


@pytest.fixture(scope="module")
def handbook(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    settings = make_settings(
        tmp_path_factory.mktemp("dom-hb"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
    )
    with run_server(settings) as srv:
        srv.wait(srv.crawl("debian-handbook.info", budget=70))
        yield srv


def record(srv: Running, domain: str) -> dict[str, Any]:
    r = srv.client.get(f"/api/domains/{domain}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_coverage_matches_the_job_and_estimates_a_range(
    pg: tuple[Running, dict[str, Any]], doc_sites: DocSites
) -> None:
    srv, view = pg
    rec = record(srv, "postgresql.org")
    assert rec["domain"] == "postgresql.org"
    assert set(rec) >= {
        "coverage",
        "health",
        "properties",
        "sitemaps",
        "changes",
        "links_to",
        "collections",
    }
    cov = rec["coverage"]
    assert cov["job_id"] == view["id"]
    assert cov["known"] == view["coverage"]["total"]
    assert cov["indexed"] == view["coverage"]["buckets"]["indexed"]["count"]
    assert set(cov["buckets"]) == {*BUCKETS, "unaccounted"}
    assert cov["buckets"] == {k: v["count"] for k, v in view["coverage"]["buckets"].items()}
    est = cov["estimate"]
    assert set(est) == {"low", "high", "confidence", "method"}
    assert isinstance(est["low"], int) and isinstance(est["high"], int)
    assert est["low"] < est["high"]
    assert 0 < est["confidence"] <= 1 and est["method"]
    assert est["low"] <= len(doc_sites.postgres.allowed_pages) <= est["high"]
    # a subdomain names the same company
    assert record(srv, "www.postgresql.org")["domain"] == "postgresql.org"


def test_health_sitemaps_properties_links(
    pg: tuple[Running, dict[str, Any]], doc_sites: DocSites
) -> None:
    srv, view = pg
    rec = record(srv, "postgresql.org")
    health = rec["health"]
    # the entry origin's robots.txt, not the last origin asked (a subdomain that does not resolve)
    assert health["robots_txt"]["status"] == "ok", health["robots_txt"]
    assert health["last_job_state"] == "partial" == view["state"]
    # this service computes no vectors: no chunk waits for one (null, not a count that never drops)
    assert view["progress"]["embedding_backlog"] is None
    assert health["last_job"]["id"] == view["id"]
    b = view["coverage"]["buckets"]
    errors = b["clientError"]["count"] + b["serverError"]["count"] + b["fetchError"]["count"]
    assert health["error_rate"] == round(errors / health["fetched"], 3)
    assert health["fetched"] >= PG_BUDGET - 1

    sitemaps = {s["url"]: s for s in rec["sitemaps"]}
    main = sitemaps["http://www.postgresql.org/sitemap.xml"]
    # every page of the package (1,168 in postgresql-doc-15 15.18; 1,170 in an earlier one)
    assert main["url_count"] == len(doc_sites.postgres.sitemap_pages) and main["status"] == "ok"
    assert main["last_modified"]

    assert len(rec["properties"]) == 1
    prop = rec["properties"][0]
    assert prop["locale"].split("-")[0] == "en"
    assert prop["root_url"] == "http://www.postgresql.org/"
    assert prop["pages"] == rec["coverage"]["indexed"]
    assert "http://www.postgresql.org/sitemap.xml" in prop["sitemaps"]

    links = {row["domain"]: row for row in rec["links_to"]}
    assert "postgresql.org" not in links
    wiki = links["wikipedia.org"]
    assert wiki["links"] >= wiki["pages"] >= 1 and "en.wikipedia.org" in wiki["hosts"]
    pages = [row["pages"] for row in rec["links_to"]]
    assert pages == sorted(pages, reverse=True)


def test_response_times_make_a_median(pg: tuple[Running, dict[str, Any]]) -> None:
    srv, view = pg
    # The crawler recorded real timings; overwrite every fetched URL's with known values.
    rows = srv.client.get(f"/api/jobs/{view['id']}/urls", params={"limit": 1000}).json()["data"]
    fetched = [r for r in rows if r["http_status"] is not None]
    assert len(fetched) >= 3
    for i, row in enumerate(fetched):
        seconds = 0.010 if i == 0 else 0.030 if i == 1 else 0.020
        srv.store.record_fetch_time(view["id"], row["url"], seconds)
    assert record(srv, "postgresql.org")["health"]["median_response_s"] == 0.02


def test_unknown_and_invalid_domains(pg: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = pg
    r = srv.client.get("/api/domains/python.org")
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "not_found"
    for bad in ("127.0.0.1", "localhost", "com", "exa_mple..org"):
        r = srv.client.get(f"/api/domains/{bad}")
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["code"] == "invalid_parameter"


def test_collections_section(pg: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = pg
    r = srv.client.put("/api/collections/databases", json={"name": "Databases"}, headers=srv.auth)
    assert r.status_code in (200, 201)
    r = srv.client.post(
        "/api/collections/databases/members",
        json={"domain": "postgresql.org", "reason": "the database"},
        headers=srv.auth,
    )
    assert r.status_code in (200, 201)
    assert record(srv, "postgresql.org")["collections"] == [
        {"slug": "databases", "name": "Databases", "reason": "the database"}
    ]


def test_changes_since_the_previous_crawl(
    pg: tuple[Running, dict[str, Any]], nginx_server: RunningServer, doc_sites: DocSites
) -> None:
    srv, first = pg
    before = record(srv, "postgresql.org")["changes"]
    assert before["job_id"] == first["id"] and before["previous_job_id"] is None
    assert before["added"]["count"] == first["coverage"]["buckets"]["indexed"]["count"]
    assert before["removed"]["count"] == before["modified"]["count"] == 0

    indexed = srv.client.get(
        f"/api/jobs/{first['id']}/urls", params={"bucket": "indexed", "limit": 100}
    ).json()["data"]
    doc_urls = sorted(r["url"] for r in indexed if "/docs/15/" in r["url"])
    changed_url, gone_url = doc_urls[1], doc_urls[2]
    site = doc_sites.postgres
    host = "http://www.postgresql.org"
    changed_path, gone_path = changed_url.removeprefix(host), gone_url.removeprefix(host)
    original = (site.root / changed_path.lstrip("/")).read_text("utf-8", errors="replace")
    nginx_server.write_page(
        site.host,
        changed_path,
        original.replace("</p>", "</p><p>A new paragraph in the main text.</p>", 1),
    )
    nginx_server.delete_page(site.host, gone_path)
    try:
        second = srv.wait(srv.crawl("postgresql.org", budget=PG_BUDGET + 30, refresh=True))
    finally:
        nginx_server.reset()
    changes = record(srv, "postgresql.org")["changes"]
    assert changes["job_id"] == second["id"] and changes["previous_job_id"] == first["id"]
    assert [p["url"] for p in changes["modified"]["pages"]] == [changed_url]
    assert [p["url"] for p in changes["removed"]["pages"]] == [gone_url]
    assert changes["added"]["count"] >= 1
    assert not {p["url"] for p in changes["added"]["pages"]} & set(doc_urls)


def test_handbook_has_its_26_languages(handbook: Running, doc_sites: DocSites) -> None:
    rec = record(handbook, "debian-handbook.info")
    langs = doc_sites.handbook.languages
    assert len(langs) == 26
    props = {p["locale"]: p for p in rec["properties"]}
    assert sorted(props) == sorted(langs), sorted(props)
    for lang, prop in props.items():
        assert prop["root_url"] == f"http://debian-handbook.info/browse/{lang}/stable/", prop
        assert prop["pages"] >= 1
        assert prop["sitemaps"] == [f"http://debian-handbook.info/sitemaps/{lang}.xml"]
    # the home page (lang="en", with an hreflang alternate per book) belongs to en-US
    alternates = {a["hreflang"] for a in props["en-US"]["hreflang_alternates"]}
    assert alternates >= set(langs) - {"en-US"}
    assert sum(p["pages"] for p in rec["properties"]) == rec["coverage"]["indexed"]
