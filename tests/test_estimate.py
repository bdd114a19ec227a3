"""The page-count estimate: the statistics, and the range on real crawls of the PostgreSQL docs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server import make_settings, run_server
from tests.sites.docsites import DocSites
from tests.sites.nginx import RunningServer
from webcorpus.services import estimate
from webcorpus.services.domains import page_estimate


def test_wilson_interval() -> None:
    assert estimate.wilson(0, 0) == (0.0, 1.0)
    low, high = estimate.wilson(50, 50)
    assert 0.92 < low < 0.94 and high == 1.0
    low, high = estimate.wilson(5, 10)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-9


def test_chapman_and_chao2() -> None:
    n_hat, low, high = estimate.chapman(100, 100, 50)
    assert round(n_hat, 3) == round(101 * 101 / 51 - 1, 3)
    assert 150 <= low < n_hat < high
    # identical captures: the population is what both saw
    n_hat, low, high = estimate.chapman(30, 30, 30)
    assert n_hat == low == high == 30
    assert estimate.chao2(40, 0, 5, 10) == (40.0, 40.0, 40.0)
    n_hat, low, high = estimate.chao2(40, 10, 5, 10)
    assert round(n_hat, 3) == round(40 + 0.9 * 100 / 10, 3)
    assert 40 <= low < n_hat < high


def test_poisson_rate_bound() -> None:
    assert estimate.poisson_rate_high(0, 12) > 0  # no new URL seen is not proof of none
    for count, pages in ((6, 12), (60, 120), (600, 1200)):
        assert estimate.poisson_rate_high(count, pages) > count / pages
    # the bound tightens as the evidence grows
    widths = [estimate.poisson_rate_high(n, 2 * n) - 0.5 for n in (6, 60, 600)]
    assert widths == sorted(widths, reverse=True) and widths[-1] < 0.1


@pytest.fixture(scope="module")
def crawls(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[int, dict[str, Any]]]:
    """Fresh crawls of the PostgreSQL docs with budgets 50 and 200, each on its own store."""
    out: dict[int, dict[str, Any]] = {}
    servers = []
    for budget in (50, 200):
        settings = make_settings(
            tmp_path_factory.mktemp(f"est{budget}"),
            connect_to=nginx_server.connect_to(refuse_https=True),
            embeddings=False,
        )
        ctx = run_server(settings)
        srv = ctx.__enter__()
        servers.append(ctx)
        view = srv.wait(srv.crawl("postgresql.org", budget=budget))
        rec = srv.client.get("/api/domains/postgresql.org").json()
        out[budget] = {"srv": srv, "job": view, "record": rec}
    try:
        yield out
    finally:
        for ctx in reversed(servers):
            ctx.__exit__(None, None, None)


@pytest.mark.slow
def test_range_covers_the_true_count_and_narrows(
    crawls: dict[int, dict[str, Any]], doc_sites: DocSites
) -> None:
    true = len(doc_sites.postgres.allowed_pages)  # 1,168 HTML pages in 15.18, none robots-excluded
    widths = []
    for budget in (50, 200):
        est = crawls[budget]["record"]["coverage"]["estimate"]
        print(f"budget {budget}: true {true}, estimate {est}")
        assert est["low"] <= true <= est["high"], (budget, est)
        assert est["low"] < est["high"]
        assert est["confidence"] >= 0.8
        assert "Chapman" in est["method"]
        widths.append(est["high"] - est["low"])
    assert widths[1] < widths[0]


@pytest.mark.slow
def test_links_alone_still_cover_the_true_count(
    crawls: dict[int, dict[str, Any]], doc_sites: DocSites
) -> None:
    """Without sitemap evidence (a site with no sitemap) the range is wider, still honest."""
    true = len(doc_sites.postgres.allowed_pages)
    for budget in (50, 200):
        srv, job = crawls[budget]["srv"], crawls[budget]["job"]
        rows = srv.store.estimate_rows(job["id"])
        linked = {t for t, _n, _first in rows["links"]}
        pages = {"indexed", "unchanged"}
        ledger = [
            (url, "link", bucket)
            for url, source, bucket in rows["ledger"]
            if url in linked or source != "sitemap" or bucket in pages
        ]
        no_sitemap = {**rows, "ledger": ledger, "evidence": []}  # the crawler's flags too
        found = estimate.estimate(estimate.gather(no_sitemap))["estimate"]
        print(f"budget {budget} links only: true {true}, estimate {found}")
        assert found["low"] <= true <= found["high"], (budget, found)
        assert "Chao2" in found["method"] and found["confidence"] <= 0.8


@pytest.mark.slow
def test_recorded_discovery_flags_give_the_same_answer(
    crawls: dict[int, dict[str, Any]],
) -> None:
    """The crawler's own sitemap/link flags (job_url_evidence) replace the ledger fallback."""
    srv, job = crawls[200]["srv"], crawls[200]["job"]
    before = page_estimate(srv.store, job["id"])
    rows = srv.store.estimate_rows(job["id"])
    srv.store.record_discovery(
        job["id"], [u for u, source, _b in rows["ledger"] if source == "sitemap"], "sitemap"
    )
    srv.store.record_discovery(job["id"], [t for t, _n, _f in rows["links"]], "link")
    srv.store.record_discovery(job["id"], [t for t, _n, _f in rows["links"]][:5], "link")
    after = page_estimate(srv.store, job["id"])
    assert after["evidence"]["sitemap_urls"] == before["evidence"]["sitemap_urls"]
    assert after["evidence"]["sitemap_and_linked"] == before["evidence"]["sitemap_and_linked"]
    assert after["estimate"] == before["estimate"]
