"""Three companies at once: wall time to crawl the three local doc sites with default politeness.

    python bench/multi_crawl.py [--budget 150] [--jobs 1 4]

Posts crawls of docs.python.org, www.postgresql.org and debian-handbook.info together (nginx on
loopback, the service's default per-host politeness: 0.25 s between request starts, 4 in flight)
and prints, per ``WEBCORPUS_WORKER_JOBS`` value, the wall time until all three have ended and each
job's own duration. Embeddings are off (a separate stage; see bench/embedding_bench.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server import make_settings, run_server
from tests.sites.docsites import ensure_doc_sites
from tests.sites.nginx import RunningServer, start_nginx

SITES = ("docs.python.org", "www.postgresql.org", "debian-handbook.info")


def _seconds(start: str, end: str) -> float:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def run(nginx: RunningServer, jobs: int, budget: int) -> dict[str, object]:
    settings = make_settings(
        Path(tempfile.mkdtemp(prefix="wc-multi-")),
        connect_to=nginx.connect_to(refuse_https=True),
        crawl_delay_s=0.25,
        host_concurrency=4,
        max_concurrency=32,
        adaptive_delay=True,
        embeddings=False,
        worker_jobs=jobs,
    )
    with run_server(settings) as srv:
        start = time.perf_counter()
        ids = [srv.crawl(site, budget=budget) for site in SITES]
        views = [srv.wait(job, timeout=3600) for job in ids]
        wall = time.perf_counter() - start
    return {
        "worker_jobs": jobs,
        "wall_s": round(wall, 1),
        "jobs": {
            v["domain"]: {
                "state": v["state"],
                "indexed": v["progress"]["indexed"],
                "queued_s": round(_seconds(v["created_at"], v["started_at"]), 1),
                "ran_s": round(_seconds(v["started_at"], v["finished_at"]), 1),
            }
            for v in views
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=int, default=150)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args()
    nginx = start_nginx(ensure_doc_sites(), Path(tempfile.mkdtemp(prefix="wc-multi-nginx-")))
    try:
        for jobs in args.jobs:
            print(json.dumps(run(nginx, jobs, args.budget), indent=2), flush=True)
    finally:
        nginx.stop()


if __name__ == "__main__":
    main()
