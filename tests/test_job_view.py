"""The job view's coverage and progress figures, checked against the ledger itself."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from tests.server import make_settings
from webcorpus.services import jobs
from webcorpus.services.crawls import parse_crawl_body, start_crawl
from webcorpus.store import Store, open_store
from webcorpus.store.models import JobRecord, UrlEntry

Row = tuple[str, str, str | None, int | None]  # url, bucket, reason, HTTP status
REASONS = ["depth > 30", "query parameters > 8", "repeated path segment", "off-scope", "long"]


@pytest.fixture
def ledger(
    tmp_path: Path,
) -> tuple[Store, JobRecord, list[Row]]:
    """A job with 3,000 URLs spread over buckets through the store's own ledger calls."""
    settings = make_settings(tmp_path)
    store = open_store(settings)
    job = start_crawl(store, parse_crawl_body({"domain": "example.com"}, settings), None)
    urls = [f"https://example.com/p/{i}" for i in range(3000)]
    store.add_urls(job.id, [UrlEntry(url=u) for u in urls])
    rng = random.Random(7)
    rows: list[Row] = []
    for url in rng.sample(urls, len(urls)):  # updated in a random order: samples are by age
        r = rng.random()
        if r < 0.2:
            row: Row = (url, "indexed", None, 200)
        elif r < 0.3:
            row = (url, "pending", None, None)
        elif r < 0.35:
            row = (url, "clientError", rng.choice(["HTTP 404", "HTTP 410"]), 404)
        else:
            row = (url, "filtered", rng.choices(REASONS, weights=[5, 4, 3, 2, 1])[0], None)
        store.set_url(job.id, row[0], row[1], row[2], http_status=row[3])
        rows.append(row)
    return store, job, rows


def test_coverage_matches_the_ledger(
    ledger: tuple[Store, JobRecord, list[Row]],
) -> None:
    store, job, rows = ledger
    view = jobs.job_view(store, jobs.get_job(store, job.id))
    cov = view["coverage"]
    counts = Counter(bucket for _, bucket, _, _ in rows)
    assert cov["total"] == len(rows)
    for bucket, n in counts.items():
        assert cov["buckets"][bucket]["count"] == n
        oldest = [url for url, b, _, _ in rows if b == bucket][:10]
        assert cov["buckets"][bucket]["sample"] == oldest, bucket
    reasons = Counter(reason for _, b, reason, _ in rows if b == "filtered")
    assert cov["buckets"]["filtered"]["reasons"] == [
        {"reason": r, "count": n} for r, n in reasons.most_common(5)
    ]
    assert "reasons" not in cov["buckets"]["indexed"]
    assert cov["buckets"]["unaccounted"]["count"] == 0
    fetched = sum(1 for *_, status in rows if status is not None)
    assert view["progress"]["fetched"] == fetched


def test_a_row_in_no_bucket_is_counted_and_listed(
    ledger: tuple[Store, JobRecord, list[Row]],
) -> None:
    """Nothing in the code writes such a row; if anything ever did, the view must show it."""
    store, job, rows = ledger
    stray = rows[0][0]
    with store.tx() as conn:
        conn.execute(
            "UPDATE job_urls SET bucket = 'limbo' WHERE job_id = ? AND url = ?", (job.id, stray)
        )
    view = jobs.job_view(store, jobs.get_job(store, job.id))
    buckets = view["coverage"]["buckets"]
    assert buckets["unaccounted"]["count"] == 1
    assert view["coverage"]["total"] == len(rows)
    assert sum(b["count"] for b in buckets.values()) == len(rows)
    listed, total = jobs.job_urls(store, job.id, "unaccounted", 10, 0)
    assert total == 1 and listed[0]["url"] == stray
