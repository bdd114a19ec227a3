/** Reads behind the domain record: jobs, health, sitemaps, languages, changes, outgoing links. */
import { and, asc, count, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import {
  collectionMembers,
  collections,
  domains,
  type JobState,
  jobs,
  jobUrls,
  links,
  pageHistory,
  pages,
  sitemaps,
} from "./schema.ts";

export type DomainRow = typeof domains.$inferSelect;

/** A domain has a record once it was crawled, holds pages or sits on a shelf. */
export function domainSeen(db: Db, domain: string): boolean {
  // drizzle's `get` of raw SQL answers an array of values; `all` answers rows by name.
  const [row] = db.all<{ seen: number }>(sql`SELECT
    EXISTS (SELECT 1 FROM ${domains} WHERE ${domains.domain} = ${domain})
    OR EXISTS (SELECT 1 FROM ${pages} WHERE ${pages.domain} = ${domain})
    OR EXISTS (SELECT 1 FROM ${collectionMembers} WHERE ${collectionMembers.domain} = ${domain})
    AS seen`);
  return Boolean(row?.seen);
}

export function domainRow(db: Db, domain: string): DomainRow | null {
  return db.select().from(domains).where(eq(domains.domain, domain)).get() ?? null;
}

const STARTED: readonly JobState[] = ["running", "completed", "partial", "failed", "cancelled"];
const FINISHED: readonly JobState[] = ["completed", "partial"];

/** The domain's jobs, newest first: every started one, or only those that finished their work. */
export function domainJobs(db: Db, domain: string, finishedOnly: boolean, limit: number) {
  return db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.domain, domain), inArray(jobs.state, [...(finishedOnly ? FINISHED : STARTED)])),
    )
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(limit)
    .all();
}

export function domainPageCount(db: Db, domain: string): number {
  return db.select({ n: count() }).from(pages).where(eq(pages.domain, domain)).get()?.n ?? 0;
}

export interface JobHealth {
  readonly fetched: number;
  readonly errors: number;
  readonly clientErrors: number;
  readonly serverErrors: number;
  readonly fetchErrors: number;
  readonly medianMs: number | null;
}

/** Fetch outcomes and the median response time of one job. */
export function jobHealth(db: Db, jobId: string): JobHealth {
  const fetchedRow = or(
    isNotNull(jobUrls.httpStatus),
    inArray(jobUrls.bucket, ["fetchError", "serverError"]),
  );
  const n = (bucket: string) => sql<number>`coalesce(sum(${jobUrls.bucket} = ${bucket}), 0)`;
  const row = db
    .select({
      fetched: count(),
      clientErrors: n("clientError"),
      serverErrors: n("serverError"),
      fetchErrors: n("fetchError"),
      timed: count(jobUrls.elapsedMs),
    })
    .from(jobUrls)
    .where(and(eq(jobUrls.jobId, jobId), fetchedRow))
    .get();
  const timed = row?.timed ?? 0;
  let medianMs: number | null = null;
  if (timed > 0) {
    const middle = db
      .select({ ms: jobUrls.elapsedMs })
      .from(jobUrls)
      .where(and(eq(jobUrls.jobId, jobId), isNotNull(jobUrls.elapsedMs)))
      .orderBy(asc(jobUrls.elapsedMs))
      .limit(2 - (timed % 2))
      .offset(Math.floor((timed - 1) / 2))
      .all();
    medianMs = middle.reduce((sum, r) => sum + (r.ms ?? 0), 0) / middle.length;
  }
  const clientErrors = row?.clientErrors ?? 0;
  const serverErrors = row?.serverErrors ?? 0;
  const fetchErrors = row?.fetchErrors ?? 0;
  return {
    fetched: row?.fetched ?? 0,
    errors: clientErrors + serverErrors + fetchErrors,
    clientErrors,
    serverErrors,
    fetchErrors,
    medianMs,
  };
}

export function domainSitemaps(db: Db, domain: string) {
  return db
    .select({
      url: sitemaps.url,
      urlCount: sitemaps.urlCount,
      status: sitemaps.status,
      lastModified: sitemaps.lastModified,
      fetchedAt: sitemaps.fetchedAt,
    })
    .from(sitemaps)
    .where(eq(sitemaps.domain, domain))
    .orderBy(asc(sitemaps.url))
    .all();
}

/** (locale, url) of every page of the domain. */
export function domainPageLocales(db: Db, domain: string) {
  return db
    .select({ locale: pages.locale, url: pages.url })
    .from(pages)
    .where(eq(pages.domain, domain))
    .orderBy(asc(pages.locale), asc(pages.url))
    .all();
}

export interface HreflangRow {
  /** The locale facet of the declaring pages. */
  readonly locale: string | null;
  readonly hreflang: string;
  /** One URL the alternate names. */
  readonly url: string;
  /** How many pages of that locale declare it, and one of them. */
  readonly pages: number;
  readonly pageUrl: string;
}

/** Per page locale: each hreflang value its pages declare, with one URL it names. */
export function domainHreflang(db: Db, domain: string): HreflangRow[] {
  return db.all<HreflangRow>(sql`
    SELECT p.locale AS locale, json_extract(j.value, '$[0]') AS hreflang,
           min(json_extract(j.value, '$[1]')) AS url, count(*) AS pages, min(p.url) AS pageUrl
    FROM ${pages} p, json_each(p.hreflang) j
    WHERE p.domain = ${domain} AND p.hreflang != '[]'
    GROUP BY 1, 2 ORDER BY 1, 2`);
}

/** (target host, source page, links) of every outgoing link to another host's domain. */
export function domainExternalLinks(db: Db, domain: string) {
  return db
    .select({ host: links.targetHost, source: links.srcPageId, links: count() })
    .from(links)
    .innerJoin(pages, eq(pages.id, links.srcPageId))
    .where(and(eq(pages.domain, domain), eq(links.internal, false)))
    .groupBy(links.targetHost, links.srcPageId)
    .all();
}

export interface ChangedPages {
  readonly count: number;
  readonly pages: { id: string; url: string; title: string | null }[];
}

/**
 * Pages added, modified and removed by `jobId`: added, first stored by this job; modified, stored
 * again with different content; removed, a page of the corpus this job found gone (4xx,
 * noindex, redirected away).
 */
export function jobChanges(db: Db, jobId: string, sample: number) {
  const earlier = sql`(SELECT 1 FROM ${pageHistory} o WHERE o.page_id = h.page_id AND o.id < h.id)`;
  const stored = (first: boolean) =>
    sql`FROM ${pageHistory} h JOIN ${pages} p ON p.id = h.page_id
        WHERE h.job_id = ${jobId} AND h.changed = 1 AND ${first ? sql`NOT` : sql``} EXISTS ${earlier}`;
  const gone = sql`FROM ${jobUrls} ju JOIN ${pages} p ON p.url = ju.url
      WHERE ju.job_id = ${jobId} AND ju.bucket IN ('clientError', 'noindex', 'redirected')
      AND (p.job_id IS NULL OR p.job_id != ${jobId})`;
  const changed = (tail: ReturnType<typeof sql>): ChangedPages => ({
    count: db.all<{ n: number }>(sql`SELECT count(DISTINCT p.id) AS n ${tail}`)[0]?.n ?? 0,
    pages: db.all<{ id: string; url: string; title: string | null }>(
      sql`SELECT DISTINCT p.id AS id, p.url AS url, p.title AS title ${tail} ORDER BY p.url LIMIT ${sample}`,
    ),
  });
  return { added: changed(stored(true)), removed: changed(gone), modified: changed(stored(false)) };
}

/** The shelves a domain sits on, with the reason it was placed there. */
export function domainShelves(db: Db, domain: string) {
  return db
    .select({ slug: collections.slug, name: collections.name, reason: collectionMembers.reason })
    .from(collectionMembers)
    .innerJoin(collections, eq(collections.slug, collectionMembers.slug))
    .where(eq(collectionMembers.domain, domain))
    .orderBy(asc(collections.slug))
    .all();
}
