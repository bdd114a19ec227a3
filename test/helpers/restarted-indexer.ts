/** A search indexer as a restarted service builds it over a crawler's store, with a model that
 * records every text handed to it (the tests that a restart never re-embeds). */
import { embeddingText } from "../../src/search/chunking.ts";
import { type PassageEmbedder, SearchIndexer } from "../../src/search/search-indexer.ts";
import type { ShardRegistry } from "../../src/search/shard-registry.ts";
import { vectorModelId } from "../../src/search/vector-model.ts";
import type { Crawler } from "./crawl.ts";

/** `model()` (read at each call: a pool started later) behind a log of the texts it was given. */
export function countingEmbedder(model: () => PassageEmbedder): {
  embedder: PassageEmbedder;
  texts: string[];
} {
  const texts: string[] = [];
  return {
    texts,
    embedder: {
      embedPassages(batch) {
        texts.push(...batch);
        return model().embedPassages(batch);
      },
    },
  };
}

export function restartedIndexer(
  crawler: Pick<Crawler, "store" | "config">,
  registry: ShardRegistry,
  embedder: PassageEmbedder,
): SearchIndexer {
  return new SearchIndexer({
    registry,
    db: crawler.store.write,
    embedder,
    embeddingText: (chunk, title) => embeddingText(chunk, title),
    vectorModel: vectorModelId(crawler.config.modelDir, crawler.config.embedVariant),
    batch: 64,
    log: () => {},
  });
}
