"""Filtered search reads the narrow covering indexes, never the wide chunk or page rows.

At 100k chunks the difference is 2-3x in text-search latency (bench/search_latency.py), so the
plans SQLite picks for the statements the store really runs are checked here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import make_settings
from webcorpus.store import open_store
from webcorpus.store.models import SearchFilters
from webcorpus.store.sqlite.store import SQLiteStore

FILTERS = {
    "domain": SearchFilters(domains=["docs.python.org"]),
    "type": SearchFilters(types=["docs", "api_reference"]),
    "locale": SearchFilters(locales=["en"]),
    "technicality_min": SearchFilters(technicality_min=0.4),
    "all": SearchFilters(
        domains=["docs.python.org"], types=["docs"], locales=["en"], technicality_min=0.3
    ),
}


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = open_store(make_settings(tmp_path))
    yield s
    s.close()


def plans_of(store: SQLiteStore, call: object) -> list[str]:
    """The query-plan lines of every SELECT the store ran during ``call()``."""
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    try:
        call()  # type: ignore[operator]
    finally:
        store.conn.set_trace_callback(None)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert selects, statements
    lines: list[str] = []
    for sql in selects:
        lines += [str(r[3]) for r in store.conn.execute("EXPLAIN QUERY PLAN " + sql)]
    return lines


@pytest.mark.parametrize("name", FILTERS)
def test_filtered_text_search_uses_covering_indexes(store: SQLiteStore, name: str) -> None:
    plan = plans_of(store, lambda: store.search_text('"index"', FILTERS[name], 10))
    assert any("COVERING INDEX chunks_id_page" in line for line in plan), plan
    assert any("COVERING INDEX pages_search" in line for line in plan), plan


def test_unfiltered_text_search_stays_in_the_fts_index(store: SQLiteStore) -> None:
    plan = plans_of(store, lambda: store.search_text('"index"', SearchFilters(), 10))
    assert any("VIRTUAL TABLE" in line for line in plan), plan
    assert all("chunks_fts" in line or "TEMP B-TREE" in line for line in plan), plan


@pytest.mark.parametrize("name", FILTERS)
def test_filtered_page_ids_scan_the_narrow_index(store: SQLiteStore, name: str) -> None:
    plan = plans_of(store, lambda: store.filtered_page_ids(FILTERS[name]))
    assert any("pages_search" in line for line in plan), plan
    assert not any(line.startswith("SCAN p") and "INDEX" not in line for line in plan), plan
