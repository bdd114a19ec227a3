/**
 * The search side of a process: the shard registry, the indexer that keeps it level with SQLite,
 * and (with embeddings on) the embedding workers for passages and queries.
 */
import type { Config } from "../config.ts";
import { embeddingBacklog } from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { SearchIndexer } from "./search-indexer.ts";
import { openShardRegistry, type ShardRegistry } from "./shard-registry.ts";

export interface SearchRuntime {
  readonly registry: ShardRegistry;
  readonly indexer: SearchIndexer;
  readonly embedQuery: ((q: string) => Promise<Float32Array>) | null;
  /** Chunks of a job still waiting for vectors; null when nothing is embedded. */
  readonly embeddingBacklog: ((jobId: string) => number) | null;
  close(): Promise<void>;
}

const contextText = (chunk: { heading: string; text: string }, title: string | null) =>
  [title, chunk.heading].filter(Boolean).join(" > ") +
  (title || chunk.heading ? "\n\n" : "") +
  chunk.text;

export async function openSearch(
  config: Config,
  db: Db,
  log: (message: string) => void,
): Promise<SearchRuntime> {
  const registry = await openShardRegistry(config);
  const indexer = new SearchIndexer({
    registry,
    db,
    embedder: null,
    embeddingText: contextText,
    batch: config.embedBatch,
    log,
  });
  return {
    registry,
    indexer,
    embedQuery: null,
    embeddingBacklog: null,
    async close() {
      await indexer.close();
    },
  };
}

export { embeddingBacklog };
