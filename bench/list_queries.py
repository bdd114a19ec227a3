"""Latency of filtered and sorted page lists (GET /api/content's query) straight on a store.

    python bench/list_queries.py [--data-dir ~/.cache/webcorpus-test/load-corpus] [--rounds 20]

Runs each list shape of ``bench/api_load.py`` (filters, sorts, limits) through the store's
``list_pages`` (count and page of results, as the endpoint does) and prints the best and median
milliseconds per shape. Opening the store migrates an older database first.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.api_load import DEFAULT_DIR, LIST_QUERIES

from webcorpus.config import Settings
from webcorpus.services import params
from webcorpus.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    settings = Settings(data_dir=args.data_dir.expanduser())
    store = open_store(settings)
    pages = store.conn.execute("SELECT count(*) FROM pages").fetchone()[0]
    print(f"{pages} pages in {settings.sqlite_path}")
    print(f"{'query':<72}{'total':>7}{'best ms':>9}{'p50 ms':>9}")
    for shape in LIST_QUERIES:
        typed = {k: (v == "true") if k == "has_code" else v for k, v in shape.items()}
        query = params.content_query(settings, **typed).query
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            _rows, total = store.list_pages(query)
            times.append((time.perf_counter() - start) * 1000)
        label = "&".join(f"{k}={v}" for k, v in shape.items())
        print(f"{label:<72}{total:>7}{min(times):>9.2f}{statistics.median(times):>9.2f}")
    store.close()


if __name__ == "__main__":
    main()
