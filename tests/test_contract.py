"""The HTTP API against CONTRACT.md: every endpoint, every parameter, shapes and values.

One real server holds two crawled doc sites (www.postgresql.org and debian-handbook.info, ~80
pages each, with vectors) and a shelf holding both. Every response of the suite goes through one
httpx client whose response hook checks the ``X-Webcorpus-Version`` header, so every request
below also checks that rule. Where the implementation disagrees with CONTRACT.md, the assertion
follows the contract.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.server import FINAL, Running, assert_buckets_invariant, make_settings, run_server
from tests.sites.nginx import RunningServer

pytestmark = pytest.mark.slow

PG = "postgresql.org"
HB = "debian-handbook.info"
SHELF = "doc-sites"
PAGE_ID = re.compile(r"^pg_[0-9a-f]{16}$")
JOB_ID = re.compile(r"^job_[0-9A-Za-z]+$")
TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ENVELOPE = {"data", "total", "limit", "offset", "filters"}
BUCKETS = {
    "indexed",
    "unchanged",
    "redirected",
    "duplicate",
    "robots",
    "noindex",
    "notHtml",
    "clientError",
    "serverError",
    "fetchError",
    "filtered",
    "pending",
    "budget",
    "stoppedEarly",
    "unaccounted",
}
TYPES = set(
    [
        "homepage",
        "product",
        "pricing",
        "docs",
        "api_reference",
        "blog",
        "news",
        "case_study",
        "careers",
        "job",
        "about",
        "contact",
        "legal",
        "support",
        "changelog",
        "event",
        "integration",
        "landing",
        "listing",
        "other",
    ]
)
FORMATS = set(
    ["article", "reference", "tutorial", "listing", "landing", "faq", "form", "media", "other"]
)
AUDIENCES = set(
    [
        "developers",
        "technical",
        "business",
        "consumers",
        "investors",
        "job_seekers",
        "partners",
        "press",
        "general",
    ]
)
SORTS = (
    "cited",
    "published",
    "words",
    "technicality",
    "depth",
    "originality",
    "promotional",
    "indexed",
)
MISSING_PAGE = "pg_0123456789abcdef"
MISSING_JOB = "job_00000000000000000000000000"
REST_PATHS = (
    "/api/crawl",
    "/api/jobs",
    "/api/jobs/{job_id}",
    "/api/jobs/{job_id}/urls",
    "/api/jobs/{job_id}/cancel",
    "/api/content",
    "/api/content/{page_id}",
    "/api/content/{page_id}.md",
    "/api/search",
    "/api/facets",
    "/api/domains/{root_domain}",
    "/api/domains/{root_domain}/content.md",
    "/api/collections",
    "/api/collections/{slug}",
    "/api/collections/{slug}/members",
    "/api/collections/{slug}/members/{domain}",
)


# ---------------------------------------------------------------- helpers
def _check_version(response: httpx.Response) -> None:
    assert response.headers.get("x-webcorpus-version"), (
        f"no X-Webcorpus-Version on {response.request.method} {response.request.url}"
    )


def versioned_client(base_url: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, timeout=60, event_hooks={"response": [_check_version]})


def assert_problem(r: httpx.Response, status: int, code: str, param: str | None = None) -> dict:
    assert r.status_code == status, (r.request.url, r.text)
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    body = r.json()
    assert body["status"] == status and body["code"] == code
    assert body["type"] == f"urn:webcorpus:error:{code}"
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert "Traceback" not in r.text
    if param is not None:
        names = [e.get("param") for e in body.get("errors", [])]
        assert param in names, (param, body)
        assert param in body["detail"], body
    return dict(body)


def assert_time(value: Any, *, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    assert isinstance(value, str) and TIME.match(value), value


def assert_score(value: Any, decimals: int = 3) -> None:
    assert isinstance(value, float | int) and not isinstance(value, bool), value
    assert 0 <= value <= 1, value
    assert round(value, decimals) == value, f"{value} has more than {decimals} decimals"


def assert_envelope(body: dict[str, Any], *, sort: bool = False) -> None:
    keys = ENVELOPE | ({"sort"} if sort else set())
    assert keys <= set(body), sorted(body)
    assert isinstance(body["data"], list)
    assert isinstance(body["total"], int) and body["total"] >= len(body["data"])
    assert isinstance(body["limit"], int) and isinstance(body["offset"], int)
    assert len(body["data"]) <= body["limit"]
    assert set(body["filters"]) == {"applied", "unrecognized"}
    assert isinstance(body["filters"]["applied"], dict)
    assert isinstance(body["filters"]["unrecognized"], list)


def assert_facets(f: dict[str, Any]) -> None:
    keys = {"type", "format", "audience", "locale", "topics"}
    keys |= {"technicality", "depth", "originality", "promotional", "has_code", "words"}
    assert keys | {"published"} <= set(f), sorted(f)
    assert f["type"] in TYPES and f["format"] in FORMATS and f["audience"] in AUDIENCES
    assert f["locale"] is None or re.match(r"^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$", f["locale"])
    assert isinstance(f["topics"], list) and len(f["topics"]) <= 5
    assert all(isinstance(t, str) for t in f["topics"])
    for name in ("technicality", "depth", "originality", "promotional"):
        assert_score(f[name])
    assert isinstance(f["has_code"], bool)
    assert isinstance(f["words"], int) and f["words"] >= 0
    assert f["published"] is None or DATE.match(f["published"])


# Small budgets: the fixture waits for every chunk's vector (debian-handbook pages are long).
BUDGETS = {PG: 80, HB: 25}


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def corpus(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, httpx.Client, dict[str, dict[str, Any]]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("contract"),
        embeddings=True,
        connect_to=nginx_server.connect_to(refuse_https=True),
    )
    with run_server(settings) as srv, versioned_client(srv.base_url) as http:
        views: dict[str, dict[str, Any]] = {}
        for host, domain in (("www.postgresql.org", PG), ("debian-handbook.info", HB)):
            views[domain] = srv.wait(srv.crawl(host, budget=BUDGETS[domain]), timeout=900)
        r = http.put(f"/api/collections/{SHELF}", json={"name": "Doc sites"}, headers=srv.auth)
        assert r.status_code == 201, r.text
        for domain in (PG, HB):
            r = http.post(
                f"/api/collections/{SHELF}/members",
                json={"domain": domain, "reason": "documentation of a free project"},
                headers=srv.auth,
            )
            assert r.status_code == 201, r.text
        yield srv, http, views


@pytest.fixture(scope="module")
def api(corpus: tuple[Running, httpx.Client, dict[str, Any]]) -> httpx.Client:
    return corpus[1]


@pytest.fixture(scope="module")
def srv(corpus: tuple[Running, httpx.Client, dict[str, Any]]) -> Running:
    return corpus[0]


@pytest.fixture(scope="module")
def all_pages(api: httpx.Client) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while True:
        body = api.get("/api/content", params={"limit": 100, "offset": len(out)}).json()
        out += body["data"]
        if len(out) >= body["total"]:
            return out


def get_list(api: httpx.Client, **params: Any) -> dict[str, Any]:
    r = api.get("/api/content", params=params)
    assert r.status_code == 200, r.text
    body = dict(r.json())
    assert_envelope(body, sort=True)
    return body


# ---------------------------------------------------------------- openapi, version, methods
def test_openapi_lists_every_path(api: httpx.Client) -> None:
    r = api.get("/api/openapi.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    doc = r.json()
    assert doc["openapi"].startswith("3.")
    missing = [p for p in REST_PATHS if p not in doc["paths"]]
    assert not missing, missing
    methods = {p: set(v) for p, v in doc["paths"].items()}
    assert "post" in methods["/api/crawl"] and "post" in methods["/api/jobs/{job_id}/cancel"]
    assert {"get", "put"} <= methods["/api/collections/{slug}"]
    assert "delete" in methods["/api/collections/{slug}/members/{domain}"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/crawl"),
        ("DELETE", "/api/crawl"),
        ("POST", "/api/content"),
        ("DELETE", "/api/content/{page}"),
        ("PUT", "/api/search"),
        ("POST", "/api/facets"),
        ("POST", "/api/domains/postgresql.org"),
        ("GET", "/api/jobs/{job}/cancel"),
        ("DELETE", "/api/jobs/{job}"),
        ("POST", "/api/collections"),
        ("DELETE", "/api/collections/doc-sites"),
        ("GET", "/api/collections/doc-sites/members"),
    ],
)
def test_wrong_method_is_405(
    api: httpx.Client, all_pages: list[dict[str, Any]], corpus: Any, method: str, path: str
) -> None:
    job = corpus[2][PG]["id"]
    path = path.format(page=all_pages[0]["id"], job=job)
    r = api.request(method, path)
    assert_problem(r, 405, "method_not_allowed")
    assert r.headers.get("allow"), "a 405 names the allowed methods in Allow"


def test_unknown_endpoint_is_a_404_problem(api: httpx.Client) -> None:
    assert_problem(api.get("/api/nothing-here"), 404, "not_found")


# ---------------------------------------------------------------- crawl and jobs
def test_finished_jobs_shape_and_buckets(corpus: Any) -> None:
    _, _, views = corpus
    for domain, view in views.items():
        assert JOB_ID.match(view["id"]), view["id"]
        assert view["domain"] == domain
        assert view["state"] in ("completed", "partial"), view["state"]
        assert view["params"] == {
            "budget": BUDGETS[domain],
            "refresh": False,
            "force": False,
            "shots": 0,
        }
        assert_time(view["created_at"])
        assert_time(view["started_at"])
        assert_time(view["finished_at"])
        assert view["created_at"] <= view["started_at"] <= view["finished_at"]
        assert view["error"] is None
        p = view["progress"]
        for name in ("indexed", "pending", "discovered", "embedding_backlog"):
            assert isinstance(p[name], int) and p[name] >= 0, name
        assert isinstance(p["elapsed_s"], float | int) and p["elapsed_s"] > 0
        assert isinstance(p["pages_per_min"], float | int) and p["pages_per_min"] > 0
        assert p["eta"] == {"low_s": 0, "high_s": 0, "confidence": 1.0}
        assert p["embedding_backlog"] == 0 and p["pending"] == 0
        assert 0 < p["indexed"] <= 80
        buckets = view["coverage"]["buckets"]
        assert set(buckets) == BUCKETS, sorted(set(buckets) ^ BUCKETS)
        for name, b in buckets.items():
            assert isinstance(b["count"], int) and isinstance(b["reason"], str) and b["reason"]
            assert len(b["sample"]) == min(10, b["count"]), name
        assert_buckets_invariant(view)
        if view["state"] == "partial":
            assert buckets["budget"]["count"] + buckets["stoppedEarly"]["count"] > 0


def test_job_read_accepts_the_bare_id(api: httpx.Client, corpus: Any) -> None:
    job = corpus[2][PG]["id"]
    a = api.get(f"/api/jobs/{job}").json()
    b = api.get(f"/api/jobs/{job.removeprefix('job_')}").json()
    assert a["id"] == b["id"] == job
    assert_problem(api.get(f"/api/jobs/{MISSING_JOB}"), 404, "not_found")


def test_job_urls_per_bucket(api: httpx.Client, corpus: Any) -> None:
    view = corpus[2][PG]
    job = view["id"]
    seen: set[str] = set()
    for name, bucket in view["coverage"]["buckets"].items():
        rows: list[dict[str, Any]] = []
        while True:
            r = api.get(
                f"/api/jobs/{job}/urls",
                params={"bucket": name, "limit": 1000, "offset": len(rows)},
            )
            assert r.status_code == 200, r.text
            body = r.json()
            assert_envelope(body)
            assert body["total"] == bucket["count"], name
            assert body["filters"]["applied"] == {"bucket": name}
            rows += body["data"]
            if len(rows) >= body["total"] or not body["data"]:
                break
        body["data"] = rows
        urls = {row["url"] for row in body["data"]}
        assert not urls & seen, f"{name} shares URLs with another bucket"
        seen |= urls
        assert set(bucket["sample"]) <= urls
        if name == "budget":
            assert all(row.get("reason") for row in body["data"])
    assert len(seen) == view["coverage"]["total"]
    page = api.get(f"/api/jobs/{job}/urls", params={"limit": 5, "offset": 5, "bukket": 1}).json()
    assert page["limit"] == 5 and page["offset"] == 5 and len(page["data"]) == 5
    assert page["filters"] == {"applied": {}, "unrecognized": ["bukket"]}
    r = api.get(f"/api/jobs/{job}/urls", params={"bucket": "nope"})
    assert_problem(r, 400, "invalid_parameter", "bucket")
    assert_problem(api.get(f"/api/jobs/{MISSING_JOB}/urls"), 404, "not_found")


def test_job_list(api: httpx.Client, corpus: Any) -> None:
    body = api.get("/api/jobs", params={"limit": 1}).json()
    assert_envelope(body)
    assert body["total"] >= 2 and len(body["data"]) == 1
    body = api.get("/api/jobs", params={"domain": HB, "stat": "x"}).json()
    assert [j["id"] for j in body["data"]] == [corpus[2][HB]["id"]]
    assert body["filters"] == {"applied": {"domain": HB}, "unrecognized": ["stat"]}
    state = corpus[2][HB]["state"]
    body = api.get("/api/jobs", params={"state": state}).json()
    assert body["data"] and all(j["state"] == state for j in body["data"])
    assert_problem(api.get("/api/jobs", params={"state": "done"}), 400, "invalid_parameter")
    assert_problem(api.get("/api/jobs", params={"limit": 0}), 400, "invalid_parameter", "limit")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"domain": "python.org", "bugdet": 3}, "bugdet"),
        ({"budget": 3}, "domain"),
        ({"domain": "https://python.org/"}, "domain"),
        ({"domain": "python.org/docs"}, "domain"),
        ({"domain": "10.0.0.1"}, "domain"),
        ({"domain": "[::1]"}, "domain"),
        ({"domain": "python.org", "budget": 0}, "budget"),
        ({"domain": "python.org", "budget": 10001}, "budget"),
        ({"domain": "python.org", "budget": "ten"}, "budget"),
        ({"domain": "python.org", "refresh": "yes"}, "refresh"),
        ({"domain": "python.org", "force": 2}, "force"),
        ({"domain": "python.org", "shots": -1}, "shots"),
    ],
)
def test_crawl_body_is_validated(
    api: httpx.Client, srv: Running, body: dict[str, Any], field: str
) -> None:
    r = api.post("/api/crawl", json=body, headers=srv.auth)
    problem = assert_problem(r, 400, "invalid_body")
    assert field in problem["detail"], problem


def test_crawl_body_rules(api: httpx.Client, srv: Running) -> None:
    r = api.post("/api/crawl", content=b'{"domain": "python.org"}', headers=srv.auth)
    assert_problem(r, 415, "unsupported_media_type")
    headers = {**srv.auth, "Content-Type": "text/plain"}
    r = api.post("/api/crawl", content=b'{"domain": "python.org"}', headers=headers)
    assert_problem(r, 415, "unsupported_media_type")
    big = b'{"domain": "python.org", "x": "' + b"a" * 17000 + b'"}'
    headers = {**srv.auth, "Content-Type": "application/json"}
    assert_problem(api.post("/api/crawl", content=big, headers=headers), 413, "payload_too_large")
    r = api.post("/api/crawl", content=b"{not json", headers=headers)
    assert_problem(r, 400, "invalid_body")
    r = api.post("/api/crawl", content=b"[1, 2]", headers=headers)
    assert_problem(r, 400, "invalid_body")


def test_writes_need_a_key(api: httpx.Client, srv: Running) -> None:
    from webcorpus.services import keys

    reader = {"Authorization": f"Bearer {keys.create_key(srv.store, 'reader', scopes='read')}"}
    bad = {"Authorization": "Bearer wck_not-a-key"}
    writes = [
        ("POST", "/api/crawl", {"domain": "python.org"}),
        ("POST", "/api/jobs/job_x/cancel", None),
        ("PUT", "/api/collections/other", {"name": "Other"}),
        ("POST", f"/api/collections/{SHELF}/members", {"domain": "python.org"}),
        ("DELETE", f"/api/collections/{SHELF}/members/{PG}", None),
    ]
    for method, path, body in writes:
        for headers, status, code in ((None, 401, "unauthorized"), (bad, 401, "unauthorized")):
            r = api.request(method, path, json=body, headers=headers)
            assert_problem(r, status, code)
            assert r.headers.get("www-authenticate", "").startswith("Bearer")
        assert_problem(api.request(method, path, json=body, headers=reader), 403, "forbidden")
    # nothing changed
    members = api.get(f"/api/collections/{SHELF}").json()["members"]
    assert {m["domain"] for m in members} == {PG, HB}
    assert_problem(api.get("/api/collections/other"), 404, "not_found")


# ---------------------------------------------------------------- content list
def test_list_envelope_and_items(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    body = get_list(api)
    assert body["sort"] == "cited" and body["limit"] == 20 and body["offset"] == 0
    assert body["filters"] == {"applied": {}, "unrecognized": []}
    assert body["total"] == len(all_pages) >= 100
    ids = [p["id"] for p in all_pages]
    assert len(set(ids)) == len(ids)
    for item in all_pages:
        assert PAGE_ID.match(item["id"]), item["id"]
        assert item["url"].startswith("http") and isinstance(item["title"], str)
        assert item["domain"] in (PG, HB)
        assert_facets(item["facets"])
        assert isinstance(item["metrics"]["inlinks_body"], int)
    assert {p["domain"] for p in all_pages} == {PG, HB}


def test_unrecognized_parameters_are_reported_not_applied(api: httpx.Client) -> None:
    base = get_list(api, limit=5)
    body = get_list(api, limit=5, tecnicality_min=0.99, Domain="x")
    assert body["filters"] == {"applied": {}, "unrecognized": ["Domain", "tecnicality_min"]}
    assert body["total"] == base["total"] and body["data"] == base["data"]


@pytest.mark.parametrize(
    ("params", "applied"),
    [
        ({"domain": " PostgreSQL.org "}, {"domain": [PG]}),
        ({"domain": f"{PG},{HB.upper()}"}, {"domain": [PG, HB]}),
        ({"collection": " Doc-Sites "}, {"collection": SHELF}),
        ({"type": "Docs, API_reference"}, {"type": ["docs", "api_reference"]}),
        ({"format": "reference,article"}, {"format": ["reference", "article"]}),
        ({"audience": "developers,technical"}, {"audience": ["developers", "technical"]}),
        ({"locale": "en"}, {"locale": ["en"]}),
        ({"technicality_min": "0.50"}, {"technicality_min": 0.5}),
        ({"depth_min": ".2"}, {"depth_min": 0.2}),
        ({"originality_min": "0"}, {"originality_min": 0.0}),
        ({"promotional_max": "1"}, {"promotional_max": 1.0}),
        ({"has_code": "true"}, {"has_code": True}),
        ({"has_code": "false"}, {"has_code": False}),
        ({"words_min": "0300"}, {"words_min": 300}),
        ({"published_after": "2000-01-31"}, {"published_after": "2000-01-31"}),
        ({"q": "vacuum"}, {"q": "vacuum"}),
    ],
)
def test_filters_applied_normalized_and_honoured(
    api: httpx.Client,
    all_pages: list[dict[str, Any]],
    params: dict[str, Any],
    applied: dict[str, Any],
) -> None:
    body = get_list(api, limit=100, **params)
    assert body["filters"]["applied"] == applied
    assert body["filters"]["unrecognized"] == []
    assert body["total"] <= len(all_pages)
    name, value = next(iter(applied.items()))
    checks = {
        "domain": lambda p: p["domain"] in value,
        "collection": lambda p: p["domain"] in (PG, HB),
        "type": lambda p: p["facets"]["type"] in value,
        "format": lambda p: p["facets"]["format"] in value,
        "audience": lambda p: p["facets"]["audience"] in value,
        "locale": lambda p: (p["facets"]["locale"] or "").split("-")[0] == "en",
        "technicality_min": lambda p: p["facets"]["technicality"] >= value,
        "depth_min": lambda p: p["facets"]["depth"] >= value,
        "originality_min": lambda p: p["facets"]["originality"] >= value,
        "promotional_max": lambda p: p["facets"]["promotional"] <= value,
        "has_code": lambda p: p["facets"]["has_code"] is value,
        "words_min": lambda p: p["facets"]["words"] >= value,
        "published_after": lambda p: (p["facets"]["published"] or "") > value,
        "q": lambda p: True,
    }
    assert all(checks[name](p) for p in body["data"]), name
    expected = sum(1 for p in all_pages if checks[name](p))
    if name != "q":
        assert body["total"] == expected, (name, body["total"], expected)
    if name == "q":
        assert body["sort"] == "relevance" and body["total"] > 0
        text = " ".join(
            api.get(f"/api/content/{p['id']}").json()["markdown"].lower() + p["title"].lower()
            for p in body["data"][:5]
        )
        assert "vacuum" in text


def test_topics_filter(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    facets = api.get("/api/facets").json()["data"]
    topics = next(f for f in facets if f["facet"] == "topics")["values"]
    used = sorted((v for v in topics if v["pages"]), key=lambda v: -v["pages"])[:2]
    assert used, "no page has a topic"
    names = [v["value"] for v in used]
    body = get_list(api, topics=",".join(names).upper(), limit=100)
    assert body["filters"]["applied"] == {"topics": names}
    expected = [p for p in all_pages if set(p["facets"]["topics"]) & set(names)]
    assert body["total"] == len(expected)
    assert all(set(p["facets"]["topics"]) & set(names) for p in body["data"])


def test_locale_prefix_matches_regions(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    langs = {(p["facets"]["locale"] or "").split("-")[0] for p in all_pages} - {""}
    assert langs
    for lang in langs:
        body = get_list(api, locale=lang, limit=1)
        wanted = [p for p in all_pages if (p["facets"]["locale"] or "").split("-")[0] == lang]
        assert body["total"] == len(wanted), lang


def test_collection_filter(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    assert get_list(api, collection=SHELF, limit=1)["total"] == len(all_pages)
    assert get_list(api, collection="no-such-shelf", limit=1)["total"] == 0


def _sort_key(sort: str, page: dict[str, Any]) -> Any:
    f = page["facets"]
    return {
        "cited": page["metrics"]["inlinks_body"],
        "published": f["published"] or "",
        "words": f["words"],
        "technicality": f["technicality"],
        "depth": f["depth"],
        "originality": f["originality"],
        "promotional": -f["promotional"],
        "indexed": page.get("indexed_at") or "",
    }[sort]


@pytest.mark.parametrize("sort", SORTS)
def test_sort_orders_and_paging_is_stable(
    api: httpx.Client, all_pages: list[dict[str, Any]], sort: str
) -> None:
    rows: list[dict[str, Any]] = []
    while True:
        body = get_list(api, sort=sort, limit=100, offset=len(rows))
        assert body["sort"] == sort
        rows += body["data"]
        if len(rows) >= body["total"]:
            break
    assert sorted(p["id"] for p in rows) == sorted(p["id"] for p in all_pages)
    keys = [_sort_key(sort, p) for p in rows]
    assert keys == sorted(keys, reverse=True), f"sort={sort} is not highest first"
    # ties break on page id (one direction for the whole list)
    ties = [
        (a["id"], b["id"])
        for a, b in itertools.pairwise(rows)
        if _sort_key(sort, a) == _sort_key(sort, b)
    ]
    if ties:
        assert all(a < b for a, b in ties) or all(a > b for a, b in ties), sort
    # paging: two pages of 7 equal one page of 14
    one = get_list(api, sort=sort, limit=14, offset=3)["data"]
    two = get_list(api, sort=sort, limit=7, offset=3)["data"]
    two += get_list(api, sort=sort, limit=7, offset=10)["data"]
    assert [p["id"] for p in one] == [p["id"] for p in two]


def test_relevance_sort(api: httpx.Client) -> None:
    body = get_list(api, q="create table", sort="relevance", limit=5)
    assert body["sort"] == "relevance" and body["total"] > 0
    body = get_list(api, q="create table", sort="words", limit=50)
    words = [p["facets"]["words"] for p in body["data"]]
    assert words == sorted(words, reverse=True)
    assert_problem(
        api.get("/api/content", params={"sort": "relevance"}), 400, "invalid_parameter", "sort"
    )


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": 10001}, "offset"),
        ({"technicality_min": 1.5}, "technicality_min"),
        ({"depth_min": -0.1}, "depth_min"),
        ({"originality_min": "high"}, "originality_min"),
        ({"promotional_max": 2}, "promotional_max"),
        ({"has_code": "maybe"}, "has_code"),
        ({"words_min": -1}, "words_min"),
        ({"words_min": 1.5}, "words_min"),
        ({"published_after": "last week"}, "published_after"),
        ({"sort": "newest"}, "sort"),
        ({"type": "docs,bogus"}, "type"),
        ({"format": "essay"}, "format"),
        ({"audience": "robots"}, "audience"),
        ({"topics": "not-a-topic"}, "topics"),
        ({"locale": "english!"}, "locale"),
        ({"domain": "https://postgresql.org/"}, "domain"),
        ({"q": "x" * 1001}, "q"),
        ({"q": "   "}, "q"),
    ],
)
def test_list_bad_values_are_400_naming_the_parameter(
    api: httpx.Client, params: dict[str, Any], param: str
) -> None:
    assert_problem(api.get("/api/content", params=params), 400, "invalid_parameter", param)


def test_list_limit_and_offset_bounds(api: httpx.Client) -> None:
    assert len(get_list(api, limit=100)["data"]) == 100
    assert get_list(api, limit=1)["limit"] == 1
    body = get_list(api, offset=10000)
    assert body["data"] == [] and body["offset"] == 10000 and body["total"] > 0
    body = get_list(api, q="x" * 990 + " vacuum")
    assert body["filters"]["applied"]["q"].endswith("vacuum")


# ---------------------------------------------------------------- one page
def test_page_shape_and_values(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    cited = max(all_pages, key=lambda p: p["metrics"]["inlinks_body"])
    assert cited["metrics"]["inlinks_body"] > 0
    r = api.get(f"/api/content/{cited['id']}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    page = r.json()
    keys = {"id", "url", "canonical_url", "title", "domain", "collections", "facets", "metrics"}
    keys |= {"markdown", "assets", "screenshots", "history", "cited_by"}
    assert keys <= set(page), sorted(keys - set(page))
    assert page["id"] == cited["id"] and PAGE_ID.match(page["id"])
    assert page["url"] == cited["url"] and page["domain"] == cited["domain"]
    assert isinstance(page["canonical_url"], str) and page["canonical_url"].startswith("http")
    assert page["collections"] == [SHELF]
    assert page["facets"] == cited["facets"]
    assert_facets(page["facets"])
    assert isinstance(page["markdown"], str) and page["markdown"].strip()
    assert page["metrics"]["inlinks_body"] == len(page["cited_by"])
    for c in page["cited_by"]:
        assert set(c) >= {"id", "url", "title", "anchor_text"}
        assert PAGE_ID.match(c["id"]) and c["id"] != page["id"]
    assert len({c["id"] for c in page["cited_by"]}) == len(page["cited_by"])
    assert page["history"], "a crawled page has a history"
    for h in page["history"]:
        assert_time(h["fetched_at"])
        assert h["status"] == 200 and isinstance(h["changed"], bool)
        assert isinstance(h["content_hash"], str) and h["content_hash"]
        assert JOB_ID.match(h["job_id"])
    assert isinstance(page["screenshots"], list)
    for s in page["screenshots"]:
        assert {"url", "width", "height", "taken_at"} <= set(s)


def test_page_assets_have_alt(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    found = 0
    for p in all_pages:  # every page: which ones list first depends on crawl timing
        for a in api.get(f"/api/content/{p['id']}", params={"markdown": "false"}).json()["assets"]:
            assert {"url", "kind", "alt"} <= set(a)
            assert a["url"].startswith("http") and isinstance(a["kind"], str)
            assert a["alt"] is None or isinstance(a["alt"], str)
            found += 1
    assert found, "the handbook pages show figures"


def test_page_ids_markdown_flag_and_404(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    pid = all_pages[0]["id"]
    full = api.get(f"/api/content/{pid}").json()
    for variant in (pid.removeprefix("pg_"), pid.upper().replace("PG_", "pg_")):
        assert api.get(f"/api/content/{variant}").json()["id"] == pid
    lean = api.get(f"/api/content/{pid}", params={"markdown": "false"}).json()
    assert "markdown" not in lean
    assert {k: v for k, v in full.items() if k != "markdown"} == lean
    assert_problem(api.get(f"/api/content/{MISSING_PAGE}"), 404, "not_found")
    assert_problem(api.get(f"/api/content/{MISSING_PAGE}.md"), 404, "not_found")
    r = api.get(f"/api/content/{pid}", params={"markdown": "perhaps"})
    assert_problem(r, 400, "invalid_parameter", "markdown")


def test_page_markdown_endpoint(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    pid = all_pages[1]["id"]
    page = api.get(f"/api/content/{pid}").json()
    r = api.get(f"/api/content/{pid}.md")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/markdown; charset=utf-8"
    text = r.text
    assert text.startswith("---\n")
    head, _, body = text[4:].partition("\n---\n")
    front = yaml.safe_load(head)
    expected = ["id", "url", "canonical_url", "title", "domain", "locale", "type", "published"]
    expected += ["fetched_at", "words"]
    assert set(expected) <= set(front), sorted(front)
    assert front["id"] == pid and front["url"] == page["url"]
    assert front["canonical_url"] == page["canonical_url"] and front["title"] == page["title"]
    assert front["domain"] == page["domain"] and front["words"] == page["facets"]["words"]
    assert front["locale"] == page["facets"]["locale"] and front["type"] == page["facets"]["type"]
    assert_time(front["fetched_at"])
    assert body.strip() == page["markdown"].strip()
    assert api.get(f"/api/content/{pid.removeprefix('pg_')}.md").text == text


# ---------------------------------------------------------------- search
@pytest.mark.parametrize("mode", ["hybrid", "vector", "text"])
def test_search_shape_per_mode(api: httpx.Client, mode: str) -> None:
    r = api.get("/api/search", params={"q": "create an index", "mode": mode, "limit": 7})
    assert r.status_code == 200, r.text
    body = r.json()
    assert {"data", "query", "mode", "limit", "filters"} <= set(body)
    assert body["query"] == "create an index" and body["mode"] == mode and body["limit"] == 7
    assert body["filters"] == {"applied": {}, "unrecognized": []}
    assert len(body["data"]) == 7
    for hit in body["data"]:
        keys = {"chunk_id", "page_id", "url", "title", "domain", "heading", "text", "score"}
        assert keys | {"ranks"} <= set(hit), sorted(hit)
        assert isinstance(hit["chunk_id"], str) and PAGE_ID.match(hit["page_id"])
        assert hit["domain"] in (PG, HB) and hit["text"]
        assert_score(hit["score"], decimals=4)
        engines = {"text", "vector"} if mode == "hybrid" else {mode}
        assert hit["ranks"] and set(hit["ranks"]) <= engines
        assert all(isinstance(v, int) and v >= 1 for v in hit["ranks"].values())
    scores = [h["score"] for h in body["data"]]
    assert scores == sorted(scores, reverse=True), f"{mode}: best first"
    assert len({h["chunk_id"] for h in body["data"]}) == 7
    assert body["data"][0]["ranks"] and min(body["data"][0]["ranks"].values()) <= 3


def test_search_default_mode_and_limit(api: httpx.Client) -> None:
    body = api.get("/api/search", params={"q": "backup"}).json()
    assert body["mode"] == "hybrid" and body["limit"] == 10 and len(body["data"]) == 10
    assert len(api.get("/api/search", params={"q": "backup", "limit": 50}).json()["data"]) == 50


@pytest.mark.parametrize(
    ("params", "applied", "check"),
    [
        ({"domain": "Debian-Handbook.info"}, {"domain": [HB]}, lambda h, p: h["domain"] == HB),
        ({"collection": "DOC-SITES"}, {"collection": SHELF}, lambda h, p: True),
        (
            {"locale": "EN"},
            {"locale": ["en"]},
            lambda h, p: (p["facets"]["locale"] or "").startswith("en"),
        ),
        (
            {"type": "docs, api_reference"},
            {"type": ["docs", "api_reference"]},
            lambda h, p: p["facets"]["type"] in ("docs", "api_reference"),
        ),
        (
            {"technicality_min": "0.30"},
            {"technicality_min": 0.3},
            lambda h, p: p["facets"]["technicality"] >= 0.3,
        ),
    ],
)
def test_search_filters(
    api: httpx.Client, params: dict[str, Any], applied: dict[str, Any], check: Any
) -> None:
    for mode in ("hybrid", "text", "vector"):
        r = api.get("/api/search", params={"q": "install packages", "mode": mode, **params})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["filters"] == {"applied": applied, "unrecognized": []}
        assert len(body["data"]) == 10, (mode, params)
        for hit in body["data"]:
            page = api.get(f"/api/content/{hit['page_id']}", params={"markdown": "false"}).json()
            assert check(hit, page), (mode, params, hit["url"])


def test_search_topics_filter_and_unrecognized(api: httpx.Client) -> None:
    facets = api.get("/api/facets").json()["data"]
    topics = next(f for f in facets if f["facet"] == "topics")["values"]
    topic = max(topics, key=lambda v: v["pages"])["value"]
    body = api.get("/api/search", params={"q": "configuration", "topics": topic, "sort": "x"})
    body = body.json()
    assert body["filters"] == {"applied": {"topics": [topic]}, "unrecognized": ["sort"]}
    for hit in body["data"]:
        page = api.get(f"/api/content/{hit['page_id']}", params={"markdown": "false"}).json()
        assert topic in page["facets"]["topics"]


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({}, "q"),
        ({"q": ""}, "q"),
        ({"q": "y" * 1001}, "q"),
        ({"q": "a", "mode": "semantic"}, "mode"),
        ({"q": "a", "limit": 0}, "limit"),
        ({"q": "a", "limit": 51}, "limit"),
        ({"q": "a", "technicality_min": 3}, "technicality_min"),
        ({"q": "a", "type": "essay"}, "type"),
        ({"q": "a", "topics": "nope"}, "topics"),
        ({"q": "a", "locale": "!!"}, "locale"),
        ({"q": "a", "domain": "http://x.org"}, "domain"),
    ],
)
def test_search_bad_values(api: httpx.Client, params: dict[str, Any], param: str) -> None:
    assert_problem(api.get("/api/search", params=params), 400, "invalid_parameter", param)


# ---------------------------------------------------------------- facets
def test_facets_vocabularies_and_counts(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    body = api.get("/api/facets").json()
    assert_envelope(body)
    by = {f["facet"]: f for f in body["data"]}
    assert {"type", "format", "audience", "topics", "locale", "has_code"} <= set(by)
    for name, vocab in (("type", TYPES), ("format", FORMATS), ("audience", AUDIENCES)):
        values = {v["value"]: v["pages"] for v in by[name]["values"]}
        assert set(values) == vocab, name
        for value, n in values.items():
            assert n == sum(1 for p in all_pages if p["facets"][name] == value), (name, value)
    topic_counts = {v["value"]: v["pages"] for v in by["topics"]["values"]}
    for p in all_pages:
        assert set(p["facets"]["topics"]) <= set(topic_counts)
    for value, n in topic_counts.items():
        assert n == sum(1 for p in all_pages if value in p["facets"]["topics"]), value
    code = {v["value"]: v["pages"] for v in by["has_code"]["values"]}
    assert code[True] == sum(1 for p in all_pages if p["facets"]["has_code"])
    assert code[True] + code[False] == len(all_pages)
    scoped = api.get("/api/facets", params={"domain": "PostgreSQL.org", "q": "x"}).json()
    assert scoped["filters"] == {"applied": {"domain": [PG]}, "unrecognized": ["q"]}
    pg_types = {v["value"]: v["pages"] for v in scoped["data"][0]["values"]}
    assert sum(pg_types.values()) == sum(1 for p in all_pages if p["domain"] == PG)
    shelf = api.get("/api/facets", params={"collection": SHELF}).json()
    assert shelf["filters"]["applied"] == {"collection": SHELF}
    assert_problem(api.get("/api/facets", params={"domain": "//"}), 400, "invalid_parameter")


# ---------------------------------------------------------------- domains
def test_domain_record_sections(api: httpx.Client, corpus: Any) -> None:
    for domain in (PG, HB):
        r = api.get(f"/api/domains/{domain}")
        assert r.status_code == 200, r.text
        d = r.json()
        sections = {"coverage", "health", "properties", "sitemaps", "changes", "links_to"}
        assert sections | {"collections"} <= set(d), sorted(d)
        cov = d["coverage"]
        assert isinstance(cov["known"], int) and isinstance(cov["indexed"], int)
        assert cov["indexed"] == corpus[2][domain]["progress"]["indexed"]
        assert cov["known"] >= cov["indexed"] > 0
        assert set(cov["buckets"]) >= BUCKETS - {"unaccounted"}
        est = cov["estimate"]
        assert set(est) >= {"low", "high", "confidence", "method"}, est
        assert isinstance(est["low"], int) and isinstance(est["high"], int)
        assert 0 < est["low"] <= est["high"] and 0 <= est["confidence"] <= 1
        assert isinstance(est["method"], str) and est["method"]
        h = d["health"]
        assert "robots_txt" in h and "error_rate" in h and "median_response_s" in h
        assert h["last_job_state"] == corpus[2][domain]["state"]
        assert h["error_rate"] is None or 0 <= h["error_rate"] <= 1
        assert isinstance(h["median_response_s"], float | int) and h["median_response_s"] >= 0
        assert isinstance(d["properties"], list) and d["properties"]
        for prop in d["properties"]:
            assert {"locale", "pages"} <= set(prop), prop
            assert isinstance(prop["pages"], int)
        assert sum(p["pages"] for p in d["properties"]) <= cov["indexed"]
        for sm in d["sitemaps"]:
            assert {"url", "url_count", "status", "last_modified"} <= set(sm)
        assert isinstance(d["changes"], dict)
        assert {"added", "removed", "modified"} <= set(d["changes"]), d["changes"]
        assert isinstance(d["links_to"], list)
        for link in d["links_to"]:
            assert isinstance(link["domain"], str) and link["domain"] != domain
            assert {"links", "pages"} <= set(link), link
        assert [c["slug"] for c in d["collections"]] == [SHELF]


def test_domain_404_and_bad_names(api: httpx.Client) -> None:
    assert_problem(api.get("/api/domains/example.org"), 404, "not_found")
    assert_problem(api.get("/api/domains/example.org/content.md"), 404, "not_found")
    for bad in ("http:x", "10.0.0.1", "a..b"):
        assert_problem(api.get(f"/api/domains/{bad}"), 400, "invalid_parameter")
    assert api.get("/api/domains/WWW.PostgreSQL.org").json()["domain"] == PG


def _bundle(api: httpx.Client, domain: str, **params: Any) -> tuple[dict[str, Any], str]:
    r = api.get(f"/api/domains/{domain}/content.md", params=params)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/markdown; charset=utf-8"
    text = r.text
    assert text.startswith("---\n")
    head, _, body = text[4:].partition("\n---\n")
    return yaml.safe_load(head), body


def test_domain_bundle(api: httpx.Client, all_pages: list[dict[str, Any]]) -> None:
    pages = [p for p in all_pages if p["domain"] == HB]
    front, body = _bundle(api, HB, limit=5)
    assert {"domain", "pages_included", "pages_left_out", "filters"} <= set(front)
    assert front["domain"] == HB and front["pages_included"] == 5
    assert front["pages_left_out"] == len(pages) - 5
    assert front["filters"]["limit"] == 5
    lines = body.split("\n")
    in_fence = False
    h1 = []
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and line.startswith("# "):
            h1.append(line)
    assert len(h1) == 5, h1
    assert f"pages_left_out: {len(pages) - 5}" in body.strip().splitlines()[-1]
    urls = {p["url"] for p in pages}
    assert sum(1 for u in urls if u in body) >= 5
    front, body = _bundle(api, HB)
    assert front["filters"]["limit"] == 100
    assert front["pages_included"] + front["pages_left_out"] == len(pages)
    front, _ = _bundle(api, HB, limit=500, type="docs", technicality_min=0.2, tipe="x")
    wanted = [
        p for p in pages if p["facets"]["type"] == "docs" and p["facets"]["technicality"] >= 0.2
    ]
    assert front["pages_included"] == len(wanted) and front["pages_left_out"] == 0
    assert front["filters"]["type"] == ["docs"] and front["filters"]["technicality_min"] == 0.2


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"type": "essay"}, "type"),
        ({"technicality_min": 1.1}, "technicality_min"),
    ],
)
def test_domain_bundle_bad_values(api: httpx.Client, params: dict[str, Any], param: str) -> None:
    r = api.get(f"/api/domains/{PG}/content.md", params=params)
    assert_problem(r, 400, "invalid_parameter", param)


# ---------------------------------------------------------------- collections
def test_collections_list_and_read(api: httpx.Client) -> None:
    body = api.get("/api/collections").json()
    assert_envelope(body)
    shelf = next(s for s in body["data"] if s["slug"] == SHELF)
    assert {"slug", "name", "description", "companies", "crawled"} <= set(shelf)
    assert shelf["name"] == "Doc sites" and shelf["companies"] == 2 and shelf["crawled"] == 2
    one = api.get(f"/api/collections/{SHELF}").json()
    assert {k: one[k] for k in shelf} == shelf
    members = {m["domain"]: m for m in one["members"]}
    assert set(members) == {PG, HB}
    for m in members.values():
        assert {"domain", "reason", "placed_by", "placed_at", "crawled", "pages"} <= set(m)
        assert m["reason"] == "documentation of a free project"
        assert m["placed_by"] == "person" and m["crawled"] is True and m["pages"] > 0
        assert_time(m["placed_at"])
    assert_problem(api.get("/api/collections/no-such-shelf"), 404, "not_found")
    assert_problem(api.get("/api/collections/Bad_Slug!"), 400, "invalid_parameter")


def test_collection_writes(api: httpx.Client, srv: Running) -> None:
    slug = "scratch"
    r = api.put(f"/api/collections/{slug}", json={"name": "Scratch"}, headers=srv.auth)
    assert r.status_code == 201 and r.headers["location"] == f"/api/collections/{slug}"
    assert r.json()["slug"] == slug and r.json()["companies"] == 0
    r = api.put(
        f"/api/collections/{slug}",
        json={"name": "Scratch 2", "description": "d"},
        headers=srv.auth,
    )
    assert r.status_code == 200 and r.json()["name"] == "Scratch 2"
    assert r.json()["description"] == "d"
    r = api.post(
        f"/api/collections/{slug}/members",
        json={"domain": "Python.org", "reason": "agent pick", "placed_by": "agent"},
        headers=srv.auth,
    )
    assert r.status_code == 201, r.text
    member = r.json()
    assert member["domain"] == "python.org" and member["placed_by"] == "agent"
    assert_time(member["placed_at"])
    shelf = api.get("/api/collections").json()["data"]
    assert next(s for s in shelf if s["slug"] == slug)["companies"] == 1
    path = f"/api/collections/{slug}/members/python.org"
    r = api.delete(path, headers=srv.auth)
    assert r.status_code == 204 and r.content == b""
    assert_problem(api.delete(path, headers=srv.auth), 404, "not_found")
    r = api.post(
        "/api/collections/no-such-shelf/members", json={"domain": "python.org"}, headers=srv.auth
    )
    assert_problem(r, 404, "not_found")
    for body, field in (
        ({"name": "x", "colour": "red"}, "colour"),
        ({"description": "no name"}, "name"),
        ({"name": 5}, "name"),
    ):
        r = api.put(f"/api/collections/{slug}", json=body, headers=srv.auth)
        assert field in assert_problem(r, 400, "invalid_body")["detail"]
    for body, field in (
        ({"domain": "python.org", "placed_by": "robot"}, "placed_by"),
        ({"domain": "https://python.org"}, "domain"),
        ({"reason": "no domain"}, "domain"),
    ):
        r = api.post(f"/api/collections/{slug}/members", json=body, headers=srv.auth)
        assert field in assert_problem(r, 400, "invalid_body")["detail"]
    headers = {**srv.auth, "Content-Type": "text/plain"}
    r = api.put(f"/api/collections/{slug}", content=b'{"name": "x"}', headers=headers)
    assert_problem(r, 415, "unsupported_media_type")
    big = b'{"name": "' + b"n" * 20000 + b'"}'
    headers = {**srv.auth, "Content-Type": "application/json"}
    r = api.put(f"/api/collections/{slug}", content=big, headers=headers)
    assert_problem(r, 413, "payload_too_large")


# ---------------------------------------------------------------- MCP
def test_mcp_endpoint_answers(api: httpx.Client) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "contract", "version": "0"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream"}
    r = api.post("/api/mcp", json=init, headers=headers)
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    headers |= {
        "Mcp-Session-Id": sid,
        "MCP-Protocol-Version": r.json()["result"]["protocolVersion"],
    }
    api.post(
        "/api/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers
    )
    r = api.post(
        "/api/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=headers
    )
    tools = {t["name"] for t in r.json()["result"]["tools"]}
    read = {"search", "list_content", "get_page", "get_page_markdown", "get_domain"}
    read |= {"get_domain_markdown", "list_collections", "get_collection", "get_job", "list_facets"}
    assert read <= tools, sorted(read - tools)
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "list_content", "arguments": {"domain": [PG], "limit": 3}},
    }
    result = api.post("/api/mcp", json=call, headers=headers).json()["result"]
    assert not result.get("isError"), result
    http_body = api.get("/api/content", params={"domain": PG, "limit": 3}).json()
    assert json.loads(result["content"][0]["text"])["data"] == http_body["data"]


def test_crawl_answer_conflict_and_cancel(api: httpx.Client, srv: Running) -> None:
    """Last on the shared server: the short python.org job may index a page or two."""
    r = api.post("/api/crawl", json={"domain": "docs.python.org", "budget": 3}, headers=srv.auth)
    assert r.status_code == 202, r.text
    body = r.json()
    assert set(body) == {"job_id", "state", "domain"}
    assert JOB_ID.match(body["job_id"]) and body["state"] == "queued"
    assert body["domain"] == "python.org"
    assert r.headers["location"] == f"/api/jobs/{body['job_id']}"
    job = body["job_id"]
    again = api.post("/api/crawl", json={"domain": "python.org"}, headers=srv.auth)
    if api.get(f"/api/jobs/{job}").json()["state"] not in FINAL:
        problem = assert_problem(again, 409, "conflict")
        assert job in problem["detail"] or job in str(problem)
    assert_problem(api.post(f"/api/jobs/{job}/cancel"), 401, "unauthorized")
    r = api.post(f"/api/jobs/{job}/cancel", headers=srv.auth)
    assert r.status_code in (200, 202, 409), r.text
    view = srv.wait(job, timeout=120)
    assert view["state"] in ("cancelled", "completed", "partial")
    if view["state"] == "cancelled":
        assert view["coverage"]["buckets"]["pending"]["count"] == 0
    assert_buckets_invariant(view)
    assert_problem(api.post(f"/api/jobs/{MISSING_JOB}/cancel", headers=srv.auth), 404, "not_found")


# ---------------------------------------------------------------- separate small servers
def test_crawl_rate_limit_429(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, crawl_rate_per_minute=2)
    with run_server(settings, worker=False) as srv, versioned_client(srv.base_url) as api:
        for domain in ("python.org", "postgresql.org"):
            r = api.post("/api/crawl", json={"domain": domain, "budget": 1}, headers=srv.auth)
            assert r.status_code == 202, r.text
        r = api.post("/api/crawl", json={"domain": "debian.org", "budget": 1}, headers=srv.auth)
        assert_problem(r, 429, "rate_limited")
        retry = r.headers["retry-after"]
        assert retry.isdigit() and 1 <= int(retry) <= 61
        # the limit is per key: another key still may start a crawl
        from webcorpus.services import keys

        other = {"Authorization": f"Bearer {keys.create_key(srv.store, 'other')}"}
        r = api.post("/api/crawl", json={"domain": "debian.org", "budget": 1}, headers=other)
        assert r.status_code == 202, r.text
        jobs = api.get("/api/jobs").json()
        assert jobs["total"] == 3 and all(j["state"] == "queued" for j in jobs["data"])


def test_private_reads(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, public_reads=False)
    with run_server(settings, worker=False) as srv, versioned_client(srv.base_url) as api:
        for path in ("/api/content", "/api/search?q=x", "/api/facets", "/api/collections"):
            assert_problem(api.get(path), 401, "unauthorized")
            assert api.get(path, headers=srv.auth).status_code == 200
        assert_problem(api.get("/api/domains/python.org", headers=srv.auth), 404, "not_found")
