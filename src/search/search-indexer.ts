/**
 * Keeps the domain shards level with SQLite, the system of record. A stored page goes into its
 * shard at once (searchable by text); its chunks then wait in SQLite (`embedded = 0`) until the
 * embedding workers give them vectors, which go into SQLite (by the text embedded: a text already
 * stored, or repeated in the batch, is not embedded again) in the transaction that marks the
 * chunks embedded, then into the shard's log. At start every shard is checked against SQLite: a
 * missing, corrupt or outdated shard is rebuilt from it, vectors included, pages it lacks are
 * added, and only chunks whose vectors SQLite does not hold either wait for the model again, so
 * a crash anywhere loses nothing that SQLite has.
 */

import {
  chunksToEmbed,
  domainPageVersions,
  type IndexPage,
  indexPages,
  storedDomains,
} from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { nextEmbeddingBatch } from "../db/embedding-queue-repo.ts";
import type { PageWrite } from "../db/page-writes.ts";
import {
  anyStoredVector,
  dropUnusedVectors,
  markChunksUnembedded,
  saveChunkVectors,
  unstoredChunks,
} from "../db/vectors-repo.ts";
import { counted } from "../plural.ts";
import {
  shardVectorRows,
  storedChunkVectors,
  type VectorSource,
  vectorsToStore,
} from "./chunk-vectors.ts";
import { type PageInput, shardPage } from "./shard.ts";
import type { ShardHealth, ShardRegistry } from "./shard-registry.ts";

/** What the indexer needs of the embedding model. */
export interface PassageEmbedder {
  embedPassages(texts: readonly string[]): Promise<readonly Float32Array[]>;
}

/** The text the model embeds for a chunk: its title and heading path first (chunking.ts). */
export type EmbeddingText = (
  chunk: { heading: string; text: string },
  title: string | null,
) => string;

export interface IndexerOptions {
  readonly registry: ShardRegistry;
  readonly db: Db;
  readonly embedder: PassageEmbedder | null;
  readonly embeddingText: EmbeddingText;
  /** The model's identity in vector keys (vector-model.ts): vectors of another are not reused. */
  readonly vectorModel: string;
  /** Chunks embedded per round. */
  readonly batch: number;
  readonly log: (message: string) => void;
}

/** Chunks that want a vector and have none stored: they wait for the model (again). Chunks the
 * vector policy gives none never do. */
function unfound(pages: readonly IndexPage[], found: ReadonlyMap<number, unknown>): number[] {
  return pages.flatMap((p) =>
    p.chunks.filter((c) => c.vectorWanted && !found.has(c.id)).map((c) => c.id),
  );
}

export function chunkId(pageId: string, idx: number): string {
  return `${pageId}#${idx}`;
}

/** Pages a rebuild reads from SQLite at once, and chunks it indexes between two yields to the
 * requests waiting (a rebuild runs on the serving thread: ~0.1 ms of text indexing a chunk). */
const SLICE_PAGES = 50;
const SLICE_CHUNKS = 200;

/** Pages in groups of at most SLICE_CHUNKS chunks (a page with more is a group alone). */
function bySize(pages: readonly IndexPage[]): IndexPage[][] {
  const groups: IndexPage[][] = [];
  let group: IndexPage[] = [];
  let chunks = 0;
  for (const page of pages) {
    if (group.length > 0 && chunks + page.chunks.length > SLICE_CHUNKS) {
      groups.push(group);
      group = [];
      chunks = 0;
    }
    group.push(page);
    chunks += page.chunks.length;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** Lets requests waiting on the event loop run between slices of a long rebuild. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SearchIndexer {
  readonly #o: IndexerOptions;
  readonly #vectors: VectorSource;
  /** Stored pages waiting for their shard, by domain and page id (the latest write wins). */
  readonly #queued = new Map<string, Map<string, PageInput>>();
  #flushing: Promise<void> | null = null;
  #embedding: Promise<void> | null = null;
  #stopped = false;
  /** Rebuild progress by domain, for logs and the job view. */
  readonly rebuilding = new Map<string, { done: number; total: number }>();
  /** Domains whose shard failed its check at start, until their rebuild ends: reason by domain. */
  readonly #notReady = new Map<string, string>();

  constructor(options: IndexerOptions) {
    this.#o = options;
    this.#vectors = {
      db: options.db,
      embeddingText: options.embeddingText,
      model: options.vectorModel,
    };
  }

  /**
   * A page was stored: index its text now, its vectors when the embedder gets to them. Handed
   * what was written, so nothing is read back from SQLite.
   */
  pageStored(page: PageWrite): void {
    const pages = this.#queued.get(page.domain) ?? new Map<string, PageInput>();
    pages.set(page.id, shardPage(page.id, page.title, page.textHash, page.facets, page.chunks));
    this.#queued.set(page.domain, pages);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#flushing || this.#queued.size === 0) return;
    this.#flushing = this.#flushQueued()
      .catch((err: unknown) => this.#o.log(`search index: ${String(err)}`))
      .finally(() => {
        this.#flushing = null;
        this.#schedule();
      });
  }

  /** Waits until every stored page is in its shard (text). */
  async settled(): Promise<void> {
    for (let pending = this.#flushing; pending !== null; pending = this.#flushing) await pending;
  }

  async #flushQueued(): Promise<void> {
    const batches = [...this.#queued];
    this.#queued.clear();
    for (const [domain, pages] of batches) {
      await this.#o.registry.upsertPages(domain, [...pages.values()]);
    }
    this.wakeEmbedding();
  }

  /**
   * Why a search of `domain` may miss pages SQLite has: its shard failed its check at start and
   * is being rebuilt (null when it is whole).
   */
  indexStatus(domain: string): string | null {
    const reason = this.#notReady.get(domain);
    if (!reason) return null;
    const progress = this.rebuilding.get(domain);
    return progress && progress.total > 0
      ? `${reason}: ${progress.done} of ${counted(progress.total, "page")} back`
      : reason;
  }

  /**
   * Brings every shard level with SQLite (at start). Every shard's files are checked first, so
   * reads of a domain whose shard is rebuilding say so from the start, not only once its turn
   * comes.
   */
  async reconcile(): Promise<void> {
    const dropped = dropUnusedVectors(this.#o.db);
    if (dropped > 0) this.#o.log(`search: dropped ${counted(dropped, "vector")} no chunk uses`);
    const checked: [string, ShardHealth][] = [];
    for (const domain of storedDomains(this.#o.db)) {
      const health = await this.#o.registry.check(domain);
      if (health !== "ok")
        this.#notReady.set(domain, `search index ${health}, rebuilding from the database`);
      checked.push([domain, health]);
    }
    for (const [domain, health] of checked) await this.reconcileDomain(domain, health);
    this.wakeEmbedding();
  }

  async reconcileDomain(domain: string, known?: ShardHealth): Promise<void> {
    const { registry, db, log } = this.#o;
    const health = known ?? (await registry.check(domain));
    // The shard's pages first, then SQLite's: a page the resumed crawl stores meanwhile is in
    // SQLite before it reaches the shard, so it can never look like a page SQLite lacks.
    const held = health === "ok" ? await registry.pageVersions(domain) : new Map<string, string>();
    const wanted = domainPageVersions(db, domain);
    const stale = [...wanted].filter(([id, v]) => held.get(id) !== v).map(([id]) => id);
    const extra = [...held.keys()].filter((id) => !wanted.has(id));
    if (health !== "ok")
      log(
        `search shard ${domain}: ${health}; rebuilding ${counted(stale.length, "page")} from SQLite`,
      );
    if (extra.length > 0) await registry.removePages(domain, extra);
    this.rebuilding.set(domain, { done: 0, total: stale.length });
    const lookUp = anyStoredVector(db);
    let done = 0;
    for (let i = 0; i < stale.length; i += SLICE_PAGES) {
      const read = indexPages(db, stale.slice(i, i + SLICE_PAGES));
      const found = this.#storedVectors(read, lookUp);
      for (const pages of bySize(read)) {
        await registry.upsertPages(
          domain,
          pages.map((p) => {
            const page = shardPage(p.pageId, p.title, p.version, p, p.chunks);
            const vectors = p.chunks.map((c) => found.get(c.id) ?? null);
            return { ...page, chunks: page.chunks.map((c, n) => ({ ...c, vector: vectors[n] })) };
          }),
        );
        done += pages.length;
        this.rebuilding.set(domain, { done, total: stale.length });
        await yieldToRequests();
      }
      // Chunks SQLite holds no vector for (none was stored, or by another model) wait for one.
      markChunksUnembedded(db, unfound(read, found));
    }
    await this.#storeShardVectors(domain);
    await this.#fillLostVectors(domain, wanted, lookUp);
    if (health !== "ok") await registry.markRebuilt(domain);
    this.rebuilding.delete(domain);
    this.#notReady.delete(domain);
  }

  /** The pages' stored vectors by chunk id; none looked up when SQLite holds no vector at all. */
  #storedVectors(pages: readonly IndexPage[], lookUp: boolean): Map<number, Float32Array> {
    return lookUp ? storedChunkVectors(this.#vectors, pages) : new Map();
  }

  /** Vectors of chunks embedded before SQLite kept them are copied from the shard, once. */
  async #storeShardVectors(domain: string): Promise<void> {
    const { registry, db } = this.#o;
    for (let batch = unstoredChunks(db, domain, 500); batch.length > 0; ) {
      const { rows, lost } = shardVectorRows(this.#vectors, await registry.shard(domain), batch);
      saveChunkVectors(db, rows);
      markChunksUnembedded(db, lost);
      batch = unstoredChunks(db, domain, 500);
    }
  }

  /** Chunks of the shard without a vector (a torn log, say) get theirs from SQLite, or wait. */
  async #fillLostVectors(domain: string, wanted: Map<string, string>, lookUp: boolean) {
    const { registry, db } = this.#o;
    const missing = new Map<string, Set<number>>();
    for (const id of (await registry.shard(domain)).chunksWithoutVectors()) {
      const at = id.lastIndexOf("#");
      const pageId = id.slice(0, at);
      if (!wanted.has(pageId)) continue;
      const set = missing.get(pageId) ?? new Set<number>();
      set.add(Number(id.slice(at + 1)));
      missing.set(pageId, set);
    }
    const pageIds = [...missing.keys()];
    for (let i = 0; i < pageIds.length; i += 200) {
      const pages = indexPages(db, pageIds.slice(i, i + 200)).map((p) => ({
        ...p,
        chunks: p.chunks.filter((c) => c.vectorWanted && missing.get(p.pageId)?.has(c.idx)),
      }));
      const found = this.#storedVectors(pages, lookUp);
      const vectors = pages.flatMap((p) =>
        p.chunks.flatMap((c) => {
          const vector = found.get(c.id);
          return vector ? [{ chunkId: chunkId(p.pageId, c.idx), vector }] : [];
        }),
      );
      if (vectors.length > 0) await registry.setVectors(domain, vectors);
      markChunksUnembedded(db, unfound(pages, found));
    }
  }

  /** Starts the embedding loop if it is not running (new chunks, or a reconcile). */
  wakeEmbedding(): void {
    if (!this.#o.embedder || this.#embedding || this.#stopped) return;
    this.#embedding = this.#embedLoop()
      .catch((err: unknown) => this.#o.log(`embedding stopped: ${String(err)}`))
      .finally(() => {
        this.#embedding = null;
      });
  }

  async #embedLoop(): Promise<void> {
    const { db, registry, embedder, batch } = this.#o;
    if (!embedder) return;
    while (!this.#stopped) {
      await this.settled();
      // A slice of every job's backlog, not the oldest chunks of all (embedding-queue-repo.ts).
      const pending = nextEmbeddingBatch(db, batch);
      if (pending.length === 0) return;
      const { byDomain, rows } = await vectorsToStore(this.#vectors, embedder, pending);
      // SQLite first: a crash before the shard log has them loses nothing (the next start gives
      // the shard what SQLite holds, without the model).
      saveChunkVectors(db, rows);
      for (const [domain, list] of byDomain) await registry.setVectors(domain, list);
    }
  }

  /** Waits until every stored page is indexed and, with an embedder, every chunk embedded. */
  async idle(): Promise<void> {
    await this.settled();
    if (!this.#o.embedder) return;
    while (!this.#stopped && chunksToEmbed(this.#o.db, 1).length > 0) {
      this.wakeEmbedding();
      await (this.#embedding ?? Bun.sleep(50));
      await this.settled();
    }
  }

  /** Stops embedding and snapshots every changed shard. */
  async close(): Promise<void> {
    this.#stopped = true;
    await this.settled();
    await this.#embedding;
    await this.#o.registry.close();
  }
}
