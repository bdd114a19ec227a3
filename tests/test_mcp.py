"""The MCP endpoint /api/mcp over real HTTP, driven by the official SDK client.

One server crawls 30 pages of the PostgreSQL docs (nginx fixture); every tool result is compared
with the HTTP API's JSON for the same request.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests.server import Running, assert_buckets_invariant, make_settings, run_server
from tests.sites.nginx import RunningServer

READ_TOOLS = {
    "search",
    "list_content",
    "get_page",
    "get_page_markdown",
    "get_domain",
    "get_domain_markdown",
    "list_collections",
    "get_collection",
    "get_job",
    "list_facets",
}
WRITE_TOOLS = {"start_crawl", "place_on_shelf"}
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def crawled(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, dict[str, Any]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("mcp"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
    )
    with run_server(settings) as srv:
        job = srv.crawl("www.postgresql.org", budget=30)
        view = srv.wait(job, timeout=300)
        yield srv, view


@asynccontextmanager
async def session(url: str, headers: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers=headers or {}, timeout=60) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        yield s


def run(coro_fn: Any, *args: Any) -> Any:
    return anyio.run(coro_fn, *args)


def mcp_url(srv: Running) -> str:
    return srv.base_url + "/api/mcp"


async def call(
    srv: Running, name: str, args: dict[str, Any], headers: dict[str, str] | None = None
) -> CallToolResult:
    async with session(mcp_url(srv), headers) as s:
        return await s.call_tool(name, args)


def call_sync(
    srv: Running, name: str, args: dict[str, Any], headers: dict[str, str] | None = None
) -> CallToolResult:
    result: CallToolResult = run(call, srv, name, args, headers)
    return result


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    return text


def test_initialize_and_list_tools(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled

    async def go() -> tuple[Any, Any]:
        async with (
            httpx2.AsyncClient(timeout=60) as http,
            streamable_http_client(mcp_url(srv), http_client=http) as (read, write),
            ClientSession(read, write) as s,
        ):
            init = await s.initialize()
            return init, await s.list_tools()

    init, tools = run(go)
    assert init.server_info.name == "webcorpus"
    assert init.capabilities.tools is not None
    assert init.instructions and "search" in init.instructions
    by_name = {t.name: t for t in tools.tools}
    assert set(by_name) == READ_TOOLS | WRITE_TOOLS
    for tool in tools.tools:
        assert tool.description and len(tool.description) > 80, tool.name
        assert tool.input_schema["type"] == "object"
        assert tool.output_schema is not None, tool.name
    for name in WRITE_TOOLS:
        assert "API key" in (by_name[name].description or "")
        assert by_name[name].annotations and by_name[name].annotations.read_only_hint is False
    assert by_name["get_page"].annotations.read_only_hint is True
    props = by_name["list_content"].input_schema["properties"]
    assert props["limit"]["maximum"] == 100 and props["limit"]["minimum"] == 1
    assert props["offset"]["maximum"] == 10000
    assert props["technicality_min"]["anyOf"][0]["maximum"] == 1
    assert "relevance" in props["sort"]["anyOf"][0]["enum"]
    assert "docs" in props["type"]["anyOf"][0]["items"]["enum"]
    assert props["q"]["anyOf"][0]["maxLength"] == 1000
    search = by_name["search"].input_schema
    assert search["required"] == ["q"]
    assert search["properties"]["limit"]["maximum"] == 50
    assert search["properties"]["mode"]["enum"] == ["hybrid", "vector", "text"]
    crawl = by_name["start_crawl"].input_schema["properties"]
    assert crawl["budget"]["maximum"] == 10000


def test_modern_protocol_revision(crawled: tuple[Running, dict[str, Any]]) -> None:
    """The high-level client negotiates the SDK's newest revision (no session) and works."""
    from mcp import Client

    srv, _ = crawled

    async def go() -> tuple[str, list[str], CallToolResult]:
        async with Client(mcp_url(srv)) as client:
            version = client.session.protocol_version
            tools = await client.list_tools()
            result = await client.call_tool("list_content", {"limit": 2})
            return str(version), [t.name for t in tools.tools], result

    version, names, result = run(go)
    assert version == "2026-07-28"
    assert set(names) == READ_TOOLS | WRITE_TOOLS
    assert ok(result)["limit"] == 2


def test_list_content_matches_http(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, view = crawled
    assert view["coverage"]["buckets"]["indexed"]["count"] >= 20
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = [
        ({"domain": ["postgresql.org"], "limit": 5}, {"domain": "postgresql.org", "limit": 5}),
        (
            {"domain": ["postgresql.org"], "sort": "words", "limit": 3, "offset": 2},
            {"domain": "postgresql.org", "sort": "words", "limit": 3, "offset": 2},
        ),
        (
            {"type": ["docs", "api_reference"], "technicality_min": 0.2, "has_code": True},
            {"type": "docs,api_reference", "technicality_min": 0.2, "has_code": "true"},
        ),
        ({"words_min": 300, "sort": "technicality"}, {"words_min": 300, "sort": "technicality"}),
    ]
    for mcp_args, http_params in cases:
        got = ok(call_sync(srv, "list_content", mcp_args))
        want = srv.client.get("/api/content", params=http_params).json()
        assert got == want, (mcp_args, got, want)
    first = ok(call_sync(srv, "list_content", {"limit": 5}))
    assert first["total"] >= 20 and len(first["data"]) == 5
    # an unknown argument is reported like an unknown query parameter, not applied
    odd = ok(call_sync(srv, "list_content", {"limit": 1, "tecnicality_min": 0.5}))
    assert odd["filters"]["unrecognized"] == ["tecnicality_min"]
    assert odd["filters"]["applied"] == {}


def test_list_content_invalid_arguments(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    bad = call_sync(srv, "list_content", {"limit": 500})
    assert "limit" in error_text(bad) and "100" in error_text(bad)
    bad = call_sync(srv, "list_content", {"type": ["nonsense"]})
    assert "type" in error_text(bad)
    # a value the schema allows but the service refuses: the problem document comes back
    bad = call_sync(srv, "list_content", {"sort": "relevance"})
    assert error_text(bad).startswith("invalid_parameter: sort: relevance needs q")
    assert bad.structured_content is not None
    assert bad.structured_content["errors"] == [{"param": "sort", "message": "relevance needs q"}]
    http = srv.client.get("/api/content", params={"sort": "relevance"})
    assert http.status_code == 400
    assert {k: v for k, v in http.json().items()} == bad.structured_content
    bad = call_sync(srv, "list_content", {"locale": ["not a tag"]})
    assert "BCP 47" in error_text(bad)
    bad = call_sync(srv, "list_content", {"published_after": "yesterday"})
    assert "published_after" in error_text(bad)


def problem_of(
    result: CallToolResult, param: str, code: str = "invalid_parameter"
) -> dict[str, Any]:
    """A tool error carrying the RFC 9457 problem document, naming ``param``."""
    assert error_text(result).startswith(f"{code}: {param}"), error_text(result)
    problem = result.structured_content
    assert problem is not None, error_text(result)
    assert problem["status"] == 400 and problem["code"] == code
    assert problem["type"] == f"urn:webcorpus:error:{code}"
    key = "field" if code == "invalid_body" else "param"
    assert [e[key] for e in problem["errors"]] == [param], problem
    return problem


def test_list_content_bad_values_are_problems(crawled: tuple[Running, dict[str, Any]]) -> None:
    """Vocabulary and limit checks are the services': the same problem document as over HTTP."""
    srv, _ = crawled
    cases: list[tuple[dict[str, Any], dict[str, Any], str]] = [
        ({"type": ["bogus"]}, {"type": "bogus"}, "type"),
        ({"type": "docs,bogus"}, {"type": "docs,bogus"}, "type"),
        ({"limit": 500}, {"limit": 500}, "limit"),
        ({"format": ["nope"]}, {"format": "nope"}, "format"),
        ({"audience": "robots"}, {"audience": "robots"}, "audience"),
        ({"topics": ["cooking"]}, {"topics": "cooking"}, "topics"),
        ({"sort": "random"}, {"sort": "random"}, "sort"),
        ({"offset": 20000}, {"offset": 20000}, "offset"),
        ({"words_min": 10**22}, {"words_min": 10**22}, "words_min"),
        ({"collection": "Bad Slug!"}, {"collection": "Bad Slug!"}, "collection"),
    ]
    for mcp_args, http_params, param in cases:
        got = problem_of(call_sync(srv, "list_content", mcp_args), param)
        http = srv.client.get("/api/content", params=http_params)
        assert http.status_code == 400
        if param not in ("sort", "offset", "words_min"):  # HTTP checks these in its route signature
            assert got == http.json(), (mcp_args, got, http.json())
    assert "100" in problem_of(call_sync(srv, "list_content", {"limit": 500}), "limit")["detail"]
    assert "docs" in problem_of(call_sync(srv, "list_content", {"type": ["x"]}), "type")["detail"]
    problem_of(call_sync(srv, "list_content", {"technicality_min": 2}), "technicality_min")
    problem_of(call_sync(srv, "list_content", {"q": ""}), "q")
    # the other tools check their bounds the same way
    got = problem_of(call_sync(srv, "search", {"q": "x", "limit": 51}), "limit")
    assert got == srv.client.get("/api/search", params={"q": "x", "limit": 51}).json()
    problem_of(call_sync(srv, "search", {"q": "x", "topics": "cooking"}), "topics")
    problem_of(call_sync(srv, "search", {"q": "x", "mode": "fuzzy"}), "mode")
    problem_of(call_sync(srv, "get_domain_markdown", {"domain": "x.org", "limit": 501}), "limit")
    problem_of(call_sync(srv, "get_domain_markdown", {"domain": "x.org", "type": "x"}), "type")
    problem_of(call_sync(srv, "list_collections", {"limit": 101}), "limit")
    problem_of(
        call_sync(srv, "get_page_markdown", {"page_id": "pg_0", "max_chars": 0}), "max_chars"
    )
    problem_of(call_sync(srv, "list_facets", {"domain": "not a domain"}), "domain")
    refused = call_sync(srv, "start_crawl", {"domain": "example.org", "budget": 10**6}, srv.auth)
    problem_of(refused, "budget", "invalid_body")


def test_list_arguments_take_a_comma_string_or_a_list(
    crawled: tuple[Running, dict[str, Any]],
) -> None:
    """A comma-list HTTP parameter is a string ("docs,blog") or a list of strings over MCP."""
    srv, _ = crawled
    want = srv.client.get("/api/content", params={"type": "docs,blog"}).json()
    assert want["total"] > 0
    assert ok(call_sync(srv, "list_content", {"type": "docs,blog"})) == want
    assert ok(call_sync(srv, "list_content", {"type": ["docs", "blog"]})) == want
    assert ok(call_sync(srv, "list_content", {"type": "docs"})) == (
        srv.client.get("/api/content", params={"type": "docs"}).json()
    )
    http_params: dict[str, str | int] = {
        "domain": "postgresql.org",
        "locale": "en",
        "format": "article,reference,tutorial,listing,landing,faq,form,media,other",
        "audience": "developers,technical,general",
        "limit": 3,
    }
    want = srv.client.get("/api/content", params=http_params).json()
    as_lists = {k: v.split(",") if isinstance(v, str) else v for k, v in http_params.items()}
    assert ok(call_sync(srv, "list_content", http_params)) == want
    assert ok(call_sync(srv, "list_content", as_lists)) == want
    topic: dict[str, str | int] = {"topics": "databases", "limit": 3}
    assert ok(call_sync(srv, "list_content", topic)) == (
        srv.client.get("/api/content", params=topic).json()
    )
    search = {"q": "table", "mode": "text", "type": "docs,blog", "domain": "postgresql.org"}
    got = ok(call_sync(srv, "search", search))
    assert got == srv.client.get("/api/search", params=search).json()
    assert got["filters"]["applied"]["type"] == ["docs", "blog"]
    facets = ok(call_sync(srv, "list_facets", {"domain": "postgresql.org"}))
    assert facets["filters"]["applied"] == {"domain": ["postgresql.org"]}
    bundle = {"domain": "postgresql.org", "limit": 2, "max_chars": 1_000_000}
    one = ok(call_sync(srv, "get_domain_markdown", {**bundle, "type": "docs,blog"}))
    other = ok(call_sync(srv, "get_domain_markdown", {**bundle, "type": ["docs", "blog"]}))
    assert without_stamp(one["markdown"]) == without_stamp(other["markdown"])


def test_argument_type_errors_are_problems(crawled: tuple[Running, dict[str, Any]]) -> None:
    """What the SDK's argument model rejects (wrong JSON type, missing argument) comes back as a
    problem document too, not as the SDK's plain text."""
    srv, _ = crawled
    got = problem_of(call_sync(srv, "list_content", {"limit": "abc"}), "limit")
    assert got == srv.client.get("/api/content", params={"limit": "abc"}).json()
    problem_of(call_sync(srv, "list_content", {"type": 5}), "type")
    problem_of(call_sync(srv, "list_content", {"type": ["docs", 5]}), "type")
    problem_of(call_sync(srv, "list_content", {"has_code": "maybe"}), "has_code")
    assert "is required" in problem_of(call_sync(srv, "get_page", {}), "page_id")["detail"]
    problem_of(call_sync(srv, "search", {}), "q")
    crawl = call_sync(srv, "start_crawl", {"domain": "example.org", "budget": "x"}, srv.auth)
    problem_of(crawl, "budget", "invalid_body")
    # several bad arguments: one entry each
    both = call_sync(srv, "list_content", {"limit": "abc", "offset": "def"})
    assert both.structured_content is not None
    assert [e["param"] for e in both.structured_content["errors"]] == ["limit", "offset"]


def test_get_page_and_markdown_match_http(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    listing = srv.client.get(
        "/api/content", params={"domain": "postgresql.org", "sort": "words", "limit": 3}
    ).json()
    page_id = listing["data"][0]["id"]
    assert (
        ok(call_sync(srv, "get_page", {"page_id": page_id}))
        == srv.client.get(f"/api/content/{page_id}").json()
    )
    slim = ok(call_sync(srv, "get_page", {"page_id": page_id, "markdown": False}))
    assert "markdown" not in slim
    assert slim == srv.client.get(f"/api/content/{page_id}", params={"markdown": "false"}).json()
    # ids work without their prefix, as on the HTTP API
    assert ok(call_sync(srv, "get_page", {"page_id": page_id[3:], "markdown": False}))["id"] == (
        page_id
    )

    md_http = srv.client.get(f"/api/content/{page_id}.md").text
    assert len(md_http) > 2000
    whole = call_sync(srv, "get_page_markdown", {"page_id": page_id, "max_chars": 1_000_000})
    part = ok(whole)
    assert part["markdown"] == md_http and part["truncated"] is False
    assert part["total_chars"] == len(md_http) and part["next_offset"] is None
    assert whole.content[0].text == md_http  # type: ignore[union-attr]

    cut = call_sync(srv, "get_page_markdown", {"page_id": page_id, "max_chars": 1000})
    first = ok(cut)
    assert first["truncated"] is True and 500 <= first["returned_chars"] <= 1000
    assert md_http.startswith(first["markdown"])
    assert "truncated" in cut.content[0].text  # type: ignore[union-attr]
    assert f"offset={first['next_offset']}" in cut.content[0].text  # type: ignore[union-attr]
    # paging with offset reassembles the document
    text, offset = "", 0
    while True:
        piece = ok(
            call_sync(
                srv, "get_page_markdown", {"page_id": page_id, "max_chars": 5000, "offset": offset}
            )
        )
        text += piece["markdown"]
        if not piece["truncated"]:
            break
        offset = piece["next_offset"]
    assert text == md_http


def test_page_errors_are_tool_errors(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    for tool in ("get_page", "get_page_markdown"):
        missing = call_sync(srv, tool, {"page_id": "pg_0000000000000000"})
        text = error_text(missing)
        assert text.startswith("not_found: page pg_0000000000000000 not found")
        assert "list_content" in text  # says where valid ids come from
        assert missing.structured_content is not None
        assert missing.structured_content["status"] == 404
    bad = call_sync(srv, "get_page_markdown", {"page_id": "pg_0000000000000000", "max_chars": 0})
    assert "max_chars" in error_text(bad)
    missing_arg = call_sync(srv, "get_page", {})
    assert "page_id" in error_text(missing_arg)


def test_get_job_matches_http(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, view = crawled
    got = ok(call_sync(srv, "get_job", {"job_id": view["id"]}))
    assert got == srv.client.get(f"/api/jobs/{view['id']}").json()
    assert_buckets_invariant(got)
    assert got["state"] in ("completed", "partial")
    assert ok(call_sync(srv, "get_job", {"job_id": view["id"][4:]}))["id"] == view["id"]
    missing = call_sync(srv, "get_job", {"job_id": "job_nope"})
    assert error_text(missing).startswith("not_found: job job_nope not found")


def test_search_matches_http(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    cases: tuple[tuple[dict[str, Any], dict[str, str | int]], ...] = (
        ({"q": "table", "limit": 5}, {"q": "table", "limit": 5}),
        (
            {"q": "index", "mode": "text", "domain": ["postgresql.org"], "limit": 3},
            {"q": "index", "mode": "text", "domain": "postgresql.org", "limit": 3},
        ),
    )
    for mcp_args, http_params in cases:
        got = ok(call_sync(srv, "search", mcp_args))
        want = srv.client.get("/api/search", params=http_params).json()
        assert got == want
        assert got["data"], "the crawl indexed pages mentioning the word"
    bad = call_sync(srv, "search", {"q": "x", "limit": 51})
    assert "limit" in error_text(bad)
    bad = call_sync(srv, "search", {"q": "x", "type": ["nonsense"]})
    assert "type" in error_text(bad)
    assert "q" in error_text(call_sync(srv, "search", {}))


def same_as_http(got: dict[str, Any], srv: Running, path: str, **params: Any) -> None:
    """Compare with the HTTP twin once its route is mounted (routes land in their own change)."""
    r = srv.client.get(path, params=params)
    if r.status_code == 404 and "no such endpoint" in r.text:
        return
    assert r.status_code == 200, r.text
    assert got == r.json()


def test_get_domain(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    got = ok(call_sync(srv, "get_domain", {"domain": "www.postgresql.org"}))
    assert got["domain"] == "postgresql.org"
    for section in ("coverage", "health", "properties", "sitemaps", "changes", "links_to"):
        assert section in got
    same_as_http(got, srv, "/api/domains/postgresql.org")
    missing = call_sync(srv, "get_domain", {"domain": "never-crawled.org"})
    assert error_text(missing).startswith("not_found: domain never-crawled.org")
    assert "domain" in error_text(call_sync(srv, "get_domain", {"domain": "http://x/"}))


def without_stamp(markdown: str) -> str:
    """The bundle's frontmatter carries its generation time; calls seconds apart differ there."""
    return re.sub(r"(?m)^generated_at: .*$", "", markdown)


def test_get_domain_markdown(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    args = {"domain": "postgresql.org", "limit": 5}
    whole = ok(call_sync(srv, "get_domain_markdown", {**args, "max_chars": 1_000_000}))
    text = without_stamp(whole["markdown"])
    assert text.startswith("---\n") and "pages_included: 5" in text
    assert whole["truncated"] is False and whole["domain"] == "postgresql.org"
    r = srv.client.get("/api/domains/postgresql.org/content.md", params={"limit": 5})
    if r.status_code == 200:
        assert without_stamp(r.text) == text
    cut = call_sync(srv, "get_domain_markdown", {**args, "max_chars": 2000})
    first = ok(cut)
    assert first["truncated"] is True and first["returned_chars"] <= 2000
    assert text.startswith(without_stamp(first["markdown"]))
    assert "call again with offset=" in cut.content[0].text  # type: ignore[union-attr]
    rest = ok(
        call_sync(
            srv,
            "get_domain_markdown",
            {**args, "max_chars": 1_000_000, "offset": first["next_offset"]},
        )
    )
    assert without_stamp(first["markdown"] + rest["markdown"]) == text
    bad = call_sync(srv, "get_domain_markdown", {"domain": "postgresql.org", "limit": 501})
    assert "limit" in error_text(bad)
    bad = call_sync(srv, "get_domain_markdown", {"domain": "nowhere.org"})
    assert error_text(bad).startswith("not_found:")


def test_collections_and_place_on_shelf(crawled: tuple[Running, dict[str, Any]]) -> None:
    from webcorpus.services import collections

    srv, _ = crawled
    collections.put_collection(srv.store, "databases", "Databases", "SQL engines")
    args = {"collection": "databases", "domain": "postgresql.org", "reason": "SQL database"}
    refused = call_sync(srv, "place_on_shelf", args)
    assert error_text(refused).startswith("unauthorized:")
    placed = ok(call_sync(srv, "place_on_shelf", args, srv.auth))
    assert placed["domain"] == "postgresql.org" and placed["placed_by"] == "agent"
    assert placed["reason"] == "SQL database"
    missing = call_sync(srv, "place_on_shelf", {**args, "collection": "nope"}, srv.auth)
    assert error_text(missing).startswith("not_found:")
    shelf = ok(call_sync(srv, "get_collection", {"slug": "databases"}))
    assert [(m["domain"], m["placed_by"]) for m in shelf["members"]] == [
        ("postgresql.org", "agent")
    ]
    same_as_http(shelf, srv, "/api/collections/databases")
    listed = ok(call_sync(srv, "list_collections", {}))
    assert "databases" in [c["slug"] for c in listed["data"]]
    same_as_http(listed, srv, "/api/collections")
    assert error_text(call_sync(srv, "get_collection", {"slug": "nope"})).startswith("not_found:")
    domain = ok(call_sync(srv, "get_domain", {"domain": "postgresql.org"}))
    assert "databases" in [c["slug"] for c in domain["collections"]]


def test_list_facets(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    got = ok(call_sync(srv, "list_facets", {"domain": ["postgresql.org"]}))
    assert got["pages"] >= 20 and got["filters"]["applied"] == {"domain": ["postgresql.org"]}
    facets = {f["facet"]: f for f in got["data"]}
    assert sum(v["pages"] for v in facets["type"]["values"]) == got["pages"]
    http = srv.client.get("/api/facets", params={"domain": "postgresql.org"})
    if http.status_code != 404:  # the HTTP twin is mounted by its own change
        assert got == http.json()
    assert "domain" in error_text(call_sync(srv, "list_facets", {"domain": ["not a domain"]}))


def test_start_crawl_needs_a_key(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    refused = call_sync(srv, "start_crawl", {"domain": "debian-handbook.info", "budget": 5})
    text = error_text(refused)
    assert text.startswith("unauthorized:")
    assert "Authorization: Bearer" in text
    assert refused.structured_content is not None
    assert refused.structured_content["status"] == 401
    refused = call_sync(
        srv, "place_on_shelf", {"collection": "x", "domain": "a.org", "reason": "r"}
    )
    assert error_text(refused).startswith("unauthorized:")
    # no job was created
    jobs = srv.client.get("/api/jobs", params={"domain": "debian-handbook.info"}).json()
    assert jobs["total"] == 0


def test_start_crawl_with_a_key(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    bad = call_sync(srv, "start_crawl", {"domain": "http://x/y", "budget": 5}, srv.auth)
    assert error_text(bad).startswith("invalid_body: domain")
    bad = call_sync(srv, "start_crawl", {"domain": "debian-handbook.info", "budget": 0}, srv.auth)
    assert "budget" in error_text(bad)
    started = ok(
        call_sync(srv, "start_crawl", {"domain": "debian-handbook.info", "budget": 5}, srv.auth)
    )
    assert started["job_id"].startswith("job_") and started["domain"] == "debian-handbook.info"
    assert started["state"] == "queued"
    again = call_sync(srv, "start_crawl", {"domain": "debian-handbook.info"}, srv.auth)
    assert error_text(again).startswith("conflict:")
    assert again.structured_content is not None
    assert again.structured_content["job_id"] == started["job_id"]
    view = srv.wait(started["job_id"], timeout=120)
    assert view["params"]["budget"] == 5
    assert view["coverage"]["buckets"]["indexed"]["count"] <= 5
    assert ok(call_sync(srv, "get_job", {"job_id": started["job_id"]}))["state"] == view["state"]


def test_wrong_key_is_refused_at_http_level(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    r = httpx.post(
        mcp_url(srv),
        json=INIT,
        headers={**MCP_HEADERS, "Authorization": "Bearer wck_wrong"},
    )
    assert r.status_code == 401
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "unauthorized"


def test_origin_validation(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    for origin in ("http://evil.example", "https://127.0.0.1.evil.example:8000", "null"):
        r = httpx.post(mcp_url(srv), json=INIT, headers={**MCP_HEADERS, "Origin": origin})
        assert r.status_code == 403, origin
        assert r.json()["code"] == "forbidden"
        assert "Origin" in r.json()["detail"]
    port = srv.base_url.rsplit(":", 1)[1]
    allowed: tuple[str | None, ...] = (
        None,
        f"http://127.0.0.1:{port}",
        "http://localhost:3000",
        "http://[::1]",
    )
    for allowed_origin in allowed:
        headers = dict(MCP_HEADERS)
        if allowed_origin:
            headers["Origin"] = allowed_origin
        r = httpx.post(mcp_url(srv), json=INIT, headers=headers)
        assert r.status_code == 200, (allowed_origin, r.text)
        assert r.json()["result"]["serverInfo"]["name"] == "webcorpus"
        assert r.headers.get("mcp-session-id")


def test_sessions_per_spec(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    with httpx.Client(timeout=30) as http:
        r = http.post(mcp_url(srv), json=INIT, headers=MCP_HEADERS)
        sid = r.headers["mcp-session-id"]
        version = r.json()["result"]["protocolVersion"]
        headers = {**MCP_HEADERS, "Mcp-Session-Id": sid, "MCP-Protocol-Version": version}
        r = http.post(
            mcp_url(srv),
            json={"jsonrpc": "2.0", "method": "notifications/initialized"},
            headers=headers,
        )
        assert r.status_code == 202
        r = http.post(
            mcp_url(srv),
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            headers=headers,
        )
        assert r.status_code == 200 and len(r.json()["result"]["tools"]) == 12
        # an unknown session id is a 404 (the client must start a new session)
        r = http.post(
            mcp_url(srv),
            json={"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
            headers={**headers, "Mcp-Session-Id": "not-a-session"},
        )
        assert r.status_code == 404
        # protocol misuse is a JSON-RPC error, not a tool result
        r = http.post(
            mcp_url(srv),
            json={"jsonrpc": "2.0", "id": 4, "method": "tools/nonsense"},
            headers=headers,
        )
        assert r.json()["error"]["code"] == -32601
        # the client ends its session with DELETE; the id is then unknown
        assert http.delete(mcp_url(srv), headers=headers).status_code in (200, 204)
        r = http.post(
            mcp_url(srv),
            json={"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
            headers=headers,
        )
        assert r.status_code == 404


def test_text_content_is_the_json(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    result = call_sync(srv, "list_content", {"limit": 2})
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]


def test_public_reads_off_needs_a_key(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, public_reads=False, embeddings=False)
    with run_server(settings, worker=False) as srv:
        r = httpx.post(mcp_url(srv), json=INIT, headers=MCP_HEADERS)
        assert r.status_code == 401
        result = call_sync(srv, "list_content", {"limit": 1}, srv.auth)
        assert ok(result)["total"] == 0
