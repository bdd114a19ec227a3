"""Golden outputs of crawl/pipeline.py::process_page, to check that a speed-up changes nothing.

    python bench/pipeline_golden.py dump OUT.pickle [--python-limit N] [--postgres-limit N]
    python bench/pipeline_golden.py compare OUT.pickle

Pages: python3.11-doc and postgresql-doc-15 HTML (a seeded sample of each, found under
``$WEBCORPUS_TEST_CACHE`` or ``~/.cache/webcorpus-test`` — ``root/usr/share/doc/...`` as the test
setup unpacks it, or ``<package>/usr/share/doc/...`` — else where ``eval/facets/evaluate.py``
finds it) plus every page of /work/shared/bench/extraction-articles when present. Everything
``process_page`` returns is kept (markdown, text, metadata, links, assets, facets with
``explain``, chunk texts and token counts, simhash, hashes) except ``cpu_ms``. ``compare``
re-runs the pipeline and prints, per field, how many pages differ (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import pickle
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "eval" / "facets"))

from evaluate import docs_root  # noqa: E402

from webcorpus.crawl.pipeline import process_page  # noqa: E402

ARTICLES = Path("/work/shared/bench/extraction-articles")
HEADERS = {"content-type": "text/html; charset=utf-8"}


def pages(
    python_limit: int, postgres_limit: int, seed: int = 1
) -> list[tuple[str, str, bytes, dict[str, str]]]:
    """(key, url, body, headers) of every page of the golden set, in a fixed order."""
    cache = Path(os.environ.get("WEBCORPUS_TEST_CACHE") or Path.home() / ".cache/webcorpus-test")
    out: list[tuple[str, str, bytes, dict[str, str]]] = []
    for pkg, rel, base, limit in (
        (
            "python3.11-doc",
            "usr/share/doc/python3.11/html",
            "https://docs.python.org/3/",
            python_limit,
        ),
        (
            "postgresql-doc-15",
            "usr/share/doc/postgresql-doc-15/html",
            "https://www.postgresql.org/docs/15/",
            postgres_limit,
        ),
    ):
        tries = [cache / "root" / rel, cache / pkg / rel]
        d = next((c for c in tries if c.is_dir()), None) or docs_root(None) / pkg / rel
        if not d.is_dir():
            raise SystemExit(f"{pkg} not found (tried {[str(t) for t in tries]} and {d})")
        files = sorted(p for p in d.rglob("*.html") if p.is_file())
        random.Random(seed).shuffle(files)
        for p in files[:limit]:
            rp = str(p.relative_to(d))
            out.append((f"{pkg}/{rp}", base + rp, p.read_bytes(), HEADERS))
    if ARTICLES.is_dir():
        truth: dict[str, dict[str, str]] = json.loads((ARTICLES / "ground-truth.json").read_text())
        for key in sorted(truth):
            body = gzip.decompress((ARTICLES / "html" / f"{key}.html.gz").read_bytes())
            out.append((f"articles/{key}", truth[key]["url"], body, {}))
    return out


def record(body: bytes, url: str, headers: dict[str, str]) -> dict[str, Any]:
    page = process_page(body, url, headers)
    rec = {f.name: getattr(page, f.name) for f in dataclasses.fields(page) if f.name != "cpu_ms"}
    rec["doc"] = dataclasses.asdict(page.doc)
    return rec


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("dump", "compare"))
    ap.add_argument("file", type=Path)
    ap.add_argument("--python-limit", type=int, default=300)
    ap.add_argument("--postgres-limit", type=int, default=100)
    ap.add_argument("--show", type=int, default=3, help="differing pages to name per field")
    args = ap.parse_args()
    if args.mode == "dump":
        golden = {
            "python_limit": args.python_limit,
            "postgres_limit": args.postgres_limit,
            "records": {
                key: record(body, url, headers)
                for key, url, body, headers in pages(args.python_limit, args.postgres_limit)
            },
        }
        args.file.write_bytes(pickle.dumps(golden))
        print(f"{len(golden['records'])} pages written to {args.file}")
        return
    golden = pickle.loads(args.file.read_bytes())
    want: dict[str, dict[str, Any]] = golden["records"]
    diffs: Counter[str] = Counter()
    named: dict[str, list[str]] = {}
    got_keys = set()
    for key, url, body, headers in pages(golden["python_limit"], golden["postgres_limit"]):
        got_keys.add(key)
        rec = record(body, url, headers)
        old = want.get(key)
        if old is None:
            diffs["<missing in golden>"] += 1
            continue
        for field, value in rec.items():
            if field == "doc":
                for k, v in value.items():
                    if old["doc"].get(k) != v:
                        diffs[f"doc.{k}"] += 1
                        named.setdefault(f"doc.{k}", []).append(key)
            elif old.get(field) != value:
                diffs[field] += 1
                named.setdefault(field, []).append(key)
    missing = set(want) - got_keys
    print(f"{len(got_keys)} pages compared against {args.file}")
    if missing:
        print(f"  {len(missing)} golden pages not produced")
    for field, n in sorted(diffs.items()):
        print(f"  {field}: {n} page(s) differ, e.g. {', '.join(named.get(field, [])[: args.show])}")
    if diffs or missing:
        raise SystemExit(1)
    print("  identical")


if __name__ == "__main__":
    main()
