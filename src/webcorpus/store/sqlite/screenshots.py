"""SQLite queries for page screenshots. Mixed into SQLiteStore; uses its `conn` and `tx()`."""

from __future__ import annotations

from typing import Any


class ScreenshotsMixin:
    conn: Any
    tx: Any

    def ledger_final_url(self, job_id: str, url: str | None, max_hops: int = 10) -> str | None:
        """Where ``url`` led in the job's ledger: its redirect (or canonical) target, followed
        to the end (``https://acme.com/`` -> ``https://www.acme.com/en/``)."""
        seen: set[str] = set()
        while url and url not in seen and len(seen) <= max_hops:
            seen.add(url)
            row = self.conn.execute(
                "SELECT target FROM job_urls WHERE job_id = ? AND url = ?", (job_id, url)
            ).fetchone()
            if not row or not row[0]:
                break
            url = row[0]
        return url

    def screenshot_targets(
        self, domain: str, first_url: str | None, n: int
    ) -> list[tuple[str, str]]:
        """(page id, URL) of up to ``n`` pages of ``domain`` to screenshot: the page at
        ``first_url`` (the homepage) first when it is stored, then the most cited ones."""
        rows = self.conn.execute(
            "SELECT id, url FROM pages WHERE domain = ? "
            "ORDER BY (url = ?) DESC, inlinks_body DESC, id LIMIT ?",
            (domain, first_url or "", n),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def save_screenshot(
        self, page_id: str, width: int, height: int, taken_at: str, job_id: str, png: bytes
    ) -> None:
        with self.tx() as conn:
            conn.execute(
                "INSERT INTO screenshots(page_id, width, height, taken_at, job_id, png) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(page_id) DO UPDATE SET "
                "width = excluded.width, height = excluded.height, "
                "taken_at = excluded.taken_at, job_id = excluded.job_id, png = excluded.png",
                (page_id, width, height, taken_at, job_id, png),
            )

    def page_screenshots(self, page_id: str) -> list[dict[str, Any]]:
        """The page's screenshots (the latest one), without the image."""
        rows = self.conn.execute(
            "SELECT width, height, taken_at FROM screenshots WHERE page_id = ?", (page_id,)
        ).fetchall()
        return [dict(r) for r in rows]

    def screenshot_png(self, page_id: str) -> bytes | None:
        row = self.conn.execute(
            "SELECT png FROM screenshots WHERE page_id = ?", (page_id,)
        ).fetchone()
        return bytes(row[0]) if row else None
