/** Jobs and what the job view reads of their coverage ledger. */
import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  notInArray,
  type SQL,
  sql,
} from "drizzle-orm";
import { BUCKETS } from "../crawl/buckets.ts";
import type { RenderMode } from "../crawl/render/detector.ts";
import type { ScopeParams } from "../crawl/scope.ts";
import type { Db } from "./client.ts";
import { domains, type JobState, jobs, jobUrls } from "./schema.ts";

export type JobRow = typeof jobs.$inferSelect;

export interface JobParams extends ScopeParams {
  readonly budget: number;
  readonly refresh: boolean;
  readonly force: boolean;
  readonly shots: number;
  /** Only the start URLs (and their redirects and canonicals): no sitemaps, no links followed.
   * The job `POST /api/fetch` with `store: true` queues. */
  readonly startOnly?: boolean;
  /** Absent: `auto`. */
  readonly render?: RenderMode;
}

export type CreateJobResult = { ok: true; job: JobRow } | { ok: false; activeId: string };

/**
 * A job is active while it is queued or fetching: once its fetching is over (`fetch_ended_at` in
 * its info, set before it waits for its chunks' vectors) a new crawl of the domain may start.
 */
const ACTIVE = sql`(${jobs.state} = 'queued' OR (${jobs.state} = 'running' AND json_extract(${jobs.info}, '$.fetch_ended_at') IS NULL))`;

/** Inserts a queued job unless the domain has an active one (checked in the same transaction). */
export function createJob(
  db: Db,
  job: {
    id: string;
    domain: string;
    params: JobParams;
    createdAt: string;
    keyId: string | null;
    info: object;
  },
): CreateJobResult {
  return db.transaction((tx) => {
    const active = tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.domain, job.domain), ACTIVE))
      .orderBy(asc(jobs.createdAt))
      .get();
    if (active) return { ok: false, activeId: active.id } as const;
    const row = tx
      .insert(jobs)
      .values({
        id: job.id,
        domain: job.domain,
        state: "queued",
        params: JSON.stringify(job.params),
        createdAt: job.createdAt,
        keyId: job.keyId,
        info: JSON.stringify(job.info),
      })
      .returning()
      .get();
    tx.insert(domains)
      .values({ domain: job.domain, createdAt: job.createdAt, lastJobId: job.id })
      .onConflictDoUpdate({ target: domains.domain, set: { lastJobId: job.id } })
      .run();
    return { ok: true, job: row } as const;
  });
}

export function getJob(db: Db, id: string): JobRow | null {
  return db.select().from(jobs).where(eq(jobs.id, id)).get() ?? null;
}

export function listJobs(
  db: Db,
  filter: { domain: string | null; state: JobState | null; limit: number; offset: number },
): { rows: JobRow[]; total: number } {
  const where: SQL[] = [];
  if (filter.domain) where.push(eq(jobs.domain, filter.domain));
  if (filter.state) where.push(eq(jobs.state, filter.state));
  const clause = where.length ? and(...where) : undefined;
  const total = db.select({ n: count() }).from(jobs).where(clause).get()?.n ?? 0;
  const rows = db
    .select()
    .from(jobs)
    .where(clause)
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(filter.limit)
    .offset(filter.offset)
    .all();
  return { rows, total };
}

/** Whether another job of the domain rendered pages that gained text by it (render-visit.ts). */
export function renderedBefore(db: Db, domain: string, exceptId: string): boolean {
  const row = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.domain, domain),
        sql`${jobs.id} <> ${exceptId}`,
        sql`json_extract(${jobs.info}, '$.render.gained') > 0`,
      ),
    )
    .limit(1)
    .get();
  return row !== undefined;
}

/** Ends a queued job as cancelled (its pending URLs to stoppedEarly); false if it is not queued. */
export function cancelQueued(db: Db, id: string, at: string, reason: string): boolean {
  return db.transaction((tx) => {
    const changed = tx
      .update(jobs)
      .set({ state: "cancelled", finishedAt: at, error: null })
      .where(and(eq(jobs.id, id), eq(jobs.state, "queued")))
      .returning({ id: jobs.id })
      .all();
    if (changed.length === 0) return false;
    tx.update(jobUrls)
      .set({ bucket: "stoppedEarly", reason, updatedAt: Date.now() / 1000 })
      .where(and(eq(jobUrls.jobId, id), eq(jobUrls.bucket, "pending")))
      .run();
    return true;
  });
}

export function requestCancel(db: Db, id: string): void {
  db.update(jobs)
    .set({ cancelRequested: true })
    .where(and(eq(jobs.id, id), inArray(jobs.state, ["queued", "running"])))
    .run();
}

export function bucketCounts(db: Db, jobId: string): Map<string, number> {
  const rows = db
    .select({ bucket: jobUrls.bucket, n: count() })
    .from(jobUrls)
    .where(eq(jobUrls.jobId, jobId))
    .groupBy(jobUrls.bucket)
    .all();
  return new Map(rows.map((r) => [r.bucket, r.n]));
}

/** The oldest URLs of a bucket (index order of job_urls_bucket_age). */
export function bucketSample(db: Db, jobId: string, bucket: string, n: number): string[] {
  return db
    .select({ url: jobUrls.url })
    .from(jobUrls)
    .where(and(eq(jobUrls.jobId, jobId), eq(jobUrls.bucket, bucket)))
    .orderBy(asc(jobUrls.updatedAt), asc(jobUrls.url))
    .limit(n)
    .all()
    .map((r) => r.url);
}

/** The most common specific reasons of a bucket, with counts. */
export function bucketReasons(
  db: Db,
  jobId: string,
  bucket: string,
): { reason: string; count: number }[] {
  const n = sql<number>`count(*)`.as("n");
  return db
    .select({ reason: jobUrls.reason, count: n })
    .from(jobUrls)
    .where(and(eq(jobUrls.jobId, jobId), eq(jobUrls.bucket, bucket), isNotNull(jobUrls.reason)))
    .groupBy(jobUrls.reason)
    .orderBy(desc(n))
    .limit(5)
    .all()
    .filter((r): r is { reason: string; count: number } => Boolean(r.reason));
}

/** Fetched URLs of one job in a bucket (fetched as the domain record's health counts them). */
export interface FetchedOutcome {
  readonly bucket: string;
  readonly count: number;
  /** Of them, those whose content is in the index: stored, unchanged, or the duplicate of a
   * page not booked in a failed bucket of this job. */
  readonly reached: number;
}

/** Where the URLs a job fetched went, per bucket. */
export function fetchedOutcomes(db: Db, jobId: string): FetchedOutcome[] {
  return db.$client
    .query<FetchedOutcome, [string]>(
      `SELECT u.bucket AS bucket, count(*) AS count,
         coalesce(sum(u.bucket IN ('indexed', 'unchanged') OR (u.bucket = 'duplicate'
           AND (t.bucket IS NULL OR t.bucket IN ('indexed', 'unchanged', 'duplicate')))), 0)
           AS reached
       FROM job_urls u
       LEFT JOIN job_urls t ON u.bucket = 'duplicate' AND t.job_id = u.job_id AND t.url = u.target
       WHERE u.job_id = ?1
         AND (u.http_status IS NOT NULL OR u.bucket IN ('fetchError', 'serverError'))
       GROUP BY u.bucket ORDER BY count DESC, u.bucket`,
    )
    .all(jobId);
}

export function fetchedCount(db: Db, jobId: string): number {
  return (
    db
      .select({ n: count() })
      .from(jobUrls)
      .where(and(eq(jobUrls.jobId, jobId), isNotNull(jobUrls.httpStatus)))
      .get()?.n ?? 0
  );
}

export interface JobUrlRow {
  url: string;
  bucket: string;
  reason: string | null;
  depth: number;
  source: string;
  page_id: string | null;
  http_status: number | null;
  target: string | null;
}

/** A page of a job's URLs, by URL; `unaccounted` lists rows in no known bucket. */
export function listJobUrls(
  db: Db,
  jobId: string,
  bucket: string | null,
  limit: number,
  offset: number,
): { rows: JobUrlRow[]; total: number } {
  const byBucket =
    bucket === "unaccounted"
      ? notInArray(jobUrls.bucket, [...BUCKETS])
      : bucket
        ? eq(jobUrls.bucket, bucket)
        : undefined;
  const where = and(eq(jobUrls.jobId, jobId), byBucket);
  const total = db.select({ n: count() }).from(jobUrls).where(where).get()?.n ?? 0;
  const rows = db
    .select({
      url: jobUrls.url,
      bucket: jobUrls.bucket,
      reason: jobUrls.reason,
      depth: jobUrls.depth,
      source: jobUrls.source,
      page_id: jobUrls.pageId,
      http_status: jobUrls.httpStatus,
      target: jobUrls.target,
    })
    .from(jobUrls)
    .where(where)
    .orderBy(asc(jobUrls.url))
    .limit(limit)
    .offset(offset)
    .all();
  return { rows, total };
}

/**
 * Claims the oldest queued job, or a running job whose lease expired (its worker died), for
 * `owner`. `exclude`: jobs the caller runs already; `only`: that job or none.
 */
export function leaseJob(
  db: Db,
  owner: string,
  leaseS: number,
  at: string,
  options: { exclude?: readonly string[]; only?: string } = {},
): JobRow | null {
  const t = Date.now() / 1000;
  return db.transaction((tx) => {
    const where = [
      sql`(${jobs.state} = 'queued' OR (${jobs.state} = 'running' AND (${jobs.leaseExpiresAt} IS NULL OR ${jobs.leaseExpiresAt} < ${t})))`,
    ];
    if (options.exclude?.length) where.push(notInArray(jobs.id, [...options.exclude]));
    if (options.only) where.push(eq(jobs.id, options.only));
    const row = tx
      .select()
      .from(jobs)
      .where(and(...where))
      .orderBy(asc(jobs.createdAt))
      .limit(1)
      .get();
    if (!row) return null;
    return (
      tx
        .update(jobs)
        .set({
          state: "running",
          leaseOwner: owner,
          leaseExpiresAt: t + leaseS,
          startedAt: row.startedAt ?? at,
          resumes: row.state === "running" ? row.resumes + 1 : row.resumes,
        })
        .where(eq(jobs.id, row.id))
        .returning()
        .get() ?? null
    );
  });
}

/** Extends the lease; false when the job is no longer this owner's running job. */
export function renewLease(db: Db, id: string, owner: string, leaseS: number): boolean {
  return (
    db
      .update(jobs)
      .set({ leaseExpiresAt: Date.now() / 1000 + leaseS })
      .where(and(eq(jobs.id, id), eq(jobs.leaseOwner, owner), eq(jobs.state, "running")))
      .returning({ id: jobs.id })
      .all().length > 0
  );
}

/** Leases of a dead owner on this host expire at once, so its jobs are taken over now. */
export function expireLeases(db: Db, ownerPrefix: string): number {
  return db
    .update(jobs)
    .set({ leaseExpiresAt: 0 })
    .where(and(sql`${jobs.leaseOwner} LIKE ${`${ownerPrefix}%`}`, eq(jobs.state, "running")))
    .returning({ id: jobs.id })
    .all().length;
}

export function runningOwners(db: Db): string[] {
  return db
    .selectDistinct({ owner: jobs.leaseOwner })
    .from(jobs)
    .where(and(eq(jobs.state, "running"), isNotNull(jobs.leaseOwner)))
    .all()
    .map((r) => r.owner ?? "");
}

export function updateJob(db: Db, id: string, fields: Partial<typeof jobs.$inferInsert>): void {
  db.update(jobs).set(fields).where(eq(jobs.id, id)).run();
}

export function isCancelRequested(db: Db, id: string): boolean {
  return db.select({ c: jobs.cancelRequested }).from(jobs).where(eq(jobs.id, id)).get()?.c ?? false;
}
