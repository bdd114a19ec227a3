from __future__ import annotations

import pytest

from webcorpus.index.fusion import FusedHit, page_diverse_rrf, reciprocal_rank_fusion


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


def test_page_diverse_one_chunk_per_page_first() -> None:
    page_of = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "c1": "C"}
    ranked = {"text": ["a1", "a2", "a3", "b1"], "vector": ["a2", "c1", "b1"]}
    hits = page_diverse_rrf(ranked, page_of, k=10, limit=10)
    # Pages: A is first in both engines; B is 2nd in text and 3rd in vector; C 2nd in vector.
    assert [page_of[h.id] for h in hits[:3]] == ["A", "B", "C"]
    # A is shown by its best chunk: a2 (text 2, vector 1) beats a1 (text 1 only).
    assert hits[0].id == "a2" and hits[0].ranks == {"text": 2, "vector": 1}
    assert hits[0].score == pytest.approx(1 / 11 + 1 / 11)
    assert hits[1].score == pytest.approx(1 / 12 + 1 / 13)
    assert hits[2].score == pytest.approx(1 / 12)
    # Then the other chunks of already shown pages, by chunk-level score: every chunk once.
    assert [h.id for h in hits[3:]] == ["a1", "a3"]
    assert sorted(h.id for h in hits) == sorted(page_of)


def test_page_diverse_limit_and_unknown_pages() -> None:
    ranked = {"text": ["x", "y", "z"], "vector": ["z"]}
    hits = page_diverse_rrf(ranked, {"x": "P", "y": "P"}, limit=2)  # z: its own page
    assert [h.id for h in hits] == ["z", "x"]
    assert page_diverse_rrf(ranked, {}, limit=0) == []
    assert page_diverse_rrf({}, {}, limit=5) == []
    with pytest.raises(ValueError):
        page_diverse_rrf(ranked, {}, k=-1, limit=1)


def test_page_diverse_is_deterministic_regardless_of_engine_order() -> None:
    page_of = {str(i): f"p{i % 3}" for i in range(9)}
    a = page_diverse_rrf({"text": list("012345"), "vector": list("876543")}, page_of, limit=9)
    b = page_diverse_rrf({"vector": list("876543"), "text": list("012345")}, page_of, limit=9)
    assert a == b and len(a) == 9
