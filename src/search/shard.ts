/**
 * One domain's chunks in one Orama database (see shard-schema.ts): pages are upserted and
 * removed whole, facets and late vectors are set in place, and both engines are Orama searches
 * with the filter as an Orama `where` clause. Chunk ids are `<page id>#<n>` and reused by every
 * upsert of the page (Orama never reclaims an internal id; the snapshot renumbers them).
 */
import { insert, load, type Results, remove, save, search } from "@orama/orama";
import type { StoredChunk } from "./chunk-store.ts";
import { createShardDb, docsOf, EMBED_DIM, indexOf, type ShardDb } from "./shard-schema.ts";
import { queryTerms } from "./tokenizer.ts";

export interface PageFacets {
  readonly type: string | null;
  /** BCP 47 tag as written (`en-US`); matched by language range (`en` matches `en-us`). */
  readonly locale: string | null;
  readonly topics: readonly string[];
  readonly technicality: number | null;
}

export interface ChunkInput {
  /** Heading path, e.g. `Install > Linux`. */
  readonly heading: string;
  readonly text: string;
  /** Null or absent until the chunk is embedded (`setVectors` adds it later). */
  readonly vector?: ArrayLike<number> | null;
}

export interface PageInput {
  readonly pageId: string;
  readonly title: string;
  /** The caller's version of what was indexed (e.g. a content hash): `pageVersions` returns it. */
  readonly version?: string;
  readonly facets: PageFacets;
  readonly chunks: readonly ChunkInput[];
}

/** A page as a shard takes it: the facets searches filter on, each chunk's heading and text
 * (whatever else the caller's page and chunks carry stays out). */
export function shardPage(
  pageId: string,
  title: string | null,
  version: string,
  facets: PageFacets,
  chunks: readonly ChunkInput[],
): PageInput {
  const { type, locale, topics, technicality } = facets;
  return {
    pageId,
    title: title ?? "",
    version,
    facets: { type, locale, topics, technicality },
    chunks: chunks.map((c) => ({ heading: c.heading, text: c.text })),
  };
}

export interface ChunkVector {
  readonly chunkId: string;
  readonly vector: ArrayLike<number>;
}

export interface ShardHit {
  readonly chunkId: string;
  readonly pageId: string;
  readonly heading: string;
  readonly text: string;
  /** BM25 (text) or cosine similarity (vector). */
  readonly score: number;
}

/** An Orama `where` clause over the shard's facets. */
export type ShardWhere = Record<string, unknown>;

export function chunkId(pageId: string, n: number): string {
  return `${pageId}#${n}`;
}

/** `en-US` → [`en-us`, `en`]: a filter on any of them matches the page. */
export function localeRanges(locale: string): string[] {
  const parts = locale.toLowerCase().split(/[-_]/).filter(Boolean);
  return parts.map((_, i) => parts.slice(0, parts.length - i).join("-"));
}

/** The facet fields a shard document carries for the page (locale as its ranges). */
export function facetFields(facets: PageFacets): Record<string, unknown> {
  const out: Record<string, unknown> = { topics: [...facets.topics] };
  if (facets.type !== null) out.type = facets.type;
  if (facets.locale !== null) out.locale = localeRanges(facets.locale);
  if (facets.technicality !== null) out.technicality = facets.technicality;
  return out;
}

function checkPage(page: PageInput): void {
  if (!page.pageId || page.pageId.includes("\u0000")) {
    throw new RangeError("a page needs an id, without NUL");
  }
  for (const chunk of page.chunks) {
    const v = chunk.vector;
    if (!v) continue;
    if (v.length !== EMBED_DIM) {
      throw new RangeError(`a chunk vector has ${v.length} dimensions, not ${EMBED_DIM}`);
    }
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i]))
        throw new RangeError("a chunk vector holds a value that is not finite");
    }
  }
}

function settled<T>(value: T | Promise<T>): T {
  if (value instanceof Promise) throw new Error("a shard database must stay synchronous");
  return value;
}

export class Shard {
  readonly domain: string;
  #db: ShardDb;

  constructor(domain: string, db: ShardDb = createShardDb()) {
    this.domain = domain;
    this.#db = db;
  }

  /** A shard from Orama `save()` output: created with the shard components, then `load()`. */
  static fromRaw(domain: string, raw: ReturnType<typeof save>): Shard {
    const db = createShardDb();
    load(db, raw);
    return new Shard(domain, db);
  }

  get db(): ShardDb {
    return this.#db;
  }

  /** Orama `save()` of the database (compacted: live chunks only, in slot order). */
  save(): ReturnType<typeof save> {
    return save(this.#db);
  }

  /** Replaces the page's chunks (all of them) by `page.chunks`; a bad page changes nothing. */
  upsertPage(page: PageInput): void {
    checkPage(page);
    this.removePage(page.pageId);
    if (page.chunks.length === 0) return;
    const facets = facetFields(page.facets);
    page.chunks.forEach((chunk, n) => {
      const doc: Record<string, unknown> = {
        id: chunkId(page.pageId, n),
        pageId: page.pageId,
        title: page.title,
        heading: chunk.heading,
        text: chunk.text,
        ...facets,
      };
      if (chunk.vector) doc.embedding = Array.from(chunk.vector);
      settled(insert(this.#db, doc as never));
    });
    const store = indexOf(this.#db);
    const row = store.pages.row(page.pageId);
    if (row !== undefined) store.pages.setVersion(row, page.version ?? "");
  }

  /** Removes every chunk of the page; false when the shard had none. */
  removePage(pageId: string): boolean {
    const store = indexOf(this.#db);
    const row = store.pages.row(pageId);
    if (row === undefined) return false;
    const count = store.pages.chunkCount(row);
    for (let n = 0; n < count; n++) settled(remove(this.#db, chunkId(pageId, n)));
    return true;
  }

  /** Sets a page's facets (a re-scored page); false when the shard does not hold the page. */
  setFacets(pageId: string, facets: PageFacets): boolean {
    const store = indexOf(this.#db);
    const row = store.pages.row(pageId);
    if (row === undefined) return false;
    const fields = facetFields(facets);
    for (const name of ["type", "locale", "topics", "technicality"]) {
      store.pages.setFacet(row, name, fields[name] as never);
    }
    store.generation++;
    return true;
  }

  /** Adds vectors to chunks indexed without one; returns how many chunks it found. */
  setVectors(vectors: readonly ChunkVector[]): number {
    const store = indexOf(this.#db);
    const ids = this.#db.internalDocumentIDStore.idToInternalId;
    let found = 0;
    for (const { chunkId: id, vector } of vectors) {
      const internalId = ids.get(id);
      const slot = internalId === undefined ? -1 : (store.slotOf[internalId] ?? -1);
      if (slot < 0) continue;
      store.vectors.set(slot, vector);
      found++;
    }
    return found;
  }

  /** A chunk's vector as the shard holds it (decoded), or null. */
  vectorOf(id: string): Float32Array | null {
    const store = indexOf(this.#db);
    const internalId = this.#db.internalDocumentIDStore.idToInternalId.get(id);
    const slot = internalId === undefined ? -1 : (store.slotOf[internalId] ?? -1);
    return slot < 0 ? null : store.vectors.get(slot);
  }

  /** Every page and the version it was indexed at. */
  pageVersions(): Map<string, string> {
    return indexOf(this.#db).pages.versions();
  }

  /** Chunks that still wait for a vector. */
  chunksWithoutVectors(): string[] {
    const store = indexOf(this.#db);
    const out: string[] = [];
    const ids = this.#db.internalDocumentIDStore.internalIdToId;
    for (let slot = 0; slot < store.slots; slot++) {
      if (store.live[slot] === 1 && !store.vectors.has(slot)) {
        out.push(ids[(store.internalOf[slot] as number) - 1] as string);
      }
    }
    return out;
  }

  /** Facets of a page as stored (locale as its ranges), or null. */
  pageFacets(pageId: string): Record<string, unknown> | null {
    const store = indexOf(this.#db);
    const row = store.pages.row(pageId);
    return row === undefined ? null : store.pages.facets(row);
  }

  get chunks(): number {
    return indexOf(this.#db).liveSlots;
  }

  get pages(): number {
    return indexOf(this.#db).pages.size;
  }

  /** Slots of removed chunks still held until the next compaction. */
  get deadSlots(): number {
    const store = indexOf(this.#db);
    return store.slots - store.liveSlots;
  }

  /**
   * Estimated bytes: typed arrays exactly, the arena block of the vectors, strings at a byte a
   * character, ~200 bytes of objects per chunk and ~90 per term (measured: test/bench).
   */
  get estimatedBytes(): number {
    const store = indexOf(this.#db);
    const docs = docsOf(this.#db);
    return (
      store.text.bytes +
      store.vectors.bytes +
      store.text.terms * 90 +
      docs.chars +
      docs.count * 200 +
      store.slotOf.byteLength +
      store.internalOf.byteLength * 2 +
      store.live.byteLength
    );
  }

  /** Gives the vectors' arena block back; the shard is unusable afterwards. */
  dispose(): void {
    indexOf(this.#db).vectors.dispose();
  }

  /** The `k` best chunks for `q` by BM25, among those `where` lets through. */
  searchText(q: string, k: number, where?: ShardWhere): ShardHit[] {
    if (k <= 0 || queryTerms(q).length === 0) return [];
    const store = indexOf(this.#db);
    store.queryLimit = k;
    const params = { term: q, limit: k, ...(where && Object.keys(where).length ? { where } : {}) };
    return this.#hits(settled(search(this.#db, params as never)) as Results<StoredChunk>);
  }

  /** The `k` chunks nearest to `vector` (cosine), among those `where` lets through. */
  searchVector(vector: ArrayLike<number>, k: number, where?: ShardWhere): ShardHit[] {
    if (k <= 0) return [];
    if (vector.length !== EMBED_DIM) {
      throw new RangeError(`a query vector has ${EMBED_DIM} dimensions, not ${vector.length}`);
    }
    const store = indexOf(this.#db);
    store.queryLimit = k;
    const params = {
      mode: "vector",
      vector: { value: Array.from(vector), property: "embedding" },
      similarity: -1,
      limit: k,
      ...(where && Object.keys(where).length ? { where } : {}),
    };
    return this.#hits(settled(search(this.#db, params as never)) as Results<StoredChunk>);
  }

  #hits(results: Results<StoredChunk>): ShardHit[] {
    return results.hits.map((hit) => ({
      chunkId: String(hit.id),
      pageId: hit.document.pageId,
      heading: hit.document.heading,
      text: hit.document.text,
      score: hit.score,
    }));
  }
}
