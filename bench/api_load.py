"""Bounded loopback load test of the read API: page reads, lists, bundles and search.

    python bench/api_load.py [--concurrency 8] [--requests 400] [--seconds 20]
                             [--data-dir ~/.cache/webcorpus-test/load-corpus] [--embeddings]

Prepares (once) a corpus of the full local www.postgresql.org docs (~1170 pages, crawled through
the nginx test fixture) in ``--data-dir`` and reuses it on later runs. Then it starts its own
server (uvicorn in a thread, worker off) on that data dir and, for each kind of request, runs
``--concurrency`` httpx.AsyncClient workers over real HTTP until ``--requests`` requests are done
or ``--seconds`` have passed, whichever comes first. It prints requests/s, p50/p95/max latency
and the error count per kind, and exits non-zero if any request failed.

Kinds: ``page`` (GET /api/content/<id>), ``list`` (GET /api/content with filters and sorts),
``bundle`` (GET /api/domains/postgresql.org/content.md?limit=50) and ``search`` (GET /api/search;
hybrid when the corpus has vectors, i.e. it was prepared with ``--embeddings``, else text).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server import make_settings, run_server
from tests.sites.docsites import ensure_doc_sites
from tests.sites.nginx import start_nginx

DEFAULT_DIR = Path.home() / ".cache" / "webcorpus-test" / "load-corpus"
DOMAIN = "postgresql.org"
HOST = "www.postgresql.org"
QUERIES = (
    "create index on a table",
    "vacuum analyze autovacuum",
    "foreign key constraint",
    "window functions over partition",
    "streaming replication standby",
    "json operators jsonb",
    "transaction isolation level serializable",
    "pg_dump backup restore",
    "row level security policy",
    "full text search tsvector",
)
LIST_QUERIES: tuple[dict[str, Any], ...] = (
    {"domain": DOMAIN, "limit": 20},
    {"domain": DOMAIN, "sort": "words", "limit": 50},
    {"type": "docs,api_reference", "technicality_min": 0.3, "sort": "technicality"},
    {"has_code": "true", "words_min": 200, "sort": "cited", "offset": 40},
    {"q": "index", "limit": 20},
    {"locale": "en", "sort": "indexed", "limit": 100},
    {"promotional_max": 0.5, "depth_min": 0.2, "sort": "promotional"},
)


def prepare(data_dir: Path, embeddings: bool) -> dict[str, Any]:
    """Crawl the full postgres docs into data_dir once; reuse it when already done."""
    marker = data_dir / "load-corpus.json"
    if marker.exists():
        info = json.loads(marker.read_text())
        if info.get("embeddings") == embeddings:
            return dict(info)
        sys.exit(
            f"{data_dir} was prepared with embeddings={info.get('embeddings')}; "
            "pass --data-dir elsewhere or remove it"
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    if any(data_dir.iterdir()):
        sys.exit(f"{data_dir} holds an unfinished corpus; remove it and rerun")
    sites = ensure_doc_sites()
    nginx = start_nginx(sites, Path(tempfile.mkdtemp(prefix="wc-load-nginx-")))
    try:
        settings = make_settings(
            data_dir,
            connect_to=nginx.connect_to(refuse_https=True),
            embeddings=embeddings,
            adaptive_delay=False,
        )
        print(f"preparing the corpus in {data_dir} (one-off) ...", flush=True)
        start = time.perf_counter()
        with run_server(settings) as srv:
            view = srv.wait(srv.crawl(HOST, budget=3000), timeout=3600)
        wall = time.perf_counter() - start
    finally:
        nginx.stop()
    if view["state"] not in ("completed", "partial"):
        sys.exit(f"corpus crawl ended {view['state']}: {view.get('error')}")
    info = {
        "embeddings": embeddings,
        "indexed": view["progress"]["indexed"],
        "state": view["state"],
        "prepare_s": round(wall, 1),
    }
    marker.write_text(json.dumps(info))
    print(f"prepared: {info}", flush=True)
    return info


async def run_kind(
    client: httpx.AsyncClient,
    make_request: Callable[[int], tuple[str, dict[str, Any]]],
    *,
    concurrency: int,
    requests: int,
    seconds: float,
) -> dict[str, Any]:
    counter = itertools.count()
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        while time.perf_counter() < deadline:
            i = next(counter)
            if i >= requests:
                return
            path, params = make_request(i)
            t0 = time.perf_counter()
            try:
                r = await client.get(path, params=params)
                await r.aread()
                ok = r.status_code == 200
                if not ok:
                    errors.append(f"{r.status_code} {path} {params}")
            except httpx.HTTPError as exc:
                errors.append(f"{type(exc).__name__} {path}")
            latencies.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    wall = time.perf_counter() - start
    lat = sorted(latencies)
    n = len(lat)
    return {
        "n": n,
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "wall_s": wall,
        "rps": n / wall if wall else 0.0,
        "p50_ms": statistics.median(lat) * 1000 if n else 0.0,
        "p95_ms": lat[min(n - 1, int(n * 0.95))] * 1000 if n else 0.0,
        "max_ms": lat[-1] * 1000 if n else 0.0,
    }


async def load(base_url: str, args: argparse.Namespace, mode: str) -> dict[str, dict[str, Any]]:
    limits = httpx.Limits(max_connections=args.concurrency * 2)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:
        ids: list[str] = []
        for offset in range(0, 1000, 100):
            r = await client.get("/api/content", params={"limit": 100, "offset": offset})
            r.raise_for_status()
            ids += [p["id"] for p in r.json()["data"]]
        if not ids:
            sys.exit("the corpus has no pages")
        kinds: dict[str, Callable[[int], tuple[str, dict[str, Any]]]] = {
            "page": lambda i: (f"/api/content/{ids[(i * 7919) % len(ids)]}", {}),
            "list": lambda i: ("/api/content", LIST_QUERIES[i % len(LIST_QUERIES)]),
            "bundle": lambda i: (f"/api/domains/{DOMAIN}/content.md", {"limit": 50}),
            "search": lambda i: (
                "/api/search",
                {"q": QUERIES[i % len(QUERIES)], "mode": mode, "limit": 10},
            ),
        }
        results = {}
        for name in args.kinds.split(","):
            await run_kind(client, kinds[name], concurrency=2, requests=4, seconds=10)  # warm up
            results[name] = await run_kind(
                client,
                kinds[name],
                concurrency=args.concurrency,
                requests=args.bundle_requests if name == "bundle" else args.requests,
                seconds=args.seconds,
            )
            res = results[name]
            print(
                f"  {name:<7} {res['n']:>5} req in {res['wall_s']:5.1f}s",
                file=sys.stderr,
                flush=True,
            )
        return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--requests", type=int, default=400, help="most requests per kind")
    parser.add_argument("--bundle-requests", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=20.0, help="most seconds per kind")
    parser.add_argument("--kinds", default="page,list,bundle,search")
    parser.add_argument("--embeddings", action="store_true", help="corpus with vectors")
    args = parser.parse_args()
    data_dir = args.data_dir.expanduser()
    if args.embeddings and data_dir == DEFAULT_DIR:
        data_dir = DEFAULT_DIR.with_name("load-corpus-vectors")
    info = prepare(data_dir, args.embeddings)
    mode = "hybrid" if args.embeddings else "text"
    settings = make_settings(data_dir, embeddings=args.embeddings, worker=False)
    with run_server(settings, worker=False) as srv:
        print(
            f"corpus: {info['indexed']} pages of {HOST}; concurrency {args.concurrency}; "
            f"search mode {mode}",
            flush=True,
        )
        results = asyncio.run(load(srv.base_url, args, mode))
    head = ("kind", "requests", "errors", "req/s", "p50 ms", "p95 ms", "max ms")
    print(f"{head[0]:<8}" + "".join(f"{h:>9}" for h in head[1:]))
    for name, r in results.items():
        print(
            f"{name:<8}{r['n']:>9}{r['errors']:>8}{r['rps']:>9.1f}{r['p50_ms']:>9.1f}"
            f"{r['p95_ms']:>9.1f}{r['max_ms']:>9.1f}"
        )
    failed = {k: r["first_error"] for k, r in results.items() if r["errors"]}
    if failed:
        print(f"errors: {failed}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
