/** Chunks as the search index reads them: a page's chunks, the embedding backlog. */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { chunks, pages } from "./schema.ts";

export interface IndexPage {
  readonly pageId: string;
  readonly domain: string;
  readonly title: string | null;
  readonly version: string;
  readonly type: string;
  readonly locale: string | null;
  readonly topics: readonly string[];
  readonly technicality: number;
  readonly chunks: readonly {
    id: number;
    idx: number;
    heading: string;
    text: string;
    embedded: boolean;
    /** False: the vector policy gives it none (it never waits for the model). */
    vectorWanted: boolean;
  }[];
}

/** Pages with their chunks, as the search shard indexes them. */
export function indexPages(db: Db, pageIds: readonly string[]): IndexPage[] {
  if (pageIds.length === 0) return [];
  const rows = db
    .select({
      id: pages.id,
      domain: pages.domain,
      title: pages.title,
      textHash: pages.textHash,
      type: pages.type,
      locale: pages.locale,
      topics: pages.topics,
      technicality: pages.technicality,
    })
    .from(pages)
    .where(inArray(pages.id, [...pageIds]))
    .all();
  const byPage = new Map<string, IndexPage["chunks"][number][]>();
  for (const c of db
    .select({
      id: chunks.id,
      pageId: chunks.pageId,
      idx: chunks.idx,
      heading: chunks.heading,
      text: chunks.text,
      embedded: chunks.embedded,
      vectorWanted: chunks.vectorWanted,
    })
    .from(chunks)
    .where(inArray(chunks.pageId, [...pageIds]))
    .orderBy(asc(chunks.pageId), asc(chunks.idx))
    .all()) {
    const list = byPage.get(c.pageId) ?? [];
    const { id, idx, heading, text, embedded, vectorWanted } = c;
    list.push({ id, idx, heading, text, embedded, vectorWanted });
    byPage.set(c.pageId, list);
  }
  return rows.map((r) => ({
    pageId: r.id,
    domain: r.domain,
    title: r.title,
    version: r.textHash,
    type: r.type,
    locale: r.locale,
    topics: JSON.parse(r.topics) as string[],
    technicality: r.technicality,
    chunks: byPage.get(r.id) ?? [],
  }));
}

/** (page id, version) of every stored page of a domain: what its shard must hold. */
export function domainPageVersions(db: Db, domain: string): Map<string, string> {
  return new Map(
    db
      .select({ id: pages.id, v: pages.textHash })
      .from(pages)
      .where(eq(pages.domain, domain))
      .all()
      .map((r) => [r.id, r.v]),
  );
}

/** Domains with stored pages. */
export function storedDomains(db: Db): string[] {
  return db
    .selectDistinct({ d: pages.domain })
    .from(pages)
    .all()
    .map((r) => r.d);
}

export interface PendingChunk {
  readonly id: number;
  readonly pageId: string;
  readonly idx: number;
  readonly domain: string;
  readonly title: string | null;
  readonly heading: string;
  readonly text: string;
}

/** What the embedder reads of a waiting chunk. */
const PENDING_COLUMNS = {
  id: chunks.id,
  pageId: chunks.pageId,
  idx: chunks.idx,
  domain: pages.domain,
  title: pages.title,
  heading: chunks.heading,
  text: chunks.text,
};

/** The oldest chunks still waiting for vectors. */
export function chunksToEmbed(
  db: Db,
  limit: number,
  excludeIds: readonly number[] = [],
): PendingChunk[] {
  return db
    .select(PENDING_COLUMNS)
    .from(chunks)
    .innerJoin(pages, eq(pages.id, chunks.pageId))
    .where(
      and(
        eq(chunks.embedded, false),
        excludeIds.length ? sql`${chunks.id} NOT IN ${excludeIds}` : undefined,
      ),
    )
    .orderBy(asc(chunks.id))
    .limit(limit)
    .all();
}

export function embeddingBacklog(db: Db, jobId: string): number {
  return (
    db
      .select({ n: count() })
      .from(chunks)
      .where(and(eq(chunks.jobId, jobId), eq(chunks.embedded, false)))
      .get()?.n ?? 0
  );
}

/** The chunks of `ids` still waiting for vectors, oldest first (the rows `chunksToEmbed` reads). */
export function pendingChunks(db: Db, ids: readonly number[]): PendingChunk[] {
  if (ids.length === 0) return [];
  return db
    .select(PENDING_COLUMNS)
    .from(chunks)
    .innerJoin(pages, eq(pages.id, chunks.pageId))
    .where(and(inArray(chunks.id, [...ids]), eq(chunks.embedded, false)))
    .orderBy(asc(chunks.id))
    .all();
}
