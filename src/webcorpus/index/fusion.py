"""Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009) of ranked id lists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class FusedHit:
    id: str
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # engine -> 1-based rank


def reciprocal_rank_fusion(
    ranked: Mapping[str, Sequence[str]], *, k: int = 60, limit: int
) -> list[FusedHit]:
    """Fuse best-first id lists: score(id) = sum over engines of 1 / (k + rank).

    A duplicate id within one engine's list counts once, at its best rank. Ties on score are
    broken by id, so the output is deterministic.
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    if limit <= 0:
        return []
    ranks: dict[str, dict[str, int]] = {}
    for engine in sorted(ranked):
        for position, doc_id in enumerate(ranked[engine], start=1):
            per_engine = ranks.setdefault(doc_id, {})
            per_engine.setdefault(engine, position)
    hits = [
        FusedHit(doc_id, sum(1.0 / (k + r) for r in sorted(engine_ranks.values())), engine_ranks)
        for doc_id, engine_ranks in ranks.items()
    ]
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits[:limit]
