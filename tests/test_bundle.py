"""GET /api/domains/<root_domain>/content.md: a streamed markdown bundle that forms a tree."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer
from webcorpus.services.bundle import demote_headings, domain_markdown_text

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, line) of every ATX heading outside fenced code."""
    out, fence = [], None
    for line in markdown.split("\n"):
        m = FENCE.match(line)
        if fence:
            if m and line.strip().startswith(fence) and set(line.strip()) == {fence[0]}:
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = HEADING.match(line)
        if h:
            out.append((len(h.group(1)), line))
    return out


def fenced_blocks(markdown: str) -> list[str]:
    blocks, current, fence = [], [], None
    for line in markdown.split("\n"):
        if fence:
            current.append(line)
            if line.strip().startswith(fence) and set(line.strip()) == {fence[0]}:
                blocks.append("\n".join(current))
                current, fence = [], None
            continue
        m = FENCE.match(line)
        if m:
            fence, current = m.group(1), [line]
    return blocks


def test_demote_headings_leaves_code_alone() -> None:
    md = (
        "# Title\n\ntext\n\n## Part\n\n```sh\n# a shell comment\n## not a heading\n```\n\n"
        "~~~~\n# tilde fence\n```\n~~~~\n\n    # indented code\n\nSetext\n======\n\n"
        "Sub\n---\n\n###### Deep\n\n#hashtag is text\n"
    )
    out = demote_headings(md)
    assert [lvl for lvl, _ in headings(out)] == [2, 3, 2, 3, 6]
    assert "```sh\n# a shell comment\n## not a heading\n```" in out
    assert "~~~~\n# tilde fence\n```\n~~~~" in out
    assert "    # indented code" in out
    assert "## Setext" in out and "### Sub" in out
    assert "#hashtag is text" in out
    # an unclosed fence is closed so it cannot swallow the next page
    assert demote_headings("```\n# code").endswith("```")


@pytest.fixture(scope="module")
def srv(nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    settings = make_settings(
        tmp_path_factory.mktemp("bundle"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
    )
    with run_server(settings) as running:
        running.wait(running.crawl("postgresql.org", budget=80))
        yield running


def parse_bundle(text: str) -> tuple[dict[str, Any], list[tuple[str, str]], str]:
    assert text.startswith("---\n")
    _, front, rest = text.split("---\n", 2)
    meta = yaml.safe_load(front)
    body, closing = rest.rsplit("\n---\n", 1)
    pages: list[tuple[str, str]] = []
    # split on level-1 headings outside code
    current: list[str] = []
    title = None
    fence = None
    for line in body.split("\n"):
        m = FENCE.match(line)
        if fence:
            if m and line.strip().startswith(fence) and set(line.strip()) == {fence[0]}:
                fence = None
        elif m:
            fence = m.group(1)
        elif line.startswith("# "):
            if title is not None:
                pages.append((title, "\n".join(current)))
            title, current = line[2:], []
            continue
        current.append(line)
    if title is not None:
        pages.append((title, "\n".join(current)))
    return meta, pages, closing


@pytest.mark.slow
def test_bundle_is_a_tree_with_counts(srv: Running) -> None:
    r = srv.client.get("/api/domains/postgresql.org/content.md", params={"limit": 30})
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/markdown; charset=utf-8"
    assert r.headers.get("transfer-encoding") == "chunked"  # streamed, not built in memory
    meta, pages, closing = parse_bundle(r.text)
    total = srv.client.get("/api/content", params={"domain": "postgresql.org"}).json()["total"]
    assert meta["domain"] == "postgresql.org"
    assert meta["pages_included"] == 30 == len(pages)
    assert meta["pages_left_out"] == total - 30 > 0
    assert meta["filters"] == {"limit": 30}
    assert f"pages_left_out: {total - 30}" in closing
    listing = srv.client.get(
        "/api/content", params={"domain": "postgresql.org", "sort": "cited", "limit": 30}
    ).json()["data"]
    code_pages = 0
    for (title, body), page in zip(pages, listing, strict=True):
        assert f"Source: <{page['url']}>" in body
        assert title == " ".join((page["title"] or page["url"]).split())
        levels = [lvl for lvl, _ in headings(body)]
        assert all(lvl >= 2 for lvl in levels), (page["url"], levels)
        original = srv.client.get(f"/api/content/{page['id']}").json()["markdown"]
        orig_levels = [lvl for lvl, _ in headings(original)]
        assert levels == [min(6, lvl + 1) for lvl in orig_levels]
        blocks = fenced_blocks(original)
        code_pages += any("#" in b for b in blocks)
        for block in blocks:
            assert block in body  # code untouched
    assert code_pages, "expected some code blocks with # inside among the pages"


@pytest.mark.slow
def test_bundle_filters_and_errors(srv: Running) -> None:
    url = "/api/domains/postgresql.org/content.md"
    r = srv.client.get(url, params={"type": "docs,homepage", "technicality_min": 0.3})
    assert r.status_code == 200
    meta, pages, _ = parse_bundle(r.text)
    assert meta["filters"] == {"limit": 100, "type": ["docs", "homepage"], "technicality_min": 0.3}
    expected = srv.client.get(
        "/api/content",
        params={"domain": "postgresql.org", "type": "docs,homepage", "technicality_min": 0.3},
    ).json()["total"]
    assert meta["pages_included"] + meta["pages_left_out"] == expected
    assert len(pages) == meta["pages_included"]
    for params in ({"limit": 0}, {"limit": 501}, {"type": "nonsense"}, {"technicality_min": 2}):
        r = srv.client.get(url, params=params)
        assert r.status_code == 400, (params, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    assert srv.client.get("/api/domains/python.org/content.md").status_code == 404
    assert srv.client.get("/api/domains/127.0.0.1/content.md").status_code == 400


@pytest.mark.slow
def test_bundle_text_truncates_whole_pages(srv: Running) -> None:
    full = domain_markdown_text(srv.store, "postgresql.org", limit=10)
    short = domain_markdown_text(srv.store, "postgresql.org", limit=10, max_chars=len(full) // 3)
    meta, pages, closing = parse_bundle(short)
    total = meta["pages_included"] + meta["pages_left_out"]
    assert 1 <= meta["pages_included"] < 10 and len(pages) == meta["pages_included"]
    assert (
        total == parse_bundle(full)[0]["pages_included"] + parse_bundle(full)[0]["pages_left_out"]
    )
    assert meta["filters"]["max_chars"] == len(full) // 3
    assert f"pages_left_out: {meta['pages_left_out']}" in closing
