"""Every filter and sort of GET /api/content, against a real server holding crawled real pages.

The expected result of each filter is computed from the facet values the API itself returns for
every page (never from hard-coded expectations): a filter must return exactly the pages whose
facets satisfy it, and report itself in ``filters.applied``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer

pytestmark = pytest.mark.slow

Page = dict[str, Any]


@pytest.fixture(scope="module")
def corpus(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Running, list[Page]]]:
    settings = make_settings(
        tmp_path_factory.mktemp("filters"), connect_to=nginx_server.connect_to(refuse_https=True)
    )
    with run_server(settings) as srv:
        for domain, budget in (("debian-handbook.info", 120), ("postgresql.org", 60)):
            view = srv.wait(srv.crawl(domain, budget=budget))
            assert view["state"] in ("completed", "partial"), view
        now = datetime.now(UTC).isoformat()
        srv.store.put_collection("docs-shelf", "Docs", "test shelf", now)
        srv.store.put_member("docs-shelf", "postgresql.org", "database docs", "person", now)
        yield srv, fetch_all(srv, {})


def fetch_all(srv: Running, params: dict[str, Any], limit: int = 100) -> list[Page]:
    out: list[Page] = []
    offset = 0
    while True:
        r = srv.client.get("/api/content", params={**params, "limit": limit, "offset": offset})
        assert r.status_code == 200, r.text
        body = r.json()
        out.extend(body["data"])
        offset += limit
        if offset >= body["total"]:
            assert len(out) == body["total"]
            return out


def ids(pages: list[Page]) -> set[str]:
    return {p["id"] for p in pages}


def median(values: list[Any]) -> Any:
    return sorted(values)[len(values) // 2]


def facet_in(facet: str, *values: Any) -> Callable[[Page], bool]:
    """Keeps the pages whose ``facet`` equals one of ``values``."""
    return lambda p: any(p["facets"][facet] == v for v in values)


def check(
    srv: Running,
    everything: list[Page],
    params: dict[str, Any],
    keep: Callable[[Page], bool],
    applied: dict[str, Any],
    *,
    narrows: bool = True,
) -> list[Page]:
    first = srv.client.get("/api/content", params={**params, "limit": 5}).json()
    assert first["filters"]["applied"] == applied, first["filters"]
    assert first["filters"]["unrecognized"] == []
    got = fetch_all(srv, params)
    expected = {p["id"] for p in everything if keep(p)}
    assert ids(got) == expected, (params, len(got), len(expected))
    if narrows:
        assert 0 < len(got) < len(everything), (params, len(got))
    return got


def test_corpus_has_several_languages_and_both_sites(corpus: tuple[Running, list[Page]]) -> None:
    _, everything = corpus
    assert {p["domain"] for p in everything} == {"debian-handbook.info", "postgresql.org"}
    langs = {p["facets"]["locale"].split("-")[0] for p in everything if p["facets"]["locale"]}
    assert len(langs) >= 3, langs


def test_vocabulary_filters(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    for facet in ("type", "format", "audience"):
        counts = Counter(p["facets"][facet] for p in everything)
        value = counts.most_common()[-1][0] if len(counts) > 1 else counts.most_common(1)[0][0]
        check(
            srv,
            everything,
            {facet: value},
            facet_in(facet, value),
            {facet: [value]},
            narrows=len(counts) > 1,
        )
        if len(counts) > 2:  # a comma list means any of
            a, b = (v for v, _ in counts.most_common()[-2:])
            check(
                srv,
                everything,
                {facet: f"{a},{b}"},
                facet_in(facet, a, b),
                {facet: [a, b]},
            )


def test_locale_prefix_matches_regions(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    regional = Counter(
        p["facets"]["locale"] for p in everything if "-" in (p["facets"]["locale"] or "")
    )
    non_en = [loc for loc in regional if not loc.startswith("en")]
    assert non_en, regional
    lang = non_en[0].split("-")[0].lower()
    got = check(
        srv,
        everything,
        {"locale": lang},
        lambda p: (p["facets"]["locale"] or "").lower().split("-")[0] == lang,
        {"locale": [lang]},
    )
    assert any("-" in p["facets"]["locale"] for p in got)  # "de" matched "de-DE"
    exact = non_en[0]
    check(
        srv,
        everything,
        {"locale": exact},
        lambda p: (p["facets"]["locale"] or "").lower() == exact.lower(),
        {"locale": [exact]},  # echoed as pages write it
    )
    check(  # matching ignores case
        srv,
        everything,
        {"locale": exact.lower()},
        lambda p: (p["facets"]["locale"] or "").lower() == exact.lower(),
        {"locale": [exact]},
    )


def test_topics_filter(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    counts = Counter(t for p in everything for t in p["facets"]["topics"])
    assert counts, "no page got a topic"
    topic = counts.most_common(1)[0][0]
    check(
        srv,
        everything,
        {"topics": topic},
        lambda p: topic in p["facets"]["topics"],
        {"topics": [topic]},
    )
    if len(counts) > 1:
        a, b = (t for t, _ in counts.most_common(2))
        check(
            srv,
            everything,
            {"topics": f"{a},{b}"},
            lambda p: bool({a, b} & set(p["facets"]["topics"])),
            {"topics": [a, b]},
        )


@pytest.mark.parametrize(
    ("param", "facet", "op"),
    [
        ("technicality_min", "technicality", ">="),
        ("depth_min", "depth", ">="),
        ("originality_min", "originality", ">="),
        ("promotional_max", "promotional", "<="),
        ("words_min", "words", ">="),
    ],
)
def test_threshold_filters(
    corpus: tuple[Running, list[Page]], param: str, facet: str, op: str
) -> None:
    srv, everything = corpus
    values = sorted({p["facets"][facet] for p in everything})
    assert len(values) > 2, (facet, values)
    value = median(values)

    def keep(p: Page) -> bool:
        v = p["facets"][facet]
        return bool(v >= value if op == ">=" else v <= value)

    check(srv, everything, {param: value}, keep, {param: value})


def test_has_code_filter(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    for flag in (True, False):
        check(
            srv,
            everything,
            {"has_code": str(flag).lower()},
            facet_in("has_code", flag),
            {"has_code": flag},
        )


def test_published_after(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    dates = sorted({p["facets"]["published"] for p in everything if p["facets"]["published"]})
    value = median(dates) if dates else "2000-01-01"
    check(
        srv,
        everything,
        {"published_after": value},
        lambda p: bool(p["facets"]["published"]) and p["facets"]["published"] > value,
        {"published_after": value},
        narrows=len(dates) > 1,
    )
    # A time: pages carry only a date, so those published on its day (UTC) may be after it and
    # are kept; the filter shows the time in UTC.
    on_or_after = sum(1 for p in everything if (p["facets"]["published"] or "") >= value)
    r = srv.client.get("/api/content", params={"published_after": f"{value}T10:00:00Z"}).json()
    assert r["filters"]["applied"] == {"published_after": f"{value}T10:00:00Z"}
    assert r["total"] == on_or_after
    day_before = (date.fromisoformat(value) - timedelta(days=1)).isoformat()
    r = srv.client.get("/api/content", params={"published_after": f"{value}T01:00:00+05:00"}).json()
    assert r["filters"]["applied"] == {"published_after": f"{day_before}T20:00:00Z"}
    assert r["total"] == sum(
        1 for p in everything if (p["facets"]["published"] or "") >= day_before
    )
    r = srv.client.get("/api/content", params={"published_after": f"{value}T10:00:00"})
    assert r.status_code == 400  # a time without its offset is ambiguous


def test_domain_and_collection(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    check(
        srv,
        everything,
        {"domain": "postgresql.org"},
        lambda p: p["domain"] == "postgresql.org",
        {"domain": ["postgresql.org"]},
    )
    check(
        srv,
        everything,
        {"domain": "postgresql.org,debian-handbook.info"},
        lambda p: True,
        {"domain": ["postgresql.org", "debian-handbook.info"]},
        narrows=False,
    )
    check(
        srv,
        everything,
        {"collection": "docs-shelf"},
        lambda p: p["domain"] == "postgresql.org",
        {"collection": "docs-shelf"},
    )


def test_combined_filters_intersect(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    words = median([p["facets"]["words"] for p in everything])
    check(
        srv,
        everything,
        {"domain": "debian-handbook.info", "has_code": "true", "words_min": words},
        lambda p: (
            p["domain"] == "debian-handbook.info"
            and p["facets"]["has_code"]
            and p["facets"]["words"] >= words
        ),
        {"domain": ["debian-handbook.info"], "has_code": True, "words_min": words},
    )


def test_q_full_text(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    body = srv.client.get("/api/content", params={"q": "vacuum", "limit": 100}).json()
    assert body["filters"]["applied"] == {"q": "vacuum"}
    assert body["sort"] == "relevance"
    assert 0 < body["total"] < len(everything)
    for item in body["data"][:8]:
        page = srv.client.get(f"/api/content/{item['id']}").json()
        assert "vacuum" in (page["title"] + " " + page["markdown"]).lower(), item["url"]
    narrowed = srv.client.get(
        "/api/content", params={"q": "vacuum", "domain": "debian-handbook.info", "limit": 100}
    ).json()
    assert {p["id"] for p in narrowed["data"]} == {
        p["id"] for p in body["data"] if p["domain"] == "debian-handbook.info"
    }


SORT_KEYS: dict[str, tuple[Callable[[Page], Any], bool]] = {
    # key, descending
    "cited": (lambda p: p["metrics"]["inlinks_body"], True),
    "words": (lambda p: p["facets"]["words"], True),
    "technicality": (lambda p: p["facets"]["technicality"], True),
    "depth": (lambda p: p["facets"]["depth"], True),
    "originality": (lambda p: p["facets"]["originality"], True),
    "promotional": (lambda p: p["facets"]["promotional"], False),
    "indexed": (lambda p: p["indexed_at"], True),
}


@pytest.mark.parametrize("sort", [*SORT_KEYS, "published"])
def test_sorts_are_ordered_with_stable_ties_and_paging(
    corpus: tuple[Running, list[Page]], sort: str
) -> None:
    srv, everything = corpus
    full = fetch_all(srv, {"sort": sort})
    assert ids(full) == ids(everything)
    if sort == "published":
        # newest first, undated last, ties on id
        dated = [p for p in full if p["facets"]["published"]]
        assert full[: len(dated)] == dated
        expected = sorted(dated, key=lambda p: p["id"])
        expected.sort(key=lambda p: p["facets"]["published"], reverse=True)
        expected += sorted((p for p in full if not p["facets"]["published"]), key=lambda p: p["id"])
    else:
        key, desc = SORT_KEYS[sort]
        expected = sorted(full, key=lambda p: p["id"])
        expected.sort(key=key, reverse=desc)  # stable: ties stay in id order
    assert [p["id"] for p in full] == [p["id"] for p in expected]
    # small pages concatenate to the same order
    paged = fetch_all(srv, {"sort": sort}, limit=7)
    assert [p["id"] for p in paged] == [p["id"] for p in full]
    body = srv.client.get("/api/content", params={"sort": sort, "limit": 3, "offset": 5}).json()
    assert body["sort"] == sort and body["limit"] == 3 and body["offset"] == 5
    assert [p["id"] for p in body["data"]] == [p["id"] for p in full[5:8]]


def test_default_sort_is_cited(corpus: tuple[Running, list[Page]]) -> None:
    srv, _ = corpus
    body = srv.client.get("/api/content").json()
    assert body["sort"] == "cited"
    assert body["filters"] == {"applied": {}, "unrecognized": []}


def test_misspelled_filter_is_reported_not_applied(corpus: tuple[Running, list[Page]]) -> None:
    srv, everything = corpus
    body = srv.client.get(
        "/api/content", params={"tecnicality_min": "0.9", "domian": "postgresql.org"}
    ).json()
    assert body["filters"]["unrecognized"] == ["domian", "tecnicality_min"]
    assert body["filters"]["applied"] == {}
    assert body["total"] == len(everything)


def test_bad_values_are_400(corpus: tuple[Running, list[Page]]) -> None:
    srv, _ = corpus
    for params in (
        {"type": "bogus"},
        {"technicality_min": "2"},
        {"has_code": "maybe"},
        {"published_after": "yesterday"},
        {"sort": "nope"},
        {"locale": "not a tag"},
    ):
        r = srv.client.get("/api/content", params=params)
        assert r.status_code == 400, (params, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
