"""Search latency at 100k+ chunks over real HTTP, and embedding throughput.

Builds (once) a corpus of at least ``--chunks`` chunks in a data dir: the real doc-site pages of
the search-eval corpus (``eval/search/evaluate.py``, default ``~/.cache/webcorpus-test/
search-eval/data``), then copies of them under synthetic domains (``mirrorN-python.org`` ...) with
a small text change per copy, stored through ``SQLiteStore.save_page``; each chunk gets the real
vector of its source chunk (or, for source chunks not embedded yet, of a sampled embedded chunk)
plus Gaussian jitter, via ``save_vectors``. Then starts a real server on loopback and times
``GET /api/search`` at concurrency 1 (query embedding included) per mode, without and with
filters, and reports p50/p95. Embedding throughput (chunks/s, tokens/s) is measured on a sample
of real chunks with the product's embedder before the latency runs.

    /work/venv/bin/python bench/search_latency.py                # build once, then measure
    /work/venv/bin/python bench/search_latency.py --queries 60 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.server import make_settings, run_server  # noqa: E402
from tests.sites.docsites import default_cache_dir  # noqa: E402

from webcorpus.crawl.urls import page_id  # noqa: E402
from webcorpus.index.chunking import Chunk, embedding_text  # noqa: E402
from webcorpus.store import open_store  # noqa: E402
from webcorpus.store.models import ChunkRow, JobRecord, PageWrite  # noqa: E402

EVAL_DIR = default_cache_dir() / "search-eval"
SOURCE = EVAL_DIR / "data"
BENCH = EVAL_DIR / "bench-data"
QUERIES = REPO / "eval" / "search" / "queries.jsonl"
MODES = ("text", "vector", "hybrid")
MARKER = "bench.json"
ROOTS = {"docs.python.org": "python.org", "www.postgresql.org": "postgresql.org"}


def now() -> str:
    return datetime.now(UTC).isoformat()


def source_rows(source: Path) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    db = sqlite3.connect(f"file:{source / 'webcorpus.db'}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    pages = [dict(r) for r in db.execute("SELECT * FROM pages ORDER BY id")]
    chunks: dict[str, list[dict[str, Any]]] = {}
    for r in db.execute(
        "SELECT c.id, c.page_id, c.idx, c.heading, c.text, c.tokens, v.vector FROM chunks c "
        "LEFT JOIN chunk_vectors v ON v.chunk_id = c.id ORDER BY c.page_id, c.idx"
    ):
        chunks.setdefault(r["page_id"], []).append(dict(r))
    db.close()
    return pages, chunks


def measure_embedding(
    data_dir: Path, pages: list[dict[str, Any]], chunks: dict[str, list[dict[str, Any]]], n: int
) -> tuple[dict[str, float], np.ndarray]:
    """Embed ``n`` real chunks (title + heading prefix, as the worker does) and time it."""
    from webcorpus.index.embedder import Embedder

    rng = random.Random(7)
    titles = {p["id"]: p["title"] or "" for p in pages}
    everything = [c for rows in chunks.values() for c in rows]
    sample = rng.sample(everything, min(n, len(everything)))
    texts = [
        embedding_text(Chunk(0, c["heading"], c["text"], 0), titles[c["page_id"]]) for c in sample
    ]
    embedder = Embedder(data_dir / "models")
    embedder.embed(texts[:16])  # warm-up: graph load, allocator
    tokens = sum(embedder.token_counts(texts))
    t0 = time.perf_counter()
    vectors = embedder.embed(texts, batch_size=64)
    dt = time.perf_counter() - t0
    stats = {
        "chunks": len(texts),
        "seconds": round(dt, 2),
        "chunks_per_s": round(len(texts) / dt, 1),
        "tokens_per_s": round(tokens / dt, 0),
        "mean_tokens": round(tokens / len(texts), 1),
        "threads": embedder._session.get_session_options().intra_op_num_threads,
    }
    return stats, vectors


def build(source: Path, data_dir: Path, target: int, sample: int) -> dict[str, Any]:
    pages, chunks = source_rows(source)
    pages = [p for p in pages if chunks.get(p["id"])]
    per_copy = sum(len(chunks[p["id"]]) for p in pages)
    copies = max(1, -(-target // per_copy))
    print(f"source: {len(pages)} pages, {per_copy} chunks -> {copies} copies", flush=True)
    data_dir.mkdir(parents=True, exist_ok=True)
    embed_stats, pool = measure_embedding(data_dir, pages, chunks, sample)
    print("embedding:", embed_stats, flush=True)
    store = open_store(make_settings(data_dir, embeddings=True))
    store.set_meta("embedding_model", "sentence-transformers/all-MiniLM-L6-v2:384:int8")
    rng = np.random.default_rng(11)
    t0 = time.monotonic()
    total = 0
    for copy in range(copies):
        jobs: dict[str, str] = {}
        pending: list[np.ndarray] = []
        for n, page in enumerate(pages):
            src_domain = page["domain"]
            root = ROOTS.get(src_domain, src_domain)
            domain = src_domain if copy == 0 else f"mirror{copy}-{root}"
            host = page["host"] if copy == 0 else domain
            url = page["url"].replace(f"//{page['host']}/", f"//{host}/", 1)
            if domain not in jobs:
                job = JobRecord(
                    id=f"job_bench{copy:03d}{len(jobs):02d}",
                    domain=domain,
                    state="completed",
                    params={"budget": 10000},
                    created_at=now(),
                )
                store.create_job(job, None)
                jobs[domain] = job.id
            rows = chunks[page["id"]]
            suffix = "" if copy == 0 else f" (mirror {copy})"
            chunk_rows = [
                ChunkRow(c["idx"], c["heading"], c["text"] + suffix, c["tokens"]) for c in rows
            ]
            for c in rows:
                if c["vector"] is not None:
                    base = np.frombuffer(c["vector"], dtype=np.float32)
                else:
                    base = pool[(c["id"] * 2654435761) % len(pool)]
                if copy or c["vector"] is None:  # no two chunks share a vector
                    base = base + rng.normal(0, 0.02, base.shape).astype(np.float32)
                    base = base / np.linalg.norm(base)
                pending.append(base.astype(np.float32))
            facets = {
                "type": page["type"],
                "format": page["format"],
                "audience": page["audience"],
                "locale": page["locale"],
                "topics": json.loads(page["topics"] or "[]"),
                "technicality": page["technicality"],
                "depth": page["depth"],
                "originality": page["originality"],
                "promotional": page["promotional"],
                "has_code": bool(page["has_code"]),
                "words": page["words"],
                "published": page["published"],
            }
            store.save_page(
                PageWrite(
                    id=page["id"] if copy == 0 else page_id(url),
                    url=url,
                    canonical_url=url,
                    domain=domain,
                    host=host,
                    title=(page["title"] or "") + suffix,
                    description=page["description"],
                    markdown=page["markdown"],
                    content_hash=f"{page['content_hash']}{copy}",
                    text_hash=f"{page['text_hash']}{copy}",
                    etag=None,
                    last_modified=None,
                    http_status=200,
                    fetched_at=now(),
                    job_id=jobs[domain],
                    declared_language=page["declared_language"],
                    hreflang=[],
                    simhash=None,
                    facets=facets,
                    assets=[],
                    links=[],
                    chunks=chunk_rows,
                ),
                ledger_url=url,
                changed=True,
            )
            if len(pending) >= 2000 or n == len(pages) - 1:
                todo = store.chunks_to_embed(len(pending))
                assert len(todo) == len(pending), (len(todo), len(pending))
                store.save_vectors(
                    [(r[0], v.tobytes()) for r, v in zip(todo, pending, strict=True)]
                )
                total += len(pending)
                pending = []
        print(f"  copy {copy}: {total} chunks, {time.monotonic() - t0:.0f} s", flush=True)
    store.close()
    info = {
        "source_pages": len(pages),
        "source_chunks": per_copy,
        "copies": copies,
        "pages": len(pages) * copies,
        "chunks": total,
        "embedding": embed_stats,
        "build_s": round(time.monotonic() - t0, 1),
    }
    (data_dir / MARKER).write_text(json.dumps(info, indent=1))
    return info


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def measure(data_dir: Path, queries: list[str], filters: dict[str, dict[str, Any]]) -> list[dict]:
    settings = make_settings(data_dir, embeddings=True)
    results = []
    with run_server(settings, worker=False) as srv:
        for mode in MODES:  # warm-up: vector index load, embedder load, sqlite page cache
            for q in queries[:5]:
                srv.client.get("/api/search", params={"q": q, "mode": mode}).raise_for_status()
        for fname, params in filters.items():
            for mode in MODES:
                times = []
                hits = 0
                for q in queries:
                    t0 = time.perf_counter()
                    r = srv.client.get(
                        "/api/search", params={"q": q, "mode": mode, "limit": 10, **params}
                    )
                    times.append((time.perf_counter() - t0) * 1000)
                    r.raise_for_status()
                    hits += len(r.json()["data"])
                row = {
                    "filter": fname,
                    "mode": mode,
                    "n": len(times),
                    "p50_ms": round(percentile(times, 50), 1),
                    "p95_ms": round(percentile(times, 95), 1),
                    "mean_hits": round(hits / len(queries), 1),
                }
                print(
                    f"{fname:22} {mode:7} p50 {row['p50_ms']:7.1f} ms  p95 {row['p95_ms']:7.1f} ms"
                    f"  hits {row['mean_hits']}",
                    flush=True,
                )
                results.append(row)
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--source", type=Path, default=SOURCE)
    ap.add_argument("--data-dir", type=Path, default=BENCH)
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--sample", type=int, default=512, help="chunks embedded for throughput")
    ap.add_argument("--queries", type=int, default=100, help="queries per mode and filter")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    marker = args.data_dir / MARKER
    if args.rebuild and args.data_dir.exists():
        import shutil

        shutil.rmtree(args.data_dir)
    if not marker.exists():
        build(args.source, args.data_dir, args.chunks, args.sample)
    info = json.loads(marker.read_text())
    print("corpus:", {k: v for k, v in info.items() if k != "embedding"})
    print("embedding throughput:", info["embedding"])
    rows = [json.loads(x) for x in QUERIES.read_text().splitlines() if x.strip()]
    queries = [r["query"] for r in rows]
    random.Random(3).shuffle(queries)
    queries = queries[: args.queries]
    filters: dict[str, dict[str, Any]] = {
        "none": {},
        "domain": {
            "domain": f"mirror{info['copies'] - 1}-python.org"
            if info["copies"] > 1
            else "python.org"
        },
        "type": {"type": "docs"},
        "locale": {"locale": "en"},
        "technicality_min": {"technicality_min": 0.5},
        "all four": {
            "domain": "docs.python.org",
            "type": "docs",
            "locale": "en",
            "technicality_min": 0.3,
        },
    }
    results = measure(args.data_dir, queries, filters)
    if args.json:
        args.json.write_text(json.dumps({"corpus": info, "latency": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
