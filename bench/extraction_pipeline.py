"""CPU ms per page of each stage of crawl/pipeline.py::process_page over a directory of HTML files:
extract(), facets.score_page(), index.chunking.chunk_markdown(), simhash64 and the total.

Usage: python bench/extraction_pipeline.py DIR [DIR ...] [--limit N] [--profile STAGE]

``--profile extract|score|chunk`` prints the top cProfile entries (cumulative) of that stage.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from pathlib import Path

from webcorpus.extract import extract
from webcorpus.facets import score_page, simhash64
from webcorpus.index.chunking import chunk_markdown


def _stats(times: list[float]) -> str:
    s = sorted(times)
    p = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return (
        f"mean {statistics.fmean(s):6.1f}  p50 {p(0.5):6.1f}  p95 {p(0.95):6.1f}  max {s[-1]:6.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("directories", type=Path, nargs="+")
    ap.add_argument("--limit", type=int, default=200, help="pages per directory")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", choices=("extract", "score", "chunk"))
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    jobs: list[tuple[Path, str]] = []
    for d in args.directories:
        files = sorted(p for p in d.rglob("*.htm*") if p.is_file())
        random.Random(args.seed).shuffle(files)
        jobs += [
            (p, "https://docs.example.com/" + str(p.relative_to(d))) for p in files[: args.limit]
        ]
    if not jobs:
        raise SystemExit("no HTML files")
    warm = extract(jobs[0][0].read_bytes(), jobs[0][1])  # imports, models, caches
    score_page(warm, jobs[0][1])
    chunk_markdown(warm.markdown, title=warm.title)
    prof = cProfile.Profile() if args.profile else None
    stages: dict[str, list[float]] = {
        k: [] for k in ("extract", "score", "chunk", "simhash", "total")
    }
    for path, url in jobs:
        data = path.read_bytes()
        t0 = time.process_time()
        if prof and args.profile == "extract":
            prof.enable()
        doc = extract(data, url)
        if prof:
            prof.disable()
        t1 = time.process_time()
        if prof and args.profile == "score":
            prof.enable()
        score_page(doc, url)
        if prof:
            prof.disable()
        t2 = time.process_time()
        if prof and args.profile == "chunk":
            prof.enable()
        chunk_markdown(doc.markdown, title=doc.title)
        if prof:
            prof.disable()
        t3 = time.process_time()
        if doc.text:
            simhash64(doc.text)
        t4 = time.process_time()
        for k, a, b in (
            ("extract", t0, t1),
            ("score", t1, t2),
            ("chunk", t2, t3),
            ("simhash", t3, t4),
        ):
            stages[k].append((b - a) * 1000)
        stages["total"].append((t4 - t0) * 1000)
    print(f"pages: {len(jobs)}   CPU ms/page")
    for k, v in stages.items():
        print(f"  {k:8s} {_stats(v)}")
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
