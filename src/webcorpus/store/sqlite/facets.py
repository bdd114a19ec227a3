"""SQLite queries for facets. Mixed into SQLiteStore; uses its `conn` and `tx()`."""

from __future__ import annotations

from typing import Any

# Facet columns of `pages` that hold one vocabulary value per page.
_SINGLE = ("type", "format", "audience", "locale")


class FacetsMixin:
    conn: Any
    tx: Any

    def _facet_scope(self, domains: list[str], collection: str | None) -> tuple[str, list[Any]]:
        where: list[str] = []
        args: list[Any] = []
        if domains:
            where.append(f"p.domain IN ({','.join('?' * len(domains))})")
            args.extend(domains)
        if collection:
            where.append("p.domain IN (SELECT domain FROM collection_members WHERE slug = ?)")
            args.append(collection)
        return (f"WHERE {' AND '.join(where)}" if where else ""), args

    def facet_counts(self, domains: list[str], collection: str | None) -> dict[str, Any]:
        """Pages per value of every facet vocabulary, within the domains / collection given.

        Returns ``{"pages": n, "type": {value: n}, "format": …, "audience": …, "locale": …,
        "topics": {topic: n}, "has_code": {"true": n, "false": n}}``.
        """
        clause, args = self._facet_scope(domains, collection)
        out: dict[str, Any] = {
            "pages": int(
                self.conn.execute(f"SELECT count(*) FROM pages p {clause}", args).fetchone()[0]
            )
        }
        for column in _SINGLE:
            rows = self.conn.execute(
                f"SELECT p.{column} AS value, count(*) AS n FROM pages p {clause} "
                f"GROUP BY p.{column} ORDER BY n DESC, value",
                args,
            ).fetchall()
            out[column] = {r["value"]: int(r["n"]) for r in rows if r["value"] is not None}
        rows = self.conn.execute(
            f"SELECT t.topic AS value, count(*) AS n FROM page_topics t "
            f"JOIN pages p ON p.id = t.page_id {clause} GROUP BY t.topic ORDER BY n DESC, value",
            args,
        ).fetchall()
        out["topics"] = {r["value"]: int(r["n"]) for r in rows}
        rows = self.conn.execute(
            f"SELECT p.has_code AS value, count(*) AS n FROM pages p {clause} GROUP BY p.has_code",
            args,
        ).fetchall()
        counts = {bool(r["value"]): int(r["n"]) for r in rows}
        out["has_code"] = {"true": counts.get(True, 0), "false": counts.get(False, 0)}
        return out

    def domain_simhashes(self, domain: str) -> list[tuple[str, int]]:
        """(page id, SimHash as a signed 64-bit int) of every stored page of a domain."""
        rows = self.conn.execute(
            "SELECT id, simhash FROM pages WHERE domain = ? AND simhash IS NOT NULL ORDER BY id",
            (domain,),
        ).fetchall()
        return [(r[0], int(r[1])) for r in rows]
