"""An exact in-memory vector index over the stored chunk vectors (embedded default).

Vectors live in SQLite (``chunk_vectors``); each process keeps a float32 matrix of them and scores
a query with one matrix product. Filters become a boolean mask over the rows *before* ranking, so
a filtered query returns ``k`` hits whenever ``k`` chunks pass the filter, which an approximate
index with post-filtering cannot promise. 100,000 chunks take 150 MB and a few ms per query.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from typing import Any

import numpy as np
import numpy.typing as npt

DIM = 384
_BATCH = 20_000


class VectorIndex:
    def __init__(self, store: Any, *, dim: int = DIM, min_refresh_s: float = 1.0) -> None:
        self.store = store
        self.dim = dim
        self.min_refresh_s = min_refresh_s
        self._lock = threading.Lock()
        self._ids = np.zeros(0, dtype=np.int64)
        self._pages: list[str] = []
        self._page_index: dict[str, int] = {}
        self._row_page = np.zeros(0, dtype=np.int32)
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._max_id = 0
        self._checked = 0.0

    def __len__(self) -> int:
        return int(self._ids.shape[0])

    def refresh(self, *, force: bool = False) -> None:
        """Load vectors added since the last call; reload all when some were deleted."""
        now = time.monotonic()
        if not force and now - self._checked < self.min_refresh_s:
            return
        with self._lock:
            self._checked = now
            total = self.store.vector_count()
            if total < len(self):
                self._reset()
            while True:
                rows = self.store.vector_rows_after(self._max_id, _BATCH)
                if not rows:
                    break
                self._append(rows)
            if self.store.vector_count() != len(self):
                self._reset()
                while rows := self.store.vector_rows_after(self._max_id, _BATCH):
                    self._append(rows)

    def _reset(self) -> None:
        self._ids = np.zeros(0, dtype=np.int64)
        self._row_page = np.zeros(0, dtype=np.int32)
        self._matrix = np.zeros((0, self.dim), dtype=np.float32)
        self._max_id = 0

    def _append(self, rows: list[tuple[int, str, bytes]]) -> None:
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        pages = np.empty(len(rows), dtype=np.int32)
        for i, (_, page_id, _) in enumerate(rows):
            idx = self._page_index.get(page_id)
            if idx is None:
                idx = len(self._pages)
                self._pages.append(page_id)
                self._page_index[page_id] = idx
            pages[i] = idx
        matrix = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(
            len(rows), self.dim
        )
        self._ids = np.concatenate([self._ids, ids])
        self._row_page = np.concatenate([self._row_page, pages])
        self._matrix = np.concatenate([self._matrix, matrix])
        self._max_id = int(ids[-1])

    def search(
        self,
        query: npt.NDArray[np.float32],
        k: int,
        *,
        allowed_pages: Collection[str] | None = None,
    ) -> list[tuple[int, float]]:
        """Top ``k`` (chunk id, cosine similarity), restricted to ``allowed_pages`` if given."""
        self.refresh()
        with self._lock:
            ids, matrix, row_page = self._ids, self._matrix, self._row_page
            page_index = self._page_index
        if ids.shape[0] == 0 or k <= 0:
            return []
        scores = matrix @ query
        available = scores.shape[0]
        if allowed_pages is not None:
            wanted = np.zeros(len(self._pages) + 1, dtype=bool)
            for page_id in allowed_pages:
                idx = page_index.get(page_id)
                if idx is not None:
                    wanted[idx] = True
            mask = wanted[row_page]
            available = int(mask.sum())
            if available == 0:
                return []
            # Mask instead of slicing: scoring every row is cheaper than copying the matrix.
            scores = np.where(mask, scores, -np.inf)
        k = min(k, available)
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((ids[top], -scores[top]))]
        return [(int(ids[i]), float(scores[i])) for i in top]
