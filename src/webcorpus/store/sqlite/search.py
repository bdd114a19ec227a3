"""SQLite queries for search: FTS5 over chunks and the raw material of the vector index."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from webcorpus.store.models import SearchFilters

_BROAD_FILTER = 0.5  # page share from which a filter is checked on the unfiltered top hits
_OVERFETCH = 4


def _filter_sql(f: SearchFilters, alias: str = "p") -> tuple[str, list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if f.domains:
        where.append(f"{alias}.domain IN ({','.join('?' * len(f.domains))})")
        args.extend(f.domains)
    if f.collection:
        where.append(f"{alias}.domain IN (SELECT domain FROM collection_members WHERE slug = ?)")
        args.append(f.collection)
    if f.types:
        where.append(f"{alias}.type IN ({','.join('?' * len(f.types))})")
        args.extend(f.types)
    if f.locales:
        parts = []
        for loc in f.locales:
            parts.append(f"(lower({alias}.locale) = ? OR lower({alias}.locale) LIKE ?)")
            args.extend([loc.lower(), loc.lower() + "-%"])
        where.append("(" + " OR ".join(parts) + ")")
    if f.topics:
        where.append(
            f"{alias}.id IN (SELECT page_id FROM page_topics WHERE topic IN "
            f"({','.join('?' * len(f.topics))}))"
        )
        args.extend(f.topics)
    if f.technicality_min is not None:
        where.append(f"{alias}.technicality >= ?")
        args.append(f.technicality_min)
    return " AND ".join(where), args


class SearchMixin:
    conn: Any
    tx: Any

    def search_text(self, fts: str, filters: SearchFilters, k: int) -> list[tuple[int, float]]:
        """Chunk ids ranked by BM25 (title and heading weigh more), filters applied first.

        Unfiltered queries never leave the FTS index. A filter that most pages pass (locale=en
        on an English site) is checked on the unfiltered top ``4k`` only: when ``k`` of them
        pass, or when those were all the matches, that is exactly the filtered top ``k``;
        otherwise, and for selective filters, every match is joined to its page through the
        narrow covering indexes of migration 0005 (without ``INDEXED BY`` the planner picks the
        rowid / primary-key lookups, which read the wide chunk and page rows: 2-3x slower).
        """
        clause, args = _filter_sql(filters)
        if not clause:
            return self._fts_top(fts, k)
        if self._page_share(clause, args) >= _BROAD_FILTER:
            top = self._fts_top(fts, _OVERFETCH * k)
            passing = self._chunks_passing([cid for cid, _ in top], clause, args)
            hits = [hit for hit in top if hit[0] in passing]
            if len(hits) >= k or len(top) < _OVERFETCH * k:
                return hits[:k]
        sql = (
            "SELECT c.id, bm25(chunks_fts, 4.0, 2.0, 1.0) AS score FROM chunks_fts "
            "JOIN chunks c INDEXED BY chunks_id_page ON c.id = chunks_fts.rowid "
            "JOIN pages p INDEXED BY pages_search ON p.id = c.page_id "
            f"WHERE chunks_fts MATCH ? AND {clause} ORDER BY score, c.id LIMIT ?"
        )
        rows = self.conn.execute(sql, [fts, *args, k]).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def _fts_top(self, fts: str, k: int) -> list[tuple[int, float]]:
        rows = self.conn.execute(
            "SELECT rowid, bm25(chunks_fts, 4.0, 2.0, 1.0) AS score FROM chunks_fts "
            "WHERE chunks_fts MATCH ? ORDER BY score, rowid LIMIT ?",
            [fts, k],
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def _page_share(self, clause: str, args: list[Any]) -> float:
        """Share of all pages that pass the filter (0 when there are no pages)."""
        row = self.conn.execute(
            f"SELECT avg(CASE WHEN {clause} THEN 1.0 ELSE 0.0 END) "
            "FROM pages p INDEXED BY pages_search",
            args,
        ).fetchone()
        return float(row[0] or 0.0)

    def _chunks_passing(self, chunk_ids: Sequence[int], clause: str, args: list[Any]) -> set[int]:
        if not chunk_ids:
            return set()
        marks = ",".join("?" * len(chunk_ids))
        rows = self.conn.execute(
            "SELECT c.id FROM chunks c INDEXED BY chunks_id_page "
            "JOIN pages p INDEXED BY pages_search ON p.id = c.page_id "
            f"WHERE c.id IN ({marks}) AND {clause}",
            [*chunk_ids, *args],
        ).fetchall()
        return {int(r[0]) for r in rows}

    def filtered_page_ids(self, filters: SearchFilters) -> list[str]:
        clause, args = _filter_sql(filters)
        where = f"WHERE {clause}" if clause else ""
        rows = self.conn.execute(
            f"SELECT p.id FROM pages p INDEXED BY pages_search {where}", args
        ).fetchall()
        return [r[0] for r in rows]

    def vector_rows_after(self, after_id: int, limit: int) -> list[tuple[int, str, bytes]]:
        rows = self.conn.execute(
            "SELECT v.chunk_id, c.page_id, v.vector FROM chunk_vectors v "
            "JOIN chunks c ON c.id = v.chunk_id WHERE v.chunk_id > ? ORDER BY v.chunk_id LIMIT ?",
            (after_id, limit),
        ).fetchall()
        return [(int(r[0]), str(r[1]), bytes(r[2])) for r in rows]

    def vector_count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0])

    def chunk_pages(self, chunk_ids: Iterable[int]) -> dict[int, str]:
        """Page id of each chunk id (chunks deleted meanwhile are absent)."""
        ids = list(chunk_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(
            f"SELECT id, page_id FROM chunks INDEXED BY chunks_id_page WHERE id IN ({marks})",
            ids,
        ).fetchall()
        return {int(r[0]): str(r[1]) for r in rows}

    def chunk_hits(self, chunk_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        rows = self.conn.execute(
            f"SELECT c.id AS chunk_id, c.page_id, c.heading, c.text, p.url, p.title, p.domain "
            f"FROM chunks c JOIN pages p ON p.id = c.page_id WHERE c.id IN ({marks})",
            list(chunk_ids),
        ).fetchall()
        return {int(r["chunk_id"]): dict(r) for r in rows}
