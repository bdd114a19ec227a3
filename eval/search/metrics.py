"""Ranking metrics for the search evaluation: graded nDCG@k and recall@k over pages."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import urlsplit


def dedupe_pages(urls: Iterable[str]) -> list[str]:
    """Page paths in first-seen order: a page's rank is the rank of its first chunk."""
    seen: dict[str, None] = {}
    for url in urls:
        seen.setdefault(page_path(url), None)
    return list(seen)


def page_path(url: str) -> str:
    """``http://host/a/b.html#x`` -> ``/a/b.html``; a directory path means its index.html."""
    path = urlsplit(url).path or "/"
    if path.endswith("/"):
        path += "index.html"
    return path


def _norm(path: str) -> str:
    return path + "index.html" if path.endswith("/") else path


def dcg(gains: Sequence[float]) -> float:
    return sum((2.0**g - 1.0) / math.log2(i + 2) for i, g in enumerate(gains))


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """Graded nDCG@k with exponential gain 2^g - 1 and log2(rank + 1) discount."""
    rel = {_norm(p): g for p, g in relevant.items() if g > 0}
    if not rel:
        return 0.0
    gains = [float(rel.get(_norm(p), 0)) for p in ranked[:k]]
    ideal = dcg(sorted(map(float, rel.values()), reverse=True)[:k])
    return dcg(gains) / ideal if ideal > 0 else 0.0


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """Share of the relevant pages (any grade > 0) found in the top k."""
    rel = {_norm(p) for p, g in relevant.items() if g > 0}
    if not rel:
        return 0.0
    top = {_norm(p) for p in ranked[:k]}
    return len(rel & top) / len(rel)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
