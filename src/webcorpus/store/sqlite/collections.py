"""SQLite queries for collections (shelves). Mixed into SQLiteStore; uses its `conn` and `tx()`."""

from __future__ import annotations

from typing import Any

# A member counts as crawled once a crawl of its domain finished with pages accounted for.
_CRAWLED = (
    "EXISTS (SELECT 1 FROM jobs j WHERE j.domain = m.domain AND j.state IN ('completed','partial'))"
)


class CollectionsMixin:
    conn: Any
    tx: Any

    def list_collections(self, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        total = self.conn.execute("SELECT count(*) FROM collections").fetchone()[0]
        rows = self.conn.execute(
            f"""SELECT c.slug, c.name, c.description, c.created_at,
                   (SELECT count(*) FROM collection_members m WHERE m.slug = c.slug) AS companies,
                   (SELECT count(*) FROM collection_members m WHERE m.slug = c.slug
                      AND {_CRAWLED}) AS crawled
                FROM collections c ORDER BY c.slug LIMIT ? OFFSET ?""",
            (limit, offset),
        ).fetchall()
        return [dict(r) for r in rows], int(total)

    def get_collection(self, slug: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            f"""SELECT c.slug, c.name, c.description, c.created_at,
                   (SELECT count(*) FROM collection_members m WHERE m.slug = c.slug) AS companies,
                   (SELECT count(*) FROM collection_members m WHERE m.slug = c.slug
                      AND {_CRAWLED}) AS crawled
                FROM collections c WHERE c.slug = ?""",
            (slug,),
        ).fetchone()
        return dict(row) if row else None

    def collection_members(self, slug: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            f"""SELECT m.domain, m.reason, m.placed_by, m.placed_at, {_CRAWLED} AS crawled,
                   (SELECT count(*) FROM pages p WHERE p.domain = m.domain) AS pages
                FROM collection_members m WHERE m.slug = ? ORDER BY m.domain""",
            (slug,),
        ).fetchall()
        return [dict(r) for r in rows]

    def put_collection(self, slug: str, name: str, description: str, now: str) -> bool:
        """Create or update a shelf; True when it was created."""
        with self.tx() as conn:
            exists = conn.execute("SELECT 1 FROM collections WHERE slug = ?", (slug,)).fetchone()
            if exists:
                conn.execute(
                    "UPDATE collections SET name = ?, description = ? WHERE slug = ?",
                    (name, description, slug),
                )
            else:
                conn.execute(
                    "INSERT INTO collections(slug, name, description, created_at) "
                    "VALUES (?, ?, ?, ?)",
                    (slug, name, description, now),
                )
        return not exists

    def put_member(
        self, slug: str, domain: str, reason: str, placed_by: str, now: str
    ) -> bool | None:
        """Place a domain on a shelf (or update its reason); True when newly placed, None when
        the shelf does not exist."""
        with self.tx() as conn:
            if not conn.execute("SELECT 1 FROM collections WHERE slug = ?", (slug,)).fetchone():
                return None
            exists = conn.execute(
                "SELECT 1 FROM collection_members WHERE slug = ? AND domain = ?", (slug, domain)
            ).fetchone()
            if exists:
                conn.execute(
                    "UPDATE collection_members SET reason = ?, placed_by = ?, placed_at = ? "
                    "WHERE slug = ? AND domain = ?",
                    (reason, placed_by, now, slug, domain),
                )
            else:
                conn.execute(
                    "INSERT INTO collection_members(slug, domain, reason, placed_by, placed_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (slug, domain, reason, placed_by, now),
                )
        return not exists

    def delete_member(self, slug: str, domain: str) -> bool:
        cur = self.conn.execute(
            "DELETE FROM collection_members WHERE slug = ? AND domain = ?", (slug, domain)
        )
        return bool(cur.rowcount)

    def domain_collections(self, domain: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT c.slug, c.name, m.reason, m.placed_by, m.placed_at FROM collection_members m "
            "JOIN collections c ON c.slug = m.slug WHERE m.domain = ? ORDER BY c.slug",
            (domain,),
        ).fetchall()
        return [dict(r) for r in rows]
