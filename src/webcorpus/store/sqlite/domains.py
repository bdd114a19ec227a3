"""SQLite queries for domain records, bundles and the page-count estimate.

Mixed into SQLiteStore; uses its `conn` and `tx()`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

_PAGE_BUCKETS = "('indexed','unchanged')"


class DomainsMixin:
    conn: Any
    tx: Any

    # ------------------------------------------------------------ crawler evidence (writes)
    def record_discovery(self, job_id: str, urls: Iterable[str], how: str) -> None:
        """Note that ``urls`` were found by ``how`` ('sitemap' or 'link') in this job, whether
        or not that was the first way they were found (the ledger's ``source`` keeps the first)."""
        column = {"sitemap": "by_sitemap", "link": "by_link"}[how]
        rows = [(job_id, u) for u in dict.fromkeys(urls)]
        if not rows:
            return
        with self.tx() as conn:
            conn.executemany(
                f"INSERT INTO job_url_evidence(job_id, url, {column}) VALUES (?, ?, 1) "
                f"ON CONFLICT(job_id, url) DO UPDATE SET {column} = 1",
                rows,
            )

    def record_fetch_time(self, job_id: str, url: str, elapsed_s: float) -> None:
        """Response time of the fetch that resolved a ledger row (and of the page's newest
        history row when the fetch stored or re-checked a page)."""
        ms = round(elapsed_s * 1000.0, 1)
        with self.tx() as conn:
            conn.execute(
                "UPDATE job_urls SET elapsed_ms = ? WHERE job_id = ? AND url = ?",
                (ms, job_id, url),
            )
            conn.execute(
                "UPDATE page_history SET elapsed_ms = ? WHERE id = (SELECT h.id FROM "
                "page_history h JOIN pages p ON p.id = h.page_id WHERE p.url = ? "
                "AND h.job_id = ? ORDER BY h.id DESC LIMIT 1)",
                (ms, url, job_id),
            )

    # ------------------------------------------------------------ domain record (reads)
    def domain_seen(self, domain: str) -> bool:
        """A domain has a record once it was crawled, holds pages or sits on a shelf."""
        row = self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM domains WHERE domain = ?) "
            "OR EXISTS (SELECT 1 FROM pages WHERE domain = ?) "
            "OR EXISTS (SELECT 1 FROM collection_members WHERE domain = ?)",
            (domain, domain, domain),
        ).fetchone()
        return bool(row[0])

    def domain_job_ids(self, domain: str, *, finished_only: bool, limit: int) -> list[str]:
        states = (
            "('completed','partial')"
            if finished_only
            else "('running','completed','partial','failed','cancelled')"
        )
        rows = self.conn.execute(
            f"SELECT id FROM jobs WHERE domain = ? AND state IN {states} "
            "ORDER BY created_at DESC, id DESC LIMIT ?",
            (domain, limit),
        ).fetchall()
        return [r[0] for r in rows]

    def domain_page_stats(self, domain: str) -> dict[str, Any]:
        row = self.conn.execute(
            "SELECT count(*) AS pages, min(fetched_at) AS first_fetched, "
            "max(fetched_at) AS last_fetched FROM pages WHERE domain = ?",
            (domain,),
        ).fetchone()
        return dict(row)

    def job_health(self, job_id: str) -> dict[str, Any]:
        """Fetch outcomes and the median response time of one job."""
        row = self.conn.execute(
            "SELECT count(*) AS fetched, "
            "sum(bucket IN ('clientError','serverError','fetchError')) AS errors, "
            "sum(bucket = 'serverError') AS server_errors, "
            "sum(bucket = 'fetchError') AS fetch_errors, "
            "sum(bucket = 'clientError') AS client_errors, "
            "count(elapsed_ms) AS timed FROM job_urls WHERE job_id = ? "
            "AND (http_status IS NOT NULL OR bucket IN ('fetchError','serverError'))",
            (job_id,),
        ).fetchone()
        out: dict[str, Any] = {k: int(v or 0) for k, v in dict(row).items()}
        median: float | None = None
        if out["timed"]:
            n = out["timed"]
            vals = self.conn.execute(
                "SELECT elapsed_ms FROM job_urls WHERE job_id = ? AND elapsed_ms IS NOT NULL "
                "ORDER BY elapsed_ms LIMIT ? OFFSET ?",
                (job_id, 2 - n % 2, (n - 1) // 2),
            ).fetchall()
            median = sum(v[0] for v in vals) / len(vals)
        out["median_ms"] = median
        return out

    def domain_sitemaps(self, domain: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT url, url_count, status, last_modified, fetched_at, job_id FROM sitemaps "
            "WHERE domain = ? ORDER BY url",
            (domain,),
        ).fetchall()
        return [dict(r) for r in rows]

    def domain_page_locales(self, domain: str) -> Iterator[tuple[str | None, str]]:
        """(locale, url) of every page of the domain, streamed."""
        cur = self.conn.execute(
            "SELECT locale, url FROM pages WHERE domain = ? ORDER BY locale, url", (domain,)
        )
        for r in cur:
            yield r[0], r[1]

    def domain_hreflang(self, domain: str) -> list[dict[str, Any]]:
        """Per page locale: each hreflang value its pages declare, with one URL it names, a
        count of declaring pages and one declaring page."""
        rows = self.conn.execute(
            "SELECT p.locale AS locale, json_extract(j.value, '$[0]') AS hreflang, "
            "min(json_extract(j.value, '$[1]')) AS url, count(*) AS pages, "
            "min(p.url) AS page_url "
            "FROM pages p, json_each(p.hreflang) j WHERE p.domain = ? "
            "AND p.hreflang != '[]' GROUP BY 1, 2 ORDER BY 1, 2",
            (domain,),
        ).fetchall()
        return [dict(r) for r in rows]

    def domain_external_links(self, domain: str) -> list[tuple[str, str, int]]:
        """(target host, source page id, links) for every outgoing link to another domain."""
        rows = self.conn.execute(
            "SELECT l.target_host, l.src_page_id, count(*) FROM pages p "
            "JOIN links l ON l.src_page_id = p.id WHERE p.domain = ? AND l.internal = 0 "
            "GROUP BY 1, 2",
            (domain,),
        ).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def job_changes(
        self, job_id: str, previous_job_id: str | None, sample: int
    ) -> dict[str, dict[str, Any]]:
        """Pages added, modified and removed by ``job_id`` compared with the crawls before it.

        added: first stored by this job; modified: stored again with different content;
        removed: a page of the corpus that this job found gone (4xx, noindex, redirected away).
        """
        queries = {
            "added": (
                "FROM page_history h JOIN pages p ON p.id = h.page_id WHERE h.job_id = ? "
                "AND h.changed = 1 AND NOT EXISTS (SELECT 1 FROM page_history o "
                "WHERE o.page_id = h.page_id AND o.id < h.id)",
                (job_id,),
            ),
            "modified": (
                "FROM page_history h JOIN pages p ON p.id = h.page_id WHERE h.job_id = ? "
                "AND h.changed = 1 AND EXISTS (SELECT 1 FROM page_history o "
                "WHERE o.page_id = h.page_id AND o.id < h.id)",
                (job_id,),
            ),
            "removed": (
                "FROM job_urls ju JOIN pages p ON p.url = ju.url WHERE ju.job_id = ? "
                "AND ju.bucket IN ('clientError','noindex','redirected') "
                "AND (p.job_id IS NULL OR p.job_id != ?)",
                (job_id, job_id),
            ),
        }
        out: dict[str, dict[str, Any]] = {}
        for name, (tail, args) in queries.items():
            count = self.conn.execute(f"SELECT count(DISTINCT p.id) {tail}", args).fetchone()[0]
            rows = self.conn.execute(
                f"SELECT DISTINCT p.id, p.url, p.title {tail} ORDER BY p.url LIMIT ?",
                (*args, sample),
            ).fetchall()
            out[name] = {"count": int(count), "pages": [dict(r) for r in rows]}
        return out

    # ------------------------------------------------------------ estimate evidence
    def estimate_rows(self, job_id: str) -> dict[str, Any]:
        """The raw evidence a job's ledger holds about the size of its site."""
        ledger = self.conn.execute(
            "SELECT url, source, bucket FROM job_urls WHERE job_id = ?", (job_id,)
        ).fetchall()
        evidence = self.conn.execute(
            "SELECT url, by_sitemap, by_link FROM job_url_evidence WHERE job_id = ?", (job_id,)
        ).fetchall()
        links = self.conn.execute(
            f"SELECT l.target_url, count(DISTINCT l.src_page_id), min(ju.updated_at) "
            f"FROM job_urls ju JOIN links l ON l.src_page_id = ju.page_id "
            f"WHERE ju.job_id = ? AND ju.bucket IN {_PAGE_BUCKETS} AND l.internal = 1 "
            f"GROUP BY l.target_url",
            (job_id,),
        ).fetchall()
        sources = self.conn.execute(
            f"SELECT updated_at FROM job_urls WHERE job_id = ? AND bucket IN {_PAGE_BUCKETS} "
            f"AND page_id IS NOT NULL ORDER BY updated_at",
            (job_id,),
        ).fetchall()
        return {
            "ledger": [(r[0], r[1], r[2]) for r in ledger],
            "evidence": [(r[0], bool(r[1]), bool(r[2])) for r in evidence],
            "links": [(r[0], int(r[1]), float(r[2])) for r in links],
            "source_times": [float(r[0]) for r in sources],
        }

    # ------------------------------------------------------------ bundles
    def bundle_page_ids(
        self,
        domain: str,
        *,
        types: Sequence[str],
        technicality_min: float | None,
        limit: int,
    ) -> tuple[list[str], int]:
        """Ids of the pages a bundle includes (most cited first) and how many pages match."""
        where, args = ["domain = ?"], [domain]
        if types:
            where.append(f"type IN ({','.join('?' * len(types))})")
            args.extend(types)
        if technicality_min is not None:
            where.append("technicality >= ?")
            args.append(technicality_min)  # type: ignore[arg-type]
        clause = " AND ".join(where)
        total = self.conn.execute(f"SELECT count(*) FROM pages WHERE {clause}", args).fetchone()[0]
        rows = self.conn.execute(
            f"SELECT id FROM pages WHERE {clause} ORDER BY inlinks_body DESC, id LIMIT ?",
            [*args, limit],
        ).fetchall()
        return [r[0] for r in rows], int(total)

    def bundle_pages(self, page_ids: Sequence[str]) -> list[dict[str, Any]]:
        """The pages' bodies, in the order of ``page_ids`` (one batch of a streamed bundle)."""
        if not page_ids:
            return []
        rows = self.conn.execute(
            f"SELECT p.id, p.url, p.title, p.type, p.locale, p.words, p.fetched_at, p.published, "
            f"b.markdown FROM pages p JOIN page_bodies b ON b.page_id = p.id "
            f"WHERE p.id IN ({','.join('?' * len(page_ids))})",
            list(page_ids),
        ).fetchall()
        by_id = {r["id"]: dict(r) for r in rows}
        return [by_id[i] for i in page_ids if i in by_id]
