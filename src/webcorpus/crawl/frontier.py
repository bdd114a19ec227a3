"""The in-memory frontier of one job: pending URLs in priority order (lower first)."""

from __future__ import annotations

import heapq
import itertools

from webcorpus.store.models import UrlEntry


class Frontier:
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, UrlEntry]] = []
        self._seq = itertools.count()

    def push(self, entry: UrlEntry) -> None:
        heapq.heappush(self._heap, (entry.priority, next(self._seq), entry))

    def pop(self) -> UrlEntry | None:
        if not self._heap:
            return None
        return heapq.heappop(self._heap)[2]

    def __len__(self) -> int:
        return len(self._heap)


def priority_for(depth: int, source: str) -> float:
    """Breadth first; the entry page first; sitemap URLs rank with depth-1 links."""
    if source == "entry":
        return -1.0
    if source == "sitemap":
        return 1.5
    return float(depth)
