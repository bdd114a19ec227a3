"""The SQLite store: every query of the embedded default lives here."""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webcorpus.store.models import (
    BUCKETS,
    ContentQuery,
    JobRecord,
    PageState,
    PageWrite,
    UrlEntry,
)
from webcorpus.store.sqlite.collections import CollectionsMixin
from webcorpus.store.sqlite.db import Connection, ConnectionPool, connect, migrate
from webcorpus.store.sqlite.domains import DomainsMixin
from webcorpus.store.sqlite.facets import FacetsMixin
from webcorpus.store.sqlite.screenshots import ScreenshotsMixin
from webcorpus.store.sqlite.search import SearchMixin


class ConflictError(Exception):
    """A write collided with existing state (e.g. a domain already has an active job)."""

    def __init__(self, message: str, *, existing_id: str | None = None) -> None:
        super().__init__(message)
        self.existing_id = existing_id


def _job_from_row(row: Any) -> JobRecord:
    return JobRecord(
        id=row["id"],
        domain=row["domain"],
        state=row["state"],
        params=json.loads(row["params"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        error=row["error"],
        cancel_requested=bool(row["cancel_requested"]),
        fetched=row["fetched"],
        resumes=row["resumes"],
        info=json.loads(row["info"] or "{}"),
    )


_SORTS = {
    "cited": "p.inlinks_body DESC, p.id",
    "published": "p.published IS NULL, p.published DESC, p.id",
    "words": "p.words DESC, p.id",
    "technicality": "p.technicality DESC, p.id",
    "depth": "p.depth DESC, p.id",
    "originality": "p.originality DESC, p.id",
    "promotional": "p.promotional ASC, p.id",
    "indexed": "p.indexed_at DESC, p.id",
    "relevance": "rel.score ASC, p.id",
}


class SQLiteStore(CollectionsMixin, DomainsMixin, FacetsMixin, ScreenshotsMixin, SearchMixin):
    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        with connect(path) as conn:
            migrate(conn)
        self._pool = ConnectionPool(path)

    def close(self) -> None:
        self._pool.close()

    def release_connection(self) -> None:
        """Close the calling thread's connection now: a thread about to end (a job's database
        thread) gives back its file and page cache at once."""
        self._pool.release()

    @property
    def conn(self) -> Connection:
        return self._pool.get()

    @contextmanager
    def tx(self) -> Iterator[Connection]:
        """A write transaction; inside :meth:`batch`, a savepoint that is rolled back alone."""
        conn = self.conn
        if conn.in_transaction:
            conn.execute("SAVEPOINT tx")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK TO tx")
                conn.execute("RELEASE tx")
                raise
            conn.execute("RELEASE tx")
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction around many writes of this thread (group commit)."""
        with self.tx():
            yield

    # ---------------------------------------------------------------- meta
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # ---------------------------------------------------------------- keys
    def create_key(
        self, key_id: str, name: str, prefix: str, key_hash: str, scopes: str, now: str
    ) -> None:
        try:
            self.conn.execute(
                "INSERT INTO api_keys(id, name, prefix, key_hash, scopes, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (key_id, name, prefix, key_hash, scopes, now),
            )
        except Exception as exc:
            if "UNIQUE" in str(exc):
                row = self.conn.execute(
                    "SELECT revoked_at FROM api_keys WHERE name = ?", (name,)
                ).fetchone()
                revoked = " (revoked; names are not reused)" if row and row[0] else ""
                raise ConflictError(f"a key named {name!r} exists already{revoked}") from exc
            raise

    def find_key(self, key_hash: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL", (key_hash,)
        ).fetchone()
        return dict(row) if row else None

    def list_keys(self) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT id, name, prefix, scopes, created_at, revoked_at FROM api_keys ORDER BY name"
        ).fetchall()
        return [dict(r) for r in rows]

    def revoke_key(self, name: str, now: str) -> bool:
        cur = self.conn.execute(
            "UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
            (now, name),
        )
        return bool(cur.rowcount)

    # ---------------------------------------------------------------- jobs
    def create_job(self, job: JobRecord, key_id: str | None) -> JobRecord:
        with self.tx() as conn:
            active = conn.execute(
                "SELECT id FROM jobs WHERE domain = ? AND state IN ('queued','running') "
                "ORDER BY created_at LIMIT 1",
                (job.domain,),
            ).fetchone()
            if active:
                raise ConflictError(
                    f"{job.domain} has an active job {active[0]}", existing_id=active[0]
                )
            conn.execute(
                "INSERT INTO jobs(id, domain, state, params, created_at, key_id, info) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    job.id,
                    job.domain,
                    job.state,
                    json.dumps(job.params),
                    job.created_at,
                    key_id,
                    json.dumps(job.info),
                ),
            )
            conn.execute(
                "INSERT INTO domains(domain, created_at, last_job_id) VALUES (?, ?, ?) "
                "ON CONFLICT(domain) DO UPDATE SET last_job_id = excluded.last_job_id",
                (job.domain, job.created_at, job.id),
            )
        return job

    def get_job(self, job_id: str) -> JobRecord | None:
        row = self.conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _job_from_row(row) if row else None

    def list_jobs(
        self, *, domain: str | None, state: str | None, limit: int, offset: int
    ) -> tuple[list[JobRecord], int]:
        where, args = [], []
        if domain:
            where.append("domain = ?")
            args.append(domain)
        if state:
            where.append("state = ?")
            args.append(state)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = self.conn.execute(f"SELECT count(*) FROM jobs {clause}", args).fetchone()[0]
        rows = self.conn.execute(
            f"SELECT * FROM jobs {clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        return [_job_from_row(r) for r in rows], total

    def latest_finished_job(self, domain: str) -> JobRecord | None:
        row = self.conn.execute(
            "SELECT * FROM jobs WHERE domain = ? AND state IN ('completed','partial') "
            "ORDER BY finished_at DESC LIMIT 1",
            (domain,),
        ).fetchone()
        return _job_from_row(row) if row else None

    def lease_job(
        self,
        owner: str,
        lease_s: float,
        now: str,
        *,
        exclude: Collection[str] = (),
        only: str | None = None,
    ) -> JobRecord | None:
        """Claim the oldest queued job, or a running job whose worker stopped renewing its lease.

        ``exclude``: ids of jobs the caller runs already (a late renewal must not make a worker
        lease its own job a second time). ``only``: claim that job or none."""
        t = time.time()
        params: list[Any] = [t, *exclude]
        where = f" AND id NOT IN ({','.join('?' * len(exclude))})" if exclude else ""
        if only is not None:
            where += " AND id = ?"
            params.append(only)
        with self.tx() as conn:
            row = conn.execute(
                "SELECT * FROM jobs WHERE (state = 'queued' "
                "OR (state = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < ?)))"
                f"{where} ORDER BY created_at LIMIT 1",
                params,
            ).fetchone()
            if row is None:
                return None
            resumed = row["state"] == "running"
            conn.execute(
                "UPDATE jobs SET state = 'running', lease_owner = ?, lease_expires_at = ?, "
                "started_at = coalesce(started_at, ?), resumes = resumes + ? WHERE id = ?",
                (owner, t + lease_s, now, 1 if resumed else 0, row["id"]),
            )
        return self.get_job(row["id"])

    def running_job_owners(self) -> list[str]:
        rows = self.conn.execute(
            "SELECT DISTINCT lease_owner FROM jobs WHERE state = 'running' "
            "AND lease_owner IS NOT NULL"
        )
        return [r[0] for r in rows]

    def renew_lease(self, job_id: str, owner: str, lease_s: float) -> bool:
        cur = self.conn.execute(
            "UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? "
            "AND state = 'running'",
            (time.time() + lease_s, job_id, owner),
        )
        return bool(cur.rowcount)

    def expire_leases(self, owner: str) -> None:
        self.conn.execute(
            "UPDATE jobs SET lease_expires_at = 0 WHERE lease_owner = ? AND state = 'running'",
            (owner,),
        )

    def update_job(self, job_id: str, **fields: Any) -> None:
        if not fields:
            return
        for key in ("params", "info"):
            if key in fields:
                fields[key] = json.dumps(fields[key])
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.conn.execute(f"UPDATE jobs SET {sets} WHERE id = ?", [*fields.values(), job_id])

    def request_cancel(self, job_id: str) -> JobRecord | None:
        with self.tx() as conn:
            conn.execute(
                "UPDATE jobs SET cancel_requested = 1 WHERE id = ? AND state IN "
                "('queued','running')",
                (job_id,),
            )
        return self.get_job(job_id)

    def cancel_queued(self, job_id: str, now: str, reason: str) -> bool:
        cur = self.conn.execute(
            "UPDATE jobs SET state = 'cancelled', finished_at = ?, error = NULL "
            "WHERE id = ? AND state = 'queued'",
            (now, job_id),
        )
        if cur.rowcount:
            self.move_bucket(job_id, "pending", "stoppedEarly", reason)
        return bool(cur.rowcount)

    def is_cancel_requested(self, job_id: str) -> bool:
        row = self.conn.execute(
            "SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,)
        ).fetchone()
        return bool(row and row[0])

    # ---------------------------------------------------------------- ledger
    def add_urls(self, job_id: str, entries: Sequence[UrlEntry]) -> list[UrlEntry]:
        """Insert URLs not yet in the job's ledger; returns the ones that were new."""
        if not entries:
            return []
        now = time.time()
        added: list[UrlEntry] = []
        with self.tx() as conn:
            for e in entries:
                cur = conn.execute(
                    "INSERT OR IGNORE INTO job_urls(job_id, url, bucket, reason, depth, source, "
                    "priority, lastmod, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        job_id,
                        e.url,
                        e.bucket,
                        e.reason,
                        e.depth,
                        e.source,
                        e.priority,
                        e.lastmod,
                        now,
                    ),
                )
                if cur.rowcount:
                    added.append(e)
        return added

    def set_url(
        self,
        job_id: str,
        url: str,
        bucket: str,
        reason: str | None = None,
        *,
        page_id: str | None = None,
        http_status: int | None = None,
        target: str | None = None,
        conn: Connection | None = None,
    ) -> None:
        assert bucket in BUCKETS, bucket
        (conn or self.conn).execute(
            "UPDATE job_urls SET bucket = ?, reason = ?, page_id = coalesce(?, page_id), "
            "http_status = coalesce(?, http_status), target = coalesce(?, target), "
            "updated_at = ? WHERE job_id = ? AND url = ?",
            (bucket, reason, page_id, http_status, target, time.time(), job_id, url),
        )

    def move_bucket(self, job_id: str, src: str, dst: str, reason: str) -> int:
        cur = self.conn.execute(
            "UPDATE job_urls SET bucket = ?, reason = ?, updated_at = ? "
            "WHERE job_id = ? AND bucket = ?",
            (dst, reason, time.time(), job_id, src),
        )
        return int(cur.rowcount)

    def pending_urls(self, job_id: str) -> list[UrlEntry]:
        rows = self.conn.execute(
            "SELECT url, depth, source, priority, lastmod FROM job_urls "
            "WHERE job_id = ? AND bucket = 'pending'",
            (job_id,),
        ).fetchall()
        return [
            UrlEntry(
                url=r["url"],
                depth=r["depth"],
                source=r["source"],
                priority=r["priority"],
                lastmod=r["lastmod"],
            )
            for r in rows
        ]

    def ledger_urls(self, job_id: str) -> set[str]:
        rows = self.conn.execute("SELECT url FROM job_urls WHERE job_id = ?", (job_id,))
        return {r[0] for r in rows}

    def bucket_counts(self, job_id: str) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT bucket, count(*) FROM job_urls WHERE job_id = ? GROUP BY bucket", (job_id,)
        ).fetchall()
        return {r[0]: r[1] for r in rows}

    def bucket_samples(self, job_id: str, bucket: str, n: int) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT url, reason FROM job_urls WHERE job_id = ? AND bucket = ? "
            "ORDER BY updated_at, url LIMIT ?",
            (job_id, bucket, n),
        ).fetchall()
        return [dict(r) for r in rows]

    def bucket_reasons(self, job_id: str, bucket: str) -> list[tuple[str, int]]:
        rows = self.conn.execute(  # grouped in the order of job_urls_bucket_reason
            "SELECT reason, count(*) c FROM job_urls WHERE job_id = ? AND bucket = ? "
            "GROUP BY reason ORDER BY c DESC LIMIT 5",
            (job_id, bucket),
        ).fetchall()
        return [(r[0] or "", r[1]) for r in rows]

    def list_job_urls(
        self, job_id: str, bucket: str | None, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        where, args = "job_id = ?", [job_id]
        if bucket:
            where += " AND bucket = ?"
            args.append(bucket)
        total = self.conn.execute(f"SELECT count(*) FROM job_urls WHERE {where}", args).fetchone()[
            0
        ]
        rows = self.conn.execute(
            f"SELECT url, bucket, reason, depth, source, page_id, http_status, target "
            f"FROM job_urls WHERE {where} ORDER BY url LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        return [dict(r) for r in rows], total

    def list_unaccounted(
        self, job_id: str, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        marks = ",".join("?" for _ in BUCKETS)
        where = f"job_id = ? AND bucket NOT IN ({marks})"
        args = [job_id, *BUCKETS]
        total = self.conn.execute(f"SELECT count(*) FROM job_urls WHERE {where}", args).fetchone()
        rows = self.conn.execute(
            f"SELECT url, bucket, reason, depth, source, page_id, http_status, target "
            f"FROM job_urls WHERE {where} ORDER BY url LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        return [dict(r) for r in rows], int(total[0])

    def fetched_count(self, job_id: str) -> int:
        row = self.conn.execute(
            "SELECT count(*) FROM job_urls INDEXED BY job_urls_fetched "
            "WHERE job_id = ? AND http_status IS NOT NULL",
            (job_id,),
        ).fetchone()
        return int(row[0])

    # ---------------------------------------------------------------- domains
    def set_domain_entry(self, domain: str, entry_url: str) -> None:
        self.conn.execute("UPDATE domains SET entry_url = ? WHERE domain = ?", (entry_url, domain))

    def set_domain_robots(self, domain: str, status: str, now: str) -> None:
        self.conn.execute(
            "UPDATE domains SET robots_status = ?, robots_checked_at = ? WHERE domain = ?",
            (status, now, domain),
        )

    def save_sitemap(
        self,
        domain: str,
        url: str,
        job_id: str,
        status: str,
        url_count: int,
        last_modified: str | None,
    ) -> None:
        self.conn.execute(
            "INSERT INTO sitemaps(domain, url, job_id, status, url_count, last_modified, "
            "fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(domain, url) DO UPDATE SET "
            "job_id = excluded.job_id, status = excluded.status, url_count = excluded.url_count, "
            "last_modified = excluded.last_modified, fetched_at = excluded.fetched_at",
            (
                domain,
                url,
                job_id,
                status,
                url_count,
                last_modified,
                time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            ),
        )

    def get_domain(self, domain: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT * FROM domains WHERE domain = ?", (domain,)).fetchone()
        return dict(row) if row else None

    def page_internal_links(self, page_id: str) -> list[str]:
        rows = self.conn.execute(
            "SELECT target_url FROM links WHERE src_page_id = ? AND internal = 1", (page_id,)
        )
        return [r[0] for r in rows]

    # ---------------------------------------------------------------- pages (writes)
    def page_state(self, page_id: str) -> PageState | None:
        row = self.conn.execute(
            "SELECT id, url, content_hash, text_hash, etag, last_modified FROM pages WHERE id = ?",
            (page_id,),
        ).fetchone()
        return PageState(**dict(row)) if row else None

    def known_page_urls(self, domain: str) -> list[str]:
        return [
            r[0] for r in self.conn.execute("SELECT url FROM pages WHERE domain = ?", (domain,))
        ]

    def find_same_text(self, domain: str, text_hash: str, exclude_id: str) -> str | None:
        row = self.conn.execute(
            "SELECT url FROM pages WHERE domain = ? AND text_hash = ? AND id != ? LIMIT 1",
            (domain, text_hash, exclude_id),
        ).fetchone()
        return row[0] if row else None

    def save_page(
        self, page: PageWrite, *, ledger_url: str, changed: bool, fetched: bool = True
    ) -> None:
        """Store a page, its history row, assets, links, chunks and its ledger state atomically."""
        f = page.facets
        with self.tx() as conn:
            old = conn.execute("SELECT id FROM pages WHERE id = ?", (page.id,)).fetchone()
            if old:
                self._delete_chunks(conn, page.id)
                conn.execute("DELETE FROM assets WHERE page_id = ?", (page.id,))
                conn.execute("DELETE FROM links WHERE src_page_id = ?", (page.id,))
                conn.execute("DELETE FROM page_topics WHERE page_id = ?", (page.id,))
            conn.execute(
                """INSERT INTO pages(id, url, canonical_url, domain, host, title, description,
                    content_hash, text_hash, etag, last_modified, http_status,
                    fetched_at, indexed_at, job_id, declared_language, hreflang, simhash,
                    type, format, audience, locale, topics, technicality, depth, originality,
                    promotional, has_code, words, published)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                ON CONFLICT(id) DO UPDATE SET url=excluded.url,
                    canonical_url=excluded.canonical_url, domain=excluded.domain,
                    host=excluded.host, title=excluded.title, description=excluded.description,
                    content_hash=excluded.content_hash,
                    text_hash=excluded.text_hash, etag=excluded.etag,
                    last_modified=excluded.last_modified, http_status=excluded.http_status,
                    fetched_at=excluded.fetched_at, indexed_at=excluded.indexed_at,
                    job_id=excluded.job_id, declared_language=excluded.declared_language,
                    hreflang=excluded.hreflang, simhash=excluded.simhash, type=excluded.type,
                    format=excluded.format, audience=excluded.audience, locale=excluded.locale,
                    topics=excluded.topics, technicality=excluded.technicality,
                    depth=excluded.depth, originality=excluded.originality,
                    promotional=excluded.promotional, has_code=excluded.has_code,
                    words=excluded.words, published=excluded.published""",
                (
                    page.id,
                    page.url,
                    page.canonical_url,
                    page.domain,
                    page.host,
                    page.title,
                    page.description,
                    page.content_hash,
                    page.text_hash,
                    page.etag,
                    page.last_modified,
                    page.http_status,
                    page.fetched_at,
                    page.fetched_at,
                    page.job_id,
                    page.declared_language,
                    json.dumps(page.hreflang),
                    _signed64(page.simhash),
                    f.get("type", "other"),
                    f.get("format", "other"),
                    f.get("audience", "general"),
                    f.get("locale"),
                    json.dumps(f.get("topics", [])),
                    f.get("technicality", 0.0),
                    f.get("depth", 0.0),
                    f.get("originality", 1.0),
                    f.get("promotional", 0.0),
                    1 if f.get("has_code") else 0,
                    f.get("words", 0),
                    f.get("published"),
                ),
            )
            conn.execute(
                "INSERT INTO page_bodies(page_id, markdown, explain) VALUES (?, ?, ?) "
                "ON CONFLICT(page_id) DO UPDATE SET markdown = excluded.markdown, "
                "explain = excluded.explain",
                (page.id, page.markdown, json.dumps(f.get("explain", {}))),
            )
            conn.executemany(
                "INSERT OR IGNORE INTO page_topics(page_id, topic) VALUES (?, ?)",
                [(page.id, t) for t in f.get("topics", [])],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO assets(page_id, url, kind, alt) VALUES (?, ?, ?, ?)",
                [(page.id, *a) for a in page.assets],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO links(src_page_id, target_url, target_page_id, "
                "target_host, anchor, position, internal) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        page.id,
                        ln.target_url,
                        ln.target_page_id,
                        ln.target_host,
                        ln.anchor,
                        ln.position,
                        1 if ln.internal else 0,
                    )
                    for ln in page.links
                ],
            )
            conn.executemany(
                "INSERT INTO chunks(page_id, idx, heading, text, tokens, job_id) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (page.id, ch.idx, ch.heading, ch.text, ch.tokens, page.job_id)
                    for ch in page.chunks
                ],
            )
            # The page's chunks are exactly the ones just written (its old ones are deleted).
            conn.execute(
                "INSERT INTO chunks_fts(rowid, title, heading, text) "
                "SELECT id, ?, heading, text FROM chunks WHERE page_id = ? ORDER BY id",
                (page.title or "", page.id),
            )
            conn.execute(
                "INSERT INTO page_history(page_id, job_id, fetched_at, status, content_hash, "
                "changed, etag, last_modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    page.id,
                    page.job_id,
                    page.fetched_at,
                    page.http_status,
                    page.content_hash,
                    1 if changed else 0,
                    page.etag,
                    page.last_modified,
                ),
            )
            self.set_url(
                page.job_id,
                ledger_url,
                "indexed",
                None,
                page_id=page.id,
                conn=conn,
                http_status=page.http_status if fetched else None,
            )

    def record_unchanged(
        self,
        page_id: str,
        job_id: str,
        ledger_url: str,
        *,
        status: int,
        fetched_at: str,
        reason: str,
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> None:
        with self.tx() as conn:
            row = conn.execute("SELECT content_hash FROM pages WHERE id = ?", (page_id,)).fetchone()
            conn.execute(
                "INSERT INTO page_history(page_id, job_id, fetched_at, status, content_hash, "
                "changed, etag, last_modified) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
                (page_id, job_id, fetched_at, status, row[0] if row else None, etag, last_modified),
            )
            conn.execute(
                "UPDATE pages SET fetched_at = ?, etag = coalesce(?, etag), "
                "last_modified = coalesce(?, last_modified) WHERE id = ?",
                (fetched_at, etag, last_modified, page_id),
            )
            self.set_url(
                job_id,
                ledger_url,
                "unchanged",
                reason,
                page_id=page_id,
                http_status=status,
                conn=conn,
            )

    def _delete_chunks(self, conn: Connection, page_id: str) -> None:
        conn.execute(
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE page_id = ?)",
            (page_id,),
        )
        conn.execute("DELETE FROM chunks WHERE page_id = ?", (page_id,))

    def delete_page(self, page_id: str) -> None:
        with self.tx() as conn:
            self._delete_chunks(conn, page_id)
            conn.execute("DELETE FROM pages WHERE id = ?", (page_id,))

    def recompute_inlinks(self, domain: str, template_keys: Iterable[tuple[str, str]]) -> None:
        """Store the domain's template links and recount body citations without them."""
        with self.tx() as conn:
            conn.execute("DELETE FROM template_links WHERE domain = ?", (domain,))
            conn.executemany(
                "INSERT OR IGNORE INTO template_links(domain, target_url, anchor) VALUES (?, ?, ?)",
                [(domain, t, a) for t, a in template_keys],
            )
            conn.execute(
                """UPDATE pages SET inlinks_body = coalesce((
                    SELECT count(DISTINCT l.src_page_id) FROM links l
                    WHERE l.target_page_id = pages.id AND l.position = 'body'
                      AND l.src_page_id != pages.id AND l.internal = 1
                      AND NOT EXISTS (SELECT 1 FROM template_links t WHERE t.domain = ?
                                      AND t.target_url = l.target_url AND t.anchor = l.anchor)
                    ), 0)
                WHERE domain = ?""",
                (domain, domain),
            )

    def repeated_links(self, domain: str, share: float, min_pages: int) -> set[tuple[str, str]]:
        """(target URL, anchor) pairs of the domain's internal links found on more than
        ``share`` of the pages that have any; none below ``min_pages`` such pages. Counted here
        rather than in Python: a large site has hundreds of thousands of internal links."""
        scope = (
            "FROM links l JOIN pages p ON p.id = l.src_page_id "
            "WHERE p.domain = ? AND l.internal = 1"
        )
        pages = self.conn.execute(
            f"SELECT count(DISTINCT l.src_page_id) {scope}", (domain,)
        ).fetchone()[0]
        if pages < min_pages:
            return set()
        rows = self.conn.execute(
            f"SELECT l.target_url, l.anchor {scope} GROUP BY l.target_url, l.anchor "
            "HAVING count(DISTINCT l.src_page_id) > ?",
            (domain, share * pages),
        ).fetchall()
        return {(r[0], r[1]) for r in rows}

    def domain_page_count(self, domain: str) -> int:
        return int(
            self.conn.execute("SELECT count(*) FROM pages WHERE domain = ?", (domain,)).fetchone()[
                0
            ]
        )

    # ---------------------------------------------------------------- embeddings
    def embedding_backlog(self, job_id: str | None = None) -> int:
        if job_id:
            row = self.conn.execute(
                "SELECT count(*) FROM chunks WHERE embedded = 0 AND job_id = ?", (job_id,)
            ).fetchone()
        else:
            row = self.conn.execute("SELECT count(*) FROM chunks WHERE embedded = 0").fetchone()
        return int(row[0])

    def chunks_to_embed(self, limit: int) -> list[tuple[int, str, str, str]]:
        rows = self.conn.execute(
            "SELECT c.id, coalesce(p.title, ''), c.heading, c.text FROM chunks c "
            "JOIN pages p ON p.id = c.page_id WHERE c.embedded = 0 ORDER BY c.id LIMIT ?",
            (limit,),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def reset_vectors(self) -> None:
        with self.tx() as conn:
            conn.execute("DELETE FROM chunk_vectors")
            conn.execute("UPDATE chunks SET embedded = 0 WHERE embedded = 1")

    def save_vectors(self, items: Sequence[tuple[int, bytes]]) -> None:
        with self.tx() as conn:
            for chunk_id, blob in items:
                exists = conn.execute("SELECT 1 FROM chunks WHERE id = ?", (chunk_id,)).fetchone()
                if not exists:
                    continue
                conn.execute(
                    "INSERT OR REPLACE INTO chunk_vectors(chunk_id, vector) VALUES (?, ?)",
                    (chunk_id, blob),
                )
                conn.execute("UPDATE chunks SET embedded = 1 WHERE id = ?", (chunk_id,))

    # ---------------------------------------------------------------- reads
    def get_page(self, page_id: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT p.*, b.markdown, b.explain FROM pages p "
            "JOIN page_bodies b ON b.page_id = p.id WHERE p.id = ?",
            (page_id,),
        ).fetchone()
        return dict(row) if row else None

    def page_history(self, page_id: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT fetched_at, status, content_hash, changed, job_id FROM page_history "
            "WHERE page_id = ? ORDER BY id DESC LIMIT 100",
            (page_id,),
        ).fetchall()
        return [dict(r) for r in rows]

    def page_assets(self, page_id: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT url, kind, alt FROM assets WHERE page_id = ? ORDER BY url", (page_id,)
        ).fetchall()
        return [dict(r) for r in rows]

    def cited_by(self, page_id: str) -> list[dict[str, Any]]:
        """Pages citing this one from their body, site-wide template links excluded."""
        rows = self.conn.execute(
            "SELECT s.id, s.url, s.title, min(l.anchor) AS anchor FROM links l "
            "JOIN pages s ON s.id = l.src_page_id JOIN pages t ON t.id = l.target_page_id "
            "WHERE l.target_page_id = ? AND l.position = 'body' AND l.internal = 1 "
            "AND l.src_page_id != ? AND NOT EXISTS (SELECT 1 FROM template_links tl "
            "WHERE tl.domain = t.domain AND tl.target_url = l.target_url "
            "AND tl.anchor = l.anchor) GROUP BY s.id ORDER BY s.id",
            (page_id, page_id),
        ).fetchall()
        return [
            {"id": r["id"], "url": r["url"], "title": r["title"], "anchor_text": r["anchor"]}
            for r in rows
        ]

    def page_collections(self, domain: str) -> list[str]:
        rows = self.conn.execute(
            "SELECT slug FROM collection_members WHERE domain = ? ORDER BY slug", (domain,)
        )
        return [r[0] for r in rows]

    def list_pages(self, query: ContentQuery) -> tuple[list[dict[str, Any]], int]:
        where: list[str] = []
        args: list[Any] = []
        join = ""
        if query.fts:
            join = (
                "JOIN (SELECT c.page_id, min(f.s) AS score FROM (SELECT rowid AS rid, rank AS s "
                "FROM chunks_fts WHERE chunks_fts MATCH ? AND rank MATCH 'bm25(10.0, 3.0, 1.0)') f "
                "JOIN chunks c ON c.id = f.rid GROUP BY c.page_id) rel ON rel.page_id = p.id"
            )
            args.append(query.fts)
        if query.domains:
            where.append(f"p.domain IN ({','.join('?' * len(query.domains))})")
            args.extend(query.domains)
        if query.collection:
            where.append("p.domain IN (SELECT domain FROM collection_members WHERE slug = ?)")
            args.append(query.collection)
        for column, values in (
            ("type", query.types),
            ("format", query.formats),
            ("audience", query.audiences),
        ):
            if values:
                where.append(f"p.{column} IN ({','.join('?' * len(values))})")
                args.extend(values)
        if query.locales:
            parts = []
            for loc in query.locales:
                parts.append("(lower(p.locale) = ? OR lower(p.locale) LIKE ?)")
                args.extend([loc.lower(), loc.lower() + "-%"])
            where.append("(" + " OR ".join(parts) + ")")
        if query.topics:
            where.append(
                f"p.id IN (SELECT page_id FROM page_topics WHERE topic IN "
                f"({','.join('?' * len(query.topics))}))"
            )
            args.extend(query.topics)
        for column, op, value in (
            ("technicality", ">=", query.technicality_min),
            ("depth", ">=", query.depth_min),
            ("originality", ">=", query.originality_min),
            ("promotional", "<=", query.promotional_max),
            ("words", ">=", query.words_min),
        ):
            if value is not None:
                where.append(f"p.{column} {op} ?")
                args.append(value)
        if query.has_code is not None:
            where.append("p.has_code = ?")
            args.append(1 if query.has_code else 0)
        if query.published_after:
            where.append("p.published > ?")
            args.append(query.published_after)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = self.conn.execute(f"SELECT count(*) FROM pages p {join} {clause}", args).fetchone()[
            0
        ]
        order = _SORTS[query.sort]
        rows = self.conn.execute(
            f"SELECT p.id, p.url, p.canonical_url, p.title, p.domain, p.type, p.format, "
            f"p.audience, p.locale, p.topics, p.technicality, p.depth, p.originality, "
            f"p.promotional, p.has_code, p.words, p.published, p.inlinks_body, p.indexed_at, "
            f"p.fetched_at, p.description FROM pages p {join} {clause} ORDER BY {order} "
            f"LIMIT ? OFFSET ?",
            [*args, query.limit, query.offset],
        ).fetchall()
        return [dict(r) for r in rows], int(total)


def _signed64(value: int | None) -> int | None:
    """SQLite integers are signed 64-bit; store an unsigned 64-bit hash in that range."""
    if value is None:
        return None
    return value - (1 << 64) if value >= (1 << 63) else value
