/** Pages written through the store's own write path, for tests of the read side. */
import type { Db } from "../../src/db/client.ts";
import { createJob } from "../../src/db/jobs-repo.ts";
import { type PageFacets, type PageWrite, savePage } from "../../src/db/page-writes.ts";
import { jobUrls } from "../../src/db/schema.ts";
import { chunkMarkdown } from "../../src/search/chunking.ts";
import { loadTokenCounter } from "../../src/search/model-files.ts";
import type { TokenCounter } from "../../src/search/word-pieces.ts";
import { pageIdFor } from "../../src/services/ids.ts";

export interface PageSpec extends Partial<Omit<PageWrite, "facets">> {
  url: string;
  facets?: Partial<PageFacets>;
}

let counter: TokenCounter | null = null;

/** The page's chunks as a crawl worker makes them. */
function chunksOf(markdown: string, title: string | null) {
  counter ??= loadTokenCounter();
  return chunkMarkdown(markdown, counter, { title });
}

/** A finished job to hang test pages on; returns its id. */
export function testJob(
  db: Db,
  domain: string,
  id = `job_${"0".repeat(11)}1${domain.length}`,
): string {
  const result = createJob(db, {
    id,
    domain,
    params: { budget: 10, refresh: false, force: false, shots: 0 },
    createdAt: "2026-11-01T00:00:00Z",
    keyId: null,
    info: {},
  });
  if (!result.ok) throw new Error(`job exists: ${result.activeId}`);
  return id;
}

/** Stores a page as the crawler would (ledger row included) and returns its id. */
export function writePage(db: Db, jobId: string, spec: PageSpec): string {
  return storePage(db, jobId, spec).id;
}

/** `writePage`, returning what was written (what a crawl hands the search indexer). */
export function storePage(db: Db, jobId: string, spec: PageSpec): PageWrite {
  const url = new URL(spec.url);
  const id = spec.id ?? pageIdFor(spec.url);
  const domain = spec.domain ?? url.hostname.split(".").slice(-2).join(".");
  db.insert(jobUrls)
    .values({ jobId, url: spec.url, bucket: "pending", updatedAt: 0 })
    .onConflictDoNothing()
    .run();
  const write: PageWrite = {
    id,
    url: spec.url,
    canonicalUrl: spec.canonicalUrl ?? spec.url,
    domain,
    host: url.hostname,
    title: spec.title ?? null,
    description: spec.description ?? null,
    markdown: spec.markdown ?? `# ${spec.title ?? "Page"}\n\nText of ${spec.url}.`,
    contentHash: spec.contentHash ?? `c-${id}`,
    textHash: spec.textHash ?? `t-${id}`,
    etag: spec.etag ?? null,
    lastModified: spec.lastModified ?? null,
    httpStatus: spec.httpStatus ?? 200,
    fetchedAt: spec.fetchedAt ?? "2026-11-02T10:00:00Z",
    jobId,
    declaredLanguage: spec.declaredLanguage ?? null,
    hreflang: spec.hreflang ?? [],
    simhash: spec.simhash ?? null,
    facets: {
      type: "other",
      format: "other",
      audience: "general",
      locale: "en",
      topics: [],
      technicality: 0,
      depth: 0,
      originality: 1,
      promotional: 0,
      hasCode: false,
      words: 100,
      published: null,
      explain: {},
      ...spec.facets,
    },
    assets: spec.assets ?? [],
    links: spec.links ?? [],
    chunks:
      spec.chunks ??
      chunksOf(
        spec.markdown ?? `# ${spec.title ?? "Page"}\n\nText of ${spec.url}.`,
        spec.title ?? null,
      ),
  };
  savePage(db, write, { ledgerUrl: spec.url, changed: true, fetched: true });
  return write;
}
