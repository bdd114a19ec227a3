"""GET /api/facets against a real server holding a small real crawl; has_code and originality."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer
from webcorpus.facets import (
    AUDIENCES,
    FORMATS,
    TOPICS,
    TYPES,
    SimhashIndex,
    has_code,
    max_similarity,
    originality_from,
    simhash64,
    similarity,
)


@pytest.fixture(scope="module")
def srv(nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    settings = make_settings(
        tmp_path_factory.mktemp("facets"), connect_to=nginx_server.connect_to(refuse_https=True)
    )
    with run_server(settings) as running:
        view = running.wait(running.crawl("postgresql.org", budget=30))
        assert view["state"] in ("completed", "partial")
        now = datetime.now(UTC).isoformat()
        running.store.put_collection("empty-shelf", "Empty", "", now)
        yield running


def pages_of(srv: Running, **params: Any) -> list[dict[str, Any]]:
    body = srv.client.get("/api/content", params={**params, "limit": 100}).json()
    assert body["total"] <= 100
    return list(body["data"])


def by_facet(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["facet"]: f for f in body["data"]}


@pytest.mark.slow
def test_every_vocabulary_with_counts_that_match_the_pages(srv: Running) -> None:
    r = srv.client.get("/api/facets")
    assert r.status_code == 200
    body = r.json()
    assert body["filters"] == {"applied": {}, "unrecognized": []}
    facets = by_facet(body)
    pages = pages_of(srv)
    assert body["pages"] == len(pages) > 0
    for name, vocab in (
        ("type", TYPES),
        ("format", FORMATS),
        ("audience", AUDIENCES),
        ("topics", TOPICS),
    ):
        values = facets[name]["values"]
        assert [v["value"] for v in values] == list(vocab)  # every value, even with 0 pages
        assert all(v["definition"] == vocab[v["value"]] for v in values)
        if name == "topics":
            expected = Counter(t for p in pages for t in p["facets"]["topics"])
        else:
            expected = Counter(p["facets"][name] for p in pages)
        assert {v["value"]: v["pages"] for v in values if v["pages"]} == dict(expected)
    locales = {v["value"]: v["pages"] for v in facets["locale"]["values"]}
    assert locales == dict(Counter(p["facets"]["locale"] for p in pages))
    code = {v["value"]: v["pages"] for v in facets["has_code"]["values"]}
    assert code == {
        True: sum(p["facets"]["has_code"] for p in pages),
        False: sum(not p["facets"]["has_code"] for p in pages),
    }
    for score in ("technicality", "depth", "originality", "promotional"):
        assert facets[score]["kind"] == "score"
    assert facets["promotional"]["param"] == "promotional_max"


@pytest.mark.slow
def test_filters_domain_collection_and_unrecognized(srv: Running) -> None:
    body = srv.client.get("/api/facets", params={"domain": "postgresql.org", "typo": "1"}).json()
    assert body["filters"] == {"applied": {"domain": ["postgresql.org"]}, "unrecognized": ["typo"]}
    assert body["pages"] == len(pages_of(srv, domain="postgresql.org"))
    other = srv.client.get("/api/facets", params={"domain": "example.com"}).json()
    assert other["pages"] == 0
    assert all(v["pages"] == 0 for v in by_facet(other)["type"]["values"])
    shelf = srv.client.get("/api/facets", params={"collection": "empty-shelf"}).json()
    assert shelf["filters"]["applied"] == {"collection": "empty-shelf"} and shelf["pages"] == 0
    bad = srv.client.get("/api/facets", params={"domain": "not a domain"})
    assert bad.status_code == 400
    assert bad.headers["content-type"].startswith("application/problem+json")


@pytest.mark.slow
def test_domain_simhashes(srv: Running) -> None:
    rows = srv.store.domain_simhashes("postgresql.org")
    ids = {p["id"] for p in pages_of(srv, domain="postgresql.org")}
    assert {pid for pid, _ in rows} <= ids and len(rows) >= 0.9 * len(ids)
    assert all(-(1 << 63) <= h < (1 << 63) for _, h in rows)
    assert srv.store.domain_simhashes("example.com") == []


def test_has_code_definition() -> None:
    assert has_code("Run:\n\n```sh\npip install webcorpus\n```\n")[0]
    assert has_code("- step\n\n  ```\n  SELECT 1;\n  ```\n")[0]  # indented inside a list
    assert has_code("`$` **`diff -u a b >p`**\n")[0]  # a <pre> of commands flattened inline
    assert not has_code("Use `chown` and `chmod`, set `DATABASE_URL` and `--role`.")[0]
    assert not has_code("```\nRoses are red and violets are blue\n```\n")[0]
    assert not has_code("plain prose only")[0]


def test_originality_from() -> None:
    text = "the quick brown fox jumps over the lazy dog and runs far away " * 20
    a, b = simhash64(text), simhash64(text + " one more sentence at the end")
    other = simhash64("completely different words about databases and indexes " * 20)
    sim = max_similarity(a, [b, other, None])
    assert sim > 0.9
    assert max_similarity(a, []) == 0.0 and max_similarity(None, [b]) == 0.0
    assert originality_from(0.0, sim) < 0.5  # a near-duplicate
    assert originality_from(0.0, max_similarity(a, [other])) == 1.0  # unique


def test_simhash_index_answers_like_pairwise_similarity() -> None:
    """The crawl's per-domain index: the nearest other page, never the page itself, pages
    without a SimHash skipped, a re-fetched page's new SimHash replacing its old one."""
    rng = random.Random(7)
    hashes = {f"p{i}": rng.getrandbits(64) - (1 << 63) for i in range(600)}  # grows past 256
    index = SimhashIndex(hashes.items())
    index.set("empty", None)
    assert len(index) == 601
    for probe in ("p0", "p299", "p599"):
        mine = hashes[probe]
        expected = max(similarity(mine, h) for p, h in hashes.items() if p != probe)
        assert index.max_similarity(mine, exclude=probe) == expected
        assert index.max_similarity(mine) == 1.0  # itself
    assert index.max_similarity(None) == 0.0
    index.set("p5", hashes["p7"] ^ 1)  # p5 re-fetched: now one bit from p7
    assert index.max_similarity(hashes["p7"], exclude="p7") == 63 / 64
    assert SimhashIndex([("only", 5)]).max_similarity(5, exclude="only") == 0.0
    assert SimhashIndex([("none", None)]).max_similarity(5) == 0.0
    assert originality_from(0.5, 0.0) == pytest.approx(0.6)  # boilerplate-heavy
    assert originality_from(0.0, 0.0, words=20) < 0.5  # too short to be original
