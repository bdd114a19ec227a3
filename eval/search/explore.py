"""Client-side fusion variants over the engines' own rankings, to tune hybrid on the tune split.

Fetches each query's text and vector rankings once (``limit=50``, the API maximum; the server
fuses the top 100 of each engine) and fuses them here: chunk-level RRF as the server does, with
several k and text weights, and page-level RRF (each engine's list deduped to pages before
fusing, so a page with many matching chunks does not crowd the top 10). Choose on ``tune``;
the holdout column confirms.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eval.search.metrics import dedupe_pages, mean, ndcg_at_k, recall_at_k
from tests.server import Running

DEPTH = 50
Hits = list[tuple[str, str]]  # (chunk id, url), best first
Fuse = Callable[[Hits, Hits], list[str]]


def _rankings(srv: Running, q: dict[str, Any], mode: str) -> Hits:
    r = srv.client.get(
        "/api/search",
        params={"q": q["query"], "mode": mode, "limit": DEPTH, "domain": q["site"]},
    )
    r.raise_for_status()
    return [(h["chunk_id"], h["url"]) for h in r.json()["data"]]


def rrf(lists: Mapping[str, Sequence[str]], k: float, weights: Mapping[str, float]) -> list[str]:
    scores: dict[str, float] = {}
    for name, items in lists.items():
        seen: set[str] = set()
        for rank, item in enumerate(items, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weights.get(name, 1.0) / (k + rank)
    return sorted(scores, key=lambda x: (-scores[x], x))


def chunk_rrf(k: float, w_text: float) -> Fuse:
    def fuse(t: Hits, v: Hits) -> list[str]:
        urls = dict(t) | dict(v)
        ids = rrf({"text": [c for c, _ in t], "vector": [c for c, _ in v]}, k, {"text": w_text})
        return dedupe_pages(urls[c] for c in ids[:10])  # the API returns 10 chunks

    return fuse


def page_rrf(k: float, w_text: float) -> Fuse:
    def fuse(t: Hits, v: Hits) -> list[str]:
        lists = {"text": dedupe_pages(u for _, u in t), "vector": dedupe_pages(u for _, u in v)}
        return rrf(lists, k, {"text": w_text})

    return fuse


def variants() -> dict[str, Fuse]:
    out: dict[str, Fuse] = {
        "text only (10 chunks)": lambda t, v: dedupe_pages(u for _, u in t[:10]),
        "vector only (10 chunks)": lambda t, v: dedupe_pages(u for _, u in v[:10]),
        # One engine, deduped to pages over its top 50 chunks: as diverse as page-level fusion.
        "text only (pages of 50)": lambda t, v: dedupe_pages(u for _, u in t),
        "vector only (pages of 50)": lambda t, v: dedupe_pages(u for _, u in v),
    }
    for k in (1, 10, 30, 60):
        for w in (0.5, 1.0, 2.0):
            out[f"chunk-rrf k={k} w_text={w}"] = chunk_rrf(k, w)
            out[f"page-rrf k={k} w_text={w}"] = page_rrf(k, w)
    return out


def explore(srv: Running, queries: list[dict[str, Any]]) -> None:
    runs = [(q, _rankings(srv, q, "text"), _rankings(srv, q, "vector")) for q in queries]
    rows = []
    for name, fuse in variants().items():
        per: dict[str, list[tuple[float, float]]] = {"tune": [], "holdout": []}
        for q, t, v in runs:
            ranked = fuse(t, v)
            per[q["split"]].append(
                (ndcg_at_k(ranked, q["relevant"]), recall_at_k(ranked, q["relevant"]))
            )
        rows.append(
            (
                name,
                mean([x[0] for x in per["tune"]]),
                mean([x[0] for x in per["holdout"]]),
                mean([x[1] for x in per["holdout"]]),
            )
        )
    rows.sort(key=lambda r: -r[1])
    print(f"{'variant (sorted by tune nDCG@10)':32} {'tune':>7} {'holdout':>8} {'R@10 ho':>8}")
    for name, tune, hold, rec in rows:
        print(f"{name:32} {tune:7.4f} {hold:8.4f} {rec:8.3f}")
