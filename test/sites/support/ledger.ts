/** A crawl's ledger and stored pages, read back for the site tests. */
import type { Bucket } from "../../../src/crawl/buckets.ts";
import type { JobUrlRow } from "../../../src/db/jobs-repo.ts";
import { jobUrls } from "../../../src/services/jobs-service.ts";
import type { Crawler } from "../../helpers/crawl.ts";

/** Every URL of the job in `bucket`, by URL (what GET /api/jobs/{id}/urls?bucket= pages through). */
export function bucketRows(c: Crawler, jobId: string, bucket: Bucket): Map<string, JobUrlRow> {
  const { rows } = jobUrls(c.store.read, jobId, bucket, 1_000_000, 0);
  return new Map(rows.map((r) => [r.url, r]));
}

export interface StoredPage {
  readonly id: string;
  readonly url: string;
  readonly inlinks: number;
}

export function storedPages(c: Crawler, domain: string): StoredPage[] {
  return c.store.read.$client
    .query<StoredPage, [string]>(
      "SELECT id, url, inlinks_body AS inlinks FROM pages WHERE domain = ? ORDER BY inlinks_body DESC, url",
    )
    .all(domain);
}

export function markdownOf(c: Crawler, url: string): string | null {
  return (
    c.store.read.$client
      .query<{ markdown: string }, [string]>(
        "SELECT b.markdown FROM page_bodies b JOIN pages p ON p.id = b.page_id WHERE p.url = ?",
      )
      .get(url)?.markdown ?? null
  );
}

export interface HistoryRow {
  readonly status: number;
  readonly changed: number;
  readonly contentHash: string | null;
}

export function historyOf(c: Crawler, url: string): HistoryRow[] {
  return c.store.read.$client
    .query<HistoryRow, [string]>(
      "SELECT h.status, h.changed, h.content_hash AS contentHash FROM page_history h JOIN pages p ON p.id = h.page_id WHERE p.url = ? ORDER BY h.id",
    )
    .all(url);
}
