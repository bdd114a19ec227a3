"""Hybrid search over page chunks: BM25 (FTS5) and vectors, fused with reciprocal rank fusion."""

from __future__ import annotations

import threading
from typing import Any

from webcorpus.config import Settings
from webcorpus.index.ftsquery import fts5_query
from webcorpus.index.fusion import reciprocal_rank_fusion
from webcorpus.index.vectors import VectorIndex
from webcorpus.services.errors import ServiceError, invalid_param
from webcorpus.store import Store
from webcorpus.store.models import SearchFilters

MODES = ("hybrid", "vector", "text")
CANDIDATES = 100  # per engine, before fusion


class SearchEngine:
    """One per process: the vector index and the query embedder, both loaded lazily."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.index = VectorIndex(store)
        self._lock = threading.Lock()
        self._embedder: Any = None

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
        ranked: dict[str, list[int]] = {}
        scores: dict[str, dict[int, float]] = {}
        if mode in ("text", "hybrid"):
            fts = fts5_query(q)
            hits = self.store.search_text(fts, filters, k) if fts else []
            ranked["text"] = [cid for cid, _ in hits]
            scores["text"] = dict(hits)
        if mode in ("vector", "hybrid"):
            allowed = self.store.filtered_page_ids(filters) if filters.active() else None
            vec_hits = self.index.search(self.embed_query(q), k, allowed_pages=allowed)
            ranked["vector"] = [cid for cid, _ in vec_hits]
            scores["vector"] = dict(vec_hits)
        if mode == "hybrid":
            fused = reciprocal_rank_fusion(
                {name: [str(c) for c in ids] for name, ids in ranked.items()}, limit=limit
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


def _unit_score(engine: str, raw: float) -> float:
    """Scores in [0, 1]: FTS5's bm25 is negative (lower is better), so map -b / (1 - b)."""
    if engine == "text":
        return -raw / (1.0 - raw) if raw < 0 else 0.0
    return max(0.0, min(1.0, raw))
