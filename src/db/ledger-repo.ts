/**
 * The coverage ledger as the crawl writes it: one row per (job, URL), moved from `pending` to
 * exactly one final bucket; and what a crawl reads back to resume.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Bucket } from "../crawl/buckets.ts";
import type { Db } from "./client.ts";
import { jobUrlEvidence, jobUrls, pageHistory } from "./schema.ts";

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
const CHUNK = 500;

/** Inserts the URLs not yet in the job's ledger; returns the ones that were new. */
export function addUrls(db: Db, jobId: string, entries: readonly UrlEntry[]): UrlEntry[] {
  if (entries.length === 0) return [];
  const at = now();
  const added: UrlEntry[] = [];
  db.transaction((tx) => {
    for (let i = 0; i < entries.length; i += CHUNK) {
      const slice = entries.slice(i, i + CHUNK);
      const inserted = tx
        .insert(jobUrls)
        .values(slice.map((e) => ({ jobId, ...e, updatedAt: at })))
        .onConflictDoNothing()
        .returning({ url: jobUrls.url })
        .all();
      const fresh = new Set(inserted.map((r) => r.url));
      for (const e of slice) if (fresh.has(e.url)) added.push(e);
    }
  });
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
  db.update(jobUrls)
    .set({
      bucket,
      reason,
      updatedAt: now(),
      ...(update.pageId != null ? { pageId: update.pageId } : {}),
      ...(update.httpStatus != null ? { httpStatus: update.httpStatus } : {}),
      ...(update.target != null ? { target: update.target } : {}),
      ...(update.elapsedMs != null ? { elapsedMs: update.elapsedMs } : {}),
    })
    .where(and(eq(jobUrls.jobId, jobId), eq(jobUrls.url, url)))
    .run();
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
  db.transaction((tx) => {
    for (let i = 0; i < urls.length; i += CHUNK) {
      tx.insert(jobUrlEvidence)
        .values(
          urls.slice(i, i + CHUNK).map((url) => ({
            jobId,
            url,
            bySitemap: how === "sitemap",
            byLink: how === "link",
          })),
        )
        .onConflictDoUpdate({
          target: [jobUrlEvidence.jobId, jobUrlEvidence.url],
          set: { [how === "sitemap" ? "bySitemap" : "byLink"]: sql.raw(`excluded.${column}`) },
        })
        .run();
    }
  });
}

/** The response time of a URL's fetch, on its ledger row and on the history row it made. */
export function recordFetchTime(db: Db, jobId: string, url: string, elapsedMs: number): void {
  db.transaction((tx) => {
    const row = tx
      .update(jobUrls)
      .set({ elapsedMs })
      .where(and(eq(jobUrls.jobId, jobId), eq(jobUrls.url, url)))
      .returning({ pageId: jobUrls.pageId })
      .get();
    if (row?.pageId) {
      tx.update(pageHistory)
        .set({ elapsedMs })
        .where(
          and(
            eq(pageHistory.pageId, row.pageId),
            eq(pageHistory.jobId, jobId),
            sql`${pageHistory.id} = (SELECT max(id) FROM page_history WHERE page_id = ${row.pageId})`,
          ),
        )
        .run();
    }
  });
}

export function urlsInBuckets(db: Db, jobId: string, buckets: readonly Bucket[]): string[] {
  return db
    .select({ url: jobUrls.url })
    .from(jobUrls)
    .where(and(eq(jobUrls.jobId, jobId), inArray(jobUrls.bucket, [...buckets])))
    .all()
    .map((r) => r.url);
}
