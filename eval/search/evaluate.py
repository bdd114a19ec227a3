"""Search quality on the real doc sites: nDCG@10 and recall@10 per mode and split.

Starts nginx with the doc sites (``tests.sites``), runs a real webcorpus server with embeddings
(``tests.server``), crawls docs.python.org, www.postgresql.org/docs/15/ and the Debian
Administrator's Handbook in the languages the queries use (a handbook tree restricted to those
languages is served as debian-handbook.info), then asks ``GET /api/search`` every query of
``queries.jsonl`` in each mode with ``limit=10`` and ``domain=<site>``. Hits map to pages (a page's
rank is the rank of its first chunk).

The crawled data dir persists (default ``~/.cache/webcorpus-test/search-eval/data``): later runs
reuse it without crawling or embedding. ``--fresh`` wipes it first.

    /work/venv/bin/python -m eval.search.evaluate                 # crawl once, then evaluate
    /work/venv/bin/python -m eval.search.evaluate --crawl-only    # build the corpus only
    /work/venv/bin/python -m eval.search.evaluate --embed-budget 0  # text figures, no embedding
    /work/venv/bin/python -m eval.search.evaluate --explore       # client-side fusion variants
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from eval.search.metrics import dedupe_pages, mean, ndcg_at_k, recall_at_k  # noqa: E402
from tests.server import Running, make_settings, run_server  # noqa: E402
from tests.sites.docsites import (  # noqa: E402
    HANDBOOK_HOST,
    DocSite,
    default_cache_dir,
    ensure_doc_sites,
)
from tests.sites.nginx import running_nginx  # noqa: E402

HERE = Path(__file__).resolve().parent
QUERIES = HERE / "queries.jsonl"
EVAL_DIR = default_cache_dir() / "search-eval"
DEFAULT_DATA = EVAL_DIR / "data"
MODES = ("text", "vector", "hybrid")
SPLITS = ("tune", "holdout", "all")
BUDGETS = {"docs.python.org": 2000, "www.postgresql.org": 2000, HANDBOOK_HOST: 2000}
MANIFEST = "corpus.json"
# The handbook languages crawled (the queries use these; the other 21 books are not served).
HANDBOOK_LANGS = ("de-DE", "es-ES", "fr-FR", "ja-JP")


def load_queries(path: Path = QUERIES) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def handbook_languages(queries: list[dict[str, Any]]) -> list[str]:
    langs = {
        p.split("/")[2]
        for q in queries
        if q["site"] == HANDBOOK_HOST
        for p in q["relevant"]
        if p.startswith("/browse/")
    }
    return sorted(langs)


def restricted_handbook(full: DocSite, langs: list[str]) -> DocSite:
    """The handbook with only ``langs``: a tree of symlinks into the full site tree."""
    root = EVAL_DIR / ("handbook-" + "-".join(langs))
    if not (root / ".complete").exists():
        shutil.rmtree(root, ignore_errors=True)
        (root / "browse").mkdir(parents=True)
        for lang in langs:
            (root / "browse" / lang).mkdir()
            (root / "browse" / lang / "stable").symlink_to(full.root / "browse" / lang / "stable")
        items = "\n".join(f'<li><a href="/browse/{lg}/stable/">{lg}</a></li>' for lg in langs)
        (root / "index.html").write_text(
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            "<title>The Debian Administrator's Handbook</title></head><body><main>"
            f"<h1>The Debian Administrator's Handbook</h1><ul>{items}</ul></main></body></html>"
        )
        (root / "robots.txt").write_text("User-agent: *\nDisallow: /get/\n")
        (root / ".complete").touch()
    pages = tuple(p for p in full.pages if p == "/" or p.split("/")[2] in langs)
    return dataclasses.replace(
        full,
        root=root,
        pages=pages,
        sitemap_pages=(),
        sitemaps=(),
        robots_excluded=(),
        languages=tuple(langs),
    )


def corpus_stats(srv: Running) -> dict[str, Any]:
    conn = srv.store.conn
    per_domain = {
        row[0]: {"pages": row[1]}
        for row in conn.execute("SELECT domain, count(*) FROM pages GROUP BY domain")
    }
    for domain, chunks, tokens in conn.execute(
        "SELECT p.domain, count(*), sum(c.tokens) FROM chunks c JOIN pages p ON p.id = c.page_id "
        "GROUP BY p.domain"
    ):
        per_domain.setdefault(domain, {})["chunks"] = chunks
        per_domain[domain]["tokens"] = tokens
    vectors = srv.store.vector_count()
    return {"domains": per_domain, "vectors": vectors}


def build_corpus(data_dir: Path, queries: list[dict[str, Any]]) -> dict[str, Any]:
    """Phase 1: crawl the three sites into ``data_dir`` (text index only; returns the manifest).

    Crawling with embeddings on would make each job wait for its chunks' vectors before the
    worker takes the next job, so the three sites are crawled first and embedded afterwards
    (:func:`embed_corpus`), which also lets a long embedding run be interrupted and resumed.
    """
    sites = ensure_doc_sites()
    langs = sorted(set(HANDBOOK_LANGS) | set(handbook_languages(queries)))
    handbook = restricted_handbook(sites.handbook, langs)
    served = [sites.python, sites.postgres, handbook]
    data_dir.mkdir(parents=True, exist_ok=True)
    with running_nginx(served, EVAL_DIR / "nginx") as nginx:
        settings = make_settings(
            data_dir, embeddings=False, connect_to=nginx.connect_to(refuse_https=True)
        )
        with run_server(settings) as srv:
            t0 = time.monotonic()
            views = {}
            for domain, budget in BUDGETS.items():
                views[domain] = srv.wait(srv.crawl(domain, budget=budget), timeout=3600)
                print(
                    f"  {domain}: {views[domain]['state']} {views[domain]['progress']['indexed']}"
                    f" pages, {time.monotonic() - t0:.0f} s",
                    flush=True,
                )
            crawl_s = time.monotonic() - t0
            stats = corpus_stats(srv)
    manifest = {
        "languages": langs,
        "jobs": {
            d: {"state": v["state"], "indexed": v["progress"]["indexed"]} for d, v in views.items()
        },
        "crawl_s": round(crawl_s, 1),
        "stats": stats,
        "embedding": {"done": False, "seconds": 0.0, "embedded": 0},
    }
    (data_dir / MANIFEST).write_text(json.dumps(manifest, indent=1))
    return manifest


def embed_corpus(data_dir: Path, manifest: dict[str, Any], budget_s: float) -> dict[str, Any]:
    """Phase 2: run the product's embedding stage until every chunk has a vector (resumable).

    Stops after ``budget_s`` seconds (the manifest records progress; run again to go on).
    """
    settings = make_settings(data_dir, embeddings=True)
    emb = manifest["embedding"]
    with run_server(settings) as srv:
        store = srv.store
        t0 = time.monotonic()
        start = store.vector_count()
        total = store.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        tokens0 = _embedded_tokens(srv)
        last = 0.0
        while True:
            backlog = store.embedding_backlog()
            elapsed = time.monotonic() - t0
            if elapsed - last >= 30 or not backlog:
                last = elapsed
                done = store.vector_count() - start
                print(
                    f"  embedding: {total - backlog}/{total} chunks, {elapsed:.0f} s, "
                    f"{done / max(elapsed, 1e-9):.1f} chunks/s",
                    flush=True,
                )
            if not backlog or elapsed > budget_s:
                break
            time.sleep(2)
        elapsed = time.monotonic() - t0
        done = store.vector_count() - start
        tokens = _embedded_tokens(srv) - tokens0
        emb["seconds"] = round(emb["seconds"] + elapsed, 1)
        emb["embedded"] = emb["embedded"] + done
        emb["done"] = backlog == 0
        emb["last_run"] = {
            "chunks": done,
            "seconds": round(elapsed, 1),
            "chunks_per_s": round(done / max(elapsed, 1e-9), 2),
            "tokens_per_s": round(tokens / max(elapsed, 1e-9), 1),
        }
        manifest["stats"] = corpus_stats(srv)
    (data_dir / MANIFEST).write_text(json.dumps(manifest, indent=1))
    return manifest


def _embedded_tokens(srv: Running) -> int:
    row = srv.store.conn.execute("SELECT coalesce(sum(tokens), 0) FROM chunks WHERE embedded = 1")
    return int(row.fetchone()[0])


@contextmanager
def corpus_server(data_dir: Path) -> Iterator[Running]:
    settings = make_settings(data_dir, embeddings=True)
    with run_server(settings, worker=False) as srv:
        yield srv


def search_pages(srv: Running, query: dict[str, Any], mode: str, limit: int = 10) -> list[str]:
    r = srv.client.get(
        "/api/search",
        params={"q": query["query"], "mode": mode, "limit": limit, "domain": query["site"]},
    )
    r.raise_for_status()
    return dedupe_pages(hit["url"] for hit in r.json()["data"])


def check_judged_pages(srv: Running, queries: list[dict[str, Any]]) -> list[str]:
    """Judged pages missing from the corpus, as ``site path``."""
    conn = srv.store.conn
    have = set()
    for (url,) in conn.execute("SELECT url FROM pages"):
        have.add(url)
    from eval.search.metrics import page_path

    paths = {(u.split("/")[2], page_path(u)) for u in have}
    missing = []
    for q in queries:
        for p in q["relevant"]:
            norm = p + "index.html" if p.endswith("/") else p
            if (q["site"], norm) not in paths:
                missing.append(f"{q['id']}: {q['site']} {p}")
    return missing


def evaluate(
    srv: Running, queries: list[dict[str, Any]], k: int = 10
) -> tuple[dict[str, dict[str, dict[str, float]]], list[dict[str, Any]]]:
    per_query: list[dict[str, Any]] = []
    for q in queries:
        row: dict[str, Any] = {"id": q["id"], "split": q["split"], "site": q["site"]}
        for mode in MODES:
            ranked = search_pages(srv, q, mode, limit=k)
            row[mode] = {
                "ndcg": ndcg_at_k(ranked, q["relevant"], k),
                "recall": recall_at_k(ranked, q["relevant"], k),
                "top": ranked[:3],
            }
        per_query.append(row)
    return summarize(per_query), per_query


def summarize(per_query: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for split in SPLITS:
        rows = [r for r in per_query if split == "all" or r["split"] == split]
        out[split] = {
            mode: {
                "n": len(rows),
                "ndcg@10": round(mean([r[mode]["ndcg"] for r in rows]), 4),
                "recall@10": round(mean([r[mode]["recall"] for r in rows]), 4),
            }
            for mode in MODES
        }
    return out


def print_table(summary: dict[str, dict[str, dict[str, float]]]) -> None:
    print(f"{'split':8} {'n':>4}  " + "  ".join(f"{m + ' nDCG':>12} {'R@10':>6}" for m in MODES))
    for split, modes in summary.items():
        n = next(iter(modes.values()))["n"]
        cells = "  ".join(
            f"{modes[m]['ndcg@10']:>12.4f} {modes[m]['recall@10']:>6.3f}" for m in MODES
        )
        print(f"{split:8} {n:>4}  {cells}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--queries", type=Path, default=QUERIES)
    ap.add_argument("--fresh", action="store_true", help="wipe the data dir and crawl again")
    ap.add_argument("--crawl-only", action="store_true", help="build the corpus, no queries")
    ap.add_argument(
        "--embed-budget", type=float, default=3600, help="seconds of embedding per run (0: none)"
    )
    ap.add_argument("--explore", action="store_true", help="client-side fusion variants")
    ap.add_argument("--by-site", action="store_true", help="also print figures per site")
    ap.add_argument("--json", type=Path, help="write per-query results here")
    args = ap.parse_args(argv)
    queries = load_queries(args.queries)
    if args.fresh and args.data_dir.exists():
        shutil.rmtree(args.data_dir)
    if not (args.data_dir / MANIFEST).exists():
        print(f"crawling the doc sites into {args.data_dir} ...", flush=True)
        build_corpus(args.data_dir, queries)
    manifest = json.loads((args.data_dir / MANIFEST).read_text())
    if not manifest["embedding"]["done"] and args.embed_budget > 0:
        print("embedding the corpus (resumable) ...", flush=True)
        manifest = embed_corpus(args.data_dir, manifest, args.embed_budget)
    print("corpus:", json.dumps(manifest["stats"]), "jobs:", json.dumps(manifest["jobs"]))
    print(f"crawl {manifest['crawl_s']} s; embedding {json.dumps(manifest['embedding'])}")
    if args.crawl_only:
        return 0
    if not manifest["embedding"]["done"]:
        print("WARNING: not every chunk has a vector yet: vector and hybrid figures are not valid")
    with corpus_server(args.data_dir) as srv:
        missing = check_judged_pages(srv, queries)
        if missing:
            print(f"{len(missing)} judged pages missing from the corpus:")
            for m in missing[:30]:
                print("  ", m)
        t0 = time.monotonic()
        summary, per_query = evaluate(srv, queries)
        print(f"{len(queries)} queries x {len(MODES)} modes in {time.monotonic() - t0:.1f} s")
        print_table(summary)
        if args.by_site:
            for site in sorted({q["site"] for q in queries}):
                print(f"-- {site}")
                print_table(summarize([r for r in per_query if r["site"] == site]))
        if args.json:
            args.json.write_text(json.dumps({"summary": summary, "queries": per_query}, indent=1))
        if args.explore:
            from eval.search.explore import explore

            explore(srv, queries)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
