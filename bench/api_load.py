"""Bounded loopback load test of the read API: page reads, lists, bundles and search.

    python bench/api_load.py [--concurrency 8] [--requests 400] [--seconds 20]
                             [--data-dir ~/.cache/webcorpus-test/load-corpus] [--embeddings]
                             [--server-process] [--client httpx|wrk]

Prepares (once) a corpus of the full local www.postgresql.org docs (~1170 pages, crawled through
the nginx test fixture) in ``--data-dir`` and reuses it on later runs. Then it starts its own
server (uvicorn in a thread, worker off) on that data dir and, for each kind of request, runs
``--concurrency`` httpx.AsyncClient workers over real HTTP until ``--requests`` requests are done
or ``--seconds`` have passed, whichever comes first. It prints requests/s, p50/p95/max latency
and the error count per kind, and exits non-zero if any request failed.

``--server-process`` runs the server as its own ``webcorpus serve`` process instead, so that the
load client does not share its interpreter (and its GIL) with the server, and also prints the
server's CPU ms per request of each kind.

``--client wrk`` sends the same requests with wrk (``apt-get install wrk``, one thread) instead of
the Python client. Use it for concurrency above ~8: the httpx client's own CPU per request grows
with its connection count (here +3.6 ms per request at 32), so at 32 it, not the server, set the
pace and the server looked twice as slow as it is.

Kinds: ``page`` (GET /api/content/<id>), ``list`` (GET /api/content with filters and sorts),
``bundle`` (GET /api/domains/postgresql.org/content.md?limit=50) and ``search`` (GET /api/search;
hybrid when the corpus has vectors, i.e. it was prepared with ``--embeddings``, else text).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server import free_port, make_settings, run_server, spawn_serve
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


_WRK_SCRIPT = """
paths = {%s}
i = 0
request = function()
  i = i + 1
  return wrk.format(nil, paths[((i - 1) %% #paths) + 1])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK %%d %%d %%d %%d %%.3f %%.3f %%.3f\\n", summary.requests,
    summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency.max / 1000))
end
"""


def run_kind_wrk(
    base_url: str, paths: list[str], *, concurrency: int, seconds: float
) -> dict[str, Any]:
    """The requests of ``paths`` (cycled) for ``seconds`` with wrk at ``concurrency``."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_WRK_SCRIPT % ",".join(json.dumps(p) for p in paths))
    run = subprocess.run(
        [
            "wrk",
            "-t1",
            "--timeout",
            "60s",
            f"-c{concurrency}",
            f"-d{max(1, round(seconds))}s",
            "-s",
            script.name,
            base_url,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )
    os.unlink(script.name)
    line = next((ln for ln in run.stdout.splitlines() if ln.startswith("WRK ")), None)
    if run.returncode != 0 or line is None:
        sys.exit(f"wrk failed ({run.returncode}): {run.stderr or run.stdout}")
    n, duration_us, socket_errors, status_errors, p50, p95, worst = line.split()[1:]
    wall = int(duration_us) / 1e6
    errors = int(socket_errors) + int(status_errors)
    return {
        "n": int(n),
        "errors": errors,
        "first_error": f"{socket_errors} socket errors, {status_errors} non-2xx/3xx"
        if errors
        else "",
        "wall_s": wall,
        "rps": int(n) / wall if wall else 0.0,
        "p50_ms": float(p50),
        "p95_ms": float(p95),
        "max_ms": float(worst),
    }


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(
    base_url: str, args: argparse.Namespace, mode: str, server_cpu: Callable[[], float] | None
) -> dict[str, dict[str, Any]]:
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
            cpu_before = server_cpu() if server_cpu else 0.0
            if args.client == "wrk":
                paths = [
                    client.build_request("GET", path, params=params).url.raw_path.decode()
                    for path, params in map(kinds[name], range(1000))
                ]
                results[name] = await asyncio.to_thread(
                    run_kind_wrk,
                    base_url,
                    paths,
                    concurrency=args.concurrency,
                    seconds=args.seconds,
                )
            else:
                results[name] = await run_kind(
                    client,
                    kinds[name],
                    concurrency=args.concurrency,
                    requests=args.bundle_requests if name == "bundle" else args.requests,
                    seconds=args.seconds,
                )
            res = results[name]
            if server_cpu:
                res["server_cpu_ms"] = (server_cpu() - cpu_before) * 1000 / max(1, res["n"])
            print(
                f"  {name:<7} {res['n']:>5} req in {res['wall_s']:5.1f}s",
                file=sys.stderr,
                flush=True,
            )
        return results


@contextmanager
def serve_process(data_dir: Path, embeddings: bool) -> Iterator[tuple[str, int]]:
    """``webcorpus serve`` on ``data_dir`` (worker off) in its own process; yields its base URL
    and process id."""
    port = free_port()
    env = {
        "WEBCORPUS_DATA_DIR": str(data_dir),
        "WEBCORPUS_WORKER": "false",
        "WEBCORPUS_EMBEDDINGS": str(embeddings).lower(),
        "WEBCORPUS_MODEL_DIR": str(make_settings(data_dir).model_dir),
    }
    log = Path(tempfile.mkdtemp(prefix="wc-load-serve-")) / "serve.log"
    proc = spawn_serve(env, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                sys.exit(f"webcorpus serve exited ({proc.returncode}); see {log}")
            try:
                if httpx.get(f"{base}/api/content", params={"limit": 1}).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                sys.exit(f"webcorpus serve did not answer in 60 s; see {log}")
            time.sleep(0.2)
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(30)


@contextmanager
def server(data_dir: Path, embeddings: bool, separate: bool) -> Iterator[tuple[str, int | None]]:
    """The server's base URL, and its process id when it runs as a process of its own."""
    if separate:
        with serve_process(data_dir, embeddings) as (base, pid):
            yield base, pid
        return
    settings = make_settings(data_dir, embeddings=embeddings, worker=False)
    with run_server(settings, worker=False) as srv:
        yield srv.base_url, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--requests", type=int, default=400, help="most requests per kind")
    parser.add_argument("--bundle-requests", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=20.0, help="most seconds per kind")
    parser.add_argument("--kinds", default="page,list,bundle,search")
    parser.add_argument("--embeddings", action="store_true", help="corpus with vectors")
    parser.add_argument(
        "--server-process",
        action="store_true",
        help="run the server as its own `webcorpus serve` process (default: a thread of this one)",
    )
    parser.add_argument(
        "--client",
        choices=("httpx", "wrk"),
        default="httpx",
        help="wrk: send the requests with wrk for --seconds per kind (--requests does not apply)",
    )
    args = parser.parse_args()
    if args.client == "wrk" and shutil.which("wrk") is None:
        sys.exit("--client wrk needs wrk on PATH (Debian: apt-get install wrk)")
    data_dir = args.data_dir.expanduser()
    if args.embeddings and data_dir == DEFAULT_DIR:
        data_dir = DEFAULT_DIR.with_name("load-corpus-vectors")
    info = prepare(data_dir, args.embeddings)
    mode = "hybrid" if args.embeddings else "text"
    with server(data_dir, args.embeddings, args.server_process) as (base_url, pid):
        where = "its own process" if args.server_process else "a thread of the client's process"
        print(
            f"corpus: {info['indexed']} pages of {HOST}; concurrency {args.concurrency}; "
            f"search mode {mode}; server in {where}",
            flush=True,
        )
        probe = (lambda: process_cpu_s(pid)) if pid else None
        results = asyncio.run(load(base_url, args, mode, probe))
    head = ["kind", "requests", "errors", "req/s", "p50 ms", "p95 ms", "max ms"]
    if pid:
        head.append("srv cpu ms")
    print(f"{head[0]:<8}" + "".join(f"{h:>11}" for h in head[1:]))
    for name, r in results.items():
        cpu = f"{r['server_cpu_ms']:>11.1f}" if pid else ""
        print(
            f"{name:<8}{r['n']:>11}{r['errors']:>11}{r['rps']:>11.1f}{r['p50_ms']:>11.1f}"
            f"{r['p95_ms']:>11.1f}{r['max_ms']:>11.1f}{cpu}"
        )
    failed = {k: r["first_error"] for k, r in results.items() if r["errors"]}
    if failed:
        print(f"errors: {failed}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
