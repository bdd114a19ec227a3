"""CPU ms per page of each stage of crawl/pipeline.py::process_page over directories of HTML files.

Usage: python bench/extraction_pipeline.py DIR [DIR ...] [--limit N] [--rounds N] [--profile]

Runs ``process_page`` itself (what the crawl's process pool runs) and prints per-stage CPU ms/page
as it reports them: extract, facets (``score_page``), chunk (``chunk_markdown``), simhash, hashes
(content and text hash), their total, and "pickle": pickling the ``ProcessedPage`` in the worker
plus unpickling it in the crawl process (the pool's hand-over, paid outside the stages).
CPU time (``time.process_time``), not wall time: the figures hold on a busy machine. With
``--rounds N`` every page is processed N times and the best mean of the rounds is printed for
each stage (less noise from neighbours; caches are warm after the first round, so use 1 round
for a cold-cache figure). ``--profile`` prints the top cProfile entries of one extra round
(``--sort``, ``--top``, ``--filter`` a regex on file:function).
"""

from __future__ import annotations

import argparse
import cProfile
import pickle
import pstats
import random
import statistics
import time
from pathlib import Path

from webcorpus.crawl.pipeline import process_page, warm

STAGES = ("extract", "facets", "chunk", "simhash", "hashes")
HEADERS = {"content-type": "text/html; charset=utf-8"}


def _stats(times: list[float]) -> str:
    s = sorted(times)
    p = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return (
        f"mean {statistics.fmean(s):6.2f}  p50 {p(0.5):6.2f}  p95 {p(0.95):6.2f}  max {s[-1]:6.1f}"
    )


def _round(jobs: list[tuple[bytes, str]]) -> dict[str, list[float]]:
    per: dict[str, list[float]] = {k: [] for k in (*STAGES, "total", "pickle")}
    for body, url in jobs:
        timings: dict[str, float] = {}
        page = process_page(body, url, HEADERS, timings=timings)
        t0 = time.process_time()
        pickle.loads(pickle.dumps(page, protocol=pickle.HIGHEST_PROTOCOL))
        per["pickle"].append((time.process_time() - t0) * 1000)
        for k in STAGES:
            per[k].append(timings[k])
        per["total"].append(sum(timings.values()))
    return per


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("directories", type=Path, nargs="+")
    ap.add_argument("--limit", type=int, default=300, help="pages per directory")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--sort", default="cumulative")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--filter", default="", help="regex restricting the profile lines")
    args = ap.parse_args()
    jobs: list[tuple[bytes, str]] = []
    for d in args.directories:
        files = sorted(p for p in d.rglob("*.htm*") if p.is_file())
        random.Random(args.seed).shuffle(files)
        jobs += [
            (p.read_bytes(), "https://docs.example.com/" + str(p.relative_to(d)))
            for p in files[: args.limit]
        ]
    if not jobs:
        raise SystemExit("no HTML files")
    # What each worker of the crawl's pool does first (imports, models), then one-time costs a
    # worker pays on its first pages anyway, so that they stay out of the per-page figures.
    warm()
    import htmldate  # noqa: F401
    import trafilatura  # noqa: F401

    process_page(jobs[0][0], jobs[0][1], HEADERS)
    rounds = [_round(jobs) for _ in range(args.rounds)]
    best = {k: min(rounds, key=lambda r: statistics.fmean(r[k]))[k] for k in rounds[0]}
    label = f"best of {args.rounds} rounds" if args.rounds > 1 else "1 round"
    print(f"pages: {len(jobs)}   CPU ms/page ({label})")
    for k, v in best.items():
        print(f"  {k:8s} {_stats(v)}")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for body, url in jobs:
            process_page(body, url, HEADERS)
        prof.disable()
        stats = pstats.Stats(prof).sort_stats(args.sort)
        stats.print_stats(*([args.filter] if args.filter else []), args.top)


if __name__ == "__main__":
    main()
