"""CPU ms per page of webcorpus.extract.extract() over a directory of HTML files.

Usage: python bench/extraction_speed.py DIR [--limit N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from webcorpus.extract import extract


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory", type=Path)
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    files = sorted(p for p in args.directory.rglob("*.htm*") if p.is_file())
    random.Random(args.seed).shuffle(files)
    files = files[: args.limit]
    if not files:
        raise SystemExit(f"no HTML files under {args.directory}")
    extract(files[0].read_bytes(), "https://example.com/warmup.html")  # imports, caches
    times: list[float] = []
    total_bytes = 0
    slow: list[tuple[float, str]] = []
    for path in files:
        data = path.read_bytes()
        total_bytes += len(data)
        url = "https://docs.example.com/" + str(path.relative_to(args.directory))
        t0 = time.process_time()
        extract(data, url)
        ms = (time.process_time() - t0) * 1000
        times.append(ms)
        slow.append((ms, str(path.relative_to(args.directory))))
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    print(f"pages: {len(times)}  mean size: {total_bytes / len(times) / 1024:.0f} KiB")
    print(
        f"CPU ms/page  mean {statistics.fmean(times):.1f}  p50 {p(0.5):.1f}  "
        f"p95 {p(0.95):.1f}  max {times[-1]:.1f}"
    )
    print("slowest:", ", ".join(f"{name} {ms:.0f}ms" for ms, name in sorted(slow)[-3:]))


if __name__ == "__main__":
    main()
