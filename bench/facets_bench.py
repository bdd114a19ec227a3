"""CPU ms per page of the facet stage (``score_page``) over saved documentation pages.

    python bench/facets_bench.py [--docs-root DIR] [--limit N]

Pages: the Debian doc packages the evaluator uses (python3.11-doc, postgresql-doc-15,
debian-handbook; located like ``eval/facets/evaluate.py`` does) plus ``eval/facets/pages``.
Extraction runs first and is not timed; only ``score_page`` (what the crawler adds per page)
is. Prints one line: mean / median / p95 CPU ms per page.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "eval" / "facets"))

from evaluate import PACKAGES, docs_root  # noqa: E402

from webcorpus.extract import extract  # noqa: E402
from webcorpus.extract.document import ExtractedDocument  # noqa: E402
from webcorpus.facets import score_page  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs-root")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    root = docs_root(args.docs_root)
    files = [p for pkg in PACKAGES for p in (root / pkg).rglob("*.html") if p.is_file()]
    random.Random(args.seed).shuffle(files)
    files = files[: args.limit] + sorted((ROOT / "eval/facets/pages").glob("*.html"))
    if not files:
        raise SystemExit(f"no saved pages under {root}")
    score_page(ExtractedDocument(title=None, markdown="", text="warm up " * 40), "https://x.test/")
    ms: list[float] = []
    for f in files:
        url = f"https://docs.example.org/{f.name}"
        doc = extract(f.read_bytes(), url)
        t0 = time.process_time()
        score_page(doc, url)
        ms.append((time.process_time() - t0) * 1000)
    ms.sort()
    print(
        f"facets score_page CPU ms/page over {len(ms)} saved pages: mean "
        f"{statistics.mean(ms):.2f}, median {statistics.median(ms):.2f}, "
        f"p95 {ms[int(0.95 * (len(ms) - 1))]:.2f}"
    )


if __name__ == "__main__":
    main()
