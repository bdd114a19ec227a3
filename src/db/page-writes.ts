/**
 * Storing a page: its row, body, topics, assets, links, chunks, history and ledger state in one
 * transaction, so a crash leaves either all of it or none.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import {
  assets,
  chunks,
  jobUrls,
  links,
  pageBodies,
  pageHistory,
  pages,
  pageTopics,
} from "./schema.ts";

export interface LinkRow {
  readonly targetUrl: string;
  readonly targetPageId: string;
  readonly targetHost: string;
  readonly anchor: string;
  readonly position: "body" | "template";
  readonly internal: boolean;
}

export interface ChunkRow {
  readonly index: number;
  readonly heading: string;
  readonly text: string;
  readonly tokens: number;
}

export interface PageFacets {
  readonly type: string;
  readonly format: string;
  readonly audience: string;
  readonly locale: string | null;
  readonly topics: readonly string[];
  readonly technicality: number;
  readonly depth: number;
  readonly originality: number;
  readonly promotional: number;
  readonly hasCode: boolean;
  readonly words: number;
  readonly published: string | null;
  /** Why each facet was chosen (`explain=true`). */
  readonly explain: Readonly<Record<string, unknown>>;
}

export interface PageWrite {
  readonly id: string;
  readonly url: string;
  readonly canonicalUrl: string | null;
  readonly domain: string;
  readonly host: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly markdown: string;
  readonly contentHash: string;
  readonly textHash: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly httpStatus: number;
  readonly fetchedAt: string;
  readonly jobId: string;
  readonly declaredLanguage: string | null;
  readonly hreflang: readonly (readonly [string, string])[];
  readonly simhash: string | null;
  readonly facets: PageFacets;
  readonly assets: readonly { url: string; kind: string; alt: string }[];
  readonly links: readonly LinkRow[];
  readonly chunks: readonly ChunkRow[];
}

const now = () => Date.now() / 1000;

/**
 * Stores a page and marks `ledgerUrl` of its job `indexed`. `changed`: whether the text differs
 * from what was stored before (the history row says so); `fetched`: whether `ledgerUrl` itself
 * was fetched (false when the content was indexed under its canonical URL).
 */
export function savePage(
  db: Db,
  page: PageWrite,
  options: { ledgerUrl: string; changed: boolean; fetched: boolean },
): void {
  const f = page.facets;
  const row = {
    id: page.id,
    url: page.url,
    canonicalUrl: page.canonicalUrl,
    domain: page.domain,
    host: page.host,
    title: page.title,
    description: page.description,
    contentHash: page.contentHash,
    textHash: page.textHash,
    etag: page.etag,
    lastModified: page.lastModified,
    httpStatus: page.httpStatus,
    fetchedAt: page.fetchedAt,
    indexedAt: page.fetchedAt,
    jobId: page.jobId,
    declaredLanguage: page.declaredLanguage,
    hreflang: JSON.stringify(page.hreflang),
    simhash: page.simhash,
    type: f.type,
    format: f.format,
    audience: f.audience,
    locale: f.locale,
    topics: JSON.stringify(f.topics),
    technicality: f.technicality,
    depth: f.depth,
    originality: f.originality,
    promotional: f.promotional,
    hasCode: f.hasCode,
    words: f.words,
    published: f.published,
  };
  db.transaction((tx) => {
    const { id: _, ...update } = row;
    tx.insert(pages).values(row).onConflictDoUpdate({ target: pages.id, set: update }).run();
    for (const table of [pageTopics, assets, chunks] as const) {
      tx.delete(table).where(eq(table.pageId, page.id)).run();
    }
    tx.delete(links).where(eq(links.srcPageId, page.id)).run();
    const body = { pageId: page.id, markdown: page.markdown, explain: JSON.stringify(f.explain) };
    tx.insert(pageBodies)
      .values(body)
      .onConflictDoUpdate({
        target: pageBodies.pageId,
        set: { markdown: body.markdown, explain: body.explain },
      })
      .run();
    if (f.topics.length > 0) {
      tx.insert(pageTopics)
        .values(f.topics.map((topic) => ({ pageId: page.id, topic })))
        .onConflictDoNothing()
        .run();
    }
    if (page.assets.length > 0) {
      tx.insert(assets)
        .values(page.assets.map((a) => ({ pageId: page.id, ...a })))
        .onConflictDoNothing()
        .run();
    }
    // Chunked inserts: SQLite binds at most 32,766 parameters per statement.
    for (let i = 0; i < page.links.length; i += 2000) {
      tx.insert(links)
        .values(page.links.slice(i, i + 2000).map((l) => ({ srcPageId: page.id, ...l })))
        .onConflictDoNothing()
        .run();
    }
    for (let i = 0; i < page.chunks.length; i += 2000) {
      tx.insert(chunks)
        .values(
          page.chunks.slice(i, i + 2000).map((c) => ({
            pageId: page.id,
            idx: c.index,
            heading: c.heading,
            text: c.text,
            tokens: c.tokens,
            jobId: page.jobId,
          })),
        )
        .run();
    }
    tx.insert(pageHistory)
      .values({
        pageId: page.id,
        jobId: page.jobId,
        fetchedAt: page.fetchedAt,
        status: page.httpStatus,
        contentHash: page.contentHash,
        changed: options.changed,
        etag: page.etag,
        lastModified: page.lastModified,
      })
      .run();
    tx.update(jobUrls)
      .set({
        bucket: "indexed",
        reason: null,
        pageId: page.id,
        httpStatus: options.fetched ? page.httpStatus : sql`${jobUrls.httpStatus}`,
        updatedAt: now(),
      })
      .where(and(eq(jobUrls.jobId, page.jobId), eq(jobUrls.url, options.ledgerUrl)))
      .run();
  });
}

/** A known page answered 304 or the same content: a history row, fresh validators, `unchanged`. */
export function recordUnchanged(
  db: Db,
  args: {
    pageId: string;
    jobId: string;
    ledgerUrl: string;
    status: number;
    fetchedAt: string;
    reason: string;
    etag: string | null;
    lastModified: string | null;
  },
): void {
  db.transaction((tx) => {
    const stored = tx
      .select({ contentHash: pages.contentHash })
      .from(pages)
      .where(eq(pages.id, args.pageId))
      .get();
    tx.insert(pageHistory)
      .values({
        pageId: args.pageId,
        jobId: args.jobId,
        fetchedAt: args.fetchedAt,
        status: args.status,
        contentHash: stored?.contentHash ?? null,
        changed: false,
        etag: args.etag,
        lastModified: args.lastModified,
      })
      .run();
    tx.update(pages)
      .set({
        fetchedAt: args.fetchedAt,
        etag: sql`coalesce(${args.etag}, ${pages.etag})`,
        lastModified: sql`coalesce(${args.lastModified}, ${pages.lastModified})`,
      })
      .where(eq(pages.id, args.pageId))
      .run();
    tx.update(jobUrls)
      .set({
        bucket: "unchanged",
        reason: args.reason,
        pageId: args.pageId,
        httpStatus: args.status,
        updatedAt: now(),
      })
      .where(and(eq(jobUrls.jobId, args.jobId), eq(jobUrls.url, args.ledgerUrl)))
      .run();
  });
}
