"""Acceptance: on a local docs.python.org crawl, Sphinx navigation and footer links do not count.

Top pages by inlinks_body are pages body text actually cites, and no page's inlinks_body comes
near the site's page count (which is what counting template links would give the index, the
glossary or the "next/previous" targets).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer

pytestmark = pytest.mark.slow

_WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    # markdown emphasis / code markers around the anchor words do not matter
    return _WS.sub(" ", re.sub(r"[`*_\\]", "", text)).strip().casefold()


@pytest.fixture(scope="module")
def crawled(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, dict[str, Any]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("cite"), connect_to=nginx_server.connect_to(refuse_https=True)
    )
    with run_server(settings) as srv:
        view = srv.wait(srv.crawl("docs.python.org", budget=150))
        yield srv, view


def test_no_page_is_cited_by_nearly_every_page(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, view = crawled
    indexed = view["coverage"]["buckets"]["indexed"]["count"]
    assert indexed >= 100, view["coverage"]
    body = srv.client.get("/api/content", params={"sort": "cited", "limit": 20}).json()
    assert body["sort"] == "cited"
    top = body["data"]
    counts = [p["metrics"]["inlinks_body"] for p in top]
    assert counts == sorted(counts, reverse=True)
    assert counts[0] > 0, "no body citations at all"
    for p in top:
        assert p["metrics"]["inlinks_body"] < 0.9 * indexed, (p["url"], p["metrics"], indexed)


def test_top_page_is_cited_from_body_text(crawled: tuple[Running, dict[str, Any]]) -> None:
    srv, _ = crawled
    top = srv.client.get("/api/content", params={"sort": "cited", "limit": 1}).json()["data"][0]
    page = srv.client.get(f"/api/content/{top['id']}", params={"markdown": "false"}).json()
    cited_by = page["cited_by"]
    assert len(cited_by) == page["metrics"]["inlinks_body"] == top["metrics"]["inlinks_body"]
    assert len({c["id"] for c in cited_by}) == len(cited_by)  # distinct pages
    for c in cited_by:
        assert c["id"] != top["id"]
        anchor = _norm(c["anchor_text"])
        assert anchor, c
        citing = srv.client.get(f"/api/content/{c['id']}").json()
        body = _norm(citing["markdown"])
        assert anchor in body, (c["url"], c["anchor_text"])
