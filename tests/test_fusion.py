from __future__ import annotations

import pytest

from webcorpus.index.fusion import FusedHit, reciprocal_rank_fusion


def test_rrf_scores_and_ranks() -> None:
    hits = reciprocal_rank_fusion(
        {"text": ["a", "b", "c"], "vector": ["b", "d", "a"]}, k=60, limit=10
    )
    assert [h.id for h in hits] == ["b", "a", "d", "c"]
    b = hits[0]
    assert b.ranks == {"text": 2, "vector": 1}
    assert b.score == pytest.approx(1 / 62 + 1 / 61)
    d = next(h for h in hits if h.id == "d")
    assert d.ranks == {"vector": 2}  # missing engine is absent
    assert d.score == pytest.approx(1 / 62)


def test_limit_and_ties_broken_by_id() -> None:
    hits = reciprocal_rank_fusion({"text": ["z", "y"], "vector": ["y", "z"]}, limit=10)
    assert [h.id for h in hits] == ["y", "z"]  # equal scores
    assert hits[0].score == hits[1].score
    assert reciprocal_rank_fusion({"text": ["z", "y", "x"]}, limit=2) == [
        FusedHit("z", 1 / 61, {"text": 1}),
        FusedHit("y", 1 / 62, {"text": 2}),
    ]


def test_deterministic_regardless_of_engine_order() -> None:
    a = reciprocal_rank_fusion({"text": ["1", "2", "3"], "vector": ["3", "2", "1"]}, limit=5)
    b = reciprocal_rank_fusion({"vector": ["3", "2", "1"], "text": ["1", "2", "3"]}, limit=5)
    assert a == b
    # 1/61 + 1/63 > 2/62: a first and a last place beat two second places; 1 and 3 tie → by id
    assert [h.id for h in a] == ["1", "3", "2"]


def test_duplicates_within_engine_use_best_rank() -> None:
    (hit,) = reciprocal_rank_fusion({"text": ["a", "a", "a"]}, limit=3)
    assert hit.ranks == {"text": 1}
    assert hit.score == pytest.approx(1 / 61)


def test_empty_inputs() -> None:
    assert reciprocal_rank_fusion({}, limit=10) == []
    assert reciprocal_rank_fusion({"text": [], "vector": []}, limit=10) == []
    assert reciprocal_rank_fusion({"text": ["a"]}, limit=0) == []
    with pytest.raises(ValueError):
        reciprocal_rank_fusion({"text": ["a"]}, k=-1, limit=1)
