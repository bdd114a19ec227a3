"""Bad input on every endpoint gets a 4xx problem document, never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import Running, make_settings, run_server


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    settings = make_settings(tmp_path_factory.mktemp("api"), allow_private_suffixes=False)
    with run_server(settings, worker=False) as running:
        yield running


def assert_problem(r, status: int, code: str) -> dict:  # type: ignore[no-untyped-def]
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == f"urn:webcorpus:error:{code}"
    assert body["title"] and body["detail"]
    assert "Traceback" not in r.text
    return dict(body)


def test_version_header_and_openapi(api: Running) -> None:
    r = api.client.get("/api/openapi.json")
    assert r.status_code == 200
    assert r.headers["x-webcorpus-version"]
    paths = r.json()["paths"]
    for path in ("/api/crawl", "/api/jobs/{job_id}", "/api/content", "/api/content/{page_id}"):
        assert path in paths


def test_crawl_needs_a_key(api: Running) -> None:
    r = api.client.post("/api/crawl", json={"domain": "python.org"})
    assert_problem(r, 401, "unauthorized")
    r = api.client.post(
        "/api/crawl", json={"domain": "python.org"}, headers={"Authorization": "Bearer wck_nope"}
    )
    assert_problem(r, 401, "unauthorized")
    r = api.client.post(
        "/api/crawl", json={"domain": "python.org"}, headers={"Authorization": "Basic abc"}
    )
    assert_problem(r, 401, "unauthorized")


def test_read_only_key_is_forbidden_to_write(api: Running) -> None:
    from webcorpus.services import keys

    ro = keys.create_key(api.store, "reader", scopes="read")
    r = api.client.post(
        "/api/crawl", json={"domain": "python.org"}, headers={"Authorization": f"Bearer {ro}"}
    )
    assert_problem(r, 403, "forbidden")


def test_crawl_wrong_content_type(api: Running) -> None:
    r = api.client.post(
        "/api/crawl",
        content=b"domain=python.org",
        headers={**api.auth, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_problem(r, 415, "unsupported_media_type")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"domain": "localhost"}, "domain"),
        ({"domain": "10.0.0.1"}, "domain"),
        ({"domain": "http://x.com/path"}, "domain"),
        ({"domain": "[::1]"}, "domain"),
        ({"domain": "2130706433"}, "domain"),
        ({"domain": "printer.local"}, "domain"),
        ({"domain": "co.uk"}, "domain"),
        ({"domain": ""}, "domain"),
        ({"domain": 42}, "domain"),
        ({}, "domain"),
        ({"domain": "python.org", "budget": 0}, "budget"),
        ({"domain": "python.org", "budget": 10001}, "budget"),
        ({"domain": "python.org", "budget": "ten"}, "budget"),
        ({"domain": "python.org", "budget": 1.5}, "budget"),
        ({"domain": "python.org", "refresh": "yes"}, "refresh"),
        ({"domain": "python.org", "force": 1}, "force"),
        ({"domain": "python.org", "shots": -1}, "shots"),
        ({"domain": "python.org", "depth": 3}, "depth"),
    ],
)
def test_crawl_bad_bodies(api: Running, body: dict, field: str) -> None:
    r = api.client.post("/api/crawl", json=body, headers=api.auth)
    problem = assert_problem(r, 400, "invalid_body")
    assert field in problem["detail"]


def test_crawl_body_not_json_or_not_object(api: Running) -> None:
    headers = {**api.auth, "Content-Type": "application/json"}
    assert_problem(
        api.client.post("/api/crawl", content=b"{nope", headers=headers), 400, "invalid_body"
    )
    assert_problem(
        api.client.post("/api/crawl", content=b"[1,2]", headers=headers), 400, "invalid_body"
    )


@pytest.mark.parametrize("path", ["/api/crawl", "/api/collections/shelf"])
def test_json_nested_past_the_parser_is_a_bad_body(api: Running, path: str) -> None:
    deep = b"[" * 5000 + b"]" * 5000  # within the body limit, deeper than json.loads goes
    headers = {**api.auth, "Content-Type": "application/json"}
    send = api.client.post if path == "/api/crawl" else api.client.put
    problem = assert_problem(send(path, content=deep, headers=headers), 400, "invalid_body")
    assert "nested" in problem["detail"]


def test_crawl_body_too_large(api: Running) -> None:
    big = b'{"domain": "python.org", "x": "' + b"a" * 20_000 + b'"}'
    r = api.client.post(
        "/api/crawl", content=big, headers={**api.auth, "Content-Type": "application/json"}
    )
    assert_problem(r, 413, "payload_too_large")


def test_crawl_accepted_then_conflict(api: Running) -> None:
    r = api.client.post("/api/crawl", json={"domain": "Example.COM", "budget": 5}, headers=api.auth)
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["job_id"].startswith("job_") and body["state"] == "queued"
    assert body["domain"] == "example.com"
    assert r.headers["location"] == f"/api/jobs/{body['job_id']}"
    again = api.client.post("/api/crawl", json={"domain": "example.com"}, headers=api.auth)
    problem = assert_problem(again, 409, "conflict")
    assert body["job_id"] in problem["detail"]
    view = api.client.get(f"/api/jobs/{body['job_id']}").json()
    assert view["state"] == "queued" and view["params"]["budget"] == 5
    cancel = api.client.post(f"/api/jobs/{body['job_id']}/cancel", headers=api.auth)
    assert cancel.status_code == 202 and cancel.json()["state"] == "cancelled"
    assert_problem(
        api.client.post(f"/api/jobs/{body['job_id']}/cancel", headers=api.auth), 409, "conflict"
    )


def test_unknown_ids_are_404(api: Running) -> None:
    assert_problem(api.client.get("/api/jobs/job_doesnotexist"), 404, "not_found")
    assert_problem(api.client.get("/api/jobs/job_doesnotexist/urls"), 404, "not_found")
    assert_problem(api.client.post("/api/jobs/job_x/cancel", headers=api.auth), 404, "not_found")
    assert_problem(api.client.get("/api/content/pg_0123456789abcdef"), 404, "not_found")
    assert_problem(api.client.get("/api/content/pg_0123456789abcdef.md"), 404, "not_found")
    assert_problem(api.client.get("/api/nothing-here"), 404, "not_found")


def test_cancel_needs_a_key(api: Running) -> None:
    assert_problem(api.client.post("/api/jobs/job_x/cancel"), 401, "unauthorized")


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"limit": "abc"}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": 10001}, "offset"),
        ({"sort": "random"}, "sort"),
        ({"technicality_min": 2}, "technicality_min"),
        ({"technicality_min": "high"}, "technicality_min"),
        ({"promotional_max": -0.1}, "promotional_max"),
        ({"has_code": "maybe"}, "has_code"),
        ({"words_min": -5}, "words_min"),
        ({"published_after": "yesterday"}, "published_after"),
        ({"type": "blogpost"}, "type"),
        ({"locale": "english!"}, "locale"),
        ({"domain": "localhost"}, "domain"),
        ({"q": "x" * 1001}, "q"),
        ({"q": "   "}, "q"),
        ({"sort": "relevance"}, "sort"),
        # past what a database integer holds: a 400, not an overflow in the query
        ({"words_min": 2**63}, "words_min"),
        ({"words_min": 10**30}, "words_min"),
        # a time with no day before it in UTC
        ({"published_after": "0001-01-01T00:00:00Z"}, "published_after"),
        ({"published_after": "0001-01-01T00:30:00+01:00"}, "published_after"),
        ({"collection": ""}, "collection"),
        ({"collection": "Bad Slug!"}, "collection"),
    ],
)
def test_content_bad_params(api: Running, params: dict, param: str) -> None:
    r = api.client.get("/api/content", params=params)
    problem = assert_problem(r, 400, "invalid_parameter")
    assert param in problem["detail"]


@pytest.mark.parametrize("path", ["/api/facets", "/api/search"])
def test_other_collection_filters_check_the_slug(api: Running, path: str) -> None:
    for value in ("", "Bad Slug!"):
        params = {"collection": value, **({"q": "x"} if path == "/api/search" else {})}
        problem = assert_problem(api.client.get(path, params=params), 400, "invalid_parameter")
        assert "collection" in problem["detail"]


def test_content_list_envelope_reports_filters(api: Running) -> None:
    r = api.client.get("/api/content", params={"domain": "python.org", "tecnicality_min": 0.5})
    assert r.status_code == 200
    body = r.json()
    assert set(body) >= {"data", "total", "limit", "offset", "sort", "filters"}
    assert body["filters"]["applied"] == {"domain": ["python.org"]}
    assert body["filters"]["unrecognized"] == ["tecnicality_min"]
    assert body["sort"] == "cited" and body["limit"] == 20 and body["offset"] == 0


def test_job_urls_bad_bucket(api: Running) -> None:
    job = api.crawl("example.org", budget=3)
    assert_problem(
        api.client.get(f"/api/jobs/{job}/urls", params={"bucket": "nope"}), 400, "invalid_parameter"
    )
    for offset in (-1, 2**63, 10**20):
        assert_problem(
            api.client.get(f"/api/jobs/{job}/urls", params={"offset": offset}),
            400,
            "invalid_parameter",
        )
    assert api.client.get(f"/api/jobs/{job}/urls", params={"offset": 2**63 - 1}).status_code == 200
    api.client.post(f"/api/jobs/{job}/cancel", headers=api.auth)


def test_rate_limit(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, crawl_rate_per_minute=2)
    with run_server(settings, worker=False) as running:
        for domain in ("a-example.com", "b-example.com"):
            assert (
                running.client.post(
                    "/api/crawl", json={"domain": domain}, headers=running.auth
                ).status_code
                == 202
            )
        r = running.client.post(
            "/api/crawl", json={"domain": "c-example.com"}, headers=running.auth
        )
        assert_problem(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1


def test_refused_crawls_do_not_count_against_the_rate_limit(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, crawl_rate_per_minute=2)
    with run_server(settings, worker=False) as running:
        post = running.client.post
        assert (
            post("/api/crawl", json={"domain": "a-example.com"}, headers=running.auth).status_code
            == 202
        )
        for _ in range(4):  # the domain already has an active (queued) crawl
            r = post("/api/crawl", json={"domain": "a-example.com"}, headers=running.auth)
            assert_problem(r, 409, "conflict")
        r = post("/api/crawl", json={"domain": "b-example.com"}, headers=running.auth)
        assert r.status_code == 202, r.text
        r = post("/api/crawl", json={"domain": "c-example.com"}, headers=running.auth)
        assert_problem(r, 429, "rate_limited")


def test_a_server_failure_is_a_problem_with_the_version_header(tmp_path: Path) -> None:
    """A real failure (a table gone from under the service) answers 500 as a problem document
    carrying the version header like every other response, and no traceback."""
    with run_server(make_settings(tmp_path), worker=False) as srv:
        srv.store.conn.execute("DROP TABLE collection_members")
        r = srv.client.get("/api/collections")
        assert_problem(r, 500, "internal")
        assert r.headers["x-webcorpus-version"]
        assert "collection_members" not in r.text


def test_head_is_a_get_without_its_body(api: Running) -> None:
    got = api.client.get("/api/content", params={"limit": 5})
    head = api.client.head("/api/content", params={"limit": 5})
    assert head.status_code == 200 == got.status_code
    assert head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["x-webcorpus-version"]
    missing = api.client.head("/api/jobs/job_doesnotexist")
    assert missing.status_code == 404 and missing.content == b""
    assert missing.headers["content-type"].startswith("application/problem+json")
    # a path that has no GET is still a 405 naming what it takes
    wrong = api.client.head("/api/crawl")
    assert wrong.status_code == 405 and "POST" in wrong.headers["allow"]
    # the connection stays usable after a HEAD (no body bytes left over on it)
    assert api.client.get("/api/content").status_code == 200


def test_locale_filters_are_echoed_as_pages_write_them(api: Running) -> None:
    """Matching ignores case; filters.applied shows the tag as a page's locale would read."""
    cases = {"EN-us": ["en-US"], "zh-hant-tw,de": ["zh-Hant-TW", "de"], "iw,he": ["he"]}
    for given, echoed in cases.items():
        for path in ("/api/content", "/api/search?q=queue&mode=text"):
            sep = "&" if "?" in path else "?"
            r = api.client.get(f"{path}{sep}locale={given}")
            assert r.status_code == 200, r.text
            assert r.json()["filters"]["applied"]["locale"] == echoed, (path, given)
