"""GET /api/search on real crawled pages, with the real embedding model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server import Running, assert_buckets_invariant, make_settings, run_server
from tests.sites.nginx import RunningServer
from webcorpus.index.ftsquery import fts5_query
from webcorpus.store.models import SearchFilters
from webcorpus.store.sqlite import search as sqlite_search

pytestmark = pytest.mark.slow
MODES = ("hybrid", "text", "vector")


@pytest.fixture(scope="module")
def corpus(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    settings = make_settings(
        tmp_path_factory.mktemp("search"),
        embeddings=True,
        connect_to=nginx_server.connect_to(refuse_https=True),
    )
    with run_server(settings) as srv:
        views = [
            srv.wait(srv.crawl(d, budget=b), timeout=900)
            for d, b in (("www.postgresql.org", 50), ("debian-handbook.info", 30))
        ]
        for view in views:
            assert_buckets_invariant(view)
            assert view["progress"]["embedding_backlog"] == 0
        yield srv


def page_facets(srv: Running, page_id: str) -> dict[str, Any]:
    body = srv.client.get(f"/api/content/{page_id}", params={"markdown": "false"}).json()
    return {**body["facets"], "domain": body["domain"]}


@pytest.mark.parametrize("mode", MODES)
def test_modes_return_ranked_chunks(corpus: Running, mode: str) -> None:
    r = corpus.client.get(
        "/api/search", params={"q": "create an index on a table", "mode": mode, "limit": 5}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == mode and body["limit"] == 5 and len(body["data"]) == 5
    assert body["filters"] == {"applied": {}, "unrecognized": []}
    for hit in body["data"]:
        assert hit["page_id"].startswith("pg_") and hit["text"] and hit["url"]
        if mode == "hybrid":
            assert set(hit["ranks"]) <= {"text", "vector"} and hit["ranks"]
        else:
            assert set(hit["ranks"]) == {mode}
    scores = [h["score"] for h in body["data"]]
    assert scores == sorted(scores, reverse=mode != "text") or mode == "text"


def test_hybrid_fuses_both_engines(corpus: Running) -> None:
    body = corpus.client.get("/api/search", params={"q": "CREATE INDEX", "limit": 10}).json()
    assert any(set(h["ranks"]) == {"text", "vector"} for h in body["data"])
    top = body["data"][0]
    assert "index" in (top["title"] + top["heading"] + top["text"]).lower()


def test_hybrid_shows_each_page_once_before_repeating_pages(corpus: Running) -> None:
    q: dict[str, str | int] = {"q": "CREATE INDEX", "limit": 50}
    hybrid = corpus.client.get("/api/search", params=q).json()["data"]
    text = corpus.client.get("/api/search", params={**q, "mode": "text"}).json()["data"]
    pages = [h["page_id"] for h in hybrid]
    distinct = len(set(pages))
    assert len(pages) == 50 and 1 < distinct < 50
    assert len(set(pages[:distinct])) == distinct  # every page once, then repeats
    scores = [h["score"] for h in hybrid[:distinct]]
    assert scores == sorted(scores, reverse=True)
    # The text engine alone repeats pages early: fusion on pages is what spreads them.
    text_pages = [h["page_id"] for h in text[:10]]
    assert len(set(text_pages)) < len(text_pages)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("params", "check"),
    [
        ({"domain": "debian-handbook.info"}, lambda f: f["domain"] == "debian-handbook.info"),
        ({"locale": "en"}, lambda f: (f["locale"] or "").split("-")[0] == "en"),
        ({"type": "docs,api_reference"}, lambda f: f["type"] in ("docs", "api_reference")),
        ({"technicality_min": 0.3}, lambda f: f["technicality"] >= 0.3),
    ],
)
def test_filters_inside_both_engines(corpus: Running, mode: str, params: dict, check: Any) -> None:
    limit = 7
    r = corpus.client.get(
        "/api/search",
        params={"q": "install packages with apt", "mode": mode, "limit": limit, **params},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body["filters"]["applied"]) == set(params)
    assert len(body["data"]) == limit
    for hit in body["data"]:
        assert check(page_facets(corpus, hit["page_id"])), hit


def test_topics_filter(corpus: Running) -> None:
    facets = corpus.client.get("/api/content", params={"limit": 100}).json()["data"]
    topics = [t for p in facets for t in p["facets"]["topics"]]
    assert topics, "no page has a topic"
    topic = max(set(topics), key=topics.count)
    body = corpus.client.get(
        "/api/search", params={"q": "configuration", "topics": topic, "mode": "vector", "limit": 3}
    ).json()
    assert body["data"]
    for hit in body["data"]:
        assert topic in page_facets(corpus, hit["page_id"])["topics"]


@pytest.mark.parametrize(
    "q",
    [
        '"unbalanced',
        "AND OR NOT",
        "NEAR(a b",
        "col:value",
        "x*",
        "^start",
        "(((",
        "émoji 🚀 ünïcödé",
        "a" * 1000,
        "-",
        "'; DROP TABLE pages; --",
    ],
)
def test_any_query_text_is_safe(corpus: Running, q: str) -> None:
    r = corpus.client.get("/api/search", params={"q": q, "mode": "text"})
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert r.json()["code"] == "invalid_parameter"


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"q": ""},
        {"q": "   "},
        {"q": "x" * 5000},
        {"q": "a", "mode": "fuzzy"},
        {"q": "a", "limit": 0},
        {"q": "a", "limit": 51},
        {"q": "a", "limit": "abc"},
        {"q": "a", "technicality_min": 3},
        {"q": "a", "type": "nope"},
    ],
)
def test_bad_input_is_a_problem(corpus: Running, params: dict) -> None:
    r = corpus.client.get("/api/search", params=params)
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "invalid_parameter"


@pytest.mark.parametrize(
    "filters",
    [
        SearchFilters(locales=["en"]),
        SearchFilters(domains=["www.postgresql.org"]),
        SearchFilters(types=["docs", "api_reference"]),
        SearchFilters(technicality_min=0.3),
        SearchFilters(locales=["de"]),
    ],
)
@pytest.mark.parametrize("k", [1, 10, 100])
def test_broad_filter_shortcut_is_exact(
    corpus: Running, monkeypatch: pytest.MonkeyPatch, filters: SearchFilters, k: int
) -> None:
    """Checking a broad filter on the unfiltered top hits gives exactly the joined result."""
    store = corpus.store
    for q in ("index", "create table", "paquet debian", "transaction isolation level", "apt"):
        fts = fts5_query(q)
        assert fts
        monkeypatch.setattr(sqlite_search, "_BROAD_FILTER", 2.0)  # always join
        joined = store.search_text(fts, filters, k)
        monkeypatch.setattr(sqlite_search, "_BROAD_FILTER", 0.0)  # always try the shortcut
        shortcut = store.search_text(fts, filters, k)
        assert [c for c, _ in shortcut] == [c for c, _ in joined], (q, filters, k)
        assert [round(s, 9) for _, s in shortcut] == [round(s, 9) for _, s in joined]
