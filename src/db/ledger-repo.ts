/**
 * The coverage ledger as the crawl writes it: one row per (job, URL), moved from `pending` to
 * exactly one final bucket; and what a crawl reads back to resume. What runs per URL or per page
 * is SQL prepared once per connection (bun:sqlite caches `query()` statements by their text),
 * run once per row: drizzle's builder cost more CPU than SQLite did (see page-writes.ts).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Bucket } from "../crawl/buckets.ts";
import type { Db } from "./client.ts";
import { jobUrls } from "./schema.ts";

export interface UrlEntry {
  url: string;
  bucket: Bucket;
  reason: string | null;
  depth: number;
  /** How it was found: entry, sitemap, link, redirect, canonical, known. */
  source: string;
  priority: number;
  lastmod: string | null;
}

const now = () => Date.now() / 1000;

/** Inserts the URLs not yet in the job's ledger; returns the ones that were new. */
export function addUrls(db: Db, jobId: string, entries: readonly UrlEntry[]): UrlEntry[] {
  if (entries.length === 0) return [];
  const at = now();
  const added: UrlEntry[] = [];
  const c = db.$client;
  const insert = c.query<{ url: string }, (string | number | null)[]>(
    `INSERT INTO job_urls (job_id, url, bucket, reason, depth, source, priority, lastmod, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING RETURNING url`,
  );
  c.transaction(() => {
    for (const e of entries) {
      const row = insert.get(
        jobId,
        e.url,
        e.bucket,
        e.reason,
        e.depth,
        e.source,
        e.priority,
        e.lastmod,
        at,
      );
      if (row) added.push(e);
    }
  })();
  return added;
}

export interface UrlUpdate {
  readonly pageId?: string | null;
  readonly httpStatus?: number | null;
  readonly target?: string | null;
  readonly elapsedMs?: number | null;
}

/** Moves one URL to its final bucket (fields left out keep their value). */
export function setUrl(
  db: Db,
  jobId: string,
  url: string,
  bucket: Bucket,
  reason: string | null,
  update: UrlUpdate = {},
): void {
  db.$client
    .query<unknown, (string | number | null)[]>(
      `UPDATE job_urls SET bucket = ?1, reason = ?2, updated_at = ?3,
         page_id = coalesce(?4, page_id), http_status = coalesce(?5, http_status),
         target = coalesce(?6, target), elapsed_ms = coalesce(?7, elapsed_ms)
       WHERE job_id = ?8 AND url = ?9`,
    )
    .run(
      bucket,
      reason,
      now(),
      update.pageId ?? null,
      update.httpStatus ?? null,
      update.target ?? null,
      update.elapsedMs ?? null,
      jobId,
      url,
    );
}

/** One URL's row in a job's ledger: its bucket and reason, and its depth; null when unknown. */
export function ledgerRow(
  db: Db,
  jobId: string,
  url: string,
): { bucket: Bucket; reason: string | null; depth: number } | null {
  return (
    db.$client
      .query<{ bucket: Bucket; reason: string | null; depth: number }, [string, string]>(
        "SELECT bucket, reason, depth FROM job_urls WHERE job_id = ?1 AND url = ?2",
      )
      .get(jobId, url) ?? null
  );
}

/** Moves every URL of a bucket to another (pending → budget / stoppedEarly at the end). */
export function moveBucket(
  db: Db,
  jobId: string,
  from: Bucket,
  to: Bucket,
  reason: string,
): number {
  return db
    .update(jobUrls)
    .set({ bucket: to, reason, updatedAt: now() })
    .where(and(eq(jobUrls.jobId, jobId), eq(jobUrls.bucket, from)))
    .returning({ url: jobUrls.url })
    .all().length;
}

export function pendingUrls(db: Db, jobId: string): UrlEntry[] {
  return db
    .select({
      url: jobUrls.url,
      bucket: jobUrls.bucket,
      reason: jobUrls.reason,
      depth: jobUrls.depth,
      source: jobUrls.source,
      priority: jobUrls.priority,
      lastmod: jobUrls.lastmod,
    })
    .from(jobUrls)
    .where(and(eq(jobUrls.jobId, jobId), eq(jobUrls.bucket, "pending")))
    .all() as UrlEntry[];
}

export function ledgerUrls(db: Db, jobId: string): Set<string> {
  return new Set(
    db
      .select({ url: jobUrls.url })
      .from(jobUrls)
      .where(eq(jobUrls.jobId, jobId))
      .all()
      .map((r) => r.url),
  );
}

/** Records how URLs were found (by sitemap, by link): the two captures of the size estimate. */
export function recordDiscovery(
  db: Db,
  jobId: string,
  urls: readonly string[],
  how: "sitemap" | "link",
): void {
  if (urls.length === 0) return;
  const column = how === "sitemap" ? "by_sitemap" : "by_link";
  const c = db.$client;
  const insert = c.query<unknown, [string, string]>(
    `INSERT INTO job_url_evidence (job_id, url, ${column}) VALUES (?1, ?2, 1)
     ON CONFLICT (job_id, url) DO UPDATE SET ${column} = excluded.${column}`,
  );
  c.transaction(() => {
    for (const url of urls) insert.run(jobId, url);
  })();
}

/** The response time of a URL's fetch, on its ledger row and on the history row it made. */
export function recordFetchTime(db: Db, jobId: string, url: string, elapsedMs: number): void {
  const c = db.$client;
  c.transaction(() => {
    const row = c
      .query<{ pageId: string | null }, [number, string, string]>(
        "UPDATE job_urls SET elapsed_ms = ?1 WHERE job_id = ?2 AND url = ?3 RETURNING page_id AS pageId",
      )
      .get(elapsedMs, jobId, url);
    if (row?.pageId) {
      c.query<unknown, [number, string, string]>(
        `UPDATE page_history SET elapsed_ms = ?1 WHERE page_id = ?2 AND job_id = ?3
           AND id = (SELECT max(id) FROM page_history WHERE page_id = ?2)`,
      ).run(elapsedMs, row.pageId, jobId);
    }
  })();
}

export function urlsInBuckets(db: Db, jobId: string, buckets: readonly Bucket[]): string[] {
  return db
    .select({ url: jobUrls.url })
    .from(jobUrls)
    .where(and(eq(jobUrls.jobId, jobId), inArray(jobUrls.bucket, [...buckets])))
    .all()
    .map((r) => r.url);
}
