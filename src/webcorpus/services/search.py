"""Hybrid search over page chunks: BM25 (FTS5) and vectors, fused with reciprocal rank fusion
on pages (one chunk per page first)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from webcorpus.config import Settings
from webcorpus.index.ftsquery import fts5_query
from webcorpus.index.fusion import page_diverse_rrf
from webcorpus.index.vectors import VectorIndex
from webcorpus.services.errors import ServiceError, invalid_param
from webcorpus.store import Store
from webcorpus.store.models import SearchFilters

MODES = ("hybrid", "vector", "text")
CANDIDATES = 100  # per engine, before fusion
RRF_K = 10  # chosen on the tune split of eval/search (k in 1, 10, 30, 60)


class SearchEngine:
    """One per process: the vector index and the query embedder, both loaded lazily."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.index = VectorIndex(store)
        self._lock = threading.Lock()
        self._embedder: Any = None
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="search-text")

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    @property
    def vectors_enabled(self) -> bool:
        return self.settings.embeddings

    def embed_query(self, q: str) -> Any:
        if self._embedder is None:
            with self._lock:
                if self._embedder is None:
                    from webcorpus.index.embedder import Embedder

                    self._embedder = Embedder(
                        self.settings.models_path, variant=self.settings.embed_variant, threads=1
                    )
        return self._embedder.embed_query(q)

    def search(
        self, q: str | None, mode: str, filters: SearchFilters, limit: int
    ) -> dict[str, Any]:
        if q is None or not q.strip():
            raise invalid_param("q", "is required and must not be empty")
        if len(q) > self.settings.max_q_chars:
            raise invalid_param("q", f"is limited to {self.settings.max_q_chars} characters")
        if mode not in MODES:
            raise invalid_param("mode", f"must be one of {', '.join(MODES)}")
        if not 1 <= limit <= self.settings.search_limit:
            raise invalid_param("limit", f"must be from 1 to {self.settings.search_limit}")
        if mode != "text" and not self.vectors_enabled:
            if mode == "vector":
                raise ServiceError(
                    "invalid_parameter",
                    "mode=vector: vector search is turned off on this server "
                    "(WEBCORPUS_EMBEDDINGS=false)",
                    [{"param": "mode", "message": "vector search is turned off"}],
                )
            mode = "text"
        k = max(limit, CANDIDATES) if mode == "hybrid" else limit
        hits: dict[str, list[tuple[int, float]]] = {}
        if mode == "hybrid":
            # Both engines spend their time in C (SQLite, onnxruntime, numpy) with the GIL
            # released, so running them side by side costs the slower one, not the sum.
            text_future = self._pool.submit(self._text_hits, q, filters, k)
            hits["vector"] = self._vector_hits(q, filters, k)
            hits["text"] = text_future.result()
        elif mode == "text":
            hits["text"] = self._text_hits(q, filters, k)
        else:
            hits["vector"] = self._vector_hits(q, filters, k)
        ranked = {name: [cid for cid, _ in h] for name, h in hits.items()}
        scores = {name: dict(h) for name, h in hits.items()}
        if mode == "hybrid":
            pages = self.store.chunk_pages(set(ranked["text"]) | set(ranked["vector"]))
            fused = page_diverse_rrf(
                {name: [str(c) for c in ids] for name, ids in ranked.items()},
                {str(c): p for c, p in pages.items()},
                k=RRF_K,
                limit=limit,
            )
            order = [(int(h.id), h.score, h.ranks) for h in fused]
        else:
            engine = mode
            order = [
                (cid, _unit_score(engine, scores[engine][cid]), {engine: rank})
                for rank, cid in enumerate(ranked[engine][:limit], start=1)
            ]
        rows = self.store.chunk_hits([cid for cid, _, _ in order])
        data = []
        for cid, score, ranks in order:
            row = rows.get(cid)
            if row is None:
                continue  # deleted since the index was loaded
            data.append(
                {
                    "chunk_id": str(cid),
                    "page_id": row["page_id"],
                    "url": row["url"],
                    "title": row["title"],
                    "domain": row["domain"],
                    "heading": row["heading"],
                    "text": row["text"],
                    "score": round(float(score), 4),
                    "ranks": ranks,
                }
            )
        return {"data": data, "query": q, "mode": mode, "limit": limit}

    def _text_hits(self, q: str, filters: SearchFilters, k: int) -> list[tuple[int, float]]:
        fts = fts5_query(q)
        return self.store.search_text(fts, filters, k) if fts else []

    def _vector_hits(self, q: str, filters: SearchFilters, k: int) -> list[tuple[int, float]]:
        allowed = self.store.filtered_page_ids(filters) if filters.active() else None
        return self.index.search(self.embed_query(q), k, allowed_pages=allowed)


def _unit_score(engine: str, raw: float) -> float:
    """Scores in [0, 1]: FTS5's bm25 is negative (lower is better), so map -b / (1 - b)."""
    if engine == "text":
        return -raw / (1.0 - raw) if raw < 0 else 0.0
    return max(0.0, min(1.0, raw))
