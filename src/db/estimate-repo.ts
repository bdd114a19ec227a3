/** The raw evidence a job's ledger holds about the size of its site (see services/estimate.ts). */
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { EstimateRows } from "../services/estimate.ts";
import type { Db } from "./client.ts";
import { jobUrlEvidence, jobUrls, links } from "./schema.ts";

const PAGE_BUCKETS = ["indexed", "unchanged"];

export function estimateRows(db: Db, jobId: string): EstimateRows {
  const ledger = db
    .select({ url: jobUrls.url, source: jobUrls.source, bucket: jobUrls.bucket })
    .from(jobUrls)
    .where(eq(jobUrls.jobId, jobId))
    .all();
  const evidence = db
    .select({
      url: jobUrlEvidence.url,
      bySitemap: jobUrlEvidence.bySitemap,
      byLink: jobUrlEvidence.byLink,
    })
    .from(jobUrlEvidence)
    .where(eq(jobUrlEvidence.jobId, jobId))
    .all();
  const linkRows = db
    .select({
      target: links.targetUrl,
      sources: sql<number>`count(DISTINCT ${links.srcPageId})`,
      firstAt: sql<number>`min(${jobUrls.updatedAt})`,
    })
    .from(jobUrls)
    .innerJoin(links, eq(links.srcPageId, jobUrls.pageId))
    .where(
      and(
        eq(jobUrls.jobId, jobId),
        inArray(jobUrls.bucket, PAGE_BUCKETS),
        eq(links.internal, true),
      ),
    )
    .groupBy(links.targetUrl)
    .all();
  const sourceTimes = db
    .select({ at: jobUrls.updatedAt })
    .from(jobUrls)
    .where(
      and(
        eq(jobUrls.jobId, jobId),
        inArray(jobUrls.bucket, PAGE_BUCKETS),
        isNotNull(jobUrls.pageId),
      ),
    )
    .orderBy(asc(jobUrls.updatedAt))
    .all()
    .map((r) => r.at);
  return { ledger, evidence, links: linkRows, sourceTimes };
}
