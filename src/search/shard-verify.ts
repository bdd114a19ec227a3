/**
 * `webcorpus verify`: each domain's search shard, as its files load (shard-loader.ts, read-only),
 * compared with SQLite, the system of record: every chunk of every stored page must be in the
 * shard once, with the page's heading and text, on a page of the stored version and facets, and
 * with the vector SQLite holds for it (compared as int8 codes after the same quantization), or
 * none when SQLite holds none; nothing else may be in it. Page titles are not compared: a shard
 * keeps them only as BM25 terms.
 *
 * `repairShards` mends the domains that differ by the rebuild a start does for a damaged shard
 * (SearchIndexer.reconcileDomain behind a rebuild marker, from nothing), with no embedder: every
 * vector comes from SQLite, so the model is never called.
 */
import { storedDomains } from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { unstoredChunks } from "../db/vectors-repo.ts";
import { verifyChunks, verifyPages } from "../db/verify-repo.ts";
import { counted } from "../plural.ts";
import { embeddingText } from "./chunking.ts";
import { SearchIndexer } from "./search-indexer.ts";
import { chunkId, facetFields } from "./shard.ts";
import { domainsOnDisk, writeRebuildMarker } from "./shard-files.ts";
import { loadShard, type ShardHealth } from "./shard-loader.ts";
import type { ShardRegistry } from "./shard-registry.ts";
import { docsOf, indexOf } from "./shard-schema.ts";
import { decodeVector, encodeVector } from "./vector-codec.ts";

export interface ChunkFieldDiff {
  readonly chunkId: string;
  /** `heading`, `text`, `page` (the chunk sits on another page than its id says). */
  readonly fields: readonly string[];
}

export interface DomainReport {
  readonly domain: string;
  /** What loading the shard's files found (`ok`, or why a start would rebuild it). */
  readonly health: ShardHealth;
  readonly sqlite: { readonly pages: number; readonly chunks: number; readonly vectors: number };
  readonly shard: { readonly pages: number; readonly chunks: number; readonly vectors: number };
  /** Chunks in SQLite, not in the shard. */
  readonly missingChunks: readonly string[];
  /** Chunks in the shard, not in SQLite. */
  readonly orphanChunks: readonly string[];
  /** Chunk ids the shard holds more than once. */
  readonly duplicateChunks: readonly string[];
  readonly chunksDiffer: readonly ChunkFieldDiff[];
  /** Pages the shard holds at another version than SQLite's `text_hash`. */
  readonly pagesStale: readonly string[];
  /** Pages whose facets (type, locale, topics, technicality) in the shard differ from SQLite's. */
  readonly facetsDiffer: readonly string[];
  /** Chunks SQLite holds a vector for and the shard holds none. */
  readonly vectorsMissing: readonly string[];
  /** Chunks whose vector in the shard is not SQLite's. */
  readonly vectorsDiffer: readonly string[];
  /** Chunks the shard holds a vector for and SQLite none. */
  readonly vectorsExtra: readonly string[];
  /** Every list above, summed, and 1 for a shard that is not `ok`. */
  readonly differences: number;
}

/** A string as a shard stores it (chunk-store.ts: NUL cannot be in a snapshot). */
const stored = (s: string) => (s.includes("\u0000") ? s.replaceAll("\u0000", " ") : s);

/** Facets as comparable JSON: arrays deduplicated and sorted, empty ones and unset ones left out. */
function facetKey(facets: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const name of ["type", "locale", "topics", "technicality"]) {
    const v = facets[name];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length > 0) out[name] = [...new Set(v.map(String))].sort();
    } else out[name] = v;
  }
  return JSON.stringify(out);
}

/** The shard's row against SQLite's stored form, requantized as the shard quantizes it. */
function sameVector(held: { codes: Int8Array; scale: number }, row: Uint8Array): boolean {
  const want = encodeVector(decodeVector(row));
  const dim = want.byteLength - 4;
  if (held.codes.length !== dim) return false;
  const codes = new Int8Array(want.buffer, want.byteOffset, dim);
  for (let i = 0; i < dim; i++) {
    if (Math.abs((held.codes[i] as number) - (codes[i] as number)) > 1) return false;
  }
  const scale = want.readFloatLE(dim);
  return Math.abs(held.scale - scale) <= 1e-4 * Math.max(Math.abs(scale), 1e-12);
}

/** One domain's shard (its files in `dir`, read without changing them) against SQLite. */
export async function verifyDomain(db: Db, dir: string, domain: string): Promise<DomainReport> {
  const { shard, health } = await loadShard(dir, domain, { readOnly: true });
  try {
    const store = indexOf(shard.db);
    const docs = docsOf(shard.db).docs;
    const ids = shard.db.internalDocumentIDStore.internalIdToId;
    const held = new Map<string, number>();
    const duplicateChunks: string[] = [];
    for (let slot = 0; slot < store.slots; slot++) {
      if (store.live[slot] !== 1) continue;
      const internal = store.internalOf[slot] as number;
      const id = ids[internal - 1] ?? `?slot ${slot}`;
      if (held.has(id)) duplicateChunks.push(id);
      else held.set(id, slot);
    }

    const pages = verifyPages(db, domain);
    const pagesStale: string[] = [];
    const facetsDiffer: string[] = [];
    for (const [pageId, version] of shard.pageVersions()) {
      const page = pages.get(pageId);
      if (!page) continue; // its chunks are orphans
      if (page.version !== version) pagesStale.push(pageId);
      const want = facetFields(page);
      if (facetKey(want) !== facetKey(shard.pageFacets(pageId) ?? {})) facetsDiffer.push(pageId);
    }

    const missingChunks: string[] = [];
    const chunksDiffer: ChunkFieldDiff[] = [];
    const vectorsMissing: string[] = [];
    const vectorsDiffer: string[] = [];
    const vectorsExtra: string[] = [];
    let chunks = 0;
    let vectors = 0;
    for (const c of verifyChunks(db, domain)) {
      chunks++;
      if (c.vector) vectors++;
      const id = chunkId(c.pageId, c.idx);
      const slot = held.get(id);
      if (slot === undefined) {
        missingChunks.push(id);
        continue;
      }
      held.delete(id);
      const doc = docs[store.internalOf[slot] as number];
      const fields: string[] = [];
      if (!doc) fields.push("heading", "text");
      else {
        if (doc.heading !== stored(c.heading)) fields.push("heading");
        if (doc.text !== stored(c.text)) fields.push("text");
      }
      if (
        doc?.pageId !== c.pageId ||
        store.pages.pageId(store.pageRow[slot] as number) !== c.pageId
      )
        fields.push("page");
      if (fields.length > 0) chunksDiffer.push({ chunkId: id, fields });
      const has = store.vectors.has(slot);
      if (c.vector) {
        if (!has) vectorsMissing.push(id);
        else if (!sameVector(store.vectors.raw(slot), c.vector)) vectorsDiffer.push(id);
      } else if (has) vectorsExtra.push(id);
    }
    const orphanChunks = [...held.keys()].sort();
    const lists = [
      missingChunks,
      orphanChunks,
      duplicateChunks,
      chunksDiffer,
      pagesStale,
      facetsDiffer,
      vectorsMissing,
      vectorsDiffer,
      vectorsExtra,
    ];
    return {
      domain,
      health,
      sqlite: { pages: pages.size, chunks, vectors },
      shard: { pages: shard.pages, chunks: shard.chunks, vectors: store.vectors.count },
      missingChunks: missingChunks.sort(),
      orphanChunks,
      duplicateChunks: duplicateChunks.sort(),
      chunksDiffer: chunksDiffer.sort((a, b) => a.chunkId.localeCompare(b.chunkId)),
      pagesStale: pagesStale.sort(),
      facetsDiffer: facetsDiffer.sort(),
      vectorsMissing: vectorsMissing.sort(),
      vectorsDiffer: vectorsDiffer.sort(),
      vectorsExtra: vectorsExtra.sort(),
      differences: lists.reduce((n, l) => n + l.length, health === "ok" ? 0 : 1),
    };
  } finally {
    shard.dispose();
  }
}

/** Domains with stored pages or shard files in `dir`, sorted. */
export function verifyDomains(db: Db, dir: string): string[] {
  return [...new Set([...storedDomains(db), ...domainsOnDisk(dir)])].sort();
}

export interface RepairOptions {
  readonly db: Db;
  readonly registry: ShardRegistry;
  /** The model's identity in vector keys (vector-model.ts). */
  readonly vectorModel: string;
  readonly log: (message: string) => void;
}

/**
 * Rebuilds the domains' shards from SQLite, as a start rebuilds a damaged one, then closes the
 * registry (every shard snapshotted). A domain without stored pages loses its shard files. No
 * embedder: vectors come from SQLite only; a chunk whose vector SQLite lacks is left waiting for
 * the model (`embedded = 0`), which a running service then embeds.
 */
export async function repairShards(o: RepairOptions, domains: readonly string[]): Promise<void> {
  const { db, registry } = o;
  const indexer = new SearchIndexer({
    registry,
    db,
    embedder: null,
    embeddingText: (chunk, title) => embeddingText(chunk, title),
    vectorModel: o.vectorModel,
    batch: 64,
    log: o.log,
  });
  const withPages = new Set(storedDomains(db));
  try {
    for (const domain of domains) {
      // Vectors embedded before SQLite kept them are in the shard only: copied first (the
      // start's reconcile does it), so that the rebuild from nothing does not lose them.
      if (withPages.has(domain) && unstoredChunks(db, domain, 1).length > 0) {
        await indexer.reconcileDomain(domain);
      }
      await registry.drop(domain);
      if (!withPages.has(domain)) continue;
      // The marker keeps the verdict if this stops half way: the next start rebuilds again.
      await writeRebuildMarker(registry.dir, domain, "missing");
      await indexer.reconcileDomain(domain);
      o.log(
        `${domain}: rebuilt from SQLite (${counted((await registry.shard(domain)).chunks, "chunk")})`,
      );
    }
  } finally {
    await indexer.close();
  }
}
