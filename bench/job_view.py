"""How long one GET /api/jobs/<id> takes to build, by ledger size (the page a user polls).

    python bench/job_view.py [--rows 10000 100000] [--repeat 10]

Builds a job whose ledger holds N URLs (10% indexed, 5% pending, 2% client errors, the rest
filtered over five reasons, as a large crawl's trap guards produce), then prints the mean time of
``services.jobs.job_view`` (every bucket's count, ten oldest URLs and top reasons, fetched count,
embedding backlog, ETA) on a warm database.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server import make_settings

from webcorpus.services import jobs
from webcorpus.services.crawls import parse_crawl_body, start_crawl
from webcorpus.store import Store, open_store
from webcorpus.store.models import UrlEntry

REASONS = ("depth > 30", "query parameters > 8", "repeated path segment", "off-scope", "long URL")


def build(n: int) -> tuple[Store, str]:
    settings = make_settings(Path(tempfile.mkdtemp(prefix="wc-jobview-")))
    store = open_store(settings)
    job = start_crawl(store, parse_crawl_body({"domain": "example.com"}, settings), None)
    urls = [f"https://example.com/p/{i}" for i in range(n)]
    rng = random.Random(1)
    with store.batch():
        store.add_urls(job.id, [UrlEntry(url=u) for u in urls])
        for url in urls:
            r = rng.random()
            if r < 0.10:
                store.set_url(job.id, url, "indexed", http_status=200)
            elif r < 0.15:
                continue
            elif r < 0.17:
                store.set_url(job.id, url, "clientError", "HTTP 404", http_status=404)
            else:
                store.set_url(job.id, url, "filtered", rng.choice(REASONS))
    return store, job.id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    for n in args.rows:
        store, job_id = build(n)
        job = jobs.get_job(store, job_id)
        jobs.job_view(store, job)
        start = time.perf_counter()
        for _ in range(args.repeat):
            jobs.job_view(store, job)
        ms = (time.perf_counter() - start) / args.repeat * 1000
        print(f"ledger of {n:>7,} URLs: job view {ms:6.1f} ms")


if __name__ == "__main__":
    main()
