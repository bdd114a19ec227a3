/**
 * The search side of a process: the shard registry, the indexer that keeps it level with SQLite,
 * and (with embeddings on) the embedding workers for passages and queries.
 */
import type { Config } from "../config.ts";
import { embeddingBacklog } from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { counted } from "../plural.ts";
import { embeddingText } from "./chunking.ts";
import { EmbeddingPool } from "./embedding-pool.ts";
import { describeChecks } from "./graph-check.ts";
import { SearchIndexer } from "./search-indexer.ts";
import { openShardRegistry, type ShardRegistry } from "./shard-registry.ts";
import { vectorModelId } from "./vector-model.ts";

export interface SearchRuntime {
  readonly registry: ShardRegistry;
  readonly indexer: SearchIndexer;
  readonly embedQuery: ((q: string) => Promise<Float32Array>) | null;
  /** Why a domain's shard may miss pages SQLite has (rebuilding); null when whole. */
  readonly indexStatus: (domain: string) => string | null;
  /** Chunks of a job still waiting for vectors; null when nothing is embedded. */
  readonly embeddingBacklog: ((jobId: string) => number) | null;
  close(): Promise<void>;
}

/** `queries: false` (a crawl without a server): no query lane, `embedQuery` is null. */
export async function openSearch(
  config: Config,
  db: Db,
  log: (message: string) => void,
  { queries = true }: { readonly queries?: boolean } = {},
): Promise<SearchRuntime> {
  const registry = await openShardRegistry(config);
  const pool = config.embeddings
    ? await EmbeddingPool.start({
        lanes: config.embedThreads || navigator.hardwareConcurrency || 1,
        modelDir: config.modelDir,
        variant: config.embedVariant,
        queryLane: queries,
      })
    : null;
  if (pool) log(`embedding: ${counted(pool.lanes, "lane")}, ${describeChecks(pool.checks)}`);
  let closing: Promise<void> | null = null;
  const indexer = new SearchIndexer({
    registry,
    db,
    embedder: pool,
    embeddingText: (chunk, title) => embeddingText(chunk, title),
    vectorModel: vectorModelId(config.modelDir, config.embedVariant),
    batch: config.embedBatch,
    log,
  });
  return {
    registry,
    indexer,
    embedQuery: pool && queries ? (q) => pool.embedQuery(q) : null,
    indexStatus: (domain) => indexer.indexStatus(domain),
    embeddingBacklog: pool ? (jobId) => embeddingBacklog(db, jobId) : null,
    close() {
      // Idempotent: a second close waits for the first.
      closing ??= indexer.close().then(() => pool?.close());
      return closing;
    },
  };
}
