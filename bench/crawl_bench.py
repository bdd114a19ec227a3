"""Crawl the local docs.python.org (nginx on loopback) with politeness off; print pages/min.

    python bench/crawl_bench.py [--host docs.python.org] [--budget 2000] [--concurrency 32] [--cold]
                                [--scrapy PATH] [--runs N]

By default the service is warm: a 5-page crawl of another site starts its processing pool first,
as any crawl but a fresh service's first one finds it. ``--cold`` times that first crawl.

Prints wall-clock pages/min (fetched, extracted, faceted, chunked and stored; embeddings are a
separate stage and are excluded: see bench/embedding_bench.py), the job's own pages/min figure,
the mean CPU ms per page of the processing stage (the process pool: extraction, facets,
chunking) and of the main process (fetching, scheduling, database writes, the API answering the
progress polls), the latter also per thread: ``webcorpus-db`` (a job's store writes),
``webcorpus-worker`` (the event loop: fetching, scheduling), ``webcorpus-processing`` (handing
pages to the processing processes and reading their results back), the API's threads.

This machine's speed drifts: the same code measured 25 and 43 CPU ms per page an hour apart.
``--scrapy PATH`` (a ``scrapy`` executable, e.g. from ``pip install scrapy`` in another venv) runs
``scrapy bench`` (Scrapy's do-nothing spider against its own loopback server, ~10 s) right before
the crawl and prints its pages/min and our ratio to it, a figure that drifts less. ``--runs N``
crawls N times (a fresh service and database each time) and ends with the median, min and max:
one run can land in a slow minute.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server import make_settings, run_server
from tests.sites.docsites import ensure_doc_sites
from tests.sites.nginx import start_nginx


def _interpreter() -> str:
    """Version, executable and whether libpython is a shared library: builds differ by 8-20% on
    this workload (pyenv's default, shared and without PGO, vs Debian's python3.11)."""
    shared = any("libpython" in line for line in Path("/proc/self/maps").read_text().splitlines())
    libpython = "shared libpython" if shared else "static libpython"
    return f"{platform.python_version()} {sys.executable} ({libpython})"


def _self_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class ThreadCpu:
    """CPU seconds of this process's threads, grouped by thread name (Linux: /proc/self/task).

    Sampled every 0.2 s so that threads ending during the crawl (a job's database thread) still
    count, less their last 0.2 s at most; whatever no sample saw is reported as ``unattributed``.
    """

    def __init__(self) -> None:
        self._tick = os.sysconf("SC_CLK_TCK")
        self._cpu: dict[int, tuple[str, float]] = {}
        self._start: dict[int, float] = {}
        self._stop = threading.Event()
        self._sample()
        self._start = {tid: cpu for tid, (_name, cpu) in self._cpu.items()}
        self._thread = threading.Thread(target=self._run, name="bench-sampler", daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        names = {t.native_id: t.name for t in threading.enumerate()}
        for task in Path("/proc/self/task").iterdir():
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # the thread ended meanwhile
                continue
            tid = int(task.name)
            name = names.get(tid) or self._cpu.get(tid, ("other", 0.0))[0]
            self._cpu[tid] = (name, (int(fields[11]) + int(fields[12])) / self._tick)

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self._sample()

    def stop(self) -> dict[str, float]:
        """CPU seconds since start per thread kind (names without their numbers)."""
        self._stop.set()
        self._thread.join()
        self._sample()
        out: dict[str, float] = {}
        for tid, (name, cpu) in self._cpu.items():
            kind = re.sub(r"[-_ ]?\d+$", "", re.sub(r" \(.*\)$", "", name))
            out[kind] = out.get(kind, 0.0) + cpu - self._start.get(tid, 0.0)
        return out


def scrapy_bench(executable: str) -> float:
    """Pages/min of ``scrapy bench``: responses received over its elapsed time."""
    with tempfile.TemporaryDirectory(prefix="wc-scrapy-") as cwd:
        run = subprocess.run(
            [executable, "bench"], cwd=cwd, capture_output=True, text=True, timeout=300
        )
    log = run.stdout + run.stderr
    count = re.search(r"'response_received_count': (\d+)", log)
    elapsed = re.search(r"'elapsed_time_seconds': ([\d.]+)", log)
    if run.returncode != 0 or not count or not elapsed:
        raise SystemExit(f"scrapy bench failed (exit {run.returncode}):\n{log[-2000:]}")
    return int(count[1]) / float(elapsed[1]) * 60


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
    parser.add_argument(
        "--scrapy",
        metavar="PATH",
        help="a scrapy executable: run `scrapy bench` before the crawl and print the ratio",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="crawls in a row, each by a fresh service on a fresh database; with more than one, "
        "a summary (median, min, max) follows the runs' figures",
    )
    args = parser.parse_args()
    sites = ensure_doc_sites()
    nginx = start_nginx(sites, Path(tempfile.mkdtemp(prefix="wc-bench-nginx-")))
    results = []
    try:
        for _ in range(max(1, args.runs)):
            results.append(run_once(args, nginx))
            print(json.dumps(results[-1], indent=2), flush=True)
    finally:
        nginx.stop()
    if len(results) > 1:
        print(json.dumps(summary(results), indent=2))


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Median, min and max of the figures that vary from run to run."""
    out: dict[str, Any] = {"runs": len(results)}
    for key in (
        "pages_per_min_wall",
        "scrapy_bench_pages_per_min",
        "ratio_to_scrapy_bench",
        "cpu_ms_per_page_processing",
        "cpu_ms_per_page_main_process",
    ):
        values = [r[key] for r in results if r.get(key) is not None]
        if values:
            out[key] = {
                "median": round(statistics.median(values), 3),
                "min": min(values),
                "max": max(values),
            }
    return out


def run_once(args: argparse.Namespace, nginx: Any) -> dict[str, Any]:
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
        reference = scrapy_bench(args.scrapy) if args.scrapy else None
        start = time.perf_counter()
        cpu_start = _self_cpu_s()
        threads = ThreadCpu()
        job = srv.crawl(args.host, budget=args.budget)
        view = srv.wait(job, timeout=3600)
        wall = time.perf_counter() - start
        main_cpu = _self_cpu_s() - cpu_start
        per_thread = threads.stop()
        job_info = srv.store.get_job(job)
    buckets = {k: v["count"] for k, v in view["coverage"]["buckets"].items() if v["count"]}
    fetched = view["progress"]["fetched"]
    return {
        "host": args.host,
        "python": _interpreter(),
        "service": "cold" if args.cold else "warm",
        "state": view["state"],
        "buckets": buckets,
        "fetched": fetched,
        "indexed": view["progress"]["indexed"],
        "wall_s": round(wall, 1),
        "pages_per_min_wall": round(fetched / wall * 60, 1),
        "pages_per_min_job": view["progress"]["pages_per_min"],
        **(
            {
                "scrapy_bench_pages_per_min": round(reference, 1),
                "ratio_to_scrapy_bench": round(fetched / wall * 60 / reference, 3),
            }
            if reference
            else {}
        ),
        "cpu_ms_per_page_processing": (job_info.info if job_info else {}).get("cpu_ms_per_page"),
        "cpu_ms_per_page_main_process": round(main_cpu / max(1, fetched) * 1000, 1),
        "main_process_cpu_ms_per_page_by_thread": {
            **{
                kind: round(cpu / max(1, fetched) * 1000, 1)
                for kind, cpu in sorted(per_thread.items(), key=lambda kv: -kv[1])
                if cpu > 0.005
            },
            "unattributed": round(
                (main_cpu - sum(per_thread.values())) / max(1, fetched) * 1000, 1
            ),
        },
    }


if __name__ == "__main__":
    main()
