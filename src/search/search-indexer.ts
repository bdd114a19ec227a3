/**
 * Keeps the domain shards level with SQLite, the system of record. A stored page goes into its
 * shard at once (searchable by text); its chunks then wait in SQLite (`embedded = 0`) until the
 * embedding workers give them vectors, which go into the shard's log before the chunks are marked
 * embedded. At start every shard is checked against SQLite: a missing, corrupt or outdated shard
 * is rebuilt from it, pages it lacks are added, and chunks whose vectors were lost are embedded
 * again, so a crash anywhere loses nothing that SQLite has.
 */

import {
  chunksToEmbed,
  domainPageVersions,
  indexPages,
  markEmbedded,
  markUnembedded,
  storedDomains,
} from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { nextEmbeddingBatch } from "../db/embedding-queue-repo.ts";
import type { PageWrite } from "../db/page-writes.ts";
import { type PageInput, shardPage } from "./shard.ts";
import type { ShardRegistry } from "./shard-registry.ts";

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
  /** Chunks embedded per round. */
  readonly batch: number;
  readonly log: (message: string) => void;
}

export function chunkId(pageId: string, idx: number): string {
  return `${pageId}#${idx}`;
}

export class SearchIndexer {
  readonly #o: IndexerOptions;
  /** Stored pages waiting for their shard, by domain and page id (the latest write wins). */
  readonly #queued = new Map<string, Map<string, PageInput>>();
  #flushing: Promise<void> | null = null;
  #embedding: Promise<void> | null = null;
  #stopped = false;
  /** Rebuild progress by domain, for logs and the job view. */
  readonly rebuilding = new Map<string, { done: number; total: number }>();

  constructor(options: IndexerOptions) {
    this.#o = options;
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

  /** Brings every shard level with SQLite (at start). */
  async reconcile(): Promise<void> {
    for (const domain of storedDomains(this.#o.db)) await this.reconcileDomain(domain);
    this.wakeEmbedding();
  }

  async reconcileDomain(domain: string): Promise<void> {
    const { registry, db, log } = this.#o;
    const health = await registry.check(domain);
    const wanted = domainPageVersions(db, domain);
    const held = health === "ok" ? await registry.pageVersions(domain) : new Map<string, string>();
    const stale = [...wanted].filter(([id, v]) => held.get(id) !== v).map(([id]) => id);
    const extra = [...held.keys()].filter((id) => !wanted.has(id));
    if (health !== "ok")
      log(`search shard ${domain}: ${health}; rebuilding ${stale.length} pages from SQLite`);
    if (extra.length > 0) await registry.removePages(domain, extra);
    this.rebuilding.set(domain, { done: 0, total: stale.length });
    for (let i = 0; i < stale.length; i += 200) {
      const ids = stale.slice(i, i + 200);
      // Their vectors are gone with the old shard content: embedded again.
      markUnembedded(db, { pageIds: ids });
      await registry.upsertPages(
        domain,
        indexPages(db, ids).map((p) => shardPage(p.pageId, p.title, p.version, p, p.chunks)),
      );
      this.rebuilding.set(domain, { done: Math.min(stale.length, i + 200), total: stale.length });
    }
    const shard = await registry.shard(domain);
    const missing = new Set(shard.chunksWithoutVectors().map((id) => id.split("#")[0] ?? ""));
    markUnembedded(db, { pageIds: [...missing].filter((id) => wanted.has(id)) });
    if (health !== "ok") await registry.markRebuilt(domain);
    this.rebuilding.delete(domain);
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
    const { db, registry, embedder, embeddingText, batch } = this.#o;
    if (!embedder) return;
    while (!this.#stopped) {
      await this.settled();
      // A slice of every job's backlog, not the oldest chunks of all (embedding-queue-repo.ts).
      const pending = nextEmbeddingBatch(db, batch);
      if (pending.length === 0) return;
      const vectors = await embedder.embedPassages(pending.map((c) => embeddingText(c, c.title)));
      const byDomain = new Map<string, { chunkId: string; vector: Float32Array }[]>();
      pending.forEach((c, i) => {
        const vector = vectors[i];
        if (!vector) return;
        const list = byDomain.get(c.domain) ?? [];
        list.push({ chunkId: chunkId(c.pageId, c.idx), vector });
        byDomain.set(c.domain, list);
      });
      for (const [domain, list] of byDomain) await registry.setVectors(domain, list);
      markEmbedded(
        db,
        pending.map((c) => c.id),
      );
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
