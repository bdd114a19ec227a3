"""Crawl the local docs.python.org (nginx on loopback) with politeness off; print pages/min.

    python bench/crawl_bench.py [--host docs.python.org] [--budget 2000] [--concurrency 32] [--cold]

By default the service is warm: a 5-page crawl of another site starts its processing pool first,
as any crawl but a fresh service's first one finds it. ``--cold`` times that first crawl.

Prints wall-clock pages/min (fetched, extracted, faceted, chunked and stored; embeddings are a
separate stage and are excluded: see bench/embedding_bench.py), the job's own pages/min figure,
the mean CPU ms per page of the processing stage (the process pool: extraction, facets,
chunking) and of the main process (fetching, scheduling, database writes, the API answering the
progress polls).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server import make_settings, run_server
from tests.sites.docsites import ensure_doc_sites
from tests.sites.nginx import start_nginx


def _self_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="docs.python.org")
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--cold",
        action="store_true",
        help="time the service's first crawl (process pool not started yet) instead of a warm one",
    )
    args = parser.parse_args()
    sites = ensure_doc_sites()
    nginx = start_nginx(sites, Path(tempfile.mkdtemp(prefix="wc-bench-nginx-")))
    try:
        settings = make_settings(
            Path(tempfile.mkdtemp(prefix="wc-bench-")),
            connect_to=nginx.connect_to(refuse_https=True),
            max_concurrency=args.concurrency,
            host_concurrency=args.concurrency,
            adaptive_delay=False,
            embeddings=False,
        )
        with run_server(settings) as srv:
            if not args.cold:
                # A running service has its processing pool up after its first crawl; start it
                # (~1.3 s of imports and model loading per worker process) outside the timing.
                other = "docs.python.org"
                if args.host == other:
                    other = "www.postgresql.org"
                srv.wait(srv.crawl(other, budget=5), timeout=600)
            start = time.perf_counter()
            cpu_start = _self_cpu_s()
            job = srv.crawl(args.host, budget=args.budget)
            view = srv.wait(job, timeout=3600)
            wall = time.perf_counter() - start
            main_cpu = _self_cpu_s() - cpu_start
        job_info = srv.store.get_job(job)
    finally:
        nginx.stop()
    buckets = {k: v["count"] for k, v in view["coverage"]["buckets"].items() if v["count"]}
    fetched = view["progress"]["fetched"]
    print(
        json.dumps(
            {
                "host": args.host,
                "service": "cold" if args.cold else "warm",
                "state": view["state"],
                "buckets": buckets,
                "fetched": fetched,
                "indexed": view["progress"]["indexed"],
                "wall_s": round(wall, 1),
                "pages_per_min_wall": round(fetched / wall * 60, 1),
                "pages_per_min_job": view["progress"]["pages_per_min"],
                "cpu_ms_per_page_processing": (job_info.info if job_info else {}).get(
                    "cpu_ms_per_page"
                ),
                "cpu_ms_per_page_main_process": round(main_cpu / max(1, fetched) * 1000, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
