"""The search evaluator's metrics on hand-made rankings (no crawl, no server)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from eval.search.metrics import dedupe_pages, ndcg_at_k, page_path, recall_at_k

QUERIES = Path(__file__).resolve().parents[1] / "eval" / "search" / "queries.jsonl"


def test_perfect_ranking_scores_one() -> None:
    rel = {"/a.html": 2, "/b.html": 1}
    assert ndcg_at_k(["/a.html", "/b.html", "/c.html"], rel) == pytest.approx(1.0)
    assert recall_at_k(["/a.html", "/b.html"], rel) == 1.0


def test_swapped_grades_by_hand() -> None:
    rel = {"/a.html": 2, "/b.html": 1}
    # DCG = (2^1-1)/log2(2) + (2^2-1)/log2(3); ideal = 3/1 + 1/log2(3)
    expected = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert ndcg_at_k(["/b.html", "/a.html"], rel) == pytest.approx(expected)


def test_relevant_page_below_cutoff_counts_nothing() -> None:
    ranked = [f"/x{i}.html" for i in range(10)] + ["/a.html"]
    assert ndcg_at_k(ranked, {"/a.html": 2}) == 0.0
    assert recall_at_k(ranked, {"/a.html": 2}) == 0.0
    assert recall_at_k(ranked, {"/a.html": 2}, k=11) == 1.0


def test_single_hit_at_rank_three() -> None:
    ranked = ["/x.html", "/y.html", "/a.html"]
    assert ndcg_at_k(ranked, {"/a.html": 2}) == pytest.approx(1 / math.log2(4))
    assert recall_at_k(ranked, {"/a.html": 2, "/b.html": 1, "/c.html": 1}) == pytest.approx(1 / 3)


def test_ideal_is_truncated_at_k() -> None:
    rel = {f"/p{i}.html": 1 for i in range(12)}
    ranked = [f"/p{i}.html" for i in range(10)]
    assert ndcg_at_k(ranked, rel) == pytest.approx(1.0)
    assert recall_at_k(ranked, rel) == pytest.approx(10 / 12)


def test_empty_and_unjudged() -> None:
    assert ndcg_at_k([], {"/a.html": 2}) == 0.0
    assert ndcg_at_k(["/a.html"], {}) == 0.0
    assert recall_at_k(["/a.html"], {"/a.html": 0}) == 0.0


def test_dedupe_keeps_first_chunk_rank_and_normalises_urls() -> None:
    urls = [
        "http://docs.python.org/library/json.html#basic-usage",
        "http://docs.python.org/library/json.html",
        "http://docs.python.org/",
        "http://docs.python.org/index.html",
        "http://docs.python.org/library/csv.html",
    ]
    assert dedupe_pages(urls) == ["/library/json.html", "/index.html", "/library/csv.html"]
    assert page_path("http://debian-handbook.info/browse/fr-FR/stable/") == (
        "/browse/fr-FR/stable/index.html"
    )
    assert ndcg_at_k(["/browse/x/index.html"], {"/browse/x/": 2}) == pytest.approx(1.0)


def test_query_set_shape() -> None:
    rows = [json.loads(line) for line in QUERIES.read_text().splitlines() if line.strip()]
    assert len(rows) >= 150
    assert len({r["id"] for r in rows}) == len(rows)
    holdout = sum(r["split"] == "holdout" for r in rows)
    assert 0.35 <= holdout / len(rows) <= 0.45
    for r in rows:
        assert r["split"] in ("tune", "holdout") and r["query"].strip()
        assert r["relevant"] and all(g in (1, 2) for g in r["relevant"].values())
        assert any(g == 2 for g in r["relevant"].values())
        assert all(p.startswith("/") for p in r["relevant"])
